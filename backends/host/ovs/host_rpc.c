/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_rpc.c: a JSON-RPC 1.0 client on a unix socket; non-blocking, with a deadline on everything.
 */
#include "backends/host/ovs/host_rpc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "backends/host/ovs/host_ovsparse.h"
#include "core/clock.h"
#include "core/xalloc.h"

struct host_rpc {
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int fd; /* -1 until connected; dropped after any failure */
	int timeout_ms;
	int connect_errno;
	pid_t peer_pid; /* the listener's pid (SO_PEERCRED) at the last connect, else 0 */
	long long next_id;
	char *buf; /* bytes read and not yet consumed */
	size_t len, cap;
};

struct host_rpc *host_rpc_new(const char *path, int timeout_ms)
{
	struct host_rpc *r = xcalloc(1, sizeof(*r));
	r->fd = -1;
	r->timeout_ms = timeout_ms;
	snprintf(r->path, sizeof(r->path), "%s", path);
	return r;
}

static void rpc_drop(struct host_rpc *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	r->len = 0;
}

void host_rpc_free(struct host_rpc *r)
{
	if (!r)
		return;
	rpc_drop(r);
	free(r->buf);
	free(r);
}

void host_rpc_set_path(struct host_rpc *r, const char *path)
{
	if (strcmp(r->path, path) != 0)
		rpc_drop(r);
	snprintf(r->path, sizeof(r->path), "%s", path);
}

const char *host_rpc_path(const struct host_rpc *r)
{
	return r->path;
}

bool host_rpc_connected(const struct host_rpc *r)
{
	return r->fd >= 0;
}

int host_rpc_connect_errno(const struct host_rpc *r)
{
	return r->connect_errno;
}

static int rpc_ms_left(uint64_t deadline)
{
	uint64_t now = clock_mono_ns();
	return now >= deadline ? 0 : (int)((deadline - now + NS_PER_MS - 1) / NS_PER_MS);
}

int host_rpc_connect(struct host_rpc *r, char *err, size_t errlen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	uint64_t deadline = clock_mono_ns() + HOST_RPC_CONNECT_MS * NS_PER_MS;

	rpc_drop(r);
	r->connect_errno = 0;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	memcpy(sa.sun_path, r->path, sizeof(sa.sun_path));
	for (;;) {
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			break;
		int e = errno;
		if (e == EINTR)
			continue;
		/* A unix listener whose backlog is full (it never accepts) answers EAGAIN
		 * to a non-blocking connect: try again until the deadline, no longer. */
		if (e == EAGAIN && rpc_ms_left(deadline) > 0) {
			poll(NULL, 0, 5);
			continue;
		}
		if (e == EINPROGRESS) {
			struct pollfd p = {.fd = fd, .events = POLLOUT};
			int so = 0;
			socklen_t sl = sizeof(so);
			if (poll(&p, 1, rpc_ms_left(deadline)) == 1 &&
			    getsockopt(fd, SOL_SOCKET, SO_ERROR, &so, &sl) == 0 && so == 0)
				break;
			e = so ? so : ETIMEDOUT;
		}
		close(fd);
		r->connect_errno = e;
		if (e == EAGAIN)
			snprintf(err, errlen, "%s: the listener accepts no connection within %d ms",
				 r->path, HOST_RPC_CONNECT_MS);
		else
			snprintf(err, errlen, "%s: %s%s", r->path, strerror(e),
				 e == EACCES || e == EPERM ? " (needs root)" : "");
		return -1;
	}
	r->fd = fd;
	r->len = 0;
	/* The process that listens is the daemon we talk to, whatever its socket is named:
	 * the kernel's word for it, not a name another daemon could share. */
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	r->peer_pid = getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) == 0 ? cred.pid : 0;
	return 0;
}

pid_t host_rpc_peer_pid(const struct host_rpc *r)
{
	return r->peer_pid;
}

static int rpc_send_all(struct host_rpc *r, const char *s, size_t n, uint64_t deadline, char *err,
			size_t errlen)
{
	while (n) {
		ssize_t w = send(r->fd, s, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd p = {.fd = r->fd, .events = POLLOUT};
			int left = rpc_ms_left(deadline);
			if (left == 0 || poll(&p, 1, left) == 0) {
				snprintf(err, errlen,
					 "%s: the server reads nothing (send timed out)", r->path);
				return -1;
			}
			continue;
		}
		if (w <= 0) {
			snprintf(err, errlen, "%s: send: %s", r->path, strerror(errno));
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int host_rpc_call(struct host_rpc *r, const char *method, json_t *params, json_t **result,
		  char *err, size_t errlen)
{
	uint64_t deadline = clock_mono_ns() + (uint64_t)r->timeout_ms * NS_PER_MS;
	*result = NULL;
	if (!params)
		params = json_array();
	if (r->fd < 0 && host_rpc_connect(r, err, errlen) != 0) {
		json_decref(params);
		return -1;
	}
	long long id = r->next_id++;
	json_t *o =
	    json_pack("{s:s, s:o, s:I}", "method", method, "params", params, "id", (json_int_t)id);
	char *req = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (!req) {
		snprintf(err, errlen, "%s: cannot encode the request", method);
		return -1;
	}
	int rc = rpc_send_all(r, req, strlen(req), deadline, err, errlen);
	free(req);
	if (rc != 0) {
		rpc_drop(r);
		return -1;
	}
	for (;;) {
		bool is_error;
		size_t used;
		int pr = host_ovs_parse_reply_json(r->buf, r->len, id, result, &is_error, &used,
						   err, errlen);
		if (pr < 0) {
			rpc_drop(r);
			return -1;
		}
		if (pr == 2) {
			memmove(r->buf, r->buf + used, r->len - used);
			r->len -= used;
			continue;
		}
		if (pr == 1) {
			memmove(r->buf, r->buf + used, r->len - used);
			r->len -= used;
			return is_error ? 1 : 0;
		}
		int left = rpc_ms_left(deadline);
		struct pollfd pfd = {.fd = r->fd, .events = POLLIN};
		int pn = left > 0 ? poll(&pfd, 1, left) : 0;
		if (pn < 0 && errno == EINTR)
			continue;
		if (pn <= 0) {
			snprintf(err, errlen, "%s: no %sreply within %d ms", method,
				 r->len ? "complete " : "", r->timeout_ms);
			rpc_drop(r); /* a late reply would be taken for the next request's */
			return -1;
		}
		if (r->cap - r->len < 4096) {
			if (r->cap >= HOST_RPC_MAX_REPLY) {
				snprintf(err, errlen, "%s: reply larger than %u bytes: refused",
					 method, HOST_RPC_MAX_REPLY);
				rpc_drop(r);
				return -1;
			}
			r->cap = r->cap ? r->cap * 2 : 16384;
			r->buf = xrealloc(r->buf, r->cap);
		}
		ssize_t n = recv(r->fd, r->buf + r->len, r->cap - r->len, MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			snprintf(err, errlen, "%s: connection closed by the server", method);
			rpc_drop(r);
			return -1;
		}
		r->len += (size_t)n;
	}
}

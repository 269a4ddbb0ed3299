/* host_ovs.c: talking to ovs-vswitchd over its unixctl socket, and setting its max sleep. */
#include "backends/host_ovs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/xalloc.h"

/* A reply comes in well under 1 ms (docs/pmd.md §12); a busy main loop may take longer. */
#define HOST_OVS_TIMEOUT_MS 500
/* pmd-perf-show with histograms is about 7 kB per PMD (docs/pmd.md §10); cap a runaway. */
#define HOST_OVS_MAX_REPLY (4u << 20)

struct host_ovs {
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	bool found; /* path found through the pidfile: find it again after a restart */
	int fd; /* -1 until connected; reconnected after any failure */
	long long next_id;
	char *buf; /* bytes read and not yet consumed */
	size_t len, cap;
};

static int ovs_find_socket(char *out, size_t outlen, char *err, size_t errlen)
{
	const char *rundir = getenv("OVS_RUNDIR");
	char pidpath[PATH_MAX];
	if (!rundir || !*rundir)
		rundir = "/var/run/openvswitch";
	snprintf(pidpath, sizeof(pidpath), "%s/ovs-vswitchd.pid", rundir);
	FILE *f = fopen(pidpath, "r");
	long pid = 0;
	if (!f) {
		snprintf(err, errlen, "no ovs-vswitchd (%s: %s)", pidpath, strerror(errno));
		return -1;
	}
	if (fscanf(f, "%ld", &pid) != 1 || pid <= 0) {
		fclose(f);
		snprintf(err, errlen, "no ovs-vswitchd (%s holds no pid)", pidpath);
		return -1;
	}
	fclose(f);
	if ((size_t)snprintf(out, outlen, "%s/ovs-vswitchd.%ld.ctl", rundir, pid) >= outlen) {
		snprintf(err, errlen, "OVS_RUNDIR is too long for a socket path");
		return -1;
	}
	return 0;
}

static int ovs_connect(struct host_ovs *o, char *err, size_t errlen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	memcpy(sa.sun_path, o->path, sizeof(sa.sun_path));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		int e = errno;
		close(fd);
		snprintf(err, errlen, "%s: %s%s", o->path, strerror(e),
			 e == EACCES || e == EPERM ? " (needs root)" : "");
		return -1;
	}
	o->fd = fd;
	o->len = 0;
	return 0;
}

struct host_ovs *host_ovs_open(const char *path, char *err, size_t errlen)
{
	struct host_ovs *o = xcalloc(1, sizeof(*o));
	o->fd = -1;
	if (path && *path) {
		if (strlen(path) >= sizeof(o->path)) {
			snprintf(err, errlen, "%s: path too long for a unix socket", path);
			free(o);
			return NULL;
		}
		snprintf(o->path, sizeof(o->path), "%s", path);
	} else if (ovs_find_socket(o->path, sizeof(o->path), err, errlen) != 0) {
		free(o);
		return NULL;
	} else {
		o->found = true;
	}
	if (ovs_connect(o, err, errlen) != 0) {
		free(o);
		return NULL;
	}
	return o;
}

void host_ovs_close(struct host_ovs *o)
{
	if (!o)
		return;
	if (o->fd >= 0)
		close(o->fd);
	free(o->buf);
	free(o);
}

const char *host_ovs_path(const struct host_ovs *o)
{
	return o->path;
}

static void ovs_drop(struct host_ovs *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	o->len = 0;
}

static int ovs_send_all(int fd, const char *s, size_t n, char *err, size_t errlen)
{
	while (n) {
		ssize_t w = send(fd, s, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			snprintf(err, errlen, "send: %s", strerror(errno));
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int host_ovs_call(struct host_ovs *o, const char *method, const char *const *params, int nparams,
		  char **result, char *err, size_t errlen)
{
	*result = NULL;
	/* A daemon restart closes the socket, and a new pid names a new one:
	 * reconnect once per call, through the pidfile again when that is how
	 * the socket was found. */
	if (o->fd < 0) {
		if (o->found)
			ovs_find_socket(o->path, sizeof(o->path), err, errlen);
		if (ovs_connect(o, err, errlen) != 0)
			return -1;
	}
	long long id = o->next_id++;
	char *req = host_ovs_request(method, params, nparams, id);
	int rc = ovs_send_all(o->fd, req, strlen(req), err, errlen);
	free(req);
	if (rc != 0) {
		ovs_drop(o);
		return -1;
	}
	uint64_t deadline = clock_mono_ns() + HOST_OVS_TIMEOUT_MS * NS_PER_MS;
	for (;;) {
		bool is_error;
		size_t used;
		int pr =
		    host_ovs_parse_reply(o->buf, o->len, id, result, &is_error, &used, err, errlen);
		if (pr < 0) {
			ovs_drop(o);
			return -1;
		}
		if (pr == 1) {
			memmove(o->buf, o->buf + used, o->len - used);
			o->len -= used;
			return is_error ? 1 : 0;
		}
		uint64_t now = clock_mono_ns();
		if (now >= deadline) {
			snprintf(err, errlen, "%s: no reply within %d ms", method,
				 HOST_OVS_TIMEOUT_MS);
			ovs_drop(o); /* a late reply would be taken for the next request's */
			return -1;
		}
		struct pollfd pfd = {.fd = o->fd, .events = POLLIN};
		int pn = poll(&pfd, 1, (int)((deadline - now) / NS_PER_MS) + 1);
		if (pn < 0 && errno == EINTR)
			continue;
		if (pn <= 0)
			continue;
		if (o->cap - o->len < 4096) {
			if (o->cap >= HOST_OVS_MAX_REPLY) {
				snprintf(err, errlen, "%s: reply larger than %u bytes", method,
					 HOST_OVS_MAX_REPLY);
				ovs_drop(o);
				return -1;
			}
			o->cap = o->cap ? o->cap * 2 : 16384;
			o->buf = xrealloc(o->buf, o->cap);
		}
		ssize_t r = recv(o->fd, o->buf + o->len, o->cap - o->len, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(err, errlen, "%s: connection closed by ovs-vswitchd", method);
			ovs_drop(o);
			return -1;
		}
		o->len += (size_t)r;
	}
}

extern char **environ;

int host_ovs_set_maxsleep(struct host_ovs *o, int us, bool new_key, char *err, size_t errlen)
{
	char db[PATH_MAX + 8], kv[64], dir[sizeof(o->path)];
	const char *env_db = getenv("TUNETOP_OVS_DB");

	snprintf(dir, sizeof(dir), "%s", o->path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	if (env_db && *env_db)
		snprintf(db, sizeof(db), "--db=%s", env_db);
	else
		snprintf(db, sizeof(db), "--db=unix:%s/db.sock", dir);
	snprintf(kv, sizeof(kv), "other_config:%s=%d", new_key ? "pmd-sleep-max" : "pmd-maxsleep",
		 us);
	char *argv[] = {"ovs-vsctl", "--timeout=5", db, "set", "Open_vSwitch", ".", kv, NULL};

	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int rc = posix_spawnp(&pid, "ovs-vsctl", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (rc != 0) {
		close(pipefd[0]);
		snprintf(err, errlen, "pmd.maxsleep_us: cannot run ovs-vsctl: %s", strerror(rc));
		return -1;
	}
	char msg[256];
	ssize_t n = 0, r;
	while ((r = read(pipefd[0], msg + n, sizeof(msg) - 1 - (size_t)n)) > 0 ||
	       (r < 0 && errno == EINTR))
		if (r > 0 && (n += r) >= (ssize_t)sizeof(msg) - 1)
			break;
	close(pipefd[0]);
	msg[n > 0 ? n : 0] = '\0';
	while (n > 0 && msg[n - 1] == '\n')
		msg[--n] = '\0';
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(err, errlen, "pmd.maxsleep_us: ovs-vsctl failed: %s",
			 n > 0 ? msg : "(no message)");
		return -1;
	}
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_ovs.c: ovs-vswitchd's unixctl socket: found like ovs-appctl finds it, followed across
 * restarts through the pidfile, every call bounded by a deadline (backends/host/ovs/host_rpc.c). */
#include "backends/host/ovs/host_ovs.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>

#include "backends/host/ovs/host_rpc.h"
#include "core/xalloc.h"

/* A reply comes in well under 1 ms (docs/pmd.md §12); a busy main loop may take longer. */
#define HOST_OVS_TIMEOUT_MS 500

struct host_ovs {
	struct host_rpc *rpc;
	/* Found through <dir>/<name>.pid (OVS_RUNDIR, or a pid-named TUNETOP_OVS_SOCKET):
	 * a restart makes a new <name>.<pid>.ctl, found again the same way. */
	bool follow;
	char dir[PATH_MAX], name[64];
};

/* <dir>/<name>.<pid>.ctl from <dir>/<name>.pid, as ovs-appctl -t does. */
static int ovs_resolve(const char *dir, const char *name, char *out, size_t outlen, char *err,
		       size_t errlen)
{
	char pidpath[PATH_MAX + 80];
	long pid = 0;
	snprintf(pidpath, sizeof(pidpath), "%s/%s.pid", dir, name);
	FILE *f = fopen(pidpath, "re");
	if (!f) {
		snprintf(err, errlen, "no %s (%s: %s)", name, pidpath, strerror(errno));
		return -1;
	}
	if (fscanf(f, "%ld", &pid) != 1 || pid <= 0) {
		fclose(f);
		snprintf(err, errlen, "no %s (%s holds no pid)", name, pidpath);
		return -1;
	}
	fclose(f);
	if ((size_t)snprintf(out, outlen, "%s/%s.%ld.ctl", dir, name, pid) >= outlen) {
		snprintf(err, errlen, "%s is too long for a socket path", dir);
		return -1;
	}
	return 0;
}

bool host_ovs_split_pid_path(const char *path, char *dir, size_t dirlen, char *name, size_t namelen)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t n = strlen(base);
	if (n < 7 || strcmp(base + n - 4, ".ctl") != 0)
		return false;
	const char *e = base + n - 4, *d = e;
	while (d > base && isdigit((unsigned char)d[-1]))
		d--;
	if (d == e || d == base || d[-1] != '.' || d - 1 == base)
		return false;
	size_t nl = (size_t)(d - 1 - base), dl = slash ? (size_t)(slash - path) : 1;
	if (nl >= namelen || dl >= dirlen)
		return false;
	memcpy(name, base, nl);
	name[nl] = '\0';
	if (slash)
		memcpy(dir, path, dl);
	else
		dir[0] = '.';
	dir[dl] = '\0';
	return true;
}

/* Give up on o, leaving errno as the failed connect's. */
static struct host_ovs *ovs_open_failed(struct host_ovs *o)
{
	int e = host_rpc_connect_errno(o->rpc);
	host_ovs_close(o);
	errno = e ? e : EIO;
	return NULL;
}

struct host_ovs *host_ovs_open(const char *path, char *err, size_t errlen)
{
	struct host_ovs *o = xcalloc(1, sizeof(*o));
	char sock[sizeof(((struct sockaddr_un *)0)->sun_path)];

	if (path && *path) {
		if (strlen(path) >= sizeof(sock)) {
			snprintf(err, errlen, "%s: path too long for a unix socket", path);
			free(o);
			errno = ENAMETOOLONG;
			return NULL;
		}
		snprintf(sock, sizeof(sock), "%s", path);
		o->follow =
		    host_ovs_split_pid_path(path, o->dir, sizeof(o->dir), o->name, sizeof(o->name));
	} else {
		const char *rundir = getenv("OVS_RUNDIR");
		snprintf(o->dir, sizeof(o->dir), "%s",
			 rundir && *rundir ? rundir : "/var/run/openvswitch");
		snprintf(o->name, sizeof(o->name), "ovs-vswitchd");
		o->follow = true;
		if (ovs_resolve(o->dir, o->name, sock, sizeof(sock), err, errlen) != 0) {
			free(o);
			errno = ENOENT; /* no pidfile, or its daemon gone: none there now */
			return NULL;
		}
	}
	o->rpc = host_rpc_new(sock, HOST_OVS_TIMEOUT_MS);
	if (host_rpc_connect(o->rpc, err, errlen) != 0) {
		/* A pid-named socket of a daemon restarted since: its pidfile knows the new one. */
		char again[sizeof(sock)], e2[64];
		if (!o->follow ||
		    ovs_resolve(o->dir, o->name, again, sizeof(again), e2, sizeof(e2)) != 0 ||
		    strcmp(again, sock) == 0)
			return ovs_open_failed(o);
		host_rpc_set_path(o->rpc, again);
		if (host_rpc_connect(o->rpc, err, errlen) != 0)
			return ovs_open_failed(o);
	}
	return o;
}

void host_ovs_close(struct host_ovs *o)
{
	if (!o)
		return;
	host_rpc_free(o->rpc);
	free(o);
}

const char *host_ovs_path(const struct host_ovs *o)
{
	return host_rpc_path(o->rpc);
}

enum host_ovs_turn host_ovs_turn(pid_t was_pid, bool was_up, pid_t pid, bool up)
{
	if (was_up && !up)
		return HOST_OVS_STOPPED;
	if (!up || !was_pid || pid <= 0)
		return HOST_OVS_SAME; /* the first to answer, or one whose pid is unknown */
	if (pid != was_pid)
		return HOST_OVS_RESTARTED;
	return was_up ? HOST_OVS_SAME : HOST_OVS_BACK;
}

pid_t host_ovs_pid(const struct host_ovs *o)
{
	pid_t pid = host_rpc_peer_pid(o->rpc);
	if (pid > 0)
		return pid;
	/* Not connected yet: the pid in the socket's name ("ovs-vswitchd.<pid>.ctl"). */
	const char *path = host_ovs_path(o), *base = strrchr(path, '/');
	int n;
	char tail[8];
	base = base ? base + 1 : path;
	if (sscanf(base, "ovs-vswitchd.%d.%7s", &n, tail) == 2 && n > 0 && strcmp(tail, "ctl") == 0)
		return (pid_t)n;
	return 0;
}

void host_ovs_db_path(const struct host_ovs *o, char *out, size_t outlen)
{
	const char *env = getenv("TUNETOP_OVS_DB");
	if (env && *env) {
		snprintf(out, outlen, "%s", strncmp(env, "unix:", 5) == 0 ? env + 5 : env);
		return;
	}
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", host_ovs_path(o));
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	snprintf(out, outlen, "%s/db.sock", dir);
}

int host_ovs_call(struct host_ovs *o, const char *method, const char *const *params, int nparams,
		  char **result, char *err, size_t errlen)
{
	*result = NULL;
	/* A daemon restart closes the socket, and a new pid names a new one: before
	 * reconnecting, look at the pidfile again when that is how the socket was found. */
	if (!host_rpc_connected(o->rpc) && o->follow) {
		char sock[sizeof(((struct sockaddr_un *)0)->sun_path)], e2[64];
		if (ovs_resolve(o->dir, o->name, sock, sizeof(sock), e2, sizeof(e2)) == 0)
			host_rpc_set_path(o->rpc, sock);
	}
	json_t *a = json_array();
	for (int i = 0; i < nparams; i++)
		json_array_append_new(a, json_string(params[i] ? params[i] : ""));
	json_t *res;
	int rc = host_rpc_call(o->rpc, method, a, &res, err, errlen);
	if (rc != 0)
		return rc;
	if (!json_is_string(res)) {
		snprintf(err, errlen, "%s: bad JSON-RPC reply: result is not text", method);
		json_decref(res);
		return -1;
	}
	*result = xstrdup(json_string_value(res));
	json_decref(res);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_psig.c: a process's activity figure and the last pid handed out (host_psig.h). */
#include "backends/host/host_psig.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "backends/host/host_proc.h"
#include "backends/host/host_tscomm.h"

/* A small file under dirfd into buf (NUL-terminated); its length, or -1. */
static ssize_t read_at(int dirfd, const char *path, char *buf, size_t len)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t r = read(fd, buf, len - 1);
	close(fd);
	if (r <= 0)
		return -1;
	buf[r] = '\0';
	return r;
}

void host_psig_read(int rootfd, struct host_tscomm *tc, const pid_t *pids, size_t n, uint64_t *sig,
		    bool *ok)
{
	if (tc && n) {
		struct host_ts_acct *a = xreallocarray(NULL, n, sizeof(*a));
		if (host_tscomm_tgid_acct(tc, pids, n, a, ok) != 0)
			memset(ok, 0, n * sizeof(*ok)); /* the socket failed: read every list */
		for (size_t i = 0; i < n; i++)
			sig[i] = a[i].cpu_run_ns + a[i].nvcsw + a[i].nivcsw;
		free(a);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char path[32], buf[1024];
		struct host_taskstat ts;
		snprintf(path, sizeof(path), "%d/stat", (int)pids[i]);
		ssize_t r = read_at(rootfd, path, buf, sizeof(buf));
		ok[i] = r > 0 && host_proc_taskstat(buf, (size_t)r, &ts) == 0;
		sig[i] = ok[i] ? ts.utime_ticks + ts.stime_ticks : 0;
	}
}

bool host_psig_last_pid(int rootfd, long *out)
{
	char buf[32], *end;
	if (read_at(rootfd, "sys/kernel/ns_last_pid", buf, sizeof(buf)) <= 0)
		return false;
	long v = strtol(buf, &end, 10);
	if (end == buf)
		return false;
	*out = v;
	return true;
}

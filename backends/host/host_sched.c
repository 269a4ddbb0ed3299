/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_sched.c: host threads' schedstat and timer slack through kept fds; PMD slack read and
 * written. */
#include "backends/host/host_sched.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/host/host_proc.h"
#include "core/schedstat.h"
#include "core/xalloc.h"

/*
 * The files of one listed thread, kept open from one refresh to the next: a pread on a kept
 * descriptor is one syscall where open+read+close is three, and the opens were most of a
 * host refresh's kernel time. fd -1: not open (yet, or beyond the cap: read through the
 * open+pread+close fallback).
 */
struct host_sched_ent {
	pid_t pid, tid;
	uint64_t start_ticks; /* of the thread the fds are of: a reused tid has another */
	int sched_fd, slack_fd;
	int64_t slack_ns; /* as last read (-1 unreadable), at slack_read_ns (0: never) */
	uint64_t slack_read_ns;
};

struct host_sched {
	int rootfd; /* the proc root ("/proc"; a fake one in the tests) */
	struct host_sched_ent *ent, *tmp; /* ent[i] is cur[i] of the last host_sched_sync */
	size_t n, cap;
	int nfds, max_fds;
};

struct host_sched *host_sched_new_at(const char *proc_root)
{
	struct host_sched *s = xcalloc(1, sizeof(*s));
	s->rootfd = open(proc_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	s->max_fds = host_fd_budget(HOST_SCHED_MAX_FDS);
	return s;
}

struct host_sched *host_sched_new(void)
{
	return host_sched_new_at("/proc");
}

static void ent_close(struct host_sched *s, struct host_sched_ent *e)
{
	if (e->sched_fd >= 0) {
		close(e->sched_fd);
		s->nfds--;
	}
	if (e->slack_fd >= 0) {
		close(e->slack_fd);
		s->nfds--;
	}
	e->sched_fd = e->slack_fd = -1;
}

void host_sched_free(struct host_sched *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		ent_close(s, &s->ent[i]);
	if (s->rootfd >= 0)
		close(s->rootfd);
	free(s->ent);
	free(s->tmp);
	free(s);
}

int host_sched_nfds(const struct host_sched *s)
{
	return s->nfds;
}

void host_sched_sync(struct host_sched *s, const struct host_thread_info *cur, size_t n)
{
	if (s->cap < n) {
		s->cap = n + 16;
		s->tmp = xreallocarray(s->tmp, s->cap, sizeof(*s->tmp));
		s->ent = xreallocarray(s->ent, s->cap, sizeof(*s->ent));
	}
	/* Both lists are sorted by tid: one merge walk carries each thread's fds over, and
	 * closes those of the threads gone and of a tid now another thread's. */
	size_t j = 0;
	for (size_t i = 0; i < n; i++) {
		struct host_sched_ent *e = &s->tmp[i];
		while (j < s->n && s->ent[j].tid < cur[i].tid)
			ent_close(s, &s->ent[j++]);
		if (j < s->n && s->ent[j].tid == cur[i].tid) {
			*e = s->ent[j++];
			if (e->pid == cur[i].pid && e->start_ticks == cur[i].start_ticks)
				continue;
			ent_close(s, e);
		} else {
			e->sched_fd = e->slack_fd = -1;
		}
		e->pid = cur[i].pid;
		e->tid = cur[i].tid;
		e->start_ticks = cur[i].start_ticks;
		e->slack_ns = -1;
		e->slack_read_ns = 0;
	}
	while (j < s->n)
		ent_close(s, &s->ent[j++]);
	struct host_sched_ent *t = s->ent;
	s->ent = s->tmp;
	s->tmp = t;
	s->n = n;
}

/* pread the file at *fd, opening it (path under the root) first when not open: kept when
 * the cap allows, else closed again. The text NUL-terminated; its length or -1. */
static ssize_t ent_read(struct host_sched *s, int *fd, const char *path, char *buf, size_t len)
{
	int f = *fd;
	if (f < 0) {
		if (s->rootfd < 0 || (f = openat(s->rootfd, path, O_RDONLY | O_CLOEXEC)) < 0)
			return -1;
		if (s->nfds < s->max_fds) {
			*fd = f;
			s->nfds++;
		}
	}
	ssize_t r = pread(f, buf, len - 1, 0);
	if (f != *fd)
		close(f);
	if (r < 0)
		return -1; /* ESRCH: it exited; the next sync closes its fds */
	buf[r] = '\0';
	return r;
}

int host_sched_stat(struct host_sched *s, size_t i, struct schedstat *out)
{
	char path[64], buf[96];
	struct host_sched_ent *e = &s->ent[i];
	snprintf(path, sizeof(path), "%d/task/%d/schedstat", (int)e->pid, (int)e->tid);
	ssize_t len = ent_read(s, &e->sched_fd, path, buf, sizeof(buf));
	return len > 0 ? schedstat_parse(buf, (size_t)len, out) : -1;
}

int64_t host_sched_slack(struct host_sched *s, size_t i)
{
	char path[48], buf[32], *end;
	struct host_sched_ent *e = &s->ent[i];
	snprintf(path, sizeof(path), "%d/timerslack_ns", (int)e->tid);
	if (ent_read(s, &e->slack_fd, path, buf, sizeof(buf)) <= 0)
		return -1;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	return errno || end == buf || v < 0 ? -1 : (int64_t)v;
}

double host_sched_window_pct(uint64_t part_ns, uint64_t window_ns)
{
	if (!window_ns)
		return -1;
	double pct = 100.0 * (double)part_ns / (double)window_ns;
	return pct > 100.0 ? 100.0 : pct;
}

uint64_t host_sched_slack_max_age(enum subsys subsys, pid_t pid, bool have_ovs, pid_t ovs_pid)
{
	bool watched = subsys == SUBSYS_PMD && have_ovs && (ovs_pid == 0 || pid == ovs_pid);
	return watched ? 0 : HOST_SCHED_SLACK_AGE_NS;
}

int64_t host_sched_slack_aged(struct host_sched *s, size_t i, uint64_t now_ns, uint64_t max_age_ns)
{
	struct host_sched_ent *e = &s->ent[i];
	if (e->slack_read_ns && now_ns >= e->slack_read_ns &&
	    now_ns - e->slack_read_ns < max_age_ns)
		return e->slack_ns;
	e->slack_ns = host_sched_slack(s, i);
	e->slack_read_ns = now_ns ? now_ns : 1;
	return e->slack_ns;
}

/* The whole (small) file into buf, NUL-terminated; length or -1. */
static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = pread(fd, buf, len - 1, 0);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

int64_t host_sched_slack_read(pid_t tid)
{
	char path[48], buf[32], *end;
	snprintf(path, sizeof(path), "/proc/%d/timerslack_ns", (int)tid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return -1;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	return errno || end == buf || v < 0 ? -1 : (int64_t)v;
}

int host_sched_slack_write(pid_t tid, int64_t ns, char *err, size_t errlen)
{
	char path[48], buf[24];
	snprintf(path, sizeof(path), "/proc/%d/timerslack_ns", (int)tid);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int n = snprintf(buf, sizeof(buf), "%lld\n", (long long)ns);
	if (fd < 0 || write(fd, buf, (size_t)n) != n) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		if (e == EPERM || e == EACCES)
			snprintf(err, errlen,
				 "pmd.timer_slack_ns: writing %s needs CAP_SYS_NICE (run as root)",
				 path);
		else
			snprintf(err, errlen, "pmd.timer_slack_ns: %s: %s", path, strerror(e));
		return -1;
	}
	close(fd);
	return 0;
}

static bool is_ovs_vswitchd(pid_t pid)
{
	char path[48], comm[32];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (read_small(path, comm, sizeof(comm)) <= 0)
		return false;
	comm[strcspn(comm, "\n")] = '\0';
	return strcmp(comm, "ovs-vswitchd") == 0;
}

/* The PMD threads of ovs-vswitchd only_pid (0: of every ovs-vswitchd) read from /proc itself,
 * before a scan has listed any thread: one comm per process, and the task lists of the
 * vswitchds alone, so another user's thousands of threads cost one read of their process. */
static int ovs_pmds_proc(pid_t only_pid, pid_t *tids, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int k = 0;
	while (d && k < max && (de = readdir(d))) {
		if (!host_proc_is_pid(de->d_name))
			continue;
		pid_t pid = (pid_t)atol(de->d_name);
		if ((only_pid && pid != only_pid) || !is_ovs_vswitchd(pid))
			continue;
		char path[64], comm[32];
		snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
		DIR *td = opendir(path);
		struct dirent *te;
		while (td && k < max && (te = readdir(td))) {
			if (!host_proc_is_pid(te->d_name))
				continue;
			snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid,
				 (int)atol(te->d_name));
			if (read_small(path, comm, sizeof(comm)) > 0 &&
			    strncmp(comm, "pmd", 3) == 0)
				tids[k++] = (pid_t)atol(te->d_name);
		}
		if (td)
			closedir(td);
	}
	if (d)
		closedir(d);
	return k;
}

int host_sched_ovs_pmds(const struct host_thread_info *cur, size_t n, pid_t only_pid, pid_t *tids,
			int max)
{
	int k = 0;
	if (n == 0)
		return ovs_pmds_proc(only_pid, tids, max);
	pid_t last_pid = 0;
	bool last_ovs = false;
	for (size_t i = 0; i < n && k < max; i++) {
		if (strncmp(cur[i].comm, "pmd", 3) != 0 || (only_pid && cur[i].pid != only_pid))
			continue;
		if (cur[i].pid != last_pid) {
			last_pid = cur[i].pid;
			last_ovs = is_ovs_vswitchd(cur[i].pid);
		}
		if (last_ovs)
			tids[k++] = cur[i].tid;
	}
	return k;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_tscan.c: the host thread scan with a per-process cache: /proc listed again only when its
 * link count changes (or every second), task lists re-read only when /proc/PID/task's link
 * count changes (or every 10 s), picked threads' stat files kept open and, with a stat age
 * set, read only when old or asked for (host_tscan_restat). */
#include "backends/host/host_threads.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "backends/host/host_proc.h"
#include "backends/host/host_tscomm.h"

/* Stat files kept open at most (the rest are opened per scan), within host_fd_budget(). */
#define TSCAN_MAX_FDS 2048

struct tscan_thread {
	pid_t tid;
	char comm[64];
	int fd; /* its stat file, -1 when not kept open */
	struct host_taskstat last; /* its last read, at stat_ns (0: none yet) */
	uint64_t stat_ns;
	uint64_t busy_ticks; /* utime + stime between its last two reads (0 after the first) */
	bool last_cached; /* at this run, its stat fields came from an earlier read */
};

struct tscan_proc {
	pid_t pid;
	nlink_t nlink; /* of /proc/PID/task when its list was read */
	pid_t picked_for; /* the extra_pid the picks were made for */
	bool ovs; /* ovs-vswitchd (extra_pid, or named so) */
	bool seen; /* in /proc at this run */
	bool vswitchd; /* its comm is ovs-vswitchd (host_thread_watched) */
	struct tscan_thread *t; /* picked threads only */
	size_t nt, capt;
};

struct host_tscan {
	char root[256];
	int rootfd;
	struct tscan_proc *p; /* sorted by pid */
	size_t np, capp;
	uint64_t full_at_ns; /* next full rescan */
	uint64_t list_at_ns; /* next listing of the root however its link count stands */
	nlink_t root_nlink; /* of the root when it was last listed */
	int nfds, max_fds, rescanned, listed;
	long tck;
	uint64_t stat_max_ns; /* host_tscan_set_stat_age */
	struct host_tscomm *tc; /* names by TASKSTATS (real /proc, as root), else NULL */
	pid_t *tids; /* a task list being read */
	char (*tcomm)[HOST_TSCOMM_LEN]; /* and its names from tc */
	bool *tok;
	size_t captids;
	pid_t watch_ovs; /* host_tscan_set_watch */
	/* The picked threads of a run, when more than its max: which are listed. */
	struct tscan_pick {
		uint32_t p, t;
		bool watched;
		uint64_t busy;
		pid_t tid;
	} * picks;
	size_t cappicks;
};

struct host_tscan *host_tscan_new(const char *proc_root)
{
	struct host_tscan *sc = xcalloc(1, sizeof(*sc));
	snprintf(sc->root, sizeof(sc->root), "%s", proc_root);
	sc->rootfd = open(proc_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	sc->tck = sysconf(_SC_CLK_TCK);
	if (sc->tck <= 0)
		sc->tck = 100;
	sc->max_fds = host_fd_budget(TSCAN_MAX_FDS);
	/* TASKSTATS answers for the tasks of our own pid namespace: the real /proc's. */
	if (strcmp(proc_root, "/proc") == 0)
		sc->tc = host_tscomm_open();
	return sc;
}

int host_fd_budget(int want)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur / 4 < (rlim_t)want)
		return (int)(rl.rlim_cur / 4);
	return want;
}

static void proc_drop_threads(struct host_tscan *sc, struct tscan_proc *p)
{
	for (size_t i = 0; i < p->nt; i++)
		if (p->t[i].fd >= 0) {
			close(p->t[i].fd);
			sc->nfds--;
		}
	p->nt = 0;
}

void host_tscan_free(struct host_tscan *sc)
{
	if (!sc)
		return;
	for (size_t i = 0; i < sc->np; i++) {
		proc_drop_threads(sc, &sc->p[i]);
		free(sc->p[i].t);
	}
	free(sc->p);
	host_tscomm_close(sc->tc);
	free(sc->tids);
	free(sc->tcomm);
	free(sc->tok);
	free(sc->picks);
	if (sc->rootfd >= 0)
		close(sc->rootfd);
	free(sc);
}

int host_tscan_rescanned(const struct host_tscan *sc)
{
	return sc->rescanned;
}

int host_tscan_listed(const struct host_tscan *sc)
{
	return sc->listed;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* The first line of a small file under dirfd, newline stripped. */
static bool read_line_at(int dirfd, const char *path, char *buf, size_t len)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t r = read(fd, buf, len - 1);
	close(fd);
	if (r <= 0)
		return false;
	buf[r] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/* The tids in the task directory td into sc->tids; how many. */
static size_t list_tids(struct host_tscan *sc, DIR *td)
{
	size_t n = 0;
	struct dirent *te;
	while ((te = readdir(td))) {
		if (!all_digits(te->d_name))
			continue;
		if (n == sc->captids) {
			sc->captids = sc->captids ? sc->captids * 2 : 256;
			sc->tids = xreallocarray(sc->tids, sc->captids, sizeof(*sc->tids));
			sc->tcomm = xreallocarray(sc->tcomm, sc->captids, sizeof(*sc->tcomm));
			sc->tok = xreallocarray(sc->tok, sc->captids, sizeof(*sc->tok));
		}
		sc->tids[n++] = (pid_t)atol(te->d_name);
	}
	return n;
}

/*
 * Re-read the task list of p: the picked threads, their stat files opened. A thread's name
 * is its comm file's; with TASKSTATS at hand, the threads whose task comm picks nothing
 * (host_thread_pick tests prefixes, which the comm file's text shares: host_tscomm.h) are
 * passed over without opening anything of theirs. A process whose every thread is picked
 * (ovs-vswitchd, extra_pid) needs no such test.
 */
static void proc_rescan(struct host_tscan *sc, struct tscan_proc *p, pid_t extra_pid, nlink_t nlink)
{
	char path[64], pcomm[32];
	proc_drop_threads(sc, p);
	p->nlink = nlink;
	p->picked_for = extra_pid;
	sc->rescanned++;
	snprintf(path, sizeof(path), "%d/comm", (int)p->pid);
	if (!read_line_at(sc->rootfd, path, pcomm, sizeof(pcomm)))
		return;
	p->vswitchd = strcmp(pcomm, "ovs-vswitchd") == 0;
	p->ovs = host_thread_pick("", pcomm, p->pid, extra_pid); /* every thread of OVS's */
	snprintf(path, sizeof(path), "%d/task", (int)p->pid);
	int tfd = openat(sc->rootfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *td = tfd >= 0 ? fdopendir(tfd) : NULL;
	if (!td) {
		if (tfd >= 0)
			close(tfd);
		return;
	}
	size_t nt = list_tids(sc, td);
	bool by_ts = sc->tc && !host_thread_pick("", pcomm, p->pid, extra_pid) &&
		     host_tscomm_get(sc->tc, sc->tids, nt, sc->tcomm, sc->tok) == 0;
	for (size_t i = 0; i < nt; i++) {
		char tpath[64], comm[64];
		pid_t tid = sc->tids[i];
		if (by_ts && sc->tok[i] &&
		    !host_thread_pick(sc->tcomm[i], pcomm, p->pid, extra_pid))
			continue;
		snprintf(tpath, sizeof(tpath), "%d/comm", (int)tid);
		if (!read_line_at(dirfd(td), tpath, comm, sizeof(comm)) ||
		    !host_thread_pick(comm, pcomm, p->pid, extra_pid))
			continue;
		if (p->nt == p->capt) {
			p->capt = p->capt ? p->capt * 2 : 4;
			p->t = xreallocarray(p->t, p->capt, sizeof(*p->t));
		}
		struct tscan_thread *t = &p->t[p->nt++];
		t->tid = tid;
		memcpy(t->comm, comm, sizeof(t->comm));
		t->fd = -1;
		t->stat_ns = 0;
		if (sc->nfds < sc->max_fds) {
			snprintf(tpath, sizeof(tpath), "%d/stat", (int)tid);
			t->fd = openat(dirfd(td), tpath, O_RDONLY | O_CLOEXEC);
			if (t->fd >= 0)
				sc->nfds++;
		}
	}
	closedir(td);
}

/* One thread's stat: pread of the file kept open, else open, read, close. */
static bool thread_stat(struct host_tscan *sc, pid_t pid, struct tscan_thread *t,
			struct host_taskstat *ts)
{
	char buf[1024];
	ssize_t r;
	if (t->fd >= 0) {
		r = pread(t->fd, buf, sizeof(buf) - 1, 0);
	} else {
		char path[64];
		snprintf(path, sizeof(path), "%d/task/%d/stat", (int)pid, (int)t->tid);
		int fd = openat(sc->rootfd, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return false;
		r = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (r <= 0)
		return false; /* ESRCH: the thread exited */
	buf[r] = '\0';
	return host_proc_taskstat(buf, (size_t)r, ts) == 0;
}

static uint64_t stat_ticks(const struct host_taskstat *ts)
{
	return ts->utime_ticks + ts->stime_ticks;
}

/* Read t's stat file into its last read, at now_ns, with the ticks it took since the read
 * before (its busyness when the run has more threads than it lists); false when gone. */
static bool thread_read(struct host_tscan *sc, pid_t pid, struct tscan_thread *t, uint64_t now_ns)
{
	uint64_t was = stat_ticks(&t->last);
	bool had = t->stat_ns != 0;
	if (!thread_stat(sc, pid, t, &t->last)) {
		t->stat_ns = 0;
		return false;
	}
	uint64_t now = stat_ticks(&t->last);
	t->busy_ticks = had && now >= was ? now - was : 0;
	t->stat_ns = now_ns;
	return true;
}

void host_tscan_set_watch(struct host_tscan *sc, pid_t ovs_pid)
{
	sc->watch_ovs = ovs_pid;
}

void host_tscan_set_stat_age(struct host_tscan *sc, uint64_t max_age_ns)
{
	sc->stat_max_ns = max_age_ns;
}

bool host_tscan_stat_due(bool cpu_from_sched, bool have_prev, uint64_t cpu_ns, uint64_t prev_cpu_ns)
{
	return !cpu_from_sched || !have_prev || cpu_ns != prev_cpu_ns;
}

/* The info fields that come from the stat file. */
static void info_from_stat(const struct host_tscan *sc, struct host_thread_info *t,
			   const struct host_taskstat *ts)
{
	t->state = ts->state;
	t->processor = ts->processor;
	t->start_ticks = ts->start_ticks;
	t->stat_cpu_ns = (ts->utime_ticks + ts->stime_ticks) * (1000000000ULL / (uint64_t)sc->tck);
}

int host_tscan_restat(struct host_tscan *sc, struct host_thread_info *t, uint64_t now_ns)
{
	if (t->scan_p >= sc->np || t->scan_t >= sc->p[t->scan_p].nt)
		return -1;
	struct tscan_proc *p = &sc->p[t->scan_p];
	struct tscan_thread *tt = &p->t[t->scan_t];
	if (tt->tid != t->tid)
		return -1;
	if (!thread_read(sc, p->pid, tt, now_ns)) {
		p->nlink = 0; /* read its list again next time */
		return -1;
	}
	info_from_stat(sc, t, &tt->last);
	t->stat_cached = false;
	return 0;
}

static int by_tid(const void *a, const void *b)
{
	pid_t x = ((const struct host_thread_info *)a)->tid;
	pid_t y = ((const struct host_thread_info *)b)->tid;
	return (x > y) - (x < y);
}

static int by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct tscan_proc *)a)->pid;
	pid_t y = ((const struct tscan_proc *)b)->pid;
	return (x > y) - (x < y);
}

/* Process pid, listed in the root or known from before: its task list re-read when new, when
 * its thread count changed, at a full rescan or for another extra_pid; false when gone. */
static bool proc_visit(struct host_tscan *sc, pid_t pid, size_t known, bool full, pid_t extra_pid)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof(path), "%d/task", (int)pid);
	if (fstatat(sc->rootfd, path, &st, 0) != 0)
		return false; /* it exited meanwhile */
	struct tscan_proc key = {.pid = pid};
	struct tscan_proc *p = known ? bsearch(&key, sc->p, known, sizeof(*sc->p), by_pid) : NULL;
	if (!p) {
		if (sc->np == sc->capp) {
			sc->capp = sc->capp ? sc->capp * 2 : 256;
			sc->p = xreallocarray(sc->p, sc->capp, sizeof(*sc->p));
		}
		p = &sc->p[sc->np++];
		memset(p, 0, sizeof(*p));
		p->pid = pid;
		proc_rescan(sc, p, extra_pid, st.st_nlink);
	} else if (full || st.st_nlink != p->nlink || p->picked_for != extra_pid) {
		proc_rescan(sc, p, extra_pid, st.st_nlink);
	}
	p->seen = true;
	return true;
}

/*
 * Visit the processes: by listing the root, or, when its link count (the kernel's count of
 * processes, plus a constant) is the one of the last listing, by the known pids alone. A
 * getdents64 of /proc walks every pid of the namespace, threads included (next_tgid), so at
 * 5000 threads it was a tenth of a refresh; the count misses a process that exited while
 * another started, which the listing every HOST_TSCAN_LIST_NS catches.
 */
static void tscan_visit(struct host_tscan *sc, uint64_t now_ns, bool full, pid_t extra_pid)
{
	struct stat rst;
	bool have_nlink = fstat(sc->rootfd, &rst) == 0;
	size_t known = sc->np; /* new processes are appended, then sorted in */
	for (size_t i = 0; i < sc->np; i++)
		sc->p[i].seen = false;
	if (!full && have_nlink && rst.st_nlink == sc->root_nlink && now_ns < sc->list_at_ns) {
		for (size_t i = 0; i < known; i++)
			proc_visit(sc, sc->p[i].pid, known, false, extra_pid);
		return;
	}
	int dfd = dup(sc->rootfd);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		for (size_t i = 0; i < known; i++)
			sc->p[i].seen = true; /* keep what is known rather than drop it all */
		return;
	}
	sc->listed = 1;
	sc->root_nlink = have_nlink ? rst.st_nlink : 0;
	sc->list_at_ns = now_ns + HOST_TSCAN_LIST_NS;
	rewinddir(d);
	struct dirent *de;
	while ((de = readdir(d)))
		if (all_digits(de->d_name))
			proc_visit(sc, (pid_t)atol(de->d_name), known, full, extra_pid);
	closedir(d);
}

/* Watched first, then by ticks taken (most first), then by tid. */
static int tscan_pick_order(const void *a, const void *b)
{
	const struct tscan_pick *x = a, *y = b;
	if (x->watched != y->watched)
		return x->watched ? -1 : 1;
	if (x->busy != y->busy)
		return x->busy > y->busy ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Append the picked thread pk to the run's list. */
static void tscan_emit(struct host_tscan *sc, const struct tscan_pick *pk,
		       struct host_thread_info **arr, size_t *cap, size_t *n)
{
	struct tscan_proc *p = &sc->p[pk->p];
	struct tscan_thread *tt = &p->t[pk->t];
	if (*n >= *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*arr = xreallocarray(*arr, *cap, sizeof(**arr));
	}
	struct host_thread_info *t = &(*arr)[(*n)++];
	t->pid = p->pid;
	t->in_ovs = p->ovs;
	t->tid = tt->tid;
	memcpy(t->comm, tt->comm, sizeof(t->comm));
	info_from_stat(sc, t, &tt->last);
	t->stat_cached = tt->last_cached;
	t->scan_p = pk->p;
	t->scan_t = pk->t;
}

int host_tscan_run(struct host_tscan *sc, pid_t extra_pid, uint64_t now_ns,
		   struct host_thread_info **arr, size_t *cap, size_t max, size_t *n)
{
	int matched = 0;
	bool full = now_ns >= sc->full_at_ns;

	*n = 0;
	sc->rescanned = 0;
	sc->listed = 0;
	if (sc->rootfd < 0)
		return 0;
	if (full)
		sc->full_at_ns = now_ns + HOST_TSCAN_FULL_NS;
	tscan_visit(sc, now_ns, full, extra_pid);
	/* Forget the processes that are gone, then keep the table sorted by pid. */
	size_t w = 0;
	for (size_t i = 0; i < sc->np; i++) {
		if (!sc->p[i].seen) {
			proc_drop_threads(sc, &sc->p[i]);
			free(sc->p[i].t);
			continue;
		}
		sc->p[w++] = sc->p[i];
	}
	sc->np = w;
	if (sc->np > 1)
		qsort(sc->p, sc->np, sizeof(*sc->p), by_pid);

	size_t npicks = 0;
	for (size_t i = 0; i < sc->np; i++) {
		struct tscan_proc *p = &sc->p[i];
		bool gone = false;
		for (size_t k = 0; k < p->nt; k++) {
			struct tscan_thread *tt = &p->t[k];
			bool cached = tt->stat_ns && sc->stat_max_ns &&
				      now_ns - tt->stat_ns < sc->stat_max_ns;
			if (!cached && !thread_read(sc, p->pid, tt, now_ns)) {
				gone = true; /* read its list again next time */
				continue;
			}
			if (npicks == sc->cappicks) {
				sc->cappicks = sc->cappicks ? sc->cappicks * 2 : 256;
				sc->picks =
				    xreallocarray(sc->picks, sc->cappicks, sizeof(*sc->picks));
			}
			sc->picks[npicks++] =
			    (struct tscan_pick){.p = (uint32_t)i,
						.t = (uint32_t)k,
						.watched = host_thread_watched(
						    tt->comm, p->vswitchd ? "ovs-vswitchd" : "",
						    p->pid, sc->watch_ovs, extra_pid),
						.busy = tt->busy_ticks,
						.tid = tt->tid};
			tt->last_cached = cached;
		}
		if (gone)
			p->nlink = 0;
	}
	matched = (int)npicks;
	/* More than the list holds: the watched first, then the busiest (tscan_pick_order). */
	if (npicks > max)
		qsort(sc->picks, npicks, sizeof(*sc->picks), tscan_pick_order);
	for (size_t j = 0; j < npicks && j < max; j++)
		tscan_emit(sc, &sc->picks[j], arr, cap, n);
	if (*n > 1)
		qsort(*arr, *n, sizeof(**arr), by_tid);
	return matched;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_tscan.c: the host thread scan with a per-process cache: /proc listed again only when its
 * link count changes (or every second when a pid was handed out since; on the real /proc,
 * walked over the pids handed out since: host_tscan_root.c), task lists re-read only when
 * /proc/PID/task's link count changes (the new threads' names alone) or, every 10 s, for a
 * process that ran since (host_psig.h), a big process's not before it ran
 * (HOST_TSCAN_BIG_THREADS), picked threads' stat files kept open and, with a stat age set,
 * read only when old or asked for (host_tscan_restat). */
#include "backends/host/host_threads.h"
#include "backends/host/host_tscan_int.h"

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
#include "backends/host/host_psig.h"
#include "backends/host/host_tscomm.h"

struct host_tscan *host_tscan_new(const char *proc_root)
{
	struct host_tscan *sc = xcalloc(1, sizeof(*sc));
	snprintf(sc->root, sizeof(sc->root), "%s", proc_root);
	sc->rootfd = open(proc_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	sc->tck = sysconf(_SC_CLK_TCK);
	if (sc->tck <= 0)
		sc->tck = 100;
	sc->max_fds = host_fd_budget(TSCAN_MAX_FDS);
	sc->listfd = -1;
	/* TASKSTATS answers for the tasks of our own pid namespace: the real /proc's. */
	sc->real_proc = strcmp(proc_root, "/proc") == 0;
	if (sc->real_proc)
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

void host_tscan_free(struct host_tscan *sc)
{
	if (!sc)
		return;
	for (size_t i = 0; i < sc->np; i++) {
		host_tscan_proc_drop(sc, &sc->p[i]);
		free(sc->p[i].t);
		free(sc->p[i].known);
	}
	free(sc->p);
	host_tscomm_close(sc->tc);
	free(sc->tids);
	free(sc->tcomm);
	free(sc->tok);
	free(sc->qtids);
	free(sc->spid);
	free(sc->ssig);
	free(sc->sok);
	free(sc->picks);
	if (sc->rootfd >= 0)
		close(sc->rootfd);
	if (sc->listfd >= 0)
		close(sc->listfd);
	free(sc->dents);
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

int host_tscan_named(const struct host_tscan *sc)
{
	return sc->named;
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
 * before (its busyness when the run has more threads than it lists); false when gone. The
 * stat's comm is the task's (15 bytes): a listed thread renamed since its name was read (a
 * PMD named just after it was created, its name read before) takes it at once; one whose
 * comm file says more (a kworker's "-queue") keeps that while its comm starts it, and a name
 * the stat cut at 15 bytes waits for the next list read (host_thread_subsys reads a kworker's
 * queue past them). */
static bool thread_read(struct host_tscan *sc, pid_t pid, struct tscan_thread *t, uint64_t now_ns)
{
	uint64_t was = stat_ticks(&t->last);
	bool had = t->stat_ns != 0;
	if (!thread_stat(sc, pid, t, &t->last)) {
		t->stat_ns = 0;
		return false;
	}
	size_t cl = strlen(t->last.comm);
	if (cl < sizeof(t->last.comm) - 1 && strncmp(t->comm, t->last.comm, cl) != 0)
		snprintf(t->comm, sizeof(t->comm), "%s", t->last.comm);
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
 * its thread count changed (the new threads' names), for another extra_pid, or at a full
 * rescan when it ran since its names were read (every name: host_psig.h); false when gone.
 * A deferred one (HOST_TSCAN_BIG_THREADS) is read at a full rescan that finds it ran, its
 * thread count aside. */
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
		host_tscan_proc_rescan(sc, p, extra_pid, st.st_nlink, true, true);
	} else {
		size_t i = (size_t)(p - sc->p); /* < known: the figures of tscan_sigs */
		bool ran = full && (!sc->sok[i] || !p->sig_ok || sc->ssig[i] != p->sig);
		if (p->deferred && !ran && p->picked_for == extra_pid) {
			p->seen = true;
			return true;
		}
		if (ran || st.st_nlink != p->nlink || p->picked_for != extra_pid)
			host_tscan_proc_rescan(sc, p, extra_pid, st.st_nlink, ran, !ran);
		if (ran) {
			p->sig = sc->ssig[i];
			p->sig_ok = sc->sok[i];
		}
	}
	p->seen = true;
	return true;
}

/* The known processes' activity figures into ssig/sok (by index), at a full rescan (the
 * only run at which proc_visit reads them). */
static void tscan_sigs(struct host_tscan *sc, bool full)
{
	if (!full)
		return;
	if (sc->np > sc->capsig) {
		sc->capsig = sc->np + 64;
		sc->spid = xreallocarray(sc->spid, sc->capsig, sizeof(*sc->spid));
		sc->ssig = xreallocarray(sc->ssig, sc->capsig, sizeof(*sc->ssig));
		sc->sok = xreallocarray(sc->sok, sc->capsig, sizeof(*sc->sok));
	}
	for (size_t i = 0; i < sc->np; i++)
		sc->spid[i] = sc->p[i].pid;
	host_psig_read(sc->rootfd, sc->tc, sc->spid, sc->np, sc->ssig, sc->sok);
}

/* The figures of the processes first read at this run (every name read, none known), and of
 * those deferred: taken after their names, so a rename in between is seen when the process
 * next runs. */
static void tscan_new_sigs(struct host_tscan *sc)
{
	size_t n = 0;
	for (size_t i = 0; i < sc->np; i++)
		if (!sc->p[i].sig_ok && (sc->p[i].nknown || sc->p[i].deferred)) {
			if (n == sc->capsig) {
				sc->capsig = sc->np + 64;
				sc->spid = xreallocarray(sc->spid, sc->capsig, sizeof(*sc->spid));
				sc->ssig = xreallocarray(sc->ssig, sc->capsig, sizeof(*sc->ssig));
				sc->sok = xreallocarray(sc->sok, sc->capsig, sizeof(*sc->sok));
			}
			sc->spid[n++] = sc->p[i].pid;
		}
	if (!n)
		return;
	host_psig_read(sc->rootfd, sc->tc, sc->spid, n, sc->ssig, sc->sok);
	for (size_t i = 0, k = 0; i < sc->np && k < n; i++)
		if (sc->p[i].pid == sc->spid[k]) {
			sc->p[i].sig = sc->ssig[k];
			sc->p[i].sig_ok = sc->sok[k++];
		}
}

/* What proc_visit is called with, from a walk of the root. */
struct tscan_walk {
	size_t known;
	bool full, skip_known;
	pid_t extra_pid;
};

static void walk_visit(struct host_tscan *sc, pid_t pid, void *arg)
{
	const struct tscan_walk *w = arg;
	struct tscan_proc key = {.pid = pid};
	if (w->skip_known && w->known && bsearch(&key, sc->p, w->known, sizeof(*sc->p), by_pid))
		return; /* visited already */
	proc_visit(sc, pid, w->known, w->full, w->extra_pid);
}

/*
 * Visit the processes: by listing the root, or, when its link count (the kernel's count of
 * processes, plus a constant) is the one of the last listing, by the known pids alone. A
 * getdents64 of /proc walks every pid of the namespace, threads included (next_tgid), so at
 * 5000 threads it was a tenth of a refresh; the count misses a process that exited while
 * another started, which the listing every HOST_TSCAN_LIST_NS catches, and only when a pid
 * was handed out since the last listing (host_psig_last_pid): on a host whose other
 * users' threads only sleep, the root is listed when a process comes or goes. On the real
 * /proc, the known pids are visited and the root walked from the last pid of the run before
 * last (a process whose pid was taken but not yet set up at the last walk) to the one
 * handed out last: the kernel hands pids out in turn, so that range holds every process new
 * since, and the walk costs the pids handed out, not the host's (at 50,000 threads a whole
 * listing took 3 ms, each scrape of the exporter's being a full rescan). A pid wrap lists
 * the whole root, and so does the first pid handed out HOST_TSCAN_WHOLE_NS after the last
 * whole listing (a pid given out of turn: a process restored with its pid).
 */
static void tscan_visit(struct host_tscan *sc, uint64_t now_ns, bool full, pid_t extra_pid)
{
	struct stat rst;
	bool have_nlink = fstat(sc->rootfd, &rst) == 0;
	long last_pid = 0;
	bool have_last = host_psig_last_pid(sc->rootfd, &last_pid);
	bool no_new = have_last && sc->have_last_pid && last_pid == sc->last_pid;
	struct tscan_walk w = {.known = sc->np, .full = full, .extra_pid = extra_pid};
	for (size_t i = 0; i < sc->np; i++)
		sc->p[i].seen = false;
	tscan_sigs(sc, full);
	bool same = have_nlink && rst.st_nlink == sc->root_nlink;
	if (same && (no_new || (!full && now_ns < sc->list_at_ns && sc->pid_pos_off <= 0))) {
		for (size_t i = 0; i < w.known; i++)
			proc_visit(sc, sc->p[i].pid, w.known, full, extra_pid);
		return;
	}
	long lo = sc->range_lo;
	bool range = now_ns < sc->whole_at_ns && have_last && sc->have_last_pid &&
		     sc->pid_pos_off > 0 && lo <= sc->last_pid && sc->last_pid <= last_pid;
	if (have_last && sc->have_last_pid && sc->last_pid <= last_pid)
		sc->range_lo = sc->last_pid;
	else
		sc->range_lo = last_pid;
	sc->root_nlink = have_nlink ? rst.st_nlink : 0;
	sc->last_pid = last_pid;
	sc->have_last_pid = have_last;
	if (range) {
		for (size_t i = 0; i < w.known; i++)
			proc_visit(sc, sc->p[i].pid, w.known, full, extra_pid);
		w.skip_known = true;
		if (host_tscan_root_walk(sc, lo, last_pid, walk_visit, &w) == 0)
			return;
		for (size_t i = 0; i < sc->np; i++)
			sc->p[i].seen = false; /* listed whole below */
		w.skip_known = false;
	}
	sc->listed = 1;
	sc->list_at_ns = now_ns + HOST_TSCAN_LIST_NS;
	sc->whole_at_ns = now_ns + HOST_TSCAN_WHOLE_NS;
	if (host_tscan_root_walk(sc, -1, 0, walk_visit, &w) != 0) {
		sc->root_nlink = 0; /* listed again at the next run */
		for (size_t i = 0; i < w.known; i++)
			sc->p[i].seen = true; /* keep what is known rather than drop it all */
	}
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
	sc->named = 0;
	if (sc->rootfd < 0)
		return 0;
	if (full)
		sc->full_at_ns = now_ns + HOST_TSCAN_FULL_NS;
	tscan_visit(sc, now_ns, full, extra_pid);
	/* Forget the processes that are gone, then keep the table sorted by pid. */
	size_t w = 0;
	for (size_t i = 0; i < sc->np; i++) {
		if (!sc->p[i].seen) {
			host_tscan_proc_drop(sc, &sc->p[i]);
			free(sc->p[i].t);
			free(sc->p[i].known);
			continue;
		}
		sc->p[w++] = sc->p[i];
	}
	sc->np = w;
	if (sc->np > 1)
		qsort(sc->p, sc->np, sizeof(*sc->p), by_pid);
	tscan_new_sigs(sc);

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

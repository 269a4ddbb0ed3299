/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_threads.h: picking host threads by name or pid and reading their /proc task stat. */
#ifndef TT_HOST_THREADS_H
#define TT_HOST_THREADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/subsys.h"

/* A picked thread as /proc shows it. */
struct host_thread_info {
	pid_t pid, tid;
	char comm[64]; /* kworkers show their workqueue here ("kworker/0:1H-kblockd") */
	char state; /* R S D I ... */
	int processor; /* CPU it last ran on, -1 unknown */
	uint64_t stat_cpu_ns; /* utime + stime from /proc, in ns (tick resolution) */
	uint64_t start_ticks; /* start time (stat field 22): tells a reused tid from the old */
	/* A thread of ovs-vswitchd (extra_pid, or a process of that name): only its "pmd*" threads
	 * are PMDs; another user's thread named so is not (host_thread_subsys). */
	bool in_ovs;
	/* host_tscan_run only: the fields above are from an earlier read of the stat file
	 * (host_tscan_set_stat_age), and where in the scan it is, for host_tscan_restat. */
	bool stat_cached;
	uint32_t scan_p, scan_t;
};

/*
 * Whether a thread is one tunetop follows on the host: ipvs-e:* (IPVS estimator
 * kthreads), pmd* (OVS PMDs), kworker*, ksoftirqd*, every thread of an
 * ovs-vswitchd process, and every thread of extra_pid (0 = none). Pure.
 */
bool host_thread_pick(const char *comm, const char *proc_comm, pid_t pid, pid_t extra_pid);

/*
 * Whether a picked thread is one the host always lists, whatever the thread count or pid
 * order: every thread of the ovs-vswitchd behind the control socket (ovs_pid; 0 when unknown:
 * of every ovs-vswitchd), the IPVS estimator kthreads (ipvs-e:*) and every thread of extra_pid
 * (--pid, 0 none). The rest of the list is the busiest of the others. Pure.
 */
bool host_thread_watched(const char *comm, const char *proc_comm, pid_t pid, pid_t ovs_pid,
			 pid_t extra_pid);

/* The subsystem a host thread most likely serves, from its name. Pure. */
enum subsys host_thread_subsys(const char *comm);

/* enum ethread_state from a /proc state letter. Pure. */
int host_thread_state(char st);

/*
 * Scan proc_root ("/proc") for picked threads into *arr (grown as needed, at
 * most max entries, sorted by tid). Returns how many matched (may exceed max).
 */
int host_threads_scan(const char *proc_root, pid_t extra_pid, struct host_thread_info **arr,
		      size_t *cap, size_t max, size_t *n);

/*
 * The same scan made cheap for thousands of threads: the root is listed again only when
 * its link count (which counts the processes) changed, or every HOST_TSCAN_LIST_NS when a
 * pid was handed out since (one process gone while another came); on the real /proc it is
 * walked over the pids handed out since instead (HOST_TSCAN_WHOLE_NS); a
 * process of more than HOST_TSCAN_BIG_THREADS threads is read once it ran; a process's task list is
 * read again only when /proc/PID/task's link count (2 + its threads) changed (the new
 * threads' names read), or every HOST_TSCAN_FULL_NS when one of its threads ran since its
 * names were read (renames: host_psig.h; every name read); picked threads keep their stat file open
 * and are pread() each scan (or, with host_tscan_set_stat_age, when their last read is old or the
 * caller saw them run). Unpicked threads cost nothing between rescans.
 */
#define HOST_TSCAN_FULL_NS (10ULL * 1000000000ULL)
#define HOST_TSCAN_LIST_NS (1000000000ULL)
/* On the real /proc, walked over the pids handed out since the last run, it is listed whole
 * once this old when a pid was handed out since. */
#define HOST_TSCAN_WHOLE_NS (60ULL * 1000000000ULL)
/*
 * A process of more threads than this, not ovs-vswitchd nor --pid's, has its task list read
 * (a getdents entry and a name per thread) only once it is seen to run: its activity figure
 * (host_psig.h) taken when it is found and compared at each full rescan (the figure walks
 * its threads in the kernel: 50,000 took about 10 ms). Thousands of another user's sleeping
 * threads so cost a figure per process and 10 s, not a name per thread; a thread in it named
 * like a kernel thread or a PMD is listed from the first full rescan after the process ran
 * (never while it only sleeps).
 */
#define HOST_TSCAN_BIG_THREADS 1024
struct host_tscan;
struct host_tscan *host_tscan_new(const char *proc_root);
void host_tscan_free(struct host_tscan *sc);
/* As host_threads_scan(); now_ns decides when a full rescan is due. */
int host_tscan_run(struct host_tscan *sc, pid_t extra_pid, uint64_t now_ns,
		   struct host_thread_info **arr, size_t *cap, size_t max, size_t *n);
/*
 * Let host_tscan_run take a picked thread's stat fields (state, last CPU, ticks) from its
 * last read while that read is younger than max_age_ns, marking them stat_cached; 0 (the
 * default) reads every picked thread's stat file each run. A caller that sets it tells
 * which threads ran since (their CPU time moved) and re-reads those with host_tscan_restat:
 * a thread that did not run can only have been woken meanwhile (state S to R) or moved
 * while queued, so its state is at most max_age_ns old, and the stat file (the kernel's
 * do_task_stat, the dearest read of a refresh) is read for the threads that ran.
 */
#define HOST_TSCAN_STAT_MAX_NS (900ULL * 1000000ULL)
void host_tscan_set_stat_age(struct host_tscan *sc, uint64_t max_age_ns);
/* Read t's stat file now (t from the last host_tscan_run, before the next): 0, or -1 when the
 * thread is gone (its process's task list is read again at the next run). */
int host_tscan_restat(struct host_tscan *sc, struct host_thread_info *t, uint64_t now_ns);
/*
 * Whether a thread whose stat fields are cached (info's stat_cached) must be read again now:
 * when its CPU time has no scheduler source this refresh (the stat file's ticks are then its
 * CPU time), when it has no earlier refresh, or when that time moved since the last. Pure.
 */
bool host_tscan_stat_due(bool cpu_from_sched, bool have_prev, uint64_t cpu_ns,
			 uint64_t prev_cpu_ns);
/*
 * How many kept fds a cache of the host backend may hold: want, but at most a quarter of
 * RLIMIT_NOFILE's soft limit (1024 on many hosts), so the scan's stat files and host_sched's
 * schedstat and slack files together leave half of it to everything else.
 */
int host_fd_budget(int want);
/*
 * The ovs-vswitchd whose threads every run lists (host_thread_watched: 0, the default, every
 * ovs-vswitchd's). When more threads are picked than the run's max, the watched threads are
 * listed first, then the others by the CPU ticks they took between their last two stat reads,
 * the busiest first (ties: lower tid first); the list stays sorted by tid.
 */
void host_tscan_set_watch(struct host_tscan *sc, pid_t ovs_pid);
/* Task lists read at the last run (0 when every process was unchanged), for the tests. */
int host_tscan_rescanned(const struct host_tscan *sc);
/* 1 when the last run listed the root, 0 when it visited the known processes only (tests). */
int host_tscan_listed(const struct host_tscan *sc);
/* Threads whose names the last run read (tests). */
int host_tscan_named(const struct host_tscan *sc);

#endif

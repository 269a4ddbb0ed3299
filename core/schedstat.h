/* SPDX-License-Identifier: GPL-2.0-or-later */
/* schedstat.h: a thread's /proc schedstat (run time, run-queue wait) and timer slack, read
 * through file descriptors kept open so a sampler pays one pread per thread. */
#ifndef TT_SCHEDSTAT_H
#define TT_SCHEDSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* /proc/<tid>/schedstat: "run_ns wait_ns timeslices" (kernel sched_info, CONFIG_SCHED_INFO). */
struct schedstat {
	uint64_t run_ns; /* time on a CPU */
	uint64_t runq_wait_ns; /* time runnable, waiting on a run queue */
	uint64_t timeslices; /* times it was run */
};

/* Parse the text of a schedstat file (len bytes, need not be NUL-terminated).
 * 0, or -1 when it is not three unsigned numbers. Pure. */
int schedstat_parse(const char *text, size_t len, struct schedstat *out);

/* The open files of one thread; fds are -1 until opened (or when unreadable). */
struct schedstat_fds {
	int sched_fd; /* /proc/<pid>/task/<tid>/schedstat */
	int slack_fd; /* /proc/<tid>/timerslack_ns (there is no task/ entry for it) */
	uint64_t prev_wait_ns, prev_mono_ns; /* the previous reading, for the rate */
	int have_prev;
};

/* Open both files of tid (pid = its process, 0 = this one). Missing files leave -1. */
void schedstat_fds_open(struct schedstat_fds *f, pid_t pid, pid_t tid);
void schedstat_fds_close(struct schedstat_fds *f);
/* pread the schedstat file: 0 and *out, or -1. */
int schedstat_read(const struct schedstat_fds *f, struct schedstat *out);
/* pread the timer slack in ns, or -1 when unreadable (another thread's needs CAP_SYS_NICE). */
int64_t schedstat_slack_ns(const struct schedstat_fds *f);
/*
 * Run-queue delay over the interval since the previous call, as % of wall time
 * (100 = waited the whole interval; ms per s = pct * 10). -1 on the first call
 * or when unreadable.
 */
double schedstat_runq_pct(struct schedstat_fds *f, uint64_t now_mono_ns);
/* The same from a reading the caller already made (s, or NULL when it was unreadable). */
double schedstat_runq_pct_of(struct schedstat_fds *f, const struct schedstat *s,
			     uint64_t now_mono_ns);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_sched.h: host threads' /proc schedstat and timer slack read through kept fds, and the
 * timer slack of ovs-vswitchd's PMD threads, read and written (pmd.timer_slack_ns). */
#ifndef TT_HOST_SCHED_H
#define TT_HOST_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "backends/host/host_threads.h"

struct schedstat;
struct host_sched;

/* Kept fds at most (two per listed thread: the host lists 1024), and never more than
 * host_fd_budget() allows; threads past it are read by open+pread+close. */
#define HOST_SCHED_MAX_FDS 2048

struct host_sched *host_sched_new(void);
/* The same under another proc root (a fake tree in the tests). */
struct host_sched *host_sched_new_at(const char *proc_root);
void host_sched_free(struct host_sched *s);
/*
 * Take the thread list of this refresh (cur, n: sorted by tid, as host_tscan_run lists
 * them): a thread still listed keeps its open files; those of a thread gone, or of a tid
 * that is another thread now (another start time or process), are closed. Index i of the
 * readers below is cur[i]. Files open lazily, at their first read.
 */
void host_sched_sync(struct host_sched *s, const struct host_thread_info *cur, size_t n);
/* /proc/PID/task/TID/schedstat of thread i: 0 and *out, or -1 (gone, unreadable). */
int host_sched_stat(struct host_sched *s, size_t i, struct schedstat *out);
/* /proc/TID/timerslack_ns of thread i: ns, or -1 (gone, no CAP_SYS_NICE for another's). */
int64_t host_sched_slack(struct host_sched *s, size_t i);
/*
 * The same, but a value read less than max_age_ns before now_ns serves again: only a PMD's
 * slack is set while it runs (pmd.timer_slack_ns, or an operator beside tunetop), and one
 * pread a listed thread a refresh was a tenth of a host refresh at 500 threads. now_ns is
 * CLOCK_MONOTONIC; max_age_ns 0 reads every time.
 */
int64_t host_sched_slack_aged(struct host_sched *s, size_t i, uint64_t now_ns, uint64_t max_age_ns);
/* How old a listed thread's slack other than a PMD's may be (the full rescan's period). */
#define HOST_SCHED_SLACK_AGE_NS HOST_TSCAN_FULL_NS
/*
 * How old thread (subsys, pid)'s slack may be: 0 (read every refresh) for a PMD of the
 * ovs-vswitchd tunetop talks to, whose slack pmd.timer_slack_ns sets and the PMD view compares
 * (have_ovs: a control socket is open; ovs_pid 0 when its pid is unknown, then every PMD);
 * HOST_SCHED_SLACK_AGE_NS for any other thread, a PMD-named one of another process or with no
 * OVS to talk to included: nothing of tunetop's sets or checks its slack. Pure.
 */
uint64_t host_sched_slack_max_age(enum subsys subsys, pid_t pid, bool have_ovs, pid_t ovs_pid);
/*
 * A thread's run-queue wait (or any time of its own) as a % of the window it was counted in:
 * part_ns over window_ns, the time between the two reads of its counter, at most 100 (the
 * window holds no more; the kernel adds a wait when it ends, so one that began in an earlier
 * window lands whole in this one); -1 when no time passed. docs/pmd.md "Timer slack, run-queue
 * delay and the eBPF sleep probe". Pure.
 */
double host_sched_window_pct(uint64_t part_ns, uint64_t window_ns);
/* Descriptors held now (the tests). */
int host_sched_nfds(const struct host_sched *s);

/* Threads named pmd* (PMDs) of the ovs-vswitchd process only_pid (0: of every
 * ovs-vswitchd), from cur when it has any, else from a fresh scan of /proc. Returns how
 * many (at most max). */
int host_sched_ovs_pmds(const struct host_thread_info *cur, size_t n, pid_t only_pid, pid_t *tids,
			int max);
/* /proc/TID/timerslack_ns: the value, or -1 (gone, or no CAP_SYS_NICE for another's). */
int64_t host_sched_slack_read(pid_t tid);
/* Write it; 0, or -1 with a message ("needs CAP_SYS_NICE"). */
int host_sched_slack_write(pid_t tid, int64_t ns, char *err, size_t errlen);

struct host_state;
/* The slack last set (pmd.timer_slack_ns) onto PMD threads that differ from it (ones OVS
 * started since): how many were written (msg names the last), or -1 with msg (host_slack.c). */
int host_slack_reapply(struct host_state *h, char *msg, size_t len);

#endif

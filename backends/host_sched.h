/* host_sched.h: per-thread run-queue delay (/proc schedstat) and timer slack of host threads,
 * and the timer slack of ovs-vswitchd's PMD threads, read and written (pmd.timer_slack_ns). */
#ifndef TT_HOST_SCHED_H
#define TT_HOST_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "backends/host_threads.h"

struct snapshot;
struct host_sched;

struct host_sched *host_sched_new(void);
void host_sched_free(struct host_sched *s);
/*
 * Fill runq_delay_pct and timer_slack_ns of snap->threads[i] from cur[i] (the same
 * order, sorted by tid, as host_sample_threads() lists them), one open+pread+close per
 * file: host mode may follow a thousand kworkers, more than a process may keep open.
 */
void host_sched_sample(struct host_sched *s, const struct host_thread_info *cur, size_t n,
		       struct snapshot *snap, uint64_t now_ns);

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

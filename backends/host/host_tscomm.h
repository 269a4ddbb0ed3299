/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_tscomm.h: thread names and accounting by the thousand from TASKSTATS, requests sent in
 * batches. */
#ifndef TT_HOST_TSCOMM_H
#define TT_HOST_TSCOMM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "backends/host/host_taskstats.h"

/* The kernel's task comm: 15 bytes and a NUL (TASK_COMM_LEN). */
#define HOST_TSCOMM_LEN 16

struct host_tscomm;

/*
 * NULL when TASKSTATS cannot answer (no such family, or no CAP_NET_ADMIN): the caller reads
 * /proc/PID/task/TID/comm instead. The name TASKSTATS gives (ac_comm) is the task's comm;
 * /proc's comm is the same text, after which a workqueue worker has "-" and its queue and a
 * kthread its full name, so a name test on a prefix of the comm decides the same on either.
 */
struct host_tscomm *host_tscomm_open(void);
void host_tscomm_close(struct host_tscomm *tc);
/*
 * The comm of each of the n threads into comm[i], ok[i] false for one without an answer
 * (gone). Returns -1 when the socket failed midway (then ok[] says which were answered).
 */
int host_tscomm_get(struct host_tscomm *tc, const pid_t *tids, size_t n,
		    char (*comm)[HOST_TSCOMM_LEN], bool *ok);
/* The same requests for the accounting host_ts_query gives, n threads at once: out[i] as
 * host_ts_query's, ok[i] false for one without an answer. */
int host_tscomm_acct(struct host_tscomm *tc, const pid_t *tids, size_t n, struct host_ts_acct *out,
		     bool *ok);
/* The same for n processes (TASKSTATS_CMD_ATTR_TGID): each its live threads' figures summed
 * with those of its threads that exited, so cpu_run_ns, nvcsw and nivcsw move whenever any
 * of its threads ran (the kernel walks its threads: no per-thread request or file). */
int host_tscomm_tgid_acct(struct host_tscomm *tc, const pid_t *pids, size_t n,
			  struct host_ts_acct *out, bool *ok);

#endif

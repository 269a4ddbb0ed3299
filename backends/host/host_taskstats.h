/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_taskstats.h: per-thread CPU and delay accounting from the TASKSTATS genetlink family. */
#ifndef TT_HOST_TASKSTATS_H
#define TT_HOST_TASKSTATS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct host_ts;

struct host_ts_acct {
	uint64_t cpu_run_ns; /* cpu_run_virtual_total: the scheduler's sum_exec_runtime */
	uint64_t cpu_delay_ns; /* waiting for a CPU (0 unless delay accounting is on) */
	uint64_t blkio_delay_ns; /* waiting for block IO (same) */
	uint64_t nvcsw, nivcsw; /* voluntary / involuntary context switches */
};

/* NULL with a reason when the family is missing or the query is refused (needs root). */
struct host_ts *host_ts_open(char *err, size_t errlen);
void host_ts_close(struct host_ts *ts);
/* One thread: 0, or -1 (thread gone, or the socket failed: a message in err). */
int host_ts_query(struct host_ts *ts, pid_t tid, struct host_ts_acct *out, char *err,
		  size_t errlen);

#endif

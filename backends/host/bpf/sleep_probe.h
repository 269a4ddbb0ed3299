/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sleep_probe.h: what the eBPF sleep probe keeps per watched thread (a BPF hash map value),
 * shared by backends/host/bpf/sleep_probe.bpf.c and backends/host/host_bpf.c. */
#ifndef TT_SLEEP_PROBE_H
#define TT_SLEEP_PROBE_H

#include "core/hist_log2.h"

/* Threads watched at most (PMDs of ovs-vswitchd or of the engine). */
#define SLEEP_PROBE_MAX_TIDS 256

/*
 * One thread's sleeps. Only that thread's own syscalls write it (from the tracepoints, on
 * its CPU, one at a time), so plain increments suffice; user space reads copies, and a
 * copy torn between two counters is off by one sleep for one sample.
 */
struct sleep_probe_hist {
	/* CLOCK_MONOTONIC at syscall entry (the sched hook: the sleep timer's soft expiry), 0
	 * when not in a sleep */
	hist_log2_u64 enter_ns;
	hist_log2_u64 req_ns; /* what the current sleep asked for (sched hook: its timer) */
	hist_log2_u64 sleeps; /* returned 0: measured */
	hist_log2_u64 interrupted; /* returned an error (EINTR, restart): not measured */
	hist_log2_u64 unmeasured; /* unreadable request, or an absolute CLOCK_REALTIME one */
	hist_log2_u64 over_sum_ns;
	hist_log2_u64 buckets[HIST_LOG2_BUCKETS]; /* overshoot = elapsed - requested, in ns */
};

#endif

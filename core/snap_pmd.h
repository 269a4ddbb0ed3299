/* pmd_snap.h: the PMD section of a snapshot (INTERFACE.md "pmd"). */
#ifndef TT_PMD_SNAP_H
#define TT_PMD_SNAP_H

#include <stdbool.h>
#include <stdint.h>

#define PMD_SNAP_MAX 16
/* Overshoot histogram for the eye: [0,1) [1,2) [2,4) ... [512,1024) us and >= 1024 us. */
#define PMD_SNAP_OS_HIST 12

struct pmd_thread_snap {
	char name[16];
	double rx_pps, tx_pps;
	double rx_drop_pps; /* dropped at its rx rings (ring full) */
	double tx_drop_pps; /* dropped at its tx ring */
	double drop_pct; /* (rx+tx drops) / offered to it, over the interval */
	uint64_t iterations; /* in the interval */
	double busy_pct, idle_pct; /* of non-sleep cycles */
	double sleep_iter_pct; /* iterations that slept */
	double sleep_us_avg; /* per sleeping iteration */
	double overshoot_p50_us, overshoot_p99_us; /* real sleep - requested */
	uint64_t drops_while_asleep; /* in the interval */
	double cpu_pct;
	uint64_t rx_packets, tx_packets; /* totals since start */
	uint64_t rx_drops, tx_drops; /* totals since start */
	uint64_t sleep_iters; /* total since start */
	/* This PMD thread's own timer slack (/proc/TID/timerslack_ns), -1 unknown. */
	int64_t timer_slack_ns;
	/* The eBPF sleep probe (backends/host_bpf.c): real - requested, measured in the kernel
	 * from syscall entry to return of nanosleep/clock_nanosleep, over the interval. */
	bool bpf; /* the probe watched this thread */
	double bpf_overshoot_p50_us, bpf_overshoot_p99_us;
	uint64_t bpf_sleeps; /* sleeps that returned in the interval */
	uint64_t bpf_hist[PMD_SNAP_OS_HIST]; /* bpf_sleeps by overshoot, PMD_SNAP_OS_HIST buckets */
};

struct pmd_snap {
	int64_t maxsleep_us, sleep_inc_us, timer_slack_ns;
	int64_t rxq_size;
	const char *topology; /* "direct" or "chain" (pmd.topology) */
	int nthreads;
	struct pmd_thread_snap threads[PMD_SNAP_MAX];
	double offered_pps; /* all sources */
	double drop_pct; /* all drops / offered, over the interval */
	/* Exact at one instant: generated = forwarded + dropped + in_flight. */
	uint64_t generated, forwarded, dropped, in_flight;
	uint64_t restart_dropped; /* part of dropped: left in rings by a restart */
	uint64_t in_rings; /* ring occupancy at one instant, for the eye (not exact) */
	/* The eBPF sleep probe: on, or why not ("not root", "built without eBPF", ...). */
	bool bpf_probe;
	char bpf_probe_error[128];
	double bpf_cost_ns_per_sleep; /* kernel run time of its programs per sleep, -1 unknown */
	int64_t timer_slack_differs; /* host: PMDs whose slack is not what was set, 0 none */
};

#endif

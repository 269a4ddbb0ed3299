/* pmd_snap.h: the PMD section of a snapshot (INTERFACE.md "pmd"). */
#ifndef TT_PMD_SNAP_H
#define TT_PMD_SNAP_H

#include <stdint.h>

#define PMD_SNAP_MAX 16

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
	/* The first sample of this PMD (host): interval figures (rates, iterations,
	 * busy/idle/sleep %, cpu%) have no baseline and are absent, not 0. */
	bool no_rate;
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
};

#endif

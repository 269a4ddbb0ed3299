/* pmd_snap.h: the PMD section of a snapshot (INTERFACE.md "pmd"). */
#ifndef TT_PMD_SNAP_H
#define TT_PMD_SNAP_H

#include <stdbool.h>
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
	uint64_t sleep_iters; /* sleeping iterations in the interval (docs, JSON) */

	/* Added by issue 13 (nothing above renamed). */
	uint64_t sleep_iters_total; /* since start */
	double asleep_pct; /* wall time asleep in the interval, % */
	double drops_while_asleep_pct; /* of its drops in the interval, % asleep */
	double stolen_pct; /* wall time its thread waited for a host CPU (not emulated), % */
};

struct pmd_snap {
	int64_t maxsleep_us, sleep_inc_us, timer_slack_ns;
	int64_t rxq_size;
	const char *topology; /* "direct" or "chain" (pmd.topology) */
	int nthreads;
	struct pmd_thread_snap threads[PMD_SNAP_MAX];
	double offered_pps; /* all sources */
	double drop_pct; /* all drops / offered, over the interval */
	/* in_flight is counted where it is (the rings). generated = forwarded +
	 * dropped + in_flight holds exactly with the PMDs paused (engine check);
	 * live, 0 <= unaccounted <= capacity (see pmd_stats_totals). */
	uint64_t generated, forwarded, dropped, in_flight;
	uint64_t restart_dropped; /* part of dropped: left in rings by a restart */
	uint64_t in_rings; /* = in_flight: ring occupancy */

	/* Added by issues 13/14 (nothing above renamed). */
	int64_t unaccounted; /* generated - forwarded - dropped - in_flight as read */
	uint64_t capacity; /* what the rings and the PMDs' hands hold at most */
	bool bound_broken; /* 0 <= unaccounted <= capacity failed at this snapshot */
	bool hung; /* a PMD made no iteration in the interval */
	bool lat_valid; /* packets reached the sink in the interval */
	double lat_p50_us, lat_p99_us; /* arrival to sink, over the interval */
	uint64_t drops_while_asleep; /* all PMDs, in the interval */
	double dropped_pps; /* all drops, per second over the interval */
};

#endif

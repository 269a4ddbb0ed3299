/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snap_pmd.h: the pmd section of a snapshot: PMD threads and their sleep (docs/pmd.md). */
#ifndef TT_PMD_SNAP_H
#define TT_PMD_SNAP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define PMD_SNAP_MAX 16
/* Upper bounds (us) of the cumulative overshoot buckets the snapshot carries. */
#define PMD_SNAP_OVERSHOOT_NLE 10
#define PMD_SNAP_OVERSHOOT_LE_US                                                                   \
	{                                                                                          \
		1, 2, 5, 10, 20, 50, 100, 200, 500, 1000                                           \
	}
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
	uint64_t sleep_iters; /* sleeping iterations in the interval (docs, JSON) */

	/* Added later (nothing above renamed). */
	uint64_t sleep_iters_total; /* since start */
	double asleep_pct; /* wall time asleep in the interval, % */
	double drops_while_asleep_pct; /* of its drops in the interval, % asleep */
	double stolen_pct; /* wall time its thread waited for a host CPU (not emulated), % */
	/* Sleep overshoot histogram since start, for the Prometheus exporter: samples
	 * under each PMD_SNAP_OVERSHOOT_LE_US bound (cumulative), all samples, and
	 * their sum from the 1 us buckets' midpoints (each within 0.5 us). */
	uint64_t overshoot_le[PMD_SNAP_OVERSHOOT_NLE];
	uint64_t overshoot_count;
	double overshoot_sum_us;
	/* This PMD thread's own timer slack (/proc/TID/timerslack_ns), -1 unknown. */
	int64_t timer_slack_ns;
	/* The eBPF sleep probe (backends/host/host_bpf.c): real - requested, measured in the kernel
	 * from syscall entry to return of nanosleep/clock_nanosleep, over the interval. */
	bool bpf; /* the probe watched this thread */
	double bpf_overshoot_p50_us, bpf_overshoot_p99_us;
	uint64_t bpf_sleeps; /* sleeps that returned in the interval */
	uint64_t bpf_hist[PMD_SNAP_OS_HIST]; /* bpf_sleeps by overshoot, PMD_SNAP_OS_HIST buckets */
	/* The first sample of this PMD (host): interval figures (rates, iterations,
	 * busy/idle/sleep %, cpu%) have no baseline and are absent, not 0. */
	bool no_rate;
	/* overshoot_p50_us/p99_us fell in the histogram's open top bucket (1023 us and up):
	 * the figure is a lower bound. */
	bool overshoot_p50_at_least, overshoot_p99_at_least;
	/* What its CPU buys over the interval (core/pmd_cost.c), -1 not computable: CPU ns per
	 * packet received, and CPU % of the wall time the host left it (100 - stolen_pct). */
	double cpu_ns_per_pkt, cpu_left_pct;
	/* Its thread's id (the kernel's TID), 0 when the source has none (a host PMD row whose
	 * thread is not in the thread list, a recording without it). */
	pid_t tid;
	/* Arrivals its source's clock had while the host held this thread, per second over the
	 * interval: never offered, so in neither rx nor drops (docs/pmd.md "What the host
	 * took"); -1 unknown (a live OVS, a recording without it). */
	double host_lost_pps;
	uint64_t host_lost; /* the same, since start (the exporter's counter) */
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

	/* Added later (nothing above renamed). */
	int64_t unaccounted; /* generated - forwarded - dropped - in_flight as read */
	uint64_t capacity; /* what the rings and the PMDs' hands hold at most */
	bool bound_broken; /* 0 <= unaccounted <= capacity failed at this snapshot */
	bool hung; /* a PMD made no iteration in the interval */
	bool lat_valid; /* packets reached the sink in the interval */
	double lat_p50_us, lat_p99_us; /* arrival to sink, over the interval */
	uint64_t drops_while_asleep; /* all PMDs, in the interval */
	double dropped_pps; /* all drops, per second over the interval */
	/* The eBPF sleep probe: on, or why not ("not root", "built without eBPF", ...). */
	bool bpf_probe;
	char bpf_probe_error[128];
	char bpf_probe_hook[48]; /* what it hooks ("sched_switch and hrtimer_start/cancel"), "" off
				  */
	double bpf_cost_ns_per_sleep; /* kernel run time of its programs per sleep, -1 unknown */
	int64_t timer_slack_differs; /* host: PMDs whose slack is not what was set, 0 none */
	/* lat_p50_us/p99_us fell in the histogram's open top bucket (4095 us and up): the
	 * figure is a lower bound. */
	bool lat_p50_at_least, lat_p99_at_least;
	/* The PMDs together over the interval (core/pmd_cost.c), -1 not computable: CPU %
	 * summed, host took (stolen_pct) averaged, CPU ns per packet offered, CPU % of the time
	 * the host left them. */
	double cpu_pct, stolen_pct, cpu_ns_per_pkt, cpu_left_pct;
	/* What the sources are asked for: gen.rate_pps x the sources, -1 none (a live OVS). */
	double target_pps;
	/* The host's part of the traffic, beside the knobs' (offered_pps, drop_pct): arrivals
	 * lost while the host held the PMDs, per second, and % of offered + lost; -1 unknown. */
	double host_lost_pps, host_lost_pct;
};

#endif

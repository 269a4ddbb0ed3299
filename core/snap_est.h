/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snap_est.h: the est section of a snapshot: the estimator kthreads (docs/est.md). */
#ifndef TT_EST_SNAP_H
#define TT_EST_SNAP_H

#include <stdbool.h>
#include <stdint.h>

#define EST_SNAP_MAX_KT 256 /* kthreads listed; more are summed into the totals only */
#define EST_KTHREAD_GOAL_PCT 12.5 /* 1 / IPVS_EST_LOAD_DIVISOR of a CPU per kthread */
#define EST_TICK_HIST_BUCKETS 24 /* log2 buckets of tick time: [2^i, 2^(i+1)) us, 0: < 2 us */

struct est_kt_snap {
	int id;
	uint32_t estimators; /* est_count */
	uint32_t rows_filled; /* rows (of 50) with at least one estimator */
	uint32_t rows_full; /* rows whose avail bit is clear */
	uint64_t tick_ns_last; /* this kthread's last tick that had a row to estimate */
	double cpu_pct; /* of one core, over the interval */
	int netns; /* a host's kthread: the gen id of its network namespace (ipvs-e:G:I); 0 engine
		    */
};

struct est_calib_snap {
	int chain_max; /* calibrated per-chain limit before x48 scaling */
	uint64_t single_est_ns; /* min over tests of diff/loops */
	uint64_t diff_ns; /* raw ns of the last test */
	int loops;
	int tests; /* tests run (12) */
	int valid_tests;
	int governor; /* enum cpu_governor in force while calibrating */
	uint64_t wall_ns; /* CLOCK_REALTIME when it finished (JSON "time") */
	uint64_t dequeue_ns; /* relink walk time */
	uint64_t count; /* calibrations so far */
};

struct est_snap {
	uint64_t estimators; /* added and not removed */
	uint64_t placed; /* linked into a chain */
	uint64_t pending; /* on the temp list (estimators = placed + pending) */
	int kthreads; /* kthread contexts with a running task */
	int kthread_slots; /* est_kt_count */
	int max_threads; /* max(1, 4 x cpulist CPUs) */
	int chain_max; /* kd->chain_max (x48 when tick_chains is 1) */
	int tick_chains;
	int est_cpus;
	uint64_t max_per_kthread; /* est_max_count */
	/* Ticks that ran a row with estimators: the last one, and avg/max over the
	 * interval (or over the last interval that had such a tick). */
	uint64_t tick_ns_last, tick_ns_avg, tick_ns_max;
	/* Tick time per estimator visited, same window as tick_ns_avg: what the calibration's
	 * single_est_ns predicts. 0 when unknown (no tick with work yet, or a source without
	 * it); JSON null then. */
	double tick_ns_per_est;
	uint64_t ticks; /* ticks run in the interval, all kthreads */
	uint64_t visits; /* estimator visits in the interval */
	uint64_t tick_hist[EST_TICK_HIST_BUCKETS]; /* since start */
	struct est_calib_snap calib;
	double cpu_pct_total;
	int nkt;
	struct est_kt_snap kt[EST_SNAP_MAX_KT];
	uint64_t mem_bytes; /* counters, estimators, rows and contexts allocated */
	double mem_per_est_bytes;
	uint64_t packets; /* emulated packets counted so far */
	/* EWMA rates of the total estimator (tot_stats), read-side rounded. */
	uint64_t tot_cps, tot_inpps, tot_outpps, tot_inbps, tot_outbps;
	/* Sum of every tick time counted in tick_hist, since start (the exporter's _sum). */
	uint64_t tick_ns_sum_total;
	/* The configuration lock (the kernel's __ip_vs_mutex) was held when this was taken
	 * (a calibration, or a reload stopping kthreads): the fields read under it, from
	 * estimators to kt[] and mem_bytes, are the last sample's. The sampler never waits
	 * for that lock: it is the console's drawing thread. */
	bool config_held;
};

#endif

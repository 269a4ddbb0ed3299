/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics_int.h: the metric family ids shared by the table and the encoder, and the writer the
 * encoder's files share. */
#ifndef TT_METRICS_INT_H
#define TT_METRICS_INT_H

#include "tui/metrics/metrics.h"

/* In the order families are written (the table's order). */
enum metric_id {
	M_INFO,
	M_UPTIME,
	M_SAMPLES,
	M_SAMPLE_INTERVAL,
	M_SAMPLE_DURATION,
	M_RENDER_DURATION,
	M_SELF_CPU,
	M_KNOB,
	M_KNOB_SECONDS,
	M_KNOB_PPS,
	M_KNOB_VALUE,
	M_KNOB_ENABLED,
	M_KNOB_CHOICE,
	M_EVENTS,
	M_DIAG,
	M_CPU_LOAD,
	M_CPU_FREQ,
	M_CPU_ONLINE,
	M_THREADS_CPU,
	M_EST_ESTIMATORS,
	M_EST_KTHREADS,
	M_EST_CHAIN_MAX,
	M_EST_TICK,
	M_EST_TICK_LAST,
	M_EST_TICK_AVG,
	M_EST_TICK_MAX,
	M_EST_CPU,
	M_EST_KT_CPU,
	M_EST_KT_ESTIMATORS,
	M_EST_KT_TICK_LAST,
	M_EST_MEM,
	M_EST_PACKETS,
	M_EST_CALIBRATIONS,
	M_EST_SINGLE_EST,
	M_PMD_GENERATED,
	M_PMD_FORWARDED,
	M_PMD_DROPPED,
	M_PMD_IN_FLIGHT,
	M_PMD_OFFERED,
	M_PMD_DROP_RATIO,
	M_PMD_RX,
	M_PMD_TX,
	M_PMD_RX_DROPS,
	M_PMD_TX_DROPS,
	M_PMD_SLEEP_ITERS,
	M_PMD_ITERATIONS,
	M_PMD_HOST_TOOK,
	M_PMD_HOST_LOST,
	M_PMD_THREAD_DROP,
	M_PMD_BUSY,
	M_PMD_SLEEP_AVG,
	M_PMD_CPU,
	M_PMD_OVERSHOOT,
	M_BLK_SUBMITTED,
	M_BLK_COMPLETED,
	M_BLK_IN_FLIGHT,
	M_BLK_COMPLETIONS,
	M_BLK_IOPS,
	M_BLK_LAT,
	M_BLK_LAT_PCT,
	M_BLK_LAT_SUMMARY,
	M_BLK_IRQ_BUSY,
	M_BLK_IRQ_HOST_TOOK,
	M_BLK_IRQS,
	M_BLK_IPIS,
	M_BLK_DATA_ERRORS,
	M_BLK_CPU_COMPLETED,
	M_BLK_CPU_IPI,
	M_BLK_CPU_SOFTIRQ,
	M_HOST_LINK_RX,
	M_HOST_LINK_TX,
	M_HOST_LINK_RX_DROP,
	M_HOST_LINK_TX_DROP,
	M_HOST_NET_RX,
	M_HOST_NET_TX,
	M_HOST_NET_RX_DROP,
	M_HOST_NET_TX_DROP,
	M_HOST_CPU_DELAY,
	M_HOST_BLKIO_DELAY,
	M_HOST_TASKSTATS,
	M_HOST_OVS,
	M_HOST_THREADS,
	M_OVS_PMD_PASSES,
	M_OVS_PMD_HITS,
	M_OVS_PMD_UPCALLS,
	M_OVS_PMD_LOST_UPCALLS,
	M_OVS_IFACE_DROPS,
	M_PROC_CPU,
	M_PROC_RSS,
	M_PROC_VSZ,
	M_PROC_START,
	M_PROC_OPEN_FDS,
	M_PROC_MAX_FDS,
	M_COUNT
};

/* The writer (metrics_write.c): one family at a time, its header written with its first sample. */
struct mw {
	struct metrics_buf *b;
	enum metrics_format fmt;
	const struct metric_family *fams; /* metric_families (the writer does not name the table) */
	const struct metric_family *f;
	bool header, labels;
};

/* Start writing family id (its header comes with its first sample). */
void mw_family(struct mw *w, enum metric_id id);
/* Start a sample line: the family name and suffix ("", "_total", "_bucket", ...). */
void mw_begin(struct mw *w, const char *suffix);
void mw_label(struct mw *w, const char *key, const char *value);
void mw_label_int(struct mw *w, const char *key, long long v);
/* End the sample line with its value: a float, an integer, nanoseconds as seconds. */
void mw_f64(struct mw *w, double v);
void mw_u64(struct mw *w, uint64_t v);
void mw_ns_s(struct mw *w, uint64_t ns);
/* One unlabelled gauge or counter sample of the current family; one-label ones. */
void mw_g(struct mw *w, double v);
void mw_c(struct mw *w, uint64_t v);
void mw_g1(struct mw *w, const char *k, const char *lv, double v);
void mw_c1(struct mw *w, const char *k, const char *lv, uint64_t v);
/* A histogram from cumulative counts under each bound (le_s[] ascending, in the metric's
 * unit), the total count and the sum; k/lv: one optional label. */
void mw_hist(struct mw *w, const char *k, const char *lv, size_t n, const double *le_s,
	     const uint64_t *cum, uint64_t count, double sum);

/* A family written by hand: its samples (mw_family is called before; it may go on with the
 * families that follow it). st may be NULL. */
typedef void metrics_fn(struct mw *w, const struct snapshot *s, const struct metrics_state *st);

/* The snapshot section a family needs. */
enum { SEC_ANY, SEC_EST, SEC_PMD, SEC_BLK, SEC_HOST };
/* Written by the family before it (or by metrics_process.c), one sample (the figure at off in
 * the snapshot), or one per row of these. */
enum { R_NONE, R_ONE, R_CPU, R_KT, R_PMD, R_BLKCPU, R_LINK, R_OVSPMD };
/* To the base unit: a % to a ratio, us or ns to seconds, MHz to hertz. */
enum { SC_1, SC_PCT, SC_US, SC_NS, SC_MHZ };

/* metrics_engine.c: the engine's sections' families a function writes. */
metrics_fn metrics_est_tick, metrics_pmd_iterations, metrics_pmd_host_took, metrics_pmd_host_lost,
    metrics_pmd_overshoot, metrics_blk_completions, metrics_blk_lat;

/* metrics_group.c: the info line, knobs (all in one family, and one family per unit), events
 * and diagnoses by kind; thread CPU and TASKSTATS delays summed by thread name unless
 * --metrics-tid. */
metrics_fn metrics_info, metrics_knob, metrics_knobs, metrics_events, metrics_diag, metrics_threads,
    metrics_cpu_delay, metrics_blkio_delay;

/* metrics_ovs.c: Open vSwitch's own counters on the host: pmd-stats-show per PMD and the
 * ovsdb Interface drop counters. */
metrics_fn metrics_ovs_passes, metrics_ovs_hits, metrics_ovs_drops;

#endif

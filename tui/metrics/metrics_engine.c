/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics_engine.c: what each family writes, as a table in the order the text has them: a
 * figure of the snapshot (offsetof) or of each of its rows, with its scale to the base unit
 * and what leaves it out; the families no row can say (histograms, sums, state the exporter
 * keeps) are functions here and in metrics_group.c and metrics_ovs.c (docs/metrics.md). */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/snap_schema.h"
#include "tui/metrics/metrics.h"
#include "tui/metrics/metrics_int.h"

/* The snapshot section a family needs. */
enum { SEC_ANY, SEC_EST, SEC_PMD, SEC_BLK, SEC_HOST };
/* One sample (the figure at off in the snapshot), or one per row of these. */
enum { R_ONE, R_CPU, R_KT, R_PMD, R_BLKCPU, R_LINK, R_OVSPMD };
/* To the base unit: a % to a ratio, us or ns to seconds, MHz to hertz. */
enum { SC_1, SC_PCT, SC_US, SC_NS, SC_MHZ };

struct mrow {
	uint8_t id, sec, rows, type, scale;
	bool skip_neg; /* a negative figure is unknown: no sample (a host PMD's first) */
	uint8_t self_bit; /* SELF_ABSENT_*: a recording that lacks it has no sample */
	uint32_t off; /* in struct snapshot (R_ONE) or in the row's struct */
	uint32_t valid; /* offsetof a bool in struct snapshot that makes it known, 0 none */
	const char *label; /* the row's label */
	const char *absent; /* the host.absent name that leaves the family out */
	metrics_fn *fn; /* writes the family itself */
};

#define S struct snapshot
#define ROW(i, x, r, T, m, sc, l, ...)                                                             \
	{                                                                                          \
		.id = i, .sec = x, .rows = r, .type = SF_TYPE(T, m), .scale = sc,                  \
		.off = offsetof(T, m), .label = l, __VA_ARGS__                                     \
	}
#define ONE(i, x, m, sc, ...) ROW(i, x, R_ONE, S, m, sc, NULL, __VA_ARGS__)
#define FN(i, x, f, ...)                                                                           \
	{                                                                                          \
		.id = i, .sec = x, .fn = f, __VA_ARGS__                                            \
	}
#define CPU(i, m, sc) ROW(i, SEC_ANY, R_CPU, struct snap_cpu, m, sc, "cpu")
#define KT(i, m, sc) ROW(i, SEC_EST, R_KT, struct est_kt_snap, m, sc, "kthread")
#define PMD(i, m, sc, ...) ROW(i, SEC_PMD, R_PMD, struct pmd_thread_snap, m, sc, "pmd", __VA_ARGS__)
#define BLKCPU(i, m)                                                                               \
	ROW(i, SEC_BLK, R_BLKCPU, struct blk_cpu_snap, m, SC_1, "cpu",                             \
	    .absent = "blk.per_cpu.completed")
#define LINK(i, m, l) ROW(i, SEC_HOST, R_LINK, struct host_link_snap, m, SC_1, l)
#define OVSPMD(i, m) ROW(i, SEC_HOST, R_OVSPMD, struct host_ovs_pmd_snap, m, SC_1, "pmd")

static const struct mrow metric_rows[] = {
    FN(M_INFO, SEC_ANY, metrics_info),
    ONE(M_UPTIME, SEC_ANY, uptime_s, SC_1),
    ONE(M_SAMPLES, SEC_ANY, seq, SC_1),
    ONE(M_SAMPLE_INTERVAL, SEC_ANY, interval_s, SC_1),
    ONE(M_SAMPLE_DURATION, SEC_ANY, self.sample_us, SC_US, .self_bit = SELF_ABSENT_SAMPLE),
    ONE(M_RENDER_DURATION, SEC_ANY, self.render_us, SC_US, .self_bit = SELF_ABSENT_RENDER),
    ONE(M_SELF_CPU, SEC_ANY, self.cpu_pct, SC_PCT, .self_bit = SELF_ABSENT_CPU),
    FN(M_KNOB, SEC_ANY, metrics_knob),
    FN(M_KNOB_SECONDS, SEC_ANY, metrics_knobs),
    FN(M_EVENTS, SEC_ANY, metrics_events),
    FN(M_DIAG, SEC_ANY, metrics_diag),
    CPU(M_CPU_LOAD, load_pct, SC_PCT),
    CPU(M_CPU_FREQ, freq_mhz, SC_MHZ),
    CPU(M_CPU_ONLINE, online, SC_1),
    FN(M_THREADS_CPU, SEC_ANY, metrics_threads),

    ONE(M_EST_ESTIMATORS, SEC_EST, est.estimators, SC_1),
    ONE(M_EST_KTHREADS, SEC_EST, est.kthreads, SC_1),
    ONE(M_EST_CHAIN_MAX, SEC_EST, est.chain_max, SC_1),
    FN(M_EST_TICK, SEC_EST, metrics_est_tick),
    ONE(M_EST_TICK_LAST, SEC_EST, est.tick_ns_last, SC_NS),
    ONE(M_EST_TICK_AVG, SEC_EST, est.tick_ns_avg, SC_NS),
    ONE(M_EST_TICK_MAX, SEC_EST, est.tick_ns_max, SC_NS),
    ONE(M_EST_CPU, SEC_EST, est.cpu_pct_total, SC_PCT),
    KT(M_EST_KT_CPU, cpu_pct, SC_PCT),
    KT(M_EST_KT_ESTIMATORS, estimators, SC_1),
    KT(M_EST_KT_TICK_LAST, tick_ns_last, SC_NS),
    ONE(M_EST_MEM, SEC_EST, est.mem_bytes, SC_1),
    ONE(M_EST_PACKETS, SEC_EST, est.packets, SC_1),
    ONE(M_EST_CALIBRATIONS, SEC_EST, est.calib.count, SC_1),
    ONE(M_EST_SINGLE_EST, SEC_EST, est.calib.single_est_ns, SC_NS),

    ONE(M_PMD_GENERATED, SEC_PMD, pmd.generated, SC_1, .absent = "pmd.totals"),
    ONE(M_PMD_FORWARDED, SEC_PMD, pmd.forwarded, SC_1, .absent = "pmd.totals"),
    ONE(M_PMD_DROPPED, SEC_PMD, pmd.dropped, SC_1, .absent = "pmd.totals"),
    ONE(M_PMD_IN_FLIGHT, SEC_PMD, pmd.in_flight, SC_1, .absent = "pmd.totals"),
    ONE(M_PMD_OFFERED, SEC_PMD, pmd.offered_pps, SC_1),
    ONE(M_PMD_DROP_RATIO, SEC_PMD, pmd.drop_pct, SC_PCT, .absent = "pmd.rx_drop_pps"),
    PMD(M_PMD_RX, rx_packets, SC_1),
    PMD(M_PMD_TX, tx_packets, SC_1),
    PMD(M_PMD_RX_DROPS, rx_drops, SC_1, .absent = "pmd.rx_drop_pps"),
    PMD(M_PMD_TX_DROPS, tx_drops, SC_1, .absent = "pmd.rx_drop_pps"),
    PMD(M_PMD_SLEEP_ITERS, sleep_iters_total, SC_1),
    FN(M_PMD_ITERATIONS, SEC_PMD, metrics_pmd_iterations),
    FN(M_PMD_HOST_TOOK, SEC_PMD, metrics_pmd_host_took, .absent = "pmd.stolen_pct"),
    FN(M_PMD_HOST_LOST, SEC_PMD, metrics_pmd_host_lost, .absent = "pmd.host_lost_pps"),
    PMD(M_PMD_THREAD_DROP, drop_pct, SC_PCT, .absent = "pmd.rx_drop_pps"),
    PMD(M_PMD_BUSY, busy_pct, SC_PCT, .skip_neg = true),
    PMD(M_PMD_SLEEP_AVG, sleep_us_avg, SC_US, .absent = "pmd.sleep_us_avg", .skip_neg = true),
    PMD(M_PMD_CPU, cpu_pct, SC_PCT, .skip_neg = true),
    FN(M_PMD_OVERSHOOT, SEC_PMD, metrics_pmd_overshoot, .absent = "pmd.sleep_overshoot_us"),

    ONE(M_BLK_SUBMITTED, SEC_BLK, blk.submitted, SC_1, .absent = "blk.totals"),
    ONE(M_BLK_COMPLETED, SEC_BLK, blk.completed, SC_1, .absent = "blk.totals"),
    ONE(M_BLK_IN_FLIGHT, SEC_BLK, blk.in_flight, SC_1, .absent = "blk.totals"),
    FN(M_BLK_COMPLETIONS, SEC_BLK, metrics_blk_completions, .absent = "blk.completions"),
    ONE(M_BLK_IOPS, SEC_BLK, blk.iops, SC_1, .absent = "blk.iops"),
    FN(M_BLK_LAT, SEC_BLK, metrics_blk_lat, .absent = "blk.lat_us"),
    /* Null in the JSON (a host, the first sample): left out, never written as 0. */
    ONE(M_BLK_IRQ_BUSY, SEC_BLK, blk.irq_busy_pct, SC_PCT,
	.valid = offsetof(S, blk.irq_busy_valid)),
    ONE(M_BLK_IRQ_HOST_TOOK, SEC_BLK, blk.irq_host_took_pct, SC_PCT,
	.valid = offsetof(S, blk.irq_busy_valid)),
    ONE(M_BLK_IRQS, SEC_BLK, blk.irqs, SC_1, .absent = "blk.per_cpu.completed"),
    ONE(M_BLK_IPIS, SEC_BLK, blk.ipis_sent, SC_1, .absent = "blk.per_cpu.completed"),
    ONE(M_BLK_DATA_ERRORS, SEC_BLK, blk.data_errors, SC_1, .absent = "blk.per_cpu.completed"),
    BLKCPU(M_BLK_CPU_COMPLETED, completed),
    BLKCPU(M_BLK_CPU_IPI, ipi_recv),
    BLKCPU(M_BLK_CPU_SOFTIRQ, block_softirq),

    LINK(M_HOST_LINK_RX, rx_packets, "interface"),
    LINK(M_HOST_LINK_TX, tx_packets, "interface"),
    LINK(M_HOST_LINK_RX_DROP, rx_dropped, "interface"),
    LINK(M_HOST_LINK_TX_DROP, tx_dropped, "interface"),
    LINK(M_HOST_NET_RX, rx_packets, "device"),
    LINK(M_HOST_NET_TX, tx_packets, "device"),
    LINK(M_HOST_NET_RX_DROP, rx_dropped, "device"),
    LINK(M_HOST_NET_TX_DROP, tx_dropped, "device"),
    FN(M_HOST_CPU_DELAY, SEC_HOST, metrics_cpu_delay),
    FN(M_HOST_BLKIO_DELAY, SEC_HOST, metrics_blkio_delay),
    ONE(M_HOST_TASKSTATS, SEC_HOST, host.taskstats, SC_1),
    ONE(M_HOST_OVS, SEC_HOST, host.ovs, SC_1),
    ONE(M_HOST_THREADS, SEC_HOST, host.threads_matched, SC_1),
    FN(M_OVS_PMD_PASSES, SEC_HOST, metrics_ovs_passes),
    FN(M_OVS_PMD_HITS, SEC_HOST, metrics_ovs_hits),
    OVSPMD(M_OVS_PMD_UPCALLS, upcalls),
    OVSPMD(M_OVS_PMD_LOST_UPCALLS, lost_upcalls),
    FN(M_OVS_IFACE_DROPS, SEC_HOST, metrics_ovs_drops),
};
#undef S

/* The rows a family's samples are of: where they start, how many, how far apart. */
static const char *metrics_rows(const struct snapshot *s, int rows, int *n, size_t *size)
{
	const struct host_snap *h = &s->host;
	switch (rows) {
	case R_CPU:
		*n = s->ncpus, *size = sizeof(*s->cpus);
		return (const char *)s->cpus;
	case R_KT:
		*n = s->est.nkt, *size = sizeof(s->est.kt[0]);
		return (const char *)s->est.kt;
	case R_PMD:
		*n = s->pmd.nthreads, *size = sizeof(s->pmd.threads[0]);
		return (const char *)s->pmd.threads;
	case R_BLKCPU:
		*n = s->blk.ncpus < BLK_SNAP_MAX_CPUS ? s->blk.ncpus : BLK_SNAP_MAX_CPUS;
		*size = sizeof(s->blk.per_cpu[0]);
		return (const char *)s->blk.per_cpu;
	case R_LINK:
		*n = h->links_ok ? h->nlinks : 0, *size = sizeof(h->links[0]);
		return (const char *)h->links;
	case R_OVSPMD:
		*n = h->ovs ? h->novs_pmds : 0, *size = sizeof(h->ovs_pmds[0]);
		return (const char *)h->ovs_pmds;
	}
	*n = 1, *size = 0;
	return (const char *)s;
}

static uint64_t metrics_u64(int type, const char *m)
{
	return type == SFT_U64	 ? *(const uint64_t *)m
	       : type == SFT_U32 ? *(const uint32_t *)m
	       : type == SFT_INT ? (uint64_t) * (const int *)m
				 : *(const bool *)m;
}

static double metrics_f64(int type, int scale, const char *m)
{
	double v = type == SFT_DBL   ? *(const double *)m
		   : type == SFT_INT ? (double)*(const int *)m
				     : (double)metrics_u64(type, m);
	static const double div[] = {[SC_1] = 1, [SC_PCT] = 100, [SC_US] = 1e6, [SC_NS] = 1e9};
	return scale == SC_MHZ ? v * 1e6 : v / div[scale];
}

/* One family's samples: one figure, or one per row labelled by the row's name or id. */
static void metrics_row(struct mw *w, const struct snapshot *s, const struct mrow *r)
{
	bool counter = metric_families[r->id].type == MT_COUNTER;
	size_t size;
	int n;
	const char *base = metrics_rows(s, r->rows, &n, &size);
	char id[16];
	for (int i = 0; i < n; i++) {
		const char *row = base + (size_t)i * size;
		double v = metrics_f64(r->type, r->scale, row + r->off);
		if (r->skip_neg && v < 0)
			continue;
		mw_begin(w, counter ? "_total" : "");
		if (r->label) {
			/* every row struct begins with its name, or with its int id */
			bool named = r->rows == R_PMD || r->rows == R_LINK || r->rows == R_OVSPMD;
			if (!named)
				snprintf(id, sizeof(id), "%d", *(const int *)row);
			mw_label(w, r->label, named ? row : id);
		}
		if (counter)
			mw_u64(w, metrics_u64(r->type, row + r->off));
		else
			mw_f64(w, v);
	}
}

void metrics_families(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	const bool has[] = {true, s->has_est, s->has_pmd, s->has_blk, s->has_host};
	for (size_t i = 0; i < sizeof(metric_rows) / sizeof(metric_rows[0]); i++) {
		const struct mrow *r = &metric_rows[i];
		if (!has[r->sec] || (r->absent && snapshot_absent(s, r->absent)) ||
		    (s->self.absent & r->self_bit) ||
		    (r->valid && !*(const bool *)((const char *)s + r->valid)))
			continue;
		mw_family(w, (enum metric_id)r->id);
		if (r->fn)
			r->fn(w, s, st);
		else
			metrics_row(w, s, r);
	}
}

void metrics_est_tick(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	const struct est_snap *e = &s->est;
	double le[EST_TICK_HIST_BUCKETS - 1];
	uint64_t cum[EST_TICK_HIST_BUCKETS - 1], seen = 0;
	/* Bucket i holds [2^i, 2^(i+1)) us (bucket 0 everything under 2 us); the last
	 * also collects everything beyond, so its bound is +Inf. */
	for (int i = 0; i < EST_TICK_HIST_BUCKETS - 1; i++) {
		seen += e->tick_hist[i];
		cum[i] = seen;
		le[i] = (double)(2ull << i) / 1e6;
	}
	seen += e->tick_hist[EST_TICK_HIST_BUCKETS - 1];
	mw_hist(w, NULL, NULL, EST_TICK_HIST_BUCKETS - 1, le, cum, seen,
		(double)e->tick_ns_sum_total / 1e9);
}

void metrics_pmd_iterations(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	for (int i = 0; st && i < st->npmd_iter; i++)
		mw_c1(w, "pmd", st->pmd_iter[i].name, st->pmd_iter[i].total);
}

void metrics_pmd_host_took(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	for (int i = 0; st && i < st->npmd_iter; i++) {
		mw_begin(w, "_total");
		mw_label(w, "pmd", st->pmd_iter[i].name);
		mw_ns_s(w, st->pmd_iter[i].host_took_ns);
	}
}

/* The total of a PMD whose rate is known: a recording without the figure reads -1 there. */
void metrics_pmd_host_lost(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	for (int i = 0; i < s->pmd.nthreads; i++) {
		const struct pmd_thread_snap *t = &s->pmd.threads[i];
		if (t->host_lost_pps < 0)
			continue;
		mw_begin(w, "_total");
		mw_label(w, "pmd", t->name);
		mw_u64(w, t->host_lost);
	}
}

void metrics_pmd_overshoot(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	static const uint64_t le_us[PMD_SNAP_OVERSHOOT_NLE] = PMD_SNAP_OVERSHOOT_LE_US;
	double le[PMD_SNAP_OVERSHOOT_NLE];
	for (int j = 0; j < PMD_SNAP_OVERSHOOT_NLE; j++)
		le[j] = (double)le_us[j] / 1e6;
	for (int i = 0; i < s->pmd.nthreads; i++) {
		const struct pmd_thread_snap *t = &s->pmd.threads[i];
		mw_hist(w, "pmd", t->name, PMD_SNAP_OVERSHOOT_NLE, le, t->overshoot_le,
			t->overshoot_count, t->overshoot_sum_us / 1e6);
	}
}

void metrics_blk_completions(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	mw_c1(w, "path", "direct", s->blk.direct);
	mw_c1(w, "path", "local_softirq", s->blk.local_softirq);
	mw_c1(w, "path", "remote", s->blk.remote);
}

/* The latency histogram, its percentiles, and a summary as the client libraries write one:
 * quantiles over a recent window (the interval), _sum and _count since start. */
void metrics_blk_lat(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	static const uint64_t le_ns[BLK_SNAP_LAT_NLE] = BLK_SNAP_LAT_LE_NS;
	static const char *const pct_name[] = {"50", "99", "99.9"};
	static const char *const quantile_name[] = {"0.5", "0.99", "0.999"};
	const struct blk_snap *b = &s->blk;
	const double pct[] = {b->lat_p50_us, b->lat_p99_us, b->lat_p999_us};
	double le[BLK_SNAP_LAT_NLE];
	for (int j = 0; j < BLK_SNAP_LAT_NLE; j++)
		le[j] = (double)le_ns[j] / 1e9;
	mw_hist(w, NULL, NULL, BLK_SNAP_LAT_NLE, le, b->lat_le, b->lat_count, b->lat_sum_ns / 1e9);
	mw_family(w, M_BLK_LAT_PCT);
	for (int j = 0; j < 3; j++)
		mw_g1(w, "percentile", pct_name[j], pct[j] / 1e6);
	mw_family(w, M_BLK_LAT_SUMMARY);
	for (int j = 0; j < 3; j++)
		mw_g1(w, "quantile", quantile_name[j], pct[j] / 1e6);
	mw_begin(w, "_sum");
	mw_f64(w, b->lat_sum_ns / 1e9);
	mw_begin(w, "_count");
	mw_u64(w, b->lat_count);
}

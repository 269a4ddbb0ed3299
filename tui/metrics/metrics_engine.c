/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics_engine.c: the families of the engine's sections no row of the family table
 * (metrics_table.c) can say: histograms, sums, state the exporter keeps (docs/metrics.md);
 * metrics_group.c and metrics_ovs.c have the others. */
#include "tui/metrics/metrics_int.h"

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

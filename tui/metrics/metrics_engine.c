/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics_engine.c: the families of the three mechanisms (est, pmd, blk), as the engine or a
 * host measures them (docs/metrics.md). */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "tui/metrics/metrics.h"
#include "tui/metrics/metrics_int.h"

void metrics_est(struct mw *w, const struct est_snap *e)
{
	double le[EST_TICK_HIST_BUCKETS - 1];
	uint64_t cum[EST_TICK_HIST_BUCKETS - 1], seen = 0;
	char kt[16];

	mw_family(w, M_EST_ESTIMATORS);
	mw_g(w, (double)e->estimators);
	mw_family(w, M_EST_KTHREADS);
	mw_g(w, e->kthreads);
	mw_family(w, M_EST_CHAIN_MAX);
	mw_g(w, e->chain_max);
	/* Bucket i holds [2^i, 2^(i+1)) us (bucket 0 everything under 2 us); the last
	 * also collects everything beyond, so its bound is +Inf. */
	for (int i = 0; i < EST_TICK_HIST_BUCKETS - 1; i++) {
		seen += e->tick_hist[i];
		cum[i] = seen;
		le[i] = (double)(2ull << i) / 1e6;
	}
	seen += e->tick_hist[EST_TICK_HIST_BUCKETS - 1];
	mw_family(w, M_EST_TICK);
	mw_hist(w, NULL, NULL, EST_TICK_HIST_BUCKETS - 1, le, cum, seen,
		(double)e->tick_ns_sum_total / 1e9);
	mw_family(w, M_EST_TICK_LAST);
	mw_g(w, (double)e->tick_ns_last / 1e9);
	mw_family(w, M_EST_TICK_AVG);
	mw_g(w, (double)e->tick_ns_avg / 1e9);
	mw_family(w, M_EST_TICK_MAX);
	mw_g(w, (double)e->tick_ns_max / 1e9);
	mw_family(w, M_EST_CPU);
	mw_g(w, e->cpu_pct_total / 100.0);
	mw_family(w, M_EST_KT_CPU);
	for (int i = 0; i < e->nkt; i++)
		snprintf(kt, sizeof(kt), "%d", e->kt[i].id),
		    mw_g1(w, "kthread", kt, e->kt[i].cpu_pct / 100.0);
	mw_family(w, M_EST_KT_ESTIMATORS);
	for (int i = 0; i < e->nkt; i++)
		snprintf(kt, sizeof(kt), "%d", e->kt[i].id),
		    mw_g1(w, "kthread", kt, e->kt[i].estimators);
	mw_family(w, M_EST_KT_TICK_LAST);
	for (int i = 0; i < e->nkt; i++)
		snprintf(kt, sizeof(kt), "%d", e->kt[i].id),
		    mw_g1(w, "kthread", kt, (double)e->kt[i].tick_ns_last / 1e9);
	mw_family(w, M_EST_MEM);
	mw_g(w, (double)e->mem_bytes);
	mw_family(w, M_EST_PACKETS);
	mw_c(w, e->packets);
	mw_family(w, M_EST_CALIBRATIONS);
	mw_c(w, e->calib.count);
	mw_family(w, M_EST_SINGLE_EST);
	mw_g(w, (double)e->calib.single_est_ns / 1e9);
}

void metrics_pmd(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	static const uint64_t le_us[PMD_SNAP_OVERSHOOT_NLE] = PMD_SNAP_OVERSHOOT_LE_US;
	const struct pmd_snap *p = &s->pmd;
	bool totals = !snapshot_absent(s, "pmd.totals");
	bool drops = !snapshot_absent(s, "pmd.rx_drop_pps");
	double le[PMD_SNAP_OVERSHOOT_NLE];

	if (totals) {
		mw_family(w, M_PMD_GENERATED);
		mw_c(w, p->generated);
		mw_family(w, M_PMD_FORWARDED);
		mw_c(w, p->forwarded);
		mw_family(w, M_PMD_DROPPED);
		mw_c(w, p->dropped);
		mw_family(w, M_PMD_IN_FLIGHT);
		mw_g(w, (double)p->in_flight);
	}
	mw_family(w, M_PMD_OFFERED);
	mw_g(w, p->offered_pps);
	if (drops) {
		mw_family(w, M_PMD_DROP_RATIO);
		mw_g(w, p->drop_pct / 100.0);
	}
	mw_family(w, M_PMD_RX);
	for (int i = 0; i < p->nthreads; i++)
		mw_c1(w, "pmd", p->threads[i].name, p->threads[i].rx_packets);
	mw_family(w, M_PMD_TX);
	for (int i = 0; i < p->nthreads; i++)
		mw_c1(w, "pmd", p->threads[i].name, p->threads[i].tx_packets);
	mw_family(w, M_PMD_RX_DROPS);
	for (int i = 0; drops && i < p->nthreads; i++)
		mw_c1(w, "pmd", p->threads[i].name, p->threads[i].rx_drops);
	mw_family(w, M_PMD_TX_DROPS);
	for (int i = 0; drops && i < p->nthreads; i++)
		mw_c1(w, "pmd", p->threads[i].name, p->threads[i].tx_drops);
	mw_family(w, M_PMD_SLEEP_ITERS);
	for (int i = 0; i < p->nthreads; i++)
		mw_c1(w, "pmd", p->threads[i].name, p->threads[i].sleep_iters_total);
	mw_family(w, M_PMD_ITERATIONS);
	for (int i = 0; st && i < st->npmd_iter; i++)
		mw_c1(w, "pmd", st->pmd_iter[i].name, st->pmd_iter[i].total);
	mw_family(w, M_PMD_HOST_TOOK);
	for (int i = 0; st && !snapshot_absent(s, "pmd.stolen_pct") && i < st->npmd_iter; i++) {
		mw_begin(w, "_total");
		mw_label(w, "pmd", st->pmd_iter[i].name);
		mw_ns_s(w, st->pmd_iter[i].host_took_ns);
	}
	mw_family(w, M_PMD_THREAD_DROP);
	for (int i = 0; drops && i < p->nthreads; i++)
		mw_g1(w, "pmd", p->threads[i].name, p->threads[i].drop_pct / 100.0);
	mw_family(w, M_PMD_BUSY);
	for (int i = 0; i < p->nthreads; i++)
		mw_g1(w, "pmd", p->threads[i].name, p->threads[i].busy_pct / 100.0);
	mw_family(w, M_PMD_SLEEP_AVG);
	for (int i = 0; i < p->nthreads; i++)
		mw_g1(w, "pmd", p->threads[i].name, p->threads[i].sleep_us_avg / 1e6);
	mw_family(w, M_PMD_CPU);
	for (int i = 0; i < p->nthreads; i++)
		mw_g1(w, "pmd", p->threads[i].name, p->threads[i].cpu_pct / 100.0);
	if (snapshot_absent(s, "pmd.sleep_overshoot_us"))
		return;
	for (int j = 0; j < PMD_SNAP_OVERSHOOT_NLE; j++)
		le[j] = (double)le_us[j] / 1e6;
	mw_family(w, M_PMD_OVERSHOOT);
	for (int i = 0; i < p->nthreads; i++) {
		const struct pmd_thread_snap *t = &p->threads[i];
		mw_hist(w, "pmd", t->name, PMD_SNAP_OVERSHOOT_NLE, le, t->overshoot_le,
			t->overshoot_count, t->overshoot_sum_us / 1e6);
	}
}

void metrics_blk(struct mw *w, const struct snapshot *s)
{
	static const uint64_t le_ns[BLK_SNAP_LAT_NLE] = BLK_SNAP_LAT_LE_NS;
	static const char *const pct_name[] = {"50", "99", "99.9"};
	static const char *const quantile_name[] = {"0.5", "0.99", "0.999"};
	const struct blk_snap *b = &s->blk;
	double le[BLK_SNAP_LAT_NLE];
	char cpu[16];

	if (!snapshot_absent(s, "blk.totals")) {
		mw_family(w, M_BLK_SUBMITTED);
		mw_c(w, b->submitted);
		mw_family(w, M_BLK_COMPLETED);
		mw_c(w, b->completed);
		mw_family(w, M_BLK_IN_FLIGHT);
		mw_g(w, (double)b->in_flight);
	}
	if (!snapshot_absent(s, "blk.completions")) {
		mw_family(w, M_BLK_COMPLETIONS);
		mw_c1(w, "path", "direct", b->direct);
		mw_c1(w, "path", "local_softirq", b->local_softirq);
		mw_c1(w, "path", "remote", b->remote);
	}
	if (!snapshot_absent(s, "blk.iops")) {
		mw_family(w, M_BLK_IOPS);
		mw_g(w, b->iops);
	}
	if (!snapshot_absent(s, "blk.lat_us")) {
		const double pct[] = {b->lat_p50_us, b->lat_p99_us, b->lat_p999_us};
		for (int j = 0; j < BLK_SNAP_LAT_NLE; j++)
			le[j] = (double)le_ns[j] / 1e9;
		mw_family(w, M_BLK_LAT);
		mw_hist(w, NULL, NULL, BLK_SNAP_LAT_NLE, le, b->lat_le, b->lat_count,
			b->lat_sum_ns / 1e9);
		mw_family(w, M_BLK_LAT_PCT);
		for (int j = 0; j < 3; j++)
			mw_g1(w, "percentile", pct_name[j], pct[j] / 1e6);
		/* A summary as the client libraries write one: quantiles over a recent window
		 * (the interval), _sum and _count since start (the histogram's). */
		mw_family(w, M_BLK_LAT_SUMMARY);
		for (int j = 0; j < 3; j++)
			mw_g1(w, "quantile", quantile_name[j], pct[j] / 1e6);
		mw_begin(w, "_sum");
		mw_f64(w, b->lat_sum_ns / 1e9);
		mw_begin(w, "_count");
		mw_u64(w, b->lat_count);
	}
	/* Null in the JSON (a host, the first sample): left out, never written as 0. */
	if (b->irq_busy_valid) {
		mw_family(w, M_BLK_IRQ_BUSY);
		mw_g(w, b->irq_busy_pct / 100.0);
		mw_family(w, M_BLK_IRQ_HOST_TOOK);
		mw_g(w, b->irq_host_took_pct / 100.0);
	}
	if (snapshot_absent(s, "blk.per_cpu.completed"))
		return;
	mw_family(w, M_BLK_IRQS);
	mw_c(w, b->irqs);
	mw_family(w, M_BLK_IPIS);
	mw_c(w, b->ipis_sent);
	mw_family(w, M_BLK_DATA_ERRORS);
	mw_c(w, b->data_errors);
	mw_family(w, M_BLK_CPU_COMPLETED);
	for (int i = 0; i < b->ncpus && i < BLK_SNAP_MAX_CPUS; i++)
		snprintf(cpu, sizeof(cpu), "%d", b->per_cpu[i].cpu),
		    mw_c1(w, "cpu", cpu, b->per_cpu[i].completed);
	mw_family(w, M_BLK_CPU_IPI);
	for (int i = 0; i < b->ncpus && i < BLK_SNAP_MAX_CPUS; i++)
		snprintf(cpu, sizeof(cpu), "%d", b->per_cpu[i].cpu),
		    mw_c1(w, "cpu", cpu, b->per_cpu[i].ipi_recv);
	mw_family(w, M_BLK_CPU_SOFTIRQ);
	for (int i = 0; i < b->ncpus && i < BLK_SNAP_MAX_CPUS; i++)
		snprintf(cpu, sizeof(cpu), "%d", b->per_cpu[i].cpu),
		    mw_c1(w, "cpu", cpu, b->per_cpu[i].block_softirq);
}

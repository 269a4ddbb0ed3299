/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_ovssusp.c: OVS's suspicious iterations from pmd-perf-show (lib/dpif-netdev-perf.c,
 * pmd_perf_end_iteration and pmd_perf_format_overall_stats; docs/pmd.md "Suspicious
 * iterations"). */
#include "backends/host/ovs/host_ovssusp.h"

#include <math.h>
#include <string.h>

bool host_ovs_tsc_from_perf(const struct host_pmd_perf *c, struct host_ovs_tsc *out)
{
	struct host_ovs_tsc best = {-1, 1e9};
	/* "%5.1f %% of total cycles" and "%.3f s": each is off by at most half its last digit. */
	if (c->used_cycles > 0 && c->used_pct > 0 && c->duration_s > 0) {
		double e = 0.05 / c->used_pct + 0.0005 / c->duration_s;
		if (e < best.rel_err)
			best = (struct host_ovs_tsc){
			    100.0 * (double)c->used_cycles / (c->duration_s * c->used_pct), e};
	}
	/* "%.2f us/it" covers used and sleep cycles; "Sleep time (us)" is "%12.0f". */
	if (c->used_cycles > 0 && c->iterations > 0 && c->us_per_it > 0) {
		double used_us = c->us_per_it * (double)c->iterations - c->sleep_us;
		double err_us = 0.005 * (double)c->iterations + 0.5;
		if (used_us > err_us && err_us / used_us < best.rel_err)
			best = (struct host_ovs_tsc){(double)c->used_cycles * 1e6 / used_us,
						     err_us / used_us};
	}
	if (best.hz <= 0 || best.rel_err > HOST_OVS_TSC_MAX_ERR)
		return false;
	*out = best;
	return true;
}

static const struct host_ovs_hist *susp_hist(const struct host_ovs_pmd_hists *h, const char *name)
{
	for (int k = 0; k < h->nhists; k++)
		if (strcmp(h->hist[k].name, name) == 0)
			return &h->hist[k];
	return NULL;
}

/*
 * Bin b of g holds values v with edge[b-1] < v <= edge[b] (histogram_add_sample: the first
 * wall at or above v; bin 0 from 0). Sums the bins all of whose values are at least sure_v
 * into *sure, and those with any value at least maybe_v into *maybe (values are integers).
 */
static void susp_bins(const struct host_ovs_hist *g, double sure_v, double maybe_v, uint64_t *sure,
		      uint64_t *maybe)
{
	*sure = *maybe = 0;
	for (int b = 0; b < g->nbins; b++) {
		double low = b ? (double)g->edge[b - 1] + 1 : 0;
		double high = g->edge[b] == UINT64_MAX ? 1e300 : (double)g->edge[b];
		if (low >= sure_v)
			*sure += g->count[b];
		if (high >= maybe_v)
			*maybe += g->count[b];
	}
}

int host_ovs_susp_count(const struct host_ovs_pmd_hists *h, const struct host_ovs_tsc *tsc,
			unsigned us_thr, unsigned q_thr, struct host_ovs_susp *out)
{
	const struct host_ovs_hist *cyc = susp_hist(h, "cycles/it");
	const struct host_ovs_hist *q = susp_hist(h, "max vhost qlen");
	if (!cyc)
		return -1;
	memset(out, 0, sizeof(*out));
	for (int b = 0; b < cyc->nbins; b++)
		out->total += cyc->count[b];
	/* OVS: cycles > iter_cycle_threshold = us_thr * tsc_hz / 1e6; the rate known within
	 * rel_err moves the threshold within [t_lo, t_hi]. */
	double t = (double)us_thr * tsc->hz / 1e6;
	double t_lo = t * (1 - tsc->rel_err), t_hi = t * (1 + tsc->rel_err);
	uint64_t c_sure, c_maybe, q_sure = 0, q_maybe = 0;
	susp_bins(cyc, floor(t_hi) + 1, floor(t_lo) + 1, &c_sure, &c_maybe);
	/* Or "Vhost RX queue full": max_vhost_qfill >= q_thr. */
	if (q)
		susp_bins(q, q_thr, q_thr, &q_sure, &q_maybe);
	out->min = c_sure > q_sure ? c_sure : q_sure;
	out->max = c_maybe + q_maybe < out->total ? c_maybe + q_maybe : out->total;
	return 0;
}

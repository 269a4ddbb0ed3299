/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_ovssusp.h: OVS's suspicious iterations (pmd-perf-log-set), counted from what
 * pmd-perf-show prints: the TSC rate its figures imply, and the iterations of its histograms
 * past the thresholds. Pure: no I/O. */
#ifndef TT_HOST_OVSSUSP_H
#define TT_HOST_OVSSUSP_H

#include <stdbool.h>
#include <stdint.h>

#include "backends/host/ovs/host_ovshist.h"
#include "backends/host/ovs/host_ovsparse.h"

/* ITER_US_THRESHOLD and VHOST_QUEUE_FULL of lib/dpif-netdev-perf.c: the defaults of
 * pmd-perf-log-set's -us and -q (docs/pmd.md "Suspicious iterations"). OVS reports neither
 * setting, so tunetop counts against these. */
#define OVS_ITER_US_THRESHOLD 250
#define OVS_VHOST_QUEUE_FULL 128
/* A TSC rate pmd-perf-show's rounded figures fix to worse than this is not used. */
#define HOST_OVS_TSC_MAX_ERR 0.02
/* OVS keeps tsc_hz 1 when it has not measured it (a dummy datapath) or found the TSC
 * unreliable; a derived rate below this is that placeholder, not a clock. */
#define HOST_OVS_TSC_MIN_HZ 1e6

/* A TSC rate and its relative error (from the rounding of the figures it comes from). */
struct host_ovs_tsc {
	double hz;
	double rel_err;
};

/*
 * The TSC rate one PMD block implies: from "Used TSC cycles" and its "% of total cycles" over
 * the "Measurement duration" (100 * U / (D * pct)), or from "us/it" times the iterations less
 * the sleep time, over the used cycles; the one the rounding of the printed figures fixes
 * closer. False when neither is within HOST_OVS_TSC_MAX_ERR (no iterations, no duration).
 */
bool host_ovs_tsc_from_perf(const struct host_pmd_perf *c, struct host_ovs_tsc *out);

/* Iterations, since the stats were cleared, that OVS calls suspicious: at least min, at most
 * max (a histogram bin that straddles a threshold may hold either); total counts them all. */
struct host_ovs_susp {
	uint64_t min, max, total;
};

/*
 * One PMD's suspicious iterations as lib/dpif-netdev-perf.c defines them: cycles (sleep
 * excluded) over us_thr * tsc / 1e6 (the cycles/it histogram), or a vhost queue fill of q_thr
 * or more (max vhost qlen). 0; -1 when the PMD has no cycles/it histogram.
 */
int host_ovs_susp_count(const struct host_ovs_pmd_hists *h, const struct host_ovs_tsc *tsc,
			unsigned us_thr, unsigned q_thr, struct host_ovs_susp *out);

#endif

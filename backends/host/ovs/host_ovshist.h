/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_ovshist.h: a pure parser for the histograms of `dpif-netdev/pmd-perf-show` (printed with
 * other_config:pmd-perf-metrics=true), one set per PMD. */
#ifndef TT_HOST_OVSHIST_H
#define TT_HOST_OVSHIST_H

#include <stdint.h>

#include "core/snap_host.h"

/* Every histogram of one PMD block, in OVS's column order (cycles/it, packets/it, ...). */
struct host_ovs_pmd_hists {
	int core_id;
	int nhists;
	struct host_ovs_hist hist[HOST_OVS_MAX_HISTS];
};
#define HOST_OVS_MAX_HIST_PMDS 16
struct host_ovs_hists {
	int npmds;
	struct host_ovs_pmd_hists pmd[HOST_OVS_MAX_HIST_PMDS];
};

/*
 * The "Histograms" tables of text, each under the PMD block ("pmd thread numa_id N core_id
 * C:") it follows. A column's bins are (upper edge, count) pairs, the last one's edge ">"
 * (stored as UINT64_MAX). 0 (npmds 0 when the report has none: pmd-perf-metrics is off), -1
 * when a table does not read as one (its rows' columns disagree with the heading's).
 */
int host_ovs_parse_hists(const char *text, struct host_ovs_hists *out);

#endif

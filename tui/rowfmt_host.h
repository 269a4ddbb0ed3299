/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rowfmt_host.h: the pmd view's text on the host (OVS): absent figures as "-", full PMD names. */
#ifndef TT_ROWFMT_HOST_H
#define TT_ROWFMT_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include "core/snapshot.h"

/* The snapshot's pmd section comes from a live OVS (not the engine's workload). */
bool rowfmt_host_pmd(const struct snapshot *s);
/* The pmd view's title when there is no pmd section on the host: OVS's own reason. */
const char *rowfmt_host_no_pmd(const struct snapshot *s, char *buf, size_t len);
/* What ovsdb holds for the max sleep into buf when it is not the value in force as text ("99999"
 * against 10000 applied, a write ovs-vswitchd has not taken yet): true; false when they agree. */
bool rowfmt_host_maxsleep_ovsdb(const struct snapshot *s, char *buf, size_t len);
/* The first line of the pmd view on the host. */
const char *rowfmt_host_summary(const struct snapshot *s, char *buf, size_t len);
extern const char rowfmt_host_pmd_head[];
/* One PMD as pmd-perf-show and pmd-stats-show see it, over the interval ("-": no baseline). */
const char *rowfmt_host_pmd_row(const struct pmd_thread_snap *p, char *buf, size_t len);
/* The lines after the PMD table (stats-show, hit shares, rxq-show, ovsdb Interface, interface
 * drops, suspicious iterations): how many, and line i. */
int rowfmt_host_nlines(const struct snapshot *s);
/* Line i of those is a section's heading. */
bool rowfmt_host_is_head(const struct snapshot *s, int i);
const char *rowfmt_host_line(const struct snapshot *s, int i, char *buf, size_t len);

/* The histograms' part (its bars: tui/chart_bars.h, drawn by tui/console/ui_view_pmdhist.c):
 * its heading, the line under it when no PMD's report has any, and the line over each
 * chart: "pmd-c01/id:8 cycles/it  n 1.2k  p50 <= 8857" (the bin holding the median), with
 * "-" and why for a histogram that counted nothing, or (g NULL) for a PMD whose report has
 * none. */
extern const char rowfmt_host_hist_head[], rowfmt_host_hist_none[];
const char *rowfmt_host_hist_title(const struct host_ovs_pmd_snap *x, const struct host_ovs_hist *g,
				   char *buf, size_t len);

#endif

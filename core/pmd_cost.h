/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_cost.h: what the PMDs' CPU buys: CPU ns per packet and CPU as a share of the time the host
 * left them, per PMD and together, and the host-took figure (docs/pmd.md "CPU that can be
 * compared"). */
#ifndef TT_PMD_COST_H
#define TT_PMD_COST_H

#include <stdbool.h>

#include "core/snap_pmd.h"

/* Not computable (no packets, no baseline, a figure unknown): JSON null, screen "-". */
#define PMD_COST_NONE (-1.0)
/* Host took at least this much of the PMDs' wall time (%, their mean): the screens say so,
 * with offered against target. Below it the figure is noise (a tick, an interrupt). */
#define PMD_COST_HOST_TOOK_SHOW_PCT 5.0

/*
 * The three figures from their parts, the one place they are computed (the snapshot's
 * rates below, the experiments' windows and the live tuner alike). Any unit, the same for
 * all the arguments of a call.
 */
/* CPU ns per packet: cpu_ns of CPU (or ns per second) over the packets of the same window
 * (or per second); PMD_COST_NONE when cpu_ns < 0 or packets <= 0. */
double pmd_cost_ns_per(double cpu_ns, double packets);
/* CPU as a % of the time the host left: 100 * cpu / (wall - took), took at most wall, and
 * at most 100 (CPU past the time left: the two overlap, see pmd_cost.c); PMD_COST_NONE when
 * a part is unknown (< 0), wall <= 0, or the host took it all. */
double pmd_cost_share_pct(double cpu, double wall, double took);
/* Host took as a % of wall, took at most wall; PMD_COST_NONE when took < 0 or wall <= 0. */
double pmd_cost_took_pct(double took, double wall);

/* CPU ns spent per packet: cpu_pct (% of one CPU over the interval) per pps received in the
 * same interval; PMD_COST_NONE when cpu_pct < 0 or pps <= 0. */
double pmd_cost_ns_per_pkt(double cpu_pct, double pps);
/* CPU as a % of the wall time the host left the thread, cpu / (wall - host took), at most
 * 100 (the two can overlap, see pmd_cost.c): PMD_COST_NONE when either is unknown (< 0) or
 * the host took it all. */
double pmd_cost_left_pct(double cpu_pct, double stolen_pct);

/*
 * Fill the cost figures of p: each PMD's cpu_ns_per_pkt and cpu_left_pct, and the section's
 * cpu_pct (sum), stolen_pct (mean), cpu_ns_per_pkt (summed CPU per packet offered) and
 * cpu_left_pct (summed CPU over the summed time left). first: the interval has no baseline
 * (a source's first sample), every figure PMD_COST_NONE. A PMD with no_rate counts as unknown;
 * a total with any PMD unknown is unknown.
 */
void pmd_cost_fill(struct pmd_snap *p, bool first);

/* Whether the host took enough of the PMDs' time to say so on screen (stolen_pct known and
 * at least PMD_COST_HOST_TOOK_SHOW_PCT). */
bool pmd_cost_host_took_matters(const struct pmd_snap *p);

#endif

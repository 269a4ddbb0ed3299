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

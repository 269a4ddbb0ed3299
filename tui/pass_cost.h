/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pass_cost.h: what a PMD setting costs over a pass's window (drop %, CPU per packet, CPU
 * share of the time the host left the PMDs, host took), from the counters at the window's
 * start and end, and the trade-off's answer: the cheapest setting within a drop budget. */
#ifndef TT_PASS_COST_H
#define TT_PASS_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/snapshot.h"

/* The PMD counters of one sample: where a window starts. */
struct pass_pmd_mark {
	bool valid; /* the sample had PMDs */
	uint64_t mono_ns;
	double cpu_ns; /* the PMD threads' CPU clocks summed (engine threads), -1 unknown */
	int ncpu; /* PMD threads behind cpu_ns */
	double rx; /* packets the PMDs received, totals summed */
	double generated, dropped; /* pmd.totals, restart drops left out of dropped */
};

/* A window's sums, added interval by interval (one interval: a pass of an experiment). */
struct pass_pmd_acc {
	double wall_s; /* window length */
	double thread_s; /* wall_s times the PMD threads: the time they could have run */
	double cpu_s; /* CPU time they used */
	double stolen_s; /* time they waited for a host CPU ("host took") */
	double packets; /* packets they received */
	double offered, dropped; /* from pmd.totals */
	double drop_w; /* pmd.drop_pct x wall_s, when pmd.totals do not move (a host) */
};

struct pass_pmd_cost {
	double drop_pct; /* dropped / offered in the window */
	double ns_per_pkt; /* PMD CPU ns per packet received; -1 when nothing arrived */
	double share_pct; /* CPU time / (thread time - host took): busy polling is ~100 */
	double host_took_pct; /* host took / thread time */
};

/* Default drop budget of the trade-off's answer, % of offered (the seed's own fix ran at
 * 0.02-0.06 %: a budget it meets; docs/pmd.md). */
#define PASS_DROP_BUDGET_PCT 0.1
/* Default limit on what the host may take of a pass before it is set aside, %. */
#define PASS_HOST_TOOK_LIMIT_PCT 30.0

void pass_pmd_mark_read(const struct snapshot *s, struct pass_pmd_mark *m);
/* Add the interval from mark a to snapshot b, whose interval figures (cpu_pct,
 * stolen_pct) cover it. Nothing is added without PMDs in both or with no time between. */
void pass_pmd_acc_add(struct pass_pmd_acc *acc, const struct pass_pmd_mark *a,
		      const struct snapshot *b);
/* The window's cost; -1 (c zeroed) when it measured nothing. */
int pass_pmd_cost_of(const struct pass_pmd_acc *acc, struct pass_pmd_cost *c);

/* One candidate setting of the trade-off. */
struct pass_cost_cand {
	bool usable; /* measured, not hung, not set aside */
	bool sleeps; /* maxsleep > 0 */
	double drop_pct, ns_per_pkt, share_pct; /* its medians */
};

/*
 * The cheapest candidate within budget_pct of drops: sleeping settings first (busy
 * polling only when no sleeping one meets the budget), then the least CPU per packet,
 * then the least CPU share. Never raw CPU %: under a noisy host it measures what the
 * host left, not what the setting costs. Returns the index, or n when none qualifies.
 */
size_t pass_cost_cheapest(const struct pass_cost_cand *c, size_t n, double budget_pct);
/* Is a cheaper than b by that rule (budget and usability aside)? The tuner's ranking too. */
bool pass_cost_better(const struct pass_cost_cand *a, const struct pass_cost_cand *b);

#endif

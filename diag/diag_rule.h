/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag_rule.h: what a diagnosis rule is, and the helpers the rules share (inside diag/ only). */
#ifndef TT_DIAG_RULE_H
#define TT_DIAG_RULE_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "diag/diag.h"

/*
 * A rule: check reads one snapshot and, when its condition holds, fills f (severity,
 * evidence, conclusion, fix) and returns true. It returns false when the condition
 * does not hold and also when a figure it needs is missing on this source: a rule
 * says nothing rather than guess. k_start/k_clear: consecutive samples with (without)
 * the condition before the finding starts (clears).
 */
struct diag_rule {
	const char *id;
	bool (*check)(const struct snapshot *s, struct diag_finding *f);
	int k_start, k_clear;
	/* Samples it leaves undecided still wait, past DIAG_MAX_UNDECIDED, until this long since
	 * the last one it judged (0: no longer): a figure that comes once per period. */
	uint64_t undecided_ns;
};

extern const struct diag_rule diag_rules_pmd[], diag_rules_est[], diag_rules_blk[],
    diag_rules_host[];
extern const int diag_rules_pmd_n, diag_rules_est_n, diag_rules_blk_n, diag_rules_host_n;

/* A measured figure as the JSON line carries it (2 decimals, tui/snapjson.c): the rules read
 * every real through it, so a recording replayed gives the findings of the live run exactly. */
static inline double diag_fig(double v)
{
	return isfinite(v) ? round(v * 100.0) / 100.0 : 0;
}

/* A quarter of the interval off the CPU: past that, rates, sleeps and tick times say more
 * about the host than about any knob (docs/pmd.md §7, the host time the feed leaves out). */
#define DIAG_HOST_TAKEN_PCT 25.0

/* The host's share of a subsystem's threads this interval (every rule checks it first,
 * docs/diag.md "The host first"): summed over them, the % of the interval they ran (cpu)
 * and waited on a run queue (runq); idle: one of them neither ran nor waited (it had no
 * work this interval, so it cannot say what the host did). */
struct diag_host_share {
	double cpu, runq, runq_max;
	const char *runq_who; /* the thread that waited longest, "" for none */
	bool idle;
};

/* A thread the rules judge: an est or PMD thread, and of the PMD threads those the pmd section
 * reports, joined by tid (on a host the watched vswitchd's, not a second daemon's PMD of the
 * same name); every PMD thread where the section carries no tids (a recording from before). */
static inline bool diag_watched(const struct snapshot *s, const struct snap_thread *t,
				enum subsys subsys)
{
	if (t->subsys != subsys)
		return false;
	if (subsys != SUBSYS_PMD || !s->has_pmd)
		return true;
	bool tids = false;
	for (int i = 0; i < s->pmd.nthreads && i < PMD_SNAP_MAX; i++) {
		if (s->pmd.threads[i].tid == t->tid)
			return true;
		tids = tids || s->pmd.threads[i].tid > 0;
	}
	return !tids;
}

static inline struct diag_host_share diag_host_share(const struct snapshot *s, enum subsys subsys)
{
	struct diag_host_share h = {.runq_max = -1, .runq_who = ""};
	for (size_t i = 0; i < s->nthreads; i++) {
		const struct snap_thread *t = &s->threads[i];
		if (!diag_watched(s, t, subsys))
			continue;
		/* runq_delay_pct < 0: unknown (a first sample, no schedstat). */
		double cpu = diag_fig(t->cpu_pct),
		       runq = t->runq_delay_pct > 0 ? diag_fig(t->runq_delay_pct) : 0;
		h.cpu += cpu;
		h.runq += runq;
		if (runq > h.runq_max)
			h.runq_max = runq, h.runq_who = t->name;
		if (cpu + runq < 1.0)
			h.idle = true;
	}
	return h;
}

/* Of the wall time the threads spent in their work (ran + waited), the share they ran: what
 * a tick or a sleep measured by the wall clock is to be scaled by to leave the host out. */
static inline double diag_host_run_share(const struct diag_host_share *h)
{
	return h->cpu + h->runq > 0 ? h->cpu / (h->cpu + h->runq) : 1.0;
}

/* The kthreads' CPU per estimator visited this interval: the work of a tick without the time
 * it waited for a CPU. -1 when the source does not count visits (a live host: the wall-clock
 * figure is scaled by the run share instead), 0 when no tick had work this interval. */
static inline double diag_est_cpu_per_visit(const struct snapshot *s)
{
	const struct est_snap *e = &s->est;
	if (snapshot_absent(s, "est.visits"))
		return -1;
	if (e->visits == 0)
		return 0;
	double cpu = 0;
	for (int i = 0; i < e->nkt && i < EST_SNAP_MAX_KT; i++)
		cpu += diag_fig(e->kt[i].cpu_pct);
	/* The interval as the JSON keeps it (ms, tui/snapjson.c), so a replay's figure is the
	 * live one's. */
	double interval_s = round(s->interval_s * 1000.0) / 1000.0;
	return cpu / 100.0 * interval_s * 1e9 / (double)e->visits;
}

/* Append a figure (printf-style name, then value and unit) to f; ignored past
 * DIAG_MAX_EVIDENCE. */
void diag_evidence_add(struct diag_finding *f, double value, const char *unit, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* printf into f->conclusion / f->fix. */
void diag_conclude(struct diag_finding *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void diag_fix(struct diag_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Withhold f's fix when it would trigger a fault that is on in s (diag_fix.c's table); the
 * conclusion then says which fix was not offered and why. Every finding goes through it. */
void diag_fix_guard(const struct snapshot *s, struct diag_finding *f);

#endif

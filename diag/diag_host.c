/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag_host.c: the host rule: the machine, not the knobs, took the threads' CPU (docs/diag.md). */
#include <stdio.h>

#include "diag/diag_rule.h"

/* The share of the est kthreads' ticks with work that they waited for a CPU: the tick time per
 * estimator by the clock against their CPU per estimator visited (diag_rule.h). A kthread with
 * one row ticks with work once per 2 s and idles between, so its run-queue share of the interval
 * falls mostly on empty ticks and misses a tick the host stretched tenfold. -1: no tick with work
 * this interval, or a source without the figures; *idle: the engine had none (undecided). */
static double diag_host_est_held(const struct snapshot *s, bool *idle)
{
	*idle = false;
	if (!s->has_est || s->est.config_held || s->est.tick_ns_per_est <= 0)
		return -1;
	double cpv = diag_est_cpu_per_visit(s);
	*idle = cpv == 0;
	if (cpv <= 0)
		return -1;
	return cpv >= s->est.tick_ns_per_est ? 0 : 100.0 * (1.0 - cpv / s->est.tick_ns_per_est);
}

/*
 * The PMDs' "host took" (time their feed left out), the run-queue delay of the PMD and est
 * threads and the wait inside the est kthreads' ticks: the operator's warning that an A/B at
 * this moment compares two loads.
 */
static bool diag_host_taken(const struct snapshot *s, struct diag_finding *f)
{
	bool est_idle;
	double held = diag_host_est_held(s, &est_idle);
	if (held >= DIAG_HOST_TAKEN_PCT) {
		const struct est_snap *e = &s->est;
		double cpv = diag_est_cpu_per_visit(s);
		char who[32];
		if (e->nkt == 1)
			snprintf(who, sizeof(who), "est-k:%d", e->kt[0].id);
		else
			snprintf(who, sizeof(who), "the %d est kthreads", e->nkt);
		f->severity = DIAG_WARNING;
		diag_evidence_add(f, held, "%", "est.tick_wait_pct");
		diag_evidence_add(f, e->tick_ns_per_est, "ns", "est.tick_ns.per_est");
		diag_evidence_add(f, cpv, "ns", "est.kthread_cpu_ns_per_visit");
		diag_conclude(
		    f,
		    "%s waited %.0f%% of its ticks for a CPU (%.0f ns per estimator by the "
		    "clock, %.0f of CPU): the tick time is skewed by the host, not by the "
		    "knobs.",
		    who, held, e->tick_ns_per_est, cpv);
		return true;
	}
	double stolen = -1, runq = -1;
	const char *stolen_who = "", *runq_who = "";
	if (s->has_pmd && !snapshot_absent(s, "pmd.stolen_pct"))
		for (int i = 0; i < s->pmd.nthreads && i < PMD_SNAP_MAX; i++) {
			const struct pmd_thread_snap *t = &s->pmd.threads[i];
			if (!t->no_rate && diag_fig(t->stolen_pct) > stolen)
				stolen = diag_fig(t->stolen_pct), stolen_who = t->name;
		}
	for (size_t i = 0; i < s->nthreads; i++) {
		const struct snap_thread *t = &s->threads[i];
		if ((t->subsys == SUBSYS_PMD || t->subsys == SUBSYS_EST) &&
		    diag_fig(t->runq_delay_pct) > runq)
			runq = diag_fig(t->runq_delay_pct), runq_who = t->name;
	}
	if (stolen < DIAG_HOST_TAKEN_PCT && runq < DIAG_HOST_TAKEN_PCT) {
		/* An est kthread ticks with work only some intervals: one that neither ran nor
		 * waited says nothing of the host, so it neither starts nor clears the finding. */
		struct diag_host_share est = diag_host_share(s, SUBSYS_EST);
		/* ... and (engine) no tick with work, unless a PMD's figures said clean. */
		f->undecided = est.idle || (est_idle && stolen < 0);
		return false;
	}
	f->severity = DIAG_WARNING;
	if (stolen >= 0)
		diag_evidence_add(f, stolen, "%", "pmd.threads[max].stolen_pct");
	if (runq >= 0)
		diag_evidence_add(f, runq, "%", "threads[max].runq_delay_pct");
	if (stolen >= runq)
		diag_conclude(f,
			      "the host took %.0f%% of %s's time: its figures are skewed by the "
			      "host, not by the knobs.",
			      stolen, stolen_who);
	else
		diag_conclude(f,
			      "%s waited %.0f%% of the interval on a run queue: its figures are "
			      "skewed by the host, not by the knobs.",
			      runq_who, runq);
	return true;
}

const struct diag_rule diag_rules_host[] = {
    {"host.cpu_taken", diag_host_taken, 3, 3, 0},
};
const int diag_rules_host_n = sizeof(diag_rules_host) / sizeof(diag_rules_host[0]);

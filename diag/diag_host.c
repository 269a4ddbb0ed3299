/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag_host.c: the host rule: the machine, not the knobs, took the threads' CPU (docs/diag.md). */
#include <stdio.h>

#include "diag/diag_rule.h"

/* On a host, the busiest thread that is not one of the judged ones on the CPU the thread tid
 * last ran on: the host's share, named (NULL where the list has none that ran). */
static const struct snap_thread *diag_host_taker(const struct snapshot *s, pid_t tid)
{
	const struct snap_thread *victim = NULL, *taker = NULL;
	for (size_t i = 0; s->has_host && i < s->nthreads; i++)
		if (s->threads[i].tid == tid)
			victim = &s->threads[i];
	for (size_t i = 0; victim && i < s->nthreads; i++) {
		const struct snap_thread *t = &s->threads[i];
		if (t == victim || t->emu_cpu != victim->emu_cpu || diag_fig(t->cpu_pct) < 1 ||
		    diag_watched(s, t, SUBSYS_PMD) || diag_watched(s, t, SUBSYS_EST))
			continue;
		if (!taker || diag_fig(t->cpu_pct) > diag_fig(taker->cpu_pct))
			taker = t;
	}
	return taker;
}

/* The share of the est kthreads' ticks with work that they waited for a CPU: the tick time per
 * estimator by the clock against their CPU per estimator visited (diag_rule.h). A kthread with
 * one row ticks with work once per 2 s and idles between, so its run-queue share of the interval
 * falls mostly on empty ticks and misses a tick the host stretched tenfold. -1: no tick with work
 * this interval, or a source without the figures; *idle: the engine had none (undecided). */
static double diag_host_est_held(const struct snapshot *s, bool *idle)
{
	*idle = false;
	double per_est = diag_fig(s->est.tick_ns_per_est);
	if (!s->has_est || s->est.config_held || per_est <= 0)
		return -1;
	double cpv = diag_est_cpu_per_visit(s);
	*idle = cpv == 0;
	if (cpv <= 0)
		return -1;
	return cpv >= per_est ? 0 : 100.0 * (1.0 - cpv / per_est);
}

/*
 * The PMDs' "host took" (time their feed left out), the run-queue delay of the PMD and est
 * threads (the watched ones: diag_watched) and the wait inside the est kthreads' ticks: the
 * operator's warning that an A/B at this moment compares two loads, with the thread that took
 * the CPU where the host lists it.
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
		diag_evidence_add(f, diag_fig(e->tick_ns_per_est), "ns", "est.tick_ns.per_est");
		diag_evidence_add(f, cpv, "ns", "est.kthread_cpu_ns_per_visit");
		diag_conclude(
		    f,
		    "%s waited %.0f%% of its ticks for a CPU (%.0f ns per estimator by the "
		    "clock, %.0f of CPU): the tick time is skewed by the host, not by the "
		    "knobs.",
		    who, held, diag_fig(e->tick_ns_per_est), cpv);
		return true;
	}
	double stolen = -1, runq = -1;
	const char *stolen_who = "", *runq_who = "";
	pid_t stolen_tid = 0, runq_tid = 0;
	if (s->has_pmd && !snapshot_absent(s, "pmd.stolen_pct"))
		for (int i = 0; i < s->pmd.nthreads && i < PMD_SNAP_MAX; i++) {
			const struct pmd_thread_snap *t = &s->pmd.threads[i];
			if (!t->no_rate && diag_fig(t->stolen_pct) > stolen)
				stolen = diag_fig(t->stolen_pct), stolen_who = t->name,
				stolen_tid = t->tid;
		}
	for (size_t i = 0; i < s->nthreads; i++) {
		const struct snap_thread *t = &s->threads[i];
		if ((diag_watched(s, t, SUBSYS_PMD) || diag_watched(s, t, SUBSYS_EST)) &&
		    diag_fig(t->runq_delay_pct) > runq)
			runq = diag_fig(t->runq_delay_pct), runq_who = t->name, runq_tid = t->tid;
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
	const struct snap_thread *taker =
	    diag_host_taker(s, stolen >= runq ? stolen_tid : runq_tid);
	char by[64] = "";
	if (taker)
		snprintf(by, sizeof(by), " %s (tid %d) ran %.0f%% of that CPU.", taker->name,
			 (int)taker->tid, diag_fig(taker->cpu_pct));
	if (stolen >= runq)
		diag_conclude(f,
			      "the host took %.0f%% of %s's time: its figures are skewed by the "
			      "host, not by the knobs.%s",
			      stolen, stolen_who, by);
	else
		diag_conclude(f,
			      "%s waited %.0f%% of the interval on a run queue: its figures are "
			      "skewed by the host, not by the knobs.%s",
			      runq_who, runq, by);
	return true;
}

const struct diag_rule diag_rules_host[] = {
    {"host.cpu_taken", diag_host_taken, 3, 3, 0},
};
const int diag_rules_host_n = sizeof(diag_rules_host) / sizeof(diag_rules_host[0]);

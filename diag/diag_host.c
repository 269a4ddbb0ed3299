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
		if (!taker || t->cpu_pct > taker->cpu_pct)
			taker = t;
	}
	return taker;
}

/*
 * The PMDs' "host took" (time their feed left out) and the run-queue delay of the PMD and
 * est threads (the watched ones: diag_watched): the operator's warning that an A/B at this
 * moment compares two loads, with the thread that took the CPU where the host lists it.
 */
static bool diag_host_taken(const struct snapshot *s, struct diag_finding *f)
{
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
		f->undecided = est.idle;
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
    {"host.cpu_taken", diag_host_taken, 3, 3},
};
const int diag_rules_host_n = sizeof(diag_rules_host) / sizeof(diag_rules_host[0]);

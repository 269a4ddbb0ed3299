/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag_host.c: the host rule: the machine, not the knobs, took the threads' CPU (docs/diag.md). */
#include <stdio.h>

#include "diag/diag_rule.h"

/*
 * The PMDs' "host took" (time their feed left out) and the run-queue delay of the PMD and
 * est threads: the operator's warning that an A/B at this moment compares two loads.
 */
static bool diag_host_taken(const struct snapshot *s, struct diag_finding *f)
{
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
		f->undecided = est.idle;
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
    {"host.cpu_taken", diag_host_taken, 3, 3},
};
const int diag_rules_host_n = sizeof(diag_rules_host) / sizeof(diag_rules_host[0]);

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_check.c: pausing the PMDs and checking generated = forwarded + dropped + in rings exactly. */
#include <stdio.h>

#include "core/clock.h"
#include "engine/pmd/pmd_core.h"

/* Longest a pause may wait: one sleep at the 10 ms cap, with room for a host that
 * leaves a PMD thread off its CPU for a while (seen: > 200 ms at load 25). */
#define PMD_PAUSE_DEADLINE_NS (2 * NS_PER_S)

/* Let the parked PMDs go. */
static void pmd_resume(struct pmd_state *ps)
{
	/* release: the pauser's reads are done before any PMD moves again. */
	atomic_store_explicit(&ps->pause_req, false, memory_order_release);
}

/* Park every PMD at its next iteration (deadline 2 s): 0, or -1 (then let go) past it. */
static int pmd_pause(struct pmd_state *ps)
{
	/* release: pairs with each PMD's acquire load at the top of its iteration. */
	atomic_store_explicit(&ps->pause_req, true, memory_order_release);
	uint64_t deadline = clock_mono_ns() + PMD_PAUSE_DEADLINE_NS;
	for (;;) {
		int parked = 0;
		for (int i = 0; i < ps->npmd; i++)
			/* acquire: pairs with pmd_park()'s release store. */
			parked += ps->pmd[i].t == NULL ||
				  atomic_load_explicit(&ps->pmd[i].paused, memory_order_acquire);
		if (parked == ps->npmd)
			return 0;
		if (clock_mono_ns() > deadline) {
			pmd_resume(ps);
			return -1;
		}
		clock_sleep_ns(100 * NS_PER_US);
	}
}

int64_t pmd_missing_quiescent(struct pmd_state *ps)
{
	uint64_t g, f, d, rings;
	pmd_stats_totals(ps, &g, &f, &d, &rings);
	return (int64_t)(g - f - d - rings);
}

int pmd_check(struct engine *eng, int64_t *missing, char *err, size_t errlen)
{
	struct pmd_state *ps = eng->pmd;

	*missing = 0;
	if (!ps || !ps->running) {
		snprintf(err, errlen, "pmd is not running");
		return -1;
	}
	if (pmd_pause(ps) != 0) {
		snprintf(err, errlen, "pmd: the PMDs did not pause within %llu ms",
			 (unsigned long long)(PMD_PAUSE_DEADLINE_NS / NS_PER_MS));
		return -1;
	}
	*missing = pmd_missing_quiescent(ps);
	pmd_resume(ps);
	if (*missing != 0)
		event_add(&eng->events, EV_INVARIANT,
			  "pmd: %lld packets missing (generated - forwarded - dropped - in rings, "
			  "paused)",
			  (long long)*missing);
	return 0;
}

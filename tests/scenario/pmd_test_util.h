/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_test_util.h: helpers shared by the PMD scenario tests (engine setup, invariant check). */
#ifndef TT_PMD_TEST_UTIL_H
#define TT_PMD_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "engine/engine.h"
#include "core/scenario.h"

static inline void pmdt_set(struct engine *eng, const char *assign)
{
	char err[256];
	if (engine_knob_assign(eng, assign, err, sizeof(err)) != 0) {
		fprintf(stderr, "pmd test: %s: %s\n", assign, err);
		abort();
	}
}

/*
 * The live bound, from an independent count: in_flight is the rings'
 * occupancy, so generated - forwarded - dropped - in_flight is what the PMDs
 * hold in their hands (or moved while the sampler read), never below 0 and
 * never above what rings and hands can hold. Checked here against the
 * capacity computed from the knobs, not from the engine's own figure.
 * Returns 0 when it holds.
 */
static inline int pmdt_check(const struct snapshot *s)
{
	const struct pmd_snap *p = &s->pmd;
	int64_t rxq = s->knobs[K_PMD_RXQ_SIZE], txq = s->knobs[K_PMD_TXQ_SIZE];
	int64_t nq = s->knobs[K_PMD_RXQS], npmd = p->nthreads;
	/* Only a chain's first PMD has a tx ring; each PMD holds <= 3 bursts. */
	int64_t ntx = s->knobs[K_PMD_TOPOLOGY] == 1 ? 1 : 0;
	if (txq < 65536) /* PMD_PEER_RING: the tx ring in front of a peer is at least that */
		txq = 65536;
	uint64_t cap = (uint64_t)(npmd * nq * rxq + ntx * txq + npmd * 3 * 32);

	if (!s->has_pmd)
		return -1;
	int64_t rest = (int64_t)(p->generated - p->forwarded - p->dropped - p->in_flight);
	if (p->forwarded + p->dropped > p->generated || rest < 0 || (uint64_t)rest > cap ||
	    p->in_flight > cap || p->bound_broken) {
		fprintf(stderr,
			"bound broken: g %llu f %llu d %llu in rings %llu rest %lld cap %llu\n",
			(unsigned long long)p->generated, (unsigned long long)p->forwarded,
			(unsigned long long)p->dropped, (unsigned long long)p->in_flight,
			(long long)rest, (unsigned long long)cap);
		return -1;
	}
	return 0;
}

/* The exact equation, with the PMDs paused by the engine: returns what is missing. */
static inline int64_t pmdt_exact(struct engine *eng)
{
	char err[256];
	int64_t missing = -1;
	if (engine_invariant_check(eng, SUBSYS_PMD, &missing, err, sizeof(err)) != 0) {
		fprintf(stderr, "pmd check: %s\n", err);
		abort();
	}
	return missing;
}

static inline const struct pmd_thread_snap *pmdt_thread(const struct snapshot *s, const char *name)
{
	for (int i = 0; i < s->pmd.nthreads; i++)
		if (strcmp(s->pmd.threads[i].name, name) == 0)
			return &s->pmd.threads[i];
	return NULL;
}

#endif

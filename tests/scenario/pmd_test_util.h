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

/* The exact invariant, and in_flight bounded by what the rings and the
 * threads' hands can hold. Returns 0 when it holds. */
static inline int pmdt_check(const struct snapshot *s)
{
	const struct pmd_snap *p = &s->pmd;
	int64_t rxq = s->knobs[K_PMD_RXQ_SIZE], txq = s->knobs[K_PMD_TXQ_SIZE];
	int64_t nq = s->knobs[K_PMD_RXQS], npmd = p->nthreads;
	uint64_t cap = (uint64_t)(npmd * (nq * rxq + txq) + 2 * npmd * 64);

	if (!s->has_pmd)
		return -1;
	if (p->generated != p->forwarded + p->dropped + p->in_flight) {
		fprintf(stderr, "invariant broken: g %llu f %llu d %llu i %llu\n",
			(unsigned long long)p->generated, (unsigned long long)p->forwarded,
			(unsigned long long)p->dropped, (unsigned long long)p->in_flight);
		return -1;
	}
	if (p->in_flight > cap) {
		fprintf(stderr, "in_flight %llu above capacity %llu\n",
			(unsigned long long)p->in_flight, (unsigned long long)cap);
		return -1;
	}
	return 0;
}

static inline const struct pmd_thread_snap *pmdt_thread(const struct snapshot *s, const char *name)
{
	for (int i = 0; i < s->pmd.nthreads; i++)
		if (strcmp(s->pmd.threads[i].name, name) == 0)
			return &s->pmd.threads[i];
	return NULL;
}

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_est.c: per-estimator cost per emulated CPU of the chain walk vs a bare summing loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "engine/est/est_kthread.h"
#include "engine/est/est_place.h"

/*
 * Usage: bench_est NEST NCPUS RUNS. Builds NEST estimators over NCPUS emulated
 * CPUs exactly as the engine lays them out (placed in rows and chains by the
 * placement code, counters one line per CPU per estimator), then times, RUNS
 * times each, (a) the kthreads' walk over every row and chain (sum + EWMA)
 * and (b) a bare loop summing the same slots over the same layout. Prints
 * medians in ns per estimator per emulated CPU.
 */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int nest = argc > 1 ? atoi(argv[1]) : 10000;
	int ncpus = argc > 2 ? atoi(argv[2]) : 128;
	int runs = argc > 3 ? atoi(argv[3]) : 5;
	struct est_state *st = calloc(1, sizeof(*st));
	struct est_estimator *e = calloc((size_t)nest, sizeof(*e));
	uint64_t *walk = calloc((size_t)runs, sizeof(uint64_t));
	uint64_t *bare = calloc((size_t)runs, sizeof(uint64_t));
	uint64_t sink = 0;

	est_place_init(st, 1, 48);
	st->chain_max = 100;
	st->max_threads = 1000;
	est_counters_init(&st->ctr, ncpus, NULL);
	est_counters_reserve(&st->ctr, (uint32_t)nest + 1);
	for (int i = 0; i < nest; i++) {
		e[i].slot = (uint32_t)i + 1;
		for (int c = 0; c < ncpus; c++)
			est_ctr_add(est_ctr_line(&st->ctr, e[i].slot, c), EST_INPKTS,
				    (uint64_t)(i + c));
		est_start_estimator(st, &e[i]);
	}
	while (est_drain_batch(st, 1 << 20, NULL, NULL) > 0)
		;

	for (int r = 0; r < runs; r++) {
		uint64_t t0 = clock_mono_ns();
		uint32_t n = 0;
		for (int id = 0; id < st->kt_count; id++)
			for (int row = 0; row < EST_NTICKS; row++) {
				struct est_tick *td = st->kt_arr[id]->ticks[row];
				for (int c = 0; td && c < EST_TICK_CHAINS_MAX; c++)
					n += est_chain_estimate(st, td->chains[c]);
			}
		walk[r] = clock_mono_ns() - t0;
		if (n != (uint32_t)nest)
			fprintf(stderr, "bench_est: walked %u of %d\n", n, nest);

		t0 = clock_mono_ns();
		for (int i = 0; i < nest; i++) {
			uint64_t sum[EST_NSTATS];
			est_counters_sum(&st->ctr, (uint32_t)i + 1, sum);
			sink += sum[EST_INPKTS];
		}
		bare[r] = clock_mono_ns() - t0;
	}
	qsort(walk, (size_t)runs, sizeof(*walk), cmp_u64);
	qsort(bare, (size_t)runs, sizeof(*bare), cmp_u64);
	double per = (double)nest * ncpus;
	printf("%d %d %.3f %.3f %.1f %.1f %llu\n", nest, ncpus, (double)walk[runs / 2] / per,
	       (double)bare[runs / 2] / per, (double)walk[runs / 2] / nest,
	       (double)bare[runs / 2] / nest, (unsigned long long)(sink & 1));
	est_counters_free(&st->ctr);
	est_place_destroy(st);
	free(e);
	free(walk);
	free(bare);
	free(st);
	return 0;
}

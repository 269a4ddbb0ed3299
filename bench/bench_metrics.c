/* bench_metrics.c: time to render one snapshot as metrics text (what --serve adds per sample). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/source.h"
#include "core/clock.h"
#include "core/scenario.h"
#include "tui/metrics.h"

#define RUNS 200

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void bench(const char *label, const struct snapshot *s)
{
	struct metrics_buf b = {0};
	struct metrics_state st = {{0}};
	uint64_t t[RUNS];

	for (int f = 0; f < METRICS_NFORMATS; f++) {
		for (int i = 0; i < RUNS; i++) {
			uint64_t t0 = clock_mono_ns();
			metrics_render(s, &st, (enum metrics_format)f, &b);
			t[i] = clock_mono_ns() - t0;
		}
		qsort(t, RUNS, sizeof(t[0]), cmp_u64);
		printf("%-40s %-12s %8zu B  median %6.0f us  p90 %6.0f us\n", label,
		       f == METRICS_OPENMETRICS ? "openmetrics" : "0.0.4", b.len, t[RUNS / 2] / 1e3,
		       t[RUNS * 9 / 10] / 1e3);
	}
	free(b.p);
}

int main(void)
{
	char err[512];
	struct source_conf conf = {0};
	struct source *src = source_open(&source_engine_ops, &conf, err, sizeof(err));
	if (!src || scenario_apply("default", source_scenario_assign, src, err, sizeof(err)) != 0 ||
	    source_start(src, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_metrics: %s\n", err);
		return 1;
	}
	struct snapshot *s = snapshot_new();
	source_sample(src, s);
	clock_sleep_ns(1500 * NS_PER_MS);
	source_sample(src, s);
	bench("engine, default scenario", s);

	/* The host source lists at most 1,024 threads: that many, with its usual label sizes. */
	size_t n = 1024;
	s->threads = realloc(s->threads, n * sizeof(*s->threads));
	for (size_t i = s->nthreads; i < n; i++) {
		s->threads[i] = s->threads[i % (s->nthreads ? s->nthreads : 1)];
		s->threads[i].tid = (pid_t)(100000 + i);
		snprintf(s->threads[i].name, sizeof(s->threads[i].name), "worker-%zu", i);
	}
	s->nthreads = s->threads_cap = n;
	bench("the same with 1,024 threads", s);
	snapshot_free(s);
	source_close(src);
	return 0;
}

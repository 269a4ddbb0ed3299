/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_blk.c: rq_affinity 0/1/2 side by side in one run, the 2008 thread's MIN/AVG/MAX/Dev table.
 * usage: bench_blk [PASSES [PASS_MS [SERVICE_US [JITTER_US [IPI_COST_NS]]]]] (defaults 10, 400, 1,
 * 1, 0: the blk-steer scenario's device, fast enough that completion work bounds IOPS; the
 * emulated IPI cost blk.ipi_cost_ns, docs/blk.md "Emulated IPI cost") */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "engine/engine.h"

#define BENCH_MAX_PASSES 100
#define NVAL 3

enum metric {
	M_IOPS,
	M_P50,
	M_P99,
	M_IPI_PER_CPL,
	M_REMOTE_PCT,
	M_IRQ_PCT,
	M_IRQ_BUSY,
	M_IRQ_TOOK,
	M_CPL_NS,
	M_SUB_PCT,
	M_DEV_PCT,
	M_COUNT
};
static const char *const metric_name[M_COUNT] = {
    "iops",	 "p50_us",    "p99_us", "ipi/cpl",   "remote%",	 "irq_cpu%",
    "irq_busy%", "irq_took%", "cpl_ns", "subs_cpu%", "dev_cpu%",
};

static double samples[M_COUNT][NVAL][BENCH_MAX_PASSES];

static void set(struct engine *eng, const char *kv)
{
	char err[256];
	if (engine_knob_assign(eng, kv, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_blk: %s: %s\n", kv, err);
		exit(1);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void row(const char *name, int v, const double *x, int n)
{
	double s[BENCH_MAX_PASSES], sum = 0, sq = 0;
	memcpy(s, x, (size_t)n * sizeof(double));
	qsort(s, (size_t)n, sizeof(double), cmp_double);
	for (int i = 0; i < n; i++)
		sum += s[i];
	double avg = sum / n;
	for (int i = 0; i < n; i++)
		sq += (s[i] - avg) * (s[i] - avg);
	double dev = n > 1 ? sqrt(sq / (n - 1)) : 0;
	double med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	printf("%9s  %d  %9.3f %9.3f %9.3f %9.3f %9.3f\n", name, v, s[0], avg, med, s[n - 1], dev);
}

int main(int argc, char **argv)
{
	int passes = argc > 1 ? atoi(argv[1]) : 10;
	int pass_ms = argc > 2 ? atoi(argv[2]) : 400;
	const char *service = argc > 3 ? argv[3] : "1";
	const char *jitter = argc > 4 ? argv[4] : "1";
	const char *ipi_cost = argc > 5 ? argv[5] : "0";
	char err[256], kv[64];

	if (passes < 1 || passes > BENCH_MAX_PASSES || pass_ms < 50) {
		fprintf(stderr,
			"usage: bench_blk [PASSES(1-%d) [PASS_MS(>=50) [SERVICE_US [JITTER_US "
			"[IPI_COST_NS]]]]]\n",
			BENCH_MAX_PASSES);
		return 2;
	}
	struct engine *eng = engine_new();
	/* The blk-steer shape: IRQ on CPU 0; blk-sub:0 on CPU 1 (same LLC), blk-sub:1,2 on
	 * CPUs 2,3 (other LLC), blk-sub:3 on CPU 0 itself. One hardware queue (loop/AHCI-like). */
	set(eng, "cpu.count=4");
	set(eng, "cpu.llc_cpus=2");
	set(eng, "blk.enabled=on");
	set(eng, "blk.submitters=4");
	set(eng, "blk.iodepth=16");
	set(eng, "blk.irq_cpu=0");
	snprintf(kv, sizeof(kv), "blk.service_us=%s", service);
	set(eng, kv);
	snprintf(kv, sizeof(kv), "blk.service_jitter_us=%s", jitter);
	set(eng, kv);
	snprintf(kv, sizeof(kv), "blk.ipi_cost_ns=%s", ipi_cost);
	set(eng, kv);
	if (engine_start(eng, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_blk: %s\n", err);
		return 1;
	}
	struct snapshot *a = snapshot_new(), *b = snapshot_new();

	for (int p = 0; p < passes; p++) {
		for (int k = 0; k < NVAL; k++) {
			int v = (p + k) %
				NVAL; /* rotate the order so no value always follows another */
			snprintf(kv, sizeof(kv), "blk.rq_affinity=%d", v);
			set(eng, kv);
			clock_sleep_ns(100 *
				       NS_PER_MS); /* settle: requests decided before the flip */
			engine_sample(eng, a);
			clock_sleep_ns((uint64_t)pass_ms * NS_PER_MS);
			engine_sample(eng, b);
			double cpl = (double)(b->blk.completed - a->blk.completed);
			double ipi = 0;
			for (int c = 0; c < b->blk.ncpus; c++)
				ipi += (double)(b->blk.per_cpu[c].ipi_recv -
						a->blk.per_cpu[c].ipi_recv);
			samples[M_IOPS][v][p] = b->blk.iops;
			samples[M_P50][v][p] = b->blk.lat_p50_us;
			samples[M_P99][v][p] = b->blk.lat_p99_us;
			samples[M_IPI_PER_CPL][v][p] = cpl > 0 ? ipi / cpl : 0;
			samples[M_REMOTE_PCT][v][p] =
			    cpl > 0 ? 100.0 * (double)(b->blk.remote - a->blk.remote) / cpl : 0;
			samples[M_IRQ_PCT][v][p] = b->blk.irq_cpu_pct;
			samples[M_IRQ_BUSY][v][p] = b->blk.irq_busy_pct;
			samples[M_IRQ_TOOK][v][p] = b->blk.irq_host_took_pct;
			samples[M_CPL_NS][v][p] = b->blk.per_cpl_valid ? b->blk.cpu_ns_per_cpl : 0;
			samples[M_SUB_PCT][v][p] = b->blk.sub_cpu_pct;
			samples[M_DEV_PCT][v][p] = b->blk.dev_cpu_pct;
			/* Live, in_flight is counted where the requests are: the bound
			 * holds, the exact sum only with the threads parked. */
			if (b->blk.bound_broken || b->blk.data_errors) {
				fprintf(stderr, "bench_blk: invariant broken\n");
				return 1;
			}
		}
	}
	uint64_t hangs = event_count_kind(&eng->events, EV_HANG);
	engine_free(eng);
	snapshot_free(a);
	snapshot_free(b);

	printf("%d passes x %d ms per value, device %s us + 0..%s us, 1 hw queue, iodepth 16 x 4 "
	       "submitters, IPI cost %s ns (emulated)\n(rq=0 is the baseline; CPU%% is of one "
	       "core, per thread class; "
	       "irq_busy%%: blk-irq not waiting for work, irq_took%% of it the host's)\n\n",
	       passes, pass_ms, service, jitter, ipi_cost);
	printf("%9s  RQ %9s %9s %9s %9s %9s\n", "Part", "MIN", "AVG", "MED", "MAX", "Dev");
	printf("---------  -- --------- --------- --------- --------- ---------\n");
	for (int m = 0; m < M_COUNT; m++) {
		for (int v = 0; v < NVAL; v++)
			row(metric_name[m], v, samples[m][v], passes);
		printf("\n");
	}
	printf("hang events: %llu\n", (unsigned long long)hangs);
	return hangs ? 1 : 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_pmd.c: the PMD figures, medians of several runs, each with
 * its baseline in the same run: one PMD's forwarding rate vs a bare SPSC ring, idle PMD CPU%
 * for maxsleep 0/50/500, pmd-seed drop% and CPU% at maxsleep 0 and at 50 with slack 50000 vs 1000,
 * sleep overshoot. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "core/clock.h"
#include "engine/engine.h"
#include "engine/pmd/pmd_ring.h"
#include "core/scenario.h"

static int runs = 3;

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* --- bare SPSC ring between two threads, bursts of 32, nothing else --- */
struct bare {
	struct pmd_ring *r;
	_Atomic int stop;
	uint64_t moved;
};

static void *bare_producer(void *arg)
{
	struct bare *b = arg;
	struct pmd_pkt p[NETDEV_MAX_BURST];
	memset(p, 0, sizeof(p));
	while (!atomic_load_explicit(&b->stop, memory_order_relaxed))
		pmd_ring_enqueue_burst(b->r, p, NETDEV_MAX_BURST);
	return NULL;
}

static double bench_bare_ring_mpps(uint64_t ms)
{
	struct bare b = {.r = pmd_ring_new(2048)};
	struct pmd_pkt p[NETDEV_MAX_BURST];
	pthread_t t;
	atomic_init(&b.stop, 0);
	pthread_create(&t, NULL, bare_producer, &b);
	uint64_t t0 = clock_mono_ns(), end = t0 + ms * NS_PER_MS, n = 0, now;
	while ((now = clock_mono_ns()) < end)
		for (int i = 0; i < 64; i++)
			n += pmd_ring_dequeue_burst(b.r, p, NETDEV_MAX_BURST);
	atomic_store(&b.stop, 1);
	pthread_join(t, NULL);
	pmd_ring_free(b.r);
	return (double)n / ((double)(now - t0) / 1e9) / 1e6;
}

/* --- engine helpers --- */
static struct engine *eng_start(const char *scenario, const char *const *sets)
{
	char err[256];
	struct engine *eng = engine_new();
	if (scenario &&
	    scenario_apply(scenario, engine_scenario_assign, eng, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_pmd: %s\n", err);
		exit(1);
	}
	for (; sets && *sets; sets++)
		if (engine_knob_assign(eng, *sets, err, sizeof(err)) != 0) {
			fprintf(stderr, "bench_pmd: %s: %s\n", *sets, err);
			exit(1);
		}
	if (engine_start(eng, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_pmd: start: %s\n", err);
		exit(1);
	}
	return eng;
}

static void eng_set(struct engine *eng, const char *assign)
{
	char err[256];
	if (engine_knob_assign(eng, assign, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_pmd: %s: %s\n", assign, err);
		exit(1);
	}
}

/* Settle, then one measured interval into snap. */
static void eng_measure(struct engine *eng, struct snapshot *snap, uint64_t settle_ms, uint64_t ms)
{
	clock_sleep_ns(settle_ms * NS_PER_MS);
	engine_sample(eng, snap);
	clock_sleep_ns(ms * NS_PER_MS);
	engine_sample(eng, snap);
	/* Live, the packets in a PMD's hands are the remainder (exact only when paused). */
	if (snap->pmd.bound_broken) {
		fprintf(stderr, "bench_pmd: conservation bound broken (%lld outside 0..%llu)\n",
			(long long)snap->pmd.unaccounted, (unsigned long long)snap->pmd.capacity);
		exit(1);
	}
}

static double cpu_of(const struct snapshot *s, const char *prefix)
{
	double sum = 0;
	for (size_t i = 0; i < s->nthreads; i++)
		if (strncmp(s->threads[i].name, prefix, strlen(prefix)) == 0)
			sum += s->threads[i].cpu_pct;
	return sum;
}

/* --- a raw nanosleep(1 us) under a given slack --- */
static void raw_nanosleep(long slack_ns, double *p50, double *p99)
{
	enum { N = 2000 };
	static double d[N];
	prctl(PR_SET_TIMERSLACK, (unsigned long)slack_ns, 0, 0, 0);
	for (int i = 0; i < N; i++) {
		uint64_t t0 = clock_mono_ns();
		struct timespec ts = {0, 1000};
		nanosleep(&ts, NULL);
		d[i] = (double)(clock_mono_ns() - t0) / 1000.0;
	}
	qsort(d, N, sizeof(*d), cmp_d);
	*p50 = d[N / 2];
	*p99 = d[N * 99 / 100];
	prctl(PR_SET_TIMERSLACK, 50000UL, 0, 0, 0);
}

int main(int argc, char **argv)
{
	struct snapshot *snap = snapshot_new();
	double a[16], b[16], c[16], d[16];

	if (argc > 1)
		runs = atoi(argv[1]) > 0 && atoi(argv[1]) <= 16 ? atoi(argv[1]) : 3;
	printf("medians of %d runs\n", runs);

	/* 1. forwarding rate: one PMD, unpaced load vs a bare ring */
	for (int r = 0; r < runs; r++) {
		a[r] = bench_bare_ring_mpps(700);
		static const char *const sets[] = {
		    "pmd.enabled=on",	 "pmd.topology=direct",	   "pmd.count=1",
		    "pmd.maxsleep_us=0", "gen.rate_pps=100000000", NULL};
		struct engine *eng = eng_start(NULL, sets);
		eng_measure(eng, snap, 200, 700);
		b[r] = snap->pmd.threads[0].tx_pps / 1e6;
		engine_free(eng);
	}
	printf("\n%-46s %10s\n", "forwarding (unpaced, bursts of 32)", "Mpps");
	printf("%-46s %10.1f\n", "bare SPSC ring, 2 threads (baseline)", median(a, runs));
	printf("%-46s %10.1f\n", "one PMD: flow lookup + rewrite, rx+tx rings", median(b, runs));

	/* 2. idle PMD CPU% for maxsleep 0/50/500 (and overshoot at 50) */
	static const char *const maxs[3] = {"pmd.maxsleep_us=0", "pmd.maxsleep_us=50",
					    "pmd.maxsleep_us=500"};
	double idle_cpu[3][16], idle_avg[3][16], os50[2][16];
	for (int r = 0; r < runs; r++) {
		struct engine *eng = eng_start("pmd-idle", NULL);
		for (int m = 0; m < 3; m++) {
			eng_set(eng, maxs[m]);
			eng_measure(eng, snap, 200, 700);
			idle_cpu[m][r] = snap->pmd.threads[0].cpu_pct;
			idle_avg[m][r] = snap->pmd.threads[0].sleep_us_avg;
			if (m == 1) {
				os50[0][r] = snap->pmd.threads[0].overshoot_p50_us;
				os50[1][r] = snap->pmd.threads[0].overshoot_p99_us;
			}
		}
		engine_free(eng);
	}
	printf("\n%-46s %10s %12s\n", "idle PMD (pmd-idle, slack 1000)", "CPU%", "us/sleep");
	for (int m = 0; m < 3; m++)
		printf("%-46s %10.1f %12.1f\n", maxs[m], median(idle_cpu[m], runs),
		       median(idle_avg[m], runs));

	/* 3. pmd-seed (the OVS timer-slack report, docs/pmd.md §5): max sleep 0, then 50 with
	 * slack 50000 and 1000 */
	static const char *const seed[3][3] = {
	    {"maxsleep 0", "pmd.maxsleep_us=0", "pmd.timer_slack_ns=1000"},
	    {"maxsleep 50, slack 50000", "pmd.maxsleep_us=50", "pmd.timer_slack_ns=50000"},
	    {"maxsleep 50, slack 1000", "pmd.maxsleep_us=50", "pmd.timer_slack_ns=1000"},
	};
	double sd[3][16], scpu[3][16], sgen[3][16], sp50[3][16], sp99[3][16];
	for (int r = 0; r < runs; r++) {
		struct engine *eng = eng_start("pmd-seed", NULL);
		for (int k = 0; k < 3; k++) {
			eng_set(eng, seed[k][1]);
			eng_set(eng, seed[k][2]);
			eng_measure(eng, snap, 300, 1500);
			sd[k][r] = snap->pmd.drop_pct;
			scpu[k][r] = cpu_of(snap, "pmd-c:");
			/* The sources have no thread: what the host took from the PMDs. */
			sgen[k][r] =
			    snap->pmd.threads[0].stolen_pct > snap->pmd.threads[1].stolen_pct
				? snap->pmd.threads[0].stolen_pct
				: snap->pmd.threads[1].stolen_pct;
			sp50[k][r] = snap->pmd.threads[1].overshoot_p50_us;
			sp99[k][r] = snap->pmd.threads[1].overshoot_p99_us;
		}
		engine_free(eng);
	}
	printf("\n%-30s %8s %14s %10s %16s\n", "pmd-seed (chain, 32 desc, 600k)", "drop%",
	       "PMDs CPU% sum", "host took%", "PMD1 over p50/99");
	for (int k = 0; k < 3; k++)
		printf("%-30s %8.3f %14.1f %10.1f %9.1f/%.1f us\n", seed[k][0], median(sd[k], runs),
		       median(scpu[k], runs), median(sgen[k], runs), median(sp50[k], runs),
		       median(sp99[k], runs));
	if (median(sd[2], runs) * 1000 > median(sd[1], runs))
		printf("%-30s %8.1fx\n", "drop ratio slack 50000 / 1000",
		       median(sd[1], runs) / median(sd[2], runs));
	else
		printf("%-30s %9s\n", "drop ratio slack 50000 / 1000", "> 1000x");

	/* 4. sleep overshoot */
	for (int r = 0; r < runs; r++) {
		raw_nanosleep(1000, &a[r], &b[r]);
		raw_nanosleep(50000, &c[r], &d[r]);
	}
	printf("\n%-46s %10s %10s\n", "sleep duration / overshoot", "p50 us", "p99 us");
	printf("%-46s %10.1f %10.1f\n", "raw nanosleep(1 us), slack 1000: duration",
	       median(a, runs), median(b, runs));
	printf("%-46s %10.1f %10.1f\n", "raw nanosleep(1 us), slack 50000: duration",
	       median(c, runs), median(d, runs));
	printf("%-46s %10.1f %10.1f\n", "idle PMD, maxsleep 50, slack 1000: overshoot",
	       median(os50[0], runs), median(os50[1], runs));
	snapshot_free(snap);
	return 0;
}

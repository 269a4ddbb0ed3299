/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_pmd_seed.c: pmd-seed reproduces the OVS report: no drops without sleep, and 50 us slack
 * drops at least 5x what 1 us slack drops at max sleep 50, with more PMD CPU at 1 us
 * (docs/pmd.md §5).
 * tt-serial: the drops are what the PMDs' real sleeps and CPU time make of the traffic */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pmd_test_util.h"

#define MAX_ROUNDS 8
#define WANT_ROUNDS 3
#define SETTLE_MS 150
#define MEASURE_MS 500
/* A window counts only if the host held no PMD for more than this share of it
 * (stolen_pct: run-queue delay, interrupts, a held vCPU, late wakeups). The
 * emulation leaves that time out of emulated time (docs/pmd.md), which holds
 * measured up to ~60% here; above it a window measures the host, not the PMD. */
#define HOST_STOLEN_PCT_MAX 60.0

static int host_too_loaded; /* main exits 77 (tests/run.sh: SKIP) */

struct window {
	uint64_t offered, dropped;
	double cpu_pct; /* both PMDs */
	double stolen_pct; /* the worse PMD */
};

static void window(struct engine *eng, struct snapshot *snap, int maxsleep, int slack_ns,
		   struct window *w)
{
	char a[64];
	snprintf(a, sizeof(a), "pmd.maxsleep_us=%d", maxsleep);
	pmdt_set(eng, a);
	snprintf(a, sizeof(a), "pmd.timer_slack_ns=%d", slack_ns);
	pmdt_set(eng, a);
	clock_sleep_ns(SETTLE_MS * NS_PER_MS);
	engine_sample(eng, snap);
	uint64_t g0 = snap->pmd.generated, d0 = snap->pmd.dropped;
	clock_sleep_ns(MEASURE_MS * NS_PER_MS);
	engine_sample(eng, snap);
	assert_int_equal(pmdt_check(snap), 0);
	w->offered = snap->pmd.generated - g0;
	w->dropped = snap->pmd.dropped - d0;
	w->cpu_pct = w->stolen_pct = 0;
	for (int i = 0; i < snap->pmd.nthreads; i++) {
		w->cpu_pct += snap->pmd.threads[i].cpu_pct;
		if (snap->pmd.threads[i].stolen_pct > w->stolen_pct)
			w->stolen_pct = snap->pmd.threads[i].stolen_pct;
	}
	fprintf(stderr,
		"  maxsleep %2d slack %5d ns: drop %6.3f%% of %7llu, PMD CPU %5.1f%%, host took "
		"%4.1f%%\n",
		maxsleep, slack_ns,
		w->offered ? 100.0 * (double)w->dropped / (double)w->offered : 0,
		(unsigned long long)w->offered, w->cpu_pct, w->stolen_pct);
}

static double pct(const struct window *w)
{
	return w->offered ? 100.0 * (double)w->dropped / (double)w->offered : 100.0;
}

/* The sources cost no CPU: the PMDs are the subsystem's only threads. */
static void test_only_pmds_run(void **state)
{
	char err[256];
	struct engine *eng = engine_new();
	struct snapshot *snap = snapshot_new();
	(void)state;

	assert_int_equal(scenario_apply("pmd-seed", engine_scenario_assign, eng, err, sizeof(err)),
			 0);
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	clock_sleep_ns(200 * NS_PER_MS);
	engine_sample(eng, snap);
	int npmd_threads = 0;
	for (size_t i = 0; i < snap->nthreads; i++) {
		if (snap->threads[i].subsys != SUBSYS_PMD)
			continue;
		assert_true(strncmp(snap->threads[i].name, "pmd-c:", 6) == 0);
		npmd_threads++;
	}
	assert_int_equal(npmd_threads, 2);
	assert_true(snap->pmd.generated > 0 && snap->pmd.forwarded > 0);
	snapshot_free(snap);
	engine_free(eng);
}

/*
 * Rounds of three windows, each round counted only when the host left the
 * PMDs alone (see HOST_STOLEN_PCT_MAX). In every counted round: max sleep 0
 * drops <= 0.1%; at max sleep 50, 50 us slack drops >= 5x what 1 us slack
 * drops (and clearly something); the PMDs use more CPU with 1 us slack (the
 * report: PMD#1 at ~60% CPU while dropping, busier once fixed).
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TT_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TT_SANITIZED 1
#endif

static void test_seed_goals(void **state)
{
	char err[256];
#ifdef TT_SANITIZED
	/* A figure of speed: instrumented PMDs cannot keep up with 600 kpps at all (24%
	 * drops at maxsleep 0 under ASan), so the goals say nothing there. */
	skip();
#endif
	struct engine *eng = engine_new();
	struct snapshot *snap = snapshot_new();
	int valid = 0;
	(void)state;

	assert_int_equal(scenario_apply("pmd-seed", engine_scenario_assign, eng, err, sizeof(err)),
			 0);
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	for (int r = 0; r < MAX_ROUNDS && valid < WANT_ROUNDS; r++) {
		struct window w0, w50, w1;
		window(eng, snap, 0, 1000, &w0);
		/* Alternate the order of the two slacks so a drift of host load hits both. */
		if (r % 2) {
			window(eng, snap, 50, 1000, &w1);
			window(eng, snap, 50, 50000, &w50);
		} else {
			window(eng, snap, 50, 50000, &w50);
			window(eng, snap, 50, 1000, &w1);
		}
		double worst = w0.stolen_pct;
		worst = w50.stolen_pct > worst ? w50.stolen_pct : worst;
		worst = w1.stolen_pct > worst ? w1.stolen_pct : worst;
		if (worst > HOST_STOLEN_PCT_MAX) {
			fprintf(stderr, "  round %d not counted: the host took %.1f%% of a PMD\n",
				r, worst);
			continue;
		}
		valid++;
		fprintf(stderr, "round %d: %.3f%% / %.3f%% / %.3f%%\n", r, pct(&w0), pct(&w50),
			pct(&w1));
		/* The goals, in every counted round: never sleeping drops <= 0.1%;
		 * Linux's 50 us slack drops >= 5x what 1 us slack drops (as shares of what
		 * was offered: time the host took offers nothing, so the counts differ). */
		assert_true(pct(&w0) <= 0.1);
		assert_true(pct(&w50) >= 1.0);
		assert_true(pct(&w50) >= 5.0 * pct(&w1));
		assert_true(w1.cpu_pct > w50.cpu_pct);
	}
	snapshot_free(snap);
	engine_free(eng);
	if (valid == 0) {
		host_too_loaded = 1;
		skip();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_only_pmds_run),
	    cmocka_unit_test(test_seed_goals),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	if (failed == 0 && host_too_loaded) {
		fprintf(stderr, "host too loaded: no round where the PMDs kept their CPUs\n");
		return 77;
	}
	return failed;
}

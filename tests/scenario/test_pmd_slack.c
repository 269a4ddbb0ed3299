/* test_pmd_slack.c: near ring capacity, 50 us timer slack drops clearly more than 1 us (ordering).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pmd_test_util.h"

#define ROUNDS 2
#define MEASURE_MS 1000

/*
 * One PMD and its source (two threads: the chain's four would leave this
 * 2-vCPU machine no slack of its own). 32 descriptors at 600 kpps hold 53 us:
 * more than a 1 us-slack sleep takes here (~16 us, and the reset at 16
 * packets caps the ramp at ~27 us), less than any 50 us-slack one (~65 us).
 * The settings alternate so a burst of load from elsewhere hits both.
 */
static void test_slack_drop_ordering(void **state)
{
	char err[256];
	struct engine *eng = engine_new();
	struct snapshot *snap = snapshot_new();
	uint64_t drops[2] = {0, 0}, offered[2] = {0, 0};
	static const char *const slack[2] = {"pmd.timer_slack_ns=1000", "pmd.timer_slack_ns=50000"};
	(void)state;

	pmdt_set(eng, "pmd.enabled=on");
	pmdt_set(eng, "pmd.topology=direct");
	pmdt_set(eng, "pmd.count=1");
	pmdt_set(eng, "pmd.rxq_size=32");
	pmdt_set(eng, "gen.rate_pps=600000");
	pmdt_set(eng, "pmd.maxsleep_us=500");
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	for (int r = 0; r < ROUNDS; r++) {
		for (int k = 0; k < 2; k++) {
			pmdt_set(eng, slack[k]);
			clock_sleep_ns(150 * NS_PER_MS);
			engine_sample(eng, snap);
			uint64_t g0 = snap->pmd.generated, d0 = snap->pmd.dropped;
			clock_sleep_ns(MEASURE_MS * NS_PER_MS);
			engine_sample(eng, snap);
			assert_int_equal(pmdt_check(snap), 0);
			drops[k] += snap->pmd.dropped - d0;
			offered[k] += snap->pmd.generated - g0;
			const struct pmd_thread_snap *t = pmdt_thread(snap, "pmd-c:0");
			fprintf(stderr, "%s: drop %.1f%%, overshoot p50 %.1f us, cpu %.0f%%\n",
				slack[k], snap->pmd.drop_pct, t->overshoot_p50_us, t->cpu_pct);
		}
	}
	double pct1 = 100.0 * (double)drops[0] / (double)offered[0];
	double pct50 = 100.0 * (double)drops[1] / (double)offered[1];
	fprintf(stderr, "slack 1000: %.1f%% dropped; slack 50000: %.1f%% dropped\n", pct1, pct50);
	assert_true(offered[0] > 0 && offered[1] > 0);
	assert_true(pct50 > pct1);
	snapshot_free(snap);
	engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_slack_drop_ordering),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

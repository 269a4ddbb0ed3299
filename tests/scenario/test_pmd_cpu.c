/* test_pmd_cpu.c: an idle PMD spins with pmd.maxsleep_us=0 and mostly sleeps with 500 (orderings).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pmd_test_util.h"

/* Let a changed maxsleep settle, then measure the PMD over one interval. */
static const struct pmd_thread_snap *measure(struct engine *eng, struct snapshot *snap, uint64_t ms)
{
	clock_sleep_ns(200 * NS_PER_MS);
	engine_sample(eng, snap); /* start of the interval */
	clock_sleep_ns(ms * NS_PER_MS);
	engine_sample(eng, snap);
	assert_int_equal(pmdt_check(snap), 0);
	const struct pmd_thread_snap *t = pmdt_thread(snap, "pmd-c:0");
	assert_non_null(t);
	return t;
}

static void test_idle_cpu_ordering(void **state)
{
	char err[256];
	struct engine *eng = engine_new();
	struct snapshot *snap = snapshot_new();
	(void)state;

	assert_int_equal(scenario_apply(eng, "pmd-idle", err, sizeof(err)), 0);
	pmdt_set(eng, "pmd.maxsleep_us=0");
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);

	const struct pmd_thread_snap *t = measure(eng, snap, 800);
	double cpu0 = t->cpu_pct, sleep0 = t->sleep_iter_pct;
	pmdt_set(eng, "pmd.maxsleep_us=500");
	t = measure(eng, snap, 800);
	double cpu500 = t->cpu_pct, sleep500 = t->sleep_iter_pct, avg500 = t->sleep_us_avg;
	fprintf(stderr,
		"idle PMD: maxsleep 0: %.1f%% CPU; 500: %.1f%% CPU, %.0f%% sleep iters, "
		"%.0f us/sleep\n",
		cpu0, cpu500, sleep500, avg500);
	assert_true(sleep0 == 0); /* never sleeps with 0 */
	assert_true(sleep500 > 90); /* idle: nearly every iteration sleeps */
	assert_true(avg500 >= 500); /* at max, and a real sleep is never short */
	assert_true(cpu0 > 2 * cpu500); /* the ordering the feature is for */
	snapshot_free(snap);
	engine_free(eng);
}

/* pmd.sleep_inc_us=10 (the first patch) ramps in bigger steps: under the same light
 * load the sleeps it makes are longer on average than with OVS's released 1 us. */
static void test_sleep_inc_10_longer_sleeps(void **state)
{
	char err[256];
	struct engine *eng = engine_new();
	struct snapshot *snap = snapshot_new();
	(void)state;

	assert_int_equal(scenario_apply(eng, "pmd-light", err, sizeof(err)), 0);
	pmdt_set(eng, "gen.rate_pps=100000");
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	const struct pmd_thread_snap *t = measure(eng, snap, 700);
	double avg1 = t->sleep_us_avg;
	pmdt_set(eng, "pmd.sleep_inc_us=10");
	t = measure(eng, snap, 700);
	double avg10 = t->sleep_us_avg;
	fprintf(stderr, "100 kpps: avg sleep %.1f us with inc 1, %.1f us with inc 10\n", avg1,
		avg10);
	assert_true(avg10 > avg1);
	snapshot_free(snap);
	engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_idle_cpu_ordering),
	    cmocka_unit_test(test_sleep_inc_10_longer_sleeps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

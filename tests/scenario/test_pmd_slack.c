/* test_pmd_slack.c: near ring capacity, 50 us timer slack drops clearly more than 1 us (ordering).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pmd_test_util.h"

/* Rounds of three alternating windows; a round counts only when the host
 * could carry it (see below). Enough valid rounds end the test early. */
#define MAX_ROUNDS 8
#define WANT_ROUNDS 3
#define SETTLE_MS 100
#define MEASURE_MS 300
/* A PMD that never sleeps drops only what the host's scheduler makes it
 * drop (it was off the CPU, or its source was late and caught up in one
 * lump). Above this, the round measures the host, not the timer slack. */
#define HOST_DROP_PCT_MAX 10.0

static int host_too_loaded; /* set by the test: main exits 77 (tests/run.sh: SKIP) */

/* One settled window with `assign` in force; adds its drops and offered packets. */
static void window(struct engine *eng, struct snapshot *snap, const char *assign, uint64_t *drops,
		   uint64_t *offered)
{
	pmdt_set(eng, assign);
	clock_sleep_ns(SETTLE_MS * NS_PER_MS);
	engine_sample(eng, snap);
	uint64_t g0 = snap->pmd.generated, d0 = snap->pmd.dropped;
	clock_sleep_ns(MEASURE_MS * NS_PER_MS);
	engine_sample(eng, snap);
	assert_int_equal(pmdt_check(snap), 0);
	*drops = snap->pmd.dropped - d0;
	*offered = snap->pmd.generated - g0;
	const struct pmd_thread_snap *t = pmdt_thread(snap, "pmd-c:0");
	fprintf(stderr, "  %-26s drop %5.1f%%, overshoot p50 %6.1f us, cpu %3.0f%%\n", assign,
		*offered ? 100.0 * (double)*drops / (double)*offered : 0.0, t->overshoot_p50_us,
		t->cpu_pct);
}

/*
 * One PMD and its source (two threads: the chain's four would leave this
 * 2-vCPU machine no slack of its own). 32 descriptors at 600 kpps hold 53 us:
 * more than a 1 us-slack sleep takes here (~16-35 us, and the reset at 16
 * packets caps the ramp), less than any 50 us-slack one (~65 us).
 *
 * Why rounds with a host check: on a loaded 2-core machine (measured with a
 * spinner on one core) even a PMD that never sleeps drops 40-60% here,
 * because it or its source is off the CPU for a scheduler slice, and then
 * 1 us slack, which wakes the PMD more often, dropped MORE than 50 us slack:
 * the drops measured the scheduler. So each round also measures maxsleep 0
 * (slack cannot matter when nothing sleeps) and counts only if that stayed
 * below HOST_DROP_PCT_MAX. The ordering asserted is unchanged; a host that
 * never gives one valid round makes the test skip, saying so.
 */
static void test_slack_drop_ordering(void **state)
{
	char err[256];
	struct engine *eng = engine_new();
	struct snapshot *snap = snapshot_new();
	uint64_t drops[2] = {0, 0}, offered[2] = {0, 0};
	static const char *const slack[2] = {"pmd.timer_slack_ns=1000", "pmd.timer_slack_ns=50000"};
	int valid = 0;
	(void)state;

	pmdt_set(eng, "pmd.enabled=on");
	pmdt_set(eng, "pmd.topology=direct");
	pmdt_set(eng, "pmd.count=1");
	pmdt_set(eng, "pmd.rxq_size=32");
	pmdt_set(eng, "gen.rate_pps=600000");
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	for (int r = 0; r < MAX_ROUNDS && valid < WANT_ROUNDS; r++) {
		uint64_t d[3], o[3];
		/* The two settings alternate (order flipped each round) so slow
		 * changes of the host's load hit both alike. */
		pmdt_set(eng, "pmd.maxsleep_us=500");
		for (int j = 0; j < 2; j++) {
			int k = (j + r) % 2;
			window(eng, snap, slack[k], &d[k], &o[k]);
		}
		pmdt_set(eng, "pmd.timer_slack_ns=1000");
		window(eng, snap, "pmd.maxsleep_us=0", &d[2], &o[2]);
		double host_pct = o[2] ? 100.0 * (double)d[2] / (double)o[2] : 100.0;
		if (host_pct > HOST_DROP_PCT_MAX || o[0] == 0 || o[1] == 0) {
			fprintf(stderr,
				"  round %d not counted: a never-sleeping PMD dropped %.1f%%\n", r,
				host_pct);
			continue;
		}
		valid++;
		for (int k = 0; k < 2; k++) {
			drops[k] += d[k];
			offered[k] += o[k];
		}
	}
	snapshot_free(snap);
	engine_free(eng);
	if (valid == 0) {
		host_too_loaded = 1;
		skip();
	}
	double pct1 = 100.0 * (double)drops[0] / (double)offered[0];
	double pct50 = 100.0 * (double)drops[1] / (double)offered[1];
	fprintf(stderr, "%d rounds: slack 1000: %.1f%% dropped; slack 50000: %.1f%% dropped\n",
		valid, pct1, pct50);
	assert_true(pct50 > pct1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_slack_drop_ordering),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	if (failed == 0 && host_too_loaded) {
		/* A skip, not a pass: tests/run.sh prints this last line. */
		fprintf(stderr, "host too loaded: no round where a never-sleeping PMD kept up\n");
		return 77;
	}
	return failed;
}

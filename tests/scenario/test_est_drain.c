/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_est_drain.c: kthread 0's drain gives the config mutex way between batches
 * (docs/est.md §5). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "core/clock.h"
#include "engine/engine.h"
#include "engine/est/est.h"

#define NEST 300000

static void set(struct engine *eng, const char *kv)
{
	char err[512];
	if (engine_knob_assign(eng, kv, err, sizeof(err)) != 0)
		fail_msg("%s: %s", kv, err);
}

/*
 * A backlog of 300k estimators on the temp list, then kthread 0 starts and
 * drains it, 16 per hold of the config mutex. The control thread samples in a
 * loop meanwhile: it must get the mutex while the drain is under way (some
 * sample sees 0 < pending < backlog), as the kernel's "unlock and reschedule"
 * between batches allows, and every one of those mid-drain snapshots keeps
 * estimators = placed + pending. No timing is asserted: only that the two
 * interleave (glibc lets a waiter in now and then even without the give-way,
 * so the hand-over itself is tested exactly in test_est_lock).
 */
static void test_drain_lets_control_in(void **state)
{
	struct engine *eng = engine_new();
	struct snapshot *s = snapshot_new();
	char err[512];
	(void)state;

	set(eng, "cpu.count=4");
	set(eng, "est.enabled=on");
	set(eng, "est.cpus=1"); /* small per-CPU areas: the drain itself is what counts */
	set(eng, "est.count=1");
	set(eng, "est.traffic_pps=0");
	set(eng, "est.chain_max=100"); /* 240000 per kthread: two kthreads */
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	uint64_t end = clock_mono_ns() + 15 * NS_PER_S;
	do {
		clock_sleep_ns(50 * NS_PER_MS);
		engine_sample(eng, s);
	} while ((s->est.pending || !s->est.calib.count) && clock_mono_ns() < end);
	assert_int_equal(s->est.pending, 0);
	assert_true(s->est.calib.count >= 1);

	set(eng, "est.run_estimation=0"); /* no tasks: new estimators wait */
	set(eng, "est.count=300000");
	engine_sample(eng, s);
	uint64_t backlog = s->est.pending;
	assert_int_equal(backlog, NEST - 1); /* est.count was 1 */

	set(eng, "est.run_estimation=1"); /* kthread 0 restarts and drains */
	uint64_t mid = 0, samples = 0, t_start = clock_mono_ns(), worst_ns = 0;
	end = clock_mono_ns() + 20 * NS_PER_S;
	do {
		uint64_t t0 = clock_mono_ns();
		engine_sample(eng, s);
		if (clock_mono_ns() - t0 > worst_ns)
			worst_ns = clock_mono_ns() - t0;
		samples++;
		assert_int_equal(s->est.estimators, s->est.placed + s->est.pending);
		if (s->est.pending > 0 && s->est.pending < backlog)
			mid++;
		clock_sleep_ns(NS_PER_MS); /* a sampler, not a second config writer */
	} while (s->est.pending && clock_mono_ns() < end);
	uint64_t drain_ns = clock_mono_ns() - t_start;
	fprintf(
	    stderr,
	    "%llu samples, %llu of them during the drain; drain %.1f ms, slowest sample %.1f ms\n",
	    (unsigned long long)samples, (unsigned long long)mid, drain_ns / 1e6, worst_ns / 1e6);
	assert_int_equal(s->est.pending, 0);
	assert_true(mid > 0);
	char cerr[512] = "";
	if (est_debug_check(eng, cerr, sizeof(cerr)) != 0)
		fail_msg("invariant: %s", cerr);

	engine_stop(eng);
	snapshot_free(s);
	engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_drain_lets_control_in),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

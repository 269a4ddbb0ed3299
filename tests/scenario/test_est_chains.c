/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_est_chains.c: 20,000 estimators on 64 emulated CPUs, live, against docs/est.md §2-§5. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/clock.h"
#include "engine/engine.h"
#include "engine/est/est.h"
#include "engine/est/est_core.h"

#define NEST 20000

static void set(struct engine *eng, const char *kv)
{
	char err[512];
	if (engine_knob_assign(eng, kv, err, sizeof(err)) != 0)
		fail_msg("%s: %s", kv, err);
}

static void check(struct engine *eng)
{
	char err[512] = "";
	if (est_debug_check(eng, err, sizeof(err)) != 0)
		fail_msg("invariant: %s", err);
}

/* Sample until nothing is pending (and calibrated n times); returns the last snapshot. */
static void settle(struct engine *eng, struct snapshot *s, uint64_t calibrations)
{
	uint64_t end = clock_mono_ns() + 15 * NS_PER_S;
	do {
		clock_sleep_ns(100 * NS_PER_MS);
		engine_sample(eng, s);
		check(eng);
		assert_int_equal(s->est.estimators, s->est.placed + s->est.pending);
	} while ((s->est.pending || s->est.calib.count < calibrations) && clock_mono_ns() < end);
	assert_int_equal(s->est.pending, 0);
	assert_true(s->est.calib.count >= calibrations);
}

static int est_threads(const struct snapshot *s, int *max_id)
{
	int n = 0;
	*max_id = -1;
	for (size_t i = 0; i < s->nthreads; i++) {
		int id;
		if (sscanf(s->threads[i].name, "est-k:%d", &id) == 1) {
			n++;
			if (id > *max_id)
				*max_id = id;
		}
	}
	return n;
}

static void expect_kthreads(const struct snapshot *s)
{
	uint64_t per = s->est.max_per_kthread;
	int want = (int)((s->est.estimators + per - 1) / per);
	int max_id;
	assert_int_equal(s->est.kthreads, want);
	assert_int_equal(s->est.kthread_slots, want);
	assert_int_equal(est_threads(s, &max_id), want);
	assert_int_equal(max_id, want - 1);
}

static void test_chains_20k_on_64_cpus(void **state)
{
	struct engine *eng = engine_new();
	struct snapshot *s = snapshot_new();
	static uint64_t v0[NEST + 1], v1[NEST + 1], p0[NEST + 1], p1[NEST + 1];
	static int kt[NEST + 1], kt1[NEST + 1];
	char err[512];
	(void)state;

	set(eng, "cpu.count=4");
	set(eng, "est.enabled=on");
	set(eng, "est.cpus=64");
	set(eng, "est.count=20000");
	set(eng, "est.traffic_pps=2000");
	/* Calibration still runs; forcing 2 gives 4800 per kthread: 5 kthreads. */
	set(eng, "est.chain_max=2");
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	settle(eng, s, 1);
	assert_int_equal(s->est.estimators, NEST + 1); /* plus tot_stats */
	assert_int_equal(s->est.chain_max, 2);
	assert_int_equal(s->est.max_per_kthread, 4800);
	assert_int_equal(s->est.est_cpus, 64);
	expect_kthreads(s);
	assert_int_equal(s->est.kthreads, 5);
	assert_true(event_count_kind(&eng->events, EV_KTHREAD_START) >= 5);

	/* Every estimator is visited once per pass of its kthread over the 50 rows. Between two
	 * cuts (a cut holds every kthread lock, so no chain is half done) each visit is one walk
	 * of its chain, and a kthread that ran T ticks visited each of its rows floor(T/50) or
	 * ceil(T/50) times: within a kthread, no estimator is visited twice more than another,
	 * however fast the ticks came. The rate itself (one pass per 2 s) is a clock claim:
	 * bench/est.sh. Waited for: every estimator visited twice, within a deadline. */
	assert_int_equal(est_debug_visits(eng, v0, kt, p0, NEST + 1), NEST + 1);
	uint64_t deadline = clock_mono_ns() + 60 * NS_PER_S, dmin;
	do {
		clock_sleep_ns(100 * NS_PER_MS);
		assert_int_equal(est_debug_visits(eng, v1, kt1, p1, NEST + 1), NEST + 1);
		dmin = UINT64_MAX;
		for (int i = 0; i <= NEST; i++)
			if (v1[i] - v0[i] < dmin)
				dmin = v1[i] - v0[i];
	} while (dmin < 2 && clock_mono_ns() < deadline);
	if (dmin < 2)
		fail_msg("an estimator visited %llu times in 60 s", (unsigned long long)dmin);
	uint64_t lo[8], hi[8];
	for (int k = 0; k < 8; k++) {
		lo[k] = UINT64_MAX;
		hi[k] = 0;
	}
	for (int i = 0; i <= NEST; i++) {
		uint64_t d = v1[i] - v0[i];
		assert_true(kt[i] >= 0 && kt[i] < 8);
		assert_int_equal(kt[i], kt1[i]);
		assert_int_equal(d, p1[i] - p0[i]);
		lo[kt[i]] = d < lo[kt[i]] ? d : lo[kt[i]];
		hi[kt[i]] = d > hi[kt[i]] ? d : hi[kt[i]];
	}
	for (int k = 0; k < 8; k++)
		if (hi[k] && hi[k] - lo[k] > 1)
			fail_msg("kt %d: its estimators visited %llu to %llu times in one window",
				 k, (unsigned long long)lo[k], (unsigned long long)hi[k]);
	engine_sample(eng, s);
	assert_true(s->est.tot_inpps > 0); /* packets moved the rates */
	assert_true(s->est.tick_ns_max > 0);
	/* Each kthread's own last tick time: every one of them estimated rows. */
	assert_int_equal(s->est.nkt, 5);
	for (int k = 0; k < s->est.nkt; k++)
		if (s->est.kt[k].tick_ns_last == 0)
			fail_msg("kt %d: no tick time of its own", s->est.kt[k].id);

	/* Live: down by thousands, up by thousands, without stopping estimation. */
	uint64_t stops = event_count_kind(&eng->events, EV_KTHREAD_STOP);
	set(eng, "est.count=8000");
	settle(eng, s, 1);
	assert_int_equal(s->est.estimators, 8001);
	assert_true(event_count_kind(&eng->events, EV_KTHREAD_STOP) > stops);
	set(eng, "est.count=26000");
	settle(eng, s, 1);
	assert_int_equal(s->est.estimators, 26001);
	expect_kthreads(s); /* holes are filled lowest id first */
	assert_int_equal(s->est.kthreads, 6);

	/* Any mix of adds and removes keeps added = placed + pending. */
	unsigned seed = 7;
	for (int i = 0; i < 12; i++) {
		char kv[64];
		snprintf(kv, sizeof(kv), "est.count=%d", rand_r(&seed) % 30000);
		set(eng, kv);
		if (i % 3 == 0)
			set(eng, "est.recalibrate=1"); /* reloads race the relink and the drain */
		check(eng);
		engine_sample(eng, s);
		assert_int_equal(s->est.estimators, s->est.placed + s->est.pending);
		clock_sleep_ns(30 * NS_PER_MS);
	}

	/* Removing all stops every kthread but 0 (it keeps tot_stats). */
	set(eng, "est.count=0");
	settle(eng, s, 1);
	clock_sleep_ns(200 * NS_PER_MS); /* a last reload's kthread 0 may still relink */
	settle(eng, s, 1);
	int max_id;
	assert_int_equal(s->est.estimators, 1);
	assert_int_equal(s->est.kthreads, 1);
	assert_int_equal(s->est.kthread_slots, 1);
	assert_int_equal(est_threads(s, &max_id), 1);
	assert_int_equal(max_id, 0);

	engine_stop(eng);
	snapshot_free(s);
	engine_free(eng);
}

/* Limit 4 x 1 CPU = 4 kthreads: the rest waits; more CPUs in the cpulist places it. */
static void test_thread_limit_then_capacity(void **state)
{
	struct engine *eng = engine_new();
	struct snapshot *s = snapshot_new();
	char err[512];
	(void)state;

	set(eng, "cpu.count=4");
	set(eng, "est.enabled=on");
	set(eng, "est.cpus=8");
	set(eng, "est.count=11000");
	set(eng, "est.chain_max=1"); /* 2400 per kthread */
	set(eng, "est.cpulist_cpus=1");
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	uint64_t end = clock_mono_ns() + 10 * NS_PER_S;
	do {
		clock_sleep_ns(100 * NS_PER_MS);
		engine_sample(eng, s);
		check(eng);
	} while (s->est.placed < 4 * 2400 && clock_mono_ns() < end);
	clock_sleep_ns(200 * NS_PER_MS);
	engine_sample(eng, s);
	assert_int_equal(s->est.max_threads, 4);
	assert_int_equal(s->est.kthreads, 4);
	assert_int_equal(s->est.placed, 9600);
	assert_int_equal(s->est.pending, 11001 - 9600);
	/* A cpulist change recalibrates and relinks; now there is room. */
	set(eng, "est.cpulist_cpus=2");
	settle(eng, s, 2);
	assert_int_equal(s->est.max_threads, 8);
	expect_kthreads(s);
	engine_stop(eng);
	snapshot_free(s);
	engine_free(eng);
}

/* The seed's effect: a kthread that runs briefly runs slow under ondemand. */
static void test_ondemand_calibrates_lower(void **state)
{
	struct engine *eng = engine_new();
	struct snapshot *s = snapshot_new();
	char err[512];
	(void)state;

	set(eng, "cpu.count=4");
	set(eng, "est.enabled=on");
	set(eng, "est.count=100");
	set(eng, "cpu.governor=performance");
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	if (!eng->cpu.emulated) {
		engine_free(eng);
		snapshot_free(s);
		skip(); /* the host governs for real */
	}
	settle(eng, s, 1);
	int perf = s->est.calib.chain_max;
	assert_string_equal(cpu_governor_name(s->est.calib.governor), "performance");
	set(eng, "cpu.governor=ondemand");
	set(eng, "est.recalibrate=1");
	settle(eng, s, 2);
	int od = s->est.calib.chain_max;
	assert_string_equal(cpu_governor_name(s->est.calib.governor), "ondemand");
	fprintf(stderr, "chain_max: performance %d, ondemand %d\n", perf, od);
	assert_true(od < perf);

	/* tick_chains 1: a recalibration, and one chain of 48 x chain_max per tick. */
	set(eng, "cpu.governor=performance");
	set(eng, "est.tick_chains=1");
	settle(eng, s, 3);
	assert_int_equal(s->est.tick_chains, 1);
	assert_int_equal(s->est.chain_max, 48 * s->est.calib.chain_max);
	assert_int_equal(s->est.max_per_kthread, 50 * 48 * (uint64_t)s->est.calib.chain_max);

	/* run_estimation 0 stops every task and keeps the chains; 1 restarts them. */
	set(eng, "est.run_estimation=0");
	engine_sample(eng, s);
	assert_int_equal(s->est.kthreads, 0);
	assert_int_equal(s->est.placed, 101);
	set(eng, "est.run_estimation=1");
	engine_sample(eng, s);
	assert_int_equal(s->est.kthreads, 1);

	/* New possible CPUs: counters rebuilt, kthread 0 calibrates again. */
	set(eng, "est.cpus=32");
	settle(eng, s, 1);
	assert_int_equal(s->est.est_cpus, 32);
	assert_int_equal(s->est.estimators, 101);
	engine_stop(eng);
	snapshot_free(s);
	engine_free(eng);
}

/* Holds the configuration lock, as a calibration does, until told to let go. */
struct holder {
	pthread_mutex_t *mutex;
	atomic_int state; /* 0 start, 1 holding, 2 let go */
};

static void *hold_lock(void *arg)
{
	struct holder *h = arg;
	pthread_mutex_lock(h->mutex);
	atomic_store(&h->state, 1);
	while (atomic_load(&h->state) != 2)
		clock_sleep_ns(NS_PER_MS);
	pthread_mutex_unlock(h->mutex);
	return NULL;
}

/*
 * The sampler never waits long for the configuration lock (it runs on the console's
 * drawing thread, and a calibration holds that lock while it stops kthreads and
 * relinks). Held here by another thread until the sample returns: a sampler that waited
 * for it would never return (the test times out). What it reports instead is the last
 * sample's, marked config_held.
 */
static void test_sample_never_waits_for_config_lock(void **state)
{
	char err[512];
	struct engine *eng = engine_new();
	struct snapshot *s = snapshot_new();
	(void)state;

	set(eng, "est.enabled=on");
	set(eng, "est.count=300");
	set(eng, "est.cpus=4");
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	settle(eng, s, 1);
	assert_false(s->est.config_held);
	struct est_snap before = s->est;

	struct holder h = {.mutex = &eng->est->mutex};
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, hold_lock, &h), 0);
	while (atomic_load(&h.state) != 1)
		clock_sleep_ns(NS_PER_MS);
	engine_sample(eng, s);
	atomic_store(&h.state, 2);
	pthread_join(th, NULL);
	assert_true(s->est.config_held);
	assert_int_equal(s->est.estimators, before.estimators);
	assert_int_equal(s->est.placed, before.placed);
	assert_int_equal(s->est.kthreads, before.kthreads);
	assert_int_equal(s->est.chain_max, before.chain_max);
	assert_int_equal(s->est.mem_bytes, before.mem_bytes);

	engine_sample(eng, s); /* free again: fresh figures */
	assert_false(s->est.config_held);
	assert_int_equal(s->est.estimators, 301);
	engine_stop(eng);
	snapshot_free(s);
	engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_chains_20k_on_64_cpus),
	    cmocka_unit_test(test_thread_limit_then_capacity),
	    cmocka_unit_test(test_ondemand_calibrates_lower),
	    cmocka_unit_test(test_sample_never_waits_for_config_lock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_sampler_runq.c: the engine sampler reads a thread's schedstat once a refresh (not at
 * every sample), repeating the last run-queue figure between, and again at every sample
 * when the refresh is that short; and only the PMD and est threads' when the front end shows
 * no more (engine_runq). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/clock.h"
#include "engine/engine.h"

static void sleeper(struct ethread *self)
{
	while (!ethread_should_stop(self)) {
		ethread_beat(self);
		clock_sleep_ns(NS_PER_MS);
	}
}

/* The time of the thread's last schedstat reading, and its figure in snap. */
static uint64_t read_at(struct ethread *t)
{
	return t->smp_sched.prev_mono_ns;
}

static double figure(const struct snapshot *s, pid_t tid)
{
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i].tid == tid)
			return s->threads[i].runq_delay_pct;
	fail_msg("thread %d not sampled", (int)tid);
	return -2;
}

static void test_once_a_refresh(void **state)
{
	(void)state;
	char err[128];
	struct engine *eng = engine_new();
	struct ethread *t =
	    ethread_start(eng, "rq-sleep", SUBSYS_ENGINE, 0, sleeper, NULL, err, sizeof(err));
	assert_non_null(t);
	if (t->smp_sched.sched_fd < 0)
		skip(); /* a kernel without /proc schedstat */
	struct snapshot *s = snapshot_new();

	eng->smp_refresh_ns = 3600 * NS_PER_S; /* an hour: every sample below is within it */
	engine_sample(eng, s);
	assert_true(figure(s, t->tid) < 0); /* the first reading: no baseline */
	clock_sleep_ns(2 * NS_PER_MS);
	engine_sample(eng, s); /* no figure yet: read again */
	double first = figure(s, t->tid);
	uint64_t at = read_at(t);
	assert_true(first >= 0);
	for (int i = 0; i < 20; i++) {
		clock_sleep_ns(NS_PER_MS);
		engine_sample(eng, s);
		assert_true(read_at(t) == at); /* not read again within the refresh */
		assert_true(figure(s, t->tid) == first); /* the last figure, repeated */
	}

	eng->smp_refresh_ns = 1; /* a refresh at every sample: read at every sample */
	for (int i = 0; i < 5; i++) {
		clock_sleep_ns(NS_PER_MS);
		engine_sample(eng, s);
		assert_true(read_at(t) > at);
		at = read_at(t);
		assert_true(figure(s, t->tid) >= 0);
	}
	snapshot_free(s);
	engine_free(eng);
}

/* ENGINE_RUNQ_PMD_EST: an est thread is read each refresh, an engine thread not at all (null,
 * no baseline kept); wanted again, it starts over: null, then a delta over one refresh. */
static void test_only_where_shown(void **state)
{
	(void)state;
	char err[128];
	struct engine *eng = engine_new();
	struct ethread *t =
	    ethread_start(eng, "rq-other", SUBSYS_ENGINE, 0, sleeper, NULL, err, sizeof(err));
	struct ethread *e =
	    ethread_start(eng, "rq-est", SUBSYS_EST, 0, sleeper, NULL, err, sizeof(err));
	assert_non_null(t);
	assert_non_null(e);
	if (t->smp_sched.sched_fd < 0)
		skip();
	struct snapshot *s = snapshot_new();

	eng->smp_refresh_ns = 1; /* every sample a refresh */
	for (int i = 0; i < 2; i++) {
		clock_sleep_ns(NS_PER_MS);
		engine_sample(eng, s);
	}
	assert_true(figure(s, t->tid) >= 0);
	atomic_store_explicit(&eng->smp_runq_want, ENGINE_RUNQ_PMD_EST, memory_order_relaxed);
	uint64_t at = read_at(t), est_at = read_at(e);
	for (int i = 0; i < 3; i++) {
		clock_sleep_ns(NS_PER_MS);
		engine_sample(eng, s);
		assert_true(figure(s, t->tid) < 0); /* not shown: null */
		assert_true(read_at(t) == at); /* and not read */
		assert_true(read_at(e) > est_at); /* the est thread's still is */
		est_at = read_at(e);
		assert_true(figure(s, e->tid) >= 0);
	}
	atomic_store_explicit(&eng->smp_runq_want, ENGINE_RUNQ_ALL, memory_order_relaxed);
	clock_sleep_ns(NS_PER_MS);
	engine_sample(eng, s);
	assert_true(figure(s, t->tid) < 0); /* a new baseline, not the gap since the last */
	at = read_at(t);
	clock_sleep_ns(NS_PER_MS);
	engine_sample(eng, s);
	assert_true(read_at(t) > at);
	assert_true(figure(s, t->tid) >= 0);
	snapshot_free(s);
	engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_once_a_refresh),
	    cmocka_unit_test(test_only_where_shown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

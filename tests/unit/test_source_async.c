/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_source_async.c: a source with knobs_apart (the live host) gets its knob writes on
 * tt-writer: samples go on at the interval while a slow write waits, results come in the order
 * asked, and stop waits for the write in progress only. Run under TSan too (make tsan). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <cmocka.h>

#include "backends/source.h"
#include "backends/source_async.h"
#include "core/clock.h"

#define WRITE_MS 300 /* each write waits this long, as one on a stopped ovs-vswitchd */

/* The fake's state: the sampler and the writer both touch it (a mutex, as src_host.c). */
static pthread_mutex_t fake_mu = PTHREAD_MUTEX_INITIALIZER;
static int64_t fake_value;
static atomic_int fake_samples; /* relaxed: a count read after the threads are joined or
				   while they run, only compared with a bound */
static atomic_int fake_writing; /* 1 while a write waits */

static void fake_sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static void fake_sample(struct source *src, struct snapshot *snap)
{
	(void)src;
	pthread_mutex_lock(&fake_mu);
	snap->knobs[K_PMD_MAXSLEEP_US] = fake_value;
	pthread_mutex_unlock(&fake_mu);
	atomic_fetch_add_explicit(&fake_samples, 1, memory_order_relaxed);
}

static int fake_knob_set(struct source *src, enum knob_id id, int64_t v, int64_t *stored, char *err,
			 size_t errlen)
{
	(void)src;
	(void)id;
	atomic_store_explicit(&fake_writing, 1, memory_order_relaxed);
	fake_sleep_ms(WRITE_MS); /* the lock is not held while the write waits */
	pthread_mutex_lock(&fake_mu);
	int rc = 0;
	if (v == 13) {
		snprintf(err, errlen, "not applied; %lld still in force", (long long)fake_value);
		rc = KNOB_ERR_RUNTIME;
	} else {
		fake_value = v;
	}
	*stored = fake_value;
	pthread_mutex_unlock(&fake_mu);
	atomic_store_explicit(&fake_writing, 0, memory_order_relaxed);
	return rc;
}

static int fake_knob_get(struct source *src, enum knob_id id, int64_t *out)
{
	(void)src;
	(void)id;
	pthread_mutex_lock(&fake_mu);
	*out = fake_value;
	pthread_mutex_unlock(&fake_mu);
	return 0;
}

static const struct source_ops fake_ops = {
    .name = "fake",
    .sample = fake_sample,
    .knob_set = fake_knob_set,
    .knob_get = fake_knob_get,
    .blocks = true,
    .knobs_apart = true,
};

/* Results until n are taken or the deadline passes. */
static int take_results(struct source_async *a, struct source_knob_result *out, int n, int ms)
{
	int got = 0;
	uint64_t end = clock_mono_ns() + (uint64_t)ms * 1000000ULL;
	while (got < n && clock_mono_ns() < end) {
		if (source_async_result(a, &out[got]))
			got++;
		else
			fake_sleep_ms(5);
	}
	return got;
}

static void test_samples_go_on_while_a_write_waits(void **state)
{
	struct source src = {.ops = &fake_ops, .started = true};
	struct source_knob_result r, res[3];
	char err[128];
	(void)state;
	fake_value = 100;
	atomic_store(&fake_samples, 0);
	struct source_async *a = source_async_start(&src, 20 * 1000000ULL, err, sizeof(err));
	assert_non_null(a);
	assert_int_equal(source_async_knob_request(a, K_PMD_MAXSLEEP_US, 200, &r), 1);
	uint64_t id1 = r.id;
	assert_int_equal(source_async_knob_request(a, K_PMD_MAXSLEEP_US, 13, &r), 1);
	assert_int_equal(source_async_knob_request(a, K_PMD_MAXSLEEP_US, 300, &r), 1);
	/* While the first write waits (300 ms), the 20 ms interval goes on. */
	fake_sleep_ms(WRITE_MS / 2);
	int during = atomic_load_explicit(&fake_samples, memory_order_relaxed);
	assert_int_equal(atomic_load_explicit(&fake_writing, memory_order_relaxed), 1);
	assert_true(during >= 3); /* 7 at 20 ms; 3 leaves room for a loaded machine */
	assert_int_equal(source_async_pending(a), 3);
	/* In the order asked: done, refused with the value in force, done. */
	assert_int_equal(take_results(a, res, 3, 10 * WRITE_MS), 3);
	assert_int_equal(res[0].id, id1);
	assert_int_equal(res[0].rc, 0);
	assert_int_equal(res[0].stored, 200);
	assert_int_equal(res[1].id, id1 + 1);
	assert_int_equal(res[1].rc, KNOB_ERR_RUNTIME);
	assert_int_equal(res[1].stored, 200);
	assert_int_equal(res[2].id, id1 + 2);
	assert_int_equal(res[2].stored, 300);
	assert_int_equal(source_async_pending(a), 0);
	source_async_stop(a);
}

static void test_stop_waits_for_the_write_in_progress_only(void **state)
{
	struct source src = {.ops = &fake_ops, .started = true};
	struct source_knob_result r;
	char err[128];
	(void)state;
	fake_value = 100;
	struct source_async *a = source_async_start(&src, 20 * 1000000ULL, err, sizeof(err));
	assert_non_null(a);
	for (int i = 0; i < 4; i++)
		assert_int_equal(source_async_knob_request(a, K_PMD_MAXSLEEP_US, 400 + i, &r), 1);
	while (!atomic_load_explicit(&fake_writing, memory_order_relaxed))
		fake_sleep_ms(1);
	uint64_t t0 = clock_mono_ns();
	source_async_stop(a); /* one write in progress, three queued: dropped */
	uint64_t took_ms = (clock_mono_ns() - t0) / 1000000ULL;
	assert_true(took_ms <= 2 * WRITE_MS);
	int64_t v;
	fake_knob_get(&src, K_PMD_MAXSLEEP_US, &v);
	assert_int_equal(v, 400);
}

static void test_writer_only(void **state)
{
	struct source src = {.ops = &fake_ops, .started = true};
	struct source_knob_result r, res;
	char err[128];
	(void)state;
	fake_value = 100;
	atomic_store(&fake_samples, 0);
	struct source_async *a = source_async_start_writer(&src, err, sizeof(err));
	assert_non_null(a);
	assert_int_equal(source_async_knob_request(a, K_PMD_MAXSLEEP_US, 250, &r), 1);
	/* The caller samples meanwhile, on its own thread. */
	struct snapshot *snap = snapshot_new();
	for (int i = 0; i < 5; i++)
		source_sample(&src, snap);
	assert_int_equal(atomic_load(&fake_samples), 5);
	assert_int_equal(take_results(a, &res, 1, 10 * WRITE_MS), 1);
	assert_int_equal(res.stored, 250);
	snapshot_free(snap);
	source_async_stop(a);
	/* A source without knobs_apart gets no writer of its own. */
	struct source_ops plain = fake_ops;
	plain.knobs_apart = false;
	struct source src2 = {.ops = &plain, .started = true};
	assert_null(source_async_start_writer(&src2, err, sizeof(err)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_samples_go_on_while_a_write_waits),
	    cmocka_unit_test(test_stop_waits_for_the_write_in_progress_only),
	    cmocka_unit_test(test_writer_only),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

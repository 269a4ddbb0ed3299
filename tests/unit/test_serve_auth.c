/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_serve_auth.c: basic auth's verdicts: bcrypt checked once per credentials while cached,
 * wrong passwords and unknown users refused, the cache bounded (an evicted verdict is redone, a
 * flood of wrong guesses never evicts a right one), verifications on the bcrypt thread, and a
 * stop that cancels them without waiting for a bcrypt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include <cmocka.h>

#include "core/clock.h"

#include "tui/metrics/serve_auth.h"

/* "pw" at bcrypt cost 4, the cheapest, so the test spends no time on purpose-made slowness. */
static char hash[] = "$2b$04$JYzmBesUmTi4DAOGMmQOR.jp3tyYcN.zxcl8GeNSpxCWwJqfVs8.a";
static char name[] = "alice";
/* The same hash at cost 17: a check runs 2^13 times as long (seconds), and fails. */
static char slow_hash[] = "$2b$17$JYzmBesUmTi4DAOGMmQOR.jp3tyYcN.zxcl8GeNSpxCWwJqfVs8.a";
static char slow_name[] = "slow";
static const struct serve_user users[] = {{name, hash}, {slow_name, slow_hash}};

static void test_verdicts_cached(void **state)
{
	(void)state;
	serve_auth_users(users, 1);
	unsigned long r0 = serve_auth_bcrypt_runs();
	assert_true(serve_auth_check("alice", "pw"));
	assert_int_equal(serve_auth_bcrypt_runs(), r0 + 1);
	for (int i = 0; i < 10; i++)
		assert_true(serve_auth_check("alice", "pw"));
	assert_int_equal(serve_auth_bcrypt_runs(), r0 + 1); /* the scrapes after: from the cache */
	assert_false(serve_auth_check("alice", "wrong"));
	assert_false(serve_auth_check("alice", "wrong"));
	assert_int_equal(serve_auth_bcrypt_runs(), r0 + 2);
	/* An unknown user with alice's password: refused, after a bcrypt all the same. */
	assert_false(serve_auth_check("mallory", "pw"));
	assert_int_equal(serve_auth_bcrypt_runs(), r0 + 3);
	assert_false(serve_auth_check(NULL, "pw"));
	assert_false(serve_auth_check("alice", NULL));
	assert_false(serve_auth_check("alice", ""));
	serve_auth_users(NULL, 0);
	assert_false(serve_auth_check("alice", "pw")); /* no users: nobody */
}

static void test_cache_bounded(void **state)
{
	(void)state;
	char pw[32];
	serve_auth_users(users, 1);
	assert_true(serve_auth_check("alice", "pw"));
	unsigned long r0 = serve_auth_bcrypt_runs();
	/* More wrong guesses than there are slots: each is checked, the right one stays. */
	for (int i = 0; i <= SERVE_AUTH_CACHE_SLOTS; i++) {
		snprintf(pw, sizeof(pw), "guess%d", i);
		assert_false(serve_auth_check("alice", pw));
	}
	assert_int_equal(serve_auth_bcrypt_runs(), r0 + SERVE_AUTH_CACHE_SLOTS + 1);
	assert_true(serve_auth_check("alice", "pw"));
	assert_int_equal(serve_auth_bcrypt_runs(), r0 + SERVE_AUTH_CACHE_SLOTS + 1);
	/* The guesses pushed one another out: the first is checked again. */
	assert_false(serve_auth_check("alice", "guess0"));
	assert_int_equal(serve_auth_bcrypt_runs(), r0 + SERVE_AUTH_CACHE_SLOTS + 2);
	serve_auth_users(NULL, 0);
}

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int done;
} ev = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};

static void on_done(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&ev.lock);
	ev.done++;
	pthread_cond_broadcast(&ev.cond);
	pthread_mutex_unlock(&ev.lock);
}

/* Whether done was called n times within 60 s. */
static bool wait_done(int n)
{
	struct timespec end;
	clock_gettime(CLOCK_REALTIME, &end);
	end.tv_sec += 60;
	pthread_mutex_lock(&ev.lock);
	int rc = 0;
	while (ev.done < n && rc == 0)
		rc = pthread_cond_timedwait(&ev.cond, &ev.lock, &end);
	bool ok = ev.done >= n;
	pthread_mutex_unlock(&ev.lock);
	return ok;
}

static void test_async_verdicts(void **state)
{
	(void)state;
	char err[128];
	ev.done = 0;
	serve_auth_users(users, 1);
	assert_int_equal(serve_auth_start(err, sizeof(err)), 0);
	assert_int_equal(serve_auth_cached("alice", "pw"), SERVE_AUTH_MISS);
	struct serve_auth_job *ok = serve_auth_submit("alice", "pw", 1, on_done, NULL);
	struct serve_auth_job *bad = serve_auth_submit("alice", "nope", 1, on_done, NULL);
	assert_non_null(ok);
	assert_non_null(bad);
	assert_int_equal(serve_auth_job_verdict(ok), SERVE_AUTH_PENDING);
	serve_auth_go(ok);
	serve_auth_go(bad);
	assert_true(wait_done(2));
	assert_int_equal(serve_auth_job_verdict(ok), SERVE_AUTH_YES);
	assert_int_equal(serve_auth_job_verdict(bad), SERVE_AUTH_NO);
	serve_auth_job_release(ok);
	serve_auth_job_release(bad);
	/* Both verdicts are in the cache now. */
	assert_int_equal(serve_auth_cached("alice", "pw"), SERVE_AUTH_YES);
	assert_int_equal(serve_auth_cached("alice", "nope"), SERVE_AUTH_NO);
	/* The queue is bounded: past it, no job (the server answers 503). */
	struct serve_auth_job *held[SERVE_AUTH_QUEUE];
	for (int i = 0; i < SERVE_AUTH_QUEUE; i++)
		assert_non_null(held[i] = serve_auth_submit("alice", "x", 1, on_done, NULL));
	assert_null(serve_auth_submit("alice", "x", 1, on_done, NULL));
	for (int i = 0; i < SERVE_AUTH_QUEUE; i++)
		serve_auth_job_release(held[i]);
	serve_auth_stop();
	serve_auth_users(NULL, 0);
}

/* The first verdict's done holds the bcrypt thread until the gate opens. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool in, open;
	int order[64], n;
} gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, false, {0}, 0};

static void on_gated(void *arg)
{
	pthread_mutex_lock(&gate.lock);
	gate.order[gate.n++] = (int)(intptr_t)arg;
	gate.in = true;
	pthread_cond_broadcast(&gate.cond);
	while (!gate.open)
		pthread_cond_wait(&gate.cond, &gate.lock);
	pthread_mutex_unlock(&gate.lock);
	on_done(NULL);
}

/*
 * A flood of wrong guesses from one client (16 waiting, twice the old queue) neither gets a
 * right password from that client refused (it waits its turn, the queue has room) nor one from
 * another client put behind the flood: that client has fewer checks waiting, so it goes next.
 */
static void test_flood_fair(void **state)
{
	(void)state;
	char err[128];
	enum { FLOOD = 16 };
	struct serve_auth_job *j[FLOOD + 3];
	ev.done = 0;
	serve_auth_users(users, 1);
	assert_int_equal(serve_auth_start(err, sizeof(err)), 0);
	assert_non_null(j[0] = serve_auth_submit("alice", "guess", 1, on_gated, (void *)0));
	serve_auth_go(j[0]);
	pthread_mutex_lock(&gate.lock);
	while (!gate.in) /* the bcrypt thread is held in j[0]'s done */
		pthread_cond_wait(&gate.cond, &gate.lock);
	pthread_mutex_unlock(&gate.lock);
	for (intptr_t i = 1; i <= FLOOD; i++) {
		char guess[16];
		snprintf(guess, sizeof(guess), "guess%d", (int)i);
		assert_non_null(j[i] = serve_auth_submit("alice", guess, 1, on_gated, (void *)i));
		serve_auth_go(j[i]);
	}
	/* The flooding client's own right password, then another client's. */
	assert_non_null(j[FLOOD + 1] = serve_auth_submit("alice", "pw", 1, on_gated,
							 (void *)(intptr_t)(FLOOD + 1)));
	serve_auth_go(j[FLOOD + 1]);
	assert_non_null(j[FLOOD + 2] = serve_auth_submit("alice", "pw", 2, on_gated,
							 (void *)(intptr_t)(FLOOD + 2)));
	serve_auth_go(j[FLOOD + 2]);
	pthread_mutex_lock(&gate.lock);
	gate.open = true;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	assert_true(wait_done(FLOOD + 3));
	assert_int_equal(gate.order[1], FLOOD + 2); /* client 2 went next */
	for (int i = 2; i <= FLOOD + 2; i++) /* then client 1's, in the order they came */
		assert_int_equal(gate.order[i], i - 1);
	assert_int_equal(serve_auth_job_verdict(j[FLOOD + 1]), SERVE_AUTH_YES);
	assert_int_equal(serve_auth_job_verdict(j[FLOOD + 2]), SERVE_AUTH_YES);
	assert_int_equal(serve_auth_job_verdict(j[1]), SERVE_AUTH_NO);
	for (int i = 0; i < FLOOD + 3; i++)
		serve_auth_job_release(j[i]);
	serve_auth_stop();
	serve_auth_users(NULL, 0);
}

/* A stop while a slow bcrypt runs: the job is cancelled and told so at once. */
static void test_stop_does_not_wait(void **state)
{
	(void)state;
	char err[128];
	ev.done = 0;
	serve_auth_users(users, 2);
	assert_int_equal(serve_auth_start(err, sizeof(err)), 0);
	unsigned long r0 = serve_auth_bcrypt_runs();
	struct serve_auth_job *j = serve_auth_submit("slow", "x", 1, on_done, NULL);
	assert_non_null(j);
	serve_auth_go(j);
	uint64_t end = clock_mono_ns() + 60 * NS_PER_S;
	while (serve_auth_bcrypt_runs() == r0 && clock_mono_ns() < end)
		sched_yield();
	assert_int_equal(serve_auth_bcrypt_runs(), r0 + 1); /* it is running */
	serve_auth_stop();
	assert_int_equal(ev.done, 1);
	assert_int_equal(serve_auth_job_verdict(j), SERVE_AUTH_CANCELLED);
	serve_auth_job_release(j);
	/* A job submitted to a stopped server is cancelled when it would go. */
	struct serve_auth_job *late = serve_auth_submit("alice", "pw", 1, on_done, NULL);
	assert_non_null(late);
	serve_auth_go(late);
	assert_int_equal(ev.done, 2);
	assert_int_equal(serve_auth_job_verdict(late), SERVE_AUTH_CANCELLED);
	serve_auth_job_release(late);
	serve_auth_users(NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_verdicts_cached),    cmocka_unit_test(test_cache_bounded),
	    cmocka_unit_test(test_async_verdicts),     cmocka_unit_test(test_flood_fair),
	    cmocka_unit_test(test_stop_does_not_wait),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

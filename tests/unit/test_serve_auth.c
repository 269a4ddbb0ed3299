/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_serve_auth.c: basic auth's verdicts: bcrypt checked once per credentials while cached,
 * wrong passwords and unknown users refused, the cache bounded (an evicted verdict is redone). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "tui/metrics/serve_auth.h"

/* "pw" at bcrypt cost 4, the cheapest, so the test spends no time on purpose-made slowness. */
static char hash[] = "$2b$04$JYzmBesUmTi4DAOGMmQOR.jp3tyYcN.zxcl8GeNSpxCWwJqfVs8.a";
static char name[] = "alice";
static const struct serve_user users[] = {{name, hash}};

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
	/* As many other credentials as there are slots push the right one out. */
	for (int i = 0; i < SERVE_AUTH_CACHE_SLOTS; i++) {
		snprintf(pw, sizeof(pw), "guess%d", i);
		assert_false(serve_auth_check("alice", pw));
	}
	assert_int_equal(serve_auth_bcrypt_runs(), r0 + SERVE_AUTH_CACHE_SLOTS);
	assert_true(serve_auth_check("alice", "pw"));
	assert_int_equal(serve_auth_bcrypt_runs(), r0 + SERVE_AUTH_CACHE_SLOTS + 1);
	serve_auth_users(NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_verdicts_cached),
	    cmocka_unit_test(test_cache_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

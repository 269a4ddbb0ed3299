/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_pmd_sleep.c: the OVS adaptive sleep policy on scripted bursts (docs/pmd.md §1.3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine/pmd/pmd_sleep.h"

/* One iteration as pmd_thread.c drives it: bursts, then sleep, then advance.
 * Returns the sleep (us) the iteration made. */
static uint32_t iter(struct pmd_sleep *s, uint32_t max, uint32_t inc, const unsigned *bursts,
		     int nb)
{
	for (int i = 0; i < nb; i++)
		pmd_sleep_note_burst(s, bursts[i]);
	uint32_t d = pmd_sleep_duration(s, max);
	pmd_sleep_advance(s, max, inc);
	return d;
}

static uint32_t light(struct pmd_sleep *s, uint32_t max)
{
	static const unsigned none[1] = {0};
	return iter(s, max, PMD_SLEEP_INC_US, none, 1);
}

static void test_ramp_and_reset(void **state)
{
	struct pmd_sleep s;
	static const unsigned heavy[1] = {16};
	(void)state;
	pmd_sleep_init(&s);
	/* From 0 the first light iteration does not sleep, then 1, 2, 3 ... */
	assert_int_equal(light(&s, 50), 0);
	for (uint32_t want = 1; want <= 50; want++)
		assert_int_equal(light(&s, 50), want);
	assert_int_equal(light(&s, 50), 50); /* held at max */
	/* A burst of 16 resets at once: that iteration does not sleep, leaves 1. */
	assert_int_equal(iter(&s, 50, 1, heavy, 1), 0);
	assert_int_equal(s.sleep_us, 1);
	assert_int_equal(light(&s, 50), 1);
	assert_int_equal(light(&s, 50), 2);
}

static void test_ramp_to_50_requests_1275_us(void **state)
{
	struct pmd_sleep s;
	uint64_t total = 0;
	int iters = 0;
	(void)state;
	pmd_sleep_init(&s);
	light(&s, 50); /* the 0 iteration */
	while (s.sleep_us < 50 || total < 1275) {
		total += light(&s, 50);
		iters++;
		if (iters > 100)
			break;
	}
	/* §1.3 derived: 50 low-load iterations and 1275 us of requested sleep. */
	assert_int_equal(iters, 50);
	assert_int_equal(total, 1275);
}

static void test_per_rxq_not_sum(void **state)
{
	struct pmd_sleep s;
	static const unsigned four15[4] = {15, 15, 15, 15};
	static const unsigned one16[4] = {3, 16, 0, 2};
	(void)state;
	pmd_sleep_init(&s);
	for (int i = 0; i < 10; i++)
		light(&s, 100);
	assert_int_equal(s.sleep_us, 10);
	/* Four rxqs of 15 (60 packets) still sleep. */
	assert_int_equal(iter(&s, 100, 1, four15, 4), 10);
	assert_int_equal(s.sleep_us, 11);
	/* One of 16 resets; a later small burst does not undo it. */
	assert_int_equal(iter(&s, 100, 1, one16, 4), 0);
	assert_int_equal(s.sleep_us, 1);
	/* 15 never resets, whatever comes before it. */
	static const unsigned b15[1] = {15};
	assert_int_equal(iter(&s, 100, 1, b15, 1), 1);
}

static void test_lower_max_mid_sleep(void **state)
{
	struct pmd_sleep s;
	(void)state;
	pmd_sleep_init(&s);
	for (int i = 0; i < 100; i++)
		light(&s, 500);
	assert_int_equal(s.sleep_us, 100);
	/* Lowered to 40: this iteration still sleeps the old 100 once, then 40. */
	assert_int_equal(light(&s, 40), 100);
	assert_int_equal(s.sleep_us, 40);
	assert_int_equal(light(&s, 40), 40);
	assert_int_equal(light(&s, 40), 40);
}

static void test_max_zero_disables_next_iteration(void **state)
{
	struct pmd_sleep s;
	(void)state;
	pmd_sleep_init(&s);
	for (int i = 0; i < 30; i++)
		light(&s, 500);
	assert_int_equal(s.sleep_us, 30);
	/* The next iteration reads max 0: no sleep, and sleep_time goes to 0. */
	assert_int_equal(light(&s, 0), 0);
	assert_int_equal(s.sleep_us, 0);
	assert_int_equal(light(&s, 0), 0);
	/* Switched on again: ramps from scratch. */
	assert_int_equal(light(&s, 500), 0);
	assert_int_equal(light(&s, 500), 1);
}

static void test_inc_10_first_patch(void **state)
{
	struct pmd_sleep s;
	(void)state;
	pmd_sleep_init(&s);
	assert_int_equal(iter(&s, 50, 10, (const unsigned[]){0}, 1), 0);
	assert_int_equal(iter(&s, 50, 10, (const unsigned[]){0}, 1), 10);
	assert_int_equal(iter(&s, 50, 10, (const unsigned[]){0}, 1), 20);
	for (int i = 0; i < 3; i++)
		iter(&s, 50, 10, (const unsigned[]){0}, 1);
	assert_int_equal(s.sleep_us, 50);
	/* Never beyond max, even when inc does not divide it. */
	pmd_sleep_init(&s);
	for (int i = 0; i < 10; i++)
		iter(&s, 25, 10, (const unsigned[]){0}, 1);
	assert_int_equal(s.sleep_us, 25);
}

static void test_max_clamped(void **state)
{
	(void)state;
	assert_int_equal(pmd_sleep_max_us(0), 0);
	assert_int_equal(pmd_sleep_max_us(-5), 0);
	assert_int_equal(pmd_sleep_max_us(500), 500);
	assert_int_equal(pmd_sleep_max_us(10000), 10000);
	assert_int_equal(pmd_sleep_max_us(20000), PMD_MAX_SLEEP_US);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ramp_and_reset),
	    cmocka_unit_test(test_ramp_to_50_requests_1275_us),
	    cmocka_unit_test(test_per_rxq_not_sum),
	    cmocka_unit_test(test_lower_max_mid_sleep),
	    cmocka_unit_test(test_max_zero_disables_next_iteration),
	    cmocka_unit_test(test_inc_10_first_patch),
	    cmocka_unit_test(test_max_clamped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

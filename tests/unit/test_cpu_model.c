/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_cpu_model.c: the governor model, slowdown and CPU% arithmetic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/clock.h"
#include "engine/engine.h"

#define FMIN CPU_EMU_FMIN_MHZ
#define FMAX CPU_EMU_FMAX_MHZ

static void test_performance_is_fmax_powersave_fmin(void **state)
{
	(void)state;
	for (double load = 0; load <= 100; load += 25) {
		assert_int_equal(cpu_gov_next_freq(GOV_PERFORMANCE, load, load / 100, FMIN, FMAX),
				 FMAX);
		assert_int_equal(cpu_gov_next_freq(GOV_POWERSAVE, load, load / 100, FMIN, FMAX),
				 FMIN);
	}
}

static void test_ondemand_ramps_up_and_down(void **state)
{
	(void)state;
	/* Idle: fmin. Above the up threshold: straight to fmax. */
	assert_int_equal(cpu_gov_next_freq(GOV_ONDEMAND, 0, 0, FMIN, FMAX), FMIN);
	assert_int_equal(cpu_gov_next_freq(GOV_ONDEMAND, 81, 0, FMIN, FMAX), FMAX);
	assert_int_equal(cpu_gov_next_freq(GOV_ONDEMAND, 100, 0, FMIN, FMAX), FMAX);
	/* In between: proportional, fmin + load * (fmax - fmin) / 100. */
	assert_int_equal(cpu_gov_next_freq(GOV_ONDEMAND, 50, 0, FMIN, FMAX),
			 FMIN + (FMAX - FMIN) / 2);
	/* Monotonic in load. */
	uint32_t prev = 0;
	for (int load = 0; load <= 100; load++) {
		uint32_t f = cpu_gov_next_freq(GOV_ONDEMAND, load, 0, FMIN, FMAX);
		assert_true(f >= prev);
		prev = f;
	}
}

static void test_schedutil_follows_util_with_margin(void **state)
{
	(void)state;
	assert_int_equal(cpu_gov_next_freq(GOV_SCHEDUTIL, 0, 0, FMIN, FMAX), FMIN);
	/* 1.25 * 3000 * 0.6 = 2250 */
	assert_int_equal(cpu_gov_next_freq(GOV_SCHEDUTIL, 0, 0.6, FMIN, FMAX), 2250);
	assert_int_equal(cpu_gov_next_freq(GOV_SCHEDUTIL, 0, 0.9, FMIN, FMAX), FMAX);
}

static void test_util_decay_halflife(void **state)
{
	(void)state;
	/* One half-life of full load from 0 gives 0.5; of no load from 1 gives 0.5. */
	assert_float_equal(cpu_util_decay(0.0, 1.0, CPU_PELT_HALFLIFE_NS), 0.5, 1e-9);
	assert_float_equal(cpu_util_decay(1.0, 0.0, CPU_PELT_HALFLIFE_NS), 0.5, 1e-9);
	/* Loads outside 0..1 are clamped. */
	assert_float_equal(cpu_util_decay(0.0, 7.0, CPU_PELT_HALFLIFE_NS), 0.5, 1e-9);
	/* Long enough converges. */
	double u = 0;
	for (int i = 0; i < 100; i++)
		u = cpu_util_decay(u, 1.0, CPU_GOV_PERIOD_NS);
	assert_true(u > 0.99);
}

static void test_slowdown(void **state)
{
	struct cpu_emu cpus[2] = {0};
	struct cpu_model m = {
	    .count = 2, .cpus = cpus, .emulated = true, .fmin_mhz = FMIN, .fmax_mhz = FMAX};
	(void)state;
	atomic_store(&cpus[0].freq_mhz, FMAX);
	atomic_store(&cpus[1].freq_mhz, 1500);
	assert_float_equal(cpu_slowdown(&m, 0), 1.0, 1e-9);
	assert_float_equal(cpu_slowdown(&m, 1), 2.0, 1e-9);
	assert_float_equal(cpu_slowdown(&m, 5), 1.0, 1e-9); /* out of range: no stretch */
	m.emulated = false; /* host cpufreq in force */
	assert_float_equal(cpu_slowdown(&m, 1), 1.0, 1e-9);
	assert_int_equal(cpu_stretch(&m, 1, 1000), 0);
}

static void test_cpu_pct(void **state)
{
	(void)state;
	assert_float_equal(engine_cpu_pct(0, 0), 0.0, 1e-12);
	assert_float_equal(engine_cpu_pct(5, 0), 0.0, 1e-12);
	assert_float_equal(engine_cpu_pct(500 * NS_PER_MS, NS_PER_S), 50.0, 1e-9);
	assert_float_equal(engine_cpu_pct(NS_PER_S, NS_PER_S), 100.0, 1e-9);
	assert_float_equal(engine_cpu_pct(1, 3), 100.0 / 3.0, 1e-9);
}

static void test_governor_names(void **state)
{
	(void)state;
	for (int g = 0; g < GOV_COUNT; g++)
		assert_int_equal(cpu_governor_parse(cpu_governor_name(g)), g);
	assert_int_equal(cpu_governor_parse("conservative"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_performance_is_fmax_powersave_fmin),
	    cmocka_unit_test(test_ondemand_ramps_up_and_down),
	    cmocka_unit_test(test_schedutil_follows_util_with_margin),
	    cmocka_unit_test(test_util_decay_halflife),
	    cmocka_unit_test(test_slowdown),
	    cmocka_unit_test(test_cpu_pct),
	    cmocka_unit_test(test_governor_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_knob.c: knob parsing, range checks, messages and the engine's knob setter. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"

static void test_find(void **state)
{
	(void)state;
	assert_int_equal(knob_find("pmd.maxsleep_us"), K_PMD_MAXSLEEP_US);
	assert_int_equal(knob_find("cpu.governor"), K_CPU_GOVERNOR);
	assert_int_equal(knob_find("pmd.maxsleep"), -1);
	assert_int_equal(knob_find(""), -1);
}

static void test_table_names_unique_and_defaults_valid(void **state)
{
	(void)state;
	for (int i = 0; i < K_COUNT; i++) {
		const struct knob_def *d = &knob_table[i];
		assert_non_null(d->name);
		assert_non_null(d->help);
		assert_true(d->def >= d->min && d->def <= d->max);
		for (int j = i + 1; j < K_COUNT; j++)
			assert_string_not_equal(d->name, knob_table[j].name);
		if (d->type == KNOB_INT && d->pow2)
			assert_int_equal(d->def & (d->def - 1), 0);
	}
}

static void test_parse_int_range(void **state)
{
	char err[256];
	int64_t v = -1;
	(void)state;
	assert_int_equal(knob_parse(K_PMD_MAXSLEEP_US, "500", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 500);
	assert_int_equal(knob_parse(K_PMD_MAXSLEEP_US, "0", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 0);
	assert_int_equal(knob_parse(K_PMD_MAXSLEEP_US, "10000", &v, err, sizeof(err)), 0);
	assert_int_equal(knob_parse(K_PMD_MAXSLEEP_US, "10001", &v, err, sizeof(err)),
			 KNOB_ERR_USAGE);
	assert_non_null(strstr(err, "0 to 10000 us"));
	assert_int_equal(knob_parse(K_PMD_MAXSLEEP_US, "-1", &v, err, sizeof(err)), KNOB_ERR_USAGE);
	assert_int_equal(knob_parse(K_PMD_MAXSLEEP_US, "12abc", &v, err, sizeof(err)),
			 KNOB_ERR_USAGE);
	assert_non_null(strstr(err, "not a whole number"));
	assert_int_equal(knob_parse(K_PMD_MAXSLEEP_US, "", &v, err, sizeof(err)), KNOB_ERR_USAGE);
	assert_int_equal(
	    knob_parse(K_PMD_MAXSLEEP_US, "99999999999999999999999", &v, err, sizeof(err)),
	    KNOB_ERR_USAGE);
}

/* rq_affinity takes 0 to UINT_MAX as the kernel's file does, but only 0 to 2 do something:
 * the range shown (help, --list-knobs, docs) is 0 to 2, the refusal names both. */
static void test_range_effect_max(void **state)
{
	char buf[128], err[256];
	int64_t v;
	(void)state;
	assert_string_equal(knob_range_text(K_BLK_RQ_AFFINITY, buf, sizeof(buf)), "0 to 2");
	assert_int_equal(knob_parse(K_BLK_RQ_AFFINITY, "3", &v, err, sizeof(err)), 0);
	assert_int_equal(knob_parse(K_BLK_RQ_AFFINITY, "4294967296", &v, err, sizeof(err)),
			 KNOB_ERR_USAGE);
	assert_string_equal(err, "blk.rq_affinity: 4294967296 is out of range (valid: 0 to 2; up "
				 "to 4294967295 accepted and ignored)");
	assert_string_equal(knob_range_text(K_PMD_MAXSLEEP_US, buf, sizeof(buf)), "0 to 10000 us");
}

static void test_parse_pow2_and_allowed(void **state)
{
	char err[256];
	int64_t v;
	(void)state;
	assert_int_equal(knob_parse(K_PMD_RXQ_SIZE, "1024", &v, err, sizeof(err)), 0);
	assert_int_equal(knob_parse(K_PMD_RXQ_SIZE, "1000", &v, err, sizeof(err)), KNOB_ERR_USAGE);
	assert_non_null(strstr(err, "power of two"));
	assert_int_equal(knob_parse(K_EST_TICK_CHAINS, "48", &v, err, sizeof(err)), 0);
	assert_int_equal(knob_parse(K_EST_TICK_CHAINS, "1", &v, err, sizeof(err)), 0);
	assert_int_equal(knob_parse(K_EST_TICK_CHAINS, "2", &v, err, sizeof(err)), KNOB_ERR_USAGE);
	assert_non_null(strstr(err, "48 or 1"));
}

static void test_parse_enum_bool(void **state)
{
	char err[256], buf[64];
	int64_t v;
	(void)state;
	assert_int_equal(knob_parse(K_CPU_GOVERNOR, "ondemand", &v, err, sizeof(err)), 0);
	assert_int_equal(v, GOV_ONDEMAND);
	assert_string_equal(knob_format(K_CPU_GOVERNOR, v, buf, sizeof(buf)), "ondemand");
	assert_int_equal(knob_parse(K_CPU_GOVERNOR, "turbo", &v, err, sizeof(err)), KNOB_ERR_USAGE);
	assert_non_null(strstr(err, "performance|powersave|ondemand|schedutil"));
	assert_int_equal(knob_parse(K_PMD_ENABLED, "on", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 1);
	assert_int_equal(knob_parse(K_PMD_ENABLED, "no", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 0);
	assert_int_equal(knob_parse(K_PMD_ENABLED, "maybe", &v, err, sizeof(err)), KNOB_ERR_USAGE);
}

static void test_engine_assign(void **state)
{
	char err[256];
	struct engine *eng = engine_new();
	(void)state;
	assert_int_equal(engine_knob_assign(eng, "pmd.maxsleep_us=250", err, sizeof(err)), 0);
	assert_int_equal(engine_knob(eng, K_PMD_MAXSLEEP_US), 250);
	assert_int_equal(engine_knob_assign(eng, " gen.pattern = bursty ", err, sizeof(err)), 0);
	assert_int_equal(engine_knob(eng, K_GEN_PATTERN), 1);
	assert_int_equal(engine_knob_assign(eng, "nope.knob=1", err, sizeof(err)), KNOB_ERR_USAGE);
	assert_non_null(strstr(err, "unknown knob 'nope.knob'"));
	assert_int_equal(engine_knob_assign(eng, "pmd.maxsleep_us", err, sizeof(err)),
			 KNOB_ERR_USAGE);
	assert_int_equal(engine_knob_assign(eng, "pmd.maxsleep_us=", err, sizeof(err)),
			 KNOB_ERR_USAGE);
	/* A refused value leaves the old one in place. */
	assert_int_equal(engine_knob_assign(eng, "pmd.maxsleep_us=99999", err, sizeof(err)),
			 KNOB_ERR_USAGE);
	assert_int_equal(engine_knob(eng, K_PMD_MAXSLEEP_US), 250);
	engine_free(eng);
}

/* A start-only knob set before the start shapes the engine. Refusing one while it
 * runs is the source's part (tests/scenario/test_source_knobs.c). */
static void test_start_only_read_at_start(void **state)
{
	char err[256];
	struct engine *eng = engine_new();
	(void)state;
	assert_int_equal(engine_knob_assign(eng, "cpu.count=4", err, sizeof(err)), 0);
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	assert_int_equal(eng->cpu.count, 4);
	assert_int_equal(engine_knob(eng, K_CPU_COUNT), 4);
	engine_free(eng);
}

/* A live write goes to its owner's subsys_ops (knob_def.owner): every owner has a row,
 * and every live knob besides the enable knobs an owner that can apply it. */
static void test_every_owner_has_ops(void **state)
{
	(void)state;
	for (int k = 0; k < K_COUNT; k++) {
		const struct subsys_ops *ops = engine_subsys_get(knob_table[k].owner);
		assert_non_null(ops);
		assert_int_equal(ops->id, knob_table[k].owner);
		assert_non_null(ops->knob_apply);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_find),
	    cmocka_unit_test(test_table_names_unique_and_defaults_valid),
	    cmocka_unit_test(test_parse_int_range),
	    cmocka_unit_test(test_range_effect_max),
	    cmocka_unit_test(test_parse_pow2_and_allowed),
	    cmocka_unit_test(test_parse_enum_bool),
	    cmocka_unit_test(test_engine_assign),
	    cmocka_unit_test(test_start_only_read_at_start),
	    cmocka_unit_test(test_every_owner_has_ops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

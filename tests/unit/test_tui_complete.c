/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_tui_complete.c: Tab in the ':' prompt: knob names, enum and bool values, both forms
 * of "set" the prompt runs ("NAME=VALUE" and "NAME VALUE"), and never past the buffer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/knob.h"
#include "tui/console/ui.h"

/* Complete `in` in a buffer of cap bytes; returns the candidates, the line in *out. */
static int tab(const char *in, size_t cap, char *out, char *hint)
{
	char line[UI_INPUT_MAX];
	assert_true(cap <= sizeof(line));
	memset(line, 'X', sizeof(line));
	snprintf(line, cap, "%s", in);
	int n = ui_input_complete(line, cap, hint, 512);
	assert_non_null(memchr(line, '\0', cap)); /* terminated inside its buffer */
	strcpy(out, line);
	return n;
}

static void test_names(void **state)
{
	char out[UI_INPUT_MAX], hint[512];
	(void)state;
	assert_int_equal(tab("", sizeof(out), out, hint), K_COUNT);
	assert_string_equal(out, "");
	assert_int_equal(strncmp(hint, knob_table[0].name, strlen(knob_table[0].name)), 0);
	assert_int_equal(tab("se", sizeof(out), out, hint), 1);
	assert_string_equal(out, "set ");
	assert_int_equal(tab("set pmd.maxs", sizeof(out), out, hint), 1);
	assert_string_equal(out, "set pmd.maxsleep_us=");
	assert_string_equal(hint, "");
	assert_int_equal(tab("pmd.maxs", sizeof(out), out, hint), 1);
	assert_string_equal(out, "pmd.maxsleep_us=");
	/* Ambiguous: the common prefix, and the candidates as the hint. */
	assert_int_equal(tab("set pmd.r", sizeof(out), out, hint), 2);
	assert_string_equal(out, "set pmd.rxq");
	assert_string_equal(hint, "pmd.rxq_size pmd.rxqs");
	assert_int_equal(tab("set pmd.rxqs", sizeof(out), out, hint), 1);
	assert_string_equal(out, "set pmd.rxqs=");
	assert_int_equal(tab("set no.such", sizeof(out), out, hint), 0);
	assert_string_equal(out, "set no.such");
}

static void test_values(void **state)
{
	char out[UI_INPUT_MAX], hint[512];
	(void)state;
	assert_int_equal(tab("set cpu.governor=ond", sizeof(out), out, hint), 1);
	assert_string_equal(out, "set cpu.governor=ondemand");
	assert_int_equal(tab("set cpu.governor=p", sizeof(out), out, hint), 2);
	assert_string_equal(out, "set cpu.governor=p");
	assert_string_equal(hint, "performance powersave");
	assert_int_equal(tab("cpu.governor=", sizeof(out), out, hint), 4);
	assert_int_equal(tab("set gen.pattern=on", sizeof(out), out, hint), 1);
	assert_string_equal(out, "set gen.pattern=on-off");
	assert_int_equal(tab("set est.enabled=of", sizeof(out), out, hint), 1);
	assert_string_equal(out, "set est.enabled=off");
	assert_int_equal(tab("set est.enabled=", sizeof(out), out, hint), 2);
	assert_string_equal(hint, "off on");
	/* Integers are not completed, and the line stays as typed. */
	assert_int_equal(tab("set pmd.maxsleep_us=5", sizeof(out), out, hint), 0);
	assert_string_equal(out, "set pmd.maxsleep_us=5");
	assert_int_equal(tab("set cpu.governor=zz", sizeof(out), out, hint), 0);
	assert_string_equal(out, "set cpu.governor=zz");
}

/* The prompt runs "set NAME VALUE" as NAME=VALUE; Tab completes that form too. */
static void test_space_form(void **state)
{
	char out[UI_INPUT_MAX], hint[512];
	(void)state;
	assert_int_equal(tab("set cpu.governor sched", sizeof(out), out, hint), 1);
	assert_string_equal(out, "set cpu.governor schedutil");
	assert_int_equal(tab("pmd.topology c", sizeof(out), out, hint), 1);
	assert_string_equal(out, "pmd.topology chain");
	assert_int_equal(tab("set blk.polled ", sizeof(out), out, hint), 2);
	assert_string_equal(hint, "off on");
}

static void test_small_buffer(void **state)
{
	char out[UI_INPUT_MAX], hint[512];
	(void)state;
	tab("set pmd.maxs", 16, out, hint);
	assert_string_equal(out, "set pmd.maxslee");
	tab("set cpu.governor=sch", 22, out, hint);
	assert_string_equal(out, "set cpu.governor=sche");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_values),
	    cmocka_unit_test(test_space_form),
	    cmocka_unit_test(test_small_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

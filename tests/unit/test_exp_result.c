/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_exp_result.c: a result table is a view of its JSON rows (tui/exp/exp_result.h): each
 * cell is the row's value at its column's key, a null is '-' (never 0), the row's own text
 * stands in where given, and a UTF-8 "≥" pads as the one column it takes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tui/exp/exp_result.h"

/* What f wrote on stdout. */
static void capture(void (*f)(const json_t *), const json_t *row, char *buf, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDOUT_FILENO);
	fflush(stdout);
	dup2(fileno(tmp), STDOUT_FILENO);
	f(row);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(tmp);
	size_t n = fread(buf, 1, len - 1, tmp);
	buf[n] = 0;
	fclose(tmp);
}

static const struct exp_col cols[] = {{"name", "name", -6, NULL},
				      {"pct", "pct%", 7, "%.1f"},
				      {"n", "n", 4, NULL},
				      {"fig", "fig", 8, NULL},
				      {NULL, "note", 6, NULL}};

static void head(const json_t *row)
{
	exp_table_row(cols, 5, row, NULL, NULL, NULL);
}

static void plain(const json_t *row)
{
	exp_table_row(cols, 5, row, NULL, NULL, "  <-");
}

static void given(const json_t *row)
{
	const char *text[5] = {[3] = "\u22655", [4] = "x"};
	exp_table_row(cols, 5, row, text, "hung", NULL);
}

static void test_table(void **state)
{
	char buf[256];
	(void)state;
	json_t *row =
	    json_pack("{s:s, s:f, s:i, s:f}", "name", "a", "pct", 12.345, "n", 3, "fig", 1234.5678);
	capture(head, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "name      pct%    n      fig   note\n");
	capture(plain, row, buf, sizeof(buf));
	assert_string_equal(buf, "a         12.3    3     1235      -  <-\n");
	json_object_set_new(row, "fig", json_null()); /* no figure: '-' or the row's word */
	json_object_set_new(row, "pct", json_real(0.5));
	capture(plain, row, buf, sizeof(buf));
	assert_string_equal(buf, "a          0.5    3        -      -  <-\n");
	capture(given, row, buf, sizeof(buf));
	assert_string_equal(buf, "a          0.5    3       \u22655      x\n");
	json_object_del(row, "n");
	capture(given, row, buf, sizeof(buf));
	assert_string_equal(buf, "a          0.5 hung       \u22655      x\n");
	json_decref(row);
}

static void test_real(void **state)
{
	(void)state;
	json_t *a = exp_real(true, 0), *b = exp_real(false, 7);
	assert_true(json_is_real(a) && json_real_value(a) == 0);
	assert_true(json_is_null(b));
	json_decref(a);
	json_decref(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_table),
					   cmocka_unit_test(test_real)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

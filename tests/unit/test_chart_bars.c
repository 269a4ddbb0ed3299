/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_chart_bars.c: a histogram's horizontal bars: empty bins trimmed at both ends (kept
 * between), bars scaled to the largest bin and never empty for a count, the open last bin
 * labelled as such, UTF-8 and ASCII glyphs, and a row cut with a marker when it is too wide. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/chart_bars.h"

/* A pmd-perf-show cycles/it column, shortened: edges and counts, the last edge ">". */
static const uint64_t edge[] = {499, 716, 1025, 1469, 2104, 3014, 4317, CHART_BARS_OPEN};
static const uint64_t count[] = {0, 0, 10, 0, 40, 1, 0, 0};
#define NB ((int)(sizeof(edge) / sizeof(edge[0])))

static void test_trim(void **state)
{
	struct chart_bars b;
	(void)state;
	chart_bars_make(count, NB, &b);
	assert_int_equal(b.first, 2);
	assert_int_equal(b.last, 5);
	assert_int_equal(b.nrows, 4); /* the empty bin 3 between two stays */
	assert_int_equal(b.max, 40);
	assert_int_equal(b.total, 51);
	assert_int_equal(b.count_w, 2);

	static const uint64_t none[NB];
	chart_bars_make(none, NB, &b);
	assert_int_equal(b.nrows, 0);
	char buf[256];
	assert_string_equal(chart_bars_row(&b, edge, none, 0, 80, true, buf, sizeof(buf)), "");
}

static void test_scale(void **state)
{
	(void)state;
	assert_int_equal(chart_bars_eighths(40, 40, 10), 80);
	assert_int_equal(chart_bars_eighths(10, 40, 10), 20);
	assert_int_equal(chart_bars_eighths(0, 40, 10), 0);
	/* One in a billion still shows. */
	assert_int_equal(chart_bars_eighths(1, 1000000000, 50), 1);
	assert_int_equal(chart_bars_eighths(UINT64_MAX, UINT64_MAX, 50), 400);

	char buf[64];
	assert_string_equal(chart_bars_text(20, 4, true, buf, sizeof(buf)), "### ");
	assert_string_equal(chart_bars_text(1, 4, true, buf, sizeof(buf)), "#   ");
	assert_string_equal(chart_bars_text(0, 4, true, buf, sizeof(buf)), "    ");
	/* 2.5 cells: two full blocks and a half one. */
	assert_string_equal(chart_bars_text(20, 4, false, buf, sizeof(buf)), "\u2588\u2588\u258c ");
	assert_string_equal(chart_bars_text(32, 4, false, buf, sizeof(buf)),
			    "\u2588\u2588\u2588\u2588");
}

static void test_labels(void **state)
{
	char buf[32];
	(void)state;
	assert_string_equal(chart_bars_label(edge, 0, buf, sizeof(buf)), "<= 499");
	assert_string_equal(chart_bars_label(edge, 6, buf, sizeof(buf)), "<= 4317");
	assert_string_equal(chart_bars_label(edge, 7, buf, sizeof(buf)), "> 4317");
	static const uint64_t only[] = {CHART_BARS_OPEN};
	assert_string_equal(chart_bars_label(only, 0, buf, sizeof(buf)), "> 0");
}

static void test_rows(void **state)
{
	struct chart_bars b;
	char buf[512];
	(void)state;
	chart_bars_make(count, NB, &b);
	/* 40 columns: 13 label + 1 + bar + " 40 100.0%" (10): a bar of 16 cells. */
	assert_int_equal(chart_bars_bar_w(&b, 40), 16);
	assert_string_equal(chart_bars_row(&b, edge, count, 0, 40, true, buf, sizeof(buf)),
			    "      <= 1025 ####             10  19.6%");
	assert_string_equal(chart_bars_row(&b, edge, count, 1, 40, true, buf, sizeof(buf)),
			    "      <= 1469                   0   0.0%");
	assert_string_equal(chart_bars_row(&b, edge, count, 2, 40, true, buf, sizeof(buf)),
			    "      <= 2104 ################ 40  78.4%");
	assert_int_equal(strlen(chart_bars_row(&b, edge, count, 3, 40, true, buf, sizeof(buf))),
			 40);
	assert_string_equal(chart_bars_row(&b, edge, count, 4, 40, true, buf, sizeof(buf)), "");

	/* The open end shows when it holds a count, labelled "> edge". */
	static const uint64_t tail[NB] = {0, 5, 0, 0, 0, 0, 0, 5};
	chart_bars_make(tail, NB, &b);
	assert_int_equal(b.nrows, 7);
	assert_string_equal(chart_bars_row(&b, edge, tail, 6, 40, true, buf, sizeof(buf)),
			    "       > 4317 ################# 5  50.0%");
}

static void test_cut(void **state)
{
	struct chart_bars b;
	char buf[512];
	(void)state;
	chart_bars_make(count, NB, &b);
	/* Too narrow for the least bar: cut, the marker in the last column. */
	const char *r = chart_bars_row(&b, edge, count, 2, 24, true, buf, sizeof(buf));
	assert_int_equal(strlen(r), 24);
	assert_string_equal(r, "      <= 2104 ######## >");
}

static void test_columns(void **state)
{
	struct chart_bars b;
	uint64_t many[20];
	(void)state;
	for (int i = 0; i < 20; i++)
		many[i] = (uint64_t)(i + 1) * 10; /* up to 200: 3 digits */
	chart_bars_make(many, 20, &b);
	assert_int_equal(b.nrows, 20);
	/* Fits in height: one column. */
	assert_int_equal(chart_bars_columns(&b, 80, 20), 1);
	/* Too tall at 80: two columns of 40 leave a bar of 39 - 13 - 1 - 1 - 3 - 7 = 14 cells. */
	assert_int_equal(chart_bars_columns(&b, 80, 15), 2);
	/* At 60 two columns would leave 4: one, cut. */
	assert_int_equal(chart_bars_columns(&b, 60, 8), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_trim),   cmocka_unit_test(test_scale),
	    cmocka_unit_test(test_labels), cmocka_unit_test(test_rows),
	    cmocka_unit_test(test_cut),	   cmocka_unit_test(test_columns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_chart.c: the graphs' geometry: nice scales, filled plots in braille and ASCII, the
 * goal line on the row of its value, knob markers and their text, scatter points. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/chart.h"

static void test_scale_nice(void **state)
{
	struct chart_scale s;
	(void)state;
	chart_scale_make(0, 7.3, 4, 0, &s);
	assert_float_equal(s.lo, 0, 1e-12);
	assert_float_equal(s.step, 2, 1e-12);
	assert_float_equal(s.hi, 8, 1e-12);
	assert_int_equal(s.nticks, 5);
	/* Not more intervals than asked, whatever the range. */
	for (double top = 0.013; top < 1e7; top *= 3.7) {
		chart_scale_make(0, top, 4, 0, &s);
		assert_true((s.hi - s.lo) / s.step <= 4 + 1e-9);
		assert_true(s.hi >= top);
		assert_true(s.lo <= 0);
	}
	/* The floor pulls the axis down to 0; flat data still gets a height. */
	chart_scale_make(40, 60, 4, 0, &s);
	assert_float_equal(s.lo, 0, 1e-12);
	chart_scale_make(0, 0, 4, 0, &s);
	assert_true(s.hi > s.lo);
	chart_scale_make(NAN, 5, 4, 0, &s);
	assert_true(s.hi > s.lo);
}

/* Count set braille dots (or ASCII halves) in the grid. */
static int dots(const struct chart_grid *g)
{
	int n = 0;
	for (int i = 0; i < g->w * g->h; i++) {
		if (g->cells[i].kind != CELL_DATA)
			continue;
		if (g->ascii)
			n += g->cells[i].bits;
		else
			n += __builtin_popcount(g->cells[i].bits);
	}
	return n;
}

static void test_plot_braille(void **state)
{
	struct chart_grid g;
	struct chart_scale s = {0, 100, 25, 5};
	double v[40];
	(void)state;
	for (int i = 0; i < 40; i++)
		v[i] = 50;
	chart_grid_init(&g, 10, 4, false); /* 20 slots, 16 dots high */
	assert_int_equal(chart_grid_plot(&g, v, 40, &s), 20);
	/* Half height over all 20 slots: 8 dots each. */
	assert_int_equal(dots(&g), 20 * 8);
	/* The top two rows empty, the bottom two full (U+28FF). */
	char row[128];
	assert_string_equal(chart_grid_row_text(&g, 0, row, sizeof(row)), "          ");
	assert_string_equal(chart_grid_row_text(&g, 3, row, sizeof(row)),
			    "\u28ff\u28ff\u28ff\u28ff\u28ff\u28ff\u28ff\u28ff\u28ff\u28ff");
	chart_grid_free(&g);

	/* Newest at the right edge; a tiny value still shows; nothing drawn for 0. */
	double w[3] = {0, 0.01, 100};
	chart_grid_init(&g, 10, 4, false);
	chart_grid_plot(&g, w, 3, &s);
	assert_int_equal(dots(&g), 0 + 1 + 16);
	/* The last cell's bottom row: the left column's lowest dot (0.01) and the whole
	 * right column (100). */
	assert_int_equal(g.cells[3 * 10 + 9].bits, 0x40 | 0x08 | 0x10 | 0x20 | 0x80);
	chart_grid_free(&g);
}

static void test_plot_ascii(void **state)
{
	struct chart_grid g;
	struct chart_scale s = {0, 10, 5, 3};
	double v[] = {10, 5, 2.5, 0};
	char row[64];
	(void)state;
	chart_grid_init(&g, 4, 2, true); /* 4 slots, 4 halves high */
	chart_grid_plot(&g, v, 4, &s);
	assert_string_equal(chart_grid_row_text(&g, 0, row, sizeof(row)), "#   ");
	assert_string_equal(chart_grid_row_text(&g, 1, row, sizeof(row)), "##. ");
	/* ASCII only, under LANG=C. */
	for (int y = 0; y < g.h; y++)
		for (const char *p = chart_grid_row_text(&g, y, row, sizeof(row)); *p; p++)
			assert_true((unsigned char)*p < 0x80);
	chart_grid_free(&g);
}

static void test_goal_line(void **state)
{
	struct chart_grid g;
	struct chart_scale s = {0, 8, 2, 5}; /* 4 rows of 2 each */
	double v[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	char row[128];
	(void)state;
	chart_grid_init(&g, 10, 4, true);
	chart_grid_plot(&g, v, 10, &s);
	assert_int_equal(chart_grid_row(&g, &s, 4.8),
			 1); /* 4.8 of 8: the second row from the top */
	assert_int_equal(chart_grid_row(&g, &s, 0), 3);
	assert_int_equal(chart_grid_row(&g, &s, 8), 0);
	assert_int_equal(chart_grid_row(&g, &s, 9), -1);
	chart_grid_goal(&g, &s, 4.8);
	assert_string_equal(chart_grid_row_text(&g, 1, row, sizeof(row)), "----------");
	/* The data keeps its cells: a goal at the data's height goes round it. */
	chart_grid_goal(&g, &s, 0.5);
	assert_string_equal(chart_grid_row_text(&g, 3, row, sizeof(row)), "..........");
	chart_grid_free(&g);
	/* A goal off the scale draws nothing. */
	chart_grid_init(&g, 10, 4, false);
	chart_grid_goal(&g, &s, 12.5);
	for (int i = 0; i < 40; i++)
		assert_int_equal(g.cells[i].kind, CELL_EMPTY);
	chart_grid_free(&g);
}

static void test_marker(void **state)
{
	struct chart_grid g;
	char row[256];
	(void)state;
	chart_grid_init(&g, 30, 3, true);
	/* 5 samples back from the newest: column 24; text to its left (no room right). */
	assert_int_equal(chart_grid_mark(&g, 5, "maxsleep_us=50"), 0);
	for (int y = 0; y < 3; y++)
		assert_int_equal(chart_grid_at(&g, 24, y)->kind, y == 0 ? CELL_MARK : CELL_MARK);
	chart_grid_row_text(&g, 0, row, sizeof(row));
	assert_non_null(strstr(row, "maxsleep_us=50|"));
	/* Room on the right: the text follows the line. */
	assert_int_equal(chart_grid_mark(&g, 28, "s=1"), 0);
	chart_grid_row_text(&g, 0, row, sizeof(row));
	assert_non_null(strstr(row, "|s=1"));
	/* Text never covers text: a third marker between them goes a row down. */
	assert_int_equal(chart_grid_mark(&g, 15, "x=1"), 0);
	chart_grid_row_text(&g, 0, row, sizeof(row));
	assert_null(strstr(row, "x=1"));
	chart_grid_row_text(&g, 1, row, sizeof(row));
	assert_non_null(strstr(row, "x=1"));
	/* Too long for either side of its line: the value alone. */
	assert_int_equal(chart_grid_mark(&g, 20, "governor_long_name=powersave"), 0);
	for (int y = 0; y < 3; y++)
		assert_null(strstr(chart_grid_row_text(&g, y, row, sizeof(row)), "governor_long"));
	chart_grid_row_text(&g, 1, row, sizeof(row));
	assert_int_equal(strncmp(row, "powersave|", 10), 0);
	/* Two knobs in one marker: their values. */
	assert_int_equal(chart_grid_mark(&g, 22, "maxsleep_us=50,timer_slack_ns=1000"), 0);
	chart_grid_row_text(&g, 2, row, sizeof(row));
	assert_non_null(strstr(row, "|50,1000"));
	/* Off the grid: refused. */
	assert_int_equal(chart_grid_mark(&g, 30, "old"), -1);
	chart_grid_free(&g);
	/* Braille: two slots a cell, so 5 back is column 27 of 30. */
	chart_grid_init(&g, 30, 3, false);
	chart_grid_mark(&g, 5, NULL);
	assert_int_equal(chart_grid_at(&g, 27, 1)->kind, CELL_MARK);
	assert_string_equal(chart_grid_at(&g, 27, 1)->glyph, "\u2502");
	chart_grid_free(&g);
}

/* Markers close together merge into one with the newest value and a count; labels never
 * touch (the console printed "count=3000count=2000" and "5000050||50000"). */
static void test_marker_merge(void **state)
{
	struct chart_grid g;
	char row[512];
	(void)state;
	/* ASCII: a slot a column. Changes 1 column apart (3 of them): one line, one label. */
	chart_grid_init(&g, 40, 4, true);
	const int back[] = {3, 4, 5};
	const char *const text[] = {"timer_slack_ns=50000", "timer_slack_ns=50",
				    "timer_slack_ns=1"};
	assert_int_equal(chart_grid_marks(&g, back, text, 3), 1);
	int lines = 0;
	for (int x = 0; x < g.w; x++)
		lines += chart_grid_at(&g, x, 3)->kind == CELL_MARK;
	assert_int_equal(lines, 1);
	assert_int_equal(chart_grid_at(&g, 36, 3)->kind, CELL_MARK); /* at the newest */
	int found = 0;
	for (int y = 0; y < g.h; y++) {
		chart_grid_row_text(&g, y, row, sizeof(row));
		found += strstr(row, "timer_slack_ns=50000 (x3)") != NULL;
		assert_null(strstr(row, "5000050"));
		assert_null(strstr(row, "||"));
	}
	assert_int_equal(found, 1);
	chart_grid_free(&g);
	/* Braille: two slots a cell; 2 slots back apart is 1 column apart: merged too. */
	chart_grid_init(&g, 40, 4, false);
	const int bb[] = {0, 2};
	const char *const bt[] = {"count=3000", "count=2000"};
	assert_int_equal(chart_grid_marks(&g, bb, bt, 2), 1);
	chart_grid_row_text(&g, 0, row, sizeof(row));
	assert_non_null(strstr(row, "count=3000 (x2)"));
	assert_null(strstr(row, "count=2000"));
	chart_grid_free(&g);
	/* Apart: two markers, and their labels keep a blank between them: the older one's runs
	 * right of its line (columns 17-26) and the newer one's would end next to it, left of
	 * its line at column 37: it goes a row down instead. */
	chart_grid_init(&g, 40, 3, true);
	const int fb[] = {2, 23};
	const char *const ft[] = {"count=2000", "count=3000"};
	assert_int_equal(chart_grid_marks(&g, fb, ft, 2), 2);
	for (int y = 0; y < g.h; y++) {
		chart_grid_row_text(&g, y, row, sizeof(row));
		assert_null(strstr(row, "count=3000count"));
		assert_null(strstr(row, "count=2000count"));
	}
	int both = 0;
	for (int y = 0; y < g.h; y++) {
		chart_grid_row_text(&g, y, row, sizeof(row));
		both += (strstr(row, "count=3000") != NULL) + (strstr(row, "count=2000") != NULL);
	}
	assert_int_equal(both, 2);
	chart_grid_free(&g);
}

/* The time axis: seconds back from the origin, "now" at it, labels apart. */
static void test_time_axis(void **state)
{
	char buf[128];
	(void)state;
	chart_time_axis(60, 2, 59, "now", buf, sizeof(buf));
	assert_int_equal((int)strlen(buf), 60);
	assert_string_equal(buf + 57, "now");
	assert_non_null(strstr(buf, "-30s"));
	assert_null(strstr(buf, "s-"));
	/* Frozen: the origin mid-axis, later samples counted forward. */
	chart_time_axis(60, 2, 40, "0s", buf, sizeof(buf));
	assert_int_equal(strncmp(buf + 39, "0s", 2), 0);
	assert_non_null(strstr(buf, "-30s"));
}

static void test_point(void **state)
{
	struct chart_grid g;
	struct chart_scale xs = {0, 100, 20, 6}, ys = {0, 10, 5, 3};
	char row[128];
	(void)state;
	chart_grid_init(&g, 21, 5, true);
	chart_grid_point(&g, &xs, &ys, 0, 0, 'o', "0/1k");
	chart_grid_point(&g, &xs, &ys, 100, 10, '*', "best");
	chart_grid_row_text(&g, 4, row, sizeof(row));
	assert_int_equal(strncmp(row, "o0/1k", 5), 0);
	chart_grid_row_text(&g, 0, row, sizeof(row));
	assert_non_null(strstr(row, "best*")); /* no room right of the edge: left of it */
	chart_grid_free(&g);
}

static void test_fmt_tick(void **state)
{
	char b[32];
	(void)state;
	assert_string_equal(chart_fmt_tick(12.5, 0.5, b, sizeof(b)), "12.5");
	assert_string_equal(chart_fmt_tick(0.05, 0.05, b, sizeof(b)), "0.05");
	assert_string_equal(chart_fmt_tick(100, 20, b, sizeof(b)), "100");
	assert_string_equal(chart_fmt_tick(20000, 5000, b, sizeof(b)), "20k");
	assert_string_equal(chart_fmt_tick(1.5e6, 5e5, b, sizeof(b)), "1.5M");
	assert_string_equal(chart_fmt_tick(-1e-17, 0.5, b, sizeof(b)), "0.0");
}

/* A count axis has whole steps: 2 calibrations give 0 1 2 3, not 0 0.5 1 ... */
static void test_scale_counts(void **state)
{
	struct chart_scale s;
	(void)state;
	for (double top = 0; top <= 40; top += 0.35) {
		chart_scale_counts(top * 1.05, 5, &s);
		assert_true(s.step >= 1 && s.step == floor(s.step));
		assert_true(s.hi >= top && s.lo == 0);
		assert_true(s.nticks - 1 <= 5);
	}
	chart_scale_counts(2.1, 5, &s);
	assert_true(s.step == 1 && s.hi == 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_scale_nice), cmocka_unit_test(test_plot_braille),
	    cmocka_unit_test(test_plot_ascii), cmocka_unit_test(test_goal_line),
	    cmocka_unit_test(test_marker),     cmocka_unit_test(test_marker_merge),
	    cmocka_unit_test(test_time_axis),  cmocka_unit_test(test_point),
	    cmocka_unit_test(test_fmt_tick),   cmocka_unit_test(test_scale_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_chart_place.c: label boxes of crowded pictures never intersect, stay in their area,
 * and all find a place when there is room for them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "tui/exp/chart_place.h"

static void check_apart(const struct chart_lbox *b, size_t n, const struct chart_area *a)
{
	for (size_t i = 0; i < n; i++) {
		if (!b[i].shown)
			continue;
		assert_true(b[i].x >= a->x && b[i].y >= a->y);
		assert_true(b[i].x + b[i].w <= a->x + a->w + 1e-9);
		assert_true(b[i].y + b[i].h <= a->y + a->h + 1e-9);
		for (size_t j = i + 1; j < n; j++)
			if (b[j].shown && chart_lbox_overlap(&b[i], &b[j]))
				fail_msg(
				    "labels %zu (%.0f,%.0f %.0fx%.0f) and %zu (%.0f,%.0f) overlap",
				    i, b[i].x, b[i].y, b[i].w, b[i].h, j, b[j].x, b[j].y);
	}
}

static size_t shown(const struct chart_lbox *b, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += b[i].shown;
	return k;
}

/* The sweep's case: every point on the drop-0 line, close together, long labels. */
static void test_row_of_points(void **state)
{
	struct chart_lbox b[16];
	struct chart_area a = {80, 56, 790, 440};
	(void)state;
	for (size_t i = 0; i < 16; i++)
		b[i] =
		    (struct chart_lbox){.ax = 150 + 12.0 * (double)i, .ay = 494, .w = 260, .h = 16};
	chart_place_labels(b, 16, &a, CHART_PLACE_AROUND);
	check_apart(b, 16, &a);
	assert_int_equal(shown(b, 16), 16);
}

/* All on one spot, and a random cluster. */
static void test_one_spot_and_cluster(void **state)
{
	struct chart_lbox b[40];
	struct chart_area a = {0, 0, 900, 560};
	(void)state;
	for (size_t i = 0; i < 24; i++)
		b[i] = (struct chart_lbox){.ax = 450, .ay = 280, .w = 120, .h = 15};
	chart_place_labels(b, 24, &a, CHART_PLACE_AROUND);
	check_apart(b, 24, &a);
	assert_int_equal(shown(b, 24), 24);
	srand(7);
	for (size_t i = 0; i < 40; i++)
		b[i] = (struct chart_lbox){.ax = 300 + rand() % 60,
					   .ay = 200 + rand() % 40,
					   .w = 80 + rand() % 200,
					   .h = 15};
	chart_place_labels(b, 40, &a, CHART_PLACE_AROUND);
	check_apart(b, 40, &a);
	assert_int_equal(shown(b, 40), 40);
}

/* More labels than the area holds: those shown still never meet; corners and edges. */
static void test_too_many(void **state)
{
	struct chart_lbox b[200];
	struct chart_area a = {10, 10, 300, 100};
	(void)state;
	for (size_t i = 0; i < 200; i++)
		b[i] = (struct chart_lbox){
		    .ax = i % 2 ? 10 : 310, .ay = i % 3 ? 10 : 110, .w = 90, .h = 14};
	chart_place_labels(b, 200, &a, CHART_PLACE_AROUND);
	check_apart(b, 200, &a);
	assert_true(shown(b, 200) > 0 && shown(b, 200) < 200);
}

/* ab's bars: 32 values' labels wider than their slots go a row lower. */
static void test_bar_labels(void **state)
{
	struct chart_lbox b[32];
	struct chart_area a = {2, 240, 896, 180};
	(void)state;
	for (size_t i = 0; i < 32; i++)
		b[i] = (struct chart_lbox){
		    .ax = 80 + 790.0 / 32 * ((double)i + 0.5), .ay = 240, .w = 150, .h = 15};
	chart_place_labels(b, 32, &a, CHART_PLACE_BELOW);
	check_apart(b, 32, &a);
	assert_int_equal(shown(b, 32), 32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_row_of_points),
	    cmocka_unit_test(test_one_spot_and_cluster),
	    cmocka_unit_test(test_too_many),
	    cmocka_unit_test(test_bar_labels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_tui_figures.c: every column heading the rows print is a label of the figure table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/snapshot.h"
#include "tui/figures.h"
#include "tui/rowfmt.h"
#include "tui/rowfmt_host.h"
#include "tui/rowfmt_sleep.h"

/* The longest label of view v that the heading has at p, ending at a space or the end. */
static size_t label_at(enum fig_view v, const char *p)
{
	size_t best = 0;
	for (size_t i = 0; i < figure_count; i++) {
		size_t n = strlen(figure_table[i].label);
		if (figure_table[i].view == v && n > best &&
		    strncmp(p, figure_table[i].label, n) == 0 && (p[n] == ' ' || p[n] == '\0'))
			best = n;
	}
	return best;
}

/*
 * Walk the heading word by word: each must start a label of the view (a label may be
 * several words, "rx pps"), or the test names the word the table lacks.
 */
static void assert_heading_covered(enum fig_view v, const char *head)
{
	const char *p = head;
	while (*p) {
		if (*p == ' ') {
			p++;
			continue;
		}
		size_t n = label_at(v, p);
		if (!n)
			fail_msg(
			    "the %s view prints \"%.*s\" (in \"%s\") and the figure table lacks it",
			    figure_view_name(v), (int)strcspn(p, " "), p, head);
		p += n;
	}
}

static void test_row_headings(void **state)
{
	(void)state;
	for (int c = 0; c < ROWFMT_NCOLS; c++)
		assert_heading_covered(FIG_OVERVIEW, rowfmt_head[c]);
	assert_heading_covered(FIG_PMD, rowfmt_pmd_head);
	assert_heading_covered(FIG_PMD, rowfmt_sleep_head);
	assert_heading_covered(FIG_PMD_HOST, rowfmt_sleep_head_host);
	assert_heading_covered(FIG_PMD_HOST, rowfmt_host_pmd_head);
}

/* The OVS sections' headings, as rowfmt_host_line prints them with no rows under them. */
static void test_host_headings(void **state)
{
	struct snapshot *s = snapshot_new();
	char buf[512];
	(void)state;
	s->has_host = true;
	s->host.ovsdb = true;
	for (int i = 0; i < rowfmt_host_nlines(s); i++)
		assert_heading_covered(FIG_PMD_HOST, rowfmt_host_line(s, i, buf, sizeof(buf)));
	snapshot_free(s);
}

/* The histograms' part: its heading, its line for no histograms, and the labels of a chart
 * (the title's n and p50, a bin's <= EDGE and > EDGE, the cut line's "bins cut"). */
static void test_hist_labels(void **state)
{
	static const char *const labels[] = {"n", "p50", "<= EDGE", "> EDGE", "bins cut"};
	(void)state;
	assert_heading_covered(FIG_PMD_HOST, rowfmt_host_hist_head);
	assert_heading_covered(FIG_PMD_HOST, rowfmt_host_hist_none);
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (label_at(FIG_PMD_HOST, labels[i]) != strlen(labels[i]))
			fail_msg("the pmd view's charts print \"%s\" and the figure table lacks it",
				 labels[i]);
}

/* Every row complete: a label, a unit, a base, a source and a meaning, no tab or newline
 * (--list-figures is tab-separated, one figure a line); a JSON field, where there is one, a
 * path (tests/cli/test_figures_json.py checks it is the schema's). */
static void test_rows_complete(void **state)
{
	(void)state;
	for (size_t i = 0; i < figure_count; i++) {
		const struct figure *f = &figure_table[i];
		const char *fields[] = {f->label, f->unit, f->base, f->source, f->meaning};
		assert_true((unsigned)f->view < FIG_VIEW_COUNT);
		for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
			assert_non_null(fields[k]);
			assert_true(fields[k][0] != '\0');
			assert_null(strpbrk(fields[k], "\t\n"));
		}
		assert_true(!f->json || (f->json[0] && !strpbrk(f->json, "\t\n ")));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_row_headings),
	    cmocka_unit_test(test_host_headings),
	    cmocka_unit_test(test_hist_labels),
	    cmocka_unit_test(test_rows_complete),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

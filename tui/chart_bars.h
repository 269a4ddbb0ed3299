/* SPDX-License-Identifier: GPL-2.0-or-later */
/* chart_bars.h: a histogram as horizontal bars, one row a bin: which bins show, each bar's
 * length against the largest bin, the bin's label and the bar's glyphs (UTF-8 blocks, or '#'
 * in ASCII). No curses here, so the layout is unit-tested on its own (tests/unit/
 * test_chart_bars.c); the console's pmd view draws the rows (tui/console/ui_view_pmdhist.c). */
#ifndef TT_CHART_BARS_H
#define TT_CHART_BARS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An edge of this value marks the open-ended last bin (pmd-perf-show's ">"). */
#define CHART_BARS_OPEN UINT64_MAX
/* The label column: "<= 4294967295" (OVS's edges are 32-bit) or "> 4294967295". */
#define CHART_BARS_LABEL_W 13
/* A bar narrower than this says nothing: the row is cut at the screen's edge instead. */
#define CHART_BARS_MIN_W 8

/*
 * The rows of a histogram of n bins: first..last are the bins shown, the empty bins at both
 * ends trimmed (empty bins between two with counts stay: a gap is part of the shape); nrows 0
 * when every bin is empty. max is the largest bin (the bars' scale), total the sum.
 */
struct chart_bars {
	int first, last, nrows;
	uint64_t max, total;
	int count_w; /* digits of max: the count column's width */
};
void chart_bars_make(const uint64_t *count, int n, struct chart_bars *b);

/* The bar of count c in w cells against max, in eighths of a cell: 8 * w for max, never 0
 * for a count above 0 (a bin with any count shows), 0 for 0. */
int chart_bars_eighths(uint64_t c, uint64_t max, int w);

/* The bar's glyphs: eighths / 8 full cells and a partial one (UTF-8 blocks U+2588..U+258F), or
 * in ASCII '#' per cell rounded to the nearest (at least one for eighths > 0); padded with
 * blanks to w cells. buf holds at least 3 * w + 1 bytes. */
const char *chart_bars_text(int eighths, int w, bool ascii, char *buf, size_t len);

/* Bin i's label as pmd-perf-show prints its edge: "<= 4317", the open last bin "> 24000000"
 * (above the previous edge; "> 0" when it is the only bin). */
const char *chart_bars_label(const uint64_t *edge, int i, char *buf, size_t len);

/* The bar's width in a row of cols columns: label, blank, bar, blank, count, " 100.0%".
 * Below CHART_BARS_MIN_W the row does not fit: CHART_BARS_MIN_W, and the caller cuts. */
int chart_bars_bar_w(const struct chart_bars *b, int cols);

/*
 * Columns of bins to lay the chart out in within cols columns and rows lines: 1 when its
 * rows fit or when two columns of bins side by side would leave a bar narrower than
 * CHART_BARS_MIN_W, else 2 (the first half of the bins down the left, the rest down the
 * right: an 18-bin cycles/it chart in 9 lines at 80 columns).
 */
int chart_bars_columns(const struct chart_bars *b, int cols, int rows);

/*
 * Row r (0..nrows) of the chart as plain text, for tests and batch output: "LABEL BAR COUNT
 * SHARE%" with the bar w cells wide, share of total. Cut to cols columns with a '>' in the
 * last one when it is wider (a 40-column terminal).
 */
const char *chart_bars_row(const struct chart_bars *b, const uint64_t *edge, const uint64_t *count,
			   int r, int cols, bool ascii, char *buf, size_t len);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* chart.h: chart geometry shared by the console graphs and the cairo pictures: nice axis
 * scales, and a cell grid that draws a series (braille dots, or ASCII), a goal line and
 * knob markers. No curses and no cairo here, so the logic is unit-tested on its own. */
#ifndef TT_CHART_H
#define TT_CHART_H

#include <stdbool.h>
#include <stddef.h>

/* An axis from lo to hi in steps of step (1, 2 or 5 x 10^k), lo and hi multiples of it. */
struct chart_scale {
	double lo, hi, step;
	int nticks; /* lines from lo to hi inclusive */
};

/*
 * The scale for data in [min, max] with at most max_ticks intervals, the range grown
 * to whole steps; floor (when not NAN) is a least lower bound (0 for counts and %),
 * and a data range of zero width still gets a visible axis.
 */
void chart_scale_make(double min, double max, int max_ticks, double floor_v, struct chart_scale *s);
/* The same from 0 for counts: whole steps only (a count axis at 0.5, 1.5 reads as fractions). */
void chart_scale_counts(double max, int max_ticks, struct chart_scale *s);

/* What a grid cell shows (the console colours each kind differently). */
enum chart_cell_kind { CELL_EMPTY, CELL_DATA, CELL_GOAL, CELL_MARK, CELL_TEXT, CELL_CURSOR };

struct chart_cell {
	char glyph[5]; /* UTF-8, NUL-terminated */
	unsigned char kind; /* enum chart_cell_kind */
	unsigned char bits; /* braille dots (bit per dot, U+2800 order) or ASCII sub-level */
};

/* A w x h grid of cells; braille puts 2 x 4 dots in a cell, ASCII 1 x 2 levels. */
struct chart_grid {
	int w, h;
	bool ascii;
	struct chart_cell *cells; /* row-major, row 0 at the top */
};

/* Dots a cell holds across and down. */
#define CHART_BRAILLE_X 2
#define CHART_BRAILLE_Y 4
#define CHART_ASCII_Y 2

void chart_grid_init(struct chart_grid *g, int w, int h, bool ascii);
void chart_grid_free(struct chart_grid *g);
struct chart_cell *chart_grid_at(struct chart_grid *g, int x, int y);
/* Values a grid shows across its width (one per dot column). */
int chart_grid_slots(const struct chart_grid *g);

/*
 * Plot v[0..n) (oldest first) as a filled area from the bottom, newest at the right
 * edge; values older than the grid's width are left out. A value above lo never
 * draws as nothing. Returns the slots used.
 */
int chart_grid_plot(struct chart_grid *g, const double *v, size_t n, const struct chart_scale *s);
/* The row (0 = top) that holds value y, or -1 outside the scale. */
int chart_grid_row(const struct chart_grid *g, const struct chart_scale *s, double y);
/* A horizontal goal line at value y over the cells the data leaves empty. */
void chart_grid_goal(struct chart_grid *g, const struct chart_scale *s, double y);
/*
 * A knob marker at slot `back` slots from the right edge (0: the newest value): a
 * vertical line through the empty cells of its column and text on the top row, to its
 * right when it fits, else to its left. Returns 0, or -1 when the slot is off the grid.
 */
int chart_grid_mark(struct chart_grid *g, int back, const char *text);
/* Markers chart_grid_marks() takes at most. */
#define CHART_MARKS_MAX 64
/* Changes this few columns apart (or fewer) are one marker: two lines side by side and
 * their labels would run together. */
#define CHART_MARK_MERGE_COLS 2
/*
 * Knob markers, back[i] slots from the right edge with text[i]: a run of changes each
 * within CHART_MARK_MERGE_COLS columns of the next is one marker at the newest, its text the
 * newest's with the count ("timer_slack_ns=50000 (x3)"). Labels never touch: a blank stays
 * between two. Returns the markers drawn.
 */
size_t chart_grid_marks(struct chart_grid *g, const int *back, const char *const *text, size_t n);
/* A cursor (the frozen sample) at slot back from the right edge: a dashed line through the
 * cells its column has no data or text in. */
void chart_grid_cursor(struct chart_grid *g, int back);
/*
 * The time axis under a w-column grid whose columns are secs_per_col apart: labels at whole
 * steps (1 s .. 1 day) of seconds from column origin ("-30s", "+10s"), origin_text at the
 * origin itself ("now"), each ending at its column, a blank between two. buf: w+1 bytes.
 */
const char *chart_time_axis(int w, double secs_per_col, int origin, const char *origin_text,
			    char *buf, size_t len);
/* One point (x, y) in a scatter as glyph (0: a braille dot, or '*' in ASCII): xs is the
 * horizontal scale; text (may be NULL) beside it. */
void chart_grid_point(struct chart_grid *g, const struct chart_scale *xs,
		      const struct chart_scale *ys, double x, double y, char glyph,
		      const char *text);
/* text beside the cell of point (x, y), right of it or else left, over no data or text. */
void chart_grid_label(struct chart_grid *g, const struct chart_scale *xs,
		      const struct chart_scale *ys, double x, double y, const char *text);
/* Row y as a string (for tests and plain output); buf holds at least w*4+1 bytes. */
const char *chart_grid_row_text(const struct chart_grid *g, int y, char *buf, size_t len);

/* A value formatted for an axis label by its scale's step: "12.5", "0.05", "2k", "1.5M". */
const char *chart_fmt_tick(double v, double step, char *buf, size_t len);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_chart.c: the console's multi-row graphs (braille, or ASCII under LANG=C / --ascii):
 * a y-axis scale, the goal as a line, and a marker where a knob changed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "tui/chart.h"
#include "tui/console/ui.h"

/* Width of the y-axis figures ("12.5%", "4.8ms") and the axis line after them. */
#define GRAPH_AXIS_W 6
/* A graph this high has a time axis row: the title, two rows of data and the axis. */
#define VIEW_AXIS_MIN_H 4

/* A chart cell kind's colour role: data, goal, marker colours. */
static enum theme_role ui_chart_role(unsigned kind)
{
	switch (kind) {
	case CELL_DATA:
		return ROLE_CHART;
	case CELL_GOAL:
		return ROLE_WARN;
	case CELL_MARK:
	case CELL_TEXT:
		return ROLE_VALUE;
	case CELL_CURSOR:
		return ROLE_WARN;
	default:
		return ROLE_NORMAL;
	}
}

void ui_chart_cells(struct ui *ui, struct chart_grid *g, int row,
		    enum theme_role (*role)(unsigned kind))
{
	/* Runs of one colour in one addstr: a 24-row graph is thousands of cells a frame. */
	char run[1024];
	size_t n = 0;
	enum theme_role cur = ROLE_NORMAL;
	for (int cx = 0; cx < g->w; cx++) {
		const struct chart_cell *c = chart_grid_at(g, cx, row);
		enum theme_role r = role(c->kind);
		size_t len = strlen(c->glyph);
		if ((r != cur || n + len >= sizeof(run)) && n) {
			run[n] = '\0';
			attrset(ui->attr[cur]);
			addstr(run);
			n = 0;
		}
		cur = r;
		memcpy(run + n, c->glyph, len);
		n += len;
	}
	if (n) {
		run[n] = '\0';
		attrset(ui->attr[cur]);
		addstr(run);
	}
}

/* The scale: from 0 to the highest visible value of v[0..n), the goal and min_top. */
static void graph_scale(const struct ui_graph *g, size_t n, int slots, int ticks,
			struct chart_scale *s)
{
	int spv = g->slots_per_value > 1 ? g->slots_per_value : 1;
	size_t shown = (size_t)(slots / spv);
	double top = g->min_top;
	for (size_t i = n > shown ? n - shown : 0; i < n; i++)
		if (isfinite(g->v[i]) && g->v[i] > top)
			top = g->v[i];
	if (isfinite(g->goal) && g->goal > top)
		top = g->goal;
	chart_scale_make(0, top, ticks, 0, s);
}

/* A time axis under the grid: a graph over time with the rows to spare. */
static bool graph_has_axis(const struct ui_graph *g, int h)
{
	return g->interval_s > 0 && h >= VIEW_AXIS_MIN_H;
}

/* Build the grid of g (gh rows, gw columns); returns the values left out at the right: a
 * frozen sample older than the graph shows moves the window back to hold it mid-graph. */
static int graph_build(struct ui *ui, const struct ui_graph *g, int gw, int gh,
		       struct chart_grid *grid, struct chart_scale *s)
{
	chart_grid_init(grid, gw, gh, ui->ascii);
	int slots = chart_grid_slots(grid);
	int spv = g->slots_per_value > 1 ? g->slots_per_value : 1;
	int shown = slots / spv, shift = 0;
	if (g->has_cursor && shown > 0 && g->cursor_back >= shown)
		shift = g->cursor_back - shown / 2;
	size_t n = g->n > (size_t)shift ? g->n - (size_t)shift : 0;
	graph_scale(g, n, slots, gh > 4 ? 4 : gh > 1 ? gh - 1 : 1, s);
	if (spv == 1) {
		chart_grid_plot(grid, g->v, n, s);
	} else {
		/* Bars: each value spv dots wide, with a gap of one. */
		size_t first = n > (size_t)shown ? n - (size_t)shown : 0;
		size_t m = (n - first) * (size_t)spv;
		double *wide = xcalloc(m + 1, sizeof(*wide));
		for (size_t i = first; i < n; i++)
			for (int k = 0; k < spv; k++)
				wide[(i - first) * (size_t)spv + (size_t)k] =
				    k < spv - 1 ? g->v[i] : 0;
		chart_grid_plot(grid, wide, m, s);
		free(wide);
	}
	if (isfinite(g->goal))
		chart_grid_goal(grid, s, g->goal);
	int back[CHART_MARKS_MAX];
	size_t nm = 0;
	const char *text[CHART_MARKS_MAX];
	for (size_t i = 0; i < g->nmarks && nm < CHART_MARKS_MAX; i++) {
		if (g->mark_back[i] < shift)
			continue; /* after the window's end */
		back[nm] = (g->mark_back[i] - shift) * spv;
		text[nm++] = g->mark_text[i];
	}
	chart_grid_marks(grid, back, text, nm);
	if (g->has_cursor)
		chart_grid_cursor(grid, (g->cursor_back - shift) * spv + (spv > 1 ? 1 : 0));
	return shift;
}

static void graph_title(struct ui *ui, const struct ui_graph *g, int x, int w)
{
	char buf[160], now[32], goal[32] = "";
	/* The newest value, or frozen the one at the cursor (the sample shown). */
	size_t at = g->has_cursor ? (size_t)g->cursor_back + 1 : 1;
	double last = g->n >= at ? g->v[g->n - at] : 0;
	if (!isfinite(last)) /* absent at that sample */
		snprintf(now, sizeof(now), "-");
	else
		snprintf(now, sizeof(now), "%.*f%s",
			 last == floor(last) ? 0
			 : fabs(last) < 10   ? 2
					     : 1,
			 last, g->unit);
	if (isfinite(g->goal))
		snprintf(goal, sizeof(goal), " goal %g%s", g->goal, g->unit);
	int n = snprintf(buf, sizeof(buf), "%s %s%s", g->title, now, goal);
	(void)n;
	int tl = (int)strlen(g->title);
	move(getcury(stdscr), x);
	attrset(ui->attr[ROLE_LABEL]);
	addnstr(buf, tl < w ? tl : w);
	if (tl + 1 < w) {
		attrset(ui->attr[ROLE_VALUE]);
		addnstr(buf + tl, (int)strlen(now) + 1 < w - tl ? (int)strlen(now) + 1 : w - tl);
	}
	int used = tl + 1 + (int)strlen(now);
	if (goal[0] && used < w) {
		attrset(ui->attr[ROLE_WARN]);
		addnstr(goal, w - used);
	}
	attrset(ui->attr[ROLE_NORMAL]);
}

struct graph_built {
	struct chart_grid grid;
	struct chart_scale s;
	int shift;
};

void ui_graph_prepare(struct ui *ui, struct ui_graph *g, int w, int h)
{
	ui_graph_release(g);
	if (w < GRAPH_AXIS_W + 3 || h < 2)
		return;
	struct graph_built *b = xcalloc(1, sizeof(*b));
	b->shift =
	    graph_build(ui, g, w - GRAPH_AXIS_W - 1, h - 1 - graph_has_axis(g, h), &b->grid, &b->s);
	g->built = b;
	g->built_w = w;
	g->built_h = h;
}

void ui_graph_release(struct ui_graph *g)
{
	struct graph_built *b = g->built;
	if (b) {
		chart_grid_free(&b->grid);
		free(b);
	}
	g->built = NULL;
}

/* The time axis row: seconds from the newest value ("now"), or frozen from the cursor. */
static void graph_time_axis(struct ui *ui, const struct ui_graph *g, const struct graph_built *b,
			    int x, int gw)
{
	int spv = g->slots_per_value > 1 ? g->slots_per_value : 1;
	int per_col = ui->ascii ? 1 : CHART_BRAILLE_X, origin = gw - 1;
	if (g->has_cursor) {
		int slot = chart_grid_slots(&b->grid) - 1 - (g->cursor_back - b->shift) * spv;
		origin = slot / per_col;
	}
	char axis[512];
	chart_time_axis(gw, g->interval_s * per_col / spv, origin, g->has_cursor ? "0s" : "now",
			axis, sizeof(axis));
	move(getcury(stdscr), x);
	attrset(ui->attr[ROLE_DIM]);
	printw("%*s", GRAPH_AXIS_W + 1, "");
	addstr(axis);
	attrset(ui->attr[ROLE_NORMAL]);
}

void ui_graph_row(struct ui *ui, const struct ui_graph *g, int row, int x, int w, int h)
{
	int y = getcury(stdscr);
	if (w < GRAPH_AXIS_W + 3 || h < 2 || row < 0 || row >= h)
		return;
	if (row == 0) {
		graph_title(ui, g, x, w);
		return;
	}
	int gw = w - GRAPH_AXIS_W - 1, gh = h - 1 - graph_has_axis(g, h), gr = row - 1;
	struct graph_built local, *b = g->built;
	if (!b || g->built_w != w || g->built_h != h) {
		local.shift = graph_build(ui, g, gw, gh, &local.grid, &local.s);
		b = &local;
	}
	if (gr == gh) {
		graph_time_axis(ui, g, b, x, gw);
		if (b == &local)
			chart_grid_free(&local.grid);
		return;
	}
	struct chart_grid grid = b->grid;
	struct chart_scale s = b->s;

	/* The axis: a figure on each row that holds one of the scale's ticks (top and
	 * bottom always), so the figures are round numbers. */
	char label[32] = "";
	for (int k = s.nticks - 1; k >= 0; k--) {
		double at = s.lo + k * s.step;
		int r = k == s.nticks - 1 ? 0 : k == 0 ? gh - 1 : chart_grid_row(&grid, &s, at);
		if (r != gr)
			continue;
		char num[24];
		chart_fmt_tick(at, s.step, num, sizeof(num));
		snprintf(label, sizeof(label), "%s%s", num, g->unit);
		break;
	}
	move(y, x);
	attrset(ui->attr[ROLE_DIM]);
	printw("%*.*s", GRAPH_AXIS_W, GRAPH_AXIS_W, label);
	addstr(ui->ascii ? "|" : "\u2524");
	ui_chart_cells(ui, &grid, gr, ui_chart_role);
	attrset(ui->attr[ROLE_NORMAL]);
	if (b == &local)
		chart_grid_free(&local.grid);
}

size_t ui_chart_marks(const struct ui *ui, unsigned mask, size_t n, size_t skip, int *back,
		      const char **text, char (*bufs)[48], size_t max)
{
	const struct ui_charts *c = &ui->charts;
	size_t k = 0;
	for (size_t i = 0; i < c->nmarks && k < max; i++) {
		/* Newest first. */
		const struct ui_mark *m =
		    &c->marks[(c->mark_head + UI_MARKS_KEEP - 1 - i) % UI_MARKS_KEEP];
		uint64_t b = c->samples - 1 - m->sample;
		if (b < skip)
			continue; /* after the end of the graph (frozen) */
		b -= skip;
		if (b >= n)
			break;
		if (!(mask & (1u << knob_table[m->knob].owner)))
			continue;
		char val[24], one[48];
		const char *name = knob_table[m->knob].name, *dot = strchr(name, '.');
		/* "maxsleep_us=50": the name without its subsystem, as the header shows it. */
		snprintf(one, sizeof(one), "%s=%s", dot ? dot + 1 : name,
			 knob_format(m->knob, m->value, val, sizeof(val)));
		if (k > 0 && (int)b == back[k - 1]) {
			/* Knobs changed in the same sample (the trade-off sets two): one marker. */
			size_t used = strlen(bufs[k - 1]);
			snprintf(bufs[k - 1] + used, sizeof(bufs[k - 1]) - used, ",%s", one);
			continue;
		}
		snprintf(bufs[k], sizeof(bufs[k]), "%s", one);
		back[k] = (int)b;
		text[k] = bufs[k];
		k++;
	}
	return k;
}

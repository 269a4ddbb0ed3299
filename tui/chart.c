/* SPDX-License-Identifier: GPL-2.0-or-later */
/* chart.c: axis scales and the cell grid of the console graphs (braille dots or ASCII). */
#include "tui/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* Braille dot bits by [column][row from the top] (Unicode's U+2800 dot numbering). */
static const unsigned char braille_bit[CHART_BRAILLE_X][CHART_BRAILLE_Y] = {
    {0x01, 0x02, 0x04, 0x40},
    {0x08, 0x10, 0x20, 0x80},
};
#define GLYPH_GOAL_UTF8 "\u2504" /* ┄ */
#define GLYPH_MARK_UTF8 "\u2502" /* │ */
#define GLYPH_CURSOR_UTF8 "\u250a" /* ┊ */

void chart_scale_counts(double max, int max_ticks, struct chart_scale *s)
{
	chart_scale_make(0, max, max_ticks, 0, s);
	if (s->step < 1) /* ceil(max) intervals of 1 are at most max_ticks here */
		chart_scale_make(0, ceil(max), (int)ceil(max), 0, s);
}

void chart_scale_make(double min, double max, int max_ticks, double floor_v, struct chart_scale *s)
{
	static const double nice[] = {1, 2, 5, 10};

	if (!isfinite(min) || !isfinite(max)) {
		min = 0;
		max = 1;
	}
	if (max < min) {
		double t = min;
		min = max;
		max = t;
	}
	if (!isnan(floor_v) && min > floor_v)
		min = floor_v;
	if (max - min < 1e-12) /* flat data: an axis around it, never a zero-height one */
		max = min + (fabs(min) > 0 ? fabs(min) * 0.1 : 1);
	if (max_ticks < 1)
		max_ticks = 1;
	double raw = (max - min) / max_ticks;
	double mag = pow(10, floor(log10(raw)));
	for (int k = 0;; k = (k + 1) % 4) {
		double step = nice[k] * mag;
		if (k == 3) {
			mag *= 10;
			continue;
		}
		if (step < raw * (1 - 1e-9))
			continue;
		double lo = floor(min / step + 1e-9) * step, hi = ceil(max / step - 1e-9) * step;
		if (hi <= lo)
			hi = lo + step;
		int n = (int)lround((hi - lo) / step);
		if (n <= max_ticks) {
			s->lo = lo;
			s->hi = hi;
			s->step = step;
			s->nticks = n + 1;
			return;
		}
	}
}

void chart_grid_init(struct chart_grid *g, int w, int h, bool ascii)
{
	g->w = w > 0 ? w : 0;
	g->h = h > 0 ? h : 0;
	g->ascii = ascii;
	g->cells = xcalloc((size_t)g->w * (size_t)g->h + 1, sizeof(*g->cells));
	for (int i = 0; i < g->w * g->h; i++)
		strcpy(g->cells[i].glyph, " ");
}

void chart_grid_free(struct chart_grid *g)
{
	free(g->cells);
	g->cells = NULL;
}

struct chart_cell *chart_grid_at(struct chart_grid *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return NULL;
	return &g->cells[y * g->w + x];
}

int chart_grid_slots(const struct chart_grid *g)
{
	return g->ascii ? g->w : g->w * CHART_BRAILLE_X;
}

static int dots_y(const struct chart_grid *g)
{
	return g->ascii ? CHART_ASCII_Y : CHART_BRAILLE_Y;
}

/* The glyph of a data cell from its dots. */
static void cell_data(struct chart_grid *g, struct chart_cell *c)
{
	c->kind = CELL_DATA;
	if (g->ascii) {
		/* ASCII: bits counts filled halves from the bottom; a point is '*'. */
		c->glyph[0] = c->bits >= CHART_ASCII_Y ? '#' : c->bits == 1 ? '.' : '*';
		c->glyph[1] = '\0';
		return;
	}
	unsigned cp = 0x2800u + c->bits;
	c->glyph[0] = (char)(0xE0 | (cp >> 12));
	c->glyph[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
	c->glyph[2] = (char)(0x80 | (cp & 0x3F));
	c->glyph[3] = '\0';
}

static int value_level(double v, const struct chart_scale *s, int full)
{
	if (!isfinite(v) || v <= s->lo)
		return 0;
	int level = (int)lround((v - s->lo) / (s->hi - s->lo) * full);
	if (level < 1)
		level = 1; /* something happened: never drawn as nothing */
	return level > full ? full : level;
}

int chart_grid_plot(struct chart_grid *g, const double *v, size_t n, const struct chart_scale *s)
{
	int slots = chart_grid_slots(g), dy = dots_y(g), full = g->h * dy;
	size_t m = n < (size_t)slots ? n : (size_t)slots;

	for (size_t j = 0; j < m; j++) {
		int slot = slots - (int)m + (int)j;
		int level = value_level(v[n - m + j], s, full);
		for (int d = 0; d < level; d++) {
			int y = g->h - 1 - d / dy;
			struct chart_cell *c = chart_grid_at(g, g->ascii ? slot : slot / 2, y);
			if (!c)
				continue;
			if (g->ascii)
				c->bits++;
			else
				c->bits |= braille_bit[slot % 2][dy - 1 - d % dy];
			cell_data(g, c);
		}
	}
	return (int)m;
}

int chart_grid_row(const struct chart_grid *g, const struct chart_scale *s, double y)
{
	if (!isfinite(y) || y < s->lo || y > s->hi || g->h == 0)
		return -1;
	int r = (int)((y - s->lo) / (s->hi - s->lo) * g->h);
	if (r >= g->h)
		r = g->h - 1;
	return g->h - 1 - r;
}

void chart_grid_goal(struct chart_grid *g, const struct chart_scale *s, double y)
{
	int r = chart_grid_row(g, s, y);
	for (int x = 0; r >= 0 && x < g->w; x++) {
		struct chart_cell *c = chart_grid_at(g, x, r);
		if (c->kind != CELL_EMPTY)
			continue;
		c->kind = CELL_GOAL;
		strcpy(c->glyph, g->ascii ? "-" : GLYPH_GOAL_UTF8);
	}
}

/* Would text fit at (x, y) without covering other text (or, unless over_data, a data
 * cell: a scatter's labels never hide its points) or leaving the grid? */
static bool grid_text_fits(const struct chart_grid *g, int x, int y, int len, bool over_data)
{
	if (x < 0 || x + len > g->w)
		return false;
	for (int i = 0; i < len; i++) {
		unsigned kind = g->cells[y * g->w + x + i].kind;
		if (kind == CELL_TEXT || (!over_data && kind == CELL_DATA))
			return false;
	}
	/* A blank between two labels: "count=3000count=2000" reads as one. */
	if ((x > 0 && g->cells[y * g->w + x - 1].kind == CELL_TEXT) ||
	    (x + len < g->w && g->cells[y * g->w + x + len].kind == CELL_TEXT))
		return false;
	return true;
}

/* ASCII text into row y from column x, over anything but other text; clipped at w. */
static void grid_text(struct chart_grid *g, int x, int y, const char *text)
{
	for (; *text && x < g->w; text++, x++) {
		struct chart_cell *c = chart_grid_at(g, x, y);
		if (!c || c->kind == CELL_TEXT)
			continue;
		c->kind = CELL_TEXT;
		c->glyph[0] = (*text >= 0x20 && *text < 0x7f) ? *text : '?';
		c->glyph[1] = '\0';
	}
}

int chart_grid_mark(struct chart_grid *g, int back, const char *text)
{
	int slots = chart_grid_slots(g);
	int slot = slots - 1 - back;
	if (back < 0 || slot < 0)
		return -1;
	int x = g->ascii ? slot : slot / CHART_BRAILLE_X;
	for (int y = 0; y < g->h; y++) {
		struct chart_cell *c = chart_grid_at(g, x, y);
		if (c->kind == CELL_EMPTY || c->kind == CELL_GOAL) {
			c->kind = CELL_MARK;
			strcpy(c->glyph, g->ascii ? "|" : GLYPH_MARK_UTF8);
		}
	}
	/* Text to the right of the line, else to its left; where other markers' text is
	 * in the way (changes close together), on the next row down. A graph too narrow for
	 * "name=value" gets the value alone, else the line alone. */
	/* The values alone: "a=1,b=2" -> "1,2". */
	char vals[64];
	size_t nv = 0;
	bool in_value = false;
	for (const char *p = text; p && *p && nv + 1 < sizeof(vals); p++) {
		if (*p == ',') {
			in_value = false;
			vals[nv++] = ',';
		} else if (*p == '=') {
			in_value = true;
		} else if (in_value) {
			vals[nv++] = *p;
		}
	}
	vals[nv] = '\0';
	const char *tries[2] = {text, nv && strchr(text, '=') ? vals : NULL};
	for (int t = 0; t < 2; t++) {
		int len = tries[t] ? (int)strlen(tries[t]) : 0;
		for (int y = 0; len && y < g->h && y < 3; y++) {
			int at = grid_text_fits(g, x + 1, y, len, true)	    ? x + 1
				 : grid_text_fits(g, x - len, y, len, true) ? x - len
									    : -1;
			if (at >= 0) {
				grid_text(g, at, y, tries[t]);
				return 0;
			}
		}
	}
	return 0;
}

/* The column of the slot back slots from the right edge, or -1 off the grid. */
static int slot_col(const struct chart_grid *g, int back)
{
	int slot = chart_grid_slots(g) - 1 - back;
	if (back < 0 || slot < 0)
		return -1;
	return g->ascii ? slot : slot / CHART_BRAILLE_X;
}

size_t chart_grid_marks(struct chart_grid *g, const int *back, const char *const *text, size_t n)
{
	size_t order[CHART_MARKS_MAX], m = 0, drawn = 0;
	/* Newest first (fewest slots back), whatever order they came in. */
	for (size_t i = 0; i < n && m < CHART_MARKS_MAX; i++) {
		if (slot_col(g, back[i]) < 0)
			continue;
		size_t j = m++;
		for (; j > 0 && back[order[j - 1]] > back[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (size_t i = 0; i < m;) {
		/* A run of changes each within CHART_MARK_MERGE_COLS of the one after it: one
		 * marker at the newest, with its value and how many changes it stands for. */
		size_t j = i + 1;
		int col = slot_col(g, back[order[i]]);
		while (j < m && col - slot_col(g, back[order[j]]) <= CHART_MARK_MERGE_COLS)
			col = slot_col(g, back[order[j++]]);
		char t[96];
		const char *newest = text[order[i]] ? text[order[i]] : "";
		if (j - i > 1)
			snprintf(t, sizeof(t), "%s (x%zu)", newest, j - i);
		else
			snprintf(t, sizeof(t), "%s", newest);
		chart_grid_mark(g, back[order[i]], t[0] ? t : NULL);
		drawn++;
		i = j;
	}
	return drawn;
}

void chart_grid_cursor(struct chart_grid *g, int back)
{
	int x = slot_col(g, back);
	for (int y = 0; x >= 0 && y < g->h; y++) {
		struct chart_cell *c = chart_grid_at(g, x, y);
		if (c->kind == CELL_EMPTY || c->kind == CELL_GOAL || c->kind == CELL_MARK) {
			c->kind = CELL_CURSOR;
			strcpy(c->glyph, g->ascii ? ":" : GLYPH_CURSOR_UTF8);
		}
	}
}

/* Seconds as a time-axis label: "-30s", "+2m", "-1.5h". */
static void fmt_ago(double s, char *buf, size_t len)
{
	const char *sign = s < 0 ? "-" : "+";
	double a = fabs(s);
	if (a >= 3600)
		snprintf(buf, len, "%s%gh", sign, a / 3600);
	else if (a >= 120)
		snprintf(buf, len, "%s%gm", sign, a / 60);
	else
		snprintf(buf, len, "%s%gs", sign, a);
}

const char *chart_time_axis(int w, double secs_per_col, int origin, const char *origin_text,
			    char *buf, size_t len)
{
	static const double steps[] = {1,   2,	 5,    10,   15,   30,	  60,	 120,	300,
				       600, 900, 1800, 3600, 7200, 14400, 21600, 43200, 86400};
	if (!len)
		return buf;
	int n = w < (int)len - 1 ? w : (int)len - 1;
	memset(buf, ' ', (size_t)(n > 0 ? n : 0));
	buf[n > 0 ? n : 0] = '\0';
	if (n <= 0 || !(secs_per_col > 0))
		return buf;
	/* Labels at least 9 columns apart, at whole steps from the origin. */
	double step = 0;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]) && !step; i++)
		if (steps[i] / secs_per_col >= 9)
			step = steps[i];
	if (!step)
		return buf;
	int last = n; /* the leftmost column written so far: labels go right to left */
	for (int k = (int)floor((n - 1 - origin) * secs_per_col / step);; k--) {
		double at = origin + k * step / secs_per_col;
		if (at < 0)
			break;
		int col = (int)lround(at);
		char t[24];
		if (k == 0)
			snprintf(t, sizeof(t), "%s", origin_text);
		else
			fmt_ago(k * step, t, sizeof(t));
		int tl = (int)strlen(t);
		/* Ending at its column (a tick "|" would cost a row); the origin's may start
		 * there when it would run off the left. */
		int x0 = col - tl + 1;
		if (x0 < 0)
			continue;
		if (x0 + tl + 1 > last && last < n)
			continue; /* no room before the label on its right */
		if (x0 + tl > n)
			continue;
		memcpy(buf + x0, t, (size_t)tl);
		last = x0;
	}
	return buf;
}

void chart_grid_point(struct chart_grid *g, const struct chart_scale *xs,
		      const struct chart_scale *ys, double x, double y, char glyph,
		      const char *text)
{
	int slots = chart_grid_slots(g), dy = dots_y(g), full = g->h * dy;
	if (slots == 0 || full == 0 || !isfinite(x) || !isfinite(y))
		return;
	double fx = (x - xs->lo) / (xs->hi - xs->lo), fy = (y - ys->lo) / (ys->hi - ys->lo);
	fx = fx < 0 ? 0 : fx > 1 ? 1 : fx;
	fy = fy < 0 ? 0 : fy > 1 ? 1 : fy;
	int slot = (int)lround(fx * (slots - 1)), d = (int)lround(fy * (full - 1));
	int cx = g->ascii ? slot : slot / CHART_BRAILLE_X, cy = g->h - 1 - d / dy;
	struct chart_cell *c = chart_grid_at(g, cx, cy);
	if (!c)
		return;
	if (glyph) {
		c->kind = CELL_DATA;
		c->glyph[0] = glyph;
		c->glyph[1] = '\0';
	} else {
		if (g->ascii)
			c->bits = 0; /* '*' */
		else
			c->bits |= braille_bit[slot % 2][dy - 1 - d % dy];
		cell_data(g, c);
	}
	int len = text ? (int)strlen(text) : 0;
	if (len && grid_text_fits(g, cx + 1, cy, len, false))
		grid_text(g, cx + 1, cy, text);
	else if (len && grid_text_fits(g, cx - len, cy, len, false))
		grid_text(g, cx - len, cy, text);
}

void chart_grid_label(struct chart_grid *g, const struct chart_scale *xs,
		      const struct chart_scale *ys, double x, double y, const char *text)
{
	int slots = chart_grid_slots(g), dy = dots_y(g), full = g->h * dy;
	int len = text ? (int)strlen(text) : 0;
	if (slots == 0 || full == 0 || !len || !isfinite(x) || !isfinite(y))
		return;
	double fx = (x - xs->lo) / (xs->hi - xs->lo), fy = (y - ys->lo) / (ys->hi - ys->lo);
	fx = fx < 0 ? 0 : fx > 1 ? 1 : fx;
	fy = fy < 0 ? 0 : fy > 1 ? 1 : fy;
	int slot = (int)lround(fx * (slots - 1)), d = (int)lround(fy * (full - 1));
	int cx = g->ascii ? slot : slot / CHART_BRAILLE_X, cy = g->h - 1 - d / dy;
	/* Beside the point, else a row above or below it (crowded points share a row). */
	static const int dys[] = {0, -1, 1, -2, 2};
	for (size_t k = 0; k < sizeof(dys) / sizeof(dys[0]); k++) {
		int ry = cy + dys[k];
		if (ry < 0 || ry >= g->h)
			continue;
		if (grid_text_fits(g, cx + 1, ry, len, false)) {
			grid_text(g, cx + 1, ry, text);
			return;
		}
		if (grid_text_fits(g, cx - len, ry, len, false)) {
			grid_text(g, cx - len, ry, text);
			return;
		}
	}
}

const char *chart_grid_row_text(const struct chart_grid *g, int y, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int x = 0; x < g->w && y >= 0 && y < g->h; x++) {
		const char *gl = g->cells[y * g->w + x].glyph;
		size_t n = strlen(gl);
		if (used + n + 1 > len)
			break;
		memcpy(buf + used, gl, n + 1);
		used += n;
	}
	return buf;
}

const char *chart_fmt_tick(double v, double step, char *buf, size_t len)
{
	const char *suffix = "";
	double a = fabs(step) > fabs(v) ? fabs(step) : fabs(v);
	if (a >= 1e6) {
		v /= 1e6;
		step /= 1e6;
		suffix = "M";
	} else if (a >= 1e4) {
		v /= 1e3;
		step /= 1e3;
		suffix = "k";
	}
	int dec = step > 0 ? (int)ceil(-log10(step) - 1e-9) : 0;
	if (dec < 0)
		dec = 0;
	if (dec > 3)
		dec = 3;
	if (fabs(v) < step * 1e-6)
		v = 0; /* no "-0" */
	snprintf(buf, len, "%.*f%s", dec, v, suffix);
	return buf;
}

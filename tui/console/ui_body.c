/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_body.c: the views' body: lines counted for the scroll, titles, sparklines and graphs. */
#include <string.h>

#include "tui/console/ui_body.h"

bool body_line(struct body *b)
{
	b->n++;
	if (b->skip > 0) {
		b->skip--;
		return false;
	}
	if (b->y >= b->end)
		return false;
	move(b->y++, 0);
	return true;
}

void body_text(struct body *b, enum theme_role role, const char *t)
{
	if (!body_line(b))
		return;
	if (role == ROLE_TABLE_HEAD)
		ui_put(b->ui, role, "%-*.*s", COLS, COLS, t);
	else
		ui_put(b->ui, role, "%s", t);
}

/* "label [sparkline] last" over the rest of the line. */
void body_chart(struct body *b, const char *label, enum ui_series s, double max, const char *unit)
{
	struct ui *ui = b->ui;
	char last[32];
	if (!body_line(b))
		return;
	snprintf(last, sizeof(last), " %.2f%s", ui_hist_shown(ui, s), unit);
	ui_put(ui, ROLE_LABEL, "%-13s", label);
	int w = COLS - 13 - 14;
	ui_hist_draw(ui, s, b->y - 1, 13, w, max);
	move(b->y - 1, 13 + w);
	ui_put(ui, ROLE_VALUE, "%s", last);
}

int body_clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* n graphs abreast in h rows when each gets VIEW_GRAPH_MIN_W columns, else one under the
 * other, full width. Each row is a body line (it scrolls); a graph is built only when one
 * of its rows shows. */
void body_graphs_n(struct body *b, struct ui_graph **g, int n, int h)
{
	struct ui *ui = b->ui;
	if (n > 1 && COLS < n * VIEW_GRAPH_MIN_W) {
		for (int i = 0; i < n; i++)
			body_graphs_n(b, &g[i], 1, h);
		return;
	}
	int w = COLS / n;
	bool built = false;
	for (int r = 0; r < h; r++) {
		if (b->skip == 0 && b->y < b->end && !built) {
			for (int i = 0; i < n; i++)
				ui_graph_prepare(ui, g[i], i == n - 1 ? COLS - i * w : w - 1, h);
			built = true;
		}
		if (!body_line(b))
			continue;
		for (int i = 0; i < n; i++)
			ui_graph_row(ui, g[i], r, i * w, i == n - 1 ? COLS - i * w : w - 1, h);
	}
	for (int i = 0; i < n; i++)
		ui_graph_release(g[i]);
}

void body_graphs(struct body *b, struct ui_graph *left, struct ui_graph *right, int h)
{
	struct ui_graph *g[2] = {left, right};
	body_graphs_n(b, g, right ? 2 : 1, h);
}

void body_graph_init(struct ui *ui, struct view_graph *vg, const struct ui_hist *h, unsigned mask,
		     const char *title, const char *unit, double goal, double min_top)
{
	memset(&vg->g, 0, sizeof(vg->g));
	snprintf(vg->g.title, sizeof(vg->g.title), "%s", title);
	vg->g.unit = unit;
	vg->g.n = ui_hist_copy(h, vg->v, UI_HIST_LEN);
	/* Frozen: the ring up to the frozen window's end, a cursor at the sample shown. */
	size_t end, cur;
	if (ui_hist_frozen(ui, &end, &cur)) {
		vg->g.n = vg->g.n > end ? vg->g.n - end : 0;
		vg->g.has_cursor = true;
		vg->g.cursor_back = (int)(cur - end);
	}
	vg->g.v = vg->v;
	vg->g.goal = goal;
	vg->g.min_top = min_top;
	vg->g.interval_s = ui_hist_interval(ui);
	vg->g.nmarks =
	    ui_chart_marks(ui, mask, vg->g.n, end, vg->back, vg->text, vg->bufs, VIEW_MARKS_MAX);
	vg->g.mark_back = vg->back;
	vg->g.mark_text = vg->text;
}

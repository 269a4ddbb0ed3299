/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_body.h: the views' shared body (ui_body.c) and the entry of each view (ui_view_*.c). */
#ifndef TT_UI_BODY_H
#define TT_UI_BODY_H

#include "tui/console/ui.h"

/*
 * A view body: lines drawn top down, clipped to its height, the first `skip`
 * of them scrolled away (view_top); n counts every line the view has, so the
 * scroll can be held at the last page.
 */
struct body {
	struct ui *ui;
	int y, end;
	int skip, n;
};

/* Graphs this wide or wider go two abreast (each keeps 36 columns: 58 braille samples). */
#define VIEW_GRAPH_MIN_W 26
#define VIEW_GRAPH_MIN_H 4
#define VIEW_GRAPH_MAX_H 24
#define VIEW_MARKS_MAX 16

/* A graph of one history ring with the markers of the knobs in mask. */
struct view_graph {
	struct ui_graph g;
	double v[UI_HIST_LEN];
	int back[VIEW_MARKS_MAX];
	const char *text[VIEW_MARKS_MAX];
	char bufs[VIEW_MARKS_MAX][48];
};

/* Count the next line; true when it shows, the cursor then at its start. Lines scrolled
 * away or below the body count too (n is how long the view is, for the scroll), so call it
 * for every line and draw only when it returns true. */
bool body_line(struct body *b);
/* A line of text in role; a table's heading (ROLE_TABLE_HEAD) fills the line. */
void body_text(struct body *b, enum theme_role role, const char *t);
/* A line of label text. */
#define body_title(b, t) body_text(b, ROLE_LABEL, t)
/* "label [sparkline] last" over the rest of the line. */
void body_chart(struct body *b, const char *label, enum ui_series s, double max, const char *unit);
/* v held within lo..hi. */
int body_clampi(int v, int lo, int hi);
/* n graphs abreast in h rows when each gets VIEW_GRAPH_MIN_W columns, else one under the
 * other, full width; each row a body line. Their grids are built only when a row shows and
 * released before it returns. */
void body_graphs_n(struct body *b, struct ui_graph **g, int n, int h);
/* body_graphs_n() of left and right, or of left alone when right is NULL. */
void body_graphs(struct body *b, struct ui_graph *left, struct ui_graph *right, int h);
/* vg: the ring h copied, titled, its goal line (NAN: none), its axis up to min_top at least,
 * and markers where a knob of the subsystems in mask (1 << enum subsys) changed. */
void body_graph_init(struct ui *ui, struct view_graph *vg, const struct ui_hist *h, unsigned mask,
		     const char *title, const char *unit, double goal, double min_top);

/* The views, each drawn into b from its top. est and pmd count every line and scroll as a
 * whole (b->skip, ui_views.c); blk and events scroll their own rows by view_top and set
 * view_max_top. */
void ui_view_est(struct body *b);
/* ui_view_esthost.c: the est view of a live host (ui_view_est calls it). */
void ui_view_est_host(struct body *b);
void ui_view_pmd(struct body *b);
/* The pmd view's pmd-perf-show histograms on a live OVS (ui_view_pmdhist.c): a bar chart per
 * PMD and histogram, each at most room rows (taller ones end in a line saying what is cut). */
void ui_view_pmd_hists(struct body *b, int room);
void ui_view_blk(struct body *b);
void ui_view_events(struct body *b);

#endif

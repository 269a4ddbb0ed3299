/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_view_pmdhist.c: the pmd view's pmd-perf-show histograms on a live OVS, a bar chart each
 * (tui/chart_bars.h), and the key that scrolls to the next PMD's charts. */
#include <inttypes.h>

#include "tui/chart_bars.h"
#include "tui/rowfmt_host.h"
#include "tui/console/ui_body.h"

/* The least rows a chart keeps however short the screen: its title, two bins, the marker. */
#define PMDHIST_MIN_ROWS 4

/* One bin's cell, w columns from the cursor: its label, the bar in the chart colour, the
 * count and its share. */
static void pmdhist_cell(struct ui *ui, const struct host_ovs_hist *g, const struct chart_bars *cb,
			 int i, int w)
{
	char label[32], bar[3 * 512 + 1];
	int bw = chart_bars_bar_w(cb, w);
	if (bw > 512)
		bw = 512;
	chart_bars_label(g->edge, i, label, sizeof(label));
	ui_put(ui, ROLE_NORMAL, "%*s ", CHART_BARS_LABEL_W, label);
	chart_bars_text(chart_bars_eighths(g->count[i], cb->max, bw), bw, ui->ascii, bar,
			sizeof(bar));
	ui_put(ui, ROLE_CHART, "%s", bar);
	/* ui_put cuts what passes the right margin and marks the cut. */
	ui_put(ui, ROLE_VALUE, " %*" PRIu64 " %5.1f%%", cb->count_w, g->count[i],
	       100.0 * (double)g->count[i] / (double)cb->total);
}

/*
 * One histogram: a title, then a row per bin from the first with a count to the last
 * (none when it counted nothing: the title says so). A chart taller than the view's rows
 * goes two columns of bins abreast where the width leaves bars of CHART_BARS_MIN_W (80
 * columns); still too tall, it keeps its first bins and ends with a line saying what the
 * cut ones hold: a chart never runs past one screen of the view.
 */
static void pmdhist_chart(struct body *b, const struct host_ovs_pmd_snap *x,
			  const struct host_ovs_hist *g, int room)
{
	struct ui *ui = b->ui;
	struct chart_bars cb;
	char a[256];
	chart_bars_make(g->count, g->nbins, &cb);
	body_title(b, rowfmt_host_hist_title(x, g, a, sizeof(a)));
	int cap = room - 1 < PMDHIST_MIN_ROWS - 1 ? PMDHIST_MIN_ROWS - 1 : room - 1;
	int ncol = chart_bars_columns(&cb, COLS, cap);
	int lines = (cb.nrows + ncol - 1) / ncol;
	int bins = lines <= cap ? cb.nrows : (cap - 1) * ncol; /* the bins shown */
	lines = (bins + ncol - 1) / ncol;
	int w = ncol == 1 ? COLS : COLS / 2 - 1;
	for (int r = 0; r < lines; r++) {
		if (!body_line(b))
			continue;
		int y = b->y - 1;
		pmdhist_cell(ui, g, &cb, cb.first + r, w);
		if (ncol == 2 && r + lines < bins) {
			move(y, COLS / 2);
			pmdhist_cell(ui, g, &cb, cb.first + r + lines, w);
		}
	}
	if (bins == cb.nrows || !body_line(b))
		return;
	uint64_t rest = 0;
	for (int i = cb.first + bins; i <= cb.last; i++)
		rest += g->count[i];
	char label[32];
	ui_put(ui, ROLE_DIM, "%*s %d bins cut, to %s: %" PRIu64, CHART_BARS_LABEL_W, "~",
	       cb.nrows - bins, chart_bars_label(g->edge, cb.last, label, sizeof(label)), rest);
}

void ui_view_pmd_hists(struct body *b, int room)
{
	struct ui *ui = b->ui;
	const struct host_snap *h = &ui->snap->host;
	char a[256];
	int have = 0;
	for (int j = 0; j < h->novs_pmds; j++)
		have += h->ovs_pmds[j].nhists > 0;
	ui->npmd_hist_at = 0;
	body_text(b, ROLE_TABLE_HEAD, rowfmt_host_hist_head);
	if (!have) {
		body_text(b, ROLE_DIM, rowfmt_host_hist_none);
		return;
	}
	for (int j = 0; j < h->novs_pmds; j++) {
		const struct host_ovs_pmd_snap *x = &h->ovs_pmds[j];
		/* Where this PMD's charts start, for the key that scrolls to them. */
		ui->pmd_hist_at[ui->npmd_hist_at++] = b->n;
		if (!x->nhists)
			body_text(b, ROLE_DIM, rowfmt_host_hist_title(x, NULL, a, sizeof(a)));
		for (int k = 0; k < x->nhists; k++)
			pmdhist_chart(b, x, &x->hist[k], room);
	}
}

int ui_pmd_hist_key(struct ui *ui, int ch)
{
	(void)ch;
	if (ui->view != VIEW_PMD || ui->fleet || !rowfmt_host_pmd(ui->snap)) {
		ui_status(ui, false,
			  "v: the pmd view (3) on a live OVS (--host) scrolls to a "
			  "PMD's pmd-perf-show histograms");
		return UI_REDRAW;
	}
	if (!ui->npmd_hist_at) {
		ui_status(ui, false,
			  "v: no histograms (OVS prints them with "
			  "other_config:pmd-perf-metrics=true)");
		return UI_REDRAW;
	}
	/* The next PMD's charts after the one at the top, or the first again. */
	int k = 0;
	while (k < ui->npmd_hist_at && ui->pmd_hist_at[k] <= ui->view_top)
		k++;
	if (k == ui->npmd_hist_at)
		k = 0;
	int top = ui->pmd_hist_at[k];
	if (top > ui->view_max_top)
		top = ui->view_max_top; /* the last page: the view ends below */
	if (top == ui->view_top) {
		k = 0; /* already there: round to the first again */
		top = ui->pmd_hist_at[0];
	}
	ui->view_top = top;
	ui_status(ui, false, "v: %s's histograms (v: the next PMD's)",
		  ui->snap->host.ovs_pmds[k].name);
	return UI_REDRAW;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_view_blk.c: the blk view: IOPS and latency, the submit x complete matrix, per-CPU rows. */
#include <inttypes.h>
#include <math.h>

#include "tui/rowfmt.h"
#include "tui/console/ui_body.h"

/* Submitting CPU (rows) x completing CPU (columns), completions per second over
 * the interval: only the CPUs that submitted (rows) or completed (columns)
 * anything, as many columns as the width allows and at most MAX_ROWS rows, so
 * the per-CPU table below keeps its place on a small screen. */
/* A per-CPU rate, "-" where the source has none (-1: JSON null). */
static const char *blk_rate(double v, char *buf, size_t len)
{
	return v < 0 ? "-" : rowfmt_count(v, buf, len);
}

static void blk_matrix(struct body *b, const struct blk_snap *k)
{
	struct ui *ui = b->ui;
	enum { LABEL_W = 9, COL_W = 7, MAX_ROWS = 8 };
	int rows[BLK_MATRIX_MAX], cols[BLK_MATRIX_MAX], nr = 0, nc = 0;
	int fit = (COLS - LABEL_W) / COL_W;
	char a[16];

	for (int i = 0; i < k->matrix_n; i++) {
		bool row = false, col = false;
		for (int j = 0; j < k->matrix_n; j++) {
			row |= k->matrix_per_s[i][j] > 0;
			col |= k->matrix_per_s[j][i] > 0;
		}
		if (row)
			rows[nr++] = i;
		if (col && nc < fit)
			cols[nc++] = i;
	}
	if (nr == 0 || nc == 0) {
		body_title(b, "submit x complete: no completions in the interval");
		return;
	}
	if (body_line(b)) {
		ui_put(ui, ROLE_TABLE_HEAD, "%-*s", LABEL_W, "sub\\done");
		for (int c = 0; c < nc; c++) {
			char h[16];
			snprintf(h, sizeof(h), "cpu%d%s", cols[c],
				 cols[c] == k->irq_cpu ? "*" : "");
			ui_put(ui, ROLE_TABLE_HEAD, "%*s", COL_W, h);
		}
		ui_put(ui, ROLE_TABLE_HEAD, " /s%s", k->ncpus > k->matrix_n ? " (CPUs 0-15)" : "");
	}
	for (int r = 0; r < nr && r < MAX_ROWS; r++) {
		if (!body_line(b))
			continue;
		char l[16];
		snprintf(l, sizeof(l), "cpu%d", rows[r]);
		ui_put(ui, ROLE_LABEL, "%-*s", LABEL_W, l);
		for (int c = 0; c < nc; c++) {
			double v = k->matrix_per_s[rows[r]][cols[c]];
			ui_put(ui,
			       v > 0 ? (rows[r] == cols[c] ? ROLE_VALUE : ROLE_NORMAL) : ROLE_LABEL,
			       "%*s", COL_W, v > 0 ? rowfmt_count(v, a, sizeof(a)) : ".");
		}
	}
}

#define MASK_BLK ((1u << SUBSYS_BLK) | (1u << SUBSYS_CPU))

static void blk_graphs(struct body *b, int h)
{
	struct ui *ui = b->ui;
	static struct view_graph iops, p99;
	body_graph_init(ui, &iops, &ui->hist[HIST_BLK_IOPS], MASK_BLK, "IOPS", "", NAN, 1);
	body_graph_init(ui, &p99, &ui->hist[HIST_BLK_P99_US], MASK_BLK, "p99", "us", NAN, 1);
	body_graphs(b, &iops.g, &p99.g, h);
}

/* The view's heading: whole figures only, so at 60 columns a latency is left out with the cut
 * marker rather than shown in part ("p999 10650" of 10650us). */
static void blk_heading(struct ui *ui, const struct blk_snap *k)
{
	char a[16], c[16], r[24];
	const struct snapshot *s = ui->snap;
	/* The device's own value (the header's too): a host without the device has none, and the
	 * knob's default is not it. Figures the source lacks are "-", never 0. */
	ui_put_whole(ui, ROLE_NORMAL, "rq_affinity %s  %s IOPS",
		     rowfmt_opt((double)k->rq_affinity, false, "%.0f", r, sizeof(r)),
		     snapshot_absent(s, "blk.iops") ? "-" : rowfmt_count(k->iops, a, sizeof(a)));
	/* A hung queue has no latency: its stuck requests have none yet. */
	if (snapshot_absent(s, "blk.lat_us"))
		ui_put_whole(ui, ROLE_NORMAL, "  p50 - p99 - p999 -");
	else if (k->hung)
		ui_put_whole(ui, ROLE_ERROR, "  - (HUNG: %d submitter%s)", k->hung_submitters,
			     k->hung_submitters == 1 ? "" : "s");
	else if (ui_put_whole(ui, ROLE_NORMAL, "  p50 %.0fus", k->lat_p50_us) &&
		 ui_put_whole(ui, ROLE_NORMAL, " p99 %.0fus", k->lat_p99_us))
		ui_put_whole(ui, ROLE_NORMAL, " p999 %.0fus", k->lat_p999_us);
	ui_put_whole(ui, ROLE_NORMAL, "  IPIs %s/s", rowfmt_count(k->ipis_per_s, c, sizeof(c)));
}

/* The cost of a completion in the interval, from the blk threads' own CPU clocks: what
 * steering trades (docs/blk.md §8); - when no completion was counted. */
static void blk_per_cpl(struct ui *ui, const struct blk_snap *k)
{
	if (k->per_cpl_valid)
		ui_put(ui, ROLE_NORMAL,
		       "per completion: CPU %.1fus (irq %.1fus, submitters %.1fus)  IPIs "
		       "%.3f",
		       k->cpu_ns_per_cpl / 1e3, k->irq_ns_per_cpl / 1e3, k->sub_ns_per_cpl / 1e3,
		       k->ipis_per_cpl);
	else
		ui_put(ui, ROLE_LABEL, "per completion: CPU -  IPIs -");
	/* The CPU above includes what blk.ipi_cost_ns adds: say it is emulated, as the
	 * header says of an emulated governor. */
	int64_t cost = ui->snap->knobs[K_BLK_IPI_COST_NS];
	if (cost > 0 && !ui->snap->knob_absent[K_BLK_IPI_COST_NS])
		ui_put_whole(ui, ROLE_NORMAL, "  IPI cost %.1fus (emulated)", (double)cost / 1e3);
}

/* Per second over the last interval ("now"), a row per CPU under its heading; the rows scroll
 * (view_top), the lines above stay. The totals are in the JSON. */
static void blk_cpus(struct body *b, const struct blk_snap *k)
{
	struct ui *ui = b->ui;
	char a[16], c[16], d[16];
	if (body_line(b))
		ui_put(ui, ROLE_TABLE_HEAD, "%-*s", COLS,
		       " CPU LLC  BLOCK runs/s   IPIs recv/s   completed/s");
	int rows = b->end - b->y;
	ui->view_max_top = k->ncpus > rows ? k->ncpus - rows : 0;
	if (ui->view_end || ui->view_top > ui->view_max_top) /* End: the last rows, as they move */
		ui->view_top = ui->view_max_top;
	for (int i = ui->view_top; i < k->ncpus; i++) {
		if (!body_line(b))
			break;
		const struct blk_cpu_snap *pc = &k->per_cpu[i];
		ui_put(ui, pc->cpu == k->irq_cpu ? ROLE_VALUE : ROLE_NORMAL,
		       "%4d %3d %13s %13s %13s%s", pc->cpu, pc->llc,
		       blk_rate(pc->block_softirq_per_s, a, sizeof(a)),
		       blk_rate(pc->ipi_recv_per_s, c, sizeof(c)),
		       blk_rate(pc->completed_per_s, d, sizeof(d)),
		       pc->cpu == k->irq_cpu ? "  (irq)" : "");
	}
}

void ui_view_blk(struct body *b)
{
	struct ui *ui = b->ui;
	const struct blk_snap *k = &ui->snap->blk;
	char d[16];

	if (!ui->snap->has_blk) {
		char nr[256];
		body_title(b, ui_not_running(ui, "blk", K_BLK_ENABLED, nr, sizeof(nr)));
		return;
	}
	if (body_line(b))
		blk_heading(ui, k);
	if (body_line(b)) {
		char e[16], f[16];
		if (snapshot_absent(ui->snap, "blk.completions"))
			/* A host: the kernel does not say how each completion ran. */
			ui_put(ui, ROLE_NORMAL,
			       "completed: direct -  local softirq -  remote -  in flight %s",
			       snapshot_absent(ui->snap, "blk.totals")
				   ? "-"
				   : rowfmt_count((double)k->in_flight, d, sizeof(d)));
		else /* in flight as found where the requests are; the JSON has the totals. */
			ui_put(
			    ui, k->bound_broken ? ROLE_ERROR : ROLE_NORMAL,
			    "completed: direct %s  local softirq %s  remote %s  in flight %" PRIu64,
			    rowfmt_count((double)k->direct, e, sizeof(e)),
			    rowfmt_count((double)k->local_softirq, f, sizeof(f)),
			    rowfmt_count((double)k->remote, d, sizeof(d)), k->in_flight);
	}
	if (body_line(b))
		blk_per_cpl(ui, k);
	/* What rq_affinity 0 costs: the one interrupt CPU runs every completion and is busy
	 * nearly all the interval; ran (blk-irq's own CPU) plus what the host took of it is the
	 * busy time, each % of the interval (docs/blk.md "The trade-off on two CPUs"); - without an
	 * interrupt thread to watch (a host) or before the first interval. */
	if (body_line(b)) {
		if (!k->irq_busy_valid)
			ui_put(ui, ROLE_LABEL, "irq CPU busy - of interval: ran -, host took -");
		else if (ui_put_whole(ui, ROLE_NORMAL, "irq CPU busy %.0f%% of interval",
				      k->irq_busy_pct))
			ui_put_whole(ui, ROLE_NORMAL, ": ran %.0f%%, host took %.0f%%",
				     k->irq_cpu_pct, k->irq_host_took_pct);
	}
	if (k->hung && body_line(b))
		ui_put(ui, ROLE_ERROR, "p99 - (HUNG: stuck requests have no latency yet)");
	/* IOPS and p99 as graphs with the knob markers, in the rows the tables below leave. */
	int below = 1 + (k->matrix_n < 8 ? k->matrix_n : 8) + 1 + k->ncpus;
	blk_graphs(b, body_clampi(b->end - b->y - below, VIEW_GRAPH_MIN_H, VIEW_GRAPH_MAX_H / 2));
	blk_matrix(b, k);
	blk_cpus(b, k);
}

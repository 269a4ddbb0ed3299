/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_view_est.c: the est view: totals, tick time, calibration, graphs, kthreads, histogram. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "tui/rowfmt.h"
#include "tui/console/ui_body.h"

#define MASK_EST ((1u << SUBSYS_EST) | (1u << SUBSYS_CPU))

/* Bucket i of the tick-time histogram as its range: [2^i, 2^(i+1)) us, 0: < 2 us (est_snap.h). */
static const char *tick_bucket_label(int i, char *buf, size_t len)
{
	char lo[16], hi[16];
	rowfmt_ns((uint64_t)NS_PER_US << i, lo, sizeof(lo));
	rowfmt_ns((uint64_t)NS_PER_US << (i + 1), hi, sizeof(hi));
	if (i == 0)
		snprintf(buf, len, "< %s", hi);
	else if (i == EST_TICK_HIST_BUCKETS - 1)
		snprintf(buf, len, ">= %s", lo); /* the last bucket takes everything longer */
	else
		snprintf(buf, len, "%s-%s", lo, hi);
	return buf;
}

/* The calibrations kept up to the sample shown (frozen: none from after it). */
static size_t calibs_shown(const struct ui *ui)
{
	size_t n = ui->ncalib;
	while (ui->frozen && n && ui->calib[n - 1].count > ui->snap->est.calib.count)
		n--;
	return n;
}

/* Tick time, the busiest kthread's CPU% (both against their goals) and chain_max per
 * calibration: abreast in room rows, or one under the other on a narrow screen. */
static void est_graphs(struct body *b, int room)
{
	struct ui *ui = b->ui;
	static struct view_graph tick, kt, chain;
	bool abreast = COLS >= 3 * VIEW_GRAPH_MIN_W;
	int gh = body_clampi(abreast ? room : room / 3, VIEW_GRAPH_MIN_H + 1, 2 * VIEW_GRAPH_MAX_H);

	body_graph_init(ui, &tick, &ui->charts.est_tick_ms, MASK_EST, "tick", "ms",
			(double)UI_EST_TICK_GOAL_NS / 1e6, 0.1);
	body_graph_init(ui, &kt, &ui->charts.est_kt_cpu, MASK_EST, "kt CPU", "%",
			EST_KTHREAD_GOAL_PCT, 1);

	/* chain_max per calibration: a bar each, the governor named where it changed. */
	memset(&chain.g, 0, sizeof(chain.g));
	snprintf(chain.g.title, sizeof(chain.g.title), "chain_max/calib");
	chain.g.unit = "";
	chain.g.goal = NAN;
	chain.g.min_top = 1;
	chain.g.slots_per_value = 3;
	size_t ncalib = calibs_shown(ui);
	for (size_t i = 0; i < ncalib; i++) {
		chain.v[i] = ui->calib[i].chain_max;
		if ((i == 0 || ui->calib[i].governor != ui->calib[i - 1].governor) &&
		    chain.g.nmarks < VIEW_MARKS_MAX) {
			snprintf(chain.bufs[chain.g.nmarks], sizeof(chain.bufs[0]), "%s",
				 cpu_governor_name(ui->calib[i].governor));
			chain.back[chain.g.nmarks] = (int)(ncalib - 1 - i);
			chain.text[chain.g.nmarks] = chain.bufs[chain.g.nmarks];
			chain.g.nmarks++;
		}
	}
	chain.g.n = ncalib;
	chain.g.has_cursor = ui->frozen && ncalib > 0; /* the calibration in force then */
	chain.g.v = chain.v;
	chain.g.mark_back = chain.back;
	chain.g.mark_text = chain.text;
	struct ui_graph *g[3] = {&tick.g, &kt.g, &chain.g};
	body_graphs_n(b, g, 3, gh);
}

/* The totals, tick time and last calibration: four lines. */
static void est_totals(struct body *b, const struct est_snap *e)
{
	struct ui *ui = b->ui;
	char a[16], c[16], d[16], g[16];
	if (body_line(b))
		ui_put(ui, ROLE_NORMAL,
		       "ests %" PRIu64 " = placed %" PRIu64 " + pending %" PRIu64
		       "  kthreads %d/%d  est_cpus %d%s",
		       e->estimators, e->placed, e->pending, e->kthreads, e->max_threads,
		       e->est_cpus, e->config_held ? "  (held: as before)" : "");
	if (body_line(b))
		ui_put(ui, ROLE_NORMAL, "tick last %s avg %s max %s  goal %s",
		       rowfmt_ns(e->tick_ns_last, a, sizeof(a)),
		       rowfmt_ns(e->tick_ns_avg, c, sizeof(c)),
		       rowfmt_ns(e->tick_ns_max, d, sizeof(d)),
		       rowfmt_ns(UI_EST_TICK_GOAL_NS, g, sizeof(g)));
	if (body_line(b))
		ui_put(ui, ROLE_NORMAL,
		       "ticks %" PRIu64 " visits %" PRIu64 " in the interval  chain_max %d"
		       "  tick_chains %d",
		       e->ticks, e->visits, e->chain_max, e->tick_chains);
	if (body_line(b))
		ui_put(ui, ROLE_NORMAL,
		       "calibration #%" PRIu64
		       ": chain_max %d single_est %s loops %d tests %d/%d %s",
		       e->calib.count, e->calib.chain_max,
		       rowfmt_ns(e->calib.single_est_ns, a, sizeof(a)), e->calib.loops,
		       e->calib.valid_tests, e->calib.tests, cpu_governor_name(e->calib.governor));
}

/* The kthreads' table: heading and rows from the same widths, so the figures sit under their
 * names. */
static void est_kthreads(struct body *b, const struct est_snap *e)
{
	struct ui *ui = b->ui;
	if (body_line(b)) {
		ui_put(ui, ROLE_LABEL, "kthreads ");
		ui_put(ui, ROLE_TABLE_HEAD, "%5s %8s %5s %5s %6s", "KT", "ESTS", "ROWS", "FULL",
		       "CPU%");
		ui_put(ui, ROLE_DIM, "  (CPU%% of one core, goal %.1f%%)", EST_KTHREAD_GOAL_PCT);
	}
	for (int k = 0; k < e->nkt; k++) {
		const struct est_kt_snap *kt = &e->kt[k];
		if (!body_line(b))
			continue; /* still counted: the scroll knows how long the view is */
		ui_put(ui, ROLE_NORMAL, "         %5d %8u %5u %5u ", kt->id, kt->estimators,
		       kt->rows_filled, kt->rows_full);
		ui_put(ui, kt->cpu_pct > EST_KTHREAD_GOAL_PCT ? ROLE_WARN : ROLE_NORMAL, "%6.1f",
		       kt->cpu_pct);
	}
	if (e->kthreads > e->nkt && body_line(b))
		ui_put(ui, ROLE_DIM, "         (%d more kthreads, in the totals only)",
		       e->kthreads - e->nkt);
}

/* Tick-time histogram: buckets lo..hi (the non-empty range), one bar each against top. */
static void est_tick_hist(struct body *b, const struct est_snap *e, int lo, int hi, uint64_t top)
{
	struct ui *ui = b->ui;
	char range[32];
	body_title(b, lo < 0 ? "tick time histogram: no tick with estimators yet"
			     : "tick time histogram (ticks since start, all kthreads)");
	for (int i = lo; lo >= 0 && i <= hi; i++) {
		if (!body_line(b))
			continue;
		int w = (int)(30.0 * (double)e->tick_hist[i] / (double)top + 0.5);
		if (e->tick_hist[i] && w == 0)
			w = 1; /* a bucket with ticks never looks empty */
		ui_put(ui, ROLE_NORMAL, "  %17s ", tick_bucket_label(i, range, sizeof(range)));
		/* Buckets wholly over the 4.8 ms goal stand out (bold in mono). */
		bool over = ((uint64_t)NS_PER_US << i) >= UI_EST_TICK_GOAL_NS && i > 0;
		for (int k = 0; k < 30; k++)
			ui_put(ui, over ? ROLE_WARN : ROLE_CHART, "%c", k < w ? '#' : ' ');
		ui_put(ui, ROLE_NORMAL, " %" PRIu64, e->tick_hist[i]);
	}
}

/* The calibrations kept, newest first. */
static void est_calibs(struct body *b)
{
	struct ui *ui = b->ui;
	char a[16];
	body_title(b, "calibrations: #  chain_max  single_est  governor");
	for (size_t i = calibs_shown(ui); i-- > 0;) {
		if (!body_line(b))
			continue;
		ui_put(ui, ROLE_NORMAL, "        %3" PRIu64 " %10d  %10s  %s", ui->calib[i].count,
		       ui->calib[i].chain_max, rowfmt_ns(ui->calib[i].single_est_ns, a, sizeof(a)),
		       cpu_governor_name(ui->calib[i].governor));
	}
}

/*
 * The est view, one section under the other so each table keeps its own
 * heading in any width: totals, tick time, calibration, the tick chart, the
 * kthreads (vs the 12.5% goal), the tick-time histogram, past calibrations.
 */
void ui_view_est(struct body *b)
{
	struct ui *ui = b->ui;
	const struct est_snap *e = &ui->snap->est;
	int h_view = b->end - b->y;

	if (!ui->snap->has_est) {
		char nr[256];
		body_title(b, ui_not_running(ui, "est", K_EST_ENABLED, nr, sizeof(nr)));
		return;
	}
	if (ui->snap->has_host) {
		ui_view_est_host(b);
		return;
	}
	est_totals(b, e);
	est_kthreads(b, e);

	/* Tick-time histogram: the range of non-empty buckets. */
	int lo = -1, hi = -1;
	uint64_t top = 0;
	for (int i = 0; i < EST_TICK_HIST_BUCKETS; i++) {
		if (!e->tick_hist[i])
			continue;
		if (lo < 0)
			lo = i;
		hi = i;
		if (e->tick_hist[i] > top)
			top = e->tick_hist[i];
	}
	/* The graphs take the rows the tables below leave, so at 80x24 all of it shows. */
	int below = 1 + (lo < 0 ? 0 : hi - lo + 1) + 1 + (int)calibs_shown(ui);
	int above = 4 + 1 + e->nkt + (e->kthreads > e->nkt);
	est_graphs(b, h_view - above - below);
	est_tick_hist(b, e, lo, hi, top);
	est_calibs(b);
}

/* ui_views.c: the est, pmd, blk and events views (the rows between header and status). */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "tui/rowfmt.h"
#include "tui/rowfmt_sleep.h"
#include "tui/rowfmt_host.h"
#include "tui/ui.h"

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

static bool body_line(struct body *b)
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

static void title(struct body *b, const char *t)
{
	if (!body_line(b))
		return;
	ui_put(b->ui, ROLE_LABEL, "%s", t);
}

/* "label [sparkline] last" over the rest of the line. */
static void chart(struct body *b, const char *label, enum ui_series s, double max, const char *unit)
{
	struct ui *ui = b->ui;
	char last[32];
	if (!body_line(b))
		return;
	snprintf(last, sizeof(last), " %.2f%s", ui_hist_last(&ui->hist[s]), unit);
	ui_put(ui, ROLE_LABEL, "%-13s", label);
	int w = COLS - 13 - 14;
	ui_hist_draw(ui, s, b->y - 1, 13, w, max);
	move(b->y - 1, 13 + w);
	ui_put(ui, ROLE_VALUE, "%s", last);
}

/* Graphs this wide or wider go two abreast (each keeps 36 columns: 58 braille samples). */
#define VIEW_GRAPH_MIN_W 26
#define VIEW_GRAPH_MIN_H 4
#define VIEW_GRAPH_MAX_H 24
#define VIEW_MARKS_MAX 16

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* n graphs abreast in h rows when each gets VIEW_GRAPH_MIN_W columns, else one under the
 * other, full width. Each row is a body line (it scrolls); a graph is built only when one
 * of its rows shows. */
static void graphs_n(struct body *b, struct ui_graph **g, int n, int h)
{
	struct ui *ui = b->ui;
	if (n > 1 && COLS < n * VIEW_GRAPH_MIN_W) {
		for (int i = 0; i < n; i++)
			graphs_n(b, &g[i], 1, h);
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

static void graphs(struct body *b, struct ui_graph *left, struct ui_graph *right, int h)
{
	struct ui_graph *g[2] = { left, right };
	graphs_n(b, g, right ? 2 : 1, h);
}

/* A graph of one history ring with the markers of the knobs in mask. */
struct view_graph {
	struct ui_graph g;
	double v[UI_HIST_LEN];
	int back[VIEW_MARKS_MAX];
	const char *text[VIEW_MARKS_MAX];
	char bufs[VIEW_MARKS_MAX][48];
};

static void view_graph_init(struct ui *ui, struct view_graph *vg, const struct ui_hist *h,
			    unsigned mask, const char *title, const char *unit, double goal,
			    double min_top)
{
	memset(&vg->g, 0, sizeof(vg->g));
	snprintf(vg->g.title, sizeof(vg->g.title), "%s", title);
	vg->g.unit = unit;
	vg->g.n = ui_hist_copy(h, vg->v, UI_HIST_LEN);
	vg->g.v = vg->v;
	vg->g.goal = goal;
	vg->g.min_top = min_top;
	vg->g.nmarks = ui_chart_marks(ui, mask, vg->g.n, vg->back, vg->text, vg->bufs,
				      VIEW_MARKS_MAX);
	vg->g.mark_back = vg->back;
	vg->g.mark_text = vg->text;
}

#define MASK_EST ((1u << SUBSYS_EST) | (1u << SUBSYS_CPU))
#define MASK_PMD ((1u << SUBSYS_PMD) | (1u << SUBSYS_CPU))

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

/*
 * The est view, one section under the other so each table keeps its own
 * heading in any width: totals, tick time, calibration, the tick chart, the
 * kthreads (vs the 12.5% goal), the tick-time histogram, past calibrations.
 */
/* Tick time, the busiest kthread's CPU% (both against their goals) and chain_max per
 * calibration: abreast in room rows, or one under the other on a narrow screen. */
static void est_graphs(struct body *b, int room)
{
	struct ui *ui = b->ui;
	static struct view_graph tick, kt, chain;
	bool abreast = COLS >= 3 * VIEW_GRAPH_MIN_W;
	int gh = clampi(abreast ? room : room / 3, VIEW_GRAPH_MIN_H + 1, 2 * VIEW_GRAPH_MAX_H);

	view_graph_init(ui, &tick, &ui->charts.est_tick_ms, MASK_EST, "tick", "ms",
			(double)UI_EST_TICK_GOAL_NS / 1e6, 0.1);
	view_graph_init(ui, &kt, &ui->charts.est_kt_cpu, MASK_EST, "kt CPU", "%",
			EST_KTHREAD_GOAL_PCT, 1);

	/* chain_max per calibration: a bar each, the governor named where it changed. */
	memset(&chain.g, 0, sizeof(chain.g));
	snprintf(chain.g.title, sizeof(chain.g.title), "chain_max/calib");
	chain.g.unit = "";
	chain.g.goal = NAN;
	chain.g.min_top = 1;
	chain.g.slots_per_value = 3;
	for (size_t i = 0; i < ui->ncalib; i++) {
		chain.v[i] = ui->calib[i].chain_max;
		if ((i == 0 || ui->calib[i].governor != ui->calib[i - 1].governor) &&
		    chain.g.nmarks < VIEW_MARKS_MAX) {
			snprintf(chain.bufs[chain.g.nmarks], sizeof(chain.bufs[0]), "%s",
				 cpu_governor_name(ui->calib[i].governor));
			chain.back[chain.g.nmarks] = (int)(ui->ncalib - 1 - i);
			chain.text[chain.g.nmarks] = chain.bufs[chain.g.nmarks];
			chain.g.nmarks++;
		}
	}
	chain.g.n = ui->ncalib;
	chain.g.v = chain.v;
	chain.g.mark_back = chain.back;
	chain.g.mark_text = chain.text;
	struct ui_graph *g[3] = { &tick.g, &kt.g, &chain.g };
	graphs_n(b, g, 3, gh);
}

static void est_view(struct body *b)
{
	struct ui *ui = b->ui;
	const struct est_snap *e = &ui->snap->est;
	char a[16], c[16], d[16], g[16], range[32];
	int h_view = b->end - b->y;

	if (!ui->snap->has_est) {
		title(b, "est is not running (:set est.enabled=on)");
		return;
	}
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

	/* Heading and rows from the same widths, so the figures sit under their names. */
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

	/* Tick-time histogram: the range of non-empty buckets, one bar each. */
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
	int below = 1 + (lo < 0 ? 0 : hi - lo + 1) + 1 + (int)ui->ncalib;
	int above = 4 + 1 + e->nkt + (e->kthreads > e->nkt);
	est_graphs(b, h_view - above - below);
	title(b, lo < 0 ? "tick time histogram: no tick with estimators yet"
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
	title(b, "calibrations: #  chain_max  single_est  governor");
	for (size_t i = ui->ncalib; i-- > 0;) {
		if (!body_line(b))
			continue;
		ui_put(ui, ROLE_NORMAL, "        %3" PRIu64 " %10d  %10s  %s", ui->calib[i].count,
		       ui->calib[i].chain_max, rowfmt_ns(ui->calib[i].single_est_ns, a, sizeof(a)),
		       cpu_governor_name(ui->calib[i].governor));
	}
}

/* Per PMD, drop% beside CPU%; with the trade-off (t) its curve first. */
static void pmd_graphs(struct body *b, int room)
{
	struct ui *ui = b->ui;
	const struct pmd_snap *p = &ui->snap->pmd;
	static struct view_graph drop, cpu;
	bool pair = COLS >= 2 * VIEW_GRAPH_MIN_W;

	if (ui->charts.to.state != TRADEOFF_OFF) {
		int th = clampi(room / 2, 7, 16);
		for (int r = 0; r < th; r++)
			if (body_line(b))
				ui_tradeoff_row(ui, r, th);
		room -= th;
	}
	int n = p->nthreads < UI_CHART_PMDS ? p->nthreads : UI_CHART_PMDS;
	int per = pair ? 1 : 2; /* graphs stacked per PMD */
	while (n > 1 && room / (n * per) < VIEW_GRAPH_MIN_H + 1)
		n--; /* fewer PMDs, each readable; the rest scroll into view no more */
	int ph = n ? clampi(room / (n * per), VIEW_GRAPH_MIN_H, VIEW_GRAPH_MAX_H) : 0;
	for (int i = 0; i < n; i++) {
		char name[sizeof(p->threads[0].name)], title[48];
		rowfmt_name(p->threads[i].name, name, sizeof(name));
		snprintf(title, sizeof(title), "drop%% %s", name);
		view_graph_init(ui, &drop, &ui->charts.pmd_drop[i], MASK_PMD, title, "%", NAN, 1);
		snprintf(title, sizeof(title), "CPU%% %s", name);
		view_graph_init(ui, &cpu, &ui->charts.pmd_cpu[i], MASK_PMD, title, "%", NAN, 100);
		graphs(b, &drop.g, &cpu.g, ph);
	}
}

/* Slack, run-queue delay and overshoot (own and the kernel's), then the probe's histogram. */
static void pmd_sleep_lines(struct body *b)
{
	struct ui *ui = b->ui;
	const struct pmd_snap *p = &ui->snap->pmd;
	char a[512];
	if (body_line(b))
		ui_put(ui, p->bpf_probe ? ROLE_NORMAL : ROLE_DIM, "%s",
		       rowfmt_sleep_probe(ui->snap, a, sizeof(a)));
	if (body_line(b))
		ui_put(ui, ROLE_TABLE_HEAD, "%-*.*s", COLS, COLS,
		       ui->snap->has_host ? rowfmt_sleep_head_host : rowfmt_sleep_head);
	for (int i = 0; i < p->nthreads; i++)
		if (body_line(b))
			ui_put(ui, ROLE_NORMAL, "%s", rowfmt_sleep_row(ui->snap, i, a, sizeof(a)));
	for (int i = 0; p->bpf_probe && i < p->nthreads; i++)
		if (body_line(b))
			ui_put(ui, ROLE_CHART, "%s", rowfmt_sleep_hist(&p->threads[i], a, sizeof(a)));
}

/* The pmd view on a live OVS: only what OVS reports, full PMD names, "-" for no baseline. */
static void pmd_host_view(struct body *b)
{
	struct ui *ui = b->ui;
	const struct pmd_snap *p = &ui->snap->pmd;
	char a[512];

	if (body_line(b))
		ui_put(ui, ROLE_NORMAL, "%s", rowfmt_host_summary(ui->snap, a, sizeof(a)));
	if (body_line(b))
		ui_put(ui, ROLE_TABLE_HEAD, "%-*.*s", COLS, COLS, rowfmt_host_pmd_head);
	for (int i = 0; i < p->nthreads; i++)
		if (body_line(b))
			ui_put(ui, ROLE_NORMAL, "%s",
			       rowfmt_host_pmd_row(&p->threads[i], a, sizeof(a)));
	int n = rowfmt_host_nlines(ui->snap);
	for (int i = 0; i < n; i++) {
		const char *t = rowfmt_host_line(ui->snap, i, a, sizeof(a));
		/* Headings are the lines that start with a letter in column 0 of a section. */
		bool head = i == 0 || i == 1 + ui->snap->host.novs_pmds ||
			    i == 2 + ui->snap->host.novs_pmds + ui->snap->host.novs_rxqs;
		if (body_line(b))
			ui_put(ui, head ? ROLE_TABLE_HEAD : ROLE_NORMAL, "%s", t);
	}
	pmd_sleep_lines(b);
	char label[32];
	snprintf(label, sizeof(label), "CPU%% %s", p->nthreads ? "PMD 1" : "pmd");
	chart(b, label, HIST_PMD_CPU_PCT, 100.0, "%");
}

static void pmd_view(struct body *b)
{
	struct ui *ui = b->ui;
	const struct pmd_snap *p = &ui->snap->pmd;
	char a[512];
	int h_view = b->end - b->y;

	if (!ui->snap->has_pmd) {
		/* On the host the reason is OVS's own, not the engine's knob. */
		title(b, ui->snap->has_host ? rowfmt_host_no_pmd(ui->snap, a, sizeof(a))
					    : "pmd is not running (:set pmd.enabled=on)");
		return;
	}
	if (rowfmt_host_pmd(ui->snap)) {
		pmd_host_view(b);
		return;
	}
	if (body_line(b))
		ui_put(ui, ROLE_NORMAL,
		       "offered %s pps  maxsleep %" PRId64 "us  sleep_inc %" PRId64
		       "us  slack %" PRId64 "ns",
		       rowfmt_count(p->offered_pps, a, sizeof(a)),
		       /* The knobs as the snapshot carries them: the header shows the same. */
		       ui->snap->knobs[K_PMD_MAXSLEEP_US], ui->snap->knobs[K_PMD_SLEEP_INC_US],
		       ui->snap->knobs[K_PMD_TIMER_SLACK_NS]);
	if (body_line(b)) {
		/* Drops now, and how many of them arrived while their PMD slept. */
		ui_put(ui, ROLE_NORMAL, "drop ");
		ui_put(ui, p->drop_pct > 0.1 ? ROLE_ERROR : ROLE_VALUE, "%.2f%%", p->drop_pct);
		ui_put(ui, ROLE_NORMAL, " (%s/s, %s while asleep)  latency ",
		       rowfmt_count(p->dropped_pps, a, sizeof(a)),
		       rowfmt_count((double)p->drops_while_asleep, a + 32, sizeof(a) - 32));
		if (p->hung)
			ui_put(ui, ROLE_ERROR, "- (HUNG)");
		else if (!p->lat_valid)
			ui_put(ui, ROLE_NORMAL, "-");
		else
			ui_put(ui, ROLE_VALUE, "p50 %.0fus p99 %.0fus", p->lat_p50_us, p->lat_p99_us);
	}
	if (body_line(b)) {
		/* in flight is what the rings hold; the remainder is in the PMDs' hands
		 * (exactly 0 when paused: the engine's invariant check). */
		ui_put(ui, p->bound_broken ? ROLE_ERROR : ROLE_NORMAL,
		       "generated %" PRIu64 " = forwarded %" PRIu64 " + dropped %" PRIu64
		       " + in rings %" PRIu64 " %+" PRId64,
		       p->generated, p->forwarded, p->dropped, p->in_flight, p->unaccounted);
	}
	if (body_line(b))
		ui_put(ui, ROLE_TABLE_HEAD, "%-*.*s", COLS, COLS, rowfmt_pmd_head);
	for (int i = 0; i < p->nthreads; i++) {
		if (!body_line(b))
			continue; /* counted for the scroll */
		rowfmt_pmd(&p->threads[i], a, sizeof(a));
		ui_put(ui, p->threads[i].drop_pct > 0.1 ? ROLE_ERROR : ROLE_NORMAL, "%s", a);
	}
	/* Drops while asleep beside drop%: sleep's share of the drops, not the scheduler's. */
	if (body_line(b)) {
		ui_put(ui, ROLE_LABEL, "drops while asleep (interval):");
		for (int i = 0; i < p->nthreads; i++) {
			char name[sizeof(p->threads[0].name)];
			ui_put(ui, p->threads[i].drops_while_asleep ? ROLE_WARN : ROLE_NORMAL,
			       " %s %" PRIu64, rowfmt_name(p->threads[i].name, name, sizeof(name)),
			       p->threads[i].drops_while_asleep);
		}
	}
	pmd_graphs(b, h_view - (5 + p->nthreads)); /* the lines above: 5 and a row per PMD */
	/* Slack, run-queue delay and the kernel's overshoot: below the graphs (they scroll). */
	pmd_sleep_lines(b);
}

/* Submitting CPU (rows) x completing CPU (columns), completions per second over
 * the interval: only the CPUs that submitted (rows) or completed (columns)
 * anything, as many columns as the width allows and at most MAX_ROWS rows, so
 * the per-CPU table below keeps its place on a small screen. */
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
		if (body_line(b))
			ui_put(ui, ROLE_LABEL, "submit x complete: no completions in the interval");
		return;
	}
	if (body_line(b)) {
		ui_put(ui, ROLE_TABLE_HEAD, "%-*s", LABEL_W, "sub\\done");
		for (int c = 0; c < nc; c++) {
			char h[16];
			snprintf(h, sizeof(h), "cpu%d%s", cols[c], cols[c] == k->irq_cpu ? "*" : "");
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
			ui_put(ui, v > 0 ? (rows[r] == cols[c] ? ROLE_VALUE : ROLE_NORMAL) : ROLE_LABEL,
			       "%*s", COL_W, v > 0 ? rowfmt_count(v, a, sizeof(a)) : ".");
		}
	}
}

static void blk_view(struct body *b)
{
	struct ui *ui = b->ui;
	const struct blk_snap *k = &ui->snap->blk;
	char a[16], c[16], d[16];

	if (!ui->snap->has_blk) {
		title(b, "blk is not running (:set blk.enabled=on)");
		return;
	}
	if (body_line(b)) {
		ui_put(ui, ROLE_NORMAL, "rq_affinity %" PRId64 "  %s IOPS  ",
			ui->snap->knobs[K_BLK_RQ_AFFINITY],
		       rowfmt_count(k->iops, a, sizeof(a)));
		/* A hung queue has no latency: its stuck requests have none yet. */
		if (k->hung)
			ui_put(ui, ROLE_ERROR, "- (HUNG: %d submitter%s)", k->hung_submitters,
			       k->hung_submitters == 1 ? "" : "s");
		else
			ui_put(ui, ROLE_NORMAL, "p50 %.0fus p99 %.0fus p999 %.0fus", k->lat_p50_us,
			       k->lat_p99_us, k->lat_p999_us);
		ui_put(ui, ROLE_NORMAL, "  IPIs %s/s", rowfmt_count(k->ipis_per_s, c, sizeof(c)));
	}
	if (body_line(b)) {
		char e[16], f[16];
		/* in flight as found where the requests are; the JSON has the totals. */
		ui_put(ui, k->bound_broken ? ROLE_ERROR : ROLE_NORMAL,
		       "completed: direct %s  local softirq %s  remote %s  in flight %" PRIu64,
		       rowfmt_count((double)k->direct, e, sizeof(e)),
		       rowfmt_count((double)k->local_softirq, f, sizeof(f)),
		       rowfmt_count((double)k->remote, d, sizeof(d)), k->in_flight);
	}
	chart(b, "IOPS", HIST_BLK_IOPS, 0, "");
	if (!k->hung)
		chart(b, "p99 us", HIST_BLK_P99_US, 0, "us");
	else if (body_line(b))
		ui_put(ui, ROLE_ERROR, "%-13s- (HUNG: stuck requests have no latency yet)", "p99 us");
	blk_matrix(b, k);
	/* Per second over the last interval ("now"); the totals are in the JSON. */
	if (body_line(b))
		ui_put(ui, ROLE_TABLE_HEAD, "%-*s", COLS,
		       " CPU LLC  BLOCK runs/s   IPIs recv/s   completed/s");
	/* The per-CPU rows scroll under their heading (view_top), the lines above stay. */
	int rows = b->end - b->y;
	ui->view_max_top = k->ncpus > rows ? k->ncpus - rows : 0;
	if (ui->view_top > ui->view_max_top)
		ui->view_top = ui->view_max_top;
	for (int i = ui->view_top; i < k->ncpus; i++) {
		if (!body_line(b))
			break;
		const struct blk_cpu_snap *pc = &k->per_cpu[i];
		ui_put(ui, pc->cpu == k->irq_cpu ? ROLE_VALUE : ROLE_NORMAL,
		       "%4d %3d %13s %13s %13s%s", pc->cpu, pc->llc,
		       rowfmt_count(pc->block_softirq_per_s, a, sizeof(a)),
		       rowfmt_count(pc->ipi_recv_per_s, c, sizeof(c)),
		       rowfmt_count(pc->completed_per_s, d, sizeof(d)),
		       pc->cpu == k->irq_cpu ? "  (irq)" : "");
	}
}

static enum theme_role event_role(enum event_kind k)
{
	return k == EV_HANG || k == EV_ERROR ? ROLE_ERROR : k == EV_KNOB ? ROLE_VALUE : ROLE_NORMAL;
}

static void events_view(struct body *b)
{
	struct ui *ui = b->ui;
	int h = b->end - b->y;
	/* Frozen: only the events up to the sample shown (its time is rounded to the ms). */
	size_t nev = ui->nev;
	while (ui->frozen && nev &&
	       ui->ev[(ui->ev_head + UI_EVENTS_KEEP - ui->nev + nev - 1) % UI_EVENTS_KEEP].wall_ns >
		   ui->snap->wall_ns + NS_PER_MS)
		nev--;
	/* Newest at the bottom, like a log; view_top scrolls back, at most to the oldest. */
	ui->view_max_top = (int)nev > h ? (int)nev - h : 0;
	if (ui->view_top > ui->view_max_top)
		ui->view_top = ui->view_max_top;
	int first = (int)nev - h - ui->view_top;
	if (first < 0)
		first = 0;
	if (nev == 0)
		title(b, "no events yet");
	for (int i = first; i < (int)nev; i++) {
		const struct event *e =
		    &ui->ev[(ui->ev_head + UI_EVENTS_KEEP - ui->nev + (size_t)i) % UI_EVENTS_KEEP];
		if (!body_line(b))
			break;
		time_t t = (time_t)(e->wall_ns / NS_PER_S);
		struct tm tm;
		char ts[16];
		localtime_r(&t, &tm);
		strftime(ts, sizeof(ts), "%H:%M:%S", &tm);
		ui_put(ui, ROLE_DIM, "%s ", ts);
		ui_put(ui, event_role(e->kind), "%-13s %s", event_kind_name(e->kind), e->text);
	}
}

/* est and pmd scroll as a whole: view_top lines skipped, held at the last page. */
static void scrolled_draw(struct ui *ui, void (*draw)(struct body *), int y, int h)
{
	struct body b = {ui, y, y + h, ui->view_top, 0};
	draw(&b);
	ui->view_max_top = b.n > h ? b.n - h : 0;
	if (ui->view_top <= ui->view_max_top)
		return;
	/* Scrolled past the end (the view got shorter or the window taller): the last page. */
	ui->view_top = ui->view_max_top;
	for (int r = y; r < y + h; r++) {
		move(r, 0);
		clrtoeol();
	}
	b = (struct body){ui, y, y + h, ui->view_top, 0};
	draw(&b);
}

void ui_view_draw(struct ui *ui, int y, int h)
{
	struct body b = {ui, y, y + h, 0, 0};
	ui->view_max_top = 0; /* a view that scrolls sets its own */
	if (ui->fleet) {
		ui_fleet_draw(ui, y, h);
		return;
	}
	switch (ui->view) {
	case VIEW_EST:
		scrolled_draw(ui, est_view, y, h);
		break;
	case VIEW_PMD:
		scrolled_draw(ui, pmd_view, y, h);
		break;
	case VIEW_BLK:
		blk_view(&b);
		break;
	case VIEW_EVENTS:
		events_view(&b);
		break;
	default:
		ui_table_draw(ui, y, h);
		break;
	}
}

/* Keep the new events and calibrations of this snapshot for the views. */
void ui_events_note(struct ui *ui)
{
	const struct snapshot *s = ui->snap;
	for (size_t i = 0; i < s->nevents; i++) {
		ui->ev[ui->ev_head] = s->events[i];
		ui->ev_head = (ui->ev_head + 1) % UI_EVENTS_KEEP;
		if (ui->nev < UI_EVENTS_KEEP)
			ui->nev++;
	}
	if (s->has_est && s->est.calib.count &&
	    (ui->ncalib == 0 || ui->calib[ui->ncalib - 1].count != s->est.calib.count)) {
		if (ui->ncalib == UI_CALIB_KEEP) {
			memmove(ui->calib, ui->calib + 1,
				sizeof(ui->calib[0]) * (UI_CALIB_KEEP - 1));
			ui->ncalib--;
		}
		ui->calib[ui->ncalib++] = s->est.calib;
	}
}

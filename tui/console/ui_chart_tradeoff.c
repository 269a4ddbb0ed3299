/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_chart_tradeoff.c: the `o` key: a short maxsleep x timer-slack sweep run by the console
 * loop one snapshot at a time (never waiting), drawn as drop% against the PMDs' CPU share of
 * the time the host left them, the best setting ranked as `experiment sweep` ranks it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/xalloc.h"
#include "tui/pass_cost.h"
#include "tui/chart.h"
#include "tui/console/ui.h"
#include "tui/rowfmt_host.h"

/* After a point's knobs are set: seconds left out (the PMDs adapt their sleep, rings
 * refill), then seconds measured. Snapshots come every -d seconds; the first one whose
 * interval starts after the settling counts. */
#define TRADEOFF_SETTLE_NS (500 * NS_PER_MS)
#define TRADEOFF_MEASURE_S 1.0

/* maxsleep 0 never sleeps, so its slack does not matter: one point for it. */
static const int64_t tradeoff_ms[] = {0, 50, 200, 500};
static const int64_t tradeoff_slack[] = {1000, 50000};

/* Both knobs of a point through the console's one knob path (ui_knob.c): on the sampler
 * thread when the source blocks, so the sweep never does I/O here nor touches a source the
 * sampler owns. 0, or -1 with the refusal in the status line. */
static int tradeoff_put(struct ui *ui, int64_t maxsleep_us, int64_t slack_ns)
{
	ui_knob_set(ui, K_PMD_MAXSLEEP_US, maxsleep_us);
	if (!ui->status_err)
		ui_knob_set(ui, K_PMD_TIMER_SLACK_NS, slack_ns);
	return ui->status_err ? -1 : 0;
}

static int tradeoff_set(struct ui *ui, const struct ui_tradeoff_pt *p)
{
	if (tradeoff_put(ui, p->maxsleep_us, p->slack_ns) != 0) {
		char why[sizeof(ui->status)];
		memcpy(why, ui->status, sizeof(why));
		ui_status(ui, true, "trade-off stopped: %s", why);
		return -1;
	}
	ui->charts.to.set_ns = clock_mono_ns();
	return 0;
}

/* The end (done or cancelled): the knobs as they were before `o`. */
static void tradeoff_end(struct ui *ui, const char *why)
{
	struct ui_tradeoff *to = &ui->charts.to;
	int rc = tradeoff_put(ui, to->saved_maxsleep_us, to->saved_slack_ns);
	bool any = false;
	for (int i = 0; i < to->npoints; i++)
		any = any || to->pts[i].done;
	to->state = any ? TRADEOFF_DONE : TRADEOFF_OFF;
	pass_run_free(&to->run);
	if (rc != 0)
		ui_status(ui, true, "trade-off %s; restoring the knobs failed: %.180s", why,
			  ui->status);
	else
		ui_status(ui, false, "trade-off %s: maxsleep %lld us, slack %lld ns restored", why,
			  (long long)to->saved_maxsleep_us, (long long)to->saved_slack_ns);
}

void ui_tradeoff_quit(struct ui *ui)
{
	struct ui_tradeoff *to = &ui->charts.to;
	char err[512];
	if (to->state != TRADEOFF_RUN)
		return;
	to->state = TRADEOFF_OFF;
	pass_run_free(&to->run);
	if (source_knob_set(ui->src, K_PMD_MAXSLEEP_US, to->saved_maxsleep_us, NULL, err,
			    sizeof(err)) != 0 ||
	    source_knob_set(ui->src, K_PMD_TIMER_SLACK_NS, to->saved_slack_ns, NULL, err,
			    sizeof(err)) != 0)
		fprintf(stderr, "tunetop: trade-off: restoring the knobs failed: %s\n", err);
}

static int tradeoff_confirmed(struct ui *ui, int knob, int64_t v)
{
	(void)knob;
	(void)v;
	ui->charts.to.confirm = true; /* cleared with the rest when the sweep starts */
	int r = ui_tradeoff_key(ui, 'o');
	ui->charts.to.confirm = false;
	return r;
}

int ui_tradeoff_key(struct ui *ui, int ch)
{
	struct ui_tradeoff *to = &ui->charts.to;
	if (to->state == TRADEOFF_RUN) {
		tradeoff_end(ui, "cancelled");
		return UI_KNOB | UI_REDRAW;
	}
	if (ch != 'o')
		return 0; /* Esc with nothing to cancel */
	if (!ui->snap->has_pmd) {
		char nr[256];
		/* On the host the reason is OVS's own; elsewhere a hint only if the source takes
		 * it. */
		ui_status(ui, true, "the trade-off needs PMDs: %s",
			  ui->snap->has_host
			      ? rowfmt_host_no_pmd(ui->snap, nr, sizeof(nr))
			      : ui_not_running(ui, "pmd", K_PMD_ENABLED, nr, sizeof(nr)));
		return UI_REDRAW;
	}
	/* On a real machine the sweep changes its PMDs' settings for a while: only with
	 * --write (the source would refuse each write, later, on its own thread), and only
	 * after Enter (ui_confirm.c). Every knob it sets is put back when it ends, is cancelled, or
	 * the console quits (ui_tradeoff_quit). */
	if (ui->src->ops->writes_machine && !(ui->opt && ui->opt->write)) {
		ui_status(ui, true,
			  "o: the sweep changes this machine's PMD settings: start "
			  "tunetop with --write");
		return UI_REDRAW;
	}
	if (ui->src->ops->writes_machine && !to->confirm)
		return ui_confirm_ask(
		    ui, tradeoff_confirmed, -1, 0,
		    "o: sweep pmd.maxsleep_us x pmd.timer_slack_ns on this machine "
		    "(restored after): Enter starts, Esc cancels");
	pass_run_free(&to->run);
	memset(to, 0, sizeof(*to));
	to->saved_maxsleep_us = ui->snap->knobs[K_PMD_MAXSLEEP_US];
	to->saved_slack_ns = ui->snap->knobs[K_PMD_TIMER_SLACK_NS];
	for (size_t m = 0; m < sizeof(tradeoff_ms) / sizeof(tradeoff_ms[0]); m++)
		for (size_t s = 0; s < sizeof(tradeoff_slack) / sizeof(tradeoff_slack[0]); s++) {
			if (tradeoff_ms[m] == 0 && s > 0)
				continue;
			to->pts[to->npoints++] = (struct ui_tradeoff_pt){
			    .maxsleep_us = tradeoff_ms[m], .slack_ns = tradeoff_slack[s]};
		}
	/* One pass a point, in order; a set-aside one is run again after the others, at most
	 * once (tui/pass.h). */
	struct pass_conf pc = {.narms = (size_t)to->npoints,
			       .passes = 1,
			       .took_limit_pct = PASS_HOST_TOOK_LIMIT_PCT,
			       .order = PASS_EACH};
	size_t first = 0;
	pass_begin(&to->run, &pc);
	pass_next(&to->run, &first);
	if (tradeoff_set(ui, &to->pts[first]) != 0) {
		pass_run_free(&to->run);
		return UI_REDRAW;
	}
	to->state = TRADEOFF_RUN;
	ui->view = VIEW_PMD;
	ui->view_top = 0;
	ui_status(ui, false, "trade-off: %d settings of maxsleep x slack (o or Esc cancels)",
		  to->npoints);
	return UI_KNOB | UI_REDRAW;
}

/* The runner's verdict on a point's window: kept, or set aside (drawn as such until its rerun
 * after the other points; never the best). */
static void tradeoff_judge(void *ctx, size_t i, enum pass_verdict v, size_t slot)
{
	struct ui_tradeoff_pt *p = &((struct ui_tradeoff *)ctx)->pts[i];
	(void)slot;
	p->done = true;
	p->aside = v != PASS_KEPT;
}

/* A point's window is measured: judged by the pass runner, then the next point set. */
static void tradeoff_judged(struct ui *ui, struct ui_tradeoff *to, struct ui_tradeoff_pt *p)
{
	static const struct pass_ops ops = {NULL, tradeoff_judge, NULL, NULL};
	struct pass_pmd_cost c;
	struct pass_obs obs = {.took_pct = NAN};
	if (pass_pmd_cost_of(&p->acc, &c) == 0)
		obs.took_pct = c.host_took_pct;
	pass_add(&to->run, (size_t)to->point, &obs, &ops, to);
	size_t next;
	if (!pass_next(&to->run, &next)) {
		tradeoff_end(ui, "done");
		return;
	}
	to->point = (int)next;
	if (to->run.arm[next].tries > 0) /* a rerun starts from nothing */
		to->pts[next] = (struct ui_tradeoff_pt){.maxsleep_us = to->pts[next].maxsleep_us,
							.slack_ns = to->pts[next].slack_ns};
	if (tradeoff_set(ui, &to->pts[to->point]) != 0)
		tradeoff_end(ui, "stopped");
	else if (to->run.arm[next].tries > 0)
		ui_status(ui, false,
			  "trade-off: %d of %d again (the host took more than %g%% of its "
			  "window): maxsleep %lld us, slack %lld ns (o cancels)",
			  to->point + 1, to->npoints, PASS_HOST_TOOK_LIMIT_PCT,
			  (long long)to->pts[to->point].maxsleep_us,
			  (long long)to->pts[to->point].slack_ns);
	else
		ui_status(ui, false,
			  "trade-off: %d of %d: maxsleep %lld us, slack %lld ns (o cancels)",
			  to->point + 1, to->npoints, (long long)to->pts[to->point].maxsleep_us,
			  (long long)to->pts[to->point].slack_ns);
}

void ui_tradeoff_step(struct ui *ui)
{
	struct ui_tradeoff *to = &ui->charts.to;
	const struct snapshot *s = ui->snap;
	if (to->state != TRADEOFF_RUN)
		return;
	if (!s->has_pmd) {
		tradeoff_end(ui, "stopped (pmd stopped)");
		return;
	}
	struct ui_tradeoff_pt *p = &to->pts[to->point];
	uint64_t start = s->mono_ns - (uint64_t)(s->interval_s * 1e9);
	struct pass_pmd_mark from = to->last;
	pass_pmd_mark_read(s, &to->last); /* the next interval starts here */
	if (s->interval_s <= 0 || start < to->set_ns + TRADEOFF_SETTLE_NS)
		return; /* still settling: this interval saw the previous setting */
	pass_pmd_acc_add(&p->acc, &from, s);
	double cpu = 0;
	for (int i = 0; i < s->pmd.nthreads; i++)
		cpu += s->pmd.threads[i].cpu_pct;
	p->drop_sum += s->pmd.drop_pct * s->interval_s;
	p->cpu_sum += cpu * s->interval_s;
	p->secs += s->interval_s;
	if (p->secs < TRADEOFF_MEASURE_S)
		return;
	tradeoff_judged(ui, to, p);
}

static enum theme_role tradeoff_role(unsigned kind)
{
	return kind == CELL_EMPTY ? ROLE_NORMAL : kind == CELL_TEXT ? ROLE_VALUE : ROLE_CHART;
}

/* "50/1k": maxsleep us / slack. */
static void tradeoff_label(const struct ui_tradeoff_pt *p, bool best, char *buf, size_t len)
{
	char sl[24];
	if (p->slack_ns % 1000 == 0)
		snprintf(sl, sizeof(sl), "%lldk", (long long)(p->slack_ns / 1000));
	else
		snprintf(sl, sizeof(sl), "%lld", (long long)p->slack_ns);
	snprintf(buf, len, "%lld/%s%s", (long long)p->maxsleep_us, sl,
		 best	    ? " best"
		 : p->aside ? " aside"
			    : "");
}

/* The points measured, where they go: x the CPU share, y the drop %; each as its counters say
 * (pass_cost.h), the interval sums when it has none (no interval of it started after a mark).
 * Returns the cheapest within the budget, ranked as `experiment sweep` ranks, or -1. */
static int tradeoff_points(const struct ui_tradeoff *to, double *xv, double *yv, double *xmax,
			   double *ymax)
{
	struct pass_cost_cand cand[UI_TRADEOFF_MAX];
	*xmax = 10;
	*ymax = 1;
	for (int i = 0; i < to->npoints; i++) {
		const struct ui_tradeoff_pt *p = &to->pts[i];
		struct pass_pmd_cost c;
		cand[i] = (struct pass_cost_cand){0};
		if (!p->done)
			continue;
		if (pass_pmd_cost_of(&p->acc, &c) == 0) {
			xv[i] = c.share_pct;
			yv[i] = c.drop_pct;
			cand[i] = (struct pass_cost_cand){.usable = !p->aside,
							  .sleeps = p->maxsleep_us > 0,
							  .drop_pct = c.drop_pct,
							  .ns_per_pkt = c.ns_per_pkt,
							  .share_pct = c.share_pct};
		} else {
			xv[i] = p->cpu_sum / p->secs;
			yv[i] = p->drop_sum / p->secs;
		}
		*xmax = xv[i] > *xmax ? xv[i] : *xmax;
		*ymax = yv[i] > *ymax ? yv[i] : *ymax;
	}
	size_t b = pass_cost_cheapest(cand, (size_t)to->npoints, PASS_DROP_BUDGET_PCT);
	return b < (size_t)to->npoints ? (int)b : -1;
}

static void tradeoff_header(struct ui *ui, const struct ui_tradeoff *to, int y)
{
	move(y, 0);
	ui_put(ui, ROLE_LABEL,
	       "trade-off: drop%% vs PMD CPU%% share (maxsleep us/slack, budget %g%%)",
	       PASS_DROP_BUDGET_PCT);
	if (to->state == TRADEOFF_RUN)
		ui_put(ui, ROLE_VALUE, "  measuring %d of %d, o cancels", to->point + 1,
		       to->npoints);
	else
		ui_put(ui, ROLE_DIM, "  (o runs it again)");
}

/* The x axis: its figures under their places. */
static void tradeoff_xaxis(struct ui *ui, const struct chart_scale *xs, int y, int axis, int gw)
{
	char num[24];
	int col = 0;
	move(y, 0);
	attrset(ui->attr[ROLE_DIM]);
	printw("%*s", axis + 1, "");
	for (int i = 0; i < xs->nticks; i++) {
		double v = xs->lo + i * xs->step;
		int at = (int)lround((v - xs->lo) / (xs->hi - xs->lo) * (gw - 1));
		chart_fmt_tick(v, xs->step, num, sizeof(num));
		strcat(num, "%");
		if (at < col || at + (int)strlen(num) > gw)
			continue;
		printw("%*s%s", at - col, "", num);
		col = at + (int)strlen(num);
	}
	attrset(ui->attr[ROLE_NORMAL]);
}

/* The points first, then their labels where they hide no point. */
static void tradeoff_grid(const struct ui_tradeoff *to, struct chart_grid *g,
			  const struct chart_scale *xs, const struct chart_scale *ys,
			  const double *xv, const double *yv, int best)
{
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < to->npoints; i++) {
			const struct ui_tradeoff_pt *p = &to->pts[i];
			char label[32];
			if (!p->done)
				continue;
			tradeoff_label(p, i == best, label, sizeof(label));
			if (pass == 0)
				chart_grid_point(g, xs, ys, xv[i], yv[i], i == best ? '*' : 'o',
						 NULL);
			else
				chart_grid_label(g, xs, ys, xv[i], yv[i], label);
		}
}

void ui_tradeoff_row(struct ui *ui, int row, int h)
{
	const struct ui_tradeoff *to = &ui->charts.to;
	int y = getcury(stdscr), w = COLS;
	if (row == 0) {
		tradeoff_header(ui, to, y);
		return;
	}
	int gh = h - 2, axis = 6, gw = w - axis - 1;
	if (gh < 1 || gw < 10)
		return;
	double xmax, ymax, xv[UI_TRADEOFF_MAX], yv[UI_TRADEOFF_MAX];
	int best = tradeoff_points(to, xv, yv, &xmax, &ymax);
	struct chart_scale xs, ys;
	chart_scale_make(0, xmax * 1.05, gw / 10 > 1 ? gw / 10 : 1, 0, &xs);
	chart_scale_make(0, ymax, gh > 4 ? 4 : gh, 0, &ys);
	if (row == h - 1) {
		tradeoff_xaxis(ui, &xs, y, axis, gw);
		return;
	}
	/* One grid a frame (now_ns changes every frame), drawn row by row. */
	static struct chart_grid g;
	static uint64_t built_ns;
	static int built_w, built_h;
	if (!g.cells || built_ns != ui->now_ns || built_w != gw || built_h != gh) {
		chart_grid_free(&g);
		chart_grid_init(&g, gw, gh, ui->ascii);
		built_ns = ui->now_ns;
		built_w = gw;
		built_h = gh;
		tradeoff_grid(to, &g, &xs, &ys, xv, yv, best);
	}
	int gr = row - 1;
	char label[32] = "", num[24];
	if (gr == 0 || gr == gh - 1) {
		chart_fmt_tick(gr == 0 ? ys.hi : ys.lo, ys.step, num, sizeof(num));
		snprintf(label, sizeof(label), "%s%%", num);
	}
	move(y, 0);
	attrset(ui->attr[ROLE_DIM]);
	printw("%*.*s", axis, axis, label);
	addstr(ui->ascii ? "|" : "\u2524");
	ui_chart_cells(ui, &g, gr, tradeoff_role);
	attrset(ui->attr[ROLE_NORMAL]);
	if (row == h - 2) {
		chart_grid_free(&g); /* the last grid row: nothing is kept between frames */
		built_ns = 0;
	}
}

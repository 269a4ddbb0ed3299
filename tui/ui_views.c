/* ui_views.c: the est, pmd, blk and events views (the rows between header and status). */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "rowfmt.h"
#include "ui.h"

/* A view body: lines drawn top down, clipped to its height. */
struct body {
	struct ui *ui;
	int y, end;
};

static bool body_line(struct body *b)
{
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

static void est_view(struct body *b)
{
	struct ui *ui = b->ui;
	const struct est_snap *e = &ui->snap->est;
	char a[16], c[16], d[16];

	if (!ui->snap->has_est) {
		title(b, "est is not running (:set est.enabled=on)");
		return;
	}
	if (body_line(b))
		ui_put(ui, ROLE_NORMAL,
		       "ests %" PRIu64 " placed %" PRIu64 " pending %" PRIu64
		       "  kt %d/%d  chain_max %d  tick_chains %d  est_cpus %d",
		       e->estimators, e->placed, e->pending, e->kthreads, e->max_threads,
		       e->chain_max, e->tick_chains, e->est_cpus);
	if (body_line(b))
		ui_put(ui, ROLE_NORMAL,
		       "tick last %s avg %s max %s  ticks %" PRIu64 "  visits %" PRIu64,
		       rowfmt_ns(e->tick_ns_last, a, sizeof(a)),
		       rowfmt_ns(e->tick_ns_avg, c, sizeof(c)),
		       rowfmt_ns(e->tick_ns_max, d, sizeof(d)), e->ticks, e->visits);
	if (body_line(b))
		ui_put(ui, ROLE_NORMAL,
		       "calibration #%" PRIu64
		       ": chain_max %d single_est %s loops %d tests %d/%d %s",
		       e->calib.count, e->calib.chain_max,
		       rowfmt_ns(e->calib.single_est_ns, a, sizeof(a)), e->calib.loops,
		       e->calib.valid_tests, e->calib.tests, cpu_governor_name(e->calib.governor));
	chart(b, "tick avg", HIST_EST_TICK_US, 0, "us");

	/* Tick-time histogram: the non-empty buckets, one bar each. */
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
	title(b, "tick time histogram (since start)      kthreads:  KT   ESTS ROWS FULL  CPU%");
	int y0 = b->y;
	for (int i = lo; lo >= 0 && i <= hi; i++) {
		if (!body_line(b))
			break;
		int w = (int)(20.0 * (double)e->tick_hist[i] / (double)top + 0.5);
		ui_put(ui, ROLE_NORMAL, "%8s ",
		       i == 0 ? "<2us" : rowfmt_ns(1000ULL << i, a, sizeof(a)));
		for (int k = 0; k < 20; k++)
			ui_put(ui, ROLE_CHART, "%c", k < w ? '#' : ' ');
		ui_put(ui, ROLE_NORMAL, " %-9" PRIu64, e->tick_hist[i]);
	}
	for (int k = 0; k < e->nkt && y0 + k < b->end; k++) {
		const struct est_kt_snap *kt = &e->kt[k];
		move(y0 + k, 49);
		ui_put(ui, ROLE_NORMAL, "%4d %6u %4u %4u %5.1f", kt->id, kt->estimators,
		       kt->rows_filled, kt->rows_full, kt->cpu_pct);
	}
	int used = e->nkt > (hi - lo + 1) ? e->nkt : (lo >= 0 ? hi - lo + 1 : 0);
	b->y = y0 + used < b->end ? y0 + used : b->end;
	title(b, "calibrations: #  chain_max  single_est  governor");
	for (size_t i = ui->ncalib; i-- > 0;) {
		if (!body_line(b))
			break;
		ui_put(ui, ROLE_NORMAL, "        %3" PRIu64 " %10d  %10s  %s", ui->calib[i].count,
		       ui->calib[i].chain_max, rowfmt_ns(ui->calib[i].single_est_ns, a, sizeof(a)),
		       cpu_governor_name(ui->calib[i].governor));
	}
}

static void pmd_view(struct body *b)
{
	struct ui *ui = b->ui;
	const struct pmd_snap *p = &ui->snap->pmd;
	char a[512];

	if (!ui->snap->has_pmd) {
		title(b, "pmd is not running (:set pmd.enabled=on)");
		return;
	}
	if (body_line(b))
		ui_put(ui, ROLE_NORMAL,
		       "offered %s pps  maxsleep %" PRId64 "us  sleep_inc %" PRId64
		       "us  slack %" PRId64 "ns",
		       rowfmt_count(p->offered_pps, a, sizeof(a)), p->maxsleep_us, p->sleep_inc_us,
		       p->timer_slack_ns);
	if (body_line(b))
		ui_put(ui, ROLE_NORMAL,
		       "generated %" PRIu64 " = forwarded %" PRIu64 " + dropped %" PRIu64
		       " + in flight %" PRIu64,
		       p->generated, p->forwarded, p->dropped, p->in_flight);
	if (body_line(b))
		ui_put(ui, ROLE_TABLE_HEAD, "%-*.*s", COLS, COLS, rowfmt_pmd_head);
	for (int i = 0; i < p->nthreads; i++) {
		if (!body_line(b))
			break;
		rowfmt_pmd(&p->threads[i], a, sizeof(a));
		ui_put(ui, p->threads[i].drop_pct > 0.1 ? ROLE_ERROR : ROLE_NORMAL, "%s", a);
	}
	chart(b, "drop%", HIST_PMD_DROP_PCT, 0, "%");
	char label[32];
	snprintf(label, sizeof(label), "CPU%% %.8s", p->nthreads ? p->threads[0].name : "pmd");
	chart(b, label, HIST_PMD_CPU_PCT, 100.0, "%");
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
	if (body_line(b))
		ui_put(ui, ROLE_NORMAL,
		       "rq_affinity %" PRId64
		       "  IOPS %s  latency p50 %.0fus p99 %.0fus p99.9 %.0fus  IPIs %s/s",
		       k->rq_affinity, rowfmt_count(k->iops, a, sizeof(a)), k->lat_p50_us,
		       k->lat_p99_us, k->lat_p999_us, rowfmt_count(k->ipis_per_s, c, sizeof(c)));
	if (body_line(b))
		ui_put(ui, ROLE_NORMAL,
		       "completions direct %" PRIu64 " local softirq %" PRIu64 " remote %" PRIu64
		       "  submitted %" PRIu64 " = completed %" PRIu64 " + in flight %" PRIu64,
		       k->direct, k->local_softirq, k->remote, k->submitted, k->completed,
		       k->in_flight);
	chart(b, "IOPS", HIST_BLK_IOPS, 0, "");
	chart(b, "p99 us", HIST_BLK_P99_US, 0, "us");
	if (body_line(b))
		ui_put(ui, ROLE_TABLE_HEAD, "%-*s", COLS,
		       " CPU LLC   BLOCK runs   IPIs recv   completed");
	for (int i = ui->view_top; i < k->ncpus; i++) {
		if (!body_line(b))
			break;
		const struct blk_cpu_snap *pc = &k->per_cpu[i];
		ui_put(ui, pc->cpu == k->irq_cpu ? ROLE_VALUE : ROLE_NORMAL,
		       "%4d %3d %12s %11s %11s%s", pc->cpu, pc->llc,
		       rowfmt_count((double)pc->block_softirq, a, sizeof(a)),
		       rowfmt_count((double)pc->ipi_recv, c, sizeof(c)),
		       rowfmt_count((double)pc->completed, d, sizeof(d)),
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
	/* Newest at the bottom, like a log; view_top scrolls back. */
	int first = (int)ui->nev - h - ui->view_top;
	if (first < 0)
		first = 0;
	if (ui->nev == 0)
		title(b, "no events yet");
	for (int i = first; i < (int)ui->nev; i++) {
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

void ui_view_draw(struct ui *ui, int y, int h)
{
	struct body b = {ui, y, y + h};
	switch (ui->view) {
	case VIEW_EST:
		est_view(&b);
		break;
	case VIEW_PMD:
		pmd_view(&b);
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

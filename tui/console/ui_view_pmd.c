/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_view_pmd.c: the pmd view: the engine's PMDs, their graphs and sleep, or a live OVS's. */
#include <inttypes.h>
#include <math.h>

#include "tui/rowfmt.h"
#include "tui/rowfmt_sleep.h"
#include "tui/rowfmt_host.h"
#include "tui/rowfmt_cost.h"
#include "tui/console/ui_body.h"

#define MASK_PMD ((1u << SUBSYS_PMD) | (1u << SUBSYS_CPU))

/* Per PMD, drop% beside CPU%; with the trade-off (t) its curve first. */
/* The cost line, each of its groups whole or left out behind the cut marker: a share cut in
 * half would read as another figure. */
static void pmd_cost_line(struct ui *ui, const struct pmd_snap *p)
{
	char a[256];
	for (int k = 0; k < ROWFMT_COST_PARTS; k++)
		if (!ui_put_whole(ui, ROLE_NORMAL, "%s%s", k ? "  " : "",
				  rowfmt_pmd_cost_part(p, k, a, sizeof(a))))
			break;
}

static void pmd_graphs(struct body *b, int room)
{
	struct ui *ui = b->ui;
	const struct pmd_snap *p = &ui->snap->pmd;
	static struct view_graph drop, cpu;
	bool pair = COLS >= 2 * VIEW_GRAPH_MIN_W;

	if (ui->charts.to.state != TRADEOFF_OFF) {
		int th = body_clampi(room / 2, 7, 16);
		for (int r = 0; r < th; r++)
			if (body_line(b))
				ui_tradeoff_row(ui, r, th);
		room -= th;
	}
	int n = p->nthreads < UI_CHART_PMDS ? p->nthreads : UI_CHART_PMDS;
	int per = pair ? 1 : 2; /* graphs stacked per PMD */
	while (n > 1 && room / (n * per) < VIEW_GRAPH_MIN_H + 1)
		n--; /* fewer PMDs, each readable; the rest scroll into view no more */
	int ph = n ? body_clampi(room / (n * per), VIEW_GRAPH_MIN_H, VIEW_GRAPH_MAX_H) : 0;
	for (int i = 0; i < n; i++) {
		char name[sizeof(p->threads[0].name)], title[48];
		rowfmt_name(p->threads[i].name, name, sizeof(name));
		snprintf(title, sizeof(title), "drop%% %s", name);
		body_graph_init(ui, &drop, &ui->charts.pmd_drop[i], MASK_PMD, title, "%", NAN, 1);
		snprintf(title, sizeof(title), "CPU%% %s", name);
		body_graph_init(ui, &cpu, &ui->charts.pmd_cpu[i], MASK_PMD, title, "%", NAN, 100);
		body_graphs(b, &drop.g, &cpu.g, ph);
	}
}

/* Slack, run-queue delay and overshoot (own and the kernel's), then the probe's histogram. */
static void pmd_sleep_lines(struct body *b)
{
	struct ui *ui = b->ui;
	const struct pmd_snap *p = &ui->snap->pmd;
	char a[512];
	body_text(b, p->bpf_probe ? ROLE_NORMAL : ROLE_DIM,
		  rowfmt_sleep_probe(ui->snap, a, sizeof(a)));
	body_text(b, ROLE_TABLE_HEAD,
		  ui->snap->has_host ? rowfmt_sleep_head_host : rowfmt_sleep_head);
	for (int i = 0; i < p->nthreads; i++)
		body_text(b, ROLE_NORMAL, rowfmt_sleep_row(ui->snap, i, a, sizeof(a)));
	for (int i = 0; p->bpf_probe && i < p->nthreads; i++)
		body_text(b, ROLE_CHART, rowfmt_sleep_hist(&p->threads[i], a, sizeof(a)));
}

/* The pmd view on a live OVS: only what OVS reports, full PMD names, "-" for no baseline. */
static void pmd_host_view(struct body *b, int room)
{
	struct ui *ui = b->ui;
	const struct pmd_snap *p = &ui->snap->pmd;
	char a[512];

	if (body_line(b)) {
		ui_put(ui, ROLE_NORMAL, "%s", rowfmt_host_summary(ui->snap, a, sizeof(a)));
		if (rowfmt_host_took(p, a, sizeof(a)))
			ui_put(ui, ROLE_WARN, "  %s", a);
	}
	if (body_line(b))
		pmd_cost_line(ui, p);
	body_text(b, ROLE_TABLE_HEAD, rowfmt_host_pmd_head);
	for (int i = 0; i < p->nthreads; i++)
		body_text(b, ROLE_NORMAL, rowfmt_host_pmd_row(&p->threads[i], a, sizeof(a)));
	int n = rowfmt_host_nlines(ui->snap);
	for (int i = 0; i < n; i++) {
		const char *t = rowfmt_host_line(ui->snap, i, a, sizeof(a));
		bool head = rowfmt_host_is_head(ui->snap, i);
		body_text(b, head ? ROLE_TABLE_HEAD : ROLE_NORMAL, t);
	}
	ui_view_pmd_hists(b, room);
	pmd_sleep_lines(b);
	char label[32];
	snprintf(label, sizeof(label), "CPU%% %s", p->nthreads ? "PMD 1" : "pmd");
	body_chart(b, label, HIST_PMD_CPU_PCT, 100.0, "%");
}

/* The first line: offered (or why it falls short) and the knobs. */
static void pmd_offered_line(struct ui *ui, const struct pmd_snap *p)
{
	char a[512];
	/* Why offered falls short of the target: the sources skip what the host took.
	 * First on the line, in place of offered, so it shows whole at 80 columns. */
	if (rowfmt_host_took(p, a, sizeof(a)))
		ui_put(ui, ROLE_WARN, "%s", a);
	else
		ui_put(ui, ROLE_NORMAL, "offered %s pps",
		       rowfmt_count(p->offered_pps, a, sizeof(a)));
	/* The knobs as the snapshot carries them (the header shows the same), each whole
	 * or left out: a value cut at the edge would read as another. */
	if (ui_put_whole(ui, ROLE_NORMAL, "  maxsleep %" PRId64 "us",
			 ui->snap->knobs[K_PMD_MAXSLEEP_US]) &&
	    ui_put_whole(ui, ROLE_NORMAL, "  sleep_inc %" PRId64 "us",
			 ui->snap->knobs[K_PMD_SLEEP_INC_US]))
		ui_put_whole(ui, ROLE_NORMAL, "  slack %" PRId64 "ns",
			     ui->snap->knobs[K_PMD_TIMER_SLACK_NS]);
}

/* Drops now, and how many of them arrived while their PMD slept; then the latency. */
static void pmd_drop_line(struct ui *ui, const struct pmd_snap *p)
{
	char a[512];
	ui_put(ui, ROLE_NORMAL, "drop ");
	ui_put(ui, p->drop_pct > 0.1 ? ROLE_ERROR : ROLE_VALUE, "%.2f%%", p->drop_pct);
	ui_put(ui, ROLE_NORMAL, " (%s/s, %s while asleep)  latency ",
	       rowfmt_count(p->dropped_pps, a, sizeof(a)),
	       rowfmt_count((double)p->drops_while_asleep, a + 32, sizeof(a) - 32));
	if (p->hung) {
		ui_put(ui, ROLE_ERROR, "- (HUNG)");
	} else if (!p->lat_valid) {
		ui_put(ui, ROLE_NORMAL, "-");
	} else {
		/* A percentile in the histogram's open top bucket is a bound (">4.1ms"). */
		char l50[24], l99[24];
		if (p->lat_p50_at_least)
			rowfmt_at_least_us(p->lat_p50_us, l50, sizeof(l50));
		else
			snprintf(l50, sizeof(l50), "%.0fus", p->lat_p50_us);
		if (p->lat_p99_at_least)
			rowfmt_at_least_us(p->lat_p99_us, l99, sizeof(l99));
		else
			snprintf(l99, sizeof(l99), "%.0fus", p->lat_p99_us);
		ui_put(ui, ROLE_VALUE, "p50 %s p99 %s", l50, l99);
	}
}

/* The PMDs' table, then their drops while asleep beside drop%: sleep's share of the drops,
 * not the scheduler's. */
static void pmd_threads(struct body *b, const struct pmd_snap *p)
{
	struct ui *ui = b->ui;
	char a[512];
	body_text(b, ROLE_TABLE_HEAD, rowfmt_pmd_head);
	for (int i = 0; i < p->nthreads; i++) {
		if (!body_line(b))
			continue; /* counted for the scroll */
		rowfmt_pmd(&p->threads[i], a, sizeof(a));
		ui_put(ui, p->threads[i].drop_pct > 0.1 ? ROLE_ERROR : ROLE_NORMAL, "%s", a);
	}
	if (body_line(b)) {
		ui_put(ui, ROLE_LABEL, "drops while asleep (interval):");
		for (int i = 0; i < p->nthreads; i++) {
			char name[sizeof(p->threads[0].name)];
			ui_put(ui, p->threads[i].drops_while_asleep ? ROLE_WARN : ROLE_NORMAL,
			       " %s %" PRIu64, rowfmt_name(p->threads[i].name, name, sizeof(name)),
			       p->threads[i].drops_while_asleep);
		}
	}
}

void ui_view_pmd(struct body *b)
{
	struct ui *ui = b->ui;
	const struct pmd_snap *p = &ui->snap->pmd;
	char a[512];
	int h_view = b->end - b->y;

	ui->npmd_hist_at = 0; /* until the OVS histograms are drawn: nothing for v to scroll to */

	if (!ui->snap->has_pmd) {
		/* On the host the reason is OVS's own, not the engine's knob. */
		body_title(b, ui->snap->has_host
				  ? rowfmt_host_no_pmd(ui->snap, a, sizeof(a))
				  : ui_not_running(ui, "pmd", K_PMD_ENABLED, a, sizeof(a)));
		return;
	}
	if (rowfmt_host_pmd(ui->snap)) {
		pmd_host_view(b, h_view);
		return;
	}
	if (body_line(b))
		pmd_offered_line(ui, p);
	if (body_line(b))
		pmd_drop_line(ui, p);
	/* The host's part of the traffic beside the knobs' (drop %): a line of its own while the
	 * host takes any (docs/pmd.md "What the host took"). */
	char lost[64];
	if (rowfmt_host_lost(p, lost, sizeof(lost)) && body_line(b))
		ui_put(ui, ROLE_WARN, "%s, not offered (so in neither offered nor drop %%)", lost);
	if (body_line(b)) {
		/* in flight is what the rings hold; the remainder is in the PMDs' hands
		 * (exactly 0 when paused: the engine's invariant check). */
		ui_put(ui, p->bound_broken ? ROLE_ERROR : ROLE_NORMAL,
		       "generated %" PRIu64 " = forwarded %" PRIu64 " + dropped %" PRIu64
		       " + in rings %" PRIu64 " %+" PRId64,
		       p->generated, p->forwarded, p->dropped, p->in_flight, p->unaccounted);
	}
	pmd_threads(b, p);
	/* CPU% compared across runs needs its base: per packet, and of the time the host left. */
	if (body_line(b))
		pmd_cost_line(ui, p);
	pmd_graphs(b, h_view - (6 + p->nthreads)); /* the lines above: 6 and a row per PMD */
	/* Slack, run-queue delay and the kernel's overshoot: below the graphs (they scroll). */
	pmd_sleep_lines(b);
}

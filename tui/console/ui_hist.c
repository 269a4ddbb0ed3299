/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_hist.c: the charts' history rings, knob markers and sparklines (Unicode blocks, or
 * ASCII). */
#include <math.h>
#include <string.h>

#include "tui/console/ui.h"

/* Eight heights of a cell; ASCII has its own ramp for LANG=C and --ascii. */
static const char *const spark_utf8[9] = {" ",	    "\u2581", "\u2582", "\u2583", "\u2584",
					  "\u2585", "\u2586", "\u2587", "\u2588"};
static const char spark_ascii[9] = {' ', '_', '.', ',', '-', '~', '=', '+', '#'};

static void hist_add(struct ui_hist *h, double v)
{
	h->v[h->head] = v;
	h->head = (h->head + 1) % UI_HIST_LEN;
	if (h->n < UI_HIST_LEN)
		h->n++;
}

/* The newest value of h. */
static double ui_hist_last(const struct ui_hist *h)
{
	return h->n ? h->v[(h->head + UI_HIST_LEN - 1) % UI_HIST_LEN] : 0;
}

size_t ui_hist_copy(const struct ui_hist *h, double *out, size_t max)
{
	size_t n = h->n < max ? h->n : max;
	for (size_t i = 0; i < n; i++)
		out[i] = h->v[(h->head + UI_HIST_LEN - n + i) % UI_HIST_LEN];
	return n;
}

bool ui_hist_frozen(const struct ui *ui, size_t *end_back, size_t *cur_back)
{
	/* The rings and the history take one entry per sample, together (ui_after_sample()),
	 * so a history id's place in a ring follows from the newest id. */
	uint64_t newest = history_newest(&ui->history);
	*end_back = *cur_back = 0;
	if (!ui->frozen || !newest)
		return false;
	uint64_t hi = ui->frozen_hi < newest ? ui->frozen_hi : newest;
	uint64_t at = ui->frozen_id < hi ? ui->frozen_id : hi;
	*end_back = (size_t)(newest - hi);
	*cur_back = (size_t)(newest - at);
	return true;
}

double ui_hist_interval(const struct ui *ui)
{
	return ui->opt && ui->opt->delay_s > 0 ? ui->opt->delay_s : 1.0;
}

/* A knob that changed since the last snapshot is a marker at this sample. */
static void hist_marks(struct ui *ui)
{
	struct ui_charts *c = &ui->charts;
	for (int k = 0; k < K_COUNT; k++) {
		int64_t v = ui->snap->knobs[k];
		if (c->have_prev && v != c->prev_knobs[k] && knob_table[k].type != KNOB_ACTION) {
			c->marks[c->mark_head] = (struct ui_mark){c->samples, k, v};
			c->mark_head = (c->mark_head + 1) % UI_MARKS_KEEP;
			if (c->nmarks < UI_MARKS_KEEP)
				c->nmarks++;
		}
		c->prev_knobs[k] = v;
	}
	c->have_prev = true;
}

/* Per-PMD and est series for the multi-row graphs (ui_chart.c). */
static void hist_charts(struct ui *ui)
{
	const struct snapshot *s = ui->snap;
	struct ui_charts *c = &ui->charts;
	for (int i = 0; i < UI_CHART_PMDS; i++) {
		bool have = s->has_pmd && i < s->pmd.nthreads;
		hist_add(&c->pmd_drop[i], have ? s->pmd.threads[i].drop_pct : 0);
		hist_add(&c->pmd_cpu[i], have ? s->pmd.threads[i].cpu_pct : 0);
	}
	double kt_max = 0;
	for (int k = 0; s->has_est && k < s->est.nkt; k++)
		if (s->est.kt[k].cpu_pct > kt_max)
			kt_max = s->est.kt[k].cpu_pct;
	hist_add(&c->est_tick_ms, s->has_est ? (double)s->est.tick_ns_avg / 1e6 : 0);
	hist_add(&c->est_kt_cpu, kt_max);
}

/* Record the figures the charts show, straight from the snapshot. */
void ui_hist_push(struct ui *ui)
{
	const struct snapshot *s = ui->snap;
	bool pmd = s->has_pmd && s->pmd.nthreads > 0;

	hist_marks(ui);
	hist_charts(ui);
	ui->charts.samples++;
	ui_tradeoff_step(ui);
	ui_tune_step(ui);

	hist_add(&ui->hist[HIST_PMD_DROP_PCT], s->has_pmd ? s->pmd.drop_pct : 0);
	/* The first PMD's CPU% (the views chart one thread; nothing is summed here). */
	hist_add(&ui->hist[HIST_PMD_CPU_PCT], pmd ? s->pmd.threads[0].cpu_pct : 0);
	hist_add(&ui->hist[HIST_EST_TICK_US], s->has_est ? (double)s->est.tick_ns_avg / 1e3 : 0);
	/* A figure the source lacks is a gap in its graph, and "-" in its title, never 0. */
	hist_add(&ui->hist[HIST_BLK_IOPS], !s->has_blk			    ? 0
					   : snapshot_absent(s, "blk.iops") ? NAN
									    : s->blk.iops);
	hist_add(&ui->hist[HIST_BLK_P99_US], !s->has_blk ? 0
					     : snapshot_absent(s, "blk.lat_us")
						 ? NAN
						 : s->blk.lat_p99_us);
	hist_add(&ui->hist[HIST_SELF_CPU_PCT], s->self.cpu_pct);
}

void ui_hist_draw(struct ui *ui, enum ui_series series, int y, int x, int w, double max)
{
	const struct ui_hist *h = &ui->hist[series];
	size_t end = 0, cur = 0;
	/* Frozen: the ring up to the frozen window's end, the sample shown in reverse video
	 * (and the window moved back when the sample is older than it shows). */
	bool frozen = ui_hist_frozen(ui, &end, &cur);
	unsigned have = h->n > end ? h->n - (unsigned)end : 0;
	size_t back = cur - end;
	if (w <= 0)
		return;
	if (frozen && back >= (size_t)w) {
		size_t shift = back - (size_t)w / 2;
		have = have > shift ? have - (unsigned)shift : 0;
		back -= shift;
	}
	unsigned n = have < (unsigned)w ? have : (unsigned)w;
	/* The value at i of the n shown (oldest first). */
#define SPARK_V(i) h->v[(h->head + 2 * UI_HIST_LEN - (h->n - have) - n + (i)) % UI_HIST_LEN]
	if (max <= 0) {
		for (unsigned i = 0; i < n; i++) {
			double v = SPARK_V(i);
			if (v > max)
				max = v;
		}
	}
	attrset(ui->attr[ROLE_CHART]);
	move(y, x);
	for (int i = 0; i < w - (int)n; i++)
		addch(' ');
	for (unsigned i = 0; i < n; i++) {
		double v = SPARK_V(i);
		int level = max > 0 ? (int)(v / max * 8.0 + 0.5) : 0;
		if (level < 0)
			level = 0;
		if (level > 8)
			level = 8;
		if (v > 0 && level == 0)
			level = 1; /* something happened: never draw it as nothing */
		bool at = frozen && n - 1 - i == back;
		if (at)
			attrset(ui->attr[ROLE_CHART] | A_REVERSE);
		if (ui->ascii)
			addch((chtype)(unsigned char)spark_ascii[level]);
		else
			addstr(spark_utf8[level]);
		if (at)
			attrset(ui->attr[ROLE_CHART]);
	}
#undef SPARK_V
	attrset(ui->attr[ROLE_NORMAL]);
}

double ui_hist_shown(const struct ui *ui, enum ui_series series)
{
	const struct ui_hist *h = &ui->hist[series];
	size_t end, cur;
	if (!ui_hist_frozen(ui, &end, &cur))
		return ui_hist_last(h);
	return cur < h->n ? h->v[(h->head + 2 * UI_HIST_LEN - 1 - cur) % UI_HIST_LEN] : 0;
}

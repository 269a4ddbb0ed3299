/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_tune.c: the `A` key: the live tuner (tui/tune.h) on the running source, stepped by the
 * console loop one snapshot at a time (never waiting), its progress on the status line. */
#include <stdio.h>
#include <string.h>

#include "tui/console/ui.h"

/* What the key tunes and how: the console has no --budget, so the tuner runs with the budget
 * docs/experiments.md "The live tuner" suggests for a PMD; `experiment tune` takes others. */
#define UI_TUNE_KNOB K_PMD_MAXSLEEP_US
#define UI_TUNE_BUDGET_DROP_PCT 0.1
#define UI_TUNE_WINDOW_S 2.0

/* One value through the console's one knob path (ui_knob.c): on the sampler thread when the
 * source blocks. A refusal seen at once fails the run, which puts the start value back; one
 * that comes later leaves the step unread, and the tuner gives the step up on its own. */
static void tune_put(struct ui *ui, int64_t v)
{
	struct tune *t = &ui->charts.tune.t;
	int64_t again;
	ui_knob_set(ui, UI_TUNE_KNOB, v);
	int rc = ui->status_err ? KNOB_ERR_RUNTIME : 0;
	const struct snapshot *now = ui->frozen ? ui->live : ui->snap;
	int64_t stored = !ui->async && rc == 0 ? now->knobs[UI_TUNE_KNOB] : v;
	if (tune_applied(t, rc, stored, &again))
		ui_knob_set(ui, UI_TUNE_KNOB, again);
}

static void tune_progress(struct ui *ui)
{
	const struct tune *t = &ui->charts.tune.t;
	const struct tune_step *st = &t->steps[t->cur];
	char v[KNOB_VALUE_MAX];
	knob_format(UI_TUNE_KNOB, st->value, v, sizeof(v));
	if (!tune_running(t)) {
		ui_status(ui, t->state == TUNE_FAILED, "tune %s: %s (%zu steps)%s%s",
			  knob_table[UI_TUNE_KNOB].name, t->why, tune_nsteps_done(t),
			  t->hint[0] ? "; " : "", t->hint);
		return;
	}
	ui_status(ui, false,
		  "tune %s: step %zu/%zu = %s, %s %.1f/%.1f s, drop %.3f%% (budget %g%%); A/Esc "
		  "stops",
		  knob_table[UI_TUNE_KNOB].name, t->cur + 1, t->conf.nsteps, v,
		  tune_state_name(t->state), st->secs, t->conf.window_s, st->drop_pct,
		  t->conf.budget_drop_pct);
}

static int tune_confirmed(struct ui *ui, int knob, int64_t v)
{
	(void)knob;
	(void)v;
	ui->charts.tune.confirm = true;
	int r = ui_tune_key(ui, 'A');
	ui->charts.tune.confirm = false;
	return r;
}

int ui_tune_key(struct ui *ui, int ch)
{
	struct ui_tune *tu = &ui->charts.tune;
	int64_t v;
	if (tune_running(&tu->t)) {
		if (tune_abort(&tu->t, &v))
			tune_put(ui, v);
		tune_progress(ui);
		tu->announce = ui->async != NULL;
		return UI_KNOB | UI_REDRAW;
	}
	if (ch != 'A')
		return 0; /* Esc with nothing to stop */
	if (ui->fleet || ui->view != VIEW_PMD) {
		ui_status(ui, true, "A: the tuner runs in the pmd view (3)");
		return UI_REDRAW;
	}
	const char *why = ui->src->ops->read_only ? "a recording takes no knob"
						  : source_knob_refusal(ui->src, UI_TUNE_KNOB);
	if (why) {
		ui_status(ui, true, "A: the tuner steps %s: %s", knob_table[UI_TUNE_KNOB].name,
			  why);
		return UI_REDRAW;
	}
	if (!ui->snap->has_pmd || ui->snap->seq == 0) {
		ui_status(ui, true, "A: the tuner needs a sample of running PMDs");
		return UI_REDRAW;
	}
	if (ui->src->ops->writes_machine && !(ui->opt && ui->opt->write)) {
		ui_status(ui, true,
			  "A: the tuner changes this machine's %s: start tunetop with --write",
			  knob_table[UI_TUNE_KNOB].name);
		return UI_REDRAW;
	}
	struct tune_conf conf = {.knob = UI_TUNE_KNOB,
				 .budget_drop_pct = UI_TUNE_BUDGET_DROP_PCT,
				 .window_s = UI_TUNE_WINDOW_S};
	conf.nsteps = tune_default_steps(UI_TUNE_KNOB, conf.steps, TUNE_MAX_STEPS);
	/* On a real machine only after Enter; every later step follows without a question,
	 * each written (and logged) by the source as a key's would be. */
	if (ui->src->ops->writes_machine && !tu->confirm)
		return ui_confirm_ask(ui, tune_confirmed, -1, 0,
				      "A: tune %s on this machine through %zu values, budget drop "
				      "%g%% (A/Esc puts %lld back): Enter starts, Esc cancels",
				      knob_table[UI_TUNE_KNOB].name, conf.nsteps,
				      conf.budget_drop_pct,
				      (long long)ui->snap->knobs[UI_TUNE_KNOB]);
	tune_start(&tu->t, &conf, ui->snap->knobs[UI_TUNE_KNOB], &v);
	tune_put(ui, v);
	tune_progress(ui);
	return UI_KNOB | UI_REDRAW;
}

void ui_tune_step(struct ui *ui)
{
	struct ui_tune *tu = &ui->charts.tune;
	int64_t v;
	if (!tune_running(&tu->t)) {
		/* A blocking source answers the last write later, on the status line: how the
		 * run ended is said again after that answer, so it is what stays. */
		if (tu->announce && ui->pending[UI_TUNE_KNOB] == 0) {
			tu->announce = false;
			tune_progress(ui);
		}
		return;
	}
	if (tune_feed(&tu->t, ui->snap, &v))
		tune_put(ui, v);
	tune_progress(ui);
	tu->announce = ui->async && !tune_running(&tu->t);
}

void ui_tune_quit(struct ui *ui)
{
	struct tune *t = &ui->charts.tune.t;
	char err[512];
	int64_t v;
	if (!tune_abort(t, &v))
		return;
	if (source_knob_set(ui->src, UI_TUNE_KNOB, v, NULL, err, sizeof(err)) != 0)
		fprintf(stderr, "tunetop: tune: putting back %s failed: %s\n",
			knob_table[UI_TUNE_KNOB].name, err);
}

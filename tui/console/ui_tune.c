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

/* The values through the console's one knob path (ui_knob.c): on the sampler thread when the
 * source blocks. A refusal of a step seen at once fails the run, which puts the start values
 * back (or skips a refused fix); one that comes later leaves the step unread, and the tuner
 * gives it up on its own. */
static void tune_put(struct ui *ui, const struct tune_puts *o)
{
	struct tune *t = &ui->charts.tune.t;
	struct tune_puts back;
	for (size_t i = 0; i < o->n; i++) {
		enum knob_id k = o->p[i].knob;
		bool step = t->state == TUNE_WAIT && i + 1 == o->n;
		ui_knob_set(ui, k, o->p[i].value);
		int rc = ui->status_err ? KNOB_ERR_RUNTIME : 0;
		const struct snapshot *now = ui->frozen ? ui->live : ui->snap;
		int64_t stored = !ui->async && rc == 0 ? now->knobs[k] : o->p[i].value;
		if (step && tune_applied(t, rc, stored, &back))
			tune_put(ui, &back);
	}
}

/* A line for the events view: a step's verdict and why, or why a knob kept its value. */
static void tune_event(struct ui *ui, enum knob_id k, int64_t v, const char *verdict,
		       const char *why)
{
	struct ui_tune *tu = &ui->charts.tune;
	char buf[KNOB_VALUE_MAX];
	if (tu->nev == UI_TUNE_EVENTS)
		return;
	struct event *e = &tu->ev[tu->nev++];
	*e = (struct event){
	    .mono_ns = ui->snap->mono_ns, .wall_ns = ui->snap->wall_ns, .kind = EV_INFO};
	snprintf(e->text, sizeof(e->text), "tune: %s = %s %s: %s", knob_table[k].name,
		 knob_format(k, v, buf, sizeof(buf)), verdict, why);
}

static void tune_progress(struct ui *ui)
{
	const struct tune *t = &ui->charts.tune.t;
	const struct tune_step *st = tune_current(t);
	char v[KNOB_VALUE_MAX];
	if (!tune_running(t)) {
		ui_status(ui, t->state == TUNE_FAILED, "tune %s: %s (%zu steps)",
			  knob_table[UI_TUNE_KNOB].name, t->why, tune_nsteps_done(t));
		return;
	}
	if (!st) {
		ui_status(ui, false, "tune %s: diagnosing; A/Esc stops",
			  knob_table[UI_TUNE_KNOB].name);
		return;
	}
	ui_status(
	    ui, false,
	    "tune %s: step %zu/%zu %s%s= %s, %s %.1f/%.1f s, drop %.3f%% (budget %g%%); A/Esc "
	    "stops",
	    knob_table[UI_TUNE_KNOB].name, t->nsteps, tune_nplanned(t),
	    st->knob != UI_TUNE_KNOB ? knob_table[st->knob].name : "",
	    st->knob != UI_TUNE_KNOB ? " " : "", knob_format(st->knob, st->value, v, sizeof(v)),
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
	struct tune_puts o;
	if (tune_running(&tu->t)) {
		if (tune_abort(&tu->t, &o))
			tune_put(ui, &o);
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
				 .window_s = UI_TUNE_WINDOW_S,
				 .fix_first = true};
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
	tune_start(&tu->t, &conf, ui->snap, &o);
	tune_put(ui, &o);
	tune_progress(ui);
	return UI_KNOB | UI_REDRAW;
}

void ui_tune_step(struct ui *ui)
{
	struct ui_tune *tu = &ui->charts.tune;
	struct tune *t = &tu->t;
	struct tune_puts o;
	if (!tune_running(t)) {
		/* A blocking source answers the last write later, on the status line: how the
		 * run ended is said again after that answer, so it is what stays. */
		if (tu->announce && ui->pending[UI_TUNE_KNOB] == 0) {
			tu->announce = false;
			tune_progress(ui);
		}
		return;
	}
	size_t before = tune_nsteps_done(t);
	if (tune_feed(t, ui->snap, &o))
		tune_put(ui, &o);
	for (size_t i = before; i < tune_nsteps_done(t); i++)
		tune_event(ui, t->steps[i].knob, t->steps[i].stored,
			   tune_verdict_name(t->steps[i].verdict), t->steps[i].why);
	for (size_t i = 0; t->state == TUNE_DONE && i < t->nladders; i++)
		tune_event(ui, t->ladders[i].knob,
			   t->ladders[i].best_i >= 0 ? t->ladders[i].best : t->ladders[i].start,
			   "kept", t->ladders[i].why);
	tune_progress(ui);
	tu->announce = ui->async && !tune_running(t);
}

void ui_tune_quit(struct ui *ui)
{
	struct tune *t = &ui->charts.tune.t;
	char err[512];
	struct tune_puts o;
	if (!tune_abort(t, &o))
		return;
	for (size_t i = 0; i < o.n; i++)
		if (source_knob_set(ui->src, o.p[i].knob, o.p[i].value, NULL, err, sizeof(err)) !=
		    0)
			fprintf(stderr, "tunetop: tune: putting back %s failed: %s\n",
				knob_table[o.p[i].knob].name, err);
}

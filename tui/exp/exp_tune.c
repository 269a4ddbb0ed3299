/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_tune.c: `tunetop experiment tune`: the live tuner (tui/tune.h) run on the engine or, with
 * --host --write and a yes, on the live machine; its trace as a table or JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/event.h"
#include "core/xalloc.h"
#include "tui/exp/exp_result.h"
#include "tui/exp/experiment.h"
#include "tui/sig.h"
#include "tui/tune.h"

/* Snapshots per window: enough that a broken budget is seen within a quarter window, few
 * enough that the host's sample (unixctl, /proc) costs nothing next to the PMDs. */
#define TUNE_SAMPLES_PER_WINDOW 4
#define TUNE_SAMPLE_MIN_S 0.1
#define TUNE_SAMPLE_MAX_S 0.5
#define TUNE_MAX_EVENTS 256

struct tune_run {
	struct source *src;
	struct tune t;
	bool json;
	json_t *events; /* the source's knob and error events, as logged while the tuner ran */
	json_t *rollback; /* {from, to} the last time a window broke the budget, else NULL */
	size_t nsets;
	int64_t finals[TUNE_MAX_KNOBS]; /* each ladder's knob at the end, read from the source */
};

/* The source's own log of the writes (the host's also go to syslog): kept for the trace, so
 * each step's write can be read back from what the source said, not from what was asked. */
static void tune_collect(struct tune_run *r, const struct snapshot *s)
{
	for (size_t i = 0; i < s->nevents && i < SNAP_MAX_EVENTS; i++) {
		const struct event *e = &s->events[i];
		if ((e->kind != EV_KNOB && e->kind != EV_ERROR) ||
		    json_array_size(r->events) >= TUNE_MAX_EVENTS)
			continue;
		json_array_append_new(
		    r->events,
		    json_pack("{s:s, s:s}", "kind", event_kind_name(e->kind), "text", e->text));
	}
}

/* What a put is, from the state the tuner is in after the call that asked for it: the last
 * put of a step begun is the step, the others a rollback, a knob's best or a restore. */
static void tune_what(const struct tune *t, bool step, char *what, size_t len)
{
	if (step)
		snprintf(what, len, "step %zu/%zu", t->nsteps, tune_nplanned(t));
	else
		snprintf(what, len, "%s",
			 t->state == TUNE_ROLLBACK			       ? "rollback"
			 : t->state == TUNE_ABORTED || t->state == TUNE_FAILED ? "restore"
									       : "kept");
}

/* Put the values in force; a refused step fails the run, and the start values are put back
 * (once; a refused fix of the diagnosis is skipped, and the next step put). */
static void tune_put(struct tune_run *r, const struct tune_puts *o)
{
	char err[512], buf[KNOB_VALUE_MAX], sb[KNOB_VALUE_MAX], what[48];
	for (size_t i = 0; i < o->n; i++) {
		enum knob_id id = o->p[i].knob;
		int64_t v = o->p[i].value, stored = v;
		bool step = r->t.state == TUNE_WAIT && i + 1 == o->n;
		tune_what(&r->t, step, what, sizeof(what));
		int rc = source_knob_set(r->src, id, v, &stored, err, sizeof(err));
		r->nsets++;
		if (!r->json)
			fprintf(stderr, "tune: %s: %s = %s%s%s%s%s\n", what, knob_table[id].name,
				knob_format(id, v, buf, sizeof(buf)),
				rc	      ? " refused: "
				: stored != v ? " (read back "
					      : "",
				rc ? err : "",
				!rc && stored != v ? knob_format(id, stored, sb, sizeof(sb)) : "",
				!rc && stored != v ? ")" : "");
		struct tune_puts next; /* the start values back, or the step after a skipped fix */
		if (step && tune_applied(&r->t, rc, stored, &next))
			tune_put(r, &next);
	}
}

static void tune_print(const struct tune_run *r, const char *backend, const char *scenario)
{
	const struct tune *t = &r->t;
	char v[KNOB_VALUE_MAX], d[32], c[32], n[32];
	printf("tune %s on %s%s%s%s, budget drop <= %g%%, window %.1f s, started at %s\n",
	       knob_table[t->conf.knob].name, backend, scenario ? " (scenario " : "",
	       scenario ? scenario : "", scenario ? ")" : "", t->conf.budget_drop_pct,
	       t->conf.window_s,
	       knob_format(t->conf.knob, t->ladders[t->nladders - 1].start, v, sizeof(v)));
	printf("%-4s %10s %9s %12s %10s %8s %12s  %-7s  %s\n", "step", "value", "window_s",
	       "offered", "drop%", "cpu%", "cpu_ns/pkt", "verdict", "why");
	for (size_t i = 0; i < tune_nsteps_done(t); i++) {
		const struct tune_step *s = &t->steps[i];
		snprintf(d, sizeof(d), "%.4f", s->drop_pct);
		exp_fmt(c, sizeof(c), s->cpu_pct);
		if (s->cpu_ns_pkt >= 0)
			exp_fmt(n, sizeof(n), s->cpu_ns_pkt);
		else
			snprintf(n, sizeof(n), "-");
		printf("%-4zu %10s %9.2f %12llu %10s %8s %12s  %-7s  %s%s%s\n", i + 1,
		       knob_format(s->knob, s->stored, v, sizeof(v)), s->secs,
		       (unsigned long long)s->offered, d, c, n, tune_verdict_name(s->verdict),
		       t->nladders > 1 ? knob_table[s->knob].name : "", t->nladders > 1 ? ": " : "",
		       s->why);
	}
	for (size_t i = 0; t->nladders > 1 && i < t->nladders; i++)
		printf("%s = %s: %s\n", knob_table[t->ladders[i].knob].name,
		       knob_format(t->ladders[i].knob, r->finals[i], v, sizeof(v)),
		       t->ladders[i].why[0] ? t->ladders[i].why : "not reached");
	printf("%s\n", t->why);
}

static json_t *tune_steps_json(const struct tune *t)
{
	json_t *steps = json_array();
	for (size_t i = 0; i < tune_nsteps_done(t); i++) {
		const struct tune_step *s = &t->steps[i];
		json_t *js = json_pack(
		    "{s:i, s:s, s:o, s:o, s:f, s:I, s:I, s:I, s:f, s:f, s:o, s:s, s:s}", "step",
		    (int)i + 1, "knob", knob_table[s->knob].name, "value",
		    exp_knob_json(s->knob, NULL, s->value), "stored",
		    exp_knob_json(s->knob, NULL, s->stored), "window_s", s->secs, "offered",
		    (json_int_t)s->offered, "dropped", (json_int_t)s->dropped, "forwarded",
		    (json_int_t)s->forwarded, "drop_pct", s->drop_pct, "cpu_pct", s->cpu_pct,
		    "cpu_ns_per_pkt", s->cpu_ns_pkt >= 0 ? json_real(s->cpu_ns_pkt) : json_null(),
		    "verdict", tune_verdict_name(s->verdict), "why", s->why);
		json_object_set_new(js, "host_took_pct",
				    s->host_took_pct >= 0 ? json_real(s->host_took_pct)
							  : json_null());
		json_object_set_new(js, "set_aside", json_integer(s->set_aside));
		json_array_append_new(steps, js);
	}
	return steps;
}

/* Each knob the run stepped: where it started, what it kept (read back) and why. */
static json_t *tune_knobs_json(const struct tune_run *r)
{
	const struct tune *t = &r->t;
	json_t *knobs = json_array();
	for (size_t i = 0; i < t->nladders; i++) {
		const struct tune_ladder *l = &t->ladders[i];
		json_array_append_new(
		    knobs,
		    json_pack("{s:s, s:o, s:o, s:o, s:o, s:s}", "knob", knob_table[l->knob].name,
			      "start", exp_knob_json(l->knob, NULL, l->start), "best",
			      l->best_i >= 0 ? exp_knob_json(l->knob, NULL, l->best) : json_null(),
			      "final", exp_knob_json(l->knob, NULL, r->finals[i]), "fix_of",
			      l->fix_of ? json_string(l->fix_of) : json_null(), "why", l->why));
	}
	return knobs;
}

static json_t *tune_json(const struct tune_run *r, const char *backend, const char *scenario)
{
	const struct tune *t = &r->t;
	const struct tune_ladder *l = &t->ladders[t->nladders - 1]; /* the ladder's knob */
	enum knob_id id = t->conf.knob;
	json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:{s:f}, s:f, s:o, s:o}", "experiment", "tune",
			      "knob", knob_table[id].name, "backend", backend, "scenario",
			      scenario ? json_string(scenario) : json_null(), "budget", "drop_pct",
			      t->conf.budget_drop_pct, "window_s", t->conf.window_s, "start",
			      exp_knob_json(id, NULL, l->start), "steps", tune_steps_json(t));
	json_object_set_new(o, "knobs", tune_knobs_json(r));
	json_object_set_new(o, "best",
			    l->best_i >= 0 ? exp_knob_json(id, NULL, l->best) : json_null());
	json_object_set_new(o, "rollback", r->rollback ? json_incref(r->rollback) : json_null());
	json_object_set_new(o, "final", exp_knob_json(id, NULL, r->finals[t->nladders - 1]));
	json_object_set_new(o, "result", json_string(tune_state_name(t->state)));
	json_object_set_new(o, "why", json_string(t->why));
	json_object_set_new(o, "ok", json_boolean(t->state == TUNE_DONE));
	json_object_set_new(o, "events", json_incref(r->events));
	return o;
}

/* The live machine: only with --write, and only after a yes (a terminal's answer, or --yes
 * where nobody can answer). 0 to go on, else the exit status. */
static int tune_host_ok(bool write, bool yes, enum knob_id id, size_t nsteps, bool fix_first)
{
	if (!write) {
		fprintf(stderr,
			"tunetop: experiment tune: --host steps %s on this machine: it needs "
			"--write (and --yes, or a yes on the terminal)\n",
			knob_table[id].name);
		return 2;
	}
	if (yes)
		return 0;
	if (isatty(STDIN_FILENO) != 1) {
		fprintf(stderr, "tunetop: experiment tune: --host --write with no terminal to ask: "
				"add --yes\n");
		return 2;
	}
	char line[16] = "";
	fprintf(stderr,
		"tune %s on this machine through %zu values%s (each logged; the start values "
		"come back on Ctrl-C)? [y/N] ",
		knob_table[id].name, nsteps, fix_first ? ", after the diagnosis's fix if any" : "");
	if (!fgets(line, sizeof(line), stdin) || (line[0] != 'y' && line[0] != 'Y')) {
		fprintf(stderr, "tunetop: experiment tune: not confirmed: nothing changed\n");
		return 1;
	}
	return 0;
}

/* The tune's own options. */
struct tune_opts {
	const char *knob, *budget, *steps;
	double window;
	bool host, write, yes;
};

static int tune_parse(int argc, char **argv, struct tune_opts *o)
{
	const struct exp_opt opts[] = {EXP_TEXT("--knob", "KNOB", &o->knob),
				       EXP_TEXT("--budget", "drop=PCT", &o->budget),
				       EXP_TEXT("--steps", "LIST", &o->steps),
				       EXP_REAL("--window", "S", &o->window, 0.1, 3600),
				       EXP_FLAG("--host", &o->host),
				       EXP_FLAG("--write", &o->write),
				       EXP_FLAG("--yes", &o->yes)};
	return exp_opts_parse("tune", opts, sizeof(opts) / sizeof(opts[0]), argc, argv, NULL, NULL);
}

/* The tuner's conf from the options: 0, or 2 (usage) after saying why. */
static int tune_conf_of(const struct tune_opts *o, struct tune_conf *conf)
{
	char err[512];
	int id = knob_find(o->knob ? o->knob : "pmd.maxsleep_us");
	if (id < 0 || knob_table[id].type == KNOB_ACTION) {
		fprintf(stderr,
			"tunetop: experiment tune: --knob: '%s' is not a knob with values "
			"(see --list-knobs)\n",
			o->knob);
		return 2;
	}
	/* Unless told the knob or its ladder, the active diagnosis's fix first (docs/diag.md). */
	*conf = (struct tune_conf){
	    .knob = (enum knob_id)id, .window_s = o->window, .fix_first = !o->knob && !o->steps};
	if (!o->budget) {
		fprintf(stderr, "tunetop: experiment tune: needs --budget drop=PCT (e.g. "
				"drop=0.1%%)\n");
		return 2;
	}
	if (tune_parse_budget(o->budget, &conf->budget_drop_pct, err, sizeof(err)) != 0) {
		fprintf(stderr, "tunetop: experiment tune: --budget: %s\n", err);
		return 2;
	}
	if (!o->steps) {
		conf->nsteps = tune_default_steps(id, conf->steps, TUNE_MAX_STEPS);
		return 0;
	}
	const char *items[EXP_MAX_LIST];
	char *copy;
	size_t n = exp_parse_list("tune", "--steps", o->steps, id, &copy, items,
				  EXP_MAX_LIST < TUNE_MAX_STEPS ? EXP_MAX_LIST : TUNE_MAX_STEPS);
	if (n == 0)
		return 2;
	for (size_t i = 0; i < n; i++)
		knob_parse(id, items[i], &conf->steps[i], err, sizeof(err));
	conf->nsteps = n;
	free(copy);
	return 0;
}

/* Why each knob kept its value, as an event of the trace (the console's go to its events). */
static void tune_note_why(struct tune_run *r)
{
	char v[KNOB_VALUE_MAX], text[EVENT_TEXT_MAX + TUNE_WHY_MAX];
	for (size_t i = 0; i < r->t.nladders; i++) {
		const struct tune_ladder *l = &r->t.ladders[i];
		r->finals[i] = source_knob(r->src, l->knob);
		if (!l->why[0])
			continue;
		snprintf(text, sizeof(text), "tune: %s = %s: %s", knob_table[l->knob].name,
			 knob_format(l->knob, r->finals[i], v, sizeof(v)), l->why);
		json_array_append_new(r->events, json_pack("{s:s, s:s}", "kind",
							   event_kind_name(EV_INFO), "text", text));
	}
}

/* One sample fed to the tuner, each value it asks for put in force. */
static void tune_feed_one(struct tune_run *r, const struct snapshot *snap)
{
	struct tune_puts o;
	size_t before = tune_nsteps_done(&r->t);
	enum tune_state was = r->t.state;
	bool put = tune_feed(&r->t, snap, &o);
	size_t done = tune_nsteps_done(&r->t);
	if (!r->json && done > before)
		fprintf(stderr, "tune: step %zu/%zu measured: %s: %s\n", done, tune_nplanned(&r->t),
			tune_verdict_name(r->t.steps[done - 1].verdict), r->t.steps[done - 1].why);
	if (put && r->t.state == TUNE_ROLLBACK && was == TUNE_MEASURE) {
		const struct tune_step *st = tune_current(&r->t);
		json_decref(r->rollback);
		r->rollback =
		    json_pack("{s:o, s:o}", "from", exp_knob_json(st->knob, NULL, st->stored), "to",
			      exp_knob_json(st->knob, NULL, o.p[0].value));
	}
	if (put)
		tune_put(r, &o);
}

/* The run: a sample every period, fed to the tuner; each knob's value in force at the end,
 * read from the source, into r->finals. */
static void tune_loop(struct tune_run *r, const struct tune_conf *conf, double warmup)
{
	double period = conf->window_s / TUNE_SAMPLES_PER_WINDOW;
	period = period < TUNE_SAMPLE_MIN_S   ? TUNE_SAMPLE_MIN_S
		 : period > TUNE_SAMPLE_MAX_S ? TUNE_SAMPLE_MAX_S
					      : period;
	struct snapshot *snap = snapshot_new();
	struct tune_puts o;
	exp_sleep(warmup); /* the source's own start (threads, rings) is no step's cost */
	source_sample(r->src, snap); /* the first interval's baseline, and the values in force */
	tune_collect(r, snap);
	if (snap->knob_absent[conf->knob])
		snap->knobs[conf->knob] = source_knob(r->src, conf->knob);
	tune_start(&r->t, conf, snap, &o);
	tune_put(r, &o);
	while (tune_running(&r->t)) {
		exp_sleep(period);
		if (sig_quit) {
			if (tune_abort(&r->t, &o))
				tune_put(r, &o);
			break;
		}
		source_sample(r->src, snap);
		tune_collect(r, snap);
		tune_feed_one(r, snap);
	}
	/* One sample more: the source's word on the last write joins the trace. */
	source_sample(r->src, snap);
	tune_collect(r, snap);
	snapshot_free(snap);
	tune_note_why(r);
}

int exp_tune_run(const struct exp_common *c0, int argc, char **argv)
{
	struct exp_common c = *c0;
	/* --window, else the common --seconds */
	struct tune_opts o = {.window = c0->seconds};
	struct tune_conf conf;
	char err[512];
	int rc = 0;

	if (tune_parse(argc, argv, &o) || tune_conf_of(&o, &conf))
		return 2;
	if (o.host && c.scenario) {
		fprintf(stderr, "tunetop: experiment tune: --scenario is the engine's: the live "
				"machine runs as it is (--set still applies)\n");
		return 2;
	}
	if (o.host &&
	    (rc = tune_host_ok(o.write, o.yes, conf.knob, conf.nsteps, conf.fix_first)) != 0)
		return rc;
	if (!o.host && !c.scenario)
		c.scenario = "pmd-seed";

	struct tune_run r = {.json = c.json};
	struct source_conf host = {.host_write = o.write};
	r.src = exp_source(&c, o.host ? &host : NULL, NULL, 0, err, sizeof(err), &rc);
	if (!r.src) {
		fprintf(stderr, "tunetop: experiment tune: %s\n", err);
		return rc;
	}
	const char *refused = source_knob_refusal(r.src, conf.knob);
	if (refused) {
		fprintf(stderr, "tunetop: experiment tune: %s: %s\n", knob_table[conf.knob].name,
			refused);
		source_close(r.src);
		return 2;
	}
	r.events = json_array();
	tune_loop(&r, &conf, c.warmup);
	source_close(r.src);

	const char *backend = o.host ? "host" : "engine";
	if (c.json) {
		json_t *j = tune_json(&r, backend, c.scenario);
		exp_result_print(j);
		json_decref(j);
	} else {
		tune_print(&r, backend, c.scenario);
	}
	json_decref(r.events);
	json_decref(r.rollback);
	return r.t.state == TUNE_DONE ? 0 : 1;
}

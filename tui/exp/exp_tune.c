/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_tune.c: `tunetop experiment tune`: the live tuner (tui/tune.h) run on the engine or, with
 * --host --write and a yes, on the live machine; its trace as a table or JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/event.h"
#include "core/xalloc.h"
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
	json_t *rollback; /* {from, to} once a window broke the budget, else NULL */
	size_t nsets;
};

static void tune_sleep(double s)
{
	uint64_t end = clock_mono_ns() + (uint64_t)(s * 1e9);
	while (!sig_quit && clock_mono_ns() < end)
		clock_sleep_ns(20 * NS_PER_MS);
}

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

/* Put v in force; a refusal fails the run, and the start value is put back (once). */
static void tune_put(struct tune_run *r, int64_t v)
{
	char err[512], buf[KNOB_VALUE_MAX], sb[KNOB_VALUE_MAX];
	enum knob_id id = r->t.conf.knob;
	int64_t stored = v, again;
	/* What this write is, from the state the tuner is in now. */
	char what[48];
	if (r->t.state == TUNE_WAIT)
		snprintf(what, sizeof(what), "step %zu/%zu", r->t.cur + 1, r->t.conf.nsteps);
	else
		snprintf(what, sizeof(what), "%s",
			 r->t.state == TUNE_FINAL  ? "rollback"
			 : r->t.state == TUNE_DONE ? "end"
						   : "restore");
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
	if (tune_applied(&r->t, rc, stored, &again)) {
		if (!r->json)
			fprintf(stderr, "tune: %s\n", err);
		if (source_knob_set(r->src, id, again, NULL, err, sizeof(err)) != 0)
			fprintf(stderr, "tunetop: experiment tune: putting back %s failed: %s\n",
				knob_format(id, again, buf, sizeof(buf)), err);
	}
}

static json_t *tune_value_json(enum knob_id id, int64_t v)
{
	char buf[KNOB_VALUE_MAX];
	if (knob_table[id].type == KNOB_INT)
		return json_integer((json_int_t)v);
	if (knob_table[id].type == KNOB_BOOL)
		return json_boolean(v != 0);
	return json_string(knob_format(id, v, buf, sizeof(buf)));
}

static void tune_print(const struct tune_run *r, const char *backend, const char *scenario)
{
	const struct tune *t = &r->t;
	enum knob_id id = t->conf.knob;
	char v[KNOB_VALUE_MAX], d[32], c[32], n[32];
	printf("tune %s on %s%s%s%s, budget drop <= %g%%, window %.1f s, started at %s\n",
	       knob_table[id].name, backend, scenario ? " (scenario " : "",
	       scenario ? scenario : "", scenario ? ")" : "", t->conf.budget_drop_pct,
	       t->conf.window_s, knob_format(id, t->start_value, v, sizeof(v)));
	printf("%-4s %10s %9s %12s %10s %8s %12s  %s\n", "step", "value", "window_s", "offered",
	       "drop%", "cpu%", "cpu_ns/pkt", "verdict");
	for (size_t i = 0; i < tune_nsteps_done(t); i++) {
		const struct tune_step *s = &t->steps[i];
		snprintf(d, sizeof(d), "%.4f", s->drop_pct);
		exp_fmt(c, sizeof(c), s->cpu_pct);
		if (s->cpu_ns_pkt >= 0)
			exp_fmt(n, sizeof(n), s->cpu_ns_pkt);
		else
			snprintf(n, sizeof(n), "-");
		printf("%-4zu %10s %9.2f %12llu %10s %8s %12s  %s\n", i + 1,
		       knob_format(id, s->stored, v, sizeof(v)), s->secs,
		       (unsigned long long)s->offered, d, c, n, tune_verdict_name(s->verdict));
	}
	printf("%s\n", t->why);
	if (t->hint[0])
		printf("%s\n", t->hint);
}

static json_t *tune_json(const struct tune_run *r, const char *backend, const char *scenario,
			 int64_t final)
{
	const struct tune *t = &r->t;
	enum knob_id id = t->conf.knob;
	json_t *steps = json_array();
	for (size_t i = 0; i < tune_nsteps_done(t); i++) {
		const struct tune_step *s = &t->steps[i];
		json_array_append_new(
		    steps,
		    json_pack("{s:i, s:o, s:o, s:f, s:I, s:I, s:I, s:f, s:f, s:o, s:s}", "step",
			      (int)i + 1, "value", tune_value_json(id, s->value), "stored",
			      tune_value_json(id, s->stored), "window_s", s->secs, "offered",
			      (json_int_t)s->offered, "dropped", (json_int_t)s->dropped,
			      "forwarded", (json_int_t)s->forwarded, "drop_pct", s->drop_pct,
			      "cpu_pct", s->cpu_pct, "cpu_ns_per_pkt",
			      s->cpu_ns_pkt >= 0 ? json_real(s->cpu_ns_pkt) : json_null(),
			      "verdict", tune_verdict_name(s->verdict)));
		json_t *js = json_array_get(steps, i);
		json_object_set_new(js, "host_took_pct",
				    s->host_took_pct >= 0 ? json_real(s->host_took_pct)
							  : json_null());
		json_object_set_new(js, "set_aside", json_integer(s->set_aside));
	}
	json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:{s:f}, s:f, s:o, s:o}", "experiment", "tune",
			      "knob", knob_table[id].name, "backend", backend, "scenario",
			      scenario ? json_string(scenario) : json_null(), "budget", "drop_pct",
			      t->conf.budget_drop_pct, "window_s", t->conf.window_s, "start",
			      tune_value_json(id, t->start_value), "steps", steps);
	json_object_set_new(o, "best", t->best_i >= 0 ? tune_value_json(id, t->best) : json_null());
	json_object_set_new(o, "rollback", r->rollback ? json_incref(r->rollback) : json_null());
	json_object_set_new(o, "final", tune_value_json(id, final));
	json_object_set_new(o, "result", json_string(tune_state_name(t->state)));
	json_object_set_new(o, "why", json_string(t->why));
	json_object_set_new(o, "hint", t->hint[0] ? json_string(t->hint) : json_null());
	json_object_set_new(o, "ok", json_boolean(t->state == TUNE_DONE));
	json_object_set_new(o, "events", json_incref(r->events));
	return o;
}

/* The live machine: only with --write, and only after a yes (a terminal's answer, or --yes
 * where nobody can answer). 0 to go on, else the exit status. */
static int tune_host_ok(bool write, bool yes, enum knob_id id, size_t nsteps)
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
		"tune %s on this machine through %zu values (each logged; the start value comes "
		"back on Ctrl-C)? [y/N] ",
		knob_table[id].name, nsteps);
	if (!fgets(line, sizeof(line), stdin) || (line[0] != 'y' && line[0] != 'Y')) {
		fprintf(stderr, "tunetop: experiment tune: not confirmed: nothing changed\n");
		return 1;
	}
	return 0;
}

static struct source *tune_host_source(const struct exp_common *c, bool write, char *err,
				       size_t errlen, int *status)
{
	struct source_conf conf = {.host_write = write};
	int rc = 0;
	struct source *src = source_open_rc(&source_host_ops, &conf, &rc, err, errlen);
	if (!src) {
		*status = rc == KNOB_ERR_USAGE ? 2 : 1;
		return NULL;
	}
	for (size_t i = 0; rc == 0 && i < c->nsets; i++)
		rc = source_knob_assign(src, c->sets[i], err, errlen);
	if (rc == 0 && source_start(src, err, errlen) != 0)
		rc = 1;
	if (rc != 0) {
		*status = rc == KNOB_ERR_USAGE ? 2 : 1;
		source_close(src);
		return NULL;
	}
	return src;
}

/* The tune's own options. */
struct tune_opts {
	const char *knob, *budget, *steps;
	double window;
	bool host, write, yes;
};

static int tune_parse(int argc, char **argv, struct tune_opts *o)
{
	for (int i = 0; i < argc; i++) {
		bool v = i + 1 < argc;
		if (v && strcmp(argv[i], "--knob") == 0) {
			o->knob = argv[++i];
		} else if (v && strcmp(argv[i], "--budget") == 0) {
			o->budget = argv[++i];
		} else if (v && strcmp(argv[i], "--steps") == 0) {
			o->steps = argv[++i];
		} else if (v && strcmp(argv[i], "--window") == 0) {
			if (exp_parse_double("--window", argv[++i], 0.1, 3600, &o->window))
				return 2;
		} else if (strcmp(argv[i], "--host") == 0) {
			o->host = true;
		} else if (strcmp(argv[i], "--write") == 0) {
			o->write = true;
		} else if (strcmp(argv[i], "--yes") == 0) {
			o->yes = true;
		} else {
			fprintf(
			    stderr,
			    "tunetop: experiment tune: unknown option '%s' (valid: --knob KNOB, "
			    "--budget drop=PCT, --steps LIST, --window S, --host, --write, "
			    "--yes and the common options)\n",
			    argv[i]);
			return 2;
		}
	}
	return 0;
}

/* The tuner's conf from the options: 0, or 2 (usage) after saying why. */
static int tune_conf_of(const struct tune_opts *o, struct tune_conf *conf)
{
	char err[512];
	int id = knob_find(o->knob);
	if (id < 0 || knob_table[id].type == KNOB_ACTION) {
		fprintf(stderr,
			"tunetop: experiment tune: --knob: '%s' is not a knob with values "
			"(see --list-knobs)\n",
			o->knob);
		return 2;
	}
	*conf = (struct tune_conf){.knob = (enum knob_id)id, .window_s = o->window};
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

/* The run: a sample every period, fed to the tuner, each value it asks for put in force;
 * returns the value in force at the end, read from the source. */
static int64_t tune_loop(struct tune_run *r, const struct tune_conf *conf, double warmup)
{
	double period = conf->window_s / TUNE_SAMPLES_PER_WINDOW;
	period = period < TUNE_SAMPLE_MIN_S   ? TUNE_SAMPLE_MIN_S
		 : period > TUNE_SAMPLE_MAX_S ? TUNE_SAMPLE_MAX_S
					      : period;
	struct snapshot *snap = snapshot_new();
	tune_sleep(warmup); /* the source's own start (threads, rings) is no step's cost */
	source_sample(r->src, snap); /* the first interval's baseline, and the value in force */
	tune_collect(r, snap);
	int64_t v, start = snap->knob_absent[conf->knob] ? source_knob(r->src, conf->knob)
							 : snap->knobs[conf->knob];
	tune_start(&r->t, conf, start, &v);
	tune_put(r, v);
	while (tune_running(&r->t)) {
		tune_sleep(period);
		if (sig_quit) {
			if (tune_abort(&r->t, &v))
				tune_put(r, v);
			break;
		}
		source_sample(r->src, snap);
		tune_collect(r, snap);
		size_t before = tune_nsteps_done(&r->t);
		enum tune_state was = r->t.state;
		bool put = tune_feed(&r->t, snap, &v);
		size_t done = tune_nsteps_done(&r->t);
		if (!r->json && done > before)
			fprintf(stderr, "tune: step %zu/%zu measured: %s\n", done, conf->nsteps,
				tune_verdict_name(r->t.steps[done - 1].verdict));
		if (put && r->t.state == TUNE_FINAL && was == TUNE_MEASURE)
			r->rollback =
			    json_pack("{s:o, s:o}", "from",
				      tune_value_json(conf->knob, r->t.steps[r->t.cur].stored),
				      "to", tune_value_json(conf->knob, v));
		if (put)
			tune_put(r, v);
	}
	/* One sample more: the source's word on the last write joins the trace. */
	source_sample(r->src, snap);
	tune_collect(r, snap);
	snapshot_free(snap);
	return source_knob(r->src, conf->knob);
}

int exp_tune_run(const struct exp_common *c0, int argc, char **argv)
{
	struct exp_common c = *c0;
	/* --window, else the common --seconds */
	struct tune_opts o = {.knob = "pmd.maxsleep_us", .window = c0->seconds};
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
	if (o.host && (rc = tune_host_ok(o.write, o.yes, conf.knob, conf.nsteps)) != 0)
		return rc;
	if (!o.host && !c.scenario)
		c.scenario = "pmd-seed";

	struct tune_run r = {.json = c.json};
	r.src = o.host ? tune_host_source(&c, o.write, err, sizeof(err), &rc)
		       : exp_source(&c, NULL, 0, err, sizeof(err), &rc);
	if (!r.src) {
		fprintf(stderr, "tunetop: experiment tune: %s\n", err);
		return rc;
	}
	const char *refused = source_knob_refusal(r.src, conf.knob);
	if (refused) {
		fprintf(stderr, "tunetop: experiment tune: %s: %s\n", o.knob, refused);
		source_close(r.src);
		return 2;
	}
	r.events = json_array();
	int64_t final = tune_loop(&r, &conf, c.warmup);
	source_close(r.src);

	const char *backend = o.host ? "host" : "engine";
	if (c.json) {
		json_t *j = tune_json(&r, backend, c.scenario, final);
		json_dumpf(j, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10));
		printf("\n");
		json_decref(j);
	} else {
		tune_print(&r, backend, c.scenario);
	}
	json_decref(r.events);
	json_decref(r.rollback);
	return r.t.state == TUNE_DONE ? 0 : 1;
}

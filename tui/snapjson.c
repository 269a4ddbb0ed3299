/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapjson.c: rendering a snapshot into the schema-1 JSON object. */
#include "tui/snapjson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/clock.h"
#include "core/governor.h"
#include "core/snap_schema.h"
#include "core/thread_state.h"
#include "core/utf8.h"
#include "tui/options.h"
#include "tui/rowfmt.h"
#include "tui/snapjson_absent.h"
#include "tui/snapjson_diag.h"
#include "tui/snapjson_int.h"

/* The knobs object: {"cpu.governor": "ondemand", "pmd.maxsleep_us": 500, ...}, null for each
 * knob absent[k]. */
static json_t *snapjson_knobs(const int64_t *values, const bool *absent)
{
	json_t *o = json_object();
	char buf[64];

	for (int k = 0; k < K_COUNT; k++) {
		const struct knob_def *d = &knob_table[k];
		json_t *v;
		if (absent && absent[k]) {
			json_object_set_new(o, d->name, json_null());
			continue;
		}
		switch (d->type) {
		case KNOB_ENUM:
			v = json_string(knob_format(k, values[k], buf, sizeof(buf)));
			break;
		case KNOB_BOOL:
			v = json_boolean(values[k] != 0);
			break;
		default:
			v = json_integer((json_int_t)values[k]);
			break;
		}
		json_object_set_new(o, d->name, v);
	}
	return o;
}

static json_t *snapjson_cpu(const struct snapshot *s)
{
	json_t *cpus = json_array();
	for (int i = 0; i < s->ncpus; i++) {
		json_t *c = json_object();
		snapjson_fields(c, snap_cpu_fields, snap_cpu_nfields, &s->cpus[i], false);
		json_array_append_new(cpus, c);
	}
	return json_pack("{s:s, s:s, s:o}", "governor", snapshot_governor_name(s),
			 "governor_source", snapshot_governor_source(s), "cpus", cpus);
}

/* One thread's object: its members set one by one (json_pack's format string parsed per
 * thread was a tenth of a 500-thread host refresh's own time). */
static json_t *snapjson_threads(const struct snapshot *s)
{
	json_t *a = json_array();
	for (size_t i = 0; i < s->nthreads; i++) {
		const struct snap_thread *t = &s->threads[i];
		json_t *o = json_object();
		snapjson_fields(o, snap_thread_fields, snap_thread_nfields, t, false);
		json_object_set_new_nocheck(o, "subsystem", json_string(rowfmt_thread_group(s, t)));
		json_object_set_new_nocheck(o, "state", json_string(ethread_state_name(t->state)));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *snapjson_est(const struct est_snap *e)
{
	char when[40];
	json_t *o = json_object(), *kt_pct = json_array();

	snapjson_fields(o, snap_est_fields, snap_est_nfields, e, false);
	for (int i = 0; i < e->nkt; i++)
		json_array_append_new(kt_pct, jreal(e->kt[i].cpu_pct));
	clock_iso8601(e->calib.wall_ns, when, sizeof(when));
	json_t *cal = json_object_get(o, "calibration");
	json_object_set_new(cal, "governor", json_string(cpu_governor_name(e->calib.governor)));
	json_object_set_new(cal, "time", json_string(e->calib.wall_ns ? when : ""));
	json_object_set_new(o, "kthread_cpu_pct", kt_pct);
	json_object_set_new(o, "kthread_goal_pct", jreal(EST_KTHREAD_GOAL_PCT));
	return o;
}

static json_t *snapjson_pmd(const struct pmd_snap *p)
{
	json_t *o = json_object();
	snapjson_fields(o, snap_pmd_fields, snap_pmd_nfields, p, false);
	json_t *threads = json_object_get(o, "threads");
	for (int i = 0; i < p->nthreads; i++)
		if (!p->threads[i].bpf) /* a PMD the eBPF probe did not watch */
			json_object_set_new(json_array_get(threads, (size_t)i), "bpf_overshoot_us",
					    json_null());
	json_object_set_new(o, "topology", json_string(p->topology ? p->topology : "direct"));
	if (p->hung) {
		json_t *lat = json_object_get(o, "lat_us");
		json_object_set_new(lat, "p50", json_null());
		json_object_set_new(lat, "p99", json_null());
		json_object_set_new(lat, "p50_at_least", json_false());
		json_object_set_new(lat, "p99_at_least", json_false());
	}
	return o;
}

/* rows: submitting CPU, columns: completing CPU, completions per second */
static json_t *snapjson_blk(const struct blk_snap *b)
{
	json_t *o = json_object(), *m = json_array();
	snapjson_fields(o, snap_blk_fields, snap_blk_nfields, b, false);
	for (int s = 0; s < b->matrix_n; s++) {
		json_t *row = json_array();
		for (int c = 0; c < b->matrix_n; c++)
			json_array_append_new(row, jreal(b->matrix_per_s[s][c]));
		json_array_append_new(m, row);
	}
	json_object_set_new(o, "matrix_per_s", m);
	return o;
}

json_t *snapjson_build(const struct snapshot *s)
{
	char when[40];
	json_t *events = json_array();

	clock_iso8601(s->wall_ns, when, sizeof(when));
	for (size_t i = 0; i < s->nevents; i++) {
		char t[40];
		if (!snapjson_diag_event_kept(s, &s->events[i]))
			continue;
		clock_iso8601(s->events[i].wall_ns, t, sizeof(t));
		json_array_append_new(events, json_pack("{s:s, s:s, s:o}", "time", t, "kind",
							event_kind_name(s->events[i].kind), "text",
							jstr(s->events[i].text)));
	}
	snapjson_diag_events(events, s);
	json_t *o =
	    json_pack("{s:i, s:s, s:s, s:s, s:o, s:o, s:s, s:o}", "schema", SNAPJSON_SCHEMA, "tool",
		      "tunetop", "version", TUNETOP_VERSION, "time", when, "uptime_s",
		      jreal(s->uptime_s), "interval_s", jreal_scaled(s->interval_s, 1000.0),
		      "backend", s->backend ? s->backend : "engine", "seq", jint(s->seq));
	json_object_set_new(o, "cpu", snapjson_cpu(s));
	json_object_set_new(o, "threads", snapjson_threads(s));
	if (s->has_est)
		json_object_set_new(o, "est", snapjson_est(&s->est));
	if (s->has_pmd)
		json_object_set_new(o, "pmd", snapjson_pmd(&s->pmd));
	if (s->has_blk)
		json_object_set_new(o, "blk", snapjson_blk(&s->blk));
	if (s->has_host)
		json_object_set_new(o, "host", snapjson_host(&s->host));
	/* What the host names absent it does not have: null, never a 0 that reads as measured. */
	for (int i = 0; s->has_host && i < s->host.nabsent; i++)
		snapjson_null_path(o, s->host.absent[i]);
	json_object_set_new(o, "knobs", snapjson_knobs(s->knobs, s->knob_absent));
	json_object_set_new(o, "events", events);
	json_t *self = json_object();
	snapjson_fields(self, snap_self_fields, snap_self_nfields, &s->self, false);
	json_object_set_new(o, "self", self);
	/* What a replayed recording lacked stays lacking in what is written from it. */
	static const struct {
		unsigned bit;
		const char *path;
	} self_absent[] = {
	    {SELF_ABSENT_CPU, "self.cpu_pct"},	       {SELF_ABSENT_SAMPLE, "self.sample_us"},
	    {SELF_ABSENT_RENDER, "self.render_us"},    {SELF_ABSENT_TTY, "self.tty_bytes"},
	    {SELF_ABSENT_TTY, "self.tty_bytes_per_s"},
	};
	for (size_t i = 0; i < sizeof(self_absent) / sizeof(self_absent[0]); i++)
		if (s->self.absent & self_absent[i].bit)
			snapjson_null_path(o, self_absent[i].path);
	/* Last, as the line always had it: the findings the front end attached (tui/after.c). */
	if (s->diag.evaluated)
		json_object_set_new(o, "diagnoses", snapjson_findings(s->diag.f, s->diag.n));
	return o;
}

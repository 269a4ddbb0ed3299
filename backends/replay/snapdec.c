/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapdec.c: decoding schema-1 JSON snapshots (the reverse of tui/snapjson.c), never trusting
 * the input: every field is type-checked, every array clamped to what the struct holds. */
#include "backends/replay/snapdec.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/replay/snapdec_int.h"
#include "core/governor.h"
#include "core/pmd_cost.h"
#include "core/snap_schema.h"
#include "core/thread_state.h"
#include "core/xalloc.h"

/* CPUs and threads a decoded snapshot may hold: far above any real one, a bound for garbage. */
#define SNAPDEC_MAX_CPUS 4096
#define SNAPDEC_MAX_THREADS 65536
uint64_t snapdec_iso8601(const char *s)
{
	struct tm tm = {0};
	unsigned ms = 0;
	int n = 0;
	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			 &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6)
		return 0;
	if (s[n] == '.')
		sscanf(s + n + 1, "%3u", &ms);
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	time_t t = timegm(&tm);
	if (t < 0)
		return 0;
	return (uint64_t)t * 1000000000ULL + (uint64_t)ms * 1000000ULL;
}

int snapdec_iso8601_strict(const char *s, uint64_t *out)
{
	struct tm tm = {0}, back;
	int n = 0;
	unsigned long frac_ns = 0;
	if (!s ||
	    sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 ||
	    n != 19)
		return -1;
	const char *p = s + n;
	if (*p == '.') {
		unsigned long scale = 100000000UL;
		if (!isdigit((unsigned char)*++p))
			return -1;
		for (; isdigit((unsigned char)*p); p++, scale /= 10)
			frac_ns += scale * (unsigned long)(*p - '0');
	}
	if (*p == 'Z')
		p++;
	if (*p || tm.tm_year < 1970)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	/* timegm normalises (month 13 is next January): a time that does not read back is none. */
	back = tm;
	time_t t = timegm(&back);
	if (t < 0 || back.tm_year != tm.tm_year || back.tm_mon != tm.tm_mon ||
	    back.tm_mday != tm.tm_mday || back.tm_hour != tm.tm_hour || back.tm_min != tm.tm_min ||
	    back.tm_sec != tm.tm_sec)
		return -1;
	*out = (uint64_t)t * 1000000000ULL + frac_ns;
	return 0;
}

static int name_index(const char *s, const char *(*name)(int), int count)
{
	for (int i = 0; i < count; i++)
		if (strcmp(name(i), s) == 0)
			return i;
	return -1;
}

static const char *subsys_name_i(int i)
{
	return subsys_name((enum subsys)i);
}

static const char *state_name_i(int i)
{
	return ethread_state_name((enum ethread_state)i);
}

static const char *event_name_i(int i)
{
	return event_kind_name((enum event_kind)i);
}

/* The member at f's offset in base, read from the object its dotted key is in. */
static void dec_cpu(const json_t *o, struct snapshot *s)
{
	const json_t *cpu = jget(o, "cpu");
	const char *gov = js(cpu, "governor"), *src = js(cpu, "governor_source");
	size_t n;
	const json_t *a = jarr(cpu, "cpus", &n, SNAPDEC_MAX_CPUS);

	s->governor = cpu_governor_parse(gov);
	s->governor_absent = strcmp(src, "none") == 0;
	s->governor_emulated = strcmp(src, "emulated") == 0;
	free(s->cpus);
	s->cpus = xcalloc(n ? n : 1, sizeof(*s->cpus));
	s->ncpus = (int)n;
	for (size_t i = 0; i < n; i++) {
		snapdec_fields(json_array_get(a, i), snap_cpu_fields, snap_cpu_nfields,
			       (char *)&s->cpus[i]);
	}
}

static void dec_threads(const json_t *o, struct snapshot *s)
{
	size_t n;
	const json_t *a = jarr(o, "threads", &n, SNAPDEC_MAX_THREADS);
	if (n > s->threads_cap) {
		free(s->threads);
		s->threads = xcalloc(n, sizeof(*s->threads));
		s->threads_cap = n;
	}
	s->nthreads = n;
	for (size_t i = 0; i < n; i++) {
		const json_t *t = json_array_get(a, i);
		struct snap_thread *d = &s->threads[i];
		int sub = name_index(js(t, "subsystem"), subsys_name_i, SUBSYS_COUNT);
		int st = name_index(js(t, "state"), state_name_i, ETHREAD_STATE_COUNT);
		memset(d, 0, sizeof(*d));
		snapdec_fields(t, snap_thread_fields, snap_thread_nfields, (char *)d);
		d->subsys = sub < 0 ? SUBSYS_ENGINE : (enum subsys)sub;
		d->ovs = js(t, "subsystem") && strcmp(js(t, "subsystem"), "ovs") == 0;
		d->state = st < 0 ? ETHREAD_STATE_COUNT : st; /* "?" again when encoded */
	}
}

static void dec_est(const json_t *e, struct est_snap *d)
{
	const json_t *cal = jget(e, "calibration");

	memset(d, 0, sizeof(*d));
	snapdec_fields(e, snap_est_fields, snap_est_nfields, (char *)d);
	d->calib.governor = cpu_governor_parse(js(cal, "governor"));
	if (d->calib.governor < 0)
		d->calib.governor = GOV_COUNT; /* "?" again when encoded */
	d->calib.wall_ns = snapdec_iso8601(js(cal, "time"));
}

static void dec_pmd(const json_t *p, struct pmd_snap *d)
{
	const json_t *a = jget(p, "threads"), *lat = jget(p, "lat_us");

	memset(d, 0, sizeof(*d));
	snapdec_fields(p, snap_pmd_fields, snap_pmd_nfields, (char *)d);
	for (int i = 0; i < d->nthreads; i++) {
		const json_t *t = json_array_get(a, (size_t)i);
		struct pmd_thread_snap *x = &d->threads[i];
		/* iterations is null on a PMD's first sample (tui/snapjson.c's no_rate); a null
		 * bpf_overshoot_us is a PMD the eBPF probe did not watch. */
		x->no_rate = json_is_null(jget(t, "iterations"));
		x->bpf = json_is_object(jget(t, "bpf_overshoot_us"));
	}
	d->topology = snapdec_intern(js(p, "topology"));
	/* null latency: nothing reached the sink, or a PMD is stuck */
	d->lat_valid = json_is_number(jget(lat, "p50")) && json_is_number(jget(lat, "p99"));
	if (!d->lat_valid)
		d->lat_p50_us = d->lat_p99_us = 0,
		d->lat_p50_at_least = d->lat_p99_at_least = false;
	/* A recording from before the cost figures: computed from what it holds. */
	if (!jget(p, "cpu_left_pct"))
		pmd_cost_fill(d, false);
}

/* matrix_per_s: square, clamped to BLK_MATRIX_MAX; short or mistyped rows read 0. */
static void dec_blk_matrix(const json_t *b, struct blk_snap *d)
{
	size_t n;
	const json_t *m = jarr(b, "matrix_per_s", &n, BLK_MATRIX_MAX);

	d->matrix_n = (int)n;
	for (size_t r = 0; r < n; r++) {
		const json_t *row = json_array_get(m, r);
		size_t nc = json_is_array(row) ? json_array_size(row) : 0;
		for (size_t c = 0; c < n && c < nc; c++)
			d->matrix_per_s[r][c] = jd_at(row, c);
	}
}

static void dec_blk(const json_t *b, struct blk_snap *d)
{
	memset(d, 0, sizeof(*d));
	snapdec_fields(b, snap_blk_fields, snap_blk_nfields, (char *)d);
	d->lat_valid = !d->hung && json_is_number(jget(jget(b, "lat_us"), "p50")); /* null: hung */
	/* null: no completion in the interval; no blk-irq thread */
	d->per_cpl_valid = json_is_number(jget(jget(b, "cpu_ns_per_completion"), "total"));
	d->irq_busy_valid = json_is_number(jget(b, "irq_busy_pct"));
	dec_blk_matrix(b, d);
}

/* A null knob is one the source lacks (knob_absent): its default, shown as null again. */
static void dec_knobs(const json_t *k, int64_t *out, bool *absent)
{
	char err[128];
	for (int i = 0; i < K_COUNT; i++) {
		const struct knob_def *d = &knob_table[i];
		const json_t *v = jget(k, d->name);
		int64_t x = d->def;
		absent[i] = json_is_null(v);
		if (json_is_integer(v))
			x = (int64_t)json_integer_value(v);
		else if (json_is_boolean(v))
			x = json_is_true(v);
		else if (json_is_string(v) && knob_parse((enum knob_id)i, json_string_value(v), &x,
							 err, sizeof(err)) != 0)
			x = d->def;
		out[i] = x;
	}
}

static void dec_events(const json_t *o, struct snapshot *s)
{
	size_t n;
	const json_t *a = jarr(o, "events", &n, SNAP_MAX_EVENTS);
	s->nevents = n;
	for (size_t i = 0; i < n; i++) {
		const json_t *e = json_array_get(a, i);
		struct event *d = &s->events[i];
		int k = name_index(js(e, "kind"), event_name_i, EV_KIND_COUNT);
		memset(d, 0, sizeof(*d));
		d->kind = k < 0 ? EV_INFO : (enum event_kind)k;
		d->wall_ns = snapdec_iso8601(js(e, "time"));
		jcopy(d->text, sizeof(d->text), e, "text");
	}
}

int snapdec_from_json(const json_t *o, struct snapshot *s, char *err, size_t errlen)
{
	if (!json_is_object(o)) {
		snprintf(err, errlen, "not a JSON object");
		return SNAPDEC_GARBAGE;
	}
	const json_t *schema = json_object_get(o, "schema");
	if (!json_is_integer(schema) || json_integer_value(schema) != SNAPDEC_SCHEMA) {
		snprintf(err, errlen, "not a schema %d snapshot", SNAPDEC_SCHEMA);
		return SNAPDEC_SCHEMA_OTHER;
	}
	const json_t *self = jget(o, "self");

	s->wall_ns = snapdec_iso8601(js(o, "time"));
	s->mono_ns = 0; /* a replaying source stamps its own clock */
	s->uptime_s = jd(o, "uptime_s");
	s->interval_s = jd(o, "interval_s");
	s->backend = snapdec_intern(js(o, "backend"));
	s->seq = ju(o, "seq");
	dec_cpu(o, s);
	dec_threads(o, s);
	s->has_est = json_is_object(jget(o, "est"));
	s->has_pmd = json_is_object(jget(o, "pmd"));
	s->has_blk = json_is_object(jget(o, "blk"));
	s->has_host = json_is_object(jget(o, "host"));
	if (s->has_est)
		dec_est(jget(o, "est"), &s->est);
	if (s->has_pmd)
		dec_pmd(jget(o, "pmd"), &s->pmd);
	if (s->has_blk)
		dec_blk(jget(o, "blk"), &s->blk);
	if (s->has_host)
		snapdec_host(jget(o, "host"), &s->host);
	dec_knobs(jget(o, "knobs"), s->knobs, s->knob_absent);
	dec_events(o, s);
	snapdec_fields(self, snap_self_fields, snap_self_nfields, (char *)&s->self);
	/* An older or foreign recording may lack one: shown "-", written back null. */
	s->self.absent = (json_is_number(jget(self, "cpu_pct")) ? 0 : SELF_ABSENT_CPU) |
			 (json_is_number(jget(self, "sample_us")) ? 0 : SELF_ABSENT_SAMPLE) |
			 (json_is_number(jget(self, "render_us")) ? 0 : SELF_ABSENT_RENDER) |
			 (json_is_number(jget(self, "tty_bytes")) ? 0 : SELF_ABSENT_TTY);
	return SNAPDEC_OK;
}

int snapdec_line(const char *line, size_t len, struct snapshot *snap, char *err, size_t errlen)
{
	json_error_t je;
	/* JSON_DECODE_ANY is off: a bare number or string is garbage, not a snapshot. */
	json_t *o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &je);
	if (!o) {
		snprintf(err, errlen, "not JSON (%s)", je.text);
		return SNAPDEC_GARBAGE;
	}
	int rc = snapdec_from_json(o, snap, err, errlen);
	json_decref(o);
	return rc;
}

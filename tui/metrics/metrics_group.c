/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics_group.c: the families whose series are grouped: the info line, knobs by unit, events
 * and diagnoses, thread CPU and delay by thread name (tid only with --metrics-tid), host
 * threads by what they are. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tui/options.h"
#include "tui/rowfmt.h"
#include "tui/metrics/metrics_int.h"

/* Units of time per second of a knob's unit (0: not a time): the value is written in
 * seconds, Prometheus's base unit. */
static double knob_seconds(const struct knob_def *d)
{
	return strcmp(d->unit, "us") == 0   ? 1e6
	       : strcmp(d->unit, "ns") == 0 ? 1e9
	       : strcmp(d->unit, "ms") == 0 ? 1e3
					    : 0;
}

/* The family a knob's value is written in: one per unit, so that no sum or average over the
 * knob label mixes units (an action has no value to write: M_COUNT). */
static enum metric_id knob_family(const struct knob_def *d)
{
	if (d->type == KNOB_ACTION)
		return M_COUNT;
	if (d->type == KNOB_ENUM)
		return M_KNOB_CHOICE;
	if (d->type == KNOB_BOOL)
		return M_KNOB_ENABLED;
	if (knob_seconds(d) > 0)
		return M_KNOB_SECONDS;
	return strcmp(d->unit, "pps") == 0 ? M_KNOB_PPS : M_KNOB_VALUE;
}

void metrics_info(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	mw_begin(w, "_info");
	mw_label(w, "version", TUNETOP_VERSION);
	mw_label(w, "backend", s->backend ? s->backend : "engine");
	mw_label(w, "governor_source", snapshot_governor_source(s));
	mw_label(w, "governor", snapshot_governor_name(s));
	mw_u64(w, 1);
}

void metrics_events(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	for (int k = 0; st && k < EV_KIND_COUNT; k++)
		mw_c1(w, "kind", event_kind_name((enum event_kind)k), st->events_total[k]);
}

/* Rule id has a finding on s: the findings the front end attached, evaluated once for the
 * line, the exporter and the screen alike (tui/after.c). */
static bool metrics_finding(const struct snapshot *s, const char *id)
{
	for (int i = 0; s->diag.evaluated && i < s->diag.n; i++)
		if (strcmp(s->diag.f[i].id, id) == 0)
			return true;
	return false;
}

void metrics_diag(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	for (int i = 0; st && i < diag_rule_count(); i++)
		mw_g1(w, "rule", diag_rule_id(i), metrics_finding(s, diag_rule_id(i)) ? 1 : 0);
}

void metrics_knob(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	for (int k = 0; k < K_COUNT; k++)
		mw_g1(w, "knob", knob_table[k].name, (double)s->knobs[k]);
}

void metrics_knobs(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	for (int id = M_KNOB_SECONDS; id <= M_KNOB_CHOICE; id++) {
		mw_family(w, (enum metric_id)id);
		for (int k = 0; k < K_COUNT; k++) {
			const struct knob_def *d = &knob_table[k];
			if (s->knob_absent[k] || knob_family(d) != (enum metric_id)id)
				continue;
			if (id == M_KNOB_SECONDS) {
				mw_g1(w, "knob", d->name, (double)s->knobs[k] / knob_seconds(d));
				continue;
			}
			if (id != M_KNOB_CHOICE) {
				mw_g1(w, "knob", d->name, (double)s->knobs[k]);
				continue;
			}
			int64_t n = 0;
			while (d->choices[n])
				n++;
			if (s->knobs[k] < 0 || s->knobs[k] >= n)
				continue;
			mw_begin(w, "_info");
			mw_label(w, "knob", d->name);
			mw_label(w, "value", d->choices[s->knobs[k]]);
			mw_u64(w, 1);
		}
	}
}

/*
 * The CPU time of the threads: one series per thread name (and group), summed, so that a
 * thread that restarts under a new tid keeps its series; by tid with --metrics-tid.
 */
void metrics_threads(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	bool tid = st && st->tid;
	for (size_t i = 0; i < s->nthreads; i++) {
		const struct snap_thread *t = &s->threads[i];
		const char *grp = rowfmt_host_group(s, t);
		uint64_t ns = t->cpu_ns;
		bool seen = false;
		for (size_t j = 0; !tid && j < s->nthreads && !seen; j++) {
			const struct snap_thread *u = &s->threads[j];
			const char *ug = rowfmt_host_group(s, u);
			if (j == i || strcmp(u->name, t->name) != 0 || strcmp(ug, grp) != 0)
				continue;
			if (j < i)
				seen = true; /* written with the first of its name */
			else
				ns += u->cpu_ns;
		}
		if (seen)
			continue;
		mw_begin(w, "_total");
		if (tid)
			mw_label_int(w, "tid", t->tid);
		mw_label(w, "name", t->name);
		mw_label(w, "subsystem", grp);
		mw_ns_s(w, ns);
	}
}

/* The name of a picked host thread (its snapshot row), or "" when it is not listed. */
static const char *thread_name(const struct snapshot *s, pid_t tid)
{
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i].tid == tid)
			return s->threads[i].name;
	return "";
}

/* A TASKSTATS delay ratio: by tid with --metrics-tid, else summed by thread name. */
static void metrics_delay(struct mw *w, const struct snapshot *s, bool tid, bool blkio)
{
	const struct host_snap *h = &s->host;
	for (int i = 0; h->delayacct && i < h->nacct; i++) {
		const char *name = thread_name(s, h->acct[i].tid);
		double v = blkio ? h->acct[i].blkio_delay_pct : h->acct[i].cpu_delay_pct;
		bool seen = false;
		for (int j = 0; !tid && j < h->nacct && !seen; j++) {
			if (j == i || strcmp(thread_name(s, h->acct[j].tid), name) != 0)
				continue;
			if (j < i)
				seen = true;
			else
				v += blkio ? h->acct[j].blkio_delay_pct : h->acct[j].cpu_delay_pct;
		}
		if (seen)
			continue;
		mw_begin(w, "");
		if (tid)
			mw_label_int(w, "tid", h->acct[i].tid);
		mw_label(w, "name", name);
		mw_f64(w, v / 100.0);
	}
}

void metrics_cpu_delay(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	metrics_delay(w, s, st && st->tid, false);
}

void metrics_blkio_delay(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	metrics_delay(w, s, st && st->tid, true);
}

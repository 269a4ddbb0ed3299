/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag.c: the rule list, hysteresis and the findings of one sample (docs/diag.md "Hysteresis"). */
#include "diag/diag.h"

#include <stdio.h>
#include <string.h>

#include "diag/diag_rule.h"

/* The rule lists of each subsystem, in the order findings of equal severity are listed. */
static const struct {
	const struct diag_rule *rules;
	const int *n;
} diag_lists[] = {
    {diag_rules_pmd, &diag_rules_pmd_n},
    {diag_rules_est, &diag_rules_est_n},
    {diag_rules_blk, &diag_rules_blk_n},
    {diag_rules_host, &diag_rules_host_n},
};
#define DIAG_NLISTS (sizeof(diag_lists) / sizeof(diag_lists[0]))

static const struct diag_rule *diag_rule_at(int i)
{
	for (size_t l = 0; l < DIAG_NLISTS; l++) {
		if (i < *diag_lists[l].n)
			return &diag_lists[l].rules[i];
		i -= *diag_lists[l].n;
	}
	return NULL;
}

int diag_rule_count(void)
{
	int n = 0;
	for (size_t l = 0; l < DIAG_NLISTS; l++)
		n += *diag_lists[l].n;
	return n < DIAG_MAX_FINDINGS ? n : DIAG_MAX_FINDINGS;
}

const char *diag_rule_id(int i)
{
	const struct diag_rule *r = i >= 0 && i < diag_rule_count() ? diag_rule_at(i) : NULL;
	return r ? r->id : NULL;
}

const char *diag_severity_name(enum diag_severity s)
{
	switch (s) {
	case DIAG_INFO:
		return "info";
	case DIAG_WARNING:
		return "warning";
	case DIAG_CRITICAL:
		return "critical";
	}
	return "?";
}

void diag_init(struct diag_state *st)
{
	memset(st, 0, sizeof(*st));
	st->nrules = diag_rule_count();
}

bool diag_rule_active(const struct diag_state *st, int i)
{
	return i >= 0 && i < st->nrules && st->rule[i].active;
}

/*
 * A finding starts after k_start consecutive samples with its condition and clears
 * after k_clear consecutive samples without it, so a figure hovering at a threshold
 * does not make it flap; between the two it shows the figures of the last sample
 * that had the condition. since is the first sample of the run of hits that raised it.
 */
static void diag_step(const struct diag_rule *r, struct diag_rule_state *rs,
		      const struct snapshot *s)
{
	struct diag_finding f;
	memset(&f, 0, sizeof(f));
	f.id = r->id;
	f.severity = DIAG_WARNING;
	bool hit = r->check(s, &f);
	if (hit)
		diag_fix_guard(s, &f);
	rs->change = 0;
	/* A sample that cannot say (a thread idle all interval) leaves the runs as they are,
	 * so a figure present every other sample still makes k in a row; bounded, so a
	 * thread idle for good reads as clean. */
	if (!hit && f.undecided) {
		/* In whole ms, as a recording's time keeps it (core/clock.c): a replay judges the
		 * same samples undecided as the live run did. */
		if (rs->undecided++ < DIAG_MAX_UNDECIDED ||
		    s->wall_ns / 1000000 - rs->decided_wall_ns / 1000000 <
			r->undecided_ns / 1000000)
			return;
	} else {
		rs->undecided = 0;
		rs->decided_wall_ns = s->wall_ns;
	}
	if (hit) {
		if (rs->hits == 0) {
			rs->first_seq = s->seq;
			rs->first_wall_ns = s->wall_ns;
		}
		rs->hits++;
		rs->clean = 0;
		if (!rs->active && rs->hits >= r->k_start) {
			rs->active = true;
			rs->change = 1;
			f.since_seq = rs->first_seq;
			f.since_wall_ns = rs->first_wall_ns;
		} else if (rs->active) {
			f.since_seq = rs->held.since_seq;
			f.since_wall_ns = rs->held.since_wall_ns;
		}
		rs->held = f;
		return;
	}
	rs->hits = 0;
	if (rs->active && ++rs->clean >= r->k_clear) {
		rs->active = false;
		rs->clean = 0;
		rs->change = -1;
	}
}

int diag_eval(struct diag_state *st, const struct snapshot *snap, struct diag_finding *out, int max)
{
	if (st->nrules == 0)
		diag_init(st);
	for (int i = 0; i < st->nrules; i++)
		diag_step(diag_rule_at(i), &st->rule[i], snap);
	int n = 0;
	/* Most severe first; within a severity, in rule order. */
	for (int sev = DIAG_CRITICAL; sev >= DIAG_INFO; sev--)
		for (int i = 0; i < st->nrules && n < max; i++)
			if (st->rule[i].active && (int)st->rule[i].held.severity == sev)
				out[n++] = st->rule[i].held;
	return n;
}

int diag_eval_window(const struct snapshot *snap, struct diag_finding *out, int max)
{
	struct diag_finding f[DIAG_MAX_FINDINGS];
	int nf = 0, n = 0, nrules = diag_rule_count();
	for (int i = 0; i < nrules && nf < DIAG_MAX_FINDINGS; i++) {
		const struct diag_rule *r = diag_rule_at(i);
		memset(&f[nf], 0, sizeof(f[nf]));
		f[nf].id = r->id;
		f[nf].severity = DIAG_WARNING;
		if (r->check(snap, &f[nf])) {
			diag_fix_guard(snap, &f[nf]);
			f[nf].since_seq = snap->seq;
			f[nf].since_wall_ns = snap->wall_ns;
			nf++;
		}
	}
	for (int sev = DIAG_CRITICAL; sev >= DIAG_INFO; sev--)
		for (int i = 0; i < nf && n < max; i++)
			if ((int)f[i].severity == sev)
				out[n++] = f[i];
	return n;
}

int diag_changes(const struct diag_state *st, struct diag_change *out, int max)
{
	int n = 0;
	for (int i = 0; i < st->nrules && n < max; i++) {
		const struct diag_rule_state *rs = &st->rule[i];
		if (!rs->change)
			continue;
		struct diag_change *c = &out[n++];
		c->id = diag_rule_id(i);
		c->started = rs->change > 0;
		/* The conclusion is on the line's diagnoses[]; the event stays one short line. */
		if (c->started)
			snprintf(c->text, sizeof(c->text), "diagnosis %s started (%s)%s%s", c->id,
				 diag_severity_name(rs->held.severity),
				 rs->held.fix[0] ? ": fix " : "", rs->held.fix);
		else
			snprintf(c->text, sizeof(c->text), "diagnosis %s cleared", c->id);
	}
	return n;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pass.c: the pass runner (pass.h): the interleaving, the set-aside rule and its bound, and
 * the log of every window in the order it ran. */
#include "tui/pass.h"

#include <math.h>
#include <stdlib.h>

#include "core/xalloc.h"

bool pass_set_aside(double took_pct, double limit_pct)
{
	return isfinite(took_pct) && took_pct > limit_pct;
}

static size_t pass_max_tries(const struct pass_conf *c)
{
	return c->max_tries ? c->max_tries : 2 * c->passes;
}

/* Does arm a need another window? Kept and hung passes both count against passes. */
static bool pass_wants(const struct pass_run *r, size_t a)
{
	const struct pass_tally *t = &r->arm[a];
	return t->kept + t->hung < r->conf.passes && t->tries < pass_max_tries(&r->conf);
}

static void pass_judge(struct pass_run *r, const struct pass_ops *ops, void *ctx,
		       struct pass_log *l, enum pass_verdict v)
{
	struct pass_tally *t = &r->arm[l->arm];
	size_t slot = v == PASS_KEPT ? t->kept++ : v == PASS_ASIDE ? t->aside++ : t->hung++;
	l->verdict = v;
	ops->judge(ctx, l->arm, v, slot);
}

/* Measure arm a's window and log it: 0 and *l, or 1 when the run ends here (an error, a
 * stop; a window that measured nothing is not logged). */
static int pass_window(struct pass_run *r, const struct pass_ops *ops, void *ctx, size_t a,
		       struct pass_log **l)
{
	struct pass_obs obs = {.took_pct = NAN};
	if (ops->stop && ops->stop(ctx)) {
		r->stopped = true;
		return 1;
	}
	int rc = ops->measure(ctx, a, &obs);
	if (rc != 0 || obs.void_) {
		r->rc = rc;
		r->stopped = rc == 0;
		return 1;
	}
	if (r->nlog == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->log = xrealloc(r->log, r->cap * sizeof(*r->log));
	}
	*l = &r->log[r->nlog++];
	**l = (struct pass_log){.arm = a,
				.pass = r->arm[a].kept,
				.took_pct = obs.took_pct,
				.over = !obs.hung &&
					pass_set_aside(obs.took_pct, r->conf.took_limit_pct),
				.verdict = obs.hung ? PASS_HUNG : PASS_KEPT};
	r->arm[a].tries++;
	r->arm[a].over += (*l)->over;
	if (obs.hung && !r->hang) {
		r->hang = true;
		r->hang_arm = a;
	}
	if (ops->progress)
		ops->progress(ctx, r->nlog, r->conf.narms * pass_max_tries(&r->conf));
	return 0;
}

/* One round of PASS_ROUNDS: every arm once, then the round judged whole. */
static bool pass_round(struct pass_run *r, const struct pass_ops *ops, void *ctx)
{
	size_t first = r->nlog;
	bool over = false;
	for (size_t a = 0; a < r->conf.narms; a++) {
		struct pass_log *l;
		if (pass_window(r, ops, ctx, a, &l) != 0)
			return false;
		if (l->verdict == PASS_HUNG && r->conf.hang_stops) {
			pass_judge(r, ops, ctx, l, PASS_HUNG);
			return false;
		}
		over = over || l->over;
	}
	for (size_t i = first; i < r->nlog; i++)
		pass_judge(r, ops, ctx, &r->log[i],
			   r->log[i].verdict == PASS_HUNG ? PASS_HUNG
			   : over			  ? PASS_ASIDE
							  : PASS_KEPT);
	return true;
}

/* One round of PASS_EACH: a window of every arm still short, each judged at once. */
static bool pass_each(struct pass_run *r, const struct pass_ops *ops, void *ctx, bool *more)
{
	*more = false;
	for (size_t a = 0; a < r->conf.narms; a++) {
		struct pass_log *l;
		if (!pass_wants(r, a))
			continue;
		*more = true;
		if (pass_window(r, ops, ctx, a, &l) != 0)
			return false;
		pass_judge(r, ops, ctx, l,
			   l->verdict == PASS_HUNG ? PASS_HUNG
			   : l->over		   ? PASS_ASIDE
						   : PASS_KEPT);
		if (l->verdict == PASS_HUNG && r->conf.hang_stops)
			return false;
	}
	return true;
}

int pass_run(struct pass_run *r, const struct pass_conf *conf, const struct pass_ops *ops,
	     void *ctx)
{
	*r = (struct pass_run){.conf = *conf};
	r->arm = xcalloc(conf->narms ? conf->narms : 1, sizeof(*r->arm));
	for (bool more = conf->narms > 0; more;) {
		if (conf->order == PASS_ROUNDS) {
			/* Every arm runs in every round, so one arm's count says the round's. */
			if (!pass_wants(r, 0))
				break;
			r->rounds++;
			more = pass_round(r, ops, ctx);
		} else {
			r->rounds++;
			if (!pass_each(r, ops, ctx, &more))
				break;
		}
	}
	return r->rc;
}

void pass_run_free(struct pass_run *r)
{
	free(r->arm);
	free(r->log);
	*r = (struct pass_run){0};
}

bool pass_complete(const struct pass_run *r)
{
	for (size_t a = 0; a < r->conf.narms; a++)
		if (r->arm[a].kept < r->conf.passes)
			return false;
	return true;
}

size_t pass_aside_total(const struct pass_run *r)
{
	size_t n = 0;
	for (size_t a = 0; a < r->conf.narms; a++)
		n += r->arm[a].aside;
	return n;
}

size_t pass_kept_min(const struct pass_run *r)
{
	size_t n = r->conf.narms ? r->arm[0].kept : 0;
	for (size_t a = 1; a < r->conf.narms; a++)
		n = r->arm[a].kept < n ? r->arm[a].kept : n;
	return n;
}

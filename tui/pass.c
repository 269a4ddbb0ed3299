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

void pass_begin(struct pass_run *r, const struct pass_conf *conf)
{
	*r = (struct pass_run){.conf = *conf};
	r->arm = xcalloc(conf->narms ? conf->narms : 1, sizeof(*r->arm));
	r->over = conf->narms == 0;
}

bool pass_next(struct pass_run *r, size_t *arm)
{
	if (r->over)
		return false;
	if (r->conf.order == PASS_ROUNDS) {
		/* Every arm runs in every round, so one arm's count says the round's. */
		if (r->cursor == 0) {
			if (!pass_wants(r, 0)) {
				r->over = true;
				return false;
			}
			r->rounds++;
			r->round_first = r->nlog;
		}
		*arm = r->cursor;
		return true;
	}
	/* The arms still short, from the cursor on; past the last a new round begins, and a
	 * round that found none ends the run. */
	for (;;) {
		for (; r->cursor < r->conf.narms; r->cursor++) {
			if (!pass_wants(r, r->cursor))
				continue;
			if (!r->round_any) {
				r->rounds++;
				r->round_any = true;
			}
			*arm = r->cursor;
			return true;
		}
		if (!r->round_any) {
			r->over = true;
			return false;
		}
		r->cursor = 0;
		r->round_any = false;
	}
}

/* PASS_ROUNDS: the round's windows judged together once its last arm has run. */
static void pass_round_end(struct pass_run *r, const struct pass_ops *ops, void *ctx)
{
	bool over = false;
	for (size_t i = r->round_first; i < r->nlog; i++)
		over = over || r->log[i].over;
	for (size_t i = r->round_first; i < r->nlog; i++)
		pass_judge(r, ops, ctx, &r->log[i],
			   r->log[i].verdict == PASS_HUNG ? PASS_HUNG
			   : over			  ? PASS_ASIDE
							  : PASS_KEPT);
	r->cursor = 0;
}

void pass_add(struct pass_run *r, size_t a, const struct pass_obs *obs, const struct pass_ops *ops,
	      void *ctx)
{
	if (r->nlog == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->log = xrealloc(r->log, r->cap * sizeof(*r->log));
	}
	struct pass_log *l = &r->log[r->nlog++];
	*l = (struct pass_log){.arm = a,
			       .pass = r->arm[a].kept,
			       .took_pct = obs->took_pct,
			       .over = !obs->hung &&
				       pass_set_aside(obs->took_pct, r->conf.took_limit_pct),
			       .verdict = obs->hung ? PASS_HUNG : PASS_KEPT};
	r->arm[a].tries++;
	r->arm[a].over += l->over;
	if (obs->hung && !r->hang) {
		r->hang = true;
		r->hang_arm = a;
	}
	if (obs->hung && r->conf.hang_stops) {
		pass_judge(r, ops, ctx, l, PASS_HUNG); /* the round's others are not judged */
		r->over = true;
	} else if (r->conf.order == PASS_EACH) {
		pass_judge(r, ops, ctx, l,
			   l->verdict == PASS_HUNG ? PASS_HUNG
			   : l->over		   ? PASS_ASIDE
						   : PASS_KEPT);
		r->cursor = a + 1;
	} else if (++r->cursor == r->conf.narms) {
		pass_round_end(r, ops, ctx);
	}
	if (ops->progress)
		ops->progress(ctx, r->nlog, r->conf.narms * pass_max_tries(&r->conf));
}

int pass_run(struct pass_run *r, const struct pass_conf *conf, const struct pass_ops *ops,
	     void *ctx)
{
	size_t a;
	pass_begin(r, conf);
	while (pass_next(r, &a)) {
		struct pass_obs obs = {.took_pct = NAN};
		if (ops->stop && ops->stop(ctx)) {
			r->stopped = true;
			break;
		}
		int rc = ops->measure(ctx, a, &obs);
		if (rc != 0 || obs.void_) {
			r->rc = rc;
			r->stopped = rc == 0;
			break;
		}
		pass_add(r, a, &obs, ops, ctx);
	}
	r->over = true;
	return r->rc;
}

void pass_run_free(struct pass_run *r)
{
	free(r->arm);
	free(r->log);
	*r = (struct pass_run){0};
}

size_t pass_aside_total(const struct pass_run *r)
{
	size_t n = 0;
	for (size_t a = 0; a < r->conf.narms; a++)
		n += r->arm[a].aside;
	return n;
}

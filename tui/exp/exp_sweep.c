/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_sweep.c: the sleep/drop sweep: maxsleep x timer slack x offered load, N passes a point
 * run round-robin over the points by the pass runner (host load falls on all of them), passes
 * the host took too much of set aside and rerun; its results are exp_sweep_report.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "tui/exp/exp_metric.h"
#include "tui/exp/exp_sweep.h"
#include "tui/exp/experiment.h"
#include "tui/pass.h"
#include "tui/pass_cost.h"
#include "tui/sig.h"

/* The runner's window of point i (tui/pass.h): a fresh engine each pass, so passes are
 * independent samples of the point. */
static int sweep_measure(void *ctx, size_t i, struct pass_obs *obs)
{
	struct sweep *sw = ctx;
	struct sweep_point *pt = &sw->pts[i];
	char a_ms[64], a_sl[64], a_rt[64], err[512], hang[256];
	const char *extra[3] = {a_ms, a_sl, a_rt};
	int rc = 0;
	snprintf(a_ms, sizeof(a_ms), "pmd.maxsleep_us=%lld", (long long)pt->ms);
	snprintf(a_sl, sizeof(a_sl), "pmd.timer_slack_ns=%lld", (long long)pt->slack);
	snprintf(a_rt, sizeof(a_rt), "gen.rate_pps=%lld", (long long)pt->rate);
	struct source *src =
	    exp_source(&sw->c, NULL, extra, pt->rate >= 0 ? 3 : 2, err, sizeof(err), &rc);
	if (!src) {
		fprintf(stderr, "tunetop: experiment sweep: %s\n", err);
		return rc;
	}
	json_t *snap = exp_window(src, sw->c.warmup, sw->c.seconds, hang, sizeof(hang));
	source_close(src);
	if (sig_quit) {
		json_decref(snap);
		obs->void_ = true;
		return 0;
	}
	exp_metric(snap, "knobs.gen.rate_pps", &pt->rate_v);
	if (exp_metric(snap, "pass.host_took_pct", &obs->took_pct) != 0)
		obs->took_pct = NAN;
	sw->took = obs->took_pct;
	obs->hung = hang[0] != '\0';
	if (obs->hung) {
		fprintf(stderr,
			"tunetop: experiment sweep: maxsleep %lld us slack %lld ns, pass %zu of "
			"%zu: %s\n",
			(long long)pt->ms, (long long)pt->slack, pt->ok + pt->failed + 1,
			sw->passes, hang);
		if (!pt->hang[0])
			snprintf(pt->hang, sizeof(pt->hang), "%s", hang);
	}
	json_decref(sw->snap);
	sw->snap = snap;
	return 0;
}

/* The verdict on point i's window: its columns kept, or (the host took more than the limit:
 * the pass measured the host, not the setting) its host took kept and the pass run again. */
static void sweep_judge(void *ctx, size_t i, enum pass_verdict v, size_t slot)
{
	struct sweep *sw = ctx;
	struct sweep_point *pt = &sw->pts[i];
	if (v == PASS_ASIDE) {
		pt->aside_took[pt->set_aside++] = sw->took;
	} else if (v == PASS_HUNG) {
		pt->failed++;
	} else {
		for (size_t k = 0; k < SWEEP_NCOLS; k++) {
			double x = 0, bound = 0;
			if (exp_metric(sw->snap, exp_sweep_cols[k].path, &x) == 0)
				pt->have[k] = true;
			pt->v[k][slot] = x;
			if (exp_sweep_cols[k].at_least &&
			    exp_metric(sw->snap, exp_sweep_cols[k].at_least, &bound) == 0 &&
			    bound > 0)
				pt->at_least[k] = true;
		}
		exp_findings_add(&pt->diag, sw->snap);
		pt->ok++;
	}
	json_decref(sw->snap);
	sw->snap = NULL;
}

static void sweep_progress(void *ctx, size_t windows, size_t most)
{
	const struct sweep *sw = ctx;
	if (sw->tty) {
		fprintf(stderr, "\rpass %zu of at most %zu", windows, most);
		fflush(stderr);
	}
}

static int sweep_parse(int argc, char **argv, const char **ms_list, const char **slack_list,
		       const char **rate_list, long *passes, double *budget, double *limit)
{
	const struct exp_opt opts[] = {EXP_TEXT("--maxsleep", "LIST", ms_list),
				       EXP_TEXT("--slack", "LIST", slack_list),
				       EXP_TEXT("--rate", "LIST", rate_list),
				       EXP_COUNT("--passes", "N", passes, 1, SWEEP_MAX_PASSES),
				       EXP_REAL("--drop-budget", "PCT", budget, 0, 100),
				       EXP_REAL("--host-took-limit", "PCT", limit, 0, 100)};
	return exp_opts_parse("sweep", opts, sizeof(opts) / sizeof(opts[0]), argc, argv, NULL,
			      NULL);
}

/* The points, rate by slack by maxsleep, from the parsed lists. */
static struct sweep_point *sweep_points(const char *const *ms, size_t nms, const char *const *slack,
					size_t nslack, const char *const *rate, size_t nrate)
{
	struct sweep_point *pts = xcalloc(nrate * nslack * nms, sizeof(*pts));
	char err[512];
	size_t n = 0;
	for (size_t r = 0; r < nrate; r++)
		for (size_t s = 0; s < nslack; s++)
			for (size_t m = 0; m < nms; m++) {
				struct sweep_point *p = &pts[n++];
				knob_parse(K_PMD_MAXSLEEP_US, ms[m], &p->ms, err, sizeof(err));
				knob_parse(K_PMD_TIMER_SLACK_NS, slack[s], &p->slack, err,
					   sizeof(err));
				p->rate = -1;
				if (rate[r])
					knob_parse(K_GEN_RATE_PPS, rate[r], &p->rate, err,
						   sizeof(err));
			}
	return pts;
}

int exp_sweep_run(const struct exp_common *c0, int argc, char **argv)
{
	struct sweep sw = {
	    .c = *c0, .budget = PASS_DROP_BUDGET_PCT, .limit = PASS_HOST_TOOK_LIMIT_PCT};
	const char *ms_list = "0,50,500", *slack_list = "1000,50000", *rate_list = NULL;
	const char *ms[EXP_MAX_LIST], *slack[EXP_MAX_LIST], *rate[EXP_MAX_LIST] = {NULL};
	char *ms_copy = NULL, *slack_copy = NULL, *rate_copy = NULL;
	size_t nms, nslack, nrate = 1;
	long passes = SWEEP_DEFAULT_PASSES;
	int rc = 0;

	if (!sw.c.scenario)
		sw.c.scenario = "pmd-seed";
	if (sweep_parse(argc, argv, &ms_list, &slack_list, &rate_list, &passes, &sw.budget,
			&sw.limit))
		return 2;
	nms = exp_parse_list("sweep", "--maxsleep", ms_list, K_PMD_MAXSLEEP_US, &ms_copy, ms,
			     EXP_MAX_LIST);
	nslack = nms ? exp_parse_list("sweep", "--slack", slack_list, K_PMD_TIMER_SLACK_NS,
				      &slack_copy, slack, EXP_MAX_LIST)
		     : 0;
	if (nslack && rate_list)
		nrate = exp_parse_list("sweep", "--rate", rate_list, K_GEN_RATE_PPS, &rate_copy,
				       rate, EXP_MAX_LIST);
	if (nms && nslack && nrate) {
		sw.passes = (size_t)passes;
		sw.npts = nrate * nslack * nms;
		sw.pts = sweep_points(ms, nms, slack, nslack, rate, nrate);
		sw.tty = !sw.c.json && isatty(STDERR_FILENO) == 1;
		/* Round-robin: pass 1 of every point, then pass 2 of every point, ...; a point's
		 * set-aside passes are rerun in later rounds, up to twice its passes in all
		 * (tui/pass.h). So a spell of host load lands on every point, not on the one
		 * that happened to be running. */
		struct pass_conf pc = {.narms = sw.npts,
				       .passes = sw.passes,
				       .took_limit_pct = sw.limit,
				       .order = PASS_EACH};
		static const struct pass_ops ops = {sweep_measure, sweep_judge, exp_stopped,
						    sweep_progress};
		struct pass_run r;
		rc = pass_run(&r, &pc, &ops, &sw);
		json_decref(sw.snap);
		if (sw.tty)
			fprintf(stderr, "\n");
		if (rc == 0 && !sig_quit)
			rc = exp_sweep_report(&sw, &r, nrate);
		pass_run_free(&r);
		free(sw.pts);
	} else {
		rc = 2;
	}
	free(ms_copy);
	free(slack_copy);
	free(rate_copy);
	return rc;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_tune.c: the live tuner's state machine on synthetic snapshots: it keeps the cheapest
 * value within the budget, rolls back at the first sample that breaks it, ends on the best
 * even when that is not the last good value, and an abort puts the start value back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tui/tune.h"

/* A source whose PMD drops drop_pct[i] and burns cpu_pct[i] under steps value i. */
struct sim {
	int64_t in_force;
	const int64_t *values;
	const double *drop_pct, *cpu_pct;
	size_t n;
	uint64_t generated, dropped;
	int64_t sets[64]; /* every value the tuner put in force, in order */
	size_t nsets;
	int samples; /* fed so far */
	int gap_every; /* > 0: every gap_every-th sample lacks the PMD section (counters go on) */
	int gone_from; /* > 0: from this sample on, no PMD section at all */
	const double *stolen_pct; /* NULL: the host takes nothing; else per step, % */
	int64_t slack_ns; /* pmd.timer_slack_ns in force */
};

#define SIM_PPS 100000.0
#define SIM_INTERVAL_S 0.25

static size_t sim_index(const struct sim *m)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->values[i] == m->in_force)
			return i;
	return 0; /* the start value behaves as the first step */
}

static void sim_sample(struct sim *m, struct snapshot *s)
{
	size_t i = sim_index(m);
	uint64_t off = (uint64_t)(SIM_PPS * SIM_INTERVAL_S);
	m->generated += off;
	m->dropped += (uint64_t)((double)off * m->drop_pct[i] / 100.0);
	memset(&s->pmd, 0, sizeof(s->pmd));
	s->has_pmd = true;
	s->interval_s = SIM_INTERVAL_S;
	s->pmd.nthreads = 1;
	s->pmd.threads[0].cpu_pct = m->cpu_pct[i];
	s->pmd.threads[0].stolen_pct = m->stolen_pct ? m->stolen_pct[i] : 0;
	s->knobs[K_PMD_TIMER_SLACK_NS] = m->slack_ns;
	s->pmd.generated = m->generated;
	s->pmd.dropped = m->dropped;
	s->pmd.forwarded = m->generated - m->dropped;
	s->knobs[K_PMD_MAXSLEEP_US] = m->in_force;
	m->samples++;
	if ((m->gap_every > 0 && m->samples % m->gap_every == 0) ||
	    (m->gone_from > 0 && m->samples >= m->gone_from))
		s->has_pmd = false;
}

static void sim_set(struct sim *m, struct tune *t, int64_t v)
{
	int64_t again;
	m->in_force = v;
	m->sets[m->nsets++] = v;
	assert_false(tune_applied(t, 0, v, &again));
}

/* Run to the end (at most limit samples); abort_at > 0 aborts after that many samples. */
static void sim_run(struct sim *m, struct tune *t, const struct tune_conf *c, int64_t start,
		    int limit, int abort_at)
{
	static struct snapshot s;
	int64_t v;
	m->in_force = start;
	tune_start(t, c, start, &v);
	sim_set(m, t, v);
	while (tune_running(t) && m->samples < limit) {
		if (abort_at > 0 && m->samples == abort_at) {
			assert_true(tune_abort(t, &v));
			sim_set(m, t, v);
			break;
		}
		sim_sample(m, &s);
		if (tune_feed(t, &s, &v))
			sim_set(m, t, v);
	}
	assert_false(tune_running(t));
}

static const int64_t vals[] = {0, 100, 200, 400};

static struct tune_conf conf4(double budget)
{
	struct tune_conf c = {.knob = K_PMD_MAXSLEEP_US, .budget_drop_pct = budget, .window_s = 1};
	memcpy(c.steps, vals, sizeof(vals));
	c.nsteps = 4;
	return c;
}

/* Drops grow with the sleep, CPU falls: the cheapest in budget is the largest that keeps
 * drops under it. */
static void test_cheapest_in_budget(void **state)
{
	(void)state;
	static const double drop[] = {0, 0.01, 0.05, 0.08}, cpu[] = {100, 60, 30, 20};
	struct sim m = {.values = vals, .drop_pct = drop, .cpu_pct = cpu, .n = 4};
	struct tune t;
	struct tune_conf c = conf4(0.1);
	sim_run(&m, &t, &c, 0, 1000, 0);
	assert_int_equal(t.state, TUNE_DONE);
	assert_int_equal(tune_nsteps_done(&t), 4);
	assert_int_equal(t.best, 400);
	assert_int_equal(m.in_force, 400);
	assert_int_equal(t.steps[3].verdict, TUNE_V_BEST);
	assert_int_equal(t.steps[0].verdict, TUNE_V_OK);
	/* Each step measured over its window of counter deltas. */
	assert_true(t.steps[1].secs >= 1.0);
	assert_true(t.steps[2].drop_pct > 0.04 && t.steps[2].drop_pct < 0.06);
	assert_true(t.steps[3].cpu_pct > 19 && t.steps[3].cpu_pct < 21);
	assert_true(t.steps[3].cpu_ns_pkt > 0);
	/* Nothing set but the steps: the last is the best, already in force. */
	assert_int_equal(m.nsets, 4);
}

/* The third step breaks the budget at its first measured sample: the last good value is put
 * back at once, not after the window. */
static void test_rollback_at_once(void **state)
{
	(void)state;
	static const double drop[] = {0, 0.01, 5, 9}, cpu[] = {100, 60, 30, 20};
	struct sim m = {.values = vals, .drop_pct = drop, .cpu_pct = cpu, .n = 4};
	struct tune t;
	struct tune_conf c = conf4(0.1);
	sim_run(&m, &t, &c, 0, 1000, 0);
	assert_int_equal(t.state, TUNE_DONE);
	assert_int_equal(t.steps[2].verdict, TUNE_V_OVER);
	assert_int_equal(t.steps[3].verdict, TUNE_V_PENDING); /* never tried */
	assert_int_equal(tune_nsteps_done(&t), 3);
	assert_int_equal(m.sets[3], 100); /* the rollback, right after 200 */
	assert_int_equal(m.in_force, 100);
	assert_int_equal(t.steps[1].verdict, TUNE_V_BEST);
	/* One sample measured: far less than the 1 s window. */
	assert_true(t.steps[2].secs < c.window_s);
	assert_non_null(strstr(t.why, "rolled back to 100"));
}

/* The last good value is not the cheapest: after the rollback the tuner ends on the best. */
static void test_ends_on_best(void **state)
{
	(void)state;
	static const double drop[] = {0, 0, 0.02, 3}, cpu[] = {100, 20, 40, 10};
	struct sim m = {.values = vals, .drop_pct = drop, .cpu_pct = cpu, .n = 4};
	struct tune t;
	struct tune_conf c = conf4(0.1);
	sim_run(&m, &t, &c, 0, 1000, 0);
	assert_int_equal(t.state, TUNE_DONE);
	assert_int_equal(m.nsets, 6); /* 0 100 200 400, back to 200, then 100 */
	assert_int_equal(m.sets[4], 200);
	assert_int_equal(m.sets[5], 100);
	assert_int_equal(m.in_force, 100);
	assert_int_equal(t.steps[1].verdict, TUNE_V_BEST);
}

/* Nothing in budget (the very first step breaks it): the start value comes back. */
static void test_none_in_budget(void **state)
{
	(void)state;
	static const double drop[] = {2, 2, 2, 2}, cpu[] = {100, 60, 30, 20};
	struct sim m = {.values = vals, .drop_pct = drop, .cpu_pct = cpu, .n = 4};
	struct tune t;
	struct tune_conf c = conf4(0.1);
	sim_run(&m, &t, &c, 50, 1000, 0);
	assert_int_equal(t.steps[0].verdict, TUNE_V_OVER);
	assert_int_equal(m.in_force, 50);
	assert_non_null(strstr(t.why, "no step within the budget"));
}

/* Esc in the middle: the value the run started from, whatever step it was on. */
static void test_abort_restores(void **state)
{
	(void)state;
	static const double drop[] = {0, 0, 0, 0}, cpu[] = {100, 60, 30, 20};
	struct sim m = {.values = vals, .drop_pct = drop, .cpu_pct = cpu, .n = 4};
	struct tune t;
	struct tune_conf c = conf4(0.1);
	sim_run(&m, &t, &c, 300, 1000, 9);
	assert_int_equal(t.state, TUNE_ABORTED);
	assert_int_equal(m.in_force, 300);
	assert_int_equal(t.steps[1].verdict, TUNE_V_ABORTED);
	int64_t v;
	assert_false(tune_abort(&t, &v)); /* nothing left to stop */
}

/* A refused step fails the run and puts the start value back. */
static void test_refused(void **state)
{
	(void)state;
	struct tune t;
	struct tune_conf c = conf4(0.1);
	int64_t v;
	tune_start(&t, &c, 70, &v);
	assert_int_equal(v, 0);
	assert_true(tune_applied(&t, KNOB_ERR_RUNTIME, 70, &v));
	assert_int_equal(v, 70);
	assert_int_equal(t.state, TUNE_FAILED);
}

static void test_steps_and_budget(void **state)
{
	(void)state;
	int64_t s[TUNE_MAX_STEPS];
	size_t n = tune_default_steps(K_PMD_MAXSLEEP_US, s, TUNE_MAX_STEPS);
	assert_true(n >= 5);
	assert_int_equal(s[0], 0);
	assert_int_equal(s[1], 50);
	assert_int_equal(s[2], 100);
	assert_int_equal(s[3], 200);
	assert_int_equal(s[n - 1], 10000);
	double pct;
	char err[256];
	assert_int_equal(tune_parse_budget("drop=0.1%", &pct, err, sizeof(err)), 0);
	assert_true(pct > 0.099 && pct < 0.101);
	assert_int_equal(tune_parse_budget("drop=2", &pct, err, sizeof(err)), 0);
	assert_int_equal(tune_parse_budget("cpu=2", &pct, err, sizeof(err)), KNOB_ERR_USAGE);
	assert_int_equal(tune_parse_budget("drop=x%", &pct, err, sizeof(err)), KNOB_ERR_USAGE);
	assert_int_equal(tune_parse_budget("drop=101", &pct, err, sizeof(err)), KNOB_ERR_USAGE);
}

/* A sample without the PMD section now and then (a read of OVS that timed out on a busy host)
 * is left out of the window, not the end of the run: the same answer as without the gaps. Gone
 * for good, the run fails and puts the start value back. */
static void test_pmd_gaps(void **state)
{
	(void)state;
	static const double drop[] = {0, 0.01, 0.05, 0.08}, cpu[] = {100, 60, 30, 20};
	struct sim m = {.values = vals, .drop_pct = drop, .cpu_pct = cpu, .n = 4, .gap_every = 3};
	struct tune t;
	struct tune_conf c = conf4(0.1);
	sim_run(&m, &t, &c, 0, 1000, 0);
	assert_int_equal(t.state, TUNE_DONE);
	assert_int_equal(t.best, 400);
	assert_int_equal(m.in_force, 400);
	assert_true(t.steps[2].drop_pct > 0.04 && t.steps[2].drop_pct < 0.06);

	struct sim g = {.values = vals, .drop_pct = drop, .cpu_pct = cpu, .n = 4, .gone_from = 10};
	sim_run(&g, &t, &c, 0, 1000, 0);
	assert_int_equal(t.state, TUNE_FAILED);
	assert_int_equal(g.in_force, 0);
	assert_int_equal(g.samples, 10 + TUNE_READBACK_SAMPLES - 1);
}

/* The host took half of step 100's first window: that window is set aside (pass.h's rule) and
 * the step measured again; the second window stands, with what the host took of it, since a
 * step is set aside once at most. The other steps' windows are kept at once. */
static void test_host_took_set_aside(void **state)
{
	(void)state;
	static const double drop[] = {0, 0, 0, 0}, cpu[] = {100, 60, 30, 20},
			    stolen[] = {0, 50, 10, 30};
	struct sim m = {
	    .values = vals, .drop_pct = drop, .cpu_pct = cpu, .n = 4, .stolen_pct = stolen};
	struct tune t;
	struct tune_conf c = conf4(0.1);
	sim_run(&m, &t, &c, 0, 1000, 0);
	assert_int_equal(t.state, TUNE_DONE);
	assert_int_equal(t.steps[0].set_aside, 0);
	assert_int_equal(t.steps[1].set_aside, 1);
	assert_int_equal(t.steps[2].set_aside, 0);
	assert_int_equal(t.steps[3].set_aside, 0); /* exactly the limit is kept */
	assert_true(t.steps[1].host_took_pct > 49.9 && t.steps[1].host_took_pct < 50.1);
	assert_true(t.steps[2].host_took_pct > 9.9 && t.steps[2].host_took_pct < 10.1);
	assert_true(t.steps[1].secs >= 1.0 && t.steps[1].secs < 1.5); /* one window, not two */
	/* Four 1 s windows of 0.25 s samples and one more set aside: 20 samples of windows,
	 * each step behind a read-back and a settling sample. */
	assert_int_equal(m.samples, 4 * 2 + 5 * 4);
}

/* The budget breaks while stepping the maximum sleep with a 50 us timer slack: the tuner says
 * to try the slack first; with a 1 us slack it has nothing to say. */
static void test_slack_hint(void **state)
{
	(void)state;
	static const double drop[] = {0, 5, 10, 20}, cpu[] = {100, 60, 30, 20};
	struct sim m = {
	    .values = vals, .drop_pct = drop, .cpu_pct = cpu, .n = 4, .slack_ns = 50000};
	struct tune t;
	struct tune_conf c = conf4(0.1);
	sim_run(&m, &t, &c, 0, 1000, 0);
	assert_int_equal(t.steps[1].verdict, TUNE_V_OVER);
	assert_non_null(strstr(t.hint, "pmd.timer_slack_ns=1000"));
	assert_non_null(strstr(t.hint, "50000 ns"));
	m = (struct sim){
	    .values = vals, .drop_pct = drop, .cpu_pct = cpu, .n = 4, .slack_ns = 1000};
	sim_run(&m, &t, &c, 0, 1000, 0);
	assert_int_equal(t.steps[1].verdict, TUNE_V_OVER);
	assert_string_equal(t.hint, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cheapest_in_budget),	cmocka_unit_test(test_rollback_at_once),
	    cmocka_unit_test(test_ends_on_best),	cmocka_unit_test(test_none_in_budget),
	    cmocka_unit_test(test_abort_restores),	cmocka_unit_test(test_refused),
	    cmocka_unit_test(test_steps_and_budget),	cmocka_unit_test(test_pmd_gaps),
	    cmocka_unit_test(test_host_took_set_aside), cmocka_unit_test(test_slack_hint),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

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

/* A source whose PMD drops drop_pct[i] and burns cpu_pct[i] under steps value i of the max
 * sleep, or what model says of the slack and the max sleep in force. */
struct sim {
	int64_t in_force; /* pmd.maxsleep_us */
	void (*model)(int64_t slack_ns, int64_t maxsleep_us, double *drop_pct, double *cpu_pct);
	const int64_t *values;
	const double *drop_pct, *cpu_pct;
	size_t n;
	uint64_t generated, dropped;
	int64_t sets[64]; /* every value the tuner put in force, in order */
	size_t nsets, nputs;
	int samples; /* fed so far */
	int gap_every; /* > 0: every gap_every-th sample lacks the PMD section (counters go on) */
	int gone_from; /* > 0: from this sample on, no PMD section at all */
	const double *stolen_pct; /* NULL: the host takes nothing; else per step, % */
	int64_t slack_ns; /* pmd.timer_slack_ns in force */
	struct tune_put puts[64]; /* every value the tuner put in force, in order, with its knob */
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
	double drop = m->model ? 0 : m->drop_pct[i], cpu = m->model ? 0 : m->cpu_pct[i];
	if (m->model)
		m->model(m->slack_ns, m->in_force, &drop, &cpu);
	m->generated += off;
	m->dropped += (uint64_t)((double)off * drop / 100.0);
	memset(&s->pmd, 0, sizeof(s->pmd));
	s->has_pmd = true;
	s->interval_s = SIM_INTERVAL_S;
	s->pmd.nthreads = 1;
	s->pmd.threads[0].cpu_pct = cpu;
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

/* The tuner's values in force; sets[] logs the max sleep's (the old one-knob view), puts[]
 * every one with its knob. */
static void sim_set(struct sim *m, struct tune *t, const struct tune_puts *o)
{
	struct tune_puts again;
	for (size_t i = 0; i < o->n; i++) {
		bool step = t->state == TUNE_WAIT && i + 1 == o->n;
		m->puts[m->nputs++] = o->p[i];
		if (o->p[i].knob == K_PMD_TIMER_SLACK_NS) {
			m->slack_ns = o->p[i].value;
		} else {
			m->in_force = o->p[i].value;
			m->sets[m->nsets++] = o->p[i].value;
		}
		if (step)
			assert_false(tune_applied(t, 0, o->p[i].value, &again));
	}
}

/* Run to the end (at most limit samples); abort_at > 0 aborts after that many samples. */
static void sim_run(struct sim *m, struct tune *t, const struct tune_conf *c, int64_t start,
		    int limit, int abort_at)
{
	static struct snapshot s;
	struct tune_puts o;
	m->in_force = start;
	s.knobs[K_PMD_MAXSLEEP_US] = start;
	s.knobs[K_PMD_TIMER_SLACK_NS] = m->slack_ns;
	tune_start(t, c, &s, &o);
	sim_set(m, t, &o);
	while (tune_running(t) && m->samples < limit) {
		if (abort_at > 0 && m->samples == abort_at) {
			assert_true(tune_abort(t, &o));
			sim_set(m, t, &o);
			break;
		}
		sim_sample(m, &s);
		if (tune_feed(t, &s, &o))
			sim_set(m, t, &o);
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
	assert_int_equal(t.ladders[0].best, 400);
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

/* A host that takes most of the CPU makes busy polling measure cheapest per packet (it burns
 * only what it is left): a sleep that held the budget still wins (tui/pass_cost.h's ranking,
 * docs/experiments.md: busy polling only when no sleep held). CI's load ended a run on 0. */
static void test_sleep_held_wins(void **state)
{
	(void)state;
	static const double drop[] = {0, 0.05, 0.2, 0.3}, cpu[] = {10, 30, 20, 15};
	struct sim m = {.values = vals, .drop_pct = drop, .cpu_pct = cpu, .n = 4};
	struct tune t;
	struct tune_conf c = conf4(0.1);
	sim_run(&m, &t, &c, 0, 1000, 0);
	assert_int_equal(t.state, TUNE_DONE);
	assert_true(t.steps[0].cpu_ns_pkt < t.steps[1].cpu_ns_pkt); /* 0 measured cheaper */
	assert_int_equal(t.steps[1].verdict, TUNE_V_BEST);
	assert_int_equal(t.ladders[0].best, 100);
	assert_int_equal(m.in_force, 100);
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
	assert_int_equal(t.nsteps, 3); /* 400 never tried */
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
	struct tune_puts o;
	assert_false(tune_abort(&t, &o)); /* nothing left to stop */
}

/* A refused step fails the run and puts the start value back. */
static void test_refused(void **state)
{
	(void)state;
	struct tune t;
	struct tune_conf c = conf4(0.1);
	struct tune_puts o;
	static struct snapshot s;
	s.knobs[K_PMD_MAXSLEEP_US] = 70;
	tune_start(&t, &c, &s, &o);
	assert_int_equal(o.n, 1);
	assert_int_equal(o.p[0].value, 0);
	assert_true(tune_applied(&t, KNOB_ERR_RUNTIME, 70, &o));
	assert_int_equal(o.n, 1);
	assert_int_equal(o.p[0].value, 70);
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
	assert_int_equal(t.ladders[0].best, 400);
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

/* The thread's engine, scripted: with a 50 us slack every sleep outlasts the ring (20 % drops
 * unless the PMD polls); with a 1 us slack sleeps up to 200 us keep it, longer ones drop 5 %.
 * CPU falls as the PMD sleeps longer. */
static void thread_model(int64_t slack, int64_t maxsleep, double *drop, double *cpu)
{
	*drop = maxsleep == 0 ? 0 : slack > 1000 ? 20 : maxsleep > 200 ? 5 : 0;
	*cpu = maxsleep == 0 ? 100 : 100.0 - (double)maxsleep / 10.0;
}

/* A 1 us slack breaks the budget too (the host wakes the PMDs late whatever the slack). */
static void late_model(int64_t slack, int64_t maxsleep, double *drop, double *cpu)
{
	(void)slack;
	*drop = maxsleep == 0 ? 0 : 5;
	*cpu = maxsleep == 0 ? 100 : 40;
}

/* Every setting drops. */
static void drop_model(int64_t slack, int64_t maxsleep, double *drop, double *cpu)
{
	(void)slack;
	*drop = 5;
	*cpu = maxsleep == 0 ? 100 : 40;
}

/* The diagnosis of the thread's case (docs/diag.md pmd.sleep_outlasts_ring), scripted. */
static int script_diag(const struct snapshot *s, struct diag_finding *out, int max)
{
	if (max < 1 || s->knobs[K_PMD_TIMER_SLACK_NS] <= 1000)
		return 0;
	memset(out, 0, sizeof(*out));
	out->id = "pmd.sleep_outlasts_ring";
	snprintf(out->fix, sizeof(out->fix), "pmd.timer_slack_ns=1000");
	return 1;
}

static const int64_t ladder[] = {0, 50, 100, 200, 400, 800};

static struct tune_conf conf_fix_first(void)
{
	struct tune_conf c = {.knob = K_PMD_MAXSLEEP_US,
			      .budget_drop_pct = 0.1,
			      .window_s = 1,
			      .nsteps = 6,
			      .fix_first = true,
			      .diagnose = script_diag};
	memcpy(c.steps, ladder, sizeof(ladder));
	return c;
}

/* From the thread's start (50 us slack, 50 us max sleep): the diagnosis's fix first, kept
 * within the budget; its window measured the max sleep's start too, so the max sleep steps
 * only the cheaper rungs above it, 400 breaks the budget and is rolled back at once, and the
 * run ends on the cheapest within it: 1 us slack, 200 us sleep. Each kept value says why. */
static void test_fix_first_then_ladder(void **state)
{
	(void)state;
	struct sim m = {.model = thread_model, .slack_ns = 50000};
	struct tune t;
	struct tune_conf c = conf_fix_first();
	sim_run(&m, &t, &c, 50, 1000, 0);
	assert_int_equal(t.state, TUNE_DONE);
	assert_int_equal(t.nladders, 2);
	static const struct tune_put want[] = {
	    {K_PMD_TIMER_SLACK_NS, 1000}, {K_PMD_MAXSLEEP_US, 100}, {K_PMD_MAXSLEEP_US, 200},
	    {K_PMD_MAXSLEEP_US, 400},	  {K_PMD_MAXSLEEP_US, 200}, /* the rollback */
	};
	assert_int_equal(m.nputs, 5);
	for (size_t i = 0; i < m.nputs; i++) {
		assert_int_equal(m.puts[i].knob, want[i].knob);
		assert_int_equal(m.puts[i].value, want[i].value);
	}
	assert_int_equal(m.slack_ns, 1000);
	assert_int_equal(m.in_force, 200);
	assert_int_equal(t.steps[0].knob, K_PMD_TIMER_SLACK_NS);
	assert_int_equal(t.steps[3].verdict, TUNE_V_OVER);
	assert_int_equal(t.steps[2].verdict, TUNE_V_BEST);
	assert_string_equal(t.ladders[0].fix_of, "pmd.sleep_outlasts_ring");
	assert_non_null(strstr(t.ladders[0].why, "the fix of pmd.sleep_outlasts_ring"));
	assert_non_null(strstr(t.ladders[1].why, "budget broken at 400"));
	assert_non_null(strstr(t.ladders[1].why, "ended on the best: 200"));
	assert_non_null(strstr(t.why, "pmd.timer_slack_ns=1000"));
	assert_non_null(strstr(t.why, "pmd.maxsleep_us=200"));
	for (size_t i = 0; i < t.nsteps; i++)
		assert_true(t.steps[i].why[0] != '\0');
}

/* The fix breaks the budget alone (at the start's 50 us sleep): the start slack is what the
 * diagnosis found broken, so the max sleep's whole ladder runs at once with the fix in force;
 * busy polling holds with it, so both are kept. */
static void test_fix_kept_with_ladder(void **state)
{
	(void)state;
	struct sim m = {.model = late_model, .slack_ns = 50000};
	struct tune t;
	struct tune_conf c = conf_fix_first();
	sim_run(&m, &t, &c, 50, 1000, 0);
	assert_int_equal(t.state, TUNE_DONE);
	assert_int_equal(t.steps[0].verdict, TUNE_V_OVER);
	static const struct tune_put want[] = {
	    {K_PMD_TIMER_SLACK_NS, 1000},
	    {K_PMD_MAXSLEEP_US, 0},
	    {K_PMD_MAXSLEEP_US, 50},
	    {K_PMD_MAXSLEEP_US, 0}, /* the rollback */
	};
	assert_int_equal(m.nputs, 4);
	for (size_t i = 0; i < m.nputs; i++) {
		assert_int_equal(m.puts[i].knob, want[i].knob);
		assert_int_equal(m.puts[i].value, want[i].value);
	}
	assert_int_equal(m.slack_ns, 1000);
	assert_int_equal(m.in_force, 0);
	assert_non_null(strstr(t.ladders[0].why, "kept the fix of pmd.sleep_outlasts_ring"));
	assert_non_null(strstr(t.why, "pmd.timer_slack_ns=1000 (the fix of"));
}

/* Every window drops: nothing holds with the fix either, so both knobs end on their start
 * values. A stop in the middle of the second ladder puts both start values back too. */
static void test_fix_rolled_back(void **state)
{
	(void)state;
	struct sim m = {.model = drop_model, .slack_ns = 50000};
	struct tune t;
	struct tune_conf c = conf_fix_first();
	sim_run(&m, &t, &c, 50, 1000, 0);
	assert_int_equal(t.state, TUNE_DONE);
	assert_int_equal(t.nsteps, 7); /* the fix, then every rung (none held) */
	assert_int_equal(m.slack_ns, 50000);
	assert_int_equal(m.in_force, 50);
	assert_non_null(strstr(t.ladders[0].why, "no pmd.maxsleep_us held with it: 50000 kept"));
	assert_non_null(strstr(t.ladders[1].why, "no step within the budget: 50 kept"));

	m = (struct sim){.model = thread_model, .slack_ns = 50000};
	sim_run(&m, &t, &c, 50, 1000, 10);
	assert_int_equal(t.state, TUNE_ABORTED);
	assert_int_equal(m.slack_ns, 50000);
	assert_int_equal(m.in_force, 50);
	assert_non_null(strstr(t.why, "pmd.timer_slack_ns=50000, pmd.maxsleep_us=50 put back"));
}

/* A source that refuses the fix (a host without the right to set the slack): the fix is
 * skipped, not the run; the max sleep's ladder follows at once. */
static void test_fix_refused(void **state)
{
	(void)state;
	struct tune t;
	struct tune_conf c = conf_fix_first();
	struct tune_puts o;
	static struct snapshot s;
	s.has_pmd = true;
	s.knobs[K_PMD_TIMER_SLACK_NS] = 50000;
	s.knobs[K_PMD_MAXSLEEP_US] = 50;
	tune_start(&t, &c, &s, &o);
	assert_int_equal(o.n, 0); /* the diagnosis looks first */
	assert_true(tune_feed(&t, &s, &o));
	assert_int_equal(o.p[0].knob, K_PMD_TIMER_SLACK_NS);
	assert_true(tune_applied(&t, KNOB_ERR_RUNTIME, 50000, &o));
	assert_int_equal(o.n, 1);
	assert_int_equal(o.p[0].knob, K_PMD_MAXSLEEP_US);
	assert_int_equal(o.p[0].value, 0);
	assert_int_equal(t.state, TUNE_WAIT);
	assert_int_equal(t.steps[0].verdict, TUNE_V_FAILED);
	assert_non_null(strstr(t.ladders[0].why, "was refused by the source: 50000 kept"));
}

/* A ladder that starts where the budget breaks: the slack's 50000 -> 10000 -> 1000 reaches
 * 1000 although 10000 broke it too; once a rung held, the next broken one ends the ladder. */
static void test_ladder_past_broken_rungs(void **state)
{
	(void)state;
	static const int64_t slacks[] = {50000, 10000, 1000};
	struct sim m = {.model = thread_model, .slack_ns = 50000};
	struct tune t;
	struct tune_conf c = {.knob = K_PMD_TIMER_SLACK_NS, .budget_drop_pct = 0.1, .window_s = 1};
	memcpy(c.steps, slacks, sizeof(slacks));
	c.nsteps = 3;
	sim_run(&m, &t, &c, 50, 1000, 0);
	assert_int_equal(t.state, TUNE_DONE);
	assert_int_equal(t.nsteps, 3);
	assert_int_equal(t.steps[0].verdict, TUNE_V_OVER);
	assert_int_equal(t.steps[1].verdict, TUNE_V_OVER);
	assert_int_equal(t.steps[2].verdict, TUNE_V_BEST);
	assert_int_equal(m.slack_ns, 1000);
	assert_int_equal(m.in_force, 50); /* the max sleep untouched */
	assert_non_null(strstr(t.why, "ended on the best: 1000"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cheapest_in_budget),
	    cmocka_unit_test(test_sleep_held_wins),
	    cmocka_unit_test(test_rollback_at_once),
	    cmocka_unit_test(test_ends_on_best),
	    cmocka_unit_test(test_none_in_budget),
	    cmocka_unit_test(test_abort_restores),
	    cmocka_unit_test(test_refused),
	    cmocka_unit_test(test_steps_and_budget),
	    cmocka_unit_test(test_pmd_gaps),
	    cmocka_unit_test(test_host_took_set_aside),

	    cmocka_unit_test(test_fix_first_then_ladder),
	    cmocka_unit_test(test_fix_rolled_back),
	    cmocka_unit_test(test_fix_kept_with_ladder),
	    cmocka_unit_test(test_ladder_past_broken_rungs),
	    cmocka_unit_test(test_fix_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_pass.c: the pass runner (tui/pass.h) driven by a scripted source: what the host took of
 * each window is given in the order the windows run, and the test judges the exact order of
 * the arms, every set-aside decision, the slots the windows are kept in and the bound on reruns. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/pass.h"

#define HUNG (-1.0) /* a scripted window that hung */
#define STOP (-2.0) /* the run is stopped before this window */

struct script {
	const double *took; /* per window in run order */
	size_t n, next;
	char order[64]; /* the arms measured, as letters */
	char verdicts[64]; /* K, A or H per judged window, in judging order */
	size_t slots[64];
	size_t njudged;
};

/* Every arm got its passes. */
static bool pass_complete(const struct pass_run *r)
{
	for (size_t a = 0; a < r->conf.narms; a++)
		if (r->arm[a].kept < r->conf.passes)
			return false;
	return true;
}

/* The fewest kept passes of any arm (PASS_ROUNDS: the kept rounds). */
static size_t pass_kept_min(const struct pass_run *r)
{
	size_t n = r->conf.narms ? r->arm[0].kept : 0;
	for (size_t a = 1; a < r->conf.narms; a++)
		n = r->arm[a].kept < n ? r->arm[a].kept : n;
	return n;
}

static int s_measure(void *ctx, size_t arm, struct pass_obs *obs)
{
	struct script *s = ctx;
	assert_true(s->next < s->n);
	double t = s->took[s->next++];
	s->order[strlen(s->order)] = (char)('A' + arm);
	obs->hung = t == HUNG;
	obs->took_pct = t == HUNG ? NAN : t;
	return 0;
}

static void s_judge(void *ctx, size_t arm, enum pass_verdict v, size_t slot)
{
	struct script *s = ctx;
	s->verdicts[s->njudged] = v == PASS_KEPT ? 'K' : v == PASS_ASIDE ? 'A' : 'H';
	s->slots[s->njudged++] = slot;
}

static bool s_stop(void *ctx)
{
	struct script *s = ctx;
	return s->next < s->n && s->took[s->next] == STOP;
}

static const struct pass_ops ops = {s_measure, s_judge, s_stop, NULL};

/* The rule: more than the limit; exactly the limit is kept, and an unknown share never
 * sets a window aside. */
static void test_rule(void **state)
{
	(void)state;
	assert_false(pass_set_aside(30.0, 30.0));
	assert_true(pass_set_aside(30.01, 30.0));
	assert_false(pass_set_aside(NAN, 0.0));
	assert_false(pass_set_aside(0.0, 0.0));
}

/* A B A B: a round one of whose windows the host took too much of is set aside whole (its
 * arms ran side by side or not at all), and run again until each arm has its passes. */
static void test_rounds(void **state)
{
	(void)state;
	static const double took[] = {10, 50, 10, 10, 40, 5, 5, 30};
	struct script s = {took, 8, 0, "", "", {0}, 0};
	struct pass_conf c = {.narms = 2, .passes = 2, .took_limit_pct = 30, .order = PASS_ROUNDS};
	struct pass_run r;
	assert_int_equal(pass_run(&r, &c, &ops, &s), 0);
	assert_string_equal(s.order, "ABABABAB");
	assert_string_equal(s.verdicts, "AAKKAAKK");
	const size_t slots[] = {0, 0, 0, 0, 1, 1, 1, 1};
	assert_memory_equal(s.slots, slots, sizeof(slots));
	assert_true(pass_complete(&r));
	assert_int_equal(r.rounds, 4);
	assert_int_equal(r.arm[0].kept, 2);
	assert_int_equal(r.arm[0].aside, 2); /* its rounds set aside ... */
	assert_int_equal(r.arm[0].over, 1); /* ... of which one for its own window */
	assert_int_equal(r.arm[1].over, 1);
	assert_int_equal(pass_aside_total(&r), 4);
	assert_int_equal(r.nlog, 8);
	assert_true(r.log[1].over && !r.log[0].over);
	assert_int_equal(r.log[6].pass, 1); /* the kept pass it became */
	pass_run_free(&r);
}

/* Every window over the limit: the runner stops at the stated bound (2 x passes windows of
 * an arm) and says the passes are short, rather than judge on none or run for ever. */
static void test_rounds_bound(void **state)
{
	(void)state;
	static const double took[] = {90, 90, 90, 90, 90, 90, 90, 90, 90, 90};
	struct script s = {took, 10, 0, "", "", {0}, 0};
	struct pass_conf c = {.narms = 2, .passes = 2, .took_limit_pct = 30, .order = PASS_ROUNDS};
	struct pass_run r;
	pass_run(&r, &c, &ops, &s);
	assert_string_equal(s.order, "ABABABAB");
	assert_false(pass_complete(&r));
	assert_int_equal(pass_kept_min(&r), 0);
	assert_int_equal(r.arm[1].tries, 4);
	pass_run_free(&r);
	/* A stated bound of 3 windows an arm. */
	s = (struct script){took, 10, 0, "", "", {0}, 0};
	c.max_tries = 3;
	pass_run(&r, &c, &ops, &s);
	assert_string_equal(s.order, "ABABAB");
	pass_run_free(&r);
}

/* Round-robin over the arms still short: arm B's set-aside window is rerun in the next round,
 * beside the others, and a last round runs B alone; a hang counts against its passes. */
static void test_each(void **state)
{
	(void)state;
	static const double took[] = {1, 99, HUNG, 2, 3, 4, 5};
	struct script s = {took, 7, 0, "", "", {0}, 0};
	struct pass_conf c = {.narms = 3, .passes = 2, .took_limit_pct = 30, .order = PASS_EACH};
	struct pass_run r;
	pass_run(&r, &c, &ops, &s);
	assert_string_equal(s.order, "ABCABCB");
	assert_string_equal(s.verdicts, "KAHKKKK");
	const size_t slots[] = {0, 0, 0, 1, 0, 0, 1};
	assert_memory_equal(s.slots, slots, sizeof(slots));
	assert_true(r.hang);
	assert_int_equal(r.hang_arm, 2);
	assert_int_equal(r.arm[2].kept, 1);
	assert_int_equal(r.arm[2].hung, 1);
	assert_false(pass_complete(&r)); /* C kept one pass of two */
	assert_int_equal(r.arm[1].aside, 1);
	pass_run_free(&r);
}

/* One source for every arm: a hang ends the run; the round's other windows are not judged. */
static void test_hang_stops(void **state)
{
	(void)state;
	static const double took[] = {1, 1, 1, HUNG};
	struct script s = {took, 4, 0, "", "", {0}, 0};
	struct pass_conf c = {.narms = 2,
			      .passes = 3,
			      .took_limit_pct = 30,
			      .order = PASS_ROUNDS,
			      .hang_stops = true};
	struct pass_run r;
	pass_run(&r, &c, &ops, &s);
	assert_string_equal(s.order, "ABAB");
	assert_string_equal(s.verdicts, "KKH");
	assert_true(r.hang);
	assert_int_equal(r.hang_arm, 1);
	assert_int_equal(pass_kept_min(&r), 1);
	pass_run_free(&r);
}

/* A stop (a signal) ends the run before the next window. */
static void test_stop(void **state)
{
	(void)state;
	static const double took[] = {1, 1, 1, STOP};
	struct script s = {took, 4, 0, "", "", {0}, 0};
	struct pass_conf c = {.narms = 2, .passes = 3, .took_limit_pct = 30, .order = PASS_EACH};
	struct pass_run r;
	pass_run(&r, &c, &ops, &s);
	assert_string_equal(s.order, "ABA");
	assert_true(r.stopped);
	assert_int_equal(r.nlog, 3);
	pass_run_free(&r);
}

/* Stepped, as the console's `o` runs it a snapshot at a time: the same order and verdicts,
 * and a set-aside point is rerun once after the others, at most. */
static void test_stepped(void **state)
{
	(void)state;
	static const double took[] = {1, 50, 2, 60};
	struct script s = {took, 4, 0, "", "", {0}, 0};
	struct pass_conf c = {.narms = 3, .passes = 1, .took_limit_pct = 30, .order = PASS_EACH};
	struct pass_run r;
	size_t a;
	pass_begin(&r, &c);
	while (pass_next(&r, &a)) {
		struct pass_obs obs;
		assert_int_equal(s_measure(&s, a, &obs), 0);
		pass_add(&r, a, &obs, &ops, &s);
	}
	assert_string_equal(s.order, "ABCB");
	assert_string_equal(s.verdicts, "KAKA");
	assert_int_equal(r.arm[1].tries, 2);
	assert_false(pass_complete(&r));
	assert_false(pass_next(&r, &a));
	pass_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rule),	 cmocka_unit_test(test_rounds),
	    cmocka_unit_test(test_rounds_bound), cmocka_unit_test(test_each),
	    cmocka_unit_test(test_hang_stops),	 cmocka_unit_test(test_stop),
	    cmocka_unit_test(test_stepped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

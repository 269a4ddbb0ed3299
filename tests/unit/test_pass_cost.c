/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_pass_cost.c: a PMD window's cost from its counters, and the trade-off's answer: the
 * cheapest setting within the drop budget, never the one with the least raw CPU %. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/pass_cost.h"

/* Two PMDs at mono t (s) with cumulative counters: CPU ns each, packets each, pmd totals. */
static void snap_at(struct snapshot *s, struct snap_thread *th, double t, double cpu_ns,
		    uint64_t rx, uint64_t gen, uint64_t drop, double cpu_pct, double stolen_pct)
{
	memset(s, 0, sizeof(*s));
	s->mono_ns = (uint64_t)(t * 1e9);
	s->has_pmd = true;
	s->pmd.nthreads = 2;
	s->nthreads = 3;
	s->threads = th;
	for (int i = 0; i < 2; i++) {
		s->pmd.threads[i].rx_packets = rx;
		s->pmd.threads[i].cpu_pct = cpu_pct;
		s->pmd.threads[i].stolen_pct = stolen_pct;
		th[i] = (struct snap_thread){.subsys = SUBSYS_PMD, .cpu_ns = (uint64_t)cpu_ns};
	}
	th[2] = (struct snap_thread){.subsys = SUBSYS_ENGINE, .cpu_ns = 123456789};
	s->pmd.generated = gen;
	s->pmd.dropped = drop;
}

static void test_window_cost(void **state)
{
	struct snapshot a, b;
	struct snap_thread ta[3], tb[3];
	struct pass_pmd_mark m;
	struct pass_pmd_acc acc = {0};
	struct pass_pmd_cost c;
	(void)state;
	/* 2 s; each PMD used 0.6 s of CPU and handled 400 k packets; the host took 40 % of
	 * their time; 1 M generated, 500 dropped. */
	snap_at(&a, ta, 10, 1e9, 100000, 2000000, 1000, 0, 0);
	snap_at(&b, tb, 12, 1.6e9, 500000, 3000000, 1500, 30, 40);
	pass_pmd_mark_read(&a, &m);
	assert_true(m.valid);
	assert_int_equal(pass_pmd_cost_of(&acc, &c), -1); /* nothing measured yet */
	pass_pmd_acc_add(&acc, &m, &b);
	assert_int_equal(pass_pmd_cost_of(&acc, &c), 0);
	assert_float_equal(c.drop_pct, 0.05, 1e-9);
	assert_float_equal(c.ns_per_pkt, 1.2e9 / 800000, 1e-6);
	assert_float_equal(c.host_took_pct, 40, 1e-9);
	/* 1.2 s used of the 4 s - 1.6 s the host left them. */
	assert_float_equal(c.share_pct, 100.0 * 1.2 / 2.4, 1e-9);
	/* New threads (a restart: clocks went back): the interval's CPU % serves. */
	struct pass_pmd_acc acc2 = {0};
	tb[0].cpu_ns = tb[1].cpu_ns = 5;
	pass_pmd_acc_add(&acc2, &m, &b);
	pass_pmd_cost_of(&acc2, &c);
	assert_float_equal(c.ns_per_pkt, 1.2e9 / 800000, 1e-6);
}

/* The seed's sweep as the operator saw it (D1): busy polling at a low raw CPU % because the
 * host took most of its time, 0 drops; 50 us with 1 us slack at 0.04 % drops; 50 us at
 * Linux's 50 us slack dropping 20 %. */
static void test_cheapest_within_budget(void **state)
{
	struct pass_cost_cand c[] = {
	    {.usable = true, .sleeps = false, .drop_pct = 0, .ns_per_pkt = 1700, .share_pct = 100},
	    {.usable = true, .sleeps = true, .drop_pct = 0.04, .ns_per_pkt = 900, .share_pct = 60},
	    {.usable = true, .sleeps = true, .drop_pct = 20, .ns_per_pkt = 400, .share_pct = 30},
	};
	(void)state;
	assert_int_equal(pass_cost_cheapest(c, 3, PASS_DROP_BUDGET_PCT), 1);
	/* Under the old rounding floor only busy polling qualifies. */
	assert_int_equal(pass_cost_cheapest(c, 3, 0.01), 0);
	/* A sleeping setting within the budget wins even at more ns a packet. */
	c[1].ns_per_pkt = 1800;
	assert_int_equal(pass_cost_cheapest(c, 3, PASS_DROP_BUDGET_PCT), 1);
	/* Busy polling only when nothing sleeping meets the budget. */
	c[1].drop_pct = 0.5;
	assert_int_equal(pass_cost_cheapest(c, 3, PASS_DROP_BUDGET_PCT), 0);
	/* Nothing usable: none. */
	c[0].usable = false;
	assert_int_equal(pass_cost_cheapest(c, 3, PASS_DROP_BUDGET_PCT), 3);
	/* Two sleeping ones: the fewer ns a packet, then the smaller share. */
	struct pass_cost_cand d[] = {
	    {.usable = true, .sleeps = true, .drop_pct = 0.05, .ns_per_pkt = 800, .share_pct = 70},
	    {.usable = true, .sleeps = true, .drop_pct = 0.02, .ns_per_pkt = 700, .share_pct = 80},
	    {.usable = true, .sleeps = true, .drop_pct = 0.02, .ns_per_pkt = 700, .share_pct = 50},
	};
	assert_int_equal(pass_cost_cheapest(d, 3, PASS_DROP_BUDGET_PCT), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_window_cost),
	    cmocka_unit_test(test_cheapest_within_budget),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

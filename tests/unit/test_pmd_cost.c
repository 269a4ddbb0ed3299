/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_pmd_cost.c: CPU ns per packet and CPU as a share of the time the host left the PMDs
 * (core/pmd_cost.c): values per PMD and together, and every case that has no figure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/pmd_cost.h"

static struct pmd_snap p;

/* Two PMDs of pmd-seed's shape: 50 % and 25 % CPU, 500 k and 250 k pps received, the host
 * took 40 % and 20 %, the source offered 500 k. */
static void two_pmds(void)
{
	memset(&p, 0, sizeof(p));
	p.nthreads = 2;
	p.offered_pps = 500000;
	p.threads[0].cpu_pct = 50;
	p.threads[0].rx_pps = 500000;
	p.threads[0].stolen_pct = 40;
	p.threads[1].cpu_pct = 25;
	p.threads[1].rx_pps = 250000;
	p.threads[1].stolen_pct = 20;
}

static void test_values(void **state)
{
	(void)state;
	/* 50 % of a second of CPU over 500 k packets: 1000 ns each. */
	assert_float_equal(pmd_cost_ns_per_pkt(50, 500000), 1000.0, 1e-9);
	/* 50 % CPU where the host took 40 %: 50 of the 60 % left, 83.3 %. */
	assert_float_equal(pmd_cost_left_pct(50, 40), 100.0 * 50 / 60, 1e-9);
	assert_float_equal(pmd_cost_left_pct(30, 0), 30.0, 1e-9);
	/* CPU + host took past 100 (an interrupt charged to the thread and counted as taken
	 * too): it used all the time it was left, 100, not 131. */
	assert_float_equal(pmd_cost_left_pct(36, 72), 100.0, 1e-9);
	two_pmds();
	pmd_cost_fill(&p, false);
	assert_float_equal(p.threads[0].cpu_ns_per_pkt, 1000.0, 1e-9);
	assert_float_equal(p.threads[1].cpu_ns_per_pkt, 1000.0, 1e-9);
	assert_float_equal(p.threads[0].cpu_left_pct, 100.0 * 50 / 60, 1e-9);
	assert_float_equal(p.threads[1].cpu_left_pct, 100.0 * 25 / 80, 1e-9);
	assert_float_equal(p.cpu_pct, 75.0, 1e-9);
	assert_float_equal(p.stolen_pct, 30.0, 1e-9);
	/* Together: 0.75 s of CPU per second over the 500 k offered (not the 750 k both PMDs
	 * received: in a chain one packet crosses both), over the 140 % the host left. */
	assert_float_equal(p.cpu_ns_per_pkt, 1500.0, 1e-9);
	assert_float_equal(p.cpu_left_pct, 100.0 * 75 / 140, 1e-9);
	assert_true(pmd_cost_host_took_matters(&p));
	/* Together with one PMD past 100: its time left counts as the CPU it used. */
	p.threads[1].stolen_pct = 80; /* 25 % CPU, 20 % left: 25 */
	pmd_cost_fill(&p, false);
	assert_float_equal(p.threads[1].cpu_left_pct, 100.0, 1e-9);
	assert_float_equal(p.cpu_left_pct, 100.0 * 75 / (60 + 25), 1e-9);
}

/* No figure is ever 0 for "not known": no packets, no baseline, an unknown input. */
static void test_none(void **state)
{
	(void)state;
	assert_true(pmd_cost_ns_per_pkt(50, 0) < 0);
	assert_true(pmd_cost_ns_per_pkt(-1, 1000) < 0);
	assert_true(pmd_cost_left_pct(-1, 10) < 0);
	assert_true(pmd_cost_left_pct(10, -1) < 0);
	assert_true(pmd_cost_left_pct(0, 100) < 0); /* the host took it all: no time left */

	two_pmds();
	pmd_cost_fill(&p, true); /* a first sample */
	for (int i = 0; i < 2; i++) {
		assert_true(p.threads[i].cpu_ns_per_pkt < 0);
		assert_true(p.threads[i].cpu_left_pct < 0);
	}
	assert_true(p.cpu_pct < 0 && p.stolen_pct < 0);
	assert_true(p.cpu_ns_per_pkt < 0 && p.cpu_left_pct < 0);
	assert_false(pmd_cost_host_took_matters(&p));

	two_pmds();
	p.threads[1].rx_pps = 0; /* PMD 1 received nothing: its per-packet figure is unknown */
	p.offered_pps = 0;
	pmd_cost_fill(&p, false);
	assert_true(p.threads[1].cpu_ns_per_pkt < 0);
	assert_float_equal(p.threads[1].cpu_left_pct, 100.0 * 25 / 80, 1e-9);
	assert_float_equal(p.threads[0].cpu_ns_per_pkt, 1000.0, 1e-9);
	assert_true(p.cpu_ns_per_pkt < 0);
	assert_float_equal(p.cpu_pct, 75.0, 1e-9);

	two_pmds();
	p.threads[0].no_rate = true; /* a host PMD's first sample */
	pmd_cost_fill(&p, false);
	assert_true(p.threads[0].cpu_ns_per_pkt < 0 && p.threads[0].cpu_left_pct < 0);
	assert_float_equal(p.threads[1].cpu_ns_per_pkt, 1000.0, 1e-9);
	assert_true(p.cpu_pct < 0 && p.stolen_pct < 0 && p.cpu_left_pct < 0);

	two_pmds();
	p.threads[0].stolen_pct = -1; /* the host has no schedstat for it */
	pmd_cost_fill(&p, false);
	assert_true(p.threads[0].cpu_left_pct < 0);
	assert_float_equal(p.threads[0].cpu_ns_per_pkt, 1000.0, 1e-9);
	assert_true(p.stolen_pct < 0 && p.cpu_left_pct < 0);
	assert_float_equal(p.cpu_ns_per_pkt, 1500.0, 1e-9);
	assert_false(pmd_cost_host_took_matters(&p));
}

/* Host took under the threshold is quiet; at it the screens speak. */
static void test_matters(void **state)
{
	(void)state;
	two_pmds();
	p.threads[0].stolen_pct = 1;
	p.threads[1].stolen_pct = 2;
	pmd_cost_fill(&p, false);
	assert_false(pmd_cost_host_took_matters(&p));
	p.threads[0].stolen_pct = PMD_COST_HOST_TOOK_SHOW_PCT;
	p.threads[1].stolen_pct = PMD_COST_HOST_TOOK_SHOW_PCT;
	pmd_cost_fill(&p, false);
	assert_true(pmd_cost_host_took_matters(&p));
}

/* The window form the experiments and the tuner use: seconds, not rates. */
static void test_window(void **state)
{
	(void)state;
	/* 0.5 s of CPU over 1 s, the host took 0.4 s: half a second used of 0.6 s left. */
	assert_float_equal(pmd_cost_share_pct(0.5, 1.0, 0.4), 100.0 * 0.5 / 0.6, 1e-9);
	assert_float_equal(pmd_cost_share_pct(0.3, 1.0, 0.0), 30.0, 1e-9);
	/* CPU and host took overlap (0.8 + 0.4 > 1 s): all that was left was used, no more. */
	assert_float_equal(pmd_cost_share_pct(0.8, 1.0, 0.4), 100.0, 0);
	/* Two threads over 2 s: 4 s they could have run. */
	assert_float_equal(pmd_cost_share_pct(1.0, 4.0, 2.0), 50.0, 1e-9);
	assert_true(pmd_cost_share_pct(0.5, 1.0, 1.0) < 0); /* the host took it all */
	assert_true(pmd_cost_share_pct(0.5, 1.0, 1.5) < 0); /* more than all: read late */
	assert_true(pmd_cost_share_pct(0.5, 0.0, 0.0) < 0);
	assert_true(pmd_cost_share_pct(-1, 1.0, 0.0) < 0);
	assert_true(pmd_cost_share_pct(0.5, 1.0, -1) < 0);

	assert_float_equal(pmd_cost_took_pct(0.25, 1.0), 25.0, 1e-9);
	assert_float_equal(pmd_cost_took_pct(1.5, 1.0), 100.0, 1e-9); /* at most all of it */
	assert_true(pmd_cost_took_pct(-1, 1.0) < 0);
	assert_true(pmd_cost_took_pct(0.5, 0) < 0);

	/* 2 ms of CPU over 1000 packets: 2000 ns each; the rate form gives the same. */
	assert_float_equal(pmd_cost_ns_per(2e6, 1000), 2000.0, 1e-9);
	assert_float_equal(pmd_cost_ns_per_pkt(0.2, 1000), pmd_cost_ns_per(0.002 * 1e9, 1000),
			   1e-9);
	assert_true(pmd_cost_ns_per(2e6, 0) < 0);
	assert_true(pmd_cost_ns_per(-1, 1000) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_values),
	    cmocka_unit_test(test_none),
	    cmocka_unit_test(test_matters),
	    cmocka_unit_test(test_window),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

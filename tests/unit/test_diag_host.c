/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_diag_host.c: the rules check the host first (docs/diag.md "The host first"): what the host
 * took is named as the host's, not a knob's, and a live OVS is judged from its own counters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "diag_fixture.h"

/* A live OVS whose drops cannot be joined to a PMD (no rx queue, no interface counter): the
 * rule says nothing. */
static void test_pmd_outlasts_host_absent(void **state)
{
	struct snapshot *s = quiet();
	pmd_seed(s);
	s->has_host = true;
	s->host.nabsent = 1;
	s->host.absent[0] = "pmd.rx_drop_pps";
	for (int i = 0; i < 6; i++)
		assert_false(has_id(s, "pmd.sleep_outlasts_ring", NULL));
	snapshot_free(s);
}

/* A live OVS (docs/diag.md, pmd.sleep_outlasts_ring on a live OVS): the PMD's drops are its ports'
 * ovsdb rx drops, a port's rate shared among its rx queues, and without the eBPF probe the
 * overshoot is at least the slack and a wake-up. An overflowing PMD at Linux's 50 us slack gets the
 * slack fix. */
static void test_pmd_outlasts_live_ovs(void **state)
{
	struct snapshot *s = quiet();
	struct pmd_thread_snap *t = &s->pmd.threads[0];
	struct host_snap *h = &s->host;
	s->has_host = true;
	h->nabsent = 4;
	h->absent[0] = "pmd.rx_drop_pps";
	h->absent[1] = "pmd.sleep_overshoot_us";
	h->absent[2] = "pmd.asleep_pct";
	h->absent[3] = "pmd.sleep_us_avg";
	snprintf(t->name, sizeof(t->name), "pmd-c01/id:8");
	t->sleep_iters = 0, t->sleep_us_avg = -1, t->drops_while_asleep_pct = 0;
	t->timer_slack_ns = 50000;
	t->rx_pps = 300000;
	h->novs_pmds = 1;
	snprintf(h->ovs_pmds[0].name, sizeof(h->ovs_pmds[0].name), "pmd-c01/id:8");
	h->ovs_pmds[0].core_id = 1;
	h->novs_rxqs = 2; /* the tap's two queues, both on core 1 */
	for (int q = 0; q < 2; q++) {
		h->ovs_rxqs[q] =
		    (struct host_ovs_rxq_snap){.queue = q, .core_id = 1, .enabled = true};
		snprintf(h->ovs_rxqs[q].port, sizeof(h->ovs_rxqs[q].port), "peer-tap2");
	}
	h->novs_ifaces = 1;
	snprintf(h->ovs_ifaces[0].name, sizeof(h->ovs_ifaces[0].name), "peer-tap2");
	for (int k = 0; k < HOST_IFACE_NDROPS; k++)
		h->ovs_ifaces[0].drop_per_s[k] = -1;
	/* 300k received + 100k dropped: 32 descriptors fill in 80 us, longer than the 50 us slack
	 * and a wake-up (70 us): the drops are not the sleep's. */
	h->ovs_ifaces[0].drop_per_s[0] = 100000; /* rx_dropped */
	for (int i = 0; i < 6; i++)
		assert_false(has_id(s, "pmd.sleep_outlasts_ring", NULL));
	/* 400k + 200k: the ring fills in 53 us, the 70 us sleep outlasts it, 33 % drop. */
	diag_init(&st);
	t->rx_pps = 400000;
	h->ovs_ifaces[0].drop_per_s[0] = 200000;
	struct diag_finding f;
	for (int i = 0; i < 2; i++)
		has_id(s, "pmd.sleep_outlasts_ring", NULL);
	assert_true(has_id(s, "pmd.sleep_outlasts_ring", &f));
	assert_string_equal(f.fix, "pmd.timer_slack_ns=1000");
	assert_non_null(strstr(f.conclusion, "sleeps at least 70 us"));
	assert_non_null(strstr(f.conclusion, "33.3% of its packets drop (its ports' rx drops"));
	/* The port's other queue on another PMD: half its drops are this PMD's, 100k of 500k. */
	diag_init(&st);
	h->ovs_rxqs[1].core_id = 0;
	for (int i = 0; i < 2; i++)
		has_id(s, "pmd.sleep_outlasts_ring", NULL);
	assert_true(has_id(s, "pmd.sleep_outlasts_ring", &f));
	assert_non_null(strstr(f.conclusion, "20.0% of its packets drop"));
	snapshot_free(s);
}

static void test_host_taken(void **state)
{
	struct snapshot *bad = quiet(), *good = quiet();
	bad->pmd.threads[0].stolen_pct = 40;
	expect_cycle(bad, good, "host.cpu_taken", 3, "");
	struct diag_finding f;
	for (int i = 0; i < 3; i++)
		has_id(bad, "host.cpu_taken", &f);
	assert_int_equal(f.severity, DIAG_WARNING);
	/* An est kthread waiting on the run queue counts the same. */
	bad->pmd.threads[0].stolen_pct = 3;
	struct snap_thread *est = &bad->threads[1];
	est->runq_delay_pct = 42;
	diag_init(&st);
	expect_cycle(bad, good, "host.cpu_taken", 3, "");
	snapshot_free(bad);
	snapshot_free(good);
}

/* On a host with a second vswitchd: its PMD, of the same name and waiting longer on the same
 * CPU, is not the one judged (the pmd section's tids are), it is the host's share, named. */
static void test_host_taken_watched_only(void **state)
{
	struct snapshot *bad = quiet(), *good = quiet();
	struct snapshot *both[] = {bad, good};
	for (int k = 0; k < 2; k++) {
		struct snapshot *s = both[k];
		s->has_host = true;
		snprintf(s->pmd.threads[0].name, sizeof(s->pmd.threads[0].name), "pmd-c01/id:8");
		s->pmd.threads[0].tid = 100;
		s->threads[0] = (struct snap_thread){.tid = 100,
						     .name = "pmd-c01/id:8",
						     .subsys = SUBSYS_PMD,
						     .cpu_pct = 10,
						     .runq_delay_pct = k ? 2 : 30,
						     .emu_cpu = 1};
		s->threads[3] = (struct snap_thread){.tid = 200,
						     .name = "pmd-c01/id:6",
						     .subsys = SUBSYS_PMD,
						     .cpu_pct = 85,
						     .runq_delay_pct = 90,
						     .emu_cpu = 1};
		s->nthreads = 4;
	}
	expect_cycle(bad, good, "host.cpu_taken", 3, "");
	struct diag_finding f;
	diag_init(&st);
	for (int i = 0; i < 3; i++)
		has_id(bad, "host.cpu_taken", &f);
	assert_non_null(strstr(f.conclusion, "pmd-c01/id:8 waited 30%"));
	assert_non_null(strstr(f.conclusion, "pmd-c01/id:6 (tid 200) ran 85% of that CPU"));
	snapshot_free(bad);
	snapshot_free(good);
}

/* The host first (docs/diag.md "The host first"): a tick the host stretched, or a tick after
 * a move to a faster governor, is not the calibration's; the per-estimator time is taken less
 * the share of their work the kthreads waited for a CPU. */
static void test_est_tick_host_first(void **state)
{
	struct snapshot *s = quiet();
	s->est.calib.single_est_ns = 2200;
	s->est.tick_ns_per_est = 5300; /* 2.4 x the calibration's */
	s->est.tick_ns_avg = s->est.tick_ns_max = 3000000;
	/* Calibrated under ondemand, now performance: a faster governor cannot do that. */
	s->est.calib.governor = GOV_ONDEMAND;
	s->governor = GOV_PERFORMANCE;
	for (int i = 0; i < 6; i++)
		assert_false(has_id(s, "est.tick_miscalibrated", NULL));
	/* Calibrated under performance, now ondemand, but est-k:0 ran 5 % of the interval for
	 * 28300 visits: 1767 ns of CPU each, the rest of the 5300 was a wait for a CPU. */
	diag_init(&st);
	s->est.calib.governor = GOV_PERFORMANCE;
	s->governor = GOV_ONDEMAND;
	s->threads[1].runq_delay_pct = 10;
	s->est.visits = 28300;
	for (int i = 0; i < 6; i++)
		assert_false(has_id(s, "est.tick_miscalibrated", NULL));
	/* 13200 visits: 3788 ns of CPU is still 1.7 x: the governor's, said with the clock's. */
	diag_init(&st);
	s->est.visits = 13200;
	struct diag_finding f;
	for (int i = 0; i < 2; i++)
		assert_false(has_id(s, "est.tick_miscalibrated", NULL));
	assert_true(has_id(s, "est.tick_miscalibrated", &f));
	assert_non_null(strstr(f.conclusion, "3788 ns of CPU (5300 ns by the clock"));
	snapshot_free(s);
}

/* An est kthread with work only every other interval: the samples it was idle neither start
 * nor clear host.cpu_taken, so waiting 42 % whenever it runs raises it. */
static void test_host_taken_every_other(void **state)
{
	struct snapshot *busy = quiet(), *idle = quiet();
	busy->threads[1].runq_delay_pct = 42;
	idle->threads[1].cpu_pct = 0;
	idle->threads[1].runq_delay_pct = 0;
	assert_false(has_id(busy, "host.cpu_taken", NULL));
	assert_false(has_id(idle, "host.cpu_taken", NULL));
	assert_false(has_id(busy, "host.cpu_taken", NULL));
	assert_false(has_id(idle, "host.cpu_taken", NULL));
	struct diag_finding f;
	assert_true(has_id(busy, "host.cpu_taken", &f));
	assert_non_null(strstr(f.conclusion, "est-k:0 waited 42%"));
	/* Idle for good reads as clean after DIAG_MAX_UNDECIDED samples, then k_clear. */
	int held = 0;
	while (has_id(idle, "host.cpu_taken", NULL))
		held++;
	assert_int_equal(held, DIAG_MAX_UNDECIDED + 2);
	snapshot_free(busy);
	snapshot_free(idle);
}

/* A PMD the host held: sleeps its slack and a wake-up cannot explain are the host's. */
static void test_pmd_outlasts_host_first(void **state)
{
	struct snapshot *s = quiet();
	struct pmd_thread_snap *t = &s->pmd.threads[0];
	t->stolen_pct = 90;
	t->drop_pct = 16;
	t->rx_drop_pps = 100000;
	t->rx_pps = 500000;
	/* 1 us slack, a 10 us request, sleeps of 9 ms: 10 + 1 + 20 us ends before the ring's
	 * 53 us, so no sleep finding (the host one names it). */
	t->sleep_us_avg = 9000;
	t->overshoot_p50_us = 8990;
	t->overshoot_p99_us = 9169;
	for (int i = 0; i < 6; i++)
		assert_false(has_id(s, "pmd.sleep_outlasts_ring", NULL));
	/* At 50 us slack the slack alone outlasts the ring: the finding stands and says the
	 * host's share. */
	diag_init(&st);
	pmd_seed(s);
	t->stolen_pct = 40;
	struct diag_finding f;
	for (int i = 0; i < 2; i++)
		has_id(s, "pmd.sleep_outlasts_ring", NULL);
	assert_true(has_id(s, "pmd.sleep_outlasts_ring", &f));
	assert_non_null(strstr(f.conclusion, "the host took 40% of its time"));
	assert_string_equal(f.fix, "pmd.timer_slack_ns=1000");
	snapshot_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_pmd_outlasts_host_absent, setup),
	    cmocka_unit_test_setup(test_pmd_outlasts_live_ovs, setup),
	    cmocka_unit_test_setup(test_host_taken, setup),
	    cmocka_unit_test_setup(test_host_taken_watched_only, setup),
	    cmocka_unit_test_setup(test_est_tick_host_first, setup),
	    cmocka_unit_test_setup(test_host_taken_every_other, setup),
	    cmocka_unit_test_setup(test_pmd_outlasts_host_first, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_diag_threads.c: the threads' conclusions the rules state (docs/conclusions.md): the OVS
 * report's PMD that sleeps with CPU to spare, the two PMDs that differ, the 1 us sleep increment;
 * the IPVS thread's calibration under a slow governor. Scripted snapshots (diag_fixture.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/governor.h"
#include "core/xalloc.h"
#include "diag/diag.h"
#include "diag_fixture.h"

/* The engine's pmd-seed (docs/conclusions.md, O3 and O6): pmd-c:0 busy 100 % of its waking
 * cycles and dropping 15 %, pmd-c:1 busy 74 % and dropping 3 %, both while asleep, both at 16 %
 * of a CPU. */
static void two_pmds(struct snapshot *s)
{
	pmd_seed(s);
	struct pmd_thread_snap *t0 = &s->pmd.threads[0], *t1 = &s->pmd.threads[1];
	t0->busy_pct = 100, t0->cpu_pct = 16;
	*t1 = *t0;
	snprintf(t1->name, sizeof(t1->name), "pmd-c:1");
	t1->busy_pct = 74;
	t1->rx_pps = 485000, t1->rx_drop_pps = 15000, t1->drop_pct = 3;
	s->pmd.nthreads = 2;
}

/* The finding says the PMD sleeps with CPU to spare (O3) and names the other PMD dropping while
 * asleep with its busy share (O6). */
static void test_pmd_spare_cpu_and_other(void **state)
{
	struct snapshot *bad = quiet();
	struct diag_finding f;
	two_pmds(bad);
	for (int i = 0; i < 3; i++)
		has_id(bad, "pmd.sleep_outlasts_ring", &f);
	assert_non_null(strstr(f.conclusion, "pmd-c:0 sleeps"));
	assert_non_null(strstr(f.conclusion, "(busy 100% of its waking cycles, 16% CPU)"));
	assert_non_null(strstr(f.conclusion, "; pmd-c:1 too: 3.0% (busy 74%)."));
	assert_true(strlen(f.conclusion) < DIAG_CONCLUSION_MAX - 1); /* whole, not cut */
	snapshot_free(bad);
}

/* With the host's note too, the sentence still ends whole. */
static void test_pmd_other_with_host(void **state)
{
	struct snapshot *bad = quiet();
	struct diag_finding f;
	two_pmds(bad);
	bad->pmd.threads[0].stolen_pct = bad->pmd.threads[1].stolen_pct = 30;
	for (int i = 0; i < 3; i++)
		has_id(bad, "pmd.sleep_outlasts_ring", &f);
	assert_non_null(strstr(f.conclusion, "the host took 30%"));
	assert_non_null(strstr(f.conclusion, "pmd-c:1 too"));
	assert_true(strlen(f.conclusion) < DIAG_CONCLUSION_MAX - 1);
	snapshot_free(bad);
}

/* pmd-seed beside a CPU-bound process (docs/conclusions.md, O1-O4 loaded): the host holds the
 * PMDs 60 % of the time and their source loses 430 kpps of its 600 to it, so 170 kpps arrive and
 * the ring takes 188 us to fill; at the line's rate it fills in 53 us, which the 50 us slack's
 * sleep outlasts. The slack is the knob's, whatever the host took (13 % drops against 0.05 % at
 * 1 us on the same load). */
static void test_pmd_seed_loaded(void **state)
{
	struct snapshot *s = quiet();
	struct pmd_thread_snap *t = &s->pmd.threads[0];
	pmd_seed(s);
	t->stolen_pct = 60;
	t->rx_pps = 150000, t->rx_drop_pps = 20000, t->drop_pct = 11.8;
	t->host_lost_pps = 430000;
	t->sleep_us_avg = 161, t->overshoot_p50_us = 150, t->overshoot_p99_us = 1100;
	struct diag_finding f;
	for (int i = 0; i < 2; i++)
		assert_false(has_id(s, "pmd.sleep_outlasts_ring", NULL));
	assert_true(has_id(s, "pmd.sleep_outlasts_ring", &f));
	assert_string_equal(f.fix, "pmd.timer_slack_ns=1000");
	assert_non_null(strstr(f.conclusion, "the host took 60% of its time: part is the host's"));
	/* At 1 us slack the same load's long sleeps are the host's: 11 + 21 us end before 53. */
	diag_init(&st);
	s->pmd.timer_slack_ns = s->knobs[K_PMD_TIMER_SLACK_NS] = t->timer_slack_ns = 1000;
	for (int i = 0; i < 5; i++)
		assert_false(has_id(s, "pmd.sleep_outlasts_ring", NULL));
	snapshot_free(s);
}

/* The slack at 1 us, a 10 us sleep increment, on-off traffic: 0.3 % drops, mostly asleep, under
 * the 0.5 % floor of pmd.sleep_outlasts_ring but over the advice's 0.1 % (O5). */
static void inc_coarse(struct snapshot *s)
{
	struct pmd_thread_snap *t = &s->pmd.threads[0];
	s->pmd.sleep_inc_us = s->knobs[K_PMD_SLEEP_INC_US] = 10;
	t->drop_pct = 0.3, t->rx_drop_pps = 1800, t->drops_while_asleep_pct = 95;
}

static void test_pmd_inc_coarse(void **state)
{
	struct snapshot *bad = quiet(), *good = quiet();
	inc_coarse(bad);
	good->pmd.sleep_inc_us = good->knobs[K_PMD_SLEEP_INC_US] = 1; /* the fix applied */
	expect_cycle(bad, good, "pmd.sleep_inc_coarse", 3, "pmd.sleep_inc_us=1");
	struct diag_finding f;
	for (int i = 0; i < 3; i++)
		has_id(bad, "pmd.sleep_inc_coarse", &f);
	assert_non_null(strstr(f.conclusion, "pmd-c:0 drops 0.30% of its packets, 95% while it "
					     "sleeps, over the 0.1% budget: a 10 us sleep "
					     "increment reaches the 50 us max sleep in 5 idle"));
	assert_false(has_id(bad, "pmd.sleep_outlasts_ring", NULL)); /* under its 0.5 % floor */
	snapshot_free(bad);
	snapshot_free(good);
}

/* Not its case: drops within the budget, drops while awake, the slack not yet fixed (the slack
 * comes first), busy polling (no sleep to ramp). */
static void test_pmd_inc_coarse_not(void **state)
{
	struct snapshot *s = quiet();
	inc_coarse(s);
	s->pmd.threads[0].drop_pct = 0.05;
	for (int i = 0; i < 5; i++)
		assert_false(has_id(s, "pmd.sleep_inc_coarse", NULL));
	inc_coarse(s);
	s->pmd.threads[0].drops_while_asleep_pct = 10;
	for (int i = 0; i < 5; i++)
		assert_false(has_id(s, "pmd.sleep_inc_coarse", NULL));
	inc_coarse(s);
	s->pmd.threads[0].timer_slack_ns = 50000;
	for (int i = 0; i < 5; i++)
		assert_false(has_id(s, "pmd.sleep_inc_coarse", NULL));
	s->pmd.threads[0].timer_slack_ns = 1000;
	s->pmd.maxsleep_us = 0;
	for (int i = 0; i < 5; i++)
		assert_false(has_id(s, "pmd.sleep_inc_coarse", NULL));
	snapshot_free(s);
}

/* The engine's est-ipvs (docs/conclusions.md, I3): 1056 estimators in one row, so one tick in 50
 * has work and, at -d 1, every other interval has none. The packet threads wait on a run queue
 * too. A tick interval: est-k:0 at 0.43 % of a CPU for the 1056 visits, 3419 ns per estimator by
 * the clock; the calibration said 2243 under performance. */
static struct snapshot *est_ipvs(bool tick, double runq_k, double runq_pkt)
{
	struct snapshot *s = quiet();
	struct est_snap *e = &s->est;
	e->estimators = e->placed = e->kt[0].estimators = 1056;
	e->calib.single_est_ns = 2243, e->calib.chain_max = 42;
	e->tick_ns_per_est = 3419, e->tick_ns_avg = e->tick_ns_max = 3614173;
	e->visits = tick ? 1056 : 0;
	e->kt[0].cpu_pct = tick ? 0.43 : 0.05;
	s->threads[1].cpu_pct = e->kt[0].cpu_pct;
	s->threads[1].runq_delay_pct = runq_k;
	s->threads[3] = (struct snap_thread){.name = "est-pkt:0",
					     .subsys = SUBSYS_EST,
					     .cpu_pct = 0.2,
					     .runq_delay_pct = runq_pkt,
					     .timer_slack_ns = 50000};
	s->nthreads = 4;
	s->governor = GOV_ONDEMAND;
	s->has_pmd = false; /* est-ipvs runs est alone */
	return s;
}

/* Under ondemand with performance's calibration, each estimator takes 1.5 x: the finding starts
 * after three intervals with a tick, the empty ones between undecided; the packet threads' waits
 * (4 %) are not the tick's. */
static void test_est_ipvs_ondemand(void **state)
{
	struct snapshot *t = est_ipvs(true, 1, 4), *n = est_ipvs(false, 0.5, 4);
	struct diag_finding f;
	for (int i = 0; i < 2; i++) {
		assert_false(has_id(t, "est.tick_miscalibrated", NULL));
		assert_false(has_id(n, "est.tick_miscalibrated", NULL));
	}
	assert_true(has_id(t, "est.tick_miscalibrated", &f));
	assert_non_null(strstr(f.conclusion, "each estimator takes 3419 ns against the 2243 ns "
					     "calibrated under performance"));
	snapshot_free(t);
	snapshot_free(n);
}

/* Two CPU-bound processes share est-k:0's CPU: its tick takes 26582 ns per estimator by the
 * clock but 4356 of CPU, while its run-queue share of the interval (17 %, mostly empty ticks')
 * stays under 25 %. Under the calibration's own governor nothing blames the calibration and the
 * host finding names the estimator kthread by its ticks' wait; under ondemand the finding gives
 * the CPU's figure, not the clock's. */
static void test_est_ipvs_host(void **state)
{
	struct snapshot *t = est_ipvs(true, 17, 20), *n = est_ipvs(false, 15, 20);
	t->est.tick_ns_per_est = n->est.tick_ns_per_est = 26582;
	t->est.kt[0].cpu_pct = t->threads[1].cpu_pct = 0.46;
	t->governor = n->governor = GOV_PERFORMANCE;
	struct diag_finding f;
	for (int i = 0; i < 8; i++) {
		assert_false(has_id(i % 2 ? n : t, "est.tick_miscalibrated", NULL));
		assert_false(has_id(i % 2 ? n : t, "est.kthread_over_budget", NULL));
	}
	assert_true(has_id(t, "host.cpu_taken", &f));
	assert_non_null(strstr(f.conclusion, "est-k:0 waited 84% of its ticks for a CPU (26582 ns "
					     "per estimator by the clock, 4356 of CPU)"));
	diag_init(&st);
	t->governor = n->governor = GOV_ONDEMAND;
	for (int i = 0; i < 4; i++)
		has_id(i % 2 ? n : t, "est.tick_miscalibrated", NULL);
	assert_true(has_id(t, "est.tick_miscalibrated", &f));
	assert_non_null(strstr(f.conclusion, "each estimator takes 4356 ns of CPU (26582 ns by "
					     "the clock: the rest waited for one)"));
	snapshot_free(t);
	snapshot_free(n);
}

/* A replay judges what the live run judged: the live interval (1.00049 s) and per-estimator time
 * (26582.004 ns) against what its JSON line keeps (1.0 and 26582.0): the same conclusion and
 * evidence, to the printed digit. */
static void test_est_host_replayed(void **state)
{
	struct diag_finding live, replayed;
	for (int k = 0; k < 2; k++) {
		struct snapshot *t = est_ipvs(true, 17, 20), *n = est_ipvs(false, 15, 20);
		t->est.tick_ns_per_est = n->est.tick_ns_per_est = k ? 26582.0 : 26582.004;
		t->interval_s = n->interval_s = k ? 1.0 : 1.00049;
		t->est.kt[0].cpu_pct = t->threads[1].cpu_pct = 0.46;
		t->governor = n->governor = GOV_PERFORMANCE;
		diag_init(&st);
		for (int i = 0; i < 4; i++)
			has_id(i % 2 ? n : t, "host.cpu_taken", NULL);
		assert_true(has_id(t, "host.cpu_taken", k ? &replayed : &live));
		snapshot_free(t);
		snapshot_free(n);
	}
	assert_string_equal(live.conclusion, replayed.conclusion);
	assert_int_equal(live.nevidence, replayed.nevidence);
	for (int i = 0; i < live.nevidence; i++) {
		char a[32], b[32];
		snprintf(a, sizeof(a), "%.2f", live.evidence[i].value);
		snprintf(b, sizeof(b), "%.2f", replayed.evidence[i].value);
		assert_string_equal(a, b);
	}
}

/* One sample at -d 0.5: the wall clock advances half a second. */
static bool half(struct snapshot *s, const char *id)
{
	struct diag_finding out[DIAG_MAX_FINDINGS];
	s->seq = ++seq;
	s->wall_ns = seq * 500000000ULL;
	int n = diag_eval(&st, s, out, DIAG_MAX_FINDINGS);
	for (int i = 0; i < n; i++)
		if (strcmp(out[i].id, id) == 0)
			return true;
	return false;
}

/* At -d 0.5 a tick with work comes every 4th sample (a row once per 2 s): the three between
 * cannot say, and the finding still starts on the 3rd tick. */
static void test_est_ipvs_half_second(void **state)
{
	struct snapshot *t = est_ipvs(true, 1, 4), *n = est_ipvs(false, 0.5, 4);
	t->interval_s = n->interval_s = 0.5;
	t->est.kt[0].cpu_pct = t->threads[1].cpu_pct = 0.86;
	const char *id = "est.tick_miscalibrated";
	for (int k = 0; k < 2; k++) {
		assert_false(half(t, id));
		for (int i = 0; i < 3; i++)
			assert_false(half(n, id));
	}
	assert_true(half(t, id));
	for (int i = 0; i < 3; i++)
		assert_true(half(n, id)); /* held while the next tick is awaited */
	snapshot_free(t);
	snapshot_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_pmd_spare_cpu_and_other, setup),
	    cmocka_unit_test_setup(test_pmd_other_with_host, setup),
	    cmocka_unit_test_setup(test_pmd_seed_loaded, setup),
	    cmocka_unit_test_setup(test_pmd_inc_coarse, setup),
	    cmocka_unit_test_setup(test_pmd_inc_coarse_not, setup),
	    cmocka_unit_test_setup(test_est_ipvs_ondemand, setup),
	    cmocka_unit_test_setup(test_est_ipvs_host, setup),
	    cmocka_unit_test_setup(test_est_host_replayed, setup),
	    cmocka_unit_test_setup(test_est_ipvs_half_second, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

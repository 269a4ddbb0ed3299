/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_diag.c: each diagnosis rule fires on its condition and clears after its fix, quiet
 * input raises nothing, the hysteresis holds, and a recorded pmd-seed run is diagnosed (on
 * the exporter's tunetop_diagnosis_active too). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backends/replay/snapdec.h"
#include "core/governor.h"
#include "core/xalloc.h"
#include "diag/diag.h"
#include "tui/after.h"
#include "tui/metrics/metrics.h"
#include "diag_fixture.h"

static void test_quiet(void **state)
{
	struct snapshot *s = quiet();
	for (int i = 0; i < 20; i++)
		assert_int_equal(feed(s, NULL), 0);
	snapshot_free(s);
}

static void test_pmd_outlasts(void **state)
{
	struct snapshot *bad = quiet(), *good = quiet();
	pmd_seed(bad);
	expect_cycle(bad, good, "pmd.sleep_outlasts_ring", 3, "pmd.timer_slack_ns=1000");
	struct diag_finding f;
	for (int i = 0; i < 3; i++)
		has_id(bad, "pmd.sleep_outlasts_ring", &f);
	assert_int_equal(f.severity, DIAG_CRITICAL);
	/* Evidence: the sleep and the fill time (32 / 600 kpps = 53.3 us). */
	assert_string_equal(f.evidence[2].figure, "pmd.threads[0].ring_fill_us");
	assert_true(f.evidence[2].value > 53 && f.evidence[2].value < 54);
	assert_true(f.evidence[0].value > f.evidence[2].value);
	snapshot_free(bad);
	snapshot_free(good);
}

/* An experiment's window: every rule once, no hysteresis; quiet input gives nothing. */
static void test_eval_window(void **state)
{
	(void)state;
	struct snapshot *bad = quiet(), *good = quiet();
	struct diag_finding f[DIAG_MAX_FINDINGS];
	pmd_seed(bad);
	bad->seq = 7;
	int n = diag_eval_window(bad, f, DIAG_MAX_FINDINGS);
	assert_true(n >= 1);
	assert_string_equal(f[0].id, "pmd.sleep_outlasts_ring");
	assert_string_equal(f[0].fix, "pmd.timer_slack_ns=1000");
	assert_int_equal(f[0].since_seq, 7);
	assert_int_equal(diag_eval_window(good, f, DIAG_MAX_FINDINGS), 0);
	assert_int_equal(diag_eval_window(bad, f, 0), 0); /* max bounds out */
	snapshot_free(bad);
	snapshot_free(good);
}

/* Slack already 1 us: the fix is a shorter max sleep under the fill time. */
static void test_pmd_outlasts_maxsleep(void **state)
{
	struct snapshot *bad = quiet(), *good = quiet();
	struct pmd_thread_snap *t = &bad->pmd.threads[0];
	bad->pmd.rxq_size = 64; /* 106.7 us at 600 kpps */
	t->rx_pps = 500000, t->rx_drop_pps = 100000, t->drop_pct = 16;
	t->sleep_us_avg = 100, t->overshoot_p50_us = 10, t->overshoot_p99_us = 30;
	/* 106.7 - 30 - 20 = 56, under the 50 us max? no: 56 >= 50, so half of 50 */
	expect_cycle(bad, good, "pmd.sleep_outlasts_ring", 3, "pmd.maxsleep_us=25");
	snapshot_free(bad);
	snapshot_free(good);
}

/* Drops that happen while awake, or too few, are not this rule's. */
static void test_pmd_outlasts_needs_drops(void **state)
{
	struct snapshot *s = quiet();
	pmd_seed(s);
	s->pmd.threads[0].drops_while_asleep_pct = 10;
	for (int i = 0; i < 6; i++)
		assert_false(has_id(s, "pmd.sleep_outlasts_ring", NULL));
	s->pmd.threads[0].drops_while_asleep_pct = 90;
	s->pmd.threads[0].drop_pct = 0.1;
	for (int i = 0; i < 6; i++)
		assert_false(has_id(s, "pmd.sleep_outlasts_ring", NULL));
	snapshot_free(s);
}

/* A condition that comes and goes every other sample never raises a finding. */
static void test_hysteresis_flap(void **state)
{
	struct snapshot *bad = quiet(), *good = quiet();
	pmd_seed(bad);
	for (int i = 0; i < 21; i++) /* ends on a clean one */
		assert_int_equal(feed(i % 2 ? bad : good, NULL), 0);
	/* Two in a row, then clean: still nothing. */
	feed(bad, NULL);
	feed(bad, NULL);
	assert_int_equal(feed(good, NULL), 0);
	snapshot_free(bad);
	snapshot_free(good);
}

static void test_pmd_polling_idle(void **state)
{
	struct snapshot *bad = quiet(), *good = quiet();
	struct pmd_thread_snap *t = &bad->pmd.threads[0];
	bad->pmd.maxsleep_us = bad->knobs[K_PMD_MAXSLEEP_US] = 0;
	bad->pmd.rxq_size = 2048;
	t->rx_pps = 20000, t->rx_drop_pps = 0, t->drop_pct = 0;
	t->busy_pct = 2, t->cpu_pct = 99, t->sleep_iters = 0;
	/* 2048 / 20 kpps = 102 ms: capped at 500 us. */
	expect_cycle(bad, good, "pmd.polling_idle", 3, "pmd.maxsleep_us=500");
	/* A nearly full ring: 32 descriptors at 600 kpps leave 53 - 1 - 20 = 32 us. */
	diag_init(&st);
	bad->pmd.rxq_size = 32;
	t->rx_pps = 600000;
	expect_cycle(bad, good, "pmd.polling_idle", 3, "pmd.maxsleep_us=32");
	snapshot_free(bad);
	snapshot_free(good);
}

static void test_est_tick_miscal(void **state)
{
	struct snapshot *bad = quiet(), *good = quiet();
	bad->governor = GOV_ONDEMAND;
	bad->est.tick_ns_avg = 10600000;
	bad->est.tick_ns_max = 24600000;
	expect_cycle(bad, good, "est.tick_miscalibrated", 3, "est.recalibrate=1");
	/* Slow ticks under the governor it was calibrated with are not a calibration's fault. */
	good->est.tick_ns_avg = 10600000;
	for (int i = 0; i < 6; i++)
		assert_false(has_id(good, "est.tick_miscalibrated", NULL));
	/* Nor a sample taken while the configuration lock was held (stale figures). */
	bad->est.config_held = true;
	for (int i = 0; i < 6; i++)
		assert_false(has_id(bad, "est.tick_miscalibrated", NULL));
	/* With the per-estimator figure, that decides: a row that is not full ticks in
	 * 3 ms, under the goal, yet each estimator takes 2.4 x what was calibrated. */
	diag_init(&st);
	bad->est.config_held = false;
	bad->est.calib.single_est_ns = 2200;
	bad->est.tick_ns_per_est = 5300;
	bad->est.visits = good->est.visits = 12000;
	bad->est.tick_ns_avg = bad->est.tick_ns_max = 3000000;
	good->governor = GOV_ONDEMAND;
	good->est.calib.single_est_ns = 2200;
	good->est.tick_ns_per_est = 2500; /* 1.14 x: the spread of one governor */
	expect_cycle(bad, good, "est.tick_miscalibrated", 3, "est.recalibrate=1");
	struct diag_finding f;
	for (int i = 0; i < 3; i++)
		has_id(bad, "est.tick_miscalibrated", &f);
	assert_true(has_id(bad, "est.tick_miscalibrated", &f));
	/* est-k:0 ran 5 % of the interval for 12000 visits: 4167 ns of CPU each. */
	assert_non_null(strstr(f.conclusion, "4167 ns of CPU (5300 ns by the clock: the rest "
					     "waited for one) against the 2200 ns"));
	/* and a long tick whose estimators run at the calibrated speed is not its fault. */
	diag_init(&st);
	good->est.tick_ns_avg = 10600000;
	for (int i = 0; i < 6; i++)
		assert_false(has_id(good, "est.tick_miscalibrated", NULL));
	snapshot_free(bad);
	snapshot_free(good);
}

static void test_est_kthread(void **state)
{
	struct snapshot *bad = quiet(), *good = quiet();
	bad->est.kt[0].cpu_pct = 17;
	expect_cycle(bad, good, "est.kthread_over_budget", 3, "");
	bad->governor = GOV_ONDEMAND;
	diag_init(&st);
	expect_cycle(bad, good, "est.kthread_over_budget", 3, "est.recalibrate=1");
	snapshot_free(bad);
	snapshot_free(good);
}

static void test_est_kthreads_short(void **state)
{
	struct snapshot *bad = quiet(), *good = quiet();
	struct est_snap *e = &bad->est;
	e->estimators = 45001, e->max_per_kthread = 21600, e->max_threads = 2;
	e->kthread_slots = 2, e->placed = 43200, e->pending = 1801;
	/* 3 kthreads needed, 4 per CPU of the cpulist: 1 CPU. */
	expect_cycle(bad, good, "est.kthreads_short", 3, "est.cpulist_cpus=1");
	snapshot_free(bad);
	snapshot_free(good);
}

static void test_blk_stranded(void **state)
{
	struct snapshot *bad = quiet(), *good = quiet();
	struct blk_snap *b = &bad->blk;
	b->fault_lost_kick = true;
	b->hung = true, b->hung_submitters = 3, b->lost_kicks = 3;
	expect_cycle(bad, good, "blk.stranded_completions", 2, "blk.fault_lost_kick=off");
	struct diag_finding f;
	has_id(bad, "blk.stranded_completions", NULL);
	assert_true(has_id(bad, "blk.stranded_completions", &f));
	assert_int_equal(f.severity, DIAG_CRITICAL);
	assert_non_null(strstr(f.conclusion, "lost-kick"));
	snapshot_free(bad);
	snapshot_free(good);
}

static void test_blk_irq_saturated(void **state)
{
	struct snapshot *bad = quiet(), *good = quiet();
	bad->blk.rq_affinity = 0;
	bad->cpus[0].load_pct = 97;
	good->cpus[0].load_pct = 97; /* the same load at rq_affinity 1 is not this rule's */
	expect_cycle(bad, good, "blk.irq_cpu_saturated", 3, "blk.rq_affinity=2");
	snapshot_free(bad);
	snapshot_free(good);
}

/* With the lost-kick fault on, rq_affinity 2 strands completions and hangs submitters: the
 * saturated interrupt CPU's fix is not offered, and the conclusion says why. */
static void test_blk_irq_saturated_fault(void **state)
{
	struct snapshot *bad = quiet(), *good = quiet();
	bad->blk.rq_affinity = 0;
	bad->cpus[0].load_pct = 97;
	bad->blk.fault_lost_kick = good->blk.fault_lost_kick = true;
	bad->knobs[K_BLK_FAULT_LOST_KICK] = good->knobs[K_BLK_FAULT_LOST_KICK] = 1;
	expect_cycle(bad, good, "blk.irq_cpu_saturated", 3, "");
	struct diag_finding f;
	for (int i = 0; i < 2; i++)
		assert_false(has_id(bad, "blk.irq_cpu_saturated", NULL));
	assert_true(has_id(bad, "blk.irq_cpu_saturated", &f));
	assert_string_equal(f.fix, "");
	assert_non_null(strstr(f.conclusion, "it bounds the IOPS."));
	assert_non_null(strstr(f.conclusion, "Not offered: blk.rq_affinity=2, which with the "
					     "lost-kick fault on strands completions and hangs "
					     "submitters."));
	/* The same in an experiment's window. */
	struct diag_finding w[DIAG_MAX_FINDINGS];
	int n = diag_eval_window(bad, w, DIAG_MAX_FINDINGS);
	bool seen = false;
	for (int i = 0; i < n; i++)
		if (strcmp(w[i].id, "blk.irq_cpu_saturated") == 0) {
			seen = true;
			assert_string_equal(w[i].fix, "");
		}
	assert_true(seen);
	/* A host source without the fault knob offers the fix. */
	bad->knob_absent[K_BLK_FAULT_LOST_KICK] = true;
	n = diag_eval_window(bad, w, DIAG_MAX_FINDINGS);
	for (int i = 0; i < n; i++)
		if (strcmp(w[i].id, "blk.irq_cpu_saturated") == 0)
			assert_string_equal(w[i].fix, "blk.rq_affinity=2");
	snapshot_free(bad);
	snapshot_free(good);
}

static void test_blk_ipi_costly(void **state)
{
	struct snapshot *bad = quiet(), *good = quiet();
	bad->blk.rq_affinity = 2;
	bad->blk.ipis_per_s = 31600;
	bad->blk.iops = 129000;
	/* blk-steer: the submitter on CPU 1 shares CPU 0's LLC, those on 2 and 3 do not. */
	struct blk_snap *b = &bad->blk;
	b->matrix_n = NCPU;
	for (int r = 0; r < NCPU; r++)
		b->matrix_per_s[r][r] = 32000;
	bad->cpus[1].llc = 1; /* no submitter near the interrupt CPU: rq_affinity 1 saves nothing */
	for (int i = 0; i < 6; i++)
		assert_false(has_id(bad, "blk.ipi_costly", NULL));
	bad->cpus[1].llc = 0;
	expect_cycle(bad, good, "blk.ipi_costly", 3, "blk.rq_affinity=1");
	struct diag_finding f;
	for (int i = 0; i < 3; i++)
		has_id(bad, "blk.ipi_costly", &f);
	assert_non_null(strstr(f.conclusion, "25% of the completions come from other CPUs of its "
					     "LLC, which rq_affinity 1 completes there"));
	/* One LLC: every CPU shares the interrupt CPU's, and the text says so. */
	bad->cpus[2].llc = bad->cpus[3].llc = 0;
	for (int i = 0; i < 3; i++)
		has_id(bad, "blk.ipi_costly", &f);
	assert_non_null(strstr(f.conclusion, "every CPU shares its LLC (one LLC), so rq_affinity 1 "
					     "completes every request there: the 75% submitted on "
					     "other CPUs without an IPI."));
	assert_null(strstr(f.conclusion, "from its own LLC"));
	bad->cpus[2].llc = bad->cpus[3].llc = 1;
	diag_init(&st);
	/* A busy interrupt CPU has no room for rq_affinity 1's local completions. */
	bad->cpus[0].load_pct = 70;
	for (int i = 0; i < 6; i++)
		assert_false(has_id(bad, "blk.ipi_costly", NULL));
	snapshot_free(bad);
	snapshot_free(good);
}

/* Most severe first. */
static void test_order(void **state)
{
	struct snapshot *s = quiet();
	s->pmd.threads[0].stolen_pct = 40; /* warning */
	s->blk.hung = true, s->blk.hung_submitters = 1; /* critical */
	struct diag_finding out[DIAG_MAX_FINDINGS];
	int n = 0;
	for (int i = 0; i < 3; i++) {
		s->seq = ++seq;
		n = diag_eval(&st, s, out, DIAG_MAX_FINDINGS);
	}
	assert_int_equal(n, 2);
	assert_string_equal(out[0].id, "blk.stranded_completions");
	assert_string_equal(out[1].id, "host.cpu_taken");
	assert_int_equal(diag_eval(&st, s, out, 1), 1); /* max respected */
	snapshot_free(s);
}

/* Recorded snapshots through the JSON reader: a pmd-seed run (50 us slack) is diagnosed
 * with its fix, the default scenario's recording raises nothing. */
static int feed_file(const char *rel, const char *id, struct diag_finding *got)
{
	char path[4096];
	const char *top = getenv("TT_TOP");
	snprintf(path, sizeof(path), "%s/%s", top ? top : ".", rel);
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	struct snapshot *s = snapshot_new();
	char *line = NULL, err[256];
	size_t cap = 0;
	ssize_t len;
	int hits = 0, lines = 0;
	struct metrics_state mst = {0};
	diag_init(&st);
	while ((len = getline(&line, &cap, fp)) > 0) {
		assert_int_equal(snapdec_line(line, (size_t)len, s, err, sizeof(err)), 0);
		/* As every front end does after a sample (tui/after.h): the findings on s. */
		after_diagnose(&st, s);
		const struct diag_finding *out = s->diag.f;
		int n = s->diag.n;
		metrics_note(&mst, s);
		lines++;
		for (int i = 0; i < n; i++) {
			if (id && strcmp(out[i].id, id) == 0) {
				hits++;
				*got = out[i];
			} else if (strcmp(out[i].id, "host.cpu_taken") != 0) {
				fail_msg("%s: unexpected finding %s", rel, out[i].id);
			}
		}
	}
	/* The exporter's gauge agrees with the last sample's findings. */
	struct metrics_buf mb = {0};
	metrics_render(s, &mst, METRICS_PROM, &mb);
	char want[128];
	snprintf(want, sizeof(want), "tunetop_diagnosis_active{rule=\"%s\"} %d\n",
		 "pmd.sleep_outlasts_ring", id && strcmp(id, "pmd.sleep_outlasts_ring") == 0);
	assert_non_null(strstr(mb.p, want));
	free(mb.p);
	free(line);
	fclose(fp);
	snapshot_free(s);
	assert_true(lines >= 6);
	return hits;
}

static void test_recorded(void **state)
{
	struct diag_finding f;
	assert_true(
	    feed_file("tests/unit/data/diag_pmd_seed.jsonl", "pmd.sleep_outlasts_ring", &f) >= 3);
	assert_string_equal(f.fix, "pmd.timer_slack_ns=1000");
	assert_int_equal(feed_file("tests/tui/data/replay8.jsonl", NULL, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_quiet, setup),
	    cmocka_unit_test_setup(test_pmd_outlasts, setup),
	    cmocka_unit_test_setup(test_eval_window, setup),
	    cmocka_unit_test_setup(test_pmd_outlasts_maxsleep, setup),
	    cmocka_unit_test_setup(test_pmd_outlasts_needs_drops, setup),
	    cmocka_unit_test_setup(test_hysteresis_flap, setup),
	    cmocka_unit_test_setup(test_pmd_polling_idle, setup),
	    cmocka_unit_test_setup(test_est_tick_miscal, setup),
	    cmocka_unit_test_setup(test_est_kthread, setup),
	    cmocka_unit_test_setup(test_est_kthreads_short, setup),
	    cmocka_unit_test_setup(test_blk_stranded, setup),
	    cmocka_unit_test_setup(test_blk_irq_saturated, setup),
	    cmocka_unit_test_setup(test_blk_irq_saturated_fault, setup),
	    cmocka_unit_test_setup(test_blk_ipi_costly, setup),
	    cmocka_unit_test_setup(test_order, setup),
	    cmocka_unit_test_setup(test_recorded, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

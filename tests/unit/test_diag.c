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

#define NCPU 4

/* A snapshot of every subsystem at light load, where nothing is wrong. */
static struct snapshot *quiet(void)
{
	struct snap_cpu *cpus = xcalloc(NCPU, sizeof(*cpus));
	struct snap_thread *threads = xcalloc(4, sizeof(*threads));
	struct snapshot *s = snapshot_new();
	s->backend = "engine";
	s->interval_s = 1;
	s->governor = GOV_PERFORMANCE;
	s->governor_emulated = true;
	s->ncpus = NCPU;
	for (int i = 0; i < NCPU; i++)
		cpus[i] = (struct snap_cpu){.id = i, .llc = i / 2, .online = true, .load_pct = 20};
	s->cpus = cpus;
	s->nthreads = 3;
	threads[0] = (struct snap_thread){.name = "pmd-c:0",
					  .subsys = SUBSYS_PMD,
					  .cpu_pct = 30,
					  .runq_delay_pct = 2,
					  .timer_slack_ns = 1000};
	threads[1] = (struct snap_thread){.name = "est-k:0",
					  .subsys = SUBSYS_EST,
					  .cpu_pct = 5,
					  .runq_delay_pct = 1,
					  .timer_slack_ns = 50000};
	threads[2] = (struct snap_thread){.name = "blk-irq",
					  .subsys = SUBSYS_BLK,
					  .cpu_pct = 20,
					  .runq_delay_pct = 1,
					  .timer_slack_ns = 50000};
	s->threads = threads;
	for (int k = 0; k < K_COUNT; k++)
		s->knobs[k] = knob_table[k].def;

	s->has_pmd = true;
	struct pmd_snap *p = &s->pmd;
	p->maxsleep_us = s->knobs[K_PMD_MAXSLEEP_US] = 50;
	p->timer_slack_ns = s->knobs[K_PMD_TIMER_SLACK_NS] = 1000;
	p->rxq_size = s->knobs[K_PMD_RXQ_SIZE] = 32;
	s->knobs[K_PMD_RXQS] = 1;
	p->nthreads = 1;
	struct pmd_thread_snap *t = &p->threads[0];
	snprintf(t->name, sizeof(t->name), "pmd-c:0");
	t->rx_pps = 600000;
	t->rx_drop_pps = 300;
	t->drop_pct = 0.05;
	t->iterations = 100000;
	t->busy_pct = 60;
	t->sleep_iters = 20000;
	t->sleep_us_avg = 12;
	t->overshoot_p50_us = 10;
	t->overshoot_p99_us = 40;
	t->drops_while_asleep_pct = 90;
	t->cpu_pct = 60;
	t->stolen_pct = 3;
	t->timer_slack_ns = 1000;

	s->has_est = true;
	struct est_snap *e = &s->est;
	e->estimators = 2000;
	e->placed = 2000;
	e->kthreads = e->kthread_slots = 1;
	e->max_threads = 64;
	e->chain_max = 24;
	e->max_per_kthread = 57600;
	e->ticks = 25;
	e->tick_ns_avg = 3500000;
	e->tick_ns_max = 4000000;
	e->calib.count = 1;
	e->calib.chain_max = 24;
	e->calib.governor = GOV_PERFORMANCE;
	e->nkt = 1;
	e->kt[0] = (struct est_kt_snap){.id = 0, .estimators = 2000, .cpu_pct = 5};

	s->has_blk = true;
	struct blk_snap *b = &s->blk;
	b->rq_affinity = s->knobs[K_BLK_RQ_AFFINITY] = 1;
	b->iops = 120000;
	b->ipis_per_s = 18000;
	b->irq_cpu = 0;
	b->submitters = 4;
	b->in_flight = 40;
	return s;
}

static struct diag_state st;
static uint64_t seq;

/* One sample of s through st: the number of findings, the first copied to *f. */
static int feed(struct snapshot *s, struct diag_finding *f)
{
	struct diag_finding out[DIAG_MAX_FINDINGS];
	s->seq = ++seq;
	s->wall_ns = seq * 1000000000ULL;
	int n = diag_eval(&st, s, out, DIAG_MAX_FINDINGS);
	if (f && n > 0)
		*f = out[0];
	return n;
}

static int setup(void **state)
{
	diag_init(&st);
	seq = 0;
	return 0;
}

static bool has_id(struct snapshot *s, const char *id, struct diag_finding *got)
{
	struct diag_finding out[DIAG_MAX_FINDINGS];
	s->seq = ++seq;
	s->wall_ns = seq * 1000000000ULL;
	int n = diag_eval(&st, s, out, DIAG_MAX_FINDINGS);
	for (int i = 0; i < n; i++)
		if (strcmp(out[i].id, id) == 0) {
			if (got)
				*got = out[i];
			return true;
		}
	return false;
}

/* Fires on the 3rd sample of its condition (not before), since the 1st; clears on the 3rd
 * clean one; the events name the start (with the fix) and the clear. */
static void expect_cycle(struct snapshot *bad, struct snapshot *good, const char *id, int k,
			 const char *fix)
{
	struct diag_finding f;
	uint64_t first = seq + 1;
	for (int i = 1; i < k; i++)
		assert_false(has_id(bad, id, NULL));
	assert_true(has_id(bad, id, &f));
	assert_int_equal(f.since_seq, first);
	assert_string_equal(f.fix, fix);
	assert_true(f.nevidence > 0);
	assert_true(strlen(f.conclusion) > 20);
	struct diag_change c[DIAG_MAX_FINDINGS];
	int nc = diag_changes(&st, c, DIAG_MAX_FINDINGS);
	bool started = false;
	for (int i = 0; i < nc; i++)
		started |= c[i].started && strcmp(c[i].id, id) == 0 && strstr(c[i].text, fix);
	assert_true(started);
	assert_true(has_id(bad, id, NULL)); /* still there: no second start */
	assert_int_equal(diag_changes(&st, c, DIAG_MAX_FINDINGS), 0);
	for (int i = 1; i < k; i++)
		assert_true(has_id(good, id, NULL)); /* held through k-1 clean samples */
	assert_false(has_id(good, id, NULL));
	nc = diag_changes(&st, c, DIAG_MAX_FINDINGS);
	assert_int_equal(nc, 1);
	assert_false(c[0].started);
	assert_string_equal(c[0].id, id);
}

static void test_quiet(void **state)
{
	struct snapshot *s = quiet();
	for (int i = 0; i < 20; i++)
		assert_int_equal(feed(s, NULL), 0);
	snapshot_free(s);
}

/* The OVS report: 50 us slack, 60+ us sleeps, a 32-descriptor ring full in 53 us. */
static void pmd_seed(struct snapshot *s)
{
	struct pmd_thread_snap *t = &s->pmd.threads[0];
	s->pmd.timer_slack_ns = s->knobs[K_PMD_TIMER_SLACK_NS] = 50000;
	t->timer_slack_ns = 50000;
	t->sleep_us_avg = 71;
	t->overshoot_p50_us = 62;
	t->overshoot_p99_us = 90;
	t->drop_pct = 16;
	t->rx_drop_pps = 100000;
	t->rx_pps = 500000;
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
	bad->est.tick_ns_avg = bad->est.tick_ns_max = 3000000;
	good->governor = GOV_ONDEMAND;
	good->est.calib.single_est_ns = 2200;
	good->est.tick_ns_per_est = 2500; /* 1.14 x: the spread of one governor */
	expect_cycle(bad, good, "est.tick_miscalibrated", 3, "est.recalibrate=1");
	struct diag_finding f;
	for (int i = 0; i < 3; i++)
		has_id(bad, "est.tick_miscalibrated", &f);
	assert_true(has_id(bad, "est.tick_miscalibrated", &f));
	/* est-k:0 ran 5 % and waited 1 % of the interval: 5300 x 5/6. */
	assert_non_null(strstr(f.conclusion, "4417 ns (less the 1% of the interval they waited "
					     "for a CPU) against the 2200 ns"));
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
	/* Calibrated under performance, now ondemand, but est-k:0 ran 5 % and waited 10 %
	 * of the interval: it ran a third of its ticks' wall time, 1767 ns per estimator. */
	diag_init(&st);
	s->est.calib.governor = GOV_PERFORMANCE;
	s->governor = GOV_ONDEMAND;
	s->threads[1].runq_delay_pct = 10;
	for (int i = 0; i < 6; i++)
		assert_false(has_id(s, "est.tick_miscalibrated", NULL));
	/* Waiting 2 %: 5300 x 5/7 = 3786 ns is still 1.7 x: the governor's, said less the
	 * host's part. */
	diag_init(&st);
	s->threads[1].runq_delay_pct = 2;
	struct diag_finding f;
	for (int i = 0; i < 2; i++)
		assert_false(has_id(s, "est.tick_miscalibrated", NULL));
	assert_true(has_id(s, "est.tick_miscalibrated", &f));
	assert_non_null(strstr(f.conclusion, "3786 ns (less the 2% of the interval"));
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
	    cmocka_unit_test_setup(test_pmd_outlasts_host_absent, setup),
	    cmocka_unit_test_setup(test_pmd_outlasts_live_ovs, setup),
	    cmocka_unit_test_setup(test_hysteresis_flap, setup),
	    cmocka_unit_test_setup(test_pmd_polling_idle, setup),
	    cmocka_unit_test_setup(test_est_tick_miscal, setup),
	    cmocka_unit_test_setup(test_est_kthread, setup),
	    cmocka_unit_test_setup(test_est_kthreads_short, setup),
	    cmocka_unit_test_setup(test_blk_stranded, setup),
	    cmocka_unit_test_setup(test_blk_irq_saturated, setup),
	    cmocka_unit_test_setup(test_blk_irq_saturated_fault, setup),
	    cmocka_unit_test_setup(test_blk_ipi_costly, setup),
	    cmocka_unit_test_setup(test_host_taken, setup),
	    cmocka_unit_test_setup(test_est_tick_host_first, setup),
	    cmocka_unit_test_setup(test_host_taken_every_other, setup),
	    cmocka_unit_test_setup(test_pmd_outlasts_host_first, setup),
	    cmocka_unit_test_setup(test_order, setup),
	    cmocka_unit_test_setup(test_recorded, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

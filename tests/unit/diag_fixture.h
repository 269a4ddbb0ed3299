/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag_fixture.h: the snapshots and the feeding the diagnosis tests share (test_diag.c,
 * test_diag_host.c): a quiet engine snapshot, the OVS report's PMD, one diag_state fed a sample
 * at a time, and the start-and-clear cycle a rule must make. */
#ifndef TT_DIAG_FIXTURE_H
#define TT_DIAG_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/governor.h"
#include "core/xalloc.h"
#include "diag/diag.h"

#define NCPU 4

static struct diag_state st;
static uint64_t seq;

/* A snapshot of every subsystem at light load, where nothing is wrong. */
static inline struct snapshot *quiet(void)
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

/* One sample of s through st: the number of findings, the first copied to *f. */
static inline int feed(struct snapshot *s, struct diag_finding *f)
{
	struct diag_finding out[DIAG_MAX_FINDINGS];
	s->seq = ++seq;
	s->wall_ns = seq * 1000000000ULL;
	int n = diag_eval(&st, s, out, DIAG_MAX_FINDINGS);
	if (f && n > 0)
		*f = out[0];
	return n;
}

static inline int setup(void **state)
{
	diag_init(&st);
	seq = 0;
	return 0;
}

static inline bool has_id(struct snapshot *s, const char *id, struct diag_finding *got)
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
static inline void expect_cycle(struct snapshot *bad, struct snapshot *good, const char *id, int k,
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

/* The OVS report: 50 us slack, 60+ us sleeps, a 32-descriptor ring full in 53 us. */
static inline void pmd_seed(struct snapshot *s)
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

#endif

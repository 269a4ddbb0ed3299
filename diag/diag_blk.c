/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag_blk.c: the blk rules: stranded completions, a saturated interrupt CPU, costly IPIs
 * (docs/diag.md). */
#include <stdio.h>

#include "diag/diag_rule.h"

/* An interrupt CPU this busy is the bottleneck rq_affinity 0 makes of it (docs/blk.md). */
#define DIAG_BLK_IRQ_BUSY_PCT 85.0
/* ... and one under this has room to complete its own LLC's requests (rq_affinity 1). */
#define DIAG_BLK_IRQ_IDLE_PCT 50.0
/* One IPI per ten completions: fewer cost too little to weigh against rq_affinity 1's
 * work on the interrupt CPU (blk-steer: 0.13-0.24 at 2, 0.11-0.15 at 1). */
#define DIAG_BLK_IPI_PER_COMPLETION 0.1
/* ... of which at least this part would stay on the interrupt CPU's LLC at rq_affinity 1
 * (blk-steer: blk-sub:0 of 4 shares CPU 0's LLC, 25 %). */
#define DIAG_BLK_LLC_SHARE 0.1
/* Below this the figures are too few to weigh. */
#define DIAG_BLK_MIN_IOPS 1000.0

static double diag_blk_cpu_load(const struct snapshot *s, int cpu)
{
	for (int i = 0; i < s->ncpus; i++)
		if (s->cpus[i].id == cpu)
			return diag_fig(s->cpus[i].load_pct);
	return -1;
}

/*
 * The 2008 lost kick (docs/blk.md): a remote CPU's done list got a completion but no IPI,
 * so it sits there and its submitter waits forever (state D).
 */
static bool diag_blk_stranded(const struct snapshot *s, struct diag_finding *f)
{
	const struct blk_snap *b = &s->blk;
	if (!s->has_blk || snapshot_absent(s, "blk.hung") || !b->hung || b->hung_submitters < 1)
		return false;
	f->severity = DIAG_CRITICAL;
	diag_evidence_add(f, b->hung_submitters, "threads", "blk.hung_submitters");
	diag_evidence_add(f, (double)b->in_flight, "reqs", "blk.in_flight");
	diag_evidence_add(f, (double)b->lost_kicks, "drains", "blk.lost_kicks");
	diag_evidence_add(f, (double)b->ipis_sent, "ipis", "blk.ipis_sent");
	diag_evidence_add(f, (double)b->rq_affinity, "", "blk.rq_affinity");
	if (b->fault_lost_kick || b->lost_kicks > 0) {
		diag_conclude(f,
			      "%d submitters wait on requests that completed none in the interval: "
			      "completions are stranded on a remote CPU's done list that no IPI "
			      "kicked (%s, %llu lost kicks counted).",
			      b->hung_submitters,
			      b->fault_lost_kick ? "the lost-kick fault is on" : "a lost kick",
			      (unsigned long long)b->lost_kicks);
		if (b->fault_lost_kick && !s->knob_absent[K_BLK_FAULT_LOST_KICK])
			diag_fix(f, "blk.fault_lost_kick=off");
	} else {
		diag_conclude(f,
			      "%d submitters wait on requests that completed none in the interval, "
			      "with %llu in flight.",
			      b->hung_submitters, (unsigned long long)b->in_flight);
	}
	return true;
}

/* rq_affinity 0: every completion runs where the interrupt came (docs/blk.md). */
static bool diag_blk_irq_saturated(const struct snapshot *s, struct diag_finding *f)
{
	const struct blk_snap *b = &s->blk;
	if (!s->has_blk || s->knob_absent[K_BLK_RQ_AFFINITY] || b->rq_affinity != 0 ||
	    diag_fig(b->iops) < DIAG_BLK_MIN_IOPS)
		return false;
	double load = diag_blk_cpu_load(s, b->irq_cpu);
	if (load < DIAG_BLK_IRQ_BUSY_PCT)
		return false;
	f->severity = DIAG_WARNING;
	diag_evidence_add(f, load, "%", "cpu.cpus[%d].load_pct", b->irq_cpu);
	diag_evidence_add(f, diag_fig(b->irq_cpu_pct), "%", "blk.cpu_pct.irq");
	diag_evidence_add(f, diag_fig(b->iops), "iops", "blk.iops");
	diag_evidence_add(f, 0, "", "blk.rq_affinity");
	diag_conclude(f,
		      "at rq_affinity 0 the interrupt CPU %d completes every request and is %.0f%% "
		      "busy: it bounds the IOPS.",
		      b->irq_cpu, load);
	diag_fix(f, "blk.rq_affinity=2");
	return true;
}

/* The emulated CPU's LLC, -1 unknown. */
static int diag_blk_cpu_llc(const struct snapshot *s, int cpu)
{
	for (int i = 0; i < s->ncpus; i++)
		if (s->cpus[i].id == cpu)
			return s->cpus[i].llc;
	return -1;
}

/* Every CPU in one LLC: rq_affinity 1 then completes every request where the interrupt came. */
static bool diag_blk_one_llc(const struct snapshot *s)
{
	for (int i = 1; i < s->ncpus; i++)
		if (s->cpus[i].llc != s->cpus[0].llc)
			return false;
	return s->ncpus > 0 && s->cpus[0].llc >= 0;
}

/*
 * The part of the completions submitted on another CPU of the interrupt CPU's LLC: at
 * rq_affinity 2 each is an IPI to its submitter's CPU, at 1 it completes where the
 * interrupt came (docs/blk.md). From the submit x complete matrix; -1 without one.
 */
static double diag_blk_llc_share(const struct snapshot *s)
{
	const struct blk_snap *b = &s->blk;
	int llc = diag_blk_cpu_llc(s, b->irq_cpu);
	if (llc < 0 || b->matrix_n < 2)
		return -1;
	double near = 0, all = 0;
	for (int r = 0; r < b->matrix_n && r < BLK_MATRIX_MAX; r++)
		for (int c = 0; c < b->matrix_n && c < BLK_MATRIX_MAX; c++) {
			double v = diag_fig(b->matrix_per_s[r][c]);
			all += v;
			if (r != b->irq_cpu && diag_blk_cpu_llc(s, r) == llc)
				near += v;
		}
	return all > 0 ? near / all : -1;
}

/* rq_affinity 2 kicks every submitter's CPU while the interrupt CPU has room (docs/blk.md). */
static bool diag_blk_ipi_costly(const struct snapshot *s, struct diag_finding *f)
{
	const struct blk_snap *b = &s->blk;
	if (!s->has_blk || s->knob_absent[K_BLK_RQ_AFFINITY] || b->rq_affinity != 2 ||
	    diag_fig(b->iops) < DIAG_BLK_MIN_IOPS || snapshot_absent(s, "blk.ipis_per_s"))
		return false;
	double per = diag_fig(b->ipis_per_s) / diag_fig(b->iops);
	double load = diag_blk_cpu_load(s, b->irq_cpu);
	double share = diag_blk_llc_share(s);
	if (per < DIAG_BLK_IPI_PER_COMPLETION || share < DIAG_BLK_LLC_SHARE || load < 0 ||
	    load >= DIAG_BLK_IRQ_IDLE_PCT)
		return false;
	f->severity = DIAG_INFO;
	diag_evidence_add(f, per, "ipis/completion", "blk.ipis_per_completion");
	diag_evidence_add(f, share * 100, "%", "blk.irq_llc_remote_pct");
	diag_evidence_add(f, diag_fig(b->ipis_per_s), "ipis/s", "blk.ipis_per_s");
	diag_evidence_add(f, diag_fig(b->iops), "iops", "blk.iops");
	diag_evidence_add(f, load, "%", "cpu.cpus[%d].load_pct", b->irq_cpu);
	diag_evidence_add(f, 2, "", "blk.rq_affinity");
	if (diag_blk_one_llc(s))
		diag_conclude(
		    f,
		    "rq_affinity 2 sends %.2f IPIs per completion while the interrupt CPU "
		    "%d is only %.0f%% busy; every CPU shares its LLC (one LLC), so "
		    "rq_affinity 1 completes every request there: the %.0f%% submitted on "
		    "other CPUs without an IPI.",
		    per, b->irq_cpu, load, share * 100);
	else
		diag_conclude(
		    f,
		    "rq_affinity 2 sends %.2f IPIs per completion while the interrupt CPU "
		    "%d is only %.0f%% busy; %.0f%% of the completions come from other "
		    "CPUs of its LLC, which rq_affinity 1 completes there without an IPI.",
		    per, b->irq_cpu, load, share * 100);
	diag_fix(f, "blk.rq_affinity=1");
	return true;
}

const struct diag_rule diag_rules_blk[] = {
    {"blk.stranded_completions", diag_blk_stranded, 2, 2, 0},
    {"blk.irq_cpu_saturated", diag_blk_irq_saturated, 3, 3, 0},
    {"blk.ipi_costly", diag_blk_ipi_costly, 3, 3, 0},
};
const int diag_rules_blk_n = sizeof(diag_rules_blk) / sizeof(diag_rules_blk[0]);

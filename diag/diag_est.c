/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag_est.c: the est rules: a chain_max from another governor, a kthread over budget, kthreads
 * short (docs/diag.md). */
#include <math.h>
#include <stdio.h>

#include "core/governor.h"
#include "diag/diag_rule.h"

/* IPVS_EST_CHAIN_FACTOR x 100 us: the time a tick should take (docs/est.md §1). */
#define DIAG_EST_TICK_GOAL_NS 4800000.0
/* A tick 20 % over the goal: calibrations under one governor spread by about that much
 * (docs/est.md, `experiment calib`), so less is not a wrong chain_max. */
#define DIAG_EST_TICK_OVER 1.2
/* A kthread 20 % over its 1/8 of a CPU (EST_KTHREAD_GOAL_PCT), for the same reason. */
#define DIAG_EST_KT_OVER 1.2
/* An est row comes round once per 2 s period (docs/est.md §1), and a margin. */
#define DIAG_EST_ROW_PERIOD_NS 2500000000ULL
/* Kthreads allowed per CPU of the cpulist (IPVS_EST_CPU_KTHREADS, docs/est.md §1). */
#define DIAG_EST_CPU_KTHREADS 4

/* The governor differs from the one chain_max was calibrated under. */
static bool diag_est_governor_moved(const struct snapshot *s)
{
	return s->est.calib.count > 0 && s->governor >= 0 && s->est.calib.governor >= 0 &&
	       s->governor != s->est.calib.governor;
}

/* An estimator 30 % slower than calibrated: ticks under the calibration's own governor run
 * 0.9 to 1.15 x single_est_ns per estimator visited (est-only, quiet machine), ticks after a
 * move from performance to ondemand 1.7 to 2.7 x. */
#define DIAG_EST_PER_EST_OVER 1.3

/* How fast a governor runs a busy CPU: performance at once, the dynamic ones after a ramp,
 * powersave never (docs/est.md). */
static int diag_est_gov_rank(int g)
{
	switch (g) {
	case GOV_PERFORMANCE:
		return 0;
	case GOV_POWERSAVE:
		return 2;
	default:
		return 1;
	}
}

/*
 * The IPVS thread (docs/est.md): chain_max calibrated under performance, then ondemand
 * runs every chain slower, so a tick takes 7 ms against 4.8. The figure compared is the
 * tick time per estimator visited against the calibration's single_est_ns: a tick whose
 * row is not full never reaches 4.8 ms however slow each estimator is, and how far from
 * 4.8 ms a full row lands depends on how fast the machine is. A source without the
 * per-estimator figure (a recording from before it) is judged by the tick against the goal.
 * The host first: a tick is timed by the wall clock, so it includes the time the kthread
 * waited for a CPU. The kthreads' CPU per estimator visited is the work alone: the smaller of
 * the two is judged. (Their run-queue share over the interval says little of one tick's wait:
 * with one row, 1 tick in 50 has work and most of the wait falls on the empty ones.) An
 * interval with no tick with work cannot say (undecided), and a governor faster than the
 * calibration's cannot lengthen a tick at all.
 */
static bool diag_est_tick_miscal(const struct snapshot *s, struct diag_finding *f)
{
	const struct est_snap *e = &s->est;
	/* As the JSON keeps it (2 decimals), so a replay judges the same. */
	double per_est_ns = diag_fig(e->tick_ns_per_est);
	if (!s->has_est || e->config_held || e->ticks == 0 || !diag_est_governor_moved(s) ||
	    diag_est_gov_rank(s->governor) < diag_est_gov_rank(e->calib.governor))
		return false;
	struct diag_host_share h = diag_host_share(s, SUBSYS_EST);
	double calib = (double)e->calib.single_est_ns, cpv = diag_est_cpu_per_visit(s);
	bool per_est = per_est_ns > 0 && calib > 0;
	if (per_est && cpv == 0) {
		f->undecided = true; /* the per-estimator figure is an older interval's */
		return false;
	}
	/* The share of the wall-clock figure that was the kthreads' own work. */
	double run = per_est && cpv > 0 ? fmin(1.0, cpv / per_est_ns) : diag_host_run_share(&h);
	double own_per_est = per_est_ns * run, own_tick = (double)e->tick_ns_avg * run;
	if (per_est ? own_per_est <= calib * DIAG_EST_PER_EST_OVER
		    : own_tick <= DIAG_EST_TICK_GOAL_NS * DIAG_EST_TICK_OVER)
		return false;
	f->severity = DIAG_WARNING;
	diag_evidence_add(f, (double)e->tick_ns_avg / 1e6, "ms", "est.tick_ns.avg");
	diag_evidence_add(f, (double)e->tick_ns_max / 1e6, "ms", "est.tick_ns.max");
	diag_evidence_add(f, DIAG_EST_TICK_GOAL_NS / 1e6, "ms", "est.tick_goal");
	if (per_est)
		diag_evidence_add(f, per_est_ns, "ns", "est.tick_ns.per_est");
	if (cpv > 0)
		diag_evidence_add(f, cpv, "ns", "est.kthread_cpu_ns_per_visit");
	diag_evidence_add(f, e->calib.chain_max, "ests", "est.calibration.chain_max");
	diag_evidence_add(f, calib, "ns", "est.calibration.single_est_ns");
	if (h.runq > 0)
		diag_evidence_add(f, h.runq, "%", "threads[est].runq_delay_pct");
	const char *was = cpu_governor_name((enum cpu_governor)e->calib.governor);
	char host[96] = "";
	if (run < 0.95)
		snprintf(host, sizeof(host),
			 " of CPU (%.0f ns by the clock: the rest waited for one)", per_est_ns);
	if (per_est)
		diag_conclude(
		    f,
		    "each estimator takes %.0f ns%s against the %.0f ns calibrated under %s, "
		    "so with the governor now %s a full tick of chain_max %d takes about "
		    "%.1f ms against the 4.8 ms goal.",
		    own_per_est, host, calib, was, snapshot_governor_name(s), e->calib.chain_max,
		    DIAG_EST_TICK_GOAL_NS / 1e6 * own_per_est / calib);
	else
		diag_conclude(
		    f,
		    "ticks take %.1f ms%s against the 4.8 ms goal: chain_max %d was calibrated "
		    "under %s and the governor is now %s.",
		    own_tick / 1e6, run < 0.95 ? " (less the time they waited for a CPU)" : "",
		    e->calib.chain_max, was, snapshot_governor_name(s));
	diag_fix(f, "est.recalibrate=1");
	return true;
}

/* A kthread over its 1/8 of a CPU (IPVS_EST_LOAD_DIVISOR, docs/est.md §1). */
static bool diag_est_kt_over(const struct snapshot *s, struct diag_finding *f)
{
	const struct est_snap *e = &s->est;
	if (!s->has_est || e->config_held || e->nkt == 0)
		return false;
	int worst = -1;
	for (int i = 0; i < e->nkt && i < EST_SNAP_MAX_KT; i++)
		if (diag_fig(e->kt[i].cpu_pct) > EST_KTHREAD_GOAL_PCT * DIAG_EST_KT_OVER &&
		    (worst < 0 || diag_fig(e->kt[i].cpu_pct) > diag_fig(e->kt[worst].cpu_pct)))
			worst = i;
	if (worst < 0)
		return false;
	const struct est_kt_snap *k = &e->kt[worst];
	f->severity = DIAG_WARNING;
	diag_evidence_add(f, diag_fig(k->cpu_pct), "%", "est.kthread[%d].cpu_pct", worst);
	diag_evidence_add(f, EST_KTHREAD_GOAL_PCT, "%", "est.kthread_goal_pct");
	diag_evidence_add(f, (double)k->estimators, "ests", "est.kthread[%d].estimators", worst);
	diag_evidence_add(f, e->chain_max, "ests", "est.chain_max");
	diag_conclude(
	    f, "est-k:%d takes %.1f%% of a CPU against the kernel's 1/8 (12.5%%)%s.", k->id,
	    diag_fig(k->cpu_pct),
	    diag_est_governor_moved(s) ? ": chain_max was calibrated under another governor" : "");
	if (diag_est_governor_moved(s))
		diag_fix(f, "est.recalibrate=1");
	return true;
}

/* Estimators left unestimated on the temp list because no kthread may start (docs/est.md §2). */
static bool diag_est_kthreads_short(const struct snapshot *s, struct diag_finding *f)
{
	const struct est_snap *e = &s->est;
	if (!s->has_est || e->config_held || e->pending == 0 || e->max_threads <= 0 ||
	    e->kthread_slots < e->max_threads || e->max_per_kthread == 0)
		return false;
	uint64_t need = (e->estimators + e->max_per_kthread - 1) / e->max_per_kthread;
	f->severity = DIAG_CRITICAL;
	diag_evidence_add(f, (double)e->pending, "ests", "est.pending");
	diag_evidence_add(f, (double)e->estimators, "ests", "est.estimators");
	diag_evidence_add(f, (double)e->max_per_kthread, "ests", "est.max_per_kthread");
	diag_evidence_add(f, e->max_threads, "kthreads", "est.max_threads");
	diag_evidence_add(f, (double)need, "kthreads", "est.kthreads_needed");
	diag_conclude(f,
		      "%llu estimators need %llu kthreads of %llu each but only %d may run, so "
		      "%llu are never estimated.",
		      (unsigned long long)e->estimators, (unsigned long long)need,
		      (unsigned long long)e->max_per_kthread, e->max_threads,
		      (unsigned long long)e->pending);
	/* The kthreads may use 4 per CPU of the cpulist, and the cpulist holds at most the
	 * CPUs there are (engine: cpu.count). */
	uint64_t cpus = (need + DIAG_EST_CPU_KTHREADS - 1) / DIAG_EST_CPU_KTHREADS;
	if (!s->knob_absent[K_EST_CPULIST_CPUS] && cpus <= (uint64_t)s->ncpus)
		diag_fix(f, "est.cpulist_cpus=%llu", (unsigned long long)cpus);
	return true;
}

const struct diag_rule diag_rules_est[] = {
    /* An est row with work comes round once per 2 s: at -d 0.5 three samples in four have
     * no tick with work, and the figure that says so must still make 3 in a row. */
    {"est.tick_miscalibrated", diag_est_tick_miscal, 3, 3, DIAG_EST_ROW_PERIOD_NS},
    {"est.kthread_over_budget", diag_est_kt_over, 3, 3, 0},
    {"est.kthreads_short", diag_est_kthreads_short, 3, 3, 0},
};
const int diag_rules_est_n = sizeof(diag_rules_est) / sizeof(diag_rules_est[0]);

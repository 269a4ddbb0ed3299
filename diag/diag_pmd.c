/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag_pmd.c: the PMD rules: a sleep that outlasts the rx ring, busy polling an idle PMD
 * (docs/diag.md). */
#include <math.h>
#include <stdio.h>

#include "diag/diag_rule.h"

/* Drops this small are noise (the thread's fix leaves 0.02-0.06 %, docs/pmd.md §5). */
#define DIAG_PMD_DROP_PCT 0.5
/* Most drops fell while the PMD slept: the sleep, not the PMD's speed, lost them. */
#define DIAG_PMD_ASLEEP_DROP_PCT 50.0
/* OVS's own slack since v3.1.0 (PMD_TIMER_RES_NS, docs/pmd.md §1.5). */
#define DIAG_PMD_SLACK_FIX_NS 1000
/* DPDK's default rx descriptors (NIC_PORT_DEFAULT_RXQ_SIZE, docs/pmd.md §4): the ring of
 * a source that does not report one (the host). */
#define DIAG_PMD_DEFAULT_RXQ 2048
/* Busy share (of non-sleep cycles) under which a polling PMD is idle. */
#define DIAG_PMD_IDLE_BUSY_PCT 10.0
/* ... and CPU over which busy polling costs something worth saving. */
#define DIAG_PMD_POLL_CPU_PCT 50.0
/* A wake-up on a VM takes tens of us past the request and slack (docs/pmd.md §5): the
 * margin a suggested max sleep leaves under the ring's fill time. */
#define DIAG_PMD_WAKE_US 20.0
/* An idle PMD at 500 us already uses ~3 % CPU (docs/pmd.md, make bench): longer sleeps
 * save little more and delay the first packet of a burst. */
#define DIAG_PMD_MAXSLEEP_CAP_US 500
/* OVS's cap on the max sleep (PMD_RCU_QUIESCE_INTERVAL, docs/pmd.md §1.1). */
#define DIAG_PMD_MAXSLEEP_MAX_US 10000

/* Descriptors a PMD's sources fill before dropping: its rx rings together (the source
 * offers to them in turn). */
static double diag_pmd_ring_descs(const struct snapshot *s)
{
	double rxq = s->pmd.rxq_size > 0 ? (double)s->pmd.rxq_size : DIAG_PMD_DEFAULT_RXQ;
	int64_t nq =
	    s->knob_absent[K_PMD_RXQS] || s->knobs[K_PMD_RXQS] < 1 ? 1 : s->knobs[K_PMD_RXQS];
	return rxq * (double)nq;
}

static int64_t diag_pmd_slack_ns(const struct snapshot *s, const struct pmd_thread_snap *t)
{
	if (t->timer_slack_ns >= 0)
		return t->timer_slack_ns;
	return s->knob_absent[K_PMD_TIMER_SLACK_NS] ? -1 : s->pmd.timer_slack_ns;
}

/* The overshoot p50/p99 of t, own figures first, else the eBPF probe's; false when neither. */
static bool diag_pmd_overshoot(const struct snapshot *s, const struct pmd_thread_snap *t,
			       double *p50, double *p99)
{
	if (!snapshot_absent(s, "pmd.sleep_overshoot_us") && t->sleep_iters > 0) {
		*p50 = diag_fig(t->overshoot_p50_us);
		*p99 = diag_fig(t->overshoot_p99_us);
		return true;
	}
	if (t->bpf && t->bpf_sleeps > 0) {
		*p50 = diag_fig(t->bpf_overshoot_p50_us);
		*p99 = diag_fig(t->bpf_overshoot_p99_us);
		return true;
	}
	return false;
}

/*
 * The OVS report (docs/pmd.md §5): a sleep (request + overshoot) longer than the time
 * the rx ring takes to fill, with the drops falling while the PMD sleeps.
 */
static bool diag_pmd_outlasts(const struct snapshot *s, struct diag_finding *f)
{
	if (!s->has_pmd || snapshot_absent(s, "pmd.rx_drop_pps"))
		return false;
	double descs = diag_pmd_ring_descs(s);
	int worst = -1;
	double worst_over = 0, w50 = 0, w99 = 0, wfill = 0, wrate = 0, wos99 = 0;
	for (int i = 0; i < s->pmd.nthreads && i < PMD_SNAP_MAX; i++) {
		const struct pmd_thread_snap *t = &s->pmd.threads[i];
		double os50, os99;
		if (t->no_rate || !diag_pmd_overshoot(s, t, &os50, &os99))
			continue;
		double rate =
		    diag_fig(t->rx_pps) + diag_fig(t->rx_drop_pps); /* what arrives at its rings */
		if (rate < 1 || diag_fig(t->drop_pct) < DIAG_PMD_DROP_PCT ||
		    diag_fig(t->drops_while_asleep_pct) < DIAG_PMD_ASLEEP_DROP_PCT)
			continue;
		double fill_us = descs / rate * 1e6;
		double req = diag_fig(t->sleep_us_avg) -
			     os50; /* the request: average sleep less the overshoot */
		if (req < 0)
			req = 0;
		double s50 = req + os50, s99 = req + os99;
		if (s99 <= fill_us || s99 - fill_us <= worst_over)
			continue;
		/* The host first: with the host holding the PMD, a wake-up is late by its wait
		 * for a CPU. If the sleep the slack and a wake-up explain ends before the ring
		 * fills, the long sleeps are the host's (host.cpu_taken names them). */
		int64_t tslack = diag_pmd_slack_ns(s, t);
		if (diag_fig(t->stolen_pct) >= DIAG_HOST_TAKEN_PCT && tslack >= 0 &&
		    req + fmin(os99, (double)tslack / 1e3 + DIAG_PMD_WAKE_US) <= fill_us)
			continue;
		worst = i, worst_over = s99 - fill_us, w50 = s50, w99 = s99, wfill = fill_us,
		wrate = rate, wos99 = os99;
	}
	if (worst < 0)
		return false;
	const struct pmd_thread_snap *t = &s->pmd.threads[worst];
	int64_t slack = diag_pmd_slack_ns(s, t);
	f->severity = w50 > wfill ? DIAG_CRITICAL : DIAG_WARNING;
	diag_evidence_add(f, w50, "us", "pmd.threads[%d].sleep_p50_us", worst);
	diag_evidence_add(f, w99, "us", "pmd.threads[%d].sleep_p99_us", worst);
	diag_evidence_add(f, wfill, "us", "pmd.threads[%d].ring_fill_us", worst);
	diag_evidence_add(f, descs, "descs", "pmd.rxq_size");
	diag_evidence_add(f, wrate, "pps", "pmd.threads[%d].arrival_pps", worst);
	diag_evidence_add(f, diag_fig(t->drop_pct), "%", "pmd.threads[%d].drop_pct", worst);
	diag_evidence_add(f, diag_fig(t->drops_while_asleep_pct), "%",
			  "pmd.threads[%d].drops_while_asleep_pct", worst);
	if (slack >= 0)
		diag_evidence_add(f, (double)slack, "ns", "pmd.threads[%d].timer_slack_ns", worst);
	char host[96] = "";
	if (diag_fig(t->stolen_pct) >= DIAG_HOST_TAKEN_PCT) {
		diag_evidence_add(f, diag_fig(t->stolen_pct), "%", "pmd.threads[%d].stolen_pct",
				  worst);
		snprintf(host, sizeof(host),
			 " (the host took %.0f%% of its time, so part of that is the host's)",
			 diag_fig(t->stolen_pct));
	}
	diag_conclude(
	    f,
	    "%s sleeps %.0f us (p50, %.0f us p99)%s but its %.0f-descriptor rx ring fills "
	    "in %.0f us at %.0f kpps, so %.1f%% of its packets drop, %.0f%% of them while "
	    "it sleeps.",
	    t->name, w50, w99, host, descs, wfill, wrate / 1e3, diag_fig(t->drop_pct),
	    diag_fig(t->drops_while_asleep_pct));
	if (slack > DIAG_PMD_SLACK_FIX_NS) {
		diag_fix(f, "pmd.timer_slack_ns=%d", DIAG_PMD_SLACK_FIX_NS);
	} else if (!s->knob_absent[K_PMD_MAXSLEEP_US]) {
		/* The slack is already OVS's: only a shorter sleep (or none) keeps it under. */
		long x = (long)floor(wfill - wos99 - DIAG_PMD_WAKE_US);
		if (x >= s->pmd.maxsleep_us)
			x = s->pmd.maxsleep_us / 2;
		diag_fix(f, "pmd.maxsleep_us=%ld", x > 0 ? x : 0L);
	}
	return true;
}

/* Busy polling with almost nothing to do: the CPU sleeping would save (docs/pmd.md §1). */
static bool diag_pmd_polling_idle(const struct snapshot *s, struct diag_finding *f)
{
	if (!s->has_pmd || s->knob_absent[K_PMD_MAXSLEEP_US] || s->pmd.maxsleep_us != 0 ||
	    s->pmd.nthreads < 1)
		return false;
	double busy = 0, cpu = 0, rate_max = 0;
	int n = 0;
	for (int i = 0; i < s->pmd.nthreads && i < PMD_SNAP_MAX; i++) {
		const struct pmd_thread_snap *t = &s->pmd.threads[i];
		if (t->no_rate || t->iterations == 0)
			return false;
		busy += diag_fig(t->busy_pct);
		cpu += diag_fig(t->cpu_pct);
		double rate =
		    diag_fig(t->rx_pps) +
		    (snapshot_absent(s, "pmd.rx_drop_pps") ? 0 : diag_fig(t->rx_drop_pps));
		if (rate > rate_max)
			rate_max = rate;
		n++;
	}
	busy /= n;
	cpu /= n;
	if (busy >= DIAG_PMD_IDLE_BUSY_PCT || cpu < DIAG_PMD_POLL_CPU_PCT)
		return false;
	double descs = diag_pmd_ring_descs(s);
	double fill_us = rate_max >= 1 ? descs / rate_max * 1e6 : INFINITY;
	int64_t slack =
	    s->knob_absent[K_PMD_TIMER_SLACK_NS] ? DIAG_PMD_SLACK_FIX_NS : s->pmd.timer_slack_ns;
	/* The longest sleep whose overshoot (slack + wake-up) still ends before the ring fills. */
	double x = fill_us - (double)slack / 1e3 - DIAG_PMD_WAKE_US;
	if (x > DIAG_PMD_MAXSLEEP_CAP_US)
		x = DIAG_PMD_MAXSLEEP_CAP_US;
	if (x < 1)
		return false; /* the ring fills faster than any sleep: polling is right */
	f->severity = DIAG_INFO;
	diag_evidence_add(f, 0, "us", "pmd.maxsleep_us");
	diag_evidence_add(f, busy, "%", "pmd.threads[avg].busy_pct");
	diag_evidence_add(f, cpu, "%", "pmd.threads[avg].cpu_pct");
	if (isfinite(fill_us))
		diag_evidence_add(f, fill_us, "us", "pmd.ring_fill_us");
	diag_evidence_add(f, (double)slack, "ns", "pmd.timer_slack_ns");
	diag_conclude(f,
		      "the PMDs poll without sleeping at %.0f%% CPU each while only %.1f%% of "
		      "their cycles are busy; a %.0f us max sleep ends before the rx ring fills.",
		      cpu, busy, floor(x));
	diag_fix(f, "pmd.maxsleep_us=%.0f",
		 floor(x) < DIAG_PMD_MAXSLEEP_MAX_US ? floor(x) : DIAG_PMD_MAXSLEEP_MAX_US);
	return true;
}

const struct diag_rule diag_rules_pmd[] = {
    {"pmd.sleep_outlasts_ring", diag_pmd_outlasts, 3, 3},
    {"pmd.polling_idle", diag_pmd_polling_idle, 3, 3},
};
const int diag_rules_pmd_n = sizeof(diag_rules_pmd) / sizeof(diag_rules_pmd[0]);

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag_pmd.c: the PMD rules: a sleep that outlasts the rx ring, busy polling an idle PMD
 * (docs/diag.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diag/diag_rule.h"

/* Drops this small are noise (the thread's fix leaves 0.02-0.06 %, docs/pmd.md §5). */
#define DIAG_PMD_DROP_PCT 0.5
/* The advice's drop budget (`experiment sweep --drop-budget`, 0.1 %): drops over it with a
 * coarse sleep increment are the increment's (pmd.sleep_inc_coarse). */
#define DIAG_PMD_INC_DROP_PCT 0.1
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

/* A live OVS (docs/diag.md, pmd.sleep_outlasts_ring on a live OVS): the rx drops of t's ports as
 * ovsdb counts them (rx_dropped, else rx_missed_errors), each port's rate shared among its rx
 * queues, the share of the queues t polls; false when they cannot be joined (no queue of t's core,
 * no counter). */
static bool diag_pmd_host_drops(const struct snapshot *s, const struct pmd_thread_snap *t,
				double *drop_pps)
{
	const struct host_snap *h = &s->host;
	int core = -1;
	for (int j = 0; j < h->novs_pmds && j < HOST_SNAP_MAX_OVS_PMDS; j++)
		if (strcmp(h->ovs_pmds[j].name, t->name) == 0)
			core = h->ovs_pmds[j].core_id;
	bool any = false;
	*drop_pps = 0;
	for (int q = 0; core >= 0 && q < h->novs_rxqs && q < HOST_SNAP_MAX_RXQS; q++) {
		const struct host_ovs_rxq_snap *rq = &h->ovs_rxqs[q];
		if (rq->core_id != core || !rq->enabled)
			continue;
		int nq = 0;
		for (int k = 0; k < h->novs_rxqs && k < HOST_SNAP_MAX_RXQS; k++)
			nq += h->ovs_rxqs[k].enabled && strcmp(h->ovs_rxqs[k].port, rq->port) == 0;
		for (int f = 0; f < h->novs_ifaces && f < HOST_SNAP_MAX_IFACES; f++) {
			const struct host_ovs_iface_snap *i = &h->ovs_ifaces[f];
			double r = i->drop_per_s[0] >= 0 ? i->drop_per_s[0] : i->drop_per_s[2];
			if (strcmp(i->name, rq->port) != 0 || r < 0)
				continue;
			*drop_pps += r / (nq > 0 ? nq : 1);
			any = true;
		}
	}
	return any;
}

/* The overshoot p50/p99 of t, own figures first, else the eBPF probe's; on a live OVS without
 * the probe, its timer slack and a wake-up (*floor: a lower bound); false when none. */
static bool diag_pmd_overshoot(const struct snapshot *s, const struct pmd_thread_snap *t,
			       double *p50, double *p99, bool *floor)
{
	*floor = false;
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
	int64_t slack = diag_pmd_slack_ns(s, t);
	if (s->has_host && slack >= 0) {
		*p50 = *p99 = (double)slack / 1e3 + DIAG_PMD_WAKE_US;
		*floor = true;
		return true;
	}
	return false;
}

/* One PMD judged by pmd.sleep_outlasts_ring: its sleep against its ring's fill time. */
struct diag_sleep {
	int i;
	double over, s50, s99, fill, rate, os99, drop_pct, asleep_pct;
	bool live_ovs; /* drops from ovsdb's interface counters; no "while asleep" share */
	bool floor; /* the overshoot is the slack and a wake-up: a lower bound */
};

/* PMD i's case, or false: it drops at least DIAG_PMD_DROP_PCT, mostly while asleep (the engine
 * says; a live OVS cannot), and its p99 sleep outlasts the ring, by more than the host took. */
static bool diag_pmd_sleep_case(const struct snapshot *s, int i, double descs, struct diag_sleep *c)
{
	const struct pmd_thread_snap *t = &s->pmd.threads[i];
	double os50, drops;
	*c = (struct diag_sleep){.i = i};
	if (t->no_rate || !diag_pmd_overshoot(s, t, &os50, &c->os99, &c->floor))
		return false;
	c->live_ovs = snapshot_absent(s, "pmd.rx_drop_pps");
	if (c->live_ovs && !diag_pmd_host_drops(s, t, &drops))
		return false;
	if (!c->live_ovs)
		drops = diag_fig(t->rx_drop_pps);
	c->rate = diag_fig(t->rx_pps) + drops; /* what arrives at its rings */
	c->drop_pct = !c->live_ovs  ? diag_fig(t->drop_pct)
		      : c->rate > 0 ? 100.0 * drops / c->rate
				    : 0;
	c->asleep_pct = c->live_ovs ? -1 : diag_fig(t->drops_while_asleep_pct);
	if (c->rate < 1 || c->drop_pct < DIAG_PMD_DROP_PCT ||
	    (!c->live_ovs && c->asleep_pct < DIAG_PMD_ASLEEP_DROP_PCT))
		return false;
	c->fill = descs / c->rate * 1e6;
	/* The request: the average sleep less the overshoot (a live OVS without it: none). */
	double req = fmax(0, (t->sleep_us_avg >= 0 ? diag_fig(t->sleep_us_avg) : 0) - os50);
	c->s50 = req + os50, c->s99 = req + c->os99, c->over = c->s99 - c->fill;
	/* The host first: with the host holding the PMD, a wake-up is late by its wait for a
	 * CPU. If the sleep the slack and a wake-up explain ends before the ring fills, the long
	 * sleeps are the host's (host.cpu_taken names them). The ring fills at the traffic's rate,
	 * the arrivals the host kept from its source too (host_lost_pps): counting only what
	 * arrived, a loaded host's thinner traffic excused the 50 us slack that drops 14 %. */
	int64_t slack = diag_pmd_slack_ns(s, t);
	double lost =
	    isfinite(t->host_lost_pps) && t->host_lost_pps > 0 ? diag_fig(t->host_lost_pps) : 0;
	if (diag_fig(t->stolen_pct) >= DIAG_HOST_TAKEN_PCT && slack >= 0 &&
	    req + fmin(c->os99, (double)slack / 1e3 + DIAG_PMD_WAKE_US) <=
		descs / (c->rate + lost) * 1e6)
		return false;
	return c->over > 0;
}

/* The other PMDs whose sleeps outlast their rings too, each with its drops and busy share: the
 * thread's two PMDs differ (one 100 % busy, one 66 % and dropping), and the one with cycles to
 * spare is the one that sleeps (docs/pmd.md §5). "" when w is the only one. */
static void diag_pmd_others(const struct snapshot *s, const struct diag_sleep *w, double descs,
			    char *buf, size_t len)
{
	struct diag_sleep c;
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; i < s->pmd.nthreads && i < PMD_SNAP_MAX && n + 1 < len; i++) {
		if (i == w->i || !diag_pmd_sleep_case(s, i, descs, &c))
			continue;
		const struct pmd_thread_snap *t = &s->pmd.threads[i];
		int k = snprintf(buf + n, len - n, "; %s too: %.1f%% (busy %.0f%%)", t->name,
				 c.drop_pct, diag_fig(t->busy_pct));
		n = k > 0 && (size_t)k < len - n ? n + (size_t)k : n;
	}
}

/* The finding of the worst case w: evidence, the sentence, the fix. */
static void diag_pmd_sleep_finding(const struct snapshot *s, const struct diag_sleep *w,
				   double descs, struct diag_finding *f)
{
	const struct pmd_thread_snap *t = &s->pmd.threads[w->i];
	int64_t slack = diag_pmd_slack_ns(s, t);
	int n = w->i;
	f->severity = w->s50 > w->fill ? DIAG_CRITICAL : DIAG_WARNING;
	diag_evidence_add(f, w->s50, "us", "pmd.threads[%d].sleep_p50_us", n);
	diag_evidence_add(f, w->s99, "us", "pmd.threads[%d].sleep_p99_us", n);
	diag_evidence_add(f, w->fill, "us", "pmd.threads[%d].ring_fill_us", n);
	diag_evidence_add(f, descs, "descs", "pmd.rxq_size");
	diag_evidence_add(f, w->rate, "pps", "pmd.threads[%d].arrival_pps", n);
	diag_evidence_add(f, w->drop_pct, "%", "pmd.threads[%d].drop_pct", n);
	if (!w->live_ovs)
		diag_evidence_add(f, w->asleep_pct, "%", "pmd.threads[%d].drops_while_asleep_pct",
				  n);
	if (slack >= 0)
		diag_evidence_add(f, (double)slack, "ns", "pmd.threads[%d].timer_slack_ns", n);
	char host[96] = "", why[96] = "";
	if (diag_fig(t->stolen_pct) >= DIAG_HOST_TAKEN_PCT) {
		diag_evidence_add(f, diag_fig(t->stolen_pct), "%", "pmd.threads[%d].stolen_pct", n);
		snprintf(host, sizeof(host),
			 " (the host took %.0f%% of its time: part is the host's)",
			 diag_fig(t->stolen_pct));
	}
	if (w->live_ovs) /* the interfaces' counters say how many, not when */
		snprintf(why, sizeof(why), " (its ports' rx drops in ovsdb)");
	else /* the thread's point: it sleeps with CPU to spare rather than forward */
		snprintf(why, sizeof(why),
			 ", %.0f%% of them while it sleeps (busy %.0f%% of its waking cycles, "
			 "%.0f%% CPU)",
			 w->asleep_pct, diag_fig(t->busy_pct), diag_fig(t->cpu_pct));
	char others[96];
	diag_pmd_others(s, w, descs, others, sizeof(others));
	diag_conclude(f,
		      "%s sleeps %s%.0f us (p50, %.0f us p99)%s but its %.0f-descriptor rx ring "
		      "fills in %.0f us at %.0f kpps, so %.1f%% of its packets drop%s%s.",
		      t->name, w->floor ? "at least " : "", w->s50, w->s99, host, descs, w->fill,
		      w->rate / 1e3, w->drop_pct, why, others);
	if (slack > DIAG_PMD_SLACK_FIX_NS) {
		diag_fix(f, "pmd.timer_slack_ns=%d", DIAG_PMD_SLACK_FIX_NS);
	} else if (!s->knob_absent[K_PMD_MAXSLEEP_US]) {
		/* The slack is already OVS's: only a shorter sleep (or none) keeps it under. */
		long x = (long)floor(w->fill - w->os99 - DIAG_PMD_WAKE_US);
		if (x >= s->pmd.maxsleep_us)
			x = s->pmd.maxsleep_us / 2;
		diag_fix(f, "pmd.maxsleep_us=%ld", x > 0 ? x : 0L);
	}
}

/*
 * The OVS report (docs/pmd.md §5): a sleep (request + overshoot) longer than the time
 * the rx ring takes to fill, with the drops falling while the PMD sleeps. On a live OVS the
 * drops are its ports' counters and the overshoot at least the slack (docs/diag.md).
 */
static bool diag_pmd_outlasts(const struct snapshot *s, struct diag_finding *f)
{
	if (!s->has_pmd)
		return false;
	double descs = diag_pmd_ring_descs(s);
	struct diag_sleep w = {.i = -1}, c;
	for (int i = 0; i < s->pmd.nthreads && i < PMD_SNAP_MAX; i++)
		if (diag_pmd_sleep_case(s, i, descs, &c) && (w.i < 0 || c.over > w.over))
			w = c;
	if (w.i < 0)
		return false;
	diag_pmd_sleep_finding(s, &w, descs, f);
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

/*
 * The OVS report's second fix (docs/pmd.md §5): with the slack at 1 us, set the sleep increment
 * back to 1 us. A coarser step reaches the max sleep in a few idle iterations, so a burst finds
 * the PMD asleep: on-off traffic at 10 us drops 5 to 30 times what 1 us does, 0.2 to 3 % against
 * 0.02 to 0.1 % (docs/conclusions.md, O5), under the 0.5 % floor of pmd.sleep_outlasts_ring but
 * over the advice's budget (`experiment sweep --drop-budget`, 0.1 %).
 */
static bool diag_pmd_inc_coarse(const struct snapshot *s, struct diag_finding *f)
{
	if (!s->has_pmd || s->knob_absent[K_PMD_SLEEP_INC_US] ||
	    s->knob_absent[K_PMD_MAXSLEEP_US] || s->pmd.sleep_inc_us <= 1 ||
	    s->pmd.maxsleep_us <= 0)
		return false;
	int w = -1;
	for (int i = 0; i < s->pmd.nthreads && i < PMD_SNAP_MAX; i++) {
		const struct pmd_thread_snap *t = &s->pmd.threads[i];
		int64_t slack = diag_pmd_slack_ns(s, t);
		/* The slack first (pmd.sleep_outlasts_ring): the thread's order of the two fixes.
		 */
		if (t->no_rate || slack < 0 || slack > DIAG_PMD_SLACK_FIX_NS ||
		    diag_fig(t->drop_pct) < DIAG_PMD_INC_DROP_PCT ||
		    diag_fig(t->drops_while_asleep_pct) < DIAG_PMD_ASLEEP_DROP_PCT)
			continue;
		if (w < 0 || diag_fig(t->drop_pct) > diag_fig(s->pmd.threads[w].drop_pct))
			w = i;
	}
	if (w < 0)
		return false;
	const struct pmd_thread_snap *t = &s->pmd.threads[w];
	int64_t inc = s->pmd.sleep_inc_us, max = s->pmd.maxsleep_us;
	f->severity = DIAG_WARNING;
	diag_evidence_add(f, (double)inc, "us", "pmd.sleep_inc_us");
	diag_evidence_add(f, (double)max, "us", "pmd.maxsleep_us");
	diag_evidence_add(f, diag_fig(t->drop_pct), "%", "pmd.threads[%d].drop_pct", w);
	diag_evidence_add(f, diag_fig(t->drops_while_asleep_pct), "%",
			  "pmd.threads[%d].drops_while_asleep_pct", w);
	diag_evidence_add(f, DIAG_PMD_INC_DROP_PCT, "%", "pmd.drop_budget_pct");
	char host[96] = "";
	if (diag_fig(t->stolen_pct) >= DIAG_HOST_TAKEN_PCT) {
		diag_evidence_add(f, diag_fig(t->stolen_pct), "%", "pmd.threads[%d].stolen_pct", w);
		snprintf(host, sizeof(host),
			 " (the host took %.0f%% of its time: part is the host's)",
			 diag_fig(t->stolen_pct));
	}
	diag_conclude(f,
		      "%s drops %.2f%% of its packets, %.0f%% while it sleeps, over the 0.1%% "
		      "budget%s: a %lld us sleep increment reaches the %lld us max sleep in %lld "
		      "idle iterations, so a burst finds it asleep; 1 us ramps up smoothly.",
		      t->name, diag_fig(t->drop_pct), diag_fig(t->drops_while_asleep_pct), host,
		      (long long)inc, (long long)max, (long long)((max + inc - 1) / inc));
	diag_fix(f, "pmd.sleep_inc_us=1");
	return true;
}

const struct diag_rule diag_rules_pmd[] = {
    {"pmd.sleep_outlasts_ring", diag_pmd_outlasts, 3, 3, 0},
    {"pmd.sleep_inc_coarse", diag_pmd_inc_coarse, 3, 3, 0},
    {"pmd.polling_idle", diag_pmd_polling_idle, 3, 3, 0},
};
const int diag_rules_pmd_n = sizeof(diag_rules_pmd) / sizeof(diag_rules_pmd[0]);

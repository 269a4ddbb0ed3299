/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_pmdsec.c: the pmd section on the host, read from ovs-vswitchd over JSON-RPC (perf-show,
 * stats-show, rxq-show) and ovsdb (max sleep, Interface statistics). Rates come from deltas
 * over the interval; a counter's first sample has none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/pmd_cost.h"
#include "core/xalloc.h"
#include "backends/host/host_bpf.h"
#include "backends/host/ovs/host_ovshist.h"
#include "backends/host/host_int.h"

/* 3.1 has no pmd-sleep-show (docs/pmd.md §10): that decides the key read and set. Returns
 * -1 when the socket failed (not probed yet), else 0. */
static int host_pmdsec_probe_now(struct host_state *h)
{
	char *res = NULL;
	int rc = host_ovs_call(h->ovs, "dpif-netdev/pmd-sleep-show", NULL, 0, &res, h->ovs_err,
			       sizeof(h->ovs_err));
	free(res);
	h->ovs_answering = rc >= 0;
	if (rc < 0)
		return -1;
	h->ovs_sleep_show = rc == 0;
	if (rc == 1)
		h->ovs_err[0] = '\0'; /* "not a valid command": an older OVS, not a failure */
	h->ovs_probed = true;
	return 0;
}

void host_pmdsec_probe(struct host_state *h)
{
	if (h->ovs)
		host_pmdsec_probe_now(h);
}

/* The other_config key this OVS reads (pmd-sleep-max on 3.2+, pmd-maxsleep on 3.1). */
static const char *host_pmdsec_key(const struct host_state *h)
{
	return h->ovs_sleep_show ? "pmd-sleep-max" : "pmd-maxsleep";
}

static bool host_ovsdb_ready(struct host_state *h)
{
	char path[600];
	if (!h->ovs)
		return false;
	host_ovs_db_path(h->ovs, path, sizeof(path));
	if (!h->ovsdb)
		h->ovsdb = host_ovsdb_new(path);
	else
		host_ovsdb_set_path(h->ovsdb, path); /* the ctl socket's directory may have moved */
	return true;
}

/* taken: ovs-vswitchd has reconfigured with this read's other_config (cur_cfg reached a write's
 * next_cfg); else it has when it caught up with ovsdb (cur_cfg == next_cfg) and answers now. */
void host_pmdsec_maxsleep_from(struct host_state *h, const struct host_ovsdb_read *r, bool taken)
{
	snprintf(h->maxsleep_val, sizeof(h->maxsleep_val), "%s", r->has_key ? r->value : "");
	if (!taken)
		taken = h->ovs_answering && (r->cur_cfg < 0 || r->cur_cfg >= r->next_cfg);
	if (!taken)
		return; /* vswitchd still runs with what it last took: that stays the value */
	/* What OVS makes of the string, not the string: 3.1 clamps "99999" to 10000 and turns
	 * "50,1:100" (a 3.3 list it cannot read) into 0, sleeping off. */
	h->maxsleep_us = host_ovs_maxsleep_applied(r->has_key ? r->value : NULL, h->ovs_sleep_show);
	h->have_maxsleep = true;
}

void host_pmdsec_dbread(struct host_state *h)
{
	h->dbread_ok = false;
	if (!h->ovs_probed || !host_ovsdb_ready(h))
		return;
	if (!h->dbread)
		h->dbread = xmalloc(sizeof(*h->dbread));
	h->dbread_ok = host_ovsdb_read(h->ovsdb, host_pmdsec_key(h), h->dbread, h->ovsdb_err,
				       sizeof(h->ovsdb_err)) == 0;
	if (h->dbread_ok) {
		h->dbread_ns = clock_mono_ns();
		h->ovsdb_err[0] = '\0';
		host_pmdsec_maxsleep_from(h, h->dbread, false);
	}
	/* A failed read keeps the value last read: ovsdb down changes nothing in vswitchd, which
	 * runs with what it last took from ovsdb; the ovsdb error is shown beside it. */
}

/* Whether thread tid belongs to the ovs-vswitchd we read (vpid 0: unknown, any). Joined by
 * tid: snap->threads lacks the threads gone since the scan, so its positions are not h->cur's. */
static bool host_pmd_ours(const struct host_state *h, pid_t tid, pid_t vpid)
{
	const struct host_thread_info *c = host_slack_cur_of(h, tid);
	return c && (!vpid || c->pid == vpid);
}

/*
 * Sum the CPU% of this ovs-vswitchd's threads named as OVS names a PMD: "pmd-c<core>/id:<n>".
 * A second ovs-vswitchd on the host (a test's dummy one, a container's) names its PMD on the
 * same core alike; its pid tells them apart.
 */
double host_pmdsec_cpu(const struct host_state *h, const struct snapshot *snap, pid_t vpid,
		       int core, char *name, size_t len, bool *fresh, double *runq)
{
	char prefix[24];
	double pct = 0;
	snprintf(prefix, sizeof(prefix), "pmd-c%02d/", core);
	snprintf(name, len, "pmd-c%02d", core);
	*fresh = true;
	*runq = -1;
	for (size_t i = 0; i < snap->nthreads; i++)
		if (strncmp(snap->threads[i].name, prefix, strlen(prefix)) == 0 &&
		    host_pmd_ours(h, snap->threads[i].tid, vpid)) {
			pct += snap->threads[i].cpu_pct;
			snprintf(name, len, "%s", snap->threads[i].name);
			/* Its run-queue delay (schedstat): the time the host took from it. */
			double rq = snap->threads[i].runq_delay_pct;
			*runq = *fresh ? rq : (*runq < 0 || rq < 0 ? -1 : *runq + rq);
			*fresh = false;
		}
	if (*runq > 100.0)
		*runq = 100.0; /* one core's PMD: the host took at most the whole window */
	return pct;
}

static int host_read_timerslack(const struct host_state *h, const char *comm, pid_t vpid)
{
	for (size_t i = 0; i < h->ncur; i++)
		if (strcmp(h->cur[i].comm, comm) == 0 && (!vpid || h->cur[i].pid == vpid)) {
			char path[96];
			long v = -1;
			/* Per thread, but only under /proc/<tid>/ (there is no task/ entry). */
			snprintf(path, sizeof(path), "/proc/%d/timerslack_ns", (int)h->cur[i].tid);
			FILE *f = fopen(path, "re");
			if (f) {
				if (fscanf(f, "%ld", &v) != 1)
					v = -1;
				fclose(f);
			}
			return (int)v;
		}
	return -1;
}

static void host_pmdsec_fail(struct host_state *h, struct host_snap *hs)
{
	snprintf(hs->ovs_error, sizeof(hs->ovs_error), "%s", h->ovs_err);
	/* No baseline across a gap: the next good sample starts again without rates. */
	h->have_perf_prev = h->have_stats_prev = false;
	h->stats_prev_ns = 0;
	h->nsusp_prev = 0;
}

/* One sample's replies: pmd-perf-show (with its histograms), pmd-stats-show, pmd-rxq-show. */
struct host_pmdsec_reads {
	struct host_ovs_perf perf;
	struct host_ovs_stats st;
	struct host_ovs_rxqs rq;
	struct host_ovs_hists hists;
	bool st_ok, rq_ok;
	uint64_t st_ns; /* CLOCK_MONOTONIC when pmd-stats-show's reply came */
	double st_dt_s; /* the time since the last one, 0 when none */
};

/* The three calls into r: 0, or -1 when OVS did not answer (h->ovs_err says why). Every call
 * is bounded (host_rpc.c); the first that fails ends this sample's OVS part, so a silent
 * server costs one deadline a sample, not one per command. */
static int host_pmdsec_read(struct host_state *h, struct host_pmdsec_reads *r)
{
	char *text = NULL;
	int rc = host_ovs_call(h->ovs, "dpif-netdev/pmd-perf-show", NULL, 0, &text, h->ovs_err,
			       sizeof(h->ovs_err));
	h->ovs_answering = rc >= 0;
	if (rc != 0 || host_ovs_parse_perf(text, &r->perf) != 0) {
		if (rc == 0)
			snprintf(h->ovs_err, sizeof(h->ovs_err), "pmd-perf-show: unexpected reply");
		free(text);
		return -1;
	}
	/* The histograms are in the same reply (none when pmd-perf-metrics is off). */
	if (host_ovs_parse_hists(text, &r->hists) != 0)
		r->hists.npmds = 0;
	free(text);
	text = NULL;
	rc = host_ovs_call(h->ovs, "dpif-netdev/pmd-stats-show", NULL, 0, &text, h->ovs_err,
			   sizeof(h->ovs_err));
	if (rc < 0) {
		free(text);
		return -1;
	}
	r->st_ok = rc == 0 && host_ovs_parse_stats(text, &r->st) == 0;
	/* pmd-stats-show has no duration of its own: its rates are over the time between its
	 * replies, not between sample starts (the reads before it vary with the load). */
	r->st_ns = clock_mono_ns();
	r->st_dt_s = r->st_ok && h->stats_prev_ns && r->st_ns > h->stats_prev_ns
			 ? (double)(r->st_ns - h->stats_prev_ns) / 1e9
			 : 0;
	free(text);
	text = NULL;
	rc = host_ovs_call(h->ovs, "dpif-netdev/pmd-rxq-show", NULL, 0, &text, h->ovs_err,
			   sizeof(h->ovs_err));
	r->rq_ok = rc == 0 && host_ovs_parse_rxqs(text, &r->rq) == 0;
	free(text);
	return rc < 0 ? -1 : 0;
}

/* The max sleep in force, read every sample: a change made with ovs-vsctl shows. OVS's own
 * report (3.2+) first: it is what the PMDs use, also when vswitchd has not taken an ovsdb
 * write yet. Else the ovsdb string as this OVS parses it (3.1). */
static void host_pmdsec_maxsleep(struct host_state *h, struct host_snap *hs, struct pmd_snap *p)
{
	struct host_ovs_sleep sl;
	sl.default_us = -1;
	sl.npmds = 0;
	if (h->ovs_sleep_show) {
		char *t = NULL;
		if (host_ovs_call(h->ovs, "dpif-netdev/pmd-sleep-show", NULL, 0, &t, h->ovs_err,
				  sizeof(h->ovs_err)) == 0)
			host_ovs_parse_sleep(t, &sl);
		free(t);
	}
	h->sleep_show_us = sl.default_us;
	if (sl.default_us >= 0) {
		p->maxsleep_us = sl.default_us;
		hs->ovs_maxsleep_source = "pmd-sleep-show";
	} else if (h->have_maxsleep) {
		p->maxsleep_us = h->maxsleep_us;
		hs->ovs_maxsleep_source = "ovsdb";
	} else {
		p->maxsleep_us = -1;
		hs->ovs_maxsleep_source = "unknown";
	}
}

/* busy/idle: processing and idle cycles of pmd-stats-show over the interval. */
static void host_pmdsec_busy(const struct host_state *h, const struct host_pmdsec_reads *r,
			     int core_id, struct pmd_thread_snap *t)
{
	const struct host_pmd_stats *sc = r->st_ok ? host_pmd_stats_find(&r->st, core_id) : NULL;
	const struct host_pmd_stats *so =
	    h->have_stats_prev ? host_pmd_stats_find(&h->stats_prev, core_id) : NULL;
	uint64_t dbusy, didle;
	if (sc && so && sc->has_cycles && so->has_cycles &&
	    host_counter_delta(sc->proc_cycles, so->proc_cycles, &dbusy) &&
	    host_counter_delta(sc->idle_cycles, so->idle_cycles, &didle) && dbusy + didle > 0) {
		t->busy_pct = 100.0 * (double)dbusy / (double)(dbusy + didle);
		t->idle_pct = 100.0 - t->busy_pct;
	} else {
		t->busy_pct = t->idle_pct = -1; /* no cycles moved, or none reported */
	}
}

/* The rates of one PMD over OVS's interval pdt_s, from its counters now (c) and before (o);
 * true when its sleep time was beyond the interval (then capped). */
static bool host_pmdsec_rates(struct pmd_thread_snap *t, const struct host_pmd_perf *c,
			      const struct host_pmd_perf *o, double pdt_s)
{
	bool sleep_bad = false;
	uint64_t it = c->iterations - o->iterations, sit = c->sleep_iter - o->sleep_iter;
	double slept = c->sleep_us >= o->sleep_us ? c->sleep_us - o->sleep_us : 0;
	/* A thread is asleep at most the whole interval; OVS's own "Sleep time" is sometimes
	 * far beyond it (seen on a VM: 1.5e17 us). Such a figure is capped at the interval and
	 * named in the absent list rather than shown as 1e11 %. The 1 % margin allows for the
	 * sample's own timing. */
	if (slept > pdt_s * 1e6 * 1.01) {
		slept = pdt_s * 1e6;
		sleep_bad = true;
	}
	t->iterations = it;
	t->sleep_iters = sit;
	t->sleep_iter_pct = it ? 100.0 * (double)(sit < it ? sit : it) / (double)it : 0;
	t->sleep_us_avg = sit ? slept / (double)sit : 0;
	t->asleep_pct = slept / 1e4 / pdt_s; /* us asleep over the interval, % */
	t->rx_pps = (double)(c->rx_packets - o->rx_packets) / pdt_s;
	t->tx_pps =
	    c->tx_packets >= o->tx_packets ? (double)(c->tx_packets - o->tx_packets) / pdt_s : 0;
	return sleep_bad;
}

/* PMD i of pmd-perf-show into p->threads[i]; true when its sleep time was beyond the
 * interval. */
static bool host_pmdsec_thread(struct host_state *h, struct snapshot *snap,
			       const struct host_pmdsec_reads *r, int i, pid_t vpid, double dt_s)
{
	struct pmd_snap *p = &snap->pmd;
	const struct host_pmd_perf *c = &r->perf.pmd[i], *o = NULL;
	struct pmd_thread_snap *t = &p->threads[i];
	bool fresh_thread;
	for (int j = 0; h->have_perf_prev && j < h->perf_prev.npmds; j++)
		if (h->perf_prev.pmd[j].core_id == c->core_id)
			o = &h->perf_prev.pmd[j];
	/* pmd-stats-clear resets the counters at an unknown moment: no rate then. */
	if (o && (c->iterations < o->iterations || c->rx_packets < o->rx_packets ||
		  c->sleep_iter < o->sleep_iter))
		o = NULL;
	t->cpu_pct = host_pmdsec_cpu(h, snap, vpid, c->core_id, t->name, sizeof(t->name),
				     &fresh_thread, &t->stolen_pct);
	if (p->timer_slack_ns < 0) {
		int s = host_read_timerslack(h, t->name, vpid);
		if (s >= 0)
			p->timer_slack_ns = s;
	}
	t->rx_packets = c->rx_packets;
	t->tx_packets = c->tx_packets;
	t->sleep_iters_total = c->sleep_iter; /* "so far"; sleep_iters is the interval's */
	/* The interval the deltas were counted in is OVS's: the difference of this PMD's two
	 * "Measurement duration" figures. Tunetop's own sample-to-sample time also holds the
	 * reads before pmd-perf-show (threads, taskstats, ovsdb), whose length varies with the
	 * load; it serves only when OVS gives no duration. */
	double pdt_s = dt_s;
	if (o && c->duration_s >= 0 && o->duration_s >= 0)
		pdt_s = c->duration_s - o->duration_s;
	t->no_rate = !o || pdt_s <= 0;
	if (t->no_rate)
		return false;
	bool sleep_bad = host_pmdsec_rates(t, c, o, pdt_s);
	host_pmdsec_busy(h, r, c->core_id, t);
	if (fresh_thread)
		t->cpu_pct = -1;
	p->offered_pps += t->rx_pps;
	return sleep_bad;
}

/* The eBPF probe's overshoot (the host's only one) and what the host cannot measure. */
static void host_pmdsec_absent(struct host_state *h, struct snapshot *snap, const pid_t *row_tid,
			       bool sleep_bad)
{
	struct host_snap *hs = &snap->host;
	struct pmd_snap *p = &snap->pmd;
	if (p->timer_slack_ns < 0)
		host_absent(hs, "pmd.timer_slack_ns");
	/* OVS counts drops per interface (ovsdb), not per PMD: the rows' drop figures, the
	 * section's sums of them and the engine's ring figures are not the host's to give.
	 * The rows' drop_pct and drops_while_asleep are named by their row path, since the
	 * section has fields of those names too. */
	static const char *const no_drops[] = {"pmd.rx_drop_pps",
					       "pmd.tx_drop_pps",
					       "pmd.threads.drop_pct",
					       "pmd.rx_drops",
					       "pmd.tx_drops",
					       "pmd.dropped_pps",
					       "pmd.drops_while_asleep",
					       "pmd.threads.drops_while_asleep",
					       "pmd.drops_while_asleep_pct",
					       "pmd.host_lost_pps",
					       "pmd.host_lost",
					       "pmd.rxq_size",
					       "pmd.in_rings"};
	for (size_t i = 0; i < sizeof(no_drops) / sizeof(no_drops[0]); i++)
		host_absent(hs, no_drops[i]);
	if (host_bpf_pmdsec(h->bpf, h->bpf_err, snap, row_tid)) {
		/* The kernel's figure is the only one the host has: shown as the PMD's own. */
		for (int i = 0; i < p->nthreads; i++) {
			p->threads[i].overshoot_p50_us = p->threads[i].bpf_overshoot_p50_us;
			p->threads[i].overshoot_p99_us = p->threads[i].bpf_overshoot_p99_us;
		}
	} else {
		host_absent(hs, "pmd.sleep_overshoot_us");
	}
	if (sleep_bad) {
		host_absent(hs, "pmd.asleep_pct");
		host_absent(hs, "pmd.sleep_us_avg");
	}
	/* CPU per packet and the share of the time left: thread CPU, schedstat's run-queue
	 * delay and OVS's rx (core/pmd_cost.c); unknown where one of them is. */
	pmd_cost_fill(p, false);
	if (p->stolen_pct < 0)
		host_absent(hs, "pmd.stolen_pct"); /* no schedstat, or a first sample */
	if (p->cpu_ns_per_pkt < 0)
		host_absent(hs, "pmd.cpu_ns_per_pkt"); /* no packets, no baseline or no CPU */
	if (p->cpu_left_pct < 0)
		host_absent(hs, "pmd.cpu_left_pct");
	p->target_pps = -1; /* a live OVS has no generator */
	host_absent(hs, "pmd.drop_pct");
	host_absent(hs, "pmd.totals");
	host_absent(hs, "pmd.gen_rate_pps");
}

void host_pmdsec_sample(struct host_state *h, struct snapshot *snap, double dt_s)
{
	struct host_snap *hs = &snap->host;
	struct pmd_snap *p = &snap->pmd;
	struct host_pmdsec_reads *r = xcalloc(1, sizeof(*r));

	snprintf(hs->ovs_socket, sizeof(hs->ovs_socket), "%s", host_ovs_path(h->ovs));
	host_pmdsec_ifaces(h, hs);
	/* !ovs_probed: host_sample() asked already, and it failed. */
	if (!h->ovs_probed || host_pmdsec_read(h, r) != 0) {
		free(r);
		host_pmdsec_fail(h, hs);
		return;
	}
	hs->ovs = true;
	hs->ovs_error[0] = '\0';
	snap->has_pmd = true;
	memset(p, 0, sizeof(*p));
	host_pmdsec_maxsleep(h, hs, p);
	p->sleep_inc_us = 1; /* PMD_SLEEP_INC_US in every release (docs/pmd.md §1.1) */
	p->timer_slack_ns = -1;
	/* A real NIC drops what arrives while the host holds a PMD into its own counters: no
	 * traffic is lost to the host apart (docs/pmd.md "What the host took"). */
	p->host_lost_pps = p->host_lost_pct = -1;

	p->nthreads = r->perf.npmds < PMD_SNAP_MAX ? r->perf.npmds : PMD_SNAP_MAX;
	pid_t vpid = host_slack_ovs_pid(h);
	bool sleep_bad = false; /* some PMD's sleep time exceeded the interval */
	for (int i = 0; i < p->nthreads; i++)
		sleep_bad |= host_pmdsec_thread(h, snap, r, i, vpid, dt_s);
	pid_t row_tid[PMD_SNAP_MAX];
	host_slack_pmdsec(h, snap, row_tid);
	for (int i = 0; i < p->nthreads; i++) {
		p->threads[i].tid = row_tid[i];
		p->threads[i].host_lost_pps = -1;
	}
	host_pmdsec_extras(h, snap, r->st_dt_s, &r->st, r->st_ok, &r->rq, r->rq_ok);
	host_pmdsec_hists(h, hs, &r->hists, &r->perf);
	if (r->st_ok)
		h->stats_prev_ns = r->st_ns;
	host_pmdsec_absent(h, snap, row_tid, sleep_bad);
	h->perf_prev = r->perf;
	h->have_perf_prev = true;
	free(r);
}

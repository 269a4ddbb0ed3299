/* host_pmdsec.c: the pmd section on the host, read from ovs-vswitchd over JSON-RPC. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "backends/host_bpf.h"
#include "backends/host_int.h"

void host_pmdsec_probe(struct host_state *h)
{
	char *res = NULL;
	/* 3.1 has no pmd-sleep-show (docs/pmd.md §10): that decides the key we set. */
	int rc = host_ovs_call(h->ovs, "dpif-netdev/pmd-sleep-show", NULL, 0, &res, h->ovs_err,
			       sizeof(h->ovs_err));
	h->ovs_sleep_show = rc == 0;
	if (rc == 1)
		h->ovs_err[0] = '\0'; /* "not a valid command": an older OVS, not a failure */
	free(res);
}

/* Sum the CPU% of host threads named like OVS names a PMD: "pmd-c<core>/id:<n>". */
static double host_pmd_cpu(const struct snapshot *snap, int core, char *name, size_t len)
{
	char prefix[24];
	double pct = 0;
	snprintf(prefix, sizeof(prefix), "pmd-c%02d/", core);
	snprintf(name, len, "pmd-c%02d", core);
	for (size_t i = 0; i < snap->nthreads; i++)
		if (strncmp(snap->threads[i].name, prefix, strlen(prefix)) == 0) {
			pct += snap->threads[i].cpu_pct;
			snprintf(name, len, "%s", snap->threads[i].name);
		}
	return pct;
}

static int host_read_timerslack(const struct host_state *h, const char *comm)
{
	for (size_t i = 0; i < h->ncur; i++)
		if (strcmp(h->cur[i].comm, comm) == 0) {
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

void host_pmdsec_sample(struct host_state *h, struct snapshot *snap, double dt_s)
{
	struct host_snap *hs = &snap->host;
	struct pmd_snap *p = &snap->pmd;
	struct host_ovs_perf *perf = xmalloc(sizeof(*perf));
	char *text = NULL;

	snprintf(hs->ovs_socket, sizeof(hs->ovs_socket), "%s", host_ovs_path(h->ovs));
	int rc = host_ovs_call(h->ovs, "dpif-netdev/pmd-perf-show", NULL, 0, &text, h->ovs_err,
			       sizeof(h->ovs_err));
	if (rc != 0 || host_ovs_parse_perf(text, perf) != 0) {
		if (rc == 0)
			snprintf(h->ovs_err, sizeof(h->ovs_err), "pmd-perf-show: unexpected reply");
		snprintf(hs->ovs_error, sizeof(hs->ovs_error), "%s", h->ovs_err);
		free(text);
		free(perf);
		return;
	}
	free(text);
	hs->ovs = true;
	hs->ovs_error[0] = '\0';
	snap->has_pmd = true;
	memset(p, 0, sizeof(*p));

	struct host_ovs_sleep sl;
	sl.default_us = -1;
	sl.npmds = 0;
	if (h->ovs_sleep_show) {
		char *st = NULL;
		if (host_ovs_call(h->ovs, "dpif-netdev/pmd-sleep-show", NULL, 0, &st, h->ovs_err,
				  sizeof(h->ovs_err)) == 0)
			host_ovs_parse_sleep(st, &sl);
		free(st);
	}
	if (sl.default_us >= 0) {
		p->maxsleep_us = sl.default_us;
		hs->ovs_maxsleep_source = "pmd-sleep-show";
	} else if (h->ovs_set_us >= 0) {
		p->maxsleep_us = h->ovs_set_us;
		hs->ovs_maxsleep_source = "set";
	} else {
		p->maxsleep_us = -1;
		hs->ovs_maxsleep_source = "unknown";
	}
	p->sleep_inc_us = 1; /* PMD_SLEEP_INC_US in every release (docs/pmd.md §1.1) */
	p->timer_slack_ns = -1;

	p->nthreads = perf->npmds < PMD_SNAP_MAX ? perf->npmds : PMD_SNAP_MAX;
	for (int i = 0; i < p->nthreads; i++) {
		const struct host_pmd_perf *c = &perf->pmd[i], *o = NULL;
		struct pmd_thread_snap *t = &p->threads[i];
		for (int j = 0; h->have_perf_prev && j < h->perf_prev.npmds; j++)
			if (h->perf_prev.pmd[j].core_id == c->core_id)
				o = &h->perf_prev.pmd[j];
		/* pmd-stats-clear resets the counters: then the new values are the interval. */
		if (o && c->iterations < o->iterations)
			o = NULL;
		t->cpu_pct = host_pmd_cpu(snap, c->core_id, t->name, sizeof(t->name));
		if (p->timer_slack_ns < 0) {
			int s = host_read_timerslack(h, t->name);
			if (s >= 0)
				p->timer_slack_ns = s;
		}
		t->rx_packets = c->rx_packets;
		t->tx_packets = c->tx_packets;
		uint64_t it = c->iterations - (o ? o->iterations : 0);
		uint64_t sit =
		    c->sleep_iter - (o && c->sleep_iter >= o->sleep_iter ? o->sleep_iter : 0);
		double slept = c->sleep_us - (o && c->sleep_us >= o->sleep_us ? o->sleep_us : 0);
		/* busy/idle cycles are printed as % of used cycles: rebuild the cycles. */
		double busy = c->busy_pct * (double)c->used_cycles / 100.0;
		double idle = c->idle_pct * (double)c->used_cycles / 100.0;
		if (o) {
			busy -= o->busy_pct * (double)o->used_cycles / 100.0;
			idle -= o->idle_pct * (double)o->used_cycles / 100.0;
		}
		double dts = o ? dt_s : perf->duration_s;
		t->iterations = it;
		t->busy_pct = busy + idle > 0 ? 100.0 * busy / (busy + idle) : 0;
		t->idle_pct = busy + idle > 0 ? 100.0 * idle / (busy + idle) : 0;
		t->sleep_iter_pct = it ? 100.0 * (double)sit / (double)it : 0;
		t->sleep_us_avg = sit ? slept / (double)sit : 0;
		if (dts > 0) {
			t->rx_pps =
			    (double)(c->rx_packets -
				     (o && c->rx_packets >= o->rx_packets ? o->rx_packets : 0)) /
			    dts;
			t->tx_pps =
			    (double)(c->tx_packets -
				     (o && c->tx_packets >= o->tx_packets ? o->tx_packets : 0)) /
			    dts;
		}
		p->offered_pps += t->rx_pps;
	}
	pid_t row_tid[PMD_SNAP_MAX];
	host_slack_pmdsec(h, snap, row_tid);
	if (p->timer_slack_ns < 0)
		host_absent(hs, "pmd.timer_slack_ns");
	host_absent(hs, "pmd.rx_drop_pps");
	host_absent(hs, "pmd.tx_drop_pps");
	if (host_bpf_pmdsec(h->bpf, h->bpf_err, snap, row_tid)) {
		/* The kernel's figure is the only one the host has: shown as the PMD's own. */
		for (int i = 0; i < p->nthreads; i++) {
			p->threads[i].overshoot_p50_us = p->threads[i].bpf_overshoot_p50_us;
			p->threads[i].overshoot_p99_us = p->threads[i].bpf_overshoot_p99_us;
		}
	} else {
		host_absent(hs, "pmd.sleep_overshoot_us");
	}
	host_absent(hs, "pmd.totals");
	h->perf_prev = *perf;
	h->have_perf_prev = true;
	free(perf);
}

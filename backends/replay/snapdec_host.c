/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapdec_host.c: decoding the host section of a schema-1 snapshot (snapjson_host), with the
 * same distrust as snapdec.c: typed getters, arrays clamped to what the struct holds. */
#include "backends/replay/snapdec.h"

#include <stdio.h>
#include <string.h>

#include "backends/replay/snapdec_int.h"

/* A PMD's (or the total's) interval shares (snapjson_host_shares). */
static void dec_host_shares(const json_t *x, struct host_ovs_pmd_snap *p)
{
	p->recirc = ju(x, "recirculations");
	p->phwol_hits = ju(x, "phwol_hits");
	p->passes = ji_opt(x, "passes");
	p->simple_pct = jpct_opt(x, "simple_pct");
	p->emc_pct = jpct_opt(x, "emc_pct");
	p->smc_pct = jpct_opt(x, "smc_pct");
	p->megaflow_pct = jpct_opt(x, "megaflow_pct");
	p->phwol_pct = jpct_opt(x, "phwol_pct");
}

/* OVS extras (snapjson_host_ovs): null figures are absent (-1). */
static void dec_host_ovs(const json_t *h, struct host_snap *d)
{
	size_t n;
	const json_t *a = jarr(h, "ovs_pmds", &n, HOST_SNAP_MAX_OVS_PMDS);

	d->novs_pmds = (int)n;
	for (size_t i = 0; i < n; i++) {
		const json_t *x = json_array_get(a, i), *iso = jget(x, "isolated");
		struct host_ovs_pmd_snap *p = &d->ovs_pmds[i];
		jcopy(p->name, sizeof(p->name), x, "name");
		p->core_id = jn(x, "core_id");
		p->packets = ju(x, "packets");
		p->emc_hits = ju(x, "emc_hits");
		p->smc_hits = ju(x, "smc_hits");
		p->megaflow_hits = ju(x, "megaflow_hits");
		p->upcalls = ju(x, "upcalls");
		p->lost_upcalls = ju(x, "lost_upcalls");
		p->simple_hits = ju(x, "simple_hits");
		p->cycles_per_pkt = jd_opt(x, "cycles_per_pkt");
		p->upcalls_per_s = jd_opt(x, "upcalls_per_s");
		p->lost_upcalls_per_s = jd_opt(x, "lost_upcalls_per_s");
		p->isolated = json_is_boolean(iso) ? json_is_true(iso) : -1;
		p->overhead_pct = jd_opt(x, "overhead_pct");
		dec_host_shares(x, p);
		/* A recording from before the count: unknown, not 0. */
		const json_t *su = jget(x, "suspicious_iterations");
		p->susp_min = ji_opt(su, "min");
		p->susp_max = ji_opt(su, "max");
		p->susp_min_per_s = jd_opt(su, "min_per_s");
		p->susp_max_per_s = jd_opt(su, "max_per_s");
		p->susp_us = (int)ji_opt(su, "us_threshold");
		p->susp_qlen = (int)ji_opt(su, "qlen_threshold");
		p->tsc_hz = jd_opt(su, "tsc_hz");
		jcopy(p->susp_why, sizeof(p->susp_why), su, "why");
		if (!su)
			snprintf(p->susp_why, sizeof(p->susp_why), "not recorded");
		size_t nh;
		const json_t *ha = jarr(x, "histograms", &nh, HOST_OVS_SNAP_HISTS);
		p->nhists = (int)nh;
		for (size_t k = 0; k < nh; k++) {
			const json_t *g = json_array_get(ha, k);
			struct host_ovs_hist *o = &p->hist[k];
			size_t ne, nc;
			const json_t *e = jarr(g, "edges", &ne, HOST_OVS_HIST_BINS);
			const json_t *c = jarr(g, "counts", &nc, HOST_OVS_HIST_BINS);
			jcopy(o->name, sizeof(o->name), g, "name");
			o->nbins = (int)(ne < nc ? ne : nc);
			for (int b = 0; b < o->nbins; b++) {
				const json_t *v = json_array_get(e, (size_t)b);
				o->edge[b] = json_is_integer(v) ? (uint64_t)json_integer_value(v)
								: UINT64_MAX;
				o->count[b] = ju_at(c, (size_t)b);
			}
		}
	}
	const json_t *t = jget(h, "ovs_pmds_total");
	/* A recording from before the total: its figures absent, not 0. */
	dec_host_shares(json_is_object(t) ? t : NULL, &d->ovs_total);
	d->ovs_total.upcalls_per_s = d->ovs_total.lost_upcalls_per_s = -1;
	if (json_is_object(t)) {
		struct host_ovs_pmd_snap *p = &d->ovs_total;
		snprintf(p->name, sizeof(p->name), "total");
		p->core_id = p->isolated = -1;
		p->cycles_per_pkt = p->overhead_pct = -1;
		p->packets = ju(t, "packets");
		p->upcalls = ju(t, "upcalls");
		p->lost_upcalls = ju(t, "lost_upcalls");
		p->simple_hits = ju(t, "simple_hits");
		p->emc_hits = ju(t, "emc_hits");
		p->smc_hits = ju(t, "smc_hits");
		p->megaflow_hits = ju(t, "megaflow_hits");
		p->upcalls_per_s = jd_opt(t, "upcalls_per_s");
		p->lost_upcalls_per_s = jd_opt(t, "lost_upcalls_per_s");
		dec_host_shares(t, p);
	}
	a = jarr(h, "ovs_rxqs", &n, HOST_SNAP_MAX_RXQS);
	d->novs_rxqs = (int)n;
	for (size_t i = 0; i < n; i++) {
		const json_t *x = json_array_get(a, i);
		struct host_ovs_rxq_snap *q = &d->ovs_rxqs[i];
		jcopy(q->port, sizeof(q->port), x, "port");
		q->queue = jn(x, "queue");
		q->core_id = jn(x, "core_id");
		q->enabled = jb(x, "enabled");
		q->usage_pct = jd_opt(x, "usage_pct");
	}
	d->ovsdb = jb(h, "ovsdb");
	jcopy(d->ovsdb_error, sizeof(d->ovsdb_error), h, "ovsdb_error");
	a = jarr(h, "ovs_interfaces", &n, HOST_SNAP_MAX_IFACES);
	d->novs_ifaces = (int)n;
	for (size_t i = 0; i < n; i++) {
		const json_t *x = json_array_get(a, i);
		struct host_ovs_iface_snap *f = &d->ovs_ifaces[i];
		jcopy(f->name, sizeof(f->name), x, "name");
		f->rx_dropped = ji_opt(x, "rx_dropped");
		f->tx_dropped = ji_opt(x, "tx_dropped");
		f->rx_errors = ji_opt(x, "rx_errors");
		f->tx_errors = ji_opt(x, "tx_errors");
		const json_t *dr = jget(x, "drops"), *rt = jget(x, "drops_per_s");
		for (int k = 0; k < HOST_IFACE_NDROPS; k++) {
			f->drops[k] = dr ? ji_opt(dr, host_iface_drop_names[k]) : -1;
			f->drop_per_s[k] = rt ? jd_opt(rt, host_iface_drop_names[k]) : -1;
		}
	}
	jcopy(d->ovs_maxsleep_value, sizeof(d->ovs_maxsleep_value), h, "ovs_maxsleep_value");
}

void snapdec_host(const json_t *h, struct host_snap *d)
{
	size_t n;
	const json_t *a;

	memset(d, 0, sizeof(*d));
	d->cpufreq = jb(h, "cpufreq");
	jcopy(d->governor, sizeof(d->governor), h, "governor");
	d->taskstats = jb(h, "taskstats");
	jcopy(d->taskstats_error, sizeof(d->taskstats_error), h, "taskstats_error");
	d->delayacct = jb(h, "delayacct");
	d->threads_matched = jn(h, "threads_matched");
	d->pid = ji(h, "pid");
	a = jarr(h, "thread_acct", &n, HOST_SNAP_MAX_ACCT);
	d->nacct = (int)n;
	for (size_t i = 0; i < n; i++) {
		const json_t *x = json_array_get(a, i);
		d->acct[i] = (struct host_acct_snap){.tid = (pid_t)jn(x, "tid"),
						     .cpu_delay_pct = jd(x, "cpu_delay_pct"),
						     .blkio_delay_pct = jd(x, "blkio_delay_pct"),
						     .nvcsw_per_s = jd(x, "nvcsw_per_s"),
						     .nivcsw_per_s = jd(x, "nivcsw_per_s")};
	}
	d->links_ok = jb(h, "links_ok");
	jcopy(d->links_error, sizeof(d->links_error), h, "links_error");
	a = jarr(h, "links", &n, HOST_SNAP_MAX_LINKS);
	d->nlinks = (int)n;
	for (size_t i = 0; i < n; i++) {
		const json_t *x = json_array_get(a, i);
		struct host_link_snap *l = &d->links[i];
		jcopy(l->name, sizeof(l->name), x, "name");
		l->rx_packets = ju(x, "rx_packets");
		l->tx_packets = ju(x, "tx_packets");
		l->rx_dropped = ju(x, "rx_dropped");
		l->tx_dropped = ju(x, "tx_dropped");
		l->rx_pps = jd(x, "rx_pps");
		l->tx_pps = jd(x, "tx_pps");
		l->rx_drop_per_s = jd(x, "rx_drop_per_s");
		l->tx_drop_per_s = jd(x, "tx_drop_per_s");
	}
	jcopy(d->blk_dev, sizeof(d->blk_dev), h, "blk_dev");
	jcopy(d->blk_error, sizeof(d->blk_error), h, "blk_error");
	d->ovs = jb(h, "ovs");
	jcopy(d->ovs_socket, sizeof(d->ovs_socket), h, "ovs_socket");
	jcopy(d->ovs_error, sizeof(d->ovs_error), h, "ovs_error");
	d->ovs_sleep_show = jb(h, "ovs_sleep_show");
	d->ovs_maxsleep_source = json_is_string(jget(h, "ovs_maxsleep_source"))
				     ? snapdec_intern(js(h, "ovs_maxsleep_source"))
				     : NULL;
	a = jarr(h, "absent", &n, HOST_SNAP_MAX_ABSENT);
	d->nabsent = 0;
	for (size_t i = 0; i < n; i++) {
		const json_t *x = json_array_get(a, i);
		if (json_is_string(x))
			d->absent[d->nabsent++] = snapdec_intern(json_string_value(x));
	}
	d->bpf_probe = jb(h, "bpf_probe");
	jcopy(d->bpf_probe_error, sizeof(d->bpf_probe_error), h, "bpf_probe_error");
	dec_host_ovs(h, d);
}

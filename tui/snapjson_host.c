/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapjson_host.c: the host section of the schema-1 JSON object (docs/json.md). */
#include "tui/snapjson_int.h"

/* The host section (backends/host_snap.h): which sources answered, and what they alone give. */
static json_t *snapjson_host_str(const char *s)
{
	return jstr(s); /* README: "" when there is nothing to say */
}

/* A figure the host may lack: null when negative (absent), else rounded. */
static json_t *jopt(double v)
{
	return v < 0 ? json_null() : jreal(v);
}

static json_t *jopt_int(int64_t v)
{
	return v < 0 ? json_null() : json_integer((json_int_t)v);
}

/* The interval's hit shares and passes of a PMD (or the total): null where none. */
static void snapjson_host_shares(json_t *e, const struct host_ovs_pmd_snap *x)
{
	json_object_set_new(e, "recirculations", jint(x->recirc));
	json_object_set_new(e, "phwol_hits", jint(x->phwol_hits));
	json_object_set_new(e, "passes", jopt_int(x->passes));
	json_object_set_new(e, "simple_pct", jopt(x->simple_pct));
	json_object_set_new(e, "emc_pct", jopt(x->emc_pct));
	json_object_set_new(e, "smc_pct", jopt(x->smc_pct));
	json_object_set_new(e, "megaflow_pct", jopt(x->megaflow_pct));
	json_object_set_new(e, "phwol_pct", jopt(x->phwol_pct));
}

/* pmd-perf-show's histograms of a PMD: edges (the last, "above", null) and counts. */
static json_t *snapjson_host_hists(const struct host_ovs_pmd_snap *x)
{
	json_t *a = json_array();
	for (int k = 0; k < x->nhists; k++) {
		const struct host_ovs_hist *g = &x->hist[k];
		json_t *edges = json_array(), *counts = json_array();
		for (int b = 0; b < g->nbins; b++) {
			json_array_append_new(edges, g->edge[b] == UINT64_MAX ? json_null()
									      : jint(g->edge[b]));
			json_array_append_new(counts, jint(g->count[b]));
		}
		json_array_append_new(a, json_pack("{s:o, s:o, s:o}", "name", jstr(g->name),
						   "edges", edges, "counts", counts));
	}
	return a;
}

/* A PMD's suspicious iterations (pmd-perf-log-set's): bounds since the stats were cleared,
 * their rates, the thresholds and TSC rate counted with; null figures and why when unknown. */
static json_t *snapjson_host_susp(const struct host_ovs_pmd_snap *x)
{
	json_t *o = json_object();
	json_object_set_new(o, "min", jopt_int(x->susp_min));
	json_object_set_new(o, "max", jopt_int(x->susp_max));
	json_object_set_new(o, "min_per_s", jopt(x->susp_min_per_s));
	json_object_set_new(o, "max_per_s", jopt(x->susp_max_per_s));
	json_object_set_new(o, "us_threshold", json_integer(x->susp_us));
	json_object_set_new(o, "qlen_threshold", json_integer(x->susp_qlen));
	json_object_set_new(o, "tsc_hz", jopt(x->tsc_hz));
	json_object_set_new(o, "why", snapjson_str_or_null(x->susp_why));
	return o;
}

/* OVS extras: pmd-stats-show and pmd-rxq-show per PMD, rx queues, ovsdb's Interface statistics. */
static void snapjson_host_ovs(json_t *o, const struct host_snap *h)
{
	json_t *pmds = json_array(), *rxqs = json_array(), *ifs = json_array();
	for (int i = 0; i < h->novs_pmds; i++) {
		const struct host_ovs_pmd_snap *x = &h->ovs_pmds[i];
		json_t *e = json_pack(
		    "{s:o, s:i, s:o, s:o, s:o, s:o, s:o, s:o}", "name", jstr(x->name), "core_id",
		    x->core_id, "packets", jint(x->packets), "emc_hits", jint(x->emc_hits),
		    "smc_hits", jint(x->smc_hits), "megaflow_hits", jint(x->megaflow_hits),
		    "upcalls", jint(x->upcalls), "lost_upcalls", jint(x->lost_upcalls));
		json_object_set_new(e, "simple_hits", jint(x->simple_hits));
		json_object_set_new(e, "cycles_per_pkt", jopt(x->cycles_per_pkt));
		json_object_set_new(e, "upcalls_per_s", jopt(x->upcalls_per_s));
		json_object_set_new(e, "lost_upcalls_per_s", jopt(x->lost_upcalls_per_s));
		json_object_set_new(e, "isolated",
				    x->isolated < 0 ? json_null() : json_boolean(x->isolated));
		json_object_set_new(e, "overhead_pct", jopt(x->overhead_pct));
		snapjson_host_shares(e, x);
		json_object_set_new(e, "histograms", snapjson_host_hists(x));
		json_object_set_new(e, "suspicious_iterations", snapjson_host_susp(x));
		json_array_append_new(pmds, e);
	}
	if (h->novs_pmds > 0) {
		const struct host_ovs_pmd_snap *t = &h->ovs_total;
		json_t *e = json_pack(
		    "{s:o, s:o, s:o, s:o, s:o}", "packets", jint(t->packets), "upcalls",
		    jint(t->upcalls), "lost_upcalls", jint(t->lost_upcalls), "upcalls_per_s",
		    jopt(t->upcalls_per_s), "lost_upcalls_per_s", jopt(t->lost_upcalls_per_s));
		json_object_set_new(e, "simple_hits", jint(t->simple_hits));
		json_object_set_new(e, "emc_hits", jint(t->emc_hits));
		json_object_set_new(e, "smc_hits", jint(t->smc_hits));
		json_object_set_new(e, "megaflow_hits", jint(t->megaflow_hits));
		snapjson_host_shares(e, t);
		json_object_set_new(o, "ovs_pmds_total", e);
	} else {
		json_object_set_new(o, "ovs_pmds_total", json_null());
	}
	for (int i = 0; i < h->novs_rxqs; i++) {
		const struct host_ovs_rxq_snap *q = &h->ovs_rxqs[i];
		json_t *e = json_pack("{s:o, s:i, s:i, s:b}", "port", jstr(q->port), "queue",
				      q->queue, "core_id", q->core_id, "enabled", q->enabled);
		json_object_set_new(e, "usage_pct", jopt(q->usage_pct));
		json_array_append_new(rxqs, e);
	}
	for (int i = 0; i < h->novs_ifaces; i++) {
		const struct host_ovs_iface_snap *f = &h->ovs_ifaces[i];
		json_t *e = json_pack("{s:o}", "name", jstr(f->name));
		json_object_set_new(e, "rx_dropped", jopt_int(f->rx_dropped));
		json_object_set_new(e, "tx_dropped", jopt_int(f->tx_dropped));
		json_object_set_new(e, "rx_errors", jopt_int(f->rx_errors));
		json_object_set_new(e, "tx_errors", jopt_int(f->tx_errors));
		/* Every drop counter by ovsdb's own name, total and per second (null: not there,
		 * no baseline yet, or gone back). */
		json_t *dr = json_object(), *rt = json_object();
		for (int k = 0; k < HOST_IFACE_NDROPS; k++) {
			json_object_set_new(dr, host_iface_drop_names[k], jopt_int(f->drops[k]));
			json_object_set_new(rt, host_iface_drop_names[k], jopt(f->drop_per_s[k]));
		}
		json_object_set_new(e, "drops", dr);
		json_object_set_new(e, "drops_per_s", rt);
		json_array_append_new(ifs, e);
	}
	json_object_set_new(o, "ovs_pmds", pmds);
	json_object_set_new(o, "ovs_rxqs", rxqs);
	json_object_set_new(o, "ovsdb", json_boolean(h->ovsdb));
	json_object_set_new(o, "ovsdb_error", snapjson_host_str(h->ovsdb_error));
	json_object_set_new(o, "ovs_interfaces", ifs);
	json_object_set_new(o, "ovs_maxsleep_value", snapjson_host_str(h->ovs_maxsleep_value));
}

json_t *snapjson_host(const struct host_snap *h)
{
	json_t *links = json_array(), *acct = json_array(), *absent = json_array();

	for (int i = 0; i < h->nlinks; i++) {
		const struct host_link_snap *l = &h->links[i];
		json_t *o =
		    json_pack("{s:o, s:o, s:o, s:o, s:o}", "name", jstr(l->name), "rx_packets",
			      jint(l->rx_packets), "tx_packets", jint(l->tx_packets), "rx_dropped",
			      jint(l->rx_dropped), "tx_dropped", jint(l->tx_dropped));
		json_object_set_new(o, "rx_pps", jreal(l->rx_pps));
		json_object_set_new(o, "tx_pps", jreal(l->tx_pps));
		json_object_set_new(o, "rx_drop_per_s", jreal(l->rx_drop_per_s));
		json_object_set_new(o, "tx_drop_per_s", jreal(l->tx_drop_per_s));
		json_array_append_new(links, o);
	}
	for (int i = 0; i < h->nacct; i++) {
		const struct host_acct_snap *a = &h->acct[i];
		json_array_append_new(
		    acct, json_pack("{s:i, s:o, s:o, s:o, s:o}", "tid", (int)a->tid,
				    "cpu_delay_pct", jreal(a->cpu_delay_pct), "blkio_delay_pct",
				    jreal(a->blkio_delay_pct), "nvcsw_per_s", jreal(a->nvcsw_per_s),
				    "nivcsw_per_s", jreal(a->nivcsw_per_s)));
	}
	for (int i = 0; i < h->nabsent; i++)
		json_array_append_new(absent, jstr(h->absent[i]));
	json_t *o =
	    json_pack("{s:b, s:o, s:b, s:s, s:o, s:b, s:i, s:I}", "cpufreq", h->cpufreq, "governor",
		      snapjson_host_str(h->governor), "taskstats", h->taskstats, "thread_source",
		      h->taskstats ? "taskstats" : "procfs", "taskstats_error",
		      snapjson_host_str(h->taskstats_error), "delayacct", h->delayacct,
		      "threads_matched", h->threads_matched, "pid", (json_int_t)h->pid);
	json_object_set_new(o, "thread_acct", acct);
	json_object_set_new(o, "links_ok", json_boolean(h->links_ok));
	json_object_set_new(o, "links_error", snapjson_host_str(h->links_error));
	json_object_set_new(o, "links", links);
	json_object_set_new(o, "blk_dev", snapjson_host_str(h->blk_dev));
	json_object_set_new(o, "blk_error", snapjson_host_str(h->blk_error));
	json_object_set_new(o, "ovs", json_boolean(h->ovs));
	json_object_set_new(o, "ovs_socket", snapjson_host_str(h->ovs_socket));
	json_object_set_new(o, "ovs_error", snapjson_host_str(h->ovs_error));
	json_object_set_new(o, "ovs_sleep_show", json_boolean(h->ovs_sleep_show));
	json_object_set_new(o, "ovs_maxsleep_source", snapjson_host_str(h->ovs_maxsleep_source));
	json_object_set_new(o, "absent", absent);
	json_object_set_new(o, "bpf_probe", json_boolean(h->bpf_probe));
	json_object_set_new(o, "bpf_probe_error", snapjson_host_str(h->bpf_probe_error));
	snapjson_host_ovs(o, h);
	return o;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapjson_host.c: the host section of the schema-1 JSON object (docs/json.md): its fields from
 * core/snap_schema.c's table, and the few no row can say. */
#include "core/snap_schema.h"
#include "tui/snapjson_int.h"

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

/* OVS's rows: a PMD's isolation (null unknown) and histograms; every drop counter of an
 * Interface by ovsdb's own name, total and per second (null: not there, no baseline yet, or
 * gone back); the PMDs together, null without a PMD. */
static void snapjson_host_ovs(json_t *o, const struct host_snap *h)
{
	json_t *pmds = json_object_get(o, "ovs_pmds"), *ifs = json_object_get(o, "ovs_interfaces");
	for (int i = 0; i < h->novs_pmds; i++) {
		const struct host_ovs_pmd_snap *x = &h->ovs_pmds[i];
		json_t *e = json_array_get(pmds, (size_t)i);
		json_object_set_new(e, "isolated",
				    x->isolated < 0 ? json_null() : json_boolean(x->isolated));
		json_object_set_new(e, "histograms", snapjson_host_hists(x));
	}
	if (h->novs_pmds > 0) {
		json_t *t = json_object();
		snapjson_fields(t, snap_host_ovs_total_fields, snap_host_ovs_total_nfields,
				&h->ovs_total, false);
		json_object_set_new(o, "ovs_pmds_total", t);
	}
	for (int i = 0; i < h->novs_ifaces; i++) {
		const struct host_ovs_iface_snap *f = &h->ovs_ifaces[i];
		json_t *e = json_array_get(ifs, (size_t)i), *dr = json_object(),
		       *rt = json_object();
		for (int k = 0; k < HOST_IFACE_NDROPS; k++) {
			json_object_set_new(dr, host_iface_drop_names[k],
					    f->drops[k] < 0 ? json_null()
							    : json_integer(f->drops[k]));
			json_object_set_new(rt, host_iface_drop_names[k],
					    f->drop_per_s[k] < 0 ? json_null()
								 : jreal(f->drop_per_s[k]));
		}
		json_object_set_new(e, "drops", dr);
		json_object_set_new(e, "drops_per_s", rt);
	}
}

json_t *snapjson_host(const struct host_snap *h)
{
	json_t *o = json_object(), *absent = json_array();
	snapjson_fields(o, snap_host_fields, snap_host_nfields, h, false);
	json_object_set_new(o, "thread_source", json_string(h->taskstats ? "taskstats" : "procfs"));
	/* README: "" when there is nothing to say */
	json_object_set_new(o, "ovs_maxsleep_source", jstr(h->ovs_maxsleep_source));
	for (int i = 0; i < h->nabsent; i++)
		json_array_append_new(absent, jstr(h->absent[i]));
	json_object_set_new(o, "absent", absent);
	snapjson_host_ovs(o, h);
	return o;
}

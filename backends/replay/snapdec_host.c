/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapdec_host.c: decoding the host section of a schema-1 snapshot (snapjson_host): the fields
 * of core/snap_schema.c's table, then the few it cannot say, with the same distrust as
 * snapdec.c. */
#include "backends/replay/snapdec.h"

#include <stdio.h>
#include <string.h>

#include "backends/replay/snapdec_int.h"
#include "core/snap_schema.h"

/* pmd-perf-show's histograms of a PMD: a null edge is the last bin's ("above"). */
static void dec_host_hists(const json_t *x, struct host_ovs_pmd_snap *p)
{
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
			o->edge[b] =
			    json_is_integer(v) ? (uint64_t)json_integer_value(v) : UINT64_MAX;
			o->count[b] = ju_at(c, (size_t)b);
		}
	}
}

/* OVS extras (snapjson_host_ovs): null figures are absent (-1). */
static void dec_host_ovs(const json_t *h, struct host_snap *d)
{
	const json_t *a = jget(h, "ovs_pmds"), *t = jget(h, "ovs_pmds_total");
	for (int i = 0; i < d->novs_pmds; i++) {
		const json_t *x = json_array_get(a, (size_t)i), *iso = jget(x, "isolated");
		struct host_ovs_pmd_snap *p = &d->ovs_pmds[i];
		p->isolated = json_is_boolean(iso) ? json_is_true(iso) : -1;
		/* A recording from before the count: unknown, not 0. */
		if (!jget(x, "suspicious_iterations"))
			snprintf(p->susp_why, sizeof(p->susp_why), "not recorded");
		dec_host_hists(x, p);
	}
	/* A recording from before the total: its figures absent, not 0. */
	snapdec_fields(json_is_object(t) ? t : NULL, snap_host_ovs_total_fields,
		       snap_host_ovs_total_nfields, (char *)&d->ovs_total);
	if (json_is_object(t)) {
		struct host_ovs_pmd_snap *p = &d->ovs_total;
		snprintf(p->name, sizeof(p->name), "total");
		p->core_id = p->isolated = -1;
		p->cycles_per_pkt = p->overhead_pct = -1;
	}
	a = jget(h, "ovs_interfaces");
	for (int i = 0; i < d->novs_ifaces; i++) {
		const json_t *x = json_array_get(a, (size_t)i);
		const json_t *dr = jget(x, "drops"), *rt = jget(x, "drops_per_s");
		struct host_ovs_iface_snap *f = &d->ovs_ifaces[i];
		for (int k = 0; k < HOST_IFACE_NDROPS; k++) {
			f->drops[k] = dr ? ji_opt(dr, host_iface_drop_names[k]) : -1;
			f->drop_per_s[k] = rt ? jd_opt(rt, host_iface_drop_names[k]) : -1;
		}
	}
}

void snapdec_host(const json_t *h, struct host_snap *d)
{
	size_t n;
	const json_t *a;

	memset(d, 0, sizeof(*d));
	snapdec_fields(h, snap_host_fields, snap_host_nfields, (char *)d);
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
	dec_host_ovs(h, d);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics_ovs.c: Open vSwitch's own counters on the host as _total counters: pmd-stats-show's
 * passes, hits and upcalls per PMD, and the ovsdb Interface drop counters per device. */
#include <stddef.h>
#include <stdint.h>

#include "tui/metrics/metrics_int.h"

/* One counter sample with two labels. */
static void mw_c2(struct mw *w, const char *k1, const char *v1, const char *k2, const char *v2,
		  uint64_t v)
{
	mw_begin(w, "_total");
	mw_label(w, k1, v1);
	mw_label(w, k2, v2);
	mw_u64(w, v);
}

void metrics_ovs_passes(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	const struct host_snap *h = &s->host;
	for (int i = 0; h->ovs && i < h->novs_pmds; i++)
		mw_c1(w, "pmd", h->ovs_pmds[i].name,
		      h->ovs_pmds[i].packets + h->ovs_pmds[i].recirc);
}

void metrics_ovs_hits(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	const struct host_snap *h = &s->host;
	for (int i = 0; h->ovs && i < h->novs_pmds; i++) {
		const struct host_ovs_pmd_snap *x = &h->ovs_pmds[i];
		mw_c2(w, "pmd", x->name, "lookup", "phwol", x->phwol_hits);
		mw_c2(w, "pmd", x->name, "lookup", "simple", x->simple_hits);
		mw_c2(w, "pmd", x->name, "lookup", "emc", x->emc_hits);
		mw_c2(w, "pmd", x->name, "lookup", "smc", x->smc_hits);
		mw_c2(w, "pmd", x->name, "lookup", "megaflow", x->megaflow_hits);
	}
}

/* Only the counters the interface has: an absent one is left out, never 0. */
void metrics_ovs_drops(struct mw *w, const struct snapshot *s, const struct metrics_state *st)
{
	const struct host_snap *h = &s->host;
	for (int i = 0; h->ovsdb && i < h->novs_ifaces; i++)
		for (int k = 0; k < HOST_IFACE_NDROPS; k++)
			if (h->ovs_ifaces[i].drops[k] >= 0)
				mw_c2(w, "device", h->ovs_ifaces[i].name, "counter",
				      host_iface_drop_names[k],
				      (uint64_t)h->ovs_ifaces[i].drops[k]);
}

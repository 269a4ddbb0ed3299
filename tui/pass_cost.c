/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pass_cost.c: a PMD setting's cost over a window from its start and end counters, and the
 * cheapest setting within a drop budget (the sweep's and the console's trade-off). */
#include "tui/pass_cost.h"

#include <string.h>

#include "core/pmd_cost.h"

void pass_pmd_mark_read(const struct snapshot *s, struct pass_pmd_mark *m)
{
	memset(m, 0, sizeof(*m));
	m->cpu_ns = -1;
	if (!s->has_pmd)
		return;
	m->valid = true;
	m->mono_ns = s->mono_ns;
	for (int i = 0; i < s->pmd.nthreads; i++)
		m->rx += (double)s->pmd.threads[i].rx_packets;
	m->generated = (double)s->pmd.generated;
	m->dropped = (double)(s->pmd.dropped - s->pmd.restart_dropped);
	/* The engine's PMD threads carry their CPU clocks: a counter, not a rate. */
	double ns = 0;
	int n = 0;
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i].subsys == SUBSYS_PMD) {
			ns += (double)s->threads[i].cpu_ns;
			n++;
		}
	if (n > 0 && n == s->pmd.nthreads) {
		m->cpu_ns = ns;
		m->ncpu = n;
	}
}

void pass_pmd_acc_add(struct pass_pmd_acc *acc, const struct pass_pmd_mark *a,
		      const struct snapshot *b)
{
	struct pass_pmd_mark e;
	if (!a->valid || !b->has_pmd || b->mono_ns <= a->mono_ns)
		return;
	pass_pmd_mark_read(b, &e);
	double wall = (double)(b->mono_ns - a->mono_ns) / 1e9, cpu_pct = 0, stolen_pct = 0;
	int n = b->pmd.nthreads;
	for (int i = 0; i < n; i++) {
		cpu_pct += b->pmd.threads[i].cpu_pct > 0 ? b->pmd.threads[i].cpu_pct : 0;
		stolen_pct += b->pmd.threads[i].stolen_pct > 0 ? b->pmd.threads[i].stolen_pct : 0;
	}
	acc->wall_s += wall;
	acc->thread_s += wall * n;
	/* The clocks' delta when the same threads ran throughout (a restart starts new ones);
	 * else the interval's CPU % (the same clocks' delta, read by the sampler). */
	if (a->cpu_ns >= 0 && e.cpu_ns >= a->cpu_ns && e.ncpu == a->ncpu)
		acc->cpu_s += (e.cpu_ns - a->cpu_ns) / 1e9;
	else
		acc->cpu_s += cpu_pct / 100.0 * wall;
	acc->stolen_s += stolen_pct / 100.0 * wall;
	if (e.rx >= a->rx)
		acc->packets += e.rx - a->rx;
	if (e.generated > a->generated && e.dropped >= a->dropped) {
		acc->offered += e.generated - a->generated;
		acc->dropped += e.dropped - a->dropped;
	} else {
		acc->drop_w += b->pmd.drop_pct * wall;
	}
}

int pass_pmd_cost_of(const struct pass_pmd_acc *acc, struct pass_pmd_cost *c)
{
	memset(c, 0, sizeof(*c));
	if (acc->wall_s <= 0 || acc->thread_s <= 0)
		return -1;
	c->drop_pct =
	    acc->offered > 0 ? 100.0 * acc->dropped / acc->offered : acc->drop_w / acc->wall_s;
	c->ns_per_pkt = pmd_cost_ns_per(acc->cpu_s * 1e9, acc->packets);
	/* The host took all of it: the PMDs spent all they were left (none). */
	double share = pmd_cost_share_pct(acc->cpu_s, acc->thread_s, acc->stolen_s);
	c->share_pct = share < 0 ? 100.0 : share;
	c->host_took_pct = pmd_cost_took_pct(acc->stolen_s, acc->thread_s);
	return 0;
}

bool pass_cost_better(const struct pass_cost_cand *a, const struct pass_cost_cand *b)
{
	if (a->sleeps != b->sleeps)
		return a->sleeps;
	bool ak = a->ns_per_pkt >= 0, bk = b->ns_per_pkt >= 0;
	if (ak != bk)
		return ak;
	if (ak && a->ns_per_pkt != b->ns_per_pkt)
		return a->ns_per_pkt < b->ns_per_pkt;
	return a->share_pct < b->share_pct;
}

size_t pass_cost_cheapest(const struct pass_cost_cand *c, size_t n, double budget_pct)
{
	size_t best = n;
	for (size_t i = 0; i < n; i++) {
		if (!c[i].usable || !(c[i].drop_pct <= budget_pct))
			continue;
		if (best == n || pass_cost_better(&c[i], &c[best]))
			best = i;
	}
	return best;
}

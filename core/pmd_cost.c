/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_cost.c: CPU ns per packet and CPU as a share of the time the host left the PMDs. */
#include "core/pmd_cost.h"

double pmd_cost_ns_per(double cpu_ns, double packets)
{
	if (cpu_ns < 0 || !(packets > 0))
		return PMD_COST_NONE;
	return cpu_ns / packets;
}

/* The time the host left a thread: wall - host took, but never less than the CPU it used.
 * The two overlap: the guest kernel charges an interrupt or a held vCPU to the thread's CPU
 * clock, and the engine counts that overrun as host took too (docs/pmd.md), so CPU + host
 * took can pass the wall time; such a thread used all the time it was left. */
static double pmd_cost_left(double cpu, double wall, double took)
{
	double left = wall - (took < wall ? took : wall);
	return cpu > left ? cpu : left;
}

double pmd_cost_share_pct(double cpu, double wall, double took)
{
	/* What the host took is not the thread's to spend: comparing CPU% across runs where the
	 * host took 20 % and 60 % compares different budgets (docs/pmd.md). */
	if (cpu < 0 || took < 0 || !(wall > 0) || took >= wall)
		return PMD_COST_NONE;
	double left = pmd_cost_left(cpu, wall, took);
	return cpu >= left ? 100.0 : 100.0 * cpu / left;
}

double pmd_cost_took_pct(double took, double wall)
{
	if (took < 0 || !(wall > 0))
		return PMD_COST_NONE;
	return 100.0 * (took < wall ? took : wall) / wall;
}

double pmd_cost_ns_per_pkt(double cpu_pct, double pps)
{
	/* cpu_pct % of a second of CPU per second, over pps packets per second. */
	return pmd_cost_ns_per(cpu_pct < 0 ? -1 : cpu_pct * 1e7, pps);
}

double pmd_cost_left_pct(double cpu_pct, double stolen_pct)
{
	return pmd_cost_share_pct(cpu_pct, 100.0, stolen_pct);
}

static void pmd_cost_none(struct pmd_snap *p)
{
	for (int i = 0; i < p->nthreads; i++) {
		p->threads[i].cpu_ns_per_pkt = PMD_COST_NONE;
		p->threads[i].cpu_left_pct = PMD_COST_NONE;
	}
	p->cpu_pct = p->stolen_pct = PMD_COST_NONE;
	p->cpu_ns_per_pkt = p->cpu_left_pct = PMD_COST_NONE;
}

void pmd_cost_fill(struct pmd_snap *p, bool first)
{
	pmd_cost_none(p);
	if (first || p->nthreads <= 0)
		return;
	double cpu = 0, stolen = 0, left = 0;
	bool cpu_ok = true, stolen_ok = true;
	for (int i = 0; i < p->nthreads; i++) {
		struct pmd_thread_snap *t = &p->threads[i];
		double c = t->no_rate ? -1 : t->cpu_pct, s = t->no_rate ? -1 : t->stolen_pct;
		t->cpu_ns_per_pkt = pmd_cost_ns_per_pkt(c, t->no_rate ? -1 : t->rx_pps);
		t->cpu_left_pct = pmd_cost_left_pct(c, s);
		cpu_ok = cpu_ok && c >= 0;
		stolen_ok = stolen_ok && s >= 0;
		cpu += c;
		stolen += s;
		left += c >= 0 && s >= 0 ? pmd_cost_left(c, 100.0, s) : 0;
	}
	if (cpu_ok)
		p->cpu_pct = cpu;
	if (stolen_ok)
		p->stolen_pct = stolen / p->nthreads;
	if (!cpu_ok)
		return;
	/* Together: per packet the sources offered (in a chain one packet crosses every PMD,
	 * so their rx would count it twice), over the time left to all of them. */
	p->cpu_ns_per_pkt = pmd_cost_ns_per_pkt(cpu, p->offered_pps);
	if (stolen_ok && left > 0)
		p->cpu_left_pct = 100.0 * cpu / left;
}

bool pmd_cost_host_took_matters(const struct pmd_snap *p)
{
	return p->stolen_pct >= PMD_COST_HOST_TOOK_SHOW_PCT;
}

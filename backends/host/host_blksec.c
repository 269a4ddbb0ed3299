/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_blksec.c: the blk section on the host: BLOCK softirqs, CAL IPIs, diskstats, rq_affinity. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host/host_int.h"

/* The per-CPU BLOCK and CAL rows (docs/blk.md §5); false when /proc/softirqs lacks its row,
 * *cal_ok false (cal all 0) when /proc/interrupts lacks its own. */
bool host_blksec_rows(uint64_t *block, uint64_t *cal, bool *cal_ok)
{
	bool present[HOST_MAX_CPUS];
	size_t len;
	char *t = host_proc_slurp("/proc/softirqs", &len);
	int a = t ? host_proc_percpu_row(t, len, "BLOCK", block, present, HOST_MAX_CPUS) : -1;
	free(t);
	t = host_proc_slurp("/proc/interrupts", &len);
	/* arm64 names it IPI1 ("Function call interrupts"). */
	int b = t ? host_proc_percpu_row(t, len, "CAL", cal, present, HOST_MAX_CPUS) : -1;
	if (t && b < 0)
		b = host_proc_percpu_row(t, len, "IPI1", cal, present, HOST_MAX_CPUS);
	free(t);
	*cal_ok = b >= 0;
	if (b < 0)
		memset(cal, 0, sizeof(*cal) * HOST_MAX_CPUS);
	return a >= 0;
}

/* A counter's rate per second over dt_s: -1 when no time passed or it went back (a CPU
 * taken offline and back, a counter that wrapped). Pure. */
static double host_blksec_rate(uint64_t now, uint64_t prev, double dt_s)
{
	return dt_s > 0 && now >= prev ? (double)(now - prev) / dt_s : -1;
}

/*
 * Each CPU's BLOCK softirq runs and CAL IPIs received per second over the interval (the rows
 * read now against the last sample's), the engine's per-CPU figures on a host. Absent (named,
 * JSON null, "-" on screen) where the host has no such row; a CPU whose counter went back has
 * -1 (null) alone. Completions per CPU the host has no source for.
 */
static void host_blksec_percpu(struct host_state *h, struct snapshot *snap, const uint64_t *block,
			       const uint64_t *cal, bool cal_ok, double dt_s)
{
	struct blk_snap *b = &snap->blk;
	struct host_snap *hs = &snap->host;
	for (int i = 0; i < b->ncpus; i++) {
		struct blk_cpu_snap *c = &b->per_cpu[i];
		c->block_softirq_per_s = host_blksec_rate(block[i], h->block_prev[i], dt_s);
		c->ipi_recv_per_s =
		    cal_ok && h->cal_ok_prev ? host_blksec_rate(cal[i], h->cal_prev[i], dt_s) : -1;
		c->completed_per_s = -1;
	}
	if (!(dt_s > 0))
		host_absent(hs, "blk.per_cpu.block_softirq_per_s");
	if (!cal_ok) {
		host_absent(hs, "blk.per_cpu.ipi_recv");
		host_absent(hs, "blk.ipis_per_s");
	}
	if (!cal_ok || !h->cal_ok_prev || !(dt_s > 0))
		host_absent(hs, "blk.per_cpu.ipi_recv_per_s");
	host_absent(hs, "blk.per_cpu.completed_per_s");
	memcpy(h->block_prev, block, sizeof(h->block_prev));
	memcpy(h->cal_prev, cal, sizeof(h->cal_prev));
	h->cal_ok_prev = cal_ok;
}

bool host_blksec_disk(const char *dev, struct host_diskstat *d)
{
	size_t len;
	char *t = host_proc_slurp("/proc/diskstats", &len);
	bool ok = t && host_proc_diskstats(t, len, dev, d) == 0;
	free(t);
	return ok;
}

void host_blksec_sample(struct host_state *h, struct snapshot *snap, double dt_s)
{
	struct blk_snap *b = &snap->blk;
	struct host_snap *hs = &snap->host;
	uint64_t block[HOST_MAX_CPUS], cal[HOST_MAX_CPUS], cal_sum = 0;
	bool cal_ok;

	snprintf(hs->blk_dev, sizeof(hs->blk_dev), "%s", h->blk_dev);
	if (!host_blksec_rows(block, cal, &cal_ok)) {
		snprintf(hs->blk_error, sizeof(hs->blk_error), "/proc/softirqs has no BLOCK row");
		return;
	}
	memset(b, 0, sizeof(*b));
	snap->has_blk = true;
	b->rq_affinity = -1;
	if (h->blk_dev[0]) {
		int v = host_blk_rq_affinity_read(h->blk_dev, hs->blk_error, sizeof(hs->blk_error));
		if (v >= 0) {
			b->rq_affinity = v;
			hs->blk_error[0] = '\0';
		}
	} else {
		snprintf(hs->blk_error, sizeof(hs->blk_error), "%s", h->blk_err);
	}
	b->irq_cpu = -1; /* the device's vector may move; /proc/irq says, not us */
	b->ncpus = snap->ncpus < BLK_SNAP_MAX_CPUS ? snap->ncpus : BLK_SNAP_MAX_CPUS;
	for (int i = 0; i < HOST_MAX_CPUS; i++)
		cal_sum += cal[i];
	for (int i = 0; i < b->ncpus; i++) {
		b->per_cpu[i].cpu = i;
		b->per_cpu[i].llc = snap->cpus[i].llc;
		/* Since the backend opened, like the engine's "since start" counters. */
		b->per_cpu[i].block_softirq =
		    block[i] >= h->block_base[i] ? block[i] - h->block_base[i] : 0;
		b->per_cpu[i].ipi_recv = cal[i] >= h->cal_base[i] ? cal[i] - h->cal_base[i] : 0;
	}
	/* CAL counts every function-call IPI, TLB shootdowns too (docs/blk.md §5). */
	b->ipis_per_s =
	    dt_s > 0 && cal_sum >= h->cal_prev_sum ? (double)(cal_sum - h->cal_prev_sum) / dt_s : 0;
	h->cal_prev_sum = cal_sum;
	host_blksec_percpu(h, snap, block, cal, cal_ok, dt_s);

	struct host_diskstat d;
	if (h->blk_dev[0] && h->disk_ok && host_blksec_disk(h->blk_dev, &d)) {
		uint64_t done = d.reads + d.writes, prev = h->disk_prev.reads + h->disk_prev.writes;
		uint64_t base = h->disk_base.reads + h->disk_base.writes;
		b->iops = dt_s > 0 && done >= prev ? (double)(done - prev) / dt_s : 0;
		b->completed = done >= base ? done - base : 0;
		b->in_flight = d.in_flight;
		b->submitted = b->completed + b->in_flight; /* exact by construction: s = c + i */
		h->disk_prev = d;
	} else {
		host_absent(hs, "blk.iops");
		host_absent(hs, "blk.totals");
	}
	host_absent(hs, "blk.lat_us");
	host_absent(hs, "blk.completions");
	host_absent(hs, "blk.per_cpu.completed");
	host_absent(hs, "blk.irq_cpu");
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapshot.c: allocation and deep copies of snapshots. */
#include "core/snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "core/governor.h"

#include "core/clock.h"
#include "core/xalloc.h"

/* Named as ovsdb's Interface statistics name them: netdev's, then OVS's own (DPDK ports). */
const char *const host_iface_drop_names[HOST_IFACE_NDROPS] = {"rx_dropped",
							      "tx_dropped",
							      "rx_missed_errors",
							      "rx_over_err",
							      "ovs_rx_qos_drops",
							      "ovs_tx_failure_drops",
							      "ovs_tx_mtu_exceeded_drops",
							      "ovs_tx_qos_drops",
							      "ovs_tx_invalid_hwol_drops"};

void snapshot_clock_start(struct snapshot_clock *c)
{
	c->start_ns = c->prev_ns = clock_mono_ns();
	c->seq = 0;
	c->self_cpu_ns = clock_thread_ns();
}

uint64_t snapshot_clock_stamp(struct snapshot_clock *c, struct snapshot *snap)
{
	uint64_t now = clock_mono_ns();
	uint64_t dt = now - c->prev_ns;
	struct timespec wall;

	clock_gettime(CLOCK_REALTIME, &wall);
	snap->mono_ns = now;
	snap->wall_ns = clock_ts_to_ns(&wall);
	snap->uptime_s = (double)(now - c->start_ns) / 1e9;
	snap->interval_s = (double)dt / 1e9;
	snap->seq = ++c->seq;
	c->prev_ns = now;
	return dt;
}

double snapshot_cpu_pct(uint64_t cpu_ns, uint64_t wall_ns)
{
	/* Not clamped: a thread clock read a moment after the wall clock can show
	 * 100.1%, and hiding that would hide a sampling-order bug too. */
	return wall_ns ? 100.0 * (double)cpu_ns / (double)wall_ns : 0.0;
}

void snapshot_clock_self(struct snapshot_clock *c, struct snapshot *snap, uint64_t t0_ns)
{
	/* The console's own CPU is the sampling thread's: it samples, renders and
	 * writes; engine threads are listed on their own. */
	uint64_t self_cpu = clock_thread_ns();
	snap->self.cpu_pct =
	    snapshot_cpu_pct(self_cpu - c->self_cpu_ns, (uint64_t)(snap->interval_s * 1e9));
	c->self_cpu_ns = self_cpu;
	snap->self.sample_us = (clock_mono_ns() - t0_ns) / NS_PER_US;
}

struct snapshot *snapshot_new(void)
{
	return xcalloc(1, sizeof(struct snapshot));
}

void snapshot_free(struct snapshot *s)
{
	if (!s)
		return;
	free(s->cpus);
	free(s->threads);
	free(s);
}

const char *snapshot_governor_name(const struct snapshot *s)
{
	if (s->governor >= 0 && s->governor < GOV_COUNT)
		return cpu_governor_name(s->governor);
	if (s->has_host && s->host.governor[0])
		return s->host.governor;
	return "none";
}

const char *snapshot_governor_source(const struct snapshot *s)
{
	return s->governor_absent ? "none" : s->governor_emulated ? "emulated" : "cpufreq";
}

bool snapshot_absent(const struct snapshot *s, const char *field)
{
	if (!s->has_host)
		return false;
	for (int i = 0; i < s->host.nabsent; i++) {
		size_t n = strlen(s->host.absent[i]);
		if (strncmp(field, s->host.absent[i], n) == 0 &&
		    (field[n] == '\0' || field[n] == '.'))
			return true;
	}
	return false;
}

void snapshot_copy(struct snapshot *dst, const struct snapshot *src)
{
	struct snap_cpu *cpus = dst->cpus;
	struct snap_thread *threads = dst->threads;
	size_t cap = dst->threads_cap;

	memcpy(dst, src, sizeof(*dst));
	dst->cpus = xrealloc(cpus, (size_t)(src->ncpus > 0 ? src->ncpus : 1) * sizeof(*cpus));
	if (src->ncpus > 0)
		memcpy(dst->cpus, src->cpus, (size_t)src->ncpus * sizeof(*cpus));
	if (src->nthreads > cap) {
		free(threads);
		threads = xcalloc(src->nthreads, sizeof(*threads));
		cap = src->nthreads;
	}
	dst->threads = threads;
	dst->threads_cap = cap;
	if (src->nthreads)
		memcpy(dst->threads, src->threads, src->nthreads * sizeof(*threads));
}

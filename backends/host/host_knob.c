/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_knob.c: the host's knobs: each written to the host (host_knob_apply) and read back
 * (host_knob_current); host.h says which thread calls them under which lock. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/governor.h"
#include "backends/host/host.h"
#include "backends/host/host_int.h"
#include "backends/host/hostfreq.h"
#include "backends/host/host_bpf.h"

/* cpu.governor through libcpupower, when this host has the governor. */
static int host_knob_governor(struct host_state *h, const char *name, int64_t value, char *err,
			      size_t errlen)
{
	if (!h->cpufreq) {
		snprintf(err, errlen, "%s: the host has no cpufreq policy (libcpupower found none)",
			 name);
		return KNOB_ERR_RUNTIME;
	}
	char avail[160];
	if (!hostfreq_governor_available(cpu_governor_name((int)value), avail, sizeof(avail))) {
		snprintf(err, errlen, "%s: %s is not available on this host (available: %s)", name,
			 cpu_governor_name((int)value), avail);
		return KNOB_ERR_RUNTIME;
	}
	return hostfreq_set_governor(cpu_governor_name((int)value), err, errlen) == 0
		   ? 0
		   : KNOB_ERR_RUNTIME;
}

/* blk.rq_affinity into the block device's queue/rq_affinity. */
static int host_knob_rq_affinity(struct host_state *h, const char *name, int64_t value, char *err,
				 size_t errlen)
{
	if (value < 0 || value > 2) {
		/* Name the value given, not a stand-in (docs/blk.md §6). */
		snprintf(err, errlen,
			 "%s: %lld is not 0, 1 or 2 (the kernel takes it and changes "
			 "nothing)",
			 name, (long long)value);
		return KNOB_ERR_USAGE;
	}
	if (!h->blk_dev[0]) {
		snprintf(err, errlen, "%s: no block device (set TUNETOP_BLK_DEV)", name);
		return KNOB_ERR_RUNTIME;
	}
	return host_blk_rq_affinity_write(h->blk_dev, (int)value, err, errlen) == 0
		   ? 0
		   : KNOB_ERR_RUNTIME;
}

/* host.pid: the process whose threads are always listed (0: none). */
static int host_knob_pid(struct host_state *h, const char *name, int64_t value, char *err,
			 size_t errlen)
{
	char path[32];
	struct stat st;
	snprintf(path, sizeof(path), "/proc/%lld", (long long)value);
	if (value != 0 && stat(path, &st) != 0) {
		/* Following nothing would look like a process without threads. */
		snprintf(err, errlen, "%s: no process %lld (%s)", name, (long long)value,
			 strerror(errno));
		return KNOB_ERR_USAGE;
	}
	h->extra_pid = (pid_t)value;
	return 0;
}

/* pmd.sleep_probe: the eBPF probe loaded and attached, or unloaded. */
static int host_knob_probe(struct host_state *h, const char *name, int64_t value, char *err,
			   size_t errlen)
{
	if (!value) { /* unloaded, not only detached: nothing of ours stays in the kernel */
		host_bpf_close(h->bpf);
		h->bpf = NULL;
		snprintf(h->bpf_err, sizeof(h->bpf_err), "off (pmd.sleep_probe=off)");
		return 0;
	}
	if (!h->bpf)
		h->bpf = host_bpf_open(h->bpf_err, sizeof(h->bpf_err));
	if (!h->bpf) {
		snprintf(err, errlen, "%s: %s", name, h->bpf_err);
		return KNOB_ERR_RUNTIME;
	}
	if (host_bpf_enable(h->bpf, true, err, errlen) != 0) {
		snprintf(h->bpf_err, sizeof(h->bpf_err), "%s", err);
		host_bpf_close(h->bpf);
		h->bpf = NULL;
		return KNOB_ERR_RUNTIME;
	}
	return 0;
}

int host_knob_apply(struct host_state *h, enum knob_id id, int64_t value, char *err, size_t errlen)
{
	const char *name = knob_table[id].name;

	switch (id) {
	case K_CPU_GOVERNOR:
		return host_knob_governor(h, name, value, err, errlen);
	case K_BLK_RQ_AFFINITY:
		return host_knob_rq_affinity(h, name, value, err, errlen);
	case K_PMD_MAXSLEEP_US:
		if (!h->ovs) {
			snprintf(err, errlen, "%s: no Open vSwitch control socket (%s)", name,
				 h->ovs_err[0] ? h->ovs_err : "set TUNETOP_OVS_SOCKET");
			return KNOB_ERR_RUNTIME;
		}
		return host_pmdsec_set_maxsleep(h, (int)value, err, errlen) == 0 ? 0
										 : KNOB_ERR_RUNTIME;
	case K_HOST_PID:
		return host_knob_pid(h, name, value, err, errlen);
	case K_PMD_TIMER_SLACK_NS:
		return host_slack_apply(h, value, err, errlen);
	case K_PMD_SLEEP_PROBE:
		return host_knob_probe(h, name, value, err, errlen);
	default:
		snprintf(err, errlen, "%s: not available on the host backend", name);
		return KNOB_ERR_RUNTIME;
	}
}

void host_knob_refresh(struct host_state *h, enum knob_id id)
{
	if (id == K_PMD_MAXSLEEP_US)
		host_ovswrite_refresh(h);
}

int host_knob_current(struct host_state *h, enum knob_id id, int64_t *out)
{
	char buf[64];

	switch (id) {
	case K_CPU_GOVERNOR: {
		int g = h->cpufreq && hostfreq_governor(buf, sizeof(buf)) == 0
			    ? cpu_governor_parse(buf)
			    : -1;
		if (g < 0)
			return -1;
		*out = g;
		return 0;
	}
	case K_BLK_RQ_AFFINITY: {
		int v =
		    h->blk_dev[0] ? host_blk_rq_affinity_read(h->blk_dev, buf, sizeof(buf)) : -1;
		if (v < 0)
			return -1;
		*out = v;
		return 0;
	}
	case K_PMD_MAXSLEEP_US:
		/* The value in force as of the last sample or write, no I/O here: OVS's own report
		 * (pmd-sleep-show, 3.2+) first, else ovsdb's string as this OVS parses it. */
		if (h->sleep_show_us >= 0) {
			*out = h->sleep_show_us;
			return 0;
		}
		if (!h->have_maxsleep)
			return -1;
		*out = h->maxsleep_us;
		return 0;
	case K_HOST_PID:
		*out = h->extra_pid;
		return 0;
	case K_PMD_TIMER_SLACK_NS:
		return host_slack_current(h, out);
	case K_PMD_SLEEP_PROBE:
		*out = host_bpf_enabled(h->bpf);
		return 0;
	default:
		return -1;
	}
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* topology.c: host topology through libnuma and /sys/devices/system/cpu cache info. */
#include "backends/host/topology.h"

#include <numa.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/xalloc.h"

/* The first line of cpu_root/cpu<cpu>/cache/index<idx>/<name>, false when unreadable. */
static bool topo_cache_line(const char *cpu_root, int cpu, int idx, const char *name, char *buf,
			    size_t len)
{
	char path[320];
	snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/%s", cpu_root, cpu, idx, name);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	return ok;
}

static int topo_cache_id(const char *cpu_root, int cpu, int idx)
{
	char buf[32];
	int id;
	return topo_cache_line(cpu_root, cpu, idx, "id", buf, sizeof(buf)) &&
		       sscanf(buf, "%d", &id) == 1
		   ? id
		   : -1;
}

/*
 * The LLC of a CPU is the highest cache index it lists, and the CPUs that share it are those of
 * its shared_cpu_list: the kernel groups by that mask (cpu_llc_shared_mask, cpus_share_cache:
 * what rq_affinity=1 steers by, docs/blk.md), not by the id, and sysfs can disagree with itself
 * (a VM's emulated CPUID: every CPU's L3 its own id, every list "0-3"). So a group is named by
 * the id its lowest CPU gives its cache (the same id on a host whose sysfs agrees), else this
 * CPU's own id, else the lowest CPU's number; -1 when the CPU lists no cache.
 */
static int topo_llc_of(const char *cpu_root, int cpu)
{
	char list[256];
	int llc_idx = -1;
	/* From the top: the first list found is the highest index's, read once (each file is
	 * an open, a read and a close, per CPU, before the engine's first thread starts). */
	for (int idx = TOPO_MAX_CACHE_INDEX - 1; idx >= 0 && llc_idx < 0; idx--)
		if (topo_cache_line(cpu_root, cpu, idx, "shared_cpu_list", list, sizeof(list)))
			llc_idx = idx;
	if (llc_idx < 0) { /* no lists: the highest index's id alone */
		int id = -1;
		for (int idx = 0; idx < TOPO_MAX_CACHE_INDEX; idx++) {
			int v = topo_cache_id(cpu_root, cpu, idx);
			if (v >= 0)
				id = v;
		}
		return id;
	}
	int first = -1; /* the kernel prints a cpulist in ascending order ("0-3,8-11") */
	if (sscanf(list, "%d", &first) != 1 || first < 0)
		first = cpu;
	int id = topo_cache_id(cpu_root, first, llc_idx);
	if (id < 0)
		id = topo_cache_id(cpu_root, cpu, llc_idx);
	return id >= 0 ? id : first;
}

void topo_llc_read(const char *cpu_root, struct topo_cpu *cpus, int n)
{
	for (int i = 0; i < n; i++)
		cpus[i].llc = topo_llc_of(cpu_root, i);
}

int topo_probe(struct topo_cpu **out)
{
	int n;
	bool numa = numa_available() >= 0;

	n = numa ? numa_num_configured_cpus() : (int)sysconf(_SC_NPROCESSORS_CONF);
	if (n < 1)
		n = 1;
	struct topo_cpu *cpus = xcalloc((size_t)n, sizeof(*cpus));
	for (int i = 0; i < n; i++) {
		int node = numa ? numa_node_of_cpu(i) : 0;
		cpus[i].node = node < 0 ? 0 : node;
	}
	topo_llc_read(TOPO_SYS_CPU, cpus, n);
	*out = cpus;
	return n;
}

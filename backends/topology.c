/* SPDX-License-Identifier: GPL-2.0-or-later */
/* topology.c: host topology through libnuma and /sys/devices/system/cpu cache info. */
#include "backends/topology.h"

#include <numa.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/xalloc.h"

/* The LLC of a CPU is the highest cache index it lists; its id names it. */
static int topo_llc_of(int cpu)
{
	int llc = -1;
	for (int idx = 0; idx < 8; idx++) {
		char path[128];
		int id;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/id", cpu,
			 idx);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%d", &id) == 1)
			llc = id;
		fclose(f);
	}
	return llc;
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
		cpus[i].llc = topo_llc_of(i);
	}
	*out = cpus;
	return n;
}

int topo_nodes(void)
{
	if (numa_available() < 0)
		return 1;
	int n = numa_num_configured_nodes();
	return n < 1 ? 1 : n;
}

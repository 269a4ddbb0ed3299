/* SPDX-License-Identifier: GPL-2.0-or-later */
/* topology.h: the host's CPUs, NUMA nodes (libnuma) and last-level caches (sysfs). */
#ifndef TT_TOPOLOGY_H
#define TT_TOPOLOGY_H

struct topo_cpu {
	int node; /* NUMA node, 0 when libnuma reports none */
	int llc; /* id of the last-level cache it shares, -1 unknown */
};

/* The host's configured CPUs: *out is malloc'd (free it), returns the count (>= 1). */
int topo_probe(struct topo_cpu **out);
/* Where sysfs lists the CPUs, and how many cache indexes (index0..) a CPU is read for. */
#define TOPO_SYS_CPU "/sys/devices/system/cpu"
#define TOPO_MAX_CACHE_INDEX 8
/* Each of the n CPUs' llc from cpu_root (TOPO_SYS_CPU, or a test's tree): CPUs that share a
 * last-level cache by its shared_cpu_list get one llc, as the kernel groups them. */
void topo_llc_read(const char *cpu_root, struct topo_cpu *cpus, int n);

#endif

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
/* Number of NUMA nodes the host has (1 without NUMA). */
int topo_nodes(void);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_flow.h: a PMD's flow table (exact match on the 5-tuple) and the per-packet action. */
#ifndef TT_PMD_FLOW_H
#define TT_PMD_FLOW_H

#include <stdint.h>

#include "engine/pmd/pmd_pkt.h"

/*
 * Open addressing, linear probing. 8192 entries of 32 bytes = 256 KiB per PMD:
 * larger than L1/L2 so a lookup is real memory traffic, like an EMC/megaflow
 * probe. A miss installs the flow (the "upcall"); past 3/4 full the table is
 * flushed, as a revalidator would.
 */
#define PMD_FLOW_TABLE_SIZE 8192
#define PMD_FLOW_FLUSH_FILL (PMD_FLOW_TABLE_SIZE * 3 / 4)

struct pmd_flow {
	uint32_t src_ip, dst_ip;
	uint16_t src_port, dst_port;
	uint8_t proto;
	uint8_t used; /* 0: empty slot */
	uint8_t out_mac[6]; /* action: set dst MAC, then output */
	uint64_t hits;
	uint32_t hash;
	uint32_t pad;
};

struct pmd_flow_table {
	struct pmd_flow *e;
	uint32_t used;
	uint64_t misses; /* owner thread only */
	uint8_t port_mac[6];
};

void pmd_flow_table_init(struct pmd_flow_table *ft, int pmd_id);
void pmd_flow_table_destroy(struct pmd_flow_table *ft);
/* Look up each packet's flow (installing it on a miss) and apply its action:
 * dst MAC from the flow, src MAC = this PMD's port, TTL - 1. Returns misses. */
unsigned pmd_flow_process(struct pmd_flow_table *ft, struct pmd_pkt *pkts, unsigned n);

#endif

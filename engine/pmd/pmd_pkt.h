/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_pkt.h: the packet the PMD subsystem moves, and the OVS constants it is sized by. */
#ifndef TT_PMD_PKT_H
#define TT_PMD_PKT_H

#include <stdint.h>

/* docs/pmd.md §1.1: the largest rx batch; one burst per rxq per iteration. */
#define NETDEV_MAX_BURST 32

/*
 * A packet: the Ethernet and IPv4/L4 header fields the datapath looks at,
 * and the times it arrived and was last sent (latency, drop times), 48 bytes.
 * Rings carry it by value; PMDs read the 5-tuple for the flow lookup and rewrite the MACs and the
 * TTL, the mac-swap peer swaps the MACs, so every hop really reads and writes it.
 */
struct pmd_pkt {
	uint8_t dst_mac[6];
	uint8_t src_mac[6];
	uint16_t ethertype;
	uint8_t ttl;
	uint8_t proto;
	uint32_t src_ip, dst_ip;
	uint16_t src_port, dst_port;
	uint32_t seq; /* per source, for ordering checks in tests */
	uint64_t t_arrival_ns; /* CLOCK_MONOTONIC: when it arrived at its source's NIC */
	uint64_t t_hop_ns; /* when a PMD last sent it (the time it reached a peer) */
};

_Static_assert(sizeof(struct pmd_pkt) == 48, "pmd_pkt is meant to be 48 bytes");

#endif

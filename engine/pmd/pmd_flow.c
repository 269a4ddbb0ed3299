/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmd_flow.c: the per-packet datapath work of a PMD: flow lookup and header rewrite. */
#include "engine/pmd/pmd_flow.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

void pmd_flow_table_init(struct pmd_flow_table *ft, int pmd_id)
{
	ft->e = xaligned_alloc(64, PMD_FLOW_TABLE_SIZE * sizeof(*ft->e));
	memset(ft->e, 0, PMD_FLOW_TABLE_SIZE * sizeof(*ft->e));
	ft->used = 0;
	ft->misses = 0;
	static const uint8_t base[6] = {0x02, 0x00, 0x00, 0x0f, 0x00, 0x00};
	memcpy(ft->port_mac, base, 6);
	ft->port_mac[5] = (uint8_t)pmd_id;
}

void pmd_flow_table_destroy(struct pmd_flow_table *ft)
{
	free(ft->e);
	ft->e = NULL;
}

static uint32_t pmd_flow_hash(const struct pmd_pkt *p)
{
	/* murmur3-style finalizer over the 5-tuple: cheap and well spread. */
	uint64_t h = ((uint64_t)p->src_ip << 32 | p->dst_ip) ^
		     ((uint64_t)p->src_port << 24 | (uint64_t)p->dst_port << 8 | p->proto) *
			 0x9e3779b97f4a7c15ULL;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (uint32_t)h;
}

static int pmd_flow_match(const struct pmd_flow *f, const struct pmd_pkt *p, uint32_t h)
{
	return f->hash == h && f->src_ip == p->src_ip && f->dst_ip == p->dst_ip &&
	       f->src_port == p->src_port && f->dst_port == p->dst_port && f->proto == p->proto;
}

static struct pmd_flow *pmd_flow_lookup(struct pmd_flow_table *ft, const struct pmd_pkt *p,
					unsigned *misses)
{
	uint32_t h = pmd_flow_hash(p);
	for (;;) {
		for (uint32_t i = h;; i++) {
			struct pmd_flow *f = &ft->e[i & (PMD_FLOW_TABLE_SIZE - 1)];
			if (!f->used)
				break;
			if (pmd_flow_match(f, p, h))
				return f;
		}
		if (ft->used < PMD_FLOW_FLUSH_FILL)
			break;
		memset(ft->e, 0, PMD_FLOW_TABLE_SIZE * sizeof(*ft->e)); /* revalidator flush */
		ft->used = 0;
	}
	/* Miss: the "upcall" installs an output-to-next-hop flow. */
	uint32_t i = h;
	while (ft->e[i & (PMD_FLOW_TABLE_SIZE - 1)].used)
		i++;
	struct pmd_flow *f = &ft->e[i & (PMD_FLOW_TABLE_SIZE - 1)];
	f->src_ip = p->src_ip;
	f->dst_ip = p->dst_ip;
	f->src_port = p->src_port;
	f->dst_port = p->dst_port;
	f->proto = p->proto;
	f->hash = h;
	f->hits = 0;
	f->used = 1;
	f->out_mac[0] = 0x02;
	f->out_mac[1] = 0x01;
	memcpy(&f->out_mac[2], &h, 4);
	ft->used++;
	ft->misses++;
	(*misses)++;
	return f;
}

unsigned pmd_flow_process(struct pmd_flow_table *ft, struct pmd_pkt *pkts, unsigned n)
{
	unsigned misses = 0;
	for (unsigned i = 0; i < n; i++) {
		struct pmd_pkt *p = &pkts[i];
		struct pmd_flow *f = pmd_flow_lookup(ft, p, &misses);
		f->hits++;
		memcpy(p->dst_mac, f->out_mac, 6);
		memcpy(p->src_mac, ft->port_mac, 6);
		if (p->ttl > 1)
			p->ttl--;
	}
	return misses;
}

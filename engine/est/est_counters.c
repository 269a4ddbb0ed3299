/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est_counters.c: allocating the per-CPU counter regions (libnuma when available). */
#include "engine/est/est_counters.h"

#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/xalloc.h"

/* 1024 slots of 40 B: ten whole pages per region. */
#define EST_CTR_REGION_BYTES ((size_t)EST_CTR_CHUNK * EST_CTR_SLOT_BYTES)
/* The smallest page there is: a store every this many bytes writes every page. */
#define EST_CTR_PAGE_BYTES 4096
_Static_assert(EST_CTR_REGION_BYTES % EST_CTR_PAGE_BYTES == 0, "regions are whole pages");

void est_counters_init(struct est_counters *c, int ncpus, const int *nodes)
{
	int maxnode;

	memset(c, 0, sizeof(*c));
	c->ncpus = ncpus;
	c->node = xcalloc((size_t)ncpus, sizeof(*c->node));
	c->slab_next = xcalloc((size_t)ncpus, sizeof(*c->slab_next));
	c->slab_left = xcalloc((size_t)ncpus, sizeof(*c->slab_left));
	c->numa = numa_available() >= 0;
	maxnode = c->numa ? numa_max_node() : 0;
	for (int i = 0; i < ncpus; i++) {
		int n = nodes ? nodes[i] : 0;
		c->node[i] = (n >= 0 && n <= maxnode) ? n : 0;
	}
}

#define EST_CTR_SLAB_BYTES (EST_CTR_REGION_BYTES * EST_CTR_SLAB_REGIONS)

/* A fresh slab for cpu and for every CPU of its node that has none left either, in one
 * mapping on that node. Fresh anonymous memory: its pages read as zero until written. */
static void est_ctr_slabs_map(struct est_counters *c, int cpu)
{
	int node = c->node[cpu], n = 0;
	for (int i = cpu; i < c->ncpus; i++)
		n += c->node[i] == node && !c->slab_left[i];
	size_t bytes = (size_t)n * EST_CTR_SLAB_BYTES;
	void *p;
	if (c->numa) {
		p = numa_alloc_onnode(bytes, node);
		if (!p) {
			fprintf(stderr, "tunetop: numa_alloc_onnode: out of memory\n");
			abort();
		}
	} else {
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			fprintf(stderr, "tunetop: mmap: out of memory\n");
			abort();
		}
	}
	/* Small pages: with transparent huge pages on "always", the store that touches a
	 * region's page could fault in 2 MiB of the mapping, where the region is 40 KiB. */
	madvise(p, bytes, MADV_NOHUGEPAGE);
	if (c->nmaps == c->maps_cap) {
		c->maps_cap = c->maps_cap ? 2 * c->maps_cap : 64;
		c->maps = xreallocarray(c->maps, c->maps_cap, sizeof(*c->maps));
	}
	c->maps[c->nmaps++] = (struct est_ctr_map){p, bytes};
	char *next = p;
	for (int i = cpu; i < c->ncpus; i++) {
		if (c->node[i] != node || c->slab_left[i])
			continue;
		c->slab_next[i] = (struct est_pcpu *)next;
		c->slab_left[i] = EST_CTR_SLAB_REGIONS;
		next += EST_CTR_SLAB_BYTES;
	}
}

static struct est_pcpu *est_ctr_region_alloc(struct est_counters *c, int cpu)
{
	if (!c->slab_left[cpu])
		est_ctr_slabs_map(c, cpu);
	struct est_pcpu *r = c->slab_next[cpu];
	c->slab_next[cpu] += EST_CTR_CHUNK;
	c->slab_left[cpu]--;
	c->bytes += EST_CTR_REGION_BYTES; /* touched below: what the counters hold */
	/* Touch every page now, on its node: a never-written page would be the
	 * shared zero page, and summing it would measure one cached page. The
	 * slab is a fresh anonymous mapping (numa_alloc_onnode maps one too), so
	 * its pages come zeroed: one store a page makes each page the region's
	 * own, as a memset of the region did at ~1.7 times the cost (the fault
	 * zeroes the page, the memset wrote it all again). The slab's unused
	 * regions stay untouched (virtual only). */
	for (size_t off = 0; off < EST_CTR_REGION_BYTES; off += EST_CTR_PAGE_BYTES) {
		/* The counter that starts at byte off (counters are 8-byte aligned). */
		size_t slot = off / EST_CTR_SLOT_BYTES, k = off % EST_CTR_SLOT_BYTES / 8;
		atomic_store_explicit(&r[slot].cnt[k], 0, memory_order_relaxed);
	}
	return r;
}

void est_counters_reserve(struct est_counters *c, uint32_t nslots)
{
	uint32_t want = (nslots + EST_CTR_CHUNK - 1) / EST_CTR_CHUNK;

	while (c->nchunks < want && c->nchunks < EST_CTR_MAX_CHUNKS) {
		struct est_ctr_chunk *ch = xcalloc(1, sizeof(*ch));
		ch->cpu = xcalloc((size_t)c->ncpus, sizeof(*ch->cpu));
		for (int i = 0; i < c->ncpus; i++)
			ch->cpu[i] = est_ctr_region_alloc(c, i);
		/* Release: a reader that sees the chunk sees its zeroed regions. */
		atomic_store_explicit(&c->chunk[c->nchunks], ch, memory_order_release);
		c->nchunks++;
	}
}

void est_counters_free(struct est_counters *c)
{
	for (uint32_t k = 0; k < c->nchunks; k++) {
		struct est_ctr_chunk *ch = atomic_load_explicit(&c->chunk[k], memory_order_relaxed);
		free(ch->cpu); /* the regions belong to the slabs */
		free(ch);
		atomic_store_explicit(&c->chunk[k], NULL, memory_order_relaxed);
	}
	for (size_t k = 0; k < c->nmaps; k++) {
		if (c->numa)
			numa_free(c->maps[k].p, c->maps[k].bytes);
		else
			munmap(c->maps[k].p, c->maps[k].bytes);
	}
	free(c->maps);
	free(c->slab_next);
	free(c->slab_left);
	c->maps = NULL;
	c->slab_next = NULL;
	c->slab_left = NULL;
	c->nmaps = c->maps_cap = 0;
	c->nchunks = 0;
	c->bytes = 0;
	free(c->node);
	c->node = NULL;
}

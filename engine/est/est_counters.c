/* est_counters.c: allocating the per-CPU counter regions (libnuma when available). */
#include "engine/est/est_counters.h"

#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

#define EST_CTR_REGION_BYTES ((size_t)EST_CTR_CHUNK * EST_CTR_LINE_BYTES)

void est_counters_init(struct est_counters *c, int ncpus, const int *nodes)
{
	int maxnode;

	memset(c, 0, sizeof(*c));
	c->ncpus = ncpus;
	c->node = xcalloc((size_t)ncpus, sizeof(*c->node));
	c->numa = numa_available() >= 0;
	maxnode = c->numa ? numa_max_node() : 0;
	for (int i = 0; i < ncpus; i++) {
		int n = nodes ? nodes[i] : 0;
		c->node[i] = (n >= 0 && n <= maxnode) ? n : 0;
	}
}

static struct est_pcpu *est_ctr_region_alloc(struct est_counters *c, int cpu)
{
	void *p = NULL;

	if (c->numa) {
		p = numa_alloc_onnode(EST_CTR_REGION_BYTES, c->node[cpu]);
		if (!p) {
			fprintf(stderr, "tunetop: numa_alloc_onnode: out of memory\n");
			abort();
		}
	} else {
		p = xaligned_alloc(4096, EST_CTR_REGION_BYTES);
	}
	/* Touch every page now, on its node: a never-written page would be the
	 * shared zero page, and summing it would measure one cached page. */
	memset(p, 0, EST_CTR_REGION_BYTES);
	return p;
}

void est_counters_reserve(struct est_counters *c, uint32_t nslots)
{
	uint32_t want = (nslots + EST_CTR_CHUNK - 1) / EST_CTR_CHUNK;

	while (c->nchunks < want && c->nchunks < EST_CTR_MAX_CHUNKS) {
		struct est_ctr_chunk *ch = xcalloc(1, sizeof(*ch));
		ch->cpu = xcalloc((size_t)c->ncpus, sizeof(*ch->cpu));
		for (int i = 0; i < c->ncpus; i++)
			ch->cpu[i] = est_ctr_region_alloc(c, i);
		c->bytes += (uint64_t)c->ncpus * EST_CTR_REGION_BYTES;
		/* Release: a reader that sees the chunk sees its zeroed regions. */
		atomic_store_explicit(&c->chunk[c->nchunks], ch, memory_order_release);
		c->nchunks++;
	}
}

void est_counters_free(struct est_counters *c)
{
	for (uint32_t k = 0; k < c->nchunks; k++) {
		struct est_ctr_chunk *ch = atomic_load_explicit(&c->chunk[k], memory_order_relaxed);
		for (int i = 0; i < c->ncpus; i++) {
			if (c->numa)
				numa_free(ch->cpu[i], EST_CTR_REGION_BYTES);
			else
				free(ch->cpu[i]);
		}
		free(ch->cpu);
		free(ch);
		atomic_store_explicit(&c->chunk[k], NULL, memory_order_relaxed);
	}
	c->nchunks = 0;
	c->bytes = 0;
	free(c->node);
	c->node = NULL;
}

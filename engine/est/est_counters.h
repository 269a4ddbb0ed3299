/* SPDX-License-Identifier: GPL-2.0-or-later */
/* est_counters.h: per-CPU estimator counters laid out like the kernel's per-CPU areas. */
#ifndef TT_EST_COUNTERS_H
#define TT_EST_COUNTERS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/limits.h"
#include "engine/est/est_ewma.h"

/*
 * Each emulated possible CPU has its own regions (allocated on that CPU's NUMA
 * node with libnuma when it is available), holding one 40-byte slot per
 * estimator, packed as the kernel's per-CPU allocator packs struct
 * ip_vs_cpu_stats (five u64 at 8-byte alignment; the u64_stats_sync is empty on
 * 64-bit): summing one estimator reads its slot on every emulated CPU, as
 * ip_vs_chain_estimation() does over for_each_possible_cpu(). Regions come in
 * chunks of EST_CTR_CHUNK slots so the count can grow live without moving
 * anything; chunk pointers are published with release and read with acquire.
 *
 * Each region has one writer (the packet thread that owns that emulated CPU:
 * neighbouring slots share a cache line only within one CPU's region, so no
 * two writers share a line) and is read by the kthreads: relaxed atomic loads
 * and stores, which compile to plain moves on x86-64 like u64_stats on 64-bit
 * kernels.
 */
#define EST_CTR_SLOT_BYTES 40
#define EST_CTR_CHUNK 1024
#define EST_CTR_MAX_CHUNKS (EST_MAX_COUNT / EST_CTR_CHUNK + 4)

struct est_pcpu {
	_Atomic uint64_t cnt[EST_NSTATS];
};

_Static_assert(sizeof(struct est_pcpu) == EST_CTR_SLOT_BYTES, "40 bytes per CPU per estimator");

struct est_ctr_chunk {
	struct est_pcpu **cpu; /* [ncpus]: this chunk's region on each emulated CPU */
};

struct est_counters {
	int ncpus;
	int *node; /* NUMA node of each emulated CPU */
	bool numa; /* regions come from numa_alloc_onnode */
	_Atomic(struct est_ctr_chunk *) chunk[EST_CTR_MAX_CHUNKS];
	uint32_t nchunks; /* control thread only */
	uint64_t bytes; /* allocated for counters */

	/* Regions are cut from per-CPU slabs of EST_CTR_SLAB_REGIONS: 32000
	 * separate 64 KiB mappings for est.count 2M took 1 s to unmap at exit,
	 * 1000 slabs a fraction of that. [cpu]: the current slab, regions left.
	 * The slabs of the CPUs of one node that run out together (they do: a
	 * chunk takes a region of every CPU) are one mapping: est.cpus 16 made
	 * 16 mappings (mmap, mbind, munmap each) where one serves. */
	struct est_pcpu **slab_next;
	uint32_t *slab_left;
	struct est_ctr_map {
		void *p;
		size_t bytes;
	} * maps; /* every mapping, to unmap */
	size_t nmaps, maps_cap;
};
#define EST_CTR_SLAB_REGIONS 32

/* nodes[c] for c < ncpus (NULL: all on node 0). */
void est_counters_init(struct est_counters *c, int ncpus, const int *nodes);
/* Make slots [0, nslots) exist (control thread). Regions are zeroed and touched. */
void est_counters_reserve(struct est_counters *c, uint32_t nslots);
void est_counters_free(struct est_counters *c);

static inline struct est_pcpu *est_ctr_line(struct est_counters *c, uint32_t slot, int cpu)
{
	struct est_ctr_chunk *ch =
	    atomic_load_explicit(&c->chunk[slot / EST_CTR_CHUNK], memory_order_acquire);
	return &ch->cpu[cpu][slot % EST_CTR_CHUNK];
}

/* Sum one slot over every emulated CPU (the per-estimator loop of §3). */
static inline void est_counters_sum(struct est_counters *c, uint32_t slot, uint64_t sum[EST_NSTATS])
{
	struct est_ctr_chunk *ch =
	    atomic_load_explicit(&c->chunk[slot / EST_CTR_CHUNK], memory_order_acquire);
	uint32_t off = slot % EST_CTR_CHUNK;
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0;

	for (int i = 0; i < c->ncpus; i++) {
		struct est_pcpu *p = &ch->cpu[i][off];
		s0 += atomic_load_explicit(&p->cnt[0], memory_order_relaxed);
		s1 += atomic_load_explicit(&p->cnt[1], memory_order_relaxed);
		s2 += atomic_load_explicit(&p->cnt[2], memory_order_relaxed);
		s3 += atomic_load_explicit(&p->cnt[3], memory_order_relaxed);
		s4 += atomic_load_explicit(&p->cnt[4], memory_order_relaxed);
	}
	sum[0] = s0, sum[1] = s1, sum[2] = s2, sum[3] = s3, sum[4] = s4;
}

/* Add to one counter of a slot (its single writer only). */
static inline void est_ctr_add(struct est_pcpu *p, enum est_stat s, uint64_t v)
{
	uint64_t old = atomic_load_explicit(&p->cnt[s], memory_order_relaxed);
	atomic_store_explicit(&p->cnt[s], old + v, memory_order_relaxed);
}

#endif

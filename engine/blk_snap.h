/* blk_snap.h: the IO completion steering section of a snapshot (INTERFACE.md "blk"). */
#ifndef TT_BLK_SNAP_H
#define TT_BLK_SNAP_H

#include <stdint.h>

#define BLK_SNAP_MAX_CPUS 256

struct blk_cpu_snap {
	int cpu;
	int llc;
	uint64_t block_softirq; /* BLOCK softirq runs (drains), since start */
	uint64_t ipi_recv;      /* call-single IPIs received, since start */
	uint64_t completed;     /* completions run on this CPU, since start */
};

struct blk_snap {
	int64_t rq_affinity;
	double iops;
	double lat_p50_us, lat_p99_us, lat_p999_us; /* completion latency over the interval */
	double ipis_per_s;
	uint64_t direct, local_softirq, remote;     /* completions by path, since start */
	int irq_cpu;
	int ncpus;
	struct blk_cpu_snap per_cpu[BLK_SNAP_MAX_CPUS];
	/* Exact at one instant: submitted = completed + in_flight. */
	uint64_t submitted, completed, in_flight;
};

#endif

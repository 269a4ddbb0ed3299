/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snap_blk.h: the blk section of a snapshot: IO completion steering (docs/blk.md). */
#ifndef TT_BLK_SNAP_H
#define TT_BLK_SNAP_H

#include <stdbool.h>
#include <stdint.h>

#define BLK_SNAP_MAX_CPUS 256
/* The submit CPU x completion CPU matrix covers the first 16 emulated CPUs. */
#define BLK_MATRIX_MAX 16
/* Upper bounds (ns) of the cumulative latency buckets the snapshot carries. */
#define BLK_SNAP_LAT_NLE 14
#define BLK_SNAP_LAT_LE_NS                                                                         \
	{                                                                                          \
		10000, 20000, 50000, 100000, 200000, 500000, 1000000, 2000000, 5000000, 10000000,  \
		    20000000, 50000000, 100000000, 1000000000                                      \
	}

struct blk_cpu_snap {
	int cpu;
	int llc;
	int submitters; /* blk-sub threads placed on this emulated CPU */
	uint64_t block_softirq; /* BLOCK softirq runs (drains), since start */
	uint64_t ipi_recv; /* call-single IPIs received, since start */
	uint64_t completed; /* completions run on this CPU, since start */
	uint64_t remote; /* of which steered here by IPI, since start */

	/* The same over the interval, per second. */
	double completed_per_s, block_softirq_per_s, ipi_recv_per_s;
};

struct blk_snap {
	int64_t rq_affinity; /* as the sysfs file reads: SAME_COMP << SAME_FORCE */
	double iops;
	double lat_p50_us, lat_p99_us, lat_p999_us; /* completion latency over the interval */
	double ipis_per_s;
	/* Completions by path, since start. These and per_cpu[].completed are read
	 * before the totals: their sums are <= completed, lagging by completions in
	 * progress at that instant. */
	uint64_t direct, local_softirq, remote;
	int irq_cpu;
	int ncpus;
	struct blk_cpu_snap per_cpu[BLK_SNAP_MAX_CPUS];
	/* submitted = completed + in_flight exactly, each submitter's pair read at one
	 * instant (blk_sample_sub), so 0 <= in_flight <= submitters * iodepth. */
	uint64_t submitted, completed, in_flight;

	/* Added later, nothing renamed. */
	int submitters, iodepth, nr_hw_queues;
	bool fault_lost_kick; /* the fault injection knob is on */
	uint64_t irqs; /* device interrupts raised, since start */
	uint64_t ipis_sent; /* kicks sent (inbox was empty), since start */
	uint64_t csd_busy; /* remote pushes that found the csd in flight, since start */
	uint64_t data_errors; /* completions that read back wrong data: must stay 0 */
	double irq_cpu_pct; /* blk-irq thread, % of one core */
	double dev_cpu_pct; /* blk-dev thread */
	double sub_cpu_pct; /* all blk-sub threads together */

	/* Added later (nothing above renamed). in_flight above is now
	 * counted where the requests are: queued to or held by the device,
	 * waiting for the interrupt CPU, on a done list. submitted = completed +
	 * in_flight holds exactly with the subsystem paused (engine check); live,
	 * |unaccounted| <= submitters * iodepth (requests in a thread's hands). */
	int64_t unaccounted; /* submitted - completed - in_flight as read */
	bool bound_broken; /* the live bound failed (default false: a host snapshot) */
	bool hung; /* a submitter owed requests completed none in the interval */
	int hung_submitters; /* how many such submitters */
	bool lat_valid; /* completions in the interval: lat_* mean something */
	uint64_t lost_kicks; /* remote drains that left a request behind (fault) */
	int matrix_n; /* rows/cols used: min(ncpus, BLK_MATRIX_MAX) */
	/* completions per second, [submitting CPU][completing CPU], over the interval */
	double matrix_per_s[BLK_MATRIX_MAX][BLK_MATRIX_MAX];
	/* Completion latency histogram since start, for the Prometheus exporter:
	 * completions under each BLK_SNAP_LAT_LE_NS bound (cumulative; a bound inside
	 * an HDR bucket counts up to that bucket's lower edge, within 0.8%), all
	 * completions, and their sum from the buckets' midpoints (within 0.4%). */
	uint64_t lat_le[BLK_SNAP_LAT_NLE];
	uint64_t lat_count;
	double lat_sum_ns;

	/* Added later: the cost of a completion over the interval, from the blk
	 * threads' own CPU clocks against the completions counted (the 2008 %sys
	 * comparison, docs/blk.md §8). per_cpl_valid false (JSON null): no completion
	 * in the interval, or a source that cannot tell. */
	bool per_cpl_valid;
	double cpu_ns_per_cpl; /* every blk thread's CPU ns / completions */
	double irq_ns_per_cpl; /* blk-irq's alone */
	double sub_ns_per_cpl; /* the blk-sub threads' together */
	double ipis_per_cpl; /* call-single IPIs received / completions */

	/* Added later: the interrupt CPU's busy time over the interval, % of the
	 * interval: everything but blk-irq's waits for work, so its own run time
	 * plus the time the host kept it off its CPU while it had work; host took is
	 * busy minus irq_cpu_pct (never below 0). irq_busy_valid false (JSON null): a
	 * source without an interrupt thread to watch (the host). */
	bool irq_busy_valid;
	double irq_busy_pct;
	double irq_host_took_pct;
};

#endif

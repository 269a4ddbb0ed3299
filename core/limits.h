/* SPDX-License-Identifier: GPL-2.0-or-later */
/* limits.h: the ranges the knob table and the subsystems share, one constant each. */
#ifndef TT_LIMITS_H
#define TT_LIMITS_H

/* Emulated CPUs (cpu.count, cpu.llc_cpus, est.cpulist_cpus, blk.irq_cpu). */
#define CPU_MAX_EMU 1024

/* load.spin_threads and load.sleep_threads, each. */
#define LOAD_MAX_PER_KNOB 512

/* est.count: estimators (the chunk tables of engine/est/ are sized for it). */
#define EST_MAX_COUNT 2000000
/* est.cpus: possible CPUs whose counters each estimator sums. */
#define EST_MAX_CPUS 4096

/* pmd.count and pmd.rxqs. */
#define PMD_MAX 8
#define PMD_MAX_RXQS 16
/* pmd.maxsleep_us: OVS caps pmd-maxsleep at 10 ms (docs/pmd.md §1.1). */
#define PMD_MAX_SLEEP_US 10000
/* pmd.rxq_size and pmd.txq_size, descriptors (powers of two). */
#define PMD_MIN_RING 32
#define PMD_MAX_RING 65536

/* blk.rq_affinity: the largest value that means something (docs/blk.md §6). The sysfs
 * file takes any unsigned int; 3 and up are accepted and change nothing. */
#define BLK_RQ_AFFINITY_MAX 2
#define BLK_RQ_AFFINITY_STORE_MAX 4294967295LL
/* blk.ipi_cost_ns: 1 ms, far above the microseconds an IPI costs (docs/blk.md). */
#define BLK_IPI_COST_MAX_NS 1000000
/* blk.submitters, blk.iodepth, blk.nr_hw_queues. */
#define BLK_MAX_SUBMITTERS 64
#define BLK_MAX_IODEPTH 1024
#define BLK_MAX_HW_QUEUES 64

#endif

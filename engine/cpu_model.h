/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpu_model.h: emulated CPUs (topology, load, frequency) and the governor model. */
#ifndef TT_CPU_MODEL_H
#define TT_CPU_MODEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/governor.h"
#include "core/limits.h"

/*
 * The emulated frequency range. The ratio fmax/fmin (2.7) is the one the seed
 * measured between performance and ondemand calibration on the EPYC 7601
 * (single est 11171 ns vs 4138 ns, docs/est.md section 7).
 */
#define CPU_EMU_FMAX_MHZ 3000
#define CPU_EMU_FMIN_MHZ 1100
/* Governor model period: the ondemand default sampling rate on modern kernels. */
#define CPU_GOV_PERIOD_NS 10000000ULL
/* ondemand: above this load the CPU goes straight to fmax (cpufreq_ondemand.c). */
#define CPU_ONDEMAND_UP_THRESHOLD 80
/* schedutil: next_freq = 1.25 * fmax * util (kernel/sched/cpufreq_schedutil.c). */
#define CPU_SCHEDUTIL_MARGIN_PCT 125
/* schedutil's util follows PELT, whose signal halves in about 32 ms. */
#define CPU_PELT_HALFLIFE_NS 32000000ULL

struct cpu_emu {
	int id;
	int node; /* NUMA node (libnuma, or the cpu.nodes knob) */
	int llc; /* last-level cache id */
	_Atomic bool online; /* relaxed: advisory for steering decisions */
	_Atomic uint32_t freq_mhz; /* written by the governor model, read by workers (relaxed) */
	double load_pct; /* last governor period's utilisation (model thread only) */
	double util_avg; /* PELT-like average for schedutil (model thread only) */
	uint64_t busy_ns_total; /* thread CPU time summed over governor periods */
};

struct cpu_model {
	int count;
	struct cpu_emu *cpus;
	bool emulated; /* true: frequency model in force; false: host cpufreq */
	_Atomic int governor; /* enum cpu_governor in force */
	uint32_t fmin_mhz, fmax_mhz;
	uint64_t *gov_busy_ns; /* governor model's scratch, count entries (its thread only) */
};

/*
 * The governor decision for one CPU over one period: pure, unit-tested.
 * load_pct is busy time / period; util_avg the decayed average (0..1) that
 * schedutil uses. Returns the next frequency in MHz within [fmin, fmax].
 */
uint32_t cpu_gov_next_freq(enum cpu_governor g, double load_pct, double util_avg, uint32_t fmin,
			   uint32_t fmax);
/* One PELT-like step: decay util_avg over dt_ns toward the period's load (0..1). */
double cpu_util_decay(double util_avg, double load, uint64_t dt_ns);

/*
 * Stretch real work done on emulated CPU cpu: work_ns measured at the host's
 * speed becomes work_ns * fmax / f by spinning the difference. A no-op when
 * the host's real cpufreq is in force. Returns the extra ns spun.
 */
uint64_t cpu_stretch(struct cpu_model *m, int cpu, uint64_t work_ns);

/* The factor fmax/f (>= 1.0) that cpu_stretch applies now. */
double cpu_slowdown(struct cpu_model *m, int cpu);

#endif

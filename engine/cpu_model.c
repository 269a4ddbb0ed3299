/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpu_model.c: the emulated frequency model behind cpu_model.h. */
#include "engine/cpu_model.h"

#include <math.h>
#include <string.h>

#include "core/clock.h"

static uint32_t clamp_freq(double f, uint32_t fmin, uint32_t fmax)
{
	if (f < fmin)
		return fmin;
	if (f > fmax)
		return fmax;
	return (uint32_t)lround(f);
}

uint32_t cpu_gov_next_freq(enum cpu_governor g, double load_pct, double util_avg, uint32_t fmin,
			   uint32_t fmax)
{
	switch (g) {
	case GOV_PERFORMANCE:
		return fmax;
	case GOV_POWERSAVE:
		return fmin;
	case GOV_ONDEMAND:
		/* od_update(): straight to max above up_threshold, else
		 * proportional to load between min and max. */
		if (load_pct > CPU_ONDEMAND_UP_THRESHOLD)
			return fmax;
		return clamp_freq(fmin + load_pct * (fmax - fmin) / 100.0, fmin, fmax);
	case GOV_SCHEDUTIL:
		return clamp_freq(fmax * util_avg * CPU_SCHEDUTIL_MARGIN_PCT / 100.0, fmin, fmax);
	default:
		return fmax;
	}
}

double cpu_util_decay(double util_avg, double load, uint64_t dt_ns)
{
	/* y^halflife = 1/2: the weight of the old average after dt. */
	double keep = pow(0.5, (double)dt_ns / (double)CPU_PELT_HALFLIFE_NS);
	if (load < 0)
		load = 0;
	if (load > 1)
		load = 1;
	return util_avg * keep + load * (1.0 - keep);
}

double cpu_slowdown(struct cpu_model *m, int cpu)
{
	if (!m || !m->emulated || cpu < 0 || cpu >= m->count)
		return 1.0;
	uint32_t f = atomic_load_explicit(&m->cpus[cpu].freq_mhz, memory_order_relaxed);
	if (f == 0 || f >= m->fmax_mhz)
		return 1.0;
	return (double)m->fmax_mhz / (double)f;
}

uint64_t cpu_stretch(struct cpu_model *m, int cpu, uint64_t work_ns)
{
	double s = cpu_slowdown(m, cpu);
	if (s <= 1.0)
		return 0;
	uint64_t extra = (uint64_t)((double)work_ns * (s - 1.0));
	clock_spin_ns(extra);
	return extra;
}

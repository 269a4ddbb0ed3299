/* SPDX-License-Identifier: GPL-2.0-or-later */
/* governor.c: governor names as cpufreq spells them. */
#include "core/governor.h"

#include <string.h>

static const char *const cpu_governor_names[GOV_COUNT] = {
    "performance",
    "powersave",
    "ondemand",
    "schedutil",
};

const char *cpu_governor_name(enum cpu_governor g)
{
	return (unsigned)g < GOV_COUNT ? cpu_governor_names[g] : "?";
}

int cpu_governor_parse(const char *s)
{
	for (int g = 0; g < GOV_COUNT; g++)
		if (strcmp(s, cpu_governor_names[g]) == 0)
			return g;
	return -1;
}

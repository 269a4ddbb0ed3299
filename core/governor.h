/* SPDX-License-Identifier: GPL-2.0-or-later */
/* governor.h: the CPU frequency governors tunetop knows by name (engine model and host alike). */
#ifndef TT_GOVERNOR_H
#define TT_GOVERNOR_H

enum cpu_governor { GOV_PERFORMANCE, GOV_POWERSAVE, GOV_ONDEMAND, GOV_SCHEDUTIL, GOV_COUNT };

const char *cpu_governor_name(enum cpu_governor g); /* "?" when out of range */
int cpu_governor_parse(const char *s); /* -1 if unknown */

#endif

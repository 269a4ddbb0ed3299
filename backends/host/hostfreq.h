/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostfreq.h: the host's cpufreq policy through libcpupower (governor, frequency). */
#ifndef TT_HOSTFREQ_H
#define TT_HOSTFREQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True when libcpupower finds a cpufreq policy on CPU 0 (false on most VMs). */
bool hostfreq_available(void);
/* The governor of CPU 0's policy into buf; -1 when there is none. */
int hostfreq_governor(char *buf, size_t len);
/* Set the governor of every CPU's policy; needs root. -1 with a message on failure. */
int hostfreq_set_governor(const char *gov, char *err, size_t errlen);
/*
 * Whether CPU 0's policy lists gov in scaling_available_governors; the list
 * (space-separated) goes into avail. True when the host gives no list.
 */
bool hostfreq_governor_available(const char *gov, char *avail, size_t len);
/* Current frequency of cpu in MHz, 0 when unknown. */
uint32_t hostfreq_cur_mhz(unsigned cpu);

#endif

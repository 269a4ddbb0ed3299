/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostfreq.c: libcpupower calls behind hostfreq.h. */
#include "backends/host/hostfreq.h"

#include <cpufreq.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool hostfreq_available(void)
{
	struct cpufreq_policy *p = cpufreq_get_policy(0);
	if (!p)
		return false;
	cpufreq_put_policy(p);
	return true;
}

int hostfreq_governor(char *buf, size_t len)
{
	struct cpufreq_policy *p = cpufreq_get_policy(0);
	if (!p)
		return -1;
	snprintf(buf, len, "%s", p->governor ? p->governor : "?");
	cpufreq_put_policy(p);
	return 0;
}

int hostfreq_set_governor(const char *gov, char *err, size_t errlen)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	char name[64];

	snprintf(name, sizeof(name), "%s", gov);
	for (long cpu = 0; cpu < n; cpu++) {
		int rc = cpufreq_modify_policy_governor((unsigned)cpu, name);
		if (rc != 0) {
			/* libcpupower turns a failed open() into -ENODEV; errno still has why. */
			int e = (errno == EACCES || errno == EPERM || errno == EROFS) ? errno
				: rc < 0					      ? -rc
										      : errno;
			snprintf(err, errlen, "cpu.governor: cannot set %s on cpu%ld: %s%s", gov,
				 cpu, strerror(e ? e : EIO),
				 (e == EACCES || e == EPERM || e == EROFS) ? " (needs root)" : "");
			return -1;
		}
	}
	return 0;
}

bool hostfreq_governor_available(const char *gov, char *avail, size_t len)
{
	struct cpufreq_available_governors *first = cpufreq_get_available_governors(0);
	bool found = false;
	size_t n = 0;

	if (len)
		avail[0] = '\0';
	if (!first)
		return true; /* no list: let the kernel decide */
	for (struct cpufreq_available_governors *g = first; g; g = g->next) {
		if (g->governor && strcmp(g->governor, gov) == 0)
			found = true;
		if (g->governor && n < len) {
			int w = snprintf(avail + n, len - n, "%s%s", n ? " " : "", g->governor);
			n += w > 0 ? (size_t)w : 0;
		}
	}
	cpufreq_put_available_governors(first);
	return found;
}

uint32_t hostfreq_cur_mhz(unsigned cpu)
{
	unsigned long khz = cpufreq_get_freq_kernel(cpu);
	return (uint32_t)(khz / 1000);
}

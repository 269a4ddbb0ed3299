/* hostfreq.c: libcpupower calls behind hostfreq.h. */
#include "hostfreq.h"

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
			int e = rc < 0 ? -rc : errno;
			snprintf(err, errlen, "cpu.governor: cannot set %s on cpu%ld: %s%s", gov, cpu,
				 strerror(e ? e : EIO),
				 (e == EACCES || e == EPERM) ? " (needs root)" : "");
			return -1;
		}
	}
	return 0;
}

uint32_t hostfreq_cur_mhz(unsigned cpu)
{
	unsigned long khz = cpufreq_get_freq_kernel(cpu);
	return (uint32_t)(khz / 1000);
}

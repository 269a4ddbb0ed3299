/* SPDX-License-Identifier: GPL-2.0-or-later */
/* clock.c: sleeps and CPU clocks behind clock.h. */
#include "core/clock.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>

uint64_t clock_cpu_ns(clockid_t clk)
{
	struct timespec ts;
	if (clock_gettime(clk, &ts) != 0)
		return 0;
	return clock_ts_to_ns(&ts);
}

void clock_sleep_ns(uint64_t ns)
{
	struct timespec req = clock_ns_to_ts(ns), rem;
	while (nanosleep(&req, &rem) != 0 && errno == EINTR)
		req = rem;
}

void clock_sleep_until_ns(uint64_t abs_ns)
{
	struct timespec ts = clock_ns_to_ts(abs_ns);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

uint64_t clock_next_due(uint64_t due, uint64_t delay, uint64_t taken, uint64_t now)
{
	uint64_t next = due + delay;
	if (next < taken + delay / 2)
		next = taken + delay / 2;
	return next < now ? now : next;
}

uint64_t clock_first_due(uint64_t start_ns, uint64_t delay, uint64_t first_max)
{
	return start_ns + (delay < first_max ? delay : first_max);
}

void clock_spin_ns(uint64_t ns)
{
	uint64_t end = clock_mono_ns() + ns;
	while (clock_mono_ns() < end)
		;
}

void clock_iso8601(uint64_t wall_ns, char *buf, size_t len)
{
	time_t sec = (time_t)(wall_ns / 1000000000ULL);
	struct tm tm;
	gmtime_r(&sec, &tm);
	size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len > n ? len - n : 0, ".%03uZ",
		 (unsigned)(wall_ns / 1000000ULL % 1000ULL));
}

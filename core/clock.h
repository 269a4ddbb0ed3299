/* SPDX-License-Identifier: GPL-2.0-or-later */
/* clock.h: time in CLOCK_MONOTONIC nanoseconds (uint64_t), sleeps and CPU clocks. */
#ifndef TT_CLOCK_H
#define TT_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NS_PER_US 1000ULL
#define NS_PER_MS 1000000ULL
#define NS_PER_S 1000000000ULL

static inline uint64_t clock_ts_to_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NS_PER_S + (uint64_t)ts->tv_nsec;
}

static inline struct timespec clock_ns_to_ts(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / NS_PER_S), .tv_nsec = (long)(ns % NS_PER_S)};
	return ts;
}

/* Monotonic wall time; served by the vDSO, so cheap enough for hot paths. */
static inline uint64_t clock_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return clock_ts_to_ns(&ts);
}

/* CPU time consumed by the calling thread (a system call: keep off per-packet paths). */
static inline uint64_t clock_thread_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return clock_ts_to_ns(&ts);
}

/* CPU time of any clock id (a thread's pthread_getcpuclockid clock); 0 on error. */
uint64_t clock_cpu_ns(clockid_t clk);

/* Sleep for ns, restarting with the remaining time on EINTR. */
void clock_sleep_ns(uint64_t ns);

/* Sleep until the monotonic deadline abs_ns (returns at once if it has passed). */
void clock_sleep_until_ns(uint64_t abs_ns);

/* When the next sample of a loop on a grid of `delay` is due, after the one due at `due`
 * was taken at `taken` (the loop is now at `now`). Missed grid points are not caught up,
 * and the next sample comes at least half a delay after the one just taken: after a
 * stall (a stopped or starved process) no line holds rates counted over a moment, and a
 * reader slower than the delay gets one sample per read. Pure. */
uint64_t clock_next_due(uint64_t due, uint64_t delay, uint64_t taken, uint64_t now);

/* When the first sample of such a loop is due: its interval is min(delay, first_max) from
 * start_ns, the source's baseline (backends/source.h), so the time the source took to start
 * counts inside it rather than on top of it. Pure. */
uint64_t clock_first_due(uint64_t start_ns, uint64_t delay, uint64_t first_max);

/* Spin (busy, on CPU) for ns: used to stretch work on a slow emulated CPU. */
void clock_spin_ns(uint64_t ns);
/* CLOCK_REALTIME ns as ISO 8601 UTC with milliseconds ("2026-12-06T07:34:45.781Z"), as JSON
 * and the events write times. */
void clock_iso8601(uint64_t wall_ns, char *buf, size_t len);

#endif

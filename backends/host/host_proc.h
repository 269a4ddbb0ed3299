/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_proc.h: pure parsers of /proc text (softirqs, interrupts, stat, task stat, diskstats). */
#ifndef TT_HOST_PROC_H
#define TT_HOST_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest CPU id + 1 the host backend tracks (docs/blk.md §5 per-CPU rows). */
#define HOST_MAX_CPUS 256

/*
 * One per-CPU row of /proc/softirqs ("BLOCK") or /proc/interrupts ("CAL"). The
 * header names the CPUs of each column ("CPU0 CPU1 CPU3": offline CPUs have no
 * column), so the values land by CPU id in vals[] (max entries, zeroed first)
 * and present[] says which ids had a column. Returns the number of values
 * read (a truncated row gives fewer than the header's columns), or -1 when the
 * header or the row is missing. text need not be NUL-terminated (len bytes).
 */
int host_proc_percpu_row(const char *text, size_t len, const char *row, uint64_t *vals,
			 bool *present, int max);

/* A /proc entry's name is a pid or tid: digits only, at least one. Pure. */
bool host_proc_is_pid(const char *name);

/* Per-CPU jiffies from /proc/stat "cpuN" lines. */
struct host_cpustat {
	bool present;
	uint64_t busy; /* user + nice + system + irq + softirq + steal */
	uint64_t total; /* busy + idle + iowait */
};
/* Fills out[id] for each "cpuN" line with id < max; returns largest id + 1, or -1 if none. */
int host_proc_stat(const char *text, size_t len, struct host_cpustat *out, int max);
/* A CPU's busy % between two reads, 0..100; 0 when it was not online at both or no time passed. */
double host_proc_load_pct(const struct host_cpustat *now, const struct host_cpustat *prev);

/* /proc/PID/task/TID/stat: comm may hold spaces and ')' (the last ')' ends it). */
struct host_taskstat {
	char comm[16];
	char state; /* R S D I T Z ... */
	uint64_t utime_ticks; /* field 14, in USER_HZ ticks */
	uint64_t stime_ticks; /* field 15 */
	uint64_t start_ticks; /* field 22: start time after boot; a reused tid has another */
	int processor; /* field 39: CPU it last ran on, -1 when absent */
};
int host_proc_taskstat(const char *text, size_t len, struct host_taskstat *out); /* 0 or -1 */

/* /proc/diskstats line of dev (docs/blk.md §5 fields 1, 5, 9). */
struct host_diskstat {
	uint64_t reads, writes; /* completed */
	uint64_t in_flight;
};
int host_proc_diskstats(const char *text, size_t len, const char *dev,
			struct host_diskstat *out); /* 0, or -1 when dev is absent */

/* "cpu MHz" of each "processor : N" in /proc/cpuinfo into mhz[N]; returns entries filled. */
int host_proc_cpuinfo_mhz(const char *text, size_t len, uint32_t *mhz, int max);

/* Read a whole small file into a malloc'd NUL-terminated buffer; NULL on error (errno set). */
char *host_proc_slurp(const char *path, size_t *len);

#endif

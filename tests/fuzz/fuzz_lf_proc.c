/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_lf_proc.c: libFuzzer target for the /proc and sysfs text parsers (backends/host/host_proc.c):
 * /proc/stat, /proc/interrupts and /proc/softirqs rows, /proc/PID/task/TID/stat, diskstats,
 * cpuinfo. The first byte picks the row name; the rest is the file, in a buffer of exactly
 * its size. Without libFuzzer it replays tests/fuzz/corpus/proc/. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host/host_proc.h"

#define LF_MAX_CPUS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const rows[] = {"BLOCK", "CAL", "RCU", "TLB"};
	uint64_t vals[LF_MAX_CPUS];
	bool present[LF_MAX_CPUS];
	struct host_cpustat st[LF_MAX_CPUS];
	struct host_taskstat ts;
	struct host_diskstat ds;
	uint32_t mhz[LF_MAX_CPUS];

	if (size < 1)
		return 0;
	const char *row = rows[data[0] % 4];
	size_t n = size - 1;
	char *in = malloc(n ? n : 1);
	memcpy(in, data + 1, n);
	int r = host_proc_percpu_row(in, n, row, vals, present, LF_MAX_CPUS);
	if (r > LF_MAX_CPUS)
		abort();
	int top = host_proc_stat(in, n, st, LF_MAX_CPUS);
	if (top > LF_MAX_CPUS)
		abort();
	if (host_proc_taskstat(in, n, &ts) == 0 && strnlen(ts.comm, sizeof(ts.comm)) > 15)
		abort();
	host_proc_diskstats(in, n, "vda", &ds);
	host_proc_cpuinfo_mhz(in, n, mhz, LF_MAX_CPUS);
	free(in);
	return 0;
}

#include "fuzz/lf_replay.h"
#ifndef TT_LIBFUZZER
int main(void)
{
	return lf_replay("proc");
}
#endif

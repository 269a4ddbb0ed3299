/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_sampler.c: sampler cost per refresh per thread vs reading /proc/self/task/TID/stat.
 * A front end samples once a refresh (-d), and a refresh reads what is read once a refresh
 * (run-queue delay): each sample here is a refresh (smp_refresh_ns = 1), as the front ends'.
 * Below it: a refresh when every thread's run-queue delay is not shown (the console off its
 * thread table: ENGINE_RUNQ_PMD_EST), and back-to-back samples within one refresh (a knob
 * change's), which repeat the last figure. Last, one system call per thread (getppid), timed in
 * the same rounds: a thread's CPU clock is a system call of its own (no vDSO for CPU-time
 * clocks), so no sampler that reads every thread's clock costs less than that, and on a
 * kernel whose system calls are dear (page-table isolation) that floor alone can pass 0.05x. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/clock.h"
#include "engine/engine.h"

#define RUNS 9
#define REFRESHES 200

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* What top and htop do per thread: open, read and parse utime+stime from stat. */
static uint64_t proc_read_all(const pid_t *tids, size_t n)
{
	uint64_t sum = 0;
	char path[64], buf[1024];
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tids[i]);
		int fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		ssize_t r = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (r <= 0)
			continue;
		buf[r] = '\0';
		char *p = strrchr(buf, ')');
		unsigned long ut = 0, st = 0;
		if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut,
				&st) == 2)
			sum += ut + st;
	}
	return sum;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 1 ? atoi(argv[1]) : 64;
	char err[256], set[64];
	struct engine *eng = engine_new();
	uint64_t smp[RUNS], prc[RUNS], hid[RUNS], inr[RUNS], sys1[RUNS];
	volatile uint64_t sink = 0;

	engine_knob_assign(eng, "est.enabled=off", err, sizeof(err));
	snprintf(set, sizeof(set), "load.sleep_threads=%d", nthreads);
	if (engine_knob_assign(eng, set, err, sizeof(err)) != 0 ||
	    engine_start(eng, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_sampler: %s\n", err);
		return 1;
	}
	struct snapshot *s = snapshot_new();
	engine_sample(eng, s);
	size_t n = s->nthreads;
	pid_t *tids = calloc(n, sizeof(*tids));
	for (size_t i = 0; i < n; i++)
		tids[i] = s->threads[i].tid;

	for (int r = 0; r < RUNS; r++) {
		uint64_t t0 = clock_mono_ns();
		eng->smp_refresh_ns = 1; /* every sample a refresh */
		for (int i = 0; i < REFRESHES; i++)
			engine_sample(eng, s);
		uint64_t t1 = clock_mono_ns();
		for (int i = 0; i < REFRESHES; i++)
			sink += proc_read_all(tids, n);
		uint64_t t2 = clock_mono_ns();
		atomic_store_explicit(&eng->smp_runq_want, ENGINE_RUNQ_PMD_EST,
				      memory_order_relaxed); /* not shown: the pmd view's */
		for (int i = 0; i < REFRESHES; i++)
			engine_sample(eng, s);
		atomic_store_explicit(&eng->smp_runq_want, ENGINE_RUNQ_ALL, memory_order_relaxed);
		uint64_t t2b = clock_mono_ns();
		eng->smp_refresh_ns = 3600 * NS_PER_S; /* every sample within one refresh */
		for (int i = 0; i < REFRESHES; i++)
			engine_sample(eng, s);
		uint64_t t3 = clock_mono_ns();
		for (int i = 0; i < REFRESHES; i++)
			for (size_t k = 0; k < n; k++)
				sink += (uint64_t)syscall(SYS_getppid);
		uint64_t t4 = clock_mono_ns();
		smp[r] = (t1 - t0) / REFRESHES / n;
		prc[r] = (t2 - t1) / REFRESHES / n;
		hid[r] = (t2b - t2) / REFRESHES / n;
		inr[r] = (t3 - t2b) / REFRESHES / n;
		sys1[r] = (t4 - t3) / REFRESHES / n;
	}
	qsort(smp, RUNS, sizeof(smp[0]), cmp_u64);
	qsort(prc, RUNS, sizeof(prc[0]), cmp_u64);
	qsort(inr, RUNS, sizeof(inr[0]), cmp_u64);
	qsort(hid, RUNS, sizeof(hid[0]), cmp_u64);
	qsort(sys1, RUNS, sizeof(sys1[0]), cmp_u64);
	printf("%-34s %8zu\n", "threads sampled", n);
	printf("%-34s %8llu ns/thread (median of %d x %d refreshes)\n",
	       "engine_sample, once a refresh", (unsigned long long)smp[RUNS / 2], RUNS, REFRESHES);
	printf("%-34s %8llu ns/thread\n", "baseline: /proc/self/task/TID/stat",
	       (unsigned long long)prc[RUNS / 2]);
	printf("%-34s %8.3fx\n", "ratio (sampler / baseline)",
	       (double)smp[RUNS / 2] / (double)(prc[RUNS / 2] ? prc[RUNS / 2] : 1));
	printf("%-34s %8llu ns/thread (%.3fx)\n", "  once a refresh, runq not shown",
	       (unsigned long long)hid[RUNS / 2],
	       (double)hid[RUNS / 2] / (double)(prc[RUNS / 2] ? prc[RUNS / 2] : 1));
	printf("%-34s %8llu ns/thread (%.3fx)\n", "  a sample within a refresh",
	       (unsigned long long)inr[RUNS / 2],
	       (double)inr[RUNS / 2] / (double)(prc[RUNS / 2] ? prc[RUNS / 2] : 1));
	printf("%-34s %8llu ns/thread (%.3fx)\n", "  floor: one system call (getppid)",
	       (unsigned long long)sys1[RUNS / 2],
	       (double)sys1[RUNS / 2] / (double)(prc[RUNS / 2] ? prc[RUNS / 2] : 1));
	(void)sink;
	free(tids);
	snapshot_free(s);
	engine_free(eng);
	return 0;
}

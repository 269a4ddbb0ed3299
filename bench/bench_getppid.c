/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_getppid.c: the cost of a system call that has nothing to do with tunetop: ns of CPU
 * per getppid() (the thread's own CPU time, so a busy machine's preemption is not counted),
 * median of 15 runs of CALLS each, one number on stdout. bench/probe_tax.sh runs it with and
 * without the eBPF sleep probe attached. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define RUNS 15

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? strtol(argv[1], NULL, 10) : 50000;
	double r[RUNS];
	if (calls <= 0) {
		fprintf(stderr, "usage: bench_getppid [CALLS]\n");
		return 2;
	}
	for (int k = 0; k < RUNS; k++) {
		double t0 = now_ns();
		for (long i = 0; i < calls; i++)
			(void)getppid();
		r[k] = (now_ns() - t0) / (double)calls;
	}
	qsort(r, RUNS, sizeof(r[0]), cmp_d);
	printf("%.1f\n", r[RUNS / 2]);
	return 0;
}

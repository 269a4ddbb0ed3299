/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_bpf.c: what the eBPF sleep probe costs: per sleep of a watched thread, per syscall
 * of any other thread (a syscall tracepoint taxes every syscall), and per sample (reading
 * the map). A "sleep" here is clock_nanosleep on a clock id the kernel refuses (EINVAL at
 * once): the probe's whole path runs on entry (tid lookup, request read, timestamps) and on
 * return (lookup, timestamp), all but the histogram increment, without a timer's noise (a
 * real sleep, even to a past deadline, costs tens of us in a VM). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/host/host_bpf.h"
#include "core/clock.h"
#include "core/snapshot.h"

#define RUNS 7
#define CALLS 100000

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* ns per call of fn, median of RUNS. */
static uint64_t per_call(int kind)
{
	uint64_t r[RUNS];
	struct timespec req = {0, 1000};
	for (int k = 0; k < RUNS; k++) {
		uint64_t t0 = clock_mono_ns();
		for (int i = 0; i < CALLS; i++) {
			if (kind == 0)
				clock_nanosleep((clockid_t)1000, 0, &req, NULL);
			else
				(void)getppid();
		}
		r[k] = (clock_mono_ns() - t0) / CALLS;
	}
	qsort(r, RUNS, sizeof(r[0]), cmp_u64);
	return r[RUNS / 2];
}

int main(void)
{
	char why[160];
	struct host_bpf *b = host_bpf_open(why, sizeof(why));
	if (!b) {
		printf("eBPF sleep probe absent: %s\n", why);
		return 0;
	}
	struct snapshot *s = snapshot_new();
	s->nthreads = 1;
	s->threads = calloc(1, sizeof(*s->threads));
	s->threads[0].tid = gettid();
	snprintf(s->threads[0].name, sizeof(s->threads[0].name), "bench");
	s->pmd.nthreads = 1;
	snprintf(s->pmd.threads[0].name, sizeof(s->pmd.threads[0].name), "bench");

	host_bpf_enable(b, false, why, sizeof(why)); /* it loads attached: the baseline without */
	uint64_t off_sleep = per_call(0), off_sys = per_call(1);
	if (host_bpf_enable(b, true, why, sizeof(why)) != 0) {
		printf("cannot attach: %s\n", why);
		return 1;
	}
	uint64_t unwatched_sleep = per_call(0);
	host_bpf_pmdsec(b, "", s, NULL); /* watch this thread from now */
	uint64_t on_sleep = per_call(0), on_sys = per_call(1);
	uint64_t smp[RUNS];
	for (int k = 0; k < RUNS; k++) {
		uint64_t t0 = clock_mono_ns();
		for (int i = 0; i < 1000; i++)
			host_bpf_pmdsec(b, "", s, NULL);
		smp[k] = (clock_mono_ns() - t0) / 1000;
	}
	qsort(smp, RUNS, sizeof(smp[0]), cmp_u64);
	host_bpf_pmdsec(b, "", s, NULL);
	printf("probe: %s on %s\n", s->pmd.bpf_probe ? "attached" : s->pmd.bpf_probe_error,
	       host_bpf_hook(b));
	printf("sleep syscall, probe detached           %6llu ns\n", (unsigned long long)off_sleep);
	printf("sleep syscall, attached, thread unwatched %4llu ns\n",
	       (unsigned long long)unwatched_sleep);
	printf("sleep syscall, attached, thread watched %6llu ns  (+%lld ns per sleep)\n",
	       (unsigned long long)on_sleep, (long long)on_sleep - (long long)off_sleep);
	printf("other syscall (getppid), detached       %6llu ns\n", (unsigned long long)off_sys);
	printf("other syscall (getppid), attached       %6llu ns  (+%lld ns per syscall)\n",
	       (unsigned long long)on_sys, (long long)on_sys - (long long)off_sys);
	printf("per sample, 1 watched thread            %6llu ns (map read and percentiles)\n",
	       (unsigned long long)smp[RUNS / 2]);
	host_bpf_close(b);
	snapshot_free(s);
	return 0;
}

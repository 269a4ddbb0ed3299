/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_host_proc.c: bounded random and mutated /proc text into every host /proc parser.
 * Each input sits in a buffer of exactly its size (no NUL), so ASan sees any overread. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fuzz_rng.h"

#include "backends/host/host_proc.h"

static const char *const seeds[] = {
    "                    CPU0       CPU1       \n       BLOCK:          0      57964\n"
    "         RCU:      14867      14838\n",
    "           CPU0       CPU1       CPU3\nCAL:      29884      23341   7 Function call "
    "interrupts\nTLB: 1 2 3 TLB shootdowns\n",
    "cpu  3302 0 2280 120987 305 0 53 7 0 0\ncpu0 867 0 1070 61496 10 0 22 1 0 0\n"
    "cpu1 2434 0 1209 59491 295 0 31 5 0 0\nintr 1\n",
    "1234 (pmd) c01 x) R 1 1 1 0 -1 4194560 0 0 0 0 250 37 0 0 20 0 1 0 100 0 0 "
    "18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n",
    "   7       0 loop0 100 0 800 5 7 0 56 1 2 20 26 0 0 0 0 0 0\n"
    " 253       0 vda 5000 10 400000 900 3000 20 50000 700 3 1200 1600\n",
    "processor\t: 0\ncpu MHz\t\t: 2596.120\n\nprocessor\t: 1\ncpu MHz\t\t: 1200.000\n",
};
static const char alphabet[] = "0123456789 \t\n:()-CPUcpuBLOCKAL";

static struct fuzz_rng rng = {0x2545F4914F6CDD1DULL};

static size_t make_input(char *buf, size_t cap)
{
	const char *s = seeds[fuzz_rng_next(&rng) % (sizeof(seeds) / sizeof(seeds[0]))];
	size_t n = strlen(s);
	if (fuzz_rng_next(&rng) % 4 == 0) { /* pure noise */
		n = fuzz_rng_next(&rng) % cap;
		for (size_t i = 0; i < n; i++)
			buf[i] = fuzz_rng_next(&rng) % 3
				     ? alphabet[fuzz_rng_next(&rng) % (sizeof(alphabet) - 1)]
				     : (char)fuzz_rng_next(&rng);
		return n;
	}
	memcpy(buf, s, n);
	for (int m = (int)(fuzz_rng_next(&rng) % 6); m > 0; m--) {
		switch (fuzz_rng_next(&rng) % 4) {
		case 0: /* flip a byte */
			if (n)
				buf[fuzz_rng_next(&rng) % n] =
				    alphabet[fuzz_rng_next(&rng) % (sizeof(alphabet) - 1)];
			break;
		case 1: /* cut */
			n = n ? fuzz_rng_next(&rng) % n : 0;
			break;
		case 2: /* long run of digits: overflow */
			if (n + 40 < cap) {
				size_t at = n ? fuzz_rng_next(&rng) % n : 0;
				memmove(buf + at + 30, buf + at, n - at);
				memset(buf + at, '9', 30);
				n += 30;
			}
			break;
		default: /* duplicate a tail */
			if (n && n * 2 < cap) {
				size_t at = fuzz_rng_next(&rng) % n;
				memcpy(buf + n, buf + at, n - at);
				n += n - at;
			}
			break;
		}
	}
	return n;
}

int main(void)
{
	long iters = getenv("FUZZ_ITERS") ? atol(getenv("FUZZ_ITERS")) : 200000;
	char tmp[2048];
	uint64_t vals[8];
	bool present[8];
	struct host_cpustat st[8];
	struct host_taskstat ts;
	struct host_diskstat ds;
	uint32_t mhz[8];
	long rows = 0;

	for (long i = 0; i < iters; i++) {
		size_t n = make_input(tmp, sizeof(tmp));
		char *in = malloc(n ? n : 1);
		memcpy(in, tmp, n);
		int r = host_proc_percpu_row(in, n, fuzz_rng_next(&rng) % 2 ? "BLOCK" : "CAL", vals,
					     present, 8);
		if (r > HOST_MAX_CPUS) {
			fprintf(stderr, "row: %d values\n", r);
			return 1;
		}
		rows += r > 0;
		int top = host_proc_stat(in, n, st, 8);
		if (top > 8) {
			fprintf(stderr, "stat: top %d > 8\n", top);
			return 1;
		}
		for (int c = top; c >= 0 && c < 8; c++)
			if (st[c].present) { /* nothing at or beyond the top id */
				fprintf(stderr, "stat: cpu%d present beyond top %d\n", c, top);
				return 1;
			}
		if (host_proc_taskstat(in, n, &ts) == 0 && strlen(ts.comm) > 15) {
			fprintf(stderr, "taskstat: comm too long\n");
			return 1;
		}
		host_proc_diskstats(in, n, "vda", &ds);
		host_proc_cpuinfo_mhz(in, n, mhz, 8);
		free(in);
	}
	printf("fuzz_host_proc: %ld inputs, %ld with a row, no crash\n", iters, rows);
	return rows > 0 ? 0 : 1; /* the mutator must reach the parsers' happy path too */
}

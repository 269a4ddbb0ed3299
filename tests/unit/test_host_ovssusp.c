/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_host_ovssusp.c: OVS's suspicious iterations from pmd-perf-show: the TSC rate its figures
 * imply (a real DPDK 3.1 block, a real dummy one), and the histogram's iterations past the
 * threshold counted within the bins that straddle it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backends/host/ovs/host_ovssusp.h"

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *buf = calloc(1, 1 << 16);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* An idle DPDK PMD of OVS 3.1 whose log said "TSC frequency: 2300000 KHz": the "% of total
 * cycles" pair gives it to 0.1 %; us/it (0.08, two digits) could not. */
static void test_tsc_dpdk(void **state)
{
	static const char text[] = "Time: 04:54:31.019\n"
				   "Measurement duration: 2.008 s\n"
				   "pmd thread numa_id 0 core_id 1:\n"
				   "  Iterations:             25314535  (0.08 us/it)\n"
				   "  - Used TSC cycles:    4617217096  (100.0 % of total cycles)\n"
				   "  - idle iterations:      25314535  (100.0 % of used cycles)\n"
				   "  - busy iterations:             0  (  0.0 % of used cycles)\n"
				   "  - sleep iterations:            0  (  0.0 % of iterations)\n"
				   "  Sleep time (us):               0  (  0 us/iteration avg.)\n"
				   "  Rx packets:                    0\n"
				   "  Tx packets:                    0\n";
	struct host_ovs_perf *p = malloc(sizeof(*p));
	struct host_ovs_tsc t;
	(void)state;
	assert_int_equal(host_ovs_parse_perf(text, p), 0);
	assert_true(host_ovs_tsc_from_perf(&p->pmd[0], &t));
	assert_true(t.hz > 2300000e3 * 0.999 && t.hz < 2300000e3 * 1.001);
	assert_true(t.rel_err < 0.001);
	free(p);
}

/* A sleeping PMD: "Used TSC" is 1.5 % (to +-3 %), us/it with the sleep time fixes it closer. */
static void test_tsc_sleeping(void **state)
{
	/* 2.5 GHz, 10 s, 20000 iterations of 7.5 us used and 492.5 us asleep. */
	static const char text[] = "Measurement duration: 10.000 s\n"
				   "pmd thread numa_id 0 core_id 1:\n"
				   "  Iterations:                20000  (500.00 us/it)\n"
				   "  - Used TSC cycles:     375000000  (  1.5 % of total cycles)\n"
				   "  - sleep iterations:        20000  (100.0 % of iterations)\n"
				   "  Sleep time (us):         9850000  (492 us/iteration avg.)\n";
	struct host_ovs_perf *p = malloc(sizeof(*p));
	struct host_ovs_tsc t;
	(void)state;
	assert_int_equal(host_ovs_parse_perf(text, p), 0);
	assert_true(host_ovs_tsc_from_perf(&p->pmd[0], &t));
	assert_true(t.hz > 2.5e9 * 0.999 && t.hz < 2.5e9 * 1.001);
	assert_true(t.rel_err < 0.001);
	free(p);
}

/* The dummy datapath of a real ovs-vswitchd 3.1: OVS never measured its TSC (tsc_hz 1), and
 * its figures say exactly that. */
static void test_tsc_dummy(void **state)
{
	char *text = read_all("tests/unit/data/ovs31_pmd_perf_show.txt");
	struct host_ovs_perf *p = malloc(sizeof(*p));
	struct host_ovs_tsc t;
	(void)state;
	assert_int_equal(host_ovs_parse_perf(text, p), 0);
	assert_true(host_ovs_tsc_from_perf(&p->pmd[0], &t));
	assert_true(t.hz > 0.99 && t.hz < 1.01);
	assert_true(t.hz < HOST_OVS_TSC_MIN_HZ);
	free(p);
	free(text);
}

/* No iterations, no duration: no rate, never a guess. */
static void test_tsc_none(void **state)
{
	struct host_pmd_perf c;
	struct host_ovs_tsc t;
	(void)state;
	memset(&c, 0, sizeof(c));
	c.duration_s = -1;
	assert_false(host_ovs_tsc_from_perf(&c, &t));
	c.used_cycles = 1000;
	c.used_pct = 0.1; /* "0.1 %": known to 50 % */
	c.duration_s = 1;
	assert_false(host_ovs_tsc_from_perf(&c, &t));
}

/* OVS 3.1's real walls with counts put in: at 2.5 GHz the 250 us threshold is 625000 cycles,
 * inside the bin (461058, 660385]: its 3 may or may not be over it. */
static void test_count(void **state)
{
	char *text = read_all("tests/unit/data/ovs31_pmd_perf_show.txt");
	struct host_ovs_hists *h = malloc(sizeof(*h));
	struct host_ovs_susp s;
	(void)state;
	assert_int_equal(host_ovs_parse_hists(text, h), 0);
	struct host_ovs_pmd_hists *ph = &h->pmd[0];
	for (int k = 0; k < ph->nhists; k++)
		memset(ph->hist[k].count, 0, sizeof(ph->hist[k].count));
	struct host_ovs_hist *cyc = &ph->hist[0], *q = &ph->hist[4];
	assert_int_equal(cyc->edge[19], 461058);
	assert_int_equal(cyc->edge[20], 660385);
	cyc->count[5] = 100;
	cyc->count[19] = 10; /* up to 184 us: never */
	cyc->count[20] = 3; /* 184..264 us: straddles */
	cyc->count[21] = 2; /* 264..378 us: all */
	cyc->count[31] = 1; /* above 24M */
	q->count[0] = 116; /* no vhost port: every iteration's fill is 0 */

	struct host_ovs_tsc exact = {2.5e9, 0};
	assert_int_equal(host_ovs_susp_count(ph, &exact, 250, 128, &s), 0);
	assert_int_equal(s.total, 116);
	assert_int_equal(s.min, 3);
	assert_int_equal(s.max, 6);

	/* A rate known to 10 %: the threshold 562500..687500 cycles, bin 21 straddles too. */
	struct host_ovs_tsc rough = {2.5e9, 0.10};
	assert_int_equal(host_ovs_susp_count(ph, &rough, 250, 128, &s), 0);
	assert_int_equal(s.min, 1);
	assert_int_equal(s.max, 6);

	/* A threshold on a wall: 660385 cycles at 2.5 GHz is 264.154 us; -us 265 puts it above
	 * bin 20's top, so bin 20 is never over it and bin 21 may be. */
	assert_int_equal(host_ovs_susp_count(ph, &exact, 265, 128, &s), 0);
	assert_int_equal(s.min, 1);
	assert_int_equal(s.max, 3);

	/* Vhost queue fill: 4 in (113, 140] straddle 128, 2 in (140, 174] are over it. Either
	 * reason makes an iteration suspicious: at least the larger sure count, at most the sum. */
	q->count[0] = 110;
	q->count[24] = 4;
	q->count[25] = 2;
	assert_int_equal(q->edge[24], 140);
	assert_int_equal(host_ovs_susp_count(ph, &exact, 250, 128, &s), 0);
	assert_int_equal(s.min, 3);
	assert_int_equal(s.max, 12);
	/* -q 141: (140, 174] all over it, (113, 140] none. */
	assert_int_equal(host_ovs_susp_count(ph, &exact, 250, 141, &s), 0);
	assert_int_equal(s.min, 3);
	assert_int_equal(s.max, 8);

	/* Without the cycles/it column there is no count. */
	snprintf(cyc->name, sizeof(cyc->name), "other");
	assert_int_equal(host_ovs_susp_count(ph, &exact, 250, 128, &s), -1);
	free(h);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tsc_dpdk),  cmocka_unit_test(test_tsc_sleeping),
	    cmocka_unit_test(test_tsc_dummy), cmocka_unit_test(test_tsc_none),
	    cmocka_unit_test(test_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

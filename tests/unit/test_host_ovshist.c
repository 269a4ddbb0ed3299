/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_host_ovshist.c: pmd-perf-show's histograms (pmd-perf-metrics=true) from a reply
 * captured from a real ovs-vswitchd 3.1 (dummy datapath, 100 packets into a drop flow). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backends/host/ovs/host_ovshist.h"

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

static uint64_t sum(const struct host_ovs_hist *g)
{
	uint64_t s = 0;
	for (int b = 0; b < g->nbins; b++)
		s += g->count[b];
	return s;
}

/* Every column of OVS 3.1's table: the names (one with blanks), 32 bins, ">" last, the counts
 * summing to the block's 800 iterations where a histogram counts iterations. */
static void test_captured(void **state)
{
	char *text = read_all("tests/unit/data/ovs31_pmd_perf_show.txt");
	struct host_ovs_hists *h = malloc(sizeof(*h));
	(void)state;
	assert_int_equal(host_ovs_parse_hists(text, h), 0);
	assert_int_equal(h->npmds, 1);
	assert_int_equal(h->pmd[0].core_id, 1);
	assert_int_equal(h->pmd[0].nhists, 7);
	const struct host_ovs_hist *cyc = &h->pmd[0].hist[0], *pkt = &h->pmd[0].hist[1];
	assert_string_equal(cyc->name, "cycles/it");
	assert_string_equal(pkt->name, "packets/it");
	assert_string_equal(h->pmd[0].hist[4].name, "max vhost qlen");
	assert_string_equal(h->pmd[0].hist[6].name, "cycles/upcall");
	for (int k = 0; k < 7; k++) {
		assert_int_equal(h->pmd[0].hist[k].nbins, 32);
		assert_true(h->pmd[0].hist[k].edge[31] == UINT64_MAX);
	}
	assert_int_equal(cyc->edge[0], 499);
	assert_int_equal(cyc->edge[30], 24000000);
	assert_int_equal(sum(cyc), 800);
	assert_int_equal(cyc->count[8], 505); /* up to 8857 cycles */
	assert_int_equal(cyc->edge[8], 8857);
	assert_int_equal(sum(pkt), 800);
	assert_int_equal(pkt->count[0], 714); /* 0 packets */
	assert_int_equal(pkt->count[1], 86);
	assert_int_equal(sum(&h->pmd[0].hist[6]), 1); /* the one upcall */
	free(h);
	free(text);
}

/* pmd-perf-metrics off: the report has no table, which is not an error. */
static void test_none(void **state)
{
	struct host_ovs_hists *h = malloc(sizeof(*h));
	(void)state;
	assert_int_equal(
	    host_ovs_parse_hists("pmd thread numa_id 0 core_id 1:\n\n  Iterations: 5\n", h), 0);
	assert_int_equal(h->npmds, 0);
	free(h);
}

/* A row whose columns disagree with the heading is refused, not read as other bins. */
static void test_bad_row(void **state)
{
	struct host_ovs_hists *h = malloc(sizeof(*h));
	(void)state;
	assert_int_equal(host_ovs_parse_hists("pmd thread numa_id 0 core_id 3:\nHistograms\n"
					      "   cycles/it              packets/it\n"
					      "   499       0            0         7\n"
					      "   716       1\n---\n",
					      h),
			 -1);
	assert_int_equal(host_ovs_parse_hists("pmd thread numa_id 0 core_id 3:\nHistograms\n"
					      "   cycles/it              packets/it\n"
					      "   499       2            0         7\n"
					      "   >         1            >         0\n---\n",
					      h),
			 0);
	assert_int_equal(h->pmd[0].core_id, 3);
	assert_int_equal(h->pmd[0].hist[0].nbins, 2);
	assert_int_equal(h->pmd[0].hist[1].count[0], 7);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_captured),
	    cmocka_unit_test(test_none),
	    cmocka_unit_test(test_bad_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

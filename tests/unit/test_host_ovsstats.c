/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_host_ovsstats.c: pmd-stats-show and pmd-rxq-show parsers, max-sleep lists, pid-named
 * sockets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backends/host/ovs/host_ovs.h"
#include "backends/host/ovs/host_ovsstats.h"

/* OVS 3.1's dpif-netdev/pmd-stats-show, one PMD and the main thread (docs/pmd.md §2.3). */
static const char stats31[] = "pmd thread numa_id 0 core_id 1:\n"
			      "  packets received: 2020\n"
			      "  packet recirculations: 0\n"
			      "  avg. datapath passes per packet: 1.00\n"
			      "  phwol hits: 0\n"
			      "  mfex opt hits: 0\n"
			      "  simple match hits: 2019\n"
			      "  emc hits: 3\n"
			      "  smc hits: 4\n"
			      "  megaflow hits: 5\n"
			      "  avg. subtable lookups per megaflow hit: 0.00\n"
			      "  miss with success upcall: 1\n"
			      "  miss with failed upcall: 2\n"
			      "  avg. packets per output batch: 0.00\n"
			      "  idle cycles: 58393054 (17.99%)\n"
			      "  processing cycles: 266248984 (82.01%)\n"
			      "  avg cycles per packet: 160713.88 (324642038/2020)\n"
			      "main thread:\n"
			      "  packets received: 9\n"
			      "  idle cycles: 1 (100.00%)\n";

static void test_stats(void **state)
{
	struct host_ovs_stats *s = malloc(sizeof(*s));
	(void)state;
	assert_int_equal(host_ovs_parse_stats(stats31, s), 0);
	assert_int_equal(s->npmds, 1); /* the main thread is not a PMD */
	assert_int_equal(s->pmd[0].core_id, 1);
	assert_int_equal(s->pmd[0].packets, 2020);
	assert_int_equal(s->pmd[0].simple_hits, 2019);
	assert_int_equal(s->pmd[0].emc_hits, 3);
	assert_int_equal(s->pmd[0].smc_hits, 4);
	assert_int_equal(s->pmd[0].megaflow_hits, 5);
	assert_int_equal(s->pmd[0].upcalls, 1);
	assert_int_equal(s->pmd[0].lost_upcalls, 2);
	assert_int_equal(s->pmd[0].idle_cycles, 58393054);
	assert_int_equal(s->pmd[0].proc_cycles, 266248984);
	assert_true(s->pmd[0].has_cycles);
	/* No cycle lines (an idle PMD that never ran prints none): not "0 cycles". */
	assert_int_equal(
	    host_ovs_parse_stats("pmd thread numa_id 0 core_id 2:\n  emc hits: 0\n", s), 0);
	assert_false(s->pmd[0].has_cycles);
	assert_int_equal(host_ovs_parse_stats("The available commands are:\n", s), -1);
	free(s);
}

static void test_rxqs(void **state)
{
	struct host_ovs_rxqs *r = malloc(sizeof(*r));
	(void)state;
	assert_int_equal(
	    host_ovs_parse_rxqs(
		"Displaying last 60 seconds pmd usage %\n"
		"pmd thread numa_id 0 core_id 1:\n"
		"  isolated : true\n"
		"  port: p0                queue-id:  0 (enabled)   pmd usage: 37 %\n"
		"  port: p1                queue-id:  3 (disabled)  pmd usage: NOT AVAIL\n"
		"  overhead:  4 %\n"
		"pmd thread numa_id 0 core_id 2:\n"
		"  isolated : false\n"
		"  overhead: NOT AVAIL\n",
		r),
	    0);
	assert_int_equal(r->npmds, 2);
	assert_true(r->pmd[0].isolated);
	assert_int_equal(r->pmd[0].overhead_pct, 4);
	assert_false(r->pmd[1].isolated);
	assert_int_equal(r->pmd[1].overhead_pct, -1);
	assert_int_equal(r->nrxqs, 2);
	assert_string_equal(r->rxq[0].port, "p0");
	assert_int_equal(r->rxq[0].usage_pct, 37);
	assert_true(r->rxq[0].enabled);
	assert_int_equal(r->rxq[1].queue, 3);
	assert_false(r->rxq[1].enabled);
	assert_int_equal(r->rxq[1].usage_pct, -1);
	free(r);
}

static void test_maxsleep_list(void **state)
{
	char out[64];
	(void)state;
	/* 3.3's list grammar. */
	assert_int_equal(host_ovs_maxsleep_applied("300", true), 300);
	assert_int_equal(host_ovs_maxsleep_applied("50,8:0", true), 50);
	assert_int_equal(host_ovs_maxsleep_applied("8:0,50", true), 50);
	assert_int_equal(host_ovs_maxsleep_applied("8:0", true), 0);
	assert_int_equal(host_ovs_maxsleep_applied("", true), 0);
	assert_int_equal(host_ovs_maxsleep_applied(NULL, true), 0);
	assert_int_equal(host_ovs_maxsleep_applied("50,1:qwe,2:0", true), 50);
	assert_int_equal(host_ovs_maxsleep_applied("qwe", true), 0);
	assert_int_equal(host_ovs_maxsleep_applied("3:400 200", true), 200);
	assert_int_equal(host_ovs_maxsleep_applied("50,70", true), 70); /* the later one */
	assert_int_equal(host_ovs_maxsleep_applied("99999", true), 10000);
	/* 3.1's pmd-maxsleep: one number for the whole string, as OVS's smap_get_ullong. */
	assert_int_equal(host_ovs_maxsleep_applied("300", false), 300);
	assert_int_equal(host_ovs_maxsleep_applied("99999", false), 10000);
	assert_int_equal(host_ovs_maxsleep_applied("-1", false), 10000); /* wraps, then clamped */
	assert_int_equal(host_ovs_maxsleep_applied("50,1:100", false), 0); /* not a number: off */
	assert_int_equal(host_ovs_maxsleep_applied("", false), 0);
	assert_int_equal(host_ovs_maxsleep_applied(NULL, false), 0);
	assert_int_equal(host_ovs_maxsleep_applied("99999999999999999999999", false), 0);
	assert_int_equal(host_ovs_maxsleep_replace("50,8:0", 60, out, sizeof(out)), 0);
	assert_string_equal(out, "60,8:0");
	assert_int_equal(host_ovs_maxsleep_replace("8:0,9:100", 60, out, sizeof(out)), 0);
	assert_string_equal(out, "60,8:0,9:100");
	assert_int_equal(host_ovs_maxsleep_replace(NULL, 10, out, sizeof(out)), 0);
	assert_string_equal(out, "10");
	assert_int_equal(host_ovs_maxsleep_replace("abc", 10, out, sizeof(out)), -1);
	/* Blanks separate entries as commas do; every old default goes. */
	assert_int_equal(host_ovs_maxsleep_replace("8:0 50,9=1", 60, out, sizeof(out)), 0);
	assert_string_equal(out, "60,8:0,9=1");
	assert_int_equal(host_ovs_maxsleep_applied(out, true), 60);
	assert_int_equal(host_ovs_maxsleep_replace("50,8:0", 60, out, 4), -1);
}

static void test_pid_path(void **state)
{
	char dir[128], name[64];
	(void)state;
	assert_true(host_ovs_split_pid_path("/run/openvswitch/ovs-vswitchd.1234.ctl", dir,
					    sizeof(dir), name, sizeof(name)));
	assert_string_equal(dir, "/run/openvswitch");
	assert_string_equal(name, "ovs-vswitchd");
	assert_false(host_ovs_split_pid_path("/run/openvswitch/ovs-vswitchd.ctl", dir, sizeof(dir),
					     name, sizeof(name)));
	assert_false(host_ovs_split_pid_path("/tmp/x.sock", dir, sizeof(dir), name, sizeof(name)));
	assert_false(host_ovs_split_pid_path("/tmp/.12.ctl", dir, sizeof(dir), name, sizeof(name)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stats),
	    cmocka_unit_test(test_rxqs),
	    cmocka_unit_test(test_maxsleep_list),
	    cmocka_unit_test(test_pid_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_host_topo.c: the host's LLC groups come from each CPU's cache shared_cpu_list, as the
 * kernel groups them, not from cache ids, in a fake sysfs tree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "tt_tmpdir.h"
#include "backends/host/topology.h"

/* cpu<cpu>/cache/index<idx> with these id and shared_cpu_list (NULL: no such file). */
static void fake_cache(int cpu, int idx, const char *id, const char *list)
{
	char rel[128];
	snprintf(rel, sizeof(rel), "cpu%d", cpu);
	mkdir(tt_at(rel), 0700);
	snprintf(rel, sizeof(rel), "cpu%d/cache", cpu);
	mkdir(tt_at(rel), 0700);
	snprintf(rel, sizeof(rel), "cpu%d/cache/index%d", cpu, idx);
	assert_int_equal(mkdir(tt_at(rel), 0700), 0);
	if (id) {
		snprintf(rel, sizeof(rel), "cpu%d/cache/index%d/id", cpu, idx);
		tt_put(tt_at(rel), id);
	}
	if (list) {
		snprintf(rel, sizeof(rel), "cpu%d/cache/index%d/shared_cpu_list", cpu, idx);
		tt_put(tt_at(rel), list);
	}
}

/* The VM of docs/blk.md's lab: each CPU's L3 its own id, every list 0-3: one LLC. */
static void test_vm_one_llc(void **state)
{
	(void)state;
	struct topo_cpu cpus[4];
	char id[8];
	for (int c = 0; c < 4; c++) {
		snprintf(id, sizeof(id), "%d\n", c);
		fake_cache(c, 0, id, NULL); /* L1d: per CPU, no list */
		fake_cache(c, 3, id, "0-3\n");
	}
	topo_llc_read(tt_dir, cpus, 4);
	for (int c = 0; c < 4; c++)
		assert_int_equal(cpus[c].llc, 0);
}

/* Two LLCs of two CPUs each (lists 0-1 and 2-3), ids 7 and 9: two groups with those ids; a
 * CPU that lists no cache is -1. */
static void test_two_llcs(void **state)
{
	(void)state;
	struct topo_cpu cpus[5];
	fake_cache(0, 3, "7\n", "0-1\n");
	fake_cache(1, 3, "7\n", "0-1\n");
	fake_cache(2, 3, "9\n", "2-3\n");
	fake_cache(3, 3, "9\n", "2-3\n");
	topo_llc_read(tt_dir, cpus, 5);
	assert_int_equal(cpus[0].llc, 7);
	assert_int_equal(cpus[1].llc, 7);
	assert_int_equal(cpus[2].llc, 9);
	assert_int_equal(cpus[3].llc, 9);
	assert_int_equal(cpus[4].llc, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_vm_one_llc, tt_dir_setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_two_llcs, tt_dir_setup, tt_dir_teardown)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_host_blk.c: device-name allowlist, sysfs path building, and host thread picking. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "backends/host/host_blk.h"
#include "backends/host/host_threads.h"
#include "engine/ethread.h"

static void test_names(void **state)
{
	(void)state;
	assert_true(host_blk_name_valid("loop0"));
	assert_true(host_blk_name_valid("nvme0n1"));
	assert_true(host_blk_name_valid("dm-0"));
	assert_true(host_blk_name_valid("md127"));
	assert_false(host_blk_name_valid(NULL));
	assert_false(host_blk_name_valid(""));
	assert_false(host_blk_name_valid("."));
	assert_false(host_blk_name_valid(".."));
	assert_false(host_blk_name_valid("../loop0"));
	assert_false(host_blk_name_valid("loop0/../../etc"));
	assert_false(host_blk_name_valid("/sys/block/loop0"));
	assert_false(host_blk_name_valid("loop 0"));
	assert_false(host_blk_name_valid("loop0\n"));
	assert_false(host_blk_name_valid("a*"));
	assert_false(host_blk_name_valid("0123456789012345678901234567890123")); /* too long */
}

static void test_paths(void **state)
{
	char path[192], err[256];
	(void)state;
	assert_int_equal(host_blk_rq_path("../../etc", path, sizeof(path), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a valid name"));
	assert_int_equal(host_blk_rq_path("nosuchdisk9", path, sizeof(path), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no such device"));
	assert_int_equal(host_blk_rq_affinity_write("nosuchdisk9", 1, err, sizeof(err)), -1);
	assert_int_equal(host_blk_rq_affinity_write("loop0", 3, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not 0, 1 or 2"));
	/* Where the machine has a disk, the default is one whose path validates. */
	char dev[HOST_BLK_NAME_MAX];
	if (host_blk_default_dev(dev, sizeof(dev)) == 0) {
		assert_true(host_blk_name_valid(dev));
		assert_int_equal(host_blk_rq_path(dev, path, sizeof(path), err, sizeof(err)), 0);
		assert_non_null(strstr(path, "/queue/rq_affinity"));
		int v = host_blk_rq_affinity_read(dev, err, sizeof(err));
		assert_true(v >= 0 && v <= 2);
	}
}

static void test_thread_pick(void **state)
{
	(void)state;
	assert_true(host_thread_pick("ipvs-e:0:1", "ipvs-e:0:1", 10, 0));
	assert_true(host_thread_pick("pmd-c01/id:8", "ovs-vswitchd", 10, 0));
	assert_true(host_thread_pick("handler6", "ovs-vswitchd", 10, 0));
	assert_true(host_thread_pick("kworker/0:1H-kblockd", "kworker/0:1H-kblockd", 10, 0));
	assert_true(host_thread_pick("ksoftirqd/1", "ksoftirqd/1", 10, 0));
	assert_false(host_thread_pick("bash", "bash", 10, 0));
	assert_true(host_thread_pick("bash", "bash", 10, 10));
	assert_false(host_thread_pick("bash", "bash", 10, 11));
	assert_false(host_thread_pick("ovs-vsctl", "ovs-vsctl", 10, 0));

	assert_int_equal(host_thread_subsys("ipvs-e:0:1"), SUBSYS_EST);
	assert_int_equal(host_thread_subsys("pmd-c01/id:8"), SUBSYS_PMD);
	assert_int_equal(host_thread_subsys("ksoftirqd/0"), SUBSYS_BLK);
	assert_int_equal(host_thread_subsys("kworker/0:1H-kblockd"), SUBSYS_BLK);
	assert_int_equal(host_thread_subsys("kworker/u8:2-loop3"), SUBSYS_BLK);
	assert_int_equal(host_thread_subsys("kworker/0:1-events"), SUBSYS_ENGINE);
	assert_int_equal(host_thread_subsys("handler6"), SUBSYS_ENGINE);

	assert_int_equal(host_thread_state('R'), ETHREAD_RUN);
	assert_int_equal(host_thread_state('S'), ETHREAD_SLEEP);
	assert_int_equal(host_thread_state('D'), ETHREAD_WAIT);
	assert_int_equal(host_thread_state('I'), ETHREAD_IDLE);
	assert_int_equal(host_thread_state('Z'), ETHREAD_IDLE);
}

static void test_thread_scan_self(void **state)
{
	struct host_thread_info *arr = NULL;
	size_t cap = 0, n = 0;
	(void)state;
	/* This process is picked by pid; the result is sorted by tid and holds us. */
	int matched = host_threads_scan("/proc", getpid(), &arr, &cap, 4096, &n);
	assert_true(matched >= 1);
	assert_true(n >= 1);
	bool self = false;
	for (size_t i = 0; i < n; i++) {
		if (i)
			assert_true(arr[i - 1].tid < arr[i].tid);
		if (arr[i].tid == getpid())
			self = true;
	}
	assert_true(self);
	/* a cap of 1 keeps one but counts all */
	int m2 = host_threads_scan("/proc", getpid(), &arr, &cap, 1, &n);
	assert_int_equal(n, 1);
	assert_true(m2 >= 1);
	/* no such proc root */
	assert_int_equal(host_threads_scan("/nonexistent", 0, &arr, &cap, 16, &n), 0);
	assert_int_equal(n, 0);
	free(arr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_paths),
	    cmocka_unit_test(test_thread_pick),
	    cmocka_unit_test(test_thread_scan_self),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_host_est.c: the est section on a live host: the real ipvs-e:G:I kthreads listed with
 * their CPU, chain_max from the kernel's own "using max" line (as a 6.12 PREEMPT_RCU kernel
 * and a non-preemptible one print it), and what the kernel does not expose named absent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "backends/host/host_int.h"
#include "core/snapshot.h"

static void test_parse(void **state)
{
	int cm, calib, tc;
	uint64_t pk;
	/* Linux 6.12, CONFIG_PREEMPT_RCU (one chain a tick): chain_max already x48. */
	assert_true(host_estsec_parse("IPVS: using max 3648 ests per chain, 182400 per kthread",
				      &cm, &pk, &calib, &tc));
	assert_int_equal(cm, 3648);
	assert_int_equal(pk, 182400);
	assert_int_equal(calib, 76);
	assert_int_equal(tc, 1);
	/* 48 chains a tick: chain_max as calibrated. */
	assert_true(host_estsec_parse("IPVS: using max 12 ests per chain, 28800 per kthread", &cm,
				      &pk, &calib, &tc));
	assert_int_equal(cm, 12);
	assert_int_equal(calib, 12);
	assert_int_equal(tc, 48);
	/* Lines that are not it, or do not add up, say nothing. */
	assert_false(
	    host_estsec_parse("IPVS: starting estimator thread 0...", &cm, &pk, &calib, &tc));
	assert_false(host_estsec_parse("IPVS: using max 100 ests per chain, 182400 per kthread",
				       &cm, &pk, &calib, &tc));
	assert_false(host_estsec_parse("IPVS: using max 3648 ests per chain, 7 per kthread", &cm,
				       &pk, &calib, &tc));
}

static bool absent(const struct snapshot *s, const char *path)
{
	for (int i = 0; i < s->host.nabsent; i++)
		if (strcmp(s->host.absent[i], path) == 0)
			return true;
	return false;
}

static void test_fill(void **state)
{
	struct snap_thread th[4] = {
	    {.tid = 313, .name = "ipvs-e:0:0", .subsys = SUBSYS_EST, .cpu_pct = 5.6},
	    {.tid = 400, .name = "kworker/0:1", .subsys = SUBSYS_ENGINE, .cpu_pct = 1},
	    {.tid = 444, .name = "ipvs-e:1:0", .subsys = SUBSYS_EST, .cpu_pct = 2.3},
	    {.tid = 445, .name = "ipvs-e:2:1", .subsys = SUBSYS_EST, .cpu_pct = 2.7},
	};
	struct snapshot s = {.threads = th, .nthreads = 4};
	host_estsec_fill(&s, "IPVS: using max 3648 ests per chain, 182400 per kthread");
	assert_true(s.has_est);
	assert_int_equal(s.est.kthreads, 3);
	assert_int_equal(s.est.nkt, 3);
	assert_int_equal(s.est.kt[2].id, 1);
	assert_true(s.est.kt[0].cpu_pct == 5.6);
	assert_true(s.est.cpu_pct_total > 10.59 && s.est.cpu_pct_total < 10.61);
	assert_int_equal(s.est.chain_max, 3648);
	assert_int_equal(s.est.max_per_kthread, 182400);
	assert_int_equal(s.est.calib.chain_max, 76);
	assert_false(absent(&s, "est.chain_max"));
	assert_true(absent(&s, "est.tick_ns"));
	assert_true(absent(&s, "est.estimators"));
	assert_true(absent(&s, "est.kthread.estimators"));
	/* No line read (no CAP_SYSLOG, or the ring rotated past it): chain_max absent too. */
	memset(&s.host, 0, sizeof(s.host));
	host_estsec_fill(&s, NULL);
	assert_true(s.has_est);
	assert_true(absent(&s, "est.chain_max"));
	/* No kthread: no est section, nothing named. */
	memset(&s.host, 0, sizeof(s.host));
	s.nthreads = 2;
	th[0].subsys = SUBSYS_ENGINE;
	host_estsec_fill(&s, NULL);
	assert_false(s.has_est);
	assert_int_equal(s.host.nabsent, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_fill),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

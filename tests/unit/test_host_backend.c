/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_host_backend.c: the host backend end to end in-process: open, sample twice, knobs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "backends/host/host.h"
#include "backends/host/host_blk.h"
#include "core/clock.h"
#include "core/snapshot.h"

static void test_open_sample_close(void **state)
{
	char err[256];
	struct snapshot *s = snapshot_new();
	(void)state;

	unsetenv("TUNETOP_BLK_DEV");
	unsetenv("TUNETOP_OVS_SOCKET");
	struct host_state *h = host_open(err, sizeof(err));
	assert_non_null(h);
	/* follow ourselves by pid, so at least one thread is ours */
	assert_int_equal(host_knob_apply(h, K_HOST_PID, getpid(), err, sizeof(err)), 0);
	int64_t v = -1;
	assert_int_equal(host_knob_current(h, K_HOST_PID, &v), 0);
	assert_int_equal(v, getpid());

	for (int round = 0; round < 2; round++) {
		struct timespec ts = {0, 50 * 1000 * 1000};
		nanosleep(&ts, NULL);
		host_sample(h, s, clock_mono_ns());
		assert_true(s->has_host);
		assert_true(s->ncpus >= 1);
		assert_false(s->governor_emulated);
		bool self = false;
		for (size_t i = 0; i < s->nthreads; i++) {
			assert_true(s->threads[i].cpu_pct >= 0);
			assert_true(strlen(s->threads[i].name) < sizeof(s->threads[i].name));
			if (i)
				assert_true(s->threads[i - 1].tid < s->threads[i].tid);
			self |= s->threads[i].tid == getpid();
		}
		assert_true(self);
		assert_true(s->host.threads_matched >= (int)s->nthreads);
		for (int i = 0; i < s->ncpus; i++)
			assert_true(s->cpus[i].load_pct >= 0 && s->cpus[i].load_pct <= 100);
		if (s->has_blk) /* exact at every sample */
			assert_int_equal(s->blk.submitted, s->blk.completed + s->blk.in_flight);
	}

	/* Knobs: the host's own value, and a clear refusal of what it cannot take. */
	char dev[HOST_BLK_NAME_MAX];
	if (host_blk_default_dev(dev, sizeof(dev)) == 0) {
		assert_int_equal(host_knob_current(h, K_BLK_RQ_AFFINITY, &v), 0);
		assert_int_equal(v, host_blk_rq_affinity_read(dev, err, sizeof(err)));
		assert_string_equal(s->host.blk_dev, dev);
	}
	assert_int_equal(host_knob_apply(h, K_EST_COUNT, 5, err, sizeof(err)), KNOB_ERR_RUNTIME);
	assert_string_equal(err, "est.count: not available on the host backend");
	assert_int_equal(host_knob_current(h, K_EST_COUNT, &v), -1);
	if (!s->host.cpufreq) {
		assert_int_equal(host_knob_apply(h, K_CPU_GOVERNOR, 1, err, sizeof(err)),
				 KNOB_ERR_RUNTIME);
		assert_non_null(strstr(err, "no cpufreq policy"));
		assert_int_equal(host_knob_current(h, K_CPU_GOVERNOR, &v), -1);
	}
	if (!s->host.ovs) {
		assert_int_equal(host_knob_apply(h, K_PMD_MAXSLEEP_US, 50, err, sizeof(err)),
				 KNOB_ERR_RUNTIME);
		assert_non_null(strstr(err, "pmd.maxsleep_us: no Open vSwitch control socket"));
	}
	host_close(h);
	snapshot_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_open_sample_close),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

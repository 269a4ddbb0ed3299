/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_engine_lifecycle.c: start/stop the engine 100 times; no thread or memory left behind. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/task_gone.h"

#include "engine/engine.h"
#include "core/scenario.h"

/* Threads of this process; names them on stderr when asked, to say who was left. */
static int count_tasks(bool print)
{
	int n = 0;
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	assert_non_null(d);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		n++;
		if (print) {
			char path[300], comm[32] = "";
			snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
			FILE *f = fopen(path, "r");
			if (f) {
				if (!fgets(comm, sizeof(comm), f))
					comm[0] = '\0';
				fclose(f);
			}
			fprintf(stderr, "task %s: %s", e->d_name, comm);
		}
	}
	closedir(d);
	return n;
}

static void test_start_stop_100(void **state)
{
	char err[512];
	/* The base is taken after the first round: sanitizer runtimes start a helper
	 * thread of their own once the process has threads (TSan does). A thread the
	 * engine leaked would still show as growth in every later round. */
	int base = -1;
	(void)state;

	for (int i = 0; i < 100; i++) {
		struct engine *eng = engine_new();
		/* The default scenario (every subsystem) kept small so 100 rounds stay quick. */
		assert_int_equal(
		    scenario_apply("default", engine_scenario_assign, eng, err, sizeof(err)), 0);
		assert_int_equal(engine_knob_assign(eng, "est.count=200", err, sizeof(err)), 0);
		assert_int_equal(engine_knob_assign(eng, "load.spin_threads=1", err, sizeof(err)),
				 0);
		assert_int_equal(engine_knob_assign(eng, "load.sleep_threads=1", err, sizeof(err)),
				 0);
		assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
		assert_true(eng->threads.count >= 4);
		if (i % 10 == 0) {
			struct snapshot *s = snapshot_new();
			engine_sample(eng, s);
			assert_int_equal(s->nthreads, eng->threads.count);
			snapshot_free(s);
		}
		pid_t tids[64];
		unsigned nt = 0;
		pthread_mutex_lock(&eng->threads.lock);
		for (struct ethread *t = eng->threads.head; t && nt < 64; t = t->next)
			tids[nt++] = t->tid;
		pthread_mutex_unlock(&eng->threads.lock);
		engine_stop(eng);
		assert_int_equal(eng->threads.count, 0);
		engine_free(eng);
		/* pthread_join() returns once the thread cleared its tid; the kernel lists the
		 * task in /proc until it has finished exiting, longer on a loaded machine. The
		 * count is taken once every stopped thread is gone from there. */
		for (unsigned k = 0; k < nt; k++)
			tt_wait_task_gone(tids[k]);
		if (i == 0)
			base = count_tasks(false);
		if (count_tasks(false) != base)
			count_tasks(true);
		assert_int_equal(count_tasks(false), base);
	}
}

static void test_live_enable_disable(void **state)
{
	char err[512];
	struct engine *eng = engine_new();
	(void)state;
	assert_int_equal(scenario_apply("idle", engine_scenario_assign, eng, err, sizeof(err)), 0);
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	unsigned idle_threads = eng->threads.count;
	assert_int_equal(engine_knob_assign(eng, "load.spin_threads=2", err, sizeof(err)), 0);
	assert_int_equal(eng->threads.count, idle_threads + 2);
	assert_int_equal(engine_knob_assign(eng, "load.spin_threads=0", err, sizeof(err)), 0);
	assert_int_equal(eng->threads.count, idle_threads);
	for (int round = 0; round < 3; round++) {
		assert_int_equal(engine_knob_assign(eng, "pmd.enabled=on", err, sizeof(err)), 0);
		assert_int_equal(engine_knob_assign(eng, "blk.enabled=on", err, sizeof(err)), 0);
		assert_int_equal(engine_knob_assign(eng, "est.enabled=on", err, sizeof(err)), 0);
		assert_int_equal(engine_knob_assign(eng, "est.enabled=off", err, sizeof(err)), 0);
		assert_int_equal(engine_knob_assign(eng, "blk.enabled=off", err, sizeof(err)), 0);
		assert_int_equal(engine_knob_assign(eng, "pmd.enabled=off", err, sizeof(err)), 0);
		assert_int_equal(eng->threads.count, idle_threads);
	}
	/* Knob changes are logged as events. */
	assert_true(event_count_kind(&eng->events, EV_KNOB) >= 18);
	engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_start_stop_100),
	    cmocka_unit_test(test_live_enable_disable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

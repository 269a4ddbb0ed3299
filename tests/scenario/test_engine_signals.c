/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_engine_signals.c: engine threads block the asynchronous signals, so they reach the
 * control thread (a resize or ^C wakes the console's key wait, no worker sees EINTR). */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"

static unsigned long long sig_blocked_mask(pid_t tid)
{
	char path[64], line[256];
	unsigned long long mask = 0;
	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigBlk: %llx", &mask) == 1)
			break;
	fclose(f);
	return mask;
}

static void test_workers_block_async_signals(void **state)
{
	char err[256];
	struct engine *eng = engine_new();
	(void)state;
	assert_int_equal(engine_knob_assign(eng, "load.sleep_threads=2", err, sizeof(err)), 0);
	assert_int_equal(engine_start(eng, err, sizeof(err)), 0);
	struct snapshot *s = snapshot_new();
	engine_sample(eng, s);
	assert_true(s->nthreads >= 3);
	for (size_t i = 0; i < s->nthreads; i++) {
		unsigned long long m = sig_blocked_mask(s->threads[i].tid);
		for (int sig = 1; sig < 32; sig++) {
			bool want = sig == SIGINT || sig == SIGTERM || sig == SIGHUP ||
				    sig == SIGWINCH || sig == SIGPIPE;
			if (want && !(m & (1ULL << (sig - 1))))
				fail_msg("%s does not block signal %d (SigBlk %llx)",
					 s->threads[i].name, sig, m);
		}
	}
	/* The control thread itself keeps them deliverable. */
	sigset_t cur;
	pthread_sigmask(SIG_SETMASK, NULL, &cur);
	assert_false(sigismember(&cur, SIGINT));
	assert_false(sigismember(&cur, SIGWINCH));
	snapshot_free(s);
	engine_free(eng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_workers_block_async_signals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

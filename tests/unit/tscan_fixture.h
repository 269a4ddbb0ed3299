/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tscan_fixture.h: what the thread-scan tests share: find_tid, the entry of a thread id in a
 * scan's list (host_tscan_run's array) or NULL; has_tid, whether it is listed; pstat_text, the
 * process-wide stat line of a fake process; fork_paused, a real child process that waits.
 * Include after <cmocka.h>. */
#ifndef TT_TESTS_TSCAN_FIXTURE_H
#define TT_TESTS_TSCAN_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <sys/types.h>

#include "backends/host/host_threads.h"

static inline const struct host_thread_info *find_tid(const struct host_thread_info *arr, size_t n,
						      pid_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (arr[i].tid == tid)
			return &arr[i];
	return NULL;
}

static inline bool has_tid(const struct host_thread_info *arr, size_t n, pid_t tid)
{
	return find_tid(arr, n, tid) != NULL;
}

/* The stat line of fake process pid: every field 1 but utime (14), its ticks, the figure that
 * tells it ran (host_psig.h). */
static inline void pstat_text(char *text, size_t len, int pid, int utime)
{
	int k = snprintf(text, len, "%d (p) S", pid);
	for (int field = 4; field <= 52; field++)
		k += snprintf(text + k, len - (size_t)k, " %d", field == 14 ? utime : 1);
	snprintf(text + k, len - (size_t)k, "\n");
}

static void fixture_on_usr1(int sig)
{
	(void)sig;
}

/* A child process named name (NULL: this program's name) that waits in pause(): SIGUSR1 runs a
 * handler, microseconds, and it returns to pause(); it dies with its parent, a failed test too.
 * Returned once it runs. */
static inline pid_t fork_paused(const char *name)
{
	int go[2];
	assert_int_equal(pipe(go), 0);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (name)
			prctl(PR_SET_NAME, name, 0, 0, 0);
		signal(SIGUSR1, fixture_on_usr1);
		char c = 1;
		if (write(go[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	char c;
	assert_int_equal(read(go[0], &c, 1), 1);
	close(go[0]);
	close(go[1]);
	return child;
}

#endif

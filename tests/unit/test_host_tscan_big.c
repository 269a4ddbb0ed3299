/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_host_tscan_big.c: what the host thread scan reads of a host with another user's
 * thousands of idle threads (backends/host/host_threads.h, HOST_TSCAN_BIG_THREADS): a big
 * process that does not run has none of its threads named, and is read once it ran; on the
 * real /proc a new process is found without the root being listed whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/unit/tt_tmpdir.h"
#include "tests/unit/tscan_fixture.h"

#include "backends/host/host_psig.h"
#include "backends/host/host_threads.h"

/* A directory under the fake root. */
static void dir(const char *fmt, int a, int b)
{
	char rel[64];
	snprintf(rel, sizeof(rel), fmt, a, b);
	assert_int_equal(mkdir(tt_at(rel), 0700), 0);
}

/* Thread tid of fake process pid, named comm (its task directory, comm and stat). */
static void fake_thread(int pid, int tid, const char *comm)
{
	char rel[64], text[512];
	int k;
	dir("%d/task/%d", pid, tid);
	snprintf(rel, sizeof(rel), "%d/task/%d/comm", pid, tid);
	snprintf(text, sizeof(text), "%s\n", comm);
	tt_put(tt_at(rel), text);
	k = snprintf(text, sizeof(text), "%d (%s) S", tid, comm);
	for (int field = 4; field <= 52; field++)
		k += snprintf(text + k, sizeof(text) - (size_t)k, " %d", field == 22 ? 77 : 1);
	snprintf(text + k, sizeof(text) - (size_t)k, "\n");
	snprintf(rel, sizeof(rel), "%d/task/%d/stat", pid, tid);
	tt_put(tt_at(rel), text);
}

/* The process's own stat: its utime ticks, the figure that tells it ran (host_psig.h). */
static void fake_pstat(int pid, int utime)
{
	char rel[64], text[512];
	pstat_text(text, sizeof(text), pid, utime);
	snprintf(rel, sizeof(rel), "%d/stat", pid);
	tt_put(tt_at(rel), text);
}

/* Fake process pid named pcomm with threads pid to pid + nthreads - 1, all named pcomm but
 * pid + 1, named comm1. */
static void fake_proc(int pid, const char *pcomm, int nthreads, const char *comm1)
{
	char rel[64], text[64];
	dir("%d", pid, 0);
	dir("%d/task", pid, 0);
	snprintf(rel, sizeof(rel), "%d/comm", pid);
	snprintf(text, sizeof(text), "%s\n", pcomm);
	tt_put(tt_at(rel), text);
	for (int i = 0; i < nthreads; i++)
		fake_thread(pid, pid + i, i == 1 ? comm1 : pcomm);
	fake_pstat(pid, 1);
}

/*
 * Two processes of HOST_TSCAN_BIG_THREADS + 1 threads, each with a thread named as a PMD, and
 * a kworker. Found: no thread of theirs named. One runs: it is read at the next full rescan
 * (its PMD-named thread listed), not before, and the other, which did not run, is not read
 * then, however its thread count moved; once it ran, at the full rescan after. --pid's
 * process is read whatever its size.
 */
static void test_big_idle(void **state)
{
	struct host_thread_info *arr = NULL;
	size_t cap = 0, n = 0;
	uint64_t t = 1000;
	const int big = HOST_TSCAN_BIG_THREADS + 1;
	(void)state;
	fake_proc(200, "kworker/0:1", 1, "");
	fake_proc(1000, "python3", big, "pmd-c01/id:5");
	fake_proc(2000, "python3", big, "pmd-c02/id:6");
	fake_proc(3000, "python3", big, "pmd-c03/id:7");
	struct host_tscan *sc = host_tscan_new(tt_dir);

	assert_int_equal(host_tscan_run(sc, 3000, t, &arr, &cap, 4096, &n), 1 + big);
	assert_int_equal(host_tscan_named(sc), 1 + big); /* the kworker's and --pid's */
	assert_true(has_tid(arr, n, 200) && has_tid(arr, n, 3001));
	assert_false(has_tid(arr, n, 1001) || has_tid(arr, n, 2001));

	/* 2000 ran, 1000 got a thread: nothing read before the full rescan. */
	fake_pstat(2000, 2);
	fake_thread(1000, 1000 + big, "python3");
	assert_int_equal(host_tscan_run(sc, 3000, t + 1, &arr, &cap, 4096, &n), 1 + big);
	assert_int_equal(host_tscan_named(sc), 0);
	assert_false(has_tid(arr, n, 1001) || has_tid(arr, n, 2001));

	t += HOST_TSCAN_FULL_NS + 1;
	assert_int_equal(host_tscan_run(sc, 3000, t, &arr, &cap, 4096, &n), 2 + big);
	assert_int_equal(host_tscan_named(sc), big);
	assert_int_equal(host_tscan_rescanned(sc), 1);
	assert_true(has_tid(arr, n, 2001));
	assert_false(has_tid(arr, n, 1001));

	/* 1000 ran: read at the next full rescan. */
	fake_pstat(1000, 3);
	t += HOST_TSCAN_FULL_NS + 1;
	assert_int_equal(host_tscan_run(sc, 3000, t, &arr, &cap, 4096, &n), 3 + big);
	assert_int_equal(host_tscan_named(sc), big + 1);
	assert_true(has_tid(arr, n, 1001));
	host_tscan_free(sc);
	free(arr);
}

/* The real /proc: a process new since the last run is found by the pids handed out since,
 * the root not listed whole (unless the pids wrapped around in between). */
static void test_new_pid_range(void **state)
{
	struct host_thread_info *arr = NULL;
	size_t cap = 0, n = 0;
	uint64_t t = 1000; /* a fixed clock: no full rescan falls due */
	(void)state;
	int rootfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(rootfd >= 0);
	long before = 0, after = 0;
	assert_true(host_psig_last_pid(rootfd, &before));
	struct host_tscan *sc = host_tscan_new("/proc");
	host_tscan_run(sc, 0, t, &arr, &cap, 4096, &n);
	assert_int_equal(host_tscan_listed(sc), 1);
	pid_t child = fork_paused("pmd-tt-big"); /* named as a PMD, so listed */
	host_tscan_run(sc, 0, t + 1, &arr, &cap, 4096, &n);
	assert_true(host_psig_last_pid(rootfd, &after));
	assert_true(has_tid(arr, n, child));
	if (after >= before) /* no wrap since the listing */
		assert_int_equal(host_tscan_listed(sc), 0);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	host_tscan_run(sc, 0, t + 2, &arr, &cap, 4096, &n);
	assert_false(has_tid(arr, n, child));
	host_tscan_free(sc);
	close(rootfd);
	free(arr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_big_idle, tt_dir_setup, tt_dir_teardown),
	    cmocka_unit_test(test_new_pid_range)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_host_sched.c: host threads' schedstat and slack fds under a fake proc root: kept open
 * across refreshes, closed when a thread leaves the list, reopened when its tid is reused. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "backends/host/host_sched.h"
#include "core/schedstat.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	/* A new file (a new inode): a descriptor kept on the old one still reads the old. */
	unlink(path);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The fake /proc entries of thread tid of process pid: schedstat wait and slack. */
static void fake_thread(int pid, int tid, unsigned long long wait, long long slack)
{
	char rel[128], text[64];
	snprintf(rel, sizeof(rel), "%s/%d", root, pid);
	mkdir(rel, 0700);
	snprintf(rel, sizeof(rel), "%s/%d/task", root, pid);
	mkdir(rel, 0700);
	snprintf(rel, sizeof(rel), "%s/%d/task/%d", root, pid, tid);
	mkdir(rel, 0700);
	snprintf(rel, sizeof(rel), "%s/%d", root, tid);
	mkdir(rel, 0700);
	snprintf(rel, sizeof(rel), "%d/task/%d/schedstat", pid, tid);
	snprintf(text, sizeof(text), "1000 %llu 7\n", wait);
	put(rel, text);
	snprintf(rel, sizeof(rel), "%d/timerslack_ns", tid);
	snprintf(text, sizeof(text), "%lld\n", slack);
	put(rel, text);
}

static int nfds_of_self(void)
{
	char path[64];
	int n = 0;
	for (int fd = 0; fd < 4096; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n += access(path, F_OK) == 0;
	}
	return n;
}

static void read_all(struct host_sched *s, size_t n, uint64_t *wait, int64_t *slack)
{
	for (size_t i = 0; i < n; i++) {
		struct schedstat ss;
		wait[i] = host_sched_stat(s, i, &ss) == 0 ? ss.runq_wait_ns : UINT64_MAX;
		slack[i] = host_sched_slack(s, i);
	}
}

static void test_fds_kept_and_closed(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/tt-hsched.%d", (int)getpid());
	mkdir(root, 0700);
	fake_thread(10, 11, 500, 50000);
	fake_thread(10, 12, 600, 1000);
	fake_thread(20, 21, 700, 2000);
	struct host_thread_info cur[3] = {
	    {.pid = 10, .tid = 11, .start_ticks = 5},
	    {.pid = 10, .tid = 12, .start_ticks = 5},
	    {.pid = 20, .tid = 21, .start_ticks = 9},
	};
	uint64_t wait[3];
	int64_t slack[3];
	int base = nfds_of_self();
	struct host_sched *s = host_sched_new_at(root);

	host_sched_sync(s, cur, 3);
	read_all(s, 3, wait, slack);
	assert_true(wait[0] == 500 && wait[1] == 600 && wait[2] == 700);
	assert_true(slack[0] == 50000 && slack[1] == 1000 && slack[2] == 2000);
	/* Two files a thread, open after the read (and the root). */
	assert_int_equal(host_sched_nfds(s), 6);
	assert_int_equal(nfds_of_self(), base + 1 + 6);

	/* The next refresh reads the same descriptors: a file replaced under its name is not
	 * seen (a reopen would read the new one). */
	fake_thread(10, 12, 900, 1500);
	host_sched_sync(s, cur, 3);
	read_all(s, 3, wait, slack);
	assert_true(wait[1] == 600 && slack[1] == 1000);
	assert_int_equal(nfds_of_self(), base + 1 + 6);

	/* Thread 12 is gone from the list: its two fds close; 11 and 21 keep theirs. */
	struct host_thread_info two[2] = {cur[0], cur[2]};
	host_sched_sync(s, two, 2);
	assert_int_equal(host_sched_nfds(s), 4);
	assert_int_equal(nfds_of_self(), base + 1 + 4);
	read_all(s, 2, wait, slack);
	assert_true(wait[0] == 500 && wait[1] == 700);

	/* Tid 21 reused by a thread that started later: reopened, the new files read. */
	fake_thread(20, 21, 40, 3000);
	two[1].start_ticks = 77;
	host_sched_sync(s, two, 2);
	assert_int_equal(host_sched_nfds(s), 2); /* closed at the sync, reopened at the read */
	read_all(s, 2, wait, slack);
	assert_true(wait[1] == 40 && slack[1] == 3000);
	assert_int_equal(host_sched_nfds(s), 4);

	/* A thread whose files are gone reads as unreadable, and costs no kept fd. */
	struct host_thread_info three[3] = {two[0], two[1], {.pid = 30, .tid = 31}};
	host_sched_sync(s, three, 3);
	read_all(s, 3, wait, slack);
	assert_true(wait[2] == UINT64_MAX && slack[2] == -1);
	assert_int_equal(host_sched_nfds(s), 4);

	host_sched_sync(s, NULL, 0);
	assert_int_equal(host_sched_nfds(s), 0);
	host_sched_free(s);
	assert_int_equal(nfds_of_self(), base);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* Rewrite a file in place (the same inode), so a kept descriptor reads the new text. */
static void rewrite(const char *rel, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	FILE *f = fopen(path, "r+");
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), 0), 0);
	fputs(text, f);
	fclose(f);
}

static void test_slack_aged(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/tt-hslack.%d", (int)getpid());
	mkdir(root, 0700);
	fake_thread(10, 11, 500, 50000);
	struct host_thread_info cur[1] = {{.pid = 10, .tid = 11, .start_ticks = 5}};
	struct host_sched *s = host_sched_new_at(root);
	host_sched_sync(s, cur, 1);
	assert_int_equal(host_sched_slack_aged(s, 0, 100, 1000), 50000);

	/* Younger than max_age: the value read serves, the file is not read again. */
	rewrite("11/timerslack_ns", "60000\n");
	host_sched_sync(s, cur, 1);
	assert_int_equal(host_sched_slack_aged(s, 0, 500, 1000), 50000);
	/* As old as max_age: read again. */
	assert_int_equal(host_sched_slack_aged(s, 0, 1100, 1000), 60000);
	/* max_age 0 (a PMD's): read every time. */
	rewrite("11/timerslack_ns", "70000\n");
	assert_int_equal(host_sched_slack_aged(s, 0, 1101, 0), 70000);

	/* A reused tid is another thread: its slack is read at once. */
	rewrite("11/timerslack_ns", "80000\n");
	cur[0].start_ticks = 6;
	host_sched_sync(s, cur, 1);
	assert_int_equal(host_sched_slack_aged(s, 0, 1102, 1000), 80000);

	host_sched_free(s);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* Whose slack is read every refresh: the PMDs of the ovs-vswitchd tunetop talks to (every
 * PMD while its pid is unknown), no other thread, a PMD-named one of another process or a
 * host with no OVS socket included. */
static void test_slack_max_age(void **state)
{
	(void)state;
	assert_int_equal(host_sched_slack_max_age(SUBSYS_PMD, 100, true, 100), 0);
	assert_int_equal(host_sched_slack_max_age(SUBSYS_PMD, 200, true, 0), 0);
	assert_int_equal(host_sched_slack_max_age(SUBSYS_PMD, 200, true, 100),
			 HOST_SCHED_SLACK_AGE_NS);
	assert_int_equal(host_sched_slack_max_age(SUBSYS_PMD, 100, false, 0),
			 HOST_SCHED_SLACK_AGE_NS);
	assert_int_equal(host_sched_slack_max_age(SUBSYS_ENGINE, 100, true, 100),
			 HOST_SCHED_SLACK_AGE_NS);
	assert_int_equal(host_sched_slack_max_age(SUBSYS_EST, 100, true, 0),
			 HOST_SCHED_SLACK_AGE_NS);
}

/* A thread's run-queue wait as a % of the window between its two reads: exact inside it, 100
 * at most (a wait that began in an earlier window lands whole at its end: 1.38 s of wait read
 * over a 1 s window showed RUNQ% 138), unknown when no time passed. */
static void test_window_pct(void **state)
{
	(void)state;
	assert_true(host_sched_window_pct(250000000, 1000000000) == 25.0);
	assert_true(host_sched_window_pct(0, 200000000) == 0.0);
	assert_true(host_sched_window_pct(1000000000, 1000000000) == 100.0);
	assert_true(host_sched_window_pct(1380000000, 1000000000) == 100.0);
	assert_true(host_sched_window_pct(6627800000, 1000000000) == 100.0);
	assert_true(host_sched_window_pct(5, 0) == -1.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fds_kept_and_closed),
	    cmocka_unit_test(test_slack_aged),
	    cmocka_unit_test(test_slack_max_age),
	    cmocka_unit_test(test_window_pct),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

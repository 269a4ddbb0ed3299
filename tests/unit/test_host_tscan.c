/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_host_tscan.c: the cached host thread scan: same threads as a full scan, task lists
 * re-read only when a process's thread count changes, a new thread found, a gone one dropped;
 * the root listed again only when its count of processes changes or once a second. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <signal.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/clock.h"
#include "backends/host/host_psig.h"
#include "backends/host/host_threads.h"
#include "backends/host/host_tscomm.h"
#include "tests/lib/task_gone.h"
#include "tests/unit/tscan_fixture.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int started, go_away;
static pid_t child_tid;

static void *child(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	child_tid = (pid_t)syscall(SYS_gettid);
	started = 1;
	pthread_cond_broadcast(&cv);
	while (!go_away)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return NULL;
}

/* A thread of this process that waits until end_child (which waits until it is gone from
 * /proc): its tid in child_tid. */
static void start_child(pthread_t *th)
{
	pthread_mutex_lock(&mu);
	go_away = 0;
	started = 0;
	pthread_mutex_unlock(&mu);
	assert_int_equal(pthread_create(th, NULL, child, NULL), 0);
	pthread_mutex_lock(&mu);
	while (!started)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

static void end_child(pthread_t th)
{
	pthread_mutex_lock(&mu);
	go_away = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	assert_int_equal(pthread_join(th, NULL), 0);
	tt_wait_task_gone(child_tid); /* gone from /proc, not only joined */
}

static void test_tscan(void **state)
{
	struct host_thread_info *arr = NULL, *full = NULL;
	size_t cap = 0, fcap = 0, n = 0, nf = 0;
	uint64_t t = 1000; /* a fixed clock: no full rescan falls due by itself */
	(void)state;

	struct host_tscan *sc = host_tscan_new("/proc");
	int m = host_tscan_run(sc, getpid(), t, &arr, &cap, 4096, &n);
	assert_true(host_tscan_rescanned(sc) > 0); /* the first run reads every list */
	int mf = host_threads_scan("/proc", getpid(), &full, &fcap, 4096, &nf);
	assert_true(m >= 1);
	assert_true(has_tid(arr, n, getpid()));
	assert_true(has_tid(full, nf, getpid()));
	for (size_t i = 1; i < n; i++)
		assert_true(arr[i - 1].tid < arr[i].tid);
	(void)mf;

	/* Nothing changed in this process: its task list is not read again. */
	host_tscan_run(sc, getpid(), t + 1, &arr, &cap, 4096, &n);
	assert_true(has_tid(arr, n, getpid()));

	/* A new thread changes /proc/PID/task's link count: it is found at once. */
	pthread_t th;
	start_child(&th);
	host_tscan_run(sc, getpid(), t + 2, &arr, &cap, 4096, &n);
	assert_true(host_tscan_rescanned(sc) >= 1);
	assert_true(has_tid(arr, n, child_tid));

	/* Gone: dropped. */
	end_child(th);
	host_tscan_run(sc, getpid(), t + 3, &arr, &cap, 4096, &n);
	assert_false(has_tid(arr, n, child_tid));
	assert_true(has_tid(arr, n, getpid()));

	/* The slow timer: a full rescan reads again the lists of the processes that ran, this
	 * one among them. */
	host_tscan_run(sc, getpid(), t + HOST_TSCAN_FULL_NS + 10, &arr, &cap, 4096, &n);
	assert_true(host_tscan_rescanned(sc) >= 1);
	host_tscan_free(sc);

	/* No such root: nothing, no crash. */
	sc = host_tscan_new("/nonexistent");
	assert_int_equal(host_tscan_run(sc, 0, t, &arr, &cap, 16, &n), 0);
	assert_int_equal(n, 0);
	host_tscan_free(sc);
	free(arr);
	free(full);
}

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void fake_stat(int pid, const char *comm, char st);
static void fake_stat_ticks(int pid, const char *comm, char st, int utime);

/* A fake process pid (comm pcomm) with one thread of its own id named comm. */
static void fake_proc(int pid, const char *pcomm, const char *comm)
{
	char rel[128], text[512];
	snprintf(rel, sizeof(rel), "%s/%d", root, pid);
	assert_int_equal(mkdir(rel, 0700), 0);
	snprintf(rel, sizeof(rel), "%s/%d/task", root, pid);
	assert_int_equal(mkdir(rel, 0700), 0);
	snprintf(rel, sizeof(rel), "%s/%d/task/%d", root, pid, pid);
	assert_int_equal(mkdir(rel, 0700), 0);
	snprintf(rel, sizeof(rel), "%d/comm", pid);
	snprintf(text, sizeof(text), "%s\n", pcomm);
	put(rel, text);
	snprintf(rel, sizeof(rel), "%d/task/%d/comm", pid, pid);
	snprintf(text, sizeof(text), "%s\n", comm);
	put(rel, text);
	fake_stat(pid, comm, 'S');
}

/* The stat file of fake_proc's thread, in state st, written in place (a kept fd reads it). */
static void fake_stat(int pid, const char *comm, char st)
{
	fake_stat_ticks(pid, comm, st, 5);
}

/* The same with utime ticks of its own. */
static void fake_stat_ticks(int pid, const char *comm, char st, int utime)
{
	char rel[128], text[512];
	int k;
	/* Fields 4 to 52 of a stat line: all 1 but utime (14), start time 77 (22). */
	k = snprintf(text, sizeof(text), "%d (%s) %c", pid, comm, st);
	for (int field = 4; field <= 52; field++)
		k += snprintf(text + k, sizeof(text) - (size_t)k, " %d",
			      field == 14   ? utime
			      : field == 22 ? 77
					    : 1);
	snprintf(text + k, sizeof(text) - (size_t)k, "\n");
	snprintf(rel, sizeof(rel), "%d/task/%d/stat", pid, pid);
	put(rel, text);
}

static void gone_proc(int pid)
{
	char cmd[160];
	snprintf(cmd, sizeof(cmd), "rm -rf %s/%d", root, pid);
	assert_int_equal(system(cmd), 0);
}

/* A fake /proc under /tmp named after name, with an ovs-vswitchd PMD (pid 100) and a
 * kworker (pid 200), and a scan of it. */
static struct host_tscan *fake_root_new(const char *name)
{
	snprintf(root, sizeof(root), "/tmp/%s.%d", name, (int)getpid());
	assert_int_equal(mkdir(root, 0700), 0);
	fake_proc(100, "ovs-vswitchd", "pmd-c00/id:1");
	fake_proc(200, "kworker/0:1", "kworker/0:1");
	return host_tscan_new(root);
}

static void fake_root_drop(struct host_tscan *sc)
{
	char cmd[160];
	host_tscan_free(sc);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

static void test_root_listing(void **state)
{
	struct host_thread_info *arr = NULL;
	size_t cap = 0, n = 0;
	uint64_t t = 1000;
	(void)state;
	struct host_tscan *sc = fake_root_new("tt-tscan");

	assert_int_equal(host_tscan_run(sc, 0, t, &arr, &cap, 16, &n), 2);
	assert_int_equal(host_tscan_listed(sc), 1);
	assert_true(has_tid(arr, n, 100) && has_tid(arr, n, 200));
	assert_int_equal(arr[0].start_ticks, 77);

	/* The same processes: the root is not listed, the known ones are read. */
	assert_int_equal(host_tscan_run(sc, 0, t + 1, &arr, &cap, 16, &n), 2);
	assert_int_equal(host_tscan_listed(sc), 0);

	/* One gone and another come: the count is the same, so the gone one is dropped at once
	 * (its task directory is gone) and the new one found at the next listing, within
	 * HOST_TSCAN_LIST_NS. */
	gone_proc(200);
	fake_proc(300, "ksoftirqd/0", "ksoftirqd/0");
	assert_int_equal(host_tscan_run(sc, 0, t + 2, &arr, &cap, 16, &n), 1);
	assert_int_equal(host_tscan_listed(sc), 0);
	assert_false(has_tid(arr, n, 200));
	assert_int_equal(host_tscan_run(sc, 0, t + HOST_TSCAN_LIST_NS, &arr, &cap, 16, &n), 2);
	assert_int_equal(host_tscan_listed(sc), 1);
	assert_true(has_tid(arr, n, 300));

	/* A process more changes the root's link count: listed, found at once. */
	fake_proc(400, "kworker/1:0", "kworker/1:0");
	assert_int_equal(host_tscan_run(sc, 0, t + HOST_TSCAN_LIST_NS + 1, &arr, &cap, 16, &n), 3);
	assert_int_equal(host_tscan_listed(sc), 1);
	assert_true(has_tid(arr, n, 400));
	/* And one fewer too. */
	gone_proc(100);
	assert_int_equal(host_tscan_run(sc, 0, t + HOST_TSCAN_LIST_NS + 2, &arr, &cap, 16, &n), 2);
	assert_false(has_tid(arr, n, 100));

	fake_root_drop(sc);
	free(arr);
}

/* With a stat age set, a thread's stat fields come from its last read until that read is as
 * old as the age; host_tscan_restat reads it at once; a gone thread's restat says so. */
static void test_stat_age(void **state)
{
	struct host_thread_info *arr = NULL;
	size_t cap = 0, n = 0;
	uint64_t t = 1000, age = HOST_TSCAN_STAT_MAX_NS;
	(void)state;
	struct host_tscan *sc = fake_root_new("tt-tscan-age");
	host_tscan_set_stat_age(sc, age);

	/* The first run reads every thread. */
	assert_int_equal(host_tscan_run(sc, 0, t, &arr, &cap, 16, &n), 2);
	assert_false(find_tid(arr, n, 100)->stat_cached);
	assert_int_equal(find_tid(arr, n, 100)->state, 'S');

	/* Within the age: the last read's fields, marked cached. */
	fake_stat(100, "pmd-c00/id:1", 'R');
	assert_int_equal(host_tscan_run(sc, 0, t + age - 1, &arr, &cap, 16, &n), 2);
	struct host_thread_info *x = (struct host_thread_info *)find_tid(arr, n, 100);
	assert_true(x->stat_cached);
	assert_int_equal(x->state, 'S');
	assert_int_equal(x->start_ticks, 77);
	/* Read at once when asked (the caller saw it run). */
	assert_int_equal(host_tscan_restat(sc, x, t + age - 1), 0);
	assert_false(x->stat_cached);
	assert_int_equal(x->state, 'R');

	/* The other, not re-read, is read again once its last read is the age old. */
	fake_stat(200, "kworker/0:1", 'D');
	assert_int_equal(host_tscan_run(sc, 0, t + age, &arr, &cap, 16, &n), 2);
	assert_false(find_tid(arr, n, 200)->stat_cached);
	assert_int_equal(find_tid(arr, n, 200)->state, 'D');
	assert_true(find_tid(arr, n, 100)->stat_cached); /* restat at t + age - 1 */

	/* Age 0 (the default) reads every thread each run. */
	host_tscan_set_stat_age(sc, 0);
	fake_stat(100, "pmd-c00/id:1", 'S');
	assert_int_equal(host_tscan_run(sc, 0, t + age + 1, &arr, &cap, 16, &n), 2);
	assert_false(find_tid(arr, n, 100)->stat_cached);
	assert_int_equal(find_tid(arr, n, 100)->state, 'S');

	fake_root_drop(sc);
	free(arr);
}

/* A thread gone since the run (its kept stat fd answers ESRCH): restat says so. */
static void test_stat_gone(void **state)
{
	struct host_thread_info *arr = NULL;
	size_t cap = 0, n = 0;
	uint64_t t = 1000;
	pthread_t th;
	(void)state;
	struct host_tscan *sc = host_tscan_new("/proc");
	host_tscan_set_stat_age(sc, HOST_TSCAN_STAT_MAX_NS);
	/* A thread that waits to be joined: in the list, then gone once joined. */
	start_child(&th);
	host_tscan_run(sc, getpid(), t, &arr, &cap, 4096, &n);
	host_tscan_run(sc, getpid(), t + 1, &arr, &cap, 4096, &n);
	struct host_thread_info *x = (struct host_thread_info *)find_tid(arr, n, child_tid);
	assert_non_null(x);
	assert_true(x->stat_cached);
	end_child(th);
	assert_int_equal(host_tscan_restat(sc, x, t + 1), -1);
	host_tscan_run(sc, getpid(), t + 2, &arr, &cap, 4096, &n);
	assert_false(has_tid(arr, n, child_tid));
	host_tscan_free(sc);
	free(arr);
}

/* Which cached threads the host backend reads again: those that ran, or whose CPU time has
 * no scheduler figure, or that have no earlier refresh to compare with. */
static void test_stat_due(void **state)
{
	(void)state;
	assert_false(host_tscan_stat_due(true, true, 5, 5)); /* did not run */
	assert_true(host_tscan_stat_due(true, true, 6, 5)); /* ran */
	assert_true(host_tscan_stat_due(true, true, 4, 5)); /* went back: a new thread */
	assert_true(host_tscan_stat_due(false, true, 5, 5)); /* CPU time is the ticks */
	assert_true(host_tscan_stat_due(true, false, 5, 5)); /* no earlier refresh */
}

/*
 * More picked threads than the list holds (HOST_MAX_THREADS is 1024), the PMD of the vswitchd
 * behind the socket at the highest pid: 1100 idle kworkers below it, an IPVS estimator
 * kthread, a second ovs-vswitchd. The watched threads are listed whatever their pid; the rest
 * of the list is the busiest, lower tids first among equals; the list is sorted by tid.
 */
static void test_watch_set(void **state)
{
	struct host_thread_info *arr = NULL;
	size_t cap = 0, n = 0, max = 1024;
	char comm[32];
	(void)state;
	snprintf(root, sizeof(root), "/tmp/tt-tscan-watch.%d", (int)getpid());
	assert_int_equal(mkdir(root, 0700), 0);
	for (int pid = 1000; pid < 2100; pid++) {
		snprintf(comm, sizeof(comm), "kworker/%d:0", pid);
		fake_proc(pid, comm, comm);
	}
	fake_proc(3000, "ipvs-e:0:0", "ipvs-e:0:0");
	fake_proc(4000, "ovs-vswitchd", "pmd-c01/id:8"); /* ours */
	fake_proc(4100, "ovs-vswitchd", "pmd-c01/id:6"); /* another's */
	fake_proc(4200, "tt-extra", "tt-extra"); /* --pid */
	struct host_tscan *sc = host_tscan_new(root);
	host_tscan_set_watch(sc, 4000);

	assert_int_equal(host_tscan_run(sc, 4200, 1000, &arr, &cap, max, &n), 1104);
	assert_int_equal(n, max);
	assert_non_null(find_tid(arr, n, 4000));
	assert_non_null(find_tid(arr, n, 3000));
	assert_non_null(find_tid(arr, n, 4200));
	assert_null(find_tid(arr, n, 4100)); /* not watched, no busier than the kworkers */
	assert_non_null(find_tid(arr, n, 1000));
	assert_null(find_tid(arr, n, 2099)); /* idle, the highest tid: left out */
	for (size_t i = 1; i < n; i++)
		assert_true(arr[i - 1].tid < arr[i].tid);

	/* The highest kworker takes 10 ticks: the busiest of the rest, listed; the PMD stays. */
	fake_stat_ticks(2099, "kworker/2099:0", 'R', 15);
	assert_int_equal(host_tscan_run(sc, 4200, 2000, &arr, &cap, max, &n), 1104);
	assert_int_equal(n, max);
	assert_non_null(find_tid(arr, n, 2099));
	assert_non_null(find_tid(arr, n, 4000));
	assert_non_null(find_tid(arr, n, 3000));

	/* Unknown vswitchd (no socket yet): every ovs-vswitchd's threads are watched. */
	host_tscan_set_watch(sc, 0);
	host_tscan_run(sc, 0, 3000, &arr, &cap, max, &n);
	assert_non_null(find_tid(arr, n, 4000));
	assert_non_null(find_tid(arr, n, 4100));
	fake_root_drop(sc);
	free(arr);
}

/* Who is watched: the vswitchd behind the socket (any when unknown), ipvs-e:*, --pid. */
static void test_watched(void **state)
{
	(void)state;
	assert_true(host_thread_watched("pmd-c01/id:8", "ovs-vswitchd", 40, 40, 0));
	assert_false(host_thread_watched("pmd-c01/id:6", "ovs-vswitchd", 41, 40, 0));
	assert_true(host_thread_watched("handler3", "ovs-vswitchd", 41, 0, 0));
	assert_true(host_thread_watched("ipvs-e:2:0", "ipvs-e:2:0", 9, 40, 0));
	assert_true(host_thread_watched("worker", "myapp", 77, 40, 77));
	assert_false(host_thread_watched("kworker/0:1", "kworker/0:1", 12, 40, 77));
	assert_false(host_thread_watched("pmd-c:0", "tunetop", 50, 40, 0));
}

/* The process-wide stat file of fake process pid, utime ticks its activity (host_psig.h). */
static void fake_pstat(int pid, int utime)
{
	char rel[64], text[512];
	pstat_text(text, sizeof(text), pid, utime);
	snprintf(rel, sizeof(rel), "%d/stat", pid);
	put(rel, text);
}

/* A thread more of fake process pid, named comm. */
static void fake_thread(int pid, int tid, const char *comm)
{
	char rel[128], text[64];
	snprintf(rel, sizeof(rel), "%s/%d/task/%d", root, pid, tid);
	assert_int_equal(mkdir(rel, 0700), 0);
	snprintf(rel, sizeof(rel), "%d/task/%d/comm", pid, tid);
	snprintf(text, sizeof(text), "%s\n", comm);
	put(rel, text);
	snprintf(rel, sizeof(rel), "%d/task/%d/stat", pid, tid);
	put(rel,
	    "1 (t) S 1 1 1 1 1 1 1 1 1 1 5 1 1 1 1 1 1 1 77 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 "
	    "1 1 1 1 1 1 1 1 1 1 1 1\n");
}

/*
 * Another user's idle threads cost nothing after the first run: with the last pid handed out
 * unchanged, the root is not listed even past HOST_TSCAN_LIST_NS or at a full rescan; at a
 * full rescan, only a process that ran (its stat's ticks moved) has its names read again
 * (a rename in one that did not run is seen once it runs); a thread more has its own name
 * read, not its siblings'.
 */
static void test_quiet_procs(void **state)
{
	struct host_thread_info *arr = NULL;
	size_t cap = 0, n = 0;
	uint64_t t = 1000;
	(void)state;
	struct host_tscan *sc = fake_root_new("tt-tscan-quiet");
	char rel[128];
	snprintf(rel, sizeof(rel), "%s/sys", root);
	assert_int_equal(mkdir(rel, 0700), 0);
	snprintf(rel, sizeof(rel), "%s/sys/kernel", root);
	assert_int_equal(mkdir(rel, 0700), 0);
	put("sys/kernel/ns_last_pid", "502\n");
	fake_proc(500, "python3", "python3");
	fake_thread(500, 501, "python3");
	fake_thread(500, 502, "python3");
	fake_pstat(100, 1);
	fake_pstat(200, 1);
	fake_pstat(500, 1);

	assert_int_equal(host_tscan_run(sc, 0, t, &arr, &cap, 16, &n), 2);
	assert_int_equal(host_tscan_listed(sc), 1);
	assert_int_equal(host_tscan_named(sc), 5);

	/* Renamed without running: a full rescan, past the listing's second, reads nothing. */
	put("500/task/501/comm", "pmd-c02/id:9\n");
	t += HOST_TSCAN_FULL_NS + 1;
	assert_int_equal(host_tscan_run(sc, 0, t, &arr, &cap, 16, &n), 2);
	assert_int_equal(host_tscan_listed(sc), 0);
	assert_int_equal(host_tscan_rescanned(sc), 0);
	assert_int_equal(host_tscan_named(sc), 0);
	assert_false(has_tid(arr, n, 501));

	/* It ran: at the next full rescan its names are read again, its own alone. */
	fake_pstat(500, 2);
	t += HOST_TSCAN_FULL_NS + 1;
	assert_int_equal(host_tscan_run(sc, 0, t, &arr, &cap, 16, &n), 3);
	assert_int_equal(host_tscan_rescanned(sc), 1);
	assert_int_equal(host_tscan_named(sc), 3);
	assert_true(has_tid(arr, n, 501));

	/* A listed thread renamed (its stat's comm): the next run names it so, no list read. */
	fake_stat(100, "pmd-c07/id:3", 'S');
	assert_int_equal(host_tscan_run(sc, 0, t + 1, &arr, &cap, 16, &n), 3);
	assert_int_equal(host_tscan_rescanned(sc), 0);
	assert_string_equal(find_tid(arr, n, 100)->comm, "pmd-c07/id:3");

	/* A thread more (its task directory's link count moved): its name alone is read. */
	fake_thread(500, 503, "pmd-c03/id:10");
	put("sys/kernel/ns_last_pid", "503\n");
	assert_int_equal(host_tscan_run(sc, 0, t + 1, &arr, &cap, 16, &n), 4);
	assert_int_equal(host_tscan_named(sc), 1);
	assert_true(has_tid(arr, n, 501) && has_tid(arr, n, 503));

	/* A pid handed out (that run listed the root: past its second, a pid handed out): listed
	 * again a second after, and a new process found. */
	fake_proc(600, "ksoftirqd/1", "ksoftirqd/1");
	gone_proc(200); /* the same count of processes */
	put("sys/kernel/ns_last_pid", "600\n");
	assert_int_equal(host_tscan_run(sc, 0, t + 1 + HOST_TSCAN_LIST_NS / 2, &arr, &cap, 16, &n),
			 3);
	assert_int_equal(host_tscan_listed(sc), 0); /* within the second of the last listing */
	assert_int_equal(host_tscan_run(sc, 0, t + 1 + HOST_TSCAN_LIST_NS, &arr, &cap, 16, &n), 4);
	assert_int_equal(host_tscan_listed(sc), 1);
	assert_true(has_tid(arr, n, 600));
	fake_root_drop(sc);
	free(arr);
}

/* Processes read while they exit: a task directory there and empty, none, a thread without its
 * files. The scan passes them over (nothing of them known, nothing copied) and keeps the others. */
static void test_empty_task(void **state)
{
	struct host_thread_info *arr = NULL;
	size_t cap = 0, n = 0;
	char cmd[512];
	(void)state;
	struct host_tscan *sc = fake_root_new("tt-tscan-empty");
	/* Task directory empty (700), none (701), a thread without its files (702). */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/700/task %s/701 %s/702/task/702", root, root, root);
	assert_int_equal(system(cmd), 0);
	put("700/comm", "exiting\n");
	put("701/comm", "exiting\n");
	assert_int_equal(host_tscan_run(sc, 0, 1000, &arr, &cap, 16, &n), 2);
	assert_false(has_tid(arr, n, 700) || has_tid(arr, n, 701) || has_tid(arr, n, 702));
	assert_int_equal(host_tscan_run(sc, 0, 1000 + HOST_TSCAN_FULL_NS + 1, &arr, &cap, 16, &n),
			 2);
	fake_root_drop(sc);
	free(arr);
}

/* The figure for a process (TASKSTATS as root, else /proc/PID/stat's ticks) stands still while
 * it sleeps and moves once it ran, however briefly (TASKSTATS: the scheduler's run time). */
static void test_psig(void **state)
{
	(void)state;
	int rootfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(rootfd >= 0);
	long last = 0;
	assert_true(host_psig_last_pid(rootfd, &last));
	pid_t child = fork_paused(NULL);
	long now = 0;
	assert_true(host_psig_last_pid(rootfd, &now) && now != last); /* the fork took a pid */
	/* Asleep in pause() once its state says so: waited for, with a deadline. */
	uint64_t deadline = clock_mono_ns() + 30 * NS_PER_S;
	for (bool asleep = false; !asleep;) {
		char path[64], buf[512];
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)child);
		FILE *f = fopen(path, "re");
		assert_non_null(f);
		size_t r = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[r] = '\0';
		asleep = strstr(buf, ") S ") != NULL;
		if (!asleep && clock_mono_ns() > deadline)
			fail_msg("child %d not asleep in pause() after 30 s: %s", (int)child, buf);
		sched_yield();
	}
	struct host_tscomm *tc = host_tscomm_open(); /* NULL unless root */
	uint64_t a = 0, b = 0, d = 0;
	bool ok = false;
	host_psig_read(rootfd, tc, &child, 1, &a, &ok);
	assert_true(ok);
	host_psig_read(rootfd, tc, &child, 1, &b, &ok);
	assert_true(ok);
	assert_true(a == b);
	if (tc) {
		kill(child, SIGUSR1); /* a handler run, microseconds: the figure moves */
		for (int i = 0; i < 1000000 && d == b; i++) {
			host_psig_read(rootfd, tc, &child, 1, &d, &ok);
			sched_yield();
		}
		assert_true(d != b);
		host_tscomm_close(tc);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	close(rootfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tscan),    cmocka_unit_test(test_root_listing),
	    cmocka_unit_test(test_stat_age), cmocka_unit_test(test_stat_gone),
	    cmocka_unit_test(test_stat_due), cmocka_unit_test(test_watch_set),
	    cmocka_unit_test(test_watched),  cmocka_unit_test(test_quiet_procs),
	    cmocka_unit_test(test_psig),     cmocka_unit_test(test_empty_task)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

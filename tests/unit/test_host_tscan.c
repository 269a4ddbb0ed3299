/* test_host_tscan.c: the cached host thread scan: same threads as a full scan, task lists
 * re-read only when a process's thread count changes, a new thread found, a gone one dropped. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "backends/host_threads.h"

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

static bool has_tid(const struct host_thread_info *arr, size_t n, pid_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (arr[i].tid == tid)
			return true;
	return false;
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
	assert_int_equal(pthread_create(&th, NULL, child, NULL), 0);
	pthread_mutex_lock(&mu);
	while (!started)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	host_tscan_run(sc, getpid(), t + 2, &arr, &cap, 4096, &n);
	assert_true(host_tscan_rescanned(sc) >= 1);
	assert_true(has_tid(arr, n, child_tid));

	/* Gone: dropped. */
	pthread_mutex_lock(&mu);
	go_away = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(th, NULL);
	host_tscan_run(sc, getpid(), t + 3, &arr, &cap, 4096, &n);
	assert_false(has_tid(arr, n, child_tid));
	assert_true(has_tid(arr, n, getpid()));

	/* The slow timer: a full rescan reads every list again. */
	host_tscan_run(sc, getpid(), t + HOST_TSCAN_FULL_NS + 10, &arr, &cap, 4096, &n);
	assert_true(host_tscan_rescanned(sc) > 1);
	host_tscan_free(sc);

	/* No such root: nothing, no crash. */
	sc = host_tscan_new("/nonexistent");
	assert_int_equal(host_tscan_run(sc, 0, t, &arr, &cap, 16, &n), 0);
	assert_int_equal(n, 0);
	host_tscan_free(sc);
	free(arr);
	free(full);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_tscan)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task_gone.h: tt_wait_task_gone(tid), for tests that join a thread of their own and then judge
 * what /proc shows. pthread_join returns once the kernel clears the thread's tid, before it
 * releases the task: its /proc entry (and a kept stat fd's reads) last until then, longer on a
 * loaded machine. The thread is gone when that entry is: waited for with a 30 s deadline, a
 * cmocka failure past it. Include after <cmocka.h>. */
#ifndef TT_TESTS_TASK_GONE_H
#define TT_TESTS_TASK_GONE_H

#include <stdio.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static inline void tt_wait_task_gone(pid_t tid)
{
	char path[64];
	struct timespec dl, now, nap = {0, 1000000};
	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += 30;
	do {
		if (access(path, F_OK) != 0)
			return;
		nanosleep(&nap, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < dl.tv_sec || (now.tv_sec == dl.tv_sec && now.tv_nsec < dl.tv_nsec));
	fail_msg("%s still there 30 s after its thread was joined", path);
}

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tscan_fixture.h: what the thread-scan tests look up in a scan's list (host_tscan_run's
 * array): find_tid, the entry of a thread id or NULL, and has_tid, whether it is listed. */
#ifndef TT_TESTS_TSCAN_FIXTURE_H
#define TT_TESTS_TSCAN_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
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

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tscan_fixture.h: what the thread-scan tests share: find_tid, the entry of a thread id in a
 * scan's list (host_tscan_run's array) or NULL; has_tid, whether it is listed; pstat_text, the
 * process-wide stat line of a fake process. */
#ifndef TT_TESTS_TSCAN_FIXTURE_H
#define TT_TESTS_TSCAN_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
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

#endif

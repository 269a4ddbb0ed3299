/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_threads.c: walking /proc/PID/task for the threads the host backend shows. */
#include "backends/host/host_threads.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/thread_state.h"
#include "core/xalloc.h"
#include "backends/host/host_proc.h"

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool host_thread_pick(const char *comm, const char *proc_comm, pid_t pid, pid_t extra_pid)
{
	if (extra_pid > 0 && pid == extra_pid)
		return true;
	if (proc_comm && strcmp(proc_comm, "ovs-vswitchd") == 0)
		return true;
	return starts(comm, "ipvs-e:") || starts(comm, "pmd") || starts(comm, "kworker") ||
	       starts(comm, "ksoftirqd");
}

bool host_thread_watched(const char *comm, const char *proc_comm, pid_t pid, pid_t ovs_pid,
			 pid_t extra_pid)
{
	if (extra_pid > 0 && pid == extra_pid)
		return true;
	if (proc_comm && strcmp(proc_comm, "ovs-vswitchd") == 0 && (ovs_pid <= 0 || pid == ovs_pid))
		return true;
	return starts(comm, "ipvs-e:");
}

enum subsys host_thread_subsys(const char *comm)
{
	if (starts(comm, "ipvs-e:"))
		return SUBSYS_EST;
	if (starts(comm, "pmd"))
		return SUBSYS_PMD;
	/* Block completions run in ksoftirqd under load; kblockd and loop work in kworkers. */
	if (starts(comm, "ksoftirqd") ||
	    (starts(comm, "kworker") && (strstr(comm, "-kblockd") || strstr(comm, "-loop"))))
		return SUBSYS_BLK;
	return SUBSYS_ENGINE;
}

int host_thread_state(char st)
{
	switch (st) {
	case 'R':
		return ETHREAD_RUN;
	case 'S':
		return ETHREAD_SLEEP;
	case 'D':
		return ETHREAD_WAIT;
	default: /* I (idle kthread), T, t, Z, X: nothing it is doing for anyone */
		return ETHREAD_IDLE;
	}
}

static int by_tid(const void *a, const void *b)
{
	pid_t x = ((const struct host_thread_info *)a)->tid;
	pid_t y = ((const struct host_thread_info *)b)->tid;
	return (x > y) - (x < y);
}

/* The first line of a small file, newline stripped; false when unreadable. */
static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

int host_threads_scan(const char *proc_root, pid_t extra_pid, struct host_thread_info **arr,
		      size_t *cap, size_t max, size_t *n)
{
	DIR *d = opendir(proc_root);
	struct dirent *de;
	long tck = sysconf(_SC_CLK_TCK);
	int matched = 0;

	*n = 0;
	if (!d)
		return 0;
	if (tck <= 0)
		tck = 100;
	while ((de = readdir(d))) {
		char path[600], pcomm[32];
		if (!host_proc_is_pid(de->d_name))
			continue;
		pid_t pid = (pid_t)atol(de->d_name);
		snprintf(path, sizeof(path), "%s/%s/comm", proc_root, de->d_name);
		if (!read_line(path, pcomm, sizeof(pcomm)))
			continue; /* it exited meanwhile */
		snprintf(path, sizeof(path), "%s/%s/task", proc_root, de->d_name);
		DIR *td = opendir(path);
		if (!td)
			continue;
		struct dirent *te;
		while ((te = readdir(td))) {
			char tpath[900], comm[64];
			if (!host_proc_is_pid(te->d_name))
				continue;
			snprintf(tpath, sizeof(tpath), "%s/%s/task/%s/comm", proc_root, de->d_name,
				 te->d_name);
			if (!read_line(tpath, comm, sizeof(comm)) ||
			    !host_thread_pick(comm, pcomm, pid, extra_pid))
				continue;
			matched++;
			if (*n >= max)
				continue;
			snprintf(tpath, sizeof(tpath), "%s/%s/task/%s/stat", proc_root, de->d_name,
				 te->d_name);
			size_t len;
			char *text = host_proc_slurp(tpath, &len);
			struct host_taskstat ts;
			if (!text || host_proc_taskstat(text, len, &ts) != 0) {
				free(text);
				matched--;
				continue;
			}
			free(text);
			if (*n >= *cap) {
				*cap = *cap ? *cap * 2 : 64;
				*arr = xreallocarray(*arr, *cap, sizeof(**arr));
			}
			struct host_thread_info *t = &(*arr)[(*n)++];
			t->pid = pid;
			t->in_ovs = host_thread_pick("", pcomm, pid, extra_pid);
			t->tid = (pid_t)atol(te->d_name);
			memcpy(t->comm, comm, sizeof(t->comm));
			t->state = ts.state;
			t->processor = ts.processor;
			t->start_ticks = ts.start_ticks;
			t->stat_cpu_ns =
			    (ts.utime_ticks + ts.stime_ticks) * (1000000000ULL / (uint64_t)tck);
		}
		closedir(td);
	}
	closedir(d);
	if (*n > 1)
		qsort(*arr, *n, sizeof(**arr), by_tid);
	return matched;
}

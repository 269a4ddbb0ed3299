/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_tscan_int.h: the host thread scan's state, shared by host_tscan.c (the runs) and
 * host_tscan_list.c (reading one process's task list). */
#ifndef TT_HOST_TSCAN_INT_H
#define TT_HOST_TSCAN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "backends/host/host_proc.h"
#include "backends/host/host_tscomm.h"

/* Stat files kept open at most (the rest are opened per scan), within host_fd_budget(). */
#define TSCAN_MAX_FDS 2048

struct tscan_thread {
	pid_t tid;
	char comm[64];
	int fd; /* its stat file, -1 when not kept open */
	struct host_taskstat last; /* its last read, at stat_ns (0: none yet) */
	uint64_t stat_ns;
	uint64_t busy_ticks; /* utime + stime between its last two reads (0 after the first) */
	bool last_cached; /* at this run, its stat fields came from an earlier read */
};

struct tscan_proc {
	pid_t pid;
	nlink_t nlink; /* of /proc/PID/task when its list was read */
	pid_t picked_for; /* the extra_pid the picks were made for */
	bool ovs; /* ovs-vswitchd (extra_pid, or named so) */
	bool seen; /* in /proc at this run */
	bool vswitchd; /* its comm is ovs-vswitchd (host_thread_watched) */
	struct tscan_thread *t; /* picked threads only */
	size_t nt, capt;
	pid_t *known; /* every thread whose name was read, sorted */
	size_t nknown, capknown;
	uint64_t sig; /* its activity when every name was last read (host_psig.h) */
	bool sig_ok;
	/* A process of more than HOST_TSCAN_BIG_THREADS threads, none of them watched, whose
	 * list is not read until a full rescan sees it ran (sig moved). */
	bool deferred;
};

struct host_tscan {
	char root[256];
	int rootfd;
	struct tscan_proc *p; /* sorted by pid */
	size_t np, capp;
	uint64_t full_at_ns; /* next full rescan */
	uint64_t list_at_ns; /* next listing of the root however its link count stands */
	uint64_t whole_at_ns; /* real /proc: the range walks until then (HOST_TSCAN_WHOLE_NS) */
	nlink_t root_nlink; /* of the root when it was last listed */
	int nfds, max_fds, rescanned, listed, named;
	long last_pid; /* ns_last_pid at the last listing (have_last_pid) */
	bool have_last_pid;
	/* The real /proc: its processes' positions seek to a pid (host_tscan_root.c). */
	bool real_proc;
	long pid_pos_off; /* a pid's position less the pid (> 0 once learnt) */
	long range_lo; /* a range walk takes the pids after it (the last_pid before) */
	int listfd; /* the root, opened for listing */
	char *dents; /* getdents64's buffer */
	/* At a full rescan: the known processes' activity (host_psig_read). */
	pid_t *spid;
	uint64_t *ssig;
	bool *sok;
	size_t capsig;
	pid_t *qtids; /* the threads of a list whose names are read */
	long tck;
	uint64_t stat_max_ns; /* host_tscan_set_stat_age */
	struct host_tscomm *tc; /* names by TASKSTATS (real /proc, as root), else NULL */
	pid_t *tids; /* a task list being read */
	char (*tcomm)[HOST_TSCOMM_LEN]; /* and its names from tc */
	bool *tok;
	size_t captids;
	pid_t watch_ovs; /* host_tscan_set_watch */
	/* The picked threads of a run, when more than its max: which are listed. */
	struct tscan_pick {
		uint32_t p, t;
		bool watched;
		uint64_t busy;
		pid_t tid;
	} * picks;
	size_t cappicks;
};

/* Call fn(sc, pid, arg) for each process of the root (host_tscan_root.c): every one when from
 * is negative (on the real /proc learning where a pid's entry lies), else those whose pid is
 * in (from, to], by seeking to from's position; -1 when the root cannot be read so, or, for a
 * range, before it was learnt. */
typedef void (*tscan_pid_fn)(struct host_tscan *sc, pid_t pid, void *arg);
int host_tscan_root_walk(struct host_tscan *sc, long from, long to, tscan_pid_fn fn, void *arg);
/* Close p's picked threads' stat files and forget them. */
void host_tscan_proc_drop(struct host_tscan *sc, struct tscan_proc *p);
/* Re-read p's task list (host_tscan_list.c); all: every thread's name, else the new ones'.
 * may_defer: a process never read that has more than HOST_TSCAN_BIG_THREADS threads and no
 * watched one is marked deferred instead, nothing of its threads read. */
void host_tscan_proc_rescan(struct host_tscan *sc, struct tscan_proc *p, pid_t extra_pid,
			    nlink_t nlink, bool all, bool may_defer);

#endif

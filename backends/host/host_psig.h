/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_psig.h: what tells the host scan that a process's threads may have changed name
 * without reading any of them (host_tscan.c): a figure per process that moves when any of
 * its threads ran, and the last pid the kernel handed out. */
#ifndef TT_HOST_PSIG_H
#define TT_HOST_PSIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct host_tscomm;

/*
 * A thread is renamed by prctl(PR_SET_NAME) or by a write to its comm file, which
 * pthread_setname_np makes for another thread of the same process: either way a thread of
 * the process ran, so a process none of whose threads ran since a figure was taken has the
 * names it had. (A write from another process, which nothing of OVS's or the kernel's does,
 * is seen when the renamed process next runs.) sig[i] is pids[i]'s figure, ok[i] false when it has
 * none (gone, or unreadable: then its threads are read as before). With tc (TASKSTATS, as root),
 * the sum over its threads of the scheduler's run time and context switches, in one request
 * per process (TASKSTATS_CMD_ATTR_TGID), which moves on any run however short; without, the
 * utime + stime clock ticks of /proc/PID/stat under rootfd, which a run shorter than a tick
 * may leave unmoved (a rename by such a run is seen when the process runs a tick more).
 */
void host_psig_read(int rootfd, struct host_tscomm *tc, const pid_t *pids, size_t n, uint64_t *sig,
		    bool *ok);

/*
 * The last pid handed out in the pid namespace of the /proc at rootfd (sys/kernel/ns_last_pid):
 * any new process or thread moves it, so while it stands still no process can have come
 * since, and the root (whose getdents walks every task of the host) need not be listed.
 * false when it cannot be read (a fake root of the tests: listed as before).
 */
bool host_psig_last_pid(int rootfd, long *out);

#endif

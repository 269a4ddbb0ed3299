/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_tscan_list.c: one process's task list for the host thread scan (host_tscan.c): which
 * of its threads are picked, their names read only when new or when the process ran since
 * they were last read. */
#include "backends/host/host_threads.h"
#include "backends/host/host_proc.h"
#include "backends/host/host_tscan_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/xalloc.h"

void host_tscan_proc_drop(struct host_tscan *sc, struct tscan_proc *p)
{
	for (size_t i = 0; i < p->nt; i++)
		if (p->t[i].fd >= 0) {
			close(p->t[i].fd);
			sc->nfds--;
		}
	p->nt = 0;
}

/* The first line of a small file under dirfd, newline stripped. */
static bool read_line_at(int dirfd, const char *path, char *buf, size_t len)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t r = read(fd, buf, len - 1);
	close(fd);
	if (r <= 0)
		return false;
	buf[r] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

static int by_tid_only(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

/* The tids in the task directory td into sc->tids, sorted; how many. */
static size_t list_tids(struct host_tscan *sc, DIR *td)
{
	size_t n = 0;
	struct dirent *te;
	while ((te = readdir(td))) {
		if (!host_proc_is_pid(te->d_name))
			continue;
		if (n == sc->captids) {
			sc->captids = sc->captids ? sc->captids * 2 : 256;
			sc->tids = xreallocarray(sc->tids, sc->captids, sizeof(*sc->tids));
			sc->qtids = xreallocarray(sc->qtids, sc->captids, sizeof(*sc->qtids));
			sc->tcomm = xreallocarray(sc->tcomm, sc->captids, sizeof(*sc->tcomm));
			sc->tok = xreallocarray(sc->tok, sc->captids, sizeof(*sc->tok));
		}
		sc->tids[n++] = (pid_t)atol(te->d_name);
	}
	if (n > 1)
		qsort(sc->tids, n, sizeof(*sc->tids), by_tid_only);
	return n;
}

static bool tid_known(const struct tscan_proc *p, pid_t tid)
{
	return p->nknown && bsearch(&tid, p->known, p->nknown, sizeof(*p->known), by_tid_only);
}

/* p's picked thread tid of its last list (sorted by tid), or NULL. */
static struct tscan_thread *old_pick(struct tscan_thread *old, size_t n, pid_t tid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (old[mid].tid == tid)
			return &old[mid];
		if (old[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Append a picked thread to p: was's fd and reads moved over when it was picked before. */
static void proc_add(struct host_tscan *sc, struct tscan_proc *p, int tdfd, pid_t tid,
		     const char *comm, struct tscan_thread *was)
{
	if (p->nt == p->capt) {
		p->capt = p->capt ? p->capt * 2 : 4;
		p->t = xreallocarray(p->t, p->capt, sizeof(*p->t));
	}
	struct tscan_thread *t = &p->t[p->nt++];
	if (was) {
		*t = *was;
		was->fd = -1; /* moved, not closed */
	} else {
		t->tid = tid;
		t->fd = -1;
		t->stat_ns = 0;
		if (sc->nfds < sc->max_fds) {
			char tpath[64];
			snprintf(tpath, sizeof(tpath), "%d/stat", (int)tid);
			t->fd = openat(tdfd, tpath, O_RDONLY | O_CLOEXEC);
			if (t->fd >= 0)
				sc->nfds++;
		}
	}
	if (comm)
		memcpy(t->comm, comm, sizeof(t->comm));
}

/* The task list just read (sc->tids, n) becomes what p knows. */
static void proc_know(struct tscan_proc *p, const pid_t *tids, size_t n)
{
	p->nknown = n;
	if (n == 0) /* its threads gone while read: nothing to copy, known may be NULL */
		return;
	if (n > p->capknown) {
		p->capknown = n + 16;
		p->known = xreallocarray(p->known, p->capknown, sizeof(*p->known));
	}
	memcpy(p->known, tids, n * sizeof(*tids));
}

/*
 * Re-read the task list of p: the picked threads, their stat files opened. A thread's name
 * is its comm file's; with TASKSTATS at hand, the threads whose task comm picks nothing
 * (host_thread_pick tests prefixes, which the comm file's text shares: host_tscomm.h) are
 * passed over without opening anything of theirs. A process whose every thread is picked
 * (ovs-vswitchd, extra_pid) needs no such test. Unless all (p ran since its names were read,
 * host_psig.h), only the threads new since its last list have their names read: the others
 * keep their pick, and a picked one its stat file and reads.
 */
void host_tscan_proc_rescan(struct host_tscan *sc, struct tscan_proc *p, pid_t extra_pid,
			    nlink_t nlink, bool all, bool may_defer)
{
	char path[64], pcomm[64];
	all = all || p->picked_for != extra_pid || !p->nknown;
	p->nlink = nlink;
	p->picked_for = extra_pid;
	snprintf(path, sizeof(path), "%d/comm", (int)p->pid);
	int tfd = -1;
	DIR *td = NULL;
	bool named = read_line_at(sc->rootfd, path, pcomm, sizeof(pcomm));
	if (named) {
		p->vswitchd = strcmp(pcomm, "ovs-vswitchd") == 0;
		p->ovs = host_thread_pick("", pcomm, p->pid, extra_pid); /* every thread of OVS's */
		/* /proc/PID/task's link count is 2 and its threads (proc_task_getattr). */
		p->deferred = may_defer && !p->nknown && !p->ovs && p->pid != sc->watch_ovs &&
			      nlink > (nlink_t)HOST_TSCAN_BIG_THREADS + 2;
		if (p->deferred) {
			host_tscan_proc_drop(sc, p);
			return;
		}
		snprintf(path, sizeof(path), "%d/task", (int)p->pid);
		tfd = openat(sc->rootfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		td = tfd >= 0 ? fdopendir(tfd) : NULL;
	}
	sc->rescanned++;
	if (!td) {
		if (tfd >= 0)
			close(tfd);
		host_tscan_proc_drop(sc, p);
		p->nknown = 0;
		return;
	}
	size_t nt = list_tids(sc, td), nq = 0;
	/* One thread, the process's own (every kthread): its name is the process's, just read. */
	bool alone = nt == 1 && sc->tids[0] == p->pid;
	for (size_t i = 0; i < nt; i++)
		if (all || !tid_known(p, sc->tids[i]))
			sc->qtids[nq++] = sc->tids[i];
	sc->named += (int)nq;
	bool by_ts = sc->tc && !p->ovs && nq && !alone &&
		     host_tscomm_get(sc->tc, sc->qtids, nq, sc->tcomm, sc->tok) == 0;
	struct tscan_thread *old = p->t;
	size_t nold = p->nt;
	p->t = NULL;
	p->nt = p->capt = 0;
	for (size_t i = 0, q = 0; i < nt; i++) {
		char comm[64];
		pid_t tid = sc->tids[i];
		struct tscan_thread *was = old_pick(old, nold, tid);
		if (q >= nq || sc->qtids[q] != tid) { /* known, its name unchanged */
			if (was)
				proc_add(sc, p, dirfd(td), tid, NULL, was);
			continue;
		}
		size_t qi = q++;
		if (by_ts && sc->tok[qi] &&
		    !host_thread_pick(sc->tcomm[qi], pcomm, p->pid, extra_pid))
			continue;
		snprintf(path, sizeof(path), "%d/comm", (int)tid);
		if (alone)
			memcpy(comm, pcomm, sizeof(comm));
		if ((alone || read_line_at(dirfd(td), path, comm, sizeof(comm))) &&
		    host_thread_pick(comm, pcomm, p->pid, extra_pid))
			proc_add(sc, p, dirfd(td), tid, comm, was);
	}
	for (size_t k = 0; k < nold; k++)
		if (old[k].fd >= 0) {
			close(old[k].fd);
			sc->nfds--;
		}
	free(old);
	proc_know(p, sc->tids, nt);
	closedir(td);
}

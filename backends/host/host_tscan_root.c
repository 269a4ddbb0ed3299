/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_tscan_root.c: the processes of the host thread scan's root (host_tscan.c): every one,
 * or on the real /proc those whose pid was handed out in a range, by seeking past the rest. */
#include "backends/host/host_proc.h"
#include "backends/host/host_tscan_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/xalloc.h"

/* A listing of the whole root reads this much a call (/proc at 1000 processes: about 30 KB).
 * A range walk reads one entry a call (a pid's is 32 bytes: 19, 7 digits and a NUL, aligned
 * to 8): the kernel fills a buffer by walking the pids on, threads included, up to the
 * process after the last entry that fits, whose position the last entry's d_off gives; so
 * the walk stops at the first process past the range, not a buffer further (past the range
 * lie the pids of before a pid wrap, another user's 50,000 threads among them). */
#define TSCAN_DENTS_LEN (64 * 1024)
#define TSCAN_RANGE_LEN 40

/*
 * getdents64's d_off of an entry is the position of the next: on /proc, a process's is its
 * tgid plus a constant (procfs's TGID_OFFSET), the same for every pid. Learnt from a whole
 * listing (every pair of pid entries in a row of one call must agree), so that a range walk
 * seeks to a pid; never learnt on a root other than /proc, whose positions are the
 * filesystem's.
 */
struct root_learn {
	long prev_doff, off;
	bool have_prev, bad;
};

static void learn(struct root_learn *l, long pid, long doff)
{
	if (l->have_prev) {
		long o = l->prev_doff - pid;
		if (o <= 0 || (l->off && o != l->off))
			l->bad = true;
		l->off = o;
	}
	l->prev_doff = doff;
	l->have_prev = true;
}

int host_tscan_root_walk(struct host_tscan *sc, long from, long to, tscan_pid_fn fn, void *arg)
{
	if (sc->listfd < 0)
		sc->listfd = openat(sc->rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sc->listfd < 0)
		return -1;
	bool whole = from < 0;
	if (!whole && sc->pid_pos_off <= 0)
		return -1;
	off_t pos = whole ? 0 : (off_t)(sc->pid_pos_off + from + 1);
	if (lseek(sc->listfd, pos, SEEK_SET) != pos)
		return -1;
	if (!sc->dents)
		sc->dents = xreallocarray(NULL, TSCAN_DENTS_LEN, 1);
	struct root_learn l = {0};
	size_t len = whole ? TSCAN_DENTS_LEN : TSCAN_RANGE_LEN;
	for (;;) {
		ssize_t r = getdents64(sc->listfd, sc->dents, len);
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		long next = 0; /* the position after the last entry read */
		l.have_prev = false; /* a process may exit between two calls */
		for (ssize_t off = 0; off < r;) {
			const struct dirent64 *d = (const struct dirent64 *)(sc->dents + off);
			off += d->d_reclen;
			next = (long)d->d_off;
			if (!host_proc_is_pid(d->d_name))
				continue;
			long pid = atol(d->d_name);
			if (!whole && pid > to)
				return 0;
			if (whole)
				learn(&l, pid, next);
			fn(sc, (pid_t)pid, arg);
		}
		/* The next process is past the range: no call that would walk on from it. */
		if (!whole && next - sc->pid_pos_off > to)
			return 0;
	}
	if (whole && sc->real_proc)
		sc->pid_pos_off = l.bad ? -1 : l.off;
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay_follow.c: the --follow reader thread: reads what a recording holds, then what is
 * appended to it (core/zread.h following), into a bounded queue of lines. */
#include "backends/replay/replay_follow.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/replay/recstore.h"
#include "core/safefile.h"
#include "core/xalloc.h"
#include "core/zread.h"

/* Lines queued before the reader waits for the console to take some: the file stays on
 * disk, so nothing is lost, and memory is bounded by this and the longest line. */
#define RFOLLOW_QUEUE 1024
/* How often an idle file is looked at again (a writer flushes a line per interval). */
#define RFOLLOW_POLL_NS (200 * 1000000ll)

struct rfollow {
	char *path; /* the file, or the store's directory */
	bool dir;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* a line queued, room made, or stop */
	char *q[RFOLLOW_QUEUE];
	size_t head, count;
	bool stop;
	char file[RECSTORE_NAME_LEN + 4096]; /* under lock: the file being read */
	char note[256]; /* under lock: the first problem */

	/* The reader thread's own. */
	struct zread *zr; /* the file being read, NULL between files */
	bool newer; /* dir: a newer file than zr's is there */
	int newer_read; /* reads to the end since */
	char cur[RECSTORE_NAME_LEN]; /* dir: the store file being read */
};

/* The first problem, "FILE: what", kept for the status line. */
static void rf_note(struct rfollow *f, const char *what)
{
	pthread_mutex_lock(&f->lock);
	const char *slash = strrchr(f->file, '/');
	size_t fl = strlen(f->file);
	if (strncmp(what, f->file, fl) == 0 && what[fl] == ':')
		what += fl + (what[fl + 1] == ' ' ? 2 : 1); /* the reader's messages name it */
	if (!f->note[0])
		snprintf(f->note, sizeof(f->note), "%.100s: %.140s", slash ? slash + 1 : f->file,
			 what);
	pthread_mutex_unlock(&f->lock);
}

/* Queue one whole line, waiting for room (or stop). */
static void rf_push(struct rfollow *f, const char *s, size_t n)
{
	char *line = xmalloc(n + 1);
	memcpy(line, s, n);
	line[n] = '\0';
	pthread_mutex_lock(&f->lock);
	while (f->count == RFOLLOW_QUEUE && !f->stop)
		pthread_cond_wait(&f->cond, &f->lock);
	if (f->stop) {
		pthread_mutex_unlock(&f->lock);
		free(line);
		return;
	}
	f->q[(f->head + f->count++) % RFOLLOW_QUEUE] = line;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

/* A store holds a file newer than the one being read (the writer moved on). */
static bool rf_newer(struct rfollow *f)
{
	char **names, err[256];
	size_t n;
	bool newer = false;
	if (!f->dir || recstore_list(f->path, &names, &n, NULL, err, sizeof(err)) != 0)
		return false;
	newer = n && strcmp(names[n - 1], f->cur) > 0;
	recstore_names_free(names, n);
	return newer;
}

static bool rf_stopped(struct rfollow *f)
{
	pthread_mutex_lock(&f->lock);
	bool stop = f->stop;
	pthread_mutex_unlock(&f->lock);
	return stop;
}

/* Sleep a poll's time, or less when stopped; true when stopped. */
static bool rf_idle(struct rfollow *f)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	long long ns = ts.tv_nsec + RFOLLOW_POLL_NS;
	ts.tv_sec += (time_t)(ns / 1000000000ll);
	ts.tv_nsec = (long)(ns % 1000000000ll);
	pthread_mutex_lock(&f->lock);
	if (!f->stop)
		pthread_cond_timedwait(&f->cond, &f->lock, &ts);
	bool stop = f->stop;
	pthread_mutex_unlock(&f->lock);
	return stop;
}

/* Following, only a line is capped: a live recording grows without end, and memory is the
 * queue and the longest line. */
static const struct safefile_limits rf_limits = {
    .max_bytes = SIZE_MAX, .max_line = SAFEFILE_LINE_MAX, .decompress = true};

/* The reader's wait at the end of what is there: a poll's sleep. True to end the file: stopped,
 * or a store has a newer file and this one was read to its end once more after it was seen
 * (the writer ends a file before it starts the next, so this one is whole then). */
static bool rf_wait(struct zread *z, void *arg)
{
	struct rfollow *f = arg;
	if (zread_damage(z)[0])
		rf_note(f, zread_damage(z));
	if (f->newer || (f->newer = rf_newer(f)))
		return f->newer_read++ > 0 || rf_stopped(f);
	return rf_idle(f);
}

/* Open the file to read next: the given one, or the store's newest (at the start) or the one
 * after cur; false when there is none (yet). */
static bool rf_open_next(struct rfollow *f)
{
	char path[sizeof(f->file)];
	if (f->dir) {
		char **names, err[256];
		size_t n;
		if (recstore_list(f->path, &names, &n, NULL, err, sizeof(err)) != 0)
			return false;
		const char *pick = NULL;
		for (size_t i = 0; i < n && !pick; i++)
			if (f->cur[0] && strcmp(names[i], f->cur) > 0)
				pick = names[i];
		if (!f->cur[0] && n)
			pick = names[n - 1];
		if (pick)
			snprintf(f->cur, sizeof(f->cur), "%s", pick);
		recstore_names_free(names, n);
		if (!pick)
			return false;
		snprintf(path, sizeof(path), "%s/%s", f->path, f->cur);
	} else {
		snprintf(path, sizeof(path), "%s", f->path);
	}
	char err[256];
	pthread_mutex_lock(&f->lock);
	snprintf(f->file, sizeof(f->file), "%s", path);
	pthread_mutex_unlock(&f->lock);
	if (zread_open(path, &rf_limits, &f->zr, err, sizeof(err)) != 0) {
		rf_note(f, err);
		return false;
	}
	zread_follow(f->zr, rf_wait, f);
	f->newer = false;
	f->newer_read = 0;
	return true;
}

static void *rf_main(void *arg)
{
	struct rfollow *f = arg;
	char err[256];
	const char *line;
	size_t len;
	pthread_setname_np(pthread_self(), "tt-follow");
	while (!rf_stopped(f)) {
		if (!f->zr && !rf_open_next(f)) {
			rf_idle(f);
			continue;
		}
		int r = zread_line(f->zr, &line, &len, err, sizeof(err));
		if (r > 0) {
			len -= line[len - 1] == '\n';
			if (len)
				rf_push(f, line, len);
			continue;
		}
		if (r == ZREAD_LONG) {
			rf_note(f, "a line longer than 16 MiB skipped");
			continue;
		}
		if (r == -1) { /* unreadable: nothing more from it, until stop or a newer file */
			rf_note(f, err);
			while (!rf_wait(f->zr, f))
				;
		}
		if (r == ZREAD_TRUNCATED && f->dir)
			f->cur[0] = '\0'; /* a writer started again: its newest file */
		zread_close(f->zr);
		f->zr = NULL;
	}
	return NULL;
}

struct rfollow *rfollow_start(const char *path, bool dir, char *err, size_t errlen)
{
	struct rfollow *f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->dir = dir;
	if (!dir) {
		int fd = safefile_open_read(path, err, errlen);
		if (fd < 0) {
			free(f->path);
			free(f);
			return NULL;
		}
		close(fd);
	}
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&f->cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&f->lock, NULL);
	int rc = pthread_create(&f->thread, NULL, rf_main, f);
	if (rc != 0) {
		snprintf(err, errlen, "follow thread: %s", strerror(rc));
		pthread_cond_destroy(&f->cond);
		pthread_mutex_destroy(&f->lock);
		free(f->path);
		free(f);
		return NULL;
	}
	return f;
}

void rfollow_wait_first(struct rfollow *f, double timeout_s)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	long long ns = ts.tv_nsec + (long long)(timeout_s * 1e9);
	ts.tv_sec += (time_t)(ns / 1000000000ll);
	ts.tv_nsec = (long)(ns % 1000000000ll);
	pthread_mutex_lock(&f->lock);
	while (!f->count && !f->stop)
		if (pthread_cond_timedwait(&f->cond, &f->lock, &ts) == ETIMEDOUT)
			break;
	pthread_mutex_unlock(&f->lock);
}

bool rfollow_ready(struct rfollow *f)
{
	pthread_mutex_lock(&f->lock);
	bool r = f->count > 0;
	pthread_mutex_unlock(&f->lock);
	return r;
}

char *rfollow_take(struct rfollow *f)
{
	char *line = NULL;
	pthread_mutex_lock(&f->lock);
	if (f->count) {
		line = f->q[f->head];
		f->head = (f->head + 1) % RFOLLOW_QUEUE;
		f->count--;
		pthread_cond_broadcast(&f->cond);
	}
	pthread_mutex_unlock(&f->lock);
	return line;
}

void rfollow_status(struct rfollow *f, char *file, size_t flen, char *note, size_t nlen)
{
	pthread_mutex_lock(&f->lock);
	const char *slash = strrchr(f->file, '/');
	snprintf(file, flen, "%s", slash ? slash + 1 : f->file);
	snprintf(note, nlen, "%s", f->note);
	pthread_mutex_unlock(&f->lock);
}

void rfollow_stop(struct rfollow *f)
{
	if (!f)
		return;
	pthread_mutex_lock(&f->lock);
	f->stop = true;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
	pthread_join(f->thread, NULL);
	zread_close(f->zr);
	for (size_t i = 0; i < f->count; i++)
		free(f->q[(f->head + i) % RFOLLOW_QUEUE]);
	pthread_cond_destroy(&f->cond);
	pthread_mutex_destroy(&f->lock);
	free(f->path);
	free(f);
}

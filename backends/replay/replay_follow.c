/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay_follow.c: --follow: what a recording holds, then what is appended to it, a line at a
 * time (core/zread.h following); a store moves on to each newer file. */
#include "backends/replay/replay_follow.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/replay/recstore.h"
#include "core/clock.h"
#include "core/safefile.h"
#include "core/xalloc.h"
#include "core/zread.h"

/* How often rfollow_wait_first looks again. */
#define RFOLLOW_POLL_NS (50 * 1000000ull)

/* Following, only a line is capped: a live recording grows without end, and memory is a
 * chunk and the longest line. */
static const struct safefile_limits rf_limits = {
    .max_bytes = SIZE_MAX, .max_line = SAFEFILE_LINE_MAX, .decompress = true};

struct rfollow {
	char *path; /* the file, or the store's directory */
	bool dir;
	struct zread *zr; /* the file being read, NULL between files */
	char cur[RECSTORE_NAME_LEN]; /* dir: the store file being read */
	char file[RECSTORE_NAME_LEN + 4096]; /* the file being read */
	char note[256]; /* the first problem */
	char *line; /* a line read ahead, or NULL */
	bool newer; /* dir: a file newer than zr's is there */
	bool done; /* zr was read to its end after that was seen: the next file */
	bool dead; /* zr cannot be read on: nothing more until a newer file */
};

/* The first problem, "FILE: what", kept for the status line. */
static void rf_note(struct rfollow *f, const char *what)
{
	const char *slash = strrchr(f->file, '/');
	size_t fl = strlen(f->file);
	if (strncmp(what, f->file, fl) == 0 && what[fl] == ':')
		what += fl + (what[fl + 1] == ' ' ? 2 : 1); /* the reader's messages name it */
	if (!f->note[0])
		snprintf(f->note, sizeof(f->note), "%.100s: %.140s", slash ? slash + 1 : f->file,
			 what);
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

/* The reader at the end of what is there: stop for now. A store's file is done once a newer
 * one is there and it was read to its end once more after that was seen (the writer ends a
 * file before it starts the next, so it is whole then). */
static bool rf_wait(struct zread *z, void *arg)
{
	struct rfollow *f = arg;
	if (zread_damage(z)[0])
		rf_note(f, zread_damage(z));
	if (f->newer)
		f->done = true;
	else
		f->newer = rf_newer(f);
	return !f->newer || f->done;
}

/* Open the file to read next: the given one, or the store's newest (at the start) or the one
 * after cur; false when there is none (yet). */
static bool rf_open_next(struct rfollow *f)
{
	char err[256];
	if (f->dir) {
		char **names;
		size_t n;
		if (recstore_list(f->path, &names, &n, NULL, err, sizeof(err)) != 0)
			return false;
		const char *pick = !f->cur[0] && n ? names[n - 1] : NULL;
		for (size_t i = 0; i < n && !pick; i++)
			if (strcmp(names[i], f->cur) > 0)
				pick = names[i];
		if (pick)
			snprintf(f->cur, sizeof(f->cur), "%s", pick);
		recstore_names_free(names, n);
		if (!pick)
			return false;
		snprintf(f->file, sizeof(f->file), "%s/%s", f->path, f->cur);
	} else {
		snprintf(f->file, sizeof(f->file), "%s", f->path);
	}
	if (zread_open(f->file, &rf_limits, &f->zr, err, sizeof(err)) != 0) {
		rf_note(f, err);
		return false;
	}
	zread_follow(f->zr, rf_wait, f);
	f->newer = f->done = f->dead = false;
	return true;
}

/* A line into f->line when one is there now: true when one is. */
static bool rf_read(struct rfollow *f)
{
	const char *line;
	size_t len;
	char err[256];
	while (!f->line) {
		if (!f->zr && !rf_open_next(f))
			return false;
		int r = f->dead ? 0 : zread_line(f->zr, &line, &len, err, sizeof(err));
		if (r > 0) {
			len -= line[len - 1] == '\n';
			if (len) {
				f->line = xmalloc(len + 1);
				memcpy(f->line, line, len);
				f->line[len] = '\0';
			}
			continue;
		}
		if (r == ZREAD_LONG) {
			rf_note(f, "a line longer than 16 MiB skipped");
			continue;
		}
		if (r == -1) { /* unreadable: nothing more from it */
			rf_note(f, err);
			f->dead = true;
		}
		if (r == 0 && !f->done && !(f->dead && rf_newer(f)))
			return false; /* nothing more now */
		if (r == ZREAD_TRUNCATED && f->dir)
			f->cur[0] = '\0'; /* a writer started again: its newest file */
		zread_close(f->zr);
		f->zr = NULL;
	}
	return true;
}

struct rfollow *rfollow_start(const char *path, bool dir, char *err, size_t errlen)
{
	if (!dir) {
		struct zread *z;
		int rc = zread_open(path, &rf_limits, &z, err, errlen);
		if (rc != 0)
			return NULL;
		zread_close(z);
	}
	struct rfollow *f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->dir = dir;
	return f;
}

void rfollow_wait_first(struct rfollow *f, double timeout_s)
{
	uint64_t end = clock_mono_ns() + (uint64_t)(timeout_s * 1e9);
	while (!rf_read(f) && clock_mono_ns() < end)
		clock_sleep_ns(RFOLLOW_POLL_NS);
}

bool rfollow_ready(struct rfollow *f)
{
	return rf_read(f);
}

char *rfollow_take(struct rfollow *f)
{
	char *line = rf_read(f) ? f->line : NULL;
	f->line = NULL;
	return line;
}

void rfollow_status(struct rfollow *f, char *file, size_t flen, char *note, size_t nlen)
{
	const char *slash = strrchr(f->file, '/');
	snprintf(file, flen, "%s", slash ? slash + 1 : f->file);
	snprintf(note, nlen, "%s", f->note);
}

void rfollow_stop(struct rfollow *f)
{
	if (!f)
		return;
	zread_close(f->zr);
	free(f->line);
	free(f->path);
	free(f);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay_follow.c: the --follow reader thread: reads what a recording holds, then what is
 * appended to it, decompressing as it goes, into a bounded queue of lines. */
#include "backends/replay/replay_follow.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "backends/replay/recstore.h"
#include "core/safefile.h"
#include "core/xalloc.h"

/* Lines queued before the reader waits for the console to take some: the file stays on
 * disk, so nothing is lost, and memory is bounded by this and the longest line. */
#define RFOLLOW_QUEUE 1024
/* How often an idle file is looked at again (a writer flushes a line per interval). */
#define RFOLLOW_POLL_NS (200 * 1000000ll)
#define RFOLLOW_CHUNK 65536

enum rf_fmt { RF_UNKNOWN, RF_PLAIN, RF_GZ, RF_ZSTD };

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
	int fd;
	off_t pos;
	enum rf_fmt fmt;
	ZSTD_DStream *zs;
	z_stream gz;
	bool gz_on;
	char *part; /* a line not yet ended */
	size_t plen, pcap;
	bool dropping; /* the line under way is past SAFEFILE_LINE_MAX: skipped to its end */
	char cur[RECSTORE_NAME_LEN]; /* dir: the store file being read */
};

/* The first problem, "FILE: what", kept for the status line. */
static void rf_note(struct rfollow *f, const char *what)
{
	pthread_mutex_lock(&f->lock);
	const char *slash = strrchr(f->file, '/');
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

/* Decompressed (or plain) bytes: split into lines, the last one kept until it ends. */
static void rf_text(struct rfollow *f, const char *p, size_t n)
{
	while (n) {
		const char *nl = memchr(p, '\n', n);
		size_t k = nl ? (size_t)(nl - p) : n;
		if (!f->dropping && f->plen + k > SAFEFILE_LINE_MAX) {
			f->dropping = true;
			f->plen = 0;
			rf_note(f, "a line longer than 16 MiB skipped");
		}
		if (!f->dropping) {
			if (f->plen + k > f->pcap) {
				f->pcap = (f->plen + k) * 2;
				f->part = xrealloc(f->part, f->pcap);
			}
			memcpy(f->part + f->plen, p, k);
			f->plen += k;
		}
		if (!nl)
			return;
		if (!f->dropping && f->plen)
			rf_push(f, f->part, f->plen);
		f->plen = 0;
		f->dropping = false;
		p += k + 1;
		n -= k + 1;
	}
}

static void rf_close_file(struct rfollow *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	f->pos = 0;
	f->fmt = RF_UNKNOWN;
	if (f->gz_on)
		inflateEnd(&f->gz);
	f->gz_on = false;
	f->plen = 0;
	f->dropping = false;
}

/* Feed compressed bytes through the file's decoder; false once the stream is corrupt. */
static bool rf_decode(struct rfollow *f, const unsigned char *in, size_t n)
{
	char out[RFOLLOW_CHUNK];
	if (f->fmt == RF_PLAIN) {
		rf_text(f, (const char *)in, n);
		return true;
	}
	if (f->fmt == RF_ZSTD) {
		ZSTD_inBuffer ib = {in, n, 0};
		while (ib.pos < ib.size) {
			ZSTD_outBuffer ob = {out, sizeof(out), 0};
			size_t r = ZSTD_decompressStream(f->zs, &ob, &ib);
			if (ZSTD_isError(r)) {
				char why[128];
				snprintf(why, sizeof(why), "zstd: %s", ZSTD_getErrorName(r));
				rf_note(f, why);
				return false;
			}
			rf_text(f, out, ob.pos);
		}
		return true;
	}
	f->gz.next_in = (unsigned char *)in;
	f->gz.avail_in = (uInt)n;
	while (f->gz.avail_in) {
		f->gz.next_out = (unsigned char *)out;
		f->gz.avail_out = sizeof(out);
		int r = inflate(&f->gz, Z_NO_FLUSH);
		rf_text(f, out, sizeof(out) - f->gz.avail_out);
		if (r == Z_STREAM_END && inflateReset(&f->gz) == Z_OK)
			continue; /* gzip members one after another */
		if (r != Z_OK && r != Z_BUF_ERROR) {
			rf_note(f, f->gz.msg ? f->gz.msg : "gzip: corrupt data");
			return false;
		}
		if (r == Z_BUF_ERROR)
			break;
	}
	return true;
}

/* Open the file to read next: the given one, or the store's newest (at the start) or the one
 * after cur; false when there is none (yet). */
static bool rf_open_next(struct rfollow *f, bool *changed)
{
	char path[sizeof(f->file)];
	*changed = false;
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
		if (pick) {
			snprintf(f->cur, sizeof(f->cur), "%s", pick);
			*changed = true;
		}
		recstore_names_free(names, n);
		if (!pick)
			return false;
		snprintf(path, sizeof(path), "%s/%s", f->path, f->cur);
	} else {
		snprintf(path, sizeof(path), "%s", f->path);
	}
	char err[256];
	int fd = safefile_open_read(path, err, sizeof(err));
	if (fd < 0) {
		rf_note(f, err);
		return false;
	}
	f->fd = fd;
	pthread_mutex_lock(&f->lock);
	snprintf(f->file, sizeof(f->file), "%s", path);
	pthread_mutex_unlock(&f->lock);
	return true;
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

static void rf_set_fmt(struct rfollow *f, const unsigned char *p, size_t n)
{
	if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd) {
		f->fmt = RF_ZSTD;
		ZSTD_initDStream(f->zs);
	} else if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b) {
		memset(&f->gz, 0, sizeof(f->gz));
		f->gz_on = inflateInit2(&f->gz, 15 + 16) == Z_OK;
		f->fmt = f->gz_on ? RF_GZ : RF_PLAIN;
	} else {
		f->fmt = RF_PLAIN;
	}
}

static void *rf_main(void *arg)
{
	struct rfollow *f = arg;
	unsigned char buf[RFOLLOW_CHUNK];
	bool corrupt = false;
	pthread_setname_np(pthread_self(), "tt-follow");
	for (;;) {
		pthread_mutex_lock(&f->lock);
		bool stop = f->stop;
		pthread_mutex_unlock(&f->lock);
		if (stop)
			break;
		bool changed;
		if (f->fd < 0 && !rf_open_next(f, &changed)) {
			if (rf_idle(f))
				break;
			continue;
		}
		struct stat st;
		if (fstat(f->fd, &st) == 0 && st.st_size < f->pos) {
			/* Truncated: a writer started the file again. */
			rf_close_file(f);
			corrupt = false;
			if (f->dir)
				f->cur[0] = '\0';
			continue;
		}
		/* The magic needs 4 bytes: read from the start until they are there. */
		ssize_t n = corrupt ? 0 : pread(f->fd, buf, sizeof(buf), f->pos);
		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0 && f->fmt == RF_UNKNOWN) {
			if (n < 4 && buf[0] != '{') {
				if (rf_idle(f))
					break;
				continue;
			}
			rf_set_fmt(f, buf, (size_t)n);
		}
		if (n > 0) {
			f->pos += n;
			corrupt = !rf_decode(f, buf, (size_t)n);
			continue;
		}
		/* At the end: a store moves to its next file once there is one (the writer ends
		 * a file before it starts the next, so this one is whole). */
		if (f->dir && rf_newer(f)) {
			rf_close_file(f);
			corrupt = false;
			continue;
		}
		if (rf_idle(f))
			break;
	}
	return NULL;
}

struct rfollow *rfollow_start(const char *path, bool dir, char *err, size_t errlen)
{
	struct rfollow *f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->dir = dir;
	f->fd = -1;
	if (!dir) {
		int fd = safefile_open_read(path, err, errlen);
		if (fd < 0) {
			free(f->path);
			free(f);
			return NULL;
		}
		close(fd);
	}
	f->zs = ZSTD_createDStream();
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
		ZSTD_freeDStream(f->zs);
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
	rf_close_file(f);
	for (size_t i = 0; i < f->count; i++)
		free(f->q[(f->head + i) % RFOLLOW_QUEUE]);
	pthread_cond_destroy(&f->cond);
	pthread_mutex_destroy(&f->lock);
	ZSTD_freeDStream(f->zs);
	free(f->part);
	free(f->path);
	free(f);
}

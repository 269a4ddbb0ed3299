/* SPDX-License-Identifier: GPL-2.0-or-later */
/* recfile.c: the recording writer thread (plain, gzip, zstd); core/zread.c reads. */
#include "backends/replay/recfile.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "backends/replay/recstore.h"
#include "core/safefile.h"
#include "core/xalloc.h"

/* Lines queued for the writer before new ones are dropped: at 1 line/s, minutes of a
 * stalled disk; at most RECFILE_QUEUE_BYTES of memory. */
#define RECFILE_QUEUE_LINES 1024
#define RECFILE_QUEUE_BYTES (16u << 20)

enum recfile_kind { RECFILE_PLAIN, RECFILE_GZ, RECFILE_ZSTD };

/* By the name's ending: ".zst", ".gz", anything else plain. */
static enum recfile_kind recfile_kind_of(const char *path)
{
	size_t n = strlen(path);
	if (n > 4 && strcmp(path + n - 4, ".zst") == 0)
		return RECFILE_ZSTD;
	if (n > 3 && strcmp(path + n - 3, ".gz") == 0)
		return RECFILE_GZ;
	return RECFILE_PLAIN;
}

struct recfile_writer {
	enum recfile_kind kind;
	FILE *f; /* plain and zstd */
	gzFile gz;
	ZSTD_CCtx *zc;
	char *zout;
	size_t zout_cap;
	uint64_t file_bytes; /* compressed bytes in the current file (zstd), for rotation */
	unsigned frame_lines; /* lines in the current zstd frame */

	/* --record-dir: the store rotated into (store.dir NULL: one file). Writer thread only. */
	struct recstore_conf store;
	int store_fd; /* the store's directory, flock'd while we record into it (-1: none) */
	char cur[RECSTORE_NAME_LEN]; /* the file being written */
	uint64_t cur_start_s; /* when it was started */

	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	char *q[RECFILE_QUEUE_LINES]; /* a ring of lines: head is the next to write */
	size_t head, count, bytes;
	bool stop;
	uint64_t dropped; /* under lock */
	char error[128]; /* first error, under lock */
};

/* ib through w's zstd stream into its file, to ib's end (ZSTD_e_continue) or to the frame's
 * end (ZSTD_e_flush, ZSTD_e_end): NULL, or why it failed. */
static const char *zstd_push(struct recfile_writer *w, ZSTD_inBuffer *ib, ZSTD_EndDirective mode)
{
	size_t left;
	do {
		ZSTD_outBuffer ob = {w->zout, w->zout_cap, 0};
		left = ZSTD_compressStream2(w->zc, &ob, ib, mode);
		if (ZSTD_isError(left))
			return ZSTD_getErrorName(left);
		if (fwrite(w->zout, 1, ob.pos, w->f) != ob.pos)
			return strerror(errno);
		w->file_bytes += ob.pos;
	} while (mode == ZSTD_e_continue ? ib->pos < ib->size : left != 0);
	return NULL;
}

/* Write one line and flush it to the kernel, so a crash of tunetop loses at most the line
 * being written. Runs on the writer thread only. */
static int writer_emit(struct recfile_writer *w, const char *line, ZSTD_EndDirective end)
{
	size_t n = strlen(line);
	switch (w->kind) {
	case RECFILE_GZ:
		if ((n && gzwrite(w->gz, line, (unsigned)n) != (int)n) || gzputc(w->gz, '\n') < 0 ||
		    gzflush(w->gz, Z_SYNC_FLUSH) != Z_OK)
			return -1;
		return 0;
	case RECFILE_ZSTD: {
		ZSTD_inBuffer text = {line, n, 0}, nl = {"\n", 1, 0};
		if (zstd_push(w, &text, ZSTD_e_continue) || zstd_push(w, &nl, end))
			return -1;
		return fflush(w->f) == 0 ? 0 : -1;
	}
	default:
		if (fputs(line, w->f) == EOF || fputc('\n', w->f) == EOF || fflush(w->f) == EOF)
			return -1;
		return 0;
	}
}

/* The wall clock: files are named and rotated by it (UTC). */
static uint64_t wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Open path as w's current stream (w->kind set): 0, or -1 / SAFEFILE_REFUSED with a message. */
static int stream_open(struct recfile_writer *w, const char *path, char *err, size_t errlen)
{
	/* Locked: a second recorder of the same file is refused before it truncates it. */
	int fd = safefile_open_stream(path, SAFEFILE_LOCK, err, errlen);
	if (fd < 0)
		return fd;
	w->file_bytes = 0;
	w->frame_lines = 0;
	if (w->kind == RECFILE_GZ) {
		w->gz = gzdopen(fd, "wb6");
		if (!w->gz) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
			close(fd);
			return -1;
		}
		return 0;
	}
	w->f = fdopen(fd, "wb");
	if (!w->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (w->kind == RECFILE_ZSTD) {
		if (!w->zc) {
			w->zc = ZSTD_createCCtx();
			w->zout_cap = ZSTD_CStreamOutSize();
			w->zout = xmalloc(w->zout_cap);
		}
		ZSTD_CCtx_reset(w->zc, ZSTD_reset_session_only);
		ZSTD_CCtx_setParameter(w->zc, ZSTD_c_compressionLevel, 3);
		/* A frame's checksum lets a reader tell a corrupt file from a good one
		 * (docs/recording.md "Checksums"). */
		ZSTD_CCtx_setParameter(w->zc, ZSTD_c_checksumFlag, 1);
	}
	return 0;
}

/* End the current stream (the zstd frame's epilogue and checksum) and close it; 0 or -1 with
 * the first error in err. */
static int stream_end(struct recfile_writer *w, char *err, size_t errlen)
{
	int rc = 0;
	if (w->kind == RECFILE_GZ) {
		int zr = w->gz ? gzclose(w->gz) : Z_OK;
		w->gz = NULL;
		if (zr != Z_OK) {
			snprintf(err, errlen, "close: %s",
				 zr == Z_ERRNO ? strerror(errno) : "gzip stream error");
			rc = -1;
		}
		return rc;
	}
	if (!w->f)
		return 0;
	if (w->kind == RECFILE_ZSTD) {
		/* End the frame: an empty input with ZSTD_e_end writes the epilogue. */
		ZSTD_inBuffer ib = {"", 0, 0};
		const char *why = zstd_push(w, &ib, ZSTD_e_end);
		if (why) {
			snprintf(err, errlen, "write: %s", why);
			rc = -1;
		}
	}
	if (fclose(w->f) != 0 && rc == 0) {
		snprintf(err, errlen, "close: %s", strerror(errno));
		rc = -1;
	}
	w->f = NULL;
	return rc;
}

/* Start the store's next file, named by the time now (a second already taken gets _001..),
 * then apply retention: 0 or -1 / SAFEFILE_REFUSED with a message. */
static int store_next(struct recfile_writer *w, char *err, size_t errlen)
{
	uint64_t now = wall_ns();
	char name[RECSTORE_NAME_LEN], path[4096];
	recstore_name(now, name, sizeof(name));
	size_t nl = strlen(name) - strlen(RECSTORE_SUFFIX);
	for (int seq = 0; seq < 1000; seq++) {
		if (seq)
			snprintf(w->cur, sizeof(w->cur), "%.*s_%03d%s", (int)nl, name, seq,
				 RECSTORE_SUFFIX);
		else
			snprintf(w->cur, sizeof(w->cur), "%s", name);
		snprintf(path, sizeof(path), "%s/%s", w->store.dir, w->cur);
		struct stat st;
		if (lstat(path, &st) != 0)
			break;
	}
	int rc = stream_open(w, path, err, errlen);
	if (rc != 0)
		return rc;
	w->cur_start_s = now / 1000000000ull;
	recstore_retain(&w->store, now, w->cur);
	return 0;
}

/* Whether the store wants a new file before the next line: past the size, or the clock
 * crossed into another rotation period (hourly: 10:00, 11:00, ... UTC). */
static bool store_due(const struct recfile_writer *w)
{
	if (!w->store.dir)
		return false;
	if (w->store.rotate_bytes && w->file_bytes >= w->store.rotate_bytes)
		return true;
	uint64_t p = w->store.rotate_s;
	return p && wall_ns() / 1000000000ull / p != w->cur_start_s / p;
}

/* Rotation, on the writer thread: the console never waits for a file to close. */
static int store_rotate(struct recfile_writer *w, char *err, size_t errlen)
{
	int rc = stream_end(w, err, errlen);
	int rc2 = store_next(w, rc ? err + strlen(err) : err, rc ? 0 : errlen);
	return rc ? rc : rc2;
}

static void *writer_main(void *arg)
{
	struct recfile_writer *w = arg;
	pthread_setname_np(pthread_self(), "tt-record");
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->count && !w->stop)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!w->count)
			break; /* stop, and nothing left */
		char *line = w->q[w->head];
		w->head = (w->head + 1) % RECFILE_QUEUE_LINES;
		w->count--;
		w->bytes -= strlen(line);
		pthread_mutex_unlock(&w->lock);
		char why[128] = "";
		int rc = 0;
		if (store_due(w) && store_rotate(w, why, sizeof(why)) != 0)
			rc = -1;
		/* A zstd frame ends every RECFILE_FRAME_LINES lines: each is a place a reader can
		 * start expanding from (core/zread.h), and its checksum is checked then. */
		bool frame_end = ++w->frame_lines % RECFILE_FRAME_LINES == 0;
		if (rc == 0 && (w->f || w->gz))
			rc = writer_emit(w, line, frame_end ? ZSTD_e_end : ZSTD_e_flush);
		free(line);
		pthread_mutex_lock(&w->lock);
		if (rc != 0 && !w->error[0]) {
			if (why[0])
				snprintf(w->error, sizeof(w->error), "%s", why);
			else
				snprintf(w->error, sizeof(w->error), "write: %s",
					 strerror(errno ? errno : EIO));
		}
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static void writer_free(struct recfile_writer *w)
{
	if (w->store_fd >= 0)
		close(w->store_fd);
	ZSTD_freeCCtx(w->zc);
	free(w->zout);
	free((char *)w->store.dir);
	free(w);
}

/* The writer thread over w's stream, opened with status rc; NULL (w freed) when rc is not 0 or
 * the thread cannot start. *status: 0 once it runs, else 2 for a refused path, 1. */
static struct recfile_writer *writer_start(struct recfile_writer *w, int rc, int *status, char *err,
					   size_t errlen)
{
	*status = rc == SAFEFILE_REFUSED ? 2 : 1;
	if (rc != 0) {
		writer_free(w);
		return NULL;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	if ((rc = pthread_create(&w->thread, NULL, writer_main, w)) != 0) {
		char e2[8];
		snprintf(err, errlen, "writer thread: %s", strerror(rc));
		stream_end(w, e2, sizeof(e2));
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		writer_free(w);
		return NULL;
	}
	*status = 0;
	return w;
}

struct recfile_writer *recfile_open(const char *path, int *status, char *err, size_t errlen)
{
	struct recfile_writer *w = xcalloc(1, sizeof(*w));
	w->store_fd = -1;
	w->kind = recfile_kind_of(path);
	return writer_start(w, stream_open(w, path, err, errlen), status, err, errlen);
}

struct recfile_writer *recfile_open_store(const struct recstore_conf *c, int *status, char *err,
					  size_t errlen)
{
	int rc = recstore_check_dir(c->dir, true, err, errlen);
	*status = rc == SAFEFILE_REFUSED ? 2 : 1;
	if (rc != 0)
		return NULL;
	/* One recorder per store: another one's retention would delete this one's live file. */
	int dfd = open(c->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0 || flock(dfd, LOCK_EX | LOCK_NB) != 0) {
		snprintf(err, errlen, "%s: %s", c->dir,
			 dfd >= 0 && errno == EWOULDBLOCK
			     ? "another tunetop records into it (it holds the store's lock)"
			     : strerror(errno));
		if (dfd >= 0)
			close(dfd);
		*status = 1;
		return NULL;
	}
	struct recfile_writer *w = xcalloc(1, sizeof(*w));
	w->store_fd = dfd;
	w->kind = RECFILE_ZSTD;
	w->store = *c;
	w->store.dir = xstrdup(c->dir);
	return writer_start(w, store_next(w, err, errlen), status, err, errlen);
}

bool recfile_put(struct recfile_writer *w, const char *line)
{
	size_t n = strlen(line);
	char *copy = xmalloc(n + 1);
	memcpy(copy, line, n + 1);
	pthread_mutex_lock(&w->lock);
	bool room = w->count < RECFILE_QUEUE_LINES && w->bytes + n <= RECFILE_QUEUE_BYTES;
	if (room) {
		w->q[(w->head + w->count) % RECFILE_QUEUE_LINES] = copy;
		w->count++;
		w->bytes += n;
		pthread_cond_signal(&w->cond);
	} else {
		w->dropped++;
	}
	pthread_mutex_unlock(&w->lock);
	if (!room)
		free(copy);
	return room;
}

uint64_t recfile_dropped(struct recfile_writer *w)
{
	pthread_mutex_lock(&w->lock);
	uint64_t d = w->dropped;
	pthread_mutex_unlock(&w->lock);
	return d;
}

void recfile_error(struct recfile_writer *w, char *buf, size_t len)
{
	pthread_mutex_lock(&w->lock);
	snprintf(buf, len, "%s", w->error);
	pthread_mutex_unlock(&w->lock);
}

int recfile_close(struct recfile_writer *w, char *err, size_t errlen)
{
	int rc = 0;
	if (!w)
		return 0;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	if (w->error[0]) {
		snprintf(err, errlen, "%s", w->error);
		rc = -1;
	}
	if (stream_end(w, rc ? err + strlen(err) : err, rc ? 0 : errlen) != 0)
		rc = -1;
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	writer_free(w);
	return rc;
}

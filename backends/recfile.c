/* recfile.c: reading recordings whole (plain, gzip, zstd) and the recording writer thread. */
#include "backends/recfile.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "core/safefile.h"
#include "core/xalloc.h"

/* Lines queued for the writer before new ones are dropped: at 1 line/s, minutes of a
 * stalled disk; at most RECFILE_QUEUE_BYTES of memory. */
#define RECFILE_QUEUE_LINES 1024
#define RECFILE_QUEUE_BYTES (16u << 20)

enum recfile_kind recfile_kind_of(const char *path)
{
	size_t n = strlen(path);
	if (n > 4 && strcmp(path + n - 4, ".zst") == 0)
		return RECFILE_ZSTD;
	if (n > 3 && strcmp(path + n - 3, ".gz") == 0)
		return RECFILE_GZ;
	return RECFILE_PLAIN;
}

int recfile_read(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
	return safefile_read(path, &safefile_recording, buf, len, err, errlen);
}

struct recfile_writer {
	enum recfile_kind kind;
	FILE *f; /* plain and zstd */
	gzFile gz;
	ZSTD_CCtx *zc;
	char *zout;
	size_t zout_cap;

	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	char *q[RECFILE_QUEUE_LINES]; /* a ring of lines: head is the next to write */
	size_t head, count, bytes;
	bool stop;
	uint64_t dropped; /* under lock */
	char error[128]; /* first error, under lock */
};

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
		char nl = '\n';
		ZSTD_inBuffer parts[2] = {{line, n, 0}, {&nl, 1, 0}};
		for (int i = 0; i < 2; i++) {
			ZSTD_EndDirective mode = i == 0 ? ZSTD_e_continue : end;
			size_t left;
			do {
				ZSTD_outBuffer ob = {w->zout, w->zout_cap, 0};
				left = ZSTD_compressStream2(w->zc, &ob, &parts[i], mode);
				if (ZSTD_isError(left) ||
				    fwrite(w->zout, 1, ob.pos, w->f) != ob.pos)
					return -1;
			} while (mode == ZSTD_e_continue ? parts[i].pos < parts[i].size
							 : left != 0);
		}
		return fflush(w->f) == 0 ? 0 : -1;
	}
	default:
		if (fputs(line, w->f) == EOF || fputc('\n', w->f) == EOF || fflush(w->f) == EOF)
			return -1;
		return 0;
	}
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
		int rc = writer_emit(w, line, ZSTD_e_flush);
		free(line);
		pthread_mutex_lock(&w->lock);
		if (rc != 0 && !w->error[0])
			snprintf(w->error, sizeof(w->error), "write: %s",
				 strerror(errno ? errno : EIO));
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct recfile_writer *recfile_open(const char *path, int *status, char *err, size_t errlen)
{
	int fd = safefile_open_stream(path, 0, err, errlen);
	/* The status of a failure, until the writer is running (then 0). */
	*status = fd == SAFEFILE_REFUSED ? 2 : 1;
	if (fd < 0)
		return NULL;
	struct recfile_writer *w = xcalloc(1, sizeof(*w));
	w->kind = recfile_kind_of(path);
	if (w->kind == RECFILE_GZ) {
		w->gz = gzdopen(fd, "wb6");
		if (!w->gz) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
			close(fd);
			free(w);
			return NULL;
		}
	} else {
		w->f = fdopen(fd, "wb");
		if (!w->f) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			close(fd);
			free(w);
			return NULL;
		}
		if (w->kind == RECFILE_ZSTD) {
			w->zc = ZSTD_createCCtx();
			ZSTD_CCtx_setParameter(w->zc, ZSTD_c_compressionLevel, 3);
			w->zout_cap = ZSTD_CStreamOutSize();
			w->zout = xmalloc(w->zout_cap);
		}
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	int rc = pthread_create(&w->thread, NULL, writer_main, w);
	if (rc != 0) {
		snprintf(err, errlen, "writer thread: %s", strerror(rc));
		if (w->gz)
			gzclose(w->gz);
		if (w->f)
			fclose(w->f);
		ZSTD_freeCCtx(w->zc);
		free(w->zout);
		free(w);
		return NULL;
	}
	*status = 0;
	return w;
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
	if (w->kind == RECFILE_GZ) {
		int zr = gzclose(w->gz);
		if (zr != Z_OK && rc == 0) {
			snprintf(err, errlen, "close: %s",
				 zr == Z_ERRNO ? strerror(errno) : "gzip stream error");
			rc = -1;
		}
	} else {
		if (w->kind == RECFILE_ZSTD) {
			/* End the frame: an empty input with ZSTD_e_end writes the epilogue. */
			ZSTD_inBuffer ib = {"", 0, 0};
			size_t left;
			do {
				ZSTD_outBuffer ob = {w->zout, w->zout_cap, 0};
				left = ZSTD_compressStream2(w->zc, &ob, &ib, ZSTD_e_end);
				if (ZSTD_isError(left) ||
				    fwrite(w->zout, 1, ob.pos, w->f) != ob.pos) {
					if (rc == 0)
						snprintf(err, errlen, "write: %s",
							 ZSTD_isError(left)
							     ? ZSTD_getErrorName(left)
							     : strerror(errno));
					rc = -1;
					break;
				}
			} while (left != 0);
			ZSTD_freeCCtx(w->zc);
			free(w->zout);
		}
		if (fclose(w->f) != 0 && rc == 0) {
			snprintf(err, errlen, "close: %s", strerror(errno));
			rc = -1;
		}
	}
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
	return rc;
}

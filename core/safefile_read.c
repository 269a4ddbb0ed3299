/* SPDX-License-Identifier: GPL-2.0-or-later */
/* safefile_read.c: a regular file read whole within caps (its size, a line, and what a .gz
 * (zlib) or .zst (libzstd) stream expands to), so no file can take unbounded memory. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "core/safefile.h"
#include "core/xalloc.h"

/* The bytes read or inflated at a time. */
#define SAFEFILE_CHUNK (1u << 16)

const struct safefile_limits safefile_recording = {
    .max_bytes = SAFEFILE_REC_MAX_BYTES,
    .max_line = SAFEFILE_LINE_MAX,
    .gz_ratio = SAFEFILE_REC_GZ_RATIO,
    .zstd_ratio = SAFEFILE_REC_ZSTD_RATIO,
    .ratio_floor = SAFEFILE_REC_RATIO_FLOOR,
    .decompress = true,
};

static const unsigned char gz_magic[2] = {0x1f, 0x8b};
static const unsigned char zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};

/* A growing buffer that enforces the caps as bytes arrive. */
struct sfbuf {
	char *p;
	size_t len, cap;
	size_t run; /* bytes since the last newline */
	size_t lineno; /* the line being filled, from 1 */
	bool lines; /* check lim->max_line */
	unsigned ratio; /* the cap on expanded / compressed bytes (0 none) */
	const char *fmt; /* "gzip", "zstd" */
	const char *what; /* "is larger than" or "expands past" */
	const struct safefile_limits *lim;
	const char *path;
};

static void sf_size(char *buf, size_t len, size_t n)
{
	if (n >= (1u << 30) && n % (1u << 30) == 0)
		snprintf(buf, len, "%zu GiB", n >> 30);
	else if (n >= (1u << 20) && n % (1u << 20) == 0)
		snprintf(buf, len, "%zu MiB", n >> 20);
	else if (n >= (1u << 10) && n % (1u << 10) == 0)
		snprintf(buf, len, "%zu KiB", n >> 10);
	else
		snprintf(buf, len, "%zu bytes", n);
}

/* Add n bytes; in: compressed bytes consumed so far (0 for a plain file). 0, or -1 with why. */
static int sf_add(struct sfbuf *g, const void *data, size_t n, size_t in, char *err, size_t errlen)
{
	const struct safefile_limits *lim = g->lim;
	char a[32], b[32];
	if (n > lim->max_bytes - g->len) {
		sf_size(a, sizeof(a), lim->max_bytes);
		snprintf(err, errlen, "%s: %s the cap of %s", g->path, g->what, a);
		return -1;
	}
	if (in && g->ratio && g->len + n > lim->ratio_floor && (g->len + n) / g->ratio > in) {
		sf_size(b, sizeof(b), lim->max_bytes);
		snprintf(err, errlen,
			 "%s: expands to more than %u times its compressed size (the caps for %s: "
			 "%ux its size, %s in all)",
			 g->path, g->ratio, g->fmt, g->ratio, b);
		return -1;
	}
	if (g->lines && lim->max_line) {
		const char *s = data, *end = s + n;
		while (s < end) {
			const char *nl = memchr(s, '\n', (size_t)(end - s));
			size_t seg = (size_t)((nl ? nl : end) - s);
			if (seg > lim->max_line - g->run) {
				sf_size(a, sizeof(a), lim->max_line);
				snprintf(err, errlen, "%s: line %zu is longer than the cap of %s",
					 g->path, g->lineno, a);
				return -1;
			}
			g->run += seg;
			if (!nl)
				break;
			g->run = 0;
			g->lineno++;
			s = nl + 1;
		}
	}
	if (g->len + n + 1 > g->cap) {
		size_t want = g->len + n + 1, top = lim->max_bytes + 1;
		while (g->cap < want)
			g->cap = g->cap ? (g->cap > top / 2 ? top : g->cap * 2) : SAFEFILE_CHUNK;
		g->p = xrealloc(g->p, g->cap);
	}
	memcpy(g->p + g->len, data, n);
	g->len += n;
	g->p[g->len] = '\0';
	return 0;
}

/* gzip members one after another (as gzip writes them appended); a member cut short or
 * corrupt later on gives what came before it. */
static int sf_gunzip(const unsigned char *in, size_t inlen, struct sfbuf *g, char *err,
		     size_t errlen)
{
	unsigned char out[SAFEFILE_CHUNK];
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 16) != Z_OK) {
		snprintf(err, errlen, "%s: zlib: cannot start", g->path);
		return -1;
	}
	size_t pos = 0;
	int rc = 0;
	for (;;) {
		/* avail_in is 32 bits: feed at most a chunk of the input at a time. */
		size_t feed = inlen - pos > (1u << 30) ? (1u << 30) : inlen - pos;
		z.next_in = (unsigned char *)in + pos;
		z.avail_in = (uInt)feed;
		z.next_out = out;
		z.avail_out = sizeof(out);
		int r = inflate(&z, Z_NO_FLUSH);
		pos += feed - z.avail_in;
		size_t got = sizeof(out) - z.avail_out;
		if (got && sf_add(g, out, got, pos, err, errlen) != 0) {
			rc = -1;
			break;
		}
		if (r == Z_STREAM_END) {
			if (inlen - pos >= 2 && memcmp(in + pos, gz_magic, 2) == 0 &&
			    inflateReset(&z) == Z_OK)
				continue;
			break; /* trailing bytes that are no gzip member: ignored, as gzip does */
		}
		if (got == 0 && (r == Z_BUF_ERROR || pos == inlen))
			break; /* the end, or cut short: all the flushed blocks are out */
		if (r != Z_OK && r != Z_BUF_ERROR) {
			snprintf(err, errlen, "%s: gzip: %s", g->path,
				 z.msg ? z.msg : "corrupt data");
			if (g->len == 0)
				rc = -1;
			break;
		}
	}
	inflateEnd(&z);
	return rc;
}

static int sf_unzstd(const unsigned char *in, size_t inlen, struct sfbuf *g, char *err,
		     size_t errlen)
{
	ZSTD_DStream *ds = ZSTD_createDStream();
	char out[SAFEFILE_CHUNK];
	ZSTD_inBuffer ib = {in, inlen, 0};
	int rc = 0;

	ZSTD_initDStream(ds);
	/* Until the input is used up, then until the decoder has nothing more for it. */
	for (;;) {
		ZSTD_outBuffer ob = {out, sizeof(out), 0};
		size_t r = ZSTD_decompressStream(ds, &ob, &ib);
		if (ob.pos && sf_add(g, out, ob.pos, ib.pos ? ib.pos : 1, err, errlen) != 0) {
			rc = -1;
			break;
		}
		if (ZSTD_isError(r)) {
			/* Corrupt from here on (a frame's checksum, a bad block): what came before
			 * stands, and err says what is wrong (the reader counts lines). */
			snprintf(err, errlen, "%s: zstd: %s", g->path, ZSTD_getErrorName(r));
			if (g->len == 0)
				rc = -1;
			break;
		}
		if (ib.pos == ib.size && ob.pos == 0)
			break; /* a frame cut short: its flushed blocks are out already */
	}
	ZSTD_freeDStream(ds);
	return rc;
}

int safefile_read(const char *path, const struct safefile_limits *lim, char **buf, size_t *len,
		  char *err, size_t errlen)
{
	int fd = lim->no_symlink ? safefile_open_read_nofollow(path, err, errlen)
				 : safefile_open_read(path, err, errlen);
	if (fd < 0)
		return fd;
	if (errlen)
		err[0] = '\0'; /* a corrupt later part is said here even on success */
	struct sfbuf raw = {.lineno = 1, .lim = lim, .path = path, .what = "is larger than"};
	char chunk[SAFEFILE_CHUNK];
	bool packed = false;
	int rc = 0;
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			rc = -1;
			break;
		}
		if (n == 0)
			break;
		if (raw.len == 0) {
			packed = lim->decompress && ((n >= 2 && memcmp(chunk, gz_magic, 2) == 0) ||
						     (n >= 4 && memcmp(chunk, zstd_magic, 4) == 0));
			raw.lines = !packed;
		}
		if (sf_add(&raw, chunk, (size_t)n, 0, err, errlen) != 0) {
			rc = -1;
			break;
		}
	}
	close(fd);
	struct sfbuf out = raw;
	if (rc == 0 && packed) {
		const unsigned char *in = (const unsigned char *)raw.p;
		bool gz = in[0] == gz_magic[0];
		out = (struct sfbuf){.lineno = 1,
				     .lines = true,
				     .lim = lim,
				     .path = path,
				     .what = "expands past",
				     .ratio = gz ? lim->gz_ratio : lim->zstd_ratio,
				     .fmt = gz ? "gzip" : "zstd"};
		rc = gz ? sf_gunzip(in, raw.len, &out, err, errlen)
			: sf_unzstd(in, raw.len, &out, err, errlen);
		free(raw.p);
	}
	if (rc != 0) {
		free(out.p);
		return -1;
	}
	if (!out.p)
		out.p = xcalloc(1, 1);
	*buf = out.p;
	*len = out.len;
	return 0;
}

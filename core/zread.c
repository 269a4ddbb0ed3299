/* SPDX-License-Identifier: GPL-2.0-or-later */
/* zread.c: a file read in lines within caps, plain or expanded (zlib, libzstd), with restart
 * points to seek back by and a follow mode; and safefile_read, a file read whole through it. */
#include "core/zread.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "core/xalloc.h"

/* The bytes read or expanded at a time. */
#define ZR_CHUNK (1u << 16)
/* Restart points kept: one per 60-line frame is 60 an hour; a hostile file of tiny frames
 * stops adding them here (a seek then expands further, memory stays bounded). */
#define ZR_MAX_RESTARTS 65536

const struct safefile_limits safefile_recording = {
    .max_bytes = SAFEFILE_REC_MAX_BYTES,
    .max_line = SAFEFILE_LINE_MAX,
    .gz_ratio = SAFEFILE_REC_GZ_RATIO,
    .zstd_ratio = SAFEFILE_REC_ZSTD_RATIO,
    .ratio_floor = SAFEFILE_REC_RATIO_FLOOR,
    .decompress = true,
};

enum zr_kind { ZR_UNKNOWN, ZR_PLAIN, ZR_GZIP, ZR_ZSTD };

struct zr_restart {
	uint64_t in_off, out_off; /* a frame or member starts at in_off and expands from out_off */
};

struct zread {
	char *path;
	const struct safefile_limits *lim;
	int fd; /* -1 while idle: opened again by path, and checked to be the same file */
	dev_t dev;
	ino_t ino;
	enum zr_kind kind; /* UNKNOWN while a followed file is too short to tell */
	bool (*wait)(struct zread *z, void *arg); /* following: NULL otherwise */
	void *arg;
	unsigned char *in; /* compressed: in[in_off..in_len) not yet decoded */
	size_t in_len, in_off;
	uint64_t in_pos; /* the file offset of the next chunk */
	bool in_eof; /* the file has no more bytes (now) */
	bool live; /* the decoder and the window hold state for the cursor */
	bool member_end; /* gzip: a member ended; what follows is another one or nothing */
	bool ended; /* no more bytes: trailing garbage, or damage */
	z_stream z;
	ZSTD_DStream *zs;
	uint64_t dec_pos; /* expanded bytes decoded: the window's end */
	char *win; /* win[0..win_len) ends at dec_pos; the cursor is at win_off */
	size_t win_len, win_off;
	uint64_t idle_pos; /* the cursor while not live */
	char *line; /* a line that spans windows */
	size_t line_len, line_cap;
	bool given; /* line was given: the next call starts another */
	bool skipping; /* past a line's cap: skipped to its end */
	uint64_t lineno; /* lines given (for messages) */
	struct zr_restart *rs;
	size_t nrs, caprs;
	char damage[300];
};

static void zr_size(char *buf, size_t len, size_t n)
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

/* The kind by the magic at the start; when the file is too short to tell, UNKNOWN unless
 * final (a file that is not followed will not grow). */
static void zr_detect(struct zread *z, bool final)
{
	unsigned char m[4];
	ssize_t n = z->lim->decompress ? pread(z->fd, m, sizeof(m), 0) : 4;
	if (!z->lim->decompress)
		z->kind = ZR_PLAIN;
	else if (n >= 2 && m[0] == 0x1f && m[1] == 0x8b)
		z->kind = ZR_GZIP;
	else if (n >= 4 && memcmp(m, "\x28\xb5\x2f\xfd", 4) == 0)
		z->kind = ZR_ZSTD;
	else if (final || n >= 4 || (n > 0 && m[0] == '{'))
		z->kind = ZR_PLAIN;
}

int zread_open(const char *path, const struct safefile_limits *lim, struct zread **out, char *err,
	       size_t errlen)
{
	int fd = lim->no_symlink ? safefile_open_read_nofollow(path, err, errlen)
				 : safefile_open_read(path, err, errlen);
	if (fd < 0)
		return fd;
	struct stat st;
	int bad = fstat(fd, &st) != 0 ? errno : (uint64_t)st.st_size > lim->max_bytes ? -1 : 0;
	if (bad) {
		char cap[32];
		zr_size(cap, sizeof(cap), lim->max_bytes);
		if (bad > 0)
			snprintf(err, errlen, "%s: %s", path, strerror(bad));
		else
			snprintf(err, errlen, "%s: is larger than the cap of %s", path, cap);
		close(fd);
		return -1;
	}
	struct zread *z = xcalloc(1, sizeof(*z));
	z->path = xstrdup(path);
	z->lim = lim;
	z->fd = fd;
	z->dev = st.st_dev;
	z->ino = st.st_ino;
	zr_detect(z, false);
	*out = z;
	return 0;
}

void zread_follow(struct zread *z, bool (*wait)(struct zread *z, void *arg), void *arg)
{
	z->wait = wait;
	z->arg = arg;
}

const char *zread_format(const struct zread *z)
{
	return z->kind == ZR_GZIP ? "gzip" : z->kind == ZR_ZSTD ? "zstd" : NULL;
}

const char *zread_damage(const struct zread *z)
{
	return z->damage;
}

size_t zread_restarts(const struct zread *z)
{
	return z->nrs;
}

uint64_t zread_tell(const struct zread *z)
{
	return z->live ? z->dec_pos - z->win_len + z->win_off : z->idle_pos;
}

/* The compressed bytes consumed (the file's bytes when plain). */
static uint64_t zr_in_bytes(const struct zread *z)
{
	return z->kind == ZR_PLAIN ? z->dec_pos : z->in_pos - (uint64_t)(z->in_len - z->in_off);
}

void zread_idle(struct zread *z)
{
	z->idle_pos = zread_tell(z);
	if (z->zs)
		ZSTD_freeDStream(z->zs);
	z->zs = NULL;
	if (z->z.state)
		inflateEnd(&z->z);
	memset(&z->z, 0, sizeof(z->z));
	free(z->in);
	free(z->win);
	free(z->line);
	z->in = NULL;
	z->win = z->line = NULL;
	z->line_cap = z->line_len = 0;
	z->live = false;
	/* A store of thousands of files is read with one or two of them open at a time. */
	if (z->fd >= 0)
		close(z->fd);
	z->fd = -1;
}

void zread_close(struct zread *z)
{
	if (!z)
		return;
	zread_idle(z);
	free(z->rs);
	free(z->path);
	free(z);
}

/* The file open again after zread_idle: 0, or -1 when it is gone or is another file now. */
static int zr_reopen(struct zread *z, char *err, size_t errlen)
{
	struct stat st;
	if (z->fd >= 0)
		return 0;
	int fd = safefile_open_read(z->path, err, errlen);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || st.st_dev != z->dev || st.st_ino != z->ino) {
		snprintf(err, errlen, "%s: replaced since it was opened", z->path);
		close(fd);
		return -1;
	}
	z->fd = fd;
	return 0;
}

/* Remember that a frame or member starts at the compressed offset now consumed. */
static void zr_restart_here(struct zread *z)
{
	if (z->nrs && z->rs[z->nrs - 1].out_off >= z->dec_pos)
		return; /* known already (read again after a seek), or an empty frame */
	if (z->nrs == ZR_MAX_RESTARTS)
		return;
	if (z->nrs == z->caprs) {
		z->caprs = z->caprs ? z->caprs * 2 : 64;
		z->rs = xreallocarray(z->rs, z->caprs, sizeof(*z->rs));
	}
	z->rs[z->nrs++] = (struct zr_restart){zr_in_bytes(z), z->dec_pos};
}

/* Start decoding at compressed offset in_off, which expands from out_off. */
static int zr_start_at(struct zread *z, uint64_t in_off, uint64_t out_off, char *err, size_t errlen)
{
	if (!z->in)
		z->in = xmalloc(ZR_CHUNK);
	if (!z->win)
		z->win = xmalloc(ZR_CHUNK);
	z->in_pos = in_off;
	z->in_len = z->in_off = z->win_len = z->win_off = z->line_len = 0;
	z->in_eof = z->member_end = z->ended = z->skipping = false;
	z->dec_pos = out_off;
	if (z->kind == ZR_ZSTD) {
		if (!z->zs)
			z->zs = ZSTD_createDStream();
		if (!z->zs || ZSTD_isError(ZSTD_DCtx_reset(z->zs, ZSTD_reset_session_only))) {
			snprintf(err, errlen, "%s: zstd: cannot start", z->path);
			return -1;
		}
	} else if (z->kind == ZR_GZIP) {
		int zr = z->z.state ? inflateReset(&z->z) : inflateInit2(&z->z, 15 + 16);
		if (zr != Z_OK) {
			snprintf(err, errlen, "%s: zlib: cannot start", z->path);
			return -1;
		}
	}
	z->live = true;
	return 0;
}

/* More compressed bytes when the chunk is used up: 0 (in_eof at the end), or -1. */
static int zr_fill(struct zread *z, char *err, size_t errlen)
{
	if (z->in_off < z->in_len || z->in_eof)
		return 0;
	ssize_t n;
	do
		n = pread(z->fd, z->in, ZR_CHUNK, (off_t)z->in_pos);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		snprintf(err, errlen, "%s: %s", z->path, strerror(errno));
		return -1;
	}
	z->in_len = (size_t)n;
	z->in_off = 0;
	z->in_pos += (uint64_t)n;
	z->in_eof = n == 0;
	return 0;
}

/* The caps on what a file expands to (core/safefile.h). */
static int zr_caps(struct zread *z, char *err, size_t errlen)
{
	const struct safefile_limits *lim = z->lim;
	unsigned ratio = z->kind == ZR_GZIP ? lim->gz_ratio : lim->zstd_ratio;
	uint64_t in = zr_in_bytes(z);
	bool big = z->dec_pos > lim->max_bytes;
	if (!big && (z->kind == ZR_PLAIN || !ratio || z->dec_pos <= lim->ratio_floor ||
		     z->dec_pos / ratio <= (in ? in : 1)))
		return 0;
	char cap[32];
	zr_size(cap, sizeof(cap), lim->max_bytes);
	if (big)
		snprintf(err, errlen, "%s: %s the cap of %s", z->path,
			 z->kind == ZR_PLAIN ? "is larger than" : "expands past", cap);
	else
		snprintf(err, errlen,
			 "%s: expands to more than %u times its compressed size (the caps for %s: "
			 "%ux its size, %s in all)",
			 z->path, ratio, zread_format(z), ratio, cap);
	return -1;
}

/* A stream corrupt from here on: what came before stands (-1 only when nothing came). */
static ssize_t zr_damaged(struct zread *z, const char *what, char *err, size_t errlen)
{
	z->ended = true;
	snprintf(z->damage, sizeof(z->damage), "%s: %s: %s", z->path, zread_format(z), what);
	if (z->dec_pos > 0)
		return 0;
	snprintf(err, errlen, "%s", z->damage);
	return -1;
}

/* Up to n expanded bytes: > 0, 0 when nothing more is there (now), or -1. */
static ssize_t zr_zstd(struct zread *z, char *buf, size_t n, char *err, size_t errlen)
{
	for (;;) {
		if (zr_fill(z, err, errlen) != 0)
			return -1;
		ZSTD_inBuffer ib = {z->in, z->in_len, z->in_off};
		ZSTD_outBuffer ob = {buf, n, 0};
		size_t zr = ZSTD_decompressStream(z->zs, &ob, &ib);
		z->in_off = ib.pos;
		z->dec_pos += ob.pos;
		if (ZSTD_isError(zr))
			return ob.pos ? (ssize_t)ob.pos
				      : zr_damaged(z, ZSTD_getErrorName(zr), err, errlen);
		if (zr == 0)
			zr_restart_here(z); /* a frame ended: the next starts here */
		if (ob.pos)
			return (ssize_t)ob.pos;
		if (z->in_eof)
			return 0; /* the end; or a frame cut short, its flushed blocks out */
	}
}

static ssize_t zr_gzip(struct zread *z, char *buf, size_t n, char *err, size_t errlen)
{
	for (;;) {
		if (zr_fill(z, err, errlen) != 0)
			return -1;
		if (z->member_end) {
			if (z->in_off == z->in_len)
				return 0; /* the last member (so far) */
			/* Trailing bytes that are no gzip member are ignored, as gzip does. */
			if (z->in_len - z->in_off < 2 || memcmp(z->in + z->in_off, "\x1f\x8b", 2) ||
			    inflateReset(&z->z) != Z_OK) {
				z->ended = true;
				return 0;
			}
			z->member_end = false;
			zr_restart_here(z);
		}
		z->z.next_in = z->in + z->in_off;
		z->z.avail_in = (uInt)(z->in_len - z->in_off);
		z->z.next_out = (unsigned char *)buf;
		z->z.avail_out = (uInt)n;
		int zr = inflate(&z->z, Z_NO_FLUSH);
		size_t got = n - z->z.avail_out;
		z->in_off = z->in_len - z->z.avail_in;
		z->dec_pos += got;
		if (zr == Z_STREAM_END)
			z->member_end = true;
		else if (zr != Z_OK && zr != Z_BUF_ERROR)
			return got ? (ssize_t)got
				   : zr_damaged(z, z->z.msg ? z->z.msg : "corrupt data", err,
						errlen);
		if (got)
			return (ssize_t)got;
		if (!z->member_end && z->in_eof)
			return 0; /* cut short: all the flushed blocks are out */
	}
}

static ssize_t zr_plain(struct zread *z, char *buf, size_t n, char *err, size_t errlen)
{
	ssize_t got;
	do
		got = pread(z->fd, buf, n, (off_t)z->dec_pos);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		snprintf(err, errlen, "%s: %s", z->path, strerror(errno));
	else
		z->dec_pos += (uint64_t)got;
	return got;
}

/* Following, nothing more there: 0 to read on, 1 to end, or ZREAD_TRUNCATED. */
static int zr_wait(struct zread *z, char *err, size_t errlen)
{
	struct stat st;
	uint64_t have = z->kind == ZR_PLAIN ? z->dec_pos : z->in_pos;
	if (fstat(z->fd, &st) == 0 && (uint64_t)st.st_size < have) {
		snprintf(err, errlen, "%s: truncated (a writer started it again)", z->path);
		return ZREAD_TRUNCATED;
	}
	z->in_eof = false; /* look again on the next read */
	if (z->kind == ZR_UNKNOWN && (zr_detect(z, false), z->kind != ZR_UNKNOWN))
		return zr_start_at(z, 0, 0, err, errlen);
	return z->wait(z, z->arg) ? 1 : 0;
}

/* Up to n expanded bytes within the caps: > 0, 0 at the end, or < 0 with a message. */
static ssize_t zr_decode(struct zread *z, char *buf, size_t n, char *err, size_t errlen)
{
	for (;;) {
		ssize_t got = z->ended		    ? 0
			      : z->kind == ZR_ZSTD  ? zr_zstd(z, buf, n, err, errlen)
			      : z->kind == ZR_GZIP  ? zr_gzip(z, buf, n, err, errlen)
			      : z->kind == ZR_PLAIN ? zr_plain(z, buf, n, err, errlen)
						    : 0;
		if (got > 0 && zr_caps(z, err, errlen) != 0)
			return -1;
		if (got != 0 || !z->wait)
			return got;
		int w = zr_wait(z, err, errlen);
		if (w != 0)
			return w > 0 ? 0 : w;
	}
}

int zread_seek(struct zread *z, uint64_t off, char *err, size_t errlen)
{
	if (zr_reopen(z, err, errlen) != 0)
		return -1;
	if (z->kind == ZR_UNKNOWN)
		zr_detect(z, !z->wait);
	z->line_len = 0;
	z->skipping = false;
	uint64_t base = z->dec_pos - z->win_len;
	if (z->live && off >= base && off <= z->dec_pos) {
		z->win_off = (size_t)(off - base);
		return 0;
	}
	/* The last restart point at or before off; the cursor itself when it is nearer. */
	struct zr_restart from = {0, z->kind == ZR_PLAIN ? off : 0};
	size_t lo = 0, hi = z->nrs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (z->rs[mid].out_off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo)
		from = z->rs[lo - 1];
	if (!(z->live && z->dec_pos <= off && z->dec_pos >= from.out_off) &&
	    zr_start_at(z, from.in_off, from.out_off, err, errlen) != 0)
		return -1;
	while (z->dec_pos < off) {
		z->win_len = z->win_off = 0;
		ssize_t got = zr_decode(z, z->win, ZR_CHUNK, err, errlen);
		if (got < 0)
			return -1;
		if (got == 0) {
			snprintf(err, errlen, "%s: ends before offset %llu", z->path,
				 (unsigned long long)off);
			return -1;
		}
		z->win_len = (size_t)got;
	}
	z->win_off = z->win_len - (size_t)(z->dec_pos - off);
	return 0;
}

static void zr_append(struct zread *z, const char *s, size_t n)
{
	if (z->line_len + n > z->line_cap) {
		z->line_cap = (z->line_len + n) * 2;
		z->line = xrealloc(z->line, z->line_cap);
	}
	memcpy(z->line + z->line_len, s, n);
	z->line_len += n;
}

int zread_line(struct zread *z, const char **line, size_t *len, char *err, size_t errlen)
{
	if (!z->live && zread_seek(z, z->idle_pos, err, errlen) != 0)
		return -1;
	size_t cap = z->lim->max_line;
	if (z->given)
		z->line_len = 0;
	z->given = true;
	for (;;) {
		if (z->win_off == z->win_len) {
			z->win_len = z->win_off = 0;
			ssize_t got = zr_decode(z, z->win, ZR_CHUNK, err, errlen);
			if (got < 0)
				return (int)got;
			if (got == 0 && (!z->line_len || z->wait)) {
				z->given = false; /* following: a cut line is kept until it ends */
				return 0;
			}
			if (got == 0)
				break; /* a last line without its newline */
			z->win_len = (size_t)got;
		}
		char *s = z->win + z->win_off, *nl = memchr(s, '\n', z->win_len - z->win_off);
		size_t seg = nl ? (size_t)(nl - s) + 1 : z->win_len - z->win_off;
		z->win_off += seg;
		if (z->skipping) {
			z->skipping = !nl;
			continue;
		}
		if (cap && z->line_len + seg - (nl != NULL) > cap) {
			char a[32];
			zr_size(a, sizeof(a), cap);
			snprintf(err, errlen, "%s: line %llu is longer than the cap of %s", z->path,
				 (unsigned long long)++z->lineno, a);
			z->skipping = !nl;
			z->line_len = 0;
			return ZREAD_LONG;
		}
		if (nl && !z->line_len) {
			*line = s; /* the whole line in the window: not copied */
			*len = seg;
			z->lineno++;
			return 1;
		}
		zr_append(z, s, seg);
		if (nl)
			break;
	}
	*line = z->line;
	*len = z->line_len;
	z->lineno++;
	return 1;
}

int safefile_read(const char *path, const struct safefile_limits *lim, char **buf, size_t *len,
		  char *err, size_t errlen)
{
	struct zread *z;
	int rc = zread_open(path, lim, &z, err, errlen);
	if (rc != 0)
		return rc;
	if (errlen)
		err[0] = '\0'; /* a corrupt later part is said here even on success */
	char *p = NULL;
	size_t n = 0, cap = 0, ll;
	const char *line;
	while ((rc = zread_line(z, &line, &ll, err, errlen)) > 0) {
		if (n + ll + 1 > cap) {
			cap = (n + ll + 1) * 2;
			if (cap - 1 > lim->max_bytes) /* the caps hold n + ll within max_bytes */
				cap = lim->max_bytes + 1 > n + ll + 1 ? lim->max_bytes + 1
								      : n + ll + 1;
			p = xrealloc(p, cap);
		}
		memcpy(p + n, line, ll);
		n += ll;
	}
	if (rc == 0 && zread_damage(z)[0])
		snprintf(err, errlen, "%s", zread_damage(z));
	zread_close(z);
	if (rc != 0) {
		free(p);
		return -1;
	}
	*buf = p ? p : xcalloc(1, 1);
	(*buf)[n] = '\0';
	*len = n;
	return 0;
}

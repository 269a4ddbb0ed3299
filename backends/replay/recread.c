/* SPDX-License-Identifier: GPL-2.0-or-later */
/* recread.c: a recording streamed (plain, gzip via zlib, zstd via libzstd) with restart
 * points, within core/safefile.h's caps for recordings. */
#include "backends/replay/recread.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "core/safefile.h"
#include "core/xalloc.h"

/* The compressed bytes read from the file at a time. */
#define RECREAD_CHUNK (1u << 16)
/* Restart points kept: one per 60-line frame is 60 an hour; a hostile file of tiny frames
 * stops adding them here (a seek then expands further, memory stays bounded). */
#define RECREAD_MAX_RESTARTS 65536

enum recread_kind { RR_PLAIN, RR_GZIP, RR_ZSTD };

struct recread_restart {
	uint64_t in_off, out_off; /* a frame or member starts at in_off and expands from out_off */
};

struct recread {
	int fd; /* -1 while idle: opened again by path, and checked to be the same file */
	dev_t dev;
	ino_t ino;
	char *path;
	enum recread_kind kind;
	uint64_t size; /* the file's bytes at open */
	uint64_t out_pos; /* the cursor: expanded bytes before it */
	uint64_t in_pos; /* the file offset of the next chunk */
	unsigned char *in; /* the chunk being decoded: in[in_off..in_len) is left */
	size_t in_len, in_off;
	bool in_eof; /* the file has no more bytes */
	bool live; /* the decoder below holds state for the cursor */
	bool member_end; /* gzip: a member ended; what follows is another one or nothing */
	bool ended; /* no more bytes: the end, a cut, or damage */
	z_stream z;
	ZSTD_DStream *zs;
	struct recread_restart *rs;
	size_t nrs, caprs;
	char damage[300];
};

static const unsigned char rr_gz_magic[2] = {0x1f, 0x8b};
static const unsigned char rr_zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};

int recread_open(const char *path, struct recread **out, char *err, size_t errlen)
{
	int fd = safefile_open_read(path, err, errlen);
	if (fd < 0)
		return fd;
	struct stat st;
	unsigned char magic[4];
	ssize_t m = fstat(fd, &st) == 0 ? pread(fd, magic, sizeof(magic), 0) : -1;
	if (m < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if ((uint64_t)st.st_size > SAFEFILE_REC_MAX_BYTES) {
		snprintf(err, errlen, "%s: is larger than the cap of %zu GiB", path,
			 SAFEFILE_REC_MAX_BYTES >> 30);
		close(fd);
		return -1;
	}
	struct recread *r = xcalloc(1, sizeof(*r));
	r->fd = fd;
	r->dev = st.st_dev;
	r->ino = st.st_ino;
	r->path = xstrdup(path);
	r->size = (uint64_t)st.st_size;
	r->kind = m >= 2 && memcmp(magic, rr_gz_magic, 2) == 0	   ? RR_GZIP
		  : m >= 4 && memcmp(magic, rr_zstd_magic, 4) == 0 ? RR_ZSTD
								   : RR_PLAIN;
	*out = r;
	return 0;
}

const char *recread_format(const struct recread *r)
{
	return r->kind == RR_GZIP ? "gzip" : r->kind == RR_ZSTD ? "zstd" : NULL;
}

const char *recread_damage(const struct recread *r)
{
	return r->damage;
}

size_t recread_restarts(const struct recread *r)
{
	return r->nrs;
}

uint64_t recread_tell(const struct recread *r)
{
	return r->out_pos;
}

uint64_t recread_in_bytes(const struct recread *r)
{
	if (r->kind == RR_PLAIN)
		return r->out_pos;
	return r->in_pos - (uint64_t)(r->in_len - r->in_off);
}

void recread_idle(struct recread *r)
{
	if (r->zs)
		ZSTD_freeDStream(r->zs);
	r->zs = NULL;
	if (r->kind == RR_GZIP && r->z.state)
		inflateEnd(&r->z);
	memset(&r->z, 0, sizeof(r->z));
	free(r->in);
	r->in = NULL;
	r->live = false;
	/* A store of thousands of files is read with one or two of them open at a time. */
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

/* The file open again after recread_idle: 0, or -1 when it is gone or is another file now. */
static int recread_reopen(struct recread *r, char *err, size_t errlen)
{
	struct stat st;
	if (r->fd >= 0)
		return 0;
	int fd = safefile_open_read(r->path, err, errlen);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || st.st_dev != r->dev || st.st_ino != r->ino) {
		snprintf(err, errlen, "%s: replaced since it was opened", r->path);
		close(fd);
		return -1;
	}
	r->fd = fd;
	return 0;
}

void recread_close(struct recread *r)
{
	if (!r)
		return;
	recread_idle(r);
	free(r->rs);
	free(r->path);
	free(r);
}

/* Remember that a frame or member starts at the compressed offset now consumed. */
static void recread_restart_here(struct recread *r)
{
	uint64_t in = recread_in_bytes(r);
	if (r->nrs && r->rs[r->nrs - 1].out_off >= r->out_pos)
		return; /* known already (read again after a seek), or an empty frame */
	if (r->nrs == RECREAD_MAX_RESTARTS)
		return;
	if (r->nrs == r->caprs) {
		r->caprs = r->caprs ? r->caprs * 2 : 64;
		r->rs = xreallocarray(r->rs, r->caprs, sizeof(*r->rs));
	}
	r->rs[r->nrs++] = (struct recread_restart){in, r->out_pos};
}

/* Start decoding at compressed offset in_off, which expands from out_off. */
static int recread_start_at(struct recread *r, uint64_t in_off, uint64_t out_off, char *err,
			    size_t errlen)
{
	if (!r->in)
		r->in = xmalloc(RECREAD_CHUNK);
	r->in_pos = in_off;
	r->in_len = r->in_off = 0;
	r->in_eof = false;
	r->member_end = false;
	r->ended = false;
	r->out_pos = out_off;
	if (r->kind == RR_ZSTD) {
		if (!r->zs)
			r->zs = ZSTD_createDStream();
		if (!r->zs || ZSTD_isError(ZSTD_DCtx_reset(r->zs, ZSTD_reset_session_only))) {
			snprintf(err, errlen, "%s: zstd: cannot start", r->path);
			return -1;
		}
	} else if (r->kind == RR_GZIP) {
		int zr = r->z.state ? inflateReset(&r->z) : inflateInit2(&r->z, 15 + 16);
		if (zr != Z_OK) {
			snprintf(err, errlen, "%s: zlib: cannot start", r->path);
			return -1;
		}
	}
	r->live = true;
	return 0;
}

/* More compressed bytes when the chunk is used up: 0 (in_eof at the end), or -1. */
static int recread_fill(struct recread *r, char *err, size_t errlen)
{
	if (r->in_off < r->in_len || r->in_eof)
		return 0;
	if (recread_reopen(r, err, errlen) != 0)
		return -1;
	ssize_t n;
	do
		n = pread(r->fd, r->in, RECREAD_CHUNK, (off_t)r->in_pos);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		snprintf(err, errlen, "%s: %s", r->path, strerror(errno));
		return -1;
	}
	r->in_len = (size_t)n;
	r->in_off = 0;
	r->in_pos += (uint64_t)n;
	r->in_eof = n == 0;
	return 0;
}

/* The caps safefile_read applies to what a stream expands to (core/safefile.h). */
static int recread_caps(struct recread *r, char *err, size_t errlen)
{
	const struct safefile_limits *lim = &safefile_recording;
	if (r->out_pos > lim->max_bytes) {
		snprintf(err, errlen, "%s: expands past the cap of %zu GiB", r->path,
			 lim->max_bytes >> 30);
		return -1;
	}
	unsigned ratio = r->kind == RR_GZIP ? lim->gz_ratio : lim->zstd_ratio;
	uint64_t in = recread_in_bytes(r);
	if (ratio && r->out_pos > lim->ratio_floor && r->out_pos / ratio > (in ? in : 1)) {
		snprintf(err, errlen,
			 "%s: expands to more than %u times its compressed size (the caps for %s: "
			 "%ux its size, %zu GiB in all)",
			 r->path, ratio, recread_format(r), ratio, lim->max_bytes >> 30);
		return -1;
	}
	return 0;
}

/* A stream corrupt from here on: what came before stands (-1 only when nothing came). */
static ssize_t recread_damaged(struct recread *r, const char *what, char *err, size_t errlen)
{
	r->ended = true;
	snprintf(r->damage, sizeof(r->damage), "%s: %s: %s", r->path, recread_format(r), what);
	if (r->out_pos > 0)
		return 0;
	snprintf(err, errlen, "%s", r->damage);
	return -1;
}

static ssize_t recread_zstd(struct recread *r, void *buf, size_t n, char *err, size_t errlen)
{
	for (;;) {
		if (recread_fill(r, err, errlen) != 0)
			return -1;
		ZSTD_inBuffer ib = {r->in, r->in_len, r->in_off};
		ZSTD_outBuffer ob = {buf, n, 0};
		size_t zr = ZSTD_decompressStream(r->zs, &ob, &ib);
		r->in_off = ib.pos;
		r->out_pos += ob.pos;
		if (ZSTD_isError(zr))
			return ob.pos ? (ssize_t)ob.pos
				      : recread_damaged(r, ZSTD_getErrorName(zr), err, errlen);
		if (zr == 0)
			recread_restart_here(r); /* a frame ended: the next starts here */
		if (ob.pos)
			return (ssize_t)ob.pos;
		if (r->in_eof) {
			r->ended = true; /* the end; or a frame cut short, its flushed blocks out */
			return 0;
		}
	}
}

static ssize_t recread_gzip(struct recread *r, void *buf, size_t n, char *err, size_t errlen)
{
	for (;;) {
		if (recread_fill(r, err, errlen) != 0)
			return -1;
		if (r->member_end) {
			if (r->in_off == r->in_len) {
				r->ended = true; /* the last member */
				return 0;
			}
			/* Trailing bytes that are no gzip member are ignored, as gzip does. */
			if (r->in_len - r->in_off < 2 ||
			    memcmp(r->in + r->in_off, rr_gz_magic, 2) != 0 ||
			    inflateReset(&r->z) != Z_OK) {
				r->ended = true;
				return 0;
			}
			r->member_end = false;
			recread_restart_here(r);
		}
		r->z.next_in = r->in + r->in_off;
		r->z.avail_in = (uInt)(r->in_len - r->in_off);
		r->z.next_out = buf;
		r->z.avail_out = (uInt)(n > (1u << 30) ? (1u << 30) : n);
		uInt out0 = r->z.avail_out;
		int zr = inflate(&r->z, Z_NO_FLUSH);
		size_t got = out0 - r->z.avail_out;
		r->in_off = r->in_len - r->z.avail_in;
		r->out_pos += got;
		if (zr == Z_STREAM_END)
			r->member_end = true;
		else if (zr != Z_OK && zr != Z_BUF_ERROR)
			return got ? (ssize_t)got
				   : recread_damaged(r, r->z.msg ? r->z.msg : "corrupt data", err,
						     errlen);
		if (got)
			return (ssize_t)got;
		if (!r->member_end && r->in_eof) {
			r->ended = true; /* cut short: all the flushed blocks are out */
			return 0;
		}
	}
}

ssize_t recread_read(struct recread *r, void *buf, size_t n, char *err, size_t errlen)
{
	if (n == 0)
		return 0;
	if (r->kind == RR_PLAIN) {
		ssize_t got;
		if (recread_reopen(r, err, errlen) != 0)
			return -1;
		do
			got = pread(r->fd, buf, n, (off_t)r->out_pos);
		while (got < 0 && errno == EINTR);
		if (got < 0) {
			snprintf(err, errlen, "%s: %s", r->path, strerror(errno));
			return -1;
		}
		r->out_pos += (uint64_t)got;
		return got;
	}
	if (!r->live && recread_seek(r, r->out_pos, err, errlen) != 0)
		return -1;
	if (r->ended)
		return 0;
	ssize_t got = r->kind == RR_ZSTD ? recread_zstd(r, buf, n, err, errlen)
					 : recread_gzip(r, buf, n, err, errlen);
	if (got > 0 && recread_caps(r, err, errlen) != 0)
		return -1;
	return got;
}

int recread_seek(struct recread *r, uint64_t off, char *err, size_t errlen)
{
	if (r->kind == RR_PLAIN) {
		r->out_pos = off;
		return 0;
	}
	/* The last restart point at or before off; the cursor itself when it is nearer. */
	struct recread_restart from = {0, 0};
	size_t lo = 0, hi = r->nrs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->rs[mid].out_off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo)
		from = r->rs[lo - 1];
	if (!(r->live && r->out_pos <= off && r->out_pos >= from.out_off) &&
	    recread_start_at(r, from.in_off, from.out_off, err, errlen) != 0)
		return -1;
	char scratch[1u << 14];
	while (r->out_pos < off) {
		uint64_t want = off - r->out_pos;
		ssize_t got = recread_read(
		    r, scratch, want < sizeof(scratch) ? want : sizeof(scratch), err, errlen);
		if (got < 0)
			return -1;
		if (got == 0) {
			snprintf(err, errlen, "%s: ends before offset %llu", r->path,
				 (unsigned long long)off);
			return -1;
		}
	}
	return 0;
}

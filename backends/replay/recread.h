/* SPDX-License-Identifier: GPL-2.0-or-later */
/* recread.h: a recording read as a stream of its expanded bytes, a chunk at a time, and
 * read again from an earlier place: so replay holds neither the file nor its text whole. */
#ifndef TT_RECREAD_H
#define TT_RECREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * What a reader is: a file opened through core/safefile.h (regular files only), plain or
 * compressed by its magic (gzip members one after another, zstd frames one after another,
 * whatever its name), and a cursor into what it expands to. The compressed stream is read
 * from the file a chunk at a time; the decoder's state lives only while bytes are read
 * (recread_idle() frees it between uses).
 *
 * Going back: each zstd frame and gzip member that starts after the first is remembered
 * as a restart point (tunetop's writer ends a zstd frame every RECREAD_FRAME_LINES lines,
 * backends/replay/recfile.c), so a seek expands at most from the restart point before the place
 * asked for; a stream of one frame (zstd or gzip from the command line) expands from the
 * start. Plain files seek directly.
 *
 * Damage: a stream cut short (its writer died) ends where its flushed blocks end; one whose
 * later part is corrupt (a frame's checksum, a bad block) ends before it, and
 * recread_damage() says what was wrong, as core/safefile.h's whole reads do.
 */
struct recread;

/* Lines per zstd frame that tunetop's recorder writes (a restart point each). */
#define RECREAD_FRAME_LINES 60

/* 0 and *out, or -1 / SAFEFILE_REFUSED (not a regular file) with a message. */
int recread_open(const char *path, struct recread **out, char *err, size_t errlen);
/* Up to n expanded bytes from the cursor: > 0, 0 at the end (see recread_damage()), or -1
 * with a message (a read error; or the stream corrupt before anything came). */
ssize_t recread_read(struct recread *r, void *buf, size_t n, char *err, size_t errlen);
/* Put the cursor at expanded offset off (one recread_read() reached before). 0, or -1. */
int recread_seek(struct recread *r, uint64_t off, char *err, size_t errlen);
/* The cursor, and the compressed bytes consumed to reach it (the file's bytes if plain). */
uint64_t recread_tell(const struct recread *r);
uint64_t recread_in_bytes(const struct recread *r);
/* "gzip", "zstd", or NULL for a plain file. */
const char *recread_format(const struct recread *r);
/* "" or what ended the stream early ("FILE: zstd: Restored data doesn't match checksum"). */
const char *recread_damage(const struct recread *r);
/* Restart points known (frames or members after the first), for tests and the bench. */
size_t recread_restarts(const struct recread *r);
/* Free the decoder's state and close the file until the next read, which opens it again by
 * its path (and fails when that is another file now). */
void recread_idle(struct recread *r);
void recread_close(struct recread *r);

#endif

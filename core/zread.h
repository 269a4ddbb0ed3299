/* SPDX-License-Identifier: GPL-2.0-or-later */
/* zread.h: the one capped reader of files tunetop reads in lines (settings, web config,
 * recordings whole, played, indexed or followed): plain, or gzip/zstd found by their magic. */
#ifndef TT_ZREAD_H
#define TT_ZREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/safefile.h"

/*
 * A reader is a file opened through core/safefile.h (regular files only) and a cursor into
 * what it expands to (gzip members one after another, zstd frames one after another, whatever
 * its name), read a line at a time within the caps of a struct safefile_limits: its expanded
 * bytes, the ratio of expanded to compressed bytes and a line's length, each an error that
 * names the cap. The compressed stream is read a chunk at a time, so memory is a chunk, a line
 * and the restart points.
 *
 * Going back: each zstd frame and gzip member that starts after the first is a restart point
 * (tunetop's writer ends a zstd frame every RECFILE_FRAME_LINES lines), so a seek expands at most
 * from the restart point before the place asked for; a stream of one frame expands from the
 * start. Plain files seek directly.
 *
 * Damage: a stream cut short (its writer died) ends where its flushed blocks end; one whose
 * later part is corrupt (a frame's checksum, a bad block) ends before it and zread_damage()
 * says what was wrong ("FILE: zstd: Restored data doesn't match checksum"); corrupt before
 * anything came, it is an error.
 *
 * Following (zread_follow): at the end the reader asks wait() (which may sleep, bounded) and
 * reads on from where it was; when wait() says to stop, zread_line gives 0 and a later call
 * reads on, a line cut by the end kept until it ends. Damage then waits the same way. A file
 * shorter than what was read (a writer started it again) is ZREAD_TRUNCATED.
 */
struct zread;

#define ZREAD_LONG (-3) /* the line was longer than the cap; the next call skips to its end */
#define ZREAD_TRUNCATED (-4) /* following: the file shrank */

/* 0 and *out, or -1 / SAFEFILE_REFUSED with a message. lim is kept (a static table). */
int zread_open(const char *path, const struct safefile_limits *lim, struct zread **out, char *err,
	       size_t errlen);
/* Follow: wait(z, arg) at the end, true to stop reading for now (zread_line gives 0). */
void zread_follow(struct zread *z, bool (*wait)(struct zread *z, void *arg), void *arg);
/* The next line with its '\n' (none on a last line that has none): 1, *line valid until the
 * next call; 0 at the end; -1, ZREAD_LONG or ZREAD_TRUNCATED with a message. */
int zread_line(struct zread *z, const char **line, size_t *len, char *err, size_t errlen);
/* The cursor (expanded offset of the next line); put it at off (reached before). 0, or -1. */
uint64_t zread_tell(const struct zread *z);
int zread_seek(struct zread *z, uint64_t off, char *err, size_t errlen);
/* "gzip", "zstd", or NULL for a plain file. */
const char *zread_format(const struct zread *z);
/* "" or what ended the stream early. */
const char *zread_damage(const struct zread *z);
/* Restart points known (frames or members after the first), for tests. */
size_t zread_restarts(const struct zread *z);
/* Free the decoder's state and close the file until the next read, which opens it again by
 * its path (and fails when that is another file now). */
void zread_idle(struct zread *z);
void zread_close(struct zread *z);

#endif

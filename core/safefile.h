/* SPDX-License-Identifier: GPL-2.0-or-later */
/* safefile.h: the one way tunetop opens a file to write (atomic replacement or a stream) or to
 * read (regular files only, with caps on a line and on what a compressed file expands to). */
#ifndef TT_SAFEFILE_H
#define TT_SAFEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * What every function here promises (docs/design.md "Files"):
 * - A write target is refused, before anything is created or truncated, when it is a
 *   symlink (dangling or not), a directory, a FIFO, a socket, a device or a file under /proc
 *   or /sys, or its directory's path holds a symlink neither we nor root own; a stream's
 *   existing file is refused when another user owns it. The message is "PATH: is a symlink" (a
 * FIFO, ...), the return SAFEFILE_REFUSED; a caller that got PATH from the command line exits with
 * status 2. The final name is opened with O_NOFOLLOW and checked again with fstat on that
 * descriptor, so a swap between the check and the open is refused too. A FIFO never blocks the open
 * (O_NONBLOCK).
 * - A replaced file is written to a temporary file made with O_CREAT|O_EXCL|O_NOFOLLOW under a
 *   random name in the target's own directory, then renamed over the target: a reader sees
 *   the old file or the new one, and a name planted by another user is skipped, never
 *   followed. Nothing is left behind on failure.
 * - A read file is a regular file (a FIFO, a device or a directory is refused without
 *   blocking: "PATH: a FIFO, not a regular file", SAFEFILE_REFUSED), no larger than the
 *   limits say, with no line longer than a limit, and a .gz/.zst stream (found by its magic)
 *   expands to no more than a ratio of its compressed size nor an absolute cap; the error
 *   names the cap that was hit.
 * Other failures return -1 with "PATH: strerror" in err. Descriptors are O_CLOEXEC.
 */

/* A target that is refused for what it is (a usage error to the caller), not an I/O error. */
#define SAFEFILE_REFUSED (-2)

/* Flags for the write side. */
#define SAFEFILE_DEVNULL_OK 1u /* /dev/null itself is a fine target (writes are discarded) */
#define SAFEFILE_APPEND 2u /* a stream: keep what the file holds (default: truncate) */
/* A stream: take flock(LOCK_EX) on it before truncating, and refuse ("PATH: another process
 * is writing it") when another process holds one: two recorders never share a file. The lock
 * lasts as long as the descriptor. */
#define SAFEFILE_LOCK 4u

/* Check a would-be target now (before any work): 0 when it may be written (it exists as a
 * regular file, or does not exist in an existing directory), else as above. */
int safefile_check_target(const char *path, unsigned flags, char *err, size_t errlen);

/* Open a target to stream into (recordings, -o JSON): a descriptor, truncated unless
 * SAFEFILE_APPEND, blocking again after the checks; or -1 / SAFEFILE_REFUSED. */
int safefile_open_stream(const char *path, unsigned flags, char *err, size_t errlen);

/* An atomic replacement under way: write to fd, then commit or abort. */
struct safefile_tmp {
	int fd; /* the temporary file, open for writing */
	int dirfd; /* the target's directory */
	char *base; /* the target's name in dirfd */
	char *path; /* the target as given, for messages */
	char tmp[96]; /* the temporary file's name in dirfd */
};
int safefile_replace_begin(struct safefile_tmp *t, const char *path, char *err, size_t errlen);
/* Close and rename over the target; 0 or -1 with a message. Frees t either way. */
int safefile_replace_commit(struct safefile_tmp *t, char *err, size_t errlen);
/* Drop the temporary file, leave the target as it was. */
void safefile_replace_abort(struct safefile_tmp *t);
/* The three above for a text in memory. */
int safefile_replace(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* Write all of data to fd (EINTR retried); 0, or -1 with errno set. */
int safefile_write_all(int fd, const void *data, size_t len);

/* Open directory dir as the write side does for a target's directory: a symlink among its
 * components is followed only when we or root own it. A descriptor, or -1 / SAFEFILE_REFUSED. */
int safefile_open_dir(const char *dir, char *err, size_t errlen);

/* Open a file to read: a descriptor on a regular file, or -1 / SAFEFILE_REFUSED. */
int safefile_open_read(const char *path, char *err, size_t errlen);
/* The same, a symlink refused too (O_NOFOLLOW, so one swapped in after a check is). */
int safefile_open_read_nofollow(const char *path, char *err, size_t errlen);

/* The caps of safefile_read. */
struct safefile_limits {
	size_t max_bytes; /* the file, and what it expands to */
	size_t max_line; /* the longest line (0: no line cap) */
	unsigned gz_ratio; /* expanded / compressed bytes of gzip, once past ratio_floor */
	unsigned zstd_ratio; /* the same for zstd (0: no ratio cap) */
	size_t ratio_floor; /* below this many expanded bytes the ratio is not checked */
	bool decompress; /* gzip and zstd streams are expanded (by their magic) */
	bool no_symlink; /* a symlink as the last component is refused ("PATH: is a symlink") */
};

/*
 * Recordings: a real hour at 1 Hz is 21.5 MB of JSON (the engine's default scenario; a host's
 * 45.7 MB), which tunetop's zstd writer packs 12.6x (31x), zstd -19 22x, gzip 14x
 * (docs/recording.md "Sizes per hour"); an hour that repeats 20 snapshots packs 277x to 708x
 * and a file of nothing but newlines 218x (gzip -1) and 32000x (zstd), so the ratio caps sit
 * far above any real recording. The absolute cap is about 50 default hours (23 host hours);
 * 16 MiB lines are twice the longest line any reader accepts.
 */
#define SAFEFILE_LINE_MAX (16u << 20)
#define SAFEFILE_REC_MAX_BYTES ((size_t)1 << 30)
#define SAFEFILE_REC_GZ_RATIO 100u
#define SAFEFILE_REC_ZSTD_RATIO 4000u
#define SAFEFILE_REC_RATIO_FLOOR ((size_t)16 << 20)
extern const struct safefile_limits safefile_recording;

/*
 * Read path whole into *buf (NUL-terminated, free() it) and *len, within lim. A compressed
 * stream cut short (its writer died) gives what it had flushed; so does one whose later part
 * is corrupt (a zstd frame's checksum, a bad block), when something came before: then err
 * says so though 0 is returned ("" otherwise). 0, or -1 / SAFEFILE_REFUSED with a message.
 */
int safefile_read(const char *path, const struct safefile_limits *lim, char **buf, size_t *len,
		  char *err, size_t errlen);

#endif

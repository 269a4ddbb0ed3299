/* SPDX-License-Identifier: GPL-2.0-or-later */
/* recstore.h: a recording store: a directory of zstd files named by their start time (UTC),
 * rotated hourly or by size, with retention by age and total size (docs/recording.md). */
#ifndef TT_RECSTORE_H
#define TT_RECSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "tunetop-20261202-104200.jsonl.zst": the names sort as their times do. */
#define RECSTORE_PREFIX "tunetop-"
#define RECSTORE_SUFFIX ".jsonl.zst"
#define RECSTORE_NAME_LEN 48 /* with a _NNN and the NUL */

/* Defaults of --record-rotate (1h), --record-keep (28d, as atop keeps 28 daily files). */
#define RECSTORE_ROTATE_S_DEF 3600
#define RECSTORE_KEEP_S_DEF (28 * 86400)

struct recstore_conf {
	const char *dir;
	uint64_t rotate_s; /* a new file when the wall clock crosses a multiple of this (0: no) */
	uint64_t rotate_bytes; /* a new file past this many compressed bytes (0: no) */
	uint64_t keep_s; /* delete files older than this (0: keep) */
	uint64_t max_bytes; /* delete the oldest while the store is larger (0: no cap) */
};

/* "20KB", "5MiB", "1G", "300000": bytes (K/M/G are 1024-based); -1 when not a size. */
int recstore_parse_size(const char *s, uint64_t *out);
/* "90s", "30m", "1h", "28d", "120": seconds; -1 when not an age. */
int recstore_parse_age(const char *s, uint64_t *out);
/* --record-rotate: an age ("1h") or a size ("20KB"): sets one of the two in c. */
int recstore_parse_rotate(const char *s, struct recstore_conf *c);

/* A store name's start time (UTC seconds since the epoch); 0 when it is not one. */
uint64_t recstore_name_time(const char *name);
/* The name of a file started at wall_ns (UTC). */
void recstore_name(uint64_t wall_ns, char *buf, size_t len);

/*
 * Make sure dir is a store we may write: created 0750 when missing (its parent must exist),
 * refused (SAFEFILE_REFUSED) when it is a symlink, not a directory, not owned by us (when
 * create), or writable by group or others.
 * 0 or -1 / SAFEFILE_REFUSED with a message.
 */
int recstore_check_dir(const char *dir, bool create, char *err, size_t errlen);

/* The store's file names, sorted (oldest first); *names (free each and it) and *n. Only
 * regular files: entries of a store file's name that are not (a symlink, a FIFO, a folder)
 * are left out and counted in *odd (when odd is not NULL). */
int recstore_list(const char *dir, char ***names, size_t *n, size_t *odd, char *err, size_t errlen);
void recstore_names_free(char **names, size_t n);

/* Delete the oldest files past c's age (by their names' times, against now_ns) and total
 * size (with room left for a file rotated by size to grow to its limit), never keep (the
 * file being written) or a newer one. Returns how many went. */
int recstore_retain(const struct recstore_conf *c, uint64_t now_ns, const char *keep);

#endif

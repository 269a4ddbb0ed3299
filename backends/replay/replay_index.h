/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay_index.h: where each snapshot of a recording is, found in one pass without decoding
 * it: replay opens a recording of any length at once and holds only this index. */
#ifndef TT_REPLAY_INDEX_H
#define TT_REPLAY_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/zread.h"

/* One line that looks like a snapshot: its place in file `file`'s expanded text, and the
 * figures replay paces and seeks by. */
struct replay_line {
	uint64_t off;
	uint32_t len; /* at most SAFEFILE_LINE_MAX */
	uint32_t file;
	uint64_t wall_ns;
	double interval_s;
};

struct replay_index {
	struct replay_line *lines;
	size_t n, cap;
	uint64_t skipped; /* lines that are no snapshot */
	char first_skip[160]; /* why the first was skipped */
	uint64_t lineno; /* lines read so far, all files (for messages) */
};

/*
 * Read rd from its start to its end and append file `file`'s snapshot lines to ix. A line is taken
 * when it is a JSON object (starts with '{', ends with '}') whose top-level "schema" is 1; its
 * top-level "time" and "interval_s" are read from its first REPLAY_INDEX_HEAD bytes (tunetop writes
 * them first). Anything else is counted as skipped, with the reason. Whether the whole line decodes
 * is learnt when it is played. The line cap (core/safefile.h) and the reader's caps are errors: -1
 * with a message. *bytes: the expanded size.
 */
#define REPLAY_INDEX_HEAD 1024
int replay_index_file(struct zread *rd, uint32_t file, struct replay_index *ix, uint64_t *bytes,
		      char *err, size_t errlen);
/* The same a step at a time, from rd's cursor (a reader of the index's own): on until ix holds
 * more than want lines and `ahead` more bytes were read, or rd ends (*done; damage is
 * zread_damage's). 0, or -1 with a message. */
int replay_index_more(struct zread *rd, uint32_t file, struct replay_index *ix, size_t want,
		      uint64_t ahead, bool *done, char *err, size_t errlen);
/* The top-level fields of one line's head (exposed for tests). 0, or -1 with why. */
int replay_index_peek(const char *head, size_t len, uint64_t *wall_ns, double *interval_s,
		      char *why, size_t whylen);
void replay_index_free(struct replay_index *ix);

#endif

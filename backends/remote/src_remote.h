/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src_remote.h: remote hosts over ssh (src_remote.c): what the fleet view and the batch
 * writer ask of a remote source beyond struct source_ops. */
#ifndef TT_SRC_REMOTE_H
#define TT_SRC_REMOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/source.h"

enum remote_state { REMOTE_CONNECTING, REMOTE_UP, REMOTE_DOWN };

struct remote_row {
	const char *name; /* as given to --remote */
	enum remote_state state;
	const char *reason; /* why down (ssh's last stderr line, exit status...) */
	bool broken; /* down: not an agent we can read (reason says why) */
	const struct snapshot *snap; /* the latest, or NULL before the first */
	double age_s; /* since that snapshot arrived */
	double retry_in_s; /* down: until the next try; -1: never (a far-side usage error) */
	uint64_t rx_bytes; /* agent output received (after ssh's decompression) */
	double rx_bytes_per_s; /* over the last few seconds */
	uint64_t dropped_paths; /* delta paths the far side invented, dropped */
};

/* Hosts of a remote source; 0 for any other source. */
int remote_count(struct source *src);
/* Read what has arrived (never blocks), then row i; false when i is out of range. */
bool remote_row(struct source *src, int i, struct remote_row *row);
/* The host knob sets and sample() go to. */
void remote_select(struct source *src, int i);
int remote_selected(struct source *src);
/* Send "NAME=VALUE" to every host that is up; the replies come through note() one per
 * host. Returns the number of hosts it went to, or a usage error with a message. */
int remote_set_all(struct source *src, const char *assignment, char *err, size_t errlen);
/* Host i's snapshot when one arrived since the last call for i (for -b and --record):
 * true with *out set. */
bool remote_take_new(struct source *src, int i, const struct snapshot **out);
/* The ssh command line split as a shell would (quotes, backslashes); a NULL-ended array
 * (free with remote_argv_free), or NULL with a message (an unclosed quote). */
char **remote_split_argv(const char *cmd, char *err, size_t errlen);
void remote_argv_free(char **argv);
/* Append " 'text'" to the string *out of *len bytes, quoted for a POSIX shell (the far
 * side's sshd runs the command through one). */
void remote_shell_quote(char **out, size_t *len, const char *text);

#endif

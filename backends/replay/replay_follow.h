/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay_follow.h: --replay --follow: a recording still being written (plain, .gz, .zst; a
 * store directory: its newest file, then each next one) read a line at a time as it grows,
 * never waiting for more except in rfollow_wait_first. */
#ifndef TT_REPLAY_FOLLOW_H
#define TT_REPLAY_FOLLOW_H

#include <stdbool.h>
#include <stddef.h>

struct rfollow;

/* Start following path (a file, or a --record-dir store when dir); NULL with a message. */
struct rfollow *rfollow_start(const char *path, bool dir, char *err, size_t errlen);
/* Wait up to timeout_s for a first line (at open, before any frame), polling. */
void rfollow_wait_first(struct rfollow *f, double timeout_s);
/* Whether a whole line is there (read ahead, kept for rfollow_take). */
bool rfollow_ready(struct rfollow *f);
/* The next whole line (without its newline; free it), or NULL when none yet. */
char *rfollow_take(struct rfollow *f);
/* The file being read and the first problem met ("" none), for the status line. */
void rfollow_status(struct rfollow *f, char *file, size_t flen, char *note, size_t nlen);
/* Close and free. NULL is fine. */
void rfollow_stop(struct rfollow *f);

#endif

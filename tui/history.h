/* SPDX-License-Identifier: GPL-2.0-or-later */
/* history.h: the console's history: the last N snapshots, kept as their compact JSON lines
 * (the recording format), compressed, decoded again when the screen freezes on one. */
#ifndef TT_UI_HISTORY_H
#define TT_UI_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/snapshot.h"

/* The default window: 10 minutes at the refresh interval. */
#define UI_HISTORY_SECONDS 600
/* Never more samples than this (-d 0.05 for 10 minutes is 12000)... */
#define UI_HISTORY_MAX_SAMPLES 12000
/* ...nor more bytes held (compressed lines and their keys) than this: the oldest go first. */
#define UI_HISTORY_MAX_BYTES (64u << 20)
/* A line is compressed against a key, an earlier line kept whole (zstd's raw-content
 * prefix): consecutive samples share most of their text, so a 6 KB line keeps about 0.7 KB
 * where alone it would keep 2.1. A new key every this many lines. */
#define UI_HISTORY_KEY_EVERY 64

struct history_key; /* refcounted: the current key and every entry compressed against it */

struct history_entry {
	char *z; /* the line, zstd-compressed against key */
	size_t zlen, len; /* compressed and whole lengths */
	struct history_key *key;
	uint64_t id; /* 1, 2, ... in order of pushing: stays with the sample while it is kept */
	uint64_t wall_ns;
	/* The findings it was diagnosed with (tui/after.c), given back with it: a frozen screen
	 * shows its sample's, never evaluated again (that would advance the hysteresis). */
	struct diag_finding *findings; /* NULL when none (most samples) */
	int nfindings;
	bool diagnosed; /* it was diagnosed at all */
};

struct history {
	struct history_entry *ring;
	size_t cap, n, head; /* head: the oldest entry */
	size_t bytes; /* compressed lines plus the keys they hold */
	struct history_key *key; /* the key new lines are compressed against */
	unsigned since_key; /* lines compressed against it */
	char *last; /* the last line pushed, whole (history_push's answer) */
	void *cctx; /* zstd's compression context, kept from push to push */
	uint64_t next_id;
};

/* A window of cap samples (clamped to 1..UI_HISTORY_MAX_SAMPLES). */
void history_init(struct history *h, size_t cap);
void history_free(struct history *h);
/* Keep s; returns its JSON line (owned by the history, valid until the next push). */
const char *history_push(struct history *h, const struct snapshot *s);
/* Ids of the oldest and newest kept (0, 0 when empty). */
uint64_t history_oldest(const struct history *h);
uint64_t history_newest(const struct history *h);
/* The entry with id, or NULL when it is gone (or never was). */
const struct history_entry *history_find(const struct history *h, uint64_t id);
/* Decode the sample id into out, its findings with it; false when it is gone. */
bool history_get(const struct history *h, uint64_t id, struct snapshot *out);
/* Bytes held: the compressed lines, their keys and the ring. */
size_t history_mem_bytes(const struct history *h);

#endif

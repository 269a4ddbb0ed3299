/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapdec.h: a schema-1 JSON snapshot (tui/snapjson.c's output) back into a struct snapshot. */
#ifndef TT_SNAPDEC_H
#define TT_SNAPDEC_H

#include <jansson.h>
#include <stddef.h>

#include "core/snapshot.h"

/* The JSON schema this decoder reads (tui/snapjson.h SNAPJSON_SCHEMA). */
#define SNAPDEC_SCHEMA 1

/* What a line turned out to be. */
enum snapdec_rc {
	SNAPDEC_OK = 0,
	SNAPDEC_GARBAGE = -1, /* not a JSON object (a cut line, noise) */
	SNAPDEC_SCHEMA_OTHER = -2, /* an object, but no "schema": 1 */
};

/*
 * Fill snap from one parsed object. Missing or mistyped fields read 0; arrays
 * longer than the snapshot holds are cut; nothing in the input can make it
 * crash. snap->cpus and snap->threads are (re)allocated as needed.
 */
int snapdec_from_json(const json_t *o, struct snapshot *snap, char *err, size_t errlen);
/* The same from one line of text (len bytes, no NUL needed). */
int snapdec_line(const char *line, size_t len, struct snapshot *snap, char *err, size_t errlen);
/* ISO 8601 "2026-11-30T05:05:28.123Z" to ns since the epoch; 0 when not one. */
uint64_t snapdec_iso8601(const char *s);
/* A user's time, strictly: YYYY-MM-DDTHH:MM:SS[.frac][Z], UTC, every field in range (epoch 0
 * included). 0 and the time in ns, or -1. */
int snapdec_iso8601_strict(const char *s, uint64_t *out);
/* A stable copy of a short string for the snapshot's const char * fields (backend,
 * pmd.topology, host.absent[]...): the same text gives the same pointer; lives until exit. */
const char *snapdec_intern(const char *s);

#endif

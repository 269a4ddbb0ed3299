/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snap_schema.h: the snapshot's JSON fields as tables (docs/json.md): for each field its key,
 * where it lives in the snapshot structs (core/snap_*.h), how it is written (tui/snapjson.c),
 * how it is read back (backends/replay/snapdec.c) and what it means (tunetop --list-json). One
 * table drives both directions and the docs, in the order the keys are written; a field no row
 * can say is hand-written beside the loop (and listed in core/snap_schema_list.c). */
#ifndef TT_SNAP_SCHEMA_H
#define TT_SNAP_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/snapshot.h"

/* The member's C type, from the member itself. */
enum sf_type {
	SFT_DBL,
	SFT_U64,
	SFT_I64,
	SFT_INT,
	SFT_U32,
	SFT_BOOL,
	SFT_STR,
	SFT_U64ARR,
	SFT_ROWS
};

/* How it is written. A real is rounded to 2 decimals. */
enum sf_enc {
	SFE_VAL, /* the value */
	SFE_NEG, /* null when negative (unknown); a string: null when empty */
	SFE_POS, /* null unless above 0 */
	SFE_RATE, /* null on the row's first sample (no baseline) or when negative */
	SFE_IF, /* null (a bool: false) unless the bool at cond is set (cond_not: clear) */
	SFE_NOT, /* a bool written negated (bound_ok from bound_broken) */
	SFE_SLOT, /* a placeholder null: the key's place, its value hand-written after the loop */
};

/* How it is read back: anything missing or of another type reads 0 (or ""). */
enum sf_dec {
	SFD_PLAIN,
	SFD_PCT, /* a share, 0..100, else 0 */
	SFD_RATE, /* never negative, else 0 */
	SFD_OPT, /* null or missing: -1 (unknown) */
	SFD_PCT_OPT, /* a share, else -1 */
	SFD_POS, /* above 0, else 0 */
	SFD_NOT, /* a bool that is set when the JSON says false */
	SFD_NONE, /* hand-read */
	SFD_CPU, /* one thread's share of one CPU: 0..100 (a late read past it, to 200: 100), else 0
		  */
};

/* dec_null: null reads -1 (a rate on a host PMD's first sample), missing 0. */
#define SFD_NULLNEG 0x80

struct snap_rows;

struct snap_field {
	const char *key; /* "rx_pps", or "sleep_overshoot_us.p50" one object down */
	uint16_t off; /* offsetof in the row's struct */
	uint16_t size; /* sizeof the member (a string's capacity, an array's bytes) */
	uint8_t type, enc, dec;
	bool cond_not;
	uint16_t cond; /* SFE_IF: offsetof the bool that makes the figure known */
	const struct snap_rows *rows; /* SFT_ROWS: the array's rows */
	const char *doc; /* what it means (docs/json.md's table: tunetop --list-json) */
	const char *jtype; /* SFE_SLOT: its JSON type, "[]" after it per array level */
};

/* An array of rows held in its parent struct: its count (an int) and its row table. */
struct snap_rows {
	const struct snap_field *f;
	size_t n;
	size_t elem, max;
	uint16_t count_off; /* offsetof the int count in the parent */
	int norate_off; /* offsetof the row's bool no_rate (SFE_RATE), -1 none */
};

#define SF_TYPE(S, m)                                                                              \
	_Generic(((S *)0)->m, double: SFT_DBL, uint64_t: SFT_U64, int64_t: SFT_I64, int: SFT_INT, \
		 uint32_t: SFT_U32, bool: SFT_BOOL, char *: SFT_STR, uint64_t *: SFT_U64ARR)
#define SF(S, k, m, e, d, doc)                                                                     \
	{                                                                                          \
		k, offsetof(S, m), sizeof(((S *)0)->m), SF_TYPE(S, m), e, d, false, 0, NULL, doc,  \
		    NULL                                                                           \
	}
#define SF_IF(S, k, m, d, c, neg, doc)                                                             \
	{                                                                                          \
		k, offsetof(S, m), sizeof(((S *)0)->m), SF_TYPE(S, m), SFE_IF, d, neg,             \
		    offsetof(S, c), NULL, doc, NULL                                                \
	}
#define SF_SLOT(k, jt, doc)                                                                        \
	{                                                                                          \
		k, 0, 0, SFT_DBL, SFE_SLOT, SFD_NONE, false, 0, NULL, doc, jt                      \
	}
#define SF_ROWS(S, k, m, r, doc)                                                                   \
	{                                                                                          \
		k, offsetof(S, m), sizeof(((S *)0)->m), SFT_ROWS, SFE_VAL, SFD_PLAIN, false, 0,    \
		    &r, doc, NULL                                                                  \
	}
#define SF_N(t) (sizeof(t) / sizeof((t)[0]))

extern const struct snap_field snap_cpu_fields[], snap_thread_fields[];
extern const size_t snap_cpu_nfields, snap_thread_nfields;
extern const struct snap_field snap_est_fields[], snap_pmd_fields[], snap_blk_fields[];
extern const size_t snap_est_nfields, snap_pmd_nfields, snap_blk_nfields;
extern const struct snap_field snap_host_fields[], snap_host_ovs_total_fields[];
extern const size_t snap_host_nfields, snap_host_ovs_total_nfields;
extern const struct snap_field snap_self_fields[];
extern const size_t snap_self_nfields;

/* Every field of the JSON line, one a line: path, type, unit (from its name, "-" none),
 * meaning (tunetop --list-json). */
void snap_schema_list(FILE *out);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_result.h: an experiment's result is its JSON object, built once; its tables are a view of
 * that object's rows (a row: one JSON object, a cell: the value at a column's key, or null), so
 * the JSON and the text say the same figures by construction. */
#ifndef TT_EXP_RESULT_H
#define TT_EXP_RESULT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* A column of a result table: the row's key it shows and how the text writes it. */
struct exp_col {
	const char *key; /* the row object's key; NULL: the row's text gives the cell */
	const char *title; /* the header */
	int width; /* in columns (a UTF-8 "≥" is one); negative: left aligned */
	const char *fmt; /* a real's printf format (e.g. "%.1f"); NULL: exp_fmt's */
};

/* The header line of a table. */
void exp_table_head(const struct exp_col *cols, size_t n);
/*
 * One row of a table: cell k is text[k] when text and text[k] are given, else the row's value at
 * cols[k].key (a string as is, an integer in full, a real by cols[k].fmt), and none ("-" when
 * NULL) when that is null or absent. tail, when given, follows the last cell.
 */
void exp_table_row(const struct exp_col *cols, size_t n, const json_t *row, const char *const *text,
		   const char *none, const char *tail);
/* A figure, or null when there is none (never a 0 standing in for it). */
json_t *exp_real(bool have, double v);
/* The result object on stdout, one line (--json), and let go of. */
void exp_result_emit(json_t *o);

#endif

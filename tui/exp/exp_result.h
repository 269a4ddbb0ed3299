/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_result.h: an experiment's result is its JSON object, built once; its tables are views of
 * its rows (a row: a JSON object; a cell: the value at a column's key, or null). */
#ifndef TT_EXP_RESULT_H
#define TT_EXP_RESULT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct exp_col {
	const char *key; /* the row's key; NULL: the row's text gives the cell */
	const char *title;
	int width; /* columns (a UTF-8 "≥" is one); negative: left aligned */
	const char *fmt; /* a real's printf format; NULL: exp_fmt's */
};

/* A table line. No row: the header (the titles). Else cell k is text[k] when given, else the
 * row's value at cols[k].key (a string, an integer, a real by fmt), or none ("-" when NULL)
 * when that is null or absent; tail follows the last cell. */
void exp_table_row(const struct exp_col *cols, size_t n, const json_t *row, const char *const *text,
		   const char *none, const char *tail);
/* A figure, or null when there is none (never a 0 standing in for it). */
json_t *exp_real(bool have, double v);
/* The result on stdout as one line (--json). */
void exp_result_print(const json_t *o);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_result.c: a result's tables written from its JSON rows, and the result object itself. */
#include <stdio.h>
#include <stdlib.h>

#include "tui/exp/exp_result.h"
#include "tui/exp/experiment.h"

/* s padded to w columns (negative: left aligned); a UTF-8 character counts one column. */
static void cell_print(bool first, const char *s, int w)
{
	int cols = 0;
	for (const char *p = s; *p; p++)
		cols += ((unsigned char)*p & 0xC0) != 0x80;
	int pad = abs(w) - cols;
	printf("%s%*s%s%*s", first ? "" : " ", w > 0 && pad > 0 ? pad : 0, "", s,
	       w < 0 && pad > 0 ? pad : 0, "");
}

void exp_table_row(const struct exp_col *cols, size_t n, const json_t *row, const char *const *text,
		   const char *none, const char *tail)
{
	for (size_t k = 0; k < n; k++) {
		const json_t *v = cols[k].key ? json_object_get(row, cols[k].key) : NULL;
		char buf[64];
		const char *s = buf;
		if (!row)
			s = cols[k].title;
		else if (text && text[k])
			s = text[k];
		else if (json_is_string(v))
			s = json_string_value(v);
		else if (json_is_integer(v))
			snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
		else if (json_is_real(v) && cols[k].fmt)
			snprintf(buf, sizeof(buf), cols[k].fmt, json_real_value(v));
		else if (json_is_real(v))
			exp_fmt(buf, sizeof(buf), json_real_value(v));
		else
			s = none ? none : "-";
		cell_print(k == 0, s, cols[k].width);
	}
	printf("%s\n", tail ? tail : "");
}

json_t *exp_real(bool have, double v)
{
	return have ? json_real(v) : json_null();
}

void exp_result_print(const json_t *o)
{
	json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10));
	printf("\n");
}

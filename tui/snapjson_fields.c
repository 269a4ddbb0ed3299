/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapjson_fields.c: a core/snap_schema.h field table written into a JSON object: each field
 * as its row says (null where unknown), dotted keys one object down, rows as arrays. */
#include <stdio.h>
#include <string.h>

#include "core/snap_schema.h"
#include "tui/snapjson_int.h"

/* The object a dotted key's last part goes in: o itself, or the member object its first part
 * names (made when the first of its fields is written, so it keeps that place). */
static json_t *snapjson_member(json_t *o, const char **key)
{
	const char *dot = strchr(*key, '.');
	if (!dot)
		return o;
	char name[40];
	snprintf(name, sizeof(name), "%.*s", (int)(dot - *key), *key);
	*key = dot + 1;
	json_t *sub = json_object_get(o, name);
	if (!json_is_object(sub)) {
		sub = json_object();
		json_object_set_new_nocheck(o, name, sub);
	}
	return sub;
}

static json_t *snapjson_rows(const struct snap_field *f, const char *base);

/* One field's value as core/snap_schema.h's enc says; no_rate: the row's first sample. */
static json_t *snapjson_value(const struct snap_field *f, const char *base, bool no_rate)
{
	const char *m = base + f->off;
	bool known = f->enc != SFE_IF || *(const bool *)(base + f->cond) != f->cond_not;
	double v;
	switch (f->type) {
	case SFT_BOOL:
		return json_boolean(f->enc == SFE_NOT ? !*(const bool *)m
						      : known && *(const bool *)m);
	case SFT_STR:
		return f->enc == SFE_NEG ? snapjson_str_or_null(m) : jstr(m);
	case SFT_ROWS:
		return snapjson_rows(f, base);
	case SFT_U64ARR: {
		json_t *a = json_array();
		for (size_t i = 0; i < f->size / sizeof(uint64_t); i++)
			json_array_append_new(a, jint(((const uint64_t *)m)[i]));
		return a;
	}
	case SFT_U64:
		return f->enc == SFE_RATE && no_rate ? json_null() : jint(*(const uint64_t *)m);
	case SFT_DBL:
		v = *(const double *)m;
		break;
	default:
		v = f->type == SFT_I64	 ? (double)*(const int64_t *)m
		    : f->type == SFT_INT ? (double)*(const int *)m
					 : (double)*(const uint32_t *)m;
		break;
	}
	if (!known || (f->enc == SFE_NEG && v < 0) || (f->enc == SFE_POS && v <= 0) ||
	    (f->enc == SFE_RATE && (no_rate || v < 0)))
		return json_null();
	if (f->type == SFT_DBL)
		return jreal(v);
	return json_integer(f->type == SFT_I64 ? (json_int_t) * (const int64_t *)m : (json_int_t)v);
}

/* Every field of a table into o, in the table's order (jansson keeps it); a slot's value is
 * null until its hand-written value replaces it in place. */
void snapjson_fields(json_t *o, const struct snap_field *f, size_t n, const void *base,
		     bool no_rate)
{
	for (size_t i = 0; i < n; i++) {
		const char *key = f[i].key;
		json_t *in = snapjson_member(o, &key);
		json_object_set_new_nocheck(
		    in, key,
		    f[i].enc == SFE_SLOT ? json_null() : snapjson_value(&f[i], base, no_rate));
	}
}

static json_t *snapjson_rows(const struct snap_field *f, const char *base)
{
	const struct snap_rows *r = f->rows;
	int n = *(const int *)(base + r->count_off);
	json_t *a = json_array();
	for (int i = 0; i < n && (size_t)i < r->max; i++) {
		const char *row = base + f->off + (size_t)i * r->elem;
		json_t *o = json_object();
		snapjson_fields(o, r->f, r->n, row, r->norate_off >= 0 && row[r->norate_off]);
		json_array_append_new(a, o);
	}
	return a;
}

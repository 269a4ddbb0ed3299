/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapdec_fields.c: a core/snap_schema.h field table read from a JSON object, never trusting
 * it: each member by its type and its row's rule (a share within 0..100, a rate never
 * negative, null as unknown where the row says), every array clamped to what the struct
 * holds. */
#include <stdio.h>
#include <string.h>

#include "backends/replay/snapdec_int.h"
#include "core/snap_schema.h"

static void dec_rows(const json_t *a, const struct snap_field *f, char *base)
{
	const struct snap_rows *r = f->rows;
	size_t n = json_is_array(a) ? json_array_size(a) : 0;
	if (n > r->max)
		n = r->max;
	*(int *)(base + r->count_off) = (int)n;
	for (size_t i = 0; i < n; i++)
		snapdec_fields(json_array_get(a, i), r->f, r->n, base + f->off + i * r->elem);
}

static double dec_real(const json_t *in, const char *key, int how)
{
	double v = how == SFD_OPT || how == SFD_PCT_OPT ? jd_opt(in, key) : jd(in, key);
	if (how == SFD_PCT || how == SFD_PCT_OPT)
		return v >= 0 && v <= SNAPDEC_PCT_MAX ? v : how == SFD_PCT ? 0 : -1;
	if (how == SFD_CPU)
		return v >= 0 && v <= SNAPDEC_PCT_MAX	   ? v
		       : v > 0 && v <= 2 * SNAPDEC_PCT_MAX ? SNAPDEC_PCT_MAX
							   : 0;
	return how == SFD_RATE && v < 0 ? 0 : v;
}

static void dec_field(const json_t *o, const struct snap_field *f, char *base)
{
	const char *key = f->key, *dot = strchr(key, '.');
	char name[40];
	const json_t *in = o;
	char *m = base + f->off;
	int how = f->dec & ~SFD_NULLNEG;
	if (dot) {
		snprintf(name, sizeof(name), "%.*s", (int)(dot - key), key);
		in = jget(o, name);
		key = dot + 1;
	}
	switch (f->type) {
	case SFT_DBL:
		*(double *)m = (f->dec & SFD_NULLNEG) && json_is_null(jget(in, key))
				   ? -1
				   : dec_real(in, key, how);
		break;
	case SFT_U64:
		*(uint64_t *)m = ju(in, key);
		break;
	case SFT_U32:
		*(uint32_t *)m = (uint32_t)ju(in, key);
		break;
	case SFT_I64:
		*(int64_t *)m = how == SFD_OPT ? ji_opt(in, key) : ji(in, key);
		break;
	case SFT_INT:
		*(int *)m = how == SFD_POS   ? (ji(in, key) > 0 ? jn(in, key) : 0)
			    : how == SFD_OPT ? (int)ji_opt(in, key)
					     : jn(in, key);
		break;
	case SFT_BOOL:
		*(bool *)m = how == SFD_NOT ? json_is_false(jget(in, key)) : jb(in, key);
		break;
	case SFT_STR:
		jcopy(m, f->size, in, key);
		break;
	case SFT_U64ARR: {
		size_t n;
		const json_t *a = jarr(in, key, &n, f->size / sizeof(uint64_t));
		for (size_t i = 0; i < n; i++)
			((uint64_t *)m)[i] = ju_at(a, i);
		break;
	}
	case SFT_ROWS:
		dec_rows(jget(in, key), f, base);
		break;
	}
}

void snapdec_fields(const json_t *o, const struct snap_field *f, size_t n, char *base)
{
	for (size_t i = 0; i < n; i++)
		if (f[i].dec != SFD_NONE)
			dec_field(o, &f[i], base);
}

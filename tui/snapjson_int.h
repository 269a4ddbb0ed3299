/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapjson_int.h: what the JSON renderer's files share: the value helpers and the sections
 * rendered in files of their own. Not for use outside tui/snapjson*.c. */
#ifndef TT_SNAPJSON_INT_H
#define TT_SNAPJSON_INT_H

#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/snapshot.h"
#include "core/utf8.h"

/*
 * A string of the host's (a thread, port or device name): json_string() refuses invalid
 * UTF-8 and the element holding it would vanish, so such bytes become U+FFFD instead.
 */
static inline json_t *jstr(const char *s)
{
	json_t *j = json_string(s ? s : "");
	if (!j) {
		char *fixed = utf8_sanitize_dup(s);
		j = json_string(fixed);
		free(fixed);
	}
	return j;
}

/* Round to `scale` (100: 2 decimals) so lines stay short and diffable. Never NULL (a NULL
 * would make the enclosing json_pack fail and its section vanish): not finite is null, and
 * a figure too large to have decimals is left as it is (v * scale would overflow to inf). */
static inline json_t *jreal_scaled(double v, double scale)
{
	if (!isfinite(v))
		return json_null();
	if (fabs(v) < 1e15)
		v = round(v * scale) / scale;
	json_t *j = json_real(v);
	return j ? j : json_null();
}

static inline json_t *jreal(double v)
{
	return jreal_scaled(v, 100.0);
}

static inline json_t *jint(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static inline json_t *snapjson_str_or_null(const char *s)
{
	return s && *s ? jstr(s) : json_null();
}

struct snap_field;
/* Every field of a core/snap_schema.h table into o, in the table's order; no_rate: the row's
 * first sample (snapjson_fields.c). */
void snapjson_fields(json_t *o, const struct snap_field *f, size_t n, const void *base,
		     bool no_rate);

/* The host section (snapjson_host.c). */
json_t *snapjson_host(const struct host_snap *h);

#endif

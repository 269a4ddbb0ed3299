/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapdec_int.h: the typed getters shared by snapdec.c and its section decoders. Anything
 * missing or of another type reads as 0 / ""; a *_opt figure (null in JSON: unknown) as -1. */
#ifndef TT_SNAPDEC_INT_H
#define TT_SNAPDEC_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/snapshot.h"

static inline const json_t *jget(const json_t *o, const char *k)
{
	return json_is_object(o) ? json_object_get(o, k) : NULL;
}

/* No real figure is this large: past it a far side or a file is lying, and the figure is
 * clamped so sums, rates and the JSON writer's rounding stay finite. */
#define SNAPDEC_REAL_MAX 1e15

static inline double jclamp(double x)
{
	return x != x		       ? 0
	       : x > SNAPDEC_REAL_MAX  ? SNAPDEC_REAL_MAX
	       : x < -SNAPDEC_REAL_MAX ? -SNAPDEC_REAL_MAX
				       : x;
}

static inline double jd(const json_t *o, const char *k)
{
	const json_t *v = jget(o, k);
	return json_is_number(v) ? jclamp(json_number_value(v)) : 0;
}

static inline uint64_t ju(const json_t *o, const char *k)
{
	const json_t *v = jget(o, k);
	if (json_is_integer(v)) /* a negative count is garbage: 0 */
		return json_integer_value(v) < 0 ? 0 : (uint64_t)json_integer_value(v);
	if (json_is_real(v) && json_real_value(v) >= 0 && json_real_value(v) < 1.8e19)
		return (uint64_t)json_real_value(v);
	return 0;
}

static inline int64_t ji(const json_t *o, const char *k)
{
	const json_t *v = jget(o, k);
	return json_is_integer(v) ? (int64_t)json_integer_value(v) : 0;
}

/* An int field: clamped to int's range, not truncated to garbage by a cast. */
static inline int jn(const json_t *o, const char *k)
{
	int64_t v = ji(o, k);
	return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int)v;
}

static inline bool jb(const json_t *o, const char *k)
{
	return json_is_true(jget(o, k));
}

static inline const char *js(const json_t *o, const char *k)
{
	const json_t *v = jget(o, k);
	return json_is_string(v) ? json_string_value(v) : "";
}

/* Cut at a UTF-8 character's start, never inside one: the JSON writer refuses a cut one. */
static inline void jcopy(char *dst, size_t cap, const json_t *o, const char *k)
{
	const char *s = js(o, k);
	size_t n = strlen(s);
	if (n >= cap) {
		n = cap - 1;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static inline const json_t *jarr(const json_t *o, const char *k, size_t *n, size_t max)
{
	const json_t *a = jget(o, k);
	if (!json_is_array(a)) {
		*n = 0;
		return NULL;
	}
	*n = json_array_size(a) < max ? json_array_size(a) : max;
	return a;
}

/* A figure snapjson writes as null when negative (jreal_or_null, jopt): -1 when not a number. */
static inline double jd_opt(const json_t *o, const char *k)
{
	const json_t *v = jget(o, k);
	return json_is_number(v) ? jclamp(json_number_value(v)) : -1;
}

/*
 * A share of one thing's whole (a thread's time, an interval's iterations, packets): its
 * producers keep it in 0..100 (engine/pmd/pmd_stats.c clamps a late read to 100). Outside
 * that, a far side or a file is lying, and the figure is refused rather than repeated in a
 * finding ("the host took 1e15%"): 0 as for a missing figure, -1 (unknown) for a *_opt one
 * (snapdec.c's SFD_PCT and SFD_PCT_OPT; an SFD_RATE, per second, is never negative: 0).
 * One thread's share of one CPU (SFD_CPU) is such a share too, but its producers divide two
 * clocks read apart (backends/host/host.c's host_pct), so a late read a little past 100 (up
 * to twice it) reads 100, and only beyond that is it refused ("est-k:0 takes 1e15% of a
 * CPU").
 */
#define SNAPDEC_PCT_MAX 100.0

static inline int64_t ji_opt(const json_t *o, const char *k)
{
	const json_t *v = jget(o, k);
	return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

/* Element i of an array of numbers, 0 when not one. */
static inline uint64_t ju_at(const json_t *a, size_t i)
{
	const json_t *v = json_array_get(a, i);
	return json_is_integer(v) && json_integer_value(v) >= 0 ? (uint64_t)json_integer_value(v)
								: 0;
}

static inline double jd_at(const json_t *a, size_t i)
{
	const json_t *v = json_array_get(a, i);
	return json_is_number(v) ? jclamp(json_number_value(v)) : 0;
}

struct snap_field;
/* The fields of a core/snap_schema.h table from o into base (snapdec_fields.c). */
void snapdec_fields(const json_t *o, const struct snap_field *f, size_t n, char *base);

/* The host section (snapdec_host.c). */
void snapdec_host(const json_t *h, struct host_snap *d);

#endif

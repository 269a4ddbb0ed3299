/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay_index.c: one pass over a recording's lines (core/zread.h): each line's place, and
 * the few top-level fields read from its head. */
#include "backends/replay/replay_index.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/replay/snapdec.h"
#include "core/xalloc.h"

static bool ri_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Past the string that starts at s[i] ('"'): the index after its closing quote, or len. */
static size_t ri_skip_string(const char *s, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return len;
}

/* Past one value at s[i]: a string, or anything up to the ',' or '}' that ends it at this
 * depth (nested objects and arrays, and strings in them, skipped whole). */
static size_t ri_skip_value(const char *s, size_t len, size_t i)
{
	int depth = 0;
	while (i < len) {
		char c = s[i];
		if (c == '"') {
			i = ri_skip_string(s, len, i);
			continue;
		}
		if (c == '{' || c == '[')
			depth++;
		else if (c == '}' || c == ']') {
			if (depth == 0)
				return i;
			depth--;
		} else if (c == ',' && depth == 0)
			return i;
		i++;
	}
	return len;
}

int replay_index_peek(const char *s, size_t len, uint64_t *wall_ns, double *interval_s, char *why,
		      size_t whylen)
{
	size_t i = 0;
	bool schema = false;
	*wall_ns = 0;
	*interval_s = 0;
	while (i < len && ri_ws(s[i]))
		i++;
	if (i == len || s[i] != '{') {
		snprintf(why, whylen, "not JSON (not an object)");
		return -1;
	}
	i++;
	for (int found = 0; found < 3;) {
		while (i < len && ri_ws(s[i]))
			i++;
		if (i >= len || s[i] != '"')
			break; /* the end of the object, or of the head */
		size_t k0 = i + 1, k1 = ri_skip_string(s, len, i);
		if (k1 >= len)
			break;
		size_t klen = k1 - 1 - k0;
		i = k1;
		while (i < len && ri_ws(s[i]))
			i++;
		if (i >= len || s[i] != ':')
			break;
		i++;
		while (i < len && ri_ws(s[i]))
			i++;
		size_t v = i;
		i = ri_skip_value(s, len, i);
		if (i >= len)
			break; /* a value cut by the head's end is not read */
		char val[64];
		size_t vlen = i - v < sizeof(val) - 1 ? i - v : sizeof(val) - 1;
		memcpy(val, s + v, vlen);
		val[vlen] = '\0';
		if (klen == 6 && memcmp(s + k0, "schema", 6) == 0) {
			char *end;
			long n = strtol(val, &end, 10);
			schema = end != val && n == SNAPDEC_SCHEMA;
			if (!schema)
				break;
			found++;
		} else if (klen == 4 && memcmp(s + k0, "time", 4) == 0 && val[0] == '"') {
			char *q = strchr(val + 1, '"');
			if (q)
				*q = '\0';
			*wall_ns = snapdec_iso8601(val + 1);
			found++;
		} else if (klen == 10 && memcmp(s + k0, "interval_s", 10) == 0) {
			*interval_s = strtod(val, NULL);
			found++;
		}
		if (i < len && s[i] == ',')
			i++;
	}
	if (!schema) {
		snprintf(why, whylen, "not a schema %d snapshot", SNAPDEC_SCHEMA);
		return -1;
	}
	return 0;
}

static void ri_skip(struct replay_index *ix, const char *why)
{
	if (!ix->skipped)
		snprintf(ix->first_skip, sizeof(ix->first_skip), "line %llu: %s",
			 (unsigned long long)ix->lineno, why);
	ix->skipped++;
}

/* One line s[0..len) (its newline, if any, included) at expanded offset off. */
static void ri_line(struct replay_index *ix, uint32_t file, uint64_t off, const char *s, size_t len)
{
	char why[120];
	uint64_t wall;
	double interval;
	if (len && s[len - 1] == '\n')
		len--;
	size_t e = len;
	ix->lineno++;
	if (len == 0 || (len == 1 && s[0] == '\r'))
		return; /* an empty line is nothing, not a bad one */
	while (e && ri_ws(s[e - 1]))
		e--;
	if (!e || s[e - 1] != '}') {
		ri_skip(ix, "not JSON (the line does not end its object: cut short?)");
		return;
	}
	if (replay_index_peek(s, len < REPLAY_INDEX_HEAD ? len : REPLAY_INDEX_HEAD, &wall,
			      &interval, why, sizeof(why)) != 0) {
		ri_skip(ix, why);
		return;
	}
	if (ix->n == ix->cap) {
		ix->cap = ix->cap ? ix->cap * 2 : 256;
		ix->lines = xreallocarray(ix->lines, ix->cap, sizeof(*ix->lines));
	}
	ix->lines[ix->n++] = (struct replay_line){.off = off,
						  .len = (uint32_t)len,
						  .file = file,
						  .wall_ns = wall,
						  .interval_s = interval};
}

int replay_index_more(struct zread *rd, uint32_t file, struct replay_index *ix, size_t want,
		      uint64_t ahead, bool *done, char *err, size_t errlen)
{
	const char *s;
	size_t len;
	int rc = 0;
	uint64_t off = zread_tell(rd), stop = off + ahead;
	for (*done = false; ix->n <= want || off < stop; off = zread_tell(rd)) {
		if ((rc = zread_line(rd, &s, &len, err, errlen)) <= 0) {
			*done = true;
			break;
		}
		ri_line(ix, file, off, s, len);
	}
	return rc < 0 ? -1 : 0;
}

int replay_index_file(struct zread *rd, uint32_t file, struct replay_index *ix, uint64_t *bytes,
		      char *err, size_t errlen)
{
	bool done;
	if (zread_seek(rd, 0, err, errlen) != 0 ||
	    replay_index_more(rd, file, ix, SIZE_MAX, 0, &done, err, errlen) != 0)
		return -1;
	*bytes = zread_tell(rd);
	return 0;
}

void replay_index_free(struct replay_index *ix)
{
	free(ix->lines);
	memset(ix, 0, sizeof(*ix));
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay_index.c: one pass over a recording's expanded text, a chunk at a time: each line's
 * place, and the few top-level fields read from its head. */
#include "backends/replay/replay_index.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/replay/snapdec.h"
#include "core/safefile.h"
#include "core/xalloc.h"

#define RI_CHUNK (1u << 16)

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

struct ri_line {
	uint64_t off, len;
	char head[REPLAY_INDEX_HEAD + 1];
	size_t hlen;
	char last; /* the last character that is not white space */
};

static void ri_skip(struct replay_index *ix, const char *why)
{
	if (!ix->skipped)
		snprintf(ix->first_skip, sizeof(ix->first_skip), "line %llu: %s",
			 (unsigned long long)ix->lineno, why);
	ix->skipped++;
}

/* A line ends (at a newline or the end of the text). */
static void ri_finish(struct replay_index *ix, uint32_t file, struct ri_line *l)
{
	ix->lineno++;
	if (l->len == 0 || (l->len == 1 && l->head[0] == '\r'))
		return; /* an empty line is nothing, not a bad one */
	char why[120];
	uint64_t wall;
	double interval;
	l->head[l->hlen] = '\0';
	if (l->last != '}') {
		ri_skip(ix, "not JSON (the line does not end its object: cut short?)");
		return;
	}
	if (replay_index_peek(l->head, l->hlen, &wall, &interval, why, sizeof(why)) != 0) {
		ri_skip(ix, why);
		return;
	}
	if (ix->n == ix->cap) {
		ix->cap = ix->cap ? ix->cap * 2 : 256;
		ix->lines = xreallocarray(ix->lines, ix->cap, sizeof(*ix->lines));
	}
	ix->lines[ix->n++] = (struct replay_line){.off = l->off,
						  .len = (uint32_t)l->len,
						  .file = file,
						  .wall_ns = wall,
						  .interval_s = interval};
}

/* Add seg[0..n) (no newline in it) to the line. 0, or -1 past the line cap. */
static int ri_add(struct ri_line *l, const char *seg, size_t n)
{
	if (n > SAFEFILE_LINE_MAX - l->len)
		return -1;
	if (l->hlen < REPLAY_INDEX_HEAD) {
		size_t take = n < REPLAY_INDEX_HEAD - l->hlen ? n : REPLAY_INDEX_HEAD - l->hlen;
		memcpy(l->head + l->hlen, seg, take);
		l->hlen += take;
	}
	for (size_t j = n; j-- > 0;)
		if (!ri_ws(seg[j])) {
			l->last = seg[j];
			break;
		}
	l->len += n;
	return 0;
}

int replay_index_file(struct recread *rd, const char *path, uint32_t file, struct replay_index *ix,
		      uint64_t *bytes, char *err, size_t errlen)
{
	char *buf = xmalloc(RI_CHUNK);
	struct ri_line *l = xcalloc(1, sizeof(*l));
	int rc = 0;
	if (recread_seek(rd, 0, err, errlen) != 0) {
		rc = -1;
		goto out;
	}
	uint64_t pos = 0;
	for (;;) {
		ssize_t n = recread_read(rd, buf, RI_CHUNK, err, errlen);
		if (n < 0) {
			rc = -1;
			goto out;
		}
		if (n == 0)
			break;
		for (size_t i = 0; i < (size_t)n;) {
			const char *nl = memchr(buf + i, '\n', (size_t)n - i);
			size_t seg = (size_t)((nl ? nl - buf : n) - (ssize_t)i);
			if (ri_add(l, buf + i, seg) != 0) {
				snprintf(err, errlen,
					 "%s: line %llu is longer than the cap of %u MiB", path,
					 (unsigned long long)(ix->lineno + 1),
					 SAFEFILE_LINE_MAX >> 20);
				rc = -1;
				goto out;
			}
			i += seg;
			pos += seg;
			if (!nl)
				break;
			ri_finish(ix, file, l);
			i++;
			pos++;
			l->off = pos;
			l->len = l->hlen = 0;
			l->last = 0;
		}
	}
	if (l->len)
		ri_finish(ix, file, l); /* a last line without its newline */
	*bytes = pos;
out:
	free(l);
	free(buf);
	return rc;
}

void replay_index_free(struct replay_index *ix)
{
	free(ix->lines);
	memset(ix, 0, sizeof(*ix));
}

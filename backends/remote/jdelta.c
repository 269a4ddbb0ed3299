/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jdelta.c: leaf-level JSON deltas (jdelta.h): a recursive diff and its application. */
#include "backends/remote/jdelta.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Paths longer than this are cut short: the subtree goes whole at the shorter path. */
#define JDELTA_PATH_MAX 512

/* Append one path segment, escaped as in a JSON pointer (~ -> ~0, / -> ~1). */
static size_t path_push(char *path, size_t len, const char *seg)
{
	size_t n = len;
	if (n && n + 1 < JDELTA_PATH_MAX)
		path[n++] = '/';
	for (const char *p = seg; *p && n + 3 < JDELTA_PATH_MAX; p++) {
		if (*p == '~' || *p == '/') {
			path[n++] = '~';
			path[n++] = *p == '~' ? '0' : '1';
		} else {
			path[n++] = *p;
		}
	}
	path[n] = '\0';
	return n;
}

static void diff(json_t *out, char *path, size_t len, const json_t *a, const json_t *b)
{
	if (json_equal((json_t *)a, (json_t *)b))
		return;
	/* The whole subtree when the shape differs or there is no room for a deeper path. */
	if (!a || json_typeof(a) != json_typeof(b) || len + 64 > JDELTA_PATH_MAX ||
	    (json_is_array(b) && json_array_size(a) != json_array_size(b)) ||
	    (json_is_object(b) && json_object_size(a) != json_object_size(b)) ||
	    (!json_is_object(b) && !json_is_array(b))) {
		json_object_set(out, len ? path : "/", (json_t *)b);
		return;
	}
	if (json_is_object(b)) {
		const char *k;
		json_t *v;
		json_object_foreach ((json_t *)b, k, v) {
			const json_t *av = json_object_get(a, k);
			if (!av) { /* a key renamed: the object's shape changed */
				json_object_set(out, len ? path : "/", (json_t *)b);
				return;
			}
		}
		json_object_foreach ((json_t *)b, k, v) {
			size_t n = path_push(path, len, k);
			diff(out, path, n, json_object_get(a, k), v);
			path[len] = '\0';
		}
		return;
	}
	for (size_t i = 0; i < json_array_size(b); i++) {
		char idx[24];
		snprintf(idx, sizeof(idx), "%zu", i);
		size_t n = path_push(path, len, idx);
		diff(out, path, n, json_array_get(a, i), json_array_get(b, i));
		path[len] = '\0';
	}
}

json_t *jdelta_make(const json_t *prev, const json_t *cur)
{
	char path[JDELTA_PATH_MAX] = "";
	json_t *out = json_object();
	diff(out, path, 0, prev, cur);
	return out;
}

/* One segment of p (up to '/' or the end), unescaped into seg; returns the rest or NULL. */
static const char *path_next(const char *p, char *seg, size_t cap)
{
	size_t n = 0;
	for (; *p && *p != '/'; p++) {
		char c = *p;
		if (c == '~' && (p[1] == '0' || p[1] == '1')) {
			c = p[1] == '0' ? '~' : '/';
			p++;
		}
		if (n + 1 < cap)
			seg[n++] = c;
	}
	seg[n] = '\0';
	return *p == '/' ? p + 1 : NULL;
}

size_t jdelta_weight(const json_t *v)
{
	/* About what jansson spends on a node: the struct, a hash slot, the text. */
	size_t w = 32;
	const char *k;
	json_t *x;
	size_t i;
	if (json_is_string(v)) {
		w += json_string_length(v);
	} else if (json_is_object(v)) {
		json_object_foreach ((json_t *)v, k, x)
			w += strlen(k) + 16 + jdelta_weight(x);
	} else if (json_is_array(v)) {
		json_array_foreach (v, i, x)
			w += 8 + jdelta_weight(x);
	}
	return w;
}

/* Set path in base to v when every segment of it exists there: 0 done, 1 not there (a key the
 * base lacks, an index past the end: dropped), -1 over the budget. */
static int apply_one(json_t *base, const char *path, json_t *v, struct jdelta_budget *b)
{
	char seg[JDELTA_PATH_MAX];
	json_t *node = base;
	const char *p = path;
	size_t wv = jdelta_weight(v);

	if (strcmp(path, "/") == 0) { /* the root's keys changed: all of it anew */
		if (!json_is_object(v))
			return 1;
		if (wv > b->max_weight)
			return -1;
		json_object_clear(base);
		b->weight = wv;
		return json_object_update(base, v) == 0 ? 0 : 1;
	}
	for (;;) {
		const char *rest = path_next(p, seg, sizeof(seg));
		json_t *next;
		size_t i = 0;
		if (json_is_object(node)) {
			next = json_object_get(node, seg);
		} else if (json_is_array(node)) {
			char *end;
			unsigned long u = strtoul(seg, &end, 10);
			if (*end || end == seg || u >= json_array_size(node))
				return 1;
			i = (size_t)u;
			next = json_array_get(node, i);
		} else {
			return 1;
		}
		if (!next)
			return 1; /* only what the base has: a far side cannot grow new keys */
		if (!rest) {
			size_t wold = jdelta_weight(next);
			if (b->weight - (wold < b->weight ? wold : b->weight) + wv > b->max_weight)
				return -1;
			b->weight = b->weight - (wold < b->weight ? wold : b->weight) + wv;
			int rc = json_is_object(node) ? json_object_set(node, seg, v)
						      : json_array_set(node, i, v);
			return rc == 0 ? 0 : 1;
		}
		node = next;
		p = rest;
	}
}

int jdelta_apply_bounded(json_t *base, const json_t *delta, struct jdelta_budget *b)
{
	const char *k;
	json_t *v;
	if (!json_is_object(base) || !json_is_object(delta))
		return -1;
	json_object_foreach ((json_t *)delta, k, v) {
		int rc = apply_one(base, k, v, b);
		if (rc < 0)
			return -1;
		b->dropped += rc > 0;
	}
	return 0;
}

int jdelta_apply(json_t *base, const json_t *delta)
{
	struct jdelta_budget b = {.weight = 0, .max_weight = SIZE_MAX / 2};
	if (jdelta_apply_bounded(base, delta, &b) != 0)
		return -1;
	return b.dropped ? -1 : 0;
}

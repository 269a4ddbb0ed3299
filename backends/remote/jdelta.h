/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jdelta.h: JSON deltas for the agent's link: only the leaves that changed since the last
 * object sent, as {"path/to/leaf": value, ...} (paths of keys and array indexes joined by
 * '/', JSON-pointer escaped), and applying one to rebuild the full object. */
#ifndef TT_JDELTA_H
#define TT_JDELTA_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The changes from prev to cur as one object of path -> new value. Where the shape
 * changed (an array's length, an object's keys, a type) the whole new subtree goes at
 * that path. An empty object when nothing changed.
 */
json_t *jdelta_make(const json_t *prev, const json_t *cur);
/* Apply a delta to base in place; 0, or -1 when a path does not fit base (then base is
 * partly updated and the caller should wait for a full object). Only paths that exist in
 * base are set: a delta never adds a key (jdelta_make sends a changed object whole). */
int jdelta_apply(json_t *base, const json_t *delta);

/* What a far side may make base cost: weight is base's jdelta_weight() (the caller sets it
 * from the whole object), kept up to date; dropped counts paths base lacks. */
struct jdelta_budget {
	size_t weight, max_weight;
	uint64_t dropped;
};
/* About the bytes a JSON value holds in memory (nodes, keys, strings). */
size_t jdelta_weight(const json_t *v);
/* jdelta_apply, with paths base lacks dropped and counted (not an error), and -1 when a
 * value would take the weight past max_weight (base then partly updated: ask anew). */
int jdelta_apply_bounded(json_t *base, const json_t *delta, struct jdelta_budget *b);

#endif

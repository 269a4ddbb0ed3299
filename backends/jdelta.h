/* jdelta.h: JSON deltas for the agent's link: only the leaves that changed since the last
 * object sent, as {"path/to/leaf": value, ...} (paths of keys and array indexes joined by
 * '/', JSON-pointer escaped), and applying one to rebuild the full object. */
#ifndef TT_JDELTA_H
#define TT_JDELTA_H

#include <jansson.h>

/*
 * The changes from prev to cur as one object of path -> new value. Where the shape
 * changed (an array's length, an object's keys, a type) the whole new subtree goes at
 * that path. An empty object when nothing changed.
 */
json_t *jdelta_make(const json_t *prev, const json_t *cur);
/* Apply a delta to base in place; 0, or -1 when a path does not fit base (then base is
 * partly updated and the caller should wait for a full object). */
int jdelta_apply(json_t *base, const json_t *delta);

#endif

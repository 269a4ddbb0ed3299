/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapjson_absent.h: null for figures a source lacks, in a snapshot's JSON (docs/design.md
 * "The snapshot contract": a figure the source lacks is null, never 0). */
#ifndef TUNETOP_SNAPJSON_ABSENT_H
#define TUNETOP_SNAPJSON_ABSENT_H

#include <jansson.h>

/* The figures at a dotted path under v become null (an object: every number under it).
 * A name an object does not hold is looked for in the rows of its arrays ("pmd.rx_drop_pps":
 * the field of every pmd.threads[] row). A path that is nowhere changes nothing. */
void snapjson_null_path(json_t *v, const char *path);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapjson.h: a snapshot as one JSON object (schema 1), via jansson. */
#ifndef TT_SNAPJSON_H
#define TT_SNAPJSON_H

#include <jansson.h>

#include "core/snapshot.h"

#define SNAPJSON_SCHEMA 1

/* A new object (json_decref it). Sections appear only when their subsystem runs. */
json_t *snapjson_build(const struct snapshot *snap);

#endif

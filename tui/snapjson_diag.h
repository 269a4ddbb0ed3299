/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapjson_diag.h: a snapshot's diagnoses in JSON: diagnoses[] and the "diag" events. */
#ifndef TT_SNAPJSON_DIAG_H
#define TT_SNAPJSON_DIAG_H

#include <jansson.h>

#include "core/snapshot.h"

/* The findings as JSON: [{id, severity, since, since_time, evidence, conclusion, fix}]. */
json_t *snapjson_findings(const struct diag_finding *f, int n);
/* An event the line writes: not a recorded "diag" event of a diagnosed snapshot (its own
 * replace them, docs/diag.md "JSON"). */
bool snapjson_diag_event_kept(const struct snapshot *s, const struct event *e);
/* The "diag" events of a diagnosed snapshot's findings that started or cleared, appended. */
void snapjson_diag_events(json_t *events, const struct snapshot *s);

#endif

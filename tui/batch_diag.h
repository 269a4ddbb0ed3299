/* SPDX-License-Identifier: GPL-2.0-or-later */
/* batch_diag.h: a JSON line's diagnoses[] and the events of findings starting and clearing. */
#ifndef TT_BATCH_DIAG_H
#define TT_BATCH_DIAG_H

#include <jansson.h>

#include "diag/diag.h"

/* The findings as JSON: [{id, severity, since, since_time, evidence, conclusion, fix}]. */
json_t *batch_diag_json(const struct diag_finding *f, int n);
/*
 * Evaluate st on s and add "diagnoses" to line (snapjson_build's object of s), with an
 * event of kind "diag" for each finding that started or cleared. Events of kind "diag"
 * already on the line (a recording being re-emitted) are replaced by the ones computed
 * here, so a replay from the start writes the same line again.
 */
void batch_diag_add(json_t *line, struct diag_state *st, const struct snapshot *s);

#endif

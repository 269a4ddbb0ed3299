/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_diag.h: the diagnoses of an experiment's passes, tallied per setting (docs/diag.md). */
#ifndef TT_EXP_DIAG_H
#define TT_EXP_DIAG_H

#include <jansson.h>
#include <stddef.h>

#include "diag/diag.h"

/* The findings seen over a setting's passes: each rule's id, in how many passes, its fix. */
struct exp_findings {
	int n;
	char id[DIAG_MAX_FINDINGS][48];
	int passes[DIAG_MAX_FINDINGS];
	char fix[DIAG_MAX_FINDINGS][DIAG_FIX_MAX];
};

/* Add the "diagnoses" of one pass's window (exp_window's JSON) to t. */
void exp_findings_add(struct exp_findings *t, const json_t *window);
/* "findings: ID in 3 of 3 passes (fix KNOB=V); ..." into buf; "" when there are none. */
void exp_findings_text(const struct exp_findings *t, size_t passes, char *buf, size_t len);
/* {"ID": {"passes": N, "fix": "KNOB=V" or null}, ...}: a new reference. */
json_t *exp_findings_json(const struct exp_findings *t);

#endif

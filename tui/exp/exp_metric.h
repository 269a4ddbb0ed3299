/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_metric.h: metrics of a snapshot by JSON path ("pmd.drop_pct", "pmd.threads[*].cpu_pct"). */
#ifndef TT_EXP_METRIC_H
#define TT_EXP_METRIC_H

#include <jansson.h>

/*
 * Evaluate path against a snapshot's JSON: dot-separated object keys; "key[N]"
 * takes element N of an array, "key[*]" sums the rest of the path over every
 * element and "key[avg]" averages it (0 for an empty array). Knob names contain dots, so
 * "knobs.<name>" takes the rest of the path as one key. Returns 0 with the number (true = 1, false
 * = 0), 1 when the path leads to null (a number this sample has not got, as
 * blk.cpu_ns_per_completion without completions: docs/json.md), or -1 when the path does not lead
 * to a number.
 */
int exp_metric(json_t *root, const char *path, double *out);

#endif

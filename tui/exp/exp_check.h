/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exp_check.h: what makes an experiment's pass untrustworthy (a hang), and metric paths
 * checked against a snapshot before any pass is run. */
#ifndef TT_EXP_CHECK_H
#define TT_EXP_CHECK_H

#include <jansson.h>
#include <stddef.h>

/*
 * A window's hang, read from its two snapshots' JSON (first: the sample that opened
 * the window, which also carries the warm-up's events; last: the one that closed it).
 * A pass failed when any of these holds:
 *  - an event of kind "hang" arrived in either snapshot (the engine's watchdog);
 *  - any section says "hung": true (a field a source may add, read defensively);
 *  - blk's completions did not move while requests were in flight, or pmd forwarded
 *    nothing while its sources generated packets.
 * Returns 1 with a one-line reason in out (the hang named), 0 when the pass is sound.
 */
int exp_hang_check(json_t *first, json_t *last, char *out, size_t len);

/* A section of snap says "hung": true (blk: a submitter owed requests completed none in
 * the sample's interval): 1 with its path in out, else 0. */
int exp_hung_flag(json_t *snap, char *out, size_t len);

/*
 * When the hang of a window began, as CLOCK_REALTIME seconds: the watchdog's hang event
 * (in first or last) says when it fired and for how long the thread had made no progress
 * ("... made no progress for N ms ..."); it began that long before. 0 with *since_s set,
 * -1 when no such event is there (a stall seen by the progress check has no start).
 */
int exp_hang_since(json_t *first, json_t *last, double *since_s);

/*
 * Does path (exp_metric.h) lead to a number in snap? 0 when it does; -1 with a message
 * naming the part that is missing and the valid choices at that level ("'nosuch' is
 * not in the snapshot; valid here: est, pmd, blk, knobs, ...").
 */
int exp_metric_check(json_t *snap, const char *path, char *err, size_t len);

#endif

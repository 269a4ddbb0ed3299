/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * after.h: what follows every sample a front end takes (the console, -b, the agent), in one
 * place: the diagnosis rules run once and their findings go on the snapshot (so the JSON line,
 * the exporter and the console read the same ones), the exporter's text is published
 * (--serve), the line is kept in the console's history and recorded (--record).
 */
#ifndef TT_AFTER_H
#define TT_AFTER_H

#include <stdbool.h>
#include <stddef.h>

#include "backends/source.h"
#include "diag/diag.h"
#include "tui/history.h"
#include "tui/options.h"

struct after;

/* The step of one front end, with the recording --record or --record-dir asks for. NULL when
 * that cannot open: said on stderr, *status 1 (or 2 for a refused target). */
struct after *after_open(const struct options *o, int *status);
/* Close the recording and free a (NULL is fine): 1 when a write failed (said on stderr). */
int after_close(struct after *a);
/* The console: every line goes into h as well (the line recorded is the one kept). */
void after_keep_history(struct after *a, struct history *h);
/* A recording is open. */
bool after_recording(const struct after *a);

/*
 * After one sample s of src: the findings on s (the selected host's state with a fleet; a
 * snapshot handed over again is not evaluated again), the exporter's text, then the
 * JSON line when want_line or a history or a recording wants one: kept, recorded (with a
 * fleet, each host's new snapshots are recorded instead, with their "host"). Returns the line
 * (the step's, valid until the next call), or NULL when none was made.
 */
const char *after_sample(struct after *a, struct source *src, struct snapshot *s, bool want_line);
/*
 * Fleet host i (named name): false when no new snapshot came from it; else its line with
 * "host" in *line (NULL when it could not be made), recorded, its findings on it from host
 * i's own state when diagnose (-b: each host's every snapshot).
 */
bool after_fleet_take(struct after *a, struct source *src, int i, const char *name, bool diagnose,
		      const char **line);
/* The recording's news for the status line since the last call: lines dropped because the
 * disk is behind, or the writer's first error (once). */
bool after_record_note(struct after *a, char *buf, size_t len, bool *err);

/* Evaluate st on s (the next sample of st's source) and attach the findings to s. */
void after_diagnose(struct diag_state *st, struct snapshot *s);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* batch.h: `tunetop -b`: JSON Lines on stdout, never curses. */
#ifndef TT_BATCH_H
#define TT_BATCH_H

#include "backends/source.h"
#include "tui/options.h"

/* The first line covers at most this long, so scripts get a line quickly. */
#define BATCH_FIRST_INTERVAL_S 0.1

/* Run until -n lines are written, a signal, or the reader closes the pipe (all exit 0). */
int batch_run(struct source *src, const struct options *o);

/* --record FILE or --record-dir DIR (the store's rotation and retention), NULL when neither
 * was given (*status 0) or it cannot open (*status 1, or 2 for a refused target). */
struct recfile_writer *batch_record_open(const struct options *o, int *status, char *err,
					 size_t errlen);
/* A host's snapshot as one JSON line with a "host" field (-b and --record with --remote);
 * free() it. */
char *batch_host_line(const char *host, const struct snapshot *s);

#endif

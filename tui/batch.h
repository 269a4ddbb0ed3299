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

#endif

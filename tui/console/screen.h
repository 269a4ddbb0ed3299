/* SPDX-License-Identifier: GPL-2.0-or-later */
/* screen.h: the interactive ncurses console. */
#ifndef TT_SCREEN_H
#define TT_SCREEN_H

#include "backends/source.h"
#include "tui/options.h"

/* Run the console until q, -n refreshes or a signal; the terminal is restored on return. */
int screen_run(struct source *src, const struct options *o);

#endif

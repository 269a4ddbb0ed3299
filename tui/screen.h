/* screen.h: the interactive ncurses console. */
#ifndef TT_SCREEN_H
#define TT_SCREEN_H

#include "../engine/engine.h"
#include "options.h"

/* Run the console until q, -n refreshes or a signal; the terminal is restored on return. */
int screen_run(struct engine *eng, const struct options *o);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sig.h: signal handling for both front ends (handlers only set flags). */
#ifndef TT_SIG_H
#define TT_SIG_H

#include <signal.h>

/* Set by SIGINT, SIGTERM and SIGHUP: the main loop leaves cleanly. */
extern volatile sig_atomic_t sig_quit;
/* The number of the signal that set sig_quit. */
extern volatile sig_atomic_t sig_quit_signo;
/* Set by SIGWINCH. */
extern volatile sig_atomic_t sig_winch;

/* Install the handlers; SIGPIPE is ignored so writes fail with EPIPE instead. */
void sig_install(void);

#endif

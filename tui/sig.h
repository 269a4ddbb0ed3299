/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sig.h: signal handling for both front ends (handlers only set flags). */
#ifndef TT_SIG_H
#define TT_SIG_H

#include <signal.h>

/* Set by SIGINT, SIGTERM and SIGHUP: the main loop leaves cleanly. */
extern volatile sig_atomic_t sig_quit;
/* Set by SIGWINCH. */
extern volatile sig_atomic_t sig_winch;

/* Install the handlers; SIGPIPE is ignored so writes fail with EPIPE instead. */
void sig_install(void);
/* A descriptor that polls readable once a quit signal came (-1 before sig_install, or when
 * no pipe could be made): a wait that polls it with its other descriptors needs no timeout
 * to see sig_quit. Only read its readiness; never read from it or close it. */
int sig_quit_fd(void);
/* A descriptor that polls readable once SIGWINCH came (-1 when there is none): the console
 * waits on it so that a resize is drawn at once, without waking on a timer to look. */
int sig_winch_fd(void);
/* Empty it (non-blocking), before sig_winch is cleared and the size asked. */
void sig_winch_drain(void);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sig.c: flag-only signal handlers (async-signal-safe by construction). */
#include "tui/sig.h"

#include <string.h>

volatile sig_atomic_t sig_quit;
volatile sig_atomic_t sig_quit_signo;
volatile sig_atomic_t sig_winch;

static void sig_on_quit(int signo)
{
	sig_quit = 1;
	sig_quit_signo = signo;
}

static void sig_on_winch(int signo)
{
	(void)signo;
	sig_winch = 1;
}

void sig_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocking read or sleep returns EINTR and the loop sees the flag. */
	sa.sa_handler = sig_on_quit;
	/* Ctrl-C and SIGTERM always end tunetop cleanly (a wrapper that ignores
	 * SIGINT for itself still wants the console's Ctrl-C to quit). A SIGHUP
	 * ignored when we started stays ignored: that is what nohup asks for. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct sigaction cur;
	if (sigaction(SIGHUP, NULL, &cur) != 0 || cur.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = sig_on_winch;
	sigaction(SIGWINCH, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sig.c: flag-only signal handlers (async-signal-safe by construction). */
#include "tui/sig.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

volatile sig_atomic_t sig_quit;
/* The number of the signal that set sig_quit. */
static volatile sig_atomic_t sig_quit_signo;
volatile sig_atomic_t sig_winch;

/* The self-pipe: a quit signal writes a byte, so a wait in poll() on any thread sees it
 * at once, whichever thread the kernel chose to run the handler on. Never drained: once
 * a quit signal came, every later wait returns at once, as the loops want. */
static int sig_pipe[2] = {-1, -1};
/* The same for SIGWINCH, drained by its one reader (the console) since it comes again. */
static int sig_winch_pipe[2] = {-1, -1};

static void sig_on_quit(int signo)
{
	int saved = errno; /* the interrupted code may be about to read errno */
	sig_quit = 1;
	sig_quit_signo = signo;
	if (sig_pipe[1] >= 0) {
		ssize_t w =
		    write(sig_pipe[1], "q", 1); /* async-signal-safe; full pipe: already set */
		(void)w;
	}
	errno = saved;
}

static void sig_on_winch(int signo)
{
	int saved = errno;
	(void)signo;
	sig_winch = 1;
	if (sig_winch_pipe[1] >= 0) {
		ssize_t w = write(sig_winch_pipe[1], "w", 1); /* full pipe: a wake is pending */
		(void)w;
	}
	errno = saved;
}

void sig_install(void)
{
	struct sigaction sa;

	if (sig_pipe[0] < 0 && pipe2(sig_pipe, O_NONBLOCK | O_CLOEXEC) != 0)
		sig_pipe[0] = sig_pipe[1] = -1; /* waits then fall back to their own timeouts */
	if (sig_winch_pipe[0] < 0 && pipe2(sig_winch_pipe, O_NONBLOCK | O_CLOEXEC) != 0)
		sig_winch_pipe[0] = sig_winch_pipe[1] = -1;
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

int sig_quit_fd(void)
{
	return sig_pipe[0];
}

int sig_winch_fd(void)
{
	return sig_winch_pipe[0];
}

void sig_winch_drain(void)
{
	char buf[64];
	/* Bounded: a byte a signal; what is left (a storm of them) wakes the next wait. */
	for (int i = 0; sig_winch_pipe[0] >= 0 && i < 8; i++)
		if (read(sig_winch_pipe[0], buf, sizeof(buf)) <= 0)
			break;
}

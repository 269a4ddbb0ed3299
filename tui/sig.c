/* sig.c: flag-only signal handlers (async-signal-safe by construction). */
#include "sig.h"

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
	/* A signal ignored when we started stays ignored (nohup, a shell's background
	 * job): the user asked not to be stopped by it. */
	static const int quit_signals[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof(quit_signals) / sizeof(quit_signals[0]); i++) {
		struct sigaction cur;
		if (sigaction(quit_signals[i], NULL, &cur) == 0 && cur.sa_handler == SIG_IGN)
			continue;
		sigaction(quit_signals[i], &sa, NULL);
	}
	sa.sa_handler = sig_on_winch;
	sigaction(SIGWINCH, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

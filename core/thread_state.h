/* SPDX-License-Identifier: GPL-2.0-or-later */
/* thread_state.h: what a thread is doing, in top's letters (engine threads and host threads). */
#ifndef TT_THREAD_STATE_H
#define TT_THREAD_STATE_H

/*
 * What a thread is doing, as the watchdog sees it. A thread that waits for
 * work that may never come says IDLE (the watchdog ignores it); one that waits
 * for something it is owed (a completion, a wakeup) says WAIT, and a WAIT or
 * RUN thread whose heartbeat stops for engine.watchdog_ms raises one `hang`.
 * Host threads map their /proc state letter onto the same four.
 */
enum ethread_state {
	ETHREAD_RUN, /* "R" working */
	ETHREAD_SLEEP, /* "S" timed sleep it chose (a tick wait, an adaptive sleep) */
	ETHREAD_IDLE, /* "I" nothing to do until someone gives it work */
	ETHREAD_WAIT, /* "D" waiting for something it is owed */
	ETHREAD_STATE_COUNT
};

const char *ethread_state_name(enum ethread_state s); /* "R", "S", "I", "D" or "?" */

#endif

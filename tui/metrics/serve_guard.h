/* SPDX-License-Identifier: GPL-2.0-or-later */
/* serve_guard.h: what keeps slow clients of `--serve` from holding every slot (slowloris). */
#ifndef TT_SERVE_GUARD_H
#define TT_SERVE_GUARD_H

#include <microhttpd.h>
#include <stddef.h>

/*
 * A request's line and headers must all arrive within this many seconds of the connection
 * (or of the previous response on a kept-alive one): libmicrohttpd's own timeout is an idle
 * one, which a client sending one byte a second never reaches.
 */
#define SERVE_HEADER_DEADLINE_S 3
/* Connections one client address may hold; a new one past it closes that address's oldest
 * connection still sending its request (a scraper behind the same address gets through). */
#define SERVE_MAX_PER_IP 32
/* Free slots kept for fresh requests: with fewer, a new connection closes the oldest one
 * (of any address) still sending its request. */
#define SERVE_SPARE_SLOTS 8

/* Starts the deadline thread; 0, or -1 with why in err. Call with signals blocked. */
int serve_guard_start(char *err, size_t errlen);
void serve_guard_stop(void);

/* libmicrohttpd's callbacks (MHD_OPTION_NOTIFY_CONNECTION, MHD_OPTION_NOTIFY_COMPLETED). */
void serve_guard_on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			       enum MHD_ConnectionNotificationCode toe);
void serve_guard_on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			      enum MHD_RequestTerminationCode toe);
/* The request handler calls this: the headers are in, the deadline no longer applies. */
void serve_guard_headers_done(struct MHD_Connection *c);

#endif

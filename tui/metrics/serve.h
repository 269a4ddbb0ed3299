/* SPDX-License-Identifier: GPL-2.0-or-later */
/* serve.h: `--serve [ADDR:]PORT`: GET /metrics from the latest published snapshot text. */
#ifndef TT_SERVE_H
#define TT_SERVE_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/snapshot.h"

/* Limits that keep a bad client from costing more than one slot (tests/cli/test_serve_bad.py). */
#define SERVE_MAX_CONNECTIONS 128 /* more wait unaccepted; serve_guard.h keeps some free */
#define SERVE_CONN_MEMORY_BYTES 8192 /* request line and headers must fit: else 414/431 */
#define SERVE_CONN_TIMEOUT_S 10 /* an idle client is closed (a trickling one: serve_guard.h) */
#define SERVE_NICE 10 /* the server thread's nice: sampling comes first */
/* With scrape-time sampling, the longest a scrape waits for its sample before it is answered
 * from the one before (a host sample takes milliseconds; Prometheus' scrape timeout is 10 s). */
#define SERVE_FRESH_WAIT_MS 2000

struct serve_addr {
	struct sockaddr_storage ss;
	socklen_t len;
	bool v6;
};

/* "9464", "0.0.0.0:9464", "[::1]:9464" (numeric addresses; port 0 picks a free one).
 * Default address 127.0.0.1. 0, or -1 with why in err. */
int serve_parse_addr(const char *text, struct serve_addr *out, char *err, size_t errlen);
/* The address --serve TEXT binds, numeric ("127.0.0.1", "::1"): for the start message. */
void serve_addr_host(const char *text, char *buf, size_t len);

/* Load the exporter module (tunetop-serve.so: libmicrohttpd, TLS, auth; serve_module.h),
 * once; serve_configure and serve_start load it too. 0, or -1 with why (core/module.h). */
int serve_load(char *err, size_t errlen);
/* --metrics-tid: thread series by tid (call before serve_start). */
void serve_metrics_tid(bool on);
/* --web.config.file (NULL: none): TLS and basic auth, read now, before the source opens, so a
 * bad file stops the start. 0; 2 for a file that is not a configuration; 1 unreadable (or no
 * module). */
int serve_configure(const char *web_config, char *err, size_t errlen);
/*
 * Scrape-time sampling (-b --serve, no console): the front end samples when a scrape finds
 * the texts older than min_interval_s (-d) and waits for it (serve_wait_demand), not on a
 * clock: an idle exporter costs nothing. Call before the first serve_publish; a negative
 * interval ends it (the loop is done: a waiting scrape is answered at once).
 */
void serve_on_demand(double min_interval_s);
/* Wait, with no timeout, until a scrape wants a sample (true) or wake_fd polls readable
 * (false: the caller looks at why, e.g. sig_quit_fd()). Front end's thread only. */
bool serve_wait_demand(int wake_fd);
/* Start the module's server thread (libmicrohttpd); 0, or -1 with a message. */
int serve_start(const char *addr_text, char *err, size_t errlen);
/* The port really bound (after serve_start; useful with port 0). */
unsigned serve_port(void);
/*
 * The front end calls this once per sample (console and batch loops): renders
 * the snapshot in both formats and publishes the texts for scrapes. A no-op when
 * no server runs. Only the front end's thread calls it.
 */
void serve_publish(const struct snapshot *snap);
void serve_stop(void);

#endif

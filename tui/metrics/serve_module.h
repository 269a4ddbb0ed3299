/* SPDX-License-Identifier: GPL-2.0-or-later */
/* serve_module.h: the contract between tunetop and its exporter module (tunetop-serve.so). */
#ifndef TT_SERVE_MODULE_H
#define TT_SERVE_MODULE_H

/*
 * Only `--serve` needs libmicrohttpd, and with it gnutls (TLS, and a SHA-256 for the auth
 * cache), libyaml (--web.config.file) and libxcrypt (bcrypt): loaded into every console and
 * every -b they were mapped by runs that serve nothing. So the HTTP side of the exporter
 * (serve_mod.c, serve_guard.c, serve_auth.c, serve_webcfg.c) is a shared module that
 * tui/metrics/serve.c dlopen()s when --serve is given (docs/design.md "Modules"); the texts,
 * their publishing, the scrape-time sampling and gzip (zlib, which the recordings link
 * anyway) stay in the binary.
 *
 * What the module promises, beside core/module.h's contract (one symbol, its table):
 * - It links against libmicrohttpd, gnutls, libyaml, libxcrypt and libc alone: memory, files
 *   and the scrape's text come through struct serve_host. It includes tunetop headers for
 *   their types and constants only.
 * - configure, start and stop are called from the front end's thread, in that order; a
 *   scrape calls host->scrape from libmicrohttpd's thread.
 */

#include <stdbool.h>
#include <stddef.h>

#include "tui/metrics/serve.h"

/* Raised on any change of the structs below or of serve.h's struct serve_addr. */
#define SERVE_MODULE_ABI 1u
#define SERVE_MODULE_FILE "tunetop-serve.so"
#define SERVE_MODULE_SYMBOL "tunetop_serve_module"

/* One scrape's answer, handed over by host->scrape. */
struct serve_body {
	const char *data;
	size_t len;
	const char *content_type;
	bool gzip; /* data is a gzip member: say Content-Encoding: gzip */
	void *ref; /* given back to host->release once the response is sent */
};

/* What the program lends the module. */
struct serve_host {
	/* core/xalloc.h: never NULL. */
	void *(*xmalloc)(size_t size);
	void *(*xcalloc)(size_t n, size_t size);
	char *(*xstrdup)(const char *s);
	/* A regular file (not a symlink) read whole through core/safefile.h, at most max_bytes:
	 * 0; -2 when the file is refused for what it is (a symlink, a FIFO, ...), -1 when it
	 * cannot be read, with why in err; *buf (NUL-terminated, freed with free()) of *len bytes.
	 */
	int (*read_file)(const char *path, size_t max_bytes, char **buf, size_t *len, char *err,
			 size_t errlen);
	/* The text for a request with these Accept and Accept-Encoding headers (either NULL):
	 * true with *out filled, false when no snapshot is published yet. Thread-safe. */
	bool (*scrape)(const char *accept, const char *accept_encoding, struct serve_body *out);
	void (*release)(void *ref);
};

struct serve_module {
	unsigned abi; /* SERVE_MODULE_ABI */
	/* --web.config.file (NULL: none) read now: 0; 2 for a file that is not a configuration;
	 * 1 unreadable, or TLS asked of a libmicrohttpd without it. h is kept. */
	int (*configure)(const struct serve_host *h, const char *web_config, char *err,
			 size_t errlen);
	/* Listen on a (addr_text for the messages) from a thread of libmicrohttpd's; the port
	 * bound in *port. 0, or -1 with why. */
	int (*start)(const struct serve_addr *a, const char *addr_text, unsigned *port, char *err,
		     size_t errlen);
	/* Stop listening and forget the configuration; no scrape runs after it returns. */
	void (*stop)(void);
};

/* The program's side (serve.c): what it lends the module, for the tests that drive the
 * module's parts directly. The module never calls it. */
const struct serve_host *serve_host_get(void);

/* The one exported symbol (SERVE_MODULE_SYMBOL). */
extern const struct serve_module tunetop_serve_module;

#endif

/* serve.c: the /metrics endpoint (libmicrohttpd) and the published texts it answers from. */
#include "tui/metrics/serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "tui/metrics/metrics.h"
#include "tui/metrics/serve_guard.h"

/*
 * A published text: immutable once published, freed by whoever drops the last
 * reference (the front end when it swaps in a newer one, or a response that
 * libmicrohttpd finished sending, possibly much later to a slow client).
 */
struct serve_text {
	atomic_uint refs;
	size_t len;
	char data[];
};

static struct {
	struct MHD_Daemon *mhd;
	/* Held only to swap a pointer (front end) or to take a reference (scrape), so
	 * a scrape never waits for rendering and the front end never for a client. A
	 * mutex rather than an atomic pointer: the reference must be taken before the
	 * front end can drop the text it read (no window where refs may hit 0). */
	pthread_mutex_t lock;
	struct serve_text *cur[METRICS_NFORMATS];
	struct metrics_state st;
	struct metrics_buf buf;
	unsigned port;
} srv = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void serve_text_unref(void *cls)
{
	struct serve_text *t = cls;
	/* acq_rel: every use of the text by this holder happens before the free by the last. */
	if (t && atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) == 1)
		free(t);
}

int serve_parse_addr(const char *text, struct serve_addr *out, char *err, size_t errlen)
{
	char host[64] = "127.0.0.1";
	const char *port = text;

	memset(out, 0, sizeof(*out));
	if (text[0] == '[') {
		const char *end = strchr(text, ']');
		if (!end || end[1] != ':' || (size_t)(end - text - 1) >= sizeof(host)) {
			snprintf(err, errlen, "'%s': an IPv6 address is written [ADDR]:PORT", text);
			return -1;
		}
		memcpy(host, text + 1, (size_t)(end - text - 1));
		host[end - text - 1] = '\0';
		port = end + 2;
		out->v6 = true;
	} else if (strchr(text, ':')) {
		const char *colon = strrchr(text, ':');
		if ((size_t)(colon - text) >= sizeof(host)) {
			snprintf(err, errlen, "'%s': address too long", text);
			return -1;
		}
		memcpy(host, text, (size_t)(colon - text));
		host[colon - text] = '\0';
		port = colon + 1;
	}
	char *e;
	errno = 0;
	long p = strtol(port, &e, 10);
	if (!*port || *e || errno || p < 0 || p > 65535) {
		snprintf(err, errlen, "'%s': the port must be a number 0 to 65535 ([ADDR:]PORT)",
			 text);
		return -1;
	}
	if (out->v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&out->ss;
		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)p);
		if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1) {
			snprintf(err, errlen, "'%s' is not a numeric IPv6 address", host);
			return -1;
		}
		out->len = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&out->ss;
		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)p);
		if (inet_pton(AF_INET, host, &a->sin_addr) != 1) {
			snprintf(err, errlen,
				 "'%s' is not a numeric IPv4 address (IPv6: [ADDR]:PORT)", host);
			return -1;
		}
		out->len = sizeof(*a);
	}
	return 0;
}

static enum MHD_Result serve_reply(struct MHD_Connection *c, unsigned status, const char *body)
{
	struct MHD_Response *r =
	    MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	enum MHD_Result rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

/*
 * The published text with the process_* families of this moment appended (as a client
 * library collects them at the scrape): a new text of this response's own. Takes over the
 * caller's reference to t.
 */
static struct serve_text *serve_with_process(struct serve_text *t, enum metrics_format fmt)
{
	struct metrics_buf b = {0};
	metrics_buf_put(&b, t->data, t->len);
	serve_text_unref(t);
	metrics_add_process(&b, fmt);
	struct serve_text *n = xmalloc(sizeof(*n) + b.len + 1);
	atomic_init(&n->refs, 1); /* the response's reference */
	n->len = b.len;
	memcpy(n->data, b.p, b.len + 1);
	free(b.p);
	return n;
}

/* Runs on libmicrohttpd's thread: answer from the published text, never from the source. */
static enum MHD_Result serve_handler(void *cls, struct MHD_Connection *c, const char *url,
				     const char *method, const char *version,
				     const char *upload_data, size_t *upload_data_size,
				     void **con_cls)
{
	serve_guard_headers_done(c); /* handlers run once the headers are in */
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return serve_reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET /metrics\n");
	if (*upload_data_size) { /* a GET with a body: ignore the body */
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (strcmp(url, "/metrics") != 0)
		return serve_reply(c, MHD_HTTP_NOT_FOUND, "not found: try /metrics\n");

	const char *accept =
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	enum metrics_format fmt = metrics_format_for_accept(accept);
	pthread_mutex_lock(&srv.lock);
	struct serve_text *t = srv.cur[fmt];
	if (t) /* relaxed: the mutex orders it against the swap that could drop it */
		atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
	pthread_mutex_unlock(&srv.lock);
	if (!t)
		return serve_reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "no snapshot yet\n");
	t = serve_with_process(t, fmt);

	struct MHD_Response *r = MHD_create_response_from_buffer_with_free_callback_cls(
	    t->len, t->data, serve_text_unref, t);
	if (!r) {
		serve_text_unref(t);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, metrics_content_type(fmt));
	enum MHD_Result rc = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r); /* the text lives until the response is done with it */
	return rc;
}

static void serve_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	(void)fmt;
	(void)ap; /* bad clients are routine; errors that matter come back from calls */
}

void serve_metrics_tid(bool on)
{
	srv.st.tid = on;
}

int serve_start(const char *addr_text, char *err, size_t errlen)
{
	struct serve_addr a;
	if (serve_parse_addr(addr_text, &a, err, errlen) != 0)
		return -1;

	/* The server thread inherits this mask: Ctrl-C and SIGTERM go to the front end. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (serve_guard_start(err, errlen) != 0) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	srv.mhd = MHD_start_daemon(
	    MHD_USE_AUTO_INTERNAL_THREAD | (a.v6 ? MHD_USE_IPv6 : 0), 0, NULL, NULL, serve_handler,
	    NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&a.ss, MHD_OPTION_CONNECTION_LIMIT,
	    (unsigned)SERVE_MAX_CONNECTIONS, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
	    (size_t)SERVE_CONN_MEMORY_BYTES, MHD_OPTION_CONNECTION_TIMEOUT,
	    (unsigned)SERVE_CONN_TIMEOUT_S, MHD_OPTION_EXTERNAL_LOGGER, serve_log, NULL,
	    MHD_OPTION_NOTIFY_CONNECTION, serve_guard_on_connection, NULL,
	    MHD_OPTION_NOTIFY_COMPLETED, serve_guard_on_completed, NULL,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)(2 * SERVE_MAX_PER_IP), MHD_OPTION_END);
	int saved = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!srv.mhd) {
		serve_guard_stop();
		snprintf(err, errlen, "cannot listen on %s: %s", addr_text,
			 saved ? strerror(saved) : "libmicrohttpd refused");
		return -1;
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(srv.mhd, MHD_DAEMON_INFO_BIND_PORT);
	srv.port = info ? info->port : 0;
	return 0;
}

unsigned serve_port(void)
{
	return srv.port;
}

void serve_publish(const struct snapshot *snap)
{
	struct serve_text *old[METRICS_NFORMATS], *t[METRICS_NFORMATS];

	if (!srv.mhd)
		return;
	metrics_note(&srv.st, snap);
	for (int f = 0; f < METRICS_NFORMATS; f++) {
		metrics_render(snap, &srv.st, (enum metrics_format)f, &srv.buf);
		t[f] = xmalloc(sizeof(*t[f]) + srv.buf.len + 1);
		atomic_init(&t[f]->refs, 1); /* the publisher's reference */
		t[f]->len = srv.buf.len;
		memcpy(t[f]->data, srv.buf.p, srv.buf.len + 1);
	}
	pthread_mutex_lock(&srv.lock);
	for (int f = 0; f < METRICS_NFORMATS; f++) {
		old[f] = srv.cur[f];
		srv.cur[f] = t[f];
	}
	pthread_mutex_unlock(&srv.lock);
	for (int f = 0; f < METRICS_NFORMATS; f++)
		serve_text_unref(old[f]);
}

void serve_stop(void)
{
	if (srv.mhd)
		MHD_stop_daemon(srv.mhd);
	srv.mhd = NULL;
	serve_guard_stop(); /* after the daemon: no connection callback runs any more */
	for (int f = 0; f < METRICS_NFORMATS; f++) {
		serve_text_unref(srv.cur[f]);
		srv.cur[f] = NULL;
	}
	free(srv.buf.p);
	srv.buf = (struct metrics_buf){0};
}

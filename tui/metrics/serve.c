/* serve.c: the /metrics endpoint (libmicrohttpd) and the published texts it answers from. */
#include "tui/metrics/serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/clock.h"
#include "core/xalloc.h"
#include "tui/metrics/metrics.h"
#include "tui/metrics/serve_auth.h"
#include "tui/metrics/serve_guard.h"
#include "tui/metrics/serve_webcfg.h"

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
	struct serve_webcfg cfg; /* --web.config.file (all empty: plain HTTP, no auth) */
	/* Scrape-time sampling (serve_on_demand), all under lock: a scrape that finds the text
	 * older than min_ns sets demand and waits on published for gen to move. */
	uint64_t min_ns; /* 0: the front end samples on its own clock */
	uint64_t pub_ns; /* when the current texts were published */
	uint64_t gen; /* texts published so far */
	bool demand;
	pthread_cond_t demanded, published;
} srv = {.lock = PTHREAD_MUTEX_INITIALIZER,
	 .demanded = PTHREAD_COND_INITIALIZER,
	 .published = PTHREAD_COND_INITIALIZER};

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

/* A gzip member of t's text, a new text of the response's own (t's reference is dropped);
 * t itself when zlib fails, as the client then gets the text uncompressed. */
static struct serve_text *serve_gzip(struct serve_text *t)
{
	z_stream z = {0};
	/* 15 + 16: a gzip header and trailer, not zlib's; level 1: a text of repeated names
	 * packs well at the fastest level, and the server thread stays cheap. */
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return t;
	size_t cap = deflateBound(&z, (uLong)t->len);
	struct serve_text *n = xmalloc(sizeof(*n) + cap);
	z.next_in = (Bytef *)t->data;
	z.avail_in = (uInt)t->len;
	z.next_out = (Bytef *)n->data;
	z.avail_out = (uInt)cap;
	int zr = deflate(&z, Z_FINISH);
	size_t out = cap - z.avail_out;
	deflateEnd(&z);
	if (zr != Z_STREAM_END) {
		free(n);
		return t;
	}
	atomic_init(&n->refs, 1); /* the response's reference */
	n->len = out;
	serve_text_unref(t);
	return n;
}

/* 401 with WWW-Authenticate: Basic (RFC 7617), so a browser asks and a scraper says why. */
static enum MHD_Result serve_unauthorized(struct MHD_Connection *c)
{
	static const char body[] = "authentication needed\n";
	struct MHD_Response *r =
	    MHD_create_response_from_buffer(sizeof(body) - 1, (void *)body, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	enum MHD_Result rc = MHD_queue_basic_auth_fail_response(c, "tunetop", r);
	MHD_destroy_response(r);
	return rc;
}

/*
 * client_auth_type: libmicrohttpd asks for a certificate once it has the CA (HTTPS_MEM_TRUST)
 * but leaves the verdict to the handler: verified against that CA, or (VerifyClientCertIfGiven)
 * none at all.
 */
static bool serve_client_cert_ok(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	if (!ci || !ci->tls_session)
		return false;
	gnutls_session_t s = (gnutls_session_t)ci->tls_session;
	unsigned n = 0, status = 0;
	if (!gnutls_certificate_get_peers(s, &n) || n == 0)
		return srv.cfg.client_auth == SERVE_CLIENT_VERIFY_IF_GIVEN;
	return gnutls_certificate_verify_peers2(s, &status) == 0 && status == 0;
}

/*
 * With scrape-time sampling, under srv.lock: when the texts are older than -d, ask the front
 * end for a sample and wait for it, at most SERVE_FRESH_WAIT_MS (a source that stalls costs
 * a scrape a stale answer, not libmicrohttpd's thread).
 */
static void serve_wait_fresh(void)
{
	uint64_t now = clock_mono_ns();
	if (!srv.min_ns || (srv.cur[0] && now - srv.pub_ns < srv.min_ns))
		return;
	uint64_t gen = srv.gen, end = now + SERVE_FRESH_WAIT_MS * NS_PER_MS;
	srv.demand = true;
	pthread_cond_signal(&srv.demanded);
	while (srv.min_ns && srv.gen == gen && clock_mono_ns() < end) {
		struct timespec ts = clock_ns_to_ts(end);
		pthread_cond_clockwait(&srv.published, &srv.lock, CLOCK_MONOTONIC, &ts);
	}
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
	if (srv.cfg.client_auth != SERVE_CLIENT_NONE && !serve_client_cert_ok(c))
		return serve_reply(c, MHD_HTTP_FORBIDDEN,
				   "a verified client certificate is needed\n");
	if (srv.cfg.nusers) {
		char *pass = NULL;
		char *user = MHD_basic_auth_get_username_password(c, &pass);
		bool ok = serve_auth_check(user, pass);
		MHD_free(user);
		MHD_free(pass);
		if (!ok)
			return serve_unauthorized(c);
	}
	if (strcmp(url, "/metrics") != 0)
		return serve_reply(c, MHD_HTTP_NOT_FOUND, "not found: try /metrics\n");

	const char *accept =
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	enum metrics_format fmt = metrics_format_for_accept(accept);
	bool gz = metrics_accepts_gzip(
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING));
	pthread_mutex_lock(&srv.lock);
	serve_wait_fresh();
	struct serve_text *t = srv.cur[fmt];
	if (t) /* relaxed: the mutex orders it against the swap that could drop it */
		atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
	pthread_mutex_unlock(&srv.lock);
	if (!t)
		return serve_reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "no snapshot yet\n");
	t = serve_with_process(t, fmt);
	if (gz)
		t = serve_gzip(t);

	struct MHD_Response *r = MHD_create_response_from_buffer_with_free_callback_cls(
	    t->len, t->data, serve_text_unref, t);
	if (!r) {
		serve_text_unref(t);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, metrics_content_type(fmt));
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT_ENCODING);
	if (gz)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
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

int serve_configure(const char *web_config, char *err, size_t errlen)
{
	serve_webcfg_free(&srv.cfg);
	if (!web_config)
		return 0;
	int rc = serve_webcfg_load(web_config, &srv.cfg, err, errlen);
	if (rc == 0 && srv.cfg.cert_pem && MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		snprintf(err, errlen, "%s: this libmicrohttpd has no TLS", web_config);
		serve_webcfg_free(&srv.cfg);
		rc = 1;
	}
	serve_auth_users(srv.cfg.users, srv.cfg.nusers);
	return rc;
}

void serve_on_demand(double min_interval_s)
{
	pthread_mutex_lock(&srv.lock);
	srv.min_ns = min_interval_s < 0	  ? 0
		     : min_interval_s > 0 ? (uint64_t)(min_interval_s * 1e9)
					  : 1;
	pthread_cond_broadcast(&srv.published); /* a scrape waiting when it ends waits no more */
	pthread_mutex_unlock(&srv.lock);
}

bool serve_wait_demand(uint64_t timeout_ns)
{
	pthread_mutex_lock(&srv.lock);
	if (!srv.demand) {
		struct timespec ts = clock_ns_to_ts(clock_mono_ns() + timeout_ns);
		pthread_cond_clockwait(&srv.demanded, &srv.lock, CLOCK_MONOTONIC, &ts);
	}
	bool d = srv.demand;
	srv.demand = false;
	pthread_mutex_unlock(&srv.lock);
	return d;
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
	/* TLS from --web.config.file: the PEMs as read at start (libmicrohttpd keeps pointers). */
	struct MHD_OptionItem tls[5];
	int nt = 0;
	if (srv.cfg.cert_pem) {
		tls[nt++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, srv.cfg.cert_pem};
		tls[nt++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, srv.cfg.key_pem};
		tls[nt++] =
		    (struct MHD_OptionItem){MHD_OPTION_HTTPS_PRIORITIES, 0, srv.cfg.priorities};
		if (srv.cfg.ca_pem)
			tls[nt++] =
			    (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_TRUST, 0, srv.cfg.ca_pem};
	}
	tls[nt] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
	srv.mhd = MHD_start_daemon(
	    MHD_USE_AUTO_INTERNAL_THREAD | (a.v6 ? MHD_USE_IPv6 : 0) |
		(srv.cfg.cert_pem ? MHD_USE_TLS : 0),
	    0, NULL, NULL, serve_handler, NULL, MHD_OPTION_ARRAY, tls, MHD_OPTION_SOCK_ADDR,
	    (struct sockaddr *)&a.ss, MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_MAX_CONNECTIONS,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_CONN_MEMORY_BYTES,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_CONN_TIMEOUT_S,
	    MHD_OPTION_EXTERNAL_LOGGER, serve_log, NULL, MHD_OPTION_NOTIFY_CONNECTION,
	    serve_guard_on_connection, NULL, MHD_OPTION_NOTIFY_COMPLETED, serve_guard_on_completed,
	    NULL, MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)(2 * SERVE_MAX_PER_IP),
	    MHD_OPTION_END);
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
	srv.pub_ns = clock_mono_ns();
	srv.gen++;
	pthread_cond_broadcast(&srv.published);
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
	serve_auth_users(NULL, 0);
	serve_webcfg_free(&srv.cfg);
}

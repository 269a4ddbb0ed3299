/* SPDX-License-Identifier: GPL-2.0-or-later */
/* serve_mod.c: the exporter module's HTTP server (libmicrohttpd, TLS, basic auth) answering
 * /metrics with the texts the program hands it (serve_module.h). */
#include <errno.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tui/metrics/serve_auth.h"
#include "tui/metrics/serve_guard.h"
#include "tui/metrics/serve_module.h"
#include "tui/metrics/serve_webcfg.h"

/* Set by configure and start on the front end's thread before the daemon's thread exists, and
 * cleared by stop after it has ended (MHD_stop_daemon joins it): no lock. */
static struct {
	const struct serve_host *h;
	struct MHD_Daemon *mhd;
	struct serve_webcfg cfg; /* --web.config.file (all empty: plain HTTP, no auth) */
} sm;

/* A fixed reply: the landing page (HTML, it starts with '<') or a line of plain text; a 401 with
 * WWW-Authenticate: Basic (RFC 7617), so a browser asks and a scraper says why. */
static enum MHD_Result sm_reply(struct MHD_Connection *c, unsigned status, const char *body)
{
	struct MHD_Response *r =
	    MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				body[0] == '<' ? "text/html; charset=utf-8"
					       : "text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	enum MHD_Result rc = status == MHD_HTTP_UNAUTHORIZED
				 ? MHD_queue_basic_auth_fail_response(c, "tunetop", r)
				 : MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

/* GET /: a page that links to /metrics, as node_exporter's landing page does, so that a
 * browser pointed at the port finds its way (docs/metrics.md "Deploying the exporter"). */
static const char sm_landing[] =
    "<!DOCTYPE html>\n<html><head><title>tunetop exporter</title></head>\n"
    "<body><h1>tunetop exporter</h1>\n<p><a href=\"/metrics\">Metrics</a></p></body></html>\n";

/* The longest "user:password" read from an Authorization header; a longer one is refused. */
#define SM_CREDENTIALS_MAX 1024

/*
 * The user and password of a Basic Authorization header (RFC 7617), in buf. False when there
 * is none, it is not base64, or it holds a NUL byte: a C string would end there, so
 * "pw\0junk" would be checked as "pw" (Go's bcrypt, exporter-toolkit's, compares every byte).
 */
static bool sm_credentials(struct MHD_Connection *c, char *buf, size_t buflen, const char **user,
			   const char **pass)
{
	const char *v =
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
	if (!v || strncasecmp(v, "Basic ", 6) != 0)
		return false;
	v += 6;
	while (*v == ' ')
		v++;
	size_t n = strlen(v);
	while (n && v[n - 1] == ' ')
		n--;
	gnutls_datum_t in = {(unsigned char *)v, (unsigned)n}, out = {NULL, 0};
	if (n == 0 || n > 2 * buflen || gnutls_base64_decode2(&in, &out) < 0)
		return false;
	bool ok = out.size < buflen && !memchr(out.data, '\0', out.size) &&
		  memchr(out.data, ':', out.size);
	if (ok) {
		memcpy(buf, out.data, out.size);
		buf[out.size] = '\0';
		char *colon = strchr(buf, ':');
		*colon = '\0';
		*user = buf;
		*pass = colon + 1;
	}
	explicit_bzero(out.data, out.size);
	gnutls_free(out.data);
	return ok;
}

static void sm_resume(void *arg)
{
	MHD_resume_connection(arg);
}

/*
 * Basic auth without blocking the server's thread: a verdict from the cache at once, else the
 * connection waits suspended while the bcrypt thread checks (serve_auth.h), and this runs again
 * when it is resumed. True: go on; false: return *rc.
 */
static bool sm_authorized(struct MHD_Connection *c, void **con_cls, enum MHD_Result *rc)
{
	struct serve_auth_job *job = *con_cls;
	enum serve_auth_verdict v = SERVE_AUTH_NO;
	char buf[SM_CREDENTIALS_MAX];
	const char *user, *pass;
	if (job) {
		v = serve_auth_job_verdict(job);
	} else if (sm_credentials(c, buf, sizeof(buf), &user, &pass)) {
		v = serve_auth_cached(user, pass);
		const union MHD_ConnectionInfo *ci =
		    MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		uint64_t from = serve_auth_client(ci ? ci->client_addr : NULL);
		if (v == SERVE_AUTH_MISS &&
		    (job = serve_auth_submit(user, pass, from, sm_resume, c))) {
			*con_cls = job;
			MHD_suspend_connection(c); /* before the job can end and resume it */
			serve_auth_go(job);
			*rc = MHD_YES;
		}
		explicit_bzero(buf, sizeof(buf));
		if (job)
			return false;
	}
	if (v == SERVE_AUTH_YES)
		return true;
	if (v == SERVE_AUTH_NO)
		*rc = sm_reply(c, MHD_HTTP_UNAUTHORIZED, "authentication needed\n");
	else if (v == SERVE_AUTH_MISS) /* the queue is full */
		*rc = sm_reply(c, MHD_HTTP_SERVICE_UNAVAILABLE,
			       "too many passwords being checked: try again\n");
	else
		*rc = sm_reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the exporter is stopping\n");
	return false;
}

/* A request is over: its verification (if any) is released, then the guard is told. */
static void sm_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	if (*con_cls)
		serve_auth_job_release(*con_cls);
	*con_cls = NULL;
	serve_guard_on_completed(cls, c, con_cls, toe);
}

/*
 * client_auth_type: libmicrohttpd asks for a certificate once it has the CA (HTTPS_MEM_TRUST)
 * but leaves the verdict to the handler: verified against that CA, or (VerifyClientCertIfGiven)
 * none at all.
 */
static bool sm_client_cert_ok(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	if (!ci || !ci->tls_session)
		return false;
	gnutls_session_t s = (gnutls_session_t)ci->tls_session;
	unsigned n = 0, status = 0;
	if (!gnutls_certificate_get_peers(s, &n) || n == 0)
		return sm.cfg.client_auth == SERVE_CLIENT_VERIFY_IF_GIVEN;
	return gnutls_certificate_verify_peers2(s, &status) == 0 && status == 0;
}

/* Runs on libmicrohttpd's thread: answer from the program's published text. */
static enum MHD_Result sm_handler(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload_data,
				  size_t *upload_data_size, void **con_cls)
{
	serve_guard_headers_done(c); /* handlers run once the headers are in */
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return sm_reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET /metrics\n");
	if (*upload_data_size) { /* a GET with a body: ignore the body */
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (sm.cfg.client_auth != SERVE_CLIENT_NONE && !sm_client_cert_ok(c))
		return sm_reply(c, MHD_HTTP_FORBIDDEN, "a verified client certificate is needed\n");
	enum MHD_Result arc;
	if (sm.cfg.nusers && !sm_authorized(c, con_cls, &arc))
		return arc;
	if (strcmp(url, "/") == 0)
		return sm_reply(c, MHD_HTTP_OK, sm_landing);
	if (strcmp(url, "/metrics") != 0)
		return sm_reply(c, MHD_HTTP_NOT_FOUND, "not found: try /metrics\n");

	struct serve_body b;
	if (!sm.h->scrape(
		MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT),
		MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING),
		&b))
		return sm_reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "no snapshot yet\n");
	struct MHD_Response *r = MHD_create_response_from_buffer_with_free_callback_cls(
	    b.len, (void *)b.data, sm.h->release, b.ref);
	if (!r) {
		sm.h->release(b.ref);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, b.content_type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT_ENCODING);
	if (b.gzip)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
	enum MHD_Result rc = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r); /* the text lives until the response is done with it */
	return rc;
}

static void sm_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	(void)fmt;
	(void)ap; /* bad clients are routine; errors that matter come back from calls */
}

/* Whether cert_pem and key_pem make a pair gnutls takes, so a key that is not the
 * certificate's is named at load (libmicrohttpd's start would say only that it refused). */
static bool sm_tls_pair_ok(const struct serve_webcfg *cfg, const char *path, char *err,
			   size_t errlen)
{
	gnutls_certificate_credentials_t cred;
	if (gnutls_certificate_allocate_credentials(&cred) < 0) {
		snprintf(err, errlen, "%s: gnutls: cannot allocate credentials", path);
		return false;
	}
	gnutls_datum_t c = {(unsigned char *)cfg->cert_pem, (unsigned)strlen(cfg->cert_pem)};
	gnutls_datum_t k = {(unsigned char *)cfg->key_pem, (unsigned)strlen(cfg->key_pem)};
	int rc = gnutls_certificate_set_x509_key_mem2(cred, &c, &k, GNUTLS_X509_FMT_PEM, NULL, 0);
	gnutls_certificate_free_credentials(cred);
	if (rc < 0)
		snprintf(err, errlen, "%s: cert_file and key_file: %s", path,
			 rc == GNUTLS_E_CERTIFICATE_KEY_MISMATCH
			     ? "the key is not the certificate's"
			     : gnutls_strerror(rc));
	return rc >= 0;
}

static int sm_configure(const struct serve_host *h, const char *web_config, char *err,
			size_t errlen)
{
	sm.h = h;
	serve_webcfg_free(&sm.cfg);
	if (!web_config)
		return 0;
	int rc = serve_webcfg_load(h, web_config, &sm.cfg, err, errlen);
	if (rc == 0 && sm.cfg.cert_pem && MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		snprintf(err, errlen, "%s: this libmicrohttpd has no TLS", web_config);
		serve_webcfg_free(&sm.cfg);
		rc = 1;
	}
	if (rc == 0 && sm.cfg.cert_pem && !sm_tls_pair_ok(&sm.cfg, web_config, err, errlen)) {
		serve_webcfg_free(&sm.cfg);
		rc = 2;
	}
	serve_auth_users(sm.cfg.users, sm.cfg.nusers);
	return rc;
}

static int sm_start(const struct serve_addr *a, const char *addr_text, unsigned *port, char *err,
		    size_t errlen)
{
	/* The server thread inherits this mask: Ctrl-C and SIGTERM go to the front end. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (serve_guard_start(err, errlen) != 0) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	if (sm.cfg.nusers && serve_auth_start(err, errlen) != 0) {
		serve_guard_stop();
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	/* TLS from --web.config.file: the PEMs as read at start (libmicrohttpd keeps pointers). */
	struct MHD_OptionItem tls[5];
	int nt = 0;
	if (sm.cfg.cert_pem) {
		tls[nt++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, sm.cfg.cert_pem};
		tls[nt++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, sm.cfg.key_pem};
		tls[nt++] =
		    (struct MHD_OptionItem){MHD_OPTION_HTTPS_PRIORITIES, 0, sm.cfg.priorities};
		if (sm.cfg.ca_pem)
			tls[nt++] =
			    (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_TRUST, 0, sm.cfg.ca_pem};
	}
	tls[nt] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
	sm.mhd = MHD_start_daemon(
	    MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | (a->v6 ? MHD_USE_IPv6 : 0) |
		(sm.cfg.cert_pem ? MHD_USE_TLS : 0),
	    0, NULL, NULL, sm_handler, NULL, MHD_OPTION_ARRAY, tls, MHD_OPTION_SOCK_ADDR,
	    (const struct sockaddr *)&a->ss, MHD_OPTION_CONNECTION_LIMIT,
	    (unsigned)SERVE_MAX_CONNECTIONS, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
	    (size_t)SERVE_CONN_MEMORY_BYTES, MHD_OPTION_CONNECTION_TIMEOUT,
	    (unsigned)SERVE_CONN_TIMEOUT_S, MHD_OPTION_EXTERNAL_LOGGER, sm_log, NULL,
	    MHD_OPTION_NOTIFY_CONNECTION, serve_guard_on_connection, NULL,
	    MHD_OPTION_NOTIFY_COMPLETED, sm_completed, NULL, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
	    (unsigned)(2 * SERVE_MAX_PER_IP), MHD_OPTION_END);
	int saved = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!sm.mhd) {
		serve_auth_stop();
		serve_guard_stop();
		snprintf(err, errlen, "cannot listen on %s: %s", addr_text,
			 saved ? strerror(saved) : "libmicrohttpd refused");
		return -1;
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(sm.mhd, MHD_DAEMON_INFO_BIND_PORT);
	*port = info ? info->port : 0;
	return 0;
}

static void sm_stop(void)
{
	/* Every verification still waiting is answered first (libmicrohttpd must not stop with a
	 * connection suspended), and a bcrypt running is left to end on its own. */
	serve_auth_stop();
	if (sm.mhd)
		MHD_stop_daemon(sm.mhd);
	sm.mhd = NULL;
	serve_guard_stop(); /* after the daemon: no connection callback runs any more */
	serve_auth_users(NULL, 0);
	serve_webcfg_free(&sm.cfg);
}

const struct serve_module tunetop_serve_module = {
    .abi = SERVE_MODULE_ABI, .configure = sm_configure, .start = sm_start, .stop = sm_stop};

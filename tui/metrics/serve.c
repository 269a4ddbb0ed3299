/* SPDX-License-Identifier: GPL-2.0-or-later */
/* serve.c: the published texts /metrics answers from, and the exporter module (HTTP, TLS,
 * auth: serve_module.h) loaded for --serve and handed them. */
#include "tui/metrics/serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <zlib.h>

#include "core/clock.h"
#include "core/module.h"
#include "core/safefile.h"
#include "core/xalloc.h"
#include "tui/metrics/metrics.h"
#include "tui/metrics/serve_module.h"

/* How often a demand wait looks when it has no descriptor to sleep on (no eventfd). */
#define SERVE_DEMAND_POLL_MS 50

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
	/* The module, loaded by serve_configure; running between serve_start and serve_stop
	 * (front end's thread only). */
	const struct serve_module *mod;
	bool running;
	/* Held only to swap a pointer (front end) or to take a reference (scrape), so
	 * a scrape never waits for rendering and the front end never for a client. A
	 * mutex rather than an atomic pointer: the reference must be taken before the
	 * front end can drop the text it read (no window where refs may hit 0). */
	pthread_mutex_t lock;
	struct serve_text *cur[METRICS_NFORMATS];
	struct metrics_state st;
	struct metrics_buf buf;
	unsigned port;
	/* Scrape-time sampling (serve_on_demand), all under lock: a scrape that finds the text
	 * older than min_ns sets demand and waits on published for gen to move. */
	uint64_t min_ns; /* 0: the front end samples on its own clock */
	uint64_t pub_ns; /* when the current texts were published */
	uint64_t gen; /* texts published so far */
	bool demand;
	/* Readable while a demand waits (an eventfd the scrape writes after setting demand), so
	 * the front end sleeps in poll() with its quit descriptor, not on a timed condvar. -1
	 * outside scrape-time sampling. */
	int demand_fd;
	pthread_cond_t published;
} srv = {.lock = PTHREAD_MUTEX_INITIALIZER, .demand_fd = -1, .published = PTHREAD_COND_INITIALIZER};

static void serve_text_unref(void *cls)
{
	struct serve_text *t = cls;
	/* acq_rel: every use of the text by this holder happens before the free by the last. */
	if (t && atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) == 1)
		free(t);
}

/* Whether ip is the subnet broadcast of interface i: its flagged broadcast address, or the
 * last address of its prefix (below /31). The loopback carries no IFF_BROADCAST, yet the
 * kernel routes 127.255.255.255 as a broadcast on it ("ip route show table local"). */
static bool serve_if_broadcast(const struct ifaddrs *i, in_addr_t ip)
{
	if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
		return false;
	if ((i->ifa_flags & IFF_BROADCAST) && i->ifa_broadaddr &&
	    ((const struct sockaddr_in *)i->ifa_broadaddr)->sin_addr.s_addr == ip)
		return true;
	if (!i->ifa_netmask || i->ifa_netmask->sa_family != AF_INET)
		return false;
	uint32_t mask = ntohl(((const struct sockaddr_in *)i->ifa_netmask)->sin_addr.s_addr);
	uint32_t addr = ntohl(((const struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr);
	return (~mask & 0xfffffffeu) && ntohl(ip) == (addr | ~mask);
}

/*
 * Whether a is an address a server can listen on for one host's clients: not multicast
 * (224.0.0.0/4, ff00::/8, and IPv4 multicast mapped into IPv6) nor a broadcast address
 * (255.255.255.255, or an interface's subnet broadcast). Linux binds a TCP socket to
 * either, and nothing ever connects.
 */
static bool serve_addr_unicast(const struct serve_addr *a, const char *host, char *err,
			       size_t errlen)
{
	const char *what = NULL;
	if (a->v6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&a->ss;
		if (IN6_IS_ADDR_MULTICAST(&s6->sin6_addr) ||
		    (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr) &&
		     (s6->sin6_addr.s6_addr[12] & 0xf0) == 0xe0))
			what = "a multicast address";
	} else {
		in_addr_t ip = ((const struct sockaddr_in *)&a->ss)->sin_addr.s_addr;
		struct ifaddrs *ifs = NULL, *i;
		if (IN_MULTICAST(ntohl(ip)))
			what = "a multicast address";
		else if (ip == htonl(INADDR_BROADCAST))
			what = "the broadcast address";
		else if (getifaddrs(&ifs) == 0)
			for (i = ifs; i && !what; i = i->ifa_next)
				if (serve_if_broadcast(i, ip))
					what = "an interface's broadcast address";
		if (ifs)
			freeifaddrs(ifs);
	}
	if (what)
		snprintf(err, errlen, "'%s' is %s: a server listens on a unicast one", host, what);
	return !what;
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
	return serve_addr_unicast(out, host, err, errlen) ? 0 : -1;
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
	if (srv.demand_fd >= 0) {
		uint64_t one = 1;
		ssize_t w = write(srv.demand_fd, &one, sizeof(one)); /* non-blocking, never full */
		(void)w;
	}
	while (srv.min_ns && srv.gen == gen && clock_mono_ns() < end) {
		struct timespec ts = clock_ns_to_ts(end);
		pthread_cond_clockwait(&srv.published, &srv.lock, CLOCK_MONOTONIC, &ts);
	}
}

/* The module's host->scrape, on libmicrohttpd's thread: the latest text, never the source. */
static bool serve_scrape(const char *accept, const char *accept_encoding, struct serve_body *out)
{
	enum metrics_format fmt = metrics_format_for_accept(accept);
	bool gz = metrics_accepts_gzip(accept_encoding);
	pthread_mutex_lock(&srv.lock);
	serve_wait_fresh();
	struct serve_text *t = srv.cur[fmt];
	if (t) /* relaxed: the mutex orders it against the swap that could drop it */
		atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
	pthread_mutex_unlock(&srv.lock);
	if (!t)
		return false;
	t = serve_with_process(t, fmt);
	struct serve_text *z = gz ? serve_gzip(t) : t;
	*out = (struct serve_body){.data = z->data,
				   .len = z->len,
				   .content_type = metrics_content_type(fmt),
				   .gzip = z != t,
				   .ref = z};
	return true;
}

static int serve_read_file(const char *path, size_t max_bytes, char **buf, size_t *len, char *err,
			   size_t errlen)
{
	const struct safefile_limits lim = {.max_bytes = max_bytes, .no_symlink = true};
	return safefile_read(path, &lim, buf, len, err, errlen);
}

static const struct serve_host serve_host = {.xmalloc = xmalloc,
					     .xcalloc = xcalloc,
					     .xstrdup = xstrdup,
					     .read_file = serve_read_file,
					     .scrape = serve_scrape,
					     .release = serve_text_unref};

const struct serve_host *serve_host_get(void)
{
	return &serve_host;
}

static struct mod_spec serve_spec = MOD_SPEC("exporter", SERVE_MODULE_FILE, SERVE_MODULE_SYMBOL,
					     SERVE_MODULE_ABI, struct serve_module);

void serve_metrics_tid(bool on)
{
	srv.st.tid = on;
}

int serve_load(char *err, size_t errlen)
{
	return (srv.mod = mod_load(&serve_spec, err, errlen)) ? 0 : -1;
}

int serve_configure(const char *web_config, char *err, size_t errlen)
{
	if (serve_load(err, errlen) != 0)
		return 1;
	return srv.mod->configure(&serve_host, web_config, err, errlen);
}

void serve_addr_host(const char *text, char *buf, size_t len)
{
	struct serve_addr a;
	char err[160];
	const void *in = NULL;
	if (serve_parse_addr(text, &a, err, sizeof(err)) == 0)
		in = a.v6 ? (const void *)&((struct sockaddr_in6 *)&a.ss)->sin6_addr
			  : (const void *)&((struct sockaddr_in *)&a.ss)->sin_addr;
	if (!in || !inet_ntop(a.v6 ? AF_INET6 : AF_INET, in, buf, (socklen_t)len))
		snprintf(buf, len, "?");
}

void serve_on_demand(double min_interval_s)
{
	pthread_mutex_lock(&srv.lock);
	srv.min_ns = min_interval_s < 0	  ? 0
		     : min_interval_s > 0 ? (uint64_t)(min_interval_s * 1e9)
					  : 1;
	if (min_interval_s >= 0 && srv.demand_fd < 0)
		srv.demand_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); /* -1: waits time out */
	if (min_interval_s < 0 && srv.demand_fd >= 0) {
		close(srv.demand_fd); /* under the lock: no scrape is writing it */
		srv.demand_fd = -1;
	}
	pthread_cond_broadcast(&srv.published); /* a scrape waiting when it ends waits no more */
	pthread_mutex_unlock(&srv.lock);
}

bool serve_wait_demand(int wake_fd)
{
	/* Only the front end's thread changes demand_fd (serve_on_demand), so it reads it
	 * unlocked here. Without both descriptors the wait falls back to a short timeout. */
	int fd = srv.demand_fd;
	struct pollfd p[2] = {{.fd = fd, .events = POLLIN}, {.fd = wake_fd, .events = POLLIN}};
	if (poll(p, 2, fd < 0 || wake_fd < 0 ? SERVE_DEMAND_POLL_MS : -1) > 0 && fd >= 0 &&
	    (p[0].revents & POLLIN)) {
		uint64_t n;
		ssize_t r = read(fd, &n, sizeof(n)); /* drain; demand itself says what is wanted */
		(void)r;
	}
	pthread_mutex_lock(&srv.lock);
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
	if (serve_load(err, errlen) != 0)
		return -1;
	if (srv.mod->start(&a, addr_text, &srv.port, err, errlen) != 0)
		return -1;
	srv.running = true;
	return 0;
}

unsigned serve_port(void)
{
	return srv.port;
}

void serve_publish(const struct snapshot *snap)
{
	struct serve_text *old[METRICS_NFORMATS], *t[METRICS_NFORMATS];

	if (!srv.running)
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
	/* Whatever asked for it, this sample answers every scrape waiting now: a demand left
	 * standing would take one more sample that no scrape wants (a scrape before the first
	 * sample would make the front end sample twice in a row). */
	srv.demand = false;
	pthread_cond_broadcast(&srv.published);
	pthread_mutex_unlock(&srv.lock);
	for (int f = 0; f < METRICS_NFORMATS; f++)
		serve_text_unref(old[f]);
}

void serve_stop(void)
{
	if (srv.mod)
		srv.mod->stop(); /* no scrape runs after it: the texts are the front end's again */
	srv.running = false;
	for (int f = 0; f < METRICS_NFORMATS; f++) {
		serve_text_unref(srv.cur[f]);
		srv.cur[f] = NULL;
	}
	free(srv.buf.p);
	srv.buf = (struct metrics_buf){0};
}

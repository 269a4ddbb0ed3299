/* SPDX-License-Identifier: GPL-2.0-or-later */
/* serve_guard.c: header deadline, per-address limit and eviction for `--serve`'s connections. */
#include "tui/metrics/serve_guard.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "tui/metrics/serve.h"

/* How late past its deadline a connection may be closed: the guard sleeps until the
 * earliest deadline plus this, so close deadlines are handled in one wake-up. */
#define SERVE_GUARD_SLOP_NS (250 * NS_PER_MS)

/*
 * One tracked connection. A slot is taken when libmicrohttpd starts a connection and
 * freed when it reports it closed, which it does before closing the socket: so while
 * the lock is held a slot's fd is still that connection's and shutdown() cannot reach
 * a reused descriptor. shutdown() (not close) lets libmicrohttpd see EOF and free the
 * connection itself on its own thread.
 */
struct guard_conn {
	bool used;
	bool waiting; /* its request's line or headers are still arriving */
	bool closing; /* shut down by the guard, not yet reported closed */
	int fd;
	uint64_t since_ns; /* when the current request began to arrive */
	struct sockaddr_storage addr;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
	bool running, stop;
	struct guard_conn conns[SERVE_MAX_CONNECTIONS];
} g = {.lock = PTHREAD_MUTEX_INITIALIZER};

static bool guard_same_addr(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return memcmp(&((const struct sockaddr_in *)a)->sin_addr,
			      &((const struct sockaddr_in *)b)->sin_addr,
			      sizeof(struct in_addr)) == 0;
	if (a->ss_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			      &((const struct sockaddr_in6 *)b)->sin6_addr,
			      sizeof(struct in6_addr)) == 0;
	return false;
}

/* Under g.lock. */
static void guard_close(struct guard_conn *k)
{
	k->closing = true;
	shutdown(k->fd, SHUT_RDWR);
}

/* Under g.lock: closes the oldest connection still sending its request, of addr when
 * addr is set; skips me (the connection being admitted). */
static void guard_evict_oldest(const struct guard_conn *me, const struct sockaddr_storage *addr)
{
	struct guard_conn *old = NULL;
	for (size_t i = 0; i < SERVE_MAX_CONNECTIONS; i++) {
		struct guard_conn *k = &g.conns[i];
		if (!k->used || k->closing || !k->waiting || k == me)
			continue;
		if (addr && !guard_same_addr(&k->addr, addr))
			continue;
		if (!old || k->since_ns < old->since_ns)
			old = k;
	}
	if (old)
		guard_close(old);
}

/* Under g.lock: a new connection is in slot me; make room as the limits say. */
static void guard_admit(struct guard_conn *me)
{
	size_t total = 0, same = 0;
	for (size_t i = 0; i < SERVE_MAX_CONNECTIONS; i++) {
		const struct guard_conn *k = &g.conns[i];
		if (!k->used || k->closing)
			continue;
		total++;
		if (guard_same_addr(&k->addr, &me->addr))
			same++;
	}
	if (same > SERVE_MAX_PER_IP)
		guard_evict_oldest(me, &me->addr);
	else if (total > SERVE_MAX_CONNECTIONS - SERVE_SPARE_SLOTS)
		guard_evict_oldest(me, NULL);
}

static struct guard_conn *guard_find(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? ci->socket_context : NULL;
}

void serve_guard_on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			       enum MHD_ConnectionNotificationCode toe)
{
	/* The first connection lowers the server thread's priority, so on a busy machine a
	 * flood of clients takes CPU from the server before it takes any from sampling. */
	static _Thread_local bool niced;
	(void)cls;
	if (!niced) {
		niced = true;
		setpriority(PRIO_PROCESS, (id_t)gettid(), SERVE_NICE); /* best effort */
	}
	pthread_mutex_lock(&g.lock);
	if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
		struct guard_conn *k = *socket_context;
		if (k)
			k->used = false;
		*socket_context = NULL;
		pthread_mutex_unlock(&g.lock);
		return;
	}
	const union MHD_ConnectionInfo *fdi =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	const union MHD_ConnectionInfo *ai =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	struct guard_conn *me = NULL;
	for (size_t i = 0; i < SERVE_MAX_CONNECTIONS && fdi; i++)
		if (!g.conns[i].used) {
			me = &g.conns[i];
			break;
		}
	if (me) {
		memset(me, 0, sizeof(*me));
		me->used = me->waiting = true;
		me->fd = fdi->connect_fd;
		me->since_ns = clock_mono_ns();
		if (ai && ai->client_addr) {
			socklen_t len = ai->client_addr->sa_family == AF_INET6
					    ? sizeof(struct sockaddr_in6)
					    : sizeof(struct sockaddr_in);
			memcpy(&me->addr, ai->client_addr, len);
		}
		guard_admit(me);
		pthread_cond_signal(&g.wake); /* a new deadline: the guard may be sleeping idle */
	}
	*socket_context = me;
	pthread_mutex_unlock(&g.lock);
}

void serve_guard_headers_done(struct MHD_Connection *c)
{
	struct guard_conn *k = guard_find(c);
	if (!k)
		return;
	pthread_mutex_lock(&g.lock);
	k->waiting = false;
	pthread_mutex_unlock(&g.lock);
}

void serve_guard_on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			      enum MHD_RequestTerminationCode toe)
{
	(void)cls, (void)con_cls, (void)toe;
	struct guard_conn *k = guard_find(c);
	if (!k)
		return;
	/* A kept-alive connection waits for its next request: the deadline starts again. */
	pthread_mutex_lock(&g.lock);
	k->waiting = true;
	k->since_ns = clock_mono_ns();
	pthread_cond_signal(&g.wake); /* its deadline starts now */
	pthread_mutex_unlock(&g.lock);
}

static void *guard_main(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "tt-serve-guard");
	pthread_mutex_lock(&g.lock);
	while (!g.stop) {
		/* Close what is past its deadline and sleep until the next one; with no request
		 * arriving, sleep until a connection comes (an idle exporter never wakes). */
		uint64_t now = clock_mono_ns(), next = UINT64_MAX;
		const uint64_t limit = (uint64_t)SERVE_HEADER_DEADLINE_S * NS_PER_S;
		for (size_t i = 0; i < SERVE_MAX_CONNECTIONS; i++) {
			struct guard_conn *k = &g.conns[i];
			if (!k->used || !k->waiting || k->closing)
				continue;
			if (now - k->since_ns > limit)
				guard_close(k);
			else if (k->since_ns + limit < next)
				next = k->since_ns + limit;
		}
		if (next == UINT64_MAX) {
			pthread_cond_wait(&g.wake, &g.lock);
		} else {
			struct timespec ts = clock_ns_to_ts(next + SERVE_GUARD_SLOP_NS);
			pthread_cond_timedwait(&g.wake, &g.lock, &ts);
		}
	}
	pthread_mutex_unlock(&g.lock);
	return NULL;
}

int serve_guard_start(char *err, size_t errlen)
{
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* the deadline is monotonic time */
	pthread_cond_init(&g.wake, &ca);
	pthread_condattr_destroy(&ca);
	g.stop = false;
	int rc = pthread_create(&g.thread, NULL, guard_main, NULL);
	if (rc) {
		snprintf(err, errlen, "cannot start the connection guard: %s", strerror(rc));
		pthread_cond_destroy(&g.wake);
		return -1;
	}
	g.running = true;
	return 0;
}

void serve_guard_stop(void)
{
	if (!g.running)
		return;
	pthread_mutex_lock(&g.lock);
	g.stop = true;
	pthread_cond_signal(&g.wake);
	pthread_mutex_unlock(&g.lock);
	pthread_join(g.thread, NULL);
	pthread_cond_destroy(&g.wake);
	g.running = false;
}

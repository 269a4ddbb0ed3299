/* SPDX-License-Identifier: GPL-2.0-or-later */
/* source_async.c: a source's sample() on a sampler thread ("tt-sampler") and its knob writes
 * there or, for a source with knobs_apart, on a writer thread ("tt-writer"); the console swaps
 * in the newest snapshot and gets knob results as messages (source_async.h). */
#include "backends/source_async.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/xalloc.h"

#define ASYNC_QUEUE 16

struct async_req {
	uint64_t id;
	enum knob_id knob;
	int64_t v;
};

struct source_async {
	struct source *src;
	pthread_t thread, writer;
	bool apart; /* knob writes on the writer thread (src->ops->knobs_apart) */
	bool sampler; /* the sampler thread runs (not for source_async_start_writer()) */
	int efd;
	pthread_mutex_t mu; /* guards everything below (never held across a source call) */
	pthread_cond_t cv; /* the sampler's: a poke, stop (and a request when not apart) */
	pthread_cond_t wcv; /* the writer's: a request, stop */
	bool stop, poke;
	uint64_t interval_ns;
	struct snapshot *ready; /* the newest published snapshot */
	bool fresh; /* ready was not taken yet */
	struct snapshot *work; /* the sampler's own (touched only by the sampler thread) */
	struct async_req req[ASYNC_QUEUE];
	int nreq, req_head;
	struct source_knob_result res[ASYNC_QUEUE];
	int nres, res_head;
	int inflight; /* requests taken by the thread that writes and not answered */
	int64_t knobs[K_COUNT]; /* the values in force as last read (a sample or a write) */
	/* Knobs a write answered (read back) while the sample in progress ran: that sample may
	 * have read them before the write, so it publishes the write's values, not a step back. */
	bool wrote[K_COUNT];
	uint64_t next_id;
};

static void async_wake(struct source_async *a)
{
	uint64_t one = 1;
	/* An eventfd counter cannot overflow here; EAGAIN only if it did: it is readable anyway. */
	while (write(a->efd, &one, sizeof(one)) < 0 && errno == EINTR)
		;
}

static void async_publish(struct source_async *a)
{
	pthread_mutex_lock(&a->mu);
	for (int k = 0; k < K_COUNT; k++)
		if (a->wrote[k])
			a->work->knobs[k] = a->knobs[k];
	struct snapshot *t = a->ready;
	a->ready = a->work;
	a->work = t;
	a->fresh = true;
	memcpy(a->knobs, a->ready->knobs, sizeof(a->knobs));
	pthread_mutex_unlock(&a->mu);
	async_wake(a);
}

/*
 * The oldest request, made and answered; called and returns with mu held (dropped around the
 * source call). Results go out in the order the requests came: one thread takes them, one at
 * a time.
 */
static void async_one_request(struct source_async *a)
{
	struct async_req r = a->req[a->req_head];
	a->req_head = (a->req_head + 1) % ASYNC_QUEUE;
	a->nreq--;
	a->inflight++;
	pthread_mutex_unlock(&a->mu);
	struct source_knob_result out;
	source_knob_request(a->src, r.knob, r.v, &out);
	out.id = r.id;
	pthread_mutex_lock(&a->mu);
	a->inflight--;
	if (out.rc == 0) {
		a->knobs[out.knob] = out.stored;
		a->wrote[out.knob] = a->apart; /* on the sampler's thread no sample ran meanwhile */
	}
	if (a->nres == ASYNC_QUEUE) { /* the console stopped reading: drop the oldest */
		a->res_head = (a->res_head + 1) % ASYNC_QUEUE;
		a->nres--;
	}
	a->res[(a->res_head + a->nres++) % ASYNC_QUEUE] = out;
	a->poke = true; /* a fresh snapshot shows the value read back */
	pthread_cond_signal(&a->cv);
	pthread_mutex_unlock(&a->mu);
	async_wake(a);
	pthread_mutex_lock(&a->mu);
}

static void *async_main(void *arg)
{
	struct source_async *a = arg;
	uint64_t next = clock_mono_ns();

	pthread_setname_np(pthread_self(), "tt-sampler");
	pthread_mutex_lock(&a->mu);
	while (!a->stop) {
		if (!a->apart && a->nreq > 0) {
			async_one_request(a);
			continue;
		}
		uint64_t now = clock_mono_ns();
		if (a->poke || now >= next) {
			a->poke = false;
			memset(a->wrote, 0, sizeof(a->wrote)); /* this sample reads what is done */
			uint64_t iv = a->interval_ns;
			pthread_mutex_unlock(&a->mu);
			source_sample(a->src, a->work);
			async_publish(a);
			uint64_t taken = now;
			now = clock_mono_ns();
			next = clock_next_due(next, iv, taken, now);
			if (next <= now)
				next = now + iv; /* after a slow sample: rest, no burst */
			pthread_mutex_lock(&a->mu);
			continue;
		}
		struct timespec ts = {.tv_sec = (time_t)(next / NS_PER_S),
				      .tv_nsec = (long)(next % NS_PER_S)};
		pthread_cond_timedwait(&a->cv, &a->mu, &ts);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

/* The writer: requests in order, while the sampler keeps its interval. At stop, a write in
 * progress ends (within its own deadline) and those still waiting are dropped. */
static void *async_writer(void *arg)
{
	struct source_async *a = arg;

	pthread_setname_np(pthread_self(), "tt-writer");
	pthread_mutex_lock(&a->mu);
	while (!a->stop) {
		if (a->nreq > 0)
			async_one_request(a);
		else
			pthread_cond_wait(&a->wcv, &a->mu);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

static struct source_async *async_start(struct source *src, uint64_t interval_ns, bool sampler,
					char *err, size_t errlen)
{
	struct source_async *a = xcalloc(1, sizeof(*a));
	pthread_condattr_t ca;

	a->src = src;
	a->interval_ns = interval_ns ? interval_ns : NS_PER_S;
	a->ready = snapshot_new();
	a->work = snapshot_new();
	for (int k = 0; k < K_COUNT; k++) /* until the first sample */
		a->knobs[k] = knob_table[k].def;
	a->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (a->efd < 0) {
		snprintf(err, errlen, "eventfd: %s", strerror(errno));
		goto fail;
	}
	pthread_mutex_init(&a->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* clock_mono_ns()'s clock */
	pthread_cond_init(&a->cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&a->wcv, NULL);
	a->apart = src->ops->knobs_apart;
	int rc = a->apart ? pthread_create(&a->writer, NULL, async_writer, a) : 0;
	if (rc != 0) {
		snprintf(err, errlen, "writer thread: %s", strerror(rc));
		goto fail_sync;
	}
	a->sampler = sampler;
	rc = sampler ? pthread_create(&a->thread, NULL, async_main, a) : 0;
	if (rc != 0) {
		snprintf(err, errlen, "sampler thread: %s", strerror(rc));
		if (a->apart) {
			pthread_mutex_lock(&a->mu);
			a->stop = true;
			pthread_cond_signal(&a->wcv);
			pthread_mutex_unlock(&a->mu);
			pthread_join(a->writer, NULL);
		}
		goto fail_sync;
	}
	return a;
fail_sync:
	pthread_cond_destroy(&a->wcv);
	pthread_cond_destroy(&a->cv);
	pthread_mutex_destroy(&a->mu);
	close(a->efd);
fail:
	snapshot_free(a->ready);
	snapshot_free(a->work);
	free(a);
	return NULL;
}

struct source_async *source_async_start(struct source *src, uint64_t interval_ns, char *err,
					size_t errlen)
{
	return async_start(src, interval_ns, true, err, errlen);
}

struct source_async *source_async_start_writer(struct source *src, char *err, size_t errlen)
{
	if (!src->ops->knobs_apart) {
		snprintf(err, errlen, "%s: knob writes cannot run beside its samples",
			 src->ops->name);
		return NULL;
	}
	return async_start(src, 0, false, err, errlen);
}

void source_async_stop(struct source_async *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = true;
	pthread_cond_signal(&a->cv);
	pthread_cond_signal(&a->wcv);
	pthread_mutex_unlock(&a->mu);
	if (a->sampler)
		pthread_join(a->thread, NULL); /* a sample: bounded by the source's deadlines */
	if (a->apart)
		pthread_join(a->writer, NULL); /* a write in progress: at most its own deadline */
	pthread_cond_destroy(&a->wcv);
	pthread_cond_destroy(&a->cv);
	pthread_mutex_destroy(&a->mu);
	close(a->efd);
	snapshot_free(a->ready);
	snapshot_free(a->work);
	free(a);
}

int source_async_fd(const struct source_async *a)
{
	return a->efd;
}

static void async_drain(struct source_async *a)
{
	uint64_t v;
	while (read(a->efd, &v, sizeof(v)) < 0 && errno == EINTR)
		;
}

bool source_async_take(struct source_async *a, struct snapshot **snap)
{
	bool got = false;
	async_drain(a);
	pthread_mutex_lock(&a->mu);
	if (a->fresh) {
		struct snapshot *t = a->ready;
		a->ready = *snap;
		*snap = t;
		a->fresh = false;
		got = true;
	}
	pthread_mutex_unlock(&a->mu);
	return got;
}

void source_async_poke(struct source_async *a)
{
	pthread_mutex_lock(&a->mu);
	a->poke = true;
	pthread_cond_signal(&a->cv);
	pthread_mutex_unlock(&a->mu);
}

void source_async_interval(struct source_async *a, uint64_t interval_ns)
{
	pthread_mutex_lock(&a->mu);
	a->interval_ns = interval_ns ? interval_ns : NS_PER_S;
	pthread_mutex_unlock(&a->mu);
}

int source_async_knob_request(struct source_async *a, enum knob_id id, int64_t v,
			      struct source_knob_result *r)
{
	const struct knob_def *d = &knob_table[id];
	*r = (struct source_knob_result){.knob = id, .requested = v};
	/* Refusals are pure (no I/O): answered here, at once, with the value in force as last
	 * read (asking the source would be I/O on the caller's thread). */
	const char *why = source_knob_refusal(a->src, id);
	pthread_mutex_lock(&a->mu);
	r->stored = a->knobs[id];
	if (why) {
		pthread_mutex_unlock(&a->mu);
		snprintf(r->err, sizeof(r->err), "%s: %s", d->name, why);
		r->rc = KNOB_ERR_USAGE;
		return 0;
	}
	if (a->nreq == ASYNC_QUEUE) {
		pthread_mutex_unlock(&a->mu);
		snprintf(r->err, sizeof(r->err), "%s: %d writes are waiting already: try again",
			 d->name, ASYNC_QUEUE);
		r->rc = KNOB_ERR_RUNTIME;
		return 0;
	}
	r->id = ++a->next_id;
	a->req[(a->req_head + a->nreq++) % ASYNC_QUEUE] =
	    (struct async_req){.id = r->id, .knob = id, .v = v};
	pthread_cond_signal(a->apart ? &a->wcv : &a->cv);
	pthread_mutex_unlock(&a->mu);
	return 1;
}

bool source_async_result(struct source_async *a, struct source_knob_result *out)
{
	bool got = false;
	pthread_mutex_lock(&a->mu);
	if (a->nres > 0) {
		*out = a->res[a->res_head];
		a->res_head = (a->res_head + 1) % ASYNC_QUEUE;
		a->nres--;
		got = true;
	}
	pthread_mutex_unlock(&a->mu);
	return got;
}

int source_async_pending(struct source_async *a)
{
	pthread_mutex_lock(&a->mu);
	int n = a->nreq + a->inflight;
	pthread_mutex_unlock(&a->mu);
	return n;
}

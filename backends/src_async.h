/* src_async.h: any source on its own sampler thread, so the thread that draws never waits. */
#ifndef TT_SRC_ASYNC_H
#define TT_SRC_ASYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/source.h"

struct source_async;

/* The result of one knob write request (source_knob_set() run on the sampler thread). */
struct source_async_result {
	uint64_t id; /* from source_async_knob_request() */
	enum knob_id knob;
	int64_t requested;
	int rc; /* 0 or KNOB_ERR_* */
	int64_t stored; /* the value read back (on an error: the value kept) */
	char err[256];
};

/*
 * Run src (started already; still owned by the caller, who must not touch it
 * until source_async_stop()) on a thread named "tt-sampler": sample() every
 * interval_ns, and knob writes as requests. NULL with err when the thread or
 * the eventfd cannot be made.
 *
 * Synchronisation: one mutex guards the published snapshot pointer, the request
 * and result queues and the flags; it is held only to swap pointers or copy a
 * request, never while the source does I/O, so the console waits at most a few
 * instructions. Three snapshots rotate: the sampler fills its own, swaps it
 * with the published one; the console swaps its own with the published one.
 * Each publication (a snapshot or a result) writes the eventfd, so the
 * console's poll() wakes at once.
 */
struct source_async *source_async_start(struct source *src, uint64_t interval_ns, char *err,
					size_t errlen);
/* Stop the thread (waits for a source call in progress: every one is bounded) and free. */
void source_async_stop(struct source_async *a);
/* Readable when something was published; source_async_take()/_result() reset it. */
int source_async_fd(const struct source_async *a);
/* Swap the newest published snapshot into *snap; false (nothing changed) when none is new. */
bool source_async_take(struct source_async *a, struct snapshot **snap);
/* Sample now rather than at the next interval (after a resume, or a knob's result). */
void source_async_poke(struct source_async *a);
/* Change the interval (takes effect after the next sample). */
void source_async_interval(struct source_async *a, uint64_t interval_ns);
/*
 * Ask for a knob write. Refusals that need no I/O (an engine knob on the host,
 * a start-only knob) are answered now: KNOB_ERR_* with err. Else 0 and *id;
 * the result comes through source_async_result(). At most 16 wait at once
 * (KNOB_ERR_RUNTIME "busy" beyond).
 */
int source_async_knob_request(struct source_async *a, enum knob_id id, int64_t v, uint64_t *req,
			      char *err, size_t errlen);
/* The oldest result not yet taken: true and *out. */
bool source_async_result(struct source_async *a, struct source_async_result *out);
/* Requests sent and not answered yet. */
int source_async_pending(struct source_async *a);

#endif

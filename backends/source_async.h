/* SPDX-License-Identifier: GPL-2.0-or-later */
/* source_async.h: any source on its own sampler thread, so the thread that draws never waits. */
#ifndef TT_SOURCE_ASYNC_H
#define TT_SOURCE_ASYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/source.h"

struct source_async;

/*
 * Run src (started already; still owned by the caller, who must not touch it
 * until source_async_stop()) on a thread named "tt-sampler": sample() every
 * interval_ns, and knob writes as requests. A source with knobs_apart (the live
 * host) gets its writes on a second thread, "tt-writer", one at a time in the
 * order asked, so a write that waits on the host (ovs-vswitchd stopped: seconds)
 * holds up no sample; others get them on the sampler's thread between samples.
 * NULL with err when a thread or the eventfd cannot be made.
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
/*
 * Only the writer thread ("tt-writer") of a source with knobs_apart, for a front end that
 * samples on its own thread (the agent): requests and results as below, while the caller
 * keeps calling source_sample(); source_async_take() never has a snapshot. NULL with err when
 * the source has no knobs_apart or the thread cannot be made.
 */
struct source_async *source_async_start_writer(struct source *src, char *err, size_t errlen);
/* Stop the threads and free: waits for a source call in progress (every one is bounded; a
 * write at most its own deadline, pmd.maxsleep_us's ~6.5 s); writes still queued are dropped. */
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
 * Ask for a knob write, as source_knob_request() does. Refusals that need no I/O (a knob
 * the source never takes, the queue full) are answered now: 0 and the answer in *r.
 * Else 1 and r->id: the answer comes through source_async_result(). At most 16 wait at
 * once (KNOB_ERR_RUNTIME "busy" beyond).
 */
int source_async_knob_request(struct source_async *a, enum knob_id id, int64_t v,
			      struct source_knob_result *r);
/* The oldest result not yet taken: true and *out. */
bool source_async_result(struct source_async *a, struct source_knob_result *out);
/* Requests sent and not answered yet. */
int source_async_pending(struct source_async *a);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* event.h: the engine's event log (calibrations, kthread starts, hangs, knob changes). */
#ifndef TT_EVENT_H
#define TT_EVENT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

enum event_kind {
	EV_CALIBRATION,
	EV_KTHREAD_START,
	EV_KTHREAD_STOP,
	EV_HANG,
	EV_KNOB,
	EV_ERROR,
	EV_INFO,
	EV_INVARIANT, /* a conservation check found work missing */
	EV_DIAG, /* a diagnosis started or cleared (docs/diag.md) */
	EV_KIND_COUNT
};

#define EVENT_TEXT_MAX 160
#define EVENT_LOG_SIZE 512 /* events kept for the events view; older ones are dropped */

struct event {
	uint64_t seq; /* 1, 2, ... in order of logging */
	uint64_t mono_ns; /* CLOCK_MONOTONIC */
	uint64_t wall_ns; /* CLOCK_REALTIME, for the JSON ISO 8601 time */
	enum event_kind kind;
	char text[EVENT_TEXT_MAX];
};

/*
 * A ring of events. Any thread may log (a kthread starting, the watchdog, the
 * control thread); logging is rare (never per packet or per tick), so a mutex
 * is the simple correct choice here.
 */
struct event_log {
	pthread_mutex_t lock;
	uint64_t next_seq;
	struct event ring[EVENT_LOG_SIZE];
};

void event_log_init(struct event_log *log);
void event_log_destroy(struct event_log *log);
void event_add(struct event_log *log, enum event_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Copy events with seq > *after (oldest first, at most max); advances *after. */
size_t event_copy_since(struct event_log *log, uint64_t *after, struct event *out, size_t max);
/* Count of events of a kind ever logged (tests use it). */
uint64_t event_count_kind(struct event_log *log, enum event_kind kind);
const char *event_kind_name(enum event_kind kind);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* event.c: the event ring behind event.h. */
#include "core/event.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"

static const char *const event_kind_names[EV_KIND_COUNT] = {
    [EV_CALIBRATION] = "calibration",
    [EV_KTHREAD_START] = "kthread_start",
    [EV_KTHREAD_STOP] = "kthread_stop",
    [EV_HANG] = "hang",
    [EV_KNOB] = "knob",
    [EV_ERROR] = "error",
    [EV_INFO] = "info",
    [EV_INVARIANT] = "invariant",
    [EV_DIAG] = "diag",
};

const char *event_kind_name(enum event_kind kind)
{
	return kind < EV_KIND_COUNT ? event_kind_names[kind] : "?";
}

void event_log_init(struct event_log *log)
{
	memset(log, 0, sizeof(*log));
	pthread_mutex_init(&log->lock, NULL);
	log->next_seq = 1;
}

void event_log_destroy(struct event_log *log)
{
	pthread_mutex_destroy(&log->lock);
}

void event_add(struct event_log *log, enum event_kind kind, const char *fmt, ...)
{
	struct timespec wall;
	struct event ev = {.kind = kind, .mono_ns = clock_mono_ns()};
	va_list ap;

	clock_gettime(CLOCK_REALTIME, &wall);
	ev.wall_ns = clock_ts_to_ns(&wall);
	va_start(ap, fmt);
	vsnprintf(ev.text, sizeof(ev.text), fmt, ap);
	va_end(ap);

	pthread_mutex_lock(&log->lock);
	ev.seq = log->next_seq++;
	log->ring[ev.seq % EVENT_LOG_SIZE] = ev;
	pthread_mutex_unlock(&log->lock);
}

size_t event_copy_since(struct event_log *log, uint64_t *after, struct event *out, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&log->lock);
	uint64_t first = *after + 1;
	uint64_t last = log->next_seq; /* exclusive */
	if (last > EVENT_LOG_SIZE && first < last - EVENT_LOG_SIZE)
		first = last - EVENT_LOG_SIZE; /* older ones were overwritten */
	if (last - first > max)
		first = last - max; /* keep the newest */
	for (uint64_t s = first; s < last; s++)
		out[n++] = log->ring[s % EVENT_LOG_SIZE];
	if (last > 1)
		*after = last - 1;
	pthread_mutex_unlock(&log->lock);
	return n;
}

uint64_t event_count_kind(struct event_log *log, enum event_kind kind)
{
	uint64_t n = 0;

	pthread_mutex_lock(&log->lock);
	uint64_t last = log->next_seq;
	uint64_t first = last > EVENT_LOG_SIZE ? last - EVENT_LOG_SIZE : 1;
	for (uint64_t s = first; s < last; s++)
		if (log->ring[s % EVENT_LOG_SIZE].kind == kind)
			n++;
	pthread_mutex_unlock(&log->lock);
	return n;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* watchdog.c: raises one `hang` event per thread whose heartbeat stops. */
#include "core/clock.h"
#include "engine/engine.h"
#include "engine/engine_int.h"

void engine_watchdog_check(struct engine *eng, uint64_t now_ns)
{
	uint64_t limit_ns = (uint64_t)engine_knob(eng, K_ENGINE_WATCHDOG_MS) * NS_PER_MS;

	pthread_mutex_lock(&eng->threads.lock);
	for (struct ethread *t = eng->threads.head; t; t = t->next) {
		uint64_t beat = atomic_load_explicit(&t->beat, memory_order_relaxed);
		int state = atomic_load_explicit(&t->state, memory_order_relaxed);

		if (beat != t->wd_beat || state == ETHREAD_IDLE) {
			/* Progress (or nothing owed): re-arm for the next stall. */
			t->wd_beat = beat;
			t->wd_since_ns = now_ns;
			t->wd_reported = false;
			continue;
		}
		if (!t->wd_reported && now_ns - t->wd_since_ns >= limit_ns) {
			t->wd_reported = true;
			event_add(&eng->events, EV_HANG,
				  "%s (tid %d) made no progress for %llu ms (state %s)", t->name,
				  (int)t->tid,
				  (unsigned long long)((now_ns - t->wd_since_ns) / NS_PER_MS),
				  ethread_state_name(state));
		}
	}
	pthread_mutex_unlock(&eng->threads.lock);
}

void engine_wd_thread(struct ethread *self)
{
	struct engine *eng = self->eng;

	while (!ethread_should_stop(self)) {
		/* Check four times per period so a hang is seen within 1.25 periods. */
		uint64_t period = (uint64_t)engine_knob(eng, K_ENGINE_WATCHDOG_MS) * NS_PER_MS / 4;
		ethread_set_state(self, ETHREAD_SLEEP);
		/* Sleep in short steps so engine_stop() never waits a whole period. */
		for (uint64_t slept = 0; slept < period && !ethread_should_stop(self);
		     slept += 20 * NS_PER_MS)
			clock_sleep_ns(period - slept < 20 * NS_PER_MS ? period - slept
								       : 20 * NS_PER_MS);
		ethread_set_state(self, ETHREAD_RUN);
		ethread_beat(self);
		engine_watchdog_check(eng, clock_mono_ns());
	}
}

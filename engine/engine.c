/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine.c: engine lifecycle and knob setting; subsystems start and stop from here. */
#include "engine/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/xalloc.h"
#include "engine/engine_int.h"

/* Subsystems by id: every knob's owner (knob_def.owner) has a row. */
static const struct subsys_ops *const engine_subsys[SUBSYS_COUNT] = {
    [SUBSYS_EST] = &est_ops,	 [SUBSYS_PMD] = &pmd_ops, [SUBSYS_BLK] = &blk_ops,
    [SUBSYS_ENGINE] = &load_ops, [SUBSYS_CPU] = &cpu_ops, /* knobs only */
};

static const enum knob_id engine_enable_knob[SUBSYS_COUNT] = {
    [SUBSYS_EST] = K_EST_ENABLED, [SUBSYS_PMD] = K_PMD_ENABLED,
    [SUBSYS_BLK] = K_BLK_ENABLED, [SUBSYS_ENGINE] = K_COUNT, /* always on */
    [SUBSYS_CPU] = K_COUNT,
};

struct engine *engine_new(void)
{
	struct engine *eng = xcalloc(1, sizeof(*eng));
	knob_values_init(&eng->knobs);
	ethread_registry_init(&eng->threads);
	event_log_init(&eng->events);
	return eng;
}

void engine_free(struct engine *eng)
{
	if (!eng)
		return;
	engine_stop(eng);
	ethread_registry_destroy(&eng->threads);
	event_log_destroy(&eng->events);
	free(eng);
}

static int engine_subsys_start(struct engine *eng, enum subsys s, char *err, size_t errlen)
{
	const struct subsys_ops *ops = engine_subsys[s];
	if (!ops || !ops->start || eng->subsys_on[s])
		return 0;
	int rc = ops->start(eng, err, errlen);
	if (rc != 0)
		return rc < 0 ? rc : -1; /* KNOB_ERR_USAGE passes through: exit 2 */
	eng->subsys_on[s] = true;
	return 0;
}

static void engine_subsys_stop(struct engine *eng, enum subsys s)
{
	const struct subsys_ops *ops = engine_subsys[s];
	if (!ops || !eng->subsys_on[s])
		return;
	ops->stop(eng);
	eng->subsys_on[s] = false;
}

static bool engine_subsys_wanted(const struct engine *eng, enum subsys s)
{
	enum knob_id k = engine_enable_knob[s];
	return engine_subsys[s] && (k == K_COUNT || engine_knob(eng, k) != 0);
}

int engine_start(struct engine *eng, char *err, size_t errlen)
{
	int rc = -1;
	if (eng->running)
		return 0;
	if (engine_cpu_build(eng, err, errlen) != 0)
		return -1;
	eng->start_ns = clock_mono_ns();
	snapshot_clock_start(&eng->smp_clock); /* the control thread's first baseline */
	eng->running = true;

	if (eng->cpu.emulated) {
		eng->gov_thread = ethread_start(eng, "cpu-gov", SUBSYS_ENGINE, 0, engine_gov_thread,
						NULL, err, errlen);
		if (!eng->gov_thread)
			goto fail;
	}
	eng->wd_thread =
	    ethread_start(eng, "watchdog", SUBSYS_ENGINE, 0, engine_wd_thread, NULL, err, errlen);
	if (!eng->wd_thread)
		goto fail;
	for (int s = 0; s < SUBSYS_COUNT; s++)
		if (engine_subsys_wanted(eng, s) &&
		    (rc = engine_subsys_start(eng, s, err, errlen)) != 0)
			goto fail;
	return 0;
fail:
	engine_stop(eng);
	return rc;
}

void engine_stop(struct engine *eng)
{
	if (!eng->running)
		return;
	for (int s = SUBSYS_COUNT - 1; s >= 0; s--)
		engine_subsys_stop(eng, s);
	if (eng->wd_thread)
		ethread_stop(eng->wd_thread);
	if (eng->gov_thread)
		ethread_stop(eng->gov_thread);
	eng->wd_thread = eng->gov_thread = NULL;
	engine_cpu_free(eng);
	eng->running = false;
}

/* Put a stored value in force: the owner's enable knob starts or stops it here;
 * any other knob goes to the owner's knob_apply. */
static int engine_knob_apply(struct engine *eng, enum knob_id id, int64_t old, int64_t *val,
			     char *err, size_t errlen)
{
	enum subsys s = knob_table[id].owner; /* always < SUBSYS_COUNT */
	const struct subsys_ops *ops = engine_subsys[s];

	if (id == engine_enable_knob[s]) {
		if (engine_knob(eng, id))
			return engine_subsys_start(eng, s, err, errlen);
		engine_subsys_stop(eng, s);
		return 0;
	}
	return ops && ops->knob_apply ? ops->knob_apply(eng, id, old, val, err, errlen) : 0;
}

int engine_knob_set_value(struct engine *eng, enum knob_id id, int64_t v, char *err, size_t errlen)
{
	const struct knob_def *d = &knob_table[id];
	int64_t old = engine_knob(eng, id);
	char oldbuf[64], newbuf[64];

	/* Single writer (the control thread); readers see either value. The owner reads
	 * the requested value from the table, then says what it really put in force. */
	atomic_store_explicit(&eng->knobs.v[id], v, memory_order_relaxed);
	if (eng->running && engine_knob_apply(eng, id, old, &v, err, errlen) != 0) {
		atomic_store_explicit(&eng->knobs.v[id], old, memory_order_relaxed);
		event_add(&eng->events, EV_ERROR, "%s", err);
		return KNOB_ERR_RUNTIME;
	}
	if (d->type == KNOB_ACTION)
		v = 0; /* an action reads back 0: it is done */
	atomic_store_explicit(&eng->knobs.v[id], v, memory_order_relaxed);
	if (eng->running) {
		if (d->type == KNOB_ACTION)
			event_add(&eng->events, EV_KNOB, "%s", d->name);
		else if (old != v)
			event_add(&eng->events, EV_KNOB, "%s: %s -> %s", d->name,
				  knob_format(id, old, oldbuf, sizeof(oldbuf)),
				  knob_format(id, v, newbuf, sizeof(newbuf)));
	}
	return 0;
}

int engine_knob_assign(struct engine *eng, const char *assignment, char *err, size_t errlen)
{
	enum knob_id id;
	int64_t v;
	int rc = knob_parse_assignment(assignment, &id, &v, err, errlen);
	return rc ? rc : engine_knob_set_value(eng, id, v, err, errlen);
}

int engine_scenario_assign(void *eng, const char *assignment, char *err, size_t errlen)
{
	return engine_knob_assign(eng, assignment, err, errlen);
}

const struct subsys_ops *engine_subsys_get(enum subsys s)
{
	return (unsigned)s < SUBSYS_COUNT ? engine_subsys[s] : NULL;
}

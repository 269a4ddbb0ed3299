/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_source_knobs.c: every knob through the engine source, live: set a valid new value,
 * read it back through the source and in the next snapshot, and find the `knob` event
 * that names old -> stored (the value in force, never the one asked for). rq_affinity 3+
 * is accepted and ignored, as the sysfs store is: the stored value and the event say so.
 * Start-only knobs are refused once running and leave the value as it was.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "backends/source.h"
#include "core/scenario.h"

static struct source *src;
static struct snapshot *snap;

static int setup(void **state)
{
	char err[512];
	(void)state;
	src = source_open(&source_engine_ops, NULL, err, sizeof(err));
	assert_non_null(src);
	/* Every subsystem on, at loads a test machine carries easily. */
	static const char *const sets[] = {
	    "cpu.count=4",	 "cpu.llc_cpus=2", "est.enabled=on",
	    "est.count=200",	 "est.cpus=4",	   "pmd.enabled=on",
	    "gen.rate_pps=2000", "blk.enabled=on", "blk.service_us=200",
	};
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		assert_int_equal(source_knob_assign(src, sets[i], err, sizeof(err)), 0);
	assert_int_equal(source_start(src, err, sizeof(err)), 0);
	snap = snapshot_new();
	source_sample(src, snap);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	snapshot_free(snap);
	source_close(src);
	return 0;
}

/* A valid value other than v: the next step up, or down at the top, or the next choice. */
static int64_t other_value(enum knob_id id, int64_t v)
{
	const struct knob_def *d = &knob_table[id];
	if (d->allowed) {
		for (int i = 0; d->allowed[i] >= 0; i++)
			if (d->allowed[i] != v)
				return d->allowed[i];
	}
	if (d->pow2)
		return v * 2 <= d->max ? v * 2 : v / 2;
	if (d->type == KNOB_ENUM || d->type == KNOB_BOOL)
		return v < d->max ? v + 1 : d->min;
	return v + d->step <= d->max ? v + d->step : v - d->step;
}

/* The text of the newest knob event for name in the snapshot after now, or NULL. */
static const char *knob_event(const char *name)
{
	static char text[EVENT_TEXT_MAX];
	const char *found = NULL;
	size_t n = strlen(name);
	for (size_t i = 0; i < snap->nevents; i++)
		if (snap->events[i].kind == EV_KNOB &&
		    strncmp(snap->events[i].text, name, n) == 0 &&
		    (snap->events[i].text[n] == ':' || snap->events[i].text[n] == '\0')) {
			snprintf(text, sizeof(text), "%s", snap->events[i].text);
			found = text;
		}
	return found;
}

static void test_every_knob(void **state)
{
	char err[512], want[256], a[64], b[64];
	(void)state;
	int checked = 0;

	for (int k = 0; k < K_COUNT; k++) {
		const struct knob_def *d = &knob_table[k];
		if (source_knob_refusal(src, k) || d->start_only)
			continue;
		/* Enable knobs turn whole subsystems off: the other tests need them on. */
		if (k == K_EST_ENABLED || k == K_PMD_ENABLED || k == K_BLK_ENABLED)
			continue;
		int64_t old = source_knob(src, k), v = other_value(k, old), stored = -1;
		int rc = source_knob_set(src, k, v, &stored, err, sizeof(err));
		if (rc != 0)
			fail_msg("%s = %" PRId64 ": %s", d->name, v, err);
		source_sample(src, snap);
		if (d->type == KNOB_ACTION) {
			assert_int_equal(stored, 0);
			assert_non_null(knob_event(d->name));
			checked++;
			continue;
		}
		assert_int_equal(stored, v);
		assert_int_equal(source_knob(src, k), stored);
		assert_int_equal(snap->knobs[k], stored);
		snprintf(want, sizeof(want), "%s: %s -> %s", d->name,
			 knob_format(k, old, a, sizeof(a)), knob_format(k, stored, b, sizeof(b)));
		const char *ev = knob_event(d->name);
		if (!ev || strcmp(ev, want) != 0)
			fail_msg("%s: event '%s', want '%s'", d->name, ev ? ev : "(none)", want);
		checked++;
	}
	assert_true(checked > 25);
}

static void test_rq_affinity_ignored_values(void **state)
{
	char err[512];
	int64_t stored = -1;
	(void)state;

	assert_int_equal(source_knob_set(src, K_BLK_RQ_AFFINITY, 2, &stored, err, sizeof(err)), 0);
	assert_int_equal(stored, 2);
	source_sample(src, snap);
	/* 7 is a valid write that changes nothing: the answer is what stays in force. */
	assert_int_equal(source_knob_set(src, K_BLK_RQ_AFFINITY, 7, &stored, err, sizeof(err)), 0);
	assert_int_equal(stored, 2);
	source_sample(src, snap);
	assert_int_equal(snap->knobs[K_BLK_RQ_AFFINITY], 2);
	assert_int_equal(snap->blk.rq_affinity, 2);
	assert_null(knob_event("blk.rq_affinity")); /* 2 -> 2 is no change, and no "2 -> 7" */
}

static void test_start_only_refused_live(void **state)
{
	char err[512];
	int64_t stored = -1;
	(void)state;

	int64_t before = source_knob(src, K_CPU_COUNT);
	assert_int_equal(source_knob_set(src, K_CPU_COUNT, 2, &stored, err, sizeof(err)),
			 KNOB_ERR_RUNTIME);
	assert_non_null(strstr(err, "only be set at start"));
	assert_int_equal(source_knob(src, K_CPU_COUNT), before);
	assert_int_equal(source_knob_set(src, K_HOST_PID, 1, &stored, err, sizeof(err)),
			 KNOB_ERR_USAGE); /* the engine source refuses host.pid with a reason */
	assert_non_null(strstr(err, "host.pid: only the host source"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_knob),
	    cmocka_unit_test(test_rq_affinity_ignored_values),
	    cmocka_unit_test(test_start_only_refused_live),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_history.c: the console's history keeps its lines compressed against key lines and
 * gives every kept sample back exactly: decoded and encoded again it is the line pushed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/snapshot.h"
#include "tui/history.h"
#include "tui/snapjson.h"

#define PUSHES 300
#define WINDOW 200

static char *dump(const struct snapshot *s)
{
	json_t *j = snapjson_build(s);
	char *line = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(12));
	json_decref(j);
	return line;
}

/* A snapshot that changes from sample to sample as a live one does: counters grow,
 * percentages move, the rest stays. */
static void fill(struct snapshot *s, int i)
{
	s->backend = "engine";
	s->seq = (uint64_t)i + 1;
	s->wall_ns = 1700000000000000000ULL + (uint64_t)i * 1000000000ULL;
	s->has_pmd = s->has_est = s->has_blk = true;
	s->pmd.nthreads = 2;
	for (int t = 0; t < 2; t++) {
		snprintf(s->pmd.threads[t].name, sizeof(s->pmd.threads[t].name), "pmd-c:%d", t);
		s->pmd.threads[t].overshoot_p99_us = 50 + (i * 7 + t) % 40;
	}
	s->pmd.lat_valid = true;
	s->pmd.lat_p50_us = 100.5 + (i % 13);
	s->pmd.lat_p99_us = 400 + (i % 29);
	s->blk.ncpus = 2;
	s->est.nkt = 1;
}

static void test_round_trip_and_window(void **state)
{
	(void)state;
	struct history h;
	history_init(&h, WINDOW);
	struct snapshot *s = snapshot_new(), *d = snapshot_new();
	s->ncpus = 2;
	s->cpus = calloc(2, sizeof(*s->cpus));
	char *pushed[PUSHES];
	size_t whole = 0;
	for (int i = 0; i < PUSHES; i++) {
		fill(s, i);
		const char *line = history_push(&h, s);
		assert_non_null(line);
		pushed[i] = strdup(line);
		assert_string_equal(line, pushed[i]);
		if (i >= PUSHES - WINDOW)
			whole += strlen(line);
	}
	/* The window: the oldest went first; ids are 1.. in order of pushing. */
	assert_int_equal(history_newest(&h), PUSHES);
	assert_int_equal(history_oldest(&h), PUSHES - WINDOW + 1);
	assert_false(history_get(&h, PUSHES - WINDOW, d));
	assert_false(history_get(&h, PUSHES + 1, d));
	for (uint64_t id = history_oldest(&h); id <= history_newest(&h); id++) {
		assert_true(history_get(&h, id, d));
		char *again = dump(d);
		assert_string_equal(again, pushed[id - 1]);
		free(again);
		const struct history_entry *e = history_find(&h, id);
		assert_non_null(e);
		assert_int_equal(e->wall_ns, 1700000000000000000ULL + (id - 1) * 1000000000ULL);
	}
	/* Compressed against keys, the window holds well under its lines' own bytes. */
	size_t held = history_mem_bytes(&h) - h.cap * sizeof(*h.ring);
	print_message("history: %d lines of %zu bytes held in %zu bytes\n", WINDOW, whole, held);
	assert_true(held * 3 < whole);
	for (int i = 0; i < PUSHES; i++)
		free(pushed[i]);
	history_free(&h);
	snapshot_free(d);
	snapshot_free(s);
}

/* A window of one: every push drops the last, keys included (ASan sees a leak otherwise). */
static void test_window_of_one(void **state)
{
	(void)state;
	struct history h;
	history_init(&h, 1);
	struct snapshot *s = snapshot_new(), *d = snapshot_new();
	for (int i = 0; i < 3 * UI_HISTORY_KEY_EVERY; i++) {
		fill(s, i);
		assert_non_null(history_push(&h, s));
		assert_int_equal(history_oldest(&h), history_newest(&h));
		assert_true(history_get(&h, history_newest(&h), d));
		assert_int_equal(d->seq, (uint64_t)i + 1);
	}
	history_free(&h);
	snapshot_free(d);
	snapshot_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_round_trip_and_window),
	    cmocka_unit_test(test_window_of_one),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

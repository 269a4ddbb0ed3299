/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_snapdec.c: JSON -> snapshot: a round trip through snapjson gives the same JSON for the
 * engine's and the host's snapshots; cut, noisy and other-schema lines are refused, never a crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backends/remote/jdelta.h"
#include "backends/replay/snapdec.h"
#include "backends/source.h"
#include "core/clock.h"
#include "core/scenario.h"
#include "lib/fuzz_rng.h"
#include "tui/snapjson.h"

static char *dump(const struct snapshot *s)
{
	json_t *j = snapjson_build(s);
	char *line = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(12));
	json_decref(j);
	return line;
}

/* Encode, decode into a fresh snapshot, encode again: the two lines must be equal. */
static char *round_trip(const struct snapshot *s)
{
	char err[256];
	char *a = dump(s);
	struct snapshot *d = snapshot_new();
	assert_int_equal(snapdec_line(a, strlen(a), d, err, sizeof(err)), SNAPDEC_OK);
	char *b = dump(d);
	if (strcmp(a, b) != 0) {
		size_t i = 0;
		while (a[i] == b[i])
			i++;
		print_error("differ at %zu:\n  %.120s\n  %.120s\n", i, a + (i > 40 ? i - 40 : 0),
			    b + (i > 40 ? i - 40 : 0));
	}
	assert_string_equal(a, b);
	free(b);
	snapshot_free(d);
	return a;
}

static void run_source(const struct source_ops *ops, const char *scenario, int n)
{
	char err[512];
	struct source *src = source_open(ops, NULL, err, sizeof(err));
	if (!src) {
		print_message("%s: cannot open (%s): round trip not checked\n", ops->name, err);
		return;
	}
	assert_int_equal(scenario_apply(scenario, source_scenario_assign, src, err, sizeof(err)),
			 0);
	assert_int_equal(source_start(src, err, sizeof(err)), 0);
	struct snapshot *s = snapshot_new();
	for (int i = 0; i < n; i++) {
		clock_sleep_ns(150 * NS_PER_MS);
		source_sample(src, s);
		free(round_trip(s));
	}
	snapshot_free(s);
	source_close(src);
}

static void test_round_trip_engine(void **state)
{
	(void)state;
	run_source(&source_engine_ops, "default", 3);
}

static void test_round_trip_host(void **state)
{
	(void)state;
	run_source(&source_host_ops, "idle", 2);
}

/* Every prefix of a real line, and random byte noise in it: a result code, no crash; a cut
 * line is never taken for a snapshot. */
/* A percentile marked as a lower bound keeps its mark through JSON (replay, remote). */
static void test_round_trip_at_least(void **state)
{
	(void)state;
	struct snapshot *s = snapshot_new();
	s->has_pmd = true;
	s->pmd.nthreads = 1;
	snprintf(s->pmd.threads[0].name, sizeof(s->pmd.threads[0].name), "pmd-c:0");
	s->pmd.threads[0].overshoot_p99_us = 1023;
	s->pmd.threads[0].overshoot_p99_at_least = true;
	s->pmd.lat_valid = true;
	s->pmd.lat_p50_us = 100.5;
	s->pmd.lat_p99_us = 4095;
	s->pmd.lat_p99_at_least = true;
	char *line = round_trip(s);
	assert_non_null(
	    strstr(line, "\"p99\":4095.0,\"p50_at_least\":false,\"p99_at_least\":true"));
	struct snapshot *d = snapshot_new();
	char err[256];
	assert_int_equal(snapdec_line(line, strlen(line), d, err, sizeof(err)), SNAPDEC_OK);
	assert_true(d->pmd.lat_p99_at_least && !d->pmd.lat_p50_at_least);
	assert_true(d->pmd.threads[0].overshoot_p99_at_least);
	assert_false(d->pmd.threads[0].overshoot_p50_at_least);
	free(line);
	snapshot_free(d);
	snapshot_free(s);
}

/* Figures out of their range where they enter: a share over 100 or negative is refused
 * (unknown for a figure that may be null, else 0), a negative rate reads 0. */
static void test_absurd_figures(void **state)
{
	(void)state;
	struct snapshot *s = snapshot_new();
	s->has_pmd = true;
	s->pmd.nthreads = 1;
	snprintf(s->pmd.threads[0].name, sizeof(s->pmd.threads[0].name), "pmd-c:0");
	s->pmd.threads[0].stolen_pct = 12.5;
	s->pmd.threads[0].busy_pct = 40;
	s->pmd.threads[0].iterations = 10;
	char *line = dump(s);
	json_error_t je;
	json_t *j = json_loads(line, 0, &je);
	json_t *t = json_array_get(json_object_get(json_object_get(j, "pmd"), "threads"), 0);
	json_object_set_new(t, "stolen_pct", json_real(1e300));
	json_object_set_new(t, "busy_pct", json_real(150));
	json_object_set_new(t, "idle_pct", json_real(-3));
	json_object_set_new(t, "cpu_left_pct", json_real(-5));
	json_object_set_new(t, "rx_pps", json_real(-1e300));
	json_object_set_new(json_object_get(j, "pmd"), "offered_pps", json_real(-1e300));
	json_object_set_new(json_object_get(j, "pmd"), "stolen_pct", json_real(101));
	char *bad = json_dumps(j, JSON_COMPACT);
	struct snapshot *d = snapshot_new();
	char err[256];
	assert_int_equal(snapdec_line(bad, strlen(bad), d, err, sizeof(err)), SNAPDEC_OK);
	const struct pmd_thread_snap *x = &d->pmd.threads[0];
	assert_true(x->stolen_pct == -1 && x->cpu_left_pct == -1 && d->pmd.stolen_pct == -1);
	assert_true(x->busy_pct == 0 && x->idle_pct == 0 && x->rx_pps == 0);
	assert_true(d->pmd.offered_pps == 0);
	/* In range: kept as it was. */
	struct snapshot *d2 = snapshot_new();
	assert_int_equal(snapdec_line(line, strlen(line), d2, err, sizeof(err)), SNAPDEC_OK);
	assert_true(d2->pmd.threads[0].stolen_pct == 12.5 && d2->pmd.threads[0].busy_pct == 40);
	free(bad);
	free(line);
	json_decref(j);
	snapshot_free(d2);
	snapshot_free(d);
	snapshot_free(s);
}

/* One thread's share of one CPU (a thread, a PMD, an estimation kthread) past 100: a late
 * read a little past it reads 100, an absurd one (1e300, negative) is refused as 0, so no
 * finding says "est-k:0 takes 1e15% of a CPU". */
static void test_absurd_cpu_share(void **state)
{
	(void)state;
	struct snapshot *s = snapshot_new();
	s->has_pmd = s->has_est = true;
	s->pmd.nthreads = 2;
	s->pmd.threads[0].cpu_pct = s->pmd.threads[1].cpu_pct = 50;
	s->est.nkt = 2;
	s->est.kt[0].cpu_pct = s->est.kt[1].cpu_pct = 50;
	s->nthreads = 2;
	s->threads = calloc(2, sizeof(*s->threads));
	s->threads[0].cpu_pct = s->threads[1].cpu_pct = 50;
	char *line = dump(s);
	json_error_t je;
	json_t *j = json_loads(line, 0, &je);
	json_t *pt = json_object_get(json_object_get(j, "pmd"), "threads");
	json_t *kt = json_object_get(json_object_get(j, "est"), "kthread");
	json_t *th = json_object_get(j, "threads");
	json_object_set_new(json_array_get(pt, 0), "cpu_pct", json_real(1e300));
	json_object_set_new(json_array_get(pt, 1), "cpu_pct", json_real(100.5));
	json_object_set_new(json_array_get(kt, 0), "cpu_pct", json_real(1e300));
	json_object_set_new(json_array_get(kt, 1), "cpu_pct", json_real(-1e300));
	json_object_set_new(json_array_get(th, 0), "cpu_pct", json_real(1e16));
	json_object_set_new(json_array_get(th, 1), "cpu_pct", json_real(42.5));
	char *bad = json_dumps(j, JSON_COMPACT);
	struct snapshot *d = snapshot_new();
	char err[256];
	assert_int_equal(snapdec_line(bad, strlen(bad), d, err, sizeof(err)), SNAPDEC_OK);
	assert_true(d->pmd.threads[0].cpu_pct == 0 && d->pmd.threads[1].cpu_pct == 100);
	assert_true(d->est.kt[0].cpu_pct == 0 && d->est.kt[1].cpu_pct == 0);
	assert_int_equal(d->nthreads, 2);
	assert_true(d->threads[0].cpu_pct == 0 && d->threads[1].cpu_pct == 42.5);
	free(bad);
	free(line);
	json_decref(j);
	snapshot_free(d);
	snapshot_free(s);
}

/* A self figure the line lacks (an older recording) is absent, not 0, and stays null. */
static void test_self_absent(void **state)
{
	(void)state;
	struct snapshot *s = snapshot_new();
	s->self.cpu_pct = 0.5;
	s->self.sample_us = 183;
	s->self.absent = SELF_ABSENT_RENDER | SELF_ABSENT_TTY;
	char *line = round_trip(s);
	assert_non_null(strstr(line, "\"sample_us\":183,\"render_us\":null,\"tty_bytes\":null,"
				     "\"tty_bytes_per_s\":null"));
	struct snapshot *d = snapshot_new();
	char err[256];
	assert_int_equal(snapdec_line(line, strlen(line), d, err, sizeof(err)), SNAPDEC_OK);
	assert_int_equal(d->self.absent, SELF_ABSENT_RENDER | SELF_ABSENT_TTY);
	assert_int_equal(d->self.sample_us, 183);
	free(line);
	snapshot_free(d);
	snapshot_free(s);
}

/* A figure the host lacks is null, never a 0 that reads as measured: a name host.absent gives
 * is the section's own field where it has one ("pmd.stolen_pct"), else that field of every row
 * ("pmd.rx_drop_pps" is each pmd.threads[].rx_drop_pps). */
static void test_host_absent_rows(void **state)
{
	(void)state;
	struct snapshot *s = snapshot_new();
	s->has_host = s->has_pmd = true;
	s->pmd.nthreads = 2;
	for (int i = 0; i < 2; i++) {
		struct pmd_thread_snap *t = &s->pmd.threads[i];
		snprintf(t->name, sizeof(t->name), "pmd-c0%d/id:%d", i, i);
		t->rx_pps = 1000, t->stolen_pct = 3;
	}
	s->pmd.stolen_pct = -1;
	static const char *const absent[] = {"pmd.rx_drop_pps", "pmd.tx_drop_pps",
					     "pmd.sleep_overshoot_us", "pmd.stolen_pct"};
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		s->host.absent[s->host.nabsent++] = absent[i];
	char *line = round_trip(s);
	json_t *o = json_loads(line, 0, NULL);
	json_t *th = json_object_get(json_object_get(o, "pmd"), "threads");
	assert_int_equal(json_array_size(th), 2);
	for (size_t i = 0; i < 2; i++) {
		json_t *t = json_array_get(th, i);
		assert_true(json_is_null(json_object_get(t, "rx_drop_pps")));
		assert_true(json_is_null(json_object_get(t, "tx_drop_pps")));
		json_t *ov = json_object_get(t, "sleep_overshoot_us");
		assert_true(json_is_null(json_object_get(ov, "p50")));
		assert_true(json_is_null(json_object_get(ov, "p99")));
		assert_true(json_is_boolean(json_object_get(ov, "p50_at_least")));
		/* the PMD's own figures stay: the name covers only pmd.stolen_pct */
		assert_true(json_real_value(json_object_get(t, "stolen_pct")) == 3.0);
		assert_true(json_real_value(json_object_get(t, "rx_pps")) == 1000.0);
	}
	assert_true(json_is_null(json_object_get(json_object_get(o, "pmd"), "stolen_pct")));
	json_decref(o);
	free(line);
	snapshot_free(s);
}

static void test_bad_lines(void **state)
{
	char err[256];
	(void)state;
	struct snapshot *s = snapshot_new(), *d = snapshot_new();
	s->backend = "engine";
	s->ncpus = 2;
	s->cpus = calloc(2, sizeof(*s->cpus));
	s->has_pmd = s->has_est = s->has_blk = true;
	s->pmd.nthreads = 2;
	s->blk.ncpus = 2;
	s->est.nkt = 1;
	char *line = dump(s);
	size_t len = strlen(line);
	for (size_t i = 0; i < len; i++)
		assert_int_equal(snapdec_line(line, i, d, err, sizeof(err)), SNAPDEC_GARBAGE);
	assert_int_equal(snapdec_line(line, len, d, err, sizeof(err)), SNAPDEC_OK);

	struct fuzz_rng r = {.s = 0x5eed11};
	char *buf = malloc(len);
	for (int k = 0; k < 3000; k++) {
		memcpy(buf, line, len);
		for (int f = 0; f < 4; f++)
			buf[fuzz_rng_next(&r) % len] = (char)(fuzz_rng_next(&r) % 128);
		int rc = snapdec_line(buf, len, d, err, sizeof(err));
		assert_true(rc == SNAPDEC_OK || rc == SNAPDEC_GARBAGE ||
			    rc == SNAPDEC_SCHEMA_OTHER);
	}
	free(buf);

	static const char *const other[] = {"{\"schema\":2,\"time\":\"2026-01-01T00:00:00.000Z\"}",
					    "{}", "[1,2]", "42", "{\"schema\":\"1\"}"};
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		assert_int_not_equal(snapdec_line(other[i], strlen(other[i]), d, err, sizeof(err)),
				     SNAPDEC_OK);
	/* The right schema with every field of the wrong type: zeros, no crash. */
	const char *wrong =
	    "{\"schema\":1,\"cpu\":{\"cpus\":[1,\"x\",{\"id\":\"a\"}]},\"threads\":{},"
	    "\"est\":{\"kthread\":[[],{}]},\"pmd\":{\"threads\":7},\"blk\":[],"
	    "\"host\":{\"absent\":[1,\"blk.iops\"]},\"knobs\":{\"cpu.governor\":\"x\"}}";
	assert_int_equal(snapdec_line(wrong, strlen(wrong), d, err, sizeof(err)), SNAPDEC_OK);
	assert_int_equal(d->ncpus, 3);
	assert_int_equal(d->nthreads, 0);
	assert_int_equal(d->host.nabsent, 1);
	assert_true(snapshot_absent(d, "blk.iops"));
	free(line);
	snapshot_free(s);
	snapshot_free(d);
}

static void test_iso8601(void **state)
{
	char buf[40];
	(void)state;
	uint64_t t = 1764561928123000000ULL;
	clock_iso8601(t, buf, sizeof(buf));
	assert_int_equal(snapdec_iso8601(buf), t);
	assert_int_equal(snapdec_iso8601("yesterday"), 0);
	assert_int_equal(snapdec_iso8601(""), 0);
}

/* apply(a, make(a, b)) == b, for changed leaves, resized arrays, new and lost keys, odd keys. */
static void test_jdelta(void **state)
{
	(void)state;
	static const char *const pairs[][2] = {
	    {"{\"a\":1,\"b\":{\"c\":[1,2,3],\"d\":\"x\"}}",
	     "{\"a\":2,\"b\":{\"c\":[1,5,3],\"d\":\"x\"}}"},
	    {"{\"a\":[1,2]}", "{\"a\":[1,2,3]}"},
	    {"{\"a\":{\"x\":1}}", "{\"a\":{\"y\":1}}"},
	    {"{\"a\":1}", "{\"a\":1,\"est\":{\"k\":2}}"},
	    {"{\"a\":1,\"est\":{}}", "{\"a\":1}"},
	    {"{\"k/1\":1,\"t~\":[{\"p\":1}]}", "{\"k/1\":2,\"t~\":[{\"p\":null}]}"},
	    {"{\"a\":1.5}", "{\"a\":\"s\"}"},
	    {"{\"a\":[]}", "{\"a\":[]}"},
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		json_t *a = json_loads(pairs[i][0], 0, NULL), *b = json_loads(pairs[i][1], 0, NULL);
		json_t *d = jdelta_make(a, b);
		assert_int_equal(jdelta_apply(a, d), 0);
		if (!json_equal(a, b)) {
			char *x = json_dumps(a, JSON_COMPACT), *y = json_dumps(d, JSON_COMPACT);
			print_error("pair %zu: got %s from delta %s\n", i, x, y);
			free(x);
			free(y);
		}
		assert_true(json_equal(a, b));
		json_decref(a);
		json_decref(b);
		json_decref(d);
	}
	/* A path that does not fit: an error, no crash. */
	json_t *base = json_loads("{\"a\":[1]}", 0, NULL);
	json_t *bad = json_loads("{\"a/7\":1,\"a/x\":2,\"z/q/r\":3,\"a/0/b\":4}", 0, NULL);
	assert_int_equal(jdelta_apply(base, bad), -1);
	json_decref(base);
	json_decref(bad);
}

/* A far side's deltas: a path the base lacks is dropped and counted, never added; the weight
 * follows what the base holds; a value past the bound is refused. */
static void test_jdelta_bounded(void **state)
{
	(void)state;
	json_t *base = json_loads("{\"knobs\":{\"a\":1},\"t\":[{\"n\":\"x\"}]}", 0, NULL);
	json_t *d = json_loads("{\"knobs/junk\":{\"deep\":[1,2,3]},\"junk\":1,\"t/5/n\":2,"
			       "\"t/0/n/x\":3,\"knobs/a\":2,\"t/0/n\":\"yyyy\"}",
			       0, NULL);
	struct jdelta_budget b = {.weight = jdelta_weight(base), .max_weight = 1 << 20};
	assert_int_equal(jdelta_apply_bounded(base, d, &b), 0);
	assert_int_equal(b.dropped, 4);
	assert_null(json_object_get(json_object_get(base, "knobs"), "junk"));
	assert_null(json_object_get(base, "junk"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(base, "knobs"), "a")),
			 2);
	assert_int_equal(b.weight, jdelta_weight(base));
	json_decref(d);
	/* Over the bound: refused. */
	char big[4096];
	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	d = json_pack("{s:s}", "t/0/n", big);
	b.max_weight = b.weight + 100;
	assert_int_equal(jdelta_apply_bounded(base, d, &b), -1);
	json_decref(d);
	json_decref(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_round_trip_engine),
	    cmocka_unit_test(test_round_trip_host),
	    cmocka_unit_test(test_round_trip_at_least),
	    cmocka_unit_test(test_self_absent),
	    cmocka_unit_test(test_host_absent_rows),
	    cmocka_unit_test(test_absurd_figures),
	    cmocka_unit_test(test_absurd_cpu_share),
	    cmocka_unit_test(test_bad_lines),
	    cmocka_unit_test(test_iso8601),
	    cmocka_unit_test(test_jdelta),
	    cmocka_unit_test(test_jdelta_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

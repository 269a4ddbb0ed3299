/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_metrics.c: the metrics text encoder: escaping, HELP/TYPE per family, histograms, both
 * formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/blk/blk_hist_le.h"
#include "engine/pmd/pmd_hist_le.h"
#include "tui/metrics/metrics.h"

static struct snapshot *test_snap(void)
{
	struct snapshot *s = snapshot_new();
	s->backend = "engine";
	s->seq = 7;
	s->governor = -1;
	s->nthreads = 2;
	s->threads = calloc(2, sizeof(*s->threads));
	s->threads[0].tid = 11;
	strcpy(s->threads[0].name, "a\"b\\c\nd");
	s->threads[0].cpu_ns = 1500000001ull;
	s->threads[1].tid = 12;
	strcpy(s->threads[1].name, "plain");
	s->has_est = true;
	for (int i = 0; i < EST_TICK_HIST_BUCKETS; i++)
		s->est.tick_hist[i] = (uint64_t)(i % 3);
	s->est.tick_ns_sum_total = 123456789;
	s->has_pmd = true;
	s->pmd.nthreads = 1;
	strcpy(s->pmd.threads[0].name, "pmd-c:0");
	s->pmd.dropped = 42;
	s->has_blk = true;
	return s;
}

static char *render_tid(const struct snapshot *s, enum metrics_format f, bool tid)
{
	struct metrics_buf b = {0};
	struct metrics_state st = {.tid = tid};
	st.events_total[EV_KNOB] = 3;
	metrics_render(s, &st, f, &b);
	return b.p;
}

/* With --metrics-tid: the escaping tests look at the tid label's neighbours. */
static char *render(const struct snapshot *s, enum metrics_format f)
{
	return render_tid(s, f, true);
}

/* By default a thread series is one per name: no tid, threads of one name summed. */
static void test_threads_by_name(void **state)
{
	(void)state;
	struct snapshot *s = test_snap();
	strcpy(s->threads[1].name, s->threads[0].name);
	s->threads[1].cpu_ns = 1;
	char *t = render_tid(s, METRICS_PROM, false);
	assert_null(strstr(t, "tid=\""));
	assert_non_null(strstr(t, "tunetop_threads_cpu_seconds_total{name=\"a\\\"b\\\\c\\nd\","
				  "subsystem=\"engine\"} 1.500000002\n"));
	free(t);
	snapshot_free(s);
}

static void test_label_escaping(void **state)
{
	(void)state;
	struct metrics_buf b = {0};
	metrics_escape_label(&b, "x\"y\\z\nw");
	assert_string_equal(b.p, "x\\\"y\\\\z\\nw");
	free(b.p);
	/* A thread name's escape sequence reaches no terminal (-b, curl): ESC, BEL as carets. */
	struct metrics_buf e = {0};
	metrics_escape_label(&e, "kworker/\x1b]0;PW\x07\"\nx\x1b[2J");
	assert_string_equal(e.p, "kworker/^[]0;PW^G\\\"\\nx^[[2J");
	free(e.p);

	struct snapshot *s = test_snap();
	char *t = render(s, METRICS_PROM);
	assert_non_null(
	    strstr(t, "tunetop_threads_cpu_seconds_total{tid=\"11\",name=\"a\\\"b\\\\c\\nd\","
		      "subsystem=\"engine\"} 1.500000001\n"));
	/* One per-thread CPU family: the deprecated tunetop_thread_cpu_seconds_total is gone
	 * (docs/metrics.md "Deprecated names"), so no thread is exported twice. */
	assert_null(strstr(t, "tunetop_thread_cpu_seconds"));
	/* No raw newline inside any label value: every line is a comment or a sample. */
	for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n"))
		assert_true(line[0] == '#' || strncmp(line, "tunetop", 7) == 0 ||
			    strncmp(line, "process_", 8) == 0);
	free(t);
	snapshot_free(s);
}

/* A thread name of raw bytes (any user can set one with prctl) is written with U+FFFD, not
 * dropped and not raw: one bad byte makes a parser reject the whole scrape. */
static void test_label_invalid_utf8(void **state)
{
	(void)state;
	struct metrics_buf b = {0};
	metrics_escape_label(&b, "kworker/\xff\xfe\"\\");
	assert_string_equal(b.p, "kworker/\xef\xbf\xbd\xef\xbf\xbd\\\"\\\\");
	free(b.p);

	struct snapshot *s = test_snap();
	strcpy(s->threads[1].name, "kworker/\xff\xfe");
	for (int f = METRICS_PROM; f <= METRICS_OPENMETRICS; f++) {
		char *t = render(s, (enum metrics_format)f);
		assert_null(strchr(t, '\xff'));
		assert_null(strchr(t, '\xfe'));
		assert_non_null(
		    strstr(t, "{tid=\"12\",name=\"kworker/\xef\xbf\xbd\xef\xbf\xbd\","));
		free(t);
	}
	snapshot_free(s);
}

/* The Accept header: media types in any case, q=0 is "not acceptable", the higher q wins. */
static void test_accept(void **state)
{
	(void)state;
	const enum metrics_format P = METRICS_PROM, O = METRICS_OPENMETRICS;
	static const struct {
		const char *accept;
		enum metrics_format want;
	} cases[] = {
	    {"application/openmetrics-text;q=0, text/plain", METRICS_PROM},
	    {"application/openmetrics-text; q=0.0", METRICS_PROM},
	    {"Application/OpenMetrics-Text; version=1.0.0", METRICS_OPENMETRICS},
	    {"application/openmetrics-text; version=1.0.0,text/plain;q=0.5", METRICS_OPENMETRICS},
	    {"text/plain;q=1, application/openmetrics-text;q=0.5", METRICS_PROM},
	    {"text/plain;q=0.5, application/openmetrics-text;q=0.5", METRICS_OPENMETRICS},
	    {"application/openmetrics-text;q=bogus", METRICS_PROM},
	    {"application/openmetrics-text;q=2", METRICS_PROM},
	    {"application/openmetrics-textual", METRICS_PROM},
	    {"*/*", METRICS_PROM},
	    {"", METRICS_PROM},
	    {",,;", METRICS_PROM},
	};
	assert_int_equal(metrics_format_for_accept(NULL), P);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (metrics_format_for_accept(cases[i].accept) != cases[i].want)
			fail_msg("Accept: %s: want %s", cases[i].accept,
				 cases[i].want == O ? "OpenMetrics" : "0.0.4");
	}
}

/* Accept-Encoding: gzip at q > 0, by name or through "*", a named q=0 winning over "*". */
static void test_accept_gzip(void **state)
{
	(void)state;
	static const struct {
		const char *ae;
		bool want;
	} cases[] = {
	    {"gzip", true},
	    {"GZip", true},
	    {"x-gzip", true},
	    {"deflate, gzip;q=0.5", true},
	    {"gzip;q=0", false},
	    {"gzip; q=0.000", false},
	    {"gzip;q=0, *", false},
	    {"br, *;q=0.1", true},
	    {"*;q=0", false},
	    {"identity", false},
	    {"gzipped", false},
	    {"gzip;q=bogus", false},
	    {"", false},
	};
	assert_false(metrics_accepts_gzip(NULL));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (metrics_accepts_gzip(cases[i].ae) != cases[i].want)
			fail_msg("Accept-Encoding: %s: want %s", cases[i].ae,
				 cases[i].want ? "gzip" : "identity");
}

/* The family a sample line belongs to, given the family names of the TYPE lines. */
static int sample_family(const char *line, char names[][128], int n)
{
	static const char *const suffixes[] = {"", "_total", "_info", "_bucket", "_sum", "_count"};
	size_t len = strcspn(line, "{ ");
	for (int i = n - 1; i >= 0; i--)
		for (size_t k = 0; k < sizeof(suffixes) / sizeof(suffixes[0]); k++) {
			size_t nl = strlen(names[i]), sl = strlen(suffixes[k]);
			if (nl + sl == len && strncmp(line, names[i], nl) == 0 &&
			    strncmp(line + nl, suffixes[k], sl) == 0)
				return i;
		}
	return -1;
}

static void check_families(enum metrics_format f)
{
	struct snapshot *s = test_snap();
	char *t = render(s, f);
	static char names[256][128];
	int n = 0, cur = -1;
	bool help_seen = false;
	char *save;

	for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[128];
		if (sscanf(line, "# HELP %127s", name) == 1) {
			for (int i = 0; i < n; i++)
				assert_string_not_equal(names[i], name); /* one HELP per family */
			help_seen = true;
			snprintf(names[n], sizeof(names[n]), "%s", name);
		} else if (sscanf(line, "# TYPE %127s", name) == 1) {
			assert_true(help_seen); /* HELP, then TYPE of the same family */
			assert_string_equal(name, names[n]);
			cur = n++;
			help_seen = false;
		} else if (line[0] != '#') {
			/* Every sample follows its own family's TYPE, contiguously. */
			assert_true(cur >= 0);
			assert_int_equal(sample_family(line, names, n), cur);
		}
	}
	assert_true(n > 40);
	free(t);
	snapshot_free(s);
}

static void test_help_type_prom(void **state)
{
	(void)state;
	check_families(METRICS_PROM);
}

static void test_help_type_openmetrics(void **state)
{
	(void)state;
	check_families(METRICS_OPENMETRICS);
}

static void test_counter_names_by_format(void **state)
{
	(void)state;
	struct snapshot *s = test_snap();
	char *p = render(s, METRICS_PROM), *o = render(s, METRICS_OPENMETRICS);
	/* 0.0.4 types the sample name; OpenMetrics the family without _total; samples alike. */
	assert_non_null(strstr(p, "# TYPE tunetop_pmd_dropped_packets_total counter\n"));
	assert_non_null(strstr(o, "# TYPE tunetop_pmd_dropped_packets counter\n"));
	assert_non_null(strstr(o, "# UNIT tunetop_pmd_dropped_packets packets\n"));
	assert_non_null(strstr(p, "\ntunetop_pmd_dropped_packets_total 42\n"));
	assert_non_null(strstr(o, "\ntunetop_pmd_dropped_packets_total 42\n"));
	assert_non_null(strstr(p, "# TYPE tunetop_info gauge\n"));
	assert_non_null(strstr(o, "# TYPE tunetop info\n"));
	assert_non_null(strstr(o, "tunetop_events_total{kind=\"knob\"} 3\n"));
	assert_null(strstr(p, "# UNIT"));
	assert_null(strstr(p, "# EOF"));
	size_t ol = strlen(o);
	assert_true(ol > 6 && strcmp(o + ol - 6, "# EOF\n") == 0);
	assert_non_null(strstr(o, "le=\"1.0\"")); /* OpenMetrics floats in le */
	free(p);
	free(o);
	snapshot_free(s);
}

/* Every histogram: buckets non-decreasing, the last le="+Inf", _count equal to it. */
static void check_histograms(const char *text, int expect)
{
	char *t = strdup(text), *save;
	char fam[128] = "";
	uint64_t prev = 0, inf = 0;
	bool inf_seen = true;
	int found = 0;

	for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *b = strstr(line, "_bucket{");
		if (b && line[0] != '#') {
			char name[128];
			snprintf(name, sizeof(name), "%.*s", (int)(b - line), line);
			/* A new series starts at the first bucket after a _count. */
			if (inf_seen) {
				snprintf(fam, sizeof(fam), "%s", name);
				prev = 0;
				inf_seen = false;
			}
			assert_string_equal(name, fam);
			uint64_t v = strtoull(strrchr(line, ' ') + 1, NULL, 10);
			assert_true(v >= prev);
			prev = v;
			if (strstr(line, "le=\"+Inf\"")) {
				inf = v;
				inf_seen = true;
			}
		} else if (strstr(line, "_count") && line[0] != '#' && fam[0] &&
			   strncmp(line, fam, strlen(fam)) == 0) {
			assert_true(inf_seen);
			assert_int_equal(strtoull(strrchr(line, ' ') + 1, NULL, 10), inf);
			found++;
		}
	}
	assert_int_equal(found, expect);
	free(t);
}

static void test_histograms(void **state)
{
	(void)state;
	struct snapshot *s = test_snap();
	uint64_t hist[1024] = {0};
	/* Overshoot: 5 at 0 us, 3 at 1.x us, 2 at 700 us, 4 beyond the last bound. */
	hist[0] = 5, hist[1] = 3, hist[700] = 2, hist[1023] = 4;
	pmd_hist_le_fill(hist, 1024, &s->pmd.threads[0]);
	const uint64_t want[PMD_SNAP_OVERSHOOT_NLE] = {5, 8, 8, 8, 8, 8, 8, 8, 8, 10};
	assert_memory_equal(s->pmd.threads[0].overshoot_le, want, sizeof(want));
	assert_int_equal(s->pmd.threads[0].overshoot_count, 14);

	static struct blk_hist_copy bh;
	memset(&bh, 0, sizeof(bh));
	bh.b[blk_hist_index(15000)] = 6; /* 15 us: under 20 us, not under 10 us */
	bh.b[blk_hist_index(3000000)] = 1; /* 3 ms */
	bh.b[BLK_HIST_BUCKETS - 1] = 2; /* beyond every bound */
	blk_hist_le_fill(&bh, &s->blk);
	assert_int_equal(s->blk.lat_le[0], 0);
	assert_int_equal(s->blk.lat_le[1], 6);
	assert_int_equal(s->blk.lat_le[7], 6); /* 2 ms */
	assert_int_equal(s->blk.lat_le[8], 7); /* 5 ms */
	assert_int_equal(s->blk.lat_le[BLK_SNAP_LAT_NLE - 1], 7);
	assert_int_equal(s->blk.lat_count, 9);

	for (int f = 0; f < METRICS_NFORMATS; f++) {
		char *t = render(s, (enum metrics_format)f);
		check_histograms(t, 3); /* est tick, pmd-c:0 overshoot, blk latency */
		assert_non_null(
		    strstr(t, "tunetop_pmd_sleep_overshoot_seconds_count{pmd=\"pmd-c:0\"} 14\n"));
		assert_non_null(strstr(t, "tunetop_blk_latency_seconds_bucket{le=\"+Inf\"} 9\n"));
		assert_non_null(strstr(t, "tunetop_est_tick_seconds_sum 0.123456789\n"));
		free(t);
	}
	snapshot_free(s);
}

/* Host took is a counter summed from each snapshot's interval (stolen_pct x interval_s), a
 * host PMD's first sample (no baseline) adding nothing. */
static void test_host_took_counter(void **state)
{
	(void)state;
	struct snapshot *s = test_snap();
	struct metrics_state st = {.tid = true};
	s->interval_s = 0.5;
	s->pmd.threads[0].stolen_pct = 40; /* 0.2 s of each 0.5 s interval */
	metrics_note(&st, s);
	metrics_note(&st, s);
	s->pmd.threads[0].no_rate = true;
	metrics_note(&st, s);
	struct metrics_buf b = {0};
	metrics_render(s, &st, METRICS_PROM, &b);
	assert_non_null(strstr(b.p, "# TYPE tunetop_pmd_host_took_seconds_total counter\n"));
	assert_non_null(
	    strstr(b.p, "tunetop_pmd_host_took_seconds_total{pmd=\"pmd-c:0\"} 0.400000000\n"));
	free(b.p);
	snapshot_free(s);
}

/* The interrupt CPU's busy time and what the host took of it, as 0..1 gauges of the interval;
 * left out where the JSON has null (a host, the first sample), never written as 0. */
static void test_blk_irq_busy(void **state)
{
	(void)state;
	struct snapshot *s = test_snap();
	char *t = render(s, METRICS_PROM);
	assert_null(strstr(t, "tunetop_blk_irq_busy_ratio"));
	assert_null(strstr(t, "tunetop_blk_irq_host_took_ratio"));
	free(t);
	s->blk.irq_busy_valid = true;
	s->blk.irq_busy_pct = 98.5;
	s->blk.irq_host_took_pct = 12.25;
	for (int f = METRICS_PROM; f <= METRICS_OPENMETRICS; f++) {
		t = render(s, (enum metrics_format)f);
		assert_non_null(strstr(t, "# TYPE tunetop_blk_irq_busy_ratio gauge\n"));
		assert_non_null(strstr(t, "\ntunetop_blk_irq_busy_ratio 0.985"));
		assert_non_null(strstr(t, "\ntunetop_blk_irq_host_took_ratio 0.1225"));
		free(t);
	}
	snapshot_free(s);
}

/* A figure the source lacks has no sample, never a number: a host PMD's first sample has no
 * busy, sleep or CPU figure (-1, null in the JSON), and a sleep time the host names absent
 * leaves its family out; the PMD's other figures stay. */
static void test_pmd_unknown(void **state)
{
	(void)state;
	struct snapshot *s = test_snap();
	struct pmd_thread_snap *p = &s->pmd.threads[0];
	p->no_rate = true;
	p->busy_pct = p->idle_pct = p->cpu_pct = p->sleep_us_avg = -1;
	p->rx_packets = 77;
	s->has_host = true;
	s->host.absent[s->host.nabsent++] = "pmd.sleep_us_avg";
	char *t = render(s, METRICS_PROM);
	assert_null(strstr(t, "tunetop_pmd_busy_ratio{"));
	assert_null(strstr(t, "tunetop_pmd_cpu_ratio{"));
	assert_null(strstr(t, "tunetop_pmd_sleep_average_seconds"));
	assert_non_null(strstr(t, "\ntunetop_pmd_rx_packets_total{pmd=\"pmd-c:0\"} 77\n"));
	free(t);
	p->busy_pct = 50, p->cpu_pct = 25, p->sleep_us_avg = 10;
	s->host.nabsent = 0;
	t = render(s, METRICS_PROM);
	assert_non_null(strstr(t, "\ntunetop_pmd_busy_ratio{pmd=\"pmd-c:0\"} 0.5\n"));
	assert_non_null(strstr(t, "\ntunetop_pmd_cpu_ratio{pmd=\"pmd-c:0\"} 0.25\n"));
	assert_non_null(strstr(t, "\ntunetop_pmd_sleep_average_seconds{pmd=\"pmd-c:0\"} 1e-05\n"));
	free(t);
	snapshot_free(s);
}

static void test_table(void **state)
{
	(void)state;
	char a[128], b[128];
	for (size_t i = 0; i < metric_nfamilies; i++) {
		const struct metric_family *f = &metric_families[i];
		assert_non_null(f->name);
		assert_true(strncmp(f->name, "tunetop", 7) == 0 ||
			    strncmp(f->name, "process_", 8) == 0);
		assert_true(f->help && f->help[0]);
		/* A unit is the name's suffix (OpenMetrics' rule for # UNIT). */
		if (f->unit[0]) {
			size_t nl = strlen(f->name), ul = strlen(f->unit);
			assert_true(nl > ul && strcmp(f->name + nl - ul, f->unit) == 0);
		}
		for (size_t j = i + 1; j < metric_nfamilies; j++)
			assert_string_not_equal(
			    metrics_prom_name(f, a, sizeof(a)),
			    metrics_prom_name(&metric_families[j], b, sizeof(b)));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_label_escaping),
	    cmocka_unit_test(test_threads_by_name),
	    cmocka_unit_test(test_label_invalid_utf8),
	    cmocka_unit_test(test_accept),
	    cmocka_unit_test(test_accept_gzip),
	    cmocka_unit_test(test_help_type_prom),
	    cmocka_unit_test(test_help_type_openmetrics),
	    cmocka_unit_test(test_counter_names_by_format),
	    cmocka_unit_test(test_histograms),
	    cmocka_unit_test(test_host_took_counter),
	    cmocka_unit_test(test_blk_irq_busy),
	    cmocka_unit_test(test_pmd_unknown),
	    cmocka_unit_test(test_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

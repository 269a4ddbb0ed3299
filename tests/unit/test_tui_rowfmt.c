/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_tui_rowfmt.c: thread rows keep their columns and stay printable ASCII whatever the name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/snapshot.h"
#include "tui/rowfmt.h"
#include "tui/rowfmt_cost.h"

static void assert_printable(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p >= 0x7f)
			fail_msg("byte 0x%02x at %td in \"%s\"", *p, (const char *)p - s, s);
}

/* Host threads are named by others: a tab, an escape, UTF-8 (cut mid-character at 15 bytes). */
static void test_thread_row_odd_names(void **state)
{
	static const char *const names[] = {
	    "a\tb\x1b[2Jc",
	    "\xc3\xa9l\xc3\xa8ve-\xe2\x96\x88\xe2\x96",
	    "\x7f\x01\xff\xfe",
	    "tab\there",
	};
	struct snapshot *s = snapshot_new();
	char buf[512];
	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct snap_thread t = {
		    .tid = 4242, .subsys = SUBSYS_ENGINE, .emu_cpu = 1, .cpu_pct = 12.5};
		snprintf(t.name, sizeof(t.name), "%s", names[i]);
		rowfmt_thread(s, &t, buf, sizeof(buf), -1);
		assert_printable(buf);
		/* One cell per byte: every column starts where the heading says. */
		assert_int_equal(strlen(buf) >= (size_t)rowfmt_col_x[4], 1);
		assert_memory_equal(buf + rowfmt_col_x[2], "engine", 6);
		assert_memory_equal(buf + rowfmt_col_x[3], "   1", 4);
		assert_memory_equal(buf + rowfmt_col_x[4], "  12.5", 6);
		assert_int_equal(buf[rowfmt_col_x[1] + strlen(t.name)], ' ');
	}
	struct snap_thread t = {.tid = 7, .subsys = SUBSYS_ENGINE};
	snprintf(t.name, sizeof(t.name), "a\tb\x1b");
	assert_string_equal(rowfmt_thread(s, &t, buf, sizeof(buf), 30),
			    "      7 a?b?            engine");
	/* Plain names pass unchanged, all 15 characters. */
	snprintf(t.name, sizeof(t.name), "kworker/u8:0-ev");
	rowfmt_thread(s, &t, buf, sizeof(buf), -1);
	assert_memory_equal(buf + rowfmt_col_x[1], "kworker/u8:0-ev engine", 22);
	snapshot_free(s);
}

static void test_pmd_row_odd_name(void **state)
{
	struct pmd_thread_snap p = {.rx_pps = 1000};
	char buf[512];
	(void)state;
	snprintf(p.name, sizeof(p.name), "p\tm\x1b\xc3\xa9");
	rowfmt_pmd(&p, buf, sizeof(buf));
	assert_printable(buf);
	assert_memory_equal(buf, "p?m??    ", 9); /* one cell per character */
	assert_int_equal(strlen(buf), strlen(rowfmt_pmd_head));
}

/* A p99 in the histogram's open top bucket reads as a bound, in the same column width. */
static void test_pmd_row_bound(void **state)
{
	struct pmd_thread_snap p = {.name = "pmd-c:0", .overshoot_p99_us = 1023};
	char buf[512];
	(void)state;
	rowfmt_pmd(&p, buf, sizeof(buf));
	assert_non_null(strstr(buf, " 1023.0us "));
	p.overshoot_p99_at_least = true;
	rowfmt_pmd(&p, buf, sizeof(buf));
	assert_non_null(strstr(buf, " >1023us "));
	assert_null(strstr(buf, "1023.0"));
	assert_int_equal(strlen(buf), strlen(rowfmt_pmd_head));
	assert_string_equal(rowfmt_at_least_us(4095, buf, sizeof(buf)), ">4.1ms");
	assert_string_equal(rowfmt_at_least_us(1023, buf, sizeof(buf)), ">1023us");
}

static void test_name_bounds(void **state)
{
	char b[4];
	(void)state;
	assert_string_equal(rowfmt_name("abcdef", b, sizeof(b)), "abc");
	assert_string_equal(rowfmt_name("", b, sizeof(b)), "");
	assert_string_equal(rowfmt_name("\n", b, sizeof(b)), "?");
}

/* Bytes that are not UTF-8 are shown, one '?' for each run that the JSON and the metrics
 * text replace with one U+FFFD, so the columns after the name stay in line. */
static void test_name_invalid_utf8(void **state)
{
	char b[32];
	(void)state;
	assert_string_equal(rowfmt_name("kworker/\xff\xfe", b, sizeof(b)), "kworker/??");
	assert_string_equal(rowfmt_name("ab\xe2\x82", b, sizeof(b)), "ab?");
	assert_string_equal(rowfmt_name("\xc3\xa9t\xc3\xa9", b, sizeof(b)), "?t?");
	assert_string_equal(rowfmt_name("\xe2\x82z", b, sizeof(b)), "?z");
}

/* The tick time is of all kthreads: a kthread's row shows it only when it is the only one. */
static void test_est_detail(void **state)
{
	struct snapshot *s = snapshot_new();
	struct snap_thread t = {.tid = 9, .name = "est-k:1", .subsys = SUBSYS_EST};
	char buf[64];
	(void)state;
	s->has_est = true;
	s->est.tick_ns_last = 5000; /* the subsystem's last tick: not this row's */
	s->est.nkt = 2;
	s->est.kt[0] =
	    (struct est_kt_snap){.id = 0, .estimators = 10, .rows_filled = 1, .tick_ns_last = 5000};
	s->est.kt[1] = (struct est_kt_snap){
	    .id = 1, .estimators = 7, .rows_filled = 2, .rows_full = 1, .tick_ns_last = 2500};
	/* Each kthread row shows its own tick time. */
	assert_string_equal(rowfmt_detail(s, &t, buf, sizeof(buf)),
			    "7 ests 2 rows 1 full  tick 2.5us");
	/* A thread the section does not list gets no detail. */
	struct snap_thread t9 = {.tid = 10, .name = "est-k:9", .subsys = SUBSYS_EST};
	assert_string_equal(rowfmt_detail(s, &t9, buf, sizeof(buf)), "");
	snapshot_free(s);
}

/* The cost line's groups, each whole; a share clamped at 100 takes "100", so four-digit costs
 * (a slow build) still leave room for "host took" at 80 columns (two PMDs, one at a five-digit
 * cost). */
static void test_cost_parts(void **state)
{
	struct pmd_snap p = {.nthreads = 2, .cpu_ns_per_pkt = 4692, .cpu_left_pct = 100};
	char b[256], line[256] = "";
	(void)state;
	p.threads[0].cpu_ns_per_pkt = 3649;
	p.threads[0].cpu_left_pct = 100;
	p.threads[0].stolen_pct = 52;
	p.threads[1].cpu_ns_per_pkt = -1; /* no figure yet */
	p.threads[1].cpu_left_pct = 38.46;
	p.threads[1].no_rate = true;
	assert_string_equal(rowfmt_pmd_cost_part(&p, 0, b, sizeof(b)),
			    "cost: ns/pkt 3649/- all 4692");
	assert_string_equal(rowfmt_pmd_cost_part(&p, 1, b, sizeof(b)),
			    "cpu-left% 100/38.5 all 100");
	assert_string_equal(rowfmt_pmd_cost_part(&p, 2, b, sizeof(b)), "host took 52%/-");
	assert_null(rowfmt_pmd_cost_part(&p, 3, b, sizeof(b)));
	p.threads[1].cpu_ns_per_pkt = 30200;
	p.threads[1].cpu_left_pct = 99.9;
	p.threads[1].no_rate = false;
	p.threads[1].stolen_pct = 100;
	for (int k = 0; k < ROWFMT_COST_PARTS; k++) {
		strcat(line, k ? "  " : "");
		strcat(line, rowfmt_pmd_cost_part(&p, k, b, sizeof(b)));
	}
	assert_true(strlen(line) <= 80);
	/* A tiny buffer is cut, never overrun. */
	char t[8];
	assert_string_equal(rowfmt_pmd_cost_part(&p, 0, t, sizeof(t)), "cost: n");
}

/* What the host took, and the traffic lost to it beside what the knobs control (docs/pmd.md
 * "What the host took"); a source without the figure (a live OVS, an old recording) says only
 * the share. */
static void test_host_took(void **state)
{
	struct pmd_snap p = {
	    .stolen_pct = 94, .offered_pps = 141000, .target_pps = 3000000, .host_lost_pps = -1};
	char b[128];
	(void)state;
	assert_string_equal(rowfmt_host_took(&p, b, sizeof(b)),
			    "offered 141.0k of 3.00M: host took 94%");
	assert_null(rowfmt_host_lost(&p, b, sizeof(b)));
	p.host_lost_pps = 2859000;
	p.host_lost_pct = 95.3;
	assert_string_equal(rowfmt_host_lost(&p, b, sizeof(b)), "lost to the host 2.86M/s (95%)");
	assert_string_equal(rowfmt_host_took(&p, b, sizeof(b)),
			    "offered 141.0k of 3.00M: host took 94%");
	assert_string_equal(rowfmt_host_took_short(&p, b, sizeof(b)),
			    "offered 141.0k/3.00M: host took 94%");
	p.stolen_pct = 1;
	assert_null(rowfmt_host_took(&p, b, sizeof(b)));
}

/* A thread named as OVS names its own is "ovs" only when it is the watched ovs-vswitchd's
 * (snap_thread.ovs): a "handler1" of any other process is "other" (any user can name a
 * thread so). */
static void test_host_group_ovs_thread(void **state)
{
	(void)state;
	struct snapshot s;
	memset(&s, 0, sizeof(s));
	s.backend = "host";
	static const char *const names[] = {"handler1", "revalidator5", "urcu3"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct snap_thread t = {.tid = 5000, .ovs = true, .subsys = SUBSYS_ENGINE};
		snprintf(t.name, sizeof(t.name), "%s", names[i]);
		assert_string_equal(rowfmt_host_group(&s, &t), "ovs");
		assert_string_equal(rowfmt_thread_group(&s, &t), "ovs");
		t.ovs = false; /* another process's thread of that name */
		assert_string_equal(rowfmt_host_group(&s, &t), "other");
		assert_string_equal(rowfmt_thread_group(&s, &t), "other");
	}
	/* A PMD is OVS's by the host backend's word (subsys pmd). */
	struct snap_thread pmd = {.tid = 5001, .subsys = SUBSYS_PMD};
	snprintf(pmd.name, sizeof(pmd.name), "pmd-c02/id:9");
	assert_string_equal(rowfmt_host_group(&s, &pmd), "ovs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_thread_row_odd_names),
	    cmocka_unit_test(test_pmd_row_odd_name),
	    cmocka_unit_test(test_name_bounds),
	    cmocka_unit_test(test_name_invalid_utf8),
	    cmocka_unit_test(test_est_detail),
	    cmocka_unit_test(test_pmd_row_bound),
	    cmocka_unit_test(test_cost_parts),
	    cmocka_unit_test(test_host_took),
	    cmocka_unit_test(test_host_group_ovs_thread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_host_proc.c: the /proc parsers of the host backend on captured text and broken text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backends/host/host_proc.h"

/* Captured on the 2-CPU test VM (kernel 6.18). */
static const char softirqs2[] = "                    CPU0       CPU1       \n"
				"          HI:          0          0\n"
				"       TIMER:       8594       6935\n"
				"      NET_TX:          3          0\n"
				"      NET_RX:        413        584\n"
				"       BLOCK:          0      57964\n"
				"    IRQ_POLL:          0          0\n"
				"     TASKLET:          1          1\n"
				"       SCHED:      17723      15476\n"
				"     HRTIMER:          0          0\n"
				"         RCU:      14867      14838\n";

static const char interrupts2[] = "           CPU0       CPU1       \n"
				  "  1:          9          0   IO-APIC   1-edge      i8042\n"
				  "NMI:          0          0   Non-maskable interrupts\n"
				  "RES:       5594       4970   Rescheduling interrupts\n"
				  "CAL:      29884      23341   Function call interrupts\n"
				  "TLB:       2487       2165   TLB shootdowns\n"
				  "ERR:          0\n";

/* CPU2 is offline: it has no column, so column 2 is CPU3. */
static const char interrupts_offline[] =
    "           CPU0       CPU1       CPU3\n"
    "CAL:         10         20         40   Function call interrupts\n";

static void test_softirqs_block(void **state)
{
	uint64_t v[8];
	bool present[8];
	(void)state;
	assert_int_equal(host_proc_percpu_row(softirqs2, strlen(softirqs2), "BLOCK", v, present, 8),
			 2);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[1], 57964);
	assert_true(present[0] && present[1] && !present[2]);
	/* "IRQ_POLL" must not match "POLL", nor "BLOCK" match "BLOCK2" */
	assert_int_equal(host_proc_percpu_row(softirqs2, strlen(softirqs2), "POLL", v, present, 8),
			 -1);
	assert_int_equal(host_proc_percpu_row(softirqs2, strlen(softirqs2), "BLOC", v, present, 8),
			 -1);
}

static void test_interrupts_cal_with_description(void **state)
{
	uint64_t v[4];
	bool present[4];
	(void)state;
	assert_int_equal(
	    host_proc_percpu_row(interrupts2, strlen(interrupts2), "CAL", v, present, 4), 2);
	assert_int_equal(v[0], 29884);
	assert_int_equal(v[1], 23341);
	/* ERR has one value only: a short row gives what is there */
	assert_int_equal(
	    host_proc_percpu_row(interrupts2, strlen(interrupts2), "ERR", v, present, 4), 1);
	assert_true(present[0] && !present[1]);
	/* numbered vectors are rows too */
	assert_int_equal(host_proc_percpu_row(interrupts2, strlen(interrupts2), "1", v, present, 4),
			 2);
	assert_int_equal(v[0], 9);
}

static void test_offline_cpu_columns_map_by_id(void **state)
{
	uint64_t v[8];
	bool present[8];
	(void)state;
	assert_int_equal(host_proc_percpu_row(interrupts_offline, strlen(interrupts_offline), "CAL",
					      v, present, 8),
			 3);
	assert_int_equal(v[0], 10);
	assert_int_equal(v[1], 20);
	assert_int_equal(v[2], 0);
	assert_false(present[2]);
	assert_int_equal(v[3], 40);
	assert_true(present[3]);
}

static void test_more_cpus_than_room(void **state)
{
	uint64_t v[2];
	bool present[2];
	(void)state;
	/* CPU3 beyond max: its column is read and dropped, nothing written past v[1] */
	assert_int_equal(host_proc_percpu_row(interrupts_offline, strlen(interrupts_offline), "CAL",
					      v, present, 2),
			 3);
	assert_int_equal(v[0], 10);
	assert_int_equal(v[1], 20);
}

static void test_missing_and_truncated(void **state)
{
	uint64_t v[4];
	bool present[4];
	(void)state;
	assert_int_equal(host_proc_percpu_row("", 0, "CAL", v, present, 4), -1);
	/* no header */
	assert_int_equal(host_proc_percpu_row("CAL: 1 2\n", 9, "CAL", v, present, 4), -1);
	/* cut in the middle of the second number: "233" is not taken for 23341 */
	size_t cut = (size_t)(strstr(interrupts2, "23341") - interrupts2) + 3;
	assert_int_equal(host_proc_percpu_row(interrupts2, cut, "CAL", v, present, 4), 1);
	assert_int_equal(v[0], 29884);
	assert_false(present[1]);
	/* truncated before the row */
	cut = (size_t)(strstr(interrupts2, "CAL") - interrupts2);
	assert_int_equal(host_proc_percpu_row(interrupts2, cut, "CAL", v, present, 4), -1);
	/* junk instead of numbers */
	const char *junk = "  CPU0 CPU1\nCAL: x 5\n";
	assert_int_equal(host_proc_percpu_row(junk, strlen(junk), "CAL", v, present, 4), 0);
	/* an overflowing number stops the row */
	const char *big = "  CPU0 CPU1\nCAL: 99999999999999999999999 5\n";
	assert_int_equal(host_proc_percpu_row(big, strlen(big), "CAL", v, present, 4), 0);
}

static const char stat2[] = "cpu  3302 0 2280 120987 305 0 53 7 0 0\n"
			    "cpu0 867 0 1070 61496 10 0 22 1 0 0\n"
			    "cpu1 2434 0 1209 59491 295 0 31 5 0 0\n"
			    "intr 123 4 5\n"
			    "ctxt 99\n";

static void test_stat(void **state)
{
	struct host_cpustat s[4];
	(void)state;
	assert_int_equal(host_proc_stat(stat2, strlen(stat2), s, 4), 2);
	assert_true(s[0].present && s[1].present && !s[2].present);
	assert_int_equal(s[0].busy, 867 + 0 + 1070 + 0 + 22 + 1);
	assert_int_equal(s[0].total, s[0].busy + 61496 + 10);
	/* an old kernel with only 4 fields */
	const char *old = "cpu3 1 2 3 4\ncpu2 1 2 3 4";
	assert_int_equal(host_proc_stat(old, strlen(old), s, 4), 4);
	assert_int_equal(s[3].busy, 6);
	assert_int_equal(s[3].total, 10);
	assert_false(s[2].present); /* no newline: cut */
	/* cpu id beyond max, truncated lines, nothing */
	const char *bad = "cpu9 1 2 3 4\ncpu1 1 2\ncpu";
	assert_int_equal(host_proc_stat(bad, strlen(bad), s, 4), -1);
	assert_int_equal(host_proc_stat("", 0, s, 4), -1);
}

static void test_taskstat(void **state)
{
	/* comm with spaces and a ')' inside: the last ')' ends it */
	const char *t =
	    "1234 (pmd) c01 x) R 1 1 1 0 -1 4194560 0 0 0 0 250 37 0 0 20 0 1 0 100 0 0 "
	    "18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
	struct host_taskstat ts;
	(void)state;
	assert_int_equal(host_proc_taskstat(t, strlen(t), &ts), 0);
	assert_string_equal(ts.comm, "pmd) c01 x");
	assert_int_equal(ts.state, 'R');
	assert_int_equal(ts.utime_ticks, 250);
	assert_int_equal(ts.stime_ticks, 37);
	assert_int_equal(ts.start_ticks, 100); /* field 22: tells a reused tid apart */
	assert_int_equal(ts.processor, 1);
	/* truncated after stime: still usable, processor unknown */
	size_t cut = (size_t)(strstr(t, " 0 0 20") - t) + 2; /* ends in field 16 */
	assert_int_equal(host_proc_taskstat(t, cut, &ts), 0);
	assert_int_equal(ts.stime_ticks, 37);
	assert_int_equal(ts.processor, -1);
	/* truncated before utime */
	assert_int_equal(host_proc_taskstat(t, 30, &ts), -1);
	assert_int_equal(host_proc_taskstat("1234 (x", 7, &ts), -1);
	assert_int_equal(host_proc_taskstat("", 0, &ts), -1);
	/* a comm longer than 15 characters is cut, not overflowed */
	const char *lng = "1 (aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa) S 0 0 0 0 0 0 0 0 0 0 1 2\n";
	assert_int_equal(host_proc_taskstat(lng, strlen(lng), &ts), 0);
	assert_int_equal(strlen(ts.comm), 15);
}

static void test_diskstats(void **state)
{
	const char *d = "   7       0 loop0 100 0 800 5 7 0 56 1 2 20 26 0 0 0 0 0 0\n"
			" 253       0 vda 5000 10 400000 900 3000 20 50000 700 3 1200 1600\n"
			" 253       1 vda1 4000 10 300000 800 2000 20 40000 600 0 1000 1400\n";
	struct host_diskstat s;
	(void)state;
	assert_int_equal(host_proc_diskstats(d, strlen(d), "vda", &s), 0);
	assert_int_equal(s.reads, 5000);
	assert_int_equal(s.writes, 3000);
	assert_int_equal(s.in_flight, 3);
	assert_int_equal(host_proc_diskstats(d, strlen(d), "vd", &s), -1);
	assert_int_equal(host_proc_diskstats(d, strlen(d), "sda", &s), -1);
	/* a truncated line is refused, not half-read */
	assert_int_equal(host_proc_diskstats(d, 30, "loop0", &s), -1);
}

static void test_cpuinfo(void **state)
{
	const char *c = "processor\t: 0\nmodel name\t: X\ncpu MHz\t\t: 2596.120\n\n"
			"processor\t: 1\ncpu MHz\t\t: 1200.000\n\nprocessor\t: 900\ncpu MHz : 5\n";
	uint32_t mhz[4] = {0};
	(void)state;
	assert_int_equal(host_proc_cpuinfo_mhz(c, strlen(c), mhz, 4), 2);
	assert_int_equal(mhz[0], 2596);
	assert_int_equal(mhz[1], 1200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_softirqs_block),
	    cmocka_unit_test(test_interrupts_cal_with_description),
	    cmocka_unit_test(test_offline_cpu_columns_map_by_id),
	    cmocka_unit_test(test_more_cpus_than_room),
	    cmocka_unit_test(test_missing_and_truncated),
	    cmocka_unit_test(test_stat),
	    cmocka_unit_test(test_taskstat),
	    cmocka_unit_test(test_diskstats),
	    cmocka_unit_test(test_cpuinfo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

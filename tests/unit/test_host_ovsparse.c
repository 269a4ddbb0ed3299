/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_host_ovsparse.c: JSON-RPC framing and the pmd-perf-show / pmd-sleep-show parsers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "backends/host/ovs/host_ovsparse.h"

static void test_request(void **state)
{
	const char *params[] = {"-pmd", "1"};
	(void)state;
	char *r = host_ovs_request("dpif-netdev/pmd-perf-show", params, 2, 7);
	json_error_t je;
	json_t *o = json_loads(r, 0, &je);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "method")),
			    "dpif-netdev/pmd-perf-show");
	assert_int_equal(json_integer_value(json_object_get(o, "id")), 7);
	json_t *p = json_object_get(o, "params");
	assert_int_equal(json_array_size(p), 2);
	assert_string_equal(json_string_value(json_array_get(p, 1)), "1");
	json_decref(o);
	free(r);
	/* no params still sends "params": [] (a missing params makes OVS hang up) */
	r = host_ovs_request("list-commands", NULL, 0, 0);
	assert_non_null(strstr(r, "\"params\":[]"));
	free(r);
}

/* The replies of docs/pmd.md §12, back to back on one stream. */
static const char replies[] =
    "{\"id\":0,\"result\":\"\\nTime: 04:54:52.161\\nMeasurement duration: 11.988 s\\n\","
    "\"error\":null}"
    "{\"id\":1,\"error\":\"\\\"dpif-netdev/pmd-sleep-show\\\" is not a valid command (use "
    "\\\"list-commands\\\" to see a list of valid commands)\\n\"}\n"
    "{\"error\":null,\"result\":\"\",\"id\":2}";

static void test_reply_stream(void **state)
{
	char *res, err[256];
	bool is_err;
	size_t used, off = 0, len = strlen(replies);
	(void)state;

	assert_int_equal(
	    host_ovs_parse_reply(replies, len, 0, &res, &is_err, &used, err, sizeof(err)), 1);
	assert_false(is_err);
	assert_non_null(strstr(res, "Measurement duration: 11.988 s"));
	free(res);
	off += used;
	assert_int_equal(replies[off], '{');
	assert_int_equal(host_ovs_parse_reply(replies + off, len - off, 1, &res, &is_err, &used,
					      err, sizeof(err)),
			 1);
	assert_true(is_err);
	assert_null(res);
	assert_non_null(strstr(err, "is not a valid command"));
	assert_int_not_equal(err[strlen(err) - 1], '\n');
	off += used;
	/* the empty result of an unknown pmd is a success */
	assert_int_equal(host_ovs_parse_reply(replies + off, len - off, 2, &res, &is_err, &used,
					      err, sizeof(err)),
			 1);
	assert_false(is_err);
	assert_string_equal(res, "");
	free(res);
	off += used;
	assert_int_equal(off, len);
	assert_int_equal(
	    host_ovs_parse_reply(replies + off, 0, 3, &res, &is_err, &used, err, sizeof(err)), 0);
}

static void test_reply_partial_and_bad(void **state)
{
	char *res, err[256];
	bool is_err;
	size_t used;
	(void)state;
	/* every prefix of a reply is "read more", never an error or a result */
	const char *one = "{\"id\":5,\"result\":\"abc\\u00e9\\n\",\"error\":null}";
	for (size_t n = 0; n < strlen(one); n++)
		assert_int_equal(
		    host_ovs_parse_reply(one, n, 5, &res, &is_err, &used, err, sizeof(err)), 0);
	assert_int_equal(
	    host_ovs_parse_reply(one, strlen(one), 5, &res, &is_err, &used, err, sizeof(err)), 1);
	assert_string_equal(res, "abc\xc3\xa9\n");
	free(res);
	/* wrong id, non-object, non-text result, junk */
	assert_int_equal(
	    host_ovs_parse_reply(one, strlen(one), 6, &res, &is_err, &used, err, sizeof(err)), -1);
	const char *arr = "[1,2]";
	assert_int_equal(
	    host_ovs_parse_reply(arr, strlen(arr), 0, &res, &is_err, &used, err, sizeof(err)), -1);
	const char *num = "{\"id\":0,\"result\":5,\"error\":null}";
	assert_int_equal(
	    host_ovs_parse_reply(num, strlen(num), 0, &res, &is_err, &used, err, sizeof(err)), -1);
	const char *junk = "}{";
	assert_int_equal(
	    host_ovs_parse_reply(junk, strlen(junk), 0, &res, &is_err, &used, err, sizeof(err)),
	    -1);
	const char *strid = "{\"id\":\"0\",\"result\":\"x\",\"error\":null}";
	assert_int_equal(
	    host_ovs_parse_reply(strid, strlen(strid), 0, &res, &is_err, &used, err, sizeof(err)),
	    -1);
}

/* OVS 3.1.0 on the test VM, maxsleep 0, idle (docs/pmd.md §10), with a second busy PMD. */
static const char perf31[] = "\n"
			     "Time: 04:54:31.019\n"
			     "Measurement duration: 2.008 s\n"
			     "\n"
			     "pmd thread numa_id 0 core_id 1:\n"
			     "\n"
			     "  Iterations:             25314535  (0.08 us/it)\n"
			     "  - Used TSC cycles:    4617217096  (100.0 % of total cycles)\n"
			     "  - idle iterations:      25314535  (100.0 % of used cycles)\n"
			     "  - busy iterations:             0  (  0.0 % of used cycles)\n"
			     "  - sleep iterations:            0  (  0.0 % of iterations)\n"
			     "  Sleep time (us):               0  (  0 us/iteration avg.)\n"
			     "  Rx packets:                    0\n"
			     "  Tx packets:                    0\n"
			     "\n"
			     "pmd thread numa_id 1 core_id 3:\n"
			     "\n"
			     "  Iterations:              1310720  (7.66 us/it)\n"
			     "  - Used TSC cycles:    1151938436  ( 25.0 % of total cycles)\n"
			     "  - idle iterations:        300000  ( 10.5 % of used cycles)\n"
			     "  - busy iterations:       1010720  ( 89.5 % of used cycles)\n"
			     "  - sleep iterations:       977037  ( 74.5 % of iterations)\n"
			     "  Sleep time (us):         9068841  (  9 us/iteration avg.)\n"
			     "  Rx packets:             32343040  (16107 Kpps, 32 cycles/pkt)\n"
			     "  Datapath passes:        32343040  (1.00 passes/pkt)\n"
			     "  - PHWOL hits:                  0  (  0.0 %)\n"
			     "  Tx packets:             32343040  (16107 Kpps)\n"
			     "  Tx batches:              1010720  (32.00 pkts/batch)\n"
			     "main thread:\n"
			     "  Rx packets:                  999\n";

/* OVS writes Time and Measurement duration before each PMD's block (pmd_info_show_perf). */
static const char perf_two_clocks[] = "\nTime: 04:54:31.019\n"
				      "Measurement duration: 2.008 s\n\n"
				      "pmd thread numa_id 0 core_id 1:\n\n"
				      "  Iterations:                 10  (7.66 us/it)\n"
				      "\nTime: 04:54:31.020\n"
				      "Measurement duration: 2.009 s\n\n"
				      "pmd thread numa_id 0 core_id 2:\n\n"
				      "  Iterations:                 20  (7.66 us/it)\n";
static const char perf_no_clock[] = "pmd thread numa_id 0 core_id 1:\n\n"
				    "  Iterations:                 10  (7.66 us/it)\n";

static void test_perf_duration_per_pmd(void **state)
{
	struct host_ovs_perf *p = malloc(sizeof(*p));
	(void)state;
	assert_int_equal(host_ovs_parse_perf(perf_two_clocks, p), 0);
	assert_int_equal(p->npmds, 2);
	assert_true(p->pmd[0].duration_s > 2.0075 && p->pmd[0].duration_s < 2.0085);
	assert_true(p->pmd[1].duration_s > 2.0085 && p->pmd[1].duration_s < 2.0095);
	assert_int_equal(host_ovs_parse_perf(perf_no_clock, p), 0);
	assert_int_equal(p->npmds, 1);
	assert_true(p->pmd[0].duration_s < 0); /* absent: the caller falls back to its own clock */
	free(p);
}

static void test_perf_show(void **state)
{
	struct host_ovs_perf *p = malloc(sizeof(*p));
	(void)state;
	assert_int_equal(host_ovs_parse_perf(perf31, p), 0);
	assert_true(p->duration_s > 2.007 && p->duration_s < 2.009);
	assert_int_equal(p->npmds, 2);
	assert_int_equal(p->pmd[0].core_id, 1);
	assert_int_equal(p->pmd[0].iterations, 25314535);
	assert_int_equal(p->pmd[0].idle_iter, 25314535);
	assert_true(p->pmd[0].has_sleep);
	assert_int_equal(p->pmd[1].numa_id, 1);
	assert_int_equal(p->pmd[1].core_id, 3);
	assert_int_equal(p->pmd[1].used_cycles, 1151938436ULL);
	assert_true(p->pmd[1].busy_pct > 89.4 && p->pmd[1].busy_pct < 89.6);
	assert_int_equal(p->pmd[1].sleep_iter, 977037);
	assert_true(p->pmd[1].sleep_iter_pct > 74.4 && p->pmd[1].sleep_iter_pct < 74.6);
	assert_true(p->pmd[1].sleep_us == 9068841.0);
	/* "Rx packets" of the main thread must not land on the last PMD */
	assert_int_equal(p->pmd[1].rx_packets, 32343040);
	assert_int_equal(p->pmd[1].tx_packets, 32343040);
	/* no PMD at all: valid, empty */
	assert_int_equal(
	    host_ovs_parse_perf("\nTime: 01:02:03.004\nMeasurement duration: 1.000 s\n", p), 0);
	assert_int_equal(p->npmds, 0);
	/* not that report */
	assert_int_equal(host_ovs_parse_perf("The available commands are:\n  exit\n", p), -1);
	assert_int_equal(host_ovs_parse_perf("", p), -1);
	/* truncated in the middle of a PMD block: what is there, the rest 0 */
	char cut[400];
	snprintf(cut, sizeof(cut), "%.*s", (int)(strstr(perf31, "  - busy iterations") - perf31),
		 perf31);
	assert_int_equal(host_ovs_parse_perf(cut, p), 0);
	assert_int_equal(p->npmds, 1);
	assert_int_equal(p->pmd[0].idle_iter, 25314535);
	assert_int_equal(p->pmd[0].busy_iter, 0);
	free(p);
}

static void test_sleep_show(void **state)
{
	struct host_ovs_sleep *s = malloc(sizeof(*s));
	(void)state;
	/* 3.2: the default only */
	assert_int_equal(host_ovs_parse_sleep("Default max sleep:   50 us\n", s), 0);
	assert_int_equal(s->default_us, 50);
	assert_int_equal(s->npmds, 0);
	/* 3.3+: per PMD, 10000 overflows the width-4 field */
	assert_int_equal(
	    host_ovs_parse_sleep("Default max sleep:   50 us\n"
				 "pmd thread numa_id 0 core_id 0:\n  max sleep:  100 us\n"
				 "pmd thread numa_id 1 core_id 3:\n  max sleep: 10000 us\n",
				 s),
	    0);
	assert_int_equal(s->npmds, 2);
	assert_int_equal(s->pmd[1].core_id, 3);
	assert_int_equal(s->pmd[1].max_us, 10000);
	/* a "max sleep" line with no PMD heading is not a PMD */
	assert_int_equal(host_ovs_parse_sleep("  max sleep:  100 us\n", s), -1);
	assert_int_equal(host_ovs_parse_sleep("", s), -1);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_request),
	    cmocka_unit_test(test_reply_stream),
	    cmocka_unit_test(test_reply_partial_and_bad),
	    cmocka_unit_test(test_perf_show),
	    cmocka_unit_test(test_perf_duration_per_pmd),
	    cmocka_unit_test(test_sleep_show),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

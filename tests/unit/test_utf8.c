/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_utf8.c: UTF-8 validation and U+FFFD repair (core/utf8.c), checked against the
 * Unicode standard's "maximal subpart" examples, which Python's errors="replace" also gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/utf8.h"

#define R UTF8_REPLACEMENT

static void check(const char *in, const char *want)
{
	char buf[256];
	size_t n = utf8_sanitize(buf, sizeof(buf), in);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
	assert_true(utf8_valid(buf));
	char *d = utf8_sanitize_dup(in);
	assert_string_equal(d, want);
	free(d);
}

static void test_valid_unchanged(void **state)
{
	(void)state;
	const char *ok[] = {"",
			    "pmd-c03/id:7",
			    "kworker/u8:2",
			    "\xc3\xa9t\xc3\xa9",
			    "\xe2\x82\xac",
			    "\xf0\x9f\x98\x80",
			    "\xef\xbf\xbf",
			    "\xf4\x8f\xbf\xbf",
			    "a\"b\\c\nd\x1b"};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_true(utf8_valid(ok[i]));
		check(ok[i], ok[i]);
	}
}

/* The thread name of the defect: each stray byte becomes one U+FFFD, nothing is dropped. */
static void test_thread_name(void **state)
{
	(void)state;
	assert_false(utf8_valid("kworker/\xff\xfe"));
	check("kworker/\xff\xfe", "kworker/" R R);
	check("\xff", R);
	check("a\x80z", "a" R "z");
}

static void test_ill_formed(void **state)
{
	(void)state;
	check("\xc0\xaf", R R); /* overlong '/' */
	check("\xe0\x80\xaf", R R R); /* overlong, 3 bytes */
	check("\xed\xa0\x80", R R R); /* a surrogate */
	check("\xf4\x90\x80\x80", R R R R); /* past U+10FFFF */
	check("\xf5\x80", R R);
	check("\xe2\x82", R); /* cut short at the end: one subpart */
	check("\xe2\x82z", R "z"); /* cut short before ASCII */
	check("\xf0\x9f\x98", R);
	check("\xe2\x82\xe2\x82\xac", R "\xe2\x82\xac");
	/* The standard's table 3-8 example. */
	check("\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64", "a" R R R "b" R "c" R R "d");
}

static void test_seq_len(void **state)
{
	(void)state;
	assert_int_equal(utf8_seq_len("a", 1), 1);
	assert_int_equal(utf8_seq_len("\xc3\xa9", 2), 2);
	assert_int_equal(utf8_seq_len("\xc3\xa9", 1), 0);
	assert_int_equal(utf8_seq_len("\xf0\x9f\x98\x80", 4), 4);
	assert_int_equal(utf8_seq_len("\x80", 1), 0);
	assert_int_equal(utf8_seq_len("", 0), 0);
	assert_int_equal(utf8_bad_len("\xe2\x82z", 3), 2);
	assert_int_equal(utf8_bad_len("\xff\xfe", 2), 1);
}

/* A short buffer is cut at a character boundary and still terminated; the return value
 * is the length the whole repaired string needs. */
static void test_truncation(void **state)
{
	(void)state;
	char buf[5];
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(utf8_sanitize(buf, sizeof(buf), "ab\xff\xfe"), 8);
	assert_string_equal(buf, "ab");
	assert_int_equal(utf8_sanitize(buf, sizeof(buf),
				       "a\xe2\x82\xac"
				       "b"),
			 5);
	assert_string_equal(buf, "a\xe2\x82\xac");
	assert_int_equal(utf8_sanitize(NULL, 0, "\xff"), 3);
	char one[1] = {'x'};
	assert_int_equal(utf8_sanitize(one, 1, "abc"), 3);
	assert_int_equal(one[0], '\0');
}

/* Text for a terminal: controls in caret notation, C1 controls and bad bytes as U+FFFD. */
static void test_term(void **state)
{
	(void)state;
	char buf[256];
	static const char in[] = "ssh: \x1b]0;PWNED\x07\x1b[2J\x7f \xc2\x9b"
				 "31m\xff ok\t\xc3\xa9";
	size_t n = utf8_sanitize_term(buf, sizeof(buf), in);
	assert_string_equal(buf, "ssh: ^[]0;PWNED^G^[[2J^? " R "31m" R " ok^I\xc3\xa9");
	assert_int_equal(n, strlen(buf));
	assert_false(utf8_term_safe(in, strlen(in)));
	assert_true(utf8_term_safe(buf, strlen(buf)));
	/* Cut short: never half a caret pair or character. */
	char small[7];
	utf8_sanitize_term(small, sizeof(small), "abcde\x1b[");
	assert_string_equal(small, "abcde");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_valid_unchanged), cmocka_unit_test(test_thread_name),
	    cmocka_unit_test(test_ill_formed),	    cmocka_unit_test(test_seq_len),
	    cmocka_unit_test(test_truncation),	    cmocka_unit_test(test_term),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_theme.c: the theme parser: colours, fallbacks, inherit, broken files and their line numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tui/theme.h"

static void test_colour_parse(void **state)
{
	(void)state;
	assert_int_equal(theme_color_parse("default"), -1);
	assert_int_equal(theme_color_parse("none"), -1);
	assert_int_equal(theme_color_parse("0"), 0);
	assert_int_equal(theme_color_parse("255"), 255);
	assert_int_equal(theme_color_parse("256"), -2);
	assert_int_equal(theme_color_parse("-1"), -2);
	assert_int_equal(theme_color_parse("12x"), -2);
	assert_int_equal(theme_color_parse("red"), 1);
	assert_int_equal(theme_color_parse("RED"), 1);
	assert_int_equal(theme_color_parse("bright-red"), 9);
	assert_int_equal(theme_color_parse("brightwhite"), 15);
	assert_int_equal(theme_color_parse("grey"), 8);
	assert_int_equal(theme_color_parse("purple"), -2);
	assert_int_equal(theme_color_parse("#ff0000"), 196);
	assert_int_equal(theme_color_parse("#f00"), 196);
	assert_int_equal(theme_color_parse("#000000"), 16);
	assert_int_equal(theme_color_parse("#ffffff"), 231);
	assert_int_equal(theme_color_parse("#808080"), 244); /* the grey ramp is closer */
	assert_int_equal(theme_color_parse("#12345"), -2);
	assert_int_equal(theme_color_parse("#gggggg"), -2);
	assert_int_equal(theme_color_parse("#"), -2);
	assert_int_equal(theme_color_parse(""), -2);
}

static void test_colour_to16(void **state)
{
	(void)state;
	assert_int_equal(theme_color_to16(-1), -1);
	assert_int_equal(theme_color_to16(3), 3);
	assert_int_equal(theme_color_to16(196), 9); /* #ff0000 -> bright red */
	assert_int_equal(theme_color_to16(16), 0); /* black */
	assert_int_equal(theme_color_to16(231), 15); /* white */
	assert_int_equal(theme_color_to16(21), 4); /* #0000ff -> blue (0,0,238) */
}

static void test_builtins_clean(void **state)
{
	(void)state;
	assert_int_equal(theme_builtin_count, 4);
	for (size_t i = 0; i < theme_builtin_count; i++) {
		struct theme t;
		struct theme_diag d = {0};
		char err[256];
		assert_int_equal(theme_load(&t, theme_builtins[i].name, &d, err, sizeof(err)), 0);
		assert_int_equal(d.count, 0);
		assert_string_equal(t.name, theme_builtins[i].name);
	}
	struct theme mono;
	char err[256];
	theme_load(&mono, "mono", NULL, err, sizeof(err));
	assert_true(mono.mono);
	assert_true(mono.role[ROLE_SELECTED].attrs & THEME_ATTR_REVERSE);
	assert_int_equal(mono.role[ROLE_SELECTED].fg, -1);
}

/* themes/NAME.theme and the compiled-in text are the same theme. */
static void test_files_match_builtins(void **state)
{
	const char *top = getenv("TT_TOP");
	(void)state;
	for (size_t i = 0; i < theme_builtin_count; i++) {
		char path[512], err[256];
		struct theme a, b;
		struct theme_diag d = {0};
		snprintf(path, sizeof(path), "%s/themes/%s.theme", top ? top : ".",
			 theme_builtins[i].name);
		if (access(path, R_OK) != 0)
			skip();
		assert_int_equal(theme_load(&a, theme_builtins[i].name, NULL, err, sizeof(err)), 0);
		assert_int_equal(theme_load(&b, path, &d, err, sizeof(err)), 0);
		assert_int_equal(d.count, 0);
		assert_memory_equal(a.role, b.role, sizeof(a.role));
		assert_int_equal(a.mono, b.mono);
	}
}

static void test_style_and_fallback(void **state)
{
	struct theme t;
	struct theme_diag d = {0};
	(void)state;
	theme_default(&t);
	assert_int_equal(theme_parse(&t, "x",
				     "title = #ff0000 on 24 bold underline / yellow on blue\n"
				     "label=81\n"
				     "VALUE =\t231 on default reverse # a comment\n",
				     &d),
			 0);
	assert_int_equal(t.role[ROLE_TITLE].fg, 196);
	assert_int_equal(t.role[ROLE_TITLE].bg, 24);
	assert_int_equal(t.role[ROLE_TITLE].fg16, 3);
	assert_int_equal(t.role[ROLE_TITLE].bg16, 4);
	assert_int_equal(t.role[ROLE_TITLE].attrs, THEME_ATTR_BOLD | THEME_ATTR_UNDERLINE);
	/* No fallback: the nearest of the 16. */
	assert_int_equal(t.role[ROLE_LABEL].fg, 81);
	assert_int_equal(t.role[ROLE_LABEL].fg16, theme_color_to16(81));
	assert_int_equal(t.role[ROLE_LABEL].bg16, -1);
	assert_int_equal(t.role[ROLE_VALUE].bg, -1);
	assert_int_equal(t.role[ROLE_VALUE].attrs, THEME_ATTR_REVERSE);
	/* CRLF and '/' without spaces. */
	assert_int_equal(theme_parse(&t, "x", "pmd = 33/blue\r\nblk = 1 on 2/red on green\r\n", &d),
			 0);
	assert_int_equal(t.role[ROLE_PMD].fg16, 4);
	assert_int_equal(t.role[ROLE_BLK].bg16, 2);
}

/* Each broken line is reported with its number; its role keeps the value it had. */
static void test_broken_file_lines(void **state)
{
	struct theme t, def;
	struct theme_diag d = {0};
	(void)state;
	theme_default(&t);
	theme_default(&def);
	const char *text = "# broken\n" /* 1 */
			   "title = 196 on 24\n" /* 2: fine */
			   "nosuch = red\n" /* 3 */
			   "label = purple\n" /* 4 */
			   "value\n" /* 5 */
			   "bar.low = red / 196\n" /* 6: fallback must be one of 16 */
			   "bar.mid = red on\n" /* 7 */
			   "bar.high = red blink\n" /* 8 */
			   "inherit = nosuch\n" /* 9 */
			   "chart = red / blue / red\n" /* 10 */
			   "dim = \n" /* 11 */
			   "prompt = red / blue bold\n"; /* 12 */
	assert_int_equal(theme_parse(&t, "b.theme", text, &d), 10);
	assert_int_equal(d.count, 10);
	assert_string_equal(d.msg[0], "b.theme:3: unknown role 'nosuch'");
	assert_string_equal(d.msg[1], "b.theme:4: label: 'purple' is not a colour");
	assert_non_null(strstr(d.msg[2], "b.theme:5: expected 'role = colour'"));
	assert_non_null(strstr(d.msg[3], "b.theme:6: bar.low: '196' is not a 16-colour fallback"));
	assert_non_null(strstr(d.msg[4], "b.theme:7: bar.mid: 'on' without a background"));
	assert_non_null(strstr(d.msg[5], "b.theme:8: bar.high: 'blink' is not an attribute"));
	assert_non_null(strstr(d.msg[6], "b.theme:9: inherit: no built-in theme 'nosuch'"));
	assert_string_equal(d.msg[7], "b.theme:10: chart: more than one '/'");
	/* The good line applied; the bad ones kept the default's values. */
	assert_int_equal(t.role[ROLE_TITLE].fg, 196);
	assert_memory_equal(&t.role[ROLE_LABEL], &def.role[ROLE_LABEL], sizeof(t.role[0]));
	assert_memory_equal(&t.role[ROLE_BAR_LOW], &def.role[ROLE_BAR_LOW], sizeof(t.role[0]));
	assert_memory_equal(&t.role[ROLE_BAR_HIGH], &def.role[ROLE_BAR_HIGH], sizeof(t.role[0]));
	assert_memory_equal(&t.role[ROLE_PROMPT], &def.role[ROLE_PROMPT], sizeof(t.role[0]));
}

static void test_diag_keeps_count(void **state)
{
	struct theme t;
	struct theme_diag d = {0};
	char text[2048] = "";
	(void)state;
	theme_default(&t);
	for (int i = 0; i < 20; i++)
		strcat(text, "junk\n");
	assert_int_equal(theme_parse(&t, "j", text, &d), 20);
	assert_int_equal(d.count, 20);
	assert_string_equal(d.msg[THEME_DIAG_KEEP - 1],
			    "j:8: expected 'role = colour', got 'junk'");
}

static void test_inherit(void **state)
{
	struct theme t;
	struct theme_diag d = {0};
	(void)state;
	theme_default(&t);
	theme_parse(&t, "x", "inherit = mono\nname = mine\nflash = 226 bold\n", &d);
	assert_int_equal(d.count, 0);
	assert_true(t.mono);
	assert_string_equal(t.name, "mine");
	assert_true(t.role[ROLE_SELECTED].attrs & THEME_ATTR_REVERSE);
	assert_int_equal(t.role[ROLE_FLASH].fg, 226);
	/* colorblind: no red against green anywhere it signals good/bad. */
	char err[128];
	theme_load(&t, "colorblind", &d, err, sizeof(err));
	int bad[] = {ROLE_GOOD, ROLE_BAR_LOW, ROLE_ERROR, ROLE_BAR_HIGH};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int c16 = t.role[bad[i]].fg16;
		assert_true(c16 != 1 && c16 != 2 && c16 != 9 && c16 != 10);
	}
}

static void test_load_errors(void **state)
{
	struct theme t, def;
	struct theme_diag d = {0};
	char err[256], path[] = "/tmp/tt-theme-XXXXXX";
	(void)state;
	theme_default(&def);
	assert_int_equal(theme_load(&t, "nosuch", &d, err, sizeof(err)), -1);
	assert_non_null(
	    strstr(err, "unknown theme 'nosuch' (valid: default, mono, light, colorblind"));
	assert_memory_equal(t.role, def.role, sizeof(t.role)); /* the default is in force */
	assert_int_equal(theme_load(&t, "/nonexistent/x.theme", &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/x.theme: "));

	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "title = red\n\0binary", 19), 19);
	close(fd);
	assert_int_equal(theme_load(&t, path, &d, err, sizeof(err)), 0);
	assert_int_equal(d.count, 1);
	assert_non_null(
	    strstr(d.msg[0], ":1: not a text file (NUL byte); the default theme is used"));
	assert_memory_equal(t.role, def.role, sizeof(t.role));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_colour_parse),       cmocka_unit_test(test_colour_to16),
	    cmocka_unit_test(test_builtins_clean),     cmocka_unit_test(test_files_match_builtins),
	    cmocka_unit_test(test_style_and_fallback), cmocka_unit_test(test_broken_file_lines),
	    cmocka_unit_test(test_diag_keeps_count),   cmocka_unit_test(test_inherit),
	    cmocka_unit_test(test_load_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_settings.c: tunetoprc (tui/settings.h): parse, serialize, bad lines and unknown keys,
 * an oversize file and a symlink refused, the path from XDG, the command line's precedence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/unit/tt_tmpdir.h"

#include "core/safefile.h"
#include "tui/options.h"
#include "tui/settings.h"

static char msg[768];

/* What settings_format writes, settings_parse reads back the same, cleanly. */
static void test_round_trip(void **state)
{
	(void)state;
	struct settings a, b;
	char text[1024];
	settings_defaults(&a);
	a.view = 2;
	a.sort = 1;
	a.sort_asc = true;
	a.delay_s = 0.25;
	snprintf(a.theme, sizeof(a.theme), "light");
	a.ascii = true;
	a.mouse = true;
	size_t n = settings_format(&a, text, sizeof(text));
	assert_true(n > 0 && n < sizeof(text));
	assert_non_null(strstr(text, "version=1\n"));
	assert_non_null(strstr(text, "view=pmd\n"));
	assert_non_null(strstr(text, "sort=name\n"));
	assert_non_null(strstr(text, "sort_order=asc\n"));
	assert_non_null(strstr(text, "delay=0.25\n"));
	assert_non_null(strstr(text, "theme=light\n"));
	assert_non_null(strstr(text, "charts=ascii\n"));
	assert_non_null(strstr(text, "mouse=on\n"));
	/* No knob is a setting. */
	assert_null(strstr(text, "pmd.maxsleep_us"));
	settings_defaults(&b);
	assert_false(settings_equal(&a, &b));
	assert_int_equal(settings_parse(&b, "rc", text, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
	assert_true(settings_equal(&a, &b));
}

/* Spaces, comments, blank lines and CRLF are fine; a bad value names the file and its line,
 * keeps the previous value, and the good lines still apply. */
static void test_bad_lines(void **state)
{
	(void)state;
	struct settings s;
	settings_defaults(&s);
	assert_int_equal(settings_parse(&s, "/x/tunetoprc",
					"# hand edited\r\n\n  view = blk \r\nsort=bogus\n"
					"delay=0.01\nsort_order=asc\n",
					msg, sizeof(msg)),
			 -1);
	assert_string_equal(msg, "/x/tunetoprc:4: sort: 'bogus' is not valid (valid: tid, name, "
				 "subsys, cpu, cpu_pct, state, runq_pct)\n"
				 "/x/tunetoprc:5: delay: '0.01' is not a delay in seconds (valid: "
				 "0.05 to 3600)");
	assert_int_equal(s.view, 3);
	assert_int_equal(s.sort, 4); /* the default kept */
	assert_true(s.delay_s == 1.0);
	assert_true(s.sort_asc);

	settings_defaults(&s);
	assert_int_equal(settings_parse(&s, "rc", "view=est\njust words\n", msg, sizeof(msg)), -1);
	assert_string_equal(msg, "rc:2: 'just words' is not key=value");
	assert_int_equal(s.view, 1);

	/* Every bad line is named, one a line, not the first only. */
	settings_defaults(&s);
	assert_int_equal(
	    settings_parse(&s, "rc", "view=nonsense\ndelay=abc\nsort=cpu\n", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "rc:1: view: 'nonsense' is not valid"));
	assert_non_null(strstr(msg, "\nrc:2: delay: 'abc' is not a delay"));
	assert_null(strchr(strchr(msg, '\n') + 1, '\n'));
	assert_int_equal(s.sort, 3); /* the good line applied */

	settings_defaults(&s);
	assert_int_equal(settings_parse(&s, "rc", "version=2\n", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "rc:1: version: '2'"));
	assert_int_equal(settings_parse(&s, "rc", "delay=abc\n", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "rc:1: delay: 'abc' is not a delay"));
	assert_int_equal(settings_parse(&s, "rc", "theme=../../etc/passwd\n", msg, sizeof(msg)),
			 -1);
	assert_non_null(strstr(msg, "not a built-in theme"));
	assert_int_equal(settings_parse(&s, "rc", "mouse=maybe\n", msg, sizeof(msg)), -1);
	assert_int_equal(settings_parse(&s, "rc", "charts=\n", msg, sizeof(msg)), -1);
	struct settings d;
	settings_defaults(&d);
	assert_true(settings_equal(&s, &d));
}

/* Unknown keys (a newer tunetop's, or knobs typed in by hand) are skipped with one warning. */
static void test_unknown_keys(void **state)
{
	(void)state;
	struct settings s, d;
	settings_defaults(&s);
	settings_defaults(&d);
	assert_int_equal(settings_parse(&s, "rc",
					"version=1\nfuture=1\npmd.maxsleep_us=500\ncolumns=x\n",
					msg, sizeof(msg)),
			 1);
	assert_string_equal(msg, "rc:2: unknown key 'future' ignored (and 2 more)");
	assert_true(settings_equal(&s, &d));
	assert_int_equal(settings_parse(&s, "rc", "x=1\n", msg, sizeof(msg)), 1);
	assert_string_equal(msg, "rc:1: unknown key 'x' ignored");
}

/* A missing file is the defaults; an oversize file, an overlong line, a NUL and a symlink are
 * refused whole with the path named, the settings untouched. */
static void test_load_refusals(void **state)
{
	(void)state;
	struct settings s, d;
	settings_defaults(&d);
	settings_defaults(&s);
	assert_int_equal(settings_load(&s, tt_at("none"), msg, sizeof(msg)), 0);
	assert_int_equal(settings_load(&s, tt_at("nodir/tunetoprc"), msg, sizeof(msg)), 0);
	assert_true(settings_equal(&s, &d));

	/* Oversize: valid lines, too many of them. */
	FILE *f = fopen(tt_at("big"), "w");
	assert_non_null(f);
	for (unsigned i = 0; i < SETTINGS_MAX_BYTES / 9 + 10; i++)
		fputs("view=est\n", f);
	fclose(f);
	assert_int_equal(settings_load(&s, tt_at("big"), msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, tt_at("big")));
	assert_non_null(strstr(msg, "cap"));
	assert_true(settings_equal(&s, &d));

	char line[SETTINGS_MAX_LINE + 32];
	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	tt_put(tt_at("long"), line);
	assert_int_equal(settings_load(&s, tt_at("long"), msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "line 1"));

	f = fopen(tt_at("nul"), "w");
	assert_non_null(f);
	fwrite("view=est\n\0x\n", 1, 12, f);
	fclose(f);
	assert_int_equal(settings_load(&s, tt_at("nul"), msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "NUL"));
	assert_true(settings_equal(&s, &d));

	tt_put(tt_at("real"), "view=est\n");
	assert_int_equal(symlink(tt_at("real"), tt_at("link")), 0);
	assert_int_equal(settings_load(&s, tt_at("link"), msg, sizeof(msg)), SAFEFILE_REFUSED);
	assert_non_null(strstr(msg, "symlink"));
	assert_true(settings_equal(&s, &d));
	/* A directory is no settings file either. */
	assert_int_equal(mkdir(tt_at("adir"), 0700), 0);
	assert_true(settings_load(&s, tt_at("adir"), msg, sizeof(msg)) < 0);

	assert_int_equal(settings_load(&s, tt_at("real"), msg, sizeof(msg)), 0);
	assert_int_equal(s.view, 1);
}

/* Written whole, its directories made 0700; never through a symlink (the link's target is
 * left as it was). */
static void test_save(void **state)
{
	(void)state;
	struct settings s, t;
	char err[512];
	settings_defaults(&s);
	s.view = 4;
	assert_int_equal(settings_save(&s, tt_at("a/b/tunetoprc"), err, sizeof(err)), 0);
	struct stat st;
	assert_int_equal(stat(tt_at("a/b"), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(stat(tt_at("a"), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	settings_defaults(&t);
	assert_int_equal(settings_load(&t, tt_at("a/b/tunetoprc"), msg, sizeof(msg)), 0);
	assert_true(settings_equal(&s, &t));
	/* No temporary file is left beside it. */
	char cmd[320];
	snprintf(cmd, sizeof(cmd), "test $(ls -A '%s' | wc -l) -eq 1", tt_at("a/b"));
	assert_int_equal(system(cmd), 0);

	tt_put(tt_at("target"), "keep me\n");
	assert_int_equal(symlink(tt_at("target"), tt_at("rc-link")), 0);
	assert_int_equal(settings_save(&s, tt_at("rc-link"), err, sizeof(err)), SAFEFILE_REFUSED);
	assert_non_null(strstr(err, "symlink"));
	assert_string_equal(tt_slurp(tt_at("target")), "keep me\n");
}

/* Never a directory made in another user's (their HOME, under sudo -E), nor the file saved in
 * a folder another user owns or through their symlink (core/safefile.h). As root only: the
 * test makes files of uid 65534. */
static void test_save_others(void **state)
{
	(void)state;
	struct settings s;
	char err[512];
	if (geteuid() != 0) {
		print_message("not root: another user's directories not tried\n");
		return;
	}
	settings_defaults(&s);
	assert_int_equal(mkdir(tt_at("home"), 0755), 0);
	assert_int_equal(chown(tt_at("home"), 65534, 65534), 0);
	assert_int_equal(
	    settings_save(&s, tt_at("home/.config/tunetop/tunetoprc"), err, sizeof(err)),
	    SAFEFILE_REFUSED);
	assert_non_null(strstr(err, "belongs to uid 65534"));
	struct stat st;
	assert_int_equal(lstat(tt_at("home/.config"), &st), -1); /* not made */
	/* Their folder, ours above it: not saved there. */
	assert_int_equal(mkdir(tt_at("xdg"), 0755), 0);
	assert_int_equal(mkdir(tt_at("xdg/tunetop"), 0755), 0);
	assert_int_equal(chown(tt_at("xdg/tunetop"), 65534, 65534), 0);
	assert_int_equal(settings_save(&s, tt_at("xdg/tunetop/tunetoprc"), err, sizeof(err)),
			 SAFEFILE_REFUSED);
	/* Their symlink as the config folder, pointing at one of ours: not followed. */
	assert_int_equal(mkdir(tt_at("victim"), 0700), 0);
	assert_int_equal(mkdir(tt_at("x2"), 0755), 0);
	assert_int_equal(symlink(tt_at("victim"), tt_at("x2/tunetop")), 0);
	assert_int_equal(lchown(tt_at("x2/tunetop"), 65534, 65534), 0);
	assert_int_equal(settings_save(&s, tt_at("x2/tunetop/tunetoprc"), err, sizeof(err)),
			 SAFEFILE_REFUSED);
	assert_int_equal(lstat(tt_at("victim/tunetoprc"), &st), -1);
}

static void test_path(void **state)
{
	(void)state;
	char p[256], err[128];
	setenv("XDG_CONFIG_HOME", "/x/conf", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(settings_path(p, sizeof(p), err, sizeof(err)), 0);
	assert_string_equal(p, "/x/conf/tunetop/tunetoprc");
	setenv("XDG_CONFIG_HOME", "relative", 1); /* the XDG spec: ignored */
	assert_int_equal(settings_path(p, sizeof(p), err, sizeof(err)), 0);
	assert_string_equal(p, "/home/u/.config/tunetop/tunetoprc");
	unsetenv("XDG_CONFIG_HOME");
	assert_int_equal(settings_path(p, sizeof(p), err, sizeof(err)), 0);
	assert_string_equal(p, "/home/u/.config/tunetop/tunetoprc");
	unsetenv("HOME");
	assert_int_equal(settings_path(p, sizeof(p), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "HOME"));
}

/* The command line wins for the run; what is written back is the file with only what the run
 * changed, so a -d given once is not kept. */
static void test_precedence(void **state)
{
	(void)state;
	struct settings file, start, now, out;
	struct options o;
	char err[256];
	char *argv[] = {"tunetop", "-d", "0.5", "--theme", "light", "--ascii", NULL};
	assert_int_equal(options_parse(&o, 6, argv, err, sizeof(err)), 0);
	assert_true(o.delay_given);
	assert_false(o.no_config);

	settings_defaults(&file);
	assert_int_equal(settings_parse(&file, "rc",
					"view=est\ndelay=2\ntheme=colorblind\ncharts=braille\n",
					msg, sizeof(msg)),
			 0);
	start = file;
	settings_apply_options(&start, &o);
	assert_true(start.delay_s == 0.5);
	assert_string_equal(start.theme, "light");
	assert_true(start.ascii);
	assert_int_equal(start.view, 1); /* no option for it: the file's */

	/* Nothing changed during the run: the file as it was. */
	now = start;
	settings_merge(&file, &start, &now, &out);
	assert_true(settings_equal(&out, &file));
	/* The view and the refresh changed: those two, the rest the file's. */
	now.view = 3;
	now.delay_s = 3;
	settings_merge(&file, &start, &now, &out);
	assert_int_equal(out.view, 3);
	assert_true(out.delay_s == 3);
	assert_string_equal(out.theme, "colorblind");
	assert_false(out.ascii);
	options_free(&o);

	/* --no-config and NO_COLOR. */
	char *argv2[] = {"tunetop", "--no-config", NULL};
	setenv("NO_COLOR", "1", 1);
	assert_int_equal(options_parse(&o, 2, argv2, err, sizeof(err)), 0);
	unsetenv("NO_COLOR");
	assert_true(o.no_config);
	assert_false(o.delay_given);
	start = file;
	settings_apply_options(&start, &o);
	assert_true(start.delay_s == 2);
	assert_string_equal(start.theme, "mono");
	options_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_bad_lines),
	    cmocka_unit_test(test_unknown_keys),
	    cmocka_unit_test_setup_teardown(test_load_refusals, tt_dir_setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_save, tt_dir_setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_save_others, tt_dir_setup, tt_dir_teardown),
	    cmocka_unit_test(test_path),
	    cmocka_unit_test(test_precedence),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

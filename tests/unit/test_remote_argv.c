/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_remote_argv.c: --ssh "CMD ARGS" split as a shell would for simple quoting: spaces,
 * single and double quotes, backslashes; an unclosed quote or nothing at all is an error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "backends/remote/src_remote.h"

static void expect(const char *cmd, const char *const *want)
{
	char err[256];
	char **argv = remote_split_argv(cmd, err, sizeof(err));
	assert_non_null(argv);
	size_t i = 0;
	for (; want[i]; i++) {
		assert_non_null(argv[i]);
		assert_string_equal(argv[i], want[i]);
	}
	assert_null(argv[i]);
	remote_argv_free(argv);
}

static void test_split(void **state)
{
	(void)state;
	expect("ssh", (const char *const[]){"ssh", NULL});
	expect("  ssh   -p 2222\t-i KEY ",
	       (const char *const[]){"ssh", "-p", "2222", "-i", "KEY", NULL});
	expect("ssh -F '/tmp/my config'",
	       (const char *const[]){"ssh", "-F", "/tmp/my config", NULL});
	expect("ssh -o \"ProxyCommand=nc %h %p\"",
	       (const char *const[]){"ssh", "-o", "ProxyCommand=nc %h %p", NULL});
	expect("ssh -i a\\ b", (const char *const[]){"ssh", "-i", "a b", NULL});
	expect("ssh -o 'x'\"y\"z", (const char *const[]){"ssh", "-o", "xyz", NULL});
	expect("ssh ''", (const char *const[]){"ssh", "", NULL});
	expect("ssh \"a\\\"b\"", (const char *const[]){"ssh", "a\"b", NULL});
}

static void test_errors(void **state)
{
	char err[256];
	(void)state;
	assert_null(remote_split_argv("ssh -F 'open", err, sizeof(err)));
	assert_non_null(strstr(err, "unclosed"));
	assert_null(remote_split_argv("ssh \"open", err, sizeof(err)));
	assert_null(remote_split_argv("   ", err, sizeof(err)));
	assert_non_null(strstr(err, "empty"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_split),
	    cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

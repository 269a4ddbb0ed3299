/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tt_tmpdir.h: a fresh temp directory per cmocka test, for the unit tests of file code:
 * tt_dir_setup / tt_dir_teardown as the setup and teardown of a test, tt_at(NAME) a path in
 * it, tt_put and tt_slurp to write and read a small file there. Static functions: each test
 * program that includes it has its own directory. Include after <cmocka.h>. */
#ifndef TT_TESTS_TMPDIR_H
#define TT_TESTS_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

static char tt_dir[64];

/* The directory's name starts with prefix (tt_dir_setup uses "tt-unit"). */
static inline int tt_dir_make(const char *prefix)
{
	snprintf(tt_dir, sizeof(tt_dir), "/tmp/%s.XXXXXX", prefix);
	return mkdtemp(tt_dir) ? 0 : -1;
}

static inline int tt_dir_setup(void **state)
{
	(void)state;
	assert_int_equal(tt_dir_make("tt-unit"), 0);
	return 0;
}

static inline int tt_dir_teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tt_dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A path in the directory; four at a time stay valid. */
static inline const char *tt_at(const char *name)
{
	static char buf[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", tt_dir, name);
	return buf[k];
}

static inline void tt_put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The file's first 4 KB as a string (a static buffer), or NULL when it cannot be opened. */
static inline char *tt_slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

#endif

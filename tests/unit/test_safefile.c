/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_safefile.c: core/safefile.h refuses symlinks, FIFOs, devices, directories and /proc as
 * write targets, skips a planted temp name, and caps a read line and a compressed expansion. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cmocka.h>

#include "tests/unit/tt_tmpdir.h"

#include "core/safefile.h"

static char err[512];

/* getrandom as the test wants it: fixed bytes when rand_fixed, so a temp name can be predicted
 * (this definition wins over libc's for the helper linked into this program). */
static int rand_fixed;
static unsigned char rand_next;
ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
	(void)flags;
	unsigned char *b = buf;
	for (size_t i = 0; i < len; i++)
		b[i] = rand_fixed ? rand_next : (unsigned char)(rand() ^ (rand() >> 8));
	if (rand_fixed)
		rand_next++;
	return (ssize_t)len;
}

static int setup(void **state)
{
	rand_fixed = 0;
	return tt_dir_setup(state);
}

/* Every way to write path is refused with want in the message, and victim keeps its text. */
static void refused_all(const char *path, const char *want)
{
	assert_int_equal(safefile_check_target(path, 0, err, sizeof(err)), SAFEFILE_REFUSED);
	assert_non_null(strstr(err, want));
	assert_int_equal(safefile_open_stream(path, 0, err, sizeof(err)), SAFEFILE_REFUSED);
	assert_non_null(strstr(err, want));
	assert_int_equal(safefile_replace(path, "NEW\n", 4, err, sizeof(err)), SAFEFILE_REFUSED);
	assert_non_null(strstr(err, want));
}

static void test_symlink(void **state)
{
	(void)state;
	tt_put(tt_at("victim"), "PRECIOUS\n");
	assert_int_equal(symlink(tt_at("victim"), tt_at("link")), 0);
	refused_all(tt_at("link"), "is a symlink");
	assert_string_equal(tt_slurp(tt_at("victim")), "PRECIOUS\n");
	struct stat st;
	assert_int_equal(lstat(tt_at("link"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
}

static void test_dangling_symlink(void **state)
{
	(void)state;
	assert_int_equal(symlink(tt_at("created"), tt_at("dang")), 0);
	refused_all(tt_at("dang"), "is a symlink");
	assert_int_equal(access(tt_at("created"), F_OK), -1);
}

static void test_fifo(void **state)
{
	(void)state;
	assert_int_equal(mkfifo(tt_at("fifo"), 0600), 0);
	/* No reader: the open would block forever without O_NONBLOCK. */
	refused_all(tt_at("fifo"), "is a FIFO");
	assert_int_equal(safefile_open_read(tt_at("fifo"), err, sizeof(err)), SAFEFILE_REFUSED);
	assert_non_null(strstr(err, "a FIFO, not a regular file"));
}

static void test_device(void **state)
{
	(void)state;
	refused_all("/dev/null", "is a device");
	int fd = safefile_open_stream("/dev/null", SAFEFILE_DEVNULL_OK, err, sizeof(err));
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
	/* Only /dev/null itself: another device stays refused with the flag. */
	assert_int_equal(safefile_open_stream("/dev/zero", SAFEFILE_DEVNULL_OK, err, sizeof(err)),
			 SAFEFILE_REFUSED);
	assert_int_equal(safefile_open_read("/dev/zero", err, sizeof(err)), SAFEFILE_REFUSED);
	assert_non_null(strstr(err, "a device, not a regular file"));
}

static void test_directory(void **state)
{
	(void)state;
	assert_int_equal(mkdir(tt_at("sub"), 0700), 0);
	refused_all(tt_at("sub"), "is a directory");
	refused_all(tt_at("sub/"), "is a directory");
	assert_int_equal(safefile_open_read(tt_at("sub"), err, sizeof(err)), SAFEFILE_REFUSED);
	/* A missing directory is an I/O error with its reason, not a refusal. */
	assert_int_equal(safefile_check_target(tt_at("nodir/x"), 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "No such file or directory"));
}

static void test_proc(void **state)
{
	(void)state;
	/* /proc/self/comm is a regular file one may write: refused for where it is. */
	refused_all("/proc/self/comm", "is under /proc");
	refused_all("/proc/self/mem", "is under /proc");
}

static void test_stream_and_replace(void **state)
{
	(void)state;
	tt_put(tt_at("out"), "OLD TEXT THAT IS LONG\n");
	int fd = safefile_open_stream(tt_at("out"), 0, err, sizeof(err));
	assert_true(fd >= 0);
	assert_int_equal(safefile_write_all(fd, "a\n", 2), 0);
	close(fd);
	assert_string_equal(tt_slurp(tt_at("out")), "a\n");
	fd = safefile_open_stream(tt_at("out"), SAFEFILE_APPEND, err, sizeof(err));
	assert_true(fd >= 0);
	assert_int_equal(safefile_write_all(fd, "b\n", 2), 0);
	close(fd);
	assert_string_equal(tt_slurp(tt_at("out")), "a\nb\n");

	assert_int_equal(safefile_replace(tt_at("m.prom"), "one\n", 4, err, sizeof(err)), 0);
	assert_int_equal(safefile_replace(tt_at("m.prom"), "two\n", 4, err, sizeof(err)), 0);
	assert_string_equal(tt_slurp(tt_at("m.prom")), "two\n");
	struct safefile_tmp t;
	assert_int_equal(safefile_replace_begin(&t, tt_at("m.prom"), err, sizeof(err)), 0);
	assert_int_equal(safefile_write_all(t.fd, "three\n", 6), 0);
	safefile_replace_abort(&t);
	assert_string_equal(tt_slurp(tt_at("m.prom")), "two\n");
	/* Nothing but out and m.prom is left in the directory. */
	char cmd[160], buf[64];
	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", tt_dir);
	FILE *p = popen(cmd, "r");
	assert_non_null(fgets(buf, sizeof(buf), p));
	pclose(p);
	assert_int_equal(atoi(buf), 2);
}

static void test_planted_tmp_name(void **state)
{
	(void)state;
	tt_put(tt_at("victim"), "PRECIOUS\n");
	/* The old predictable name, and the first three names the fixed bytes give. */
	char old[64];
	snprintf(old, sizeof(old), "t.prom.tmp.%ld", (long)getpid());
	assert_int_equal(symlink(tt_at("victim"), tt_at(old)), 0);
	for (int b = 0; b < 3; b++) {
		char name[64];
		snprintf(name, sizeof(name), ".t.prom.%02x%02x%02x%02x%02x%02x", b, b, b, b, b, b);
		assert_int_equal(symlink(tt_at("victim"), tt_at(name)), 0);
	}
	rand_fixed = 1;
	rand_next = 0;
	assert_int_equal(safefile_replace(tt_at("t.prom"), "metrics\n", 8, err, sizeof(err)), 0);
	rand_fixed = 0;
	assert_int_equal(rand_next, 4); /* three names were taken, the fourth was used */
	assert_string_equal(tt_slurp(tt_at("victim")), "PRECIOUS\n");
	assert_string_equal(tt_slurp(tt_at("t.prom")), "metrics\n");
	struct stat st;
	assert_int_equal(lstat(tt_at("t.prom"), &st), 0);
	assert_true(S_ISREG(st.st_mode));
}

static const struct safefile_limits small = {.max_bytes = 1 << 20,
					     .max_line = 100,
					     .gz_ratio = 10,
					     .zstd_ratio = 20,
					     .ratio_floor = 4096,
					     .decompress = true};

static void test_line_cap(void **state)
{
	(void)state;
	char line[200];
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	FILE *f = fopen(tt_at("long"), "w");
	fprintf(f, "short\n%s\n", line);
	fclose(f);
	char *buf = NULL;
	size_t len;
	assert_int_equal(safefile_read(tt_at("long"), &small, &buf, &len, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 2 is longer than the cap of 100 bytes"));
	/* At the cap exactly is fine. */
	f = fopen(tt_at("ok"), "w");
	fprintf(f, "%.100s\n%.100s", line, line);
	fclose(f);
	assert_int_equal(safefile_read(tt_at("ok"), &small, &buf, &len, err, sizeof(err)), 0);
	assert_int_equal(len, 201);
	free(buf);
}

static void write_gz(const char *path, size_t n, int members)
{
	char *text = malloc(n);
	memset(text, '\n', n);
	for (int m = 0; m < members; m++) {
		gzFile g = gzopen(path, m ? "ab9" : "wb9");
		assert_non_null(g);
		assert_int_equal(gzwrite(g, text, (unsigned)n), (int)n);
		gzclose(g);
	}
	free(text);
}

static void test_ratio_cap(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len;
	/* 200 KB of newlines: gzip and zstd both pack them far past 10x. */
	write_gz(tt_at("bomb.gz"), 200000, 1);
	assert_int_equal(safefile_read(tt_at("bomb.gz"), &small, &buf, &len, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "more than 10 times its compressed size"));
	assert_non_null(strstr(err, "the caps for gzip: 10x its size, 1 MiB in all"));

	size_t n = 200000, cap = ZSTD_compressBound(n);
	char *text = malloc(n), *z = malloc(cap);
	memset(text, '\n', n);
	size_t zn = ZSTD_compress(z, cap, text, n, 3);
	assert_false(ZSTD_isError(zn));
	FILE *f = fopen(tt_at("bomb.zst"), "w");
	fwrite(z, 1, zn, f);
	fclose(f);
	assert_int_equal(safefile_read(tt_at("bomb.zst"), &small, &buf, &len, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "more than 20 times its compressed size (the caps for zstd"));

	/* Under the floor the ratio is not checked: two members read back whole. */
	write_gz(tt_at("small.gz"), 2000, 2);
	assert_int_equal(safefile_read(tt_at("small.gz"), &small, &buf, &len, err, sizeof(err)), 0);
	assert_int_equal(len, 4000);
	free(buf);

	/* The absolute cap, on a plain file and on an expansion within the ratio. */
	struct safefile_limits tiny = small;
	tiny.max_bytes = 3000;
	tiny.gz_ratio = 0;
	assert_int_equal(safefile_read(tt_at("small.gz"), &tiny, &buf, &len, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "expands past the cap of 3000 bytes"));
	f = fopen(tt_at("plain"), "w");
	fwrite(text, 1, 4000, f);
	fclose(f);
	assert_int_equal(safefile_read(tt_at("plain"), &tiny, &buf, &len, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is larger than the cap of 3000 bytes"));
	free(text);
	free(z);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_symlink, setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_dangling_symlink, setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_fifo, setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_device, setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_directory, setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_proc, setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_stream_and_replace, setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_planted_tmp_name, setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_line_cap, setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_ratio_cap, setup, tt_dir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

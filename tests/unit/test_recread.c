/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_recread.c: backends/replay/recread.h streams plain, gzip and multi-frame zstd files, seeks
 * back from its restart points, and keeps what came before a corrupt or cut part;
 * backends/replay/replay_index.h finds the snapshot lines and their times without decoding them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include <cmocka.h>

#include "tests/unit/tt_tmpdir.h"

#include "backends/replay/recread.h"
#include "backends/replay/replay_index.h"

static char err[512];

/* The text of n numbered lines ("line 0000\n" ...), 10 bytes each. */
static char *numbered(int n)
{
	char *t = malloc((size_t)n * 10 + 1);
	for (int i = 0; i < n; i++)
		snprintf(t + i * 10, 11, "line %04d\n", i);
	return t;
}

static void put_bytes(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

/* zstd frames of `per` lines each, with checksums, as tunetop's recorder writes them. */
static size_t zstd_frames(const char *text, int lines, int per, char *out, size_t cap)
{
	size_t pos = 0;
	for (int i = 0; i < lines; i += per) {
		int k = lines - i < per ? lines - i : per;
		ZSTD_CCtx *c = ZSTD_createCCtx();
		ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
		size_t r = ZSTD_compress2(c, out + pos, cap - pos, text + i * 10, (size_t)k * 10);
		assert_false(ZSTD_isError(r));
		ZSTD_freeCCtx(c);
		pos += r;
	}
	return pos;
}

/* Read the whole stream from the cursor into buf; the bytes read. */
static size_t read_all(struct recread *r, char *buf, size_t cap)
{
	size_t got = 0;
	for (;;) {
		ssize_t n =
		    recread_read(r, buf + got, cap - got < 7 ? cap - got : 7, err, sizeof(err));
		assert_true(n >= 0);
		if (n == 0)
			return got;
		got += (size_t)n;
	}
}

static void check_stream(const char *path, const char *text, size_t len, const char *fmt)
{
	struct recread *r;
	char *buf = malloc(len + 64);
	assert_int_equal(recread_open(path, &r, err, sizeof(err)), 0);
	if (fmt)
		assert_string_equal(recread_format(r), fmt);
	else
		assert_null(recread_format(r));
	assert_int_equal(read_all(r, buf, len + 64), len);
	assert_memory_equal(buf, text, len);
	assert_string_equal(recread_damage(r), "");
	/* Back to line 1234 and on; then idle (the decoder freed) and on from the same place. */
	assert_int_equal(recread_seek(r, 12340, err, sizeof(err)), 0);
	assert_int_equal(recread_tell(r), 12340);
	assert_int_equal(recread_read(r, buf, 10, err, sizeof(err)), 10);
	assert_memory_equal(buf, "line 1234\n", 10);
	recread_idle(r);
	assert_int_equal(recread_read(r, buf, 10, err, sizeof(err)), 10);
	assert_memory_equal(buf, "line 1235\n", 10);
	assert_int_equal(recread_seek(r, 10, err, sizeof(err)), 0);
	assert_int_equal(recread_read(r, buf, 10, err, sizeof(err)), 10);
	assert_memory_equal(buf, "line 0001\n", 10);
	recread_close(r);
	free(buf);
}

static void test_plain(void **state)
{
	char *t = numbered(3000);
	put_bytes(tt_at("p.jsonl"), t, 30000);
	check_stream(tt_at("p.jsonl"), t, 30000, NULL);
	free(t);
}

static void test_gzip_members(void **state)
{
	char *t = numbered(3000);
	/* Two members, as `cat a.gz b.gz` makes. */
	gzFile g = gzopen(tt_at("g.gz"), "wb");
	assert_int_equal(gzwrite(g, t, 20000), 20000);
	gzclose(g);
	g = gzopen(tt_at("g.gz"), "ab");
	assert_int_equal(gzwrite(g, t + 20000, 10000), 10000);
	gzclose(g);
	check_stream(tt_at("g.gz"), t, 30000, "gzip");
	free(t);
}

static void test_zstd_frames(void **state)
{
	char *t = numbered(3000), *z = malloc(64000);
	size_t zn = zstd_frames(t, 3000, RECREAD_FRAME_LINES, z, 64000);
	put_bytes(tt_at("f.zst"), z, zn);
	check_stream(tt_at("f.zst"), t, 30000, "zstd");
	/* Every frame after the first is a restart point. */
	struct recread *r;
	char *buf = malloc(30064);
	assert_int_equal(recread_open(tt_at("f.zst"), &r, err, sizeof(err)), 0);
	assert_int_equal(read_all(r, buf, 30064), 30000);
	assert_int_equal(recread_restarts(r), 3000 / RECREAD_FRAME_LINES);
	recread_close(r);
	/* One frame (zstd on the command line): a seek back expands from the start. */
	size_t one = zstd_frames(t, 3000, 3000, z, 64000);
	put_bytes(tt_at("one.zst"), z, one);
	check_stream(tt_at("one.zst"), t, 30000, "zstd");
	free(buf);
	free(z);
	free(t);
}

static void test_zstd_damage(void **state)
{
	char *t = numbered(600), *z = malloc(32000), *buf = malloc(7000);
	size_t zn = zstd_frames(t, 600, 60, z, 32000);
	/* A flipped bit in the last frame: the frames before it stand, and it is said. */
	z[zn - 8] ^= 0x10;
	put_bytes(tt_at("d.zst"), z, zn);
	struct recread *r;
	assert_int_equal(recread_open(tt_at("d.zst"), &r, err, sizeof(err)), 0);
	size_t got = read_all(r, buf, 7000);
	assert_true(got >= 5400 && got <= 6000);
	assert_memory_equal(buf, t, 5400);
	assert_non_null(strstr(recread_damage(r), "d.zst: zstd: "));
	recread_close(r);
	/* Cut mid-frame (a crash): what was flushed, no damage said. */
	put_bytes(tt_at("c.zst"), z, zn / 2);
	assert_int_equal(recread_open(tt_at("c.zst"), &r, err, sizeof(err)), 0);
	got = read_all(r, buf, 7000);
	assert_true(got > 0 && got < 6000);
	assert_memory_equal(buf, t, got);
	recread_close(r);
	/* Corrupt from its first byte after the magic: nothing came, an error. */
	memset(z + 4, 0xff, 16);
	put_bytes(tt_at("x.zst"), z, zn);
	assert_int_equal(recread_open(tt_at("x.zst"), &r, err, sizeof(err)), 0);
	assert_int_equal(recread_read(r, buf, 100, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "x.zst: zstd: "));
	recread_close(r);
	free(buf);
	free(z);
	free(t);
}

static void test_refused(void **state)
{
	struct recread *r;
	assert_int_not_equal(recread_open("/dev/zero", &r, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "not a regular file"));
	assert_int_equal(recread_open(tt_at("none"), &r, err, sizeof(err)), -1);
}

static void test_peek(void **state)
{
	uint64_t wall;
	double iv;
	char why[120];
	const char *ok = "{\"schema\":1,\"tool\":\"tunetop\",\"cpu\":{\"time\":\"x\"},"
			 "\"time\":\"2026-12-01T10:00:01.500Z\",\"interval_s\":0.5,\"seq\":3}";
	assert_int_equal(replay_index_peek(ok, strlen(ok), &wall, &iv, why, sizeof(why)), 0);
	assert_true(wall == 1796119201500000000ull); /* the top-level time, not cpu.time */
	assert_true(iv == 0.5);
	const char *other = "{\"schema\":7}";
	assert_int_equal(replay_index_peek(other, strlen(other), &wall, &iv, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "schema 1"));
	assert_int_equal(replay_index_peek("junk", 4, &wall, &iv, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not JSON"));
	/* Keys in another order, strings with braces and escaped quotes before them. */
	const char *odd = "{ \"note\": \"a } \\\" {\", \"interval_s\" : 2, \"schema\" : 1 }";
	assert_int_equal(replay_index_peek(odd, strlen(odd), &wall, &iv, why, sizeof(why)), 0);
	assert_true(iv == 2 && wall == 0);
}

static void test_index(void **state)
{
	const char *text = "{\"schema\":1,\"time\":\"2026-12-01T10:00:00.000Z\",\"interval_s\":1}\n"
			   "this is not json {\n"
			   "\r\n"
			   "\n"
			   "{\"schema\":1,\"time\":\"2026-12-01T10:00:01.000Z\",\"interval_s\":1}\n"
			   "{\"schema\":1,\"time\":\"2026-12-01T10:00:02.000Z\",\"interv";
	put_bytes(tt_at("i.jsonl"), text, strlen(text));
	struct recread *r;
	struct replay_index ix = {0};
	uint64_t bytes;
	assert_int_equal(recread_open(tt_at("i.jsonl"), &r, err, sizeof(err)), 0);
	assert_int_equal(replay_index_file(r, tt_at("i.jsonl"), 3, &ix, &bytes, err, sizeof(err)),
			 0);
	assert_int_equal(bytes, strlen(text));
	assert_int_equal(ix.n, 2);
	assert_int_equal(ix.skipped,
			 2); /* the garbage and the cut last line; blank lines are not */
	assert_non_null(strstr(ix.first_skip, "line 2: not JSON"));
	assert_int_equal(ix.lines[1].off, strchr(strstr(text, "\n\n") + 2, '{') - text);
	assert_int_equal(ix.lines[1].file, 3);
	assert_true(ix.lines[1].wall_ns - ix.lines[0].wall_ns == 1000000000ull);
	replay_index_free(&ix);
	recread_close(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_plain, tt_dir_setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_gzip_members, tt_dir_setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_zstd_frames, tt_dir_setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_zstd_damage, tt_dir_setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_refused, tt_dir_setup, tt_dir_teardown),
	    cmocka_unit_test(test_peek),
	    cmocka_unit_test_setup_teardown(test_index, tt_dir_setup, tt_dir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

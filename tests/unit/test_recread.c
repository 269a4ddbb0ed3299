/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_recread.c: core/zread.h streams plain, gzip and multi-frame zstd files in lines, seeks
 * back from its restart points, keeps what came before a corrupt or cut part, and follows a
 * file as it grows; backends/replay/replay_index.h finds the snapshot lines and their times
 * without decoding them. */
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

#include "backends/replay/recfile.h"
#include "backends/replay/replay_index.h"
#include "core/zread.h"

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
static size_t read_all(struct zread *r, char *buf, size_t cap)
{
	size_t got = 0, len;
	const char *line;
	int rc;
	while ((rc = zread_line(r, &line, &len, err, sizeof(err))) > 0) {
		assert_true(got + len <= cap);
		memcpy(buf + got, line, len);
		got += len;
	}
	assert_int_equal(rc, 0);
	return got;
}

/* The next line is want. */
static void next_is(struct zread *r, const char *want)
{
	const char *line;
	size_t len;
	assert_int_equal(zread_line(r, &line, &len, err, sizeof(err)), 1);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(line, want, len);
}

static void check_stream(const char *path, const char *text, size_t len, const char *fmt)
{
	struct zread *r;
	char *buf = malloc(len + 64);
	assert_int_equal(zread_open(path, &safefile_recording, &r, err, sizeof(err)), 0);
	if (fmt)
		assert_string_equal(zread_format(r), fmt);
	else
		assert_null(zread_format(r));
	assert_int_equal(read_all(r, buf, len + 64), len);
	assert_memory_equal(buf, text, len);
	assert_string_equal(zread_damage(r), "");
	/* Back to line 1234 and on; then idle (the decoder freed) and on from the same place. */
	assert_int_equal(zread_seek(r, 12340, err, sizeof(err)), 0);
	assert_int_equal(zread_tell(r), 12340);
	next_is(r, "line 1234\n");
	zread_idle(r);
	next_is(r, "line 1235\n");
	assert_int_equal(zread_seek(r, 10, err, sizeof(err)), 0);
	next_is(r, "line 0001\n");
	zread_close(r);
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
	size_t zn = zstd_frames(t, 3000, RECFILE_FRAME_LINES, z, 64000);
	put_bytes(tt_at("f.zst"), z, zn);
	check_stream(tt_at("f.zst"), t, 30000, "zstd");
	/* Every frame after the first is a restart point. */
	struct zread *r;
	char *buf = malloc(30064);
	assert_int_equal(zread_open(tt_at("f.zst"), &safefile_recording, &r, err, sizeof(err)), 0);
	assert_int_equal(read_all(r, buf, 30064), 30000);
	assert_int_equal(zread_restarts(r), 3000 / RECFILE_FRAME_LINES);
	zread_close(r);
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
	struct zread *r;
	assert_int_equal(zread_open(tt_at("d.zst"), &safefile_recording, &r, err, sizeof(err)), 0);
	size_t got = read_all(r, buf, 7000);
	assert_true(got >= 5400 && got <= 6000);
	assert_memory_equal(buf, t, 5400);
	assert_non_null(strstr(zread_damage(r), "d.zst: zstd: "));
	zread_close(r);
	/* Cut mid-frame (a crash): what was flushed, no damage said. */
	put_bytes(tt_at("c.zst"), z, zn / 2);
	assert_int_equal(zread_open(tt_at("c.zst"), &safefile_recording, &r, err, sizeof(err)), 0);
	got = read_all(r, buf, 7000);
	assert_true(got > 0 && got < 6000);
	assert_memory_equal(buf, t, got);
	zread_close(r);
	/* Corrupt from its first byte after the magic: nothing came, an error. */
	memset(z + 4, 0xff, 16);
	put_bytes(tt_at("x.zst"), z, zn);
	assert_int_equal(zread_open(tt_at("x.zst"), &safefile_recording, &r, err, sizeof(err)), 0);
	const char *line;
	size_t len;
	assert_int_equal(zread_line(r, &line, &len, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "x.zst: zstd: "));
	zread_close(r);
	free(buf);
	free(z);
	free(t);
}

static void test_refused(void **state)
{
	struct zread *r;
	assert_int_not_equal(zread_open("/dev/zero", &safefile_recording, &r, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "not a regular file"));
	assert_int_equal(zread_open(tt_at("none"), &safefile_recording, &r, err, sizeof(err)), -1);
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
	struct zread *r;
	struct replay_index ix = {0};
	uint64_t bytes;
	assert_int_equal(zread_open(tt_at("i.jsonl"), &safefile_recording, &r, err, sizeof(err)),
			 0);
	assert_int_equal(replay_index_file(r, 3, &ix, &bytes, err, sizeof(err)), 0);
	assert_int_equal(bytes, strlen(text));
	assert_int_equal(ix.n, 2);
	assert_int_equal(ix.skipped,
			 2); /* the garbage and the cut last line; blank lines are not */
	assert_non_null(strstr(ix.first_skip, "line 2: not JSON"));
	assert_int_equal(ix.lines[1].off, strchr(strstr(text, "\n\n") + 2, '{') - text);
	assert_int_equal(ix.lines[1].file, 3);
	assert_true(ix.lines[1].wall_ns - ix.lines[0].wall_ns == 1000000000ull);
	replay_index_free(&ix);
	zread_close(r);
}

/* Following: each wait appends the next piece; a line cut by the end is given once whole. */
struct grow {
	const char *path;
	const char *const *pieces;
	size_t next, waits;
};

static bool grow_wait(struct zread *z, void *arg)
{
	struct grow *g = arg;
	g->waits++;
	if (!g->pieces[g->next])
		return true;
	FILE *f = fopen(g->path, g->pieces[g->next][0] ? "ab" : "wb"); /* "": truncate */
	fputs(g->pieces[g->next++], f);
	fclose(f);
	return false;
}

static void follow_case(const char *first, const char *const *pieces, const char *const *want,
			int last)
{
	struct zread *r;
	const char *line;
	size_t len;
	int rc;
	put_bytes(tt_at("live"), first, strlen(first));
	struct grow g = {tt_at("live"), pieces, 0, 0};
	assert_int_equal(zread_open(tt_at("live"), &safefile_recording, &r, err, sizeof(err)), 0);
	zread_follow(r, grow_wait, &g);
	for (size_t i = 0; want[i]; i++) {
		assert_int_equal(zread_line(r, &line, &len, err, sizeof(err)), 1);
		assert_int_equal(len, strlen(want[i]));
		assert_memory_equal(line, want[i], len);
	}
	rc = zread_line(r, &line, &len, err, sizeof(err));
	assert_int_equal(rc, last);
	if (rc == ZREAD_TRUNCATED)
		assert_non_null(strstr(err, "live: truncated"));
	zread_close(r);
}

static void test_follow(void **state)
{
	/* A file too short to tell its kind, a line cut at the end, then the end. */
	follow_case("", (const char *const[]){"{", "\"a\":1}\n{\"b", "\":2}\n", NULL},
		    (const char *const[]){"{\"a\":1}\n", "{\"b\":2}\n", NULL}, 0);
	/* Shorter than what was read: a writer started it again. */
	follow_case("{\"a\":1}\n", (const char *const[]){"", NULL},
		    (const char *const[]){"{\"a\":1}\n", NULL}, ZREAD_TRUNCATED);
}

static bool stop_now(struct zread *z, void *arg)
{
	(*(int *)arg)++;
	return true;
}

/* Following a zstd stream that its writer flushes: a read that stopped at the end (a cut line
 * and all) goes on when more was appended. */
static void test_follow_zstd(void **state)
{
	char z[512];
	const char *text = "{\"a\":1}\n{\"b\"", *more = ":2}\n";
	ZSTD_CCtx *c = ZSTD_createCCtx();
	ZSTD_outBuffer ob = {z, sizeof(z), 0};
	ZSTD_inBuffer ib = {text, strlen(text), 0};
	assert_int_equal(ZSTD_compressStream2(c, &ob, &ib, ZSTD_e_flush), 0);
	put_bytes(tt_at("live.zst"), z, ob.pos);
	size_t first = ob.pos;
	ib = (ZSTD_inBuffer){more, strlen(more), 0};
	assert_int_equal(ZSTD_compressStream2(c, &ob, &ib, ZSTD_e_end), 0);
	ZSTD_freeCCtx(c);
	struct zread *r;
	int waits = 0;
	const char *line;
	size_t len;
	assert_int_equal(zread_open(tt_at("live.zst"), &safefile_recording, &r, err, sizeof(err)),
			 0);
	zread_follow(r, stop_now, &waits);
	next_is(r, "{\"a\":1}\n");
	assert_int_equal(zread_line(r, &line, &len, err, sizeof(err)), 0);
	assert_int_equal(waits, 1);
	FILE *f = fopen(tt_at("live.zst"), "ab");
	assert_int_equal(fwrite(z + first, 1, ob.pos - first, f), ob.pos - first);
	fclose(f);
	next_is(r, "{\"b\":2}\n");
	assert_int_equal(zread_line(r, &line, &len, err, sizeof(err)), 0);
	zread_close(r);
}

/* A line past the cap is said (with its number) and skipped; the next one is read. */
static void test_line_cap(void **state)
{
	static const struct safefile_limits lim = {.max_bytes = 1 << 20, .max_line = 8};
	struct zread *r;
	put_bytes(tt_at("l.txt"), "short\nmuch too long\nok\n", 24);
	assert_int_equal(zread_open(tt_at("l.txt"), &lim, &r, err, sizeof(err)), 0);
	next_is(r, "short\n");
	const char *line;
	size_t len;
	assert_int_equal(zread_line(r, &line, &len, err, sizeof(err)), ZREAD_LONG);
	assert_non_null(strstr(err, "l.txt: line 2 is longer than the cap of 8 bytes"));
	next_is(r, "ok\n");
	zread_close(r);
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
	    cmocka_unit_test_setup_teardown(test_follow, tt_dir_setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_follow_zstd, tt_dir_setup, tt_dir_teardown),
	    cmocka_unit_test_setup_teardown(test_line_cap, tt_dir_setup, tt_dir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

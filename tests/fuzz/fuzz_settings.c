/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_settings.c: the tunetoprc parser (tui/settings.h) against random and mutated input, a
 * bounded seeded loop: no crash, every value in range, a message naming a line of the input,
 * and what settings_format writes parsed back the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/lib/fuzz_rng.h"
#include "tui/options.h"
#include "tui/settings.h"
#include "tui/theme.h"

#define FUZZ_ITERATIONS 30000
#define FUZZ_MAX_SECONDS 4.0
#define FUZZ_MAX_INPUT 700

static int failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "fuzz_settings: %s:%d: %s\n", __FILE__, __LINE__, #cond);  \
			failures++;                                                                \
			return;                                                                    \
		}                                                                                  \
	} while (0)

static bool theme_builtin(const char *name)
{
	for (size_t i = 0; i < theme_builtin_count; i++)
		if (!strcmp(theme_builtins[i].name, name))
			return true;
	return false;
}

static void fuzz_one(const char *text)
{
	struct settings s, back;
	char msg[640], out[1024];
	unsigned lines = 1, line = 0;
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	settings_defaults(&s);
	int rc = settings_parse(&s, "fuzz", text, msg, sizeof(msg));
	CHECK(rc >= -1 && rc <= 1);
	CHECK(s.view >= 0 && s.view < SETTINGS_NVIEWS);
	CHECK(s.sort >= 0 && s.sort < SETTINGS_NSORTS);
	CHECK(s.delay_s >= OPT_DELAY_MIN && s.delay_s <= OPT_DELAY_MAX);
	CHECK(theme_builtin(s.theme));
	if (rc != 0) {
		CHECK(sscanf(msg, "fuzz:%u:", &line) == 1);
		CHECK(line >= 1 && line <= lines);
	} else {
		CHECK(msg[0] == '\0');
	}
	settings_format(&s, out, sizeof(out));
	settings_defaults(&back);
	CHECK(settings_parse(&back, "fuzz", out, msg, sizeof(msg)) == 0);
	CHECK(settings_equal(&s, &back));
}

static const char *const dict[] = {
    "version=1\n",
    "view=",
    "sort=",
    "sort_order=",
    "delay=",
    "theme=",
    "charts=",
    "mouse=",
    "est",
    "pmd",
    "cpu_pct",
    "runq_pct",
    "asc",
    "desc",
    "0.05",
    "0.123456789012345678",
    "7e-2",
    "3600",
    "3601",
    "1e308",
    "nan",
    "-1",
    "light",
    "mono",
    "ascii",
    "braille",
    "on",
    "off",
    "=",
    " = ",
    "#",
    "\n",
    "\r\n",
    "\t",
    "version=2\n",
    "x=y\n",
    "",
};

static size_t make_input(struct fuzz_rng *r, char *buf, size_t cap)
{
	size_t n = 0;
	if (fuzz_rng_next(r) % 3 == 0) {
		n = fuzz_rng_next(r) % cap;
		for (size_t i = 0; i < n; i++)
			buf[i] = (char)(fuzz_rng_next(r) % 255 + 1);
	} else {
		while (n < cap - 32) {
			const char *w = dict[fuzz_rng_next(r) % (sizeof(dict) / sizeof(dict[0]))];
			size_t l = strlen(w);
			memcpy(buf + n, w, l);
			n += l;
			if (fuzz_rng_next(r) % 24 == 0)
				break;
		}
		for (int k = (int)(fuzz_rng_next(r) % 4); k > 0 && n; k--)
			buf[fuzz_rng_next(r) % n] = (char)(fuzz_rng_next(r) % 255 + 1);
	}
	buf[n] = '\0';
	return n;
}

int main(void)
{
	char buf[FUZZ_MAX_INPUT + 1];
	struct fuzz_rng r = {0x5e771465ULL};
	const char *seed = getenv("FUZZ_SEED");
	clock_t start = clock();
	long iters = 0;
	if (seed)
		r.s = strtoull(seed, NULL, 0) | 1;
	printf("fuzz_settings: seed 0x%llx\n", r.s);
	for (; iters < FUZZ_ITERATIONS && !failures; iters++) {
		make_input(&r, buf, FUZZ_MAX_INPUT);
		fuzz_one(buf);
		if ((double)(clock() - start) / CLOCKS_PER_SEC > FUZZ_MAX_SECONDS)
			break;
	}
	printf("fuzz_settings: %ld inputs, %d failures\n", iters, failures);
	return failures ? 1 : 0;
}

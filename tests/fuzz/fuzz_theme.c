/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_theme.c: the theme parser against random and mutated input. Built as a plain program
 * it runs a bounded, seeded loop (CI: a few seconds at most); with clang -fsanitize=fuzzer
 * and -DTT_LIBFUZZER it is a libFuzzer target. Either way it checks the parser's promises:
 * no crash, every colour in range, every message naming a real line of the input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui/theme.h"

#define FUZZ_ITERATIONS 30000
#define FUZZ_MAX_SECONDS 4.0
#define FUZZ_MAX_INPUT 600

static int fuzz_failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "fuzz_theme: %s:%d: %s\n", __FILE__, __LINE__, #cond);     \
			fuzz_failures++;                                                           \
			return;                                                                    \
		}                                                                                  \
	} while (0)

static void fuzz_one(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct theme t;
	struct theme_diag d = {0};
	unsigned lines = 1;

	memcpy(text, data, size);
	text[size] = '\0';
	for (size_t i = 0; i < size && text[i]; i++)
		lines += text[i] == '\n';
	theme_default(&t);
	unsigned bad = theme_parse(&t, "fuzz", text, &d);
	free(text);
	CHECK(bad == d.count); /* the built-ins an input may inherit are clean */
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct theme_style *s = &t.role[r];
		CHECK(s->fg >= -1 && s->fg <= 255 && s->bg >= -1 && s->bg <= 255);
		CHECK(s->fg16 >= -1 && s->fg16 <= 15 && s->bg16 >= -1 && s->bg16 <= 15);
		CHECK((s->attrs & ~0xFu) == 0);
	}
	for (unsigned i = 0; i < d.count && i < THEME_DIAG_KEEP; i++) {
		unsigned line = 0;
		CHECK(sscanf(d.msg[i], "fuzz:%u:", &line) == 1 ||
		      strncmp(d.msg[i], "default:", 8) == 0 || strchr(d.msg[i], ':') != NULL);
		if (strncmp(d.msg[i], "fuzz:", 5) == 0)
			CHECK(line >= 1 && line <= lines);
	}
}

#ifdef TT_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_one(data, size);
	if (fuzz_failures)
		abort();
	return 0;
}
#else
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	/* xorshift64*: reproducible from the seed printed below. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static const char *const dict[] = {
    "=",
    " = ",
    "/",
    " / ",
    "on",
    " on ",
    "#",
    "# ",
    "#fff",
    "#ff00ff",
    "\n",
    "\r\n",
    "\t",
    "bold",
    "dim",
    "reverse",
    "underline",
    "inherit = ",
    "default",
    "mono",
    "light",
    "colorblind",
    "name = ",
    "mono = yes",
    "title",
    "bar.low",
    "flash",
    "255",
    "256",
    "-1",
    "bright-",
    "red",
    "grey",
    "999999999999",
    "",
    "inherit = default\n",
    "inherit = mono\n",
};

/* A random input: bytes, dictionary words, or a mutated built-in theme. */
static size_t make_input(uint8_t *buf, size_t cap)
{
	size_t n = 0;
	switch (rng() % 3) {
	case 0:
		n = rng() % cap;
		for (size_t i = 0; i < n; i++)
			buf[i] = (uint8_t)rng();
		break;
	case 1:
		while (n < cap - 32) {
			const char *w = dict[rng() % (sizeof(dict) / sizeof(dict[0]))];
			size_t l = strlen(w);
			memcpy(buf + n, w, l);
			n += l;
			if (rng() % 16 == 0)
				break;
		}
		break;
	default: {
		const char *src = theme_builtins[rng() % theme_builtin_count].text;
		n = strlen(src) < cap ? strlen(src) : cap;
		memcpy(buf, src, n);
		for (int k = (int)(rng() % 8); k >= 0 && n; k--)
			buf[rng() % n] = rng() % 4 ? (uint8_t) " =/#\n"[rng() % 5] : (uint8_t)rng();
		break;
	}
	}
	return n;
}

int main(void)
{
	uint8_t buf[FUZZ_MAX_INPUT];
	const char *seed = getenv("TT_FUZZ_SEED");
	long iters = 0;
	clock_t start = clock();

	if (seed)
		rng_state = strtoull(seed, NULL, 0) | 1;
	printf("fuzz_theme: seed 0x%llx\n", (unsigned long long)rng_state);
	for (; iters < FUZZ_ITERATIONS && !fuzz_failures; iters++) {
		size_t n = make_input(buf, sizeof(buf));
		fuzz_one(buf, n);
		/* Colour tokens on their own too. */
		char tok[24];
		size_t tl = rng() % (sizeof(tok) - 1);
		for (size_t i = 0; i < tl; i++)
			tok[i] = rng() % 2 ? "#0123456789abcdefxyz-"[rng() % 21]
					   : (char)(rng() % 255 + 1);
		tok[tl] = '\0';
		int c = theme_color_parse(tok);
		if (c < -2 || c > 255) {
			fprintf(stderr, "fuzz_theme: colour '%s' -> %d\n", tok, c);
			fuzz_failures++;
		}
		if ((double)(clock() - start) / CLOCKS_PER_SEC > FUZZ_MAX_SECONDS)
			break;
	}
	printf("fuzz_theme: %ld inputs, %d failures\n", iters, fuzz_failures);
	return fuzz_failures ? 1 : 0;
}
#endif

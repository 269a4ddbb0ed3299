/* SPDX-License-Identifier: GPL-2.0-or-later */
/* utf8.c: UTF-8 validation and U+FFFD repair, so a name of raw bytes is shown, never dropped. */
#include "core/utf8.h"

#include <string.h>

#include "core/xalloc.h"

/*
 * The well-formed byte sequences, as the Unicode standard's table 3-7 lists them: the
 * second byte's range depends on the first (E0, ED, F0 and F4 narrow it to rule out
 * overlong forms, surrogates and code points past U+10FFFF).
 */
static int utf8_need(unsigned char c, unsigned char *lo, unsigned char *hi)
{
	*lo = 0x80;
	*hi = 0xbf;
	if (c < 0x80)
		return 0;
	if (c >= 0xc2 && c <= 0xdf)
		return 1;
	if (c >= 0xe0 && c <= 0xef) {
		if (c == 0xe0)
			*lo = 0xa0;
		else if (c == 0xed)
			*hi = 0x9f;
		return 2;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (c == 0xf0)
			*lo = 0x90;
		else if (c == 0xf4)
			*hi = 0x8f;
		return 3;
	}
	return -1;
}

/* How many bytes after s[0] continue a sequence correctly (up to the number needed). */
static size_t utf8_good_tail(const char *s, size_t n, int need, unsigned char lo, unsigned char hi)
{
	size_t i = 1;
	for (; i <= (size_t)need && i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < lo || c > hi)
			break;
		lo = 0x80;
		hi = 0xbf;
	}
	return i - 1;
}

size_t utf8_seq_len(const char *s, size_t n)
{
	unsigned char lo, hi;
	if (n == 0)
		return 0;
	int need = utf8_need((unsigned char)s[0], &lo, &hi);
	if (need < 0)
		return 0;
	return utf8_good_tail(s, n, need, lo, hi) == (size_t)need ? (size_t)need + 1 : 0;
}

size_t utf8_bad_len(const char *s, size_t n)
{
	unsigned char lo, hi;
	if (n == 0)
		return 0;
	int need = utf8_need((unsigned char)s[0], &lo, &hi);
	/* A lead byte with a correct but cut-short tail is one subpart; anything else is
	 * one byte on its own. */
	return need <= 0 ? 1 : 1 + utf8_good_tail(s, n, need, lo, hi);
}

bool utf8_valid(const char *s)
{
	size_t n = strlen(s);
	while (n) {
		size_t k = utf8_seq_len(s, n);
		if (!k)
			return false;
		s += k;
		n -= k;
	}
	return true;
}

size_t utf8_sanitize(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src), out = 0, written = 0;
	bool full = false; /* once a character did not fit, nothing after it is copied */

	while (n) {
		size_t k = utf8_seq_len(src, n);
		const char *piece = src;
		size_t plen = k;
		if (!k) {
			k = utf8_bad_len(src, n);
			piece = UTF8_REPLACEMENT;
			plen = sizeof(UTF8_REPLACEMENT) - 1;
		}
		if (!full && out + plen < len) {
			memcpy(dst + out, piece, plen);
			written = out + plen;
		} else {
			full = true;
		}
		out += plen;
		src += k;
		n -= k;
	}
	if (len)
		dst[written] = '\0';
	return out;
}

char *utf8_sanitize_dup(const char *src)
{
	size_t need = utf8_sanitize(NULL, 0, src) + 1;
	char *p = xmalloc(need);
	utf8_sanitize(p, need, src);
	return p;
}

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

/* The piece that stands for the valid sequence src[0..k) on a terminal: a C0 control or DEL
 * in caret notation (ESC is "^[", as ncurses draws it), a C1 control (U+0080..U+009F, which
 * a terminal may take for CSI and the like) as U+FFFD, anything else itself. */
static const char *utf8_term_piece(const char *src, size_t k, char caret[2], size_t *plen)
{
	unsigned char c = (unsigned char)src[0];
	if (k == 1 && (c < 0x20 || c == 0x7f)) {
		caret[0] = '^';
		caret[1] = (char)(c ^ 0x40);
		*plen = 2;
		return caret;
	}
	if (k == 2 && c == 0xc2 && (unsigned char)src[1] < 0xa0) {
		*plen = sizeof(UTF8_REPLACEMENT) - 1;
		return UTF8_REPLACEMENT;
	}
	*plen = k;
	return src;
}

static size_t utf8_repair(char *dst, size_t len, const char *src, bool term)
{
	size_t n = strlen(src), out = 0, written = 0;
	bool full = false; /* once a character did not fit, nothing after it is copied */
	char caret[2];

	while (n) {
		size_t k = utf8_seq_len(src, n);
		const char *piece = src;
		size_t plen = k;
		if (!k) {
			k = utf8_bad_len(src, n);
			piece = UTF8_REPLACEMENT;
			plen = sizeof(UTF8_REPLACEMENT) - 1;
		} else if (term) {
			piece = utf8_term_piece(src, k, caret, &plen);
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

size_t utf8_sanitize(char *dst, size_t len, const char *src)
{
	return utf8_repair(dst, len, src, false);
}

char *utf8_sanitize_dup(const char *src)
{
	size_t need = utf8_sanitize(NULL, 0, src) + 1;
	char *p = xmalloc(need);
	utf8_sanitize(p, need, src);
	return p;
}

size_t utf8_sanitize_term(char *dst, size_t len, const char *src)
{
	return utf8_repair(dst, len, src, true);
}

bool utf8_term_safe(const char *s, size_t n)
{
	char caret[2];
	while (n) {
		size_t k = utf8_seq_len(s, n), plen;
		if (!k || utf8_term_piece(s, k, caret, &plen) != s)
			return false;
		s += k;
		n -= k;
	}
	return true;
}

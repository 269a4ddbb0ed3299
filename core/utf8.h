/* SPDX-License-Identifier: GPL-2.0-or-later */
/* utf8.h: checking and repairing UTF-8 in names the host hands us (thread names, devices). */
#ifndef TUNETOP_CORE_UTF8_H
#define TUNETOP_CORE_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* The replacement character U+FFFD, as UTF-8. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/*
 * The length of the valid UTF-8 sequence at s[0..n) (1 to 4), or 0 when the bytes there
 * do not start one: a stray continuation byte, an overlong form, a surrogate, a code
 * point past U+10FFFF or a sequence cut short. NUL counts as a valid 1-byte sequence.
 */
size_t utf8_seq_len(const char *s, size_t n);

/*
 * How many bytes from s make one "maximal subpart" of an ill-formed sequence: the bytes
 * that one U+FFFD replaces (the Unicode standard's practice, which Python's
 * errors="replace" follows). At least 1; call only where utf8_seq_len() returned 0.
 */
size_t utf8_bad_len(const char *s, size_t n);

/* True when the NUL-terminated s is valid UTF-8. */
bool utf8_valid(const char *s);

/*
 * Copies the NUL-terminated src into dst (len bytes, NUL-terminated when len > 0),
 * each ill-formed subpart replaced by U+FFFD, never cutting a character in two.
 * Returns the length the whole repaired string needs (as snprintf does): at most
 * 3 * strlen(src) bytes plus the NUL.
 */
size_t utf8_sanitize(char *dst, size_t len, const char *src);

/* The repaired copy of src, allocated (core/xalloc.h); the caller frees it. */
char *utf8_sanitize_dup(const char *src);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* utf8.h: checking and repairing UTF-8 in names the host hands us (thread names, devices),
 * and making text from elsewhere safe for a terminal. */
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

/*
 * utf8_sanitize, and safe to print on a terminal: a C0 control or DEL becomes caret notation
 * (ESC "^[", BEL "^G", newline "^J"), a C1 control (U+0080..U+009F) U+FFFD. For text from
 * elsewhere (a far side, a recording, a thread name) bound for a terminal: no escape sequence
 * gets through. dst may be src's copy but not src itself.
 */
size_t utf8_sanitize_term(char *dst, size_t len, const char *src);
/* True when s[0..n) is valid UTF-8 without a control character: utf8_sanitize_term would
 * leave it as it is. */
bool utf8_term_safe(const char *s, size_t n);

#endif

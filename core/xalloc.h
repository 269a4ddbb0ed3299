/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xalloc.h: allocation that never returns NULL (failure is fatal: exit 1 with a message). */
#ifndef TT_XALLOC_H
#define TT_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
/* Memory aligned to align (a power of two, >= sizeof(void *)); free with free(). */
void *xaligned_alloc(size_t align, size_t size);
/* Zeroed, page-aligned memory straight from mmap, for a large table sized for its maximum
 * of which a run uses a part: a page nobody writes is never made resident (a memset or
 * calloc over the whole would make it so). Free with xpages_free and the same size. */
void *xpages_zalloc(size_t size);
void xpages_free(void *p, size_t size);

#endif

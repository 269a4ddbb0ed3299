/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xalloc.c: the one place where allocation failure is handled (by exiting). */
#include "core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void xalloc_die(size_t size)
{
	/* No recovery is possible for a console that cannot allocate its own state;
	 * say so and leave with the runtime-failure status. */
	fprintf(stderr, "tunetop: out of memory allocating %zu bytes\n", size);
	exit(1);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		xalloc_die(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		xalloc_die(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);
	if (!p)
		xalloc_die(size);
	return p;
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size && nmemb > (size_t)-1 / size)
		xalloc_die((size_t)-1);
	return xrealloc(ptr, nmemb * size);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xmalloc(n);
	memcpy(p, s, n);
	return p;
}

void *xaligned_alloc(size_t align, size_t size)
{
	void *p = NULL;
	if (posix_memalign(&p, align, size ? size : align) != 0)
		xalloc_die(size);
	return p;
}

void *xpages_zalloc(size_t size)
{
	void *p =
	    mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		xalloc_die(size);
	return p;
}

void xpages_free(void *p, size_t size)
{
	if (p)
		munmap(p, size ? size : 1);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapdec_intern.c: the decoders' interned strings (snapdec.h snapdec_intern), a leaf that
 * snapdec.c and snapdec_host.c both use. */
#include <pthread.h>
#include <string.h>

#include "backends/replay/snapdec.h"
#include "core/xalloc.h"

/* Interned strings: the few names a snapshot points at (backends, topologies, absent paths). */
#define SNAPDEC_INTERN_MAX 256
#define SNAPDEC_INTERN_LEN 64

static pthread_mutex_t intern_lock = PTHREAD_MUTEX_INITIALIZER;
static char *intern_tab[SNAPDEC_INTERN_MAX];
static size_t intern_n;

const char *snapdec_intern(const char *s)
{
	const char *r = "?";
	if (!s)
		return NULL;
	/* Rare (once per new name) and shared by the replay and remote threads: a mutex. */
	pthread_mutex_lock(&intern_lock);
	for (size_t i = 0; i < intern_n; i++)
		if (strcmp(intern_tab[i], s) == 0) {
			r = intern_tab[i];
			goto out;
		}
	if (intern_n < SNAPDEC_INTERN_MAX && strlen(s) < SNAPDEC_INTERN_LEN) {
		intern_tab[intern_n] = xstrdup(s);
		r = intern_tab[intern_n++];
	}
out:
	pthread_mutex_unlock(&intern_lock);
	return r;
}

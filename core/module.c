/* SPDX-License-Identifier: GPL-2.0-or-later */
/* module.c: tunetop's shared modules found beside the binary or in PKGLIBDIR, ABI checked. */
#include "core/module.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef TT_PKGLIBDIR
#define TT_PKGLIBDIR "/usr/local/lib/tunetop"
#endif

/* dir/FILE opened and asked for its table; the table, or NULL with why in err. */
static const void *mod_try(const struct mod_spec *spec, const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s/%s", dir, spec->file) >= (int)sizeof(path)) {
		snprintf(err, errlen, "%s: path too long", dir);
		return NULL;
	}
	void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		const char *why = dlerror();
		snprintf(err, errlen, "%s", why ? why : path);
		return NULL;
	}
	const void *(*entry)(unsigned) = NULL;
	/* POSIX's way from a dlsym() pointer to a function pointer (dlsym(3)). */
	*(void **)&entry = dlsym(dl, spec->entry);
	const void *table = entry ? entry(spec->abi) : NULL;
	/* Every table starts with its ABI number (module.h). */
	if (!table || *(const unsigned *)table != spec->abi) {
		snprintf(err, errlen, "%s: not %s of this tunetop (ABI %u)", path, spec->a_name,
			 spec->abi);
		dlclose(dl);
		return NULL;
	}
	return table;
}

const void *mod_load(const struct mod_spec *spec, char *err, size_t errlen)
{
	char why[PATH_MAX + 256] = "";
	const void *t;
	const char *env = secure_getenv("TUNETOP_LIBDIR");
	if (env && *env) {
		if ((t = mod_try(spec, env, why, sizeof(why))))
			return t;
		snprintf(err, errlen, "no %s (TUNETOP_LIBDIR=%s): %s", spec->name, env, why);
		return NULL;
	}
	char exe[PATH_MAX], dirs[3][PATH_MAX + 16];
	int nd = 0;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		const char *d = dirname(exe);
		snprintf(dirs[nd++], sizeof(dirs[0]), "%s", d);
		snprintf(dirs[nd++], sizeof(dirs[0]), "%s/../lib/tunetop", d);
	}
	snprintf(dirs[nd++], sizeof(dirs[0]), "%s", TT_PKGLIBDIR);
	for (int i = 0; i < nd; i++)
		if ((t = mod_try(spec, dirs[i], why, sizeof(why))))
			return t;
	snprintf(err, errlen, "no %s %s beside the executable, in %s or in %s (%s)", spec->name,
		 spec->file, nd > 1 ? dirs[1] : "PREFIX/lib/tunetop", TT_PKGLIBDIR, why);
	return NULL;
}

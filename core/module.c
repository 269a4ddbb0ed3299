/* SPDX-License-Identifier: GPL-2.0-or-later */
/* module.c: tunetop's shared modules found beside the binary or in PKGLIBDIR, ABI checked. */
#include "core/module.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef TT_PKGLIBDIR
#define TT_PKGLIBDIR "/usr/local/lib/tunetop"
#endif

/* A table of this ABI with no NULL function (module.h). */
static bool mod_table_ok(const struct mod_spec *spec, const void *table)
{
	if (!table || *(const unsigned *)table != spec->abi)
		return false;
	for (size_t off = sizeof(void (*)(void)); off < spec->size; off += sizeof(void (*)(void))) {
		void (*fn)(void);
		memcpy(&fn, (const char *)table + off, sizeof(fn));
		if (!fn)
			return false;
	}
	return true;
}

/* dir/FILE opened and its table looked up; the table, or NULL with why in err. */
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
	const void *table = dlsym(dl, spec->symbol);
	if (!mod_table_ok(spec, table)) {
		snprintf(err, errlen, "%s: not a%s %s module of this tunetop (ABI %u)", path,
			 strchr("aeiou", spec->name[0]) ? "n" : "", spec->name, spec->abi);
		dlclose(dl);
		return NULL;
	}
	return table;
}

const void *mod_load(struct mod_spec *spec, char *err, size_t errlen)
{
	char why[PATH_MAX + 256] = "";
	const char *env = secure_getenv("TUNETOP_LIBDIR");
	if (spec->table)
		return spec->table;
	if (env && *env) {
		if ((spec->table = mod_try(spec, env, why, sizeof(why))))
			return spec->table;
		snprintf(err, errlen, "no %s module (TUNETOP_LIBDIR=%s): %s", spec->name, env, why);
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
		if ((spec->table = mod_try(spec, dirs[i], why, sizeof(why))))
			return spec->table;
	snprintf(err, errlen, "no %s module %s beside the executable, in %s or in %s (%s)",
		 spec->name, spec->file, nd > 1 ? dirs[1] : "PREFIX/lib/tunetop", TT_PKGLIBDIR,
		 why);
	return NULL;
}

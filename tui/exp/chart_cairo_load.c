/* chart_cairo_load.c: the experiments' pictures through the module tunetop-cairo.so, loaded
 * on the first picture; the file is written here (core/safefile.h), the drawing there. */
#include "tui/exp/chart_cairo.h"

#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/safefile.h"
#include "tui/chart.h"
#include "tui/exp/chart_place.h"
#include "tui/exp/pic_module.h"

#ifndef TT_PKGLIBDIR
#define TT_PKGLIBDIR "/usr/local/lib/tunetop"
#endif

/* Loaded once and kept for the process: the experiments draw from their one thread, after
 * their passes, so no lock. */
static const struct pic_module *cl_mod;

/* dir/PIC_MODULE_FILE opened and asked for its table; 0, or -1 with why in err. */
static int cl_try(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s/%s", dir, PIC_MODULE_FILE) >= (int)sizeof(path)) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -1;
	}
	void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		const char *why = dlerror();
		snprintf(err, errlen, "%s", why ? why : path);
		return -1;
	}
	const struct pic_module *(*entry)(unsigned) = NULL;
	/* POSIX's way from a dlsym() pointer to a function pointer (dlsym(3)). */
	*(void **)&entry = dlsym(dl, PIC_MODULE_ENTRY);
	const struct pic_module *m = entry ? entry(PIC_MODULE_ABI) : NULL;
	if (!m || m->abi != PIC_MODULE_ABI || !m->scatter || !m->bars) {
		snprintf(err, errlen, "%s: not a picture module of this tunetop (ABI %u)", path,
			 PIC_MODULE_ABI);
		dlclose(dl);
		return -1;
	}
	cl_mod = m;
	return 0;
}

/*
 * Where the module is, first found wins: $TUNETOP_LIBDIR alone when set (the tests point
 * it at a build or an empty directory); else beside the executable (the build tree, where
 * build/tunetop and build/tunetop-cairo.so sit together), then PREFIX/lib/tunetop found from
 * the executable's PREFIX/bin (any PREFIX, and a package built without one), then the
 * PREFIX the binary was built for.
 */
int chart_cairo_load(char *err, size_t errlen)
{
	if (cl_mod)
		return 0;
	const char *env = secure_getenv("TUNETOP_LIBDIR");
	if (env && *env) {
		if (cl_try(env, err, errlen) == 0)
			return 0;
		char why[PATH_MAX + 256];
		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "no picture module (TUNETOP_LIBDIR=%s): %s", env, why);
		return -1;
	}
	char exe[PATH_MAX], dirs[3][PATH_MAX + 16], why[PATH_MAX + 256] = "";
	int nd = 0;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		const char *d = dirname(exe);
		snprintf(dirs[nd++], sizeof(dirs[0]), "%s", d);
		snprintf(dirs[nd++], sizeof(dirs[0]), "%s/../lib/tunetop", d);
	}
	snprintf(dirs[nd++], sizeof(dirs[0]), "%s", TT_PKGLIBDIR);
	for (int i = 0; i < nd; i++) {
		if (cl_try(dirs[i], why, sizeof(why)) == 0)
			return 0;
	}
	snprintf(err, errlen, "no picture module %s beside the executable, in %s or in %s (%s)",
		 PIC_MODULE_FILE, nd > 1 ? dirs[1] : "PREFIX/lib/tunetop", TT_PKGLIBDIR, why);
	return -1;
}

static int cl_write(void *arg, const void *data, size_t len)
{
	const struct safefile_tmp *t = arg;
	return safefile_write_all(t->fd, data, len);
}

/* The module loaded and path's temporary file open; *h writes into *t. */
static int cl_begin(const char *path, struct safefile_tmp *t, struct pic_host *h, char *err,
		    size_t errlen)
{
	if (chart_cairo_load(err, errlen) != 0)
		return -1;
	if (safefile_replace_begin(t, path, err, errlen) != 0)
		return -1;
	*h = (struct pic_host){.write = cl_write,
			       .arg = t,
			       .scale_make = chart_scale_make,
			       .scale_counts = chart_scale_counts,
			       .fmt_tick = chart_fmt_tick,
			       .place_labels = chart_place_labels};
	return 0;
}

/* The drawing's result: the file renamed over path, or removed with "path: why". */
static int cl_end(int rc, const char *path, struct safefile_tmp *t, const char *why, char *err,
		  size_t errlen)
{
	if (rc != 0) {
		snprintf(err, errlen, "%s: %s", path, why);
		safefile_replace_abort(t);
		return -1;
	}
	return safefile_replace_commit(t, err, errlen);
}

int chart_cairo_scatter(const char *path, bool svg, const char *title, const char *note,
			const char *xlabel, const char *ylabel, const struct chart_pt *pts,
			size_t n, char *err, size_t errlen)
{
	struct safefile_tmp t;
	struct pic_host h;
	char why[256];
	if (cl_begin(path, &t, &h, err, errlen) != 0)
		return -1;
	int rc = cl_mod->scatter(&h, svg, title, note, xlabel, ylabel, pts, n, why, sizeof(why));
	return cl_end(rc, path, &t, why, err, errlen);
}

int chart_cairo_bars(const char *path, bool svg, const char *title,
		     const struct chart_panel *panels, size_t npanels, char *err, size_t errlen)
{
	struct safefile_tmp t;
	struct pic_host h;
	char why[256];
	if (cl_begin(path, &t, &h, err, errlen) != 0)
		return -1;
	int rc = cl_mod->bars(&h, svg, title, panels, npanels, why, sizeof(why));
	return cl_end(rc, path, &t, why, err, errlen);
}

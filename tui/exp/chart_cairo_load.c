/* SPDX-License-Identifier: GPL-2.0-or-later */
/* chart_cairo_load.c: the experiments' pictures through the module tunetop-cairo.so, loaded
 * on the first picture; the file is written here (core/safefile.h), the drawing there. */
#include "tui/exp/chart_cairo.h"

#include <stdio.h>

#include "core/module.h"
#include "core/safefile.h"
#include "tui/chart.h"
#include "tui/exp/chart_place.h"
#include "tui/exp/pic_module.h"

/* Loaded once and kept for the process (core/module.h): the experiments draw from their one
 * thread, after their passes, so no lock. */
static struct mod_spec cl_spec =
    MOD_SPEC("picture", PIC_MODULE_FILE, PIC_MODULE_SYMBOL, PIC_MODULE_ABI, struct pic_module);
static const struct pic_module *cl_mod;

int chart_cairo_load(char *err, size_t errlen)
{
	return (cl_mod = mod_load(&cl_spec, err, errlen)) ? 0 : -1;
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

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pic_module.h: the contract between tunetop and its picture module (tunetop-cairo.so). */
#ifndef TT_PIC_MODULE_H
#define TT_PIC_MODULE_H

/*
 * Only the pictures need cairo, and cairo brings X11, xcb, freetype, fontconfig and pixman
 * with it (docs/design.md "Modules"). So tui/exp/chart_cairo.c is a shared module
 * of its own that tui/exp/chart_cairo_load.c dlopen()s when a PNG or SVG is written, and the
 * console, the exporter and -b never map any of it.
 *
 * What the module promises, beside core/module.h's contract (one symbol, its table):
 * - What it needs of the program (the axis scales, the bytes written) comes through struct
 *   pic_host, so it links against libc, libm, cairo and fontconfig alone and
 *   tests/layers/check_calls.py sees it as tui/exp code.
 * - A drawing opens no file: the bytes go to host->write as cairo makes them; the caller
 *   owns the file (core/safefile.h's atomic replacement).
 * - After each drawing, no cairo or fontconfig state is left (their caches are reset), so
 *   a leak checker sees nothing and the module may be unloaded.
 */

#include <stdbool.h>
#include <stddef.h>

#include "tui/chart.h"
#include "tui/exp/chart_cairo.h"
#include "tui/exp/chart_place.h"

/* Raised on any change of the structs below or of chart_cairo.h's. */
#define PIC_MODULE_ABI 3u
/* The module's file name, looked for in the directories chart_cairo_load.c lists. */
#define PIC_MODULE_FILE "tunetop-cairo.so"
#define PIC_MODULE_SYMBOL "tunetop_pic_module"

/* What the program lends the module for one drawing. */
struct pic_host {
	/* Output: 0, or -1 with errno set; the drawing then fails with strerror(errno). */
	int (*write)(void *arg, const void *data, size_t len);
	void *arg;
	/* tui/chart.h's scales and tick labels, so the console and the pictures agree. */
	void (*scale_make)(double min, double max, int max_ticks, double floor_v,
			   struct chart_scale *s);
	void (*scale_counts)(double max, int max_ticks, struct chart_scale *s);
	const char *(*fmt_tick)(double v, double step, char *buf, size_t len);
	/* tui/exp/chart_place.h: the labels' boxes placed so that none overlaps another. */
	void (*place_labels)(struct chart_lbox *b, size_t n, const struct chart_area *area,
			     enum chart_place_mode mode);
};

/* The module's table. Each drawing returns 0, or -1 with a message in err (without the
 * file's name, which the caller adds). */
struct pic_module {
	unsigned abi; /* PIC_MODULE_ABI */
	int (*scatter)(const struct pic_host *h, bool svg, const char *title, const char *note,
		       const char *xlabel, const char *ylabel, const struct chart_pt *pts, size_t n,
		       char *err, size_t errlen);
	int (*bars)(const struct pic_host *h, bool svg, const char *title,
		    const struct chart_panel *panels, size_t npanels, char *err, size_t errlen);
};

/* The one exported symbol (PIC_MODULE_SYMBOL). */
extern const struct pic_module tunetop_pic_module;

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* chart_cairo.h: the experiments' pictures, drawn with cairo into PNG or SVG files (the
 * drawing is the module tunetop-cairo.so, loaded by chart_cairo_load.c on the first one). */
#ifndef TT_CHART_CAIRO_H
#define TT_CHART_CAIRO_H

#include <stdbool.h>
#include <stddef.h>

/* One point of a scatter: the median (x, y) and the spread of each (min to max). */
struct chart_pt {
	double x, y;
	double x_lo, x_hi, y_lo, y_hi;
	char label[48];
	bool mark; /* drawn larger, in another colour, with "(cheapest without drops)" */
	bool failed; /* no pass measured: drawn as a cross; the label says why */
};

/* One bar: plain (lo == mid == hi) or mid with a whisker from lo to hi (min/avg/max). */
struct chart_bar {
	char label[48];
	double lo, mid, hi;
};

/* A panel of bars with its own title and y scale. */
struct chart_panel {
	char title[128];
	const struct chart_bar *bars;
	size_t nbars;
	bool counts; /* the bars are counts: a y axis of whole numbers */
};

/* The picture module loaded (once; tui/exp/pic_module.h): 0, or -1 with why in err. The
 * drawings below call it; a caller may call it first to fail before a long run. */
int chart_cairo_load(char *err, size_t errlen);

/* Each writes path as SVG when svg, else PNG; -1 with a message in err on failure (a missing
 * picture module among them). */
/* A scatter plot of pts with labels, axes from 0, titled; note goes under the title. */
int chart_cairo_scatter(const char *path, bool svg, const char *title, const char *note,
			const char *xlabel, const char *ylabel, const struct chart_pt *pts,
			size_t n, char *err, size_t errlen);

/* Panels of bars, one under the other (same width, own scales). */
int chart_cairo_bars(const char *path, bool svg, const char *title,
		     const struct chart_panel *panels, size_t npanels, char *err, size_t errlen);

#endif

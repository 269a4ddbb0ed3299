/* SPDX-License-Identifier: GPL-2.0-or-later */
/* chart_place.h: where the labels of a picture go so that no two overlap (no cairo, no
 * curses: the picture module is lent it, tests call it directly). */
#ifndef TT_CHART_PLACE_H
#define TT_CHART_PLACE_H

#include <stdbool.h>
#include <stddef.h>

/* One label: its anchor and size in, its box out (x, y: top left; pixels, y down). */
struct chart_lbox {
	double ax, ay; /* the point (scatter) or the bar's foot (bars) it names */
	double w, h;
	double x, y; /* placed box */
	bool shown; /* false: no free place in the bounds, not drawn */
	bool moved; /* away from its anchor's first choice: draw a leader line */
};

enum chart_place_mode {
	CHART_PLACE_AROUND, /* beside the anchor, then farther out (a scatter's points) */
	CHART_PLACE_BELOW, /* centred under the anchor, then a row lower (bar labels) */
};

/* The bounds labels stay in. */
struct chart_area {
	double x, y, w, h;
};

/*
 * Place n labels in order inside area: each at the first candidate place whose box meets
 * no box already placed (and, AROUND, covers no anchor), farther from its anchor as the
 * near places fill, then anywhere free in the area. Two shown boxes never intersect.
 */
void chart_place_labels(struct chart_lbox *b, size_t n, const struct chart_area *area,
			enum chart_place_mode mode);

/* Do two boxes' interiors meet? (Touching edges do not.) */
bool chart_lbox_overlap(const struct chart_lbox *a, const struct chart_lbox *b);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* chart_place.c: label boxes placed greedily so that none overlaps another. */
#include "tui/exp/chart_place.h"

/* Room left around an anchor's dot, and between a label and its neighbours. */
#define PLACE_GAP 3.0
#define PLACE_DOT 6.0
/* Rings of candidate places around an anchor before the area is scanned. */
#define PLACE_RINGS 12

bool chart_lbox_overlap(const struct chart_lbox *a, const struct chart_lbox *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static bool place_free(const struct chart_lbox *b, size_t n, size_t self,
		       const struct chart_area *ar, bool dots)
{
	const struct chart_lbox *me = &b[self];
	if (me->x < ar->x || me->y < ar->y || me->x + me->w > ar->x + ar->w ||
	    me->y + me->h > ar->y + ar->h)
		return false;
	/* Each box grown by half the gap: neighbours keep PLACE_GAP apart. */
	struct chart_lbox g = {.x = me->x - PLACE_GAP / 2,
			       .y = me->y - PLACE_GAP / 2,
			       .w = me->w + PLACE_GAP,
			       .h = me->h + PLACE_GAP};
	for (size_t i = 0; i < self; i++)
		if (b[i].shown && chart_lbox_overlap(&g, &b[i]))
			return false;
	for (size_t i = 0; dots && i < n; i++) {
		struct chart_lbox d = {.x = b[i].ax - PLACE_DOT,
				       .y = b[i].ay - PLACE_DOT,
				       .w = 2 * PLACE_DOT,
				       .h = 2 * PLACE_DOT};
		if (chart_lbox_overlap(me, &d))
			return false;
	}
	return true;
}

/* Candidate k of ring r (top left of the box), AROUND: right above, left above, right
 * below, left below, centred above, centred below, each ring a row farther. */
static void place_around(struct chart_lbox *me, int r, int k)
{
	double off = PLACE_DOT + PLACE_GAP + r * (me->h + PLACE_GAP);
	switch (k) {
	case 0:
		me->x = me->ax + PLACE_DOT + PLACE_GAP;
		me->y = me->ay - off - me->h / 2 + (r == 0 ? me->h / 2 : 0);
		break;
	case 1:
		me->x = me->ax - PLACE_DOT - PLACE_GAP - me->w;
		me->y = me->ay - off - me->h / 2 + (r == 0 ? me->h / 2 : 0);
		break;
	case 2:
		me->x = me->ax + PLACE_DOT + PLACE_GAP;
		me->y = me->ay + off - me->h / 2 + (r == 0 ? -me->h / 2 : 0);
		break;
	case 3:
		me->x = me->ax - PLACE_DOT - PLACE_GAP - me->w;
		me->y = me->ay + off - me->h / 2 + (r == 0 ? -me->h / 2 : 0);
		break;
	case 4:
		me->x = me->ax - me->w / 2;
		me->y = me->ay - off - me->h;
		break;
	default:
		me->x = me->ax - me->w / 2;
		me->y = me->ay + off;
		break;
	}
}

static bool place_one(struct chart_lbox *b, size_t n, size_t i, const struct chart_area *ar,
		      enum chart_place_mode mode)
{
	struct chart_lbox *me = &b[i];
	/* Near places first, keeping clear of the dots; then the same without that. */
	for (int dots = 1; dots >= 0; dots--) {
		if (mode == CHART_PLACE_BELOW && dots)
			continue;
		for (int r = 0; r < PLACE_RINGS; r++)
			for (int k = 0; k < (mode == CHART_PLACE_AROUND ? 6 : 1); k++) {
				if (mode == CHART_PLACE_AROUND) {
					place_around(me, r, k);
				} else {
					me->x = me->ax - me->w / 2;
					me->y = me->ay + r * (me->h + PLACE_GAP);
					/* Kept inside the area sideways rather than refused. */
					if (me->x < ar->x)
						me->x = ar->x;
					if (me->x + me->w > ar->x + ar->w)
						me->x = ar->x + ar->w - me->w;
				}
				if (place_free(b, n, i, ar, dots)) {
					me->moved = r > 0;
					return true;
				}
			}
	}
	/* Anywhere free: the area scanned in rows, nearest the anchor's row first. */
	double step_y = me->h + PLACE_GAP, step_x = 8;
	for (double dy = 0; dy <= ar->h; dy += step_y)
		for (int sign = 1; sign >= -1; sign -= 2) {
			me->y = me->ay - me->h / 2 + sign * dy;
			for (double x = ar->x; x + me->w <= ar->x + ar->w; x += step_x) {
				me->x = x;
				if (place_free(b, n, i, ar, false)) {
					me->moved = true;
					return true;
				}
			}
			if (dy == 0)
				break;
		}
	return false;
}

void chart_place_labels(struct chart_lbox *b, size_t n, const struct chart_area *area,
			enum chart_place_mode mode)
{
	for (size_t i = 0; i < n; i++) {
		b[i].shown = false;
		b[i].moved = false;
	}
	for (size_t i = 0; i < n; i++)
		b[i].shown = place_one(b, n, i, area, mode);
}

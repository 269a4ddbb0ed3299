/* SPDX-License-Identifier: GPL-2.0-or-later */
/* chart_cairo.c: scatter and bar pictures of experiment results (cairo; PNG or SVG), built
 * as the module tunetop-cairo.so (its contract: tui/exp/pic_module.h). */
#include "tui/exp/pic_module.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PIC_W 900
#define PIC_SCATTER_H 560
#define PIC_PANEL_H 280
#define PIC_TITLE_H 56
#define PIC_MARGIN_L 80
#define PIC_MARGIN_R 30
#define PIC_MARGIN_B 56
#define PIC_FONT_PX 13

struct pic {
	cairo_surface_t *sf;
	cairo_t *cr;
	bool svg;
	const struct pic_host *host; /* where the bytes go, and the scales */
	int werr; /* errno of the first failed write, 0 none */
};

struct rect {
	double x, y, w, h;
};

/* The host's axis helpers, reached from the drawing code below (one drawing at a time: the
 * experiments draw from their one thread). */
static const struct pic_host *pic_h;

/* cairo's output goes to the host's writer (the caller's temporary file); a failed write
 * keeps its errno for the message. */
static cairo_status_t pic_write(void *arg, const unsigned char *data, unsigned int len)
{
	struct pic *p = arg;
	if (p->werr)
		return CAIRO_STATUS_WRITE_ERROR;
	errno = 0;
	if (p->host->write(p->host->arg, data, len) != 0) {
		p->werr = errno ? errno : EIO;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

static int pic_open(struct pic *p, const struct pic_host *h, bool svg, int w, int height, char *err,
		    size_t errlen)
{
	p->host = h;
	pic_h = h;
	p->svg = svg;
	p->werr = 0;
	p->sf = svg ? cairo_svg_surface_create_for_stream(pic_write, p, w, height)
		    : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, height);
	if (cairo_surface_status(p->sf) != CAIRO_STATUS_SUCCESS) {
		snprintf(err, errlen, "%s", cairo_status_to_string(cairo_surface_status(p->sf)));
		cairo_surface_destroy(p->sf);
		return -1;
	}
	p->cr = cairo_create(p->sf);
	cairo_set_source_rgb(p->cr, 1, 1, 1); /* the background the tests count against */
	cairo_paint(p->cr);
	cairo_select_font_face(p->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(p->cr, PIC_FONT_PX);
	return 0;
}

static int pic_close(struct pic *p, char *err, size_t errlen)
{
	cairo_status_t st = cairo_status(p->cr);
	cairo_destroy(p->cr);
	if (st == CAIRO_STATUS_SUCCESS && !p->svg)
		st = cairo_surface_write_to_png_stream(p->sf, pic_write, p);
	cairo_surface_finish(p->sf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(p->sf);
	cairo_surface_destroy(p->sf);
	/* No cairo object is left: free the font caches cairo and fontconfig keep for the
	 * process, so a leak checker sees nothing (and a long run holds nothing). */
	cairo_debug_reset_static_data();
	FcFini();
	if (st != CAIRO_STATUS_SUCCESS) {
		snprintf(err, errlen, "%s",
			 p->werr ? strerror(p->werr) : cairo_status_to_string(st));
		return -1;
	}
	return 0;
}

/* Text with its reference point at (x, y), aligned by ax (0 left, 0.5 centre, 1 right). */
static void text_at(cairo_t *cr, double x, double y, double ax, const char *s)
{
	cairo_text_extents_t te;
	cairo_text_extents(cr, s, &te);
	cairo_move_to(cr, x - ax * te.x_advance, y);
	cairo_show_text(cr, s);
}

static void title_draw(cairo_t *cr, const char *title, const char *note)
{
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_font_size(cr, PIC_FONT_PX + 4);
	text_at(cr, PIC_W / 2.0, 24, 0.5, title);
	cairo_set_font_size(cr, PIC_FONT_PX);
	if (note) {
		cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
		text_at(cr, PIC_W / 2.0, 44, 0.5, note);
	}
}

static double map(const struct chart_scale *s, double v, double a, double b)
{
	return a + (v - s->lo) / (s->hi - s->lo) * (b - a);
}

/* Grid lines and tick labels of the y scale (and of xs when given) around r. */
static void axes_draw(cairo_t *cr, const struct rect *r, const struct chart_scale *ys,
		      const struct chart_scale *xs, const char *xlabel, const char *ylabel)
{
	char buf[32];
	cairo_set_line_width(cr, 1);
	for (int i = 0; i < ys->nticks; i++) {
		double v = ys->lo + i * ys->step, y = map(ys, v, r->y + r->h, r->y);
		cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
		cairo_move_to(cr, r->x, y);
		cairo_line_to(cr, r->x + r->w, y);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		text_at(cr, r->x - 6, y + 4, 1, pic_h->fmt_tick(v, ys->step, buf, sizeof(buf)));
	}
	for (int i = 0; xs && i < xs->nticks; i++) {
		double v = xs->lo + i * xs->step, x = map(xs, v, r->x, r->x + r->w);
		cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
		cairo_move_to(cr, x, r->y);
		cairo_line_to(cr, x, r->y + r->h);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		text_at(cr, x, r->y + r->h + 16, 0.5,
			pic_h->fmt_tick(v, xs->step, buf, sizeof(buf)));
	}
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_rectangle(cr, r->x, r->y, r->w, r->h);
	cairo_stroke(cr);
	if (xlabel)
		text_at(cr, r->x + r->w / 2, r->y + r->h + 36, 0.5, xlabel);
	if (ylabel) {
		cairo_save(cr);
		cairo_translate(cr, r->x - 58, r->y + r->h / 2);
		cairo_rotate(cr, -M_PI / 2);
		text_at(cr, 0, 0, 0.5, ylabel);
		cairo_restore(cr);
	}
}

/* The points' labels where no two overlap and none covers a point (pic_host's placer):
 * beside the point when there is room, farther out with a leader line when not. */
static void scatter_labels(cairo_t *cr, const struct chart_scale *xs, const struct chart_scale *ys,
			   const struct rect *r, const struct chart_pt *pts, size_t n)
{
	struct chart_lbox *b = calloc(n ? n : 1, sizeof(*b));
	char(*text)[96] = calloc(n ? n : 1, sizeof(*text));
	cairo_font_extents_t fe;
	if (!b || !text) {
		free(b);
		free(text);
		return;
	}
	cairo_font_extents(cr, &fe);
	for (size_t i = 0; i < n; i++) {
		const struct chart_pt *q = &pts[i];
		cairo_text_extents_t te;
		snprintf(text[i], sizeof(text[i]), "%s%s", q->label,
			 q->mark ? " (cheapest within the budget)" : "");
		cairo_text_extents(cr, text[i], &te);
		b[i] = (struct chart_lbox){.ax = map(xs, q->x, r->x, r->x + r->w),
					   .ay = map(ys, q->y, r->y + r->h, r->y),
					   .w = te.x_advance,
					   .h = fe.ascent + fe.descent};
	}
	/* The plot and the margin above it (the title's band excluded). */
	struct chart_area area = {r->x + 2, PIC_TITLE_H, r->w - 4, r->y + r->h - PIC_TITLE_H - 2};
	pic_h->place_labels(b, n, &area, CHART_PLACE_AROUND);
	for (size_t i = 0; i < n; i++) {
		if (!b[i].shown)
			continue;
		if (b[i].moved) {
			/* A leader from the point to the nearer end of its label. */
			double lx = b[i].x + b[i].w < b[i].ax ? b[i].x + b[i].w
				    : b[i].x > b[i].ax	      ? b[i].x
							      : b[i].ax;
			double ly = b[i].y + b[i].h / 2;
			cairo_set_source_rgba(cr, 0.4, 0.4, 0.4, 0.8);
			cairo_set_line_width(cr, 0.8);
			cairo_move_to(cr, b[i].ax, b[i].ay);
			cairo_line_to(cr, lx, ly);
			cairo_stroke(cr);
		}
		cairo_set_source_rgb(cr, 0, 0, 0);
		cairo_move_to(cr, b[i].x, b[i].y + fe.ascent);
		cairo_show_text(cr, text[i]);
	}
	free(b);
	free(text);
}

static int pic_scatter(const struct pic_host *h, bool svg, const char *title, const char *note,
		       const char *xlabel, const char *ylabel, const struct chart_pt *pts, size_t n,
		       char *err, size_t errlen)
{
	struct pic p;
	struct chart_scale xs, ys;
	double xmax = 0, ymax = 0;

	if (pic_open(&p, h, svg, PIC_W, PIC_SCATTER_H, err, errlen) != 0)
		return -1;
	cairo_t *cr = p.cr;
	for (size_t i = 0; i < n; i++) {
		double xh = isfinite(pts[i].x_hi) ? pts[i].x_hi : pts[i].x;
		double yh = isfinite(pts[i].y_hi) ? pts[i].y_hi : pts[i].y;
		xmax = xh > xmax ? xh : xmax;
		ymax = yh > ymax ? yh : ymax;
	}
	/* Room above and right of the highest point for its label. */
	pic_h->scale_make(0, xmax * 1.08, 8, 0, &xs);
	pic_h->scale_make(0, ymax * 1.1, 6, 0, &ys);
	struct rect r = {PIC_MARGIN_L, PIC_TITLE_H + 10, PIC_W - PIC_MARGIN_L - PIC_MARGIN_R,
			 PIC_SCATTER_H - PIC_TITLE_H - 10 - PIC_MARGIN_B};
	title_draw(cr, title, note);
	axes_draw(cr, &r, &ys, &xs, xlabel, ylabel);
	for (size_t i = 0; i < n; i++) {
		const struct chart_pt *q = &pts[i];
		double x = map(&xs, q->x, r.x, r.x + r.w), y = map(&ys, q->y, r.y + r.h, r.y);
		/* The spread over passes: min to max in each direction. */
		cairo_set_source_rgba(cr, 0.2, 0.3, 0.7, 0.6);
		cairo_set_line_width(cr, 1.5);
		if (isfinite(q->y_lo) && isfinite(q->y_hi)) {
			cairo_move_to(cr, x, map(&ys, q->y_lo, r.y + r.h, r.y));
			cairo_line_to(cr, x, map(&ys, q->y_hi, r.y + r.h, r.y));
			cairo_stroke(cr);
		}
		if (isfinite(q->x_lo) && isfinite(q->x_hi)) {
			cairo_move_to(cr, map(&xs, q->x_lo, r.x, r.x + r.w), y);
			cairo_line_to(cr, map(&xs, q->x_hi, r.x, r.x + r.w), y);
			cairo_stroke(cr);
		}
		if (q->failed) {
			cairo_set_source_rgb(cr, 0.85, 0.1, 0.1);
			cairo_set_line_width(cr, 3);
			cairo_move_to(cr, x - 7, y - 7);
			cairo_line_to(cr, x + 7, y + 7);
			cairo_move_to(cr, x - 7, y + 7);
			cairo_line_to(cr, x + 7, y - 7);
			cairo_stroke(cr);
		} else {
			if (q->mark)
				cairo_set_source_rgb(cr, 0.1, 0.6, 0.2);
			else
				cairo_set_source_rgb(cr, 0.15, 0.25, 0.75);
			cairo_arc(cr, x, y, q->mark ? 9 : 5, 0, 2 * M_PI);
			cairo_fill(cr);
		}
	}
	scatter_labels(cr, &xs, &ys, &r, pts, n);
	return pic_close(&p, err, errlen);
}

/* The bars' labels under their bars, a row lower where a neighbour's is in the way
 * (pic_host's placer), down to bottom; lb holds the anchors. */
static void bar_labels(cairo_t *cr, const struct chart_panel *pn, struct chart_lbox *lb,
		       double bottom)
{
	cairo_font_extents_t fe;
	cairo_font_extents(cr, &fe);
	for (size_t i = 0; i < pn->nbars; i++) {
		cairo_text_extents_t te;
		cairo_text_extents(cr, pn->bars[i].label, &te);
		lb[i].w = te.x_advance;
		lb[i].h = fe.ascent + fe.descent;
	}
	struct chart_area area = {2, lb[0].ay, PIC_W - 4, bottom - lb[0].ay};
	pic_h->place_labels(lb, pn->nbars, &area, CHART_PLACE_BELOW);
	cairo_set_source_rgb(cr, 0, 0, 0);
	for (size_t i = 0; i < pn->nbars; i++)
		if (lb[i].shown) {
			cairo_move_to(cr, lb[i].x, lb[i].y + fe.ascent);
			cairo_show_text(cr, pn->bars[i].label);
		}
	free(lb);
}

static int pic_bars(const struct pic_host *h, bool svg, const char *title,
		    const struct chart_panel *panels, size_t npanels, char *err, size_t errlen)
{
	struct pic p;
	int height = PIC_TITLE_H + (int)npanels * PIC_PANEL_H;

	if (pic_open(&p, h, svg, PIC_W, height, err, errlen) != 0)
		return -1;
	cairo_t *cr = p.cr;
	title_draw(cr, title, NULL);
	for (size_t k = 0; k < npanels; k++) {
		const struct chart_panel *pn = &panels[k];
		struct chart_scale ys;
		double top = 0, bottom = 0;
		for (size_t i = 0; i < pn->nbars; i++) {
			top = pn->bars[i].hi > top ? pn->bars[i].hi : top;
			bottom = pn->bars[i].lo < bottom ? pn->bars[i].lo : bottom;
		}
		if (pn->counts && bottom >= 0)
			pic_h->scale_counts(top * 1.05, 5, &ys);
		else
			pic_h->scale_make(bottom, top * 1.05, 5, 0, &ys);
		double y0 = PIC_TITLE_H + (double)k * PIC_PANEL_H;
		struct rect r = {PIC_MARGIN_L, y0 + 26, PIC_W - PIC_MARGIN_L - PIC_MARGIN_R,
				 PIC_PANEL_H - 26 - 40};
		cairo_set_source_rgb(cr, 0, 0, 0);
		text_at(cr, r.x, y0 + 18, 0, pn->title);
		axes_draw(cr, &r, &ys, NULL, NULL, NULL);
		double slot = pn->nbars ? r.w / (double)pn->nbars : r.w, bw = slot * 0.6;
		struct chart_lbox *lb = calloc(pn->nbars ? pn->nbars : 1, sizeof(*lb));
		if (!lb) {
			pic_close(&p, err, errlen);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (bw > 80)
			bw = 80;
		for (size_t i = 0; i < pn->nbars; i++) {
			const struct chart_bar *b = &pn->bars[i];
			double cx = r.x + slot * ((double)i + 0.5);
			double ymid = map(&ys, b->mid, r.y + r.h, r.y),
			       ybase = map(&ys, 0, r.y + r.h, r.y);
			cairo_set_source_rgb(cr, 0.3, 0.45, 0.8);
			cairo_rectangle(cr, cx - bw / 2, ymid < ybase ? ymid : ybase, bw,
					fabs(ybase - ymid));
			cairo_fill(cr);
			if (b->lo != b->mid || b->hi != b->mid) {
				/* MIN to MAX as a whisker with caps; AVG is the bar's top. */
				double ylo = map(&ys, b->lo, r.y + r.h, r.y),
				       yhi = map(&ys, b->hi, r.y + r.h, r.y);
				cairo_set_source_rgb(cr, 0, 0, 0);
				cairo_set_line_width(cr, 2);
				cairo_move_to(cr, cx, ylo);
				cairo_line_to(cr, cx, yhi);
				cairo_move_to(cr, cx - bw / 4, ylo);
				cairo_line_to(cr, cx + bw / 4, ylo);
				cairo_move_to(cr, cx - bw / 4, yhi);
				cairo_line_to(cr, cx + bw / 4, yhi);
				cairo_stroke(cr);
			}
			lb[i] = (struct chart_lbox){.ax = cx, .ay = r.y + r.h + 4};
		}
		bar_labels(cr, pn, lb, y0 + PIC_PANEL_H);
	}
	return pic_close(&p, err, errlen);
}

const struct pic_module tunetop_pic_module = {
    .abi = PIC_MODULE_ABI,
    .scatter = pic_scatter,
    .bars = pic_bars,
};

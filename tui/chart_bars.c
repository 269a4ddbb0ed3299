/* SPDX-License-Identifier: GPL-2.0-or-later */
/* chart_bars.c: horizontal bar charts of a histogram: trimming, scale, labels, glyphs. */
#include "tui/chart_bars.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* " 100.0%": the share column after the count. */
#define CHART_BARS_SHARE_W 7

void chart_bars_make(const uint64_t *count, int n, struct chart_bars *b)
{
	memset(b, 0, sizeof(*b));
	b->first = 0;
	b->last = -1;
	for (int i = 0; i < n; i++) {
		if (!count[i])
			continue;
		if (b->last < 0)
			b->first = i;
		b->last = i;
		b->total += count[i];
		if (count[i] > b->max)
			b->max = count[i];
	}
	b->nrows = b->last < 0 ? 0 : b->last - b->first + 1;
	char d[24];
	b->count_w = snprintf(d, sizeof(d), "%" PRIu64, b->max);
}

int chart_bars_eighths(uint64_t c, uint64_t max, int w)
{
	if (!c || !max || w <= 0)
		return 0;
	/* Rounded to the nearest eighth: long double keeps 64-bit counts exact enough. */
	int e = (int)((long double)c * (long double)(8 * w) / (long double)max + 0.5L);
	return e < 1 ? 1 : e > 8 * w ? 8 * w : e;
}

/* U+2588 FULL BLOCK, then U+2589..U+258F: seven eighths down to one eighth. */
static const char *const bar_part[8] = {"",	  "\u258f", "\u258e", "\u258d",
					"\u258c", "\u258b", "\u258a", "\u2589"};

const char *chart_bars_text(int eighths, int w, bool ascii, char *buf, size_t len)
{
	size_t at = 0;
	int cells = 0;
	if (!len)
		return buf;
	buf[0] = '\0';
	if (ascii) {
		int full = (eighths + 4) / 8;
		if (eighths > 0 && full == 0)
			full = 1;
		for (; cells < full && cells < w && at + 1 < len; cells++)
			buf[at++] = '#';
	} else {
		for (; cells < eighths / 8 && cells < w && at + 3 < len; cells++)
			at += (size_t)snprintf(buf + at, len - at, "\u2588");
		if (eighths % 8 && cells < w && at + 3 < len) {
			at += (size_t)snprintf(buf + at, len - at, "%s", bar_part[eighths % 8]);
			cells++;
		}
	}
	for (; cells < w && at + 1 < len; cells++)
		buf[at++] = ' ';
	buf[at] = '\0';
	return buf;
}

const char *chart_bars_label(const uint64_t *edge, int i, char *buf, size_t len)
{
	if (edge[i] == CHART_BARS_OPEN)
		snprintf(buf, len, "> %" PRIu64, i > 0 ? edge[i - 1] : 0);
	else
		snprintf(buf, len, "<= %" PRIu64, edge[i]);
	return buf;
}

int chart_bars_bar_w(const struct chart_bars *b, int cols)
{
	int w = cols - CHART_BARS_LABEL_W - 1 - 1 - b->count_w - CHART_BARS_SHARE_W;
	return w < CHART_BARS_MIN_W ? CHART_BARS_MIN_W : w;
}

int chart_bars_columns(const struct chart_bars *b, int cols, int rows)
{
	int half = cols / 2 - 1; /* a blank between the two */
	if (b->nrows <= rows ||
	    half - CHART_BARS_LABEL_W - 1 - 1 - b->count_w - CHART_BARS_SHARE_W < CHART_BARS_MIN_W)
		return 1;
	return 2;
}

const char *chart_bars_row(const struct chart_bars *b, const uint64_t *edge, const uint64_t *count,
			   int r, int cols, bool ascii, char *buf, size_t len)
{
	char label[32], bar[3 * 512 + 1], tail[48];
	int i = b->first + r, w = chart_bars_bar_w(b, cols);
	if (w > 512)
		w = 512;
	if (!len)
		return buf;
	buf[0] = '\0';
	if (r < 0 || r >= b->nrows)
		return buf;
	chart_bars_label(edge, i, label, sizeof(label));
	chart_bars_text(chart_bars_eighths(count[i], b->max, w), w, ascii, bar, sizeof(bar));
	snprintf(tail, sizeof(tail), " %*" PRIu64 " %5.1f%%", b->count_w, count[i],
		 b->total ? 100.0 * (double)count[i] / (double)b->total : 0.0);
	/* Columns, not bytes: a bar cell is one column and up to three bytes. */
	char whole[sizeof(label) + sizeof(bar) + sizeof(tail) + 2];
	snprintf(whole, sizeof(whole), "%*s %s%s", CHART_BARS_LABEL_W, label, bar, tail);
	int need = CHART_BARS_LABEL_W + 1 + w + (int)strlen(tail);
	bool cut = need > cols;
	int room = cut ? cols - 1 : cols; /* the last column holds the marker */
	size_t at = 0;
	int col = 0;
	for (const char *p = whole; *p && col < room; col++) {
		size_t n = (unsigned char)*p < 0x80 ? 1 : 3; /* ' ', '#', a digit or a block */
		if (at + n + 2 > len)
			break;
		memcpy(buf + at, p, n);
		at += n;
		p += n;
	}
	if (cut && at + 1 < len)
		buf[at++] = '>';
	buf[at] = '\0';
	return buf;
}

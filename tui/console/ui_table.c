/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_table.c: the per-thread table: sort, filter, search, cursor, drawing. */
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "tui/rowfmt.h"
#include "tui/console/ui.h"

static const char *const sort_names[SORT_COUNT] = {"TID",  "NAME", "SUBSYS", "CPU",
						   "CPU%", "S",	   "RUNQ%"};

const char *ui_sort_name(enum ui_sort s)
{
	return (unsigned)s < SORT_COUNT ? sort_names[s] : "?";
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct ui *ui = arg;
	const struct snap_thread *a = &ui->snap->threads[*(const size_t *)pa];
	const struct snap_thread *b = &ui->snap->threads[*(const size_t *)pb];
	int r = 0;

	/* The tree (F5): grouped by subsystem, each group in the sort column's order. */
	if (ui->tree && a->subsys != b->subsys)
		return (a->subsys > b->subsys) - (a->subsys < b->subsys);
	switch (ui->sort) {
	case SORT_TID:
		r = (a->tid > b->tid) - (a->tid < b->tid);
		break;
	case SORT_NAME:
		r = strcmp(a->name, b->name);
		break;
	case SORT_SUBSYS:
		r = (a->subsys > b->subsys) - (a->subsys < b->subsys);
		break;
	case SORT_CPU:
		r = (a->emu_cpu > b->emu_cpu) - (a->emu_cpu < b->emu_cpu);
		break;
	case SORT_PCT:
		r = (a->cpu_pct > b->cpu_pct) - (a->cpu_pct < b->cpu_pct);
		break;
	case SORT_STATE:
		r = (a->state > b->state) - (a->state < b->state);
		break;
	case SORT_RUNQ:
		r = (a->runq_delay_pct > b->runq_delay_pct) -
		    (a->runq_delay_pct < b->runq_delay_pct);
		break;
	default:
		break;
	}
	if (!ui->sort_asc)
		r = -r;
	/* Ties by tid, so equal rows never swap places between frames. */
	return r ? r : (a->tid > b->tid) - (a->tid < b->tid);
}

static bool row_matches(const struct snapshot *s, const struct snap_thread *t, const char *text)
{
	return !text[0] || strcasestr(t->name, text) || strcasestr(rowfmt_thread_group(s, t), text);
}

void ui_table_rebuild(struct ui *ui)
{
	const struct snapshot *s = ui->snap;

	if (ui->rows_cap < s->nthreads) {
		ui->rows_cap = s->nthreads + 64;
		ui->rows = xrealloc(ui->rows, ui->rows_cap * sizeof(*ui->rows));
	}
	ui->nrows = 0;
	for (size_t i = 0; i < s->nthreads; i++)
		if (row_matches(s, &s->threads[i], ui->filter))
			ui->rows[ui->nrows++] = i;
	if (ui->nrows) /* no rows yet (a remote host before its first snapshot): rows is NULL */
		qsort_r(ui->rows, ui->nrows, sizeof(*ui->rows), cmp_rows, ui);
	/* The cursor follows its thread, as in htop. */
	ui->sel = ui->nrows ? (ui->sel < (int)ui->nrows ? ui->sel : (int)ui->nrows - 1) : 0;
	for (size_t i = 0; i < ui->nrows && ui->sel_tid; i++)
		if (s->threads[ui->rows[i]].tid == ui->sel_tid)
			ui->sel = (int)i;
}

/* Move the cursor to the next row (from `from`) whose name matches the search. */
static void search_next(struct ui *ui, int from)
{
	for (size_t k = 0; k < ui->nrows; k++) {
		int i = (int)((size_t)(from + (int)k) % ui->nrows);
		if (row_matches(ui->snap, &ui->snap->threads[ui->rows[i]], ui->search)) {
			ui->sel = i;
			return;
		}
	}
	ui_status(ui, true, "no thread matches '%s'", ui->search);
}

int ui_table_key(struct ui *ui, int ch, int page)
{
	int n = (int)ui->nrows;
	switch (ch) {
	case KEY_UP:
		ui->sel--;
		break;
	case KEY_DOWN:
		ui->sel++;
		break;
	case KEY_PPAGE:
		ui->sel -= page;
		break;
	case KEY_NPAGE:
		ui->sel += page;
		break;
	case KEY_HOME:
		ui->sel = 0;
		break;
	case KEY_END:
		ui->sel = n - 1;
		break;
	case '<':
	case ',':
		ui->sort = (ui->sort + SORT_COUNT - 1) % SORT_COUNT;
		ui_status(ui, false, "sort by %s", ui_sort_name(ui->sort));
		return UI_REBUILD | UI_REDRAW;
	case '>':
	case '.':
	case KEY_F(6):
		ui->sort = (ui->sort + 1) % SORT_COUNT;
		ui_status(ui, false, "sort by %s", ui_sort_name(ui->sort));
		return UI_REBUILD | UI_REDRAW;
	case 'I':
		ui->sort_asc = !ui->sort_asc;
		ui_status(ui, false, "sort by %s %s", ui_sort_name(ui->sort),
			  ui->sort_asc ? "ascending" : "descending");
		return UI_REBUILD | UI_REDRAW;
	case 'n':
	case KEY_F(3):
		if (ui->search[0])
			search_next(ui, ui->sel + 1);
		break;
	default:
		return 0;
	}
	if (ui->sel >= n)
		ui->sel = n - 1;
	if (ui->sel < 0)
		ui->sel = 0;
	ui->sel_tid = n ? ui->snap->threads[ui->rows[ui->sel]].tid : 0;
	return UI_REDRAW;
}

void ui_table_search(struct ui *ui)
{
	if (ui->search[0] && ui->nrows) {
		search_next(ui, ui->sel);
		ui->sel_tid = ui->snap->threads[ui->rows[ui->sel]].tid;
	}
}

static enum theme_role subsys_role(enum subsys s)
{
	return s == SUBSYS_EST	 ? ROLE_EST
	       : s == SUBSYS_PMD ? ROLE_PMD
	       : s == SUBSYS_BLK ? ROLE_BLK
				 : ROLE_NORMAL;
}

/* The tree's row i: its name indented under its subsystem ("|- ", the group's last "`- "),
 * ASCII so the byte offsets the columns are coloured by stay the screen's. */
static void tree_indent(const struct ui *ui, int i, char *buf)
{
	int x = rowfmt_col_x[1], w = rowfmt_col_x[2] - x - 1;
	if ((int)strlen(buf) < x + w)
		return;
	const struct snap_thread *t = &ui->snap->threads[ui->rows[i]];
	bool last =
	    i + 1 >= (int)ui->nrows || ui->snap->threads[ui->rows[i + 1]].subsys != t->subsys;
	memmove(buf + x + 3, buf + x, (size_t)(w - 3));
	memcpy(buf + x, last ? "`- " : "|- ", 3);
}

void ui_table_draw(struct ui *ui, int y, int h)
{
	char buf[512];
	static const enum ui_sort col_sort[ROWFMT_NCOLS] = {SORT_TID,  SORT_NAME, SORT_SUBSYS,
							    SORT_CPU,  SORT_PCT,  SORT_STATE,
							    SORT_RUNQ, SORT_COUNT};
	if (h < 2)
		return;
	ui->table_y = y;
	ui_fill_line(ui, y, ROLE_TABLE_HEAD);
	for (int c = 0; c < ROWFMT_NCOLS; c++) {
		bool right = c == 0 || c == 3 || c == 4 || c == 6;
		int w = c + 1 < ROWFMT_NCOLS ? rowfmt_col_x[c + 1] - rowfmt_col_x[c] - 1 : 6;
		if (rowfmt_col_x[c] >= COLS)
			break;
		move(y, rowfmt_col_x[c]);
		ui_put(ui, col_sort[c] == ui->sort ? ROLE_TABLE_SORT : ROLE_TABLE_HEAD,
		       right ? "%*s" : "%-*s", w, rowfmt_head[c]);
	}
	int body = h - 1;
	if (ui->sel < ui->top)
		ui->top = ui->sel;
	if (ui->sel >= ui->top + body)
		ui->top = ui->sel - body + 1;
	if (ui->top > (int)ui->nrows - body)
		ui->top = (int)ui->nrows - body;
	if (ui->top < 0)
		ui->top = 0;
	for (int r = 0; r < body; r++) {
		int i = ui->top + r;
		if (i >= (int)ui->nrows)
			break;
		const struct snap_thread *t = &ui->snap->threads[ui->rows[i]];
		/* Whole: a row wider than the screen is cut by ui_put, with the marker (cut here
		 * at COLS, "sleep 1" of "sleep 12%" read as whole). */
		rowfmt_thread(ui->snap, t, buf, sizeof(buf), -1);
		if (ui->tree)
			tree_indent(ui, i, buf);
		if (i == ui->sel) {
			ui_fill_line(ui, y + 1 + r, ROLE_SELECTED);
			move(y + 1 + r, 0);
			ui_put(ui, ROLE_SELECTED, "%s", buf);
			continue;
		}
		/* One formatted row, coloured by column: the subsystem tag in its role. */
		int x2 = rowfmt_col_x[2], x3 = rowfmt_col_x[3];
		move(y + 1 + r, 0);
		ui_put(ui, ROLE_NORMAL, "%.*s", x2, buf);
		ui_put(ui, subsys_role(t->subsys), "%.*s", x3 - x2, buf + x2);
		ui_put(ui, t->cpu_pct < 0.05 ? ROLE_DIM : ROLE_NORMAL, "%s", buf + x3);
	}
	if (ui->nrows == 0) {
		move(y + 1, 0);
		ui_put(ui, ROLE_DIM,
		       ui->filter[0] ? "no thread matches the filter '%s' (\\ to change)"
				     : "no threads%s",
		       ui->filter);
	}
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_fleet.c: the fleet view (view 0 with two or more --remote): one row per host, its link
 * and the figures a tuning session compares; Enter dives into a host, Esc comes back. */
#include <string.h>

#include "tui/rowfmt.h"
#include "tui/console/ui.h"

bool ui_fleet_active(const struct ui *ui)
{
	return source_fleet_count(ui->src) >= 2;
}

const char *ui_fleet_host(const struct ui *ui)
{
	struct fleet_row r;
	if (!ui_fleet_active(ui) || ui->fleet ||
	    !source_fleet_row(ui->src, source_fleet_selected(ui->src), &r))
		return NULL;
	return r.name;
}

static const char *state_name(enum fleet_state s)
{
	return s == FLEET_UP ? "up" : s == FLEET_DOWN ? "down" : "conn";
}

/* The HOST column's width: with the others, a row is 80 columns, so AGE shows at 80x24. */
#define FLEET_HOST_W 13

/* A host's name in its column, padded; a longer one cut with the marker, never silently. */
static const char *host_cell(const struct ui *ui, const char *name, char *buf, size_t len)
{
	if (strlen(name) <= FLEET_HOST_W)
		snprintf(buf, len, "%-*s", FLEET_HOST_W, name);
	else
		snprintf(buf, len, "%.*s%s", FLEET_HOST_W - 1, name, ui->ascii ? "~" : "\u2026");
	return buf;
}

void ui_fleet_draw(struct ui *ui, int y, int h)
{
	int sel = source_fleet_selected(ui->src);
	struct fleet_row r;
	char a[16], b[16], line[256], host[FLEET_HOST_W + 8];

	move(y, 0);
	attrset(ui->attr[ROLE_TABLE_HEAD]);
	mvhline(y, 0, ' ', COLS);
	ui_put(ui, ROLE_TABLE_HEAD, "%-*s %-4s %-11s %-14s %6s %6s %7s %6s %5s", FLEET_HOST_W,
	       "HOST", "LINK", "GOVERNOR", "EST TICK/GOAL", "DROP%", "PMDCPU", "BLKP99", "MSLPus",
	       "AGE");
	for (int i = 0; source_fleet_row(ui->src, i, &r) && i + 1 < h; i++) {
		const struct snapshot *s = r.snap;
		enum theme_role role = i == sel ? ROLE_SELECTED : ROLE_NORMAL;
		move(y + 1 + i, 0);
		if (i == sel)
			mvhline(y + 1 + i, 0, ' ' | ui->attr[ROLE_SELECTED], COLS);
		if (r.state == FLEET_DOWN || !s) {
			snprintf(line, sizeof(line), "%s %-4s %s%s",
				 host_cell(ui, r.name, host, sizeof(host)), state_name(r.state),
				 r.state == FLEET_DOWN ? r.reason
						       : "waiting for the first snapshot",
				 "");
			ui_put(ui, r.state == FLEET_DOWN && i != sel ? ROLE_ERROR : role, "%s",
			       line);
			if (r.state == FLEET_DOWN && r.retry_in_s >= 0) /* < 0: never again */
				ui_put(ui, role, " (retry in %.0fs)", r.retry_in_s);
			continue;
		}
		char tick[32] = "-", drop[16] = "-", cpu[16] = "-", p99[16] = "-", ms[16] = "-";
		if (s->has_est)
			snprintf(tick, sizeof(tick), "%s/%s",
				 rowfmt_ns(s->est.tick_ns_avg, a, sizeof(a)),
				 rowfmt_ns(UI_EST_TICK_GOAL_NS, b, sizeof(b)));
		if (s->has_pmd) {
			snprintf(drop, sizeof(drop), "%.2f", s->pmd.drop_pct);
			if (s->pmd.nthreads > 0)
				snprintf(cpu, sizeof(cpu), "%.1f", s->pmd.threads[0].cpu_pct);
			snprintf(ms, sizeof(ms), "%lld", (long long)s->knobs[K_PMD_MAXSLEEP_US]);
		}
		if (s->has_blk && !snapshot_absent(s, "blk.lat_us"))
			snprintf(p99, sizeof(p99), "%.0fus", s->blk.lat_p99_us);
		ui_put(ui, role, "%s %-4s %-11.11s %-14.14s %6s %6s %7s %6s %4.1fs",
		       host_cell(ui, r.name, host, sizeof(host)), state_name(r.state),
		       snapshot_governor_name(s), tick, drop, cpu, p99, ms, r.age_s);
	}
}

int ui_fleet_key(struct ui *ui, int ch)
{
	int n = source_fleet_count(ui->src), sel = source_fleet_selected(ui->src);
	switch (ch) {
	case KEY_UP:
		sel = sel > 0 ? sel - 1 : 0;
		break;
	case KEY_DOWN:
		sel = sel + 1 < n ? sel + 1 : n - 1;
		break;
	case KEY_HOME:
		sel = 0;
		break;
	case KEY_END:
		sel = n - 1;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		ui->fleet = false;
		ui->view = VIEW_OVERVIEW;
		ui_status(ui, false, "host %d; Esc or 0: the fleet", sel + 1);
		return UI_RESAMPLE | UI_REDRAW;
	default:
		return 0;
	}
	/* The cursor's host is the one knob keys act on, and the one the header shows. */
	source_fleet_select(ui->src, sel);
	return UI_RESAMPLE | UI_REDRAW;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_header.c: the title line, one meter per CPU (the engine's say emulated), one line per
 * running subsystem. */
#include <string.h>

#include "tui/rowfmt.h"
#include "tui/rowfmt_host.h"
#include "tui/rowfmt_cost.h"
#include "tui/console/ui.h"

/* At most this many rows of CPU meters; the rest are summed into one meter. */
#define UI_METER_ROWS_MAX 4

/* A knob's value in the header: highlighted while it flashes. */
static void put_knob(struct ui *ui, enum knob_id id, const char *suffix)
{
	char v[64];
	ui_knob_text(ui, id, v, sizeof(v));
	ui_put(ui, ui_flashing(ui, id) ? ROLE_FLASH : ROLE_VALUE, "%s", v);
	ui_put(ui, ROLE_NORMAL, "%s", suffix);
}

/* " maxsleep 1000us": the value in force, beside what ovsdb holds when OVS applies something
 * else, and a write ovs-vswitchd has not taken yet. */
static void maxsleep_put(struct ui *ui)
{
	char od[80];
	ui_put(ui, ROLE_NORMAL, " maxsleep ");
	put_knob(ui, K_PMD_MAXSLEEP_US, "");
	if (!ui->snap->knob_absent[K_PMD_MAXSLEEP_US]) /* "-", not "-us" */
		ui_put(ui, ROLE_VALUE, "us");
	if (rowfmt_host_maxsleep_ovsdb(ui->snap, od, sizeof(od)))
		ui_put(ui, ROLE_WARN, " (ovsdb %s)", od);
	if (ui->pending[K_PMD_MAXSLEEP_US] > 0)
		ui_put(ui, ROLE_WARN, " (setting %lld...)",
		       (long long)ui->pending_v[K_PMD_MAXSLEEP_US]);
}

static enum theme_role load_role(double pct)
{
	return pct >= 80 ? ROLE_BAR_HIGH : pct >= 50 ? ROLE_BAR_MID : ROLE_BAR_LOW;
}

/* htop's meter: "0[|||||      23.4% 3000MHz]" in w columns; the engine's CPUs say
 * "emulated" in it (docs/reference.md "The console"), as an htop user reads a meter as the
 * machine's. The words go first when the meter is narrow, the frequency next. */
static void meter_draw(struct ui *ui, int y, int x, int w, const char *label, double pct,
		       unsigned mhz, const char *what)
{
	char text[48];
	int lw = (int)strlen(label);
	int inner = w - lw - 2;

	if (inner < 4)
		return;
	if (mhz || !*what || strcmp(what, " machine") != 0)
		snprintf(text, sizeof(text), "%.1f%% %uMHz%s", pct, mhz, what);
	else /* the machine's CPUs without cpufreq: no MHz to show */
		snprintf(text, sizeof(text), "%.1f%%%s", pct, what);
	if ((int)strlen(text) > inner)
		snprintf(text, sizeof(text), "%.1f%%%s", pct, what);
	if ((int)strlen(text) > inner)
		snprintf(text, sizeof(text), "%.0f%%", pct);
	int tl = (int)strlen(text);
	int bars = (int)(pct / 100.0 * inner + 0.5);
	if (bars > inner)
		bars = inner;
	move(y, x);
	ui_put(ui, ROLE_LABEL, "%s", label);
	ui_put(ui, ROLE_NORMAL, "[");
	for (int i = 0; i < inner; i++) {
		int ti = i - (inner - tl);
		if (ti >= 0)
			ui_put(ui, ROLE_DIM, "%c", text[ti]);
		else if (i < bars)
			ui_put(ui, load_role(pct), "|");
		else
			ui_put(ui, ROLE_NORMAL, " ");
	}
	ui_put(ui, ROLE_NORMAL, "]");
}

/* Too many CPUs for meters: one cell per CPU, its load as a level (no averaging). */
static int cells_draw(struct ui *ui, int y, int rows)
{
	static const char ramp[] = " .:-=+*#%@";
	const struct snapshot *s = ui->snap;
	int per_row = COLS - 16, i = 0;

	for (int r = 0; r < rows && i < s->ncpus; r++) {
		int last = i + per_row < s->ncpus ? i + per_row - 1 : s->ncpus - 1;
		move(y + r, 0);
		ui_put(ui, ROLE_LABEL, "cpu %4d-%-4d", s->cpus[i].id, s->cpus[last].id);
		ui_put(ui, ROLE_NORMAL, "[");
		for (; i <= last; i++) {
			double pct = s->cpus[i].load_pct;
			int lvl = (int)(pct / 100.0 * 9 + 0.5);
			lvl = lvl < 0 ? 0 : lvl > 9 ? 9 : lvl;
			if (lvl == 0 && pct >= 1.0)
				lvl = 1; /* busy at all: never drawn as idle */
			ui_put(ui, load_role(pct), "%c", ramp[lvl]);
		}
		ui_put(ui, ROLE_NORMAL, "]");
	}
	if (i < s->ncpus) {
		move(y + rows - 1, COLS - 10);
		ui_put(ui, ROLE_DIM, "+%d more", s->ncpus - i);
	}
	return rows;
}

/* A meter per CPU, in columns; on the engine '#' shows the machine's own CPUs (snapshot.h
 * machine[]) in place of the emulated ones, said so in each meter. Too many emulated CPUs go
 * into cells; a big machine shows its first CPUs and "+N more". */
static int meters_draw(struct ui *ui, int y)
{
	const struct snapshot *s = ui->snap;
	bool mach = ui->meters_machine && !s->has_host && s->machine_ncpus > 0;
	int n = mach ? s->machine_ncpus : s->ncpus, ncol = n <= 1 ? 1 : COLS >= 160 ? 4 : 2;
	int rows = (n + ncol - 1) / ncol, maxrows = LINES >= 30 ? UI_METER_ROWS_MAX : 2;
	int colw = COLS / ncol;
	const char *what = mach ? " machine" : s->has_host ? "" : " emulated";
	char label[16];

	if (!mach && n > ncol * maxrows) {
		int need = (n + COLS - 17) / (COLS - 16);
		return cells_draw(ui, y, need < maxrows ? need : maxrows);
	}
	if (rows > maxrows)
		rows = maxrows;
	for (int i = 0; i < n && i < rows * ncol; i++) {
		snprintf(label, sizeof(label), "%3d", mach ? i : s->cpus[i].id);
		meter_draw(ui, y + i / ncol, (i % ncol) * colw, colw - 1, label,
			   mach ? s->machine[i].load_pct : s->cpus[i].load_pct,
			   mach ? s->machine[i].freq_mhz : s->cpus[i].freq_mhz, what);
	}
	if (n > rows * ncol) {
		move(y + rows - 1, COLS - 10);
		ui_put(ui, ROLE_DIM, "+%d more", n - rows * ncol);
	}
	return rows;
}

/* A host's est: its kernel's kthreads against the 1/8 goal, and chain_max where the kernel
 * logged it (docs/est.md "The est view on a host"); what the kernel does not expose is not
 * drawn. */
static void est_host_line(struct ui *ui, int y)
{
	const struct est_snap *e = &ui->snap->est;
	double max = 0;
	for (int i = 0; i < e->nkt; i++)
		max = e->kt[i].cpu_pct > max ? e->kt[i].cpu_pct : max;
	move(y, 0);
	ui_put(ui, ROLE_EST, "est ");
	ui_put(ui, ROLE_NORMAL, "kthreads %d  busiest ", e->kthreads);
	ui_put(ui, max > EST_KTHREAD_GOAL_PCT ? ROLE_WARN : ROLE_VALUE, "%.1f%%", max);
	ui_put(ui, ROLE_NORMAL, " / goal %.1f%%  chain_max ", EST_KTHREAD_GOAL_PCT);
	if (snapshot_absent(ui->snap, "est.chain_max"))
		ui_put(ui, ROLE_DIM, "-");
	else
		ui_put(ui, ROLE_VALUE, "%d (kernel log)", e->chain_max);
}

static void est_line(struct ui *ui, int y)
{
	const struct est_snap *e = &ui->snap->est;
	char a[16], b[16], c[16];

	if (ui->snap->has_host) {
		est_host_line(ui, y);
		return;
	}
	move(y, 0);
	ui_put(ui, ROLE_EST, "est ");
	put_knob(ui, K_EST_COUNT, " ests ");
	ui_put(ui, ROLE_NORMAL, "kt %d/%d chain_max %d tick ", e->kthreads, e->max_threads,
	       e->chain_max);
	rowfmt_ns(e->tick_ns_avg, a, sizeof(a));
	ui_put(ui, e->tick_ns_max > UI_EST_TICK_GOAL_NS ? ROLE_WARN : ROLE_VALUE, "%s", a);
	ui_put(ui, ROLE_NORMAL, " max %s / goal %s", rowfmt_ns(e->tick_ns_max, b, sizeof(b)),
	       rowfmt_ns(UI_EST_TICK_GOAL_NS, c, sizeof(c)));
}

static void pmd_line(struct ui *ui, int y)
{
	const struct pmd_snap *p = &ui->snap->pmd;
	char a[16];

	move(y, 0);
	ui_put(ui, ROLE_PMD, "pmd ");
	if (p->hung)
		ui_put(ui, ROLE_ERROR, "HUNG ");
	/* Only when it matters: the time the host took is why offered misses the target.
	 * First, in place of offered and the source's rate, so that it shows whole at 80
	 * columns, in its short form ("offered 17.9k/20.0k"), so that the knobs after it fit
	 * there too; the pmd view says it in full. */
	char ht[80];
	bool took = rowfmt_host_took_short(p, ht, sizeof(ht)) != NULL;
	if (took)
		ui_put(ui, ROLE_WARN, "%s", ht);
	else
		ui_put(ui, ROLE_VALUE, "%s", rowfmt_count(p->offered_pps, a, sizeof(a)));
	if (took && !snapshot_absent(ui->snap, "pmd.gen_rate_pps")) {
		ui_put(ui, ROLE_NORMAL, " drop ");
		ui_put(ui, p->drop_pct > 0.1 ? ROLE_ERROR : ROLE_VALUE, "%.2f%%", p->drop_pct);
	} else if (took) {
		/* A live OVS: no drop counter of tunetop's own. */
	} else if (snapshot_absent(ui->snap, "pmd.gen_rate_pps")) {
		/* A live OVS: no generator, no drop counter of tunetop's own. */
		ui_put(ui, ROLE_NORMAL, " pps");
	} else {
		ui_put(ui, ROLE_NORMAL, " pps (");
		put_knob(ui, K_GEN_RATE_PPS, "/src) drop ");
		ui_put(ui, p->drop_pct > 0.1 ? ROLE_ERROR : ROLE_VALUE, "%.2f%%", p->drop_pct);
	}
	maxsleep_put(ui);
	/* Whole or not at all from here: a knob's value cut at the edge reads as another value
	 * ("slack 5000..." for 50000). */
	char v[64], piece[160];
	ui_knob_text(ui, K_PMD_TIMER_SLACK_NS, v, sizeof(v));
	snprintf(piece, sizeof(piece), " slack %sns", v);
	if (!ui_fits_whole(ui, piece)) {
		ui_put_whole(ui, ROLE_NORMAL, "%s", piece); /* the marker */
		return;
	}
	ui_put(ui, ROLE_NORMAL, " slack ");
	put_knob(ui, K_PMD_TIMER_SLACK_NS, "ns");
	/* Each PMD's time asleep over the interval (not iterations: a 1 us and a
	 * 50 us sleep are one iteration each). */
	size_t at = (size_t)snprintf(piece, sizeof(piece), " asleep");
	for (int i = 0; i < p->nthreads && i < 4 && at < sizeof(piece); i++)
		at += (size_t)(p->threads[i].no_rate
				   ? snprintf(piece + at, sizeof(piece) - at, "%s-", i ? "/" : " ")
				   : snprintf(piece + at, sizeof(piece) - at, "%s%.0f%%",
					      i ? "/" : " ", p->threads[i].asleep_pct));
	ui_put_whole(ui, ROLE_NORMAL, "%s", piece);
}

static void blk_line(struct ui *ui, int y)
{
	const struct blk_snap *b = &ui->snap->blk;
	char a[16], c[16];

	move(y, 0);
	ui_put(ui, ROLE_BLK, "blk ");
	if (b->hung)
		ui_put(ui, ROLE_ERROR, "HUNG ");
	ui_put(ui, ROLE_NORMAL, "rq_affinity ");
	put_knob(ui, K_BLK_RQ_AFFINITY, " ");
	const struct snapshot *s = ui->snap;
	/* On the host some figures cannot be measured: "-", not a 0 never measured. */
	if (snapshot_absent(s, "blk.iops"))
		ui_put(ui, ROLE_VALUE, "-");
	else
		ui_put(ui, ROLE_VALUE, "%s", rowfmt_count(b->iops, a, sizeof(a)));
	ui_put(ui, ROLE_NORMAL, " IOPS p99 ");
	if (snapshot_absent(s, "blk.lat_us") || b->hung)
		ui_put(ui, b->hung ? ROLE_ERROR : ROLE_VALUE, "-");
	else
		ui_put(ui, ROLE_VALUE, "%.0fus", b->lat_p99_us);
	ui_put(ui, ROLE_NORMAL, " IPIs ");
	ui_put(ui, ROLE_VALUE, "%s/s", rowfmt_count(b->ipis_per_s, c, sizeof(c)));
	if (snapshot_absent(s, "blk.irq_cpu"))
		ui_put(ui, ROLE_NORMAL, " irq cpu -");
	else
		ui_put(ui, ROLE_NORMAL, " irq cpu %d", b->irq_cpu);
}

int ui_header_draw(struct ui *ui)
{
	const struct snapshot *s = ui->snap;
	int y = 0;

	char fl[64];

	ui_fill_line(ui, 0, ROLE_TITLE);
	move(0, 0);
	ui_put(ui, ROLE_TITLE, " tunetop %s  up %.0fs  ", TUNETOP_VERSION, s->uptime_s);
	/* Dived into one host of the fleet: which one the figures below are. */
	const char *host = ui_fleet_host(ui);
	if (host)
		ui_put(ui, ROLE_TITLE, "host %s  ", host);
	/* What the figures are: LIVE with the interval; a recording at its speed (REPLAY 4x),
	 * END OF RECORDING once it has played out (nothing moves any more; a speed would be
	 * stale), FOLLOWING under --follow (it plays what is appended as it comes, at no
	 * speed of its own, and waits for more: it never ends); or which kept sample. */
	if (ui->frozen)
		ui_put(ui, ROLE_WARN, "%s", ui_freeze_label(ui, fl, sizeof(fl)));
	else if (source_paced(ui->src) && ui->opt->follow)
		ui_put(ui, ROLE_TITLE, "FOLLOWING");
	else if (source_paced(ui->src) && ui->source_done)
		ui_put(ui, ROLE_TITLE, "END OF RECORDING");
	else if (source_paced(ui->src))
		ui_put(ui, ROLE_TITLE, "REPLAY %gx", ui->speed);
	else
		ui_put(ui, ROLE_TITLE, "LIVE %.2gs", ui->opt->delay_s);
	/* --record or --record-dir: every sample also goes to a file, which the screen says as
	 * atop's and a camera's REC do (docs/recording.md). */
	if (ui->rec)
		ui_put(ui, ROLE_WARN, "  REC");
	ui_put(ui, ROLE_TITLE, "  governor ");
	if (s->governor >= 0)
		put_knob(ui, K_CPU_GOVERNOR, "");
	else
		ui_put(ui, ROLE_TITLE, "%s", snapshot_governor_name(s));
	ui_put(ui, ROLE_TITLE, " (%s)%s",
	       s->governor_absent ? "no cpufreq" : snapshot_governor_source(s),
	       ui->paused ? "  [PAUSED]" : "");
	if (s->has_host && !ui->opt->write)
		ui_put(ui, ROLE_WARN, "  read-only (--write to change)");
	y = 1;
	y += meters_draw(ui, y);
	if (s->has_est)
		est_line(ui, y++);
	if (s->has_pmd) {
		pmd_line(ui, y++);
	} else if (s->has_host && s->host.ovs_socket[0] && s->host.ovs_error[0]) {
		/* An OVS that was found and fails now: its own reason, where the pmd line was. */
		move(y++, 0);
		ui_put(ui, ROLE_PMD, "pmd ");
		ui_put(ui, ROLE_ERROR, "Open vSwitch: %s", s->host.ovs_error);
		/* Samples go on while vswitchd does not answer (a write waits on a thread of
		 * its own): the max sleep it still runs with stays in sight. */
		if (!s->knob_absent[K_PMD_MAXSLEEP_US] || ui->pending[K_PMD_MAXSLEEP_US] > 0)
			maxsleep_put(ui);
	}
	if (s->has_blk)
		blk_line(ui, y++);
	return y;
}

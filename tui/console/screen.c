/* SPDX-License-Identifier: GPL-2.0-or-later */
/* screen.c: the console's main loop (htop-like): sample, rebuild rows, draw, wait for a key. */
#include "tui/console/screen.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/xalloc.h"
#include "tui/after.h"
#include "tui/sig.h"
#include "tui/console/ui.h"

/* A status message stays this long unless a newer one replaces it. */
#define UI_STATUS_NS (5 * NS_PER_S)

/* What follows every snapshot the console takes, whichever thread took it. */
static void ui_after_sample(struct ui *ui)
{
	struct snapshot *s = ui->live;

	/* Sampling goes on while frozen: into the live snapshot and the history. */
	ui->snap = s;
	if (ui->async) {
		/* The snapshot counts the sampler thread; the console's own thread adds its part.
		 */
		uint64_t t = clock_thread_ns();
		s->self.cpu_pct +=
		    snapshot_cpu_pct(t - ui->ui_cpu_ns, (uint64_t)(s->interval_s * 1e9));
		ui->ui_cpu_ns = t;
	}
	/* A recorded source's self figures are the recording console's or a remote host's
	 * agent's (debug_draw labels them): the console's own go beside them, this thread's (a
	 * recorded source never blocks, so it is sampled here; backends/source.h). */
	if (ui->src->ops->recorded) {
		uint64_t t = clock_thread_ns(), now = clock_mono_ns();
		if (ui->own_mono_ns)
			ui->own.cpu_pct =
			    snapshot_cpu_pct(t - ui->own_cpu_ns, now - ui->own_mono_ns);
		ui->own.render_us = ui->render_us;
		ui->own.tty_bytes = ui->tty.bytes - ui->tty_bytes_at_sample;
		ui->own.tty_bytes_per_s =
		    ui->own_mono_ns && now > ui->own_mono_ns
			? (double)ui->own.tty_bytes * 1e9 / (double)(now - ui->own_mono_ns)
			: 0;
		ui->own_cpu_ns = t;
		ui->own_mono_ns = now;
	}
	/* A recording's self figures are the recording console's: shown as they were. */
	if (!ui->src->ops->recorded) {
		s->self.render_us = ui->render_us;
		s->self.tty_bytes = ui->tty.bytes - ui->tty_bytes_at_sample;
		s->self.tty_bytes_per_s =
		    s->interval_s > 0 ? (double)s->self.tty_bytes / s->interval_s : 0;
	}
	ui->tty_bytes_at_sample = ui->tty.bytes;
	ui->now_ns = s->mono_ns;
	ui_knobs_refresh(ui);
	ui_events_note(ui);
	/* Its findings, the scrape text, the history and the recording (tui/after.h). */
	after_sample(ui->after, ui->src, s, false);
	ui_freeze_note(ui);
	ui_diag_note(ui); /* its findings, kept with the sample's history id */
	/* Last: it steps the `o` sweep, whose next writes patch this snapshot's knobs (the
	 * scrape and the recording above keep the values it was sampled with). */
	ui_hist_push(ui);
	if (ui->frozen)
		ui->snap = ui->frozen_snap;
}

static void ui_sample(struct ui *ui)
{
	if (!source_ready(ui->src))
		return; /* --follow: nothing new was appended yet */
	/* Every thread's run-queue delay only when it is shown (the thread table), kept (a
	 * recording's JSON) or served (--serve's thread series); the pmd view and the diag
	 * rules read the PMD and est threads'. */
	source_want_runq_all(ui->src, (!ui->fleet && ui->view == VIEW_OVERVIEW) || ui->rec ||
					  ui->opt->serve);
	source_sample(ui->src, ui->live);
	ui_after_sample(ui);
}

/* The sampler thread published something: the newest snapshot (sampling goes on while
 * frozen), then the knob results. The sampler is one thread, so a snapshot published
 * before a result was sampled before that write: the result's value goes on top of it,
 * and every later snapshot was sampled after the write. Returns redo flags. */
static int ui_async_take(struct ui *ui, long *taken)
{
	struct source_knob_result r;
	int redo = 0;
	if (source_async_take(ui->async, &ui->live)) {
		ui_after_sample(ui);
		(*taken)++;
		redo |= UI_REBUILD | UI_REDRAW;
	}
	while (source_async_result(ui->async, &r))
		redo |= ui_knob_result(ui, &r);
	return redo;
}

/* A status line that fades UI_STATUS_NS after it was set: not a question still open, nor
 * "setting X..." while the write is under way. */
static bool status_fades(const struct ui *ui)
{
	return ui->status[0] && !ui->confirm.open &&
	       !(ui->async && source_async_pending(ui->async) > 0);
}

/* When the next sample is due after one taken at now: the -d interval, or a recording's
 * own gap at the chosen speed (never, once it has played to its end). */
static uint64_t ui_next_due(struct ui *ui, uint64_t now, uint64_t delay)
{
	if (!source_paced(ui->src))
		return now + delay;
	double gap = source_pace_s(ui->src);
	if (gap < 0) {
		if (!ui->source_done)
			ui_status(ui, false,
				  "end of the recording: %zu samples kept ([ { to look back)",
				  ui->history.n);
		ui->source_done = true;
		return now + 3600 * NS_PER_S;
	}
	return now + (uint64_t)(gap / ui->speed * 1e9);
}

/*
 * Wait for input, a sample from the sampler thread, a quit signal or a resize, until deadline;
 * returns redo flags. Each has a descriptor (tui/sig.h), so an idle console wakes only when
 * something is due, as htop and top do. A remote source's notes come with none: with remote
 * hosts, or without the signal pipes, the wait is cut into slices to look for them.
 */
static int ui_wait(struct ui *ui, uint64_t deadline)
{
	uint64_t now = clock_mono_ns();
	int redo = 0, ch;

	if (now >= deadline)
		return 0;
	uint64_t ms = (deadline - now + NS_PER_MS - 1) / NS_PER_MS;
	struct pollfd pa[4] = {
	    {.fd = STDIN_FILENO, .events = POLLIN},
	    {.fd = ui->async ? source_async_fd(ui->async) : -1, .events = POLLIN},
	    {.fd = sig_quit_fd(), .events = POLLIN},
	    {.fd = sig_winch_fd(), .events = POLLIN}};
	struct pollfd *p = &pa[0];
	/* At EOF the input can only be waited out: poll no terminal, just the sampler. */
	if (ui->stdin_eof)
		pa[0].fd = -1;
	bool sliced = pa[2].fd < 0 || pa[3].fd < 0 || source_fleet_count(ui->src) > 0;
	if (sliced && ms > UI_POLL_SLICE_MS)
		ms = UI_POLL_SLICE_MS;
	if (ms > INT_MAX)
		ms = INT_MAX;
	int r = poll(pa, 4, (int)ms);
	if (r < 0)
		return errno == EINTR ? 0 : UI_QUIT;
	if (r == 0)
		return 0;
	if (pa[1].revents & POLLIN)
		redo |= UI_ASYNC;
	if (pa[3].revents & POLLIN) {
		sig_winch_drain();
		redo |= UI_RESIZE | UI_REDRAW;
	}
	if (!(p->revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
		return redo;
	if (p->revents & (POLLHUP | POLLERR | POLLNVAL)) {
		ui->tty.dead = true; /* the terminal went away (ssh dropped) */
		return UI_QUIT;
	}
	ui->now_ns = now = clock_mono_ns();
	if (!ui->key_ns)
		ui->key_ns = now;
	int keys = 0;
	while ((ch = getch()) != ERR) {
		keys++;
		redo |= ui_key(ui, ch);
		if (redo & UI_QUIT)
			break;
	}
	/* Readable yet nothing to read, again and again: input at EOF (not a terminal). */
	ui->stdin_idle = keys ? 0 : ui->stdin_idle + 1;
	if (!(redo & (UI_REDRAW | UI_RESIZE | UI_REBUILD)))
		ui->key_ns = 0; /* nothing to show for these keys */
	if (ui->stdin_idle > UI_STDIN_EOF_POLLS)
		ui->stdin_eof = true;
	return redo;
}

static void ui_setup_theme(struct ui *ui)
{
	struct theme_diag diag = {0};
	char err[512];
	const char *name = ui->opt->no_color ? "mono" : ui->opt->theme ? ui->opt->theme : "default";

	/* main.c already refused an unknown theme; here only the file's diagnostics matter. */
	if (theme_load(&ui->theme, name, &diag, err, sizeof(err)) != 0)
		theme_default(&ui->theme);
	if (diag.count)
		ui_status(ui, true, "theme %s; the default is used for %s", diag.msg[0],
			  diag.count > 1 ? "those lines" : "that line");
}

/* The loop's clock: when the next sample is due, and what fades. */
struct screen_clock {
	uint64_t delay, next;
	uint64_t status_set; /* when the status line shown was set */
	uint64_t flash_end; /* when the knobs flashing stop */
	long n; /* samples taken, for -n */
	char last_status[sizeof(((struct ui *)0)->status)];
};

/* The console on src, up to its first frame's data; NULL with *rc (said on stderr). */
static struct ui *screen_open(struct source *src, struct options *eff, int *rc)
{
	struct ui *ui = xcalloc(1, sizeof(*ui));
	char err[512];
	ui->src = src;
	ui->opt = eff;
	ui_setup_init(ui, eff);
	ui->snap = snapshot_new();
	ui_freeze_init(ui);
	ui->after = after_open(eff, rc);
	ui->rec = eff->record || eff->record_dir;
	setlocale(LC_ALL, "");
	if (ui->after) {
		after_keep_history(ui->after, &ui->history);
		ui_setup_theme(ui);
		if (ui_tty_open(ui, err, sizeof(err)) == 0)
			return ui;
		fprintf(stderr, "tunetop: %s\n", err);
		*rc = 1;
		after_close(ui->after);
	}
	ui_freeze_free(ui);
	snapshot_free(ui->snap);
	free(ui);
	return NULL;
}

/* After the loop: the terminal back, the source's threads stopped, what the run leaves
 * said; returns the exit status (a recording that failed fails the run, as in -b). */
static int screen_close(struct ui *ui)
{
	char err[512];
	int rc = 0;
	ui_tty_close(ui); /* the terminal back at once, even while a sample is under way */
	source_async_stop(ui->async); /* before the source closes: the sampler uses it */
	ui_tradeoff_quit(ui); /* a sweep cut short by q: its knobs back */
	ui_tune_quit(ui); /* a tuner run cut short by q: its start value back */
	if (ui_setup_save(ui, err, sizeof(err)) != 0)
		fprintf(stderr, "tunetop: settings not saved: %s\n", err);
	ui_setup_errors_print(ui); /* the settings file's bad lines, said again once visible */
	if (after_close(ui->after)) /* shown live by ui_freeze_note */
		rc = 1;
	ui_freeze_free(ui);
	snapshot_free(ui->snap);
	free(ui->rows);
	free(ui);
	return rc;
}

/* What the sampler thread, a resample and the source's notes bring; returns redo flags. */
static int screen_take(struct ui *ui, struct screen_clock *c, int redo)
{
	if (ui->async) {
		long before = c->n;
		if (redo & UI_ASYNC)
			redo |= ui_async_take(ui, &c->n);
		if ((redo & UI_RESAMPLE) && !ui->paused)
			source_async_poke(ui->async); /* resumed: a fresh one now */
		redo &= ~(UI_RESAMPLE | UI_KNOB | UI_ASYNC);
		if (ui->opt->iterations && c->n >= ui->opt->iterations && c->n > before)
			redo |= UI_LAST;
	}
	if ((redo & (UI_RESAMPLE | UI_KNOB)) && !ui->paused) {
		ui_sample(ui);
		if (source_paced(ui->src))
			c->next = ui_next_due(ui, clock_mono_ns(), c->delay);
		redo |= UI_REBUILD;
	}
	if (redo & UI_REBUILD)
		ui_table_rebuild(ui);
	/* A remote host's answer to a knob set, or a host gone down: never waits. */
	struct source_knob_result kr;
	char note[256];
	bool note_err, noted = false;
	while (source_knob_result(ui->src, &kr)) {
		redo |= ui_knob_result(ui, &kr) & UI_REDRAW;
		noted = true;
	}
	while (source_note(ui->src, note, sizeof(note), &note_err)) {
		ui_status(ui, note_err, "%s", note);
		redo |= UI_REDRAW;
		noted = true;
	}
	/* A remote host came up, went down or answered a knob: what it holds changed, so
	 * take it now (at -d 30 the fleet would show "connecting" for 30 s). Sampling a
	 * remote source copies what its hosts sent; it never waits. */
	if (noted && !ui->async && !ui->paused && source_fleet_count(ui->src) > 0) {
		ui_sample(ui);
		ui_table_rebuild(ui);
	}
	return redo;
}

/* Status messages fade after a while; a flash ends with one more frame. Returns redo. */
static int screen_fade(struct ui *ui, struct screen_clock *c, uint64_t now)
{
	int redo = 0;
	if (strcmp(c->last_status, ui->status) != 0) {
		memcpy(c->last_status, ui->status, sizeof(c->last_status));
		c->status_set = now;
	} else if (status_fades(ui) && now - c->status_set > UI_STATUS_NS) {
		/* ("setting X..." stays while the write is under way; a question stays open) */
		ui->status[0] = c->last_status[0] = '\0';
		redo |= UI_REDRAW;
	}
	for (int k = 0; k < K_COUNT; k++)
		if (ui->flash_until[k] > c->flash_end)
			c->flash_end = ui->flash_until[k];
	if (c->flash_end && now >= c->flash_end) {
		c->flash_end = 0;
		memset(ui->flash_until, 0, sizeof(ui->flash_until));
		redo |= UI_REDRAW;
	}
	return redo;
}

/* A frame when something changed, and the key-to-frame time of the keys that asked for it. */
static void screen_frame(struct ui *ui, int redo)
{
	if (!(redo & (UI_REDRAW | UI_RESIZE | UI_REBUILD)))
		return;
	ui_frame_draw(ui);
	if (ui->key_ns) {
		ui->key_us = (clock_mono_ns() - ui->key_ns) / NS_PER_US;
		if (ui->key_us > ui->key_max_us)
			ui->key_max_us = ui->key_us;
		ui->key_ns = 0;
	}
}

/* Until the next thing due: a sample (redo flags to take it), or input. -1: -n reached. */
static int screen_next(struct ui *ui, struct screen_clock *c)
{
	uint64_t t = clock_mono_ns();
	if (ui->async && t >= c->next) {
		/* The sampler keeps its own time: only the periodic checks run here. */
		c->next = t + c->delay;
		return 0;
	}
	if (t >= c->next) {
		if (ui->opt->iterations && ++c->n >= ui->opt->iterations)
			return -1;
		/* On the -d grid, and after a stall no burst of samples nor one a moment after
		 * the late one (a paced source sets its own after sampling). */
		c->next = clock_next_due(c->next, c->delay, t, t);
		return UI_RESAMPLE | UI_REDRAW;
	}
	/* Awake for what is due: the next sample, a status's fade, a flash's end. */
	uint64_t wake = c->next;
	if (status_fades(ui) && c->status_set + UI_STATUS_NS + 1 < wake)
		wake = c->status_set + UI_STATUS_NS + 1;
	if (c->flash_end && c->flash_end < wake)
		wake = c->flash_end;
	return ui_wait(ui, wake);
}

int screen_run(struct source *src, const struct options *o)
{
	struct options eff = *o; /* with the settings file's looks, the command line winning */
	struct screen_clock c = {0};
	char err[512];
	int rc = 0;
	struct ui *ui = screen_open(src, &eff, &rc);
	if (!ui)
		return rc;
	c.delay = ui->delay_ns;
	ui_tty_resize(ui);
	ui->fleet = ui_fleet_active(ui);
	/* A source that may block on I/O samples on its own thread (backends/source_async.h);
	 * the others are sampled here (source_ops.blocks). */
	if (src->ops->blocks && !(ui->async = source_async_start(src, c.delay, err, sizeof(err))))
		ui_status(ui, true, "%s: sampling on this thread", err);
	ui->ui_cpu_ns = clock_thread_ns();
	if (!ui->async)
		ui_sample(ui);
	ui_table_rebuild(ui);
	c.next = ui_next_due(ui, clock_mono_ns(), c.delay);
	int redo = UI_REDRAW;
	while (!sig_quit && !ui->tty.dead && redo >= 0) {
		if (sig_winch) {
			sig_winch = 0;
			redo |= UI_RESIZE | UI_REDRAW;
		}
		if (redo & UI_QUIT)
			break;
		if (ui_tty_resize(ui))
			redo |= UI_REDRAW;
		if (ui->delay_ns != c.delay) { /* the setup screen chose another refresh */
			c.delay = ui->delay_ns;
			if (ui->async)
				source_async_interval(ui->async, c.delay);
			if (!source_paced(ui->src))
				c.next = clock_mono_ns() + c.delay;
		}
		redo = screen_take(ui, &c, redo);
		redo |= screen_fade(ui, &c, clock_mono_ns());
		screen_frame(ui, redo);
		if (redo & UI_LAST)
			break;
		redo = screen_next(ui, &c);
	}
	return screen_close(ui) || rc;
}

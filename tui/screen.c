/* screen.c: the first console screen: the engine's threads, refreshed every interval. */
#include "screen.h"

#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/clock.h"
#include "sig.h"

static void screen_draw(const struct snapshot *s)
{
	int rows = LINES;
	erase();
	mvprintw(0, 0, "tunetop %s  governor %s (%s)  uptime %.0fs  threads %zu", TUNETOP_VERSION,
		 cpu_governor_name(s->governor), s->governor_emulated ? "emulated" : "cpufreq",
		 s->uptime_s, s->nthreads);
	attron(A_REVERSE);
	mvprintw(2, 0, "%8s %-16s %-7s %6s %-5s", "TID", "NAME", "SUBSYS", "CPU%", "STATE");
	attroff(A_REVERSE);
	for (size_t i = 0; i < s->nthreads && (int)i + 3 < rows - 1; i++) {
		const struct snap_thread *t = &s->threads[i];
		mvprintw((int)i + 3, 0, "%8d %-16s %-7s %6.1f %-5s", (int)t->tid, t->name,
			 subsys_name(t->subsys), t->cpu_pct, ethread_state_name(t->state));
	}
	mvprintw(rows - 1, 0, "q Quit");
	wnoutrefresh(stdscr);
	doupdate();
}

int screen_run(struct engine *eng, const struct options *o)
{
	struct snapshot *snap = snapshot_new();
	int timeout_ms = (int)(o->delay_s * 1000);

	setlocale(LC_ALL, "");
	if (!initscr()) {
		fprintf(stderr, "tunetop: terminal: cannot initialise curses\n");
		snapshot_free(snap);
		return 1;
	}
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	engine_sample(eng, snap);
	screen_draw(snap);
	for (long n = 0; !sig_quit && (o->iterations == 0 || n < o->iterations);) {
		timeout(timeout_ms);
		int ch = getch();
		if (ch == 'q' || ch == KEY_F(10))
			break;
		if (ch == ERR) {
			engine_sample(eng, snap);
			n++;
		}
		screen_draw(snap);
	}
	curs_set(1);
	endwin();
	snapshot_free(snap);
	return 0;
}

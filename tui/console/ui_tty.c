/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_tty.c: curses start/stop, counting terminal bytes, colours, and the terminal reset on a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

#include "tui/console/ui.h"

/*
 * The crash path may only use async-signal-safe calls, so everything it needs
 * is computed while curses starts: the terminal's own reset strings and the
 * termios the shell had. The handler writes, restores, and re-raises.
 */
static char crash_seq[512];
static size_t crash_len;
static struct termios crash_tio;
static volatile sig_atomic_t crash_have_tio;
/*
 * SIGQUIT too: curses leaves ISIG on (cbreak), so Ctrl-\ sends it, and its
 * default action (a core dump) would leave the shell with no echo, no
 * canonical mode and the alternate screen. Restored here, then re-raised, so
 * the core dump and the exit status stay what the user asked for.
 */
static const int crash_signals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGQUIT};
#define CRASH_NSIGNALS (sizeof(crash_signals) / sizeof(crash_signals[0]))
/* What each had before (put back on close); an ignored one (SIGQUIT of a job started
 * with `&` by a shell script) stays ignored. */
static struct sigaction crash_old[CRASH_NSIGNALS];
static bool crash_installed[CRASH_NSIGNALS];

static void crash_handler(int signo)
{
	if (crash_len) {
		ssize_t n = write(STDOUT_FILENO, crash_seq, crash_len);
		(void)n;
	}
	if (crash_have_tio)
		tcsetattr(STDIN_FILENO, TCSANOW, &crash_tio);
	/* SA_RESETHAND put the default action back; SA_NODEFER lets it fire now. */
	raise(signo);
}

/* Append a terminfo string without its "$<5>" padding (we never need the delays). */
static void crash_seq_add(const char *s)
{
	if (!s || s == (const char *)-1)
		return;
	for (; *s && crash_len + 1 < sizeof(crash_seq); s++) {
		if (s[0] == '$' && s[1] == '<') {
			const char *e = strchr(s, '>');
			if (e) {
				s = e;
				continue;
			}
		}
		crash_seq[crash_len++] = *s;
	}
}

/* Bracketed paste (xterm's mode 2004): on, off, and the marks around a paste. */
#define UI_PASTE_ON_SEQ "\033[?2004h"
#define UI_PASTE_OFF_SEQ "\033[?2004l"
#define UI_PASTE_BEGIN_SEQ "\033[200~"
#define UI_PASTE_END_SEQ "\033[201~"

/* Straight to the terminal, beside curses' buffer (a mode, not screen content). */
static void tty_write(const char *s)
{
	fflush(stdout);
	ssize_t n = write(STDOUT_FILENO, s, strlen(s));
	(void)n;
}

static void crash_install(bool mouse)
{
	struct sigaction sa;

	crash_len = 0;
	crash_seq_add(tigetstr("sgr0"));
	crash_seq_add(tigetstr("cnorm"));
	crash_seq_add(tigetstr("rmkx"));
	if (mouse)
		crash_seq_add("\033[?1000l\033[?1002l\033[?1006l");
	crash_seq_add(UI_PASTE_OFF_SEQ);
	crash_seq_add(tigetstr("rmcup"));
	crash_seq_add("\r\n");
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = crash_handler;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	for (size_t i = 0; i < CRASH_NSIGNALS; i++) {
		crash_installed[i] = sigaction(crash_signals[i], NULL, &crash_old[i]) == 0 &&
				     crash_old[i].sa_handler != SIG_IGN &&
				     sigaction(crash_signals[i], &sa, NULL) == 0;
	}
}

static void crash_uninstall(void)
{
	for (size_t i = 0; i < CRASH_NSIGNALS; i++)
		if (crash_installed[i])
			sigaction(crash_signals[i], &crash_old[i], NULL);
	crash_len = 0;
}

/*
 * Bytes written to the terminal. ncurses 6 writes its buffer with write(2) on
 * fileno() of the output stream, so a counting stdio cookie sees nothing; the
 * kernel's per-thread write count does see it, and only this (the UI) thread
 * writes to the terminal while curses runs.
 */
static uint64_t tty_wchar(struct ui_tty *t)
{
	char buf[512];
	if (t->io_fd < 0 || lseek(t->io_fd, 0, SEEK_SET) < 0)
		return 0;
	ssize_t n = read(t->io_fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	const char *w = strstr(buf, "wchar:");
	return w ? strtoull(w + 6, NULL, 10) : 0;
}

void ui_tty_count(struct ui *ui)
{
	uint64_t w = tty_wchar(&ui->tty);
	if (w >= ui->tty.wchar0)
		ui->tty.bytes = w - ui->tty.wchar0;
}

/*
 * Home and End as terminals send them whatever TERM claims: tmux sends its own "\E[1~" and
 * "\E[4~" (its terminfo's khome/kend) also when TERM says xterm-256color, whose terminfo
 * knows only "\EOH"/"\EOF"; rxvt sends "\E[7~"/"\E[8~"; xterm without the keypad mode
 * "\E[H"/"\E[F". A sequence curses does not know arrives as Esc and text ("[1~"), which
 * unfroze, froze and switched views. Only unknown sequences are bound: one the terminfo
 * gives a key of its own keeps it (htop binds such sequences too, in its CRT.c).
 */
static void tty_bind_home_end(void)
{
	static const struct {
		const char *seq;
		int key;
	} keys[] = {
	    {"\033[1~", KEY_HOME}, {"\033[4~", KEY_END}, {"\033[7~", KEY_HOME},
	    {"\033[8~", KEY_END},  {"\033[H", KEY_HOME}, {"\033[F", KEY_END},
	    {"\033OH", KEY_HOME},  {"\033OF", KEY_END},
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (key_defined(keys[i].seq) == 0)
			define_key(keys[i].seq, keys[i].key);
}

int ui_tty_open(struct ui *ui, char *err, size_t errlen)
{
	const char *cs = nl_langinfo(CODESET);

	ui->utf8 = cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
	ui->ascii = ui->opt->ascii || !ui->utf8;
	ui->tty.fd = STDOUT_FILENO;
	ui->out = stdout;
	ui->tty.io_fd = open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC);
	ui->tty.wchar0 = tty_wchar(&ui->tty);
	if (tcgetattr(STDIN_FILENO, &crash_tio) == 0)
		crash_have_tio = 1;
	/*
	 * Ask terminfo first: a newterm() that fails on an unknown TERM leaves its
	 * half-built screen allocated (LSan: 1.6 KB), while a failed setupterm()
	 * allocates nothing and a good one is freed at once.
	 */
	int term_err = 0;
	bool cup = false;
	if (setupterm(NULL, fileno(ui->out), &term_err) == OK) {
		/* A terminal that cannot address the cursor (TERM=dumb, a hardcopy) would
		 * show the last line drawn and nothing else: say so, as a failure. */
		char *c = tigetstr("cup");
		cup = c && c != (char *)-1;
		del_curterm(cur_term);
	} else {
		term_err = -1;
	}
	ui->scr = term_err < 0 || !cup ? NULL : newterm(NULL, ui->out, stdin);
	if (!ui->scr) {
		const char *term = getenv("TERM");
		if (term_err >= 0 && !cup)
			snprintf(err, errlen,
				 "terminal: TERM=%s cannot move the cursor, which a full-screen "
				 "console needs: use -b for JSON Lines, or set TERM (e.g. xterm)",
				 term ? term : "");
		else
			snprintf(err, errlen, "terminal: cannot start curses for TERM=%s",
				 term ? term : "");
		if (ui->tty.io_fd >= 0)
			close(ui->tty.io_fd);
		return -1;
	}
	set_term(ui->scr);
	/* After newterm: before it, ncurses allocates state that a failed newterm
	 * (TERM=nosuchterm) never frees. A lone Esc should feel instant; sequences
	 * arrive together. */
	set_escdelay(25);
	/* Bracketed paste: the terminal marks pasted text, so it is never read as
	 * keys (a pasted "set a=1\nset b=2" typed its second line as hotkeys). */
	define_key(UI_PASTE_BEGIN_SEQ, UI_KEY_PASTE_BEGIN);
	define_key(UI_PASTE_END_SEQ, UI_KEY_PASTE_END);
	tty_bind_home_end();
	tty_write(UI_PASTE_ON_SEQ);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE); /* the loop polls stdin itself */
	curs_set(0);
	leaveok(stdscr, TRUE); /* no cursor moves after each frame: fewer bytes over ssh */
	mousemask(ui->opt->mouse ? (BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED) : 0, NULL);
	ui->color = !ui->opt->no_color && !ui->theme.mono && has_colors();
	if (ui->color) {
		start_color();
		use_default_colors();
	} else if (!ui->theme.mono) {
		/* vt100 and friends: a colour theme's cues would vanish; mono's are attributes. */
		char err2[64];
		theme_load(&ui->theme, "mono", NULL, err2, sizeof(err2));
	}
	ui_colors_apply(ui);
	crash_install(ui->opt->mouse);
	return 0;
}

void ui_tty_close(struct ui *ui)
{
	if (!ui->scr)
		return;
	if (!ui->tty.dead) {
		curs_set(1);
		mousemask(0, NULL);
	}
	endwin();
	if (!ui->tty.dead)
		tty_write(UI_PASTE_OFF_SEQ); /* the shell gets its terminal as it was */
	crash_uninstall();
	delscreen(ui->scr);
	ui->scr = NULL;
	ui->out = NULL;
	if (ui->tty.io_fd >= 0)
		close(ui->tty.io_fd);
	ui->tty.io_fd = -1;
	if (crash_have_tio && !ui->tty.dead)
		tcsetattr(STDIN_FILENO, TCSANOW, &crash_tio);
}

bool ui_tty_resize(struct ui *ui)
{
	struct winsize ws;
	bool changed = false;
	/* Asked on SIGWINCH and before each frame: a signal can be missed, a size cannot. */
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0 &&
	    (ws.ws_row != LINES || ws.ws_col != COLS)) {
		resizeterm(ws.ws_row, ws.ws_col);
		changed = true;
	}
	ui->too_small = COLS < UI_MIN_COLS || LINES < UI_MIN_ROWS;
	return changed;
}

/* A theme colour for this terminal: the 256 value, or the 16-colour fallback. */
static void pick(const struct theme_style *st, short *fg, short *bg, attr_t *extra)
{
	if (COLORS >= 256) {
		*fg = st->fg;
		*bg = st->bg;
		return;
	}
	*fg = st->fg16;
	*bg = st->bg16;
	if (COLORS < 16) {
		/* 8 colours: bright foregrounds become bold, bright backgrounds plain. */
		if (*fg >= 8) {
			*fg = (short)(*fg - 8);
			*extra |= A_BOLD;
		}
		if (*bg >= 8)
			*bg = (short)(*bg - 8);
	}
}

void ui_colors_apply(struct ui *ui)
{
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct theme_style *st = &ui->theme.role[r];
		attr_t a = 0;
		if (st->attrs & THEME_ATTR_BOLD)
			a |= A_BOLD;
		if (st->attrs & THEME_ATTR_DIM)
			a |= A_DIM;
		if (st->attrs & THEME_ATTR_REVERSE)
			a |= A_REVERSE;
		if (st->attrs & THEME_ATTR_UNDERLINE)
			a |= A_UNDERLINE;
		if (ui->color && r + 1 < COLOR_PAIRS) {
			short fg, bg;
			pick(st, &fg, &bg, &a);
			init_pair((short)(r + 1), fg, bg);
			a |= COLOR_PAIR(r + 1);
		}
		ui->attr[r] = a;
	}
}

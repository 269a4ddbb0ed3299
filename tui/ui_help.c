/* ui_help.c: the help screen, generated from the key table and the knob table. */
#include <string.h>

#include "ui.h"

/* Line i of the help text into buf; false past the end. */
static bool help_line(struct ui *ui, int i, char *buf, size_t len, enum theme_role *role)
{
	char range[256], val[64];
	int n_keys = (int)ui_nkeydefs;

	*role = ROLE_NORMAL;
	if (i == 0) {
		*role = ROLE_LABEL;
		snprintf(buf, len, "Keys (htop's where htop has one):");
		return true;
	}
	i--;
	if (i < n_keys) {
		const struct ui_keydef *k = &ui_keydefs[i];
		if (k->knob >= 0)
			snprintf(buf, len, "  %-13s %s %s (%s)", k->keys, k->what,
				 knob_table[k->knob].name,
				 knob_range_text(k->knob, range, sizeof(range)));
		else
			snprintf(buf, len, "  %-13s %s", k->keys, k->what);
		return true;
	}
	i -= n_keys;
	if (i == 0) {
		buf[0] = '\0';
		return true;
	}
	if (i == 1) {
		*role = ROLE_LABEL;
		snprintf(buf, len,
			 "Knobs (:set NAME=VALUE, Tab completes):  NAME  VALUE  RANGE  what");
		return true;
	}
	i -= 2;
	if (i < K_COUNT) {
		const struct knob_def *d = &knob_table[i];
		*role = ui_flashing(ui, i) ? ROLE_FLASH : ROLE_NORMAL;
		snprintf(buf, len, "  %-22s %-11s %-24s %s%s", d->name,
			 knob_format(i, ui->knobs[i], val, sizeof(val)),
			 knob_range_text(i, range, sizeof(range)), d->help,
			 d->start_only ? " [at start only]" : "");
		return true;
	}
	return false;
}

static int help_lines(struct ui *ui)
{
	return 1 + (int)ui_nkeydefs + 2 + K_COUNT;
}

void ui_help_draw(struct ui *ui)
{
	char buf[512];
	enum theme_role role;
	int body = LINES - 2;

	if (ui->help_top > help_lines(ui) - body)
		ui->help_top = help_lines(ui) - body;
	if (ui->help_top < 0)
		ui->help_top = 0;
	ui_fill_line(ui, 0, ROLE_TITLE);
	move(0, 0);
	ui_put(ui, ROLE_TITLE, " tunetop %s help: Esc, q or h returns; arrows and PgUp/PgDn scroll",
	       TUNETOP_VERSION);
	for (int r = 0; r < body; r++) {
		if (!help_line(ui, ui->help_top + r, buf, sizeof(buf), &role))
			break;
		move(1 + r, 0);
		ui_put(ui, role, "%s", buf);
	}
}

int ui_help_key(struct ui *ui, int ch)
{
	switch (ch) {
	case 'q':
	case 'h':
	case 27:
	case KEY_F(1):
	case '?':
		ui->help = false;
		return UI_REDRAW;
	case KEY_F(10):
		return UI_QUIT;
	case KEY_UP:
		ui->help_top--;
		break;
	case KEY_DOWN:
		ui->help_top++;
		break;
	case KEY_PPAGE:
		ui->help_top -= LINES - 3;
		break;
	case KEY_NPAGE:
	case ' ':
		ui->help_top += LINES - 3;
		break;
	case KEY_HOME:
		ui->help_top = 0;
		break;
	case KEY_END:
		ui->help_top = help_lines(ui);
		break;
	default:
		return 0;
	}
	return UI_REDRAW;
}

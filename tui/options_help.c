/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options_help.c: --help and --list-options, written from the option table. */
#include <stdio.h>
#include <string.h>

#include "tui/options.h"
#include "tui/options_table.h"

/* "-d, --delay SECONDS" or "    --set KNOB=VALUE" */
static int options_left(const struct opt_entry *e, char *buf, size_t len)
{
	char s[8] = "    ";
	if (e->val < 256)
		snprintf(s, sizeof(s), "-%c, ", e->val);
	return snprintf(buf, len, "%s--%s%s%s", s, e->name, e->arg ? " " : "",
			e->arg ? e->arg : "");
}

/* help after the left column, wrapped at 79 columns under itself. */
static void options_put_help(FILE *out, const char *left, const char *help)
{
	enum { COL = 28, WIDTH = 79 };
	int at = fprintf(out, "  %s", left);
	if (at > COL - 1) {
		fputc('\n', out);
		at = 0;
	}
	fprintf(out, "%*s", COL - at, "");
	at = COL;
	for (const char *w = help; *w;) {
		size_t n = strcspn(w, " ");
		if (at > COL && at + 1 + (int)n > WIDTH) {
			fprintf(out, "\n%*s", COL, "");
			at = COL;
		} else if (at > COL) {
			fputc(' ', out);
			at++;
		}
		fwrite(w, 1, n, out);
		at += (int)n;
		w += n;
		while (*w == ' ')
			w++;
	}
	fputc('\n', out);
}

void options_usage(FILE *out)
{
	char left[96];
	fputs(
	    "Usage: tunetop [OPTIONS]                   interactive console on the embedded "
	    "engine\n"
	    "       tunetop -b [-n COUNT] [-d SECONDS]  batch: one JSON snapshot a line on stdout\n"
	    "       tunetop experiment NAME [OPTIONS]   run an experiment, print a table\n",
	    out);
	for (size_t g = 0; g < options_groups_n; g++) {
		fprintf(out, "\n%s%s", options_groups[g].title ? options_groups[g].title : "",
			options_groups[g].title ? ":\n" : "");
		for (size_t i = 0; i < options_table_n; i++) {
			if (strcmp(options_table[i].group, options_groups[g].group) != 0)
				continue;
			options_left(&options_table[i], left, sizeof(left));
			options_put_help(out, left, options_table[i].help);
		}
	}
	fputs("\nExit status: 0 ok, 1 runtime failure, 2 usage error.\n", out);
}

/* One option a line: --NAME, -X or -, ARG or -, group, completion or -, help, more or -. */
void options_list(FILE *out)
{
	for (size_t i = 0; i < options_table_n; i++) {
		const struct opt_entry *e = &options_table[i];
		char s[4] = "-";
		if (e->val < 256)
			snprintf(s, sizeof(s), "-%c", e->val);
		fprintf(out, "--%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e->name, s, e->arg ? e->arg : "-",
			e->group, e->complete ? e->complete : "-", e->help,
			e->more ? e->more : "-");
	}
}

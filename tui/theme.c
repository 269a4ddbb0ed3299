/* SPDX-License-Identifier: GPL-2.0-or-later */
/* theme.c: the forgiving theme parser, colour names and the built-in lookup. */
#include "tui/theme.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/textfile.h"
#include "core/xalloc.h"

static const char *const role_names[ROLE_COUNT] = {
    [ROLE_NORMAL] = "normal",
    [ROLE_TITLE] = "title",
    [ROLE_LABEL] = "label",
    [ROLE_BAR_LOW] = "bar.low",
    [ROLE_BAR_MID] = "bar.mid",
    [ROLE_BAR_HIGH] = "bar.high",
    [ROLE_VALUE] = "value",
    [ROLE_TABLE_HEAD] = "table.head",
    [ROLE_TABLE_SORT] = "table.sort",
    [ROLE_SELECTED] = "selected",
    [ROLE_EST] = "est",
    [ROLE_PMD] = "pmd",
    [ROLE_BLK] = "blk",
    [ROLE_FLASH] = "flash",
    [ROLE_STATUS] = "status",
    [ROLE_ERROR] = "error",
    [ROLE_GOOD] = "good",
    [ROLE_WARN] = "warn",
    [ROLE_CHART] = "chart",
    [ROLE_FKEY] = "fkey",
    [ROLE_FLABEL] = "flabel",
    [ROLE_DIM] = "dim",
    [ROLE_PROMPT] = "prompt",
};

/* The 16 ANSI names; "bright-" (or "bright") adds 8. */
static const char *const color_names[8] = {"black", "red",     "green", "yellow",
					   "blue",  "magenta", "cyan",	"white"};

/* xterm's 6x6x6 cube levels, for RGB -> 256 and 256 -> 16. */
static const int cube_level[6] = {0, 95, 135, 175, 215, 255};
/* The usual xterm RGB of the 16 ANSI colours. */
static const int ansi_rgb[16][3] = {
    {0, 0, 0},	   {205, 0, 0},	    {0, 205, 0},     {205, 205, 0},   {0, 0, 238}, {205, 0, 205},
    {0, 205, 205}, {229, 229, 229}, {127, 127, 127}, {255, 0, 0},     {0, 255, 0}, {255, 255, 0},
    {92, 92, 255}, {255, 0, 255},   {0, 255, 255},   {255, 255, 255},
};

/* A role by its name (any case); -1 if unknown. */
static int theme_role_find(const char *name)
{
	for (int i = 0; i < ROLE_COUNT; i++)
		if (strcasecmp(role_names[i], name) == 0)
			return i;
	return -1;
}

static void color_rgb(int c, int rgb[3])
{
	if (c < 16) {
		memcpy(rgb, ansi_rgb[c], sizeof(ansi_rgb[c]));
	} else if (c < 232) {
		c -= 16;
		rgb[0] = cube_level[c / 36];
		rgb[1] = cube_level[(c / 6) % 6];
		rgb[2] = cube_level[c % 6];
	} else {
		rgb[0] = rgb[1] = rgb[2] = 8 + 10 * (c - 232);
	}
}

static long rgb_dist(const int a[3], const int b[3])
{
	long d = 0;
	for (int k = 0; k < 3; k++)
		d += (long)(a[k] - b[k]) * (a[k] - b[k]);
	return d;
}

static int nearest_level(int v)
{
	int best = 0;
	for (int i = 1; i < 6; i++)
		if (abs(cube_level[i] - v) < abs(cube_level[best] - v))
			best = i;
	return best;
}

int theme_color_to16(int c)
{
	if (c < 16)
		return c;
	int rgb[3], best = 0;
	long bestd = -1;
	color_rgb(c, rgb);
	for (int i = 0; i < 16; i++) {
		long d = rgb_dist(rgb, ansi_rgb[i]);
		if (bestd < 0 || d < bestd) {
			bestd = d;
			best = i;
		}
	}
	return best;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
}

int theme_color_parse(const char *s)
{
	if (!strcasecmp(s, "default") || !strcasecmp(s, "none"))
		return THEME_COLOR_DEFAULT;
	if (s[0] == '#') {
		size_t n = strlen(s + 1);
		int v[6];
		if (n != 3 && n != 6)
			return -2;
		for (size_t i = 0; i < n; i++)
			if ((v[i] = hexval(s[1 + i])) < 0)
				return -2;
		int r = n == 3 ? v[0] * 17 : v[0] * 16 + v[1];
		int g = n == 3 ? v[1] * 17 : v[2] * 16 + v[3];
		int b = n == 3 ? v[2] * 17 : v[4] * 16 + v[5];
		int cube = 16 + 36 * nearest_level(r) + 6 * nearest_level(g) + nearest_level(b);
		int grey = (r + g + b) / 3, gi = grey < 8 ? 0 : (grey - 8 + 5) / 10;
		int grey_idx = 232 + (gi > 23 ? 23 : gi);
		int crgb[3], grgb[3];
		color_rgb(cube, crgb);
		color_rgb(grey_idx, grgb);
		const int want[3] = {r, g, b};
		return rgb_dist(want, grgb) < rgb_dist(want, crgb) ? grey_idx : cube;
	}
	if (isdigit((unsigned char)s[0])) {
		char *end;
		errno = 0;
		long v = strtol(s, &end, 10);
		if (errno || *end || v < 0 || v > 255)
			return -2;
		return (int)v;
	}
	int add = 0;
	if (!strncasecmp(s, "bright-", 7)) {
		add = 8;
		s += 7;
	} else if (!strncasecmp(s, "bright", 6)) {
		add = 8;
		s += 6;
	}
	if (!strcasecmp(s, "gray") || !strcasecmp(s, "grey"))
		return add ? 7 : 8;
	for (int i = 0; i < 8; i++)
		if (!strcasecmp(s, color_names[i]))
			return i + add;
	return -2;
}

static void diag_add(struct theme_diag *diag, const char *origin, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void diag_add(struct theme_diag *diag, const char *origin, int line, const char *fmt, ...)
{
	if (!diag)
		return;
	if (diag->count < THEME_DIAG_KEEP) {
		char why[120];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
		snprintf(diag->msg[diag->count], sizeof(diag->msg[0]), "%s:%d: %s", origin, line,
			 why);
	}
	diag->count++;
}

/* An attribute by its name: THEME_ATTR_BOLD, _DIM, _REVERSE, _UNDERLINE (1 << i); -1 if none. */
static int attr_parse(const char *s)
{
	static const char *const names[] = {"bold", "dim", "reverse", "underline"};
	_Static_assert(THEME_ATTR_DIM == 2 && THEME_ATTR_UNDERLINE == 8, "attrs are 1 << i");
	for (int i = 0; i < 4; i++)
		if (!strcasecmp(s, names[i]))
			return 1 << i;
	return -1;
}

#define THEME_MAX_TOKENS 16

/* Split s at whitespace into tok (at most max); -1 when there are more. */
static int tokenize(char *s, char **tok, int max)
{
	int n = 0;
	for (char *p = s; *p;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (n == max)
			return -1;
		tok[n++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

/* "COLOUR [on COLOUR] [attr...]" into fg, bg, attrs; NULL or why it is bad. */
static const char *part_parse(char *spec, bool fallback, int16_t *fg, int16_t *bg, unsigned *attrs,
			      char *why, size_t whylen)
{
	char *tok[THEME_MAX_TOKENS];
	int n = tokenize(spec, tok, THEME_MAX_TOKENS), i = 0;

	if (n < 0)
		return "too many words";
	if (n == 0)
		return fallback ? "nothing after '/'" : "no colour given";
	for (int which = 0; which < 2 && i < n; which++) {
		if (which == 1) {
			if (strcasecmp(tok[i], "on") != 0)
				break;
			if (++i == n)
				return "'on' without a background colour";
		}
		int c = theme_color_parse(tok[i]);
		if (c == -2 || (fallback && c > 15)) {
			snprintf(why, whylen, "'%.40s' is not a%s colour", tok[i],
				 fallback ? " 16-colour fallback" : "");
			return why;
		}
		*(which ? bg : fg) = (int16_t)c;
		i++;
	}
	for (; i < n; i++) {
		int a = attr_parse(tok[i]);
		if (a < 0 || !attrs) {
			snprintf(why, whylen, "'%.40s' is not %s", tok[i],
				 attrs ? "an attribute (bold, dim, reverse, underline)"
				       : "allowed in the fallback (colours only)");
			return why;
		}
		*attrs |= (unsigned)a;
	}
	return NULL;
}

/* "FG [on BG] [attr...] [/ FG16 [on BG16]]" into st; NULL or why it is bad. */
static const char *style_parse(char *spec, struct theme_style *st, char *why, size_t whylen)
{
	struct theme_style out = {.fg = -1, .bg = -1, .fg16 = -2, .bg16 = -2, .attrs = 0};
	char *slash = strchr(spec, '/');
	const char *msg;

	if (slash) {
		*slash = '\0';
		if (strchr(slash + 1, '/'))
			return "more than one '/'";
	}
	msg = part_parse(spec, false, &out.fg, &out.bg, &out.attrs, why, whylen);
	if (!msg && slash)
		msg = part_parse(slash + 1, true, &out.fg16, &out.bg16, NULL, why, whylen);
	if (msg)
		return msg;
	/* No fallback given: the nearest of the 16 to the 256-colour value. */
	if (out.fg16 == -2)
		out.fg16 = (int16_t)theme_color_to16(out.fg);
	if (out.bg16 == -2)
		out.bg16 = (int16_t)theme_color_to16(out.bg);
	*st = out;
	return NULL;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* '#' starts a comment at the start of a line or when a space or the end follows it. */
static void strip_comment(char *s)
{
	for (char *p = s; *p; p++) {
		if (*p != '#')
			continue;
		if (p == s || p[1] == '\0' || isspace((unsigned char)p[1])) {
			*p = '\0';
			return;
		}
	}
}

static const struct theme_builtin *builtin_find(const char *name)
{
	for (size_t i = 0; i < theme_builtin_count; i++)
		if (strcasecmp(theme_builtins[i].name, name) == 0)
			return &theme_builtins[i];
	return NULL;
}

static unsigned theme_parse_depth(struct theme *t, const char *origin, const char *text,
				  struct theme_diag *diag, int depth)
{
	char *copy = xstrdup(text);
	unsigned bad = 0;
	int lineno = 0;
	char why[120];

	for (char *line = copy, *next; line; line = next) {
		char *nl = strchr(line, '\n');
		next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		lineno++;
		strip_comment(line);
		char *s = trim(line);
		if (!*s)
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			diag_add(diag, origin, lineno, "expected 'role = colour', got '%.40s'", s);
			bad++;
			continue;
		}
		*eq = '\0';
		char *key = trim(s), *val = trim(eq + 1);
		if (!strcasecmp(key, "name") || !strcasecmp(key, "description")) {
			if (!strcasecmp(key, "name"))
				snprintf(t->name, sizeof(t->name), "%s", val);
			continue;
		}
		if (!strcasecmp(key, "mono")) {
			t->mono = !strcasecmp(val, "yes") || !strcasecmp(val, "on") ||
				  !strcmp(val, "1") || !strcasecmp(val, "true");
			continue;
		}
		if (!strcasecmp(key, "inherit")) {
			const struct theme_builtin *b = builtin_find(val);
			if (!b) {
				diag_add(diag, origin, lineno, "inherit: no built-in theme '%.40s'",
					 val);
				bad++;
			} else if (depth >= THEME_MAX_DEPTH) {
				diag_add(diag, origin, lineno, "inherit: nested too deeply");
				bad++;
			} else {
				char name[64];
				memcpy(name, t->name, sizeof(name));
				theme_parse_depth(t, b->name, b->text, diag, depth + 1);
				memcpy(t->name, name, sizeof(name));
			}
			continue;
		}
		int r = theme_role_find(key);
		if (r < 0) {
			diag_add(diag, origin, lineno, "unknown role '%.40s'", key);
			bad++;
			continue;
		}
		struct theme_style st;
		const char *msg = style_parse(val, &st, why, sizeof(why));
		if (msg) {
			diag_add(diag, origin, lineno, "%s: %s", role_names[r], msg);
			bad++;
			continue;
		}
		t->role[r] = st;
	}
	free(copy);
	return bad;
}

unsigned theme_parse(struct theme *t, const char *origin, const char *text, struct theme_diag *diag)
{
	return theme_parse_depth(t, origin, text, diag, 0);
}

void theme_default(struct theme *t)
{
	memset(t, 0, sizeof(*t));
	for (int r = 0; r < ROLE_COUNT; r++)
		t->role[r] = (struct theme_style){-1, -1, -1, -1, 0};
	theme_parse(t, "default", theme_builtins[0].text, NULL);
}

int theme_load(struct theme *t, const char *name_or_path, struct theme_diag *diag, char *err,
	       size_t errlen)
{
	const struct theme_builtin *b = builtin_find(name_or_path);
	struct stat st;

	theme_default(t);
	if (b && !strchr(name_or_path, '/')) {
		if (strcasecmp(b->name, "default") != 0) {
			/* Each built-in starts from the default, so it needs to name only what
			 * differs. */
			theme_parse(t, b->name, b->text, diag);
		}
		return 0;
	}
	if (!strchr(name_or_path, '/') && stat(name_or_path, &st) != 0) {
		char names[256] = "";
		size_t off = 0;
		for (size_t i = 0; i < theme_builtin_count && off < sizeof(names); i++)
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
						i ? ", " : "", theme_builtins[i].name);
		snprintf(err, errlen, "unknown theme '%s' (valid: %s, or a file path)",
			 name_or_path, names);
		return -1;
	}
	char *buf;
	size_t n;
	if (textfile_read(name_or_path, THEME_MAX_BYTES, &buf, &n, err, errlen) != 0)
		return -1;
	if (n > THEME_MAX_BYTES || memchr(buf, '\0', n)) {
		/* Not a theme at all: say so once, with the line the trouble starts on. */
		diag_add(diag, name_or_path, 1, "%s; the default theme is used",
			 n > THEME_MAX_BYTES ? "larger than 64 KiB" : "not a text file (NUL byte)");
		free(buf);
		return 0;
	}
	buf[n] = '\0';
	snprintf(t->name, sizeof(t->name), "%s", name_or_path);
	theme_parse(t, name_or_path, buf, diag);
	free(buf);
	return 0;
}

void theme_list(FILE *out)
{
	for (size_t i = 0; i < theme_builtin_count; i++)
		fprintf(out, "%-11s %s\n", theme_builtins[i].name, theme_builtins[i].summary);
	fprintf(out, "%-11s %s\n", "PATH",
		"a theme file (see themes/default.theme for the format)");
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* settings.c: tunetoprc read (bounded, line by line, never fatal) and written (atomically,
 * only through core/safefile.h); the command line's precedence over it. */
#include "tui/settings.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/safefile.h"
#include "tui/theme.h"

const char *const settings_view_names[SETTINGS_NVIEWS] = {"overview", "est", "pmd", "blk",
							  "events"};
static const char *const settings_sort_names[SETTINGS_NSORTS] = {
    "tid", "name", "subsys", "cpu", "cpu_pct", "state", "runq_pct"};

void settings_defaults(struct settings *s)
{
	memset(s, 0, sizeof(*s));
	s->view = 0;
	s->sort = 4; /* cpu_pct, descending: the busiest thread first, as htop */
	s->sort_asc = false;
	s->delay_s = 1.0;
	snprintf(s->theme, sizeof(s->theme), "%s", theme_builtins[0].name);
}

bool settings_equal(const struct settings *a, const struct settings *b)
{
	return a->view == b->view && a->sort == b->sort && a->sort_asc == b->sort_asc &&
	       a->delay_s == b->delay_s && strcmp(a->theme, b->theme) == 0 &&
	       a->ascii == b->ascii && a->mouse == b->mouse;
}

int settings_path(char *buf, size_t len, char *err, size_t errlen)
{
	const char *x = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;
	if (x && x[0] == '/')
		n = snprintf(buf, len, "%s/tunetop/tunetoprc", x);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.config/tunetop/tunetoprc", home);
	else {
		snprintf(err, errlen, "neither $XDG_CONFIG_HOME nor $HOME is an absolute path");
		return -1;
	}
	if (n < 0 || (size_t)n >= len) {
		snprintf(err, errlen, "the settings path is too long");
		return -1;
	}
	return 0;
}

static int name_find(const char *const *names, size_t n, const char *v)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], v) == 0)
			return (int)i;
	return -1;
}

static void names_join(const char *const *names, size_t n, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && off < len; i++) {
		int w = snprintf(buf + off, len - off, "%s%s", i ? ", " : "", names[i]);
		if (w < 0)
			break;
		off += (size_t)w;
	}
}

static int bool_parse(const char *v, bool *out)
{
	if (!strcmp(v, "on") || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1"))
		*out = true;
	else if (!strcmp(v, "off") || !strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0"))
		*out = false;
	else
		return -1;
	return 0;
}

/* One key=value into s; 0, 1 (an unknown key) or -1 with why (the value is not taken). */
static int settings_set(struct settings *s, const char *k, const char *v, char *why, size_t whylen)
{
	char names[160];
	int i;
	bool b;
	if (!strcmp(k, "version")) {
		char *end;
		long n = strtol(v, &end, 10);
		if (end == v || *end || n != SETTINGS_VERSION) {
			snprintf(why, whylen, "version: '%s' is not one this tunetop reads (%d)", v,
				 SETTINGS_VERSION);
			return -1;
		}
	} else if (!strcmp(k, "view")) {
		if ((i = name_find(settings_view_names, SETTINGS_NVIEWS, v)) < 0)
			goto bad_name;
		s->view = i;
	} else if (!strcmp(k, "sort")) {
		if ((i = name_find(settings_sort_names, SETTINGS_NSORTS, v)) < 0)
			goto bad_name;
		s->sort = i;
	} else if (!strcmp(k, "sort_order")) {
		if (strcmp(v, "asc") && strcmp(v, "desc")) {
			snprintf(why, whylen, "sort_order: '%s' is not valid (valid: asc, desc)",
				 v);
			return -1;
		}
		s->sort_asc = !strcmp(v, "asc");
	} else if (!strcmp(k, "delay")) {
		double d;
		if (options_parse_delay(v, &d) != 0) {
			snprintf(why, whylen,
				 "delay: '%s' is not a delay in seconds (valid: %g to %g)", v,
				 OPT_DELAY_MIN, OPT_DELAY_MAX);
			return -1;
		}
		s->delay_s = d;
	} else if (!strcmp(k, "theme")) {
		for (size_t t = 0; t < theme_builtin_count; t++)
			if (!strcmp(theme_builtins[t].name, v)) {
				snprintf(s->theme, sizeof(s->theme), "%s", v);
				return 0;
			}
		snprintf(why, whylen, "theme: '%s' is not a built-in theme (see --list-themes)", v);
		return -1;
	} else if (!strcmp(k, "charts") || !strcmp(k, "mouse")) {
		bool chart = !strcmp(k, "charts");
		if (chart && strcmp(v, "braille") && strcmp(v, "ascii")) {
			snprintf(why, whylen, "charts: '%s' is not valid (valid: braille, ascii)",
				 v);
			return -1;
		}
		if (!chart && bool_parse(v, &b) != 0) {
			snprintf(why, whylen, "mouse: '%s' is not valid (valid: on, off)", v);
			return -1;
		}
		if (chart)
			s->ascii = !strcmp(v, "ascii");
		else
			s->mouse = b;
	} else {
		return 1;
	}
	return 0;
bad_name:
	if (!strcmp(k, "view"))
		names_join(settings_view_names, SETTINGS_NVIEWS, names, sizeof(names));
	else
		names_join(settings_sort_names, SETTINGS_NSORTS, names, sizeof(names));
	snprintf(why, whylen, "%s: '%s' is not valid (valid: %s)", k, v, names);
	return -1;
}

/* Spaces and tabs off both ends, in place. */
static char *trim(char *a)
{
	while (*a == ' ' || *a == '\t')
		a++;
	size_t n = strlen(a);
	while (n && (a[n - 1] == ' ' || a[n - 1] == '\t' || a[n - 1] == '\r'))
		a[--n] = '\0';
	return a;
}

/* One more "PATH:LINE: why" line in msg, when it fits whole (a cut line would mislead). */
static void settings_msg_add(char *msg, size_t msglen, const char *path, unsigned lineno,
			     const char *why)
{
	size_t at = strlen(msg);
	int n = snprintf(msg + at, msglen - at, "%s%s:%u: %s", at ? "\n" : "", path, lineno, why);
	if (n < 0 || (size_t)n >= msglen - at)
		msg[at] = '\0';
}

int settings_parse(struct settings *s, const char *path, const char *text, char *msg, size_t msglen)
{
	char line[SETTINGS_MAX_LINE + 1], why[256], first_unknown[64] = "";
	unsigned unknown = 0, lineno = 0, unknown_line = 0;
	int rc = 0;
	msg[0] = '\0';
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		lineno++;
		/* A longer line cannot be a setting; settings_load refuses such a file whole. */
		size_t take = n < SETTINGS_MAX_LINE ? n : SETTINGS_MAX_LINE;
		memcpy(line, p, take);
		line[take] = '\0';
		p += n + (p[n] == '\n');
		char *l = trim(line);
		if (!*l || *l == '#')
			continue;
		char *eq = strchr(l, '=');
		int r;
		if (!eq) {
			snprintf(why, sizeof(why), "'%.40s' is not key=value", l);
			r = -1;
		} else {
			*eq = '\0';
			r = settings_set(s, trim(l), trim(eq + 1), why, sizeof(why));
		}
		if (r < 0) {
			settings_msg_add(msg, msglen, path, lineno, why);
			rc = -1;
		} else if (r > 0 && !unknown++) {
			snprintf(first_unknown, sizeof(first_unknown), "%.60s", trim(l));
			unknown_line = lineno;
		}
	}
	if (unknown && rc == 0) {
		rc = 1;
		if (unknown > 1)
			snprintf(msg, msglen, "%s:%u: unknown key '%s' ignored (and %u more)", path,
				 unknown_line, first_unknown, unknown - 1);
		else
			snprintf(msg, msglen, "%s:%u: unknown key '%s' ignored", path, unknown_line,
				 first_unknown);
	}
	return rc;
}

size_t settings_format(const struct settings *s, char *buf, size_t len)
{
	char delay[32];
	/* The shortest text that reads back as the same double (0.1, not 0.10000000000000001). */
	snprintf(delay, sizeof(delay), "%.15g", s->delay_s);
	if (strtod(delay, NULL) != s->delay_s)
		snprintf(delay, sizeof(delay), "%.17g", s->delay_s);
	int n = snprintf(buf, len,
			 "# tunetop settings (docs/settings.md): written by tunetop when the "
			 "setup changes\n"
			 "version=%d\n"
			 "view=%s\n"
			 "sort=%s\n"
			 "sort_order=%s\n"
			 "delay=%s\n"
			 "theme=%s\n"
			 "charts=%s\n"
			 "mouse=%s\n",
			 SETTINGS_VERSION, settings_view_names[s->view],
			 settings_sort_names[s->sort], s->sort_asc ? "asc" : "desc", delay,
			 s->theme, s->ascii ? "ascii" : "braille", s->mouse ? "on" : "off");
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

int settings_load(struct settings *s, const char *path, char *msg, size_t msglen)
{
	static const struct safefile_limits lim = {
	    .max_bytes = SETTINGS_MAX_BYTES,
	    .max_line = SETTINGS_MAX_LINE,
	};
	struct stat st;
	char *buf;
	size_t len;
	msg[0] = '\0';
	/* lstat is no open: it tells a missing file (the defaults) from a symlink, which is
	 * refused here as it would be on the write (no write through a symlink). */
	if (lstat(path, &st) != 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		snprintf(msg, msglen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		snprintf(msg, msglen,
			 "%s: is a symlink (settings are neither read nor written "
			 "through one)",
			 path);
		return SAFEFILE_REFUSED;
	}
	int rc = safefile_read(path, &lim, &buf, &len, msg, msglen);
	if (rc != 0)
		return rc;
	if (memchr(buf, '\0', len)) {
		snprintf(msg, msglen, "%s: holds a NUL byte: not a settings file", path);
		free(buf);
		return -1;
	}
	struct settings t = *s;
	rc = settings_parse(&t, path, buf, msg, msglen);
	free(buf);
	*s = t;
	return rc;
}

/* A directory is made only in one we own: in another user's (their HOME under sudo -E) it
 * would be root's, and they would lose their own ~/.config. */
static int settings_mkdir_in_ours(char *dir, char *err, size_t errlen)
{
	struct stat st;
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		int rc = stat(dir, &st);
		if (rc == 0 && st.st_uid != geteuid()) {
			snprintf(err, errlen,
				 "%s: belongs to uid %u, not us: %s/%s not made (set "
				 "XDG_CONFIG_HOME)",
				 dir, (unsigned)st.st_uid, dir, slash + 1);
			*slash = '/';
			return SAFEFILE_REFUSED;
		}
		*slash = '/';
	}
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* mkdir -p of path's directory, each directory made 0700 (XDG: "only by the user"). */
static int settings_mkdirs(const char *path, char *err, size_t errlen)
{
	char dir[4096];
	struct stat st;
	const char *slash = strrchr(path, '/');
	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return 0;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	for (char *p = dir + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
		int rc = lstat(dir, &st) == 0 ? 0 : settings_mkdir_in_ours(dir, err, errlen);
		*p = c;
		if (rc != 0)
			return rc;
		if (!c)
			break;
	}
	/* The folder the file goes in is ours (the write opens it without another user's
	 * symlink on the way, core/safefile.h). */
	if (stat(dir, &st) == 0 && st.st_uid != geteuid()) {
		snprintf(err, errlen, "%s: belongs to uid %u, not us: settings not saved", dir,
			 (unsigned)st.st_uid);
		return SAFEFILE_REFUSED;
	}
	return 0;
}

int settings_save(const struct settings *s, const char *path, char *err, size_t errlen)
{
	char text[1024];
	int rc = settings_mkdirs(path, err, errlen);
	if (rc != 0)
		return rc;
	size_t n = settings_format(s, text, sizeof(text));
	return safefile_replace(path, text, n, err, errlen);
}

void settings_apply_options(struct settings *s, const struct options *o)
{
	if (o->delay_given)
		s->delay_s = o->delay_s;
	if (o->no_color)
		snprintf(s->theme, sizeof(s->theme), "mono");
	else if (o->theme)
		for (size_t t = 0; t < theme_builtin_count; t++)
			if (!strcasecmp(theme_builtins[t].name, o->theme))
				snprintf(s->theme, sizeof(s->theme), "%s", theme_builtins[t].name);
	if (o->ascii)
		s->ascii = true;
	if (o->mouse)
		s->mouse = true;
}

void settings_merge(const struct settings *file, const struct settings *start,
		    const struct settings *now, struct settings *out)
{
	*out = *file;
	if (now->view != start->view)
		out->view = now->view;
	if (now->sort != start->sort)
		out->sort = now->sort;
	if (now->sort_asc != start->sort_asc)
		out->sort_asc = now->sort_asc;
	if (now->delay_s != start->delay_s)
		out->delay_s = now->delay_s;
	if (strcmp(now->theme, start->theme) != 0)
		snprintf(out->theme, sizeof(out->theme), "%s", now->theme);
	if (now->ascii != start->ascii)
		out->ascii = now->ascii;
	if (now->mouse != start->mouse)
		out->mouse = now->mouse;
}

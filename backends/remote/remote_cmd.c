/* SPDX-License-Identifier: GPL-2.0-or-later */
/* remote_cmd.c: the command lines of --remote: the --ssh text split as a shell splits it, and
 * the far side's command quoted for its shell. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/remote/src_remote.h"
#include "core/xalloc.h"

char **remote_split_argv(const char *cmd, char *err, size_t errlen)
{
	size_t cap = 8, n = 0, len = strlen(cmd);
	char **argv = xcalloc(cap, sizeof(*argv));
	char *word = xmalloc(len + 1);
	const char *p = cmd;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		size_t w = 0;
		char quote = 0;
		for (; *p && (quote || (*p != ' ' && *p != '\t' && *p != '\n')); p++) {
			if (quote == '\'') {
				if (*p == '\'')
					quote = 0;
				else
					word[w++] = *p;
			} else if (*p == '\\' && p[1] && (quote != '"' || strchr("\"\\$`", p[1]))) {
				word[w++] = *++p;
			} else if (quote == '"') {
				if (*p == '"')
					quote = 0;
				else
					word[w++] = *p;
			} else if (*p == '\'' || *p == '"') {
				quote = *p;
			} else {
				word[w++] = *p;
			}
		}
		if (quote) {
			snprintf(err, errlen, "--ssh: unclosed %c quote in '%s'", quote, cmd);
			free(word);
			argv[n] = NULL;
			remote_argv_free(argv);
			return NULL;
		}
		word[w] = '\0';
		if (n + 2 > cap) {
			cap *= 2;
			argv = xreallocarray(argv, cap, sizeof(*argv));
		}
		argv[n++] = xstrdup(word);
	}
	argv[n] = NULL;
	free(word);
	if (n == 0) {
		snprintf(err, errlen, "--ssh: empty command");
		remote_argv_free(argv);
		return NULL;
	}
	return argv;
}

void remote_argv_free(char **argv)
{
	if (!argv)
		return;
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

/* 'text' for a POSIX shell: the far side's sshd runs the command through one. */
void remote_shell_quote(char **out, size_t *len, const char *text)
{
	size_t need = *len + 4 * strlen(text) + 4;
	*out = xrealloc(*out, need);
	char *o = *out + *len;
	*o++ = ' ';
	*o++ = '\'';
	for (const char *p = text; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = '\0';
	*len = (size_t)(o - *out);
}

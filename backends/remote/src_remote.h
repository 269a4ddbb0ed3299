/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src_remote.h: remote hosts over ssh (src_remote.c): the host states and the ssh command line;
 * front ends ask the fleet through backends/source.h (source_fleet_*). */
#ifndef TT_SRC_REMOTE_H
#define TT_SRC_REMOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/source.h"

enum remote_state { REMOTE_CONNECTING, REMOTE_UP, REMOTE_DOWN };

/* The ssh command line split as a shell would (quotes, backslashes); a NULL-ended array
 * (free with remote_argv_free), or NULL with a message (an unclosed quote). */
char **remote_split_argv(const char *cmd, char *err, size_t errlen);
void remote_argv_free(char **argv);
/* Append " 'text'" to the string *out of *len bytes, quoted for a POSIX shell (the far
 * side's sshd runs the command through one). */
void remote_shell_quote(char **out, size_t *len, const char *text);

#endif

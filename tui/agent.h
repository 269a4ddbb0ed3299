/* SPDX-License-Identifier: GPL-2.0-or-later */
/* agent.h: `tunetop --agent`: snapshots out and commands in, one line each, on stdin/stdout
 * (what --remote runs over ssh; docs in tunetop.1 and README "Remote hosts"). */
#ifndef TT_AGENT_H
#define TT_AGENT_H

#include "backends/source.h"
#include "tui/options.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* One command line as agent_parse() read it. */
enum agent_cmd_kind {
	AGENT_CMD_NONE, /* an empty line: nothing asked */
	AGENT_CMD_SET,
	AGENT_CMD_INTERVAL,
	AGENT_CMD_FULL,
	AGENT_CMD_QUIT,
	AGENT_CMD_ERROR, /* reply with cmd, ok false, error */
};
struct agent_cmd {
	enum agent_cmd_kind kind;
	const char *cmd; /* the reply's "reply": "set", "interval", "error"... */
	int knob; /* SET: the knob_id (an ERROR of a set: -1 when unknown) */
	char name[128]; /* SET: the knob as written */
	char value[256]; /* SET: the value text; INTERVAL: the seconds as written */
	double delay_s; /* INTERVAL */
	char error[256]; /* ERROR: why (always valid UTF-8) */
};
/* Parse one line of len bytes (no newline; NUL bytes and invalid UTF-8 are errors, not cut
 * short). Never fails: a line it cannot read is an AGENT_CMD_ERROR. */
void agent_parse(const char *line, size_t len, struct agent_cmd *c);
/* A reply object {"reply":cmd,"ok":ok[,"knob"][,"value"][,"error"]}; NULL strings are left
 * out, text that is not UTF-8 is shown with '?' for each bad byte, so it is never NULL and
 * an error is never lost. */
json_t *agent_reply_new(const char *cmd, bool ok, const char *knob, const char *value,
			const char *error);

/* Run until stdin closes, `quit`, or a signal: 0; 1 when stdout fails other than EPIPE. */
int agent_run(struct source *src, const struct options *o);

#endif

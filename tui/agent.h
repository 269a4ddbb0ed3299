/* agent.h: `tunetop --agent`: snapshots out and commands in, one line each, on stdin/stdout
 * (what --remote runs over ssh; docs in tunetop.1 and README "Remote hosts"). */
#ifndef TT_AGENT_H
#define TT_AGENT_H

#include "backends/source.h"
#include "tui/options.h"

/* Run until stdin closes, `quit`, or a signal: 0; 1 when stdout fails other than EPIPE. */
int agent_run(struct source *src, const struct options *o);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options_check.h: what a parsed command line may not hold together (usage errors). */
#ifndef TT_OPTIONS_CHECK_H
#define TT_OPTIONS_CHECK_H

#include <stddef.h>

#include "tui/options.h"

/*
 * Options that need another (-o and --format need -b, --from/--to and --follow need
 * --replay, the store's limits need --record-dir) or exclude one: 0, or 2 with the message
 * in err naming both. source_opt: "--host" or "--backend" when one chose the source, else
 * NULL.
 */
int options_check(const struct options *o, const char *source_opt, char *err, size_t errlen);

#endif

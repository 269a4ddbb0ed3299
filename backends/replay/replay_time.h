/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay_time.h: the times replay is asked for: --from/--to and :goto's. */
#ifndef TT_REPLAY_TIME_H
#define TT_REPLAY_TIME_H

#include <stddef.h>
#include <stdint.h>

/* --from / --to: seconds after the first sample ("90", "+90"), saturating at the end of
 * time, or an ISO 8601 UTC time. 0, or KNOB_ERR_USAGE with a message. */
int replay_bound(const char *s, uint64_t first_ns, uint64_t *out, char *err, size_t errlen);
/* A sample's time (local, HH:MM:SS): the events view, the FROZEN label and replay messages. */
void replay_hms(uint64_t wall_ns, char *buf, size_t len);
/* :goto's time: "-5m"/"+30s" from the sample shown, "10:42[:30]" on that sample's day (local
 * time, as the events view shows), or an ISO 8601 UTC time. -1 when it is none of these. */
int replay_goto_time(const char *to, uint64_t shown_ns, uint64_t *out);

#endif

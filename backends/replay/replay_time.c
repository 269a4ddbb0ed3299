/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay_time.c: the times replay is asked for (--from/--to, :goto), read into wall times. */
#include "backends/replay/replay_time.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "backends/replay/recstore.h"
#include "backends/replay/snapdec.h"
#include "core/knob.h"

int replay_bound(const char *s, uint64_t first_ns, uint64_t *out, char *err, size_t errlen)
{
	char *end;
	double sec = strtod(s, &end);
	if (end != s && *end == '\0' && sec >= 0 && isfinite(sec)) {
		double room = (double)(UINT64_MAX - first_ns) / 1e9;
		*out = sec >= room ? UINT64_MAX : first_ns + (uint64_t)(sec * 1e9);
		return 0;
	}
	if (snapdec_iso8601_strict(s, out) == 0)
		return 0;
	snprintf(err, errlen,
		 "'%s' is not a time (seconds into the recording, or 2026-12-01T10:00:00Z)", s);
	return KNOB_ERR_USAGE;
}

void replay_hms(uint64_t wall_ns, char *buf, size_t len)
{
	time_t t = (time_t)(wall_ns / 1000000000ull);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
}

int replay_goto_time(const char *to, uint64_t shown_ns, uint64_t *out)
{
	uint64_t v;
	if ((to[0] == '-' || to[0] == '+') && recstore_parse_age(to + 1, &v) == 0) {
		uint64_t d = v * 1000000000ull;
		*out = to[0] == '+' ? shown_ns + d : shown_ns > d ? shown_ns - d : 0;
		return 0;
	}
	if (snapdec_iso8601_strict(to, out) == 0)
		return 0;
	int h, m, sec = 0, used = 0;
	if ((sscanf(to, "%2d:%2d:%2d%n", &h, &m, &sec, &used) == 3 ||
	     sscanf(to, "%2d:%2d%n", &h, &m, &used) == 2) &&
	    to[used] == '\0' && h >= 0 && h < 24 && m >= 0 && m < 60 && sec >= 0 && sec < 60) {
		time_t t = (time_t)(shown_ns / 1000000000ull);
		struct tm tm;
		localtime_r(&t, &tm);
		tm.tm_hour = h;
		tm.tm_min = m;
		tm.tm_sec = sec;
		tm.tm_isdst = -1;
		time_t at = mktime(&tm);
		if (at < 0)
			return -1;
		*out = (uint64_t)at * 1000000000ull;
		return 0;
	}
	return -1;
}

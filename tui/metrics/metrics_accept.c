/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics_accept.c: what a request accepts: the text format (Accept), gzip (Accept-Encoding). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tui/metrics/metrics.h"

/* The q of one media range's parameters ("; version=1.0.0; q=0.5"): 1 when absent, 0 when
 * malformed (RFC 9110 12.4.2: 0 to 1, at most 3 decimals; a bad one is read as "not"). */
static double accept_q(const char *p, const char *end)
{
	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		if (!semi)
			break;
		p = semi + 1;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (end - p >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
			char buf[16];
			size_t n = strcspn(p + 2, "; \t,");
			if (n == 0 || n >= sizeof(buf) || p + 2 + n > end)
				return 0;
			memcpy(buf, p + 2, n);
			buf[n] = '\0';
			char *e;
			double q = strtod(buf, &e);
			return *e || !(q >= 0 && q <= 1) ? 0 : q;
		}
	}
	return 1;
}

/* Whether [p, end) starts with the media type t (case-insensitive) followed by its end. */
static bool accept_type_is(const char *p, const char *end, const char *t)
{
	size_t n = strlen(t);
	if ((size_t)(end - p) < n || strncasecmp(p, t, n) != 0)
		return false;
	p += n;
	return p == end || *p == ';' || *p == ' ' || *p == '\t';
}

enum metrics_format metrics_format_for_accept(const char *accept)
{
	double om = 0, text = 0;
	if (!accept)
		return METRICS_PROM;
	for (const char *p = accept; *p;) {
		const char *end = p + strcspn(p, ",");
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		double q = accept_q(p, end);
		if (accept_type_is(p, end, "application/openmetrics-text")) {
			om = q > om ? q : om;
		} else if (accept_type_is(p, end, "text/plain") ||
			   accept_type_is(p, end, "text/*") || accept_type_is(p, end, "*/*")) {
			text = q > text ? q : text;
		}
		p = *end ? end + 1 : end;
	}
	/* OpenMetrics only where it is acceptable (q > 0) and not less preferred than the
	 * 0.0.4 text; anything else (no usable range at all included) gets the 0.0.4 text. */
	return om > 0 && om >= text ? METRICS_OPENMETRICS : METRICS_PROM;
}

bool metrics_accepts_gzip(const char *accept_encoding)
{
	double gz = -1, any = -1; /* -1: not named */
	if (!accept_encoding)
		return false;
	for (const char *p = accept_encoding; *p;) {
		const char *end = p + strcspn(p, ",");
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		double q = accept_q(p, end);
		if (accept_type_is(p, end, "gzip") || accept_type_is(p, end, "x-gzip"))
			gz = q > gz ? q : gz;
		else if (accept_type_is(p, end, "*"))
			any = q > any ? q : any;
		p = *end ? end + 1 : end;
	}
	/* RFC 9110 12.5.3: a coding named is taken at its q; "*" stands for those not named. */
	return gz >= 0 ? gz > 0 : any > 0;
}

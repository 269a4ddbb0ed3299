/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_proc.c: pure parsers of /proc text; every one bounded by len, none trusts the input. */
#include "backends/host/host_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/xalloc.h"

/* A cursor over len bytes; the text need not end in NUL. */
struct hp_cur {
	const char *p, *end;
};

static bool hp_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The next line [*ls, *le) (without '\n'); false at the end. */
static bool hp_line(struct hp_cur *c, const char **ls, const char **le)
{
	if (c->p >= c->end)
		return false;
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	*ls = c->p;
	*le = nl ? nl : c->end;
	c->p = nl ? nl + 1 : c->end;
	return true;
}

static const char *hp_skip_space(const char *p, const char *e)
{
	while (p < e && hp_is_space(*p))
		p++;
	return p;
}

/* An unsigned decimal at *pp (no sign, no spaces); advances *pp. False when none or overflow. */
static bool hp_u64(const char **pp, const char *e, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	if (p >= e || *p < '0' || *p > '9')
		return false;
	while (p < e && *p >= '0' && *p <= '9') {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
		p++;
	}
	*pp = p;
	*out = v;
	return true;
}

/* The token [s, t) equals word. */
static bool hp_tok_is(const char *s, const char *t, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(t - s) == n && memcmp(s, word, n) == 0;
}

static const char *hp_tok_end(const char *p, const char *e)
{
	while (p < e && !hp_is_space(*p))
		p++;
	return p;
}

int host_proc_percpu_row(const char *text, size_t len, const char *row, uint64_t *vals,
			 bool *present, int max)
{
	struct hp_cur c = {text, text + len};
	const char *ls, *le;
	int col_cpu[HOST_MAX_CPUS];
	int ncols = -1;

	memset(vals, 0, sizeof(*vals) * (size_t)max);
	memset(present, 0, sizeof(*present) * (size_t)max);
	while (hp_line(&c, &ls, &le)) {
		const char *p = hp_skip_space(ls, le);
		if (ncols < 0) {
			/* The header: "CPU0 CPU1 ..." (the first line that has one). */
			if (le - p < 4 || memcmp(p, "CPU", 3) != 0)
				continue;
			ncols = 0;
			while (p < le && ncols < HOST_MAX_CPUS) {
				const char *t = hp_tok_end(p, le);
				const char *q = p + 3;
				uint64_t id;
				if (t - p > 3 && memcmp(p, "CPU", 3) == 0 && hp_u64(&q, t, &id) &&
				    q == t)
					col_cpu[ncols++] = id < (uint64_t)max ? (int)id : -1;
				p = hp_skip_space(t, le);
			}
			continue;
		}
		const char *t = hp_tok_end(p, le);
		if (t == p || t[-1] != ':' || (size_t)(t - 1 - p) != strlen(row) ||
		    memcmp(p, row, (size_t)(t - 1 - p)) != 0)
			continue;
		int got = 0;
		p = hp_skip_space(t, le);
		/* The numbers stop at the description ("Function call interrupts"). */
		while (got < ncols) {
			uint64_t v;
			const char *q = p;
			if (!hp_u64(&q, le, &v) || (q < le && !hp_is_space(*q)))
				break;
			if (q == c.end)
				break; /* the text was cut here: the number may be too */
			if (col_cpu[got] >= 0) {
				vals[col_cpu[got]] = v;
				present[col_cpu[got]] = true;
			}
			got++;
			p = hp_skip_space(q, le);
		}
		return got;
	}
	return -1;
}

bool host_proc_is_pid(const char *name)
{
	if (!*name)
		return false;
	for (; *name; name++)
		if (*name < '0' || *name > '9')
			return false;
	return true;
}

double host_proc_load_pct(const struct host_cpustat *now, const struct host_cpustat *prev)
{
	if (!now->present || !prev->present || now->total <= prev->total)
		return 0;
	double pct = 100.0 * (double)(now->busy - prev->busy) / (double)(now->total - prev->total);
	return pct < 0 ? 0 : pct > 100.0 ? 100.0 : pct;
}

int host_proc_stat(const char *text, size_t len, struct host_cpustat *out, int max)
{
	struct hp_cur c = {text, text + len};
	const char *ls, *le;
	int top = -1;

	memset(out, 0, sizeof(*out) * (size_t)max);
	while (hp_line(&c, &ls, &le)) {
		const char *p = ls + 3;
		uint64_t id, f[8] = {0};
		if (le == c.end)
			break; /* no newline: a cut line, its last number may be short */
		if (le - ls < 4 || memcmp(ls, "cpu", 3) != 0 || !hp_u64(&p, le, &id) ||
		    id >= (uint64_t)max)
			continue; /* the "cpu " total line, or other rows */
		int n = 0;
		for (; n < 8; n++) {
			p = hp_skip_space(p, le);
			if (!hp_u64(&p, le, &f[n]))
				break;
		}
		if (n < 4)
			continue; /* truncated: user nice system idle are the least there is */
		/* user nice system idle iowait irq softirq steal (guest is inside user). */
		struct host_cpustat *s = &out[id];
		s->present = true;
		s->busy = f[0] + f[1] + f[2] + f[5] + f[6] + f[7];
		s->total = s->busy + f[3] + f[4];
		if ((int)id + 1 > top)
			top = (int)id + 1;
	}
	return top;
}

int host_proc_taskstat(const char *text, size_t len, struct host_taskstat *out)
{
	const char *e = text + len;
	const char *lp = memchr(text, '(', len);
	const char *rp = NULL;

	memset(out, 0, sizeof(*out));
	out->processor = -1;
	if (!lp)
		return -1;
	for (const char *q = e; q > lp;) /* the last ')' closes comm */
		if (*--q == ')') {
			rp = q;
			break;
		}
	if (!rp)
		return -1;
	size_t n = (size_t)(rp - lp - 1);
	if (n >= sizeof(out->comm))
		n = sizeof(out->comm) - 1;
	memcpy(out->comm, lp + 1, n);
	out->comm[n] = '\0';
	const char *p = hp_skip_space(rp + 1, e);
	if (p >= e)
		return -1;
	out->state = *p++;
	/* Fields 4.. follow; utime is 14, stime 15, processor 39. Some are signed. */
	for (int field = 4; field <= 39; field++) {
		p = hp_skip_space(p, e);
		if (p >= e)
			return field > 15 ? 0 : -1;
		if (*p == '-')
			p++;
		uint64_t v;
		if (!hp_u64(&p, e, &v) || p == e) /* ending at the cut: maybe short */
			return field > 15 ? 0 : -1;
		if (field == 14)
			out->utime_ticks = v;
		else if (field == 15)
			out->stime_ticks = v;
		else if (field == 22)
			out->start_ticks = v;
		else if (field == 39)
			out->processor = v < HOST_MAX_CPUS ? (int)v : -1;
	}
	return 0;
}

int host_proc_diskstats(const char *text, size_t len, const char *dev, struct host_diskstat *out)
{
	struct hp_cur c = {text, text + len};
	const char *ls, *le;

	memset(out, 0, sizeof(*out));
	while (hp_line(&c, &ls, &le)) {
		const char *p = hp_skip_space(ls, le);
		uint64_t f[12];
		if (le == c.end)
			break; /* a cut line */
		for (int i = 0; i < 2; i++) { /* major minor */
			if (!hp_u64(&p, le, &f[0]))
				goto next;
			p = hp_skip_space(p, le);
		}
		const char *t = hp_tok_end(p, le);
		if (!hp_tok_is(p, t, dev))
			continue;
		p = t;
		for (int i = 0; i < 9; i++) {
			p = hp_skip_space(p, le);
			if (!hp_u64(&p, le, &f[i]))
				return -1;
		}
		out->reads = f[0];
		out->writes = f[4];
		out->in_flight = f[8];
		return 0;
	next:;
	}
	return -1;
}

int host_proc_cpuinfo_mhz(const char *text, size_t len, uint32_t *mhz, int max)
{
	struct hp_cur c = {text, text + len};
	const char *ls, *le;
	int cur = -1, filled = 0;

	while (hp_line(&c, &ls, &le)) {
		const char *colon = memchr(ls, ':', (size_t)(le - ls));
		if (!colon)
			continue;
		const char *v = hp_skip_space(colon + 1, le);
		uint64_t x;
		if (le - ls >= 9 && memcmp(ls, "processor", 9) == 0) {
			cur = hp_u64(&v, le, &x) && x < (uint64_t)max ? (int)x : -1;
		} else if (le - ls >= 7 && memcmp(ls, "cpu MHz", 7) == 0 && cur >= 0) {
			if (hp_u64(&v, le, &x) && x < 1000000) {
				mhz[cur] = (uint32_t)x;
				filled++;
			}
			cur = -1;
		}
	}
	return filled;
}

char *host_proc_slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (cap - n < 2) {
			if (cap >= (16u << 20)) /* /proc files here are small; stop a runaway */
				break;
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		ssize_t r = read(fd, buf + n, cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			free(buf);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

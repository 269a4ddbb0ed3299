/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics_process.c: the process_* families every Prometheus client library exports, from
 * /proc/self at the moment a text is handed out. */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tui/metrics/metrics_int.h"

struct proc_figures {
	unsigned long long utime, stime, start_ticks, vsize;
	long long rss_pages;
	double btime;
	long open_fds;
	double max_fds;
};

/* /proc/self/stat's fields after the command (which may hold spaces and parentheses). */
static bool proc_stat(struct proc_figures *p)
{
	char buf[1024];
	FILE *f = fopen("/proc/self/stat", "re");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *s = strrchr(buf, ')');
	/* After ")": state(3) ... utime(14) stime(15) ... starttime(22) vsize(23) rss(24). */
	return s && sscanf(s + 1,
			   " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d "
			   "%*d %*d %*d %llu %llu %lld",
			   &p->utime, &p->stime, &p->start_ticks, &p->vsize, &p->rss_pages) == 5;
}

/* The boot time (/proc/stat btime), seconds since the epoch; 0 unknown. */
static double proc_btime(void)
{
	char line[256];
	double bt = 0;
	FILE *f = fopen("/proc/stat", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "btime %lf", &bt) == 1)
			break;
	fclose(f);
	return bt;
}

static long proc_open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	long n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* not the directory's own descriptor */
}

static void put_family(struct metrics_buf *b, enum metrics_format fmt, enum metric_id id,
		       const char *value)
{
	const struct metric_family *f = &metric_families[id];
	bool om = fmt == METRICS_OPENMETRICS;
	bool counter = f->type == MT_COUNTER;
	char line[512];
	/* As metrics.c writes a header: 0.0.4 names a counter with its _total. */
	int n = snprintf(line, sizeof(line), "# HELP %s%s %s\n# TYPE %s%s %s\n", f->name,
			 !om && counter ? "_total" : "", f->help, f->name,
			 !om && counter ? "_total" : "", metrics_type_name(f->type));
	if (n > 0 && (size_t)n < sizeof(line))
		metrics_buf_put(b, line, (size_t)n);
	if (om && f->unit[0]) {
		n = snprintf(line, sizeof(line), "# UNIT %s %s\n", f->name, f->unit);
		if (n > 0 && (size_t)n < sizeof(line))
			metrics_buf_put(b, line, (size_t)n);
	}
	n = snprintf(line, sizeof(line), "%s%s %s\n", f->name, counter ? "_total" : "", value);
	if (n > 0 && (size_t)n < sizeof(line))
		metrics_buf_put(b, line, (size_t)n);
}

void metrics_add_process(struct metrics_buf *b, enum metrics_format fmt)
{
	static const char eof[] = "# EOF\n";
	struct proc_figures p = {0};
	char v[64];
	bool om = fmt == METRICS_OPENMETRICS;
	long tick = sysconf(_SC_CLK_TCK), page = sysconf(_SC_PAGESIZE);

	if (om && b->len >= sizeof(eof) - 1 &&
	    strcmp(b->p + b->len - (sizeof(eof) - 1), eof) == 0) {
		b->len -= sizeof(eof) - 1;
		b->p[b->len] = '\0';
	}
	if (tick > 0 && proc_stat(&p)) {
		snprintf(v, sizeof(v), "%.2f", (double)(p.utime + p.stime) / (double)tick);
		put_family(b, fmt, M_PROC_CPU, v);
		snprintf(v, sizeof(v), "%lld", p.rss_pages * (long long)(page > 0 ? page : 4096));
		put_family(b, fmt, M_PROC_RSS, v);
		snprintf(v, sizeof(v), "%llu", p.vsize);
		put_family(b, fmt, M_PROC_VSZ, v);
		double bt = proc_btime();
		if (bt > 0) {
			snprintf(v, sizeof(v), "%.2f", bt + (double)p.start_ticks / (double)tick);
			put_family(b, fmt, M_PROC_START, v);
		}
	}
	long fds = proc_open_fds();
	if (fds >= 0) {
		snprintf(v, sizeof(v), "%ld", fds);
		put_family(b, fmt, M_PROC_OPEN_FDS, v);
	}
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)rl.rlim_cur);
		put_family(b, fmt, M_PROC_MAX_FDS, v);
	}
	if (om)
		metrics_buf_put(b, eof, sizeof(eof) - 1);
}

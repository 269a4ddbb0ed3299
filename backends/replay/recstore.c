/* SPDX-License-Identifier: GPL-2.0-or-later */
/* recstore.c: the recording store's names, its directory checks, its listing and retention;
 * the writer thread that rotates into it is in recfile.c. */
#include "backends/replay/recstore.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/safefile.h"
#include "core/xalloc.h"

/* Whether another process holds name's lock (core/safefile.h SAFEFILE_LOCK): it is being
 * written, and retention leaves it. */
static bool recstore_in_use(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool busy = flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
	close(fd); /* and with it the lock just taken */
	return busy;
}

/* A number with an optional unit from units (each with its multiplier); -1 when not one. */
static int parse_unit(const char *s, const char *const *units, const uint64_t *mult, uint64_t *out)
{
	char *end;
	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	for (int i = 0; units[i]; i++)
		if (strcasecmp(end, units[i]) == 0) {
			if (v > UINT64_MAX / mult[i])
				return -1;
			*out = v * mult[i];
			return 0;
		}
	return -1;
}

int recstore_parse_size(const char *s, uint64_t *out)
{
	static const char *const units[] = {"",	  "b",	 "k", "kb", "kib", "m",
					    "mb", "mib", "g", "gb", "gib", NULL};
	static const uint64_t mult[] = {1,	  1,	    1u << 10, 1u << 10, 1u << 10, 1u << 20,
					1u << 20, 1u << 20, 1u << 30, 1u << 30, 1u << 30};
	return parse_unit(s, units, mult, out);
}

int recstore_parse_age(const char *s, uint64_t *out)
{
	static const char *const units[] = {"", "s", "m", "min", "h", "d", "w", NULL};
	static const uint64_t mult[] = {1, 1, 60, 60, 3600, 86400, 7 * 86400};
	return parse_unit(s, units, mult, out);
}

int recstore_parse_rotate(const char *s, struct recstore_conf *c)
{
	uint64_t v;
	/* An age has s/m/h/d/w; a size has b/k/m/g with a B or iB: "m" alone is minutes. */
	size_t n = s ? strlen(s) : 0;
	bool size = n && (strchr("bBkKgG", s[n - 1]) || (n > 1 && strchr("bB", s[n - 1])));
	if (size ? recstore_parse_size(s, &v) != 0 : recstore_parse_age(s, &v) != 0)
		return -1;
	if (v == 0)
		return -1;
	c->rotate_s = size ? 0 : v;
	c->rotate_bytes = size ? v : 0;
	return 0;
}

static bool all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* Whether name is one of the store's files (only those are ever read or deleted). */
static bool recstore_is_name(const char *name)
{
	size_t pl = strlen(RECSTORE_PREFIX), sl = strlen(RECSTORE_SUFFIX), n = strlen(name);
	if (n < pl + 15 + sl || strncmp(name, RECSTORE_PREFIX, pl) != 0 ||
	    strcmp(name + n - sl, RECSTORE_SUFFIX) != 0)
		return false;
	const char *t = name + pl; /* YYYYMMDD-HHMMSS, then "" or "_NNN" */
	size_t rest = n - pl - sl;
	if (!all_digits(t, 8) || t[8] != '-' || !all_digits(t + 9, 6))
		return false;
	return rest == 15 || (rest == 19 && t[15] == '_' && all_digits(t + 16, 3));
}

void recstore_name(uint64_t wall_ns, char *buf, size_t len)
{
	time_t t = (time_t)(wall_ns / 1000000000ull);
	struct tm tm;
	char stamp[24];
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, RECSTORE_PREFIX "%s" RECSTORE_SUFFIX, stamp);
}

uint64_t recstore_name_time(const char *name)
{
	struct tm tm = {0};
	const char *t = name + strlen(RECSTORE_PREFIX);
	if (!recstore_is_name(name) ||
	    sscanf(t, "%4d%2d%2d-%2d%2d%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
		   &tm.tm_min, &tm.tm_sec) != 6)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	time_t s = timegm(&tm);
	return s < 0 ? 0 : (uint64_t)s;
}

/* dir's parent opened as a write target's directory is (core/safefile.h: no symlink of
 * another user among its components): 0, or -1 / SAFEFILE_REFUSED. */
static int recstore_check_parent(const char *dir, char *err, size_t errlen)
{
	const char *slash = strrchr(dir, '/');
	size_t plen = !slash ? 1 : slash == dir ? 1 : (size_t)(slash - dir);
	char *parent = xmalloc(plen + 1);
	memcpy(parent, slash ? dir : ".", plen);
	parent[plen] = '\0';
	int fd = safefile_open_dir(parent, err, errlen);
	free(parent);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int recstore_check_dir(const char *dir, bool create, char *err, size_t errlen)
{
	struct stat st;
	int prc = recstore_check_parent(dir, err, errlen);
	if (prc != 0)
		return prc;
	if (lstat(dir, &st) != 0) {
		if (errno != ENOENT || !create) {
			snprintf(err, errlen, "%s: %s", dir, strerror(errno));
			return -1;
		}
		/* Recordings show what runs on the machine: not for every user to read. */
		if (mkdir(dir, 0750) != 0 && errno != EEXIST) {
			snprintf(err, errlen, "%s: %s", dir, strerror(errno));
			return -1;
		}
		if (lstat(dir, &st) != 0) {
			snprintf(err, errlen, "%s: %s", dir, strerror(errno));
			return -1;
		}
	}
	if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", dir,
			 S_ISLNK(st.st_mode) ? "is a symlink" : "not a directory");
		return SAFEFILE_REFUSED;
	}
	/* Another user's directory could be swapped under us or filled with their names. */
	if (create && st.st_uid != geteuid()) {
		snprintf(err, errlen, "%s: not owned by us (uid %u)", dir, (unsigned)st.st_uid);
		return SAFEFILE_REFUSED;
	}
	/* So could one others may write to: they would plant names the recorder then skips,
	 * and entries that are no recording for the reader. */
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, errlen, "%s: others can write to it (mode %04o; a store is 0750)",
			 dir, (unsigned)(st.st_mode & 07777));
		return SAFEFILE_REFUSED;
	}
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int recstore_list(const char *dir, char ***names, size_t *n, size_t *odd, char *err, size_t errlen)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	*names = NULL;
	*n = 0;
	if (!d) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	size_t cap = 0;
	struct dirent *de;
	struct stat st;
	if (odd)
		*odd = 0;
	while ((de = readdir(d))) {
		if (!recstore_is_name(de->d_name))
			continue;
		/* A symlink, a FIFO or a folder under a store file's name is no recording. */
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode)) {
			if (odd)
				(*odd)++;
			continue;
		}
		if (*n == cap) {
			cap = cap ? cap * 2 : 32;
			*names = xreallocarray(*names, cap, sizeof(**names));
		}
		(*names)[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof(**names), name_cmp);
	return 0;
}

void recstore_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int recstore_retain(const struct recstore_conf *c, uint64_t now_ns, const char *keep)
{
	char **names;
	size_t n, gone = 0;
	char err[256];
	if ((!c->keep_s && !c->max_bytes) ||
	    recstore_list(c->dir, &names, &n, NULL, err, sizeof(err)))
		return 0;
	int dfd = open(c->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		recstore_names_free(names, n);
		return 0;
	}
	uint64_t *size = xcalloc(n ? n : 1, sizeof(*size)), total = 0;
	uint64_t *mtime = xcalloc(n ? n : 1, sizeof(*mtime));
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode)) {
			size[i] = (uint64_t)st.st_size;
			mtime[i] = st.st_mtime > 0 ? (uint64_t)st.st_mtime : 0;
		}
		total += size[i];
	}
	uint64_t now = now_ns / 1000000000ull;
	for (size_t i = 0; i < n; i++) {
		if (keep && strcmp(names[i], keep) == 0)
			break; /* the file being written, and anything newer, stay */
		/* A file's last sample is its last write (or, without one, the next file's
		 * start): it goes once that is too old. */
		uint64_t end = mtime[i]	   ? mtime[i]
			       : i + 1 < n ? recstore_name_time(names[i + 1])
					   : now;
		bool old = c->keep_s && end + c->keep_s < now;
		bool big = c->max_bytes && total + c->rotate_bytes > c->max_bytes;
		if (!old && !big)
			break;
		if (recstore_in_use(dfd, names[i]))
			continue; /* another process writes it (--record FILE into the store) */
		if (unlinkat(dfd, names[i], 0) == 0) {
			total -= size[i];
			gone++;
		}
	}
	free(size);
	free(mtime);
	close(dfd);
	recstore_names_free(names, n);
	return (int)gone;
}

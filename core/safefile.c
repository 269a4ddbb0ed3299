/* SPDX-License-Identifier: GPL-2.0-or-later */
/* safefile.c: opening a file to write (checked target, stream or atomic replacement) or to read
 * (regular files only); the bounded whole-file read is in zread.c. */
#include "core/safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "core/xalloc.h"

/* statfs f_type values (linux/magic.h), here to avoid a kernel header for two numbers. */
#define SAFEFILE_PROC_MAGIC 0x9fa0
#define SAFEFILE_SYSFS_MAGIC 0x62656572
/* Names tried for a temporary file before giving up (each one random). */
#define SAFEFILE_TMP_TRIES 64

static const char *safefile_kind(mode_t m)
{
	if (S_ISLNK(m))
		return "a symlink";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	return "not a regular file";
}

static bool safefile_is_devnull(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3;
}

/* Whether st may be written to: a regular file, or /dev/null when flags allow it. */
static bool safefile_target_ok(const struct stat *st, unsigned flags)
{
	return S_ISREG(st->st_mode) || ((flags & SAFEFILE_DEVNULL_OK) && safefile_is_devnull(st));
}

/*
 * Open directory dir one component at a time. A component that is a symlink is followed only
 * when we or root own it (the operator's own path: /var/run -> /run, a link made by hand); one
 * another user owns (planted in a shared or sticky directory, it could point anywhere) is
 * refused, naming path. The descriptor, or -1 / SAFEFILE_REFUSED with a message.
 */
static int safefile_walk(const char *dir, const char *path, char *err, size_t errlen)
{
	int fd = open(dir[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *copy = xstrdup(dir), *save = NULL;
	for (char *c = strtok_r(copy, "/", &save); c && fd >= 0; c = strtok_r(NULL, "/", &save)) {
		int next = openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (next < 0 && (errno == ELOOP || errno == ENOTDIR) &&
		    fstatat(fd, c, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
			if (st.st_uid != geteuid() && st.st_uid != 0) {
				snprintf(err, errlen, "%s: '%s' is a symlink of uid %u, not ours",
					 path, c, (unsigned)st.st_uid);
				close(fd);
				free(copy);
				return SAFEFILE_REFUSED;
			}
			next = openat(fd, c, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		}
		int e = errno;
		close(fd);
		fd = next;
		errno = e;
	}
	free(copy);
	if (fd < 0)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	return fd < 0 ? -1 : fd;
}

int safefile_open_dir(const char *dir, char *err, size_t errlen)
{
	return safefile_walk(dir, dir, err, errlen);
}

/* Split path into its directory (opened, dirfd) and its last name (*base, xstrdup'd). */
static int safefile_dir_open(const char *path, char **base, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	if (!*path) {
		snprintf(err, errlen, "an empty file name");
		return SAFEFILE_REFUSED;
	}
	if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		snprintf(err, errlen, "%s: is a directory", path);
		return SAFEFILE_REFUSED;
	}
	size_t dlen = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 1;
	char *dir = xmalloc(dlen + 1);
	memcpy(dir, slash ? path : ".", dlen);
	dir[dlen] = '\0';
	int dirfd = safefile_walk(dir, path, err, errlen);
	free(dir);
	if (dirfd < 0)
		return dirfd;
	struct statfs sf;
	if (fstatfs(dirfd, &sf) == 0 &&
	    (sf.f_type == SAFEFILE_PROC_MAGIC || sf.f_type == SAFEFILE_SYSFS_MAGIC)) {
		snprintf(err, errlen, "%s: is under %s", path,
			 sf.f_type == SAFEFILE_PROC_MAGIC ? "/proc" : "/sys");
		close(dirfd);
		return SAFEFILE_REFUSED;
	}
	*base = xstrdup(name);
	return dirfd;
}

/* The checks on the name as it is now (without following it); 0 also when it does not exist. */
static int safefile_check_at(int dirfd, const char *base, const char *path, unsigned flags,
			     char *err, size_t errlen)
{
	struct stat st;
	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!safefile_target_ok(&st, flags)) {
		snprintf(err, errlen, "%s: is %s", path, safefile_kind(st.st_mode));
		return SAFEFILE_REFUSED;
	}
	return 0;
}

int safefile_check_target(const char *path, unsigned flags, char *err, size_t errlen)
{
	char *base = NULL;
	int dirfd = safefile_dir_open(path, &base, err, errlen);
	if (dirfd < 0)
		return dirfd;
	int rc = safefile_check_at(dirfd, base, path, flags, err, errlen);
	free(base);
	close(dirfd);
	return rc;
}

int safefile_open_stream(const char *path, unsigned flags, char *err, size_t errlen)
{
	char *base = NULL;
	int dirfd = safefile_dir_open(path, &base, err, errlen);
	if (dirfd < 0)
		return dirfd;
	/* The check first, so a device or a FIFO is never opened at all (opening some devices
	 * does something); the fstat after the open catches a swap in between. */
	int rc = safefile_check_at(dirfd, base, path, flags, err, errlen);
	int fd = -1;
	if (rc == 0) {
		fd = openat(dirfd, base,
			    O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
			    0644);
		if (fd < 0) {
			rc = errno == ELOOP   ? SAFEFILE_REFUSED
			     : errno == ENXIO ? SAFEFILE_REFUSED
					      : -1;
			snprintf(err, errlen, "%s: %s", path,
				 errno == ELOOP	  ? "is a symlink"
				 : errno == ENXIO ? "is a FIFO"
						  : strerror(errno));
		}
	}
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && !safefile_target_ok(&st, flags)) {
		snprintf(err, errlen, "%s: is %s", path, safefile_kind(st.st_mode));
		rc = SAFEFILE_REFUSED;
	} else if (fd >= 0 && S_ISREG(st.st_mode) && st.st_uid != geteuid()) {
		/* Another user's file (made first in a shared directory) would stay theirs:
		 * they could read what we write and add to it. */
		snprintf(err, errlen, "%s: owned by uid %u, not us", path, (unsigned)st.st_uid);
		rc = SAFEFILE_REFUSED;
	} else if (fd >= 0 && S_ISREG(st.st_mode) && (flags & SAFEFILE_LOCK) &&
		   flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
		snprintf(err, errlen, "%s: another process is writing it (it holds its lock)",
			 path);
		rc = -1;
	} else if (fd >= 0 && S_ISREG(st.st_mode) && !(flags & SAFEFILE_APPEND) &&
		   ftruncate(fd, 0) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rc = -1;
	} else if (fd >= 0) {
		int fl = fcntl(fd, F_GETFL);
		if (fl >= 0)
			fcntl(fd, F_SETFL,
			      (fl & ~O_NONBLOCK) | ((flags & SAFEFILE_APPEND) ? O_APPEND : 0));
	}
	if (rc != 0 && fd >= 0) {
		close(fd);
		fd = -1;
	}
	free(base);
	close(dirfd);
	return rc != 0 ? rc : fd;
}

/* A name nobody can guess: 12 hex digits from getrandom (the clock and pid only when the
 * kernel has no entropy to give, which O_EXCL still makes safe, merely guessable). */
static void safefile_tmp_name(char *buf, size_t len, const char *base)
{
	unsigned char r[6];
	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		uint64_t x =
		    (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 20) ^ (uint64_t)ts.tv_sec;
		memcpy(r, &x, sizeof(r));
	}
	/* A dot first: node_exporter's collector, globbing *.prom, never reads a half file. */
	snprintf(buf, len, ".%.60s.%02x%02x%02x%02x%02x%02x", base, r[0], r[1], r[2], r[3], r[4],
		 r[5]);
}

int safefile_replace_begin(struct safefile_tmp *t, const char *path, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	t->fd = t->dirfd = -1;
	int dirfd = safefile_dir_open(path, &t->base, err, errlen);
	if (dirfd < 0)
		return dirfd;
	t->dirfd = dirfd;
	int rc = safefile_check_at(dirfd, t->base, path, 0, err, errlen);
	for (int i = 0; rc == 0 && i < SAFEFILE_TMP_TRIES; i++) {
		safefile_tmp_name(t->tmp, sizeof(t->tmp), t->base);
		t->fd = openat(dirfd, t->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			       0644);
		if (t->fd >= 0 || errno != EEXIST)
			break;
	}
	if (rc == 0 && t->fd < 0) {
		snprintf(err, errlen, "%s: a temporary file in its directory: %s", path,
			 strerror(errno));
		rc = -1;
	}
	if (rc != 0) {
		close(dirfd);
		free(t->base);
		t->base = NULL;
		t->dirfd = -1;
		return rc;
	}
	t->path = xstrdup(path);
	return 0;
}

static void safefile_tmp_free(struct safefile_tmp *t)
{
	if (t->dirfd >= 0)
		close(t->dirfd);
	free(t->base);
	free(t->path);
	t->base = t->path = NULL;
	t->dirfd = t->fd = -1;
}

void safefile_replace_abort(struct safefile_tmp *t)
{
	if (t->fd >= 0)
		close(t->fd);
	if (t->dirfd >= 0)
		unlinkat(t->dirfd, t->tmp, 0);
	safefile_tmp_free(t);
}

int safefile_replace_commit(struct safefile_tmp *t, char *err, size_t errlen)
{
	/* No fsync: a replaced file (metrics text, a picture) is rewritten or redone; after a
	 * crash the old one or an empty one is there, and fsync would stall the batch loop. A
	 * symlink planted at the target since the check is replaced itself, never followed. */
	int fd = t->fd;
	t->fd = -1;
	if (close(fd) != 0 || renameat(t->dirfd, t->tmp, t->dirfd, t->base) != 0) {
		snprintf(err, errlen, "%s: %s", t->path, strerror(errno));
		safefile_replace_abort(t);
		return -1;
	}
	safefile_tmp_free(t);
	return 0;
}

int safefile_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int safefile_replace(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
	struct safefile_tmp t;
	int rc = safefile_replace_begin(&t, path, err, errlen);
	if (rc != 0)
		return rc;
	if (safefile_write_all(t.fd, data, len) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		safefile_replace_abort(&t);
		return -1;
	}
	return safefile_replace_commit(&t, err, errlen);
}

static int safefile_open_read_flags(const char *path, int flags, char *err, size_t errlen)
{
	struct stat st;
	/* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | flags);
	if (fd < 0 && errno == ELOOP && (flags & O_NOFOLLOW) && lstat(path, &st) == 0 &&
	    S_ISLNK(st.st_mode)) {
		snprintf(err, errlen, "%s: is a symlink", path);
		return SAFEFILE_REFUSED;
	}
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s, not a regular file", path,
			 safefile_kind(st.st_mode));
		close(fd);
		return SAFEFILE_REFUSED;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int safefile_open_read(const char *path, char *err, size_t errlen)
{
	return safefile_open_read_flags(path, 0, err, errlen);
}

int safefile_open_read_nofollow(const char *path, char *err, size_t errlen)
{
	return safefile_open_read_flags(path, O_NOFOLLOW, err, errlen);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host_blk.c: rq_affinity read and write through an allowlisted sysfs path. */
#include "backends/host/host_blk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool host_blk_name_valid(const char *name)
{
	size_t n = name ? strlen(name) : 0;
	if (n == 0 || n >= HOST_BLK_NAME_MAX || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == ':' || c == '-'))
			return false;
	}
	return true;
}

int host_blk_rq_path(const char *dev, char *out, size_t outlen, char *err, size_t errlen)
{
	char dir[128];
	struct stat st;

	if (!host_blk_name_valid(dev)) {
		snprintf(err, errlen, "blk device '%s' is not a valid name (letters, digits, _.:-)",
			 dev ? dev : "");
		return -1;
	}
	snprintf(dir, sizeof(dir), HOST_BLK_SYSFS "/%s", dev);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "blk device %s: no such device under " HOST_BLK_SYSFS, dev);
		return -1;
	}
	snprintf(out, outlen, HOST_BLK_SYSFS "/%s/queue/rq_affinity", dev);
	if (access(out, F_OK) != 0) {
		snprintf(err, errlen, "blk device %s has no queue/rq_affinity", dev);
		return -1;
	}
	return 0;
}

int host_blk_rq_affinity_read(const char *dev, char *err, size_t errlen)
{
	char path[192], buf[16];
	if (host_blk_rq_path(dev, path, sizeof(path), err, errlen) != 0)
		return -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || buf[0] < '0' || buf[0] > '2') {
		snprintf(err, errlen, "%s: unexpected content", path);
		return -1;
	}
	return buf[0] - '0';
}

int host_blk_rq_affinity_write(const char *dev, int v, char *err, size_t errlen)
{
	char path[192], buf[4];
	if (v < 0 || v > 2) {
		/* The kernel would take 3.. and change nothing (docs/blk.md §6): say so. */
		snprintf(err, errlen,
			 "blk.rq_affinity: %d is not 0, 1 or 2 (the kernel ignores other values)",
			 v);
		return -1;
	}
	if (host_blk_rq_path(dev, path, sizeof(path), err, errlen) != 0)
		return -1;
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "blk.rq_affinity: %s: %s%s", path, strerror(e),
			 e == EACCES || e == EPERM || e == EROFS ? " (needs root)" : "");
		return -1;
	}
	int n = snprintf(buf, sizeof(buf), "%d\n", v);
	ssize_t w = write(fd, buf, (size_t)n);
	int e = errno;
	close(fd);
	if (w != n) {
		snprintf(err, errlen, "blk.rq_affinity: write %s: %s%s", path,
			 w < 0 ? strerror(e) : "short write",
			 w < 0 && (e == EACCES || e == EPERM) ? " (needs root)" : "");
		return -1;
	}
	/* The write took. What sysfs holds now (another writer may have followed at once) is
	 * read back by the caller and is the answer (backends/host/src_host.c): not an error. */
	return 0;
}

static int blk_rank(const char *name)
{
	if (strncmp(name, "loop", 4) == 0 || strncmp(name, "zram", 4) == 0 ||
	    strncmp(name, "ram", 3) == 0 || strncmp(name, "nbd", 3) == 0)
		return 1;
	return 0;
}

int host_blk_default_dev(char *out, size_t outlen)
{
	DIR *d = opendir(HOST_BLK_SYSFS);
	char best[HOST_BLK_NAME_MAX] = "";
	int best_rank = 99;
	struct dirent *de;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char path[192], err[8];
		if (!host_blk_name_valid(de->d_name) ||
		    host_blk_rq_path(de->d_name, path, sizeof(path), err, sizeof(err)) != 0)
			continue;
		int r = blk_rank(de->d_name);
		/* Lowest rank, then the smallest name: stable from one run to the next. */
		if (r < best_rank || (r == best_rank && strcmp(de->d_name, best) < 0)) {
			best_rank = r;
			memcpy(best, de->d_name,
			       strlen(de->d_name) + 1); /* valid: < HOST_BLK_NAME_MAX */
		}
	}
	closedir(d);
	if (!best[0])
		return -1;
	snprintf(out, outlen, "%s", best);
	return 0;
}

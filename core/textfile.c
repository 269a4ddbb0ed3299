/* SPDX-License-Identifier: GPL-2.0-or-later */
/* textfile.c: read a small regular text file (opened by core/safefile.h, so never a FIFO or a
 * device). */
#include "core/textfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/safefile.h"
#include "core/xalloc.h"

/* Strip a leading UTF-8 BOM (EF BB BF) in place; returns the new length. */
static size_t textfile_strip_bom(char *buf, size_t len)
{
	if (len >= 3 && (unsigned char)buf[0] == 0xEF && (unsigned char)buf[1] == 0xBB &&
	    (unsigned char)buf[2] == 0xBF) {
		memmove(buf, buf + 3, len - 3);
		len -= 3;
		buf[len] = '\0';
	}
	return len;
}

int textfile_read(const char *path, size_t max_bytes, char **buf, size_t *len, char *err,
		  size_t errlen)
{
	int fd = safefile_open_read(path, err, errlen);
	if (fd < 0)
		return -1;
	char *b = xmalloc(max_bytes + 2);
	size_t n = 0;
	while (n < max_bytes + 1) {
		ssize_t r = read(fd, b + n, max_bytes + 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			close(fd);
			free(b);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	b[n] = '\0';
	*len = textfile_strip_bom(b, n);
	*buf = b;
	return 0;
}

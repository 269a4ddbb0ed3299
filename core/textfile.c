/* textfile.c: read a small regular text file without blocking on FIFOs or devices. */
#include "core/textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xalloc.h"

size_t textfile_strip_bom(char *buf, size_t len)
{
	if (len >= 3 && (unsigned char)buf[0] == 0xEF && (unsigned char)buf[1] == 0xBB &&
	    (unsigned char)buf[2] == 0xBF) {
		memmove(buf, buf + 3, len - 3);
		len -= 3;
		buf[len] = '\0';
	}
	return len;
}

static const char *textfile_kind(mode_t m)
{
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

int textfile_read(const char *path, size_t max_bytes, char **buf, size_t *len, char *err,
		  size_t errlen)
{
	struct stat st;
	/* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s, not a regular file", path,
			 fstat(fd, &st) != 0 ? strerror(errno) : textfile_kind(st.st_mode));
		close(fd);
		return -1;
	}
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

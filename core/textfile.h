/* SPDX-License-Identifier: GPL-2.0-or-later */
/* textfile.h: read a small text file (scenario, theme) without ever blocking on it. */
#ifndef TT_TEXTFILE_H
#define TT_TEXTFILE_H

#include <stddef.h>

/*
 * Read up to max_bytes + 1 bytes of path into a NUL-terminated buffer (*buf, free()
 * it), so a caller sees *len > max_bytes for a file too large. Only a regular file
 * is read: a FIFO, a device or a directory is refused, so start-up never waits on
 * one (opened by safefile_open_read, core/safefile.h: O_NONBLOCK, then fstat on that
 * fd, so it cannot be swapped between the check and the read). A UTF-8 byte order
 * mark is dropped. Returns 0, or -1 with "path: why" in err.
 */
int textfile_read(const char *path, size_t max_bytes, char **buf, size_t *len, char *err,
		  size_t errlen);

#endif

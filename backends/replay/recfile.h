/* SPDX-License-Identifier: GPL-2.0-or-later */
/* recfile.h: recordings on disk: JSON Lines, plain or compressed (.zst with libzstd, .gz with
 * zlib), written by a thread that flushes every line (core/zread.h reads them). */
#ifndef TT_RECFILE_H
#define TT_RECFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Lines per zstd frame the writer writes: a reader's restart point each (core/zread.h). */
#define RECFILE_FRAME_LINES 60

struct recfile_writer;
struct recstore_conf;
/* Create (truncate) path and start the writer thread; NULL with a message and *status: 2 for
 * a target refused for what it is (a symlink, a FIFO, a device: core/safefile.h), 1 else; 0
 * when it opens. A .zst stream is a frame with a checksum every RECFILE_FRAME_LINES lines
 * (docs/recording.md). */
struct recfile_writer *recfile_open(const char *path, int *status, char *err, size_t errlen);
/* The same into a store (backends/replay/recstore.h): DIR checked (and made), its first file
 * started; the writer thread rotates and applies retention. Every file is zstd. */
struct recfile_writer *recfile_open_store(const struct recstore_conf *c, int *status, char *err,
					  size_t errlen);
/*
 * Queue one line (without its newline) for the writer thread, which writes and flushes it
 * (compressed streams with a sync flush): the caller never waits for the disk. When the
 * queue is full (the disk stalls) the line is dropped and counted. Returns false then.
 */
bool recfile_put(struct recfile_writer *w, const char *line);
/* Lines dropped so far, and the first write error ("" none); for the status line. */
uint64_t recfile_dropped(struct recfile_writer *w);
void recfile_error(struct recfile_writer *w, char *buf, size_t len);
/* Write what is queued, end the stream, join the thread, free; 0, or -1 with the first error
 * seen ("write: No space left on device") in err. */
int recfile_close(struct recfile_writer *w, char *err, size_t errlen);

#endif

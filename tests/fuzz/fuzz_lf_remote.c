/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_lf_remote.c: libFuzzer target for the remote stream as a whole: the input is what a
 * far side's agent wrote, read by one host's link (backends/remote/remote_host.c) in its pumps, the
 * lines handled as the console does (snapshots, deltas onto the stored one, replies, garbage).
 * After every pump the memory a far side controls stays in its bounds: the line buffer, the
 * rebuilt snapshot's weight (and that weight is exact), the decoded arrays. `make fuzz`
 * builds it with clang -fsanitize=fuzzer; otherwise it replays tests/fuzz/corpus/remote/. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backends/remote/jdelta.h"
#include "backends/remote/remote_int.h"
#include "core/clock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct remote *r = calloc(1, sizeof(*r));
	struct remote_host *h = calloc(1, sizeof(*h));
	/* The far side's stdout: a memfd, read to its end (then "the link closed": down). */
	int fd = memfd_create("fuzz_lf_remote", 0);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || lseek(fd, 0, SEEK_SET))
		abort();
	r->h = h;
	r->n = 1;
	r->delay_s = 1;
	remote_host_init(h, "fuzz");
	h->from_fd = fd;
	h->state = REMOTE_CONNECTING;
	h->start_ns = h->last_rx_ns = clock_mono_ns();
	for (int i = 0; h->state != REMOTE_DOWN; i++) {
		remote_host_pump(r, h, clock_mono_ns());
		if (h->len > REMOTE_LINE_MAX + REMOTE_PUMP_BYTES || h->cur_weight > REMOTE_TREE_MAX)
			abort();
		if (h->cur && jdelta_weight(h->cur) != h->cur_weight)
			abort(); /* the bound counts what is really held */
		if (h->snap->nthreads > h->snap->threads_cap && h->snap->nthreads)
			abort();
		if (i > 100000)
			abort(); /* a pump that never ends the stream */
	}
	remote_host_reap(h, 0);
	free(h);
	free(r);
	return 0;
}

#include "fuzz/lf_replay.h"
#ifndef TT_LIBFUZZER
int main(void)
{
	return lf_replay("remote");
}
#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_lf_recread.c: libFuzzer target for core/zread.c and backends/replay/replay_index.c as
 * replay reads a recording: any bytes as a file (plain, or gzip/zstd by their magic), indexed
 * in one pass; then every line the index found is read back from its place, last to first
 * (so each seek goes back), and must be the line the index saw: starting with '{', as long as
 * the index said. An error always says why. `make fuzz` builds it with clang
 * -fsanitize=fuzzer; otherwise it replays tests/fuzz/corpus/recread/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backends/replay/replay_index.h"
#include "core/safefile.h"
#include "core/zread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz_recread", MFD_CLOEXEC);
	if (fd < 0 || safefile_write_all(fd, data, size) != 0)
		abort();
	char path[64], err[512] = "";
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct zread *r;
	if (zread_open(path, &safefile_recording, &r, err, sizeof(err)) != 0) {
		if (!err[0])
			abort();
		close(fd);
		return 0;
	}
	struct replay_index ix = {0};
	uint64_t bytes = 0;
	err[0] = '\0';
	if (replay_index_file(r, 0, &ix, &bytes, err, sizeof(err)) != 0) {
		if (!err[0])
			abort();
	} else {
		for (size_t i = ix.n; i-- > 0;) {
			const struct replay_line *l = &ix.lines[i];
			const char *buf;
			size_t len;
			if (l->off + l->len > bytes ||
			    zread_seek(r, l->off, err, sizeof(err)) != 0 ||
			    zread_line(r, &buf, &len, err, sizeof(err)) != 1 || len < l->len)
				abort();
			size_t k = 0;
			while (k < l->len && (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\r'))
				k++;
			if (k == l->len || buf[k] != '{' || memchr(buf, '\n', l->len))
				abort();
		}
	}
	replay_index_free(&ix);
	zread_close(r);
	close(fd);
	return 0;
}

#include "fuzz/lf_replay.h"
#ifndef TT_LIBFUZZER
int main(void)
{
	return lf_replay("recread");
}
#endif

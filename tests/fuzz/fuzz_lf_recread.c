/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_lf_recread.c: libFuzzer target for backends/replay/recread.c and backends/replay/replay_index.c as
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

#include "backends/replay/recread.h"
#include "backends/replay/replay_index.h"
#include "core/safefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz_recread", MFD_CLOEXEC);
	if (fd < 0 || safefile_write_all(fd, data, size) != 0)
		abort();
	char path[64], err[512] = "";
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct recread *r;
	if (recread_open(path, &r, err, sizeof(err)) != 0) {
		if (!err[0])
			abort();
		close(fd);
		return 0;
	}
	struct replay_index ix = {0};
	uint64_t bytes = 0;
	err[0] = '\0';
	if (replay_index_file(r, path, 0, &ix, &bytes, err, sizeof(err)) != 0) {
		if (!err[0])
			abort();
	} else {
		for (size_t i = ix.n; i-- > 0;) {
			const struct replay_line *l = &ix.lines[i];
			char *buf = malloc((size_t)l->len + 1);
			if (!buf || l->off + l->len > bytes ||
			    recread_seek(r, l->off, err, sizeof(err)) != 0)
				abort();
			for (size_t got = 0; got < l->len;) {
				ssize_t n =
				    recread_read(r, buf + got, l->len - got, err, sizeof(err));
				if (n <= 0)
					abort();
				got += (size_t)n;
			}
			size_t k = 0;
			while (k < l->len && (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\r'))
				k++;
			if (k == l->len || buf[k] != '{' || memchr(buf, '\n', l->len))
				abort();
			free(buf);
		}
	}
	replay_index_free(&ix);
	recread_close(r);
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

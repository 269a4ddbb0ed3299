/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_lf_safefile.c: libFuzzer target for safefile_read (core/zread.c): any bytes as a file, read
 * within small caps (plain, or gzip/zstd by their magic): never more than the caps, never a
 * line past its cap, an error always says why. `make fuzz` builds it with clang
 * -fsanitize=fuzzer; otherwise it replays tests/fuzz/corpus/safefile/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/safefile.h"

static const struct safefile_limits fz_limits = {
    .max_bytes = 1 << 20,
    .max_line = 4096,
    .gz_ratio = 50,
    .zstd_ratio = 50,
    .ratio_floor = 1 << 16,
    .decompress = true,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz_safefile", MFD_CLOEXEC);
	if (fd < 0 || safefile_write_all(fd, data, size) != 0)
		abort();
	char path[64], err[512] = "";
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	char *buf = NULL;
	size_t len = 0;
	int rc = safefile_read(path, &fz_limits, &buf, &len, err, sizeof(err));
	if (rc == 0) {
		if (len > fz_limits.max_bytes || buf[len] != '\0')
			abort();
		for (size_t i = 0, run = 0; i < len; i++) {
			run = buf[i] == '\n' ? 0 : run + 1;
			if (run > fz_limits.max_line)
				abort();
		}
		free(buf);
	} else if (rc != -1 || !err[0]) {
		abort();
	}
	close(fd);
	return 0;
}

#include "fuzz/lf_replay.h"
#ifndef TT_LIBFUZZER
int main(void)
{
	return lf_replay("safefile");
}
#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lf_replay.h: the main of a libFuzzer target built without libFuzzer (gcc, `make check`):
 * replay every file of tests/fuzz/corpus/NAME/ through LLVMFuzzerTestOneInput, so the corpus
 * that `make fuzz` grows is a regression test everywhere. Include after defining the target. */
#ifndef TT_LF_REPLAY_H
#define TT_LF_REPLAY_H

#ifndef TT_LIBFUZZER
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

static int lf_replay(const char *name)
{
	char dir[1024], path[2048];
	const char *top = getenv("TT_TOP");
	snprintf(dir, sizeof(dir), "%s/tests/fuzz/corpus/%s", top ? top : ".", name);
	DIR *d = opendir(dir);
	if (!d) {
		printf("no corpus at %s\n", dir);
		return 77;
	}
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		FILE *f = fopen(path, "rb");
		if (!f)
			continue;
		static uint8_t buf[1 << 20];
		size_t len = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		uint8_t *in = malloc(len ? len : 1); /* exactly its size: ASan sees an overread */
		for (size_t i = 0; i < len; i++)
			in[i] = buf[i];
		LLVMFuzzerTestOneInput(in, len);
		free(in);
		n++;
	}
	closedir(d);
	printf("%s: %d corpus inputs replayed, no crash\n", name, n);
	return n > 0 ? 0 : 1;
}
#endif
#endif

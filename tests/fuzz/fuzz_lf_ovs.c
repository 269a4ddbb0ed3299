/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_lf_ovs.c: libFuzzer target for the OVS JSON-RPC reply parser (unixctl and ovsdb speak
 * the same JSON-RPC 1.0) and the PMD report parsers (backends/host/ovs/host_ovsparse.c). `make fuzz`
 * builds it with clang -fsanitize=fuzzer; otherwise it replays tests/fuzz/corpus/ovs/. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/host/ovs/host_ovsparse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct host_ovs_perf perf;
	static struct host_ovs_sleep sl;
	char err[256], *res = NULL;
	bool is_err = false;
	size_t used = 0;

	/* The reply as read from the socket: exactly its bytes, no NUL. */
	int r = host_ovs_parse_reply((const char *)data, size, 0, &res, &is_err, &used, err,
				     sizeof(err));
	if (r == 1 && (used > size || (res == NULL) != is_err))
		abort(); /* a reply is consumed within its bytes; result xor error */
	if (r != 1 && r != 0 && r != -1)
		abort();
	if (res) {
		host_ovs_parse_perf(res, &perf);
		host_ovs_parse_sleep(res, &sl);
	}
	free(res);
	/* The same bytes as report text. */
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	if (host_ovs_parse_perf(text, &perf) == 0 &&
	    (perf.npmds < 0 || perf.npmds > HOST_OVS_MAX_PMDS))
		abort();
	if (host_ovs_parse_sleep(text, &sl) == 0 && (sl.npmds < 0 || sl.npmds > HOST_OVS_MAX_PMDS))
		abort();
	free(text);
	return 0;
}

#include "fuzz/lf_replay.h"
#ifndef TT_LIBFUZZER
int main(void)
{
	return lf_replay("ovs");
}
#endif

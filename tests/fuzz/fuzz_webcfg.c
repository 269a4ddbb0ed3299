/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_webcfg.c: bounded mutated web configuration files into serve_webcfg_load. Invariants:
 * it returns 0, 1 or 2, with a message when not 0; a loaded one has a certificate and a key or
 * neither, a CA only with a client policy, and 60-character bcrypt hashes. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fuzz_rng.h"

#include "tui/metrics/serve_module.h"
#include "tui/metrics/serve_webcfg.h"

static const char *const seeds[] = {
    "tls_server_config:\n  cert_file: c.pem\n  key_file: k.pem\n  min_version: TLS13\n",
    "basic_auth_users:\n  alice: $2y$10$JYzmBesUmTi4DAOGMmQOR.jp3tyYcN.zxcl8GeNSpxCWwJqfVs8.a\n"
    "  bob: '$2b$04$JYzmBesUmTi4DAOGMmQOR.jp3tyYcN.zxcl8GeNSpxCWwJqfVs8.a'\n",
    "tls_server_config:\n  cert_file: c.pem\n  key_file: k.pem\n"
    "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: c.pem\n",
    "{tls_server_config: {cert_file: c.pem, key_file: k.pem}, basic_auth_users: {}}\n",
    "---\n&a x: *a\n",
};
static const char alphabet[] = "{}[]:,-'\"&*!|> \n\t#aT1$.";

static struct fuzz_rng rng = {0x5DEECE66DULL};

static size_t mutate(const char *s, char *buf, size_t cap)
{
	size_t n = strlen(s);
	memcpy(buf, s, n);
	for (int m = (int)(fuzz_rng_next(&rng) % 6); m > 0; m--) {
		unsigned what = fuzz_rng_next(&rng) % 4;
		if (what == 0)
			n = n ? fuzz_rng_next(&rng) % n : 0;
		else if (what == 1 && n)
			buf[fuzz_rng_next(&rng) % n] =
			    fuzz_rng_next(&rng) % 4
				? alphabet[fuzz_rng_next(&rng) % (sizeof(alphabet) - 1)]
				: (char)fuzz_rng_next(&rng);
		else if (what == 2 && n && n * 2 < cap) { /* a line doubled */
			size_t at = fuzz_rng_next(&rng) % n;
			memmove(buf + n, buf + at, n - at);
			n += n - at;
		} else if (n + 200 < cap) { /* deep flow nesting */
			memmove(buf + 100, buf, n);
			memset(buf, fuzz_rng_next(&rng) % 2 ? '[' : '{', 100);
			n += 100;
		}
	}
	return n;
}

int main(void)
{
	long iters = getenv("FUZZ_ITERS") ? atol(getenv("FUZZ_ITERS")) : 3000;
	char dir[] = "/tmp/tt-fuzz-webcfg-XXXXXX", path[64], pem[64];
	static char buf[1 << 16];
	int failures = 0;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/web.yml", dir);
	snprintf(pem, sizeof(pem), "%s/c.pem", dir);
	FILE *f = fopen(pem, "w");
	fputs("-----BEGIN CERTIFICATE-----\nMA==\n-----END CERTIFICATE-----\n", f);
	fclose(f);
	snprintf(pem, sizeof(pem), "%s/k.pem", dir);
	f = fopen(pem, "w");
	fputs("-----BEGIN PRIVATE KEY-----\nMA==\n-----END PRIVATE KEY-----\n", f);
	fclose(f);
	for (long i = 0; i < iters; i++) {
		size_t n = mutate(seeds[fuzz_rng_next(&rng) % (sizeof(seeds) / sizeof(seeds[0]))],
				  buf, sizeof(buf));
		f = fopen(path, "w");
		fwrite(buf, 1, n, f);
		fclose(f);
		struct serve_webcfg cfg;
		char err[512] = "";
		int rc = serve_webcfg_load(serve_host_get(), path, &cfg, err, sizeof(err));
		bool ok = rc == 0 || ((rc == 1 || rc == 2) && err[0]);
		if (rc == 0) {
			ok = ok && !cfg.cert_pem == !cfg.key_pem;
			ok = ok && (!cfg.ca_pem || cfg.client_auth != SERVE_CLIENT_NONE);
			for (size_t u = 0; u < cfg.nusers; u++)
				ok = ok && strlen(cfg.users[u].hash) == 60;
		}
		if (!ok && failures++ < 5)
			fprintf(stderr, "iteration %ld: rc %d (%s) for:\n%.*s\n", i, rc, err,
				(int)n, buf);
		serve_webcfg_free(&cfg);
	}
	unlink(path);
	unlink(pem);
	snprintf(pem, sizeof(pem), "%s/c.pem", dir);
	unlink(pem);
	rmdir(dir);
	printf("fuzz_webcfg: %ld iterations, %d failures\n", iters, failures);
	return failures ? 1 : 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* serve_webcfg.h: --web.config.file, node_exporter's web configuration file (TLS, basic auth). */
#ifndef TT_SERVE_WEBCFG_H
#define TT_SERVE_WEBCFG_H

#include <stddef.h>

/* The file and each PEM it names are read whole, at most this many bytes. */
#define SERVE_WEBCFG_MAX_BYTES ((size_t)1 << 20)
/* Flow collections ([...], {...}) nest at most this deep (the file's keys need 2). */
#define SERVE_WEBCFG_MAX_DEPTH 64

/*
 * The bcrypt costs a basic_auth_users hash may have: bcrypt's least (4), and the most htpasswd -B
 * makes (17; about 10 s a check on a 2020s core). A check at bcrypt's own top, 31, takes days on
 * the thread that checks, so nobody could log in: such a file is refused at load.
 */
#define SERVE_BCRYPT_MIN_COST 4
#define SERVE_BCRYPT_MAX_COST 17

enum serve_client_auth {
	SERVE_CLIENT_NONE, /* NoClientCert */
	SERVE_CLIENT_VERIFY_IF_GIVEN, /* VerifyClientCertIfGiven */
	SERVE_CLIENT_REQUIRE_VERIFY, /* RequireAndVerifyClientCert */
};

struct serve_user {
	char *name;
	char *hash; /* bcrypt: $2a$, $2b$ or $2y$ */
};

struct serve_webcfg {
	char *cert_pem, *key_pem; /* both or neither: TLS on when set */
	char *ca_pem; /* client_ca_file's certificates (NULL: none) */
	enum serve_client_auth client_auth;
	char priorities[96]; /* gnutls priorities from min_version/max_version */
	struct serve_user *users; /* basic_auth_users (none: no authentication) */
	size_t nusers;
};

struct serve_host; /* serve_module.h: memory and files come from the program */

/*
 * Load path (YAML, the keys of docs/metrics.md "Deploying the exporter") into *cfg; relative
 * file names are taken from the file's folder. 0; 2 for a file that is not such a
 * configuration (unknown key, bad value, a YAML error); 1 for a file that cannot be read.
 * The message says which key.
 */
int serve_webcfg_load(const struct serve_host *h, const char *path, struct serve_webcfg *cfg,
		      char *err, size_t errlen);
void serve_webcfg_free(struct serve_webcfg *cfg);

#endif

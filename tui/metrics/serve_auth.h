/* SPDX-License-Identifier: GPL-2.0-or-later */
/* serve_auth.h: HTTP basic authentication against bcrypt hashes, results cached briefly. */
#ifndef TT_SERVE_AUTH_H
#define TT_SERVE_AUTH_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/metrics/serve_webcfg.h"

/*
 * bcrypt costs tens of milliseconds by design; a scraper sends the same credentials every
 * scrape, so a verdict is kept this long, in at most this many slots (exporter-toolkit keeps
 * 100 verdicts), keyed by a SHA-256 of user, password and hash: a password is never kept.
 */
#define SERVE_AUTH_CACHE_SLOTS 64
#define SERVE_AUTH_CACHE_S 60

/* The users to check against (kept, not copied: they outlive the server). */
void serve_auth_users(const struct serve_user *users, size_t n);
/* Whether user and password (either may be NULL: absent) are one of the users'. */
bool serve_auth_check(const char *user, const char *password);
/* How many bcrypt verifications ran (the cache's misses), for the tests. */
unsigned long serve_auth_bcrypt_runs(void);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* serve_auth.c: basic authentication: crypt_r (libxcrypt's bcrypt), a small verdict cache. */
#include "tui/metrics/serve_auth.h"

#include <crypt.h>
#include <gnutls/crypto.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "core/clock.h"

struct auth_slot {
	uint8_t key[32]; /* SHA-256 of user \0 password \0 hash */
	uint64_t at_ns; /* 0: empty */
	bool ok;
};

static struct {
	pthread_mutex_t lock; /* libmicrohttpd's thread only today; cheap insurance */
	const struct serve_user *users;
	size_t nusers;
	struct auth_slot slot[SERVE_AUTH_CACHE_SLOTS];
	struct crypt_data cd; /* 32 KiB with libxcrypt: static, not on the server's stack */
	unsigned long runs;
} auth = {.lock = PTHREAD_MUTEX_INITIALIZER};

void serve_auth_users(const struct serve_user *users, size_t n)
{
	pthread_mutex_lock(&auth.lock);
	auth.users = users;
	auth.nusers = n;
	memset(auth.slot, 0, sizeof(auth.slot));
	pthread_mutex_unlock(&auth.lock);
}

/* Equal without an early exit: the time says nothing about where they differ. */
static bool auth_equal(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char d = la != lb;
	for (size_t i = 0; i < la && i < lb; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

static bool auth_bcrypt(const char *password, const char *hash)
{
	auth.runs++;
	const char *h = crypt_rn(password, hash, &auth.cd, (int)sizeof(auth.cd));
	return h && auth_equal(h, hash);
}

static void auth_key(const char *user, const char *password, const char *hash, uint8_t key[32])
{
	size_t lu = strlen(user), lp = strlen(password), lh = strlen(hash);
	gnutls_hash_hd_t h;
	if (gnutls_hash_init(&h, GNUTLS_DIG_SHA256) < 0) {
		memset(key, 0, 32);
		return;
	}
	gnutls_hash(h, user, lu + 1);
	gnutls_hash(h, password, lp + 1);
	gnutls_hash(h, hash, lh);
	gnutls_hash_deinit(h, key);
}

bool serve_auth_check(const char *user, const char *password)
{
	if (!user || !password)
		return false;
	pthread_mutex_lock(&auth.lock);
	const struct serve_user *u = NULL;
	for (size_t i = 0; i < auth.nusers; i++)
		if (strcmp(auth.users[i].name, user) == 0)
			u = &auth.users[i];
	if (!auth.nusers) {
		pthread_mutex_unlock(&auth.lock);
		return false;
	}
	/* An unknown user costs the same bcrypt as a known one (its verdict is false anyway),
	 * so the time of a 401 does not tell which user names exist. */
	const char *hash = u ? u->hash : auth.users[0].hash;
	uint8_t key[32];
	auth_key(user, password, hash, key);
	uint64_t now = clock_mono_ns();
	struct auth_slot *oldest = &auth.slot[0];
	for (int i = 0; i < SERVE_AUTH_CACHE_SLOTS; i++) {
		struct auth_slot *s = &auth.slot[i];
		if (s->at_ns && now - s->at_ns < (uint64_t)SERVE_AUTH_CACHE_S * NS_PER_S &&
		    memcmp(s->key, key, sizeof(key)) == 0) {
			bool ok = s->ok;
			pthread_mutex_unlock(&auth.lock);
			return ok;
		}
		if (s->at_ns < oldest->at_ns)
			oldest = s;
	}
	bool ok = auth_bcrypt(password, hash) && u;
	memcpy(oldest->key, key, sizeof(key));
	oldest->at_ns = now;
	oldest->ok = ok;
	pthread_mutex_unlock(&auth.lock);
	return ok;
}

unsigned long serve_auth_bcrypt_runs(void)
{
	pthread_mutex_lock(&auth.lock);
	unsigned long n = auth.runs;
	pthread_mutex_unlock(&auth.lock);
	return n;
}

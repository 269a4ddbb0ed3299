/* SPDX-License-Identifier: GPL-2.0-or-later */
/* serve_auth.c: basic authentication: crypt_r (libxcrypt's bcrypt) on a thread of its own, a
 * small verdict cache. */
#include "tui/metrics/serve_auth.h"

#include <crypt.h>
#include <gnutls/crypto.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/clock.h"
#include "tui/metrics/serve.h"

struct auth_slot {
	uint8_t key[32]; /* SHA-256 of user \0 password \0 hash */
	uint64_t at_ns; /* last use; 0: empty */
	bool ok;
};

enum job_state { JOB_FREE, JOB_RESERVED, JOB_QUEUED, JOB_RUNNING, JOB_DONE };

struct serve_auth_job {
	enum job_state state;
	enum serve_auth_verdict verdict;
	bool released; /* the requester is done with it */
	bool known; /* the user exists (else the verdict is NO whatever bcrypt says) */
	unsigned gen; /* the server run it belongs to */
	uint64_t from; /* the client (serve_auth_client) */
	uint64_t ticket; /* its place in the queue (serve_auth_go's order) */
	uint8_t key[32];
	char password[SERVE_AUTH_PW_BYTES + 1];
	char hash[64];
	void (*done)(void *arg);
	void *arg;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t work; /* a job queued, or the server stopped */
	pthread_cond_t idle; /* no done callback running */
	const struct serve_user *users;
	size_t nusers;
	struct auth_slot slot[SERVE_AUTH_CACHE_SLOTS];
	struct serve_auth_job job[SERVE_AUTH_QUEUE];
	unsigned gen; /* a worker serves while this is its own */
	bool serving; /* between serve_auth_start and serve_auth_stop */
	unsigned calling; /* done callbacks running on the worker */
	uint64_t tickets; /* jobs queued so far */
	unsigned long runs;
} auth = {.lock = PTHREAD_MUTEX_INITIALIZER,
	  .work = PTHREAD_COND_INITIALIZER,
	  .idle = PTHREAD_COND_INITIALIZER};

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

/* Runs without auth.lock: a bcrypt takes as long as its cost says. */
static bool auth_bcrypt(const char *password, const char *hash, struct crypt_data *cd)
{
	const char *h = crypt_rn(password, hash, cd, (int)sizeof(*cd));
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

/* Under auth.lock: the hash user is checked against (known: whether user is one), or NULL with
 * no users. An unknown user costs the same bcrypt as a known one (its verdict is false anyway),
 * so the time of a 401 does not tell which user names exist. */
static const char *auth_hash_of(const char *user, bool *known)
{
	*known = false;
	if (!auth.nusers)
		return NULL;
	for (size_t i = 0; i < auth.nusers; i++)
		if (strcmp(auth.users[i].name, user) == 0) {
			*known = true;
			return auth.users[i].hash;
		}
	return auth.users[0].hash;
}

/* Under auth.lock: the cached verdict for key (its use renews it), or MISS. */
static enum serve_auth_verdict auth_cache_get(const uint8_t key[32])
{
	uint64_t now = clock_mono_ns();
	for (int i = 0; i < SERVE_AUTH_CACHE_SLOTS; i++) {
		struct auth_slot *s = &auth.slot[i];
		if (s->at_ns && now - s->at_ns < (uint64_t)SERVE_AUTH_CACHE_S * NS_PER_S &&
		    memcmp(s->key, key, sizeof(s->key)) == 0) {
			s->at_ns = now;
			return s->ok ? SERVE_AUTH_YES : SERVE_AUTH_NO;
		}
	}
	return SERVE_AUTH_MISS;
}

/* Under auth.lock. The slot taken is an empty or expired one, else the least recently used
 * wrong guess, else the least recently used: a flood of guesses never evicts a right one. */
static void auth_cache_put(const uint8_t key[32], bool ok)
{
	uint64_t now = clock_mono_ns();
	struct auth_slot *victim = NULL;
	for (int i = 0; i < SERVE_AUTH_CACHE_SLOTS; i++) {
		struct auth_slot *s = &auth.slot[i];
		if (!s->at_ns || now - s->at_ns >= (uint64_t)SERVE_AUTH_CACHE_S * NS_PER_S) {
			victim = s;
			break;
		}
		if (!victim || (victim->ok && !s->ok) ||
		    (victim->ok == s->ok && s->at_ns < victim->at_ns))
			victim = s;
	}
	memcpy(victim->key, key, sizeof(victim->key));
	victim->at_ns = now;
	victim->ok = ok;
}

enum serve_auth_verdict serve_auth_cached(const char *user, const char *password)
{
	if (!user || !password)
		return SERVE_AUTH_NO;
	pthread_mutex_lock(&auth.lock);
	bool known;
	const char *hash = auth_hash_of(user, &known);
	enum serve_auth_verdict v = SERVE_AUTH_NO;
	if (hash) {
		uint8_t key[32];
		auth_key(user, password, hash, key);
		v = auth_cache_get(key);
	}
	pthread_mutex_unlock(&auth.lock);
	return v;
}

bool serve_auth_check(const char *user, const char *password)
{
	enum serve_auth_verdict v = serve_auth_cached(user, password);
	if (v != SERVE_AUTH_MISS)
		return v == SERVE_AUTH_YES;
	static struct crypt_data cd; /* 32 KiB with libxcrypt: not on the caller's stack */
	pthread_mutex_lock(&auth.lock);
	bool known;
	uint8_t key[32];
	char hash[64];
	const char *h = auth_hash_of(user, &known);
	snprintf(hash, sizeof(hash), "%s", h ? h : "");
	auth_key(user, password, hash, key);
	auth.runs++;
	pthread_mutex_unlock(&auth.lock);
	bool ok = auth_bcrypt(password, hash, &cd) && known;
	pthread_mutex_lock(&auth.lock);
	auth_cache_put(key, ok);
	pthread_mutex_unlock(&auth.lock);
	return ok;
}

/* Under auth.lock: a job may be reused once its requester and the worker are both done. */
static void auth_job_maybe_free(struct serve_auth_job *j)
{
	if (j->released && j->state != JOB_RUNNING) {
		explicit_bzero(j->password, sizeof(j->password));
		j->state = JOB_FREE;
	}
}

/* Under auth.lock, on the worker of run gen: the verdict of j is in; tells its requester. */
static void auth_job_finish(struct serve_auth_job *j, unsigned gen, bool ok)
{
	auth_cache_put(j->key, ok);
	j->state = JOB_DONE;
	if (j->verdict == SERVE_AUTH_PENDING && gen == auth.gen && !j->released) {
		j->verdict = ok ? SERVE_AUTH_YES : SERVE_AUTH_NO;
		/* serve_auth_stop waits for this call: after it, nothing touches the requester. */
		auth.calling++;
		pthread_mutex_unlock(&auth.lock);
		j->done(j->arg);
		pthread_mutex_lock(&auth.lock);
		if (--auth.calling == 0)
			pthread_cond_broadcast(&auth.idle);
	}
	auth_job_maybe_free(j);
}

/* Under auth.lock: the queued job to run next. The client with the fewest checks waiting goes
 * first, and among equals the oldest: a client flooding the queue with guesses waits behind
 * its own, not in front of everyone's (serve_auth.h). */
static struct serve_auth_job *auth_pick(void)
{
	struct serve_auth_job *best = NULL;
	int best_n = 0;
	for (int i = 0; i < SERVE_AUTH_QUEUE; i++) {
		struct serve_auth_job *j = &auth.job[i];
		if (j->state != JOB_QUEUED)
			continue;
		int n = 0;
		for (int k = 0; k < SERVE_AUTH_QUEUE; k++)
			n += auth.job[k].state == JOB_QUEUED && auth.job[k].from == j->from;
		if (!best || n < best_n || (n == best_n && j->ticket < best->ticket)) {
			best = j;
			best_n = n;
		}
	}
	return best;
}

uint64_t serve_auth_client(const struct sockaddr *sa)
{
	uint64_t k = 0;
	if (sa && sa->sa_family == AF_INET) {
		k = ((const struct sockaddr_in *)sa)->sin_addr.s_addr;
	} else if (sa && sa->sa_family == AF_INET6) {
		memcpy(&k, ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr, sizeof(k));
		k ^= (uint64_t)1 << 63 | 1; /* apart from any IPv4 key */
	}
	return k;
}

/* One verification at a time, as exporter-toolkit's bcrypt mutex has it. A worker whose run
 * has ended finishes the bcrypt it is in (none can be interrupted) and leaves. */
static void *auth_main(void *arg)
{
	unsigned gen = (unsigned)(uintptr_t)arg;
	struct crypt_data cd; /* 32 KiB with libxcrypt; this thread's stack is the default */
	pthread_setname_np(pthread_self(), "tt-serve-auth");
	setpriority(PRIO_PROCESS, (id_t)gettid(), SERVE_NICE); /* best effort */
	pthread_mutex_lock(&auth.lock);
	while (gen == auth.gen) {
		struct serve_auth_job *j = auth_pick();
		if (!j) {
			pthread_cond_wait(&auth.work, &auth.lock);
			continue;
		}
		j->state = JOB_RUNNING;
		auth.runs++;
		pthread_mutex_unlock(&auth.lock);
		bool ok = auth_bcrypt(j->password, j->hash, &cd) && j->known;
		pthread_mutex_lock(&auth.lock);
		auth_job_finish(j, gen, ok);
	}
	pthread_mutex_unlock(&auth.lock);
	explicit_bzero(&cd, sizeof(cd));
	return NULL;
}

int serve_auth_start(char *err, size_t errlen)
{
	pthread_attr_t at;
	pthread_t t;
	pthread_mutex_lock(&auth.lock);
	unsigned gen = ++auth.gen;
	auth.serving = true;
	pthread_mutex_unlock(&auth.lock);
	pthread_attr_init(&at);
	/* Detached: stopping never joins a bcrypt, which may have minutes to run. */
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	int rc = pthread_create(&t, &at, auth_main, (void *)(uintptr_t)gen);
	pthread_attr_destroy(&at);
	if (rc) {
		pthread_mutex_lock(&auth.lock);
		auth.serving = false;
		pthread_mutex_unlock(&auth.lock);
		snprintf(err, errlen, "cannot start the password checker: %s", strerror(rc));
		return -1;
	}
	return 0;
}

void serve_auth_stop(void)
{
	void (*done[SERVE_AUTH_QUEUE])(void *);
	void *arg[SERVE_AUTH_QUEUE];
	int n = 0;
	pthread_mutex_lock(&auth.lock);
	auth.gen++;
	auth.serving = false;
	pthread_cond_broadcast(&auth.work);
	while (auth.calling)
		pthread_cond_wait(&auth.idle, &auth.lock);
	for (int i = 0; i < SERVE_AUTH_QUEUE; i++) {
		struct serve_auth_job *j = &auth.job[i];
		if (j->state == JOB_RESERVED || j->state == JOB_FREE ||
		    j->verdict != SERVE_AUTH_PENDING)
			continue;
		j->verdict = SERVE_AUTH_CANCELLED;
		if (j->state == JOB_QUEUED)
			j->state = JOB_DONE;
		if (!j->released) {
			done[n] = j->done;
			arg[n++] = j->arg;
		}
	}
	pthread_mutex_unlock(&auth.lock);
	for (int i = 0; i < n; i++)
		done[i](arg[i]);
}

struct serve_auth_job *serve_auth_submit(const char *user, const char *password, uint64_t from,
					 void (*done)(void *arg), void *arg)
{
	struct serve_auth_job *j = NULL;
	pthread_mutex_lock(&auth.lock);
	for (int i = 0; i < SERVE_AUTH_QUEUE && !j; i++)
		if (auth.job[i].state == JOB_FREE)
			j = &auth.job[i];
	const char *hash = j ? auth_hash_of(user, &j->known) : NULL;
	if (!hash) {
		pthread_mutex_unlock(&auth.lock);
		return NULL;
	}
	j->state = JOB_RESERVED;
	j->verdict = SERVE_AUTH_PENDING;
	j->released = false;
	j->gen = auth.gen;
	j->from = from;
	auth_key(user, password, hash, j->key);
	snprintf(j->password, sizeof(j->password), "%s", password);
	snprintf(j->hash, sizeof(j->hash), "%s", hash);
	j->done = done;
	j->arg = arg;
	pthread_mutex_unlock(&auth.lock);
	return j;
}

void serve_auth_go(struct serve_auth_job *j)
{
	pthread_mutex_lock(&auth.lock);
	bool late = j->gen != auth.gen || !auth.serving;
	if (late) {
		j->verdict = SERVE_AUTH_CANCELLED;
		j->state = JOB_DONE;
	} else {
		j->state = JOB_QUEUED;
		j->ticket = auth.tickets++;
		pthread_cond_signal(&auth.work);
	}
	pthread_mutex_unlock(&auth.lock);
	if (late)
		j->done(j->arg);
}

enum serve_auth_verdict serve_auth_job_verdict(struct serve_auth_job *j)
{
	pthread_mutex_lock(&auth.lock);
	enum serve_auth_verdict v = j->verdict;
	pthread_mutex_unlock(&auth.lock);
	return v;
}

void serve_auth_job_release(struct serve_auth_job *j)
{
	pthread_mutex_lock(&auth.lock);
	j->released = true;
	auth_job_maybe_free(j); /* while a bcrypt runs, its worker frees it */
	pthread_mutex_unlock(&auth.lock);
}

unsigned long serve_auth_bcrypt_runs(void)
{
	pthread_mutex_lock(&auth.lock);
	unsigned long n = auth.runs;
	pthread_mutex_unlock(&auth.lock);
	return n;
}

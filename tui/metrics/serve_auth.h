/* SPDX-License-Identifier: GPL-2.0-or-later */
/* serve_auth.h: HTTP basic authentication against bcrypt hashes, results cached briefly,
 * verifications run off the server's thread. */
#ifndef TT_SERVE_AUTH_H
#define TT_SERVE_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "tui/metrics/serve_webcfg.h"

/*
 * bcrypt costs tens of milliseconds by design; a scraper sends the same credentials every
 * scrape, so a verdict is kept this long after its last use, in at most this many slots
 * (exporter-toolkit keeps 100 verdicts), keyed by a SHA-256 of user, password and hash: a
 * password is never kept. A wrong guess never pushes a right one out.
 */
#define SERVE_AUTH_CACHE_SLOTS 64
#define SERVE_AUTH_CACHE_S 60
/* Verifications waiting for (or in) the one bcrypt thread: as many as the server holds
 * connections (tui/metrics/serve.h), so a request is never refused because others flood the
 * queue with guesses; it waits its turn, which comes first for the client with the fewest
 * checks waiting (the oldest among equals). Credentials in the cache get through at once. */
#define SERVE_AUTH_QUEUE 128
/* bcrypt compares at most this many bytes of a password (the Blowfish key schedule). */
#define SERVE_AUTH_PW_BYTES 72

enum serve_auth_verdict {
	SERVE_AUTH_NO,
	SERVE_AUTH_YES,
	SERVE_AUTH_MISS, /* not in the cache: a verification is needed */
	SERVE_AUTH_PENDING, /* a verification is queued or running */
	SERVE_AUTH_CANCELLED, /* the server stopped before it ran */
};

struct serve_auth_job;

/* The users to check against (kept, not copied: they outlive the server). */
void serve_auth_users(const struct serve_user *users, size_t n);
/* Whether user and password (either may be NULL: absent) are one of the users'; runs bcrypt on
 * the caller's thread on a cache miss (for the tests). */
bool serve_auth_check(const char *user, const char *password);
/* The cached verdict of user and password: NO, YES or MISS. Never runs bcrypt. */
enum serve_auth_verdict serve_auth_cached(const char *user, const char *password);

/* Starts the bcrypt thread; 0, or -1 with why in err. Call with signals blocked. */
int serve_auth_start(char *err, size_t errlen);
/* Ends the server's use of the bcrypt thread without waiting for a running bcrypt: every
 * job not finished is CANCELLED and its done called (on this thread) before this returns, and
 * no done runs after. */
void serve_auth_stop(void);
/* Reserves a verification of user and password for the client from (its address, as
 * serve_auth_client makes it; NULL: the queue is full). Nothing runs until serve_auth_go;
 * then done(arg) is called once on the bcrypt thread when the verdict is in (or by
 * serve_auth_stop, or by serve_auth_go itself when the server is stopping). */
struct serve_auth_job *serve_auth_submit(const char *user, const char *password, uint64_t from,
					 void (*done)(void *arg), void *arg);
/* The client key of an address (IPv4: the address; IPv6: its /64, what one host holds). */
uint64_t serve_auth_client(const struct sockaddr *sa);
void serve_auth_go(struct serve_auth_job *job);
/* YES, NO, PENDING or CANCELLED. */
enum serve_auth_verdict serve_auth_job_verdict(struct serve_auth_job *job);
/* The requester is done with job (its slot is reused once no bcrypt runs for it). */
void serve_auth_job_release(struct serve_auth_job *job);

/* How many bcrypt verifications ran (the cache's misses), for the tests. */
unsigned long serve_auth_bcrypt_runs(void);

#endif

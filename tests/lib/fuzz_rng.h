/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_rng.h: the xorshift64 generator of the bounded fuzz loops: seeded, so a failure
 * reproduces (each fuzzer names its seed; FUZZ_SEED overrides where a fuzzer reads it). */
#ifndef TT_FUZZ_RNG_H
#define TT_FUZZ_RNG_H

struct fuzz_rng {
	unsigned long long s; /* never 0 */
};

static inline unsigned fuzz_rng_next(struct fuzz_rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return (unsigned)r->s;
}

#endif

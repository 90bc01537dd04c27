/* sf_rng.h - in-house seeded PRNG (splitmix64 seeding, xoshiro256** stream). */
#ifndef SF_RNG_H
#define SF_RNG_H
#include <stdint.h>

typedef struct { uint64_t s[4]; } sf_rng;

/** Seed the generator deterministically from one 64-bit seed (splitmix64 expansion). */
void sf_rng_seed(sf_rng *r, uint64_t seed);
/** Next 64 random bits (xoshiro256**). */
uint64_t sf_rng_next(sf_rng *r);
/** Uniform integer in [0, n) for n > 0 (rejection sampling, no modulo bias). */
uint32_t sf_rng_below(sf_rng *r, uint32_t n);
/** Uniform double in [0, 1). */
double sf_rng_unit(sf_rng *r);
/** Shuffle an int array in place (Fisher-Yates). */
void sf_rng_shuffle(sf_rng *r, int *a, int n);

#endif

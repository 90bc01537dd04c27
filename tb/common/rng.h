/* sanfab — small seeded PRNG (splitmix64) for benches and models; state lives in the caller. */
#ifndef SANFAB_RNG_H
#define SANFAB_RNG_H

#include <stdint.h>

typedef struct { uint64_t s; } rng_t;

/* Seeds a generator. */
static inline void rng_seed(rng_t *r, uint64_t seed) { r->s = seed; }

/* Next 64 random bits. */
static inline uint64_t rng_next(rng_t *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform integer in [0, n) (n > 0). */
static inline uint32_t rng_below(rng_t *r, uint32_t n) { return (uint32_t)((rng_next(r) >> 32) % n); }

/* True with probability pct/100. */
static inline int rng_pct(rng_t *r, unsigned pct) { return rng_below(r, 100) < pct; }

#endif

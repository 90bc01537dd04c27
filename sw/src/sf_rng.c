/* sf_rng.c - splitmix64 + xoshiro256** (own implementation of the published recurrences). */
#include "sf_rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void sf_rng_seed(sf_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t v, int k) { return (v << k) | (v >> (64 - k)); }

uint64_t sf_rng_next(sf_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t sf_rng_below(sf_rng *r, uint32_t n)
{
    if (n <= 1) return 0;
    uint64_t lim = UINT64_MAX - (UINT64_MAX % n);
    uint64_t v;
    do { v = sf_rng_next(r); } while (v >= lim);
    return (uint32_t)(v % n);
}

double sf_rng_unit(sf_rng *r) { return (double)(sf_rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

void sf_rng_shuffle(sf_rng *r, int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)sf_rng_below(r, (uint32_t)(i + 1));
        int t = a[i]; a[i] = a[j]; a[j] = t;
    }
}

/* sanfab routing library — small internal helpers shared by the library's files (not part of
 * the public API in sf_route.h / sf_topo.h). */
#ifndef SF_UTIL_H
#define SF_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* calloc that never returns NULL (n = 0 allocates one element); exits with status 2 on no memory. */
void *sf_xcalloc(size_t n, size_t sz);

/* A set of 64-bit keys (open addressing; UINT64_MAX is not a valid key). Zero-initialise to start.
 * Its table k[0..cap) may be walked directly: free slots hold UINT64_MAX. */
typedef struct { uint64_t *k; size_t cap, n; } sf_u64set;

/* Adds key; returns 1 if it was new, 0 if already present. */
int sf_u64set_add(sf_u64set *h, uint64_t key);

/* 1 if key is in the set. */
int sf_u64set_has(const sf_u64set *h, uint64_t key);

/* Frees the table and empties the set. */
void sf_u64set_free(sf_u64set *h);

/* Parses a whole decimal number lo..hi (no sign, nothing after it) into *v; 0, or -1 leaving *v alone. */
int sf_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *v);

#endif

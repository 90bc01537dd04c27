/* sanfab routing library — small internal helpers (see sf_util.h). */
#include <stdio.h>
#include <stdlib.h>
#include "sf_util.h"

#include <errno.h>

void *sf_xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) { fprintf(stderr, "sanfab: out of memory\n"); exit(2); }
    return p;
}

static size_t slot(uint64_t key, size_t cap) { return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 20) & (cap - 1); }

int sf_u64set_add(sf_u64set *h, uint64_t key)
{
    if ((h->n + 1) * 2 > h->cap) {
        size_t nc = h->cap ? h->cap * 2 : 1024;
        uint64_t *nk = sf_xcalloc(nc, sizeof(uint64_t));
        for (size_t i = 0; i < nc; i++) nk[i] = UINT64_MAX;
        for (size_t i = 0; i < h->cap; i++)
            if (h->k[i] != UINT64_MAX) {
                size_t j = slot(h->k[i], nc);
                while (nk[j] != UINT64_MAX) j = (j + 1) & (nc - 1);
                nk[j] = h->k[i];
            }
        free(h->k);
        h->k = nk; h->cap = nc;
    }
    size_t j = slot(key, h->cap);
    while (h->k[j] != UINT64_MAX) {
        if (h->k[j] == key) return 0;
        j = (j + 1) & (h->cap - 1);
    }
    h->k[j] = key;
    h->n++;
    return 1;
}

int sf_u64set_has(const sf_u64set *h, uint64_t key)
{
    if (!h->cap) return 0;
    for (size_t j = slot(key, h->cap); h->k[j] != UINT64_MAX; j = (j + 1) & (h->cap - 1))
        if (h->k[j] == key) return 1;
    return 0;
}

void sf_u64set_free(sf_u64set *h)
{
    free(h->k);
    h->k = NULL;
    h->cap = h->n = 0;
}

int sf_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
    if (!*s || *s == '-' || *s == '+')
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end || x < lo || x > hi)
        return -1;
    *v = x;
    return 0;
}

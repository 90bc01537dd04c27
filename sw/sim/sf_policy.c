/* sf_policy.c - route policies of a NIC among a pair's alternatives (sf_policy.h, docs/network.md). */
#include "sf_policy.h"

#include "sf_util.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint16_t cur, nalt;
    uint8_t chosen, probing;
    uint32_t stopped; /* stopped packets since the last change */
    uint32_t busy;    /* busy probes in this probing episode */
} pair_t;

struct sf_policy {
    sf_policy_params p;
    unsigned H;
    int multi; /* some pair has more than one route: oblivious draws for every packet (one draw a packet) */
    pair_t *pr;
    sf_policy_counts c;
};

static const char *const names[] = {"static", "oblivious", "adaptive", "probing", "first"};

const char *sf_policy_name(sf_policy_kind k) { return (unsigned)k <= SF_POL_FIRST ? names[k] : "?"; }

int sf_policy_parse(const char *s)
{
    for (int i = 0; i < SF_POL_FIRST; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

sf_policy *sf_policy_new(const sf_policy_params *p, unsigned H, const uint16_t *nalt)
{
    sf_policy *pol = sf_xcalloc(1, sizeof *pol);
    pol->p = *p;
    pol->H = H;
    pol->pr = sf_xcalloc((size_t)H * H, sizeof *pol->pr);
    for (size_t i = 0; i < (size_t)H * H; i++) {
        pol->pr[i].nalt = nalt[i] ? nalt[i] : 1;
        if (pol->pr[i].nalt > 1)
            pol->multi = 1;
    }
    return pol;
}

void sf_policy_free(sf_policy *pol)
{
    if (!pol)
        return;
    free(pol->pr);
    free(pol);
}

/* a random route other than the current one (the current one if it is the only one) */
static unsigned other(const pair_t *x, sf_rng *r)
{
    if (x->nalt < 2)
        return x->cur;
    unsigned a = sf_rng_below(r, x->nalt - 1u);
    return a >= x->cur ? a + 1 : a;
}

unsigned sf_policy_route(sf_policy *pol, unsigned s, unsigned d, sf_rng *r)
{
    pair_t *x = &pol->pr[(size_t)s * pol->H + d];
    switch (pol->p.kind) {
    case SF_POL_FIRST:
        return 0;
    case SF_POL_OBLIVIOUS:
        return pol->multi ? sf_rng_below(r, x->nalt) : 0;
    default:
        if (!x->chosen) {
            x->chosen = 1;
            x->cur = (uint16_t)(x->nalt > 1 ? sf_rng_below(r, x->nalt) : 0);
        }
        return x->cur;
    }
}

unsigned sf_policy_current(const sf_policy *pol, unsigned s, unsigned d) { return pol->pr[(size_t)s * pol->H + d].cur; }

int sf_policy_probing(const sf_policy *pol, unsigned s, unsigned d) { return pol->pr[(size_t)s * pol->H + d].probing; }

int sf_policy_sent(sf_policy *pol, unsigned s, unsigned d, int stopped, sf_rng *r)
{
    if (!stopped)
        return -1;
    pol->c.stopped++;
    const sf_policy_kind k = pol->p.kind;
    pair_t *x = &pol->pr[(size_t)s * pol->H + d];
    if ((k != SF_POL_ADAPTIVE && k != SF_POL_PROBING) || x->nalt < 2 || x->probing)
        return -1;
    if (++x->stopped <= pol->p.threshold)
        return -1;
    if (pol->p.probability < 1.0 && sf_rng_unit(r) >= pol->p.probability)
        return -1;
    const unsigned a = other(x, r);
    if (k == SF_POL_ADAPTIVE) {
        x->cur = (uint16_t)a;
        x->stopped = 0;
        pol->c.changes++;
        return -1;
    }
    x->probing = 1;
    pol->c.probes++;
    return (int)a;
}

int sf_policy_probed(sf_policy *pol, unsigned s, unsigned d, unsigned alt, int busy, sf_rng *r)
{
    pair_t *x = &pol->pr[(size_t)s * pol->H + d];
    if (!x->probing)
        return -1; /* an answer nobody waits for */
    x->probing = 0;
    (void)r;
    if (!busy) {
        x->cur = (uint16_t)alt;
        x->stopped = 0;
        x->busy = 0;
        pol->c.changes++;
        return -1;
    }
    pol->c.probes_busy++;
    if (++x->busy >= pol->p.probe_rounds * (x->nalt - 1u)) {
        x->cur = (uint16_t)other(x, r); /* every route was tried often enough: change anyway */
        x->stopped = 0;
        x->busy = 0;
        pol->c.changes++;
        pol->c.forced++;
    }
    /* the pair goes on on its route; its next stopped packet probes again (the count of busy probes stays until
     * the route changes), so contention that has gone away ends the probing */
    return -1;
}

void sf_policy_counts_get(const sf_policy *pol, sf_policy_counts *c) { *c = pol->c; }

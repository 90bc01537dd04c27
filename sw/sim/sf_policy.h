/* sf_policy.h - how a NIC chooses among a pair's alternative routes (Geoffray and Hoefler 2008, sec. 4; docs/network.md "Route
 * policies"): static (one route per pair, drawn once), oblivious (a random route per packet), adaptive (keep the
 * route; after more than `threshold` packets stopped by flow control since the last change, each further stopped
 * packet changes to a random other route with `probability`) and probing (the same trigger sends a small probe
 * packet down a random other route; a free one is taken; after a busy one the pair goes on and its next stopped
 * packet probes again; after probe_rounds x (routes - 1) busy probes the route changes anyway). The policy keeps the per-pair state and makes
 * the decisions; the NIC sends the packets and probes and says what happened. No global state; random draws come
 * from the generator the caller passes (the source host's). */
#ifndef SF_POLICY_H
#define SF_POLICY_H

#include <stdint.h>

#include "sf_rng.h"

typedef enum { SF_POL_STATIC = 0, SF_POL_OBLIVIOUS, SF_POL_ADAPTIVE, SF_POL_PROBING, SF_POL_FIRST } sf_policy_kind;

typedef struct {
    sf_policy_kind kind;   /* SF_POL_FIRST: always alternative 0 (`alternatives first`) */
    unsigned threshold;    /* stopped packets since the last change before dispersion (adaptive, probing) */
    double probability;    /* chance that a stopped packet past the threshold disperses (0..1) */
    unsigned probe_rounds; /* probing: busy probes allowed = rounds x (routes - 1), then a forced change */
} sf_policy_params;

/* Counts of every pair together. */
typedef struct {
    uint64_t changes;     /* route changes (adaptive, probing: a free probe or a forced change) */
    uint64_t forced;      /* probing: changes after too many busy probes */
    uint64_t probes;      /* probing: probes asked for */
    uint64_t probes_busy; /* probing: probes that found their route in use */
    uint64_t stopped;     /* packets stopped by flow control while being sent */
} sf_policy_counts;

typedef struct sf_policy sf_policy;

/** Name of a policy ("static", ...). */
const char *sf_policy_name(sf_policy_kind k);
/** Policy by name (static, oblivious, adaptive, probing); -1 if unknown. */
int sf_policy_parse(const char *s);
/** The per-pair state of H hosts; nalt[s * H + d] = the pair's number of routes (>= 1; not kept). */
sf_policy *sf_policy_new(const sf_policy_params *p, unsigned H, const uint16_t *nalt);
/** Frees it (NULL allowed). */
void sf_policy_free(sf_policy *pol);
/** The route for the next packet from s to d (static draws the pair's route at its first packet). */
unsigned sf_policy_route(sf_policy *pol, unsigned s, unsigned d, sf_rng *r);
/** The pair's current route without drawing (0 before the first packet). */
unsigned sf_policy_current(const sf_policy *pol, unsigned s, unsigned d);
/** A packet from s to d has been sent; `stopped`: flow control stopped the NIC while it was sent. Returns a route
 *  to probe (probing), or -1. */
int sf_policy_sent(sf_policy *pol, unsigned s, unsigned d, int stopped, sf_rng *r);
/** The answer to the probe of route `alt` from s to d arrived: `busy` if the route was in use. Returns -1 (the
 *  pair keeps or changed its route; a route to probe again is asked for by a later stopped packet). */
int sf_policy_probed(sf_policy *pol, unsigned s, unsigned d, unsigned alt, int busy, sf_rng *r);
/** 1 while the pair waits for a probe's answer (the NIC holds the pair's packets back). */
int sf_policy_probing(const sf_policy *pol, unsigned s, unsigned d);
/** Counts since creation. */
void sf_policy_counts_get(const sf_policy *pol, sf_policy_counts *c);

#endif

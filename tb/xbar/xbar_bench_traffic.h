/* sanfab — crossbar bench: the hosts' traffic of a test (packets of every kind, stray characters,
 * STOP storms), over xbar_bench_base.h. */
#ifndef SANFAB_XBAR_BENCH_TRAFFIC_H
#define SANFAB_XBAR_BENCH_TRAFFIC_H

#include "rng.h"
#include "xbar_bench_base.h"
#include "xbar_host.h"
#include "xbar_scoreboard.h"

typedef struct {
    const opts_t *o;
    const test_desc_t *d;
    unsigned n;
    rng_t rng;
    unsigned load_pct[XBAR_MAX_PORTS];
    unsigned dst_perm[XBAR_MAX_PORTS];
    uint64_t storm_until[XBAR_MAX_PORTS];
    unsigned next_route, next_code_in, next_code_between, next_pos, next_pair;
    uint8_t route_sent[256];
    uint8_t code_in[251], code_between[251];
} traffic_t;

/* Queues one packet from host h (source src) to dst_force (-1: the test's choice) of len_force bytes
 * (0: the test's choice), maybe after stray characters; 1 if it was queued. */
int make_packet(traffic_t *t, sb_t *sb, host_t *h, unsigned src, int dst_force, unsigned len_force);
/* Draws the test's per-host loads, destinations and receivers (after t->o, t->d, t->n and t->rng are set). */
void traffic_setup(traffic_t *t, host_t *host, sb_t *sb);
/* One cycle of the test's traffic: new packets (when generate), STOP storms. */
void traffic_cycle(traffic_t *t, host_t *host, sb_t *sb, uint64_t cyc, int generate);

#endif

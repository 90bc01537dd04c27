/* sanfab — the switch box model's unit test (sbox_unit): its fabric (sbox_unit_fab.c: boxes, node
 * MLCs, links, messages sent and received) and the tests, one file per topic (sbox_unit_<topic>.c),
 * which the table of sbox_unit.c runs (tb/common/unit_main.h). */
#ifndef SBOX_UNIT_H
#define SBOX_UNIT_H

#include "unit_main.h"
#include "mlc.h"
#include "sbox.h"
#include "mlc_host.h"
#include "ring.h"
#include "rng.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ the fabric: boxes, nodes, links */

#define MAXB 2

#define MAXN 16

/* frees every message named */
#define FREE_MSGS(...)                                                                  \
    do {                                                                                \
        mlc_msg_t *fm_[] = {__VA_ARGS__};                                               \
        for (size_t i_ = 0; i_ < sizeof fm_ / sizeof fm_[0]; i_++)                      \
            mlc_msg_free(fm_[i_]);                                                      \
    } while (0)

typedef struct { int box; unsigned idx, port; } end_t;   /* box 0: node idx; box 1: box idx, port */

typedef struct { mlc_link_t *l; end_t a, b; } wire_t;    /* a: the master end */

typedef struct { uint16_t w; uint8_t ch; } raw_t;        /* a word written by hand into a node's send FIFO */

typedef struct { mlc_msg_t m; unsigned ch; uint64_t step; } rec_t; /* a message received by a node */

typedef struct {
    unsigned nbox, nnode, nwire;
    sbox_params_t bp[MAXB];
    sbox_t *box[MAXB];
    sbox_in_t bin[MAXB];   /* rx fields of the next step (from the links) */
    sbox_in_t breg[MAXB];  /* register request of the next step */
    sbox_out_t bout[MAXB]; /* outputs after the last step */
    uint8_t bprev[MAXB][8]; /* tx_en before the last step */
    mlc_params_t np[MAXN];
    mlc_t *node[MAXN];
    mlc_host_t *host[MAXN];
    unsigned at_box[MAXN], at_port[MAXN];
    mlc_in_t nin[MAXN];
    mlc_out_t nout[MAXN];
    ring_t raw[MAXN];  /* raw_t */
    ring_t got[MAXN];  /* rec_t */
    wire_t w[MAXN + 4];
    uint64_t k;
    unsigned stall;    /* % of steps a node holds its reads */
    sbox_t *shadow[MAXB]; /* fab_shadow: a second model of box j with sbox_set_fast off, stepped alike */
    uint64_t shadow_diff; /* steps in which a shadow's outputs differed from its box's */
    uint8_t hold[MAXN]; /* node i reads nothing while set */
    rng_t r;
} fab_t;

/* sbox_unit_fab.c: the helpers */

void *xcalloc(size_t n, size_t sz);
void xpush(ring_t *q, const void *e);
sbox_params_t bparams(unsigned ports, unsigned nodes);
mlc_params_t nparams(const sbox_params_t *bp);
fab_t *fab_new(unsigned nbox, const sbox_params_t *bp);
unsigned fab_node(fab_t *F, unsigned j, unsigned q, const mlc_params_t *np);
void fab_join(fab_t *F, unsigned ja, unsigned qa, unsigned jb, unsigned qb);
void fab_free(fab_t *F);
mlc_out_t end_out(const fab_t *F, end_t e);
void end_in(fab_t *F, end_t e, const mlc_in_t *x);
void fab_step(fab_t *F);
/* Gives every box a shadow model with the fast path off (sbox_set_fast 0), stepped with the same inputs: any step in
 * which their outputs (or box counters) differ counts in F->shadow_diff. Call right after fab_new, before any step
 * (a table written before would be missing in the shadow). */
void fab_shadow(fab_t *F);
void fab_run(fab_t *F, uint64_t n);
void fab_wr(fab_t *F, unsigned j, unsigned addr, unsigned data);
uint32_t fab_rd(fab_t *F, unsigned j, unsigned addr);
void fab_route(fab_t *F, unsigned j, unsigned d, unsigned q);
mlc_msg_t mk_msg(unsigned type, unsigned kind, unsigned dst, unsigned mask, unsigned src, unsigned len,
                 unsigned seed);
void send(fab_t *F, unsigned node, unsigned ch, const mlc_msg_t *m);
void send_raw(fab_t *F, unsigned node, unsigned ch, const mlc_msg_t *m, int pc);
int run_until_got(fab_t *F, unsigned i, size_t n, uint64_t max);
int got_eq(fab_t *F, unsigned i, unsigned ch, const mlc_msg_t *m, uint64_t *step);
uint64_t ctr(const fab_t *F, unsigned j, unsigned i);
int no_over_under(const fab_t *F);
fab_t *star(sbox_params_t bp);
/* star, with a shadow of its box (fab_shadow) when shadow is 1 */
fab_t *star_of(sbox_params_t bp, int shadow);
int is_release(const rec_t *g, unsigned mask);
unsigned releases(fab_t *F, unsigned i, unsigned ch, unsigned mask, unsigned *other);

/* sbox_unit_regs.c: parameter checks, the register port (box alone), counter wrap and reset */

void test_params(void);
void test_regs(void);
void test_wrap_reset(void);

/* sbox_unit_transit.c: transit through an idle box, unicast, multicast, drops, Type1 with PC < 2 */

void test_transit(void);
void test_routes(void);
void test_pc(void);

/* sbox_unit_arbitration.c: bus and manager round robin, locks, reservations, back-pressure */

void test_lock_rr(void);
void test_manager_skip(void);
void test_manager_rr(void);
void test_reservation(void);
void test_backpressure(void);

/* sbox_unit_barriers.c: barriers in one box */

void test_barrier_one(void);
void test_exact_bar_drop(void);

/* sbox_unit_tree.c: a two-box tree: barriers, multicast, the box port */

void test_tree(void);
void test_tree_mcast(void);
void test_box_port(void);

/* sbox_unit_soak.c: the random soak with a scoreboard (run by test_soak, sbox_unit.c) */

void soak(uint64_t seed, unsigned ports, unsigned lw, unsigned fifo, uint64_t steps, unsigned load, int shadow);

#endif

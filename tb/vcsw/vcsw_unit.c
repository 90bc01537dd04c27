/* sanfab — unit tests of the virtual-channel switch C model against the rules of docs/vcsw.md, with
 * directed stimulus on the model alone: latency (3 + LINK_DELAY), ownership and handover, Go & Stop
 * in both directions, virtual-channel interleaving, pipelined separable allocation (rule 3: the
 * offer registers, their request-time re-check, the next offer prepared from the state one step
 * older, input and output round robins, starvation), admission at a full buffer, MAXLEN cuts,
 * table drops, control VCs, table-write timing, the configuration port and counter schedule, the
 * RAM read, reset, parameter checks. Every expectation is computed by hand from the doc's rules and
 * the stimulus (the comments give the steps), never from the model's internals. The test_rule3_*
 * tests and test_reset_offer check rule 3 directly; each was seen to fail on a deliberately broken
 * model (next head after a taken offer S_v[0]; no R; no request-time re-check; stop of step k used
 * when preparing; an offer kept until taken; the position moved by an offer not taken; an entry
 * reaching an emptied staging part seen at once; offer registers kept by vcsw_reset).
 * test_quiet_skip checks vcsw_quiet/vcsw_skip (the network fabric's skipping of idle switches) by
 * comparing a model that skips with one stepped every step; it was seen to fail on a vcsw_skip that
 * does not move the cable position, does not or only partly advances the counter schedule, or does not
 * advance the step number, and on a vcsw_quiet that ignores the input register, the staged heads, the
 * cable registers, the transmit registers (with the pops), the tx_stop registers or an outstanding read.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
 *            -DSANFAB_ASSERT -Icmodel cmodel/vcsw.c tb/vcsw/vcsw_unit.c -o /tmp/vcsw_unit
 * A failing check prints "CHECK <what was expected> ... FAIL"; -v prints the passing ones too.
 * Last line: "vcsw_unit: N checks, M failed"; exit status 1 on any failure.
 */
#include "../common/unit_main.h"
#include "../../cmodel/vcsw.h"
#include "../common/rng.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ================================================================ simulation harness */

/* A run of the model: stimulus per step (index k = the input of vcsw_step number k; step 0 is reset)
 * and what came out after every step. */
typedef struct {
    vcsw_params_t p;
    vcsw_t *m;
    unsigned n, nvc, ndvc, L, maxs, k, cfg_next;
    uint32_t fmask;
    vcsw_flit_t *rx[VCSW_MAX_PORTS];
    uint16_t *ts[VCSW_MAX_PORTS]; /* tx_stop */
    uint8_t *we, *re;
    uint16_t *addr, *wd;
    vcsw_flit_t *tx[VCSW_MAX_PORTS];
    uint16_t *rs[VCSW_MAX_PORTS]; /* rx_stop */
    uint8_t *rv;
    uint32_t *rd;
    uint16_t *occ; /* [(k * n + p) * nvc + v]: vcsw_occupancy after step k */
} sim_t;

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "vcsw_unit: out of memory\n");
        exit(2);
    }
    return p;
}

static sim_t *sim_new(const vcsw_params_t *p, unsigned maxs)
{
    sim_t *s = xcalloc(1, sizeof *s);
    s->p = *p;
    s->m = vcsw_new(p);
    if (!s->m) {
        fprintf(stderr, "vcsw_unit: vcsw_new failed: %s\n", vcsw_params_check(p));
        exit(2);
    }
    s->n = p->NPORTS;
    s->nvc = p->NVC;
    s->ndvc = vcsw_ndvc(p);
    s->L = p->LINK_DELAY;
    s->maxs = maxs;
    s->cfg_next = 1;
    s->fmask = p->FLIT_W >= 32 ? 0xFFFFFFFFu : ((1u << p->FLIT_W) - 1u);
    for (unsigned i = 0; i < VCSW_MAX_PORTS; i++) {
        s->rx[i] = xcalloc(maxs, sizeof(vcsw_flit_t));
        s->ts[i] = xcalloc(maxs, sizeof(uint16_t));
        s->tx[i] = xcalloc(maxs, sizeof(vcsw_flit_t));
        s->rs[i] = xcalloc(maxs, sizeof(uint16_t));
    }
    s->we = xcalloc(maxs, 1);
    s->re = xcalloc(maxs, 1);
    s->addr = xcalloc(maxs, sizeof(uint16_t));
    s->wd = xcalloc(maxs, sizeof(uint16_t));
    s->rv = xcalloc(maxs, 1);
    s->rd = xcalloc(maxs, sizeof(uint32_t));
    s->occ = xcalloc((size_t)maxs * s->n * s->nvc, sizeof(uint16_t));
    return s;
}

static void sim_free(sim_t *s)
{
    vcsw_free(s->m);
    for (unsigned i = 0; i < VCSW_MAX_PORTS; i++) {
        free(s->rx[i]);
        free(s->ts[i]);
        free(s->tx[i]);
        free(s->rs[i]);
    }
    free(s->we);
    free(s->re);
    free(s->addr);
    free(s->wd);
    free(s->rv);
    free(s->rd);
    free(s->occ);
    free(s);
}

static unsigned occ_at(const sim_t *s, unsigned k, unsigned p, unsigned v)
{
    return s->occ[((size_t)k * s->n + p) * s->nvc + v];
}

/* one step: k = s->k + 1 */
static void sim_step(sim_t *s)
{
    unsigned k = ++s->k;
    vcsw_in_t in;
    vcsw_out_t out;
    memset(&in, 0, sizeof in);
    for (unsigned i = 0; i < VCSW_MAX_PORTS; i++) {
        in.rx[i] = s->rx[i][k];
        in.tx_stop[i] = s->ts[i][k];
    }
    in.cfg_we = s->we[k];
    in.cfg_re = s->re[k];
    in.cfg_addr = s->addr[k];
    in.cfg_wdata = s->wd[k];
    vcsw_step(s->m, &in, &out);
    for (unsigned i = 0; i < VCSW_MAX_PORTS; i++) {
        s->tx[i][k] = out.tx[i];
        s->rs[i][k] = out.rx_stop[i];
    }
    s->rv[k] = out.cfg_rvalid;
    s->rd[k] = out.cfg_rdata;
    for (unsigned p = 0; p < s->n; p++)
        for (unsigned v = 0; v < s->nvc; v++)
            s->occ[((size_t)k * s->n + p) * s->nvc + v] = (uint16_t)vcsw_occupancy(s->m, p, v);
}

static void sim_run(sim_t *s, unsigned upto)
{
    if (upto >= s->maxs)
        upto = s->maxs - 1;
    while (s->k < upto)
        sim_step(s);
}

static void sim_all(sim_t *s) { sim_run(s, s->maxs - 1); }

/* ---------------------------------------------------------------- configuration stimulus */

static void cfg_write_at(sim_t *s, unsigned k, unsigned space, unsigned idx, unsigned wdata)
{
    s->we[k] = 1;
    s->addr[k] = VCSW_CFG_ADDR(space, idx);
    s->wd[k] = (uint16_t)wdata;
}

static void cfg_read_at(sim_t *s, unsigned k, unsigned space, unsigned idx)
{
    s->re[k] = 1;
    s->addr[k] = VCSW_CFG_ADDR(space, idx);
}

/* table writes one per step from step 1 (cfg_next) */
static void set_route(sim_t *s, unsigned tag, unsigned port)
{
    cfg_write_at(s, s->cfg_next++, VCSW_SPACE_ROUTE, tag, VCSW_ENTRY(1, port));
}

static void set_vc(sim_t *s, unsigned in, unsigned out, unsigned d, unsigned u)
{
    cfg_write_at(s, s->cfg_next++, VCSW_SPACE_VC, VCSW_VC_INDEX(in, out, d), VCSW_ENTRY(1, u));
}

/* ---------------------------------------------------------------- flit stimulus */

static void put_flit(sim_t *s, unsigned port, unsigned k, unsigned vc, uint32_t data, unsigned tail)
{
    vcsw_flit_t *f = &s->rx[port][k];
    f->valid = 1;
    f->vc = (uint8_t)vc;
    f->tail = (uint8_t)tail;
    f->data = data & s->fmask;
}

/* data of flit i of packet `id` (head: the tag in the low TAG_W bits) */
static uint32_t pkt_data(const sim_t *s, unsigned id, unsigned i, unsigned tag)
{
    if (i == 0)
        return ((id << s->p.TAG_W) | tag) & s->fmask;
    return (id * 977u + i * 131u + 7u) & s->fmask;
}

/* a packet of len flits on consecutive steps from k; returns the step after it */
static unsigned put_pkt(sim_t *s, unsigned port, unsigned k, unsigned vc, unsigned tag, unsigned len, unsigned id)
{
    for (unsigned i = 0; i < len; i++)
        put_flit(s, port, k + i, vc, pkt_data(s, id, i, tag), i + 1 == len);
    return k + len;
}

/* tx_stop bit (o, u) high in steps [from, to] */
static void stop_range(sim_t *s, unsigned o, unsigned u, unsigned from, unsigned to)
{
    for (unsigned k = from; k <= to && k < s->maxs; k++)
        s->ts[o][k] |= (uint16_t)(1u << u);
}

/* ---------------------------------------------------------------- output analysis */

static int flit_is(const vcsw_flit_t *f, unsigned vc, uint32_t data, unsigned tail)
{
    return f->valid == 1 && f->vc == vc && f->data == data && f->tail == tail;
}

static int flit_idle(const vcsw_flit_t *f) { return !f->valid && !f->vc && !f->tail && !f->data; }

/* the packet id/len expected on tx[o] from step k (consecutive steps, output VC u) */
static int pkt_at(const sim_t *s, unsigned o, unsigned k, unsigned u, unsigned tag, unsigned len, unsigned id)
{
    for (unsigned i = 0; i < len; i++)
        if (k + i >= s->maxs || !flit_is(&s->tx[o][k + i], u, pkt_data(s, id, i, tag), i + 1 == len))
            return 0;
    return 1;
}

static unsigned count_valid(const sim_t *s, unsigned o, unsigned from, unsigned to)
{
    unsigned n = 0;
    for (unsigned k = from; k <= to && k < s->maxs; k++)
        n += s->tx[o][k].valid;
    return n;
}

/* first step in [from, to] with a valid flit on tx[o] whose data is `data`; 0 if none */
static unsigned find_data(const sim_t *s, unsigned o, unsigned from, unsigned to, uint32_t data)
{
    for (unsigned k = from; k <= to && k < s->maxs; k++)
        if (s->tx[o][k].valid && s->tx[o][k].data == data)
            return k;
    return 0;
}

/* every output idle in [from, to] except `except` (-1: none) */
static int others_idle(const sim_t *s, int except, unsigned from, unsigned to)
{
    for (unsigned o = 0; o < VCSW_MAX_PORTS; o++) {
        if ((int)o == except)
            continue;
        for (unsigned k = from; k <= to && k < s->maxs; k++)
            if (!flit_idle(&s->tx[o][k]))
                return 0;
    }
    return 1;
}

static int never_rvalid(const sim_t *s, unsigned from, unsigned to)
{
    for (unsigned k = from; k <= to && k < s->maxs; k++)
        if (s->rv[k] || s->rd[k])
            return 0;
    return 1;
}

static vcsw_params_t params(unsigned n, unsigned nvc, unsigned ctrl, unsigned L)
{
    vcsw_params_t p = vcsw_default_params();
    p.NPORTS = n;
    p.NVC = nvc;
    p.CTRL = ctrl;
    p.LINK_DELAY = L;
    return p;
}

static const char *pstr(const vcsw_params_t *p)
{
    static char b[160];
    snprintf(b, sizeof b, "[N=%u NVC=%u CTRL=%u FLIT_W=%u TAG_W=%u DEPTH=%u MAXLEN=%u L=%u CTR=%u/%u]", p->NPORTS,
             p->NVC, p->CTRL, p->FLIT_W, p->TAG_W, p->DEPTH, p->MAXLEN, p->LINK_DELAY, p->COUNTERS, p->CTR_WIDTH);
    return b;
}

/* parameter sets the directed tests run on */
static const struct {
    unsigned n, nvc, ctrl, L;
} psets[] = {
    {8, 2, 1, 0}, {8, 2, 1, 3}, {2, 2, 0, 0}, {3, 4, 1, 3}, {5, 4, 0, 0}, {5, 2, 1, 3},
    {16, 16, 1, 0}, {16, 16, 0, 3}, {4, 8, 1, 1}, {16, 2, 0, 0},
};
#define NPSETS (sizeof psets / sizeof psets[0])

/* ================================================================ tests */

/* The doc's timing diagram (rule 3 pipelined): LINK_DELAY 0, a 3-flit packet from input 1 VC 0 to
 * output 4 VC 1: rx at k, k+1, k+2; H admitted k+1, offered after k+2, taken k+3; tx H, B, T at k+3,
 * k+4, k+5; the output VC free, free, free, owned, owned, free (k..k+5). A second packet from input 2
 * to the same output VC, head received at k+1: admitted k+2; offered after k+3 (VC free after k+2,
 * rule 3.3); in k+4 its request fails (VC owned after k+3, rule 3.1); not eligible while the VC is
 * owned after k+3, k+4 (rule 3.3); T taken k+5 frees it after k+5; offered after k+6, taken k+7:
 * tx H' k+7, B' k+8 (k+6 idle). */
static void test_diagram(void)
{
    /* doc: with the default NVC 2 CTRL 1 (NDVC 1) a data packet cannot leave on VC 1; the diagram
     * is taken with CTRL 0 */
    vcsw_params_t p = vcsw_default_params();
    p.CTRL = 0;
    sim_t *s = sim_new(&p, 60);
    set_route(s, 0x21, 4);
    set_vc(s, 1, 4, 0, 1);
    const unsigned k = 10;
    put_pkt(s, 1, k, 0, 0x21, 3, 5);
    set_vc(s, 2, 4, 0, 1);
    put_pkt(s, 2, k + 1, 0, 0x21, 2, 6);
    sim_all(s);
    check(flit_idle(&s->tx[4][k]) && flit_idle(&s->tx[4][k + 1]) && flit_idle(&s->tx[4][k + 2]),
          "diagram: tx[4] idle at k, k+1, k+2");
    int step_ok = 1; /* the diagram's tx_data row step by step */
    step_ok &= flit_is(&s->tx[4][k + 3], 1, pkt_data(s, 5, 0, 0x21), 0);
    step_ok &= flit_is(&s->tx[4][k + 4], 1, pkt_data(s, 5, 1, 0x21), 0);
    step_ok &= flit_is(&s->tx[4][k + 5], 1, pkt_data(s, 5, 2, 0x21), 1);
    check(step_ok, "diagram: H at k+3, B at k+4, T (tx_tail 1) at k+5 on tx[4] VC 1");
    check(flit_idle(&s->tx[4][k + 6]) && pkt_at(s, 4, k + 7, 1, 0x21, 2, 6),
          "diagram: input 2's packet to the same output VC: k+6 idle (offer prepared on the VC owned after k+5's "
          "predecessor), H' at k+7, B' at k+8");
    check(flit_idle(&s->tx[4][k + 9]) && others_idle(s, 4, 1, 59) && count_valid(s, 4, 1, 59) == 5,
          "diagram: nothing else on any output");
    sim_free(s);
}

/* Header latency 3 + LINK_DELAY on a free path (doc, Latency: admitted k+1, offered after k+2, taken
 * k+3), body one flit per step, on every parameter set (LINK_DELAY 0, 1 and 3): input (N>1 ? 1 : 0)
 * on its last VC (a control VC when CTRL = 1) to output N-1. */
static void test_latency(void)
{
    for (unsigned a = 0; a < NPSETS; a++) {
        vcsw_params_t p = params(psets[a].n, psets[a].nvc, psets[a].ctrl, psets[a].L);
        sim_t *s = sim_new(&p, 120);
        const unsigned in = 1 % p.NPORTS, o = p.NPORTS - 1, v = p.NVC - 1, ctl = v >= s->ndvc;
        const unsigned d = ctl ? v - s->ndvc : v, ud = (d + 1) % s->ndvc, u = ud + (ctl ? s->ndvc : 0);
        const unsigned tag = 0x5A & ((1u << p.TAG_W) - 1u);
        set_route(s, tag, o);
        set_vc(s, in, o, d, ud);
        const unsigned h = 20, len = 7;
        put_pkt(s, in, h, v, tag, len, 3);
        sim_all(s);
        const unsigned want = h + 3 + s->L;
        unsigned got = find_data(s, o, 1, 119, pkt_data(s, 3, 0, tag));
        check(got == want, "latency %s: head in at %u, out at %u (want %u = k+3+LINK_DELAY)", pstr(&p), h, got, want);
        check(pkt_at(s, o, want, u, tag, len, 3),
              "latency %s: %u flits on output %u VC %u one per step from %u, tail on the last", pstr(&p), len, o, u,
              want);
        check(others_idle(s, (int)o, 1, 119) && count_valid(s, o, 1, 119) == len,
              "latency %s: nothing else on any output", pstr(&p));
        int ok = 1;
        for (unsigned k = 1; k < 120; k++)
            for (unsigned q = 0; q < VCSW_MAX_PORTS; q++)
                ok &= s->rs[q][k] == 0;
        check(ok, "latency %s: rx_stop 0 throughout", pstr(&p));
        sim_free(s);
    }
}

/* Ownership from head to tail (rule 3.2); a waiting head of another input takes the output VC two
 * steps after the tail (freed after the tail's step t; offered after t+1 on the state after t, rule
 * 3.3; taken t+2); the owner keeps it across a gap in its input; other output VCs of the link pass.
 * A (input 1, head rx 10): head at 13 (3 + L); C (input 4, rx 11, 12; output VC 0): offered after 13,
 * taken 14, 15; B (input 2, rx 11, 12): offered after 13 (VC free after 12) but its request in 14
 * fails (owned after 13, rule 3.1); A's body rx 15 -> 18, tail rx 16 -> 19; B at 21, 22. */
static void test_ownership(void)
{
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(a ? 5 : 8, 4, 1, a ? 3 : 0);
        sim_t *s = sim_new(&p, 80);
        const unsigned o = 3, L = s->L, T = 0x11;
        set_route(s, T, o);
        set_route(s, T + 1, o);
        set_vc(s, 1, o, 0, 1); /* input 1 -> (3, 1) */
        set_vc(s, 2, o, 0, 1); /* input 2 -> (3, 1) */
        set_vc(s, 4, o, 1, 0); /* input 4 VC 1 -> (3, 0) */
        /* A: input 1, head at 10, body at 15 (gap), tail at 16 */
        put_flit(s, 1, 10, 0, pkt_data(s, 1, 0, T), 0);
        put_flit(s, 1, 15, 0, pkt_data(s, 1, 1, T), 0);
        put_flit(s, 1, 16, 0, pkt_data(s, 1, 2, T), 1);
        /* B: input 2, 2 flits from 11, same output VC: waits */
        put_pkt(s, 2, 11, 0, T, 2, 2);
        /* C: input 4 VC 1, 2 flits from 11, output VC 0: passes */
        put_pkt(s, 4, 11, 1, T + 1, 2, 3);
        sim_all(s);
        check(flit_is(&s->tx[o][13 + L], 1, pkt_data(s, 1, 0, T), 0), "ownership%u: A's head at %u", a, 13 + L);
        check(pkt_at(s, o, 14 + L, 0, T + 1, 2, 3), "ownership%u: C (other output VC) at %u, %u", a, 14 + L, 15 + L);
        check(flit_idle(&s->tx[o][16 + L]) && flit_idle(&s->tx[o][17 + L]),
              "ownership%u: idle at %u, %u although B's head waits (VC 1 owned by A)", a, 16 + L, 17 + L);
        check(flit_is(&s->tx[o][18 + L], 1, pkt_data(s, 1, 1, T), 0) &&
                  flit_is(&s->tx[o][19 + L], 1, pkt_data(s, 1, 2, T), 1),
              "ownership%u: A's body and tail at %u, %u", a, 18 + L, 19 + L);
        check(flit_idle(&s->tx[o][20 + L]) && pkt_at(s, o, 21 + L, 1, T, 2, 2),
              "ownership%u: B two steps after A's tail at %u (VC free after the tail, offered the step after)", a,
              21 + L);
        check(count_valid(s, o, 1, 79) == 7 && others_idle(s, (int)o, 1, 79), "ownership%u: nothing else", a);
        sim_free(s);
    }
    /* the same input: packets back to back on one VC to one output VC (rx 10..12, 13, 14..17). P1 at
     * 13..15. When T1 is taken (15) the next head P2 is S_v[1] but a first flit whose output VC is
     * owned after 14 (rule 3.3, "free after step k-1"): not offered; offered after 16, taken 17: 16
     * idle. P2 is a one-flit packet (owns nothing): H3, its S_v[1] when P2 is taken, is eligible, so
     * P3 follows at 18..21 (its body through the RAM part and R, no bubble). */
    {
        vcsw_params_t p = params(4, 2, 0, 0);
        sim_t *s = sim_new(&p, 60);
        set_route(s, 1, 2);
        set_vc(s, 0, 2, 1, 0);
        unsigned k = put_pkt(s, 0, 10, 1, 1, 3, 1);
        k = put_pkt(s, 0, k, 1, 1, 1, 2);
        put_pkt(s, 0, k, 1, 1, 4, 3);
        sim_all(s);
        check(pkt_at(s, 2, 13, 0, 1, 3, 1) && flit_idle(&s->tx[2][16]) && pkt_at(s, 2, 17, 0, 1, 1, 2) &&
                  pkt_at(s, 2, 18, 0, 1, 4, 3) && count_valid(s, 2, 1, 59) == 8,
              "ownership: 3 packets of one input VC back to back, 8 flits at 13..15, 17..21 (16 idle)");
        sim_free(s);
    }
}

/* Stop bit of (o, u): registered once (tx_stop of step k-1 is used in step k), blocks only new
 * heads on that output VC; body flits ignore it. Head received at h, staged after h+1: it is checked
 * twice (rule 3), when prepared in step t >= h+2 (stop of t-1) and when it requests in t+1 (stop of
 * t): it leaves in the first step t+1 >= h+3 with tx_stop 0 in both t-1 and t. */
static void test_stop_bit(void)
{
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(a ? 5 : 8, 2, 0, a ? 3 : 0);
        const unsigned L = p.LINK_DELAY, o = 2, u = 0, T = 3, h = 20;
        /* (stop from, stop to, expected head step) */
        static const struct {
            unsigned from, to, want;
        } cs[] = {
            {21, 21, 24}, /* stop in h+1: not eligible when prepared in h+2; prepared h+3, out h+4 */
            {22, 30, 33}, /* stop from h+2: prepared h+2, its request in h+3 fails; prepared 32, out 33 */
            {20, 20, 23}, /* stop in h: used in h+1 only, before the head is staged */
            {10, 34, 37}, /* released: last stop at 34, prepared 36, out 37 */
        };
        for (unsigned c = 0; c < 4; c++) {
            sim_t *s = sim_new(&p, 120);
            set_route(s, T, o);
            set_vc(s, 1, o, 0, u);
            put_pkt(s, 1, h, 0, T, 4, 1);
            stop_range(s, o, u, cs[c].from, cs[c].to);
            sim_all(s);
            unsigned got = find_data(s, o, 1, 119, pkt_data(s, 1, 0, T));
            check(got == cs[c].want + L && pkt_at(s, o, got, u, T, 4, 1),
                  "stop bit L=%u: head in at %u, stop in steps %u..%u: head out at %u (got %u), body at one per step",
                  L, h, cs[c].from, cs[c].to, cs[c].want + L, got);
            sim_free(s);
        }
        /* body ignores stop; the next head on the stopped VC waits; other VC and other output pass */
        sim_t *s = sim_new(&p, 160);
        set_route(s, T, o);
        set_route(s, T + 1, 3);
        set_vc(s, 1, o, 0, u);
        set_vc(s, 0, o, 0, 1);
        set_vc(s, 4, 3, 0, u);
        unsigned k = put_pkt(s, 1, h, 0, T, 8, 1);
        put_pkt(s, 1, k, 0, T, 2, 2);
        stop_range(s, o, u, h + 3, 60); /* from h+3: the head (prepared h+2, request h+3) has left at h+3 */
        put_pkt(s, 0, h + 12, 0, T, 3, 3);     /* output o VC 1 */
        put_pkt(s, 4, h + 12, 0, T + 1, 3, 4); /* output 3 VC u */
        sim_all(s);
        check(pkt_at(s, o, h + 3 + L, u, T, 8, 1), "stop bit L=%u: body flits ignore the stop bit (8 flits from %u)", L,
              h + 3 + L);
        unsigned g2 = find_data(s, o, 1, 159, pkt_data(s, 2, 0, T));
        check(g2 == 63 + L && pkt_at(s, o, g2, u, T, 2, 2),
              "stop bit L=%u: next head on the stopped VC out at %u (stop until 60: prepared 62, out 63), got %u", L,
              63 + L, g2);
        check(pkt_at(s, o, h + 15 + L, 1, T, 3, 3), "stop bit L=%u: other VC of the stopped output passes at %u", L,
              h + 15 + L);
        check(pkt_at(s, 3, h + 15 + L, u, T + 1, 3, 4), "stop bit L=%u: same VC of another output passes at %u", L,
              h + 15 + L);
        sim_free(s);
    }
}

/* Two inputs offering to one output (on different output VCs): the output's round robin over the
 * input numbers alternates them, flit by flit, from 13 (heads rx 10, offered after 12); the input
 * not taken keeps its offer (rule 3.3: the same head, still eligible). */
static void test_interleave(void)
{
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(4, 2, 0, a ? 3 : 0);
        const unsigned L = p.LINK_DELAY, o = 2;
        sim_t *s = sim_new(&p, 120);
        set_route(s, 1, o);
        set_vc(s, 0, o, 0, 0); /* c = 0 -> (o, 0) */
        set_vc(s, 1, o, 1, 1); /* c = 3 -> (o, 1) */
        put_pkt(s, 0, 10, 0, 1, 20, 1);
        put_pkt(s, 1, 10, 1, 1, 20, 2);
        sim_all(s);
        int ok = 1;
        for (unsigned i = 0; i < 40; i++) {
            unsigned k = 13 + L + i, pk = i & 1u, fi = i / 2;
            ok &= flit_is(&s->tx[o][k], pk, pkt_data(s, 1 + pk, fi, 1), fi == 19);
        }
        check(ok, "interleave L=%u: flits of (0,0)->VC 0 and (1,1)->VC 1 alternate 0,1,0,1 from %u, 40 steps", L,
              13 + L);
        sim_free(s);
    }
}

/* One output VC blocked downstream: the other VC carries every flit, from one input and from two.
 * "Latency and throughput": with one other output VC and packets back to back on it, rule 3.3 judges
 * the next packet's first flit on the output VC "free after step k-1", when the previous tail still
 * owns it: each packet after the first leaves two steps after the previous tail (one idle step per
 * packet, the doc's MAXLEN/(MAXLEN+1) for one stream; the price of the fairness checked below). Expected steps, hand-computed:
 * one input (VC 1 packets rx from 16): packet j at 19+10j..27+10j (+L); two inputs (input 1's rx
 * from 12, input 0's from 16): input 1 at 15..23, then the two alternate packet by packet (both
 * offer after each freeing; the output's round robin alternates), packet i at 15+10i..23+10i. */
static void test_blocked_vc(void)
{
    for (unsigned a = 0; a < 3; a++) {
        vcsw_params_t p = params(a == 2 ? 5 : 8, 2, 0, a == 1 ? 3 : 0);
        p.DEPTH = 128;
        const unsigned L = p.LINK_DELAY, o = 1;
        sim_t *s = sim_new(&p, 400);
        set_route(s, 7, o);
        for (unsigned i = 0; i < 3; i++) {
            set_vc(s, i, o, 0, 0);
            set_vc(s, i, o, 1, 1);
        }
        stop_range(s, o, 0, 1, 399);
        /* input 0: a VC 0 packet (blocked for ever), then VC 1 packets back to back */
        unsigned k = put_pkt(s, 0, 10, 0, 7, 6, 100);
        unsigned first = k;
        unsigned nfl = 0;
        for (unsigned j = 0; j < 10; j++) {
            k = put_pkt(s, 0, k, 1, 7, 9, 1 + j);
            nfl += 9;
        }
        if (a == 2) { /* and input 2: VC 0 blocked packet, input 1: VC 1 packets too (shared output VC 1) */
            put_pkt(s, 2, 10, 0, 7, 5, 200);
            unsigned k1 = 12;
            for (unsigned j = 0; j < 10; j++) {
                k1 = put_pkt(s, 1, k1, 1, 7, 9, 50 + j);
                nfl += 9;
            }
        }
        sim_all(s);
        int vc_ok = 1;
        for (unsigned kk = 1; kk < 400; kk++)
            if (s->tx[o][kk].valid && s->tx[o][kk].vc != 1)
                vc_ok = 0;
        const unsigned st = (a == 2 ? 15 : first + 3) + L, npk = a == 2 ? 20 : 10;
        unsigned good = 0;
        for (unsigned i = 0; i < npk; i++) {
            const unsigned id = a == 2 ? ((i & 1u) ? 1 + i / 2 : 50 + i / 2) : 1 + i;
            good += pkt_at(s, o, st + 10 * i, 1, 7, 9, id);
        }
        check(good == npk && vc_ok && count_valid(s, o, 1, 399) == nfl,
              "blocked VC (%s): %u packets of 9 flits on VC 1, one every 10 steps from %u (%u right), VC 0 never "
              "leaves", a == 2 ? "two inputs" : "one input", npk, st, good);
        sim_free(s);
    }
    /* input 0 VC 0 blocked, input 1 VC 1 streaming */
    {
        vcsw_params_t p = params(3, 4, 1, 0);
        sim_t *s = sim_new(&p, 200);
        set_route(s, 2, 2);
        set_vc(s, 0, 2, 0, 0);
        set_vc(s, 1, 2, 1, 1);
        stop_range(s, 2, 0, 1, 199);
        put_pkt(s, 0, 10, 0, 2, 8, 1);
        unsigned k = 10;
        for (unsigned j = 0; j < 6; j++)
            k = put_pkt(s, 1, k, 1, 2, 10, 10 + j);
        sim_all(s);
        unsigned good = 0;
        for (unsigned j = 0; j < 6; j++)
            good += pkt_at(s, 2, 13 + 11 * j, 1, 2, 10, 10 + j);
        check(good == 6 && count_valid(s, 2, 1, 199) == 60,
              "blocked VC (input 0 VC 0 blocked, input 1 VC 1 streams): 6 packets of 10 at 13+11j (%u right)", good);
        sim_free(s);
    }
}

/* rx_stop[p,v] after step k = occupancy after step k-1-LINK_DELAY >= STOP_AT (0 for k <= LINK_DELAY);
 * the occupancy counted from the stimulus and the outputs: flits received in steps <= k-1 minus
 * flits taken by the allocator in steps <= k (seen on tx LINK_DELAY steps later). */
static void test_rx_stop(void)
{
    static const struct {
        unsigned depth, maxlen, L, nvc, n;
    } cs[] = {{32, 8, 0, 2, 4}, {64, 16, 3, 4, 5}, {16, 4, 1, 2, 3}, {256, 128, 0, 16, 2}};
    for (unsigned a = 0; a < 4; a++) {
        vcsw_params_t p = params(cs[a].n, cs[a].nvc, 1, cs[a].L);
        p.DEPTH = cs[a].depth;
        p.MAXLEN = cs[a].maxlen;
        const unsigned L = p.LINK_DELAY, o = 1, in = p.NPORTS - 1, v = 1, stop_at = (unsigned)vcsw_stop_at(&p);
        const unsigned maxs = 1200;
        sim_t *s = sim_new(&p, maxs);
        const unsigned ctl = v >= s->ndvc, d = ctl ? v - s->ndvc : v, u = ctl ? s->ndvc : 0;
        set_route(s, 3, o);
        set_vc(s, in, o, d, 0);
        stop_range(s, o, u, 1, 300);
        /* a sender ignoring STOP: packets of MAXLEN (or less) until stop_at + 3 flits are in, then
         * one flit every 3 steps during the drain (the occupancy goes up and down) */
        unsigned k = 10, sent = 0, id = 1, goal = stop_at + 3;
        while (sent < goal) {
            unsigned len = goal - sent < p.MAXLEN ? goal - sent : p.MAXLEN;
            k = put_pkt(s, in, k, v, 3, len, id++);
            sent += len;
        }
        for (unsigned j = 0; j < 30; j++)
            put_pkt(s, in, 310 + 3 * j, v, 3, 1, id++);
        sim_all(s);
        int ok_occ = 1, ok_stop = 1, ok_other = 1;
        unsigned ones = 0, first_bad = 0;
        int occ[1200];
        int recv = 0, popped = 0;
        for (unsigned kk = 0; kk < maxs - L; kk++) {
            if (kk >= 1 && s->rx[in][kk - 1].valid)
                recv++;
            if (s->tx[o][kk + L].valid)
                popped++;
            occ[kk] = recv - popped;
            if ((int)occ_at(s, kk, in, v) != occ[kk] && ok_occ) {
                ok_occ = 0;
                first_bad = kk;
            }
        }
        for (unsigned kk = 1; kk < maxs - L; kk++) {
            unsigned want = kk <= L ? 0 : (occ[kk - 1 - L] >= (int)stop_at);
            unsigned got = (s->rs[in][kk] >> v) & 1u;
            ones += got;
            if (got != want && ok_stop) {
                ok_stop = 0;
                first_bad = kk;
            }
            for (unsigned q = 0; q < VCSW_MAX_PORTS; q++)
                if (s->rs[q][kk] & ~(q == in ? (1u << v) : 0u))
                    ok_other = 0;
        }
        check(ok_occ, "rx_stop %s: occupancy = received in steps <= k-1 minus popped in steps <= k (first "
                      "difference after step %u)",
              pstr(&p), first_bad);
        check(ok_stop && ones > 0, "rx_stop %s: STOP exactly while occupancy after k-1-LINK_DELAY >= STOP_AT=%u "
                                   "(first difference at step %u, %u STOP steps)",
              pstr(&p), stop_at, first_bad, ones);
        check(ok_other, "rx_stop %s: no other stop bit", pstr(&p));
        sim_free(s);
    }
}

/* A sender that obeys Go & Stop at the latest moment the doc allows (head on rx in step s only if
 * rx_stop after step s-LINK_DELAY-3 is 0) never causes a cut, even with MAXLEN packets into a
 * blocked output; and the buffer fills to at least STOP_AT. */
static void test_obeying_sender(void)
{
    static const struct {
        unsigned depth, maxlen, L, nvc;
    } cs[] = {{32, 8, 0, 2}, {64, 16, 3, 4}, {16, 4, 1, 2}, {64, 32, 0, 2}, {256, 64, 64, 4}};
    for (unsigned a = 0; a < 5; a++) {
        vcsw_params_t p = params(3, cs[a].nvc, 0, cs[a].L);
        p.DEPTH = cs[a].depth;
        p.MAXLEN = cs[a].maxlen;
        const unsigned L = p.LINK_DELAY, o = 2, in = 0, maxs = 1500;
        sim_t *s = sim_new(&p, maxs);
        set_route(s, 1, o);
        for (unsigned v = 0; v < p.NVC; v++)
            set_vc(s, in, o, v, v);
        for (unsigned v = 0; v < p.NVC; v++)
            stop_range(s, o, v, 1, 800);
        /* every VC has packets to send; per step one flit, VCs in turn; a packet starts only when allowed */
        unsigned left[16] = {0}, id = 1, rrv = 0;
        unsigned maxocc = 0;
        for (unsigned k = 1; k < maxs; k++) {
            if (k >= 20 && k < 1000) {
                for (unsigned j = 0; j < p.NVC; j++) {
                    unsigned v = (rrv + j) % p.NVC;
                    int may = left[v] > 0;
                    if (!may && k >= L + 4)
                        may = !((s->rs[in][k - L - 3] >> v) & 1u);
                    if (!may)
                        continue;
                    unsigned i;
                    if (left[v] == 0) {
                        left[v] = p.MAXLEN;
                        id++;
                    }
                    i = p.MAXLEN - left[v];
                    put_flit(s, in, k, v, pkt_data(s, id * 16 + v, i, 1), left[v] == 1);
                    left[v]--;
                    rrv = v + 1;
                    break;
                }
            }
            sim_step(s);
            for (unsigned v = 0; v < p.NVC; v++)
                if (occ_at(s, k, in, v) > maxocc)
                    maxocc = occ_at(s, k, in, v);
        }
        unsigned ov = 0, tr = 0;
        for (unsigned v = 0; v < p.NVC; v++) {
            ov += vcsw_counter(s->m, in, v, VCSW_CTR_OVERFLOW);
            tr += vcsw_counter(s->m, in, v, VCSW_CTR_TRUNC);
        }
        check(ov == 0 && tr == 0 && maxocc <= p.DEPTH - 2 && maxocc >= (unsigned)vcsw_stop_at(&p),
              "obeying sender %s: no cut (overflow %u, trunc %u), occupancy peaked at %u in [STOP_AT %d, DEPTH-2]",
              pstr(&p), ov, tr, maxocc, vcsw_stop_at(&p));
        sim_free(s);
    }
}

/* Admission at DEPTH-2, DEPTH-1, DEPTH (sender ignores STOP; the output VC stopped while filling). */
static void test_admission(void)
{
    vcsw_params_t p = params(4, 2, 1, 0);
    p.DEPTH = 16;
    p.MAXLEN = 8;
    const unsigned o = 3, u = 0, T = 5;
    /* scene 1: A 5, B 8 (occupancy 13), C 4 flits: 13, 14 stored, third at 15 = DEPTH-1 stored as
     * a tail (overflow), the fourth discarded; D (3) at 16 discarded with its head (overflow); E
     * (1 flit) at 16 discarded (overflow, state stays IDLE); after the release F (2) passes.
     * Steps (rule 3): stop last received in 60, A prepared 62 (stop of 61), out 63..67; B's head is
     * S_v[1] when A's tail is taken but its output VC is owned after 66: prepared 68, out 69..76; C
     * likewise 78..80; F (rx 100) on an empty buffer at 103. */
    {
        sim_t *s = sim_new(&p, 200);
        set_route(s, T, o);
        set_vc(s, 0, o, 0, u);
        stop_range(s, o, u, 1, 60);
        unsigned k = put_pkt(s, 0, 10, 0, T, 5, 1);
        k = put_pkt(s, 0, k, 0, T, 8, 2);
        k = put_pkt(s, 0, k, 0, T, 4, 3);
        k = put_pkt(s, 0, k, 0, T, 3, 4);
        k = put_pkt(s, 0, k, 0, T, 1, 5);
        sim_run(s, k + 2);
        unsigned occ_full = occ_at(s, k + 1, 0, 0);
        put_pkt(s, 0, 100, 0, T, 2, 6);
        sim_all(s);
        unsigned g = find_data(s, o, 1, 199, pkt_data(s, 1, 0, T));
        int ok = g == 63 && pkt_at(s, o, 63, u, T, 5, 1) && pkt_at(s, o, 69, u, T, 8, 2);
        ok &= flit_is(&s->tx[o][78], u, pkt_data(s, 3, 0, T), 0) && flit_is(&s->tx[o][79], u, pkt_data(s, 3, 1, T), 0) &&
              flit_is(&s->tx[o][80], u, pkt_data(s, 3, 2, T), 1);
        check(ok, "admission: A (5) at 63, B (8) at 69, C cut at DEPTH-1: 3 flits, the third with tail, at 78..80");
        check(pkt_at(s, o, 103, u, T, 2, 6) && count_valid(s, o, 1, 199) == 18,
              "admission: D and E discarded, F (sent after the drain) whole at 103; 18 flits in all");
        check(occ_full == 16, "admission: occupancy DEPTH=16 after the filling (got %u)", occ_full);
        check(vcsw_counter(s->m, 0, 0, VCSW_CTR_OVERFLOW) == 3 && vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_PKTS) == 6 &&
                  vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_FLITS) == 23 && vcsw_counter(s->m, 0, 0, VCSW_CTR_TRUNC) == 0,
              "admission: overflow 3 (C cut, D and E discarded), rx_pkts 6, rx_flits 23, trunc 0 (got %u %u %u %u)",
              vcsw_counter(s->m, 0, 0, VCSW_CTR_OVERFLOW), vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_PKTS),
              vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_FLITS), vcsw_counter(s->m, 0, 0, VCSW_CTR_TRUNC));
        check(vcsw_counter(s->m, o, u, VCSW_CTR_TX_PKTS) == 4 && vcsw_counter(s->m, o, u, VCSW_CTR_TX_FLITS) == 18,
              "admission: tx_pkts 4, tx_flits 18 on output %u VC %u", o, u);
        sim_free(s);
    }
    /* scene 2: occupancy 15 = DEPTH-1: a one-flit packet is stored as it is (no overflow); then a
     * one-flit packet at 16 is discarded (overflow). A at 63..70, B at 72..78, C at 80 (each head
     * two steps after the previous tail: its output VC is owned after the step before) */
    {
        sim_t *s = sim_new(&p, 200);
        set_route(s, T, o);
        set_vc(s, 0, o, 0, u);
        stop_range(s, o, u, 1, 60);
        unsigned k = put_pkt(s, 0, 10, 0, T, 8, 1);
        k = put_pkt(s, 0, k, 0, T, 7, 2);
        k = put_pkt(s, 0, k, 0, T, 1, 3);
        put_pkt(s, 0, k, 0, T, 1, 4);
        sim_all(s);
        check(pkt_at(s, o, 63, u, T, 8, 1) && pkt_at(s, o, 72, u, T, 7, 2) && pkt_at(s, o, 80, u, T, 1, 3) &&
                  count_valid(s, o, 1, 199) == 16 && vcsw_counter(s->m, 0, 0, VCSW_CTR_OVERFLOW) == 1,
              "admission: one-flit packet at DEPTH-1 stored, the next at DEPTH discarded, overflow 1 (got %u)",
              vcsw_counter(s->m, 0, 0, VCSW_CTR_OVERFLOW));
        sim_free(s);
    }
    /* scene 3: a head (not tail) at DEPTH-1 is stored as a tail: a one-flit packet leaves; the rest
     * is discarded; a following packet at DEPTH is discarded too. Scene 4: the same, the pop of the
     * step that processes the head is not subtracted (release so that the first pop is then: last
     * stop in 38, A prepared 40 on the stop of 39, taken 41 on the stop of 40). A at base, B at
     * base+9, C's head at base+17. */
    for (unsigned sc = 0; sc < 2; sc++) {
        sim_t *s = sim_new(&p, 200);
        set_route(s, T, o);
        set_vc(s, 0, o, 0, u);
        unsigned k = put_pkt(s, 0, 10, 0, T, 8, 1);
        k = put_pkt(s, 0, k, 0, T, 7, 2); /* k = 25: occupancy 15 after step 25 */
        put_pkt(s, 0, 40, 0, T, 3, 3);    /* head processed in 41 */
        /* sc 0: stopped until 60; sc 1: last stop 38, so A's head is popped in step 41 */
        stop_range(s, o, u, 1, sc ? 38 : 60);
        sim_all(s);
        unsigned base = sc ? 41 : 63;
        check(pkt_at(s, o, base, u, T, 8, 1) && pkt_at(s, o, base + 9, u, T, 7, 2) &&
                  flit_is(&s->tx[o][base + 17], u, pkt_data(s, 3, 0, T), 1) && count_valid(s, o, 1, 199) == 16 &&
                  vcsw_counter(s->m, 0, 0, VCSW_CTR_OVERFLOW) == 1,
              "admission%s: head at DEPTH-1 leaves as a one-flit packet (tail 1) at %u, the rest discarded, overflow 1",
              sc ? " (pop in the same step not subtracted)" : "", base + 17);
        sim_free(s);
    }
}

/* doc: the MAXLEN-th flit of a packet arriving at occupancy DEPTH-1: the MAXLEN rule makes it a
 * tail first, so the admission stores a tail: trunc counted, overflow not (the model's reading). */
static void test_trunc_at_full(void)
{
    vcsw_params_t p = params(4, 2, 1, 0);
    p.DEPTH = 16;
    p.MAXLEN = 8;
    sim_t *s = sim_new(&p, 200);
    set_route(s, 5, 3);
    set_vc(s, 0, 3, 0, 0);
    stop_range(s, 3, 0, 1, 60);
    unsigned k = put_pkt(s, 0, 10, 0, 5, 8, 1);
    put_pkt(s, 0, k, 0, 5, 10, 2); /* its 8th flit at occupancy 15 */
    sim_all(s);
    int ok = pkt_at(s, 3, 63, 0, 5, 8, 1); /* released: 63..70; the second two steps after the tail */
    for (unsigned i = 0; i < 8; i++)
        ok &= flit_is(&s->tx[3][72 + i], 0, pkt_data(s, 2, i, 5), i == 7);
    check(ok && count_valid(s, 3, 1, 199) == 16 && vcsw_counter(s->m, 0, 0, VCSW_CTR_TRUNC) == 1 &&
              vcsw_counter(s->m, 0, 0, VCSW_CTR_OVERFLOW) == 0,
          "trunc at DEPTH-1: the MAXLEN-th flit at occupancy 15 stored as the tail, trunc 1, overflow 0 (got %u, %u)",
          vcsw_counter(s->m, 0, 0, VCSW_CTR_TRUNC), vcsw_counter(s->m, 0, 0, VCSW_CTR_OVERFLOW));
    sim_free(s);
}

/* MAXLEN: the MAXLEN-th flit of a longer packet leaves as its tail, the rest is discarded, trunc
 * counted; a packet of exactly MAXLEN is not cut; the next packet on the VC is intact. Steps by
 * rules 2 and 3: P1 (rx 20..) 23..28; P2 (rx 29, staging empty) 32..37; P3's head is S_v[1] when
 * P2's tail is taken in 37 but its output VC is owned after 36: 39..44; P4's head (adm 43) goes to
 * the RAM part (R holds P3's tail after 42), reaches R after 44 and staging after 45 (the VC has no
 * offer in 45: nothing staged after 44), offered after 46: 47, 48. */
static void test_maxlen(void)
{
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(5, 4, 1, a ? 3 : 0);
        p.MAXLEN = 6;
        const unsigned L = p.LINK_DELAY, o = 4, T = 9, v = 3;
        sim_t *s = sim_new(&p, 200);
        set_route(s, T, o);
        set_vc(s, 2, o, 1, 0); /* control VC 3 = data 1 -> VC NDVC + 0 = 2 */
        unsigned k = put_pkt(s, 2, 20, v, T, 9, 1);
        k = put_pkt(s, 2, k, v, T, 6, 2);
        k = put_pkt(s, 2, k, v, T, 7, 3);
        put_pkt(s, 2, k, v, T, 2, 4);
        sim_all(s);
        int ok = 1;
        for (unsigned i = 0; i < 6; i++)
            ok &= flit_is(&s->tx[o][23 + L + i], 2, pkt_data(s, 1, i, T), i == 5);
        check(ok, "maxlen L=%u: a 9-flit packet leaves as 6 flits, the 6th with tail, at %u..%u", L, 23 + L, 28 + L);
        unsigned g2 = find_data(s, o, 1, 199, pkt_data(s, 2, 0, T));
        check(g2 == 32 + L && pkt_at(s, o, g2, 2, T, 6, 2), "maxlen L=%u: the next (6 = MAXLEN flits) whole at %u", L,
              32 + L);
        unsigned g3 = find_data(s, o, 1, 199, pkt_data(s, 3, 0, T));
        ok = g3 == 39 + L;
        for (unsigned i = 0; i < 6 && ok; i++)
            ok &= flit_is(&s->tx[o][g3 + i], 2, pkt_data(s, 3, i, T), i == 5);
        check(ok, "maxlen L=%u: a 7-flit packet cut to 6 (its own tail, the 7th, discarded)", L);
        unsigned g4 = find_data(s, o, 1, 199, pkt_data(s, 4, 0, T));
        check(g4 == 47 + L && pkt_at(s, o, g4, 2, T, 2, 4) && count_valid(s, o, 1, 199) == 20 &&
                  others_idle(s, (int)o, 1, 199),
              "maxlen L=%u: the packet after it whole at %u; 20 flits in all, nothing on other outputs", L, 47 + L);
        check(vcsw_counter(s->m, 2, v, VCSW_CTR_TRUNC) == 2 && vcsw_counter(s->m, 2, v, VCSW_CTR_RX_PKTS) == 4 &&
                  vcsw_counter(s->m, 2, v, VCSW_CTR_RX_FLITS) == 24 && vcsw_counter(s->m, 2, v, VCSW_CTR_OVERFLOW) == 0 &&
                  vcsw_counter(s->m, o, 2, VCSW_CTR_TX_PKTS) == 4,
              "maxlen L=%u: trunc 2, rx_pkts 4, rx_flits 24, overflow 0, tx_pkts 4 (got trunc %u)", L,
              vcsw_counter(s->m, 2, v, VCSW_CTR_TRUNC));
        sim_free(s);
    }
    /* doc: MAXLEN = 1 (the IDLE rule says nothing of a cut): the model cuts the head itself, as the
     * "Malformed input" table says (the MAXLEN-th flit leaves as the tail) */
    {
        vcsw_params_t p = params(2, 2, 0, 0);
        p.MAXLEN = 1;
        p.DEPTH = 8;
        sim_t *s = sim_new(&p, 60);
        set_route(s, 1, 1);
        set_vc(s, 0, 1, 0, 1);
        unsigned k = put_pkt(s, 0, 10, 0, 1, 3, 1);
        put_pkt(s, 0, k, 0, 1, 1, 2);
        sim_all(s);
        check(flit_is(&s->tx[1][13], 1, pkt_data(s, 1, 0, 1), 1) && pkt_at(s, 1, 16, 1, 1, 1, 2) &&
                  count_valid(s, 1, 1, 59) == 2 && vcsw_counter(s->m, 0, 0, VCSW_CTR_TRUNC) == 1,
              "maxlen 1: a 3-flit packet leaves as its head with tail 1, trunc 1; a 1-flit packet passes");
        sim_free(s);
    }
}

/* drop_route (invalid entry, port >= NPORTS) and drop_vc (invalid entry, VC >= NDVC), drop_route
 * first; the packet is discarded whole, the next one passes. NPORTS = 5. */
static void test_drops(void)
{
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(5, a ? 4 : 2, 1, 0); /* NDVC 1 or 2 */
        sim_t *s = sim_new(&p, 200);
        const unsigned ndvc = s->ndvc, in = 3, v = a ? 2 : 0; /* a: control VC 2 (data 0) */
        cfg_write_at(s, s->cfg_next++, VCSW_SPACE_ROUTE, 2, VCSW_ENTRY(1, 6)); /* port 6 >= NPORTS */
        cfg_write_at(s, s->cfg_next++, VCSW_SPACE_ROUTE, 8, VCSW_ENTRY(1, 5)); /* port 5 = NPORTS */
        set_route(s, 3, 2);                                                    /* VC entry (3,2,0) invalid */
        set_route(s, 4, 1);
        cfg_write_at(s, s->cfg_next++, VCSW_SPACE_VC, VCSW_VC_INDEX(in, 1, 0), VCSW_ENTRY(1, ndvc)); /* >= NDVC */
        set_route(s, 6, 0);
        set_vc(s, in, 0, 0, 0);
        cfg_write_at(s, s->cfg_next++, VCSW_SPACE_VC, VCSW_VC_INDEX(in, 4, 0), VCSW_ENTRY(0, 0)); /* invalid */
        cfg_write_at(s, s->cfg_next++, VCSW_SPACE_ROUTE, 7, VCSW_ENTRY(1, 4)); /* VC (3,4,0) written invalid */
        /* tag 1: never written; tag 5: invalid route and (3, *, 0) invalid for port 15..: route first */
        unsigned k = 20;
        k = put_pkt(s, in, k, v, 1, 4, 1);  /* drop_route (invalid) */
        k = put_pkt(s, in, k, v, 6, 2, 2);  /* passes */
        k = put_pkt(s, in, k, v, 2, 3, 3);  /* drop_route (port 6) */
        k = put_pkt(s, in, k, v, 8, 1, 4);  /* drop_route (port 5), one flit */
        k = put_pkt(s, in, k, v, 6, 1, 5);  /* passes right after */
        k = put_pkt(s, in, k, v, 3, 5, 6);  /* drop_vc (invalid) */
        k = put_pkt(s, in, k, v, 4, 1, 7);  /* drop_vc (>= NDVC) */
        k = put_pkt(s, in, k, v, 7, 2, 8);  /* drop_vc (written invalid) */
        k = put_pkt(s, in, k, v, 5, 2, 9);  /* drop_route (tag 5 invalid; its VC entries invalid too) */
        put_pkt(s, in, k, v, 6, 3, 10);     /* passes */
        sim_all(s);
        const unsigned ou = a ? ndvc : 0; /* output VC of the passing packets */
        unsigned g2 = find_data(s, 0, 1, 199, pkt_data(s, 2, 0, 6)), g5 = find_data(s, 0, 1, 199, pkt_data(s, 5, 0, 6)),
                 g10 = find_data(s, 0, 1, 199, pkt_data(s, 10, 0, 6));
        check(g2 == 27 && pkt_at(s, 0, g2, ou, 6, 2, 2) && g5 == 33 && pkt_at(s, 0, g5, ou, 6, 1, 5) &&
                  pkt_at(s, 0, g10, ou, 6, 3, 10) && others_idle(s, 0, 1, 199) && count_valid(s, 0, 1, 199) == 6,
              "drops NVC=%u: only the 3 good packets leave, whole, on output 0 VC %u (at %u, %u, %u)", p.NVC, ou, g2,
              g5, g10);
        check(vcsw_counter(s->m, in, v, VCSW_CTR_DROP_ROUTE) == 4 && vcsw_counter(s->m, in, v, VCSW_CTR_DROP_VC) == 3 &&
                  vcsw_counter(s->m, in, v, VCSW_CTR_RX_PKTS) == 10 && vcsw_counter(s->m, in, v, VCSW_CTR_RX_FLITS) == 24,
              "drops NVC=%u: drop_route 4, drop_vc 3, rx_pkts 10, rx_flits 24 on input %u VC %u (got %u %u %u %u)",
              p.NVC, in, v, vcsw_counter(s->m, in, v, VCSW_CTR_DROP_ROUTE), vcsw_counter(s->m, in, v, VCSW_CTR_DROP_VC),
              vcsw_counter(s->m, in, v, VCSW_CTR_RX_PKTS), vcsw_counter(s->m, in, v, VCSW_CTR_RX_FLITS));
        sim_free(s);
    }
    /* drop_route before drop_vc: both entries bad -> drop_route only */
    {
        vcsw_params_t p = params(3, 2, 0, 0);
        sim_t *s = sim_new(&p, 60);
        put_pkt(s, 1, 10, 1, 0, 2, 1); /* nothing written at all */
        sim_all(s);
        check(vcsw_counter(s->m, 1, 1, VCSW_CTR_DROP_ROUTE) == 1 && vcsw_counter(s->m, 1, 1, VCSW_CTR_DROP_VC) == 0 &&
                  others_idle(s, -1, 1, 59),
              "drops: after reset every entry invalid: drop_route 1, drop_vc 0, nothing forwarded");
        sim_free(s);
    }
}

/* CTRL = 1: control VC NDVC+d is looked up as data VC d and leaves on NDVC + the entry's value;
 * CTRL = 0: every VC is a data VC looked up as itself. */
static void test_ctrl_vcs(void)
{
    {
        vcsw_params_t p = params(4, 4, 1, 0); /* NDVC 2 */
        sim_t *s = sim_new(&p, 100);
        set_route(s, 1, 2);
        set_vc(s, 0, 2, 0, 1);
        set_vc(s, 0, 2, 1, 0);
        put_pkt(s, 0, 20, 0, 1, 2, 1); /* data 0 -> VC 1 */
        put_pkt(s, 0, 22, 1, 1, 2, 2); /* data 1 -> VC 0 */
        put_pkt(s, 0, 24, 2, 1, 2, 3); /* control 2 (d 0) -> VC 2 + 1 = 3 */
        put_pkt(s, 0, 26, 3, 1, 2, 4); /* control 3 (d 1) -> VC 2 + 0 = 2 */
        sim_all(s);
        check(pkt_at(s, 2, 23, 1, 1, 2, 1) && pkt_at(s, 2, 25, 0, 1, 2, 2) && pkt_at(s, 2, 27, 3, 1, 2, 3) &&
                  pkt_at(s, 2, 29, 2, 1, 2, 4),
              "control VCs: data 0 -> 1, data 1 -> 0, control 2 -> 3, control 3 -> 2 (VC table of the data VCs + NDVC)");
        sim_free(s);
    }
    {
        vcsw_params_t p = params(4, 4, 0, 0);
        sim_t *s = sim_new(&p, 100);
        set_route(s, 1, 2);
        set_vc(s, 0, 2, 3, 2);
        set_vc(s, 0, 2, 2, 3);
        put_pkt(s, 0, 20, 3, 1, 2, 1);
        put_pkt(s, 0, 22, 2, 1, 2, 2);
        sim_all(s);
        check(pkt_at(s, 2, 23, 2, 1, 2, 1) && pkt_at(s, 2, 25, 3, 1, 2, 2) &&
                  vcsw_counter(s->m, 0, 3, VCSW_CTR_DROP_VC) == 0,
              "CTRL=0: VC 3 looked up as data VC 3 -> 2, VC 2 -> 3");
        sim_free(s);
    }
    /* NVC 16 CTRL 1: VC 15 (d 7) with entry 7 -> VC 15; entry 8 (>= NDVC) drops */
    {
        vcsw_params_t p = params(3, 16, 1, 0);
        sim_t *s = sim_new(&p, 100);
        set_route(s, 1, 1);
        set_route(s, 2, 2);
        set_vc(s, 0, 1, 7, 7);
        set_vc(s, 0, 2, 7, 8);
        put_pkt(s, 0, 20, 15, 1, 2, 1);
        put_pkt(s, 0, 22, 15, 2, 2, 2);
        put_pkt(s, 0, 24, 7, 1, 2, 3);
        sim_all(s);
        check(pkt_at(s, 1, 23, 15, 1, 2, 1) && pkt_at(s, 1, 27, 7, 1, 2, 3) && count_valid(s, 2, 1, 99) == 0 &&
                  vcsw_counter(s->m, 0, 15, VCSW_CTR_DROP_VC) == 1,
              "NVC=16 CTRL=1: control VC 15 -> 8 + 7 = 15; entry 8 >= NDVC drops (drop_vc on VC 15)");
        sim_free(s);
    }
}

/* A write in step w affects heads received in steps > w, not a head received in step w; a routed
 * packet keeps its route whatever is rewritten while it waits or streams. */
static void test_write_timing(void)
{
    vcsw_params_t p = params(4, 2, 0, 0);
    sim_t *s = sim_new(&p, 200);
    set_route(s, 7, 1);
    set_vc(s, 0, 1, 0, 0);
    set_vc(s, 0, 2, 0, 1);
    set_vc(s, 3, 1, 0, 0);
    set_vc(s, 3, 2, 0, 0);
    set_vc(s, 2, 1, 0, 1);
    /* route rewrite in step 20: head in 20 (input 0) -> old port 1; head in 21 (input 3) -> new port 2 */
    cfg_write_at(s, 20, VCSW_SPACE_ROUTE, 7, VCSW_ENTRY(1, 2));
    put_pkt(s, 0, 20, 0, 7, 1, 1);
    put_pkt(s, 3, 21, 0, 7, 1, 2);
    /* VC rewrite in step 30: (0,2,0) -> 0; head in 30 -> old VC 1; head in 31 -> VC 0 */
    cfg_write_at(s, 30, VCSW_SPACE_VC, VCSW_VC_INDEX(0, 2, 0), VCSW_ENTRY(1, 0));
    put_pkt(s, 0, 30, 0, 7, 1, 3);
    put_pkt(s, 0, 31, 0, 7, 1, 4);
    /* a packet waiting behind a stop, its tables rewritten (route and VC) before it leaves */
    stop_range(s, 2, 0, 40, 70);
    put_pkt(s, 0, 45, 0, 7, 3, 5);
    cfg_write_at(s, 50, VCSW_SPACE_ROUTE, 7, VCSW_ENTRY(1, 3));
    cfg_write_at(s, 51, VCSW_SPACE_VC, VCSW_VC_INDEX(0, 2, 0), VCSW_ENTRY(1, 1));
    /* a streaming packet (input 2 -> port 3... via tag 7 after the write at 50: (2,3,0) invalid):
     * use tag 9 -> port 1 and rewrite tag 9 in the middle of the packet */
    set_route(s, 9, 1);
    put_pkt(s, 2, 80, 0, 9, 6, 6);
    cfg_write_at(s, 82, VCSW_SPACE_ROUTE, 9, VCSW_ENTRY(0, 0));
    sim_all(s);
    check(flit_is(&s->tx[1][23], 0, pkt_data(s, 1, 0, 7), 1), "write timing: head in the write's step 20 -> old port 1");
    check(flit_is(&s->tx[2][24], 0, pkt_data(s, 2, 0, 7), 1), "write timing: head in step 21 -> new port 2");
    check(flit_is(&s->tx[2][33], 1, pkt_data(s, 3, 0, 7), 1) && flit_is(&s->tx[2][34], 0, pkt_data(s, 4, 0, 7), 1),
          "write timing: VC entry written in 30: head in 30 -> old VC 1, head in 31 -> VC 0");
    check(pkt_at(s, 2, 73, 0, 7, 3, 5) && count_valid(s, 3, 1, 199) == 0,
          "write timing: a packet waiting (stop until 70) keeps its route (2, 0) after both rewrites: out at 73");
    check(pkt_at(s, 1, 83, 1, 9, 6, 6), "write timing: a streaming packet keeps its route after its tag is invalidated");
    sim_free(s);
}

/* Configuration port: reads answered at r+1 (tables as written before r), errors, read ignored while
 * one is outstanding and when a write comes with it; readback layout. */
static void test_cfg(void)
{
    vcsw_params_t p = params(5, 4, 1, 0);
    p.TAG_W = 4;
    sim_t *s = sim_new(&p, 300);
    cfg_write_at(s, 2, VCSW_SPACE_ROUTE, 3, 0x8005);
    cfg_read_at(s, 3, VCSW_SPACE_ROUTE, 3); /* -> 4: 0x8005 */
    cfg_read_at(s, 4, VCSW_SPACE_ROUTE, 3); /* ignored: answer step of the previous */
    cfg_write_at(s, 6, VCSW_SPACE_ROUTE, 3, 0x7FF2);
    s->re[6] = 1; /* write + read at once: read ignored */
    cfg_read_at(s, 8, VCSW_SPACE_ROUTE, 3); /* -> 9: 0x0002 */
    cfg_write_at(s, 10, VCSW_SPACE_VC, VCSW_VC_INDEX(4, 3, 1), 0xFFFF);
    cfg_read_at(s, 11, VCSW_SPACE_VC, VCSW_VC_INDEX(4, 3, 1)); /* -> 12: 0x800F */
    cfg_read_at(s, 12, VCSW_SPACE_VC, VCSW_VC_INDEX(4, 3, 0)); /* ignored */
    cfg_read_at(s, 13, VCSW_SPACE_VC, VCSW_VC_INDEX(4, 3, 0)); /* -> 14: 0 (never written) */
    /* errors: route index 16 (TAG_W 4), VC in 5, out 5, d 2 (NDVC 2), bits 13:12 set, space 3, counter
     * port 5, counter vc 4 */
    static const uint16_t bad[] = {
        VCSW_CFG_ADDR(0, 16),    VCSW_CFG_ADDR(0, 0x3FFF), VCSW_CFG_ADDR(1, VCSW_VC_INDEX(5, 0, 0)),
        VCSW_CFG_ADDR(1, VCSW_VC_INDEX(0, 5, 0)), VCSW_CFG_ADDR(1, VCSW_VC_INDEX(0, 0, 2)),
        VCSW_CFG_ADDR(1, 0x1000), VCSW_CFG_ADDR(3, 0), VCSW_CFG_ADDR(3, 0x123),
        VCSW_CFG_ADDR(2, VCSW_CTR_INDEX(5, 0, 0)), VCSW_CFG_ADDR(2, VCSW_CTR_INDEX(0, 4, 0)),
        VCSW_CFG_ADDR(2, 0x800)};
    const unsigned nbad = sizeof bad / sizeof bad[0];
    for (unsigned i = 0; i < nbad; i++) {
        s->re[20 + 2 * i] = 1;
        s->addr[20 + 2 * i] = bad[i];
    }
    /* writes outside a table are ignored (no aliasing): route 16 and 0x3FF0 -> tag 0 unchanged;
     * VC (0,0,2) -> (0,0,0)? unchanged; then read tag 0 and VC (0,0,0) */
    cfg_write_at(s, 60, VCSW_SPACE_ROUTE, 16, 0x8001);
    cfg_write_at(s, 61, VCSW_SPACE_ROUTE, 0x3FF0, 0x8001);
    cfg_write_at(s, 62, VCSW_SPACE_VC, VCSW_VC_INDEX(0, 0, 2), 0x8001);
    cfg_write_at(s, 63, VCSW_SPACE_VC, 0x1000, 0x8001);
    cfg_write_at(s, 64, VCSW_SPACE_CTR, 0, 0x8001);
    cfg_write_at(s, 65, 3, 0, 0x8001);
    cfg_read_at(s, 66, VCSW_SPACE_ROUTE, 0);
    cfg_read_at(s, 68, VCSW_SPACE_VC, VCSW_VC_INDEX(0, 0, 0));
    /* the last valid indices */
    cfg_write_at(s, 70, VCSW_SPACE_ROUTE, 15, 0x8004);
    cfg_write_at(s, 71, VCSW_SPACE_VC, VCSW_VC_INDEX(4, 4, 1), 0x8001);
    cfg_read_at(s, 72, VCSW_SPACE_ROUTE, 15);
    cfg_read_at(s, 74, VCSW_SPACE_VC, VCSW_VC_INDEX(4, 4, 1));
    sim_all(s);
    check(s->rv[4] && s->rd[4] == 0x8005, "cfg: route entry written at 2, read at 3, answered at 4 with 0x8005 (got %u 0x%x)",
          s->rv[4], s->rd[4]);
    check(never_rvalid(s, 1, 3) && never_rvalid(s, 5, 8), "cfg: nothing else answered in 1..8 (read in the answer "
                                                          "step and read with a write ignored)");
    check(s->rv[9] && s->rd[9] == 0x0002, "cfg: readback of wdata 0x7FF2 is 0x0002 at 9 (got 0x%x)", s->rd[9]);
    check(s->rv[12] && s->rd[12] == 0x800F && !s->rv[13] && s->rv[14] && s->rd[14] == 0,
          "cfg: VC entry wdata 0xFFFF reads 0x800F at 12; read at 12 ignored; unwritten entry reads 0 at 14");
    int ok = 1;
    for (unsigned i = 0; i < nbad; i++) {
        unsigned r = 20 + 2 * i;
        ok &= s->rv[r + 1] && s->rd[r + 1] == VCSW_RDATA_ERROR && !s->rv[r];
        if (!(s->rv[r + 1] && s->rd[r + 1] == VCSW_RDATA_ERROR))
            printf("  cfg: address 0x%04x read at %u: rvalid %u rdata 0x%x at %u\n", bad[i], r, s->rv[r + 1],
                   s->rd[r + 1], r + 1);
    }
    check(ok, "cfg: out-of-range indices, space 3 and absent counters answer 0x80000000 at r+1");
    check(s->rv[67] && s->rd[67] == 0 && s->rv[69] && s->rd[69] == 0,
          "cfg: writes outside a table and to spaces 2, 3 ignored (no aliasing onto entry 0)");
    check(s->rv[73] && s->rd[73] == 0x8004 && s->rv[75] && s->rd[75] == 0x8001, "cfg: last route tag 15 and VC (4,4,1)");
    check(never_rvalid(s, 15, 20) && never_rvalid(s, 76, 299), "cfg: rvalid and rdata 0 when nothing is answered");
    sim_free(s);

    /* reads every step: accepted, answered at r+1, the next accepted at r+2 */
    {
        vcsw_params_t q = params(3, 2, 1, 0);
        sim_t *t = sim_new(&q, 60);
        for (unsigned k = 10; k < 30; k++)
            cfg_read_at(t, k, VCSW_SPACE_ROUTE, k);
        sim_all(t);
        int ok2 = 1;
        for (unsigned k = 1; k < 60; k++)
            ok2 &= t->rv[k] == (k >= 11 && k <= 29 && (k & 1u));
        check(ok2, "cfg: reads in every step 10..29: answers at 11, 13, .., 29 (every other read ignored)");
        sim_free(t);
    }
}

/* Counters: the schedule, answer at W+1 with the events of steps <= W-4, counted independently:
 * rx_flits, rx_pkts, drop_route, drop_vc from the stimulus (step k+1 for a flit received in k),
 * tx_flits and tx_pkts from the outputs (step j-LINK_DELAY for a flit on tx after step j). */
static void test_counters(void)
{
    static const struct {
        unsigned n, nvc, ctrl, L, width;
    } cs[] = {{3, 2, 1, 0, 32}, {5, 4, 0, 3, 32}, {2, 16, 1, 1, 16}};
    for (unsigned a = 0; a < 3; a++) {
        vcsw_params_t p = params(cs[a].n, cs[a].nvc, cs[a].ctrl, cs[a].L);
        p.CTR_WIDTH = cs[a].width;
        const unsigned N = p.NPORTS, V = p.NVC, L = p.LINK_DELAY, NS = 8 * N * V, maxs = 6000;
        sim_t *s = sim_new(&p, maxs);
        const unsigned ndvc = s->ndvc;
        rng_t r;
        rng_seed(&r, 77 + a);
        /* tags 0..N-1 -> port t; tag N: invalid; VC entries (i, o, d) -> (d + i) % NDVC except
         * (i, o, 0) for o == i: invalid (drop_vc) */
        for (unsigned t = 0; t < N; t++)
            set_route(s, t, t);
        for (unsigned i = 0; i < N; i++)
            for (unsigned o = 0; o < N; o++)
                for (unsigned d = 0; d < ndvc; d++)
                    if (!(o == i && d == 0))
                        set_vc(s, i, o, d, (d + i) % ndvc);
        const unsigned t0 = s->cfg_next + 5;
        /* expected events per slot and step: ev[slot] list via a dense array [step][slot] bitmaps is
         * big; keep per slot the steps of its events */
        unsigned *cnt = xcalloc((size_t)NS * maxs, sizeof(unsigned)); /* cnt[slot*maxs + step] */
#define EV(port, vc, c, k) (cnt[((size_t)(((port) * V + (vc)) * 8u + (c))) * maxs + (k)]++)
        /* light random traffic (outputs never stopped, so buffers never fill): per input, a packet
         * now and then on a random VC, 1..6 flits, random tag 0..N */
        for (unsigned i = 0; i < N; i++) {
            unsigned k = t0 + i;
            while (k < maxs - 200) {
                unsigned v = rng_below(&r, V), len = 1 + rng_below(&r, 6), tag = rng_below(&r, N + 1);
                unsigned id = rng_below(&r, 1000);
                put_pkt(s, i, k, v, tag, len, id);
                unsigned d = v >= ndvc ? v - ndvc : v;
                for (unsigned j = 0; j < len; j++)
                    EV(i, v, VCSW_CTR_RX_FLITS, k + j + 1);
                EV(i, v, VCSW_CTR_RX_PKTS, k + 1);
                if (tag >= N)
                    EV(i, v, VCSW_CTR_DROP_ROUTE, k + 1);
                else if (tag == i && d == 0)
                    EV(i, v, VCSW_CTR_DROP_VC, k + 1);
                k += len + rng_below(&r, 3 * N * len);
            }
        }
        /* reads: a request in every step from t0 (most ignored), random slots */
        for (unsigned k = 2; k < maxs - 100; k++)
            if (!s->we[k]) {
                unsigned slot = rng_below(&r, NS), c = slot % 8, pv = slot / 8;
                cfg_read_at(s, k, VCSW_SPACE_CTR, VCSW_CTR_INDEX(pv / V, pv % V, c));
            }
        sim_all(s);
        for (unsigned o = 0; o < N; o++)
            for (unsigned j = L + 1; j < maxs; j++)
                if (s->tx[o][j].valid) {
                    EV(o, s->tx[o][j].vc, VCSW_CTR_TX_FLITS, j - L);
                    if (s->tx[o][j].tail)
                        EV(o, s->tx[o][j].vc, VCSW_CTR_TX_PKTS, j - L);
                }
        const uint32_t mask = p.CTR_WIDTH >= 32 ? 0xFFFFFFFFu : ((1u << p.CTR_WIDTH) - 1u);
        int ok = 1;
        unsigned answered = 0, pend = 0, rq = 0, ans = 0, nonzero = 0;
        for (unsigned k = 1; k < maxs && ok; k++) {
            if (pend) {
                unsigned idx = s->addr[rq] & 0x3FFFu;
                unsigned slot = (((idx >> 7) * V) + ((idx >> 3) & 15u)) * 8u + (idx & 7u);
                if (k < ans && s->rv[k])
                    ok = check(0, "counters %s: read of slot %u at %u answered early at %u (want %u)", pstr(&p), slot,
                               rq, k, ans);
                else if (k == ans) {
                    const unsigned W = ans - 1;
                    uint32_t want = 0;
                    for (unsigned j = 0; j + 4 <= W; j++)
                        want += cnt[(size_t)slot * maxs + j];
                    want &= mask;
                    nonzero += want != 0;
                    ok = check(s->rv[k] && s->rd[k] == want,
                               "counters %s: read of slot %u (%s) in step %u: answer %u at step W+1 = %u, got rvalid %u "
                               "data %u",
                               pstr(&p), slot, vcsw_counter_name(slot % 8), rq, want, ans, s->rv[k], s->rd[k]);
                    answered++;
                    pend = 0;
                }
                continue; /* outstanding, also in the answer step: requests ignored */
            }
            if (s->rv[k]) {
                ok = check(0, "counters %s: cfg_rvalid at step %u without a read", pstr(&p), k);
                break;
            }
            if (s->re[k] && !s->we[k]) {
                pend = 1;
                rq = k;
                unsigned idx = s->addr[k] & 0x3FFFu;
                unsigned slot = (((idx >> 7) * V) + ((idx >> 3) & 15u)) * 8u + (idx & 7u);
                unsigned W = k + 1;
                while (W < 3 || W % NS != (slot + 3) % NS)
                    W++;
                ans = W + 1;
            }
        }
        check(ok && answered > (maxs - t0 - 200) / (NS + 2) && nonzero > answered / 8,
              "counters %s: %u reads answered at W+1 with the events of steps <= W-4 (%u not 0)", pstr(&p), answered,
              nonzero);
        /* vcsw_counter: every event so far */
        int ok2 = 1;
        for (unsigned slot = 0; slot < NS; slot++) {
            uint32_t want = 0;
            for (unsigned j = 0; j < maxs; j++)
                want += cnt[(size_t)slot * maxs + j];
            ok2 &= vcsw_counter(s->m, slot / 8 / V, slot / 8 % V, slot % 8) == (want & mask);
        }
        check(ok2, "counters %s: vcsw_counter = every event so far, for every slot", pstr(&p));
#undef EV
        free(cnt);
        sim_free(s);
    }
    /* the flusher starts at step 3: slot NS-1 read in step 1 (W = 2 would match) answers at NS+3 */
    {
        vcsw_params_t p = params(2, 2, 1, 0); /* NS = 32 */
        sim_t *s = sim_new(&p, 100);
        cfg_read_at(s, 1, VCSW_SPACE_CTR, VCSW_CTR_INDEX(1, 1, 7));
        cfg_read_at(s, 40, VCSW_SPACE_CTR, VCSW_CTR_INDEX(0, 0, 0)); /* slot 0: W = 64 + 3 = 67, answer 68 */
        sim_all(s);
        unsigned got = 0, got2 = 0;
        for (unsigned k = 1; k < 40; k++)
            if (s->rv[k] && !got)
                got = k;
        for (unsigned k = 41; k < 100; k++)
            if (s->rv[k] && !got2)
                got2 = k;
        check(got == 35 && s->rd[35] == 0 && got2 == 68,
              "counters: slot 31 read in step 1 answered at W+1 = 35 (W = 34, not 2); slot 0 read at 40 at 68 (got %u, %u)",
              got, got2);
        sim_free(s);
    }
    /* COUNTERS = 0: a counter read answers 0 at r+1 */
    {
        vcsw_params_t p = params(3, 4, 1, 0);
        p.COUNTERS = 0;
        sim_t *s = sim_new(&p, 200);
        set_route(s, 0, 1);
        set_vc(s, 0, 1, 0, 0);
        put_pkt(s, 0, 10, 0, 0, 30, 1);
        for (unsigned k = 20; k < 120; k += 2)
            cfg_read_at(s, k, VCSW_SPACE_CTR, VCSW_CTR_INDEX(k % 3, (k / 3) % 4, k % 8));
        sim_all(s);
        int ok = 1;
        for (unsigned k = 20; k < 200; k++)
            ok &= s->rv[k] == (k >= 21 && k <= 119 && (k & 1u)) && s->rd[k] == 0;
        check(ok && vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_FLITS) == 30,
              "COUNTERS=0: counter reads answered at r+1 with 0 (vcsw_counter still counts: 30)");
        sim_free(s);
    }
    /* CTR_WIDTH = 8: 300 flits -> 44 */
    {
        vcsw_params_t p = params(3, 2, 0, 0);
        p.CTR_WIDTH = 8;
        p.MAXLEN = 50;
        p.DEPTH = 64;
        sim_t *s = sim_new(&p, 600);
        set_route(s, 0, 2);
        set_vc(s, 1, 2, 1, 0);
        unsigned k = 10;
        for (unsigned j = 0; j < 6; j++)
            k = put_pkt(s, 1, k, 1, 0, 50, j);
        cfg_read_at(s, 400, VCSW_SPACE_CTR, VCSW_CTR_INDEX(1, 1, VCSW_CTR_RX_FLITS));
        cfg_read_at(s, 500, VCSW_SPACE_CTR, VCSW_CTR_INDEX(2, 0, VCSW_CTR_TX_FLITS));
        sim_all(s);
        unsigned a1 = 0, a2 = 0;
        for (unsigned j = 401; j < 500; j++)
            if (s->rv[j] && !a1)
                a1 = j;
        for (unsigned j = 501; j < 600; j++)
            if (s->rv[j] && !a2)
                a2 = j;
        check(a1 && s->rd[a1] == 300 % 256 && a2 && s->rd[a2] == 300 % 256 &&
                  vcsw_counter(s->m, 1, 1, VCSW_CTR_RX_FLITS) == 44 && vcsw_counter(s->m, 1, 1, VCSW_CTR_RX_PKTS) == 6,
              "CTR_WIDTH=8: 300 flits read as 44 (rx_flits %u, tx_flits %u)", a1 ? s->rd[a1] : 9999,
              a2 ? s->rd[a2] : 9999);
        sim_free(s);
    }
}

/* RAM read: a VC whose RAM part is not empty delivers one entry per step to a head popped every
 * step; two VCs of one input draining at once share the one RAM read (one flit per step in all). */
static void test_ram_read(void)
{
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(4, 4, 0, a ? 3 : 0);
        p.DEPTH = 64;
        p.MAXLEN = 16;
        const unsigned L = p.LINK_DELAY;
        sim_t *s = sim_new(&p, 400);
        set_route(s, 1, 1);
        set_route(s, 2, 2);
        set_vc(s, 0, 1, 2, 0);
        set_vc(s, 0, 2, 3, 0);
        /* VC 2: 3 packets of 12 (36 flits) into a stopped output 1 VC 0, released at 100 */
        stop_range(s, 1, 0, 1, 99);
        unsigned k = 10;
        for (unsigned j = 0; j < 3; j++)
            k = put_pkt(s, 0, k, 2, 1, 12, 1 + j);
        /* VC 3 (output 2) and VC 2 again: 2 packets of 12 each into stopped outputs, both released at 200 */
        stop_range(s, 1, 0, 150, 199);
        stop_range(s, 2, 0, 1, 199);
        k = 150;
        for (unsigned j = 0; j < 2; j++) {
            k = put_pkt(s, 0, k, 2, 1, 12, 10 + j);
            k = put_pkt(s, 0, k, 3, 2, 12, 20 + j);
        }
        sim_all(s);
        /* released (last stop 99): prepared 101, taken from 102; each packet whole at one flit per
         * step through the RAM part and R; the next packet's head two steps after the tail (its
         * output VC owned after the step before the tail's, rule 3.3): 102, 115, 128 */
        check(count_valid(s, 1, 102 + L, 139 + L) == 36 && pkt_at(s, 1, 102 + L, 0, 1, 12, 1) &&
                  pkt_at(s, 1, 115 + L, 0, 1, 12, 2) && pkt_at(s, 1, 128 + L, 0, 1, 12, 3),
              "RAM read L=%u: one VC drains 3 packets of 12 at one flit per step from %u, %u, %u", L, 102 + L,
              115 + L, 128 + L);
        /* both eligible when prepared in 201 (last stop 199): the input sends one flit per step in
         * all (rule 3), its round robin over VC numbers alternating them; its position is 3 (past VC
         * 2, the last VC taken), so VC 3 (output 2) goes first at 202; the one RAM read per step
         * keeps both fed; a head behind a tail is not offered in the step the tail is taken, but
         * the other VC is, so the alternation has no hole */
        unsigned one = 0, alt = 0;
        for (unsigned j = 202 + L; j < 250 + L; j++) {
            const unsigned want_o = ((j - 202 - L) & 1u) ? 1 : 2;
            one += (s->tx[1][j].valid + s->tx[2][j].valid) == 1;
            alt += s->tx[want_o][j].valid;
        }
        check(one == 48 && alt == 48 && count_valid(s, 1, 1, 399) == 60 && count_valid(s, 2, 1, 399) == 24 &&
                  count_valid(s, 1, 250 + L, 399) == 0,
              "RAM read L=%u: two VCs of one input to two outputs: one flit per step in all at %u..%u, alternating, "
              "VC 3 (output 2) first (%u, %u)",
              L, 202 + L, 249 + L, one, alt);
        sim_free(s);
    }
    /* round robin of the RAM read among the VCs: with VC 0 and VC 1 both filling the RAM part,
     * released together into different outputs, they alternate (the first released output first) */
    {
        vcsw_params_t p = params(3, 2, 0, 0);
        p.DEPTH = 32;
        p.MAXLEN = 16;
        sim_t *s = sim_new(&p, 200);
        set_route(s, 1, 1);
        set_route(s, 2, 2);
        set_vc(s, 0, 1, 0, 0);
        set_vc(s, 0, 2, 1, 0);
        stop_range(s, 1, 0, 1, 59);
        stop_range(s, 2, 0, 1, 59);
        put_pkt(s, 0, 10, 0, 1, 16, 1);
        put_pkt(s, 0, 26, 1, 2, 16, 2);
        sim_all(s);
        /* after the 3 staged entries of each, outputs 1 and 2 alternate one flit each step */
        int alt = 1;
        for (unsigned j = 64; j < 86; j++)
            alt &= (s->tx[1][j].valid ^ s->tx[2][j].valid) && s->tx[1][j].valid != s->tx[1][j + 1].valid;
        check(alt && count_valid(s, 1, 1, 199) == 16 && count_valid(s, 2, 1, 199) == 16,
              "RAM read: two VCs share it round robin: their outputs alternate in 64..86");
        sim_free(s);
    }
}

/* Output round robin over the input numbers (rule 3.1): every input sends a 1-flit packet on VC 0
 * (received at t, offered after t+2) and one on VC 1 (t+1) to output 0. The output takes input 0 at
 * t+3, then input 1 (offering VC 0 again: its position stays 0, rule 3.3) and so on: served in the
 * order (0,0), (1,0), .., (N-1,0), (0,1), .., (N-1,1). Then the output's position continues after
 * the last input taken. */
static void test_alloc_rr(void)
{
    static const unsigned ns[] = {3, 5, 16};
    for (unsigned a = 0; a < 3; a++) {
        vcsw_params_t p = params(ns[a], 2, 0, 0);
        const unsigned N = p.NPORTS;
        sim_t *s = sim_new(&p, 200);
        set_route(s, 1, 0);
        for (unsigned i = 0; i < N; i++) {
            set_vc(s, i, 0, 0, 0);
            set_vc(s, i, 0, 1, 1);
        }
        const unsigned t = 40;
        for (unsigned i = 0; i < N; i++) {
            put_pkt(s, i, t, 0, 1, 1, i * 2);
            put_pkt(s, i, t + 1, 1, 1, 1, i * 2 + 1);
        }
        /* later: inputs N-1 (VC 0) and 1 (VC 0) both at once after position wrapped to 0 */
        put_pkt(s, N - 1, 120, 0, 1, 1, 500);
        put_pkt(s, 1, 120, 0, 1, 1, 501);
        /* input 1 alone (position 2 after it), then inputs 0 and 2 at once: 2 first, then 0 (wrap) */
        put_pkt(s, 1, 140, 0, 1, 1, 502);
        put_pkt(s, 0, 150, 0, 1, 1, 503);
        put_pkt(s, 2, 150, 0, 1, 1, 504);
        sim_all(s);
        int ok = 1;
        for (unsigned j = 0; j < 2 * N; j++) {
            const unsigned i = j % N, v = j / N;
            ok &= flit_is(&s->tx[0][t + 3 + j], v, pkt_data(s, i * 2 + v, 0, 1), 1);
        }
        check(ok, "output round robin N=%u: 2N one-flit packets served (0,0), (1,0), .., (N-1,0), (0,1), .., (N-1,1) "
                  "from %u, one per step",
              N, t + 3);
        check(flit_is(&s->tx[0][123], 0, pkt_data(s, 501, 0, 1), 1) &&
                  flit_is(&s->tx[0][124], 0, pkt_data(s, 500, 0, 1), 1),
              "output round robin N=%u: position 0 after input N-1: input 1 before input N-1", N);
        check(flit_is(&s->tx[0][143], 0, pkt_data(s, 502, 0, 1), 1) &&
                  flit_is(&s->tx[0][153], 0, pkt_data(s, 504, 0, 1), 1) &&
                  flit_is(&s->tx[0][154], 0, pkt_data(s, 503, 0, 1), 1) && count_valid(s, 0, 1, 199) == 2 * N + 5 &&
                  others_idle(s, 0, 1, 199),
              "output round robin N=%u: position 2 after input 1: input 2 before input 0 (wrapping)", N);
        sim_free(s);
    }
}

/* Separable allocation (rule 3): an input sends at most one flit per step in all, its VCs taken in
 * turn by its round robin over VC numbers; an ineligible VC is skipped. */
static void test_input_rr(void)
{
    /* two VCs of input 0 to outputs 1 and 2, both stopped until 59: eligible together when prepared
     * in 61 (tx_stop of step k-1 used in step k); the input's position is 0: VC 0 (output 1) at 62,
     * VC 1 (output 2) at 63, .. alternating, one flit per step in all */
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(4, 2, 0, a ? 3 : 0);
        const unsigned L = p.LINK_DELAY;
        sim_t *s = sim_new(&p, 200);
        set_route(s, 1, 1);
        set_route(s, 2, 2);
        set_vc(s, 0, 1, 0, 0);
        set_vc(s, 0, 2, 1, 1);
        stop_range(s, 1, 0, 1, 59);
        stop_range(s, 2, 1, 1, 59);
        unsigned k = put_pkt(s, 0, 10, 0, 1, 20, 1);
        put_pkt(s, 0, k, 1, 2, 20, 2);
        sim_all(s);
        int ok = 1;
        for (unsigned j = 0; j < 40; j++) {
            const unsigned kk = 62 + L + j, fi = j / 2;
            if (j & 1u)
                ok &= flit_is(&s->tx[2][kk], 1, pkt_data(s, 2, fi, 2), fi == 19) && flit_idle(&s->tx[1][kk]);
            else
                ok &= flit_is(&s->tx[1][kk], 0, pkt_data(s, 1, fi, 1), fi == 19) && flit_idle(&s->tx[2][kk]);
        }
        check(ok && count_valid(s, 1, 1, 199) == 20 && count_valid(s, 2, 1, 199) == 20,
              "input round robin L=%u: two VCs of one input to two outputs: one flit per step in all, VC 0 at %u, "
              "VC 1 at %u, .. alternating to %u",
              L, 62 + L, 63 + L, 101 + L);
        sim_free(s);
    }
    /* NVC 4: VCs 0, 1, 3 of input 2 to outputs 0, 1, 4, VC 2 to output 3 stopped for ever: from 62 the
     * input rotates VC 0, 1, 3 (2 skipped), one flit per step */
    {
        vcsw_params_t p = params(5, 4, 0, 0);
        sim_t *s = sim_new(&p, 200);
        static const unsigned outs[4] = {0, 1, 3, 4};
        for (unsigned v = 0; v < 4; v++) {
            set_route(s, v, outs[v]);
            set_vc(s, 2, outs[v], v, v);
            stop_range(s, outs[v], v, 1, v == 2 ? 199 : 59);
        }
        unsigned k = 10;
        for (unsigned v = 0; v < 4; v++)
            k = put_pkt(s, 2, k, v, v, 8, 10 + v);
        sim_all(s);
        int ok = 1;
        static const unsigned seq[3] = {0, 1, 3};
        for (unsigned j = 0; j < 24; j++) {
            const unsigned v = seq[j % 3], fi = j / 3, kk = 62 + j;
            ok &= flit_is(&s->tx[outs[v]][kk], v, pkt_data(s, 10 + v, fi, v), fi == 7);
            for (unsigned o = 0; o < 5; o++)
                if (o != outs[v])
                    ok &= flit_idle(&s->tx[o][kk]);
        }
        check(ok && count_valid(s, 3, 1, 199) == 0 && others_idle(s, -1, 86, 199) && others_idle(s, -1, 1, 61),
              "input round robin NVC=4: VCs 0, 1, 3 of one input in turn at 62..85 (stopped VC 2 skipped), one flit "
              "per step in all");
        sim_free(s);
    }
    /* Rule 3.3, an offer not taken keeps the input's position: inputs 0 and 1 both offer to output
     * 2 (prepared in 12, requesting in 13; output position 0: input 0 wins at 13); input 1 also has
     * VC 1 eligible (for output 3; its stop last received in 10, used in 11) but its position stays
     * 0, so its offer for 14 is VC 0 again (taken: output 2 at 14) and VC 1 only for 15 */
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(4, 2, 0, a ? 3 : 0);
        const unsigned L = p.LINK_DELAY;
        sim_t *s = sim_new(&p, 100);
        set_route(s, 2, 2);
        set_route(s, 3, 3);
        set_vc(s, 0, 2, 0, 0);
        set_vc(s, 1, 2, 0, 1);
        set_vc(s, 1, 3, 1, 0);
        put_pkt(s, 1, 9, 1, 3, 1, 3);  /* input 1 VC 1 -> (3, 0), held by the stop until eligible at 12 */
        stop_range(s, 3, 0, 1, 10);
        put_pkt(s, 0, 10, 0, 2, 1, 1); /* input 0 VC 0 -> (2, 0), eligible at 12 */
        put_pkt(s, 1, 10, 0, 2, 1, 2); /* input 1 VC 0 -> (2, 1), eligible at 12 */
        sim_all(s);
        check(flit_is(&s->tx[2][13 + L], 0, pkt_data(s, 1, 0, 2), 1) && flit_is(&s->tx[2][14 + L], 1, pkt_data(s, 2, 0, 2), 1),
              "losing offer L=%u: output 2 takes input 0 at %u, input 1's VC 0 (offered again) at %u", L, 13 + L, 14 + L);
        check(flit_idle(&s->tx[3][13 + L]) && flit_idle(&s->tx[3][14 + L]) &&
                  flit_is(&s->tx[3][15 + L], 0, pkt_data(s, 3, 0, 3), 1) && count_valid(s, 3, 1, 99) == 1,
              "losing offer L=%u: input 1's position kept: its VC 1 (output 3) not offered before %u", L, 15 + L);
        sim_free(s);
    }
    /* Rule 3.3: "an offer that is not taken leaves the position where it was": it is not moved
     * onto the offered VC. Input 1 (position 0) offers VC 1 for 13 and loses to input 0 at output 2;
     * its VC 0 is staged after 12: the offer prepared in 13 is VC 0 (output 3), taken at 14, VC 1
     * at 15 */
    {
        vcsw_params_t p = params(4, 2, 0, 0);
        sim_t *s = sim_new(&p, 100);
        set_route(s, 2, 2);
        set_route(s, 3, 3);
        set_vc(s, 0, 2, 0, 0);
        set_vc(s, 1, 2, 1, 1);
        set_vc(s, 1, 3, 0, 0);
        put_pkt(s, 0, 10, 0, 2, 1, 1); /* input 0 VC 0 -> (2, 0), eligible at 12 */
        put_pkt(s, 1, 10, 1, 2, 1, 2); /* input 1 VC 1 -> (2, 1), eligible at 12 */
        put_pkt(s, 1, 11, 0, 3, 1, 3); /* input 1 VC 0 -> (3, 0), eligible at 13 */
        sim_all(s);
        check(flit_is(&s->tx[2][13], 0, pkt_data(s, 1, 0, 2), 1) && flit_is(&s->tx[3][14], 0, pkt_data(s, 3, 0, 3), 1) &&
                  flit_idle(&s->tx[2][14]) && flit_is(&s->tx[2][15], 1, pkt_data(s, 2, 0, 2), 1),
              "losing offer (rule 3.3): position kept at 0, not moved onto the losing VC 1: VC 0 eligible later "
              "goes first (output 3 at 14, VC 1 at 15)");
        sim_free(s);
    }
}

/* No eligible VC starves: 3 inputs, each with both VCs backed up with one-flit packets to output 0
 * (sent at 10..69, VC 0 on even steps): from step 13 the output takes inputs 0, 1, 2, 0, .. (its
 * round robin) and each input its VCs 0, 1, 0, .. (its own; an input not taken offers the same VC
 * again): at 13+j input j%3, VC (j/3)%2, that VC's packet number j/6; every (input, VC) served
 * every 6 steps, 180 flits at 13..192. */
static void test_starvation(void)
{
    vcsw_params_t p = params(3, 2, 0, 0);
    sim_t *s = sim_new(&p, 260);
    set_route(s, 0, 0);
    for (unsigned i = 0; i < 3; i++)
        for (unsigned d = 0; d < 2; d++)
            set_vc(s, i, 0, d, d);
    for (unsigned i = 0; i < 3; i++)
        for (unsigned j = 0; j < 60; j++)
            put_pkt(s, i, 10 + j, j & 1u, 0, 1, (i * 2 + (j & 1u)) * 100 + j / 2);
    sim_all(s);
    int ok = 1;
    unsigned first_bad = 0;
    for (unsigned j = 0; j < 180; j++) {
        const unsigned i = j % 3, v = (j / 3) % 2, n = j / 6;
        if (!flit_is(&s->tx[0][13 + j], v, pkt_data(s, (i * 2 + v) * 100 + n, 0, 0), 1) && ok) {
            ok = 0;
            first_bad = 13 + j;
        }
    }
    check(ok && count_valid(s, 0, 1, 259) == 180 && others_idle(s, 0, 1, 259),
          "starvation-free: 3 inputs x 2 VCs backed up to one output: served in the fixed order of the two round "
          "robins, each (input, VC) every 6 steps, 180 flits at 13..192 (first difference at %u)",
          first_bad);
    sim_free(s);
}

/* A VC blocked downstream (its head's stop bit 1) is not eligible: the other VC of the input gets
 * the link (but one idle step at each of its packet boundaries: the next head is judged on its
 * output VC as owned after the step before the tail's, rule 3.3, and the blocked VC cannot fill it);
 * released, the two alternate by the input's round robin and the link stays full (a head behind a
 * tail is offered in the step after, when the other VC's turn fills the gap). */
static void test_blocked_release(void)
{
    vcsw_params_t p = params(4, 2, 0, 0);
    sim_t *s = sim_new(&p, 200);
    set_route(s, 1, 1);
    set_vc(s, 0, 1, 0, 0);
    set_vc(s, 0, 1, 1, 1);
    stop_range(s, 1, 0, 1, 59);
    unsigned k = put_pkt(s, 0, 10, 0, 1, 20, 1); /* VC 0: 20 flits at 10..29, blocked until 59 */
    for (unsigned j = 0; j < 4; j++)
        k = put_pkt(s, 0, k, 1, 1, 10, 2 + j); /* VC 1: 40 flits at 30..69, first offered after 32 */
    sim_all(s);
    /* expected VC per step: VC 1 at 33..42 (packet 2), 43 idle, 44..53 (packet 3), 54 idle, 55..61
     * (7 flits of packet 4); VC 0 prepared in 61 (stop of 60 is 0; position 0, past VC 1), taken 62;
     * then alternating, VC 0 on even steps, while VC 1 has flits (13 left: 63, 65, .., 87), then VC
     * 0 alone 88..94 */
    int ok = 1;
    unsigned n0 = 0, n1 = 0;
    for (unsigned kk = 33; kk <= 94; kk++) {
        const vcsw_flit_t *f = &s->tx[1][kk];
        if (kk == 43 || kk == 54) {
            ok &= flit_idle(f);
            continue;
        }
        unsigned want = kk <= 61 ? 1 : (kk <= 87 ? ((kk - 62) & 1u) : 0);
        ok &= f->valid && f->vc == want;
        if (want == 0) {
            ok &= f->data == pkt_data(s, 1, n0, 1) && f->tail == (n0 == 19);
            n0++;
        } else {
            const unsigned pk = n1 / 10, fi = n1 % 10;
            ok &= f->data == pkt_data(s, 2 + pk, fi, 1) && f->tail == (fi == 9);
            n1++;
        }
    }
    check(ok && count_valid(s, 1, 1, 199) == 60,
          "blocked then released: VC 1 alone 33..61 (idle at 43 and 54, its packet boundaries), then VC 0 and VC 1 "
          "alternate 62..87, VC 0 alone 88..94: the link full every step 55..94");
    sim_free(s);
}

/* Saturating permutation on every parameter set: input i sends one stream per VC to output
 * (i+1) % N, obeying Go & Stop at the latest moment; every output link carries one flit per step
 * once the streams run, every packet arrives whole and in order, nothing is cut. */
static void test_permutation(void)
{
    for (unsigned a = 0; a < NPSETS; a++) {
        vcsw_params_t p = params(psets[a].n, psets[a].nvc, psets[a].ctrl, psets[a].L);
        p.DEPTH = 32;
        p.MAXLEN = 8;
        const unsigned N = p.NPORTS, V = p.NVC, L = p.LINK_DELAY, maxs = 2200;
        sim_t *s = sim_new(&p, maxs);
        const unsigned ndvc = s->ndvc;
        for (unsigned i = 0; i < N; i++)
            set_route(s, i, i);
        for (unsigned i = 0; i < N; i++)
            for (unsigned d = 0; d < ndvc; d++)
                set_vc(s, i, (i + 1) % N, d, (d + i) % ndvc);
        const unsigned t0 = s->cfg_next + 2, t1 = 1800;
        unsigned left[VCSW_MAX_PORTS][VCSW_MAX_VCS], seq[VCSW_MAX_PORTS][VCSW_MAX_VCS], rrv[VCSW_MAX_PORTS];
        memset(left, 0, sizeof left);
        memset(seq, 0, sizeof seq);
        memset(rrv, 0, sizeof rrv);
        for (unsigned k = 1; k < maxs; k++) {
            if (k >= t0 && k < maxs - 300)
                for (unsigned i = 0; i < N; i++)
                    for (unsigned j = 0; j < V; j++) {
                        unsigned v = (rrv[i] + j) % V;
                        if (!left[i][v] && (k >= t1 || k < L + 4 || ((s->rs[i][k - L - 3] >> v) & 1u)))
                            continue;
                        if (!left[i][v]) {
                            left[i][v] = 1 + (seq[i][v] * 5 + i + v) % p.MAXLEN;
                            seq[i][v]++;
                        }
                        left[i][v]--;
                        unsigned len = 1 + ((seq[i][v] - 1) * 5 + i + v) % p.MAXLEN, fi = len - 1 - left[i][v];
                        unsigned id = ((seq[i][v] - 1) * 16 + v) * 16 + i;
                        put_flit(s, i, k, v, pkt_data(s, id, fi, (i + 1) % N), left[i][v] == 0);
                        rrv[i] = v + 1;
                        break;
                    }
            sim_step(s);
        }
        /* check: every output carries a flit in every step of [t0 + 40, t1]; packets per (o, u) in order */
        unsigned busy = 0, win = 0, bad = 0, npk = 0;
        for (unsigned o = 0; o < N; o++) {
            const unsigned i = (o + N - 1) % N;
            for (unsigned k = t0 + 40; k <= t1; k++) {
                win++;
                busy += s->tx[o][k].valid;
            }
            /* per input VC v the stream's packets in order on output VC u(v) */
            for (unsigned v = 0; v < V; v++) {
                const unsigned ctl = v >= ndvc, d = ctl ? v - ndvc : v, u = (d + i) % ndvc + (ctl ? ndvc : 0);
                unsigned sq = 0, fi = 0;
                for (unsigned k = 1; k < maxs; k++) {
                    const vcsw_flit_t *f = &s->tx[o][k];
                    if (!f->valid || f->vc != u)
                        continue;
                    unsigned len = 1 + (sq * 5 + i + v) % p.MAXLEN, id = (sq * 16 + v) * 16 + i;
                    if (f->data != pkt_data(s, id, fi, o) || f->tail != (fi + 1 == len))
                        bad++;
                    if (++fi == len) {
                        fi = 0;
                        sq++;
                        npk++;
                    }
                }
                if (sq != seq[i][v] || fi != 0)
                    bad++;
            }
        }
        unsigned ov = 0;
        for (unsigned i = 0; i < N; i++)
            for (unsigned v = 0; v < V; v++)
                ov += vcsw_counter(s->m, i, v, VCSW_CTR_OVERFLOW) + vcsw_counter(s->m, i, v, VCSW_CTR_TRUNC);
        check(busy == win, "permutation %s: every output link busy every step (%u of %u)", pstr(&p), busy, win);
        check(bad == 0 && ov == 0 && npk > 100 * N / V,
              "permutation %s: %u packets whole and in order per stream (%u bad), no cut (%u)", pstr(&p), npk, bad, ov);
        (void)L;
        sim_free(s);
    }
}

/* Random traffic with random downstream stops and obeying senders on several sets: every packet
 * arrives once, whole, on the (output, VC) of its tables; counters agree with the flits seen. */
static void test_random(void)
{
    static const struct {
        unsigned n, nvc, ctrl, L, depth, maxlen;
    } cs[] = {{5, 4, 1, 0, 32, 8}, {3, 2, 0, 3, 64, 16}, {8, 2, 1, 1, 16, 4}, {16, 16, 1, 0, 32, 6}, {2, 4, 0, 2, 16, 2}};
    for (unsigned a = 0; a < sizeof cs / sizeof cs[0]; a++) {
        vcsw_params_t p = params(cs[a].n, cs[a].nvc, cs[a].ctrl, cs[a].L);
        p.DEPTH = cs[a].depth;
        p.MAXLEN = cs[a].maxlen;
        p.FLIT_W = 32;
        const unsigned N = p.NPORTS, V = p.NVC, L = p.LINK_DELAY, maxs = 8000;
        sim_t *s = sim_new(&p, maxs);
        const unsigned ndvc = s->ndvc;
        rng_t r;
        rng_seed(&r, 1000 + a);
        for (unsigned t = 0; t < N; t++)
            set_route(s, t, (t * 7 + 3) % N);
        for (unsigned i = 0; i < N; i++)
            for (unsigned o = 0; o < N; o++)
                for (unsigned d = 0; d < ndvc; d++)
                    set_vc(s, i, o, d, (d * 3 + i + o) % ndvc);
        const unsigned t0 = s->cfg_next + 2, t1 = maxs - 1500;
        unsigned left[VCSW_MAX_PORTS][VCSW_MAX_VCS], len_[VCSW_MAX_PORTS][VCSW_MAX_VCS], tag_[VCSW_MAX_PORTS][VCSW_MAX_VCS];
        unsigned seq[VCSW_MAX_PORTS][VCSW_MAX_VCS];
        memset(left, 0, sizeof left);
        memset(seq, 0, sizeof seq);
        uint16_t stop[VCSW_MAX_PORTS] = {0};
        for (unsigned k = 1; k < maxs; k++) {
            for (unsigned o = 0; o < N; o++) {
                if (rng_pct(&r, 3))
                    stop[o] ^= (uint16_t)(1u << rng_below(&r, V));
                s->ts[o][k] = k < t1 ? stop[o] : 0;
            }
            if (k >= t0 && k < maxs - 500)
                for (unsigned i = 0; i < N; i++) {
                    if (!rng_pct(&r, 70))
                        continue;
                    unsigned v = rng_below(&r, V);
                    if (!left[i][v] && (k >= t1 || k < L + 4 || ((s->rs[i][k - L - 3] >> v) & 1u)))
                        continue;
                    if (!left[i][v]) {
                        len_[i][v] = left[i][v] = 1 + rng_below(&r, p.MAXLEN);
                        tag_[i][v] = rng_below(&r, N);
                        seq[i][v]++;
                    }
                    unsigned fi = len_[i][v] - left[i][v];
                    left[i][v]--;
                    uint32_t id = ((seq[i][v] * 16u + v) * 16u + i);
                    uint32_t data = fi == 0 ? ((id << 8) | tag_[i][v]) : (id * 2654435761u + fi);
                    put_flit(s, i, k, v, data, left[i][v] == 0);
                }
            sim_step(s);
        }
        /* the packets seen, in time order: per output and output VC the flits of one packet follow
         * each other; the heads of one source (i, v) come in the order it sent them */
        unsigned got_pk = 0, bad = 0, flits = 0;
        unsigned nseen[VCSW_MAX_PORTS][VCSW_MAX_VCS];
        uint32_t cur[VCSW_MAX_PORTS][VCSW_MAX_VCS];
        unsigned cfi[VCSW_MAX_PORTS][VCSW_MAX_VCS];
        memset(nseen, 0, sizeof nseen);
        memset(cfi, 0, sizeof cfi);
        for (unsigned k = 1; k < maxs; k++)
            for (unsigned o = 0; o < N; o++) {
                const vcsw_flit_t *f = &s->tx[o][k];
                if (!f->valid)
                    continue;
                const unsigned u = f->vc;
                flits++;
                if (u >= V) {
                    bad++;
                    continue;
                }
                if (cfi[o][u] == 0) {
                    const uint32_t id = f->data >> 8;
                    cur[o][u] = id;
                    unsigned i = id % 16, v = (id / 16) % 16, sq = id / 256, tag = f->data & 0xFFu;
                    const unsigned ctl = v >= ndvc, d = ctl ? v - ndvc : v;
                    unsigned wo = (tag * 7 + 3) % N, wu = (d * 3 + i + wo) % ndvc + (ctl ? ndvc : 0);
                    if (i >= N || v >= V || wo != o || wu != u || sq != nseen[i][v] + 1)
                        bad++;
                    if (i < N && v < V)
                        nseen[i][v] = sq;
                } else if (f->data != cur[o][u] * 2654435761u + cfi[o][u]) {
                    bad++;
                }
                cfi[o][u]++;
                if (f->tail) {
                    got_pk++;
                    cfi[o][u] = 0;
                }
            }
        for (unsigned o = 0; o < N; o++)
            for (unsigned u = 0; u < V; u++)
                bad += cfi[o][u] != 0;
        unsigned sent = 0, cut = 0, txf = 0, rxf = 0;
        for (unsigned i = 0; i < N; i++)
            for (unsigned v = 0; v < V; v++) {
                sent += seq[i][v];
                bad += nseen[i][v] != seq[i][v];
                cut += vcsw_counter(s->m, i, v, VCSW_CTR_OVERFLOW) + vcsw_counter(s->m, i, v, VCSW_CTR_TRUNC);
                txf += vcsw_counter(s->m, i, v, VCSW_CTR_TX_FLITS);
                rxf += vcsw_counter(s->m, i, v, VCSW_CTR_RX_FLITS);
            }
        check(bad == 0 && got_pk == sent && cut == 0 && txf == flits && rxf == flits && sent > 200,
              "random %s: %u packets sent, %u arrived whole in order on their route (%u bad), %u cut, %u flits",
              pstr(&p), sent, got_pk, bad, cut, flits);
        sim_free(s);
    }
}

/* The step of each counter event (docs/vcsw.md, Counters): rx_* and the drops, cuts at k+1 for a flit
 * received in k; tx_* in the allocation step (LINK_DELAY before tx shows it); tx_pkts at the tail. */
static void test_event_steps(void)
{
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(5, 2, 0, a ? 3 : 0);
        p.MAXLEN = 4;
        p.DEPTH = 16;
        const unsigned L = p.LINK_DELAY;
        sim_t *s = sim_new(&p, 120);
        set_route(s, 1, 4);
        set_vc(s, 1, 4, 0, 1);
        put_pkt(s, 1, 20, 0, 1, 3, 1);  /* rx 20..22, tx (allocation) 23..25 */
        put_pkt(s, 1, 30, 0, 2, 2, 2);  /* drop_route at 31 */
        put_pkt(s, 1, 40, 0, 1, 6, 3);  /* cut: 4th flit (43) -> trunc at 44 */
        set_vc(s, 2, 4, 1, 0);
        stop_range(s, 4, 0, 1, 119);    /* (4, 0) stopped: input 2 VC 1 fills */
        unsigned k = 50;
        for (unsigned j = 0; j < 4; j++)
            k = put_pkt(s, 2, k, 1, 1, 4, 10 + j); /* 16 flits: occupancy 16 after step 66 */
        put_pkt(s, 2, 70, 1, 1, 2, 20);          /* head at DEPTH: overflow at 71 */
        uint32_t c[120][6];
        while (s->k < 119) {
            sim_step(s);
            c[s->k][0] = vcsw_counter(s->m, 1, 0, VCSW_CTR_RX_FLITS);
            c[s->k][1] = vcsw_counter(s->m, 1, 0, VCSW_CTR_RX_PKTS);
            c[s->k][2] = vcsw_counter(s->m, 4, 1, VCSW_CTR_TX_FLITS);
            c[s->k][3] = vcsw_counter(s->m, 4, 1, VCSW_CTR_TX_PKTS);
            c[s->k][4] = vcsw_counter(s->m, 1, 0, VCSW_CTR_DROP_ROUTE) * 100 + vcsw_counter(s->m, 1, 0, VCSW_CTR_TRUNC);
            c[s->k][5] = vcsw_counter(s->m, 2, 1, VCSW_CTR_OVERFLOW);
        }
        check(c[20][0] == 0 && c[21][0] == 1 && c[22][0] == 2 && c[23][0] == 3 && c[21][1] == 1 && c[20][1] == 0,
              "event steps L=%u: rx_flits at 21, 22, 23 and rx_pkts at 21 for flits received at 20..22", L);
        check(c[22][2] == 0 && c[23][2] == 1 && c[25][2] == 3 && c[24][3] == 0 && c[25][3] == 1,
              "event steps L=%u: tx_flits at 23..25, tx_pkts at 25 (the tail's allocation step, not the head's)", L);
        check(c[30][4] == 0 && c[31][4] == 100 && c[43][4] == 100 && c[44][4] == 101,
              "event steps L=%u: drop_route at 31 (head in 30), trunc at 44 (MAXLEN-th flit in 43)", L);
        check(c[70][5] == 0 && c[71][5] == 1, "event steps L=%u: overflow at 71 (head in 70 at a full buffer)", L);
        sim_free(s);
    }
}

/* Port widths: rx_vc has VCW bits and rx_data FLIT_W bits; the model ignores the bits above them
 * (vcsw_flit_t is wider than the ports). */
static void test_port_widths(void)
{
    vcsw_params_t p = params(3, 4, 0, 0);
    p.FLIT_W = 12;
    p.TAG_W = 4;
    sim_t *s = sim_new(&p, 60);
    set_route(s, 5, 2);
    set_vc(s, 0, 2, 1, 3);
    /* VC 5 = VC 1 on the 2-bit port; data with bits above 12 set */
    s->rx[0][20] = (vcsw_flit_t){1, 5, 0, 0xABC5u | 0xF000u};
    s->rx[0][21] = (vcsw_flit_t){1, 1 + 4 * 3, 1, 0x12345u};
    sim_all(s);
    check(flit_is(&s->tx[2][23], 3, 0xBC5u, 0) && flit_is(&s->tx[2][24], 3, 0x345u, 1) &&
              vcsw_counter(s->m, 0, 1, VCSW_CTR_RX_FLITS) == 2,
          "port widths: rx_vc 5 and 13 are VC 1 (2 bits), data bits above FLIT_W 12 dropped");
    sim_free(s);
}

/* "Nothing is lost silently and nothing hangs": wild random traffic (senders ignoring STOP, packets
 * longer than MAXLEN, bad and rewritten table entries, random stops, reads) then a drain: every
 * buffer empties, every output VC's flits end with a tail, input flits = output flits + the flits
 * the counters say were dropped or cut is not checkable exactly, so: output flits <= input flits;
 * and afterwards one packet from input 0 reaches every output VC (none stays owned). */
static void test_stress(void)
{
    static const struct {
        unsigned n, nvc, ctrl, L, depth, maxlen;
    } cs[] = {{5, 4, 1, 1, 16, 4}, {3, 2, 0, 0, 8, 2}, {16, 16, 0, 2, 32, 8}, {8, 2, 1, 3, 32, 16}};
    for (unsigned a = 0; a < sizeof cs / sizeof cs[0]; a++) {
        vcsw_params_t p = params(cs[a].n, cs[a].nvc, cs[a].ctrl, cs[a].L);
        p.DEPTH = cs[a].depth;
        p.MAXLEN = cs[a].maxlen;
        p.TAG_W = 4;
        const unsigned N = p.NPORTS, V = p.NVC, maxs = 14000, t1 = 9000;
        sim_t *s = sim_new(&p, maxs);
        const unsigned ndvc = s->ndvc;
        rng_t r;
        rng_seed(&r, 4242 + a);
        int intail[VCSW_MAX_PORTS][VCSW_MAX_VCS];
        memset(intail, 0, sizeof intail);
        for (unsigned k = 1; k < t1; k++) {
            if (rng_pct(&r, 30)) { /* table writes, some invalid, some out of range */
                if (rng_pct(&r, 50))
                    cfg_write_at(s, k, VCSW_SPACE_ROUTE, rng_below(&r, 20), rng_pct(&r, 85) ? 0x8000u | rng_below(&r, N + 2) : rng_below(&r, 16));
                else
                    cfg_write_at(s, k, VCSW_SPACE_VC, VCSW_VC_INDEX(rng_below(&r, N), rng_below(&r, N), rng_below(&r, ndvc)),
                                 rng_pct(&r, 85) ? 0x8000u | rng_below(&r, ndvc + 1) : 0);
            } else if (rng_pct(&r, 20)) {
                cfg_read_at(s, k, rng_below(&r, 4), rng_below(&r, 0x4000));
            }
            for (unsigned o = 0; o < N; o++)
                s->ts[o][k] = rng_pct(&r, 60) ? (uint16_t)rng_below(&r, 1u << V) : 0;
            for (unsigned i = 0; i < N; i++)
                if (rng_pct(&r, 80)) {
                    unsigned v = rng_below(&r, V), tail = rng_pct(&r, 100 / (p.MAXLEN + 1) + 5);
                    put_flit(s, i, k, v, (uint32_t)rng_next(&r), tail);
                    intail[i][v] = tail;
                }
        }
        /* close every open packet, then drain with stops released */
        for (unsigned i = 0; i < N; i++)
            for (unsigned v = 0; v < V; v++)
                if (!intail[i][v])
                    put_flit(s, i, t1 + v, v, 0, 1);
        sim_run(s, t1 + 2500);
        int empty = 1;
        for (unsigned i = 0; i < N; i++)
            for (unsigned v = 0; v < V; v++)
                empty &= vcsw_occupancy(s->m, i, v) == 0;
        int ended = 1;
        unsigned long in_f = 0, out_f = 0;
        for (unsigned o = 0; o < N; o++)
            for (unsigned u = 0; u < V; u++) {
                int last_tail = 1;
                for (unsigned k = 1; k <= t1 + 2500; k++)
                    if (s->tx[o][k].valid && s->tx[o][k].vc == u)
                        last_tail = s->tx[o][k].tail;
                ended &= last_tail;
            }
        for (unsigned i = 0; i < N; i++)
            for (unsigned k = 1; k <= t1 + 2500; k++) {
                in_f += s->rx[i][k].valid;
                out_f += s->tx[i][k].valid;
            }
        check(empty && ended && out_f <= in_f && out_f > in_f / 20,
              "stress %s: buffers empty after the drain, every output VC's last flit a tail, %lu of %lu flits out",
              pstr(&p), out_f, in_f);
        /* probe: clean tables, one packet per (o, u) from input 0 on data VC d = u % NDVC mapped to u */
        unsigned k = t1 + 2510;
        for (unsigned o = 0; o < N; o++)
            cfg_write_at(s, k++, VCSW_SPACE_ROUTE, o, VCSW_ENTRY(1, o));
        unsigned start = k + 2, got = 0;
        for (unsigned o = 0; o < N; o++)
            for (unsigned u = 0; u < V; u++) {
                unsigned ctl = u >= ndvc, d = ctl ? u - ndvc : u;
                cfg_write_at(s, k++, VCSW_SPACE_VC, VCSW_VC_INDEX(0, o, d), VCSW_ENTRY(1, d));
                put_pkt(s, 0, k + 1, u, o, 2, 0x7000 + o * 16 + u);
                k += 3;
            }
        sim_run(s, k + 100 < maxs ? k + 100 : maxs - 1);
        for (unsigned o = 0; o < N; o++)
            for (unsigned u = 0; u < V; u++) {
                unsigned g = find_data(s, o, start, s->k, pkt_data(s, 0x7000 + o * 16 + u, 0, o));
                got += g && pkt_at(s, o, g, u, o, 2, 0x7000 + o * 16 + u);
            }
        check(got == N * V, "stress %s: afterwards every output VC takes a new packet (%u of %u)", pstr(&p), got, N * V);
        sim_free(s);
    }
}

/* vcsw_reset: back to step 0 (buffers empty; the stimulus writes the same entries again): the same
 * stimulus gives the same outputs. */
static void test_reset(void)
{
    vcsw_params_t p = params(4, 2, 1, 2);
    sim_t *s = sim_new(&p, 150);
    set_route(s, 1, 2);
    set_vc(s, 0, 2, 0, 0);
    stop_range(s, 2, 0, 10, 40);
    put_pkt(s, 0, 20, 0, 1, 30, 1);
    cfg_read_at(s, 60, VCSW_SPACE_CTR, VCSW_CTR_INDEX(0, 0, 0));
    sim_all(s);
    vcsw_flit_t *tx0 = xcalloc(150, sizeof *tx0);
    uint16_t *rs0 = xcalloc(150, sizeof *rs0);
    uint32_t rd0[150];
    memcpy(tx0, s->tx[2], 150 * sizeof *tx0);
    memcpy(rs0, s->rs[0], 150 * sizeof *rs0);
    memcpy(rd0, s->rd, sizeof rd0);
    vcsw_reset(s->m);
    check(vcsw_occupancy(s->m, 0, 0) == 0 && vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_FLITS) == 0,
          "reset: occupancy and counters 0");
    s->k = 0;
    sim_all(s);
    int ok = 1;
    for (unsigned k = 1; k < 150; k++)
        ok &= memcmp(&tx0[k], &s->tx[2][k], sizeof *tx0) == 0 && rs0[k] == s->rs[0][k] && rd0[k] == s->rd[k];
    check(ok && count_valid(s, 2, 1, 149) == 30, "reset: a second run after vcsw_reset repeats the first");
    free(tx0);
    free(rs0);
    sim_free(s);
}

/* vcsw_reset keeps the tables (docs/vcsw.md, Tables: RAM, rst does not change them) and clears the
 * counters (Steps): after entries are loaded and a packet has passed, a reset, then a head with no
 * write since is routed by the loaded entries, the entry reads back as written, and the counters
 * count only what came after the reset. */
static void test_reset_keeps_tables(void)
{
    vcsw_params_t p = params(4, 2, 1, 1);
    const unsigned M = 60, L = p.LINK_DELAY;
    sim_t *s = sim_new(&p, M);
    set_route(s, 3, 2);    /* tag 3 -> output 2 */
    set_vc(s, 0, 2, 0, 0); /* (input 0, output 2, data VC 0) -> VC 0 */
    put_pkt(s, 0, 5, 0, 3, 4, 1);
    sim_all(s);
    check(pkt_at(s, 2, 5 + 3 + L, 0, 3, 4, 1) && vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_FLITS) == 4,
          "reset keeps tables: before the reset the packet leaves output 2 VC 0 in step %u, rx_flits 4 (got %u)",
          5 + 3 + L, vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_FLITS));
    vcsw_reset(s->m);
    int zero = 1;
    for (unsigned q = 0; q < s->n; q++)
        for (unsigned v = 0; v < s->nvc; v++)
            for (unsigned c = 0; c < VCSW_NCTR; c++)
                zero &= vcsw_counter(s->m, q, v, c) == 0;
    check(zero, "reset keeps tables: every counter 0 right after vcsw_reset");
    /* new stimulus, no table write: a 2-flit packet at step 2, the route entry read in step 20 */
    for (unsigned k = 0; k < M; k++) {
        s->we[k] = s->re[k] = 0;
        s->addr[k] = s->wd[k] = 0;
        for (unsigned q = 0; q < VCSW_MAX_PORTS; q++)
            memset(&s->rx[q][k], 0, sizeof s->rx[q][k]);
    }
    put_pkt(s, 0, 2, 1, 3, 2, 2); /* control VC 1: its data twin 0 maps to VC 0, so control VC 1 */
    cfg_read_at(s, 20, VCSW_SPACE_ROUTE, 3);
    s->k = 0;
    sim_all(s);
    check(pkt_at(s, 2, 2 + 3 + L, 1, 3, 2, 2) && count_valid(s, 2, 1, M - 1) == 2 && others_idle(s, 2, 1, M - 1),
          "reset keeps tables: a head after the reset (no write since) leaves output 2 VC 1 in step %u", 2 + 3 + L);
    check(s->rv[21] && s->rd[21] == VCSW_ENTRY(1, 2), "reset keeps tables: the route entry reads back 0x8002 (got %u 0x%x)",
          s->rv[21], s->rd[21]);
    check(vcsw_counter(s->m, 0, 1, VCSW_CTR_RX_FLITS) == 2 && vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_FLITS) == 0 &&
              vcsw_counter(s->m, 0, 1, VCSW_CTR_RX_PKTS) == 1 && vcsw_counter(s->m, 2, 1, VCSW_CTR_TX_FLITS) == 2 &&
              vcsw_counter(s->m, 2, 0, VCSW_CTR_TX_FLITS) == 0,
          "reset keeps tables: the counters count only the packet after the reset (rx_flits 0/1 %u/%u, tx_flits 2/0 2/1 "
          "%u/%u)", vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_FLITS), vcsw_counter(s->m, 0, 1, VCSW_CTR_RX_FLITS),
          vcsw_counter(s->m, 2, 0, VCSW_CTR_TX_FLITS), vcsw_counter(s->m, 2, 1, VCSW_CTR_TX_FLITS));
    sim_free(s);
}

/* ================================================================ rule 3 (pipelined allocation) */

/* Rule 3 and "Latency and throughput": the doc's timing diagram step by step, LINK_DELAY 0 and 5. A
 * 3-flit packet rx at k, k+1, k+2 from input 1 VC 0 to output 4 VC 1: admitted k+1, k+2, k+3 (the
 * staging row H / H B / B T / T / -, i.e. occupancy 1, 2, 2, 1, 0 after k+1..k+5); offers H (after
 * k+2), B (after k+3: S_v[1] when H is taken), T; transmit register H, B, T after k+3, k+4, k+5; on
 * tx_* LINK_DELAY steps later and idle in every other step. */
static void test_rule3_diagram_steps(void)
{
    static const unsigned Ls[2] = {0, 5};
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(8, 2, 0, Ls[a]);
        const unsigned L = p.LINK_DELAY, k = 10, M = 40;
        sim_t *s = sim_new(&p, M);
        set_route(s, 0x21, 4);
        set_vc(s, 1, 4, 0, 1);
        put_pkt(s, 1, k, 0, 0x21, 3, 5);
        sim_all(s);
        for (unsigned j = 1; j < M; j++) {
            const vcsw_flit_t *f = &s->tx[4][j];
            int ok;
            const char *what;
            if (j == k + 3 + L) {
                ok = flit_is(f, 1, pkt_data(s, 5, 0, 0x21), 0);
                what = "H (head latency 3 + LINK_DELAY)";
            } else if (j == k + 4 + L) {
                ok = flit_is(f, 1, pkt_data(s, 5, 1, 0x21), 0);
                what = "B";
            } else if (j == k + 5 + L) {
                ok = flit_is(f, 1, pkt_data(s, 5, 2, 0x21), 1);
                what = "T with tail";
            } else {
                ok = flit_idle(f);
                what = "idle";
            }
            if (j >= k && j <= k + 7 + L)
                check(ok, "rule 3 diagram L=%u: tx[4] after step k%+d is %s", L, (int)j - (int)k, what);
            else if (!ok)
                check(0, "rule 3 diagram L=%u: tx[4] after step %u is idle", L, j);
        }
        static const unsigned occ[7] = {0, 1, 2, 2, 1, 0, 0}; /* after k..k+6 */
        int ok = 1;
        for (unsigned j = 0; j < 7; j++)
            ok &= occ_at(s, k + j, 1, 0) == occ[j];
        check(ok && others_idle(s, 4, 1, M - 1),
              "rule 3 diagram L=%u: occupancy of input 1 VC 0 after k..k+6 is 0 1 2 2 1 0 0 (staging H, H B, B T, T)",
              L);
        sim_free(s);
    }
}

/* Rule 3.3 (next head of the taken VC: S_v[1], else R's entry) with rule 2: a stream on one VC stays
 * at one flit per step once started. (a) Straight into staging: a 32-flit packet rx 10..41 leaves at
 * 13..44, flit i at 13+i. (b) Through the RAM part and R: the output VC stopped in steps 1..30, so 22
 * flits are held after step 32 (staging 3, R, RAM part 18); prepared in 32 (stop of 31 is 0), taken
 * 33: flit i at 33+i, 33..64, no hole while the RAM part and R feed the staging. */
static void test_rule3_stream(void)
{
    for (unsigned a = 0; a < 4; a++) {
        vcsw_params_t p = params(4, 2, 0, (a & 2u) ? 2 : 0);
        const unsigned L = p.LINK_DELAY, ram = a & 1u, st = ram ? 33 : 13;
        sim_t *s = sim_new(&p, 120);
        set_route(s, 9, 2);
        set_vc(s, 3, 2, 1, 0);
        put_pkt(s, 3, 10, 1, 9, 32, 7);
        if (ram)
            stop_range(s, 2, 0, 1, 30);
        sim_all(s);
        int ok = 1;
        for (unsigned i = 0; i < 32; i++)
            ok &= flit_is(&s->tx[2][st + L + i], 0, pkt_data(s, 7, i, 9), i == 31);
        check(ok && count_valid(s, 2, 1, 119) == 32 && others_idle(s, 2, 1, 119) &&
                  (!ram || occ_at(s, 32, 3, 1) == 22),
              "rule 3 stream L=%u %s: 32 flits at one per step, flit i at %u+i (%s)", L,
              ram ? "through the RAM part and R" : "straight into staging", st + L,
              ram ? "22 held after step 32" : "no stop");
        sim_free(s);
    }
}

/* Rules 3.1 and 3.3, two inputs with first flits for the same output VC in the same step: inputs 1
 * and 2 each send a 4-flit packet rx 10..13 to output 3 VC 0. Both offer their heads after 12; in
 * 13 both request, the output (position 0) takes input 1: 13..16. Input 2's offer is prepared again
 * in 13 (the VC is free after 12) and requests no more in 14 (owned after 13: the request-time
 * check); not eligible while owned after 13..15; the tail taken in 16 frees it after 16; prepared
 * 17, taken 18: input 2's packet at 18..21, 17 idle. */
static void test_rule3_contention(void)
{
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(4, 2, 0, a ? 3 : 0);
        const unsigned L = p.LINK_DELAY;
        sim_t *s = sim_new(&p, 80);
        set_route(s, 4, 3);
        set_vc(s, 1, 3, 0, 0);
        set_vc(s, 2, 3, 0, 0);
        put_pkt(s, 1, 10, 0, 4, 4, 1);
        put_pkt(s, 2, 10, 0, 4, 4, 2);
        sim_all(s);
        check(pkt_at(s, 3, 13 + L, 0, 4, 4, 1), "rule 3 contention L=%u: input 1 wins, its packet at %u..%u", L, 13 + L,
              16 + L);
        check(!s->tx[3][14 + L].valid || s->tx[3][14 + L].data != pkt_data(s, 2, 0, 4),
              "rule 3 contention L=%u: the loser's re-prepared head does not leave at %u (its output VC is owned "
              "after %u)", L, 14 + L, 13);
        check(flit_idle(&s->tx[3][17 + L]) && pkt_at(s, 3, 18 + L, 0, 4, 4, 2),
              "rule 3 contention L=%u: input 2's packet two steps after the winner's tail, at %u..%u (%u idle)", L,
              18 + L, 21 + L, 17 + L);
        check(count_valid(s, 3, 1, 79) == 8 && others_idle(s, 3, 1, 79), "rule 3 contention L=%u: nothing else", L);
        sim_free(s);
    }
}

/* Rules 3.1 and 3.3, a stop bit rising between preparation and request: input 0 has a one-flit
 * packet on VC 1 for output 2 VC 0 (rx 9, staged after 10, its stop 1 in steps 1..10 so first
 * eligible when prepared in 12) and one on VC 0 for output 1 VC 0 (rx 10, staged after 11). Both are
 * eligible when prepared in 12 (stops of 11 are 0): position 0, VC 0 is offered. tx_stop of (1, 0)
 * is 1 in steps 12..30, so in 13 VC 0's offer does not request (stop of 12): nothing leaves the
 * input in 13 although VC 1 was eligible (the one-step loss); the offer prepared in 13 is VC 1 (VC
 * 0 not eligible on the stop of 12): output 2 at 14; VC 0 prepared again in 32 (stop of 31 is 0),
 * taken at 33. */
static void test_rule3_stop_rise(void)
{
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(4, 2, 0, a ? 3 : 0);
        const unsigned L = p.LINK_DELAY;
        sim_t *s = sim_new(&p, 80);
        set_route(s, 1, 1);
        set_route(s, 2, 2);
        set_vc(s, 0, 1, 0, 0);
        set_vc(s, 0, 2, 1, 0);
        put_pkt(s, 0, 9, 1, 2, 1, 2);
        put_pkt(s, 0, 10, 0, 1, 1, 1);
        stop_range(s, 2, 0, 1, 10);
        stop_range(s, 1, 0, 12, 30);
        sim_all(s);
        check(flit_idle(&s->tx[1][13 + L]) && flit_idle(&s->tx[2][13 + L]),
              "rule 3 stop rise L=%u: the head prepared in 12 does not leave at %u (stop received in 12), nothing "
              "else either", L, 13 + L);
        check(flit_is(&s->tx[2][14 + L], 0, pkt_data(s, 2, 0, 2), 1),
              "rule 3 stop rise L=%u: the input's other VC offered next, out at %u", L, 14 + L);
        check(flit_is(&s->tx[1][33 + L], 0, pkt_data(s, 1, 0, 1), 1) && count_valid(s, 1, 1, 79) == 1 &&
                  count_valid(s, 2, 1, 79) == 1 && others_idle(s, -1, 1, 12 + L),
              "rule 3 stop rise L=%u: the stopped head out at %u (last stop 30)", L, 33 + L);
        sim_free(s);
    }
}

/* Rule 3.3, one-flit packets on one VC into an empty buffer. (a) Back to back (rx 10..15): the first
 * is staged after 11, offered after 12, out at 13; each later one is S_v[1] when its predecessor
 * is taken (and a one-flit packet owns no output VC): out at 14..18, no hole. (b) One every two
 * steps (rx 10, 12, 14, 16): each reaches the staging part in the step its predecessor is popped
 * from it, when no S_v[1] and no R entry of v exists: "an entry that reaches an empty staging part
 * in step k is not seen", so it is offered one step later: out at 13, 15, 17, 19 (rx + 3 each, not
 * rx + 2). */
static void test_rule3_single_flits(void)
{
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(3, 2, 0, a ? 4 : 0);
        const unsigned L = p.LINK_DELAY;
        sim_t *s = sim_new(&p, 80);
        set_route(s, 5, 1);
        set_vc(s, 2, 1, 0, 1);
        for (unsigned j = 0; j < 6; j++)
            put_pkt(s, 2, 10 + j, 0, 5, 1, 1 + j);
        for (unsigned j = 0; j < 4; j++)
            put_pkt(s, 2, 40 + 2 * j, 0, 5, 1, 11 + j);
        sim_all(s);
        int ok = 1;
        for (unsigned j = 0; j < 6; j++)
            ok &= flit_is(&s->tx[1][13 + L + j], 1, pkt_data(s, 1 + j, 0, 5), 1);
        check(ok, "rule 3 one-flit packets L=%u: back to back rx 10..15 out at %u..%u, no hole", L, 13 + L, 18 + L);
        ok = 1;
        for (unsigned j = 0; j < 4; j++)
            ok &= flit_is(&s->tx[1][43 + L + 2 * j], 1, pkt_data(s, 11 + j, 0, 5), 1) &&
                  flit_idle(&s->tx[1][44 + L + 2 * j]);
        check(ok && count_valid(s, 1, 1, 79) == 10 && others_idle(s, 1, 1, 79),
              "rule 3 one-flit packets L=%u: rx every other step 40, 42, 44, 46 out at %u, %u, %u, %u (not seen when "
              "reaching an emptied staging part)", L, 43 + L, 45 + L, 47 + L, 49 + L);
        sim_free(s);
    }
}

/* vcsw_reset resets the offer registers ("after reset": no offer valid, positions 0): a one-flit
 * packet on VC 0 taken at 8 moves the input's position to 1; a head is offered after step 12 (rx
 * 10); a reset after step 12, then idle inputs: nothing ever leaves (a
 * surviving offer would request its output in the first step after the reset). Then a packet on
 * VC 1 and one on VC 0 staged together leave VC 0 first (input position 0 again; it was 1). */
static void test_reset_offer(void)
{
    vcsw_params_t p = params(4, 2, 0, 0);
    sim_t *s = sim_new(&p, 60);
    set_route(s, 1, 2);
    set_vc(s, 0, 2, 0, 0);
    set_vc(s, 0, 2, 1, 1);
    put_pkt(s, 0, 5, 0, 1, 1, 9);  /* taken at 8: the input's position 1 */
    put_pkt(s, 0, 10, 0, 1, 1, 1); /* offered after 12 */
    sim_run(s, 12);
    vcsw_reset(s->m);
    for (unsigned k = 0; k < 60; k++) {
        memset(&s->rx[0][k], 0, sizeof s->rx[0][k]);
        s->we[k] = 0;
    }
    s->k = 0;
    sim_run(s, 20);
    check(others_idle(s, -1, 1, 20), "reset offer: an offer prepared before vcsw_reset never leaves");
    put_pkt(s, 0, 22, 1, 1, 1, 2); /* VC 1, staged after 23 */
    put_pkt(s, 0, 23, 0, 1, 1, 3); /* VC 0, staged after 24 */
    stop_range(s, 2, 0, 22, 23);   /* both eligible first when prepared in 25 (stop of 24 is 0) */
    stop_range(s, 2, 1, 22, 23);
    sim_all(s);
    check(flit_is(&s->tx[2][26], 0, pkt_data(s, 3, 0, 1), 1) && flit_is(&s->tx[2][27], 1, pkt_data(s, 2, 0, 1), 1),
          "reset offer: position 0 after the reset: VC 0 at 26 before VC 1 at 27");
    sim_free(s);
}

/* vcsw_params_check: defaults and range ends pass; each value past an end fails naming it. */
static void test_params(void)
{
    vcsw_params_t d = vcsw_default_params();
    check(vcsw_params_check(&d) == NULL, "params: defaults valid");
    check(d.NPORTS == 8 && d.NVC == 2 && d.CTRL == 1 && d.FLIT_W == 16 && d.TAG_W == 8 && d.DEPTH == 64 &&
              d.MAXLEN == 32 && d.LINK_DELAY == 0 && d.COUNTERS == 1 && d.CTR_WIDTH == 32,
          "params: defaults are the doc's");
    check(vcsw_stop_at(&d) == 28 && vcsw_ndvc(&d) == 1, "params: STOP_AT 64-32-0-4 = 28, NDVC 1 (got %d, %u)",
          vcsw_stop_at(&d), vcsw_ndvc(&d));
    struct {
        const char *name;
        size_t off;
        unsigned val;
        int ok;
    } cases[] = {
#define C(f, v, ok) {#f, offsetof(vcsw_params_t, f), v, ok}
        C(NPORTS, 1, 0),     C(NPORTS, 2, 1),     C(NPORTS, 16, 1),    C(NPORTS, 17, 0),    C(NPORTS, 0, 0),
        C(NVC, 1, 0),        C(NVC, 2, 1),        C(NVC, 3, 0),        C(NVC, 4, 1),        C(NVC, 6, 0),
        C(NVC, 8, 1),        C(NVC, 16, 1),       C(NVC, 32, 0),       C(NVC, 0, 0),        C(CTRL, 0, 1),
        C(CTRL, 1, 1),       C(CTRL, 2, 0),       C(FLIT_W, 8, 1),     C(FLIT_W, 7, 0),     C(FLIT_W, 32, 1),
        C(FLIT_W, 33, 0),    C(TAG_W, 0, 0),      C(TAG_W, 1, 1),      C(TAG_W, 12, 1),      C(TAG_W, 13, 0),     C(DEPTH, 4, 0),
        C(DEPTH, 48, 0),     C(DEPTH, 128, 1),    C(DEPTH, 256, 1),    C(DEPTH, 512, 0),    C(MAXLEN, 0, 0),
        C(MAXLEN, 1, 1),     C(LINK_DELAY, 65, 0), C(COUNTERS, 0, 1),  C(COUNTERS, 2, 0),   C(CTR_WIDTH, 7, 0),
        C(CTR_WIDTH, 8, 1),  C(CTR_WIDTH, 32, 1), C(CTR_WIDTH, 33, 0),
#undef C
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        vcsw_params_t p = d;
        *(unsigned *)((char *)&p + cases[i].off) = cases[i].val;
        const char *e = vcsw_params_check(&p);
        vcsw_t *m = vcsw_new(&p);
        if (cases[i].ok)
            check(e == NULL && m != NULL, "params: %s=%u accepted (got \"%s\")", cases[i].name, cases[i].val, e ? e : "");
        else
            check(e != NULL && strstr(e, cases[i].name) != NULL && m == NULL,
                  "params: %s=%u rejected with a message naming it (got \"%s\")", cases[i].name, cases[i].val,
                  e ? e : "(null)");
        vcsw_free(m);
    }
    /* joint ranges: FLIT_W >= TAG_W, MAXLEN <= DEPTH, STOP_AT >= 1 */
    {
        vcsw_params_t p = d;
        p.TAG_W = 12;
        p.FLIT_W = 11;
        const char *e = vcsw_params_check(&p);
        check(e && strstr(e, "FLIT_W"), "params: FLIT_W 11 < TAG_W 12 rejected naming FLIT_W (got \"%s\")", e ? e : "");
        p.FLIT_W = 12;
        check(vcsw_params_check(&p) == NULL, "params: TAG_W 12 FLIT_W 12 accepted");
        p = d;
        p.DEPTH = 16;
        p.MAXLEN = 17;
        e = vcsw_params_check(&p);
        check(e && strstr(e, "MAXLEN"), "params: MAXLEN 17 > DEPTH 16 rejected naming MAXLEN (got \"%s\")", e ? e : "");
        /* STOP_AT = DEPTH - MAXLEN - 2 L - 4: 64 - 32 - 2*14 - 4 = 0 refused, L 13 -> 2 accepted */
        p = d;
        p.LINK_DELAY = 14;
        e = vcsw_params_check(&p);
        check(e && strstr(e, "STOP_AT") && strstr(e, "DEPTH") && strstr(e, "MAXLEN") && strstr(e, "LINK_DELAY"),
              "params: STOP_AT 0 rejected naming STOP_AT, DEPTH, MAXLEN, LINK_DELAY (got \"%s\")", e ? e : "");
        p.LINK_DELAY = 13;
        check(vcsw_params_check(&p) == NULL && vcsw_stop_at(&p) == 2, "params: STOP_AT 2 accepted");
        p = d;
        p.DEPTH = 8;
        p.MAXLEN = 4;
        check(vcsw_params_check(&p) != NULL, "params: DEPTH 8 MAXLEN 4 (STOP_AT 0) rejected");
        p.MAXLEN = 3;
        check(vcsw_params_check(&p) == NULL, "params: DEPTH 8 MAXLEN 3 (STOP_AT 1) accepted");
        check(vcsw_params_check(NULL) != NULL && vcsw_new(NULL) == NULL, "params: NULL rejected");
    }
    check(strcmp(vcsw_counter_name(VCSW_CTR_OVERFLOW), "overflow") == 0 &&
              strcmp(vcsw_counter_name(VCSW_CTR_RX_FLITS), "rx_flits") == 0 && strcmp(vcsw_counter_name(8), "?") == 0,
          "params: counter names");
}

/* ================================================================ quiet / skip (network simulators) */

/* every output of a step idle: tx flits all-zero, rx_stop 0, nothing answered */
static int out_idle(const vcsw_out_t *o)
{
    for (unsigned p = 0; p < VCSW_MAX_PORTS; p++)
        if (!flit_idle(&o->tx[p]) || o->rx_stop[p])
            return 0;
    return !o->cfg_rvalid && !o->cfg_rdata;
}

static int out_same(const vcsw_out_t *a, const vcsw_out_t *b)
{
    for (unsigned p = 0; p < VCSW_MAX_PORTS; p++)
        if (a->tx[p].valid != b->tx[p].valid || a->tx[p].vc != b->tx[p].vc || a->tx[p].tail != b->tx[p].tail ||
            a->tx[p].data != b->tx[p].data || a->rx_stop[p] != b->rx_stop[p])
            return 0;
    return a->cfg_rvalid == b->cfg_rvalid && a->cfg_rdata == b->cfg_rdata;
}

/* the inputs of a step idle as the fabric defines it: no rx flit, tx_stop 0, no configuration request */
static int in_idle(const vcsw_in_t *in)
{
    if (in->cfg_we || in->cfg_re)
        return 0;
    for (unsigned p = 0; p < VCSW_MAX_PORTS; p++)
        if (in->rx[p].valid || in->tx_stop[p])
            return 0;
    return 1;
}

/* the lockstep of a model a stepped every step and a model b that, like the fabric, is not stepped in
 * a step whose inputs are idle while vcsw_quiet(b) holds (from the step it held on) and is brought up
 * by vcsw_skip() before its next real step, and sometimes in the middle of a quiet stretch */
typedef struct {
    vcsw_t *a, *b;
    uint64_t pending;         /* idle steps b has not been stepped for yet */
    unsigned long skipped;    /* steps b skipped */
    unsigned long skips;      /* vcsw_skip calls with n > 0 */
    unsigned long long nmax;  /* longest skip */
    unsigned bad_out, bad_idle, bad_state; /* first step: outputs differ, a not idle while b skipped, state differs */
} qpair_t;

static void qfail(unsigned *at, unsigned k)
{
    if (!*at)
        *at = k;
}

/* b catches up on its pending idle steps; its state must then be a's (a at the same step) */
static void qpair_catch_up(qpair_t *q, unsigned k)
{
    if (!q->pending)
        return;
    vcsw_skip(q->b, q->pending);
    q->skips++;
    if (q->pending > q->nmax)
        q->nmax = q->pending;
    q->pending = 0;
    if (!vcsw_state_equal(q->a, q->b))
        qfail(&q->bad_state, k);
}

/* step k of both; oa receives a's outputs; 1 if b was stepped. flush: after a skipped step, skip b up
 * to a now (a skip in the middle of a quiet stretch). */
static int qpair_step(qpair_t *q, unsigned k, const vcsw_in_t *in, vcsw_out_t *oa, int flush)
{
    vcsw_out_t ob;
    int stepped = 1;
    if (in_idle(in) && (q->pending || vcsw_quiet(q->b))) {
        q->pending++;
        q->skipped++;
        stepped = 0;
    } else {
        qpair_catch_up(q, k - 1);
        vcsw_step(q->b, in, &ob);
    }
    vcsw_step(q->a, in, oa);
    if (stepped && !out_same(oa, &ob))
        qfail(&q->bad_out, k);
    if (!stepped && !out_idle(oa))
        qfail(&q->bad_idle, k);
    if (!stepped && flush)
        qpair_catch_up(q, k);
    return stepped;
}

/* One directed scene: a 3-flit packet from input 0 VC 0 to output 1 VC 0 received from step 4 + e (its
 * last tx events in the steps just before the switch turns quiet), then idle inputs, and a read of
 * counter (port, vc, ctr) at step rd_at; b skips its quiet steps up to the read. Clears *out_ok if the outputs differ (the
 * answer not in the same step with the same value), *state_ok if the states differ after a skip or at
 * the end. */
static void quiet_read_scene(const vcsw_params_t *p, unsigned e, unsigned rd_at, unsigned port, unsigned vc,
                             unsigned ctr, unsigned long *skipped, int *out_ok, int *state_ok)
{
    qpair_t q;
    memset(&q, 0, sizeof q);
    q.a = vcsw_new(p);
    q.b = vcsw_new(p);
    if (!q.a || !q.b)
        abort();
    const unsigned NS = VCSW_NCTR * p->NVC * p->NPORTS;
    for (unsigned k = 1; k <= rd_at + NS + 10; k++) {
        vcsw_in_t in;
        vcsw_out_t oa;
        memset(&in, 0, sizeof in);
        if (k == 1 || k == 2) {
            in.cfg_we = 1;
            in.cfg_addr = k == 1 ? VCSW_CFG_ADDR(VCSW_SPACE_ROUTE, 1) : VCSW_CFG_ADDR(VCSW_SPACE_VC, VCSW_VC_INDEX(0, 1, 0));
            in.cfg_wdata = k == 1 ? VCSW_ENTRY(1, 1) : VCSW_ENTRY(1, 0);
        }
        if (k >= 4 + e && k <= 6 + e) {
            in.rx[0].valid = 1;
            in.rx[0].tail = k == 6 + e;
            in.rx[0].data = k == 4 + e ? 0x101u : 0x200u + k;
        }
        if (k == rd_at) {
            in.cfg_re = 1;
            in.cfg_addr = VCSW_CFG_ADDR(VCSW_SPACE_CTR, VCSW_CTR_INDEX(port, vc, ctr));
        }
        qpair_step(&q, k, &in, &oa, 0);
    }
    qpair_catch_up(&q, rd_at + NS + 10);
    *skipped += q.skipped;
    *out_ok &= !q.bad_out && !q.bad_idle;
    *state_ok &= !q.bad_state && vcsw_state_equal(q.a, q.b);
    vcsw_free(q.a);
    vcsw_free(q.b);
}

/* vcsw_quiet/vcsw_skip (for the network fabric, which does not step a quiet switch while its inputs are
 * idle): a model b that skips such steps and catches up with vcsw_skip() equals a model a stepped every
 * step: the same outputs in every step b is stepped (a's all idle in the steps b skipped), the same
 * state after every skip (vcsw_state_equal), the same counters, occupancies and counter reads. Traffic:
 * bursts of random packets (senders obeying Go & Stop, some heads with invalid routes or VC entries,
 * tx_stop toggling, configuration reads and rewrites) separated by idle stretches of random length;
 * a burst ends with packets half sent (their senders stall until the next burst) and often with a
 * counter read outstanding. Also checked on a directly, from outside: quiet only with every buffer
 * empty and no flit in the input register; a quiet model stays quiet with idle outputs over idle
 * steps; after the last packets, quiet exactly from the step the last flit is on tx (the step after,
 * with LINK_DELAY 0), the last flit received is processed and the last read answered. This compares
 * the model with itself, not with the doc. */
static void test_quiet_skip(void)
{
    static const struct {
        unsigned n, nvc, ctrl, L, depth, maxlen, ctrs, w;
    } cs[] = {{4, 2, 1, 0, 32, 8, 1, 8},  {3, 4, 0, 3, 32, 6, 1, 32},  {5, 4, 1, 2, 64, 16, 0, 32},
              {2, 2, 0, 1, 16, 4, 1, 9},  {6, 2, 0, 5, 32, 8, 1, 12},  {4, 4, 0, 0, 16, 3, 1, 8},
              {3, 2, 1, 2, 16, 6, 1, 10}};
    for (unsigned c = 0; c < sizeof cs / sizeof cs[0]; c++) {
        vcsw_params_t p = params(cs[c].n, cs[c].nvc, cs[c].ctrl, cs[c].L);
        p.DEPTH = cs[c].depth;
        p.MAXLEN = cs[c].maxlen;
        p.COUNTERS = cs[c].ctrs;
        p.CTR_WIDTH = cs[c].w;
        p.TAG_W = 4;
        const unsigned N = p.NPORTS, V = p.NVC, L = p.LINK_DELAY, ndvc = vcsw_ndvc(&p);
        const unsigned run = 60000, drain = 4000, H = 128; /* H: rx_stop history (> L + 3) */
        qpair_t q;
        memset(&q, 0, sizeof q);
        q.a = vcsw_new(&p);
        q.b = vcsw_new(&p);
        if (!q.a || !q.b)
            abort();
        rng_t r;
        rng_seed(&r, 777 + c);

        /* tables: tags 0..11 to port (5t+1) mod N, 12..15 never written (drop_route); VC entries
         * (i, o, d) -> (i + o + d) mod NDVC, invalid where i + o + d = 6 mod 7 (drop_vc) */
        uint16_t taddr[16 + VCSW_MAX_PORTS * VCSW_MAX_PORTS * VCSW_MAX_VCS], twd[sizeof taddr / sizeof taddr[0]];
        unsigned nt = 0;
        for (unsigned t = 0; t < 12; t++) {
            taddr[nt] = VCSW_CFG_ADDR(VCSW_SPACE_ROUTE, t);
            twd[nt++] = VCSW_ENTRY(1, (5 * t + 1) % N);
        }
        for (unsigned i = 0; i < N; i++)
            for (unsigned o = 0; o < N; o++)
                for (unsigned d = 0; d < ndvc; d++) {
                    taddr[nt] = VCSW_CFG_ADDR(VCSW_SPACE_VC, VCSW_VC_INDEX(i, o, d));
                    twd[nt++] = (i + o + d) % 7 == 6 ? 0 : VCSW_ENTRY(1, (i + o + d) % ndvc);
                }

        unsigned left[VCSW_MAX_PORTS][VCSW_MAX_VCS];
        memset(left, 0, sizeof left);
        uint16_t stop[VCSW_MAX_PORTS] = {0};
        uint16_t (*rs)[VCSW_MAX_PORTS] = xcalloc(H, sizeof *rs); /* a's rx_stop, step k at k % H */
        uint8_t *qa = xcalloc(run + V * p.MAXLEN + drain + 2, 1);  /* vcsw_quiet(a) after step k */
        int burst = 0, finishing = 0, q_prev = 0;
        unsigned phase_left = 0, fs = 0, end = 0, t_last = 0, r_last = 0, a_last = 0;
        unsigned bad_flight = 0, bad_stable = 0, bad_qeq = 0, stretches = 0, quiet_stretches = 0;
        unsigned long quiet_stalled = 0, idle_answers = 0, rd_issued = 0, txf = 0;
        /* a burst's last `wind` steps start no new packet but on input `staller` (N: none); wind 0: it ends
         * with packets half sent everywhere */
        unsigned wind = 0, staller = 0;
        for (unsigned k = 1;; k++) {
            vcsw_in_t in;
            vcsw_out_t oa;
            memset(&in, 0, sizeof in);
            const int last_burst_step = burst && phase_left == 1;
            if (k <= nt) { /* the tables, one write per step */
                in.cfg_we = 1;
                in.cfg_addr = taddr[k - 1];
                in.cfg_wdata = twd[k - 1];
            } else if (k <= run) {
                if (!phase_left) { /* next phase: a burst or an idle stretch */
                    burst = !burst;
                    const unsigned x = rng_below(&r, 100);
                    if (burst) {
                        phase_left = x < 20 ? 1 + rng_below(&r, 4) : 10 + rng_below(&r, 300);
                        const unsigned y = rng_below(&r, 100); /* 30 %: every sender stalls mid-packet */
                        wind = y < 30 ? 0 : 2 * p.MAXLEN * V + 20;
                        staller = y < 65 ? N : rng_below(&r, N); /* 35 %: only one sender stalls */
                        if (rng_pct(&r, 50))
                            memset(stop, 0, sizeof stop);
                    } else {
                        stretches++;
                        phase_left = x < 50 ? 1 + rng_below(&r, 12) : x < 85 ? 20 + rng_below(&r, 400) : 500 + rng_below(&r, 1500);
                    }
                    if (burst && rng_pct(&r, 40)) { /* a counter read in the first step after an idle stretch */
                        in.cfg_re = 1;
                        in.cfg_addr = VCSW_CFG_ADDR(VCSW_SPACE_CTR, VCSW_CTR_INDEX(rng_below(&r, N), rng_below(&r, V),
                                                                                   rng_below(&r, VCSW_NCTR)));
                    }
                }
                phase_left--;
                if (burst) {
                    for (unsigned o = 0; o < N; o++) {
                        if (rng_pct(&r, 3))
                            stop[o] ^= (uint16_t)(1u << rng_below(&r, V));
                        in.tx_stop[o] = stop[o];
                    }
                    for (unsigned i = 0; i < N; i++) {
                        if (!rng_pct(&r, 65))
                            continue;
                        unsigned v = rng_below(&r, V);
                        if (phase_left < wind && i != staller) { /* winding down: only packets started */
                            unsigned open = 0;
                            for (unsigned w = 0; w < V; w++)
                                open |= (left[i][w] != 0) << w;
                            if (!open)
                                continue;
                            while (!(open >> v & 1u))
                                v = (v + 1) % V;
                        }
                        if (!left[i][v]) { /* a new packet only on GO (the bit of step k-L-3, as in test_random) */
                            if (k < L + 4 + nt || (rs[(k - L - 3) % H][i] >> v & 1u))
                                continue;
                            left[i][v] = 1 + rng_below(&r, p.MAXLEN);
                            in.rx[i].data = (uint32_t)(rng_next(&r) & 0xFFF0u) | rng_below(&r, 16); /* tag */
                        } else {
                            in.rx[i].data = (uint32_t)rng_next(&r) & 0xFFFFu;
                        }
                        in.rx[i].valid = 1;
                        in.rx[i].vc = (uint8_t)v;
                        in.rx[i].tail = --left[i][v] == 0;
                    }
                    if (!in.cfg_re && (rng_pct(&r, 2) || (last_burst_step && rng_pct(&r, 60)))) {
                        in.cfg_re = 1; /* mostly counters; a burst's last step: a read outstanding into the stretch */
                        const unsigned x = rng_below(&r, 100);
                        in.cfg_addr = x < 85 || last_burst_step
                                          ? VCSW_CFG_ADDR(VCSW_SPACE_CTR, VCSW_CTR_INDEX(rng_below(&r, N), rng_below(&r, V),
                                                                                         rng_below(&r, VCSW_NCTR)))
                                      : x < 95 ? taddr[rng_below(&r, nt)]
                                               : (uint16_t)rng_next(&r);
                    } else if (!in.cfg_re && rng_pct(&r, 1)) { /* a table entry written again */
                        const unsigned e = rng_below(&r, nt);
                        in.cfg_we = 1;
                        in.cfg_addr = taddr[e];
                        in.cfg_wdata = twd[e];
                    }
                }
            } else if (!end) { /* finish every packet (one flit per input and step), then drain */
                if (!finishing) {
                    finishing = 1;
                    fs = k;
                }
                int any = 0;
                for (unsigned i = 0; i < N; i++)
                    for (unsigned v = 0; v < V; v++)
                        if (left[i][v]) {
                            in.rx[i].valid = 1;
                            in.rx[i].vc = (uint8_t)v;
                            in.rx[i].data = (uint32_t)rng_next(&r) & 0xFFFFu;
                            in.rx[i].tail = --left[i][v] == 0;
                            any = 1;
                            break;
                        }
                if (!any)
                    end = k + drain;
            }
            if (in.cfg_re)
                rd_issued++;
            int any_rx = 0;
            for (unsigned i = 0; i < N; i++)
                any_rx |= in.rx[i].valid;
            const int idle = in_idle(&in);
            const int stepped = qpair_step(&q, k, &in, &oa, rng_pct(&r, 6));
            for (unsigned i = 0; i < N; i++)
                rs[k % H][i] = oa.rx_stop[i];

            /* a, from outside */
            const int qn = vcsw_quiet(q.a);
            qa[k] = (uint8_t)qn;
            unsigned occ = 0;
            for (unsigned i = 0; i < N; i++)
                for (unsigned v = 0; v < V; v++)
                    occ += vcsw_occupancy(q.a, i, v);
            if (qn && (occ || any_rx)) /* a flit in a buffer or in the input register */
                qfail(&bad_flight, k);
            if (q_prev && idle && (!qn || !out_idle(&oa))) /* quiet, idle inputs: quiet again, idle outputs */
                qfail(&bad_stable, k);
            if (stepped && qn != vcsw_quiet(q.b))
                qfail(&bad_qeq, k);
            if (qn && !q_prev && !burst && !finishing) {
                quiet_stretches++;
                int half = 0;
                for (unsigned i = 0; i < N; i++)
                    for (unsigned v = 0; v < V; v++)
                        half |= left[i][v] != 0;
                quiet_stalled += half;
            }
            q_prev = qn;
            for (unsigned o = 0; o < N; o++)
                if (oa.tx[o].valid) {
                    t_last = k;
                    txf++;
                }
            if (any_rx)
                r_last = k;
            if (oa.cfg_rvalid) {
                a_last = k;
                idle_answers += !burst && k > nt;
            }
            if (end && k == end)
                break;
        }
        qpair_catch_up(&q, end);
        free(rs);

        /* the drain: quiet exactly from max(t_last + (L == 0), r_last + 1, a_last) */
        unsigned from = t_last + (L == 0);
        if (r_last + 1 > from)
            from = r_last + 1;
        if (a_last > from)
            from = a_last;
        unsigned bad_drain = 0;
        for (unsigned k = fs + 1; k <= end; k++)
            if (qa[k] != (k >= from))
                qfail(&bad_drain, k);
        free(qa);

        int same = vcsw_steps(q.a) == end && vcsw_steps(q.b) == end && vcsw_state_equal(q.a, q.b);
        for (unsigned i = 0; i < N; i++)
            for (unsigned v = 0; v < V; v++) {
                same &= vcsw_occupancy(q.a, i, v) == vcsw_occupancy(q.b, i, v);
                for (unsigned ct = 0; ct < VCSW_NCTR; ct++)
                    same &= vcsw_counter(q.a, i, v, ct) == vcsw_counter(q.b, i, v, ct);
            }
        check(!q.bad_out && !q.bad_idle && !q.bad_state && same,
              "quiet/skip %s: b skipping equals a: outputs %s (first at %u), a idle while b skipped %s (first at %u), "
              "state after every skip %s (first at %u), end state/counters/occupancies %s; %lu steps skipped in %lu "
              "skips (longest %llu)",
              pstr(&p), q.bad_out ? "differ" : "equal", q.bad_out, q.bad_idle ? "no" : "yes", q.bad_idle,
              q.bad_state ? "differs" : "equal", q.bad_state, same ? "equal" : "differ", q.skipped, q.skips, q.nmax);
        check(!bad_flight && !bad_stable && !bad_qeq,
              "quiet/skip %s: quiet never with a flit in a buffer or the input register (first at %u), stays with "
              "idle outputs over idle steps (first break at %u), the same in a and b (first difference at %u)",
              pstr(&p), bad_flight, bad_stable, bad_qeq);
        check(!bad_drain && end > from + 100,
              "quiet/skip %s: after the last packets quiet exactly from step %u = max(last tx flit %u%s, last rx %u + 1, "
              "last answer %u) (first wrong at %u)",
              pstr(&p), from, t_last, L == 0 ? " + 1" : "", r_last, a_last, bad_drain);
        check(q.skipped > 10000 && q.skips > 400 && quiet_stretches > 30 && quiet_stalled > 5 && idle_answers > 20 &&
                  txf > 5000,
              "quiet/skip %s: the run covers it: %u of %u idle stretches turned quiet, %lu of them with a packet half "
              "sent, %lu reads answered in idle stretches (%lu issued), %lu flits sent, %lu steps skipped in %lu skips",
              pstr(&p), quiet_stretches, stretches, quiet_stalled, idle_answers, rd_issued, txf, q.skipped, q.skips);
        vcsw_free(q.a);
        vcsw_free(q.b);
    }

    /* a counter read right after a skip: its flush must not count events the skip should have moved out
     * of the schedule's window (the tx and rx counters of the packet, sent at 4 offsets modulo the window
     * CTR_SCHED_LAG = 4, read at every offset of the schedule: NS is a multiple of 4, so the read's offset
     * alone does not move the events within the window) */
    for (unsigned L = 0; L <= 2; L += 2) {
        vcsw_params_t p = params(2, 2, 0, L);
        const unsigned NS = VCSW_NCTR * p.NVC * p.NPORTS;
        static const unsigned slot[4][3] = {{0, 0, VCSW_CTR_RX_FLITS}, {0, 0, VCSW_CTR_RX_PKTS},
                                            {1, 0, VCSW_CTR_TX_FLITS}, {1, 0, VCSW_CTR_TX_PKTS}};
        int out_ok = 1, state_ok = 1;
        unsigned long skipped = 0;
        for (unsigned s = 0; s < 4; s++)
            for (unsigned e = 0; e < 4; e++)
                for (unsigned d = 0; d < NS + 4; d++)
                    quiet_read_scene(&p, e, 30 + d, slot[s][0], slot[s][1], slot[s][2], &skipped, &out_ok, &state_ok);
        check(out_ok && skipped > 1000,
              "quiet/skip LINK_DELAY=%u: a counter read right after skipped steps answers as without skipping (every "
              "offset of the schedule; %lu steps skipped)",
              L, skipped);
        check(state_ok, "quiet/skip LINK_DELAY=%u: the read scenes' states equal after every skip", L);
    }
}

static const unit_test_t tests[] = {
    {"params", test_params},
    {"diagram", test_diagram},
    {"latency", test_latency},
    {"rule3_diagram_steps", test_rule3_diagram_steps},
    {"rule3_stream", test_rule3_stream},
    {"rule3_contention", test_rule3_contention},
    {"rule3_stop_rise", test_rule3_stop_rise},
    {"rule3_single_flits", test_rule3_single_flits},
    {"reset_offer", test_reset_offer},
    {"ownership", test_ownership},
    {"stop_bit", test_stop_bit},
    {"interleave", test_interleave},
    {"blocked_vc", test_blocked_vc},
    {"rx_stop", test_rx_stop},
    {"obeying_sender", test_obeying_sender},
    {"admission", test_admission},
    {"maxlen", test_maxlen},
    {"trunc_at_full", test_trunc_at_full},
    {"drops", test_drops},
    {"ctrl_vcs", test_ctrl_vcs},
    {"write_timing", test_write_timing},
    {"cfg", test_cfg},
    {"counters", test_counters},
    {"ram_read", test_ram_read},
    {"alloc_rr", test_alloc_rr},
    {"input_rr", test_input_rr},
    {"starvation", test_starvation},
    {"blocked_release", test_blocked_release},
    {"permutation", test_permutation},
    {"random", test_random},
    {"event_steps", test_event_steps},
    {"stress", test_stress},
    {"port_widths", test_port_widths},
    {"reset", test_reset},
    {"reset_keeps_tables", test_reset_keeps_tables},
    {"quiet_skip", test_quiet_skip},
};

int main(int argc, char **argv)
{
    static const unit_suite_t suite = {"vcsw_unit", "Unit tests of the VC switch C model (cmodel/vcsw.c) against docs/vcsw.md.",
                                       tests, sizeof tests / sizeof tests[0], NULL, 0, NULL};
    return unit_main(&suite, argc, argv);
}

/* sanfab — vcsw_unit: rule 3 (pipelined allocation) step by step, offers at reset, parameter checks
 * (run from the table of vcsw_unit.c; the helpers they call are in vcsw_unit_sim.c). */
#include "vcsw_unit.h"

/* ================================================================ rule 3 (pipelined allocation) */

/* Rule 3 and "Latency and throughput": the doc's timing diagram step by step, LINK_DELAY 0 and 5. A
 * 3-flit packet rx at k, k+1, k+2 from input 1 VC 0 to output 4 VC 1: admitted k+1, k+2, k+3 (the
 * staging row H / H B / B T / T / -, i.e. occupancy 1, 2, 2, 1, 0 after k+1..k+5); offers H (after
 * k+2), B (after k+3: S_v[1] when H is taken), T; transmit register H, B, T after k+3, k+4, k+5; on
 * tx_* LINK_DELAY steps later and idle in every other step. */
void test_rule3_diagram_steps(void)
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
void test_rule3_stream(void)
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
void test_rule3_contention(void)
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
void test_rule3_stop_rise(void)
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
void test_rule3_single_flits(void)
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
void test_reset_offer(void)
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
void test_params(void)
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

/* sanfab — vcsw_unit: the diagram, latency, ownership and handover, Go & Stop both ways, VC interleaving
 * (run from the table of vcsw_unit.c; the helpers they call are in vcsw_unit_sim.c). */
#include "vcsw_unit.h"

/* ================================================================ tests */

/* The doc's timing diagram (rule 3 pipelined): LINK_DELAY 0, a 3-flit packet from input 1 VC 0 to
 * output 4 VC 1: rx at k, k+1, k+2; H admitted k+1, offered after k+2, taken k+3; tx H, B, T at k+3,
 * k+4, k+5; the output VC free, free, free, owned, owned, free (k..k+5). A second packet from input 2
 * to the same output VC, head received at k+1: admitted k+2; offered after k+3 (VC free after k+2,
 * rule 3.3); in k+4 its request fails (VC owned after k+3, rule 3.1); not eligible while the VC is
 * owned after k+3, k+4 (rule 3.3); T taken k+5 frees it after k+5; offered after k+6, taken k+7:
 * tx H' k+7, B' k+8 (k+6 idle). */
void test_diagram(void)
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
void test_latency(void)
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
void test_ownership(void)
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
void test_stop_bit(void)
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
void test_interleave(void)
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
void test_blocked_vc(void)
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
void test_rx_stop(void)
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
void test_obeying_sender(void)
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

/* sanfab — vcsw_unit: admission at a full buffer, MAXLEN cuts, table drops, control VCs
 * (run from the table of vcsw_unit.c; the helpers they call are in vcsw_unit_sim.c). */
#include "vcsw_unit.h"

/* Admission at DEPTH-2, DEPTH-1, DEPTH (sender ignores STOP; the output VC stopped while filling). */
void test_admission(void)
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
void test_trunc_at_full(void)
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
void test_maxlen(void)
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
void test_drops(void)
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
void test_ctrl_vcs(void)
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

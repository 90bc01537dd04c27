/* sanfab — sbox_unit: transit through an idle box, unicast, multicast, drops, Type1 with PC < 2
 * (run from the table of sbox_unit.c; the helpers they call are in sbox_unit_fab.c). */
#include "sbox_unit.h"

/* ================================================================ transit through an idle box */

/* One Type0 message node 0 -> node 2 (channel ch) through a 4-port box. t = the step in which box
 * MLC 0 accepts the unit (its rx_pkts counts). Doc: RD0 t+1, RD1 t+2, analyse t+3, act t+4 (msgs),
 * PUT0 t+5 .. MOV7 t+12 (words 1..8 after t+5..t+12), writes t+6..t+13. variant: which register
 * is read in every step (0: box counter words, 1: MLC 2 tx_space, 2: MLC 0 rx_avail). Returns the
 * offset (from t) of the first box port-2 frame start after t, and checks the NP of every frame. */
static int transit_run(unsigned lw, unsigned turn2, unsigned delay, unsigned variant, unsigned ch, int *hit)
{
    sbox_params_t bp = bparams(4, 4);
    bp.LINK_W = lw;
    bp.FIFO_BYTES = 512;
    fab_t *F = fab_new(1, &bp);
    for (unsigned q = 0; q < 4; q++) {
        mlc_params_t np = nparams(&bp);
        if (q == 2)
            np.TURN = turn2; /* node 2's TURN moves the phase of port 2's frames */
        fab_node(F, 0, q, &np);
    }
    for (unsigned d = 0; d < 4; d++)
        fab_route(F, 0, d, d);
    fab_run(F, delay);
    mlc_msg_t m = mk_msg(0, 0, 2, 0, 0, 0, 7);
    send(F, 0, ch, &m);
    enum { N = 400 };
    uint64_t words[N], msgs[N], rdv[N + 2], rdd[N + 2];
    memset(rdv, 0, sizeof rdv);
    memset(rdd, 0, sizeof rdd);
    uint64_t t = 0, k0 = F->k, frames[16], nps[16];
    unsigned nf = 0;
    unsigned addr = variant == 0 ? SBOX_REG_CTR(SBOX_CTR_WORDS)
                  : variant == 1 ? SBOX_REG_MLC(2, MLC_REG_TX_SPACE(ch)) : SBOX_REG_MLC(0, MLC_REG_RX_AVAIL(ch));
    for (unsigned i = 0; i < N; i++) {
        F->breg[0].reg_rd = 1;
        F->breg[0].reg_addr = (uint16_t)addr;
        fab_step(F);
        words[i] = ctr(F, 0, SBOX_CTR_WORDS);
        msgs[i] = ctr(F, 0, SBOX_CTR_MSGS);
        rdv[i] = F->bout[0].reg_rvalid;
        rdd[i] = F->bout[0].reg_rdata;
        if (!t && mlc_counter(sbox_mlc(F->box[0], 0), MLC_CTR_RX_PKTS) == 1)
            t = F->k;
        if (F->bout[0].tx_en[2] && !F->bprev[0][2] && t && nf < 16) {
            frames[nf] = F->k;
            nps[nf] = F->bout[0].tx_d[2] & 15u;
            nf++;
        }
    }
    int first = -1;
    int ok = t > k0;
    if (ok) {
        unsigned ti = (unsigned)(t - k0 - 1); /* index of step t in the arrays (index i = step k0+1+i) */
        /* counters after each step, by hand */
        for (unsigned j = 0; j <= 14 && ti + j < N; j++) {
            uint64_t ew = j < 5 ? 0 : j <= 12 ? j - 4 : 8;
            uint64_t em = j < 4 ? 0 : 1;
            ok &= check(words[ti + j] == ew && msgs[ti + j] == em,
                        "transit LINK_W %u ch %u: after t+%u words %" PRIu64 " (want %" PRIu64 "), msgs %" PRIu64 " (want %" PRIu64 ")",
                        lw, ch, j, words[ti + j], ew, msgs[ti + j], em);
        }
        /* register port: the read of step r (index i) answers after r+1 (index i+1) with the value after r-1 (i-1) */
        for (unsigned j = 0; j <= 13; j++) {
            unsigned i = ti + j; /* value after step t+j, answered after step t+j+2 */
            uint64_t e;
            if (variant == 0)
                e = words[i];
            else if (variant == 1)
                e = 512 - 2 * (j < 5 ? 0 : j - 5 > 8 ? 8 : j - 5);
            else
                e = j == 0 ? 16 : j == 1 ? 14 : j <= 6 ? 12 : j >= 12 ? 0 : 2 * (12 - j);
            if (i + 2 < N)
                ok &= check(rdv[i + 2] == 1 && rdd[i + 2] == e,
                            "transit variant %u: value after t+%u read through the register port = %" PRIu64 " (want %" PRIu64 ")",
                            variant, j, rdd[i + 2], e);
        }
        for (unsigned f = 0; f < nf; f++) {
            int off = (int)(frames[f] - t);
            if (off <= 0)
                continue;
            if (first < 0)
                first = off;
            if (off <= 13)
                ok &= check(nps[f] == 0, "transit: a frame of port 2 starting at t+%d carries nothing (NP %" PRIu64 ")", off, nps[f]);
            else {
                ok &= check(nps[f] == 1, "transit: the first frame of port 2 starting at t+%d >= t+14 carries the unit (NP %" PRIu64 ")",
                            off, nps[f]);
                break;
            }
        }
        for (unsigned f = 0; f < nf; f++) {
            hit[0] |= frames[f] == t + 13;
            hit[1] |= frames[f] == t + 14;
        }
    }
    check(ok, "transit LINK_W %u node-2 TURN %u delay %u variant %u ch %u: t = %" PRIu64, lw, turn2, delay, variant, ch, t);
    check(run_until_got(F, 2, 1, 3000) && got_eq(F, 2, ch, &m, NULL), "transit: node 2 gets the message");
    check(F->got[1].n == 0 && F->got[3].n == 0 && F->got[0].n == 0, "transit: nobody else does");
    mlc_msg_free(&m);
    fab_free(F);
    return first;
}

void test_transit(void)
{
    int hit[2] = {0, 0};
    unsigned runs = 0;
    for (unsigned lw = 4; lw <= 8; lw += 4)
        for (unsigned turn2 = 0; turn2 < 16; turn2++)
            for (unsigned delay = 0; delay < 4; delay++, runs++)
                transit_run(lw, turn2, delay * 5, runs % 3, (runs / 3) % 2, hit);
    check(hit[0] && hit[1], "transit: the sweep saw port-2 frames start at t+13 (empty) and t+14 (carrying) (%d %d)",
          hit[0], hit[1]);
}

/* ================================================================ unicast, multicast, drops */

void test_routes(void)
{
    sbox_params_t bp = bparams(4, 8);
    fab_t *F = star(bp); /* entries 0..3 -> ports 0..3; 4..7 invalid */
    mlc_msg_t a = mk_msg(0, 0, 3, 0, 0, 0, 1);
    send(F, 0, 0, &a);
    check(run_until_got(F, 3, 1, 2000) && got_eq(F, 3, 0, &a, NULL), "routes: unicast 0 -> 3");
    fab_run(F, 200);
    check(F->got[0].n + F->got[1].n + F->got[2].n == 0, "routes: unicast reaches only its destination");
    check(ctr(F, 0, SBOX_CTR_MSGS) == 1 && ctr(F, 0, SBOX_CTR_MCAST) == 0 && ctr(F, 0, SBOX_CTR_WORDS) == 8,
          "routes: msgs 1, mcast 0, words 8");
    /* multicast from node 1 to nodes 0..3 on channel 1, Type1 of 100 bytes = 7 units = 56 words */
    mlc_msg_t b = mk_msg(1, 0, 255, 0x000F, 1, 100, 2);
    send(F, 1, 1, &b);
    int ok = 1;
    static const unsigned to[] = {0, 2, 3};
    for (unsigned i = 0; i < 3; i++)
        ok &= run_until_got(F, to[i], 1, 4000) && got_eq(F, to[i], 1, &b, NULL);
    check(ok, "routes: multicast 1 -> {0,2,3} on channel 1, each whole");
    fab_run(F, 300);
    check(F->got[1].n == 0, "routes: the sender gets no copy of its multicast");
    check(ctr(F, 0, SBOX_CTR_MSGS) == 2 && ctr(F, 0, SBOX_CTR_MCAST) == 1 && ctr(F, 0, SBOX_CTR_WORDS) == 8 + 56,
          "routes: multicast counted once: msgs 2, mcast 1, words 64 (%" PRIu64 ")", ctr(F, 0, SBOX_CTR_WORDS));
    /* drops: each followed on the same channel by a good message that must arrive intact */
    mlc_msg_t d[6];
    d[0] = mk_msg(1, 0, 4, 0, 0, 600, 3);         /* invalid entry, Type1 of 39 units: read whole */
    d[1] = mk_msg(0, 0, 20, 0, 0, 0, 4);          /* DST >= NODES */
    d[2] = mk_msg(0, 0, 255, 0x00F0, 0, 0, 5);    /* multicast to invalid entries only */
    d[3] = mk_msg(1, 1, 255, 0x0001, 0, 40, 6);   /* multicast only to its own port */
    d[4] = mk_msg(0, 0, 0, 0, 0, 0, 7);           /* unicast to its own port */
    d[5] = mk_msg(1, 0, 254, 0xFFFF, 0, 300, 8);  /* DST 254 >= NODES */
    mlc_msg_t g = mk_msg(1, 0, 2, 0, 0, 50, 9);
    for (unsigned i = 0; i < 6; i++) {
        send(F, 0, 0, &d[i]);
        send(F, 0, 0, &g);
    }
    ok = 1;
    for (unsigned i = 0; i < 6; i++)
        ok &= run_until_got(F, 2, 1, 6000) && got_eq(F, 2, 0, &g, NULL);
    check(ok, "routes: every message after a dropped one arrives whole");
    fab_run(F, 500);
    check(F->got[0].n + F->got[1].n + F->got[2].n + F->got[3].n == 0, "routes: dropped messages reach nobody");
    /* g: Type1 of 50 bytes = 2 + 2 = 4 units = 32 words */
    check(ctr(F, 0, SBOX_CTR_DROP_ROUTE) == 6 && ctr(F, 0, SBOX_CTR_MSGS) == 8 && ctr(F, 0, SBOX_CTR_WORDS) == 64 + 6 * 32,
          "routes: drop_route 6, msgs 8, words 256 (%" PRIu64 " %" PRIu64 " %" PRIu64 ")", ctr(F, 0, SBOX_CTR_DROP_ROUTE),
          ctr(F, 0, SBOX_CTR_MSGS), ctr(F, 0, SBOX_CTR_WORDS));
    check(fab_rd(F, 0, SBOX_REG_MLC(0, MLC_REG_RX_AVAIL(0))) == 0, "routes: the source FIFO is empty after the drops");
    check(no_over_under(F), "routes: no wr_over / rd_under");
    for (unsigned i = 0; i < 6; i++)
        mlc_msg_free(&d[i]);
    mlc_msg_free(&a);
    mlc_msg_free(&b);
    mlc_msg_free(&g);
    fab_free(F);
}

/* ================================================================ Type1 with PC < 2 */

void test_pc(void)
{
    sbox_params_t bp = bparams(4, 4);
    fab_t *F = star(bp);
    /* Type1 messages of 2 units whose PC says 0 and 1: taken as 2 (16 words each), err_msg each;
     * one with PC 1 to an invalid destination: dropped after 16 words; then good ones */
    mlc_msg_t a = mk_msg(1, 0, 1, 0, 0, 20, 1), b = mk_msg(1, 0, 1, 0, 0, 23, 2), c = mk_msg(1, 0, 3, 0, 0, 10, 3);
    mlc_msg_t x = mk_msg(1, 0, 1, 0, 0, 70, 4), y = mk_msg(0, 0, 1, 0, 0, 0, 5);
    send_raw(F, 0, 1, &a, 0);
    send_raw(F, 0, 1, &b, 1);
    fab_wr(F, 0, SBOX_REG_TABLE(3), 0); /* entry 3 invalid */
    send_raw(F, 0, 1, &c, 1);
    send_raw(F, 0, 1, &x, -1);
    send_raw(F, 0, 1, &y, -1);
    int ok = run_until_got(F, 1, 4, 5000);
    ok &= got_eq(F, 1, 1, &a, NULL);
    ok &= got_eq(F, 1, 1, &b, NULL);
    ok &= got_eq(F, 1, 1, &x, NULL);
    ok &= got_eq(F, 1, 1, &y, NULL);
    check(ok, "pc: PC 0 and PC 1 messages pass as 2 units, the next ones whole");
    /* x: 70 bytes = 2 + 3 = 5 units = 40 words; y 8 */
    check(ctr(F, 0, SBOX_CTR_ERR_MSG) == 3 && ctr(F, 0, SBOX_CTR_DROP_ROUTE) == 1 && ctr(F, 0, SBOX_CTR_MSGS) == 4 &&
              ctr(F, 0, SBOX_CTR_WORDS) == 16 + 16 + 40 + 8,
          "pc: err_msg 3 (two passed, one dropped), drop_route 1, words 80 (%" PRIu64 ", %" PRIu64 ")",
          ctr(F, 0, SBOX_CTR_ERR_MSG), ctr(F, 0, SBOX_CTR_WORDS));
    check(fab_rd(F, 0, SBOX_REG_CTR(SBOX_CTR_ERR_MSG)) == 3, "pc: err_msg on the register port");
    check(no_over_under(F), "pc: no wr_over / rd_under");
    mlc_msg_free(&a);
    mlc_msg_free(&b);
    mlc_msg_free(&c);
    mlc_msg_free(&x);
    mlc_msg_free(&y);
    fab_free(F);
}

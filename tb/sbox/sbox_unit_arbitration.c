/* sanfab — sbox_unit: bus and manager round robin, locks, reservations, back-pressure
 * (run from the table of sbox_unit.c; the helpers they call are in sbox_unit_fab.c). */
#include "sbox_unit.h"

/* ================================================================ bus and manager round robin, locks */

/* Nodes 0 and 1 send a Type0 to node 2 on channel 0 in the same step: box MLCs 0 and 1 accept
 * in the same step t. Sources s0 = port 0 ch 0, s2 = port 1 ch 0, NS = 10, bp = mp = 0:
 *   t+1 RD0 s0 (bp 1), t+2 RD0 s2 (bp 3), t+3 RD1 s0 (bp 1), t+4 RD1 s2 (bp 3), s0 analysed -> WAIT;
 *   t+5 manager act s0 (msgs 1), s2 analysed; t+6 PUT0 s0 .. t+13 MOV7 s0 (words 1..8), s0 IDLE;
 *   s2 waits for (2,0) locked by s0 until the manager of t+14 (msgs 2); t+15..t+22 its words. */
void test_lock_rr(void)
{
    sbox_params_t bp = bparams(4, 4);
    fab_t *F = star(bp);
    mlc_msg_t a = mk_msg(0, 0, 2, 0, 0, 0, 1), b = mk_msg(0, 0, 2, 0, 1, 0, 2);
    send(F, 0, 0, &a);
    send(F, 1, 0, &b);
    uint64_t t = 0, w[64], m[64];
    unsigned n = 0;
    for (unsigned i = 0; i < 400 && n < 64; i++) {
        fab_step(F);
        if (!t && mlc_counter(sbox_mlc(F->box[0], 0), MLC_CTR_RX_PKTS) == 1) {
            t = F->k;
            check(mlc_counter(sbox_mlc(F->box[0], 1), MLC_CTR_RX_PKTS) == 1, "lock: both units accepted in step t");
        }
        if (t) {
            w[n] = ctr(F, 0, SBOX_CTR_WORDS);
            m[n] = ctr(F, 0, SBOX_CTR_MSGS);
            n++;
        }
    }
    int ok = n == 64;
    for (unsigned j = 0; j < 24 && ok; j++) { /* w[j]: after t+j */
        uint64_t ew = j < 6 ? 0 : j <= 13 ? j - 5 : j == 14 ? 8 : j <= 22 ? j - 6 : 16;
        uint64_t em = j < 5 ? 0 : j < 14 ? 1 : 2;
        ok &= check(w[j] == ew && m[j] == em, "lock/rr: after t+%u words %" PRIu64 " (want %" PRIu64 ") msgs %" PRIu64 " (want %" PRIu64 ")",
                    j, w[j], ew, m[j], em);
    }
    check(ok, "lock/rr: the hand-computed schedule of two sources to one destination");
    ok = run_until_got(F, 2, 2, 2000) && got_eq(F, 2, 0, &a, NULL) && got_eq(F, 2, 0, &b, NULL);
    check(ok, "lock: node 2 gets node 0's message, then node 1's, whole");
    mlc_msg_free(&a);
    mlc_msg_free(&b);
    fab_free(F);

    /* long messages: two sources to one destination, not mixed; the second activated only after
     * every word of the first went on the bus */
    F = star(bp);
    a = mk_msg(1, 0, 2, 0, 0, 900, 3);
    b = mk_msg(1, 0, 2, 0, 1, 700, 4);
    unsigned wa = 8 * mlc_msg_units(&a), wb = 8 * mlc_msg_units(&b);
    send(F, 0, 1, &a);
    send(F, 1, 1, &b);
    uint64_t words_at_second = 0;
    for (unsigned i = 0; i < 20000 && F->got[2].n < 2; i++) {
        uint64_t before = ctr(F, 0, SBOX_CTR_MSGS);
        fab_step(F);
        if (before == 1 && ctr(F, 0, SBOX_CTR_MSGS) == 2)
            words_at_second = ctr(F, 0, SBOX_CTR_WORDS);
    }
    ok = F->got[2].n == 2 && got_eq(F, 2, 1, &a, NULL) && got_eq(F, 2, 1, &b, NULL);
    check(ok, "lock: two long messages to one destination arrive whole, not mixed");
    check(words_at_second == wa, "lock: the second is activated once the first's %u words are on the bus (%" PRIu64 ")", wa,
          words_at_second);
    check(ctr(F, 0, SBOX_CTR_WORDS) == wa + wb, "lock: words %u", wa + wb);
    mlc_msg_free(&a);
    mlc_msg_free(&b);
    fab_free(F);
}

/* A long message node 5 -> node 2 holds (2,0). Then node 0 multicasts to {1,2} (waits for (2,0))
 * and node 4 sends to node 3. From mp = 11 (after s10 = port 5 ch 0), the manager meets s0 (the
 * multicast) before s8 (port 4): the blocked multicast must not make node 4's message wait. */
void test_manager_skip(void)
{
    sbox_params_t bp = bparams(6, 6);
    fab_t *F = star(bp);
    mlc_msg_t L = mk_msg(1, 0, 2, 0, 5, 4000, 1), M = mk_msg(0, 0, 255, 0x0006, 0, 0, 2), U = mk_msg(0, 0, 3, 0, 4, 0, 3);
    send(F, 5, 0, &L);
    uint64_t act = 0;
    for (unsigned i = 0; i < 3000 && !act; i++) {
        fab_step(F);
        if (ctr(F, 0, SBOX_CTR_MSGS) == 1)
            act = F->k;
    }
    fab_run(F, 200);
    send(F, 0, 0, &M);
    send(F, 4, 0, &U);
    uint64_t s1 = 0, s2 = 0, s3 = 0, sl = 0;
    int ok = run_until_got(F, 1, 1, 40000) && got_eq(F, 1, 0, &M, &s1);
    ok &= run_until_got(F, 3, 1, 100) && got_eq(F, 3, 0, &U, &s3);
    ok &= run_until_got(F, 2, 2, 2000) && got_eq(F, 2, 0, &L, &sl) && got_eq(F, 2, 0, &M, &s2);
    check(ok && act, "manager: all three messages arrive whole");
    check(s3 + 2000 < s1 && sl <= s2, "manager: node 3 served at %" PRIu64 " while the multicast waited for node 2 (long one %" PRIu64
          ", multicast %" PRIu64 "/%" PRIu64 ")", s3, sl, s1, s2);
    check(ctr(F, 0, SBOX_CTR_MCAST) == 1 && ctr(F, 0, SBOX_CTR_MSGS) == 3, "manager: msgs 3, mcast 1");
    mlc_msg_free(&L);
    mlc_msg_free(&M);
    mlc_msg_free(&U);
    fab_free(F);
}

/* Manager round robin: a long message L from node 0 (s0) to node 4 holds (4,0), and node 0 queues y
 * to node 4 behind it; node 1 (s2) queues x1, which waits and takes the reservation of channel 0
 * (rule 3); then node 2 (s4) x3 and node 3 (s6) x5, all to node 4. When L ends: x1 (reserved; mp 3);
 * the reservation goes to the first waiting source from mp 3: s4 (x3; s0 is still reading y's header);
 * when x1 ends, x3 (mp 5); the reservation from mp 5: s6 (x5) before s0 (y, waiting by then). A
 * manager that searched from 0 would serve y before x5. */
void test_manager_rr(void)
{
    sbox_params_t bp = bparams(5, 5);
    fab_t *F = star(bp);
    mlc_msg_t L = mk_msg(1, 0, 4, 0, 0, 3000, 1), y = mk_msg(0, 0, 4, 0, 0, 0, 3);
    mlc_msg_t x1 = mk_msg(0, 0, 4, 0, 1, 0, 2), x3 = mk_msg(0, 0, 4, 0, 2, 0, 4), x5 = mk_msg(0, 0, 4, 0, 3, 0, 5);
    send(F, 0, 0, &L);
    send(F, 0, 0, &y);
    fab_run(F, 300);
    send(F, 1, 0, &x1);
    fab_run(F, 300);
    send(F, 2, 0, &x3);
    send(F, 3, 0, &x5);
    int ok = run_until_got(F, 4, 5, 60000) && got_eq(F, 4, 0, &L, NULL);
    ok &= got_eq(F, 4, 0, &x1, NULL) && got_eq(F, 4, 0, &x3, NULL) && got_eq(F, 4, 0, &x5, NULL) && got_eq(F, 4, 0, &y, NULL);
    check(ok, "manager rr: after the long message x1, x3, x5, y (the reservation round robin from mp)");
    FREE_MSGS(&L, &y, &x1, &x3, &x5);
    fab_free(F);
}

/* Reservation (rule 3): node 1 streams 16 messages to node 2 and node 4 16 to node 3, back to back
 * and out of step, so (2,0) and (3,0) are hardly ever free together; node 0's multicast to {2, 3},
 * sent once both streams run, reserves them when it first waits and is activated as soon as the two
 * messages in progress end: node 2 gets it among the first three of node 1's messages, not after the
 * whole stream. */
void test_reservation(void)
{
    sbox_params_t bp = bparams(5, 5);
    fab_t *F = star(bp);
    mlc_msg_t a[16], c[16], M = mk_msg(0, 0, 255, 0x000C, 0, 0, 40);
    for (unsigned i = 0; i < 16; i++) {
        a[i] = mk_msg(1, 0, 2, 0, 1, 200, 41 + i);
        c[i] = mk_msg(1, 0, 3, 0, 4, 150, 61 + i);
        send(F, 1, 0, &a[i]);
        send(F, 4, 0, &c[i]);
    }
    fab_run(F, 1200);
    send(F, 0, 0, &M);
    int ok = run_until_got(F, 2, 17, 200000) && run_until_got(F, 3, 17, 200000);
    unsigned at[2] = {99, 99}, k[2] = {0, 0};
    const mlc_msg_t *stream[2] = {a, c};
    for (unsigned i = 0; i < 17 && ok; i++)
        for (unsigned j = 0; j < 2; j++) { /* node 2 (a's), node 3 (c's) */
            rec_t g;
            ring_pop(&F->got[2 + j], &g);
            if (mlc_msg_eq(&g.m, &M))
                at[j] = i;
            else
                ok &= k[j] < 16 && mlc_msg_eq(&g.m, &stream[j][k[j]++]);
            mlc_msg_free(&g.m);
        }
    unsigned at2 = at[0], at3 = at[1];
    check(ok, "reservation: both streams and the multicast arrive whole, the streams in order");
    check(at2 <= 3 && at3 <= 3, "reservation: the multicast arrives at node 2 as message %u and at node 3 as message %u "
          "of 17 (at most the 4th: it waits only for the messages in progress)", at2 + 1, at3 + 1);
    check(no_over_under(F), "reservation: no wr_over / rd_under");
    for (unsigned i = 0; i < 16; i++) {
        mlc_msg_free(&a[i]);
        mlc_msg_free(&c[i]);
    }
    mlc_msg_free(&M);
    fab_free(F);
}

/* ================================================================ back-pressure (room, avail) */

/* Node 2 stops reading: its receive FIFO, then box port 2's send FIFO fill up. The box must fill
 * that FIFO to exactly 0 bytes of space and never write beyond it (room counts the write in flight),
 * nor read beyond the source's status; a multicast to {1, 2} waits for its slowest port; when node 2
 * reads again, everything arrives whole. */
void test_backpressure(void)
{
    sbox_params_t bp = bparams(3, 3);
    bp.FIFO_BYTES = 256;
    fab_t *F = star(bp);
    F->hold[2] = 1;
    mlc_msg_t a = mk_msg(1, 0, 2, 0, 0, 2000, 1), m = mk_msg(1, 0, 255, 0x6, 0, 900, 2);
    send(F, 0, 0, &a);
    send(F, 0, 0, &m);
    fab_run(F, 6000);
    uint64_t w1 = ctr(F, 0, SBOX_CTR_WORDS);
    fab_run(F, 1000);
    uint32_t sp = fab_rd(F, 0, SBOX_REG_MLC(2, MLC_REG_TX_SPACE(0)));
    check(sp == 0 && ctr(F, 0, SBOX_CTR_WORDS) == w1 && w1 > 0, "backpressure: box port 2's send FIFO filled to 0 bytes (%u), the bus "
          "stopped (%" PRIu64 " words)", sp, w1);
    check(no_over_under(F), "backpressure: no wr_over / rd_under in the box while blocked");
    check(F->got[1].n == 0 && F->got[2].n == 0, "backpressure: nothing delivered yet");
    F->hold[2] = 0;
    int ok = run_until_got(F, 2, 2, 60000) && got_eq(F, 2, 0, &a, NULL) && got_eq(F, 2, 0, &m, NULL);
    ok &= run_until_got(F, 1, 1, 1000) && got_eq(F, 1, 0, &m, NULL);
    check(ok, "backpressure: after node 2 reads again, both messages whole");
    check(ctr(F, 0, SBOX_CTR_WORDS) == 8u * (mlc_msg_units(&a) + mlc_msg_units(&m)) && no_over_under(F),
          "backpressure: words %" PRIu64 ", no wr_over / rd_under", ctr(F, 0, SBOX_CTR_WORDS));
    mlc_msg_free(&a);
    mlc_msg_free(&m);
    fab_free(F);
}

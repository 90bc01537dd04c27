/* sanfab — sbox_unit: barriers in one box
 * (run from the table of sbox_unit.c; the helpers they call are in sbox_unit_fab.c). */
#include "sbox_unit.h"

void test_barrier_one(void)
{
    sbox_params_t bp = bparams(4, 4);
    fab_t *F = star(bp);
    /* four members, late arrivals: no release before the last request is taken */
    static const unsigned when[4] = {0, 300, 700, 1200};
    unsigned early = 0, ch = 1;
    for (uint64_t s = 0; s <= 1200; s++) {
        for (unsigned i = 0; i < 4; i++)
            if (s == when[i])
                mlc_host_barrier(F->host[i], ch, i, 0x000F, 1);
        fab_step(F);
        for (unsigned i = 0; i < 4; i++)
            early += (unsigned)F->got[i].n;
    }
    check(early == 0, "barrier: no release before the last request");
    uint32_t v = fab_rd(F, 0, SBOX_REG_BAR(ch));
    check(v == (SBOX_BAR_BUSY | (0x7u << 8) | (0x000Fu << 16)), "barrier: busy, A = ports 0..2, M = 0x000F (0x%08X)", v);
    check(ctr(F, 0, SBOX_CTR_BAR_REQ) == 3 && ctr(F, 0, SBOX_CTR_BAR_DONE) == 0, "barrier: bar_req 3, not done");
    fab_run(F, 1500);
    unsigned other = 0, ok = 1;
    for (unsigned i = 0; i < 4; i++)
        ok &= releases(F, i, ch, 0x000F, &other) == 1;
    check(ok && other == 0, "barrier: every member (arrived ones included) gets one release, nothing else");
    check(ctr(F, 0, SBOX_CTR_BAR_REQ) == 4 && ctr(F, 0, SBOX_CTR_BAR_DONE) == 1 && ctr(F, 0, SBOX_CTR_ERR_BAR) == 0 &&
              ctr(F, 0, SBOX_CTR_WORDS) == 8 && ctr(F, 0, SBOX_CTR_MSGS) == 0 && ctr(F, 0, SBOX_CTR_DROP_ROUTE) == 0,
          "barrier: bar_req 4, bar_done 1, the made release 8 words (not in msgs)");
    uint32_t v0 = fab_rd(F, 0, SBOX_REG_BAR(ch)), v1 = fab_rd(F, 0, SBOX_REG_BAR(1 - ch));
    check(v0 == (0x000Fu << 16) && v1 == 0, "barrier: ended: busy, A, up_sent 0; M kept (0x%08X 0x%08X)", v0, v1);

    /* err_bar: members {0,1,2} on channel 0: node 3 is no member, node 0 twice, node 1 with another set */
    mlc_host_barrier(F->host[0], 0, 0, 0x0007, 2);
    fab_run(F, 300);
    mlc_host_barrier(F->host[3], 0, 3, 0x0007, 2);
    mlc_host_barrier(F->host[0], 0, 0, 0x0007, 2);
    mlc_host_barrier(F->host[1], 0, 1, 0x0003, 2);
    fab_run(F, 600);
    check(ctr(F, 0, SBOX_CTR_ERR_BAR) == 3 && ctr(F, 0, SBOX_CTR_BAR_REQ) == 5, "barrier: 3 requests rejected (err_bar)");
    check(fab_rd(F, 0, SBOX_REG_BAR(0)) == (SBOX_BAR_BUSY | (0x1u << 8) | (0x0007u << 16)), "barrier: rejected ones change nothing");
    mlc_host_barrier(F->host[1], 0, 1, 0x0007, 2);
    mlc_host_barrier(F->host[2], 0, 2, 0x0007, 2);
    fab_run(F, 1200);
    other = 0;
    ok = releases(F, 0, 0, 7, &other) == 1 && releases(F, 1, 0, 7, &other) == 1 && releases(F, 2, 0, 7, &other) == 1 &&
         releases(F, 3, 0, 7, &other) == 0;
    check(ok && other == 0, "barrier: members {0,1,2} released once, node 3 not");
    check(ctr(F, 0, SBOX_CTR_BAR_DONE) == 2 && ctr(F, 0, SBOX_CTR_BAR_REQ) == 7, "barrier: bar_done 2");

    /* a release from a node ends the barrier and is forwarded to every member port but its own */
    mlc_host_barrier(F->host[0], 0, 0, 0x000E, 3); /* node 0 is no member of {1,2,3}: err_bar */
    mlc_host_barrier(F->host[1], 0, 1, 0x000E, 3);
    fab_run(F, 400);
    check(fab_rd(F, 0, SBOX_REG_BAR(0)) == (SBOX_BAR_BUSY | (0x2u << 8) | (0x000Eu << 16)), "barrier: busy with {1,2,3}");
    mlc_msg_t rel = mk_msg(0, MLC_KIND_RELEASE, 255, 0x0007, 9, 0, 0);
    send(F, 2, 0, &rel);
    fab_run(F, 400);
    ok = run_until_got(F, 0, 1, 100) && got_eq(F, 0, 0, &rel, NULL) && run_until_got(F, 1, 1, 100) && got_eq(F, 1, 0, &rel, NULL);
    check(ok && F->got[2].n == 0 && F->got[3].n == 0, "barrier: a release from node 2 goes to ports 0 and 1");
    check(fab_rd(F, 0, SBOX_REG_BAR(0)) == (0x000Eu << 16), "barrier: the release ended the barrier");
    check(ctr(F, 0, SBOX_CTR_MSGS) == 1 && ctr(F, 0, SBOX_CTR_MCAST) == 1 && ctr(F, 0, SBOX_CTR_ERR_BAR) == 4,
          "barrier: the release counted in msgs and mcast");
    mlc_msg_free(&rel);
    fab_free(F);
}

/* Exact timing of the barrier source and of a drop, by hand (4-port box, idle, ch 0):
 * a barrier request of node 0 with MASK = {node 0} accepted by box MLC 0 in step t: RD0 t+1,
 * RD1 t+2 (bp 1), analysed t+3, activated t+4 (rule 5: taken and complete: bar_req, bar_done, the
 * barrier source s8 makes a release for E'(m) = {0} and waits; s0 DROP, wi 2). t+5: s0 READ word 2
 * (bp 1), the manager activates s8. The bus then alternates (round robin from bp): s8 PUT0 t+6
 * (bp 9), s0 READ t+7 (bp 1), s8 PUT1 t+8, ... s0 READ word 7 t+15 (done), s8 PUT4 t+14, PUT5..7
 * t+16..t+18: words after t+j = 0 (j < 6), (j-4)/2 (6..15), j-10 up to 8. Then a dropped Type0 (DST 3, entry invalid) and a
 * Type0 to node 2 accepted together in step u: drop act u+4 (drop_route), READs of words 2..7 in
 * u+5..u+10, the next header RD0 u+11, RD1 u+12, act u+14 (msgs), PUT0 u+15 (words 9). */
void test_exact_bar_drop(void)
{
    sbox_params_t bp = bparams(4, 4);
    fab_t *F = star(bp);
    fab_wr(F, 0, SBOX_REG_TABLE(3), 0);
    mlc_host_barrier(F->host[0], 0, 0, 0x0001, 1);
    uint64_t t = 0, hist[3][40];
    unsigned n = 0;
    for (unsigned i = 0; i < 300 && n < 40; i++) {
        fab_step(F);
        if (!t && mlc_counter(sbox_mlc(F->box[0], 0), MLC_CTR_RX_PKTS) == 1)
            t = F->k;
        if (t) {
            hist[0][n] = ctr(F, 0, SBOX_CTR_BAR_REQ) * 10 + ctr(F, 0, SBOX_CTR_BAR_DONE);
            hist[1][n] = ctr(F, 0, SBOX_CTR_WORDS);
            hist[2][n] = ctr(F, 0, SBOX_CTR_MSGS) + ctr(F, 0, SBOX_CTR_MCAST) + ctr(F, 0, SBOX_CTR_DROP_ROUTE);
            n++;
        }
    }
    int ok = n == 40;
    for (unsigned j = 0; j < 22 && ok; j++) {
        uint64_t eb = j < 4 ? 0 : 11, ew = j < 6 ? 0 : j <= 15 ? (j - 4) / 2 : j - 10 < 8 ? j - 10 : 8;
        ok &= check(hist[0][j] == eb && hist[1][j] == ew && hist[2][j] == 0,
                    "exact barrier: after t+%u bar_req*10+bar_done %" PRIu64 " (want %" PRIu64 "), words %" PRIu64 " (want %" PRIu64 ")",
                    j, hist[0][j], eb, hist[1][j], ew);
    }
    unsigned other = 0;
    fab_run(F, 300);
    check(ok && releases(F, 0, 0, 0x0001, &other) == 1 && other == 0, "exact barrier: node 0 released by the box's made release");
    /* drop then data, both units in one frame: the node's null frames start every 22 steps from step 2 */
    while ((F->k + 1) % 22 != 3)
        fab_step(F);
    mlc_msg_t d = mk_msg(0, 0, 3, 0, 0, 0, 1), g = mk_msg(0, 0, 2, 0, 0, 0, 2);
    send(F, 0, 0, &d);
    send(F, 0, 0, &g);
    uint64_t u = 0, p0 = mlc_counter(sbox_mlc(F->box[0], 0), MLC_CTR_RX_PKTS), w0 = ctr(F, 0, SBOX_CTR_WORDS);
    n = 0;
    for (unsigned i = 0; i < 300 && n < 40; i++) {
        fab_step(F);
        uint32_t pk = mlc_counter(sbox_mlc(F->box[0], 0), MLC_CTR_RX_PKTS);
        if (!u && pk != p0) {
            u = F->k;
            check(pk == p0 + 2, "exact drop: both units accepted in one step u");
        }
        if (u) {
            hist[0][n] = ctr(F, 0, SBOX_CTR_DROP_ROUTE);
            hist[1][n] = ctr(F, 0, SBOX_CTR_WORDS) - w0;
            hist[2][n] = ctr(F, 0, SBOX_CTR_MSGS);
            n++;
        }
    }
    ok = n == 40;
    for (unsigned j = 0; j < 24 && ok; j++) {
        uint64_t ed = j < 4 ? 0 : 1, ew = j < 15 ? 0 : j <= 22 ? j - 14 : 8, em = j < 14 ? 0 : 1;
        ok &= check(hist[0][j] == ed && hist[1][j] == ew && hist[2][j] == em,
                    "exact drop: after u+%u drop_route %" PRIu64 " (want %" PRIu64 ") words %" PRIu64 " (want %" PRIu64 ") msgs %" PRIu64
                    " (want %" PRIu64 ")", j, hist[0][j], ed, hist[1][j], ew, hist[2][j], em);
    }
    check(run_until_got(F, 2, 1, 1000) && got_eq(F, 2, 0, &g, NULL) && F->got[3].n == 0, "exact drop: node 2 gets the second message");
    mlc_msg_free(&d);
    mlc_msg_free(&g);
    fab_free(F);
}

/* sanfab — sbox_unit: a two-box tree: barriers, multicast, the box port
 * (run from the table of sbox_unit.c; the helpers they call are in sbox_unit_fab.c). */
#include "sbox_unit.h"

/* Two boxes: A (root) ports 0,1 -> nodes 0,1, port 2 <-> B port 3 (B's up port, B's end master);
 * B ports 0,1 -> nodes 2,3, port 2 -> node 4 (entered in B's table only by the up_sent case). */
static fab_t *tree(unsigned lw)
{
    sbox_params_t bp[2] = {bparams(4, 5), bparams(4, 5)};
    bp[0].LINK_W = bp[1].LINK_W = lw;
    bp[1].MASTER_MASK = 1u << 3;
    fab_t *F = fab_new(2, bp);
    fab_node(F, 0, 0, NULL);
    fab_node(F, 0, 1, NULL);
    fab_node(F, 1, 0, NULL);
    fab_node(F, 1, 1, NULL);
    fab_node(F, 1, 2, NULL); /* node 4: in A's table (port 2), not yet in B's */
    fab_join(F, 1, 3, 0, 2);
    static const unsigned ta[4] = {0, 1, 2, 2}, tb[4] = {3, 3, 0, 1};
    for (unsigned d = 0; d < 4; d++) {
        fab_route(F, 0, d, ta[d]);
        fab_route(F, 1, d, tb[d]);
    }
    fab_route(F, 0, 4, 2);
    fab_wr(F, 1, SBOX_REG_UP, 0x13);
    return F;
}

void test_tree(void)
{
    fab_t *F = tree(4);
    check(fab_rd(F, 1, SBOX_REG_UP) == 0x13 && fab_rd(F, 0, SBOX_REG_UP) == 0, "tree: B's up port 3, A none");
    /* data across the tree */
    mlc_msg_t a = mk_msg(1, 0, 3, 0, 0, 200, 1), b = mk_msg(0, 0, 1, 0, 3, 0, 2), m = mk_msg(1, 0, 255, 0x000F, 2, 60, 3);
    send(F, 0, 0, &a);
    send(F, 3, 1, &b);
    send(F, 2, 0, &m);
    int ok = run_until_got(F, 3, 2, 8000);
    ok &= run_until_got(F, 1, 2, 8000) && run_until_got(F, 0, 1, 8000);
    fab_run(F, 500);
    /* node 3: a and m (channel 0, order between two sources is free); node 1: b (ch 1) and m; node 0: m.
     * m needs B's up port: it goes up alone with node 2's bit cleared (MASK 0x000B), turns at A (port 2
     * is a box port: nodes 2 and 3 behind it) and comes back down to node 3 (docs/sbox.md, Messages) */
    mlc_msg_t m_up = mk_msg(1, 0, 255, 0x000B, 2, 60, 3);
    unsigned seen = 0;
    for (unsigned i = 0; i < 4; i++) {
        rec_t g;
        while (ring_pop(&F->got[i], &g)) {
            if (i == 3 && g.ch == 0 && mlc_msg_eq(&g.m, &a))
                seen |= 1;
            else if (i == 1 && g.ch == 1 && mlc_msg_eq(&g.m, &b))
                seen |= 2;
            else if (g.ch == 0 && mlc_msg_eq(&g.m, &m_up) && i != 2)
                seen |= 4u << i;
            else
                seen |= 0x100;
            mlc_msg_free(&g.m);
        }
    }
    check(ok && seen == (1 | 2 | 4 | 8 | 32),
          "tree: unicast both ways, multicast from node 2 to 0, 1, 3 once each, its bit cleared (0x%X)", seen);
    check(ctr(F, 1, SBOX_CTR_MCAST) == 0 && ctr(F, 0, SBOX_CTR_MCAST) == 1 && ctr(F, 1, SBOX_CTR_MSGS) == 4 &&
              ctr(F, 0, SBOX_CTR_MSGS) == 3,
          "tree: the multicast is one in A (the turn), two single-port messages in B (up, then down to node 3)");

    /* barrier of all four nodes on channel 1: node 0 early (A), node 2 (B), node 1 (A), node 3 last (B) */
    static const unsigned when[4] = {0, 900, 300, 1500};
    unsigned early = 0;
    int b_up = 0;
    for (uint64_t s = 0; s <= 1500; s++) {
        for (unsigned i = 0; i < 4; i++)
            if (s == when[i])
                mlc_host_barrier(F->host[i], 1, i, 0x000F, 1);
        fab_step(F);
        for (unsigned i = 0; i < 4; i++)
            early += (unsigned)F->got[i].n;
    }
    check(early == 0, "tree barrier: no release before the last request");
    b_up = ctr(F, 1, SBOX_CTR_BAR_DONE) == 0;
    uint32_t va = fab_rd(F, 0, SBOX_REG_BAR(1)), vb = fab_rd(F, 1, SBOX_REG_BAR(1));
    check(b_up && vb == (SBOX_BAR_BUSY | (0x1u << 8) | (0x000Fu << 16)) && va == (SBOX_BAR_BUSY | (0x3u << 8) | (0x000Fu << 16)),
          "tree barrier: before node 3, B has port 0, A ports 0 and 1 (A 0x%08X B 0x%08X)", va, vb);
    /* B completes: request up (up_sent); A completes with port 2: release down */
    unsigned other = 0;
    int seen_up_sent = 0;
    for (unsigned s = 0; s < 3000; s++) {
        fab_step(F);
        if (!seen_up_sent && ctr(F, 1, SBOX_CTR_BAR_DONE) == 1 && ctr(F, 0, SBOX_CTR_BAR_DONE) == 0) {
            uint32_t v = fab_rd(F, 1, SBOX_REG_BAR(1));
            seen_up_sent = v == (SBOX_BAR_BUSY | SBOX_BAR_UP_SENT | (0x3u << 8) | (0x000Fu << 16));
            check(seen_up_sent, "tree barrier: B sent its request up, keeps the barrier (0x%08X)", v);
            /* a second request from node 2 now: A bit set, up_sent: err_bar */
            mlc_host_barrier(F->host[2], 1, 2, 0x000F, 1);
        }
    }
    ok = 1;
    for (unsigned i = 0; i < 4; i++)
        ok &= releases(F, i, 1, 0x000F, &other) == 1;
    check(ok && other == 0 && seen_up_sent, "tree barrier: every node released once");
    check(ctr(F, 0, SBOX_CTR_BAR_REQ) == 3 && ctr(F, 1, SBOX_CTR_BAR_REQ) == 2 && ctr(F, 0, SBOX_CTR_BAR_DONE) == 1 &&
              ctr(F, 1, SBOX_CTR_BAR_DONE) == 1 && ctr(F, 1, SBOX_CTR_ERR_BAR) == 1 && ctr(F, 0, SBOX_CTR_ERR_BAR) == 0,
          "tree barrier: bar_req A 3 B 2, bar_done 1 and 1, err_bar B 1");
    check(fab_rd(F, 0, SBOX_REG_BAR(1)) == (0x000Fu << 16) && fab_rd(F, 1, SBOX_REG_BAR(1)) == (0x000Fu << 16),
          "tree barrier: ended in both boxes");
    /* the release down counted in B's msgs (forwarded), not A's made one */
    check(ctr(F, 1, SBOX_CTR_MSGS) == 5 && ctr(F, 0, SBOX_CTR_MSGS) == 3, "tree barrier: B forwarded the release (msgs A %" PRIu64
          " B %" PRIu64 ")", ctr(F, 0, SBOX_CTR_MSGS), ctr(F, 1, SBOX_CTR_MSGS));
    /* a second barrier works (nothing left over) */
    for (unsigned i = 0; i < 4; i++)
        mlc_host_barrier(F->host[i], 1, i, 0x000F, 2);
    fab_run(F, 3000);
    ok = 1;
    other = 0;
    for (unsigned i = 0; i < 4; i++)
        ok &= releases(F, i, 1, 0x000F, &other) == 1;
    check(ok && other == 0, "tree barrier: a second barrier releases everyone once");

    /* up_sent alone rejects: members 0x1F on channel 0 with node 4 (B port 2) not yet in B's table:
     * B completes with ports {0,1} and sends its request up; then entry 4 becomes valid (port 2) and
     * node 4's request (a member port that has not arrived, same M) is rejected: up_sent. A completes
     * with nodes 0, 1 and releases {0,1,2}; B forwards the release to ports 0, 1 and now 2. */
    unsigned e0 = (unsigned)ctr(F, 1, SBOX_CTR_ERR_BAR);
    mlc_host_barrier(F->host[2], 0, 2, 0x001F, 3);
    mlc_host_barrier(F->host[3], 0, 3, 0x001F, 3);
    fab_run(F, 1500);
    uint32_t v5 = fab_rd(F, 1, SBOX_REG_BAR(0));
    check(v5 == (SBOX_BAR_BUSY | SBOX_BAR_UP_SENT | (0x3u << 8) | (0x001Fu << 16)), "tree barrier 0x1F: B's request went up (0x%08X)", v5);
    fab_route(F, 1, 4, 2);
    mlc_host_barrier(F->host[4], 0, 4, 0x001F, 3);
    fab_run(F, 1500);
    check(ctr(F, 1, SBOX_CTR_ERR_BAR) == e0 + 1 && fab_rd(F, 1, SBOX_REG_BAR(0)) == v5,
          "tree barrier 0x1F: node 4's request after the request went up is rejected (err_bar), nothing changes");
    mlc_host_barrier(F->host[0], 0, 0, 0x001F, 3);
    mlc_host_barrier(F->host[1], 0, 1, 0x001F, 3);
    fab_run(F, 3000);
    ok = 1;
    other = 0;
    for (unsigned i = 0; i < 5; i++)
        ok &= releases(F, i, 0, 0x001F, &other) == 1;
    check(ok && other == 0, "tree barrier 0x1F: all five nodes released once");
    check(no_over_under(F), "tree: no wr_over / rd_under");
    FREE_MSGS(&a, &b, &m, &m_up);
    fab_free(F);
}

/* the next message node i got: channel ch, equal to m; 1 if so */
static int next_is(fab_t *F, unsigned i, unsigned ch, const mlc_msg_t *m) { return got_eq(F, i, ch, m, NULL); }

/* Multicasts in a tree (docs/sbox.md, Messages and destinations: up alone, never back to a node,
 * turn), on tree(): A's nodes 0, 1; B's nodes 2, 3; A's port 2 a box port (nodes 2, 3 and 4 behind it). */
void test_tree_mcast(void)
{
    fab_t *F = tree(4);
    /* from A (the root) to all four: down to node 1 and across to B, MASK unchanged; B sends it down only */
    mlc_msg_t a = mk_msg(0, 0, 255, 0x000F, 0, 0, 11);
    send(F, 0, 1, &a);
    fab_run(F, 3000);
    check(next_is(F, 1, 1, &a) && next_is(F, 2, 1, &a) && next_is(F, 3, 1, &a) && F->got[0].n == 0,
          "tree mcast: from A's node 0 to nodes 1, 2, 3 once each, unchanged, not to its sender");
    check(ctr(F, 0, SBOX_CTR_MSGS) == 1 && ctr(F, 0, SBOX_CTR_MCAST) == 1 && ctr(F, 1, SBOX_CTR_MSGS) == 1 &&
              ctr(F, 1, SBOX_CTR_MCAST) == 1,
          "tree mcast: A's multicast counted once in each box, a multicast in both");
    /* from B's node 3 to nodes 2, 3 of its own box: no member above, it stays in B, MASK unchanged */
    mlc_msg_t b = mk_msg(1, 0, 255, 0x000C, 3, 40, 12);
    send(F, 3, 0, &b);
    fab_run(F, 3000);
    check(next_is(F, 2, 0, &b) && F->got[3].n == 0 && F->got[0].n + F->got[1].n == 0 && ctr(F, 0, SBOX_CTR_MSGS) == 1,
          "tree mcast: within B, to node 2 only (not its sender), A not entered");
    /* from B's node 3 to node 0 and itself: up alone with its bit cleared (MASK 0x0001); A's set is {0}
     * (the sender's bit is gone, nothing behind port 2): nothing comes back down */
    mlc_msg_t c = mk_msg(0, 0, 255, 0x0009, 3, 0, 13), c_got = mk_msg(0, 0, 255, 0x0001, 3, 0, 13);
    send(F, 3, 1, &c);
    fab_run(F, 3000);
    check(next_is(F, 0, 1, &c_got) && F->got[1].n + F->got[2].n + F->got[3].n == 0,
          "tree mcast: B's node 3 to {0, 3}: node 0 gets it with MASK 0x0001, nobody else");
    check(ctr(F, 1, SBOX_CTR_MSGS) == 3 && ctr(F, 1, SBOX_CTR_MCAST) == 1 && ctr(F, 0, SBOX_CTR_MSGS) == 2 &&
              ctr(F, 0, SBOX_CTR_MCAST) == 1,
          "tree mcast: msgs A 2 B 3, no new multicast in either box");
    /* route order: node 2's multicast to 0, 1, 3 goes up, turns and comes back to node 3; its next
     * message, a unicast to node 3, takes the short route and arrives first (docs: Messages; a long
     * multicast would still hold node 3's FIFO when the unicast wants it) */
    mlc_msg_t d = mk_msg(0, 0, 255, 0x000B, 2, 0, 14), e = mk_msg(0, 0, 3, 0, 2, 0, 15);
    send(F, 2, 0, &d);
    send(F, 2, 0, &e);
    fab_run(F, 4000);
    check(next_is(F, 3, 0, &e) && next_is(F, 3, 0, &d) && next_is(F, 0, 0, &d) && next_is(F, 1, 0, &d),
          "tree mcast: node 2's multicast reaches 0, 1, 3; its later unicast to node 3 (short route) arrives first");
    check(ctr(F, 0, SBOX_CTR_ERR_BAR) == 0 && ctr(F, 1, SBOX_CTR_ERR_BAR) == 0, "tree mcast: nothing rejected");
    /* a barrier request that needs the up port keeps its MASK (the members): node 2's own bit stays set */
    for (unsigned i = 0; i < 4; i++)
        mlc_host_barrier(F->host[i], 1, i, 0x000F, 5);
    fab_run(F, 4000);
    unsigned other = 0;
    int ok = 1;
    for (unsigned i = 0; i < 4; i++)
        ok &= releases(F, i, 1, 0x000F, &other) == 1;
    check(ok && other == 0 && ctr(F, 1, SBOX_CTR_ERR_BAR) == 0,
          "tree mcast: a barrier over both boxes completes (requests keep their MASK)");
    check(no_over_under(F), "tree mcast: no wr_over / rd_under");
    FREE_MSGS(&a, &b, &c, &c_got, &d, &e);
    fab_free(F);
}

/* A box alone whose port 3 leads to a box (nodes 3 and 4 behind it: two, the fewest a box port has):
 * a multicast from port 3 turns, port 3 included; from a node port it never goes back; a unicast from
 * port 3 to a node behind it is dropped. */
void test_box_port(void)
{
    sbox_params_t bp = bparams(4, 8);
    fab_t *F = star(bp);
    fab_route(F, 0, 4, 3);
    mlc_msg_t a = mk_msg(0, 0, 255, 0x0011, 3, 0, 21), b = mk_msg(0, 0, 255, 0x0011, 0, 0, 22),
              c = mk_msg(0, 0, 4, 0, 3, 0, 23), g = mk_msg(0, 0, 1, 0, 3, 0, 24);
    send(F, 3, 0, &a);
    fab_run(F, 2000);
    check(next_is(F, 0, 0, &a) && next_is(F, 3, 0, &a) && F->got[1].n + F->got[2].n == 0,
          "box port: a multicast from box port 3 to {0, 4} goes to port 0 and back down port 3");
    send(F, 0, 0, &b);
    fab_run(F, 2000);
    check(next_is(F, 3, 0, &b) && F->got[0].n + F->got[1].n + F->got[2].n == 0,
          "box port: the same set from node port 0 goes to port 3 only");
    send(F, 3, 1, &c);
    send(F, 3, 1, &g);
    fab_run(F, 2000);
    check(next_is(F, 1, 1, &g) && F->got[0].n + F->got[2].n + F->got[3].n == 0 && ctr(F, 0, SBOX_CTR_DROP_ROUTE) == 1 &&
              ctr(F, 0, SBOX_CTR_MCAST) == 1,
          "box port: a unicast from port 3 to node 4 (behind port 3) is dropped; mcast 1 (the turn)");
    FREE_MSGS(&a, &b, &c, &g);
    fab_free(F);
}

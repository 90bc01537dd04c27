/* sanfab — sbox_unit: the random soak with a scoreboard (run by test_soak, sbox_unit.c)
 * (run from the table of sbox_unit.c; the helpers they call are in sbox_unit_fab.c). */
#include "sbox_unit.h"

/* ================================================================ random soak with a scoreboard */

/* ports nodes, one per port, table entries 0..ports-1 -> port d (the rest of NODES = 16 invalid).
 * Random Type0/Type1 messages (1 byte .. FIFO_BYTES + 300), unicast (some to invalid entries,
 * DST >= NODES or the sender itself: dropped) and multicast (random MASK), both channels. */
void soak(uint64_t seed, unsigned ports, unsigned lw, unsigned fifo, uint64_t steps, unsigned load, int shadow)
{
    rng_t r;
    rng_seed(&r, seed);
    sbox_params_t bp = bparams(ports, 16);
    bp.LINK_W = lw;
    bp.FIFO_BYTES = fifo;
    bp.CTR_W = 32;
    bp.TURN = rng_below(&r, 3);
    fab_t *F = star_of(bp, shadow);
    F->stall = rng_below(&r, 60);
    rng_seed(&F->r, seed ^ 0xABCDu);
    unsigned spmode = rng_below(&r, 4); /* single-packet modes on the box's MLCs (pipelined) */
    for (unsigned q = 0; q < ports; q++)
        fab_wr(F, 0, SBOX_REG_MLC(q, MLC_REG_CFG), MLC_CFG_SP(q % 2 ? spmode : 0));
    printf("soak: seed %" PRIu64 ": PORTS %u LINK_W %u FIFO %u TURN %u stall %u%% box SP %u load %u%%, %" PRIu64 " steps\n", seed,
           ports, lw, fifo, bp.TURN, F->stall, spmode, load, steps);
    ring_t exp[8][2][8]; /* [src][ch][dst] mlc_msg_t */
    for (unsigned s = 0; s < 8; s++)
        for (unsigned c = 0; c < 2; c++)
            for (unsigned d = 0; d < 8; d++)
                exp[s][c][d] = ring_make(sizeof(mlc_msg_t));
    uint64_t sent = 0, copies = 0, got = 0, bad = 0, drops = 0, msgs = 0, mcast = 0, words = 0;
    uint32_t seq = 0;
    uint64_t end = steps + 400000, k;
    for (k = 0; k < end; k++) {
        if (k < steps && rng_below(&r, 1000) < load) {
            unsigned src = rng_below(&r, ports), ch = rng_below(&r, 2);
            if (mlc_host_tx_pending(F->host[src], ch) < 4000) {
                mlc_msg_t m;
                memset(&m, 0, sizeof m);
                m.type = rng_pct(&r, 30) ? 0 : 1;
                m.kind = rng_below(&r, 2);
                m.src = src;
                unsigned kind = rng_below(&r, 100);
                if (kind < 55)
                    m.dst = rng_below(&r, ports);
                else if (kind < 60)
                    m.dst = src;
                else if (kind < 65)
                    m.dst = rng_below(&r, 255);
                else {
                    m.dst = 255;
                    m.mask = rng_below(&r, 65536);
                    if (rng_pct(&r, 50))
                        m.mask &= (1u << ports) - 1u;
                }
                m.len = m.type ? 1 + (rng_pct(&r, 50) ? rng_below(&r, 100) : rng_below(&r, fifo + 300)) : MLC_T0_DATA;
                m.data = xcalloc(m.len + 4, 1);
                for (unsigned i = 0; i < m.len; i++)
                    m.data[i] = (uint8_t)rng_next(&r);
                if (m.len >= 4)
                    memcpy(m.data, &seq, 4);
                seq++;
                unsigned set = 0;
                if (m.dst < ports)
                    set = 1u << m.dst;
                else if (m.dst == 255)
                    set = m.mask & ((1u << ports) - 1u);
                set &= ~(1u << src);
                send(F, src, ch, &m);
                sent++;
                if (!set)
                    drops++;
                else {
                    msgs++;
                    mcast += (set & (set - 1)) != 0;
                    words += 8 * mlc_msg_units(&m);
                }
                for (unsigned d = 0; d < ports; d++)
                    if ((set >> d) & 1u) {
                        mlc_msg_t c = m;
                        c.data = xcalloc(m.len + 1, 1);
                        memcpy(c.data, m.data, m.len);
                        xpush(&exp[src][ch][d], &c);
                        copies++;
                    }
                free(m.data);
            }
        }
        fab_step(F);
        for (unsigned d = 0; d < ports; d++) {
            rec_t g;
            while (ring_pop(&F->got[d], &g)) {
                got++;
                unsigned s = g.m.src;
                if (s >= ports || s == d) {
                    if (bad++ < 5)
                        check(0, "soak seed %" PRIu64 ": step %" PRIu64 ": node %u got a message from %u (its own or none)", seed, F->k,
                              d, s);
                } else {
                    ring_t *e = &exp[s][g.ch][d];
                    mlc_msg_t *w = ring_front(e);
                    if (!w || !mlc_msg_eq(&g.m, w)) {
                        if (bad++ < 5)
                            check(0, "soak seed %" PRIu64 ": step %" PRIu64 ": node %u ch %u: message from %u %s", seed, F->k, d,
                                  g.ch, s, w ? "differs from the next expected" : "not expected");
                    }
                    if (w) {
                        free(w->data);
                        ring_pop(e, NULL);
                    }
                }
                mlc_msg_free(&g.m);
            }
        }
        if (k >= steps && got == copies) {
            int idle = 1;
            for (unsigned i = 0; i < ports; i++)
                idle &= mlc_host_tx_pending(F->host[i], 0) == 0 && mlc_host_tx_pending(F->host[i], 1) == 0;
            if (idle)
                break;
        }
    }
    fab_run(F, 2000); /* nothing more may come */
    printf("soak: seed %" PRIu64 ": %" PRIu64 " steps, %" PRIu64 " messages (%" PRIu64 " dropped, %" PRIu64 " multicast), %" PRIu64
           " copies sent, %" PRIu64 " received, %" PRIu64 " words on the bus\n",
           seed, F->k, sent, drops, mcast, copies, got, ctr(F, 0, SBOX_CTR_WORDS));
    for (unsigned d = 0; d < ports; d++)
        bad += F->got[d].n;
    check(bad == 0 && got == copies, "soak seed %" PRIu64 ": every message whole, in order per (src, ch, dst), once, never to its sender "
          "(%" PRIu64 " messages, %" PRIu64 " copies, %" PRIu64 " received, %" PRIu64 " steps)", seed, sent, copies, got, F->k);
    check(ctr(F, 0, SBOX_CTR_DROP_ROUTE) == drops && ctr(F, 0, SBOX_CTR_MSGS) == msgs && ctr(F, 0, SBOX_CTR_MCAST) == mcast &&
              ctr(F, 0, SBOX_CTR_WORDS) == words,
          "soak seed %" PRIu64 ": counters: drop_route %" PRIu64 "/%" PRIu64 " msgs %" PRIu64 "/%" PRIu64 " mcast %" PRIu64 "/%" PRIu64
          " words %" PRIu64 "/%" PRIu64, seed, ctr(F, 0, SBOX_CTR_DROP_ROUTE), drops, ctr(F, 0, SBOX_CTR_MSGS), msgs,
          ctr(F, 0, SBOX_CTR_MCAST), mcast, ctr(F, 0, SBOX_CTR_WORDS), words);
    check(ctr(F, 0, SBOX_CTR_ERR_MSG) == 0 && ctr(F, 0, SBOX_CTR_ERR_BAR) == 0, "soak seed %" PRIu64 ": no err_msg, err_bar", seed);
    check(no_over_under(F), "soak seed %" PRIu64 ": the box MLCs' wr_over and rd_under stay 0 (and the nodes')", seed);
    if (shadow)
        check(F->shadow_diff == 0, "soak seed %" PRIu64 ": the box with its fast path (sbox_set_fast) equals the box without it in "
              "every output and counter of every step (%" PRIu64 " steps differ)", seed, F->shadow_diff);
    for (unsigned s = 0; s < 8; s++)
        for (unsigned c = 0; c < 2; c++)
            for (unsigned d = 0; d < 8; d++) {
                mlc_msg_t m;
                while (ring_pop(&exp[s][c][d], &m))
                    free(m.data);
                ring_free(&exp[s][c][d]);
            }
    fab_free(F);
}

/* sanfab — xbar_unit: latency, handover, STOP/GO both ways, timeouts
 * (run from the table of xbar_unit.c; the helpers they call are in xbar_unit_sim.c). */
#include "xbar_unit.h"

/* ================================================================ tests */

/* Latency: header in at n (bypass into an idle input) to first byte out at n + max(4, RD+3) + LD;
 * the packet arrives whole with a regenerated CRC (route byte stripped). */
void test_latency(void)
{
    static const unsigned rds[] = {0, 1, 2, 3, 5, 21};
    static const unsigned lds[] = {0, 1, 8};
    for (unsigned a = 0; a < sizeof rds / sizeof rds[0]; a++)
        for (unsigned b = 0; b < sizeof lds / sizeof lds[0]; b++) {
            xbar_params_t p = params(8);
            p.ROUTE_DELAY = rds[a];
            p.LINK_DELAY = lds[b];
            sim_t *s = sim_new(&p, 200);
            uint8_t pk[16];
            unsigned len = make_pkt(pk, 5, 6, 3);
            const unsigned n = 10;
            put_pkt(s, 2, n, pk, len, CRC_GOOD, CH_GAP);
            sim_all(s);
            unsigned want = n + umax(4, rds[a] + 3) + lds[b];
            unsigned got = first_data(s, 5, 1, 199);
            check(got == want && s->tx[5][got] == pk[1],
                  "latency ROUTE_DELAY=%u LINK_DELAY=%u: first byte out at step %u (0x%03x), want step %u (%u cycles)",
                  rds[a], lds[b], got, got ? s->tx[5][got] : 0, want, want - n);
            rxpkt_t rp[2];
            unsigned np = parse_tx(s, 5, 1, 199, rp, 2);
            check(np == 1 && rp[0].end == CH_GAP && rp[0].len == 7 && memcmp(rp[0].b, pk + 1, 6) == 0 &&
                         rp[0].residue == 0,
                  "latency ROUTE_DELAY=%u LINK_DELAY=%u: packet not forwarded whole with a good CRC", rds[a], lds[b]);
            /* the same through the slack buffer: the header popped from the buffer in step n2 (an
             * earlier packet on the same input still being read) */
            sim_free(s);
        }
    /* Header popped from the buffer in step P (input 1 sends a packet to 3 and right behind it one
     * to 4; the second header is popped in the step after the first packet's LAST is popped, the
     * step the first packet's CRC is on tx). DOC: the doc says the latency is "the same" when the
     * header is popped from the buffer in step n; by the read-side rules the body byte b1 is then
     * already at the head, so the pop is at P + ROUTE_DELAY + 2 (grant at P + ROUTE_DELAY + 1) and
     * the first byte leaves at P + ROUTE_DELAY + 3: one step before the formula when ROUTE_DELAY
     * = 0. The test checks the rules, and reports the case to the lead. */
    for (unsigned v = 0; v < 4; v++) {
        xbar_params_t p = params(8);
        p.ROUTE_DELAY = (v & 1) ? 3 : 0;
        p.LINK_DELAY = (v & 2) ? 3 : 0;
        sim_t *s = sim_new(&p, 200);
        uint8_t pk[16], pk2[16];
        unsigned len = make_pkt(pk, 3, 5, 1), len2 = make_pkt(pk2, 4, 5, 2);
        unsigned e = put_pkt(s, 1, 10, pk, len, CRC_GOOD, CH_GAP);
        put_pkt(s, 1, e, pk2, len2, CRC_GOOD, CH_GAP);
        sim_all(s);
        rxpkt_t rp[2];
        unsigned np = parse_tx(s, 3, 1, 199, rp, 2);
        unsigned P = np ? rp[0].end_step - 1 - p.LINK_DELAY : 0; /* CRC on the tx register */
        unsigned got = first_data(s, 4, 1, 199), want = P + p.ROUTE_DELAY + 3 + p.LINK_DELAY;
        check(np == 1 && got == want && got >= e + 4 + p.LINK_DELAY,
              "latency from the buffer ROUTE_DELAY=%u LINK_DELAY=%u: route byte in at %u, header popped at %u, "
              "first byte at %u, want %u",
              p.ROUTE_DELAY, p.LINK_DELAY, e, P, got, want);
        sim_free(s);
    }
}

/* Handover: inputs 1 and 2 both want output 0 from the same step (32 ports: inputs 30 and 31 want output
 * 31); the second packet's first byte follows the first one's GAP with no idle cycle. */
void test_handover(void)
{
    for (unsigned v = 0; v < 4; v++) {
        xbar_params_t p = params(v == 3 ? 32 : v == 2 ? 5 : 4);
        p.ROUTE_DELAY = v == 1 ? 3 : 0;
        p.LINK_DELAY = v == 1 ? 2 : 0;
        const unsigned ia = v == 3 ? 30 : 1, ib = ia + 1, o = v == 3 ? 31 : 0;
        sim_t *s = sim_new(&p, 300);
        uint8_t a[32], b[32];
        unsigned la = make_pkt(a, o, 12, 1), lb = make_pkt(b, o, 12, 2);
        put_pkt(s, ia, 10, a, la, CRC_GOOD, CH_GAP);
        put_pkt(s, ib, 10, b, lb, CRC_GOOD, CH_GAP);
        sim_all(s);
        rxpkt_t rp[3];
        unsigned np = parse_tx(s, o, 1, 299, rp, 3);
        check(np == 2 && rp[0].len == 13 && memcmp(rp[0].b, a + 1, 12) == 0 && rp[1].len == 13 &&
                     memcmp(rp[1].b, b + 1, 12) == 0,
              "handover v%u: two whole packets on output %u, input %u first (round robin from 0)", v, o, ia);
        if (np == 2)
            check(rp[1].first == rp[0].end_step + 1,
                  "handover v%u: GAP at step %u, next first byte at %u: want no idle cycle", v, rp[0].end_step,
                  rp[1].first);
        sim_free(s);
    }
}

/* Flow control towards upstream: STOP on tx[p] exactly 2 steps (+LINK_DELAY) after stat_occ[p]
 * reaches STOP_THRESH, GO 2 steps after it falls to GO_THRESH; nothing else announced between. */
void test_stop_go(void)
{
    for (unsigned v = 0; v < 2; v++) {
        xbar_params_t p = params(4);
        p.SLACK_DEPTH = 32;
        p.STOP_THRESH = 20;
        p.GO_THRESH = 8;
        p.LINK_DELAY = v ? 3 : 0;
        p.TIMEOUT = 0;
        sim_t *s = sim_new(&p, 400);
        /* output 1's receiver says STOP first, input 0 sends a long packet to output 1, ignoring STOP */
        s->rx[1][3] = CH_STOP;
        uint8_t pk[64];
        unsigned len = make_pkt(pk, 1, 26, 5);
        put_pkt(s, 0, 5, pk, len, CRC_GOOD, CH_GAP);
        s->rx[1][150] = CH_GO;
        sim_all(s);
        unsigned st = 0, fa = 0;
        for (unsigned k = 1; k < 400 && !st; k++)
            if (s->occ[0][k] >= p.STOP_THRESH)
                st = k;
        for (unsigned k = 150; k < 400 && !fa; k++)
            if (s->occ[0][k] <= p.GO_THRESH)
                fa = k;
        unsigned want_stop = st + 2 + p.LINK_DELAY, want_go = fa + 2 + p.LINK_DELAY;
        check(st && s->occ[0][st] == p.STOP_THRESH && s->tx[0][want_stop] == CH_STOP &&
                     count_char(s, 0, 1, want_stop - 1, CH_STOP) == 0 && count_char(s, 0, 1, want_stop, CH_GO) == 0,
              "STOP LINK_DELAY=%u: occupancy reached %u at step %u, want STOP on tx[0] at step %u (got 0x%03x)",
              p.LINK_DELAY, p.STOP_THRESH, st, want_stop, st ? s->tx[0][want_stop] : 0);
        check(fa && s->tx[0][want_go] == CH_GO && count_char(s, 0, 1, want_go - 1, CH_GO) == 0 &&
                     count_char(s, 0, 1, 399, CH_STOP) == 1 && count_char(s, 0, 1, 399, CH_GO) == 1,
              "GO LINK_DELAY=%u: occupancy fell to %u at step %u, want GO on tx[0] at step %u (got 0x%03x)",
              p.LINK_DELAY, p.GO_THRESH, fa, want_go, fa ? s->tx[0][want_go] : 0);
        /* what this host sent must come out (buffer deep enough: 26 + CRC + GAP <= 31 + LAST) */
        rxpkt_t rp[2];
        unsigned np = parse_tx(s, 1, 1, 399, rp, 2);
        check(np == 1 && rp[0].len == 27 && rp[0].residue == 0 && memcmp(rp[0].b, pk + 1, 26) == 0,
              "STOP/GO LINK_DELAY=%u: the stopped packet arrives whole after GO", p.LINK_DELAY);
        sim_free(s);
    }
}

/* Flow control from downstream: STOP sampled at s stops packet characters from tx at s+1; GO
 * sampled at g lets them go from g+1. */
void test_downstream_stop(void)
{
    for (unsigned v = 0; v < 2; v++) {
        xbar_params_t p = params(4);
        p.LINK_DELAY = v ? 2 : 0;
        sim_t *s = sim_new(&p, 300);
        uint8_t pk[80];
        unsigned len = make_pkt(pk, 1, 60, 9);
        put_pkt(s, 0, 5, pk, len, CRC_GOOD, CH_GAP);
        const unsigned st = 25, go = 40, L = p.LINK_DELAY;
        s->rx[1][st] = CH_STOP;
        s->rx[1][go] = CH_GO;
        sim_all(s);
        int ok = CH_IS_DATA(s->tx[1][st + L]) && CH_IS_DATA(s->tx[1][go + 1 + L]);
        for (unsigned k = st + 1; k <= go; k++)
            ok &= s->tx[1][k + L] == CH_IDLE;
        check(ok, "downstream STOP LINK_DELAY=%u: STOP at %u, GO at %u: want data at %u, IDLE %u..%u, data at %u",
              L, st, go, st + L, st + 1 + L, go + L, go + 1 + L);
        rxpkt_t rp[2];
        unsigned np = parse_tx(s, 1, 1, 299, rp, 2);
        check(np == 1 && rp[0].len == 61 && rp[0].residue == 0 && memcmp(rp[0].b, pk + 1, 60) == 0,
              "downstream STOP LINK_DELAY=%u: packet whole", L);
        sim_free(s);
    }
}

/* Blocking timeout, packet owning its output (BOUND): its sender stalls mid-packet. Last progress
 * (pop) at j: drained at j + TIMEOUT (drop_timeout event), ABORT on tx at j + TIMEOUT + 2. */
void test_timeout_bound(void)
{
    static const unsigned tos[] = {2, 3, 50};
    for (unsigned a = 0; a < 3; a++) {
        xbar_params_t p = params(4);
        p.TIMEOUT = tos[a];
        sim_t *s = sim_new(&p, 400);
        const unsigned n = 10, T = p.TIMEOUT;
        /* R(1) b1 b2 b3, then silence; b3 stays held. Pops: b1 at n+3, b2 at n+4 (doc latency). */
        s->rx[2][n] = ROUTE_BYTE(1);
        s->rx[2][n + 1] = 0x11;
        s->rx[2][n + 2] = 0x22;
        s->rx[2][n + 3] = 0x33;
        /* the rest of the packet much later: drained at the input */
        s->rx[2][200] = 0x44;
        s->rx[2][201] = 0x55;
        s->rx[2][202] = CH_GAP;
        /* then a good packet from the same input to the same output */
        uint8_t pk[16];
        unsigned len = make_pkt(pk, 1, 4, 7);
        put_pkt(s, 2, 220, pk, len, CRC_GOOD, CH_GAP);
        sim_all(s);
        const unsigned j = n + 4;
        unsigned seen_j = 0;
        for (unsigned k = 1; k < 200; k++)
            if (CH_IS_DATA(s->tx[1][k]))
                seen_j = k - 1; /* last data out at pop + 1 */
        check(seen_j == j, "timeout BOUND T=%u: last pop at step %u, expected %u", T, seen_j, j);
        if (T >= 3)
            check(ctr_at(s, j + T - 1, 2, XBAR_CTR_DROP_TIMEOUT) == 0 &&
                         ctr_at(s, j + T, 2, XBAR_CTR_DROP_TIMEOUT) == 1,
                  "timeout BOUND T=%u: drop_timeout must count in step j+T = %u", T, j + T);
        else /* T = 2: b2's pop at n+4 is progress; b1 at n+3 too: tmo never reaches 1 before j */
            check(ctr_at(s, j + T - 1, 2, XBAR_CTR_DROP_TIMEOUT) == 0 &&
                         ctr_at(s, j + T, 2, XBAR_CTR_DROP_TIMEOUT) == 1,
                  "timeout BOUND T=%u: drop_timeout must count in step %u", T, j + T);
        unsigned ab = 0;
        for (unsigned k = 1; k < 200 && !ab; k++)
            if (s->tx[1][k] == CH_ABORT)
                ab = k;
        check(ab == j + T + 2, "timeout BOUND T=%u: ABORT on tx at step %u, want %u", T, ab, j + T + 2);
        rxpkt_t rp[4];
        unsigned np = parse_tx(s, 1, 1, 399, rp, 4);
        check(np == 2 && rp[0].end == CH_ABORT && rp[0].len == 2 && rp[1].end == CH_GAP && rp[1].len == 5 &&
                     rp[1].residue == 0 && memcmp(rp[1].b, pk + 1, 4) == 0,
              "timeout BOUND T=%u: want a 2-byte ABORTed packet then the next packet whole (got %u packets)", T, np);
        check(ctr_at(s, 399, 1, XBAR_CTR_TX_PKTS) == 2 && ctr_at(s, 399, 2, XBAR_CTR_RX_PKTS) == 2 &&
                     ctr_at(s, 399, 2, XBAR_CTR_DROP_TIMEOUT) == 1,
              "timeout BOUND T=%u: counters tx_pkts/rx_pkts/drop_timeout", T);
        sim_free(s);
    }
}

/* Blocking timeout, packet waiting in HDR: entered HDR at h, its request is withdrawn at h+T-1, it
 * is drained at h+T unless a grant seen at step <= h+T wins. Output 1 is held by input 2 whose
 * packet ends (its LAST reaching the output, x_end) at a chosen step e: the arbiter grants in step
 * e using req[e-1], so input 3 wins iff e <= h+T-1. */
void test_timeout_hdr(void)
{
    const unsigned T = 40;
    for (unsigned d = 0; d < 7; d++) {
        xbar_params_t p = params(4);
        p.TIMEOUT = T;
        sim_t *s = sim_new(&p, 600);
        /* input 2 owns output 1: a byte every 8 steps keeps it making progress */
        unsigned k = 10;
        s->rx[2][k++] = ROUTE_BYTE(1);
        uint8_t body[64];
        unsigned nb = 0;
        const unsigned h = 20; /* input 3's header (bypass: HDR at h) */
        /* input 2's CRC byte at step c, GAP at c+1: LAST written at c+1, popped at c+2 (head at c+1
         * in an empty buffer), x_end at the output at c+3. Want e = h+T-4+d. */
        const unsigned e = h + T - 4 + d, c = e - 3;
        for (; k + 8 <= c; k += 8)
            s->rx[2][k] = body[nb] = (uint8_t)(0x40 + nb), nb++;
        uint8_t crc = crc8_step(0, ROUTE_BYTE(1));
        for (unsigned i = 0; i < nb; i++)
            crc = crc8_step(crc, body[i]);
        s->rx[2][c] = crc;
        s->rx[2][c + 1] = CH_GAP;
        uint8_t pk[16];
        unsigned len = make_pkt(pk, 1, 4, 3);
        put_pkt(s, 3, h, pk, len, CRC_GOOD, CH_GAP);
        /* afterwards output 1 must be free for anyone: a packet from input 0 */
        uint8_t pk0[16];
        unsigned len0 = make_pkt(pk0, 1, 4, 0x55);
        put_pkt(s, 0, 300, pk0, len0, CRC_GOOD, CH_GAP);
        sim_all(s);
        /* x_end step: the CRC byte (LAST) appears on tx[1] in the step the output takes x */
        rxpkt_t rp[3];
        unsigned np = parse_tx(s, 1, 1, 599, rp, 3);
        unsigned e_seen = np ? rp[0].end_step - 1 : 0;
        check(e_seen == e, "timeout HDR d=%u: input 2's LAST at the output in step %u, stimulus meant %u", d,
              e_seen, e);
        int wins = e <= h + T - 1;
        uint32_t dt = ctr_at(s, 599, 3, XBAR_CTR_DROP_TIMEOUT);
        check(np >= 1 && parse_tx(s, 1, 300, 599, rp + 2, 1) == 1 && rp[2].len == 5 && rp[2].b[0] == pk0[1],
              "timeout HDR d=%u: output 1 serves a later packet (no grant to a drained input)", d);
        if (wins)
            check(dt == 0 && np == 3 && rp[1].len == 5 && rp[1].residue == 0,
                  "timeout HDR: x_end at %u <= h+T-1 = %u: input 3 must be granted and delivered", e, h + T - 1);
        else
            check(dt == 1 && ctr_at(s, h + T - 1, 3, XBAR_CTR_DROP_TIMEOUT) == 0 &&
                         ctr_at(s, h + T, 3, XBAR_CTR_DROP_TIMEOUT) == 1 && np == 2,
                  "timeout HDR: x_end at %u > h+T-1 = %u: input 3 must be drained at step h+T = %u", e, h + T - 1,
                  h + T);
        sim_free(s);
    }
}

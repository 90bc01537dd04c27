/* sanfab — xbar_unit: illegal characters, routes, runts, CRC marking, overflow and dropping, ABORT owed
 * (run from the table of xbar_unit.c; the helpers they call are in xbar_unit_sim.c). */
#include "xbar_unit.h"

/* Every illegal control code 0x105..0x1FF: counted malformed between packets (nothing else) and
 * inside packets (the packet leaves marked bad). */
void test_illegal(void)
{
    xbar_params_t p = params(4);
    const unsigned ncodes = 0x200 - 0x105;
    sim_t *s = sim_new(&p, 40 * ncodes + 100);
    unsigned k = 5;
    uint8_t pk[16];
    unsigned len = make_pkt(pk, 2, 6, 1);
    unsigned mark[0x200];
    for (unsigned c = 0x105; c < 0x200; c++) {
        s->rx[0][k] = c; /* between packets */
        mark[c] = k;
        k += 3;
        /* inside a packet: after the route byte, in the body, or just before the GAP */
        unsigned where = c % 3;
        unsigned st = k;
        for (unsigned i = 0; i < len; i++) {
            if (where == 0 && i == 1)
                s->rx[0][k++] = c;
            if (where == 1 && i == 4)
                s->rx[0][k++] = c;
            s->rx[0][k++] = pk[i];
        }
        s->rx[0][k++] = crc8_buf(pk, len);
        if (where == 2)
            s->rx[0][k++] = c;
        s->rx[0][k++] = CH_GAP;
        (void)st;
        k += 20;
    }
    sim_all(s);
    int ok_between = 1, ok_inside = 1;
    for (unsigned c = 0x105; c < 0x200; c++) {
        unsigned m0 = mark[c];
        if (ctr_at(s, m0, 0, XBAR_CTR_MALFORMED) != ctr_at(s, m0 - 1, 0, XBAR_CTR_MALFORMED) + 1 ||
            ctr_at(s, m0, 0, XBAR_CTR_RX_PKTS) != ctr_at(s, m0 - 1, 0, XBAR_CTR_RX_PKTS)) {
            if (ok_between)
                check(0, "illegal 0x%03x between packets: malformed not counted in its step", c);
            ok_between = 0;
        }
    }
    check(ok_between, "every illegal code between packets counted malformed in its step");
    check(ctr_at(s, s->maxs - 1, 0, XBAR_CTR_MALFORMED) == 2 * ncodes,
          "illegal: malformed = %u, want %u (each code once between, once inside)",
          ctr_at(s, s->maxs - 1, 0, XBAR_CTR_MALFORMED), 2 * ncodes);
    rxpkt_t *rp = calloc(ncodes + 4, sizeof *rp);
    unsigned np = parse_tx(s, 2, 1, s->maxs - 1, rp, ncodes + 4);
    ok_inside = np == ncodes;
    for (unsigned i = 0; i < np && i < ncodes; i++)
        if (rp[i].end != CH_GAP || rp[i].len != 7 || rp[i].residue != CRC8_MARKED_RESIDUE ||
            memcmp(rp[i].b, pk + 1, 6) != 0) {
            if (ok_inside)
                check(0, "illegal 0x%03x inside a packet: packet %u not forwarded marked bad (residue 0x%02x)",
                      0x105 + i, i, rp[i].residue);
            ok_inside = 0;
        }
    check(ok_inside, "every illegal code inside a packet marks it bad (%u packets, want %u)", np, ncodes);
    check(ctr_at(s, s->maxs - 1, 0, XBAR_CTR_CRC_ERR) == 0 && ctr_at(s, s->maxs - 1, 0, XBAR_CTR_RX_PKTS) == ncodes,
          "illegal: no crc_err (the CRC was good), rx_pkts = %u", ncodes);
    free(rp);
    sim_free(s);
}

/* Every first byte 0..255 at NPORTS 3 and 5, into an idle input (bypass) and behind another packet
 * (from the buffer): dropped and counted drop_route exactly when it is not 10pppppp, p < NPORTS. */
void test_routes(void)
{
    static const unsigned ns[] = {3, 5, 32}; /* 32: 0x80..0x9F name ports, 0xA0..0xBF (ports 32..63) none */
    for (unsigned a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (unsigned buffered = 0; buffered < 2; buffered++) {
            xbar_params_t p = params(ns[a]);
            const unsigned per = 30;
            sim_t *s = sim_new(&p, 256 * per + 100);
            unsigned bstep[256];
            for (unsigned b = 0; b < 256; b++) {
                unsigned k = 5 + b * per;
                uint8_t pk[8] = {(uint8_t)b, 0x5A, 0xA5, (uint8_t)b};
                if (buffered) {
                    uint8_t lead[8];
                    unsigned ll = make_pkt(lead, 1, 3, b);
                    k = put_pkt(s, 2, k, lead, ll, CRC_GOOD, CH_GAP);
                }
                bstep[b] = k;
                put_pkt(s, 2, k, pk, 4, CRC_GOOD, CH_GAP);
            }
            sim_all(s);
            int ok = 1;
            unsigned nvalid = 0;
            for (unsigned b = 0; b < 256; b++) {
                int valid = (b & 0xC0u) == 0x80u && (b & 0x3Fu) < ns[a];
                nvalid += valid;
                unsigned k0 = bstep[b] - 1, k1 = 5 + (b + 1) * per - 1;
                uint32_t d = ctr_at(s, k1, 2, XBAR_CTR_DROP_ROUTE) - ctr_at(s, k0, 2, XBAR_CTR_DROP_ROUTE);
                if (d != (valid ? 0u : 1u)) {
                    if (ok)
                        check(0, "route NPORTS=%u %s: first byte 0x%02x counted drop_route %u times, want %u", ns[a],
                              buffered ? "buffered" : "bypass", b, d, valid ? 0 : 1);
                    ok = 0;
                }
            }
            check(ok, "route NPORTS=%u %s: drop_route exactly for the bytes naming no port", ns[a],
                  buffered ? "buffered" : "bypass");
            /* the valid ones arrive at their port */
            unsigned got = 0;
            for (unsigned q = 0; q < ns[a]; q++) {
                rxpkt_t rp[300];
                unsigned np = parse_tx(s, q, 1, s->maxs - 1, rp, 300);
                for (unsigned i = 0; i < np && i < 300; i++)
                    if (rp[i].len == 4 && rp[i].b[0] == 0x5A && rp[i].residue == 0 && rp[i].b[2] == ROUTE_BYTE(q))
                        got++;
            }
            check(got == nvalid && ctr_at(s, s->maxs - 1, 2, XBAR_CTR_DROP_ROUTE) == 256 - nvalid,
                  "route NPORTS=%u %s: %u of %u valid first bytes delivered to their port", ns[a],
                  buffered ? "buffered" : "bypass", got, nvalid);
            sim_free(s);
        }
}

/* Runt: route byte then GAP -> malformed, forwarded as a lone ABORT. ABORT from the sender inside a
 * packet: ends with ABORT downstream, held byte dropped, not malformed. Stray GAP/ABORT: ignored. */
void test_runt_abort(void)
{
    xbar_params_t p = params(4);
    sim_t *s = sim_new(&p, 200);
    s->rx[0][10] = ROUTE_BYTE(3);
    s->rx[0][11] = CH_GAP;
    s->rx[0][30] = CH_GAP; /* stray */
    s->rx[0][31] = CH_ABORT;
    s->rx[0][40] = ROUTE_BYTE(3);
    s->rx[0][41] = 0x11;
    s->rx[0][42] = 0x22;
    s->rx[0][43] = CH_ABORT;
    sim_all(s);
    rxpkt_t rp[4];
    unsigned np = parse_tx(s, 3, 1, 199, rp, 4);
    check(np == 2 && rp[0].end == CH_ABORT && rp[0].len == 0, "runt: forwarded as a lone ABORT");
    check(np == 2 && rp[1].end == CH_ABORT && rp[1].len == 1 && rp[1].b[0] == 0x11,
          "sender ABORT: 0x11 forwarded, the held 0x22 dropped, then ABORT");
    check(ctr_at(s, 29, 0, XBAR_CTR_MALFORMED) == 1 && ctr_at(s, 199, 0, XBAR_CTR_MALFORMED) == 1 &&
                 ctr_at(s, 199, 0, XBAR_CTR_RX_PKTS) == 2 && ctr_at(s, 199, 3, XBAR_CTR_TX_PKTS) == 2 &&
                 ctr_at(s, 199, 0, XBAR_CTR_RX_BYTES) == 4 && ctr_at(s, 199, 3, XBAR_CTR_TX_BYTES) == 1,
          "runt/abort counters: malformed 1 (runt only), rx_pkts 2, tx_pkts 2, rx_bytes 4, tx_bytes 1");
    sim_free(s);
}

/* CRC: good -> residue 0, not counted; wrong -> crc_err, forwarded marked (residue 0xF3); already
 * marked -> not counted, forwarded marked. Also through two switches: the mark travels. */
void test_crc(void)
{
    xbar_params_t p = params(4);
    sim_t *s = sim_new(&p, 300);
    uint8_t pk[32];
    unsigned len = make_pkt(pk, 1, 10, 4);
    put_pkt(s, 0, 10, pk, len, CRC_GOOD, CH_GAP);
    put_pkt(s, 0, 40, pk, len, CRC_WRONG, CH_GAP);
    put_pkt(s, 0, 70, pk, len, CRC_MARKED, CH_GAP);
    /* two route bytes: the next switch's route byte survives and is covered by the new CRC */
    uint8_t pk2[32];
    pk2[0] = ROUTE_BYTE(1);
    pk2[1] = ROUTE_BYTE(2);
    for (unsigned i = 2; i < 9; i++)
        pk2[i] = (uint8_t)(i * 17);
    put_pkt(s, 0, 100, pk2, 9, CRC_GOOD, CH_GAP);
    sim_all(s);
    rxpkt_t rp[5];
    unsigned np = parse_tx(s, 1, 1, 299, rp, 5);
    check(np == 4, "crc: 4 packets out (got %u)", np);
    if (np == 4) {
        check(rp[0].residue == 0 && rp[0].len == 11, "crc good: forwarded good");
        check(rp[1].residue == CRC8_MARKED_RESIDUE && rp[1].len == 11, "crc wrong: forwarded marked (0xF3)");
        check(rp[2].residue == CRC8_MARKED_RESIDUE && rp[2].len == 11, "crc marked: forwarded marked (0xF3)");
        check(rp[3].residue == 0 && rp[3].len == 9 && rp[3].b[0] == ROUTE_BYTE(2),
              "crc: the next route byte forwarded, new CRC good");
    }
    /* the wrong packet: 11 characters at 40..50, CRC at 51, GAP at 52 */
    check(ctr_at(s, 299, 0, XBAR_CTR_CRC_ERR) == 1 && ctr_at(s, 52, 0, XBAR_CTR_CRC_ERR) == 1 &&
                 ctr_at(s, 51, 0, XBAR_CTR_CRC_ERR) == 0,
          "crc_err: 1 (the wrong CRC only), counted in its GAP's step 52");
    sim_free(s);
}

/* The overflow scenes: 4 ports, a 16-entry slack buffer (STOP 10, GO 4), no timeout, 400 steps,
 * output 1 stopped by its receiver from step 3. */
static sim_t *overflow_sim(xbar_params_t *p)
{
    *p = params(4);
    p->SLACK_DEPTH = 16;
    p->STOP_THRESH = 10;
    p->GO_THRESH = 4;
    p->TIMEOUT = 0;
    sim_t *s = sim_new(p, 400);
    s->rx[1][3] = CH_STOP;
    return s;
}

/* Overflow: a host ignoring STOP towards a stopped output. Data never takes the last slot; lost
 * entries counted; the damaged packet leaves marked; a header finding fewer than 2 free slots
 * drops its whole packet (each entry counted). */
void test_overflow(void)
{
    xbar_params_t p;
    sim_t *s = overflow_sim(&p);
    uint8_t pk[64], pk2[16], pk3[16];
    unsigned len = make_pkt(pk, 1, 40, 8);
    unsigned k = put_pkt(s, 0, 10, pk, len, CRC_GOOD, CH_GAP); /* 40 DATA entries + LAST */
    unsigned len2 = make_pkt(pk2, 1, 5, 9);
    unsigned k2 = put_pkt(s, 0, k, pk2, len2, CRC_GOOD, CH_GAP); /* HDR + 5 DATA + LAST: all lost */
    s->rx[1][150] = CH_GO;
    unsigned len3 = make_pkt(pk3, 1, 5, 10);
    put_pkt(s, 0, 200, pk3, len3, CRC_GOOD, CH_GAP);
    sim_all(s);
    unsigned maxocc = 0, maxocc_data = 0;
    for (unsigned q = 1; q < 150; q++) {
        maxocc = umax(maxocc, s->occ[0][q]);
        if (q < k - 1)
            maxocc_data = umax(maxocc_data, s->occ[0][q]);
    }
    check(maxocc_data == p.SLACK_DEPTH - 1 && maxocc == p.SLACK_DEPTH,
          "overflow: data fills to SLACK_DEPTH-1 = %u (got %u), the end takes the last slot (max %u)",
          p.SLACK_DEPTH - 1, maxocc_data, maxocc);
    rxpkt_t rp[4];
    unsigned np = parse_tx(s, 1, 1, 399, rp, 4);
    uint32_t ov1 = ctr_at(s, k - 1, 0, XBAR_CTR_OVERFLOW), ov = ctr_at(s, 399, 0, XBAR_CTR_OVERFLOW);
    check(np == 2, "overflow: 2 packets out (got %u)", np);
    if (np == 2) {
        unsigned delivered = rp[0].len - 1; /* data bytes without the CRC */
        check(rp[0].end == CH_GAP && rp[0].residue == CRC8_MARKED_RESIDUE && delivered + ov1 == 40 &&
                     memcmp(rp[0].b, pk + 1, delivered) == 0,
              "overflow: damaged packet leaves marked with %u of 40 bytes, %u overflow counted", delivered, ov1);
        check(rp[1].residue == 0 && rp[1].len == 6 && memcmp(rp[1].b, pk3 + 1, 5) == 0,
              "overflow: the packet after recovery is whole");
    }
    check(ov == ov1 + 7 && ctr_at(s, k2 - 1, 0, XBAR_CTR_OVERFLOW) == ov1 + 7,
          "overflow: header finding no room drops its whole packet, 7 entries counted (got %u)", ov - ov1);
    check(ctr_at(s, 399, 0, XBAR_CTR_RX_PKTS) == 3 && ctr_at(s, 399, 1, XBAR_CTR_TX_PKTS) == 2,
          "overflow: rx_pkts 3, tx_pkts 2");
    sim_free(s);
}

/* A header that finds no room drops its whole packet even when room appears while the rest of the
 * packet arrives (`dropping`): output 1 stopped, input 0 full, GO sampled right after the second
 * header, whose 30 body bytes then arrive into a draining buffer. */
void test_dropping(void)
{
    xbar_params_t p;
    sim_t *s = overflow_sim(&p);
    uint8_t pk[64], pk2[64];
    unsigned len = make_pkt(pk, 1, 20, 8);
    unsigned k = put_pkt(s, 0, 10, pk, len, CRC_GOOD, CH_GAP);
    unsigned len2 = make_pkt(pk2, 1, 30, 9);
    unsigned k2 = put_pkt(s, 0, k, pk2, len2, CRC_GOOD, CH_GAP);
    s->rx[1][k + 1] = CH_GO;
    sim_all(s);
    rxpkt_t rp[4];
    unsigned np = parse_tx(s, 1, 1, 399, rp, 4);
    uint32_t ov1 = ctr_at(s, k - 1, 0, XBAR_CTR_OVERFLOW), ov2 = ctr_at(s, k2 - 1, 0, XBAR_CTR_OVERFLOW);
    check(s->occ[0][k - 1] == p.SLACK_DEPTH && np == 1 && rp[0].residue == CRC8_MARKED_RESIDUE &&
                 ov2 - ov1 == 32 && ctr_at(s, 399, 0, XBAR_CTR_RX_PKTS) == 2,
          "dropping: a header finding the buffer full drops all 32 entries of its packet although room appears "
          "(occ %u, %u packets out, %u overflow)",
          s->occ[0][k - 1], np, ov2 - ov1);
    sim_free(s);
    /* The same with a first packet of 9..20 body bytes, so that the second header finds every
     * occupancy from below SLACK_DEPTH - 1 to full, SLACK_DEPTH - 1 included: its packet leaves whole,
     * or marked with every lost byte counted (overflow), or is dropped whole (32 entries counted). */
    int edge = 0;
    for (unsigned body = 9; body <= 20; body++) {
        s = overflow_sim(&p);
        len = make_pkt(pk, 1, body, 8);
        k = put_pkt(s, 0, 10, pk, len, CRC_GOOD, CH_GAP);
        k2 = put_pkt(s, 0, k, pk2, len2, CRC_GOOD, CH_GAP);
        s->rx[1][k + 1] = CH_GO;
        sim_all(s);
        np = parse_tx(s, 1, 1, 399, rp, 4);
        unsigned occ = s->occ[0][k - 1];
        edge |= occ == p.SLACK_DEPTH - 1;
        ov1 = ctr_at(s, k - 1, 0, XBAR_CTR_OVERFLOW);
        ov2 = ctr_at(s, 399, 0, XBAR_CTR_OVERFLOW);
        /* len2: route byte and 30 body bytes; out: the body and the CRC */
        int whole = np == 2 && rp[1].end == CH_GAP && rp[1].residue == 0 && rp[1].len == len2 &&
                    memcmp(rp[1].b, pk2 + 1, len2 - 1) == 0 && ov2 == ov1;
        int marked = np == 2 && rp[1].end == CH_GAP && rp[1].residue == CRC8_MARKED_RESIDUE && ov2 > ov1 &&
                     rp[1].len - 1 + (ov2 - ov1) == len2 - 1;
        int dropped = np == 1 && ov2 - ov1 == 32;
        check(whole || marked || dropped,
              "dropping: first packet of %u bytes, the second header finds occupancy %u: its packet leaves whole, "
              "or marked with its lost bytes counted, or is dropped whole (%u packets out, %u overflow)",
              body, occ, np, ov2 - ov1);
        sim_free(s);
    }
    check(edge, "dropping: one of the second headers finds occupancy SLACK_DEPTH - 1 = %u", p.SLACK_DEPTH - 1);
}

/* Input 0 times out owning the
 * stopped output 1, drains, and sends a packet to output 2 while output 1 still owes the ABORT:
 * the new packet leaves whole on output 2 only; after GO output 1 sends its 2 queued bytes and
 * the ABORT. */
void test_abt_owner(void)
{
    xbar_params_t p = params(4);
    p.TIMEOUT = 30;
    sim_t *s = sim_new(&p, 400);
    s->rx[1][3] = CH_STOP;
    uint8_t pk[64], pk2[32];
    unsigned len = make_pkt(pk, 1, 20, 8);
    unsigned k = put_pkt(s, 0, 10, pk, len, CRC_GOOD, CH_GAP);
    unsigned len2 = make_pkt(pk2, 2, 20, 9);
    put_pkt(s, 0, k + 60, pk2, len2, CRC_GOOD, CH_GAP);
    const unsigned g = 250;
    s->rx[1][g] = CH_GO;
    sim_all(s);
    rxpkt_t rp[4], rq[4];
    unsigned np = parse_tx(s, 1, 1, 399, rp, 4), nq = parse_tx(s, 2, 1, 399, rq, 4);
    check(nq == 1 && rq[0].len == 21 && rq[0].residue == 0 && memcmp(rq[0].b, pk2 + 1, 20) == 0,
          "abt owner: the drained input's next packet leaves whole on output 2");
    check(np == 1 && rp[0].end == CH_ABORT && rp[0].len == 2 && rp[0].end_step == g + 3,
          "abt owner: output 1 sends its 2 queued bytes and the ABORT after GO (at %u), nothing else", g + 3);
    sim_free(s);
}

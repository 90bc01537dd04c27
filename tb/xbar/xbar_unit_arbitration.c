/* sanfab — xbar_unit: round robin, head timing, permutation throughput, 32 ports, parameter checks
 * (run from the table of xbar_unit.c; the helpers they call are in xbar_unit_sim.c). */
#include "xbar_unit.h"

/* Round robin: every input sends to output 0 at once (32 ports: to output 31), twice in a row; served
 * 0,1,..,N-1 then again 0,1,..; then inputs 3 and 1 alone after input 2 was served last: 3 first (at or
 * after rr = 3); at 32 ports inputs 29, 31 and 1 after input 30: 31, then (wrapping past bit 31) 1, 29. */
void test_round_robin(void)
{
    static const unsigned ns[] = {3, 5, 8, 32};
    for (unsigned a = 0; a < sizeof ns / sizeof ns[0]; a++) {
        const unsigned N = ns[a], o = N == 32 ? 31 : 0;
        xbar_params_t p = params(N);
        sim_t *s = sim_new(&p, 1500);
        for (unsigned i = 0; i < N; i++) {
            uint8_t pk[16];
            unsigned len = make_pkt(pk, o, 3, 0);
            pk[1] = (uint8_t)i; /* source tag */
            unsigned k = put_pkt(s, i, 10, pk, len, CRC_GOOD, CH_GAP);
            pk[1] = (uint8_t)(0x40 + i);
            put_pkt(s, i, k, pk, len, CRC_GOOD, CH_GAP);
        }
        sim_all(s);
        rxpkt_t rp[2 * XBAR_MAX_PORTS + 2];
        unsigned np = parse_tx(s, o, 1, 1499, rp, 2 * XBAR_MAX_PORTS + 2);
        int ok = np == 2 * N;
        for (unsigned j = 0; j < np && j < 2 * N && ok; j++)
            ok = rp[j].b[0] == (j < N ? j : 0x40 + (j - N)) && rp[j].residue == 0;
        check(ok, "round robin N=%u: order 0..N-1 twice on output %u (%u packets)", N, o, np);
        sim_free(s);
    }
    {
        xbar_params_t p = params(32);
        sim_t *s = sim_new(&p, 300);
        uint8_t pk[16];
        unsigned len = make_pkt(pk, 5, 3, 0);
        pk[1] = 30;
        put_pkt(s, 30, 10, pk, len, CRC_GOOD, CH_GAP); /* served alone: rr -> 31 */
        static const unsigned late[] = {1, 29, 31};
        for (unsigned j = 0; j < 3; j++) {
            pk[1] = (uint8_t)late[j];
            put_pkt(s, late[j], 40, pk, len, CRC_GOOD, CH_GAP);
        }
        sim_all(s);
        rxpkt_t rp[5];
        unsigned np = parse_tx(s, 5, 1, 299, rp, 5);
        check(np == 4 && rp[0].b[0] == 30 && rp[1].b[0] == 31 && rp[2].b[0] == 1 && rp[3].b[0] == 29,
              "round robin N=32: after input 30, inputs 1, 29 and 31 together: 31, 1, 29 (wrapping past 31)");
        sim_free(s);
    }
    {
        xbar_params_t p = params(5);
        sim_t *s = sim_new(&p, 300);
        uint8_t pk[16];
        unsigned len = make_pkt(pk, 0, 3, 0);
        pk[1] = 2;
        put_pkt(s, 2, 10, pk, len, CRC_GOOD, CH_GAP); /* served alone: rr -> 3 */
        pk[1] = 1;
        put_pkt(s, 1, 40, pk, len, CRC_GOOD, CH_GAP);
        pk[1] = 3;
        put_pkt(s, 3, 40, pk, len, CRC_GOOD, CH_GAP);
        sim_all(s);
        rxpkt_t rp[4];
        unsigned np = parse_tx(s, 0, 1, 299, rp, 4);
        check(np == 3 && rp[0].b[0] == 2 && rp[1].b[0] == 3 && rp[2].b[0] == 1,
              "round robin: after input 2, inputs 1 and 3 together: 3 first, then 1 (wrapping)");
        sim_free(s);
    }
}

/* Round robin after an idle output: input 1 sends two packets to output 0 back to back; input 2's
 * route byte arrives (bypass) in the step input 1's second header is popped, so both request in
 * the same step t while the output is free: input 2 (at or after rr = 2) goes first. The step t is
 * found by a first run without input 2 (the step input 1's first CRC is on tx). */
void test_rr_regrant(void)
{
    unsigned tt = 0;
    for (unsigned run = 0; run < 2; run++) {
        xbar_params_t p = params(4);
        sim_t *s = sim_new(&p, 200);
        uint8_t a[16], b[16], c[16];
        unsigned la = make_pkt(a, 0, 5, 1), lb = make_pkt(b, 0, 5, 2), lc = make_pkt(c, 0, 5, 3);
        unsigned k = put_pkt(s, 1, 10, a, la, CRC_GOOD, CH_GAP);
        put_pkt(s, 1, k, b, lb, CRC_GOOD, CH_GAP);
        if (run)
            put_pkt(s, 2, tt, c, lc, CRC_GOOD, CH_GAP);
        sim_all(s);
        rxpkt_t rp[4];
        unsigned np = parse_tx(s, 0, 1, 199, rp, 4);
        if (!run) {
            tt = np ? rp[0].end_step - 1 : 0;
            check(np == 2 && tt > 10, "round robin regrant: first run");
        } else {
            check(np == 3 && rp[0].b[0] == a[1] && rp[1].b[0] == c[1] && rp[2].b[0] == b[1],
                  "round robin regrant: input 2 served before input 1's second packet (header in at %u)", tt);
        }
        sim_free(s);
    }
}

/* Head timing: an entry written while its predecessor waits at the head reaches the head at
 * max(w + 2, p). With ROUTE_DELAY = 2, b2 is written at n+3 and b1 popped at n+4 = w+1, so b2
 * reaches the head at n+5 and leaves one step late: b1 at n+5, a bubble, then b2, b3, ... With
 * ROUTE_DELAY 0, 1, 3 there is no bubble. */
void test_head_timing(void)
{
    for (unsigned rd = 0; rd < 4; rd++) {
        xbar_params_t p = params(4);
        p.ROUTE_DELAY = rd;
        sim_t *s = sim_new(&p, 100);
        uint8_t pk[16];
        unsigned len = make_pkt(pk, 3, 6, 4);
        const unsigned n = 10;
        put_pkt(s, 0, n, pk, len, CRC_GOOD, CH_GAP);
        sim_all(s);
        unsigned f = n + umax(4, rd + 3);
        int ok = s->tx[3][f] == pk[1];
        unsigned k = f + 1;
        if (rd == 2)
            ok &= s->tx[3][k++] == CH_IDLE;
        for (unsigned i = 2; i <= 6; i++)
            ok &= s->tx[3][k++] == pk[i];
        ok &= CH_IS_DATA(s->tx[3][k]) && s->tx[3][k + 1] == CH_GAP;
        check(ok, "head timing ROUTE_DELAY=%u: b1 at step %u then %s", rd, f,
              rd == 2 ? "one idle step, then the rest back to back" : "the rest back to back");
        sim_free(s);
    }
}

/* Permutation: every input sends back-to-back packets of L characters to a distinct output; the
 * inputs take one character per cycle without any STOP; each output sends L-1 characters per L
 * cycles (route byte stripped); every packet arrives whole. */
void test_permutation(void)
{
    static const unsigned ns[] = {3, 5, 8, 32};
    static const unsigned bodies[] = {2, 13};
    for (unsigned a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (unsigned bb = 0; bb < 2; bb++) {
            const unsigned N = ns[a], m = bodies[bb], L = m + 3, npk = 120;
            xbar_params_t p = params(N);
            p.LINK_DELAY = 1;
            const unsigned start = 5, end = start + npk * L;
            sim_t *s = sim_new(&p, end + 100);
            for (unsigned i = 0; i < N; i++) {
                unsigned k = start;
                for (unsigned j = 0; j < npk; j++) {
                    uint8_t pk[32];
                    unsigned len = make_pkt(pk, (i + 1) % N, m, i * 1000 + j);
                    k = put_pkt(s, i, k, pk, len, CRC_GOOD, CH_GAP);
                }
            }
            sim_all(s);
            int ok = 1;
            unsigned stops = 0;
            for (unsigned q = 0; q < N; q++) {
                stops += count_char(s, q, 1, s->maxs - 1, CH_STOP);
                rxpkt_t *rp = calloc(npk + 2, sizeof *rp);
                unsigned np = parse_tx(s, q, 1, s->maxs - 1, rp, npk + 2);
                ok &= np == npk;
                /* steady state: from the second packet's first byte, L-1 characters every L steps
                 * (the first packet was bypassed, one step ahead of the rest) */
                if (np == npk) {
                    unsigned f = rp[1].first, busy = 0, win = (npk - 3) * L;
                    for (unsigned k = f; k < f + win; k++)
                        busy += s->tx[q][k] != CH_IDLE;
                    ok &= busy == (npk - 3) * (L - 1);
                    ok &= ctr_at(s, s->maxs - 1, q, XBAR_CTR_OVERFLOW) == 0;
                    unsigned src = (q + N - 1) % N;
                    for (unsigned j = 0; j < np; j++) {
                        uint8_t pk[32];
                        make_pkt(pk, q, m, src * 1000 + j);
                        ok &= rp[j].len == m + 1 && rp[j].residue == 0 && memcmp(rp[j].b, pk + 1, m) == 0;
                    }
                }
                free(rp);
            }
            check(ok && stops == 0,
                  "permutation N=%u L=%u: %u packets per input whole, outputs at (L-1)/L exactly, no STOP (%u STOPs)",
                  N, L, npk, stops);
            sim_free(s);
        }
}

/* 32 ports (Geoffray and Hoefler 2008 simulates a Clos of 32-port crossbars): packets into and out of the ports above 15 at
 * once (0 -> 31, 31 -> 0, 17 -> 30, 30 -> 17, 16 -> 16, 5 -> 20) cross whole, each first byte exactly
 * max(4, ROUTE_DELAY + 3) + LINK_DELAY steps after its route byte on an idle switch; then input 31 sends
 * route bytes naming ports 32..63 (0xA0..0xBF: 10pppppp with pppppp >= NPORTS), each dropped whole and
 * counted drop_route without stalling the packet to port 31 behind them; port 31's counters read through
 * the 9-bit register address {port 31, index} = 0x1F0 + index give what was sent. */
void test_ports32(void)
{
    static const unsigned pairs[][2] = {{0, 31}, {31, 0}, {17, 30}, {30, 17}, {16, 16}, {5, 20}};
    const unsigned np_ = sizeof pairs / sizeof pairs[0];
    for (unsigned v = 0; v < 2; v++) {
        xbar_params_t p = params(32);
        p.ROUTE_DELAY = v ? 2 : 0;
        p.LINK_DELAY = v ? 3 : 0;
        const unsigned lat = umax(4, p.ROUTE_DELAY + 3) + p.LINK_DELAY;
        sim_t *s = sim_new(&p, 1500);
        uint8_t pk[np_][16];
        unsigned len[np_];
        for (unsigned j = 0; j < np_; j++) {
            len[j] = make_pkt(pk[j], pairs[j][1], 10, pairs[j][0]);
            pk[j][1] = (uint8_t)pairs[j][0]; /* source tag */
            put_pkt(s, pairs[j][0], 10, pk[j], len[j], CRC_GOOD, CH_GAP);
        }
        /* from step 100 on input 31: a packet naming each of ports 32..63, then one to port 31 */
        unsigned k = 100;
        for (unsigned q = 32; q < 64; q++) {
            uint8_t bad[4] = {ROUTE_BYTE(q), 0x11, 0x22, (uint8_t)q};
            k = put_pkt(s, 31, k, bad, 4, CRC_GOOD, CH_GAP);
        }
        uint8_t last[16];
        unsigned llast = make_pkt(last, 31, 8, 99);
        last[1] = 0xEE;
        const unsigned k_last = k;
        put_pkt(s, 31, k, last, llast, CRC_GOOD, CH_GAP);
        /* register reads (answered within 9 * 32 = 288 steps): input 31's drop_route and rx_pkts, output 31's
         * tx_pkts */
        static const unsigned rd_step[] = {600, 920, 1240};
        static const unsigned rd_ctr[] = {XBAR_CTR_DROP_ROUTE, XBAR_CTR_RX_PKTS, XBAR_CTR_TX_PKTS};
        for (unsigned r = 0; r < 3; r++) {
            s->rd[rd_step[r]] = 1;
            s->addr[rd_step[r]] = (uint16_t)((31u << 4) | rd_ctr[r]);
        }
        sim_all(s);
        int ok = 1;
        for (unsigned j = 0; j < np_; j++) {
            const unsigned o = pairs[j][1];
            rxpkt_t rp[4];
            unsigned n = parse_tx(s, o, 1, 99, rp, 4);
            unsigned f = first_data(s, o, 1, 99);
            int good = n == 1 && f == 10 + lat && rp[0].len == len[j] && memcmp(rp[0].b, pk[j] + 1, len[j] - 1) == 0 &&
                       rp[0].residue == 0 && rp[0].end == CH_GAP;
            ok &= check(good, "32 ports v%u: input %u -> output %u: %u packets, first byte at step %u (want %u)", v,
                        pairs[j][0], o, n, f, 10 + lat);
        }
        /* nothing but the last packet leaves anywhere after step 100; it arrives whole at port 31 */
        unsigned others = 0;
        for (unsigned q = 0; q < 32; q++)
            if (q != 31)
                others += parse_tx(s, q, 100, 1499, NULL, 0);
        rxpkt_t rl[4];
        unsigned nl = parse_tx(s, 31, 100, 1499, rl, 4);
        ok &= check(others == 0 && nl == 1 && rl[0].b[0] == 0xEE && rl[0].len == llast && rl[0].residue == 0 &&
                           rl[0].first <= k_last + lat + 2,
                    "32 ports v%u: route bytes 0xA0..0xBF dropped, the packet to port 31 behind them whole and not "
                    "stalled (%u packets elsewhere, %u on port 31, first byte at %u, its route byte at %u)",
                    v, others, nl, nl ? rl[0].first : 0, k_last);
        const uint32_t want[3] = {32, 1 + 32 + 1, 2};
        for (unsigned r = 0; r < 3; r++) {
            unsigned got = 0;
            for (unsigned q = rd_step[r] + 1; q < rd_step[r] + 300 && !got; q++)
                if (s->rv[q])
                    got = q;
            ok &= check(got && s->rdata[got] == want[r] && ctr_at(s, 1499, 31, rd_ctr[r]) == want[r],
                        "32 ports v%u: read of address 0x%03x (port 31 %s) answered %u at step %u, want %u", v,
                        (31u << 4) | rd_ctr[r], xbar_counter_name(rd_ctr[r]), got ? s->rdata[got] : 0, got, want[r]);
        }
        check(ok, "32 ports v%u (ROUTE_DELAY %u, LINK_DELAY %u)", v, p.ROUTE_DELAY, p.LINK_DELAY);
        sim_free(s);
    }
}

/* xbar_params_check: the defaults and the range ends pass; every value past an end fails and the
 * message names the parameter. */
void test_params(void)
{
    xbar_params_t d = xbar_default_params();
    check(xbar_params_check(&d) == NULL, "defaults valid");
    check(d.NPORTS == 8 && d.SLACK_DEPTH == 80 && d.STOP_THRESH == 56 && d.GO_THRESH == 40 && d.ROUTE_DELAY == 0 &&
                 d.LINK_DELAY == 0 && d.TIMEOUT == 4096 && d.COUNTERS == 1 && d.CTR_WIDTH == 32,
          "defaults are the doc's");
    struct {
        const char *name;
        size_t off;
        unsigned val;
        int ok;
    } cases[] = {
#define C(f, v, ok) {#f, offsetof(xbar_params_t, f), v, ok}
        C(NPORTS, 1, 0),        C(NPORTS, 2, 1),        C(NPORTS, 16, 1),      C(NPORTS, 17, 1),
        C(NPORTS, 32, 1),       C(NPORTS, 33, 0),       C(NPORTS, 64, 0),
        C(SLACK_DEPTH, 3, 0),   C(SLACK_DEPTH, 255, 1), C(SLACK_DEPTH, 8191, 1), C(SLACK_DEPTH, 8192, 0), C(STOP_THRESH, 0, 0),
        C(STOP_THRESH, 80, 1),  C(STOP_THRESH, 81, 0),  C(STOP_THRESH, 41, 1), C(STOP_THRESH, 40, 0),
        C(GO_THRESH, 0, 1),     C(GO_THRESH, 55, 1),    C(GO_THRESH, 56, 0),   C(ROUTE_DELAY, 255, 1),
        C(ROUTE_DELAY, 256, 0), C(LINK_DELAY, 64, 1),   C(LINK_DELAY, 65, 0),  C(TIMEOUT, 0, 1),
        C(TIMEOUT, 1, 0),       C(TIMEOUT, 2, 1),       C(TIMEOUT, 16777215, 1), C(TIMEOUT, 16777216, 0),
        C(COUNTERS, 0, 1),      C(COUNTERS, 1, 1),      C(COUNTERS, 2, 0),     C(CTR_WIDTH, 7, 0),
        C(CTR_WIDTH, 8, 1),     C(CTR_WIDTH, 32, 1),    C(CTR_WIDTH, 33, 0),
#undef C
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xbar_params_t p = d;
        *(unsigned *)((char *)&p + cases[i].off) = cases[i].val;
        const char *e = xbar_params_check(&p);
        xbar_t *m = xbar_new(&p);
        if (cases[i].ok)
            check(e == NULL && m != NULL, "params: %s=%u must be accepted (got \"%s\")", cases[i].name,
                  cases[i].val, e ? e : "");
        else
            check(e != NULL && strstr(e, cases[i].name) != NULL && m == NULL,
                  "params: %s=%u must be rejected with a message naming it (got \"%s\")", cases[i].name,
                  cases[i].val, e ? e : "(null)");
        xbar_free(m);
    }
    check(strcmp(xbar_counter_name(XBAR_CTR_OVERFLOW), "overflow") == 0 && strcmp(xbar_counter_name(9), "?") == 0,
          "counter names");
}

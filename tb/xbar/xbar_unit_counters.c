/* sanfab — xbar_unit: the counter schedule and register port, occupancy, quiet/skip
 * (run from the table of xbar_unit.c; the helpers they call are in xbar_unit_sim.c). */
#include "xbar_unit.h"

/* Counter schedule and read timing: a read of slot s in step r is answered in the first step W > r,
 * W >= 3, W = s+3 (mod NS), with the events of steps <= W-4; requests while one is outstanding
 * (including its answer step) are ignored. rx_bytes events are the data characters the stimulus
 * puts on rx. */
void test_counters(void)
{
    static const unsigned ns_[] = {3, 8, 32};
    for (unsigned a = 0; a < sizeof ns_ / sizeof ns_[0]; a++) {
        xbar_params_t p = params(ns_[a]);
        const unsigned NS = 9 * ns_[a];
        sim_t *s = sim_new(&p, 3000);
        /* random data characters on every rx (packets to a port that does not exist: dropped; that
         * is fine, we count rx_bytes) */
        uint32_t x = 12345;
        for (unsigned q = 0; q < ns_[a]; q++)
            for (unsigned k = 1; k < 3000; k++) {
                x = x * 1103515245u + 12345u;
                s->rx[q][k] = ((x >> 16) & 3u) ? (uint16_t)((x >> 8) & 0xFFu) : CH_IDLE;
            }
        /* reads: slot sequence, one request every step (most ignored) */
        for (unsigned k = 1; k < 2900; k++) {
            s->rd[k] = 1;
            unsigned slot = (k * 7u) % NS;
            s->addr[k] = (uint16_t)((slot / 9) * 16 + slot % 9);
        }
        sim_all(s);
        int ok = 1;
        unsigned answered = 0, pend = 0, r = 0;
        for (unsigned k = 1; k < 2950 && ok; k++) {
            if (pend) {
                unsigned slot = (s->addr[r] >> 4) * 9 + (s->addr[r] & 15u);
                unsigned W = r + 1;
                while (W < 3 || W % NS != (slot + 3) % NS)
                    W++;
                if (k < W && s->rv[k]) {
                    ok = check(0, "counters N=%u: read of slot %u at %u answered early at %u (want %u)", ns_[a],
                               slot, r, k, W);
                } else if (k == W) {
                    unsigned q = s->addr[r] >> 4, c = s->addr[r] & 15u;
                    uint32_t want = 0;
                    if (c == XBAR_CTR_RX_BYTES)
                        for (unsigned j = 1; j + 4 <= W; j++)
                            want += CH_IS_DATA(s->rx[q][j]);
                    else
                        want = W >= 4 ? ctr_at(s, W - 4, q, c) : 0; /* other counters: the model's own count */
                    ok = check(s->rv[k] && s->rdata[k] == want,
                               "counters N=%u: read of slot %u in step %u: want answer %u at step %u, got rvalid %u "
                               "data %u",
                               ns_[a], slot, r, want, W, s->rv[k], s->rdata[k]);
                    answered++;
                    pend = 0;
                }
                continue; /* a request while outstanding (also in the answer step) is ignored */
            }
            if (s->rv[k]) {
                ok = check(0, "counters N=%u: reg_rvalid at step %u without a read", ns_[a], k);
                break;
            }
            if (s->rd[k]) {
                pend = 1;
                r = k;
            }
        }
        check(ok && answered > 2900 / NS, "counters N=%u: schedule, answer step and value for %u reads", ns_[a],
              answered);
        sim_free(s);
    }
    /* the flusher writes only from step 3: slot NS-1 read in step 1 (W = 2 would match the
     * rotation) is answered at step NS + 2 */
    {
        xbar_params_t p = params(3);
        sim_t *s = sim_new(&p, 100);
        s->rd[1] = 1;
        s->addr[1] = 2 * 16 + 8; /* slot 26 = NS - 1 */
        sim_all(s);
        unsigned got = 0;
        for (unsigned k = 1; k < 100 && !got; k++)
            if (s->rv[k])
                got = k;
        check(got == 29 && s->rdata[29] == 0, "counters: slot NS-1 read in step 1 answered at step 29 (got %u)",
              got);
        sim_free(s);
    }
    /* absent addresses: answered in the request step with 0; every address of the port's XBAR_ADDR_BITS
     * at NPORTS 5 (8 bits: ports 5..15 absent), 20 and 32 (9 bits: ports 20..31 absent, none) */
    static const unsigned na_[] = {5, 20, 32};
    for (unsigned v = 0; v < sizeof na_ / sizeof na_[0]; v++) {
        const unsigned N = na_[v], NADDR = 1u << XBAR_ADDR_BITS(N), gap = 9 * N + 15;
        xbar_params_t p = params(N);
        sim_t *s = sim_new(&p, NADDR * gap + 10);
        for (unsigned a = 0; a < NADDR; a++) {
            s->rd[5 + a * gap] = 1;
            s->addr[5 + a * gap] = (uint16_t)a;
            s->rx[a % N][5 + a * gap] = 0x42; /* events so the present counters are not all 0 */
        }
        sim_all(s);
        int ok = 1;
        unsigned npresent = 0;
        for (unsigned a = 0; a < NADDR && ok; a++) {
            unsigned r = 5 + a * gap;
            int absent = (a >> 4) >= N || (a & 15u) >= 9;
            unsigned got = 0;
            for (unsigned k = r; k < r + gap; k++)
                if (s->rv[k]) {
                    got = k;
                    break;
                }
            if (absent)
                ok = check(got == r && s->rdata[r] == 0 && !s->rv[r + 1],
                           "NPORTS=%u: absent address 0x%03x: want answer 0 in the request step %u, got step %u", N, a,
                           r, got);
            else
                ok = check(got > r && got <= r + 9 * N, "NPORTS=%u: present address 0x%03x: answered in 1..%u steps",
                           N, a, 9 * N);
            npresent += !absent;
        }
        check(ok && npresent == 9 * N, "register port: every address at NPORTS=%u (%u present)", N, npresent);
        sim_free(s);
    }
    /* reg_addr has XBAR_ADDR_BITS(NPORTS) bits: a bit above them is not on the port, so an address with it set
     * reads the same counter at the same step (8 ports: bit 8; 32 ports: bit 9) */
    for (unsigned v = 0; v < 2; v++) {
        const unsigned N = v ? 32 : 8, port = v ? 31 : 7, hi = 1u << XBAR_ADDR_BITS(N);
        int ok = 1;
        unsigned answered = 0;
        sim_t *s[2];
        for (unsigned j = 0; j < 2; j++) {
            xbar_params_t p = params(N);
            s[j] = sim_new(&p, 1200);
            uint8_t pk[64];
            unsigned len = make_pkt(pk, 0, 40, 7);
            put_pkt(s[j], port, 10, pk, len, CRC_GOOD, CH_GAP);
            s[j]->rd[300] = s[j]->rd[700] = 1;
            s[j]->addr[300] = (uint16_t)((j ? hi : 0) | (port << 4) | XBAR_CTR_RX_BYTES);
            s[j]->addr[700] = (uint16_t)((j ? hi : 0) | (port << 4) | 12); /* absent index 12 */
            sim_all(s[j]);
        }
        for (unsigned k = 1; k < 1200; k++) {
            ok &= s[0]->rv[k] == s[1]->rv[k] && s[0]->rdata[k] == s[1]->rdata[k];
            answered += s[0]->rv[k];
        }
        check(ok && answered == 2, "NPORTS=%u: reg_addr bit %u ignored (reads of port %u's rx_bytes and index 12)", N,
              XBAR_ADDR_BITS(N), port);
        sim_free(s[0]);
        sim_free(s[1]);
    }
    /* COUNTERS=0: every request answered in its step with 0 */
    {
        xbar_params_t p = params(4);
        p.COUNTERS = 0;
        sim_t *s = sim_new(&p, 300);
        for (unsigned k = 10; k < 270; k++) {
            s->rd[k] = (k % 3) != 0;
            s->addr[k] = (uint16_t)(k & 0xFF);
            s->rx[0][k] = (uint16_t)(k & 0xFF);
        }
        sim_all(s);
        int ok = 1;
        for (unsigned k = 1; k < 300; k++)
            ok &= s->rv[k] == s->rd[k] && s->rdata[k] == 0;
        check(ok, "COUNTERS=0: every request answered in its step with 0, nothing else");
        sim_free(s);
    }
    /* CTR_WIDTH=8: counters wrap modulo 256 (register port and xbar_counter); at 4 ports input 0 to output 1,
     * at 32 ports input 31 to output 30 (a slot number past 255) */
    for (unsigned v = 0; v < 2; v++) {
        const unsigned N = v ? 32 : 4, src = v ? 31 : 0, dst = v ? 30 : 1;
        xbar_params_t p = params(N);
        p.CTR_WIDTH = 8;
        const unsigned r1 = 600, r2 = r1 + 9 * N + 1; /* the first read is answered within 9 * N steps */
        sim_t *s = sim_new(&p, r2 + 9 * N + 10);
        uint8_t pk[400];
        unsigned len = make_pkt(pk, dst, 300, 1); /* 301 data characters + CRC = 302 rx_bytes */
        put_pkt(s, src, 10, pk, len, CRC_GOOD, CH_GAP);
        s->rd[r1] = 1;
        s->addr[r1] = (uint16_t)(src * 16 + XBAR_CTR_RX_BYTES);
        s->rd[r2] = 1;
        s->addr[r2] = (uint16_t)(dst * 16 + XBAR_CTR_TX_BYTES);
        sim_all(s);
        unsigned a1 = 0, a2 = 0;
        for (unsigned k = r1 + 1; k < r2 && !a1; k++)
            if (s->rv[k])
                a1 = k;
        for (unsigned k = r2 + 1; k < s->maxs && !a2; k++)
            if (s->rv[k])
                a2 = k;
        check(a1 && s->rdata[a1] == 302 % 256 && a2 && s->rdata[a2] == 301 % 256 &&
                     ctr_at(s, s->maxs - 1, src, XBAR_CTR_RX_BYTES) == 302 % 256,
              "CTR_WIDTH=8 NPORTS=%u: rx_bytes 302 reads %u, tx_bytes 301 reads %u (mod 256)", N,
              a1 ? s->rdata[a1] : 9999, a2 ? s->rdata[a2] : 9999);
        sim_free(s);
    }
}

/* stat_occ and the head rule: a packet into a stopped output shows occupancy rising one per written
 * entry (writes one step late: route byte bypassed, b1 written when b2 arrives). */
void test_occupancy(void)
{
    xbar_params_t p = params(4);
    p.TIMEOUT = 0;
    sim_t *s = sim_new(&p, 100);
    s->rx[1][3] = CH_STOP;
    /* R(1) at 10 (bypass), b1..b8 at 11..18, then idle (b8 held) */
    s->rx[0][10] = ROUTE_BYTE(1);
    for (unsigned i = 0; i < 8; i++)
        s->rx[0][11 + i] = (uint16_t)(0x10 + i);
    sim_all(s);
    /* writes at 12..18 (b1..b7); pops: b1 at 13 and b2 at 14 into the stopped output's queue
     * (av: q empty at 13 -> mp at 13 ok; after b1 arrives (14) q=1, av[14] = 1+1<2 = 0) */
    static const uint8_t want[] = {0, 0, 1, 1, 1, 2, 3, 4, 5, 5};
    int ok = 1;
    for (unsigned k = 10; k < 20; k++)
        ok &= s->occ[0][k] == want[k - 10];
    check(ok, "occupancy 10..19: got %u %u %u %u %u %u %u %u %u %u", s->occ[0][10], s->occ[0][11], s->occ[0][12],
          s->occ[0][13], s->occ[0][14], s->occ[0][15], s->occ[0][16], s->occ[0][17], s->occ[0][18], s->occ[0][19]);
    sim_free(s);
}

/* One directed quiet/skip scene: a 4-byte packet from input 0 to output 1, then IDLE, and a read of
 * `addr` issued at step `rd_at`; model b skips its quiet steps. 1 if both answer alike at every step. */
static int quiet_read_scene(const xbar_params_t *p, unsigned rd_at, uint16_t addr, int *skipped_any)
{
    xbar_t *a = xbar_new(p), *b = xbar_new(p);
    if (!a || !b)
        abort();
    static const uint16_t pk[] = {ROUTE_BYTE(1), 0x11, 0x22, 0x33, CH_GAP};
    uint64_t pending = 0;
    int ok = 1;
    for (unsigned k = 1; k < rd_at + 200u; k++) {
        xbar_in_t in;
        memset(&in, 0, sizeof in);
        for (unsigned i = 0; i < XBAR_MAX_PORTS; i++)
            in.rx[i] = CH_IDLE;
        if (k >= 2 && k < 2 + sizeof pk / sizeof pk[0])
            in.rx[0] = pk[k - 2];
        in.reg_rd = k == rd_at;
        in.reg_addr = addr;
        xbar_out_t oa, ob;
        xbar_step(a, &in, &oa);
        if (!in.reg_rd && in.rx[0] == CH_IDLE && (pending || xbar_quiet(b))) {
            pending++;
            *skipped_any = 1;
            continue; /* b's outputs are IDLE: compared by test_quiet_skip */
        }
        xbar_skip(b, pending);
        pending = 0;
        xbar_step(b, &in, &ob);
        ok &= oa.reg_rvalid == ob.reg_rvalid && oa.reg_rdata == ob.reg_rdata;
    }
    xbar_free(a);
    xbar_free(b);
    return ok;
}

/* xbar_quiet/xbar_skip (for network simulators): a model that skips the steps in which its inputs are
 * IDLE, no read is made and xbar_quiet() holds, and fast-forwards by xbar_skip() before its next real
 * step, equals a model stepped every step: same outputs every step (IDLE while skipped), same counters,
 * same answers to register reads. Random bursts (packets, bubbles, bad routes, ABORTs, runts, STOP/GO,
 * reads) with idle stretches between them; this check compares the model with itself, not with the doc. */
void test_quiet_skip(void)
{
    static const struct { unsigned n, ld, tmo, ctrs, w; } cases[] = {
        {3, 0, 0, 1, 32}, {5, 3, 40, 1, 8}, {8, 0, 25, 1, 16}, {8, 2, 0, 0, 32}, {4, 1, 60, 1, 32}, {32, 1, 50, 1, 8}};
    uint32_t rng = 12345u;
#define QRND() (rng = rng * 1664525u + 1013904223u, rng >> 8)
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        xbar_params_t p = params(cases[c].n);
        p.LINK_DELAY = cases[c].ld;
        p.TIMEOUT = cases[c].tmo;
        p.COUNTERS = cases[c].ctrs;
        p.CTR_WIDTH = cases[c].w;
        p.SLACK_DEPTH = 24;
        p.STOP_THRESH = 16;
        p.GO_THRESH = 8;
        p.ROUTE_DELAY = c;
        xbar_t *a = xbar_new(&p), *b = xbar_new(&p);
        if (!a || !b)
            abort();
        const unsigned N = p.NPORTS;
        unsigned left[XBAR_MAX_PORTS] = {0}; /* bytes left of the packet on each input (0: between packets) */
        uint8_t go_owed[XBAR_MAX_PORTS] = {0}; /* a GO to send between packets once the burst is over */
        uint64_t pending = 0, skipped = 0, quiet_seen = 0;
        int ok = 1, rd_ok = 1;
        unsigned bad_step = 0;
        for (unsigned k = 1; k <= 60000 && ok; k++) {
            xbar_in_t in;
            memset(&in, 0, sizeof in);
            const int burst = (k % 700) < 250;
            for (unsigned i = 0; i < XBAR_MAX_PORTS; i++) {
                in.rx[i] = CH_IDLE;
                go_owed[i] |= (k % 700) == 250;
            }
            for (unsigned i = 0; i < N; i++) {
                unsigned r = QRND() % 1000;
                if (left[i]) { /* inside a packet: bytes with bubbles, then GAP (or ABORT); finished even when idle */
                    if (r < 150)
                        in.rx[i] = CH_IDLE;
                    else if (--left[i] == 0)
                        in.rx[i] = r < 170 ? CH_ABORT : CH_GAP;
                    else
                        in.rx[i] = (uint16_t)(QRND() & 0xFFu);
                } else if (burst && r < 40) {
                    unsigned port = QRND() % (N + 1u); /* N: a route byte naming no port */
                    in.rx[i] = ROUTE_BYTE(port);
                    left[i] = 1u + QRND() % 30u;
                } else if (burst && r < 50) {
                    in.rx[i] = r < 45 ? CH_STOP : CH_GO;
                } else if (!burst && go_owed[i]) {
                    in.rx[i] = CH_GO; /* release stopped outputs so the switch can empty (an input inside a
                                       * packet at the end of the burst sends it after its packet) */
                    go_owed[i] = 0;
                }
            }
            if (burst && QRND() % 100 == 0) {
                in.reg_rd = 1;
                unsigned rport = QRND() % N;
                in.reg_addr = (uint16_t)((rport << 4) | (QRND() % XBAR_NCTR));
            }
            xbar_out_t oa, ob;
            xbar_step(a, &in, &oa);
            int idle_in = !in.reg_rd;
            for (unsigned i = 0; i < N; i++)
                idle_in &= in.rx[i] == CH_IDLE;
            if (idle_in && (pending || xbar_quiet(b))) {
                pending++;
                skipped++;
                memset(&ob, 0, sizeof ob);
                for (unsigned i = 0; i < XBAR_MAX_PORTS; i++)
                    ob.tx[i] = CH_IDLE;
            } else {
                quiet_seen += xbar_quiet(b) != 0;
                xbar_skip(b, pending);
                pending = 0;
                xbar_step(b, &in, &ob);
            }
            if (memcmp(oa.tx, ob.tx, sizeof oa.tx) || memcmp(oa.stat_occ, ob.stat_occ, sizeof oa.stat_occ) ||
                oa.reg_rvalid != ob.reg_rvalid || oa.reg_rdata != ob.reg_rdata) {
                ok = 0;
                bad_step = k;
            }
        }
        xbar_skip(b, pending);
        for (unsigned port = 0; port < N; port++)
            for (unsigned ct = 0; ct < XBAR_NCTR; ct++)
                ok &= xbar_counter(a, port, ct) == xbar_counter(b, port, ct);
        ok &= xbar_steps(a) == xbar_steps(b) && xbar_steps(a) == 60000u;
        /* every counter read through the register port after the run: same answers at the same steps */
        for (unsigned port = 0; port < N && rd_ok; port++)
            for (unsigned ct = 0; ct < XBAR_NCTR && rd_ok; ct++) {
                xbar_in_t in;
                memset(&in, 0, sizeof in);
                for (unsigned i = 0; i < XBAR_MAX_PORTS; i++)
                    in.rx[i] = CH_IDLE;
                in.reg_rd = 1;
                in.reg_addr = (uint16_t)((port << 4) | ct);
                for (unsigned j = 0; j < 200; j++) {
                    xbar_out_t oa, ob;
                    xbar_step(a, &in, &oa);
                    xbar_step(b, &in, &ob);
                    rd_ok &= oa.reg_rvalid == ob.reg_rvalid && oa.reg_rdata == ob.reg_rdata;
                    if (oa.reg_rvalid)
                        break;
                    in.reg_rd = 0;
                }
            }
        check(ok && rd_ok && skipped > 1000 && quiet_seen > 10,
              "quiet/skip case %u (N=%u LINK_DELAY=%u TIMEOUT=%u COUNTERS=%u): outputs/counters %s (first difference "
              "at step %u), reads %s, %llu steps skipped, quiet seen %llu times",
              c, N, p.LINK_DELAY, p.TIMEOUT, p.COUNTERS, ok ? "equal" : "differ", bad_step, rd_ok ? "equal" : "differ",
              (unsigned long long)skipped, (unsigned long long)quiet_seen);
        xbar_free(a);
        xbar_free(b);
    }
#undef QRND
    /* a read made right after a skip: its flush must not count events the skip should have moved out of
     * the schedule's window (every slot of ports 0 and 1, the read at every offset of the schedule) */
    {
        xbar_params_t p = params(3);
        const unsigned NS = p.NPORTS * XBAR_NCTR;
        int ok = 1, skipped_any = 0;
        for (unsigned port = 0; port < 2; port++)
            for (unsigned ct = 0; ct < XBAR_NCTR; ct++)
                for (unsigned d = 0; d < 4 * NS && ok; d++)
                    ok &= quiet_read_scene(&p, 40 + d, (uint16_t)((port << 4) | ct), &skipped_any);
        check(ok && skipped_any, "quiet/skip: a counter read right after skipped steps answers as without skipping");
    }
}

/* The bench's counter preset (xbar_ctr_preset, test only): a preset of 2^W - 2 plus three rx_bytes events
 * wraps to 1, in the model's total and in the value a flush answers a read with (8 and 32-bit counters). */
void test_ctr_preset(void)
{
    static const unsigned width[] = {8, 32};
    for (unsigned a = 0; a < 2; a++) {
        xbar_params_t p = params(3);
        p.CTR_WIDTH = width[a];
        xbar_t *m = xbar_new(&p);
        if (!check(m != NULL, "ctr_preset W=%u: model", width[a]))
            return;
        const uint32_t pre = (uint32_t)((1ull << width[a]) - 2u);
        xbar_in_t in;
        xbar_out_t out;
        memset(&in, 0, sizeof in);
        for (unsigned q = 0; q < XBAR_MAX_PORTS; q++)
            in.rx[q] = CH_IDLE;
        xbar_ctr_preset(m, 1, XBAR_CTR_RX_BYTES, pre);
        check(xbar_counter(m, 1, XBAR_CTR_RX_BYTES) == pre, "ctr_preset W=%u: total %u after the preset, want %u",
              width[a], xbar_counter(m, 1, XBAR_CTR_RX_BYTES), pre);
        in.rx[1] = ROUTE_BYTE(2); /* three data characters on input 1 (steps 1..3) */
        for (unsigned k = 1; k <= 3; k++) {
            xbar_step(m, &in, &out);
            in.rx[1] = (uint16_t)(0x10u + k);
        }
        in.rx[1] = CH_IDLE;
        check(xbar_counter(m, 1, XBAR_CTR_RX_BYTES) == 1, "ctr_preset W=%u: total %u after 3 events, want 1 (wrapped)",
              width[a], xbar_counter(m, 1, XBAR_CTR_RX_BYTES));
        /* a read of port 1's rx_bytes: answered in the flush of its slot, events of steps <= W - 4 */
        in.reg_rd = 1;
        in.reg_addr = (uint16_t)(1u << 4 | XBAR_CTR_RX_BYTES);
        uint32_t got = 0;
        int answered = 0;
        for (unsigned k = 4; k < 4 + 2 * 27 && !answered; k++) {
            xbar_step(m, &in, &out);
            in.reg_rd = 0;
            if (out.reg_rvalid) {
                answered = 1;
                got = out.reg_rdata;
            }
        }
        check(answered && got == 1, "ctr_preset W=%u: read answered %d with %u, want 1", width[a], answered, got);
        xbar_free(m);
    }
}

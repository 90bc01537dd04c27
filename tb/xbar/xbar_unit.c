/* sanfab — unit tests of the crossbar C model against the rules of docs/xbar.md, with directed
 * stimulus on the model alone: latency, handover, flow-control and timeout timing, malformed input,
 * CRC marking, overflow, the counter schedule and register port, round robin, permutation
 * throughput, parameter checks. Every expectation is computed from the doc's rules and the
 * stimulus, never from the model's internals.
 *
 * Build: make xbar-san (build/xbar/san/xbar_unit; the sources are mk/xbar.mk's xbar_UNIT_C).
 * Options and output: tb/common/unit_main.h (--test NAME runs one test, --list names them, -v).
 */
#include "../common/unit_main.h"
#include "../../cmodel/link.h"
#include "../../cmodel/xbar.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ simulation harness */

/* A run of the model: the stimulus rx[port][step] (IDLE unless set) and reg_rd/reg_addr[step],
 * and what came out at every step. Step 0 is reset; xbar_step() number k consumes index k. */
typedef struct {
    xbar_params_t p;
    xbar_t *m;
    unsigned n, maxs;
    unsigned k; /* last step done */
    uint16_t *rx[XBAR_MAX_PORTS], *tx[XBAR_MAX_PORTS];
    uint16_t *occ[XBAR_MAX_PORTS];
    uint8_t *rd, *rv;
    uint16_t *addr; /* reg_addr: {port, counter[3:0]}, XBAR_ADDR_BITS(NPORTS) bits */
    uint32_t *rdata;
    uint32_t *ctr; /* ctr[(step * NPORTS + port) * XBAR_NCTR + c]: xbar_counter after the step */
} sim_t;

static sim_t *sim_new(const xbar_params_t *p, unsigned maxs)
{
    sim_t *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    s->p = *p;
    s->m = xbar_new(p);
    if (!s->m) {
        fprintf(stderr, "xbar_unit: xbar_new failed: %s\n", xbar_params_check(p));
        abort();
    }
    s->n = p->NPORTS;
    s->maxs = maxs;
    for (unsigned i = 0; i < XBAR_MAX_PORTS; i++) {
        s->rx[i] = malloc(maxs * sizeof(uint16_t));
        s->tx[i] = calloc(maxs, sizeof(uint16_t));
        s->occ[i] = calloc(maxs, sizeof *s->occ[i]);
        if (!s->rx[i] || !s->tx[i] || !s->occ[i])
            abort();
        for (unsigned k = 0; k < maxs; k++)
            s->rx[i][k] = CH_IDLE;
        s->tx[i][0] = CH_IDLE;
    }
    s->rd = calloc(maxs, 1);
    s->addr = calloc(maxs, sizeof(uint16_t));
    s->rv = calloc(maxs, 1);
    s->rdata = calloc(maxs, sizeof(uint32_t));
    s->ctr = calloc((size_t)maxs * s->n * XBAR_NCTR, sizeof(uint32_t));
    if (!s->rd || !s->addr || !s->rv || !s->rdata || !s->ctr)
        abort();
    return s;
}

static void sim_free(sim_t *s)
{
    if (!s)
        return;
    xbar_free(s->m);
    for (unsigned i = 0; i < XBAR_MAX_PORTS; i++) {
        free(s->rx[i]);
        free(s->tx[i]);
        free(s->occ[i]);
    }
    free(s->rd);
    free(s->addr);
    free(s->rv);
    free(s->rdata);
    free(s->ctr);
    free(s);
}

static uint32_t ctr_at(const sim_t *s, unsigned step, unsigned port, unsigned c)
{
    return s->ctr[((size_t)step * s->n + port) * XBAR_NCTR + c];
}

/* run the model up to and including step `upto` */
static void sim_run(sim_t *s, unsigned upto)
{
    if (upto >= s->maxs)
        upto = s->maxs - 1;
    xbar_in_t in;
    xbar_out_t out;
    while (s->k < upto) {
        unsigned k = ++s->k;
        memset(&in, 0, sizeof in);
        for (unsigned i = 0; i < XBAR_MAX_PORTS; i++)
            in.rx[i] = s->rx[i][k];
        in.reg_rd = s->rd[k];
        in.reg_addr = s->addr[k];
        xbar_step(s->m, &in, &out);
        for (unsigned i = 0; i < XBAR_MAX_PORTS; i++) {
            s->tx[i][k] = out.tx[i];
            s->occ[i][k] = out.stat_occ[i];
        }
        s->rv[k] = out.reg_rvalid;
        s->rdata[k] = out.reg_rdata;
        for (unsigned p = 0; p < s->n; p++)
            for (unsigned c = 0; c < XBAR_NCTR; c++)
                s->ctr[((size_t)k * s->n + p) * XBAR_NCTR + c] = xbar_counter(s->m, p, c);
    }
}

static void sim_all(sim_t *s) { sim_run(s, s->maxs - 1); }

enum { CRC_GOOD, CRC_WRONG, CRC_MARKED, CRC_NONE };

/* Put a packet on rx[port] from `step`: the bytes (route bytes first), a CRC byte over them
 * (good, wrong, marked = complemented, or none), then `end` (GAP or ABORT; 0: nothing).
 * Returns the first step after it. */
static unsigned put_pkt(sim_t *s, unsigned port, unsigned step, const uint8_t *b, unsigned len, int crc,
                        uint16_t end)
{
    for (unsigned i = 0; i < len; i++)
        s->rx[port][step++] = b[i];
    uint8_t c = crc8_buf(b, len);
    if (crc == CRC_WRONG)
        s->rx[port][step++] = (uint8_t)(c ^ 0x5Au);
    else if (crc == CRC_MARKED)
        s->rx[port][step++] = (uint8_t)(c ^ 0xFFu);
    else if (crc == CRC_GOOD)
        s->rx[port][step++] = c;
    if (end)
        s->rx[port][step++] = end;
    return step;
}

/* a packet: route byte for `dst`, then `body` bytes seeded by `tag` */
static unsigned make_pkt(uint8_t *b, unsigned dst, unsigned body, unsigned tag)
{
    b[0] = ROUTE_BYTE(dst);
    for (unsigned i = 0; i < body; i++)
        b[1 + i] = (uint8_t)(tag * 31u + i * 7u + 1u);
    return body + 1;
}

/* A packet seen on a tx link: its data bytes and how it ended. */
typedef struct {
    unsigned first, end_step; /* step of its first character and of its GAP/ABORT */
    unsigned len;
    uint8_t b[512];
    uint16_t end;    /* CH_GAP or CH_ABORT */
    uint8_t residue; /* CRC register over all its bytes (0 good, 0xF3 marked) */
} rxpkt_t;

/* Parse tx[port] over steps [from, to] into packets (IDLE, STOP, GO skipped). Returns the count. */
static unsigned parse_tx(const sim_t *s, unsigned port, unsigned from, unsigned to, rxpkt_t *pk, unsigned max)
{
    unsigned n = 0, len = 0, first = 0;
    uint8_t crc = 0;
    for (unsigned k = from; k <= to && k < s->maxs; k++) {
        uint16_t c = s->tx[port][k];
        if (CH_IS_DATA(c)) {
            if (len == 0)
                first = k;
            if (n < max && len < sizeof pk[n].b)
                pk[n].b[len] = (uint8_t)c;
            len++;
            crc = crc8_step(crc, (uint8_t)c);
        } else if (c == CH_GAP || c == CH_ABORT) {
            if (n < max) {
                pk[n].first = len ? first : k;
                pk[n].end_step = k;
                pk[n].len = len;
                pk[n].end = c;
                pk[n].residue = crc;
            }
            n++;
            len = 0;
            crc = 0;
        }
    }
    return n;
}

/* first step in [from, to] at which tx[port] shows a data character; 0 if none */
static unsigned first_data(const sim_t *s, unsigned port, unsigned from, unsigned to)
{
    for (unsigned k = from; k <= to && k < s->maxs; k++)
        if (CH_IS_DATA(s->tx[port][k]))
            return k;
    return 0;
}

static unsigned count_char(const sim_t *s, unsigned port, unsigned from, unsigned to, uint16_t c)
{
    unsigned n = 0;
    for (unsigned k = from; k <= to && k < s->maxs; k++)
        n += s->tx[port][k] == c;
    return n;
}

static xbar_params_t params(unsigned n)
{
    xbar_params_t p = xbar_default_params();
    p.NPORTS = n;
    return p;
}

static unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }

/* ================================================================ tests */

/* Latency: header in at n (bypass into an idle input) to first byte out at n + max(4, RD+3) + LD;
 * the packet arrives whole with a regenerated CRC (route byte stripped). */
static void test_latency(void)
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
static void test_handover(void)
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
static void test_stop_go(void)
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
static void test_downstream_stop(void)
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
static void test_timeout_bound(void)
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
static void test_timeout_hdr(void)
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

/* Every illegal control code 0x105..0x1FF: counted malformed between packets (nothing else) and
 * inside packets (the packet leaves marked bad). */
static void test_illegal(void)
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
static void test_routes(void)
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
static void test_runt_abort(void)
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
static void test_crc(void)
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
static void test_overflow(void)
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
static void test_dropping(void)
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
static void test_abt_owner(void)
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

/* Counter schedule and read timing: a read of slot s in step r is answered in the first step W > r,
 * W >= 3, W = s+3 (mod NS), with the events of steps <= W-4; requests while one is outstanding
 * (including its answer step) are ignored. rx_bytes events are the data characters the stimulus
 * puts on rx. */
static void test_counters(void)
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

/* Round robin: every input sends to output 0 at once (32 ports: to output 31), twice in a row; served
 * 0,1,..,N-1 then again 0,1,..; then inputs 3 and 1 alone after input 2 was served last: 3 first (at or
 * after rr = 3); at 32 ports inputs 29, 31 and 1 after input 30: 31, then (wrapping past bit 31) 1, 29. */
static void test_round_robin(void)
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
static void test_rr_regrant(void)
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
static void test_head_timing(void)
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
static void test_permutation(void)
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
static void test_ports32(void)
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
static void test_params(void)
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

/* stat_occ and the head rule: a packet into a stopped output shows occupancy rising one per written
 * entry (writes one step late: route byte bypassed, b1 written when b2 arrives). */
static void test_occupancy(void)
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
static void test_quiet_skip(void)
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

static const unit_test_t tests[] = {
    {"params", test_params},
    {"latency", test_latency},
    {"handover", test_handover},
    {"stop_go", test_stop_go},
    {"downstream_stop", test_downstream_stop},
    {"timeout_bound", test_timeout_bound},
    {"timeout_hdr", test_timeout_hdr},
    {"illegal", test_illegal},
    {"routes", test_routes},
    {"runt_abort", test_runt_abort},
    {"crc", test_crc},
    {"overflow", test_overflow},
    {"dropping", test_dropping},
    {"abt_owner", test_abt_owner},
    {"counters", test_counters},
    {"round_robin", test_round_robin},
    {"rr_regrant", test_rr_regrant},
    {"head_timing", test_head_timing},
    {"permutation", test_permutation},
    {"occupancy", test_occupancy},
    {"quiet_skip", test_quiet_skip},
    {"ports32", test_ports32},
};

int main(int argc, char **argv)
{
    static const unit_suite_t suite = {"xbar_unit", "Unit tests of the crossbar C model (cmodel/xbar.c) against docs/xbar.md.",
                                       tests, sizeof tests / sizeof tests[0], NULL, 0, NULL};
    return unit_main(&suite, argc, argv);
}

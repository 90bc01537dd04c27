#define _POSIX_C_SOURCE 200809L
/* sanfab — crossbar bench: the Verilated RTL and the C model in lockstep, with hosts on every
 * port and an end-to-end scoreboard. Also runs the model or the RTL alone (for speed figures).
 * `xbar_bench --help` lists the options and tests.
 */
#include "../../cmodel/link.h"
#include "../../cmodel/xbar.h"
#include "../common/host.h"
#include "../common/rng.h"
#include "../common/scoreboard.h"
#include "xbar_rtl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MODE_LOCKSTEP, MODE_MODEL, MODE_RTL };
static const char *const mode_names[] = {"lockstep", "model", "rtl"};

typedef struct {
    const char *name;
    const char *what;
} test_info_t;

static const test_info_t tests[] = {
    {"random", "uniform random destinations, mixed sizes and kinds (CRC errors, marked, illegal "
               "characters, aborts, runts, bad routes), bubbles, random drain rates, STOP storms"},
    {"permutation", "saturating permutation, every input to a distinct output: throughput and no STOP"},
    {"hotspot", "every input to output 0: round-robin fairness"},
    {"backtoback", "back-to-back shortest and longest packets from every input"},
    {"badroute", "most route bytes name no port; other traffic must not stall"},
    {"stopstorm", "receivers force STOP often and drain slowly"},
    {"crc", "injected CRC errors and already-marked packets"},
    {"timeout", "output 0's receiver holds STOP past the timeout; packets drain, traffic recovers"},
    {"latency", "single packets on an idle switch: header in to first byte out"},
    {"saturate", "every input saturated, uniform random destinations, good packets (speed runs)"},
    {"overflow", "host 0 ignores STOP towards a slow output: overflow counted, its damaged packets "
                 "marked bad or aborted, every other packet exact, nothing hangs"},
};
#define NTESTS (sizeof tests / sizeof tests[0])

typedef struct {
    xbar_params_t p;
    int mode;
    uint64_t seed;
    uint64_t cycles;
    const char *test;
    const char *vcd;
    unsigned vcd_cycles;
    int quiet;
    xbar_in_t *record;     /* if set, every cycle's inputs are stored here (record_max entries) */
    uint64_t record_max;
} opts_t;

typedef struct {
    int failed;
    uint64_t fail_cycle; /* cycle of the first lockstep mismatch or scoreboard error */
    char why[600];
    uint64_t cycles_run;
    double seconds;
    uint64_t made, delivered, timeouts;
    double in_util;   /* characters per cycle per input, averaged (permutation) */
    double out_data;  /* data characters per cycle per output (permutation) */
    unsigned latency; /* header in to first byte out, cycles (latency test) */
    uint64_t stops;   /* STOP symbols the switch sent */
} result_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---------------- traffic ---------------- */

typedef struct {
    const opts_t *o;
    int test;
    rng_t rng;
    unsigned load_pct[XBAR_MAX_PORTS];
    unsigned dst_perm[XBAR_MAX_PORTS];
    uint64_t storm_until[XBAR_MAX_PORTS];
} traffic_t;

static int test_index(const char *name)
{
    for (unsigned t = 0; t < NTESTS; t++)
        if (strcmp(tests[t].name, name) == 0)
            return (int)t;
    return -1;
}

static sb_kind_t pick_kind(traffic_t *t)
{
    const char *n = tests[t->test].name;
    unsigned r = rng_below(&t->rng, 1000);
    if (strcmp(n, "random") == 0) {
        if (r < 20) return SB_CRC_BAD;
        if (r < 30) return SB_MARKED;
        if (r < 40) return SB_ILLEGAL;
        if (r < 50) return SB_ABORT;
        if (r < 60) return SB_RUNT;
        if (r < 80) return SB_BADROUTE;
        return SB_NORMAL;
    }
    if (strcmp(n, "badroute") == 0)
        return r < 700 ? SB_BADROUTE : SB_NORMAL;
    if (strcmp(n, "crc") == 0)
        return r < 300 ? SB_CRC_BAD : r < 450 ? SB_MARKED : SB_NORMAL;
    return SB_NORMAL;
}

static void make_packet(traffic_t *t, sb_t *sb, host_t *h, unsigned src, unsigned n)
{
    const char *name = tests[t->test].name;
    unsigned dst, len;
    if (strcmp(name, "permutation") == 0)
        dst = t->dst_perm[src];
    else if (strcmp(name, "overflow") == 0)
        dst = src == 0 ? 1 : rng_below(&t->rng, n);
    else if (strcmp(name, "hotspot") == 0 || strcmp(name, "timeout") == 0)
        dst = (strcmp(name, "timeout") == 0 && rng_pct(&t->rng, 50)) ? rng_below(&t->rng, n) : 0;
    else
        dst = rng_below(&t->rng, n);
    if (strcmp(name, "backtoback") == 0)
        len = rng_pct(&t->rng, 50) ? SB_ID_LEN + 1 : 1000;
    else if (strcmp(name, "permutation") == 0 || strcmp(name, "hotspot") == 0)
        len = 32;
    else if (strcmp(name, "latency") == 0)
        len = 16;
    else if (strcmp(name, "saturate") == 0)
        len = 8 + rng_below(&t->rng, 120);
    else {
        unsigned r = rng_below(&t->rng, 100);
        len = r < 30 ? SB_ID_LEN + 1 + rng_below(&t->rng, 8) : r < 90 ? 16 + rng_below(&t->rng, 100)
                                                                      : 200 + rng_below(&t->rng, 800);
    }
    sb_kind_t kind = pick_kind(t);
    uint8_t route[1];
    if (kind == SB_BADROUTE) {
        unsigned r = rng_below(&t->rng, 3);
        route[0] = r == 0 ? (uint8_t)(0x80u | (n + rng_below(&t->rng, 64 - n)))  /* port out of range */
                 : r == 1 ? (uint8_t)rng_below(&t->rng, 0x80)                   /* not a route byte */
                          : (uint8_t)ITB_MARK;
        if (ROUTE_IS_ROUTE(route[0]) && ROUTE_PORT(route[0]) < n)
            route[0] = (uint8_t)ITB_MARK;
    } else
        route[0] = ROUTE_BYTE(dst);
    static const unsigned max = HOST_MAX_PKT;
    uint16_t ch[HOST_MAX_PKT];
    unsigned nch = sb_make(sb, src, dst, kind, route, 1, len, (uint32_t)rng_next(&t->rng), ch, max);
    if (nch)
        host_queue(h, ch, nch);
}

/* Configures hosts for the test and queues traffic for this cycle. */
static void traffic_setup(traffic_t *t, host_t *host, unsigned n, sb_t *sb)
{
    const char *name = tests[t->test].name;
    for (unsigned i = 0; i < n; i++) {
        host_cfg_t c = host_default_cfg();
        c.react = 1 + t->o->p.LINK_DELAY;
        c.stop_grace = 1 + t->o->p.LINK_DELAY; /* docs/xbar.md: one more character after STOP arrives */
        if (strcmp(name, "random") == 0) {
            c.drain_pct = 30 + rng_below(&t->rng, 71);
            c.bubble_pct = rng_below(&t->rng, 10);
            t->load_pct[i] = 5 + rng_below(&t->rng, 96);
        } else if (strcmp(name, "stopstorm") == 0) {
            c.drain_pct = 10 + rng_below(&t->rng, 30);
            t->load_pct[i] = 100;
        } else if (strcmp(name, "latency") == 0) {
            t->load_pct[i] = 0;
        } else if (strcmp(name, "overflow") == 0) {
            c.ignore_stop = i == 0;       /* host 0 floods its input ...                   */
            c.drain_pct = i == 1 ? 25 : 100; /* ... towards output 1, whose receiver is slow */
            t->load_pct[i] = 100;
        } else {
            t->load_pct[i] = 100;
        }
        host_init(&host[i], &c, i, rng_next(&t->rng), sb_receive, sb);
        sb->damage_ok[i] = (uint8_t)(c.ignore_stop != 0);
    }
    /* permutation: a random derangement-free shift keeps it simple and saturating */
    unsigned shift = 1 + rng_below(&t->rng, n - 1);
    for (unsigned i = 0; i < n; i++)
        t->dst_perm[i] = (i + shift) % n;
}

static void traffic_cycle(traffic_t *t, host_t *host, unsigned n, sb_t *sb, uint64_t cyc, int generate)
{
    const char *name = tests[t->test].name;
    for (unsigned i = 0; i < n; i++) {
        if (generate && host_can_queue(&host[i]) && host[i].q_count < 2 && rng_pct(&t->rng, t->load_pct[i]))
            make_packet(t, sb, &host[i], i, n);
        /* STOP storms */
        int storm = strcmp(name, "random") == 0 || strcmp(name, "stopstorm") == 0;
        if (storm && generate) {
            if (cyc >= t->storm_until[i]) {
                host_force_stop(&host[i], 0);
                unsigned chance = strcmp(name, "stopstorm") == 0 ? 20 : 2; /* per mille */
                if (rng_below(&t->rng, 1000) < chance) {
                    host_force_stop(&host[i], 1);
                    t->storm_until[i] = cyc + 20 + rng_below(&t->rng, 400);
                }
            }
        } else
            host_force_stop(&host[i], 0);
    }
    if (strcmp(name, "timeout") == 0 && n > 0) {
        /* receiver 0 holds STOP well past the timeout in the first part of the run */
        uint64_t hold = (uint64_t)(t->o->p.TIMEOUT ? t->o->p.TIMEOUT : 1000) * 3;
        host_force_stop(&host[0], generate && cyc < hold);
    }
}

/* ---------------- one run ---------------- */

static void fail(result_t *res, uint64_t cyc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(result_t *res, uint64_t cyc, const char *fmt, ...)
{
    if (res->failed)
        return;
    res->failed = 1;
    res->fail_cycle = cyc;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->why, sizeof res->why, fmt, ap);
    va_end(ap);
}

static const char *ch_name(uint16_t c, char *buf)
{
    switch (c) {
    case CH_IDLE: return "IDLE";
    case CH_GAP: return "GAP";
    case CH_STOP: return "STOP";
    case CH_GO: return "GO";
    case CH_ABORT: return "ABORT";
    default:
        sprintf(buf, CH_IS_DATA(c) ? "0x%02x" : "ctl:0x%03x", c);
        return buf;
    }
}

/* Runs one test from reset. trace_from: cycle at which to start the VCD (UINT64_MAX: never). */
static result_t run(const opts_t *o, int test, uint64_t trace_from)
{
    result_t res;
    memset(&res, 0, sizeof res);
    const unsigned n = o->p.NPORTS;
    xbar_t *m = NULL;
    xbar_rtl_t *r = NULL;
    if (o->mode != MODE_RTL)
        m = xbar_new(&o->p);
    if (o->mode != MODE_MODEL)
        r = xbar_rtl_new();
    if ((o->mode != MODE_RTL && !m) || (o->mode != MODE_MODEL && !r)) {
        fail(&res, 0, "cannot create the %s", !m && o->mode != MODE_RTL ? "model" : "RTL");
        xbar_free(m);
        xbar_rtl_free(r);
        return res;
    }

    host_t *host = calloc(XBAR_MAX_PORTS, sizeof *host); /* ~64 KiB each: not on the stack */
    if (!host) {
        fail(&res, 0, "out of memory for the hosts");
        xbar_free(m);
        xbar_rtl_free(r);
        return res;
    }
    sb_t sb;
    sb_init(&sb, n, o->quiet ? NULL : stderr);
    traffic_t t;
    memset(&t, 0, sizeof t);
    t.o = o;
    t.test = test;
    rng_seed(&t.rng, o->seed ^ (0x5DEECE66Dull * (uint64_t)(test + 1)));
    traffic_setup(&t, host, n, &sb);

    xbar_in_t in;
    xbar_out_t om, orr, *out;
    memset(&in, 0, sizeof in);
    memset(&om, 0, sizeof om);
    memset(&orr, 0, sizeof orr);
    for (unsigned p = 0; p < XBAR_MAX_PORTS; p++)
        om.tx[p] = orr.tx[p] = CH_IDLE;
    out = o->mode == MODE_RTL ? &orr : &om;

    const int is_latency = strcmp(tests[test].name, "latency") == 0;
    const int is_perm = strcmp(tests[test].name, "permutation") == 0;
    uint64_t lat_sent_at = 0;
    int lat_waiting = 0;
    unsigned lat_src = 0, lat_dst = 0, lat_worst = 0, lat_count = 0;
    uint64_t perm_in_chars = 0, perm_out_data = 0, perm_window = 0;
    const uint64_t perm_from = o->cycles / 5; /* measure after the start-up */
    uint64_t drain_limit = (uint64_t)(o->p.TIMEOUT ? o->p.TIMEOUT : 5000) * 4 + 20000;
    uint64_t quiet_cycles = 0, cyc = 0;
    int reading = 0; /* final counter read-out in progress */
    unsigned rd_idx = 0, rd_pending = 0;
    uint64_t rd_issued_at = 0, last_rand_rd = 0;
    uint32_t ctr_vals[XBAR_MAX_PORTS][XBAR_NCTR];
    memset(ctr_vals, 0, sizeof ctr_vals);
    rng_t reg_rng;
    rng_seed(&reg_rng, o->seed * 31 + 7);

    double t0 = now_s();
    for (cyc = 0;; cyc++) {
        int generate = cyc < o->cycles;
        if (!generate && !reading) {
            int busy = 0;
            /* drained: no host has anything to send or holds STOP, and the switch sent nothing */
            for (unsigned p = 0; p < n; p++)
                if (host_busy(&host[p]) || host[p].announced_stop || out->tx[p] != CH_IDLE)
                    busy = 1;
            quiet_cycles = busy ? 0 : quiet_cycles + 1;
            if (quiet_cycles > 64 + (uint64_t)o->p.LINK_DELAY * 2) {
                reading = 1;
            } else if (cyc > o->cycles + drain_limit) {
                fail(&res, cyc, "traffic did not drain within %" PRIu64 " cycles after the end", drain_limit);
                break;
            }
        }
        if (r && cyc == trace_from)
            xbar_rtl_trace_open(r, o->vcd);

        /* latency test: one packet at a time on an idle switch */
        if (is_latency && generate && !lat_waiting && cyc % 64 == 10) {
            lat_src = rng_below(&t.rng, n);
            make_packet(&t, &sb, &host[lat_src], lat_src, n);
            /* make_packet picks the destination; read it from the queued route byte */
            lat_dst = ROUTE_PORT(host[lat_src].q[host[lat_src].q_head].ch[0]);
            lat_waiting = 1;
            lat_sent_at = UINT64_MAX;
        }
        traffic_cycle(&t, host, n, &sb, cyc, generate);

        for (unsigned p = 0; p < n; p++) {
            in.rx[p] = host_step(&host[p], out->tx[p]);
            if (is_latency && lat_waiting && p == lat_src && lat_sent_at == UINT64_MAX && CH_IS_DATA(in.rx[p]))
                lat_sent_at = cyc;
        }

        /* register port: random reads during traffic, a full read-out at the end */
        in.reg_rd = 0;
        if (reading) {
            /* no random read may still be outstanding: they are answered within NS cycles */
            if (rd_idx < n * XBAR_NCTR && rd_pending == 0 && cyc > last_rand_rd + n * XBAR_NCTR + 4) {
                in.reg_rd = 1;
                in.reg_addr = (uint8_t)((rd_idx / XBAR_NCTR) * 16 + rd_idx % XBAR_NCTR);
                rd_pending = 1;
                rd_issued_at = cyc;
            }
        } else if (rng_below(&reg_rng, 64) == 0) {
            in.reg_rd = 1;
            in.reg_addr = (uint8_t)rng_below(&reg_rng, 256);
            last_rand_rd = cyc;
        }

        if (o->record && cyc < o->record_max)
            o->record[cyc] = in;
        if (m)
            xbar_step(m, &in, &om);
        if (r)
            xbar_rtl_step(r, &in, &orr);
        if (m && r) {
            char b1[24], b2[24];
            for (unsigned p = 0; p < n; p++)
                if (om.tx[p] != orr.tx[p]) {
                    fail(&res, cyc, "LOCKSTEP MISMATCH cycle %" PRIu64 " port %u signal tx: expected %s (model), actual %s (rtl)",
                         cyc, p, ch_name(om.tx[p], b1), ch_name(orr.tx[p], b2));
                    break;
                }
            if (!res.failed && om.reg_rvalid != orr.reg_rvalid)
                fail(&res, cyc, "LOCKSTEP MISMATCH cycle %" PRIu64 " signal reg_rvalid: expected %u (model), actual %u (rtl)",
                     cyc, om.reg_rvalid, orr.reg_rvalid);
            if (!res.failed && om.reg_rdata != orr.reg_rdata)
                fail(&res, cyc, "LOCKSTEP MISMATCH cycle %" PRIu64 " signal reg_rdata: expected 0x%08x (model), actual 0x%08x (rtl)",
                     cyc, om.reg_rdata, orr.reg_rdata);
            if (res.failed)
                break;
        }
        for (unsigned p = 0; p < n; p++) {
            if (out->tx[p] == CH_STOP)
                res.stops++;
            if (is_perm && cyc >= perm_from && generate) {
                perm_out_data += CH_IS_DATA(out->tx[p]);
                perm_in_chars += in.rx[p] != CH_IDLE;
            }
            if (is_latency && lat_waiting && p == lat_dst && CH_IS_DATA(out->tx[p]) && lat_sent_at != UINT64_MAX) {
                unsigned lat = (unsigned)(cyc - lat_sent_at);
                if (lat > lat_worst)
                    lat_worst = lat;
                lat_count++;
                lat_waiting = 0;
            }
        }
        if (is_perm && cyc >= perm_from && generate)
            perm_window++;

        if (reading && rd_pending && cyc > rd_issued_at + n * XBAR_NCTR && !out->reg_rvalid) {
            fail(&res, cyc, "register port: no answer within %u cycles to the request of cycle %" PRIu64,
                 n * XBAR_NCTR, rd_issued_at);
            break;
        }
        if (reading && rd_pending && out->reg_rvalid) {
            unsigned port = rd_idx / XBAR_NCTR, c = rd_idx % XBAR_NCTR;
            ctr_vals[port][c] = out->reg_rdata;
            rd_idx++;
            rd_pending = 0;
            if (rd_idx == n * XBAR_NCTR) {
                cyc++;
                break;
            }
        }
        if (sb.errors && !res.failed) {
            fail(&res, cyc, "scoreboard: %s", sb.first_error);
            break;
        }
    }
    res.seconds = now_s() - t0;
    res.cycles_run = cyc;

    if (!res.failed) {
        sb_port_counters_t ctr[XBAR_MAX_PORTS];
        memset(ctr, 0, sizeof ctr);
        for (unsigned p = 0; p < n; p++) {
            ctr[p].rx_pkts = ctr_vals[p][XBAR_CTR_RX_PKTS];
            ctr[p].rx_bytes = ctr_vals[p][XBAR_CTR_RX_BYTES];
            ctr[p].tx_pkts = ctr_vals[p][XBAR_CTR_TX_PKTS];
            ctr[p].tx_bytes = ctr_vals[p][XBAR_CTR_TX_BYTES];
            ctr[p].crc_err = ctr_vals[p][XBAR_CTR_CRC_ERR];
            ctr[p].drop_route = ctr_vals[p][XBAR_CTR_DROP_ROUTE];
            ctr[p].drop_timeout = ctr_vals[p][XBAR_CTR_DROP_TIMEOUT];
            ctr[p].malformed = ctr_vals[p][XBAR_CTR_MALFORMED];
            ctr[p].overflow = ctr_vals[p][XBAR_CTR_OVERFLOW];
            res.timeouts += ctr[p].drop_timeout;
        }
        if (sb_finish_single(&sb, host, ctr))
            fail(&res, cyc, "end-of-run accounting: %s", sb.first_error);
    }
    res.made = sb_made_total(&sb);
    res.delivered = sb_delivered_total(&sb);

    /* test-specific checks */
    if (!res.failed && is_perm) {
        res.in_util = perm_window ? (double)perm_in_chars / ((double)perm_window * n) : 0;
        res.out_data = perm_window ? (double)perm_out_data / ((double)perm_window * n) : 0;
        /* a packet is L = 35 characters (route, 32 body, CRC, GAP); its input needs L + D cycles
         * with ROUTE_DELAY = D (docs/xbar.md), so it sustains L / (L + D) of the link: 1.0 at D = 0 */
        const double L = 35.0, expect = L / (L + o->p.ROUTE_DELAY);
        if (o->p.ROUTE_DELAY == 0 && res.stops != 0)
            fail(&res, cyc, "permutation: the switch sent %" PRIu64 " STOPs (it must keep up)", res.stops);
        else if (o->p.ROUTE_DELAY == 0 && perm_window && perm_in_chars != perm_window * n)
            fail(&res, cyc, "permutation: inputs carried %.4f characters per cycle, expected 1", res.in_util);
        else if (o->p.GO_THRESH >= 6 + 2 * o->p.LINK_DELAY && res.in_util < expect - 0.01)
            /* (the bound holds when the buffer below GO covers the GO round trip; else the input
             * idles while GO travels, and only the scoreboard checks apply) */
            fail(&res, cyc, "permutation: inputs carried %.4f characters per cycle, expected %.4f", res.in_util, expect);
    }
    if (!res.failed && is_latency) {
        unsigned d = o->p.ROUTE_DELAY;
        unsigned want = (d + 2 > 3 ? d + 2 : 3) + o->p.LINK_DELAY;
        res.latency = lat_worst;
        if (lat_count == 0)
            fail(&res, cyc, "latency: no packet measured");
        else if (lat_worst != want)
            fail(&res, cyc, "latency: header in to first byte out took %u cycles, expected %u", lat_worst, want);
    }
    if (!res.failed && strcmp(tests[test].name, "hotspot") == 0) {
        /* round robin: saturated inputs share output 0 equally (within one packet each) */
        uint64_t lo = UINT64_MAX, hi = 0;
        for (unsigned i = 0; i < n; i++) {
            uint64_t d = 0;
            for (uint32_t s = 0; s < sb.nrec[i]; s++)
                d += sb.rec[i][s].state == 1;
            lo = d < lo ? d : lo;
            hi = d > hi ? d : hi;
        }
        /* round robin serves a waiting input within N - 1 packets (37 + ROUTE_DELAY cycles each
         * here): with a timeout well above that, nothing may time out */
        uint64_t bound = 2ull * (n - 1) * (37 + o->p.ROUTE_DELAY);
        if (o->p.TIMEOUT > bound && res.timeouts)
            fail(&res, cyc, "hotspot: %" PRIu64 " packets timed out although round robin bounds the wait to "
                            "%" PRIu64 " cycles (TIMEOUT %u)", res.timeouts, bound / 2, o->p.TIMEOUT);
        else if (hi - lo > 2 && res.timeouts == 0)
            fail(&res, cyc, "hotspot: round robin unfair, inputs delivered between %" PRIu64 " and %" PRIu64
                            " packets to output 0", lo, hi);
    }
    if (!res.failed && strcmp(tests[test].name, "timeout") == 0 && o->p.TIMEOUT && res.timeouts == 0)
        fail(&res, cyc, "timeout: no packet was drained although output 0 was stopped");
    if (!res.failed && strcmp(tests[test].name, "overflow") == 0 && sb.damaged[0] == 0)
        fail(&res, cyc, "overflow: no damaged packet was seen although host 0 ignored STOP");
    if (!res.failed && strcmp(tests[test].name, "stopstorm") == 0 && res.stops == 0)
        fail(&res, cyc, "stopstorm: the switch never sent STOP");

    sb_free(&sb);
    free(host);
    xbar_free(m);
    xbar_rtl_free(r);
    return res;
}

/* Starts a JSON record of reports/bench.json: block, parameters, what was run. */
static void json_head(FILE *f, const xbar_params_t *p, const char *what, const char *test)
{
    fprintf(f,
            "{\"block\": \"xbar\", \"params\": {\"NPORTS\": %u, \"SLACK_DEPTH\": %u, \"STOP_THRESH\": %u, "
            "\"GO_THRESH\": %u, \"ROUTE_DELAY\": %u, \"LINK_DELAY\": %u, \"TIMEOUT\": %u}, \"what\": \"%s\", "
            "\"test\": \"%s\"",
            p->NPORTS, p->SLACK_DEPTH, p->STOP_THRESH, p->GO_THRESH, p->ROUTE_DELAY, p->LINK_DELAY, p->TIMEOUT, what,
            test);
}

/* ---------------- speed: the same stimulus through the model alone and the RTL alone ---------------- */

static int speed_run(const opts_t *o, FILE *jf)
{
    int t = test_index("saturate");
    opts_t so = *o;
    so.mode = MODE_LOCKSTEP;
    so.record_max = o->cycles + 1000000; /* the drain and read-out follow the traffic */
    so.record = malloc(so.record_max * sizeof *so.record);
    if (!so.record) {
        fprintf(stderr, "xbar_bench: out of memory for %" PRIu64 " recorded cycles\n", so.record_max);
        return 1;
    }
    result_t r = run(&so, t, UINT64_MAX);
    if (r.failed) {
        printf("FAIL saturate (speed run) seed %" PRIu64 ": %s\n", o->seed, r.why);
        free(so.record);
        return 1;
    }
    uint64_t n = r.cycles_run < so.record_max ? r.cycles_run : so.record_max;
    xbar_out_t out;
    /* model alone */
    xbar_t *m = xbar_new(&o->p);
    double t0 = now_s();
    uint32_t sink = 0;
    for (uint64_t c = 0; c < n; c++) {
        xbar_step(m, &so.record[c], &out);
        sink += out.tx[0];
    }
    double tm = now_s() - t0;
    xbar_free(m);
    /* RTL alone */
    xbar_rtl_t *rr = xbar_rtl_new();
    t0 = now_s();
    for (uint64_t c = 0; c < n; c++) {
        xbar_rtl_step(rr, &so.record[c], &out);
        sink += out.tx[0];
    }
    double tr = now_s() - t0;
    xbar_rtl_free(rr);
    free(so.record);
    const char *what[3] = {"model", "rtl", "lockstep"};
    double secs[3] = {tm, tr, r.seconds};
    for (int k = 0; k < 3; k++) {
        printf("speed %-8s %10" PRIu64 " cycles %8.3f s %12.0f cycles/s\n", what[k], n, secs[k], (double)n / secs[k]);
        if (jf) {
            json_head(jf, &o->p, what[k], "saturate");
            fprintf(jf,
                    ", \"seed\": %" PRIu64 ", \"cycles\": %" PRIu64 ", \"seconds\": %.6f, \"cycles_per_s\": %.1f, "
                    "\"packets\": %" PRIu64 ", \"includes\": \"%s\"}\n",
                    o->seed, n, secs[k], (double)n / secs[k], r.made,
                    k == 2 ? "hosts, scoreboard, model and RTL" : "step calls only, recorded stimulus");
        }
    }
    printf("speed model/rtl ratio %.2f (sink %u)\n", tr / tm, (unsigned)(sink & 1u));
    return 0;
}

/* ---------------- command line ---------------- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: xbar_bench [options]\n"
            "Runs the crossbar RTL and its C model in lockstep (every output, every cycle) with a host on\n"
            "every port and an end-to-end scoreboard; or either one alone for speed figures.\n\n"
            "  --test NAME|all     test to run (default all); tests:\n");
    for (unsigned t = 0; t < NTESTS; t++)
        fprintf(f, "      %-12s %s\n", tests[t].name, tests[t].what);
    fprintf(f,
            "  --cycles N          traffic cycles per test (default 100000; 'random' gets N, others N/10)\n"
            "  --seed N            random seed (default 1); printed, so a failure can be replayed\n"
            "  --mode M            lockstep (default), model, rtl\n"
            "  --vcd FILE          on failure, replay the run and write the last cycles to FILE\n"
            "  --vcd-cycles N      how many cycles before the failure to dump (default 2000)\n"
            "  --json FILE         append one JSON record per test (cycles, seconds, figures) to FILE\n"
            "  --params            print the parameters built into the RTL and exit\n"
            "  --speed             time the model alone, the RTL alone and the lockstep run on the same\n"
            "                      recorded saturating random traffic (--cycles of it)\n"
            "  --quiet             less output\n"
            "  --help              this text\n"
            "Parameters come from the RTL build (the model is run with the same ones); in model-only\n"
            "builds they can be set with --NPORTS N --SLACK_DEPTH N --STOP_THRESH N --GO_THRESH N\n"
            "--ROUTE_DELAY N --LINK_DELAY N --TIMEOUT N.\n"
            "Exit status: 0 all passed, 1 a test failed, 2 bad usage.\n");
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || *s == '\0' || *end != '\0' || *s == '-')
        return -1;
    *v = x;
    return 0;
}

static void json_record(FILE *f, const opts_t *o, int test, const result_t *r)
{
    json_head(f, &o->p, mode_names[o->mode], tests[test].name);
    fprintf(f,
            ", \"seed\": %" PRIu64 ", \"cycles\": %" PRIu64 ", \"seconds\": %.6f, \"cycles_per_s\": %.1f, "
            "\"packets_made\": %" PRIu64 ", \"packets_delivered\": %" PRIu64 ", \"timeouts\": %" PRIu64
            ", \"stops\": %" PRIu64,
            o->seed, r->cycles_run, r->seconds, r->seconds > 0 ? (double)r->cycles_run / r->seconds : 0.0, r->made,
            r->delivered, r->timeouts, r->stops);
    if (strcmp(tests[test].name, "permutation") == 0)
        fprintf(f, ", \"input_chars_per_cycle\": %.4f, \"output_data_per_cycle\": %.4f", r->in_util, r->out_data);
    if (strcmp(tests[test].name, "latency") == 0)
        fprintf(f, ", \"header_to_first_byte_cycles\": %u", r->latency);
    fprintf(f, ", \"passed\": %s}\n", r->failed ? "false" : "true");
}

int main(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    o.p = xbar_rtl_available() ? xbar_rtl_params() : xbar_default_params();
    o.mode = xbar_rtl_available() ? MODE_LOCKSTEP : MODE_MODEL;
    o.seed = 1;
    o.cycles = 100000;
    o.test = "all";
    o.vcd_cycles = 2000;
    const char *json = NULL;
    int mode_given = 0, speed = 0;

    for (int a = 1; a < argc; a++) {
        const char *k = argv[a];
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        uint64_t x = 0;
        if (strcmp(k, "--help") == 0 || strcmp(k, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(k, "--quiet") == 0) {
            o.quiet = 1;
        } else if (strcmp(k, "--speed") == 0) {
            speed = 1;
        } else if (strcmp(k, "--params") == 0) {
            xbar_params_t p = o.p;
            printf("NPORTS=%u SLACK_DEPTH=%u STOP_THRESH=%u GO_THRESH=%u ROUTE_DELAY=%u LINK_DELAY=%u TIMEOUT=%u variant=%s\n",
                   p.NPORTS, p.SLACK_DEPTH, p.STOP_THRESH, p.GO_THRESH, p.ROUTE_DELAY, p.LINK_DELAY, p.TIMEOUT,
                   xbar_rtl_variant());
            return 0;
        } else if (!v) {
            fprintf(stderr, "xbar_bench: option %s needs a value (see --help)\n", k);
            return 2;
        } else if (strcmp(k, "--test") == 0) {
            o.test = v;
            a++;
        } else if (strcmp(k, "--mode") == 0) {
            int found = 0;
            for (int mm = 0; mm < 3; mm++)
                if (strcmp(v, mode_names[mm]) == 0) {
                    o.mode = mm;
                    found = 1;
                }
            if (!found) {
                fprintf(stderr, "xbar_bench: unknown mode '%s' (lockstep, model, rtl)\n", v);
                return 2;
            }
            mode_given = 1;
            a++;
        } else if (strcmp(k, "--vcd") == 0) {
            o.vcd = v;
            a++;
        } else if (strcmp(k, "--json") == 0) {
            json = v;
            a++;
        } else {
            if (parse_u64(v, &x)) {
                fprintf(stderr, "xbar_bench: %s wants a non-negative number, got '%s'\n", k, v);
                return 2;
            }
            a++;
            if (strcmp(k, "--cycles") == 0) o.cycles = x;
            else if (strcmp(k, "--seed") == 0) o.seed = x;
            else if (strcmp(k, "--vcd-cycles") == 0) o.vcd_cycles = (unsigned)x;
            else if (!xbar_rtl_available() && strcmp(k, "--NPORTS") == 0) o.p.NPORTS = (unsigned)x;
            else if (!xbar_rtl_available() && strcmp(k, "--SLACK_DEPTH") == 0) o.p.SLACK_DEPTH = (unsigned)x;
            else if (!xbar_rtl_available() && strcmp(k, "--STOP_THRESH") == 0) o.p.STOP_THRESH = (unsigned)x;
            else if (!xbar_rtl_available() && strcmp(k, "--GO_THRESH") == 0) o.p.GO_THRESH = (unsigned)x;
            else if (!xbar_rtl_available() && strcmp(k, "--ROUTE_DELAY") == 0) o.p.ROUTE_DELAY = (unsigned)x;
            else if (!xbar_rtl_available() && strcmp(k, "--LINK_DELAY") == 0) o.p.LINK_DELAY = (unsigned)x;
            else if (!xbar_rtl_available() && strcmp(k, "--TIMEOUT") == 0) o.p.TIMEOUT = (unsigned)x;
            else {
                fprintf(stderr, "xbar_bench: unknown option %s%s (see --help)\n", k,
                        xbar_rtl_available() && k[2] >= 'A' && k[2] <= 'Z' ? " (parameters are fixed by the RTL build)" : "");
                return 2;
            }
        }
    }
    if (!xbar_rtl_available() && mode_given && o.mode != MODE_MODEL) {
        fprintf(stderr, "xbar_bench: this build has no RTL; only --mode model is possible\n");
        return 2;
    }
    const char *perr = xbar_params_check(&o.p);
    if (perr) {
        fprintf(stderr, "xbar_bench: bad parameters: %s\n", perr);
        return 2;
    }
    int only = -1;
    if (strcmp(o.test, "all") != 0) {
        only = test_index(o.test);
        if (only < 0) {
            fprintf(stderr, "xbar_bench: unknown test '%s' (see --help)\n", o.test);
            return 2;
        }
    }
    FILE *jf = NULL;
    if (json) {
        jf = fopen(json, "a");
        if (!jf) {
            fprintf(stderr, "xbar_bench: cannot open %s: %s\n", json, strerror(errno));
            return 2;
        }
    }

    printf("xbar_bench: mode %s, seed %" PRIu64 ", NPORTS=%u SLACK_DEPTH=%u STOP=%u GO=%u ROUTE_DELAY=%u "
           "LINK_DELAY=%u TIMEOUT=%u%s%s\n",
           mode_names[o.mode], o.seed, o.p.NPORTS, o.p.SLACK_DEPTH, o.p.STOP_THRESH, o.p.GO_THRESH,
           o.p.ROUTE_DELAY, o.p.LINK_DELAY, o.p.TIMEOUT, xbar_rtl_variant()[0] ? ", variant " : "",
           xbar_rtl_variant());
    if (speed) {
        if (!xbar_rtl_available()) {
            fprintf(stderr, "xbar_bench: --speed needs a build with the RTL\n");
            return 2;
        }
        int rc = speed_run(&o, jf);
        if (jf)
            fclose(jf);
        return rc;
    }
    /* the bench's hosts react to STOP 1 + LINK_DELAY cycles after it arrives; below this much slack
     * the buffers overflow by design (docs/xbar.md, "Choosing the thresholds") */
    unsigned need = 6 + 2 * o.p.LINK_DELAY;
    if (o.p.SLACK_DEPTH - o.p.STOP_THRESH < need)
        printf("xbar_bench: warning: SLACK_DEPTH - STOP_THRESH = %u is below the %u characters the STOP round "
               "trip needs with these hosts; slack buffers will overflow and the scoreboard will report it\n",
               o.p.SLACK_DEPTH - o.p.STOP_THRESH, need);
    unsigned passed = 0, failed = 0;
    for (unsigned t = 0; t < NTESTS; t++) {
        if (only >= 0 && (int)t != only)
            continue;
        opts_t ot = o;
        if (only < 0 && strcmp(tests[t].name, "random") != 0)
            ot.cycles = o.cycles / 10 > 5000 ? o.cycles / 10 : 5000;
        if (strcmp(tests[t].name, "timeout") == 0 && ot.p.TIMEOUT && ot.cycles < (uint64_t)ot.p.TIMEOUT * 5)
            ot.cycles = (uint64_t)ot.p.TIMEOUT * 5; /* long enough for output 0's STOP to outlast it */
        result_t r = run(&ot, (int)t, UINT64_MAX);
        if (jf)
            json_record(jf, &ot, (int)t, &r);
        if (r.failed) {
            failed++;
            printf("FAIL %-12s seed %" PRIu64 ": %s\n", tests[t].name, o.seed, r.why);
            printf("     replay: %s --test %s --seed %" PRIu64 " --cycles %" PRIu64 "%s%s\n", argv[0],
                   tests[t].name, o.seed, ot.cycles, o.mode == MODE_LOCKSTEP ? "" : " --mode ",
                   o.mode == MODE_LOCKSTEP ? "" : mode_names[o.mode]);
            if (o.vcd && xbar_rtl_available() && o.mode != MODE_MODEL) {
                uint64_t from = r.fail_cycle > o.vcd_cycles ? r.fail_cycle - o.vcd_cycles : 0;
                ot.quiet = 1;
                run(&ot, (int)t, from);
                printf("     waves: %s (cycles %" PRIu64 "..%" PRIu64 ")\n", o.vcd, from, r.fail_cycle);
            }
        } else {
            passed++;
            printf("ok   %-12s %8" PRIu64 " cycles %7.2f s %10.0f cycles/s  %" PRIu64 " packets, %" PRIu64
                   " delivered, %" PRIu64 " timeouts, %" PRIu64 " STOPs",
                   tests[t].name, r.cycles_run, r.seconds, r.seconds > 0 ? (double)r.cycles_run / r.seconds : 0.0,
                   r.made, r.delivered, r.timeouts, r.stops);
            if (strcmp(tests[t].name, "permutation") == 0)
                printf(", in %.4f ch/cyc, out %.4f data/cyc", r.in_util, r.out_data);
            if (strcmp(tests[t].name, "latency") == 0)
                printf(", latency %u cycles", r.latency);
            printf("\n");
        }
    }
    if (jf)
        fclose(jf);
    printf("xbar: %u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}

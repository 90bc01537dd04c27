#define _POSIX_C_SOURCE 200809L
/* sanfab — crossbar bench: the Verilated RTL and the C model in lockstep, with hosts on every
 * port, an end-to-end scoreboard per source, and checks of the documented timing rules that never
 * consult the model (they hold in `--mode rtl` too). `xbar_bench --help` lists options and tests.
 *
 * The file reads top to bottom: the documented rules the checks use; the test table; traffic;
 * the independent checks; the directed scenarios (latency, blocked packets); one run; speed;
 * the command line. docs/verification.md describes it for users.
 */
#include "../../cmodel/link.h"
#include "../../cmodel/xbar.h"
#include "../common/bench_cli.h"
#include "xbar_host.h"
#include "../common/rng.h"
#include "xbar_scoreboard.h"
#include "xbar_rtl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ================================================================ documented rules (docs/xbar.md)
 * Every constant here is a number written in docs/xbar.md; the checks below use only these, the
 * parameters, and what the bench itself put on the links and saw come out. */

/* "Latency": an idle switch forwards the first body byte on tx[p] max(DOC_LAT_MIN, ROUTE_DELAY +
 * DOC_LAT_RD) + LINK_DELAY cycles after the route byte was sampled on rx[i]. */
#define DOC_LAT_MIN 4u
#define DOC_LAT_RD 3u
/* "Flow control, towards upstream": input i's wish changes when stat_occ[i] (registered) crosses a
 * threshold in cycle c; STOP/GO leaves on tx[i] in cycle c + DOC_FC_DELAY + LINK_DELAY. */
#define DOC_FC_DELAY 2u
/* "Flow control, from downstream": STOP sampled on rx[p] in cycle s: no packet character on tx[p]
 * in cycles s + DOC_STOP_EFFECT + LINK_DELAY ... until the same distance after a GO. */
#define DOC_STOP_EFFECT 1u
/* "Arbitration": a contended handover leaves exactly this many IDLE cycles on tx[p] between
 * the GAP of one packet and the first byte of the next. */
#define DOC_HANDOVER_IDLE 0u
/* "Counters": a read answered in cycle r counts exactly the events that happened in cycles
 * <= r - DOC_CTR_AGE (rx events: the cycle the character was sampled; tx events: the cycle it
 * left on tx less LINK_DELAY). */
#define DOC_CTR_AGE 4u
/* "Blocking timeout": see scen_blocked() (the drain shows on stat_occ one step after the step that
 * drains; the ABORT leaves two steps after it when the output is free to send). */
/* "Reading": a read sampled in step r to an absent address (any address when COUNTERS=0) is
 * answered in step r + DOC_RD_ABSENT with 0; a present counter in the first step W > r in which the
 * flusher writes its slot (so within DOC_RD_MIN .. 9 * NPORTS steps). */
#define DOC_NCTR_SLOTS 9u
#define DOC_FLUSH_OFFSET 3u /* "Schedule": slot s is written in steps W = s + 3 (mod NS) */
#define DOC_RD_ABSENT 0u
#define DOC_RD_MIN 1u

/* ================================================================ tests */


typedef enum { DST_UNIFORM, DST_PERM, DST_HOT0, DST_HALF_HOT0, DST_OVERFLOW } dst_policy_t;
typedef enum { LEN_MIXED, LEN_32, LEN_SHORT_LONG, LEN_16, LEN_SAT, LEN_SHORT, LEN_LONG } len_policy_t;
typedef enum { LOAD_RANDOM, LOAD_FULL, LOAD_NONE } load_policy_t;
typedef enum { SCEN_NONE, SCEN_LATENCY, SCEN_BLOCKED } scenario_t;

/* checks a test asks for (the always-on ones are listed in check_cycle()) */
enum {
    CK_LATENCY_EXACT = 1u << 0, /* every packet: header in to first byte out equals the formula */
    CK_PERM_RATE = 1u << 1,     /* input and output data rates equal the packet-length figures */
    CK_HANDOVER = 1u << 2,      /* contended handover: exactly DOC_HANDOVER_IDLE idle cycles */
    CK_RR_ORDER = 1u << 3,      /* round robin: no waiting input is skipped */
    CK_NO_TIMEOUT = 1u << 4,    /* round robin bounds every wait below TIMEOUT */
    CK_SOME_TIMEOUT = 1u << 5,  /* the stimulus produced timeouts (if TIMEOUT > 0) */
    CK_SOME_STOP = 1u << 6,     /* the switch sent STOP */
    CK_DAMAGE_SEEN = 1u << 7,   /* the STOP-ignoring source had damaged packets */
    CK_COVER_ILLEGAL = 1u << 8, /* every illegal code went in inside a packet and between packets */
    CK_COVER_ROUTES = 1u << 9,  /* every first byte 0..255 was sent */
    CK_CTR_BIG = 1u << 10,      /* a counter passed 65536 (or wrapped, narrow counters) */
    CK_TIMEOUT_EXACT = 1u << 11 /* directed blocked packets: drain and ABORT cycles exact */
};

/* kind mix in per mille: crc_bad, marked, illegal, abort, runt, badroute (the rest normal) */
typedef struct {
    unsigned crc_bad, marked, illegal, abort, runt, badroute;
} mix_t;

typedef struct {
    const char *name;
    const char *what;
    unsigned div;            /* under --test all: --cycles / div traffic cycles (0: all of --cycles) */
    unsigned min_cycles;     /* ... but at least this many */
    unsigned timeout_mult;   /* ... and at least TIMEOUT * this many */
    dst_policy_t dst;
    len_policy_t len;
    load_policy_t load;
    unsigned drain_lo, drain_hi; /* receiver drain rate, % per cycle, drawn per host */
    unsigned bubble_max;         /* idle cycles inside packets, % per cycle, drawn per host */
    unsigned storm_pm;           /* chance per mille per cycle that a receiver starts a STOP storm */
    mix_t mix;
    unsigned between_pm;         /* chance per mille per packet of stray characters before it */
    int sweep_routes;            /* first bytes run through 0..255 */
    int sweep_illegal;           /* illegal codes run through 0x105..0x1FF */
    int ignore_stop0;            /* host 0 ignores STOP and floods output 1, whose receiver is slow */
    scenario_t scen;
    unsigned checks;
} test_desc_t;

static const test_desc_t tests[] = {
    {.name = "random",
     .what = "uniform random destinations, mixed sizes and every kind (CRC errors, marked, illegal codes, aborts, "
             "runts, bad routes), stray characters between packets, bubbles, random drain rates, STOP storms",
     .div = 0, .dst = DST_UNIFORM, .len = LEN_MIXED, .load = LOAD_RANDOM, .drain_lo = 30, .drain_hi = 100,
     .bubble_max = 10, .storm_pm = 2,
     .mix = {.crc_bad = 20, .marked = 10, .illegal = 15, .abort = 10, .runt = 10, .badroute = 20}, .between_pm = 30},
    {.name = "permutation",
     .what = "saturating permutation, every input to a distinct output: exact input and output rates, no STOP",
     .div = 10, .min_cycles = 5000, .dst = DST_PERM, .len = LEN_32, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100, .checks = CK_PERM_RATE},
    {.name = "hotspot",
     .what = "every input saturates output 0: round-robin order, exact handover gap, no timeout",
     .div = 10, .min_cycles = 5000, .dst = DST_HOT0, .len = LEN_32, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100, .checks = CK_HANDOVER | CK_RR_ORDER | CK_NO_TIMEOUT},
    {.name = "backtoback",
     .what = "back-to-back shortest and longest packets from every input",
     .div = 10, .min_cycles = 5000, .dst = DST_UNIFORM, .len = LEN_SHORT_LONG, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100},
    {.name = "badroute",
     .what = "first bytes run through all 256 values: every one that is not 10pppppp with p < NPORTS is dropped and "
             "counted drop_route; other traffic must not stall",
     .div = 10, .min_cycles = 5000, .dst = DST_UNIFORM, .len = LEN_SHORT, .load = LOAD_RANDOM, .drain_lo = 60,
     .drain_hi = 100, .bubble_max = 5, .sweep_routes = 1, .checks = CK_COVER_ROUTES},
    {.name = "stopstorm",
     .what = "receivers force STOP often and drain slowly",
     .div = 10, .min_cycles = 5000, .dst = DST_UNIFORM, .len = LEN_MIXED, .load = LOAD_FULL, .drain_lo = 10,
     .drain_hi = 40, .storm_pm = 20, .checks = CK_SOME_STOP},
    {.name = "crc",
     .what = "injected CRC errors and already-marked packets",
     .div = 10, .min_cycles = 5000, .dst = DST_UNIFORM, .len = LEN_MIXED, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100, .mix = {.crc_bad = 300, .marked = 150}},
    {.name = "illegal",
     .what = "every illegal control code 0x105-0x1FF inside packets (anywhere between route byte and GAP) and "
             "between packets, stray GAPs and ABORTs, sender ABORTs and runts",
     .div = 10, .min_cycles = 12000, .dst = DST_UNIFORM, .len = LEN_SHORT, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100, .bubble_max = 5, .mix = {.illegal = 600, .abort = 100, .runt = 50}, .between_pm = 700,
     .sweep_illegal = 1, .checks = CK_COVER_ILLEGAL},
    {.name = "timeout",
     .what = "output 0's receiver holds STOP past the timeout; packets drain, traffic recovers",
     .div = 10, .min_cycles = 5000, .timeout_mult = 5, .dst = DST_HALF_HOT0, .len = LEN_MIXED, .load = LOAD_FULL,
     .drain_lo = 100, .drain_hi = 100, .checks = CK_SOME_TIMEOUT},
    {.name = "blocked",
     .what = "directed blocked packets (waiting and owning an output): drained exactly TIMEOUT cycles after they "
             "block, the ABORT exactly when the output is let go",
     .div = 10, .min_cycles = 5000, .timeout_mult = 12, .dst = DST_UNIFORM, .len = LEN_MIXED, .load = LOAD_NONE,
     .drain_lo = 100, .drain_hi = 100, .scen = SCEN_BLOCKED, .checks = CK_TIMEOUT_EXACT},
    {.name = "latency",
     .what = "single packets on an idle switch: every header-in to first-byte-out sample exact",
     .div = 10, .min_cycles = 5000, .dst = DST_UNIFORM, .len = LEN_16, .load = LOAD_NONE, .drain_lo = 100,
     .drain_hi = 100, .scen = SCEN_LATENCY, .checks = CK_LATENCY_EXACT},
    {.name = "saturate",
     .what = "every input saturated, uniform random destinations, good packets (speed runs)",
     .div = 10, .min_cycles = 5000, .dst = DST_UNIFORM, .len = LEN_SAT, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100},
    {.name = "overflow",
     .what = "host 0 ignores STOP towards a slow output: overflow counted, its damaged packets marked bad or aborted, "
             "every other packet exact, nothing hangs",
     .div = 10, .min_cycles = 5000, .dst = DST_OVERFLOW, .len = LEN_MIXED, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100, .ignore_stop0 = 1, .checks = CK_DAMAGE_SEEN},
    {.name = "counters",
     .what = "long saturating permutation: byte counters pass 65536 (and wrap narrow counters), every register "
             "address read while traffic runs",
     .div = 10, .min_cycles = 80000, .dst = DST_PERM, .len = LEN_LONG, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100, .checks = CK_CTR_BIG},
};
#define NTESTS (sizeof tests / sizeof tests[0])

typedef struct {
    xbar_params_t p;
    bench_opts_t cl;         /* mode, seed, cycles, vcd, quiet, Verilator plusargs (bench_cli.h) */
    xbar_in_t *record;       /* if set, every cycle's inputs are stored here (record_max entries) */
    uint64_t record_max;
} opts_t;

typedef struct {
    int failed;
    uint64_t fail_cycle; /* cycle of the first lockstep mismatch, scoreboard or check error */
    char why[700];       /* starts with LOCKSTEP MISMATCH, SCOREBOARD or CHECK */
    uint64_t cycles_run;
    double seconds;
    uint64_t made, delivered, timeouts;
    double in_util;    /* characters per cycle per input, averaged (permutation) */
    double out_data;   /* data characters per cycle per output (permutation) */
    unsigned latency;  /* header in to first byte out, cycles (latency test) */
    uint64_t lat_samples;
    uint64_t stops;    /* STOP symbols the switch sent */
    uint64_t handovers, rr_checked, reads_checked, scen_done, resumes;
    int waves;                  /* the run wrote waves: cycles waves_range[0..1] */
    uint64_t waves_range[2];
} result_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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
        snprintf(buf, 24, CH_IS_DATA(c) ? "0x%02x" : "ctl:0x%03x", c);
        return buf;
    }
}

static int is_pkt_char(uint16_t c) { return CH_IS_DATA(c) || c == CH_GAP || c == CH_ABORT; }
static int is_flow_char(uint16_t c) { return c == CH_STOP || c == CH_GO; }
static int is_illegal_char(uint16_t c) { return c >= 0x105u; }
static int route_valid(unsigned b, unsigned n) { return ROUTE_IS_ROUTE(b) && ROUTE_PORT(b) < n; }

/* ================================================================ traffic */

typedef struct {
    const opts_t *o;
    const test_desc_t *d;
    unsigned n;
    rng_t rng;
    unsigned load_pct[XBAR_MAX_PORTS];
    unsigned dst_perm[XBAR_MAX_PORTS];
    uint64_t storm_until[XBAR_MAX_PORTS];
    unsigned next_route, next_code_in, next_code_between, next_pos;
    uint8_t route_sent[256];
    uint8_t code_in[251], code_between[251];
} traffic_t;

static sb_kind_t pick_kind(traffic_t *t)
{
    const mix_t *m = &t->d->mix;
    unsigned r = rng_below(&t->rng, 1000), a = 0;
    if (r < (a += m->crc_bad)) return SB_CRC_BAD;
    if (r < (a += m->marked)) return SB_MARKED;
    if (r < (a += m->illegal)) return SB_ILLEGAL;
    if (r < (a += m->abort)) return SB_ABORT;
    if (r < (a += m->runt)) return SB_RUNT;
    if (r < (a += m->badroute)) return SB_BADROUTE;
    return SB_NORMAL;
}

static unsigned pick_len(traffic_t *t)
{
    switch (t->d->len) {
    case LEN_SHORT_LONG: return rng_pct(&t->rng, 50) ? SB_ID_LEN + 1 : 1000;
    case LEN_32: return 32;
    case LEN_16: return 16;
    case LEN_SAT: return 8 + rng_below(&t->rng, 120);
    case LEN_SHORT: return SB_ID_LEN + 1 + rng_below(&t->rng, 16);
    case LEN_LONG: return 500 + rng_below(&t->rng, 500);
    case LEN_MIXED:
    default: {
        unsigned r = rng_below(&t->rng, 100);
        return r < 30 ? SB_ID_LEN + 1 + rng_below(&t->rng, 8) : r < 90 ? 16 + rng_below(&t->rng, 100)
                                                                         : 200 + rng_below(&t->rng, 800);
    }
    }
}

static unsigned pick_dst(traffic_t *t, unsigned src)
{
    const unsigned n = t->n;
    switch (t->d->dst) {
    case DST_PERM: return t->dst_perm[src];
    case DST_HOT0: return 0;
    case DST_HALF_HOT0: return rng_pct(&t->rng, 50) ? rng_below(&t->rng, n) : 0;
    case DST_OVERFLOW: return src == 0 ? 1 : rng_below(&t->rng, n);
    case DST_UNIFORM:
    default: return rng_below(&t->rng, n);
    }
}

/* Stray characters between packets: GAP, ABORT or an illegal code (counted malformed). */
static void queue_between(traffic_t *t, sb_t *sb, host_t *h, unsigned src)
{
    uint16_t ch[3];
    unsigned k = 1 + rng_below(&t->rng, 3);
    for (unsigned j = 0; j < k; j++) {
        unsigned r = rng_below(&t->rng, 4);
        if (r == 0)
            ch[j] = CH_GAP;
        else if (r == 1)
            ch[j] = CH_ABORT;
        else {
            unsigned code = t->d->sweep_illegal ? t->next_code_between++ % 251 : rng_below(&t->rng, 251);
            ch[j] = (uint16_t)(0x105 + code);
        }
    }
    if (host_queue_between(h, ch, k))
        for (unsigned j = 0; j < k; j++)
            if (is_illegal_char(ch[j])) {
                sb->extra_malformed[src]++;
                t->code_between[ch[j] - 0x105] = 1;
            }
}

/* Makes one packet from src (dst < 0, len 0: by the test's policy) and queues it; 1 if queued. */
static int make_packet(traffic_t *t, sb_t *sb, host_t *h, unsigned src, int dst_force, unsigned len_force)
{
    const unsigned n = t->n;
    if (t->d->between_pm && rng_below(&t->rng, 1000) < t->d->between_pm && h->q_count + 2 <= HOST_QUEUE)
        queue_between(t, sb, h, src);
    if (!host_can_queue(h))
        return 0;
    unsigned dst = dst_force >= 0 ? (unsigned)dst_force : pick_dst(t, src);
    unsigned len = len_force ? len_force : pick_len(t);
    sb_kind_t kind = pick_kind(t);
    uint8_t route[1];
    uint32_t aux = (uint32_t)rng_next(&t->rng);
    if (t->d->sweep_routes) {
        unsigned b = t->next_route++ % 256;
        route[0] = (uint8_t)b;
        if (route_valid(b, n))
            dst = ROUTE_PORT(b);
        else
            kind = SB_BADROUTE;
    } else if (kind == SB_BADROUTE) {
        unsigned r = rng_below(&t->rng, 3);
        route[0] = r == 0 ? (uint8_t)(0x80u | (n + rng_below(&t->rng, 64 - n)))  /* port at or past NPORTS */
                 : r == 1 ? (uint8_t)rng_below(&t->rng, 0x80)                   /* not a route byte */
                          : (uint8_t)(0xC0u | rng_below(&t->rng, 0x40));        /* 11xxxxxx, ITB mark among them */
    } else
        route[0] = ROUTE_BYTE(dst);
    if (kind == SB_ILLEGAL) {
        unsigned code = t->d->sweep_illegal ? t->next_code_in++ % 251 : rng_below(&t->rng, 251);
        aux = SB_ILLEGAL_AUX(0x105 + code, t->next_pos++);
        t->code_in[code] = 1;
    }
    uint16_t ch[HOST_MAX_PKT];
    unsigned nch = sb_make(sb, src, dst, kind, route, 1, len, aux, ch, HOST_MAX_PKT);
    if (!nch || !host_queue(h, ch, nch))
        return 0;
    t->route_sent[route[0]] = 1;
    return 1;
}

/* Configures the hosts for the test. */
static void traffic_setup(traffic_t *t, host_t *host, sb_t *sb)
{
    const test_desc_t *d = t->d;
    const unsigned n = t->n;
    for (unsigned i = 0; i < n; i++) {
        host_cfg_t c = host_default_cfg();
        c.react = 1 + t->o->p.LINK_DELAY;
        c.stop_grace = DOC_STOP_EFFECT + t->o->p.LINK_DELAY; /* docs/xbar.md: flow control from downstream */
        c.slack = c.stop_th + 8 + 2 * t->o->p.LINK_DELAY;    /* room for what the cable holds after our STOP */
        c.drain_pct = d->drain_lo + (d->drain_hi > d->drain_lo ? rng_below(&t->rng, d->drain_hi - d->drain_lo + 1) : 0);
        c.bubble_pct = d->bubble_max ? rng_below(&t->rng, d->bubble_max) : 0;
        t->load_pct[i] = d->load == LOAD_FULL ? 100 : d->load == LOAD_NONE ? 0 : 5 + rng_below(&t->rng, 96);
        if (d->ignore_stop0) {
            c.ignore_stop = i == 0;         /* host 0 floods its input ...                   */
            c.drain_pct = i == 1 ? 25 : 100; /* ... towards output 1, whose receiver is slow */
        }
        host_init(&host[i], &c, i, rng_next(&t->rng), sb_receive, sb);
        sb->damage_ok[i] = (uint8_t)(c.ignore_stop != 0);
    }
    /* permutation: a fixed shift keeps it simple and saturating */
    unsigned shift = 1 + rng_below(&t->rng, n - 1);
    for (unsigned i = 0; i < n; i++)
        t->dst_perm[i] = (i + shift) % n;
}

static void traffic_cycle(traffic_t *t, host_t *host, sb_t *sb, uint64_t cyc, int generate)
{
    const test_desc_t *d = t->d;
    for (unsigned i = 0; i < t->n; i++) {
        if (generate && host[i].q_count < 2 && t->load_pct[i] && rng_pct(&t->rng, t->load_pct[i]))
            make_packet(t, sb, &host[i], i, -1, 0);
        if (d->storm_pm && generate) {
            if (cyc >= t->storm_until[i]) {
                host_force_stop(&host[i], 0);
                if (rng_below(&t->rng, 1000) < d->storm_pm) {
                    host_force_stop(&host[i], 1);
                    t->storm_until[i] = cyc + 20 + rng_below(&t->rng, 400);
                }
            }
        } else if (d->scen != SCEN_BLOCKED)
            host_force_stop(&host[i], 0);
    }
    if (d->dst == DST_HALF_HOT0) {
        /* receiver 0 holds STOP well past the timeout in the first part of the run */
        uint64_t hold = (uint64_t)(t->o->p.TIMEOUT ? t->o->p.TIMEOUT : 1000) * 3;
        host_force_stop(&host[0], generate && cyc < hold);
    }
}

/* ================================================================ independent checks
 * They see only what crosses the block's ports (rx, reg_rd/reg_addr in; tx, stat_occ, reg_rvalid,
 * reg_rdata out) and the parameters, and compare with the rules at the top of this file. */

#define RING 256u /* > max LINK_DELAY + DOC delays + counter age; a power of two */
#define HFIFO 64u /* headers remembered per input and output */

typedef struct {
    uint64_t t[HFIFO];
    unsigned head, count;
} hfifo_t;

enum { EV_RX_PKTS, EV_RX_BYTES, EV_TX_PKTS, EV_TX_BYTES, EV_N };
static const unsigned ev_ctr[EV_N] = {XBAR_CTR_RX_PKTS, XBAR_CTR_RX_BYTES, XBAR_CTR_TX_PKTS, XBAR_CTR_TX_BYTES};

typedef struct {
    const xbar_params_t *p;
    const test_desc_t *d;
    unsigned n, ld;
    int damage_possible;
    /* flow control towards upstream */
    uint8_t wish[XBAR_MAX_PORTS];                  /* 1 = STOP, from stat_occ and the thresholds */
    uint16_t fc_expect[XBAR_MAX_PORTS][RING];      /* STOP/GO due on tx[i] in that cycle (0: none) */
    uint64_t fc_cause[XBAR_MAX_PORTS][RING];
    unsigned last_occ[XBAR_MAX_PORTS];
    /* flow control from downstream: state after rx[p] of each cycle (1 = stopped) */
    uint8_t down[XBAR_MAX_PORTS][RING];
    uint8_t down_now[XBAR_MAX_PORTS];
    uint64_t last_down_change[XBAR_MAX_PORTS];
    /* ... and resuming after GO (see check_resume) */
    uint64_t stop_at[XBAR_MAX_PORTS], occ_seen[XBAR_MAX_PORTS], resume_due[XBAR_MAX_PORTS];
    int res_inpkt[XBAR_MAX_PORTS], res_owner[XBAR_MAX_PORTS], resume_flow[XBAR_MAX_PORTS];
    uint64_t resumes;
    /* packets: input side and output side */
    int rx_inpkt[XBAR_MAX_PORTS];
    int tx_inpkt[XBAR_MAX_PORTS];
    hfifo_t hdr[XBAR_MAX_PORTS][XBAR_MAX_PORTS]; /* [input][output]: cycles route bytes were sampled */
    uint64_t hdr_total[XBAR_MAX_PORTS];
    int cur_src[XBAR_MAX_PORTS];                 /* output's current packet's source (-1 none) */
    int last_src[XBAR_MAX_PORTS];                /* source of the output's previous packet */
    uint64_t last_gap[XBAR_MAX_PORTS];           /* cycle of the output's last GAP/ABORT */
    uint64_t src_last_end[XBAR_MAX_PORTS][XBAR_MAX_PORTS]; /* [input][output]: end of its last packet there */
    int gap_contended[XBAR_MAX_PORTS];
    uint64_t last_flow[XBAR_MAX_PORTS];          /* last STOP/GO the switch sent on tx[q] */
    int flow_seen[XBAR_MAX_PORTS];
    unsigned gap_idle[XBAR_MAX_PORTS], gap_flow[XBAR_MAX_PORTS];
    uint64_t gap_window_from[XBAR_MAX_PORTS];
    /* counter events by cycle (cumulative), for the register port */
    uint64_t ev_cum[EV_N][XBAR_MAX_PORTS];
    uint64_t ev_hist[RING][EV_N][XBAR_MAX_PORTS];
    /* counter values to compare once the bench has seen every event they count (a tx event shows
     * on the port LINK_DELAY cycles after its step) */
    struct {
        uint64_t at, upto;      /* compare in cycle `at` with the events of cycles <= upto */
        unsigned port, ev;
        uint32_t value, read_at;
    } defer[16];
    unsigned ndefer;
    /* register port */
    int rd_out;                 /* a read is outstanding */
    uint64_t rd_ignored;        /* requests issued while one was outstanding */
    unsigned rd_addr;
    uint64_t rd_at;
    uint32_t last_value;
    int have_value;
    /* rates (permutation) */
    uint64_t in_chars, out_data, window, flow_out;
    /* latency */
    unsigned lat_worst;
    uint64_t lat_samples;
    uint64_t handovers, rr_checked, reads_checked;
    uint64_t stops;
} chk_t;

static void chk_init(chk_t *k, const xbar_params_t *p, const test_desc_t *d)
{
    memset(k, 0, sizeof *k);
    k->p = p;
    k->d = d;
    k->n = p->NPORTS;
    k->ld = p->LINK_DELAY;
    k->damage_possible = d->ignore_stop0;
    for (unsigned i = 0; i < XBAR_MAX_PORTS; i++) {
        k->cur_src[i] = k->last_src[i] = -1;
        k->gap_contended[i] = 0;
        k->stop_at[i] = k->resume_due[i] = UINT64_MAX;
        k->res_owner[i] = -1;
    }
}

static void hf_push(hfifo_t *f, uint64_t t)
{
    if (f->count == HFIFO) { /* forget the oldest (only ever weakens the checks) */
        f->head = (f->head + 1) % HFIFO;
        f->count--;
    }
    f->t[(f->head + f->count++) % HFIFO] = t;
}
static int hf_front(const hfifo_t *f, uint64_t *t)
{
    if (!f->count)
        return 0;
    *t = f->t[f->head];
    return 1;
}
static void hf_pop(hfifo_t *f)
{
    if (f->count) {
        f->head = (f->head + 1) % HFIFO;
        f->count--;
    }
}

static unsigned lat_formula(const xbar_params_t *p)
{
    unsigned a = p->ROUTE_DELAY + DOC_LAT_RD;
    return (a > DOC_LAT_MIN ? a : DOC_LAT_MIN) + p->LINK_DELAY;
}

/* Does input m hold a packet for output p that has been waiting and could be granted at `when`? */
static int waiting_for(const chk_t *k, unsigned m, unsigned p, uint64_t when)
{
    uint64_t h;
    const uint64_t margin = lat_formula(k->p) + 4;
    if (!hf_front(&k->hdr[m][p], &h) || h + margin > when)
        return 0;
    if (k->p->TIMEOUT && when - h + margin >= k->p->TIMEOUT)
        return 0; /* it may have been drained by the timeout meanwhile */
    return k->src_last_end[m][p] + margin <= when;
}

/* The register port: a read of `addr` issued in cycle c. */
static void chk_read_issued(chk_t *k, uint64_t c, unsigned addr)
{
    if (k->rd_out) {
        k->rd_ignored++; /* outstanding (up to and including its answer's step): ignored */
        return;
    }
    k->rd_out = 1;
    k->rd_addr = addr;
    k->rd_at = c;
}

static int addr_present(const chk_t *k, unsigned addr)
{
    return k->p->COUNTERS && (addr >> 4) < k->n && (addr & 15u) < XBAR_NCTR;
}

static void check_regport(chk_t *k, result_t *res, uint64_t c, const xbar_out_t *out)
{
    const unsigned ns = DOC_NCTR_SLOTS * k->n;
    const uint64_t mask = k->p->CTR_WIDTH >= 32 ? 0xFFFFFFFFull : (1ull << k->p->CTR_WIDTH) - 1;
    if (!out->reg_rvalid) {
        if (k->rd_out) {
            uint64_t limit = addr_present(k, k->rd_addr) ? DOC_RD_MIN - 1 + ns : DOC_RD_ABSENT;
            if (c >= k->rd_at + limit)
                fail(res, c, "CHECK register port: read of address 0x%02x in cycle %" PRIu64 " not answered within %"
                     PRIu64 " cycles", k->rd_addr, k->rd_at, limit);
        }
        return;
    }
    if (!k->rd_out) {
        fail(res, c, "CHECK register port: reg_rvalid in cycle %" PRIu64 " without an outstanding read", c);
        return;
    }
    unsigned a = k->rd_addr;
    uint64_t j = c - k->rd_at;
    k->rd_out = 0;
    k->reads_checked++;
    k->last_value = out->reg_rdata;
    k->have_value = 1;
    if (!addr_present(k, a)) {
        if (j != DOC_RD_ABSENT || out->reg_rdata != 0)
            fail(res, c, "CHECK register port: address 0x%02x (%s) answered after %" PRIu64 " cycles with 0x%08x, "
                 "expected 0 after %u", a, k->p->COUNTERS ? "absent" : "COUNTERS=0", j, out->reg_rdata,
                 DOC_RD_ABSENT);
        return;
    }
    /* the flusher writes slot s in every step W >= 3 with W = s + 3 (mod NS), steps counted from the
     * last reset edge (step 0; the bench's cycle c is step c + 1); the read is answered in the first
     * such W after the request's step */
    unsigned slot = (a >> 4) * DOC_NCTR_SLOTS + (a & 15u);
    uint64_t R = k->rd_at + 1, W0 = R + 1;
    uint64_t W = W0 + ((uint64_t)slot + DOC_FLUSH_OFFSET + ns * 4 - W0 % ns) % ns;
    if (W < 3)
        W += ns;
    if (c + 1 != W) {
        fail(res, c, "CHECK register port: read of port %u counter %u (slot %u) in cycle %" PRIu64 " answered in cycle %"
             PRIu64 ", expected %" PRIu64 " (the flusher writes slot s at steps = s + %u mod %u)", a >> 4, a & 15u,
             slot, k->rd_at, c, W - 1, DOC_FLUSH_OFFSET, ns);
        return;
    }
    if (out->reg_rdata > mask) {
        fail(res, c, "CHECK register port: 0x%08x is wider than CTR_WIDTH=%u", out->reg_rdata, k->p->CTR_WIDTH);
        return;
    }
    /* counters whose events the bench sees on the links: exact value, compared as soon as the bench
     * has seen every event it counts */
    for (unsigned e = 0; e < EV_N; e++) {
        if ((a & 15u) != ev_ctr[e] || c < DOC_CTR_AGE)
            continue;
        uint64_t upto = c - DOC_CTR_AGE;
        uint64_t at = (e == EV_TX_PKTS || e == EV_TX_BYTES) && k->ld > DOC_CTR_AGE ? upto + k->ld : c;
        if (k->ndefer == sizeof k->defer / sizeof k->defer[0])
            return; /* (never: at most LINK_DELAY / 1 reads are pending) */
        k->defer[k->ndefer].at = at;
        k->defer[k->ndefer].upto = upto;
        k->defer[k->ndefer].port = a >> 4;
        k->defer[k->ndefer].ev = e;
        k->defer[k->ndefer].value = out->reg_rdata;
        k->defer[k->ndefer].read_at = (uint32_t)c;
        k->ndefer++;
    }
}

/* Deferred counter comparisons due in cycle c (after this cycle's events are recorded). */
static void check_deferred(chk_t *k, result_t *res, uint64_t c)
{
    const uint64_t mask = k->p->CTR_WIDTH >= 32 ? 0xFFFFFFFFull : (1ull << k->p->CTR_WIDTH) - 1;
    for (unsigned i = 0; i < k->ndefer && !res->failed;) {
        if (k->defer[i].at != c) {
            i++;
            continue;
        }
        unsigned e = k->defer[i].ev, port = k->defer[i].port;
        uint64_t want = k->ev_hist[k->defer[i].upto % RING][e][port] & mask;
        if (k->defer[i].value != want)
            fail(res, c, "CHECK register port: counter %s of port %u read in cycle %u is %u, expected %" PRIu64
                 " (events the bench saw up to cycle %" PRIu64 ", mod 2^%u)", xbar_counter_name(ev_ctr[e]), port,
                 k->defer[i].read_at, k->defer[i].value, want, k->defer[i].upto, k->p->CTR_WIDTH);
        k->defer[i] = k->defer[--k->ndefer];
    }
}

/* One input/link i in cycle c: characters on tx[i], flow control both ways, route bytes in. */
static void check_port_in(chk_t *k, result_t *res, uint64_t c, unsigned i, const xbar_in_t *in,
                          const xbar_out_t *out)
{
    const unsigned n = k->n, ld = k->ld;
    const xbar_params_t *p = k->p;
    char b1[24], b2[24];
    uint16_t r = in->rx[i], t = out->tx[i];
    if (t == CH_STOP)
        k->stops++;

    /* 1. the switch never sends an illegal character */
    if (t > 0x1FFu || is_illegal_char(t)) {
        fail(res, c, "CHECK tx[%u] in cycle %" PRIu64 " carries %s, not a link character", i, c, ch_name(t, b1));
        return;
    }

    /* 2. occupancy and flow control towards upstream: the wish follows stat_occ with hysteresis,
     * STOP/GO leaves exactly DOC_FC_DELAY + LINK_DELAY cycles later, and at no other time */
    unsigned occ = out->stat_occ[i];
    if (occ > p->SLACK_DEPTH) {
        fail(res, c, "CHECK stat_occ[%u] is %u in cycle %" PRIu64 ", above SLACK_DEPTH %u", i, occ, c, p->SLACK_DEPTH);
        return;
    }
    /* occ[k] = occ[k-1] + wr[k] - pop[k]: at most one entry in and one out per step */
    if (occ + 1 < k->last_occ[i] || occ > k->last_occ[i] + 1) {
        fail(res, c, "CHECK stat_occ[%u] went from %u to %u in cycle %" PRIu64 " (at most one write and one pop "
             "per step)", i, k->last_occ[i], occ, c);
        return;
    }
    uint8_t w = occ >= p->STOP_THRESH ? 1 : occ <= p->GO_THRESH ? 0 : k->wish[i];
    if (w != k->wish[i]) {
        k->wish[i] = w;
        uint64_t due = c + DOC_FC_DELAY + ld;
        k->fc_expect[i][due % RING] = (uint16_t)(w ? CH_STOP : CH_GO);
        k->fc_cause[i][due % RING] = c;
    }
    k->last_occ[i] = occ;
    uint16_t want = k->fc_expect[i][c % RING];
    uint16_t got = is_flow_char(t) ? t : 0;
    if (want != got) {
        if (want)
            fail(res, c, "CHECK flow control: stat_occ[%u] crossed to %s in cycle %" PRIu64 " (occupancy %u, "
                 "STOP_THRESH %u, GO_THRESH %u): %s due on tx[%u] in cycle %" PRIu64 ", found %s",
                 i, want == CH_STOP ? "STOP" : "GO", k->fc_cause[i][c % RING], occ, p->STOP_THRESH, p->GO_THRESH,
                 ch_name(want, b1), i, c, ch_name(t, b2));
        else
            fail(res, c, "CHECK flow control: tx[%u] sent %s in cycle %" PRIu64 " but stat_occ[%u] crossed no "
                 "threshold in cycle %" PRIu64 " (occupancy now %u, STOP_THRESH %u, GO_THRESH %u)",
                 i, ch_name(t, b1), c, i, c - DOC_FC_DELAY - ld, occ, p->STOP_THRESH, p->GO_THRESH);
        return;
    }
    k->fc_expect[i][c % RING] = 0;

    /* 3. flow control from downstream: no packet character while stopped */
    if (r == CH_STOP || r == CH_GO) {
        k->down_now[i] = r == CH_STOP;
        k->last_down_change[i] = c;
    }
    k->down[i][c % RING] = k->down_now[i];
    uint64_t look = c >= DOC_STOP_EFFECT + ld ? c - DOC_STOP_EFFECT - ld : UINT64_MAX;
    if (is_pkt_char(t) && look != UINT64_MAX && k->down[i][look % RING]) {
        fail(res, c, "CHECK downstream STOP: tx[%u] sent %s in cycle %" PRIu64 " although rx[%u] was stopped in "
             "cycle %" PRIu64 " (STOP sampled, no GO yet)", i, ch_name(t, b1), c, i, look);
        return;
    }

    /* 4. packets entering: remember when each route byte arrived, per input and output */
    if (CH_IS_DATA(r) && !k->rx_inpkt[i]) {
        k->rx_inpkt[i] = 1;
        if (route_valid(r, n)) {
            hf_push(&k->hdr[i][ROUTE_PORT(r)], c);
            k->hdr_total[i]++;
        }
    } else if (r == CH_GAP || r == CH_ABORT)
        k->rx_inpkt[i] = 0;
}

/* One output q in cycle c: packets leaving (latency, handover, round robin). */
static void check_port_out(chk_t *k, result_t *res, uint64_t c, unsigned q, const xbar_out_t *out, int measure)
{
    const unsigned n = k->n, ld = k->ld;
    const xbar_params_t *p = k->p;
    const unsigned lat = lat_formula(p);
    uint16_t t = out->tx[q];
    if (is_flow_char(t)) {
        k->last_flow[q] = c;
        k->flow_seen[q] = 1;
    }
    if (CH_IS_DATA(t) && !k->tx_inpkt[q]) {
        k->tx_inpkt[q] = 1;
        unsigned src = t; /* body byte 0 is the source (scoreboard packets) */
        k->cur_src[q] = src < n ? (int)src : -1;
        if (src < n && !k->damage_possible) {
            uint64_t h;
            if (hf_front(&k->hdr[src][q], &h)) {
                uint64_t l = c - h;
                /* exact on an idle output: no STOP/GO of its own took a cycle meanwhile */
                int exact = (k->d->checks & CK_LATENCY_EXACT) && !(k->flow_seen[q] && k->last_flow[q] >= h);
                if (l < lat || (exact && l != lat)) {
                    fail(res, c, "CHECK latency: packet from input %u to output %u: route byte in cycle %" PRIu64
                         ", first byte out in cycle %" PRIu64 ": %" PRIu64 " cycles, expected %s%u (max(%u, "
                         "ROUTE_DELAY %u + %u) + LINK_DELAY %u)", src, q, h, c, l,
                         exact ? "" : "at least ", lat, DOC_LAT_MIN, p->ROUTE_DELAY,
                         DOC_LAT_RD, ld);
                    return;
                }
                if (l > k->lat_worst)
                    k->lat_worst = (unsigned)l;
                k->lat_samples++;
                hf_pop(&k->hdr[src][q]);
            }
        }
        /* handover: a contended GAP is followed by exactly DOC_HANDOVER_IDLE idle cycles */
        if ((k->d->checks & CK_HANDOVER) && k->gap_contended[q] && measure) {
            k->handovers++;
            if (k->gap_idle[q] != DOC_HANDOVER_IDLE)
                fail(res, c, "CHECK handover: output %u: %u idle cycles (and %u STOP/GO) between the GAP of cycle %"
                     PRIu64 " and the next packet's first byte in cycle %" PRIu64 " although another packet was "
                     "waiting; expected %u idle", q, k->gap_idle[q], k->gap_flow[q], k->last_gap[q], c,
                     DOC_HANDOVER_IDLE);
        }
        /* round robin: every input between the last owner and this one (in port order) that had
         * a packet waiting for this output must have been served first */
        if ((k->d->checks & CK_RR_ORDER) && k->last_src[q] >= 0 && src < n && measure &&
            k->gap_contended[q]) {
            k->rr_checked++;
            for (unsigned m = ((unsigned)k->last_src[q] + 1) % n; m != src; m = (m + 1) % n)
                if (waiting_for(k, m, q, k->last_gap[q])) {
                    uint64_t h = 0;
                    hf_front(&k->hdr[m][q], &h);
                    fail(res, c, "CHECK round robin: output %u went from input %d to input %u in cycle %" PRIu64
                         ", skipping input %u whose packet had waited since cycle %" PRIu64, q, k->last_src[q],
                         src, c, m, h);
                    return;
                }
        }
        k->gap_contended[q] = 0;
    } else if ((t == CH_GAP || t == CH_ABORT) && (k->tx_inpkt[q] || t == CH_ABORT)) {
        k->tx_inpkt[q] = 0;
        k->last_gap[q] = c;
        if (k->cur_src[q] >= 0) {
            k->src_last_end[k->cur_src[q]][q] = c;
            k->last_src[q] = k->cur_src[q];
        }
        k->cur_src[q] = -1;
        /* contended: some input has had a packet for this output long enough, and the output
         * was not stopped from downstream around the handover */
        int cont = 0;
        for (unsigned m = 0; m < n && !cont; m++)
            cont = waiting_for(k, m, q, c);
        k->gap_contended[q] = cont && c > k->last_down_change[q] + 2 * (ld + 4) && !k->down_now[q];
        k->gap_idle[q] = k->gap_flow[q] = 0;
    } else if (!k->tx_inpkt[q]) {
        if (t == CH_IDLE)
            k->gap_idle[q]++;
        else if (is_flow_char(t))
            k->gap_flow[q]++;
        if (k->down_now[q])
            k->gap_contended[q] = 0;
    }
}

/* Downstream GO, the other half of "exactly": an output stopped in the middle of a packet whose
 * input had an entry for it during the stop (stat_occ of the packet's source >= 1 once the output
 * was stopped; FIFO order makes it this packet's, and it is popped into the output's queue while
 * stopped) has a packet character to send when GO lets it: it leaves exactly 1 + LINK_DELAY cycles
 * after the GO was sampled, or one cycle later behind a STOP/GO of its own (top priority). */
static void check_resume(chk_t *k, result_t *res, uint64_t c, unsigned q, const xbar_in_t *in, const xbar_out_t *out)
{
    const unsigned ld = k->ld;
    const uint16_t r = in->rx[q], t = out->tx[q];
    char b1[24];
    if (k->damage_possible)
        return;
    if (c == k->resume_due[q]) {
        uint64_t look = c - DOC_STOP_EFFECT - ld;
        if (k->down[q][look % RING]) {
            k->resume_due[q] = UINT64_MAX; /* stopped again: nothing to expect */
        } else if (is_pkt_char(t)) {
            k->resume_due[q] = UINT64_MAX;
            k->resumes++;
        } else if (is_flow_char(t) && !k->resume_flow[q]) {
            k->resume_flow[q] = 1;
            k->resume_due[q]++;
        } else {
            fail(res, c, "CHECK downstream GO: output %u was stopped in the middle of input %d's packet with an entry "
                 "waiting (stat_occ[%d] >= 1 in cycle %" PRIu64 "); after the GO of cycle %" PRIu64 " tx[%u] carries "
                 "%s in cycle %" PRIu64 ", expected the packet to go on", q, k->res_owner[q], k->res_owner[q],
                 k->occ_seen[q], c - DOC_STOP_EFFECT - ld - (uint64_t)k->resume_flow[q], q, ch_name(t, b1), c);
            return;
        }
    }
    if (r == CH_STOP && k->stop_at[q] == UINT64_MAX) {
        k->stop_at[q] = c;
        k->occ_seen[q] = 0;
        k->res_owner[q] = -1;
        k->res_inpkt[q] = 0;
    }
    if (k->stop_at[q] == UINT64_MAX)
        return;
    uint64_t s = k->stop_at[q];
    if (c == s + ld) {
        /* what the port shows now is the last step before the stop took effect */
        k->res_inpkt[q] = k->tx_inpkt[q];
        k->res_owner[q] = k->tx_inpkt[q] ? k->cur_src[q] : -1;
    }
    if (c >= s + ld + 2 && k->res_owner[q] >= 0 && !k->occ_seen[q] && out->stat_occ[k->res_owner[q]] >= 1)
        k->occ_seen[q] = c;
    if (r == CH_GO) {
        if (k->res_inpkt[q] && k->res_owner[q] >= 0 && k->occ_seen[q] && k->occ_seen[q] + 4 <= c &&
            k->resume_due[q] == UINT64_MAX) {
            k->resume_due[q] = c + DOC_STOP_EFFECT + ld;
            k->resume_flow[q] = 0;
        }
        k->stop_at[q] = UINT64_MAX;
    }
}

/* Everything the checks look at in one cycle c: in = what the switch sampled, out = what it showed. */
static void check_cycle(chk_t *k, result_t *res, uint64_t c, const xbar_in_t *in, const xbar_out_t *out,
                        int measure)
{
    const unsigned n = k->n, ld = k->ld;

    /* counter events of this cycle (rx now; tx LINK_DELAY cycles ago, recorded under that cycle) */
    for (unsigned i = 0; i < n; i++) {
        uint16_t r = in->rx[i];
        if (CH_IS_DATA(r))
            k->ev_cum[EV_RX_BYTES][i]++;
        if ((r == CH_GAP || r == CH_ABORT) && k->rx_inpkt[i])
            k->ev_cum[EV_RX_PKTS][i]++;
    }
    memcpy(k->ev_hist[c % RING][EV_RX_PKTS], k->ev_cum[EV_RX_PKTS], sizeof k->ev_cum[0]);
    memcpy(k->ev_hist[c % RING][EV_RX_BYTES], k->ev_cum[EV_RX_BYTES], sizeof k->ev_cum[0]);
    for (unsigned i = 0; i < n; i++) {
        uint16_t t = out->tx[i];
        if (CH_IS_DATA(t))
            k->ev_cum[EV_TX_BYTES][i]++;
        if (t == CH_GAP || t == CH_ABORT)
            k->ev_cum[EV_TX_PKTS][i]++;
    }
    if (c >= ld) {
        memcpy(k->ev_hist[(c - ld) % RING][EV_TX_PKTS], k->ev_cum[EV_TX_PKTS], sizeof k->ev_cum[0]);
        memcpy(k->ev_hist[(c - ld) % RING][EV_TX_BYTES], k->ev_cum[EV_TX_BYTES], sizeof k->ev_cum[0]);
    }

    for (unsigned i = 0; i < n && !res->failed; i++)
        check_port_in(k, res, c, i, in, out);
    if (res->failed)
        return;

    /* 5. packets leaving: latency, handover, round robin (output side) */
    for (unsigned q = 0; q < n && !res->failed; q++)
        check_port_out(k, res, c, q, out, measure);
    for (unsigned q = 0; q < n && !res->failed; q++)
        check_resume(k, res, c, q, in, out);
    if (res->failed)
        return;

    /* 6. rates */
    if (measure) {
        k->window++;
        for (unsigned i = 0; i < n; i++) {
            k->in_chars += in->rx[i] != CH_IDLE;
            k->out_data += CH_IS_DATA(out->tx[i]);
            k->flow_out += is_flow_char(out->tx[i]);
        }
    }

    /* 7. register port */
    check_regport(k, res, c, out);
    check_deferred(k, res, c);
}

/* ================================================================ directed scenarios */

/* latency: one packet at a time on an idle switch, every input and output in turn */
typedef struct {
    int waiting;
    uint64_t next_at;
    unsigned src, k;
} scen_lat_t;

/* blocked packets: see scen_blocked() */
typedef enum { BL_IDLE, BL_RUN, BL_RESUME } bl_phase_t;
typedef struct {
    bl_phase_t ph;
    unsigned round;
    int with_stop;          /* this round output 0 is also stopped from downstream */
    unsigned a, b;          /* the owning input and the waiting input */
    uint64_t at;            /* when the round started */
    uint64_t hdr_a, hdr_b;  /* route bytes sampled (UINT64_MAX: not yet) */
    uint64_t end_b;         /* B's GAP sampled */
    uint64_t last_out_a;    /* last data character of A on tx[0] */
    uint64_t go_at;         /* GO sampled on rx[0] (with_stop rounds) */
    uint64_t stop_at;       /* STOP sampled on rx[0] (with_stop rounds) */
    unsigned occ_b;         /* stat_occ[b] after B's GAP */
    int b_drained, a_aborted;
    uint64_t done_at;
    uint64_t quiet_from;    /* the switch and the hosts quiet since */
} scen_bl_t;

typedef struct {
    scen_lat_t lat;
    scen_bl_t bl;
} scen_t;

static void scen_latency(scen_t *s, traffic_t *t, host_t *host, sb_t *sb, const chk_t *k, uint64_t cyc, int generate)
{
    scen_lat_t *l = &s->lat;
    const unsigned n = t->n;
    if (!generate)
        return;
    if (l->waiting) {
        /* wait until the previous packet has left completely and the switch is quiet again */
        int quiet = !host_busy(&host[l->src]);
        for (unsigned q = 0; q < n && quiet; q++)
            quiet = !k->tx_inpkt[q] && k->last_occ[q] == 0 && (!k->hdr[l->src][q].count);
        if (!quiet)
            return;
        l->waiting = 0;
        l->next_at = cyc + 8 + (cyc % 5);
    }
    if (cyc < l->next_at)
        return;
    l->src = (l->k + l->k / n) % n;
    unsigned dst = l->k % n;
    l->k++;
    if (make_packet(t, sb, &host[l->src], l->src, (int)dst, 0))
        l->waiting = 1;
}

#define BL_LEN_A 12u   /* A: route byte, 12 body bytes, CRC, GAP; held after BL_PAUSE_A characters */
#define BL_PAUSE_A 8u  /* route byte + b1..b7 sent: b7 is held at the ingress, b1..b6 leave */
#define BL_LEN_B 8u

/* B's whole packet (BL_LEN_B data entries and its LAST) must sit in its slack buffer without a STOP
 * towards its host */
static int bl_b_fits(const xbar_params_t *p) { return p->STOP_THRESH > BL_LEN_B + 2; }

/* Blocked packets (docs/xbar.md, "Blocking timeout"), in rounds on a quiet switch:
 *  - input a sends a packet to output 0 and its host pauses inside it: a owns output 0 and makes no
 *    progress (its last pop is the byte that left on tx[0] last, LINK_DELAY + 1 cycles before);
 *  - input b's packet to output 0 arrives meanwhile and waits in HDR from its route byte's step;
 *  - b is drained at step h_b + TIMEOUT: stat_occ[b] first falls at h_b + TIMEOUT + 1 (the whole
 *    packet sits in the buffer, nothing else arrives there);
 *  - a is drained at step j + TIMEOUT (j = its last pop) and output 0 sends ABORT at the first step
 *    >= j + TIMEOUT + 2 in which it is not stopped: o + TIMEOUT + 1 on the port (o = the cycle its last
 *    byte showed there); in odd rounds receiver 0 holds STOP past that and the ABORT leaves exactly
 *    LINK_DELAY + 1 cycles after the GO is sampled. Nothing else leaves tx[0] meanwhile.
 * With TIMEOUT 0 nothing may drain in 3000 cycles, and both packets arrive whole once a resumes.
 * post = 0: act before the hosts step; post = 1: observe the step's ports. */
static void scen_blocked(scen_t *s, traffic_t *t, host_t *host, sb_t *sb, result_t *res, uint64_t cyc,
                         const xbar_in_t *in, const xbar_out_t *out, int generate, int post)
{
    scen_bl_t *b = &s->bl;
    const xbar_params_t *p = &t->o->p;
    const unsigned n = t->n, ld = p->LINK_DELAY;
    const uint64_t T = p->TIMEOUT;
    const uint64_t hold = T ? T : 3000; /* how long a round waits for the timeout */
    char b1[24];
    if (!post) {
        switch (b->ph) {
        case BL_IDLE:
            if (!generate || n < 3)
                return;
            for (unsigned q = 0; q < n; q++)
                if (host_busy(&host[q]) || out->tx[q] != CH_IDLE || out->stat_occ[q] || host[q].announced_stop)
                    b->quiet_from = cyc + 1;
            /* quiet long enough that nothing is left in the cables */
            if (cyc < b->quiet_from + lat_formula(p) + ld + 16)
                return;
            memset(b, 0, offsetof(scen_bl_t, done_at));
            b->ph = BL_RUN;
            b->round = (unsigned)res->scen_done;
            b->with_stop = b->round % 2 == 1;
            b->a = 1 + b->round % (n - 1);
            b->b = 1 + (b->round + 1) % (n - 1);
            b->hdr_a = b->hdr_b = b->end_b = UINT64_MAX;
            b->at = cyc;
            host_pause_at(&host[b->a], BL_PAUSE_A);
            make_packet(t, sb, &host[b->a], b->a, 0, BL_LEN_A);
            return;
        case BL_RUN:
            if (b->hdr_a != UINT64_MAX && cyc == b->hdr_a + 2 && bl_b_fits(p))
                make_packet(t, sb, &host[b->b], b->b, 0, BL_LEN_B);
            if (b->with_stop && b->hdr_a != UINT64_MAX && cyc == b->hdr_a + lat_formula(p) + 20)
                host_force_stop(&host[0], 1);
            if (b->with_stop && b->hdr_a != UINT64_MAX && cyc == b->hdr_a + hold + 200)
                host_force_stop(&host[0], 0);
            if (cyc == b->at + hold + 400 + 4 * ld) {
                /* the round is over: a sends the rest of its packet (drained at the input, or
                 * delivered whole with TIMEOUT 0) */
                if (!T && !res->failed && (b->a_aborted || b->b_drained))
                    fail(res, cyc, "CHECK timeout: TIMEOUT is 0 but a blocked packet was drained");
                if (T && !res->failed && (!b->a_aborted || (!b->b_drained && bl_b_fits(p))))
                    fail(res, cyc, "CHECK timeout: round %u: %s", b->round,
                         !b->b_drained ? "the waiting packet was never drained" : "no ABORT for the owning packet");
                host_pause_at(&host[b->a], 0);
                host_force_stop(&host[0], 0);
                b->ph = BL_RESUME;
            }
            return;
        case BL_RESUME:
            if (!host_busy(&host[b->a]) && !host_busy(&host[b->b])) {
                res->scen_done++;
                b->ph = BL_IDLE;
                b->quiet_from = cyc + 1;
            }
            return;
        }
        return;
    }
    if (b->ph != BL_RUN || res->failed)
        return;
    /* observe */
    if (b->hdr_a == UINT64_MAX && CH_IS_DATA(in->rx[b->a]))
        b->hdr_a = cyc;
    if (b->hdr_b == UINT64_MAX && CH_IS_DATA(in->rx[b->b]))
        b->hdr_b = cyc;
    if (b->hdr_b != UINT64_MAX && b->end_b == UINT64_MAX && in->rx[b->b] == CH_GAP) {
        b->end_b = cyc;
        b->occ_b = UINT32_MAX;
    }
    if (in->rx[0] == CH_GO && b->with_stop)
        b->go_at = cyc;
    if (in->rx[0] == CH_STOP && b->with_stop && !b->stop_at)
        b->stop_at = cyc;
    uint16_t t0 = out->tx[0];
    if (CH_IS_DATA(t0))
        b->last_out_a = cyc;
    /* B: constant once whole, first falls exactly at h_b + TIMEOUT + 1 */
    if (b->end_b != UINT64_MAX && cyc >= b->end_b + 3 && !b->b_drained) {
        unsigned occ = out->stat_occ[b->b];
        uint64_t due = b->hdr_b + T + 1;
        if (b->occ_b == UINT32_MAX)
            b->occ_b = occ;
        else if (occ < b->occ_b) {
            b->b_drained = 1;
            if (!T || cyc != due)
                fail(res, cyc, "CHECK timeout: input %u's packet to output 0 waited from its route byte in cycle %"
                     PRIu64 "; its drain shows on stat_occ in cycle %" PRIu64 ", expected %s%" PRIu64, b->b, b->hdr_b,
                     cyc, T ? "" : "never (TIMEOUT 0), not ", T ? due : cyc);
            return;
        } else if (occ != b->occ_b) {
            fail(res, cyc, "CHECK timeout: stat_occ[%u] moved from %u to %u in cycle %" PRIu64 " with nothing arriving",
                 b->b, b->occ_b, occ, cyc);
            return;
        }
        if (T && cyc == due) {
            fail(res, cyc, "CHECK timeout: input %u's packet to output 0 waited from its route byte in cycle %" PRIu64
                 " but was not drained %" PRIu64 " cycles later (stat_occ[%u] still %u in cycle %" PRIu64 ")", b->b,
                 b->hdr_b, T + 1, b->b, occ, cyc);
            return;
        }
    }
    /* A: after its last byte, nothing but STOP/GO/IDLE on tx[0] until the ABORT, which comes exactly
     * at o + TIMEOUT + 1, or LINK_DELAY + 1 after the GO when output 0 was still stopped then */
    if (b->hdr_a != UINT64_MAX && !b->a_aborted && b->last_out_a) {
        uint64_t due = b->last_out_a + T + 1;
        /* stopped by then: the first cycle after the GO lets it out */
        if (b->with_stop && b->stop_at && b->stop_at + DOC_STOP_EFFECT + ld <= due) {
            uint64_t go = b->go_at ? b->go_at + DOC_STOP_EFFECT + ld : UINT64_MAX;
            due = go > due ? go : due;
        }
        if (t0 == CH_ABORT || t0 == CH_GAP) {
            b->a_aborted = 1;
            if (!T || t0 == CH_GAP || cyc != due)
                fail(res, cyc, "CHECK timeout: output 0 sent %s in cycle %" PRIu64 "; input %u's packet last moved "
                     "(byte out) in cycle %" PRIu64 "%s, so the ABORT was due in cycle %" PRIu64 "%s", ch_name(t0, b1),
                     cyc, b->a, b->last_out_a, b->with_stop ? " and GO came later" : "", due,
                     T ? "" : " (TIMEOUT 0: never)");
        } else if (T && cyc == due)
            fail(res, cyc, "CHECK timeout: no ABORT on tx[0] in cycle %" PRIu64 " (found %s); input %u's packet last "
                 "moved (byte out) in cycle %" PRIu64 "%s%" PRIu64, cyc, ch_name(t0, b1), b->a, b->last_out_a,
                 b->with_stop ? ", GO sampled in cycle " : ", TIMEOUT ", b->with_stop ? b->go_at : T);
    }
}

/* ================================================================ one run */

typedef struct {
    const test_desc_t *d;
    uint64_t cycles;
} run_cfg_t;

static void compare_lockstep(result_t *res, uint64_t cyc, unsigned n, const xbar_out_t *om, const xbar_out_t *orr)
{
    char b1[24], b2[24];
    for (unsigned p = 0; p < n; p++)
        if (om->tx[p] != orr->tx[p]) {
            fail(res, cyc, "LOCKSTEP MISMATCH cycle %" PRIu64 " port %u signal tx expected %s actual %s", cyc, p,
                 ch_name(om->tx[p], b1), ch_name(orr->tx[p], b2));
            return;
        }
    for (unsigned p = 0; p < n; p++)
        if (om->stat_occ[p] != orr->stat_occ[p]) {
            fail(res, cyc, "LOCKSTEP MISMATCH cycle %" PRIu64 " port %u signal stat_occ expected %u actual %u", cyc, p,
                 om->stat_occ[p], orr->stat_occ[p]);
            return;
        }
    if (om->reg_rvalid != orr->reg_rvalid)
        fail(res, cyc, "LOCKSTEP MISMATCH cycle %" PRIu64 " port - signal reg_rvalid expected %u actual %u", cyc,
             om->reg_rvalid, orr->reg_rvalid);
    else if (om->reg_rdata != orr->reg_rdata)
        fail(res, cyc, "LOCKSTEP MISMATCH cycle %" PRIu64 " port - signal reg_rdata expected 0x%08x actual 0x%08x",
             cyc, om->reg_rdata, orr->reg_rdata);
}

/* The expectations a test's table entry names, at the end of a run that passed so far. */
static void check_test_end(const test_desc_t *d, const xbar_params_t *P, const chk_t *k, const traffic_t *t,
                           const sb_t *sb, uint64_t max_count, uint64_t cyc, result_t *res)
{
    const unsigned n = P->NPORTS;
    const unsigned ck = d->checks;
    if (!res->failed && (ck & CK_PERM_RATE) && k->window) {
        /* a packet is L = 35 characters on the link (route, 32 body, CRC, GAP) and leaves as 33 data
         * characters and a GAP; its input spends L + D cycles on it (docs/xbar.md, Throughput) */
        const double L = 35.0, D = P->ROUTE_DELAY, W = (double)k->window * n;
        res->in_util = (double)k->in_chars / W;
        res->out_data = (double)k->out_data / W;
        const double in_want = W * L / (L + D), out_want = (double)k->in_chars * 33.0 / L;
        const double slop = (double)n * (L + D + 2), buf = (double)n * (P->SLACK_DEPTH + L + D + 2);
        if (P->ROUTE_DELAY == 0 && res->stops != 0)
            fail(res, cyc, "CHECK permutation: the switch sent %" PRIu64 " STOPs (it must keep up)", res->stops);
        else if (P->ROUTE_DELAY == 0 && k->in_chars != k->window * n)
            fail(res, cyc, "CHECK permutation: inputs carried %" PRIu64 " characters in %" PRIu64 " cycles x %u ports, "
                 "expected every cycle (1.0 per cycle)", k->in_chars, k->window, n);
        else if ((P->GO_THRESH >= 6 + 2 * P->LINK_DELAY && (double)k->in_chars < in_want - buf - (double)k->flow_out) ||
                 (double)k->in_chars > in_want + buf)
            /* (each STOP/GO the switch sends takes a cycle of an output's data stream: at most one
             * character less at the input feeding it) */
            fail(res, cyc, "CHECK permutation: inputs carried %" PRIu64 " characters, expected %.0f (L/(L+D) = %.4f "
                 "per cycle per port) - %.0f .. + %.0f (%" PRIu64 " STOP/GO sent)", k->in_chars, in_want, L / (L + D),
                 buf + (double)k->flow_out, buf, k->flow_out);
        else if ((double)k->out_data < out_want - (P->ROUTE_DELAY ? buf : slop) ||
                 (double)k->out_data > out_want + (P->ROUTE_DELAY ? buf : slop))
            fail(res, cyc, "CHECK permutation: outputs sent %" PRIu64 " data characters, expected %.0f +- %.0f (33 of "
                 "every 35 characters in)", k->out_data, out_want, P->ROUTE_DELAY ? buf : slop);
    }
    if (!res->failed && (ck & CK_TIMEOUT_EXACT) && res->scen_done < 2 && n >= 3)
        fail(res, cyc, "CHECK timeout: only %" PRIu64 " blocked rounds ran (run more cycles)", res->scen_done);
    if (!res->failed && (ck & CK_LATENCY_EXACT) && k->lat_samples == 0)
        fail(res, cyc, "CHECK latency: no packet measured");
    /* round robin serves a waiting input within N - 1 packets of L + ROUTE_DELAY + a few cycles */
    const uint64_t rr_bound = 2ull * (n - 1) * (40 + P->ROUTE_DELAY + P->LINK_DELAY);
    if (!res->failed && (ck & CK_NO_TIMEOUT) && P->TIMEOUT > rr_bound && res->timeouts)
        fail(res, cyc, "CHECK hotspot: %" PRIu64 " packets timed out although round robin bounds every wait to %u "
             "packets (TIMEOUT %u)", res->timeouts, n - 1, P->TIMEOUT);
    if (!res->failed && (ck & CK_HANDOVER) && k->handovers == 0 && n >= 3 && P->ROUTE_DELAY + P->LINK_DELAY < 30 &&
        (!P->TIMEOUT || P->TIMEOUT > rr_bound))
        fail(res, cyc, "CHECK hotspot: no contended handover was measured");
    if (!res->failed && (ck & CK_SOME_TIMEOUT) && P->TIMEOUT && P->COUNTERS && res->timeouts == 0)
        fail(res, cyc, "CHECK timeout: no packet was drained although output 0 was stopped");
    if (!res->failed && (ck & CK_DAMAGE_SEEN) && sb->damaged[0] == 0)
        fail(res, cyc, "CHECK overflow: no damaged packet was seen although host 0 ignored STOP");
    if (!res->failed && (ck & CK_SOME_STOP) && res->stops == 0)
        fail(res, cyc, "CHECK stopstorm: the switch never sent STOP");
    if (!res->failed && (ck & CK_COVER_ILLEGAL)) {
        for (unsigned c = 0; c < 251 && !res->failed; c++)
            if (!t->code_in[c] || !t->code_between[c])
                fail(res, cyc, "CHECK stimulus: illegal code 0x%03x was never sent %s (run more cycles)", 0x105 + c,
                     !t->code_in[c] ? "inside a packet" : "between packets");
    }
    if (!res->failed && (ck & CK_COVER_ROUTES)) {
        for (unsigned b = 0; b < 256 && !res->failed; b++)
            if (!t->route_sent[b])
                fail(res, cyc, "CHECK stimulus: first byte 0x%02x was never sent (run more cycles)", b);
    }
    if (!res->failed && (ck & CK_CTR_BIG)) {
        uint64_t need = P->CTR_WIDTH < 17 ? (1ull << P->CTR_WIDTH) : 65536;
        if (max_count <= need)
            fail(res, cyc, "CHECK stimulus: the byte counters reached only %" PRIu64 ", not past %" PRIu64
                 " (run more cycles)", max_count, need);
    }
}

/* Runs one test from reset. w: the waves to write (its vcd, start and cycles: a window of the run's
 * cycles, bench_waves_at()), or NULL for none. */
static result_t run(const opts_t *o, const test_desc_t *d, const bench_waves_t *w)
{
    result_t res;
    memset(&res, 0, sizeof res);
    const unsigned n = o->p.NPORTS;
    const xbar_params_t *P = &o->p;
    xbar_t *m = NULL;
    xbar_rtl_t *r = NULL;
    if (o->cl.mode != MODE_RTL)
        m = xbar_new(&o->p);
    if (o->cl.mode != MODE_MODEL)
        r = xbar_rtl_new(o->cl.nplus, o->cl.plus);
    host_t *host = calloc(XBAR_MAX_PORTS, sizeof *host); /* ~64 KiB each: not on the stack */
    chk_t *k = calloc(1, sizeof *k);
    traffic_t *t = calloc(1, sizeof *t);
    scen_t *sc = calloc(1, sizeof *sc);
    sb_t sb;
    sb_init(&sb, n, o->cl.quiet ? NULL : stderr);
    if ((o->cl.mode != MODE_RTL && !m) || (o->cl.mode != MODE_MODEL && !r) || !host || !k || !t || !sc) {
        fail(&res, 0, "ERROR cannot create the model, the RTL or the bench state");
        goto out;
    }
    t->o = o;
    t->d = d;
    t->n = n;
    rng_seed(&t->rng, o->cl.seed ^ (0x5DEECE66Dull * (uint64_t)(d - tests + 1)));
    traffic_setup(t, host, &sb);
    chk_init(k, P, d);

    xbar_in_t in;
    xbar_out_t om, orr, *out;
    memset(&in, 0, sizeof in);
    memset(&om, 0, sizeof om);
    memset(&orr, 0, sizeof orr);
    for (unsigned p = 0; p < XBAR_MAX_PORTS; p++)
        om.tx[p] = orr.tx[p] = CH_IDLE;
    out = o->cl.mode == MODE_RTL ? &orr : &om;

    const uint64_t measure_from = o->cl.cycles / 5; /* rates are measured after the start-up */
    const uint64_t drain_limit = (uint64_t)(P->TIMEOUT ? P->TIMEOUT : 5000) * 4 + 20000;
    /* the final read-out covers every address of the port (256, or 512 above 16 ports: XBAR_ADDR_BITS):
     * present counters in the flusher's order, every second slot (a read can follow its answer one step
     * later, and the slot two ahead is written then), so it takes about 2 * NS steps; absent addresses last */
    const unsigned naddr = 1u << XBAR_ADDR_BITS(n);
    uint16_t rd_order[1u << XBAR_ADDR_BITS(XBAR_MAX_PORTS)];
    {
        unsigned no = 0;
        for (unsigned par = 0; par < 2; par++)
            for (unsigned sl = par; sl < n * XBAR_NCTR; sl += 2)
                rd_order[no++] = (uint16_t)((sl / XBAR_NCTR) << 4 | (sl % XBAR_NCTR));
        for (unsigned a = 0; a < naddr; a++)
            if ((a >> 4) >= n || (a & 15u) >= XBAR_NCTR)
                rd_order[no++] = (uint16_t)a;
    }
    uint64_t quiet_cycles = 0, cyc = 0, read_at = 0, max_count = 0;
    int reading = 0; /* final counter read-out in progress */
    unsigned rd_idx = 0;
    uint32_t ctr_vals[XBAR_MAX_PORTS][XBAR_NCTR];
    memset(ctr_vals, 0, sizeof ctr_vals);
    rng_t reg_rng;
    rng_seed(&reg_rng, o->cl.seed * 31 + 7);

    double t0 = now_s();
    for (cyc = 0;; cyc++) {
        int generate = cyc < o->cl.cycles;
        if (!generate && !reading) {
            /* drained: no host has anything to send or holds STOP, the switch sent nothing and its
             * buffers are empty */
            int busy = 0;
            for (unsigned p = 0; p < n; p++)
                if (host_busy(&host[p]) || host[p].announced_stop || out->tx[p] != CH_IDLE || out->stat_occ[p])
                    busy = 1;
            quiet_cycles = busy ? 0 : quiet_cycles + 1;
            if (quiet_cycles > 64 + (uint64_t)P->LINK_DELAY * 2 && !k->rd_out) {
                reading = 1;
            } else if (cyc > o->cl.cycles + drain_limit) {
                fail(&res, cyc, "CHECK traffic did not drain within %" PRIu64 " cycles after the end", drain_limit);
                break;
            }
        }
        if (r && w && w->vcd) {
            int wa = bench_waves_at(w, cyc, 0);
            if (wa > 0 && xbar_rtl_trace_open(r, w->vcd, cyc)) {
                fail(&res, cyc, "ERROR cannot write the VCD %s", w->vcd);
                break;
            }
            if (wa < 0)
                res.waves = xbar_rtl_trace_close(r, res.waves_range);
        }

        if (d->scen == SCEN_LATENCY)
            scen_latency(sc, t, host, &sb, k, cyc, generate);
        traffic_cycle(t, host, &sb, cyc, generate);
        if (d->scen == SCEN_BLOCKED)
            scen_blocked(sc, t, host, &sb, &res, cyc, &in, out, generate, 0);

        for (unsigned p = 0; p < n; p++)
            in.rx[p] = host_step(&host[p], out->tx[p]);

        /* register port: random reads during traffic (any address), every address at the end */
        in.reg_rd = 0;
        if (reading) {
            if (!k->rd_out && cyc > read_at) {
                in.reg_rd = 1;
                in.reg_addr = rd_order[rd_idx];
            }
        } else if (rng_below(&reg_rng, k->rd_out ? 64 : 16) == 0) {
            /* also while a read is outstanding, and in the step it is answered: ignored */
            in.reg_rd = 1;
            in.reg_addr = (uint16_t)(rng_pct(&reg_rng, 70) ? (rng_below(&reg_rng, n) << 4) | rng_below(&reg_rng, 16)
                                                           : rng_below(&reg_rng, naddr));
        }
        if (in.reg_rd)
            chk_read_issued(k, cyc, in.reg_addr);

        if (o->record && cyc < o->record_max)
            o->record[cyc] = in;
        if (m)
            xbar_step(m, &in, &om);
        if (r) {
            xbar_rtl_step(r, &in, &orr);
            if (xbar_rtl_stopped(r)) {
                fail(&res, cyc, "ASSERTION the RTL stopped itself in cycle %" PRIu64 " (message above)", cyc);
                break;
            }
        }
        if (m && r)
            compare_lockstep(&res, cyc, n, &om, &orr);
        if (res.failed)
            break;
        int had_read = k->rd_out;
        unsigned read_addr = k->rd_addr;
        check_cycle(k, &res, cyc, &in, out, generate && cyc >= measure_from);
        if (d->scen == SCEN_BLOCKED)
            scen_blocked(sc, t, host, &sb, &res, cyc, &in, out, generate, 1);
        if (res.failed)
            break;
        if (had_read && !k->rd_out) {
            read_at = cyc;
            if (reading) {
                if (addr_present(k, read_addr))
                    ctr_vals[read_addr >> 4][read_addr & 15u] = out->reg_rdata;
                if (++rd_idx == naddr) {
                    cyc++;
                    break;
                }
            }
        }
        for (unsigned p = 0; p < n; p++)
            if (is_illegal_char(out->tx[p]))
                sb_error(&sb, "host %u received the illegal character 0x%03x in cycle %" PRIu64, p, out->tx[p], cyc);
        if (sb.errors) {
            fail(&res, cyc, "SCOREBOARD %s", sb.first_error);
            break;
        }
    }
    res.seconds = now_s() - t0;
    res.cycles_run = cyc;
    res.stops = k->stops;
    res.handovers = k->handovers;
    res.rr_checked = k->rr_checked;
    res.reads_checked = k->reads_checked;
    res.resumes = k->resumes;
    res.lat_samples = k->lat_samples;
    res.latency = k->lat_worst;

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
            max_count = host[p].sent_data > max_count ? host[p].sent_data : max_count;
        }
        if (sb_finish_single(&sb, host, P->COUNTERS ? ctr : NULL, P->CTR_WIDTH, P->TIMEOUT != 0))
            fail(&res, cyc, "SCOREBOARD end-of-run accounting: %s", sb.first_error);
    }
    res.made = sb_made_total(&sb);
    res.delivered = sb_delivered_total(&sb);

    check_test_end(d, P, k, t, &sb, max_count, cyc, &res);

out:
    sb_free(&sb);
    free(sc);
    free(t);
    free(k);
    free(host);
    xbar_free(m);
    if (r && w && w->vcd && !res.waves)
        res.waves = xbar_rtl_trace_close(r, res.waves_range);
    xbar_rtl_free(r);
    return res;
}

/* ================================================================ JSON and speed */

/* Starts a JSON record of reports/bench.json: block, parameters, what was run. */
static void json_head(FILE *f, const xbar_params_t *p, const char *what, const char *test)
{
    fprintf(f,
            "{\"block\": \"xbar\", \"params\": {\"NPORTS\": %u, \"SLACK_DEPTH\": %u, \"STOP_THRESH\": %u, "
            "\"GO_THRESH\": %u, \"ROUTE_DELAY\": %u, \"LINK_DELAY\": %u, \"TIMEOUT\": %u, \"COUNTERS\": %u, "
            "\"CTR_WIDTH\": %u}, \"what\": \"%s\", \"test\": \"%s\"",
            p->NPORTS, p->SLACK_DEPTH, p->STOP_THRESH, p->GO_THRESH, p->ROUTE_DELAY, p->LINK_DELAY, p->TIMEOUT,
            p->COUNTERS, p->CTR_WIDTH, what, test);
}

static const test_desc_t *test_find(const char *name)
{
    for (unsigned i = 0; i < NTESTS; i++)
        if (strcmp(tests[i].name, name) == 0)
            return &tests[i];
    return NULL;
}

/* The same stimulus through the model alone and the RTL alone. */
static int speed_run(const opts_t *o, FILE *jf)
{
    const test_desc_t *d = test_find("saturate");
    opts_t so = *o;
    so.cl.mode = MODE_LOCKSTEP;
    so.record_max = o->cl.cycles + 1000000; /* the drain and read-out follow the traffic */
    so.record = malloc(so.record_max * sizeof *so.record);
    if (!so.record) {
        fprintf(stderr, "xbar_bench: out of memory for %" PRIu64 " recorded cycles\n", so.record_max);
        return 1;
    }
    result_t r = run(&so, d, NULL);
    if (r.failed) {
        printf("%s\nFAIL saturate (speed run) seed %" PRIu64 "\n", r.why, o->cl.seed);
        free(so.record);
        return 1;
    }
    uint64_t n = r.cycles_run < so.record_max ? r.cycles_run : so.record_max;
    xbar_out_t out;
    xbar_t *m = xbar_new(&o->p);
    double t0 = now_s();
    uint32_t sink = 0;
    for (uint64_t c = 0; c < n; c++) {
        xbar_step(m, &so.record[c], &out);
        sink += out.tx[0];
    }
    double tm = now_s() - t0;
    xbar_free(m);
    xbar_rtl_t *rr = xbar_rtl_new(o->cl.nplus, o->cl.plus);
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
                    o->cl.seed, n, secs[k], (double)n / secs[k], r.made,
                    k == 2 ? "hosts, scoreboard, checks, model and RTL" : "step calls only, recorded stimulus");
        }
    }
    printf("speed model/rtl ratio %.2f (sink %u)\n", tr / tm, (unsigned)(sink & 1u));
    return 0;
}

/* ================================================================ command line */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: xbar_bench [options] [+verilator+...]\n"
            "Runs the crossbar RTL and its C model in lockstep (every output, every cycle) with a host on\n"
            "every port, an end-to-end scoreboard per source and independent checks of the documented\n"
            "timing rules; or either one alone (the scoreboard and the checks still apply).\n\n"
            "  --test NAME|all     test to run (default all); tests:\n");
    for (unsigned t = 0; t < NTESTS; t++)
        fprintf(f, "      %-12s %s\n", tests[t].name, tests[t].what);
    fprintf(f,
            "  --cycles N          traffic cycles (default 100000); under --test all 'random' gets N, the\n"
            "                      others N/10 (with a per-test minimum)\n"
            "  --seed N            random seed (default 1); printed, so a failure can be replayed\n"
            "  --mode M            lockstep (default), model, rtl\n"
            "  --json FILE         append one JSON record per test (cycles, seconds, figures) to FILE\n"
            "  --params            print the parameters built into the RTL and exit\n"
            "  --speed             time the model alone, the RTL alone and the lockstep run on the same\n"
            "                      recorded saturating random traffic (--cycles of it)\n"
            "  --quiet             less output\n"
            "  --help              this text\n");
    bench_waves_usage(f, "  ");
    fprintf(f,
            "                      --vcd writes one test: give --test NAME (not all); save file\n"
            "                      tb/xbar/xbar.gtkw (gtkwave FILE tb/xbar/xbar.gtkw)\n"
            "  +...                passed to Verilator, e.g. +verilator+rand+reset+2 +verilator+seed+7\n"
            "                      (random initial state; without a +verilator+seed+ the bench adds one\n"
            "                      derived from --seed)\n"
            "Parameters come from the RTL build (the model is run with the same ones); in model-only\n"
            "builds they can be set with --NPORTS N --SLACK_DEPTH N --STOP_THRESH N --GO_THRESH N\n"
            "--ROUTE_DELAY N --LINK_DELAY N --TIMEOUT N --COUNTERS N --CTR_WIDTH N.\n"
            "A failure prints one line starting LOCKSTEP MISMATCH, SCOREBOARD or CHECK, then the\n"
            "replay command. Exit status: 0 all passed, 1 a test failed, 2 bad usage.\n");
}

static void json_record(FILE *f, const opts_t *o, const test_desc_t *d, const result_t *r)
{
    json_head(f, &o->p, bench_mode_name(o->cl.mode), d->name);
    fprintf(f,
            ", \"seed\": %" PRIu64 ", \"cycles\": %" PRIu64 ", \"seconds\": %.6f, \"cycles_per_s\": %.1f, "
            "\"packets_made\": %" PRIu64 ", \"packets_delivered\": %" PRIu64 ", \"timeouts\": %" PRIu64
            ", \"stops\": %" PRIu64 ", \"reads_checked\": %" PRIu64,
            o->cl.seed, r->cycles_run, r->seconds, r->seconds > 0 ? (double)r->cycles_run / r->seconds : 0.0, r->made,
            r->delivered, r->timeouts, r->stops, r->reads_checked);
    if (d->checks & CK_PERM_RATE)
        fprintf(f, ", \"input_chars_per_cycle\": %.4f, \"output_data_per_cycle\": %.4f", r->in_util, r->out_data);
    if (d->checks & CK_LATENCY_EXACT)
        fprintf(f, ", \"header_to_first_byte_cycles\": %u, \"latency_samples\": %" PRIu64, r->latency, r->lat_samples);
    fprintf(f, ", \"passed\": %s}\n", r->failed ? "false" : "true");
}

/* Cycles a test runs: all of --cycles when it is the one test asked for. */
static uint64_t test_cycles(const test_desc_t *d, const opts_t *o, int only)
{
    uint64_t c = o->cl.cycles;
    if (!only && d->div) {
        c = o->cl.cycles / d->div;
        if (c < d->min_cycles)
            c = d->min_cycles;
    }
    if (d->timeout_mult && o->p.TIMEOUT && c < (uint64_t)o->p.TIMEOUT * d->timeout_mult)
        c = (uint64_t)o->p.TIMEOUT * d->timeout_mult;
    if (d->checks & CK_CTR_BIG && c < d->min_cycles)
        c = d->min_cycles; /* the counters must pass 65536 */
    return c;
}

/* The command line, parsed. */
typedef struct {
    opts_t o;
    bench_cli_t cli; /* --test, the room for the plusargs, the replay line's plusargs */
    const char *json;
    int speed;
} cli_t;

/* --params: the parameters built into the RTL (or given, in a model-only build); ends the run */
static int print_params(void *ctx, const char *value)
{
    const xbar_params_t *p = ctx;
    (void)value;
    printf("NPORTS=%u SLACK_DEPTH=%u STOP_THRESH=%u GO_THRESH=%u ROUTE_DELAY=%u LINK_DELAY=%u TIMEOUT=%u "
           "COUNTERS=%u CTR_WIDTH=%u variant=%s\n",
           p->NPORTS, p->SLACK_DEPTH, p->STOP_THRESH, p->GO_THRESH, p->ROUTE_DELAY, p->LINK_DELAY, p->TIMEOUT,
           p->COUNTERS, p->CTR_WIDTH, xbar_rtl_variant());
    return 0;
}

static const char *check_params(const void *params, char *buf, size_t n)
{
    (void)buf, (void)n;
    return xbar_params_check(params);
}

/* Parses argv into c. Returns -1 to go on, or the exit status (0 after --help/--params, 2 on a
 * usage error). */
static int parse_args(int argc, char **argv, cli_t *c)
{
    xbar_params_t *p = &c->o.p;
    const bench_opt_t own[] = {
        {"--speed", BENCH_OPT_FLAG, &c->speed, NULL, NULL}, {"--params", BENCH_OPT_FLAG, NULL, print_params, p},
        {"--json", BENCH_OPT_STR, &c->json, NULL, NULL},   BENCH_PARAM(p, NPORTS), BENCH_PARAM(p, SLACK_DEPTH),
        BENCH_PARAM(p, STOP_THRESH), BENCH_PARAM(p, GO_THRESH), BENCH_PARAM(p, ROUTE_DELAY), BENCH_PARAM(p, LINK_DELAY),
        BENCH_PARAM(p, TIMEOUT), BENCH_PARAM(p, COUNTERS), BENCH_PARAM(p, CTR_WIDTH)};
    const bench_cli_spec_t spec = {"xbar_bench", xbar_rtl_available(), usage, own, sizeof own / sizeof own[0],
                                   check_params, p};
    return bench_cli_parse(&spec, argc, argv, &c->cli, &c->o.cl);
}

/* Runs the tests (one, or all from the table), prints a line each and the replay line of each
 * failure; returns the number that failed. */
static unsigned run_tests(const cli_t *c, const test_desc_t *only, FILE *jf, const char *argv0, unsigned *passed)
{
    const opts_t *o = &c->o;
    unsigned failed = 0;
    for (unsigned ti = 0; ti < NTESTS; ti++) {
        const test_desc_t *d = &tests[ti];
        if (only && d != only)
            continue;
        opts_t ot = *o;
        ot.cl.cycles = test_cycles(d, o, only != NULL);
        result_t r = run(&ot, d, &o->cl.waves);
        if (jf)
            json_record(jf, &ot, d, &r);
        if (r.failed) {
            failed++;
            printf("%s\n", r.why);
            printf("FAIL %-12s seed %" PRIu64 " cycle %" PRIu64 " (mode %s)\n", d->name, o->cl.seed, r.fail_cycle,
                   bench_mode_name(o->cl.mode));
            printf("     replay: %s --test %s --seed %" PRIu64 " --cycles %" PRIu64 "%s%s%s\n", argv0, d->name,
                   o->cl.seed, ot.cl.cycles, o->cl.mode == MODE_LOCKSTEP ? "" : " --mode ",
                   o->cl.mode == MODE_LOCKSTEP ? "" : bench_mode_name(o->cl.mode), c->cli.plusline);
            if (o->cl.waves.vcd)
                bench_waves_print(stdout, "     ", o->cl.waves.vcd, r.waves, r.waves_range, o->cl.waves.start);
            if (o->cl.waves.on_fail) {
                /* the replay from reset, deterministic from the seed, writes the window up to the failure */
                bench_waves_t rw = {o->cl.waves.on_fail, NULL, bench_waves_fail_start(&o->cl.waves, r.fail_cycle, 0), 0};
                ot.cl.quiet = 1;
                result_t r2 = run(&ot, d, &rw);
                bench_waves_print(stdout, "     ", rw.vcd, r2.waves, r2.waves_range, rw.start);
            }
        } else {
            (*passed)++;
            printf("ok   %-12s %8" PRIu64 " cycles %7.2f s %9.0f cycles/s  %" PRIu64 " packets, %" PRIu64
                   " delivered, %" PRIu64 " timeouts, %" PRIu64 " STOPs, %" PRIu64 " reads, %" PRIu64 " resumes",
                   d->name, r.cycles_run, r.seconds, r.seconds > 0 ? (double)r.cycles_run / r.seconds : 0.0, r.made,
                   r.delivered, r.timeouts, r.stops, r.reads_checked, r.resumes);
            if (d->checks & CK_PERM_RATE)
                printf(", in %.4f ch/cyc, out %.4f data/cyc", r.in_util, r.out_data);
            if (d->checks & CK_LATENCY_EXACT)
                printf(", latency %u cycles (%" PRIu64 " samples)", r.latency, r.lat_samples);
            if (d->checks & CK_HANDOVER)
                printf(", %" PRIu64 " handovers, %" PRIu64 " round-robin decisions", r.handovers, r.rr_checked);
            if (d->checks & CK_TIMEOUT_EXACT)
                printf(", %" PRIu64 " blocked rounds", r.scen_done);
            printf("\n");
            if (o->cl.waves.vcd)
                bench_waves_print(stdout, "     ", o->cl.waves.vcd, r.waves, r.waves_range, o->cl.waves.start);
        }
        fflush(stdout);
    }
    return failed;
}

int main(int argc, char **argv)
{
    cli_t c;
    memset(&c, 0, sizeof c);
    opts_t *o = &c.o;
    o->p = xbar_rtl_available() ? xbar_rtl_params() : xbar_default_params();
    if (bench_cli_init(&c.cli, &o->cl, xbar_rtl_available(), argc))
        return 2;
    int rc = parse_args(argc, argv, &c);
    const test_desc_t *only = NULL;
    if (rc < 0 && strcmp(c.cli.test, "all") != 0 && !(only = test_find(c.cli.test))) {
        fprintf(stderr, "xbar_bench: unknown test '%s' (see --help)\n", c.cli.test);
        rc = 2;
    }
    FILE *jf = NULL;
    if (rc < 0 && o->cl.waves.vcd && !only) {
        fprintf(stderr, "xbar_bench: --vcd writes the waves of one test: give --test NAME (or --vcd-on-fail FILE)\n");
        rc = 2;
    }
    if (rc < 0 && c.json && !(jf = fopen(c.json, "a"))) {
        fprintf(stderr, "xbar_bench: cannot open %s: %s\n", c.json, strerror(errno));
        rc = 2;
    }
    if (rc >= 0) {
        bench_cli_free(&c.cli);
        return rc;
    }

    printf("xbar_bench: mode %s, seed %" PRIu64 ", NPORTS=%u SLACK_DEPTH=%u STOP=%u GO=%u ROUTE_DELAY=%u "
           "LINK_DELAY=%u TIMEOUT=%u COUNTERS=%u CTR_WIDTH=%u%s%s%s\n",
           bench_mode_name(o->cl.mode), o->cl.seed, o->p.NPORTS, o->p.SLACK_DEPTH, o->p.STOP_THRESH, o->p.GO_THRESH,
           o->p.ROUTE_DELAY, o->p.LINK_DELAY, o->p.TIMEOUT, o->p.COUNTERS, o->p.CTR_WIDTH,
           xbar_rtl_variant()[0] ? ", variant " : "", xbar_rtl_variant(), c.cli.plusline);
    if (c.speed) {
        if (!xbar_rtl_available()) {
            fprintf(stderr, "xbar_bench: --speed needs a build with the RTL\n");
            rc = 2;
        } else
            rc = speed_run(o, jf);
    } else {
        /* STOP is on tx 2 cycles after the crossing and crosses the cable; a host sees it a cycle
         * later and reacts 1 + LINK_DELAY cycles after that (the return cable included). Measured:
         * below 5 + 2 * LINK_DELAY of slack the buffers overflow by design (docs/xbar.md, "Choosing
         * the thresholds") */
        unsigned need = 5 + 2 * o->p.LINK_DELAY;
        if (o->p.SLACK_DEPTH - o->p.STOP_THRESH < need)
            printf("xbar_bench: warning: SLACK_DEPTH - STOP_THRESH = %u is below the %u characters the STOP round "
                   "trip needs with these hosts; slack buffers will overflow and the scoreboard will report it\n",
                   o->p.SLACK_DEPTH - o->p.STOP_THRESH, need);
        unsigned passed = 0, failed = run_tests(&c, only, jf, argv[0], &passed);
        printf("xbar: %u passed, %u failed\n", passed, failed);
        rc = failed ? 1 : 0;
    }
    if (jf)
        fclose(jf);
    bench_cli_free(&c.cli);
    return rc;
}

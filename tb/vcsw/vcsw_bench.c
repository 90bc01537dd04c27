#define _POSIX_C_SOURCE 200809L
/* sanfab — VC switch bench: the Verilated RTL and the C model in lockstep (every output port,
 * every step), with hosts on every port that obey Go & Stop at the latest moment docs/vcsw.md
 * allows, an end-to-end scoreboard per source (vcsw_sb.c), and checks of the doc's rules that never
 * consult the model (vcsw_check.c; they hold in --mode rtl too). `vcsw_bench --help` lists options
 * and tests. This file: the test table, one run, lockstep comparison, the command line.
 */
#include "vcsw_bench.h"

#include <glob.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


/* ================================================================ tests */

static const test_desc_t tests[] = {
    {.name = "random",
     .what = "random tables with bad entries, rewritten now and then; uniform tags, every VC (control VCs too), "
             "1..MAXLEN flits and some longer, bubbles, random tx_stop pressure, reads of every space",
     .div = 0, .tables = TB_RANDOM, .bad_pct = 10, .traffic = TR_UNIFORM, .len = LEN_MIXED, .over_pm = 20,
     .load_lo = 5, .load_hi = 100, .bubble_max = 10, .stop_duty = 50, .stop_burst = 30, .rewrite_pm = 3,
     .read_pm = 30, .checks = CK_CTRL},
    {.name = "latency",
     .what = "one packet at a time on an idle switch, every input, output and VC: head exactly 3 + LINK_DELAY "
             "steps after it is received, then one flit per step",
     .div = 20, .min_cycles = 3000, .tables = TB_CLEAN, .traffic = TR_LATENCY, .len = LEN_MIXED,
     .checks = CK_LAT_EXACT},
    {.name = "permutation",
     .what = "saturating permutation, every VC of input p to output pi(p), one stream per output VC "
             "(MAXLEN-flit packets): every output link carries a flit in >= 99 % of the steps (not held to a "
             "rate if STOP_AT < 3)",
     .div = 10, .min_cycles = 8000, .tables = TB_CLEAN, .traffic = TR_PERM, .len = LEN_MAX, .load_lo = 100,
     .load_hi = 100, .checks = CK_LINK_FULL},
    {.name = "blockvc",
     .what = "the permutation with output VC 0 of every output held stopped downstream in the middle of the run: "
             "the other VCs keep every link busy (>= 99 %; one VC left: MAXLEN/(MAXLEN+1) of it, one idle step "
             "between its packets; no rate if STOP_AT < 3)",
     .div = 10, .min_cycles = 20000, .tables = TB_CLEAN, .traffic = TR_PERM, .len = LEN_MAX, .load_lo = 100,
     .load_hi = 100, .checks = CK_LINK_FULL | CK_BLOCKVC},
    {.name = "fairness",
     .what = "one-flit packets from every source into outputs 0 and 1, at most three flits of a source in the "
             "switch, random tx_stop: every allocation checked against the separable round robin (inputs offer "
             "one VC, outputs take one input)",
     .div = 10, .min_cycles = 8000, .tables = TB_CLEAN, .traffic = TR_FAIR, .len = LEN_ONE, .load_lo = 100,
     .load_hi = 100, .stop_duty = 30, .stop_burst = 5, .checks = CK_RR_EXACT},
    {.name = "gostop",
     .what = "MAXLEN-flit packets at full load into outputs held stopped most of the time: buffers at STOP_AT, "
             "hosts starting packets at the latest moment, no flit ever cut",
     .div = 10, .min_cycles = 8000, .tables = TB_CLEAN, .traffic = TR_UNIFORM, .len = LEN_MAX, .load_lo = 100,
     .load_hi = 100, .stop_duty = 85, .stop_burst = 150, .checks = CK_STOPPED},
    {.name = "badentries",
     .what = "half the table entries invalid or out of range (ports >= NPORTS, VCs >= NDVC), packets longer than "
             "MAXLEN, one-flit packets: drop_route, drop_vc, trunc",
     .div = 10, .min_cycles = 5000, .tables = TB_RANDOM, .bad_pct = 50, .traffic = TR_UNIFORM, .len = LEN_MIXED,
     .over_pm = 150, .load_lo = 60, .load_hi = 100, .stop_duty = 30, .stop_burst = 10, .read_pm = 20,
     .checks = CK_DROPS},
    {.name = "overflow",
     .what = "three sources ignore STOP towards slow outputs: overflow counted per source, every packet accounted "
             "for, nothing hangs",
     .div = 10, .min_cycles = 5000, .tables = TB_CLEAN, .traffic = TR_UNIFORM, .len = LEN_MIXED, .load_lo = 100,
     .load_hi = 100, .ignore = 3, .read_pm = 20, .checks = CK_OVERFLOW},
    {.name = "rewrite",
     .what = "routing and VC entries rewritten under load (the next packet's entries): packets in flight keep "
             "their route, heads after the write take the new one",
     .div = 10, .min_cycles = 5000, .tables = TB_CLEAN, .traffic = TR_UNIFORM, .len = LEN_MIXED, .load_lo = 50,
     .load_hi = 100, .stop_duty = 30, .stop_burst = 20, .rewrite_pm = 150, .checks = CK_REWRITE},
    {.name = "config",
     .what = "configuration traffic: reads of every space and of indexes outside the tables, reads right after "
             "a write of the entry, reads while one is outstanding, reads with writes, writes to counters, space 3 "
             "and outside the tables",
     .div = 10, .min_cycles = 5000, .tables = TB_RANDOM, .bad_pct = 10, .traffic = TR_UNIFORM, .len = LEN_SHORT,
     .load_lo = 20, .load_hi = 60, .stop_duty = 20, .rewrite_pm = 30, .read_pm = 600, .checks = CK_CFG_ALL},
    {.name = "counters",
     .what = "long saturating permutation with counter reads all along: the values exact, narrow counters wrap",
     .div = 10, .min_cycles = 20000, .tables = TB_CLEAN, .traffic = TR_PERM, .len = LEN_MIXED, .load_lo = 100,
     .load_hi = 100, .read_pm = 400, .checks = CK_WRAP},
    {.name = "routes",
     .what = "real route tables (--tables FILE[:SWITCH], default build/vcsw/tables/n<NPORTS>-*.rhinet, the switch "
             "with the most entries): traffic on the routes' (tag, VC) pairs, 5 % random",
     .div = 10, .min_cycles = 5000, .tables = TB_FILE, .traffic = TR_ROUTES, .len = LEN_MIXED, .load_lo = 20,
     .load_hi = 100, .stop_duty = 30, .stop_burst = 20, .read_pm = 20},
    {.name = "reset",
     .what = "random valid tables, traffic, drain; rst for 1..3 steps (random inputs, ignored): outputs idle, every "
             "table entry read back as loaded, new traffic routed by the old tables, counters from 0; then rst with "
             "traffic in flight: the packets inside lost, the others delivered, counters from 0 again",
     .div = 10, .min_cycles = 6000, .tables = TB_RANDOM, .bad_pct = 0, .traffic = TR_UNIFORM, .len = LEN_MIXED,
     .load_lo = 20, .load_hi = 100, .bubble_max = 10, .stop_duty = 30, .stop_burst = 20, .read_pm = 30,
     .checks = CK_RESET},
};
#define NTESTS (sizeof tests / sizeof tests[0])

/* ================================================================ helpers */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void bench_fail(bench_t *b, const char *fmt, ...)
{
    result_t *res = b->res;
    if (res->failed)
        return;
    res->failed = 1;
    res->fail_cycle = b->base + b->step;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->why, sizeof res->why, fmt, ap);
    va_end(ap);
    if (b->base && strncmp(res->why, "LOCKSTEP", 8) != 0) {
        size_t l = strlen(res->why);
        snprintf(res->why + l, sizeof res->why - l, " [steps count from the reset: step k is cycle %" PRIu64 " + k]",
                 b->base);
    }
}

unsigned bench_src(const bench_t *b, unsigned p, unsigned v) { return p * b->nvc + v; }

static unsigned log2u(unsigned x)
{
    unsigned r = 0;
    while ((1u << r) < x)
        r++;
    return r;
}

/* ================================================================ lockstep */

/* where a cycle stands after the bench's own resets (test reset), for the LOCKSTEP line */
static const char *after_reset(const bench_t *b, char *buf, size_t n)
{
    buf[0] = 0;
    if (b->base && b->step)
        snprintf(buf, n, "; step %" PRIu64 " after the reset ending in cycle %" PRIu64, b->step, b->base);
    else if (b->base)
        snprintf(buf, n, "; an edge with rst high");
    return buf;
}

static int lockstep(bench_t *b, const vcsw_out_t *m, const vcsw_out_t *r)
{
    const char *sig = NULL;
    char ar[96];
    unsigned port = 0;
    uint32_t e = 0, a = 0;
    for (unsigned p = 0; p < b->n && !sig; p++) {
        const vcsw_flit_t *x = &m->tx[p], *y = &r->tx[p];
        port = p;
        if (x->valid != y->valid) sig = "tx_valid", e = x->valid, a = y->valid;
        else if (x->vc != y->vc) sig = "tx_vc", e = x->vc, a = y->vc;
        else if (x->tail != y->tail) sig = "tx_tail", e = x->tail, a = y->tail;
        else if (x->data != y->data) sig = "tx_data", e = x->data, a = y->data;
        else if (m->rx_stop[p] != r->rx_stop[p]) sig = "rx_stop", e = m->rx_stop[p], a = r->rx_stop[p];
    }
    if (!sig) {
        if (m->cfg_rvalid != r->cfg_rvalid) sig = "cfg_rvalid", e = m->cfg_rvalid, a = r->cfg_rvalid;
        else if (m->cfg_rdata != r->cfg_rdata) sig = "cfg_rdata", e = m->cfg_rdata, a = r->cfg_rdata;
        if (sig) {
            bench_fail(b, "LOCKSTEP MISMATCH cycle=%" PRIu64 " port=cfg signal=%s expected=0x%x actual=0x%x seed=%" PRIu64
                       " test=%s (expected: model, actual: RTL%s)", b->base + b->step, sig, e, a, b->o->cl.seed,
                       b->d->name, after_reset(b, ar, sizeof ar));
            return 1;
        }
        return 0;
    }
    bench_fail(b, "LOCKSTEP MISMATCH cycle=%" PRIu64 " port=%u signal=%s expected=0x%x actual=0x%x seed=%" PRIu64
               " test=%s (expected: model, actual: RTL%s%s)", b->base + b->step, port, sig, e, a, b->o->cl.seed,
               b->d->name, strcmp(sig, "rx_stop") == 0 ? "; bit v = VC v" : "", after_reset(b, ar, sizeof ar));
    return 1;
}

/* ================================================================ one run */

enum { PH_LOAD, PH_TRAFFIC, PH_DRAIN, PH_FINAL, PH_DONE };

static void drain_report(bench_t *b)
{
    char what[300] = "";
    for (unsigned s = 0; s < b->n * b->nvc && strlen(what) < 200; s++) {
        const source_t *x = &b->src[s];
        for (uint32_t j = x->deliv; j != x->end; j++) {
            const pkt_t *k = &x->ring[j % SRC_RING];
            if (!k->done && k->fate == F_DELIVER && !k->may_ovf) {
                size_t l = strlen(what);
                snprintf(what + l, sizeof what - l, " input %u VC %u seq %u (%u of %u flits sent, %u out, for output "
                         "%u VC %u);", s / b->nvc, s % b->nvc, k->seq, k->sent, k->len, k->got, k->o, k->u);
                break;
            }
        }
    }
    bench_fail(b, "CHECK drain: the traffic did not drain within %" PRIu64 " steps after the sources stopped "
               "(stops released); waiting:%s", b->step, what[0] ? what : " (hosts or outputs busy)");
}

/* coverage a test asks for, at its end */
static void coverage(bench_t *b)
{
    const test_desc_t *d = b->d;
    result_t *r = b->res;
    if (r->failed)
        return;
    if ((d->checks & CK_LAT_EXACT) && b->lat_samples < b->n * b->n)
        bench_fail(b, "CHECK coverage (latency): only %" PRIu64 " packets measured, fewer than NPORTS^2", b->lat_samples);
    /* "Latency and throughput": one stream alone (blockvc with 2 VCs) of back-to-back MAXLEN-flit
     * packets gets MAXLEN/(MAXLEN+1) of its link (an idle step between packets on one output VC).
     * Links are kept full only if STOP_AT >= 3 (a stream at one flit per step keeps two entries in its
     * buffer); with a smaller STOP_AT (the sets at the longest LINK_DELAY their buffer allows) the
     * doc promises no rate. Otherwise every link is busy in >= 99 % of the measured window. */
    const int one_left = (d->checks & CK_BLOCKVC) && b->nvc == 2;
    const double full = one_left ? (double)b->p->MAXLEN / (double)(b->p->MAXLEN + 1u) : 1.0;
    r->link_unchecked = b->stop_at < (int)DOC_STREAM_STOP_AT;
    if ((d->checks & CK_LINK_FULL) && !r->link_unchecked) {
        r->link_min = 1.0;
        for (unsigned o = 0; o < b->n; o++) {
            double u = b->link_window ? (double)b->link_busy[o] / (double)b->link_window : 0.0;
            if (u < r->link_min)
                r->link_min = u;
            if (!r->failed && (b->link_window < 500 || u < 0.99 * full))
                bench_fail(b, "CHECK link use: output %u carried a flit in %" PRIu64 " of %" PRIu64 " steps (%.4f), "
                           "expected >= %.4f%s", o, b->link_busy[o], b->link_window, u, 0.99 * full,
                           (d->checks & CK_BLOCKVC) ? " with output VC 0 stopped downstream" : "");
        }
    }
    if ((d->checks & CK_RR_EXACT) && !r->failed && b->rr_checked < 100)
        bench_fail(b, "CHECK coverage (fairness): only %" PRIu64 " contended allocations checked", b->rr_checked);
    if ((d->checks & CK_DROPS) && !r->failed) {
        uint64_t dr = 0, dv = 0, tr = 0;
        for (unsigned s = 0; s < b->n * b->nvc; s++) {
            dr += b->src[s].drop_route;
            dv += b->src[s].drop_vc;
            tr += b->src[s].trunc;
        }
        if (!dr || !dv || !tr)
            bench_fail(b, "CHECK coverage (badentries): drop_route %" PRIu64 ", drop_vc %" PRIu64 ", trunc %" PRIu64
                       ": each must happen", dr, dv, tr);
    }
    if ((d->checks & CK_OVERFLOW) && !r->failed && !tr_heads_distinct(b))
        snprintf(r->note, sizeof r->note, "no STOP-ignoring source: heads too narrow to tell their packets apart");
    else if ((d->checks & CK_OVERFLOW) && !r->failed) {
        uint64_t ov = 0;
        for (unsigned s = 0; s < b->n * b->nvc; s++)
            ov += b->src[s].overflow;
        if (!ov)
            bench_fail(b, "CHECK coverage (overflow): the STOP-ignoring sources never overflowed");
    }
    if ((d->checks & CK_WRAP) && !r->failed && b->p->CTR_WIDTH <= 16 && !b->cov_wrap)
        bench_fail(b, "CHECK coverage (counters): no counter passed 2^%u", b->p->CTR_WIDTH);
    if ((d->checks & CK_CTRL) && !r->failed && b->p->CTRL && !b->cov_ctrl)
        bench_fail(b, "CHECK coverage: no packet on a control VC");
    if ((d->checks & CK_REWRITE) && !r->failed && (!b->rewrites_inflight || !b->rewrites_next))
        bench_fail(b, "CHECK coverage (rewrite): %" PRIu64 " rewrites hit packets in flight, %" PRIu64 " heads came "
                   "right after a rewrite of their entry: both must happen", b->rewrites_inflight, b->rewrites_next);
    if ((d->checks & CK_STOPPED) && !r->failed && (!b->cov_stop || (int)b->occ_max < b->stop_at))
        bench_fail(b, "CHECK coverage (gostop): the buffers never reached STOP_AT %d (highest %u)", b->stop_at,
                   b->occ_max);
    if ((d->checks & CK_RESET) && !r->failed) {
        const uint64_t entries = (1ull << b->p->TAG_W) + (uint64_t)b->n * b->n * b->ndvc;
        if (b->resets != 2 || b->sweep_reads != entries || r->delivered == b->delivered_at_reset || !b->lost_reset)
            bench_fail(b, "CHECK coverage (reset): %" PRIu64 " resets (2 expected), %" PRIu64 " of %" PRIu64 " table "
                       "entries read back, %" PRIu64 " packets delivered after the first reset, %" PRIu64 " inside the "
                       "switch at the second: all must happen", b->resets, b->sweep_reads, entries,
                       r->delivered - b->delivered_at_reset, b->lost_reset);
        else
            snprintf(r->note, sizeof r->note, "2 resets; %" PRIu64 " table entries read back after the first; %" PRIu64
                     " packets inside the switch at the second, lost", b->sweep_reads, b->lost_reset);
    }
    if ((d->checks & CK_CFG_ALL) && !r->failed &&
        (!b->cfg_space_seen[0] || !b->cfg_space_seen[1] || !b->cfg_space_seen[2] || !b->cfg_space_seen[3] ||
         !b->cfg_errors || !b->cfg_reads_ignored || !b->cov_reread))
        bench_fail(b, "CHECK coverage (config): reads per space %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64 ", errors %"
                   PRIu64 ", ignored %" PRIu64 ", right after a write of the entry %" PRIu64 ": all must happen",
                   b->cfg_space_seen[0], b->cfg_space_seen[1], b->cfg_space_seen[2], b->cfg_space_seen[3],
                   b->cfg_errors, b->cfg_reads_ignored, b->cov_reread);
}

/* test reset: rst is about to be asserted (before its first edge; the outputs of the step before
 * have been seen). The bench forgets what the reset clears; returns the edges to hold rst (1..3). */
static unsigned start_reset(bench_t *b)
{
    sb_reset(b);
    ck_reset(b);
    tr_reset(b);
    b->resets++;
    return 1 + rng_below(&b->rng, 3);
}

/* One test from reset. w: the waves to write (a window of the run's cycles g, bench_waves_at()), or
 * NULL for none. */
static result_t run(const opts_t *o, const test_desc_t *d, const vcsw_tables_t *file, const bench_waves_t *w)
{
    result_t res;
    memset(&res, 0, sizeof res);
    bench_t *b = calloc(1, sizeof *b);
    const unsigned ns = o->p.NPORTS * o->p.NVC;
    source_t *src = calloc(ns, sizeof *src);
    vcsw_t *model = NULL;
    vcsw_rtl_t *rtl = NULL;
    if (!b || !src) {
        snprintf(res.why, sizeof res.why, "CHECK bench: out of memory");
        res.failed = 1;
        free(b);
        free(src);
        return res;
    }
    b->o = o;
    b->d = d;
    b->p = &o->p;
    b->res = &res;
    b->src = src;
    b->n = o->p.NPORTS;
    b->nvc = o->p.NVC;
    b->ndvc = vcsw_ndvc(&o->p);
    b->ld = o->p.LINK_DELAY;
    b->vcw = log2u(o->p.NVC);
    b->pb = log2u(o->p.NPORTS);
    b->stop_at = vcsw_stop_at(&o->p);
    b->file = file;
    rng_seed(&b->rng, o->cl.seed * 0x9E3779B97F4A7C15ull + (uint64_t)(d - tests) * 7919u + 1);
    if (o->cl.mode != MODE_RTL)
        model = vcsw_new(&o->p);
    if (o->cl.mode != MODE_MODEL)
        rtl = vcsw_rtl_new(o->cl.nplus, o->cl.plus);
    if ((o->cl.mode != MODE_RTL && !model) || (o->cl.mode != MODE_MODEL && !rtl)) {
        bench_fail(b, "CHECK bench: cannot create the %s", !model && o->cl.mode != MODE_RTL ? "model" : "RTL");
        goto out;
    }
    tr_setup(b);
    tr_tables_initial(b);
    memcpy(b->stop_duty0, b->stop_duty, sizeof b->stop_duty0);

    const double t0 = now_s();
    int phase = PH_LOAD;
    uint64_t traffic_from = 0, traffic_len = o->cl.cycles, drain_from = 0, block_from = 0, block_to = 0, meas_from = 0;
    const uint64_t drain_max = 20000 + 8ull * o->p.DEPTH * ns + 20ull * b->ld;
    /* test reset: three traffic segments of a third each. Segment 0 drains and its counters are read;
     * then rst (drained); segment 1 reads back every table entry, drains, counters read; segment 2
     * has rst in the middle of its traffic (inflight_at), drains, counters read at the end. */
    const int rs_test = (d->checks & CK_RESET) != 0;
    unsigned seg = 0, rst_left = 0;
    uint64_t inflight_at = 0;
    if (rs_test)
        traffic_len = traffic_len / 3 ? traffic_len / 3 : 1;
    vcsw_in_t in;
    vcsw_out_t mo, ro;
    memset(&mo, 0, sizeof mo);
    memset(&ro, 0, sizeof ro);
    /* g counts every edge of the run (cycles, replay, waves); b->step is the doc's step, counted from
     * the last reset */
    for (uint64_t g = 1; phase != PH_DONE && !res.failed; g++) {
        b->step = g - b->base;
        const uint64_t step = b->step;
        if (rtl && w && w->vcd) {
            int wa = bench_waves_at(w, g, 1);
            if (wa > 0 && vcsw_rtl_trace_open(rtl, w->vcd, g)) {
                bench_fail(b, "CHECK bench: cannot write the VCD %s", w->vcd);
                break;
            }
            if (wa < 0)
                res.waves = vcsw_rtl_trace_close(rtl, res.waves_range);
        }
        /* phases */
        if (!rst_left && phase == PH_LOAD && b->wq_pos == b->wq_n) {
            phase = PH_TRAFFIC;
            traffic_from = g;
            b->generate = 1;
            if (d->checks & CK_BLOCKVC) {
                block_from = g + traffic_len / 5;
                block_to = g + traffic_len * 4 / 5;
                meas_from = block_from + 2ull * o->p.DEPTH * b->nvc + 4ull * b->ld + 200;
            } else {
                meas_from = g + traffic_len / 5 + 4ull * o->p.DEPTH + 4ull * b->ld;
            }
        }
        if (!rst_left && phase == PH_TRAFFIC && inflight_at && g >= inflight_at) {
            /* rst with traffic in flight, once no read is outstanding (none is asked meanwhile) */
            b->hold_cfg = 1;
            if (!b->rd_out && !b->ctr_defer.on) {
                rst_left = start_reset(b);
                inflight_at = 0;
                b->hold_cfg = 0;
            }
        }
        if (!rst_left && phase == PH_TRAFFIC) {
            b->blockvc_on = (d->checks & CK_BLOCKVC) && g >= block_from && g < block_to;
            b->measure = (d->checks & CK_LINK_FULL) && g >= meas_from &&
                         g < ((d->checks & CK_BLOCKVC) ? block_to : traffic_from + traffic_len);
            if (g >= traffic_from + traffic_len && !inflight_at) {
                phase = PH_DRAIN;
                drain_from = g;
                b->generate = 0;
                b->measure = 0;
                tr_release(b);
            }
        }
        if (!rst_left && phase == PH_DRAIN) {
            int quiet = sb_idle(b) && tr_hosts_idle(b) && b->quiet_steps >= 2ull * b->ld + 24 && !b->rd_out &&
                        !b->ctr_defer.on && step > b->last_rx_step + 2ull * b->ld + 24 && !b->sweep_n;
            for (unsigned p = 0; p < b->n && quiet; p++)
                quiet = b->stop_hist[(step - 1) % RING][p] == 0;
            if (quiet) {
                phase = PH_FINAL;
                if (o->p.COUNTERS) {
                    b->final_phase = 1;
                    b->final_left = ns * VCSW_NCTR;
                } else if (model) {
                    for (unsigned s = 0; s < ns; s++)
                        for (unsigned c = 0; c < VCSW_NCTR; c++)
                            b->final_val[s * VCSW_NCTR + c] = vcsw_counter(model, s / b->nvc, s % b->nvc, c);
                }
            } else if (g - drain_from > drain_max) {
                drain_report(b);
                break;
            }
        }
        if (!rst_left && phase == PH_FINAL &&
            (!b->final_phase || (!b->final_left && !b->rd_out && !b->ctr_defer.on))) {
            if (!rs_test || seg == 2) {
                phase = PH_DONE;
                break;
            }
            /* test reset, end of segment 0 or 1: every packet accounted, every counter as counted */
            sb_final(b);
            if (res.failed)
                break;
            b->final_phase = 0;
            b->final_left = 0;
            memset(b->final_done, 0, sizeof b->final_done);
            memset(b->final_val, 0, sizeof b->final_val);
            if (seg == 0) {
                rst_left = start_reset(b);
                b->delivered_at_reset = res.delivered;
                b->sweep_pos = 0;
                b->sweep_n = (1u << o->p.TAG_W) + b->n * b->n * b->ndvc;
            } else {
                inflight_at = g + traffic_len / 4 + rng_below(&b->rng, (uint32_t)(traffic_len / 2 + 1));
            }
            seg++;
            phase = PH_TRAFFIC;
            traffic_from = g;
            b->generate = 1;
            memcpy(b->stop_duty, b->stop_duty0, sizeof b->stop_duty);
        }
        if (rst_left) {
            /* one edge with rst high on both sides; the outputs compared and checked like any step */
            b->base = g;
            b->step = 0;
            tr_reset_inputs(b, &in);
            if (model) {
                vcsw_reset(model);
                memset(&mo, 0, sizeof mo); /* the model's registers at their reset values */
            }
            if (rtl) {
                vcsw_rtl_reset_step(rtl, &in, &ro);
                if (vcsw_rtl_stopped(rtl)) {
                    bench_fail(b, "CHECK RTL assertion stopped the simulation in an edge with rst high, cycle %" PRIu64
                               " (message above)", g);
                    break;
                }
            }
            if (model && rtl && lockstep(b, &mo, &ro))
                break;
            ck_reset_outputs(b, rtl ? &ro : &mo);
            rst_left--;
            res.cycles_run = g;
            continue;
        }
        /* one step */
        ck_step_begin(b);
        tr_inputs(b, &in);
        ck_inputs(b, &in);
        if (model) {
            const double ts = o->speed ? now_s() : 0.0;
            vcsw_step(model, &in, &mo);
            if (o->speed)
                res.model_s += now_s() - ts;
        }
        if (rtl) {
            const double ts = o->speed ? now_s() : 0.0;
            vcsw_rtl_step(rtl, &in, &ro);
            if (o->speed)
                res.rtl_s += now_s() - ts;
            if (vcsw_rtl_stopped(rtl)) {
                bench_fail(b, "CHECK RTL assertion stopped the simulation in step %" PRIu64 " (message above)", step);
                break;
            }
        }
        if (model && rtl && lockstep(b, &mo, &ro))
            break;
        const vcsw_out_t *obs = rtl ? &ro : &mo;
        ck_outputs(b, &in, obs);
        tr_after(b, obs);
        res.cycles_run = g;
    }
    if (!res.failed) {
        sb_final(b);
        ck_end(b);
        coverage(b);
    }
    res.seconds = now_s() - t0;
    res.lat_samples = b->lat_samples;
    res.rr_checked = b->rr_checked;
    res.stops_seen = b->cov_stop;
    res.occ_max = b->occ_max;
    (void)drain_from;
out:
    for (unsigned s = 0; s < ns; s++)
        for (unsigned j = 0; j < SRC_RING; j++)
            free(src[s].ring[j].in_step);
    free(b->wq);
    free(src);
    free(b);
    vcsw_free(model);
    if (rtl && w && w->vcd && !res.waves)
        res.waves = vcsw_rtl_trace_close(rtl, res.waves_range);
    vcsw_rtl_free(rtl);
    return res;
}

/* ================================================================ command line */

typedef struct {
    opts_t o;
    bench_cli_t cli; /* --test, the room for the plusargs, the replay line's plusargs */
    char tables_path[1024];
} cli_t;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vcsw_bench [options] [+verilator+...]\n"
            "Runs the VC switch RTL and its C model in lockstep (every output port, every step) with a host on\n"
            "every port obeying Go & Stop at the latest moment, an end-to-end scoreboard per source and checks\n"
            "of docs/vcsw.md that never consult the model; or either one alone (scoreboard and checks still on).\n\n"
            "  --test NAME|all     test to run (default all); tests:\n");
    for (unsigned t = 0; t < NTESTS; t++)
        fprintf(f, "      %-12s %s\n", tests[t].name, tests[t].what);
    fprintf(f,
            "  --cycles N          traffic steps (default 100000); under --test all 'random' gets N, the others\n"
            "                      N/div with a minimum each\n"
            "  --seed N            random seed (default 1); printed, so a failure can be replayed\n"
            "  --mode M            lockstep (default), model, rtl\n"
            "  --speed             also time the model's and the RTL's step calls apart (steps/s of each)\n"
            "  --tables FILE[:S]   sanfab-rhinet file for the routes test (switch S, default: most entries)\n"
            "  --params            print the parameters built into the RTL and exit\n"
            "  --quiet             less output\n"
            "  --help              this text\n");
    bench_waves_usage(f, "  ");
    fprintf(f,
            "                      --vcd writes one test: give --test NAME (not all), and --tables FILE for\n"
            "                      the routes test; cycles are the run's edges g (printed); save file\n"
            "                      tb/vcsw/vcsw.gtkw (gtkwave FILE tb/vcsw/vcsw.gtkw)\n"
            "  +...                passed to Verilator, e.g. +verilator+rand+reset+2 +verilator+seed+7\n"
            "Parameters come from the RTL build; in model-only builds they can be set with --NPORTS N --NVC N\n"
            "--CTRL N --FLIT_W N --TAG_W N --DEPTH N --MAXLEN N --LINK_DELAY N --COUNTERS N --CTR_WIDTH N.\n"
            "Cycles printed are the doc's steps (step 1 is the first edge after reset); the test reset asserts rst\n"
            "again, and after that a cycle counts every edge of the run while the messages give the step too.\n"
            "A failure prints one line starting LOCKSTEP MISMATCH, SCOREBOARD or CHECK, then the replay\n"
            "command. Exit status: 0 all passed, 1 a test failed, 2 bad usage.\n");
}

/* --params: the parameters built into the RTL (or given, in a model-only build); ends the run */
static int print_params(void *ctx, const char *value)
{
    const vcsw_params_t *p = ctx;
    (void)value;
    printf("NPORTS=%u NVC=%u CTRL=%u FLIT_W=%u TAG_W=%u DEPTH=%u MAXLEN=%u LINK_DELAY=%u COUNTERS=%u "
           "CTR_WIDTH=%u variant=%s\n", p->NPORTS, p->NVC, p->CTRL, p->FLIT_W, p->TAG_W, p->DEPTH, p->MAXLEN,
           p->LINK_DELAY, p->COUNTERS, p->CTR_WIDTH, vcsw_rtl_variant());
    return 0;
}

/* --tables FILE[:S]: the file of the routes test and its switch */
static int set_tables(void *ctx, const char *value)
{
    cli_t *c = ctx;
    opts_t *o = &c->o;
    snprintf(c->tables_path, sizeof c->tables_path, "%s", value);
    o->table_switch = VCSW_LOAD_MOST;
    char *colon = strrchr(c->tables_path, ':');
    if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        o->table_switch = atoi(colon + 1);
        *colon = 0;
    }
    o->tables = c->tables_path;
    return -1;
}

/* the model's checks, a Go & Stop threshold of at least 1, and head flits with room above the tag
 * for the bench's source name (input port and VC bits): the scoreboard needs it */
static const char *check_params(const void *params, char *buf, size_t n)
{
    const vcsw_params_t *p = params;
    const char *perr = vcsw_params_check(p);
    const unsigned need = log2u(p->NPORTS) + log2u(p->NVC);
    if (!perr && vcsw_stop_at(p) < 1) {
        snprintf(buf, n, "STOP_AT = DEPTH - MAXLEN - 2*LINK_DELAY - 4 = %d < 1", vcsw_stop_at(p));
        perr = buf;
    } else if (!perr && p->FLIT_W - p->TAG_W < need) {
        snprintf(buf, n,
                 "FLIT_W - TAG_W = %u bits above the tag, the bench needs %u (input port and VC) to name a head's "
                 "source; the switch itself allows it, the bench cannot check it: widen FLIT_W or narrow TAG_W",
                 p->FLIT_W - p->TAG_W, need);
        perr = buf;
    }
    return perr;
}

/* Parses argv into c. Returns -1 to go on, or the exit status (0 after --help/--params, 2 on a
 * usage error). */
static int parse_args(int argc, char **argv, cli_t *c)
{
    vcsw_params_t *p = &c->o.p;
    const bench_opt_t own[] = {
        {"--speed", BENCH_OPT_FLAG, &c->o.speed, NULL, NULL}, {"--params", BENCH_OPT_FLAG, NULL, print_params, p},
        {"--tables", BENCH_OPT_STR, NULL, set_tables, c},     BENCH_PARAM(p, NPORTS), BENCH_PARAM(p, NVC),
        BENCH_PARAM(p, CTRL), BENCH_PARAM(p, FLIT_W), BENCH_PARAM(p, TAG_W), BENCH_PARAM(p, DEPTH), BENCH_PARAM(p, MAXLEN),
        BENCH_PARAM(p, LINK_DELAY), BENCH_PARAM(p, COUNTERS), BENCH_PARAM(p, CTR_WIDTH)};
    const bench_cli_spec_t spec = {"vcsw_bench", vcsw_rtl_available(), usage, own, sizeof own / sizeof own[0],
                                   check_params, p};
    return bench_cli_parse(&spec, argc, argv, &c->cli, &c->o.cl);
}

static uint64_t test_cycles(const test_desc_t *d, const opts_t *o, int only)
{
    uint64_t c = o->cl.cycles;
    if (!only && d->div) {
        c = o->cl.cycles / d->div;
        if (c < d->min_cycles)
            c = d->min_cycles;
    }
    if (d->min_cycles && (d->checks & (CK_LINK_FULL | CK_WRAP)) && c < d->min_cycles)
        c = d->min_cycles; /* the measurement window and the wrap need their length */
    if (d->checks & CK_BLOCKVC) { /* the blocked window: settling, then 2000 steps measured */
        uint64_t w = (2ull * o->p.DEPTH * o->p.NVC + 4ull * o->p.LINK_DELAY + 2200) * 5 / 3;
        if (c < w)
            c = w;
    }
    if (d->checks & CK_LAT_EXACT) { /* NPORTS^2 packets of MAXLEN/2 flits on average */
        uint64_t w = (uint64_t)o->p.NPORTS * o->p.NPORTS * (o->p.MAXLEN / 2 + o->p.LINK_DELAY + 12);
        if (c < w)
            c = w;
    }
    return c;
}

/* the table files of the routes test: --tables, else build/vcsw/tables/n<NPORTS>-*.rhinet */
static size_t table_files(const opts_t *o, char ***out, glob_t *g, char **one)
{
    memset(g, 0, sizeof *g);
    if (o->tables) {
        one[0] = (char *)o->tables;
        *out = one;
        return 1;
    }
    char pat[128];
    snprintf(pat, sizeof pat, "build/vcsw/tables/n%u-*.rhinet", o->p.NPORTS);
    if (glob(pat, 0, NULL, g) != 0)
        return 0;
    *out = g->gl_pathv;
    return g->gl_pathc;
}

static void report(const cli_t *c, const test_desc_t *d, const opts_t *ot, const result_t *r, const char *argv0,
                   const char *label, unsigned *passed, unsigned *failed)
{
    const opts_t *o = &c->o;
    if (r->failed) {
        (*failed)++;
        printf("%s\n", r->why);
        printf("FAIL %-12s seed %" PRIu64 " cycle %" PRIu64 " (mode %s)%s%s\n", d->name, o->cl.seed, r->fail_cycle,
               bench_mode_name(o->cl.mode), label ? " " : "", label ? label : "");
        printf("     replay: %s --test %s --seed %" PRIu64 " --cycles %" PRIu64 "%s%s%s%s%s\n", argv0, d->name, o->cl.seed,
               ot->cl.cycles, o->cl.mode == MODE_LOCKSTEP ? "" : " --mode ", o->cl.mode == MODE_LOCKSTEP ? "" : bench_mode_name(o->cl.mode),
               label ? " --tables " : "", label ? label : "", c->cli.plusline);
        return;
    }
    (*passed)++;
    printf("ok   %-12s %8" PRIu64 " steps %6.2f s %8.0f steps/s  %" PRIu64 " packets, %" PRIu64 " delivered, %" PRIu64
           " dropped, %" PRIu64 " reads, max occupancy %u", d->name, r->cycles_run, r->seconds,
           r->seconds > 0 ? (double)r->cycles_run / r->seconds : 0.0, r->made, r->delivered, r->dropped, r->reads,
           r->occ_max);
    if ((d->checks & CK_LINK_FULL) && r->link_unchecked)
        printf(", link use not checked (STOP_AT < %u)", DOC_STREAM_STOP_AT);
    else if (d->checks & CK_LINK_FULL)
        printf(", link use >= %.4f", r->link_min);
    if (d->checks & CK_LAT_EXACT)
        printf(", %" PRIu64 " latency samples", r->lat_samples);
    if (d->checks & CK_RR_EXACT)
        printf(", %" PRIu64 " round-robin decisions", r->rr_checked);
    if (o->speed)
        printf(", step calls only: model %.0f steps/s, RTL %.0f steps/s",
               r->model_s > 0 ? (double)r->cycles_run / r->model_s : 0.0,
               r->rtl_s > 0 ? (double)r->cycles_run / r->rtl_s : 0.0);
    if (label)
        printf(" [%s]", label);
    if (r->note[0])
        printf(" (%s)", r->note);
    printf("\n");
}

static unsigned run_tests(const cli_t *c, const test_desc_t *only, const char *argv0, unsigned *passed)
{
    const opts_t *o = &c->o;
    unsigned failed = 0;
    for (unsigned ti = 0; ti < NTESTS; ti++) {
        const test_desc_t *d = &tests[ti];
        if (only && d != only)
            continue;
        opts_t ot = *o;
        ot.cl.cycles = test_cycles(d, o, only != NULL);
        char **files = NULL, *one[1];
        glob_t g;
        size_t nf = d->tables == TB_FILE ? table_files(o, &files, &g, one) : 1;
        if (d->tables == TB_FILE && nf == 0)
            printf("skip %-12s no table file (--tables FILE, or make the build/vcsw/tables/n%u-*.rhinet of mk/vcsw.mk)\n",
                   d->name, o->p.NPORTS);
        for (size_t fi = 0; fi < nf; fi++) {
            vcsw_tables_t tab;
            memset(&tab, 0, sizeof tab);
            const char *label = NULL;
            char lab[1100];
            if (d->tables == TB_FILE) {
                char err[600];
                int sw = o->tables ? o->table_switch : VCSW_LOAD_MOST;
                if (vcsw_load_file(files[fi], sw, &o->p, &tab, err, sizeof err)) {
                    if (o->tables) {
                        printf("CHECK tables: %s\nFAIL %-12s the table file is refused\n", err, d->name);
                        failed++;
                    } else
                        printf("skip %-12s %s (refused: %s)\n", d->name, files[fi], err);
                    continue;
                }
                snprintf(lab, sizeof lab, "%s:%u", files[fi], tab.switch_id);
                label = lab;
                if (!o->cl.quiet)
                    printf("     %-12s %s: %s, switch %u: %u routing and %u VC entries, %zu nic lines\n", d->name,
                           files[fi], tab.algorithm, tab.switch_id, tab.n_route, tab.n_vc, tab.nnics);
            }
            result_t r = run(&ot, d, d->tables == TB_FILE ? &tab : NULL, &o->cl.waves);
            report(c, d, &ot, &r, argv0, label, passed, &failed);
            if (o->cl.waves.vcd)
                bench_waves_print(stdout, "     ", o->cl.waves.vcd, r.waves, r.waves_range, o->cl.waves.start);
            if (r.failed && o->cl.waves.on_fail) {
                /* the replay from reset, deterministic from the seed, writes the window up to the failure */
                bench_waves_t rw = {o->cl.waves.on_fail, NULL, bench_waves_fail_start(&o->cl.waves, r.fail_cycle, 1), 0};
                opts_t ov = ot;
                ov.cl.quiet = 1;
                result_t r2 = run(&ov, d, d->tables == TB_FILE ? &tab : NULL, &rw);
                bench_waves_print(stdout, "     ", rw.vcd, r2.waves, r2.waves_range, rw.start);
            }
            vcsw_tables_free(&tab);
            fflush(stdout);
        }
        if (d->tables == TB_FILE && !o->tables)
            globfree(&g);
    }
    return failed;
}

int main(int argc, char **argv)
{
    cli_t c;
    memset(&c, 0, sizeof c);
    opts_t *o = &c.o;
    o->p = vcsw_rtl_available() ? vcsw_rtl_params() : vcsw_default_params();
    o->table_switch = VCSW_LOAD_MOST;
    if (bench_cli_init(&c.cli, &o->cl, vcsw_rtl_available(), argc))
        return 2;
    int rc = parse_args(argc, argv, &c);
    const test_desc_t *only = NULL;
    if (rc < 0 && strcmp(c.cli.test, "all") != 0) {
        for (unsigned t = 0; t < NTESTS; t++)
            if (strcmp(tests[t].name, c.cli.test) == 0)
                only = &tests[t];
        if (!only) {
            fprintf(stderr, "vcsw_bench: unknown test '%s' (see --help)\n", c.cli.test);
            rc = 2;
        }
    }
    if (rc < 0 && o->cl.waves.vcd && !only) {
        fprintf(stderr, "vcsw_bench: --vcd writes the waves of one test: give --test NAME (or --vcd-on-fail FILE)\n");
        rc = 2;
    }
    if (rc >= 0) {
        bench_cli_free(&c.cli);
        return rc;
    }
    const vcsw_params_t *p = &o->p;
    printf("vcsw_bench: mode %s, seed %" PRIu64 ", NPORTS=%u NVC=%u CTRL=%u FLIT_W=%u TAG_W=%u DEPTH=%u MAXLEN=%u "
           "LINK_DELAY=%u COUNTERS=%u CTR_WIDTH=%u (STOP_AT %d)%s%s%s\n", bench_mode_name(o->cl.mode), o->cl.seed, p->NPORTS,
           p->NVC, p->CTRL, p->FLIT_W, p->TAG_W, p->DEPTH, p->MAXLEN, p->LINK_DELAY, p->COUNTERS, p->CTR_WIDTH,
           vcsw_stop_at(p), vcsw_rtl_variant()[0] ? ", variant " : "", vcsw_rtl_variant(), c.cli.plusline);
    if (p->FLIT_W - p->TAG_W < log2u(p->NPORTS) + log2u(p->NVC))
        printf("vcsw_bench: note: FLIT_W - TAG_W = %u bits cannot name a packet's source; the scoreboard matches "
               "heads by content and the round-robin check is off\n", p->FLIT_W - p->TAG_W);
    unsigned passed = 0, failed = run_tests(&c, only, argv[0], &passed);
    printf("vcsw: %u passed, %u failed\n", passed, failed);
    bench_cli_free(&c.cli);
    return failed ? 1 : 0;
}

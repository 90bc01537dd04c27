/* sanfab — VC switch bench: one run of a test (load, traffic, drain, counter read-out), the model and
 * the RTL compared every step (vcsw_bench_run.h). */
#define _POSIX_C_SOURCE 200809L
#include "vcsw_bench_run.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static uint64_t mask_bits(unsigned w) { return w >= 32 ? 0xFFFFFFFFull : (1ull << w) - 1u; }

/* ================================================================ counter preset test mode */

/* docs/vcsw.md, "Counters" (test mode): after step t = pre_step every counter of the model and of the
 * RTL gets the same random preset P added, 2^w - K with K in 1..256 (w = CTR_WIDTH mostly, so that the
 * count wraps through every top bit; else CTR_WIDTH - 1 or a random lower bit, so that carries reach
 * those bits from below). The RTL's counters live in ctr_bank's RAM, read by its flusher in step W - 2
 * and written back in W: a word added to between steps t and t + 1 is lost for the slots flushed in
 * t + 1 and t + 2, so those two get theirs after step t + 2. t >= NS + 3: the first rotation after a
 * reset, which takes the RAM words as 0, is over. A flush in step W carries P when W is after its step. */
static void preset_apply(bench_t *b, vcsw_t *model, vcsw_rtl_t *rtl, int late)
{
    const unsigned ns = VCSW_NCTR * b->nvc * b->n, t0 = (unsigned)(b->pre_step % ns);
    const unsigned l1 = (t0 + ns - 2) % ns, l2 = (t0 + ns - 1) % ns; /* flushed in t + 1, t + 2 */
    const unsigned w = b->p->CTR_WIDTH;
    for (unsigned s = 0; s < ns; s++) {
        const int lost = s == l1 || s == l2;
        if (lost != late)
            continue;
        const unsigned r = rng_below(&b->prng, 100);
        const unsigned top = r < 60 ? w : r < 85 ? w - 1 : 1 + rng_below(&b->prng, w);
        const uint64_t k = 1 + rng_below(&b->prng, 1u << rng_below(&b->prng, 9));
        const uint64_t mask = w >= 32 ? 0xFFFFFFFFull : (1ull << w) - 1u;
        b->pre_val[s] = (uint32_t)(((1ull << top) - k) & mask);
        const unsigned port = s / (VCSW_NCTR * b->nvc), vc = (s / VCSW_NCTR) % b->nvc, c = s % VCSW_NCTR;
        if (model)
            vcsw_ctr_preset(model, port, vc, c, b->pre_val[s]);
        if (rtl)
            vcsw_rtl_ctr_add(rtl, s, b->pre_val[s]);
        b->pre_at[s] = b->step;
        b->cov_preset++;
    }
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
        uint64_t ov = b->ovf_before_reset;
        for (unsigned s = 0; s < b->n * b->nvc; s++)
            ov += b->src[s].overflow;
        if (!ov)
            bench_fail(b, "CHECK coverage (overflow): the STOP-ignoring sources never overflowed");
    }
    if ((d->checks & CK_WRAP) && !r->failed && (b->p->CTR_WIDTH <= 16 || b->pre_step) && !b->cov_wrap &&
        (b->p->COUNTERS || b->o->cl.mode != MODE_RTL))
        bench_fail(b, "CHECK coverage (counters): no counter passed 2^%u%s", b->p->CTR_WIDTH,
                   b->pre_step ? " (preset test mode on)" : "");
    if ((d->checks & CK_PAIRS) && !r->failed) {
        static const char *const fk[FK_N] = {"bad route", "bad VC entry", "long", "ignores STOP", "rewrite", "reset"};
        char miss[300] = "";
        uint64_t least = UINT64_MAX;
        unsigned lx = 0, ly = 0;
        const int ign = tr_heads_distinct(b);
        for (unsigned x = 0; x < FK_N; x++)
            for (unsigned y = x + 1; y < FK_N; y++) {
                if (!ign && (x == FK_IGN || y == FK_IGN))
                    continue; /* no STOP-ignoring source: heads too narrow */
                if (b->pairs[x][y] < least) {
                    least = b->pairs[x][y];
                    lx = x;
                    ly = y;
                }
                if (!b->pairs[x][y] && strlen(miss) < 220) {
                    size_t l = strlen(miss);
                    snprintf(miss + l, sizeof miss - l, " %s+%s", fk[x], fk[y]);
                }
            }
        if (miss[0])
            bench_fail(b, "CHECK coverage (combos): no packet carried the pairs of faults:%s", miss);
        else
            snprintf(r->note, sizeof r->note, "every pair of fault kinds in one packet, the rarest (%s+%s) %" PRIu64
                     " times%s", fk[lx], fk[ly], least, ign ? "" : " (no STOP-ignoring source: heads too narrow)");
    }
    if ((d->checks & CK_CTRL) && !r->failed && b->p->CTRL && !b->cov_ctrl)
        bench_fail(b, "CHECK coverage: no packet on a control VC");
    if ((d->checks & CK_REWRITE) && !r->failed && (!b->rewrites_inflight || !b->rewrites_next))
        bench_fail(b, "CHECK coverage (rewrite): %" PRIu64 " rewrites hit packets in flight, %" PRIu64 " heads came "
                   "right after a rewrite of their entry: both must happen", b->rewrites_inflight, b->rewrites_next);
    if ((d->checks & CK_STOPPED) && !r->failed && (!b->cov_stop || (int)b->occ_max < b->stop_at))
        bench_fail(b, "CHECK coverage (gostop): the buffers never reached STOP_AT %d (highest %u)", b->stop_at,
                   b->occ_max);
    for (unsigned p = 0; p < b->n && (d->checks & CK_STOPPED) && !r->failed; p++)
        if (b->stop_seen[p] != (uint16_t)((1u << b->nvc) - 1u))
            bench_fail(b, "CHECK coverage (gostop): rx_stop[%u] bits never 1: 0x%x (every VC of every input must "
                       "see STOP)", p, (unsigned)(uint16_t)~b->stop_seen[p] & ((1u << b->nvc) - 1u));
    if ((d->checks & CK_WRAP) && !r->failed && b->p->COUNTERS && b->pre_step) {
        /* limits: every bit of the answers driven to both values: the counters' (through the preset),
         * a table entry's valid bit 15, the error bit 31 */
        const uint32_t need = (uint32_t)mask_bits(b->p->CTR_WIDTH) | 0x80008000u;
        if ((b->rd_bits1 & need) != need || (b->rd_bits0 & need) != need)
            bench_fail(b, "CHECK coverage (counters): cfg_rdata bits never 1: 0x%08x, never 0: 0x%08x", need & ~b->rd_bits1,
                       need & ~b->rd_bits0);
    }
    if ((d->checks & CK_RESET) && !r->failed) {
        const uint64_t entries = (1ull << b->p->TAG_W) + (uint64_t)b->n * b->n * b->ndvc;
        if (b->resets != 2 || b->sweep_reads != entries || r->delivered == b->delivered_at_reset || !b->lost_reset)
            bench_fail(b, "CHECK coverage (reset): %" PRIu64 " resets (2 expected), %" PRIu64 " of %" PRIu64 " table "
                       "entries read back, %" PRIu64 " packets delivered after the first reset, %" PRIu64 " inside the "
                       "switch at the second: all must happen", b->resets, b->sweep_reads, entries,
                       r->delivered - b->delivered_at_reset, b->lost_reset);
        else if (!(d->checks & CK_PAIRS))
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

/* combos test: the reset in flight waits until the packets it will take (a flit received, not all
 * out: sb_reset) carry every other fault kind between them, so that each kind meets the reset */
static int reset_ready(const bench_t *b)
{
    unsigned want = (1u << FK_ROUTE) | (1u << FK_VC) | (1u << FK_LONG) | (1u << FK_REWRITE), have = 0;
    if (tr_heads_distinct(b))
        want |= 1u << FK_IGN;
    for (unsigned s = 0; s < b->n * b->nvc; s++) {
        const source_t *x = &b->src[s];
        for (uint32_t j = x->first; j != x->end; j++) {
            const pkt_t *k = &x->ring[j % SRC_RING];
            if (k->sent && !k->done)
                have |= k->faults;
        }
    }
    return (have & want) == want;
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
result_t run(const opts_t *o, const test_desc_t *d, const vcsw_tables_t *file, const bench_waves_t *w)
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
    rng_seed(&b->rng, o->cl.seed * 0x9E3779B97F4A7C15ull + (uint64_t)(d - vcsw_tests) * 7919u + 1);
    /* the presets have their own stream: the traffic is the same with --no-preset */
    rng_seed(&b->prng, o->cl.seed * 0xC2B2AE3D27D4EB4Full + (uint64_t)(d - vcsw_tests) * 104729u + 3);
    b->pre_step = o->no_preset ? 0 : (uint64_t)VCSW_NCTR * o->p.NVC * o->p.NPORTS + 8u;
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
            /* (combos test: at least 16 steps of rewrites of packets inside the switch first, then until
             * those packets carry every fault kind, or 4000 steps) */
            b->hold_cfg = 1;
            if (!b->rd_out && !b->ctr_defer.on &&
                (!(d->checks & CK_PAIRS) || (g >= inflight_at + 16 && (reset_ready(b) || g >= inflight_at + 4000)))) {
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
                        for (unsigned c = 0; c < VCSW_NCTR; c++) {
                            b->final_val[s * VCSW_NCTR + c] = vcsw_counter(model, s / b->nvc, s % b->nvc, c);
                            b->final_w[s * VCSW_NCTR + c] = step; /* the total after step - 1 */
                        }
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
        if (b->pre_step && (step == b->pre_step || step == b->pre_step + 2))
            preset_apply(b, model, rtl, step != b->pre_step);
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

/* sanfab — VC switch bench: the checks of docs/vcsw.md that never consult the model. They see
 * only the ports (what the bench drove, what came out), the parameters and the DOC_* numbers of
 * vcsw_bench_base.h, so they hold in --mode rtl too. Always on:
 *
 *  - idle flits: tx_valid = 0 carries vc, tail and data 0; tx_vc < NVC; cfg_rdata 0 without cfg_rvalid
 *  - Go & Stop towards the sender: rx_stop[p][v] after step k is exactly (occupancy of (p, v) after
 *    step k - 1 - LINK_DELAY >= STOP_AT), the occupancy counted from the ports (flits admitted in the
 *    step after they were received, popped in the step they were allocated, LINK_DELAY steps before
 *    they show on tx); and every flit an obedient sender sends is admitted with occupancy <= DEPTH - 2
 *    (the doc's "none is ever cut")
 *  - Go & Stop from the receiver: no head leaves (o, u) when tx_stop of (o, u) was 1 in the step
 *    before its allocation (in vcsw_bench_sb.c, where heads are recognised)
 *  - latency: no flit leaves less than 3 + LINK_DELAY steps after it was received (vcsw_bench_sb.c)
 *  - configuration port: tables and errors answered in r + 1 with the entry as written by the
 *    steps before r (or 0x80000000); counters in W + 1 (W the slot's first flush after r) with the
 *    bench's own count of the events of steps <= W - 4, modulo 2^CTR_WIDTH; reads while one is
 *    outstanding (including in its answer's step) and reads with a write ignored; no answer unasked
 *  - round robin (test fairness): every allocation is the one the pipelined separable allocation
 *    makes (each input's offer is its first eligible VC from its position, prepared a step ahead
 *    with the stop bits of then; each output takes the first requesting input from its position,
 *    a request needing the stop bit of its own step at 0), the eligible VCs known exactly from the
 *    ports (one-flit packets, at most three flits of a source in the switch, so all sit in its
 *    staging part)
 */
#include "vcsw_bench_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static uint64_t mask_w(unsigned w) { return w >= 32 ? 0xFFFFFFFFull : (1ull << w) - 1u; }

void ck_step_begin(bench_t *b)
{
    /* the events dated step + 1 (what this step's inputs cause) start empty */
    b->nev[(b->step + DOC_INGRESS) % RING] = 0;
}

/* count of counter (port, vc, ctr) over the events dated <= date, as far as the bench has them */
static uint64_t count_upto(const bench_t *b, unsigned port, unsigned vc, unsigned ctr, uint64_t date)
{
    uint64_t v = b->cum[port][vc][ctr];
    const uint16_t key = (uint16_t)((port << 8) | (vc << 3) | ctr);
    for (uint64_t d = date + 1; d <= b->step + DOC_INGRESS; d++) {
        unsigned r = (unsigned)(d % RING);
        for (unsigned i = 0; i < b->nev[r]; i++)
            v -= b->ev[r][i] == key;
    }
    return v;
}

/* A configuration request in the current step: what it must be answered with, and the write. */
void ck_inputs(bench_t *b, const vcsw_in_t *in)
{
    const uint64_t r = b->step;
    /* the admissions dated r + 1 are all known now */
    for (unsigned s = 0; s < b->n * b->nvc; s++)
        b->adm_hist[(r + DOC_INGRESS) % RING][s] = (uint32_t)b->adm_cum[s];
    const unsigned space = in->cfg_addr >> 14, idx = in->cfg_addr & 0x3FFFu;
    if (in->cfg_re && !in->cfg_we) {
        if (b->rd_out) {
            b->cfg_reads_ignored++;
        } else {
            b->rd_out = 1;
            b->rd_at = r;
            b->rd_addr = in->cfg_addr;
            b->rd_kind = 0;
            b->rd_ans = r + DOC_RD_TABLE;
            b->cfg_space_seen[space]++;
            uint32_t err = VCSW_RDATA_ERROR;
            if (space == VCSW_SPACE_ROUTE) {
                if (idx < (1u << b->p->TAG_W)) {
                    uint8_t e = b->sh.route[idx];
                    b->rd_val = ((e & 0x80u) ? 0x8000u : 0u) | (e & 15u);
                } else
                    b->rd_val = err;
            } else if (space == VCSW_SPACE_VC) {
                unsigned i = idx >> 8, o = (idx >> 4) & 15u, d = idx & 15u;
                if (i < b->n && o < b->n && d < b->ndvc) {
                    uint8_t e = b->sh.vct[i][o][d];
                    b->rd_val = ((e & 0x80u) ? 0x8000u : 0u) | (e & 15u);
                } else
                    b->rd_val = err;
            } else if (space == VCSW_SPACE_CTR) {
                unsigned port = idx >> 7, vc = (idx >> 3) & 15u;
                if (port >= b->n || vc >= b->nvc)
                    b->rd_val = err; /* doc reading: outside the counter table is an error, COUNTERS=0 too */
                else if (!b->p->COUNTERS)
                    b->rd_val = 0;
                else {
                    b->rd_kind = 1;
                    b->rd_ans = bench_flush_step(b, (port * b->nvc + vc) * VCSW_NCTR + (idx & 7u), r) + 1;
                }
            } else
                b->rd_val = err;
            if (b->rd_val == err && b->rd_kind == 0)
                b->cfg_errors++;
        }
    }
    if (in->cfg_we) {
        uint8_t e = (uint8_t)(((in->cfg_wdata & 0x8000u) ? 0x80u : 0u) | (in->cfg_wdata & 15u));
        if (space == VCSW_SPACE_ROUTE && idx < (1u << b->p->TAG_W)) {
            b->sh.route[idx] = e;
            b->last_write_step[0][idx] = r;
        } else if (space == VCSW_SPACE_VC) {
            unsigned i = idx >> 8, o = (idx >> 4) & 15u, d = idx & 15u;
            if (i < b->n && o < b->n && d < b->ndvc) {
                b->sh.vct[i][o][d] = e;
                b->last_write_step[1][idx] = r;
            }
        }
    }
}

static void cfg_answer(bench_t *b, const vcsw_out_t *out)
{
    const uint64_t t = b->step;
    if (out->cfg_rvalid) { /* coverage: every bit of the answers at 1 and at 0 */
        b->rd_bits1 |= out->cfg_rdata;
        b->rd_bits0 |= ~out->cfg_rdata;
    }
    if (!out->cfg_rvalid) {
        if (out->cfg_rdata)
            bench_fail(b, "CHECK configuration port: cfg_rdata is 0x%08x in step %" PRIu64 " without cfg_rvalid",
                       out->cfg_rdata, t);
        else if (b->rd_out && t >= b->rd_ans)
            bench_fail(b, "CHECK configuration port: the read of 0x%04x in step %" PRIu64 " is not answered in step %"
                       PRIu64, b->rd_addr, b->rd_at, b->rd_ans);
        return;
    }
    if (!b->rd_out) {
        bench_fail(b, "CHECK configuration port: cfg_rvalid in step %" PRIu64 " with no read outstanding (requests "
                   "while one is outstanding, or with a write, are ignored)", t);
        return;
    }
    if (t != b->rd_ans) {
        bench_fail(b, "CHECK configuration port: the read of 0x%04x in step %" PRIu64 " is answered in step %" PRIu64
                   ", expected %" PRIu64 "%s", b->rd_addr, b->rd_at, t, b->rd_ans,
                   b->rd_kind ? " (the slot's first flush after the request, + 1)" : " (r + 1)");
        return;
    }
    b->rd_out = 0;
    b->res->reads++;
    if (b->rd_kind == 0) {
        if (out->cfg_rdata != b->rd_val)
            bench_fail(b, "CHECK configuration port: the read of 0x%04x (space %u index %u) in step %" PRIu64
                       " answered 0x%08x, expected 0x%08x%s", b->rd_addr, b->rd_addr >> 14, b->rd_addr & 0x3FFFu,
                       b->rd_at, out->cfg_rdata, b->rd_val,
                       b->rd_val == VCSW_RDATA_ERROR ? " (error: outside its table)" : " (the entry as written)");
        return;
    }
    const unsigned idx = b->rd_addr & 0x3FFFu, port = idx >> 7, vc = (idx >> 3) & 15u, c = idx & 7u;
    if (out->cfg_rdata > mask_w(b->p->CTR_WIDTH)) {
        bench_fail(b, "CHECK configuration port: counter value 0x%08x is wider than CTR_WIDTH=%u", out->cfg_rdata,
                   b->p->CTR_WIDTH);
        return;
    }
    if (b->final_phase) {
        b->final_val[(port * b->nvc + vc) * VCSW_NCTR + c] = out->cfg_rdata;
        b->final_w[(port * b->nvc + vc) * VCSW_NCTR + c] = t - 1;
    }
    if ((c == VCSW_CTR_OVERFLOW || c == VCSW_CTR_TRUNC) && b->src[port * b->nvc + vc].ignore_stop)
        return; /* when a STOP-ignoring source overflows (or is cut at MAXLEN rather) is not known from the ports */
    /* the value counts the events of steps <= W - 4 (W = t - 1); output events show LINK_DELAY later */
    b->ctr_defer.on = 1;
    b->ctr_defer.date = t - 1 - DOC_CTR_AGE;
    b->ctr_defer.at = b->ctr_defer.date + b->ld > t ? b->ctr_defer.date + b->ld : t;
    b->ctr_defer.port = port;
    b->ctr_defer.vc = vc;
    b->ctr_defer.ctr = c;
    b->ctr_defer.value = out->cfg_rdata;
    b->ctr_defer.read_at = b->rd_at;
}

static void ctr_deferred(bench_t *b)
{
    if (!b->ctr_defer.on || b->ctr_defer.at != b->step)
        return;
    b->ctr_defer.on = 0;
    uint64_t want = count_upto(b, b->ctr_defer.port, b->ctr_defer.vc, b->ctr_defer.ctr, b->ctr_defer.date);
    /* the preset test mode: the value flushed in W = date + 4 carries the preset when W is after it */
    const uint32_t pre = bench_preset(b, (b->ctr_defer.port * b->nvc + b->ctr_defer.vc) * VCSW_NCTR + b->ctr_defer.ctr,
                                      b->ctr_defer.date + DOC_CTR_AGE);
    want += pre;
    uint64_t m = mask_w(b->p->CTR_WIDTH);
    if (want > m)
        b->cov_wrap++;
    if ((want & m) != b->ctr_defer.value)
        bench_fail(b, "CHECK counters: %s of port %u VC %u read in step %" PRIu64 " is %u, the bench counted %" PRIu64
                   " (events in steps <= %" PRIu64 " plus the preset %u; mod 2^%u: %" PRIu64 ")",
                   vcsw_counter_name(b->ctr_defer.ctr), b->ctr_defer.port, b->ctr_defer.vc, b->ctr_defer.read_at,
                   b->ctr_defer.value, want, b->ctr_defer.date, pre, b->p->CTR_WIDTH, want & m);
}

/* Round robin, exactly (test fairness): the pipelined separable allocation of docs/vcsw.md 3 with
 * the eligible VCs known from the ports. The offer requesting in allocation step a was prepared in
 * step a - 1 from the state after a - 2 (rule 3.3): each input's first VC at or after its position
 * (the position after step a - 1) whose oldest undelivered packet was at its next head then
 * (received by step a - DOC_CAND; a packet taken in step a - 1 is already delivered, so the
 * "entry that follows" is the oldest remaining one) and whose stop bit used in step a - 1 was 0.
 * In step a the offer requests only if the stop bit used in step a is 0 (rule 3.1); each output
 * takes the first requesting input at or after its position; the output's position moves past
 * the input taken, the input's past the VC only when its offer is taken. */
static void rr_check(bench_t *b, const vcsw_out_t *out)
{
    const uint64_t t = b->step;
    if (t < b->ld + 2)
        return;
    const uint64_t a = t - b->ld;
    const unsigned n = b->n, nvc = b->nvc;
    int offer[VCSW_MAX_PORTS], offer_o[VCSW_MAX_PORTS];
    for (unsigned p = 0; p < n; p++) {
        offer[p] = -1;
        offer_o[p] = -1;
        for (unsigned k = 0; k < nvc && offer[p] < 0; k++) {
            const unsigned v = (unsigned)((b->in_ptr[p] + k) % nvc);
            const source_t *s = &b->src[p * nvc + v];
            if (s->deliv == s->end)
                continue;
            const pkt_t *pk = &s->ring[s->deliv % SRC_RING];
            if (!pk->sent || pk->done || pk->fate != F_DELIVER || pk->in_step[0] + DOC_CAND > a)
                continue;
            if ((b->txstop_hist[(a - DOC_TXSTOP_AGE - DOC_OFFER_AHEAD) % RING][pk->o] >> pk->u) & 1u)
                continue;
            offer[p] = (int)v;
            /* the request, in step a */
            offer_o[p] = ((b->txstop_hist[(a - DOC_TXSTOP_AGE) % RING][pk->o] >> pk->u) & 1u) ? -1 : (int)pk->o;
        }
    }
    for (unsigned o = 0; o < n; o++) {
        int want_p = -1, noff = 0;
        for (unsigned k = 0; k < n; k++) {
            const unsigned p = (unsigned)((b->rr_ptr[o] + k) % n);
            if (offer_o[p] == (int)o) {
                noff++;
                if (want_p < 0)
                    want_p = (int)p;
            }
        }
        const vcsw_flit_t *f = &out->tx[o];
        int got_p = -1, got_v = -1;
        if (f->valid) {
            unsigned pay = f->data >> b->p->TAG_W;
            got_p = (int)(pay & ((1u << b->pb) - 1u));
            got_v = (int)((pay >> b->pb) & ((1u << b->vcw) - 1u));
        }
        const int want_v = want_p >= 0 ? offer[want_p] : -1;
        if (got_p != want_p || got_v != want_v) {
            char wbuf[48], gbuf[48];
            if (want_p < 0)
                snprintf(wbuf, sizeof wbuf, "nothing");
            else
                snprintf(wbuf, sizeof wbuf, "input %d VC %d", want_p, want_v);
            if (got_p < 0)
                snprintf(gbuf, sizeof gbuf, "nothing");
            else
                snprintf(gbuf, sizeof gbuf, "input %d VC %d", got_p, got_v);
            bench_fail(b, "CHECK round robin: output %u in allocation step %" PRIu64 " took %s, expected %s (%d "
                       "inputs offering; output position %u, that input's VC position %u)", o, a, gbuf, wbuf, noff,
                       (unsigned)b->rr_ptr[o], want_p >= 0 ? (unsigned)b->in_ptr[want_p] : 0u);
            return;
        }
        if (want_p >= 0) {
            b->rr_ptr[o] = ((unsigned)want_p + 1) % n;
            b->in_ptr[want_p] = ((unsigned)want_v + 1) % nvc;
            if (noff > 1)
                b->rr_checked++;
        }
    }
}

/* Everything the switch shows after the current step. */
void ck_outputs(bench_t *b, const vcsw_in_t *in, const vcsw_out_t *out)
{
    const uint64_t t = b->step;
    (void)in;
    if (b->d->checks & CK_RR_EXACT)
        rr_check(b, out);
    if (b->res->failed)
        return;
    int any = 0;
    for (unsigned o = 0; o < b->n && !b->res->failed; o++) {
        const vcsw_flit_t *f = &out->tx[o];
        if (!f->valid) {
            if (f->vc || f->tail || f->data)
                bench_fail(b, "CHECK output %u in step %" PRIu64 ": idle flit with vc %u tail %u data 0x%x (all must "
                           "be 0)", o, t, f->vc, f->tail, f->data);
            continue;
        }
        any = 1;
        if (f->vc >= b->nvc || f->data > mask_w(b->p->FLIT_W)) {
            bench_fail(b, "CHECK output %u in step %" PRIu64 ": vc %u data 0x%x out of range", o, t, f->vc, f->data);
            return;
        }
        if (b->measure)
            b->link_busy[o]++;
        sb_flit_out(b, o, f);
    }
    if (b->measure)
        b->link_window++;
    b->quiet_steps = any ? 0 : b->quiet_steps + 1;
    if (b->res->failed)
        return;
    cfg_answer(b, out);
    ctr_deferred(b);
    if (b->res->failed)
        return;
    /* Go & Stop towards the senders, from the occupancy the bench counts */
    const unsigned nvc = b->nvc;
    for (unsigned p = 0; p < b->n; p++) {
        for (unsigned v = 0; v < nvc; v++) {
            const unsigned s = p * nvc + v;
            if (b->src[s].ignore_stop)
                continue;
            unsigned got = (out->rx_stop[p] >> v) & 1u, want = 0;
            uint64_t date = 0;
            if (t > b->ld + DOC_STOP_AGE - 1) {
                date = t - DOC_STOP_AGE - b->ld;
                want = (int)b->occ_hist[date % RING][s] >= b->stop_at;
            }
            if (got) {
                b->cov_stop++;
                b->stop_seen[p] |= (uint16_t)(1u << v);
            }
            if (got != want) {
                bench_fail(b, "CHECK Go & Stop: rx_stop of input %u VC %u after step %" PRIu64 " is %u, expected %u: "
                           "the occupancy after step %" PRIu64 " (counted from the ports) is %u, STOP_AT %d", p, v, t,
                           got, want, date, b->occ_hist[date % RING][s], b->stop_at);
                return;
            }
        }
        if (out->rx_stop[p] >> nvc) {
            bench_fail(b, "CHECK rx_stop[%u] = 0x%x has bits past NVC", p, out->rx_stop[p]);
            return;
        }
    }
    /* occupancy after step t - LINK_DELAY: every pop of that step has shown now */
    if (t >= b->ld) {
        const uint64_t date = t - b->ld;
        for (unsigned s = 0; s < b->n * nvc; s++) {
            if (b->src[s].ignore_stop)
                continue;
            int64_t occ = (int64_t)b->adm_hist[date % RING][s] - (int64_t)b->pop_cum[s];
            if (occ < 0 || occ > (int64_t)b->p->DEPTH) {
                bench_fail(b, "CHECK buffer of input %u VC %u: %" PRId64 " entries after step %" PRIu64 " (flits "
                           "admitted minus flits left), outside 0..DEPTH", s / nvc, s % nvc, occ, date);
                return;
            }
            b->occ_hist[date % RING][s] = (uint32_t)occ;
            if ((unsigned)occ > b->occ_max)
                b->occ_max = (unsigned)occ;
            /* a flit admitted in date + 1 finds this occupancy: it must be at most DEPTH - 2 */
            uint32_t adm_next = b->adm_hist[(date + 1) % RING][s] - b->adm_hist[date % RING][s];
            if (adm_next && occ > (int64_t)b->p->DEPTH - 2) {
                bench_fail(b, "CHECK Go & Stop margin: input %u VC %u admits a flit in step %" PRIu64 " with %" PRId64
                           " entries after step %" PRIu64 " (DEPTH %u: above DEPTH - 2 the flit is cut) although its "
                           "host obeys Go & Stop at the latest moment (STOP_AT %d, LINK_DELAY %u)", s / nvc, s % nvc,
                           date + 1, occ, date, b->p->DEPTH, b->stop_at, b->ld);
                return;
            }
        }
    }
}

void ck_end(bench_t *b)
{
    if (b->rd_out)
        bench_fail(b, "CHECK configuration port: the read of 0x%04x in step %" PRIu64 " was never answered", b->rd_addr,
                   b->rd_at);
}

/* rst (test reset), before its first edge: docs/vcsw.md, Steps: every buffer empty, every counter 0,
 * every round-robin position 0, step 0 again. The occupancies and counter events the bench derives
 * from the ports restart; the tables (the bench's shadow) are kept. The bench asserts rst only with
 * no read outstanding. */
void ck_reset(bench_t *b)
{
    memset(b->adm_cum, 0, sizeof b->adm_cum);
    memset(b->pop_cum, 0, sizeof b->pop_cum);
    memset(b->adm_hist, 0, sizeof b->adm_hist);
    memset(b->occ_hist, 0, sizeof b->occ_hist);
    memset(b->cum, 0, sizeof b->cum);
    memset(b->ev, 0, sizeof b->ev);
    memset(b->nev, 0, sizeof b->nev);
    memset(b->rr_ptr, 0, sizeof b->rr_ptr);
    memset(b->in_ptr, 0, sizeof b->in_ptr);
    b->rd_out = 0;
    b->ctr_defer.on = 0;
    memset(b->pre_at, 0, sizeof b->pre_at); /* the counters restart from 0: the preset is made again */
}

/* The outputs after an edge with rst high: the registers at their reset values (docs/vcsw.md, Steps:
 * no flits; tx_* idle for the first LINK_DELAY steps; rx_stop 0 for the first LINK_DELAY steps;
 * cfg_rvalid and cfg_rdata 0 when nothing is answered), whatever the inputs carried. */
void ck_reset_outputs(bench_t *b, const vcsw_out_t *out)
{
    for (unsigned o = 0; o < b->n; o++) {
        const vcsw_flit_t *f = &out->tx[o];
        if (f->valid || f->vc || f->tail || f->data || out->rx_stop[o]) {
            bench_fail(b, "CHECK reset: after an edge with rst high output %u shows valid %u vc %u tail %u data 0x%x, "
                       "rx_stop[%u] 0x%x (all must be 0)", o, f->valid, f->vc, f->tail, f->data, o, out->rx_stop[o]);
            return;
        }
    }
    if (out->cfg_rvalid || out->cfg_rdata)
        bench_fail(b, "CHECK reset: after an edge with rst high cfg_rvalid %u cfg_rdata 0x%08x (both must be 0)",
                   out->cfg_rvalid, out->cfg_rdata);
}

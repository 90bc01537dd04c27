/* sanfab — crossbar bench: the model-free checks of docs/xbar.md's rules (xbar_bench_check.h). */
#include "xbar_bench_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const unsigned ev_ctr[EV_N] = {XBAR_CTR_RX_PKTS, XBAR_CTR_RX_BYTES, XBAR_CTR_TX_PKTS, XBAR_CTR_TX_BYTES};

void chk_init(chk_t *k, const xbar_params_t *p, const test_desc_t *d)
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

unsigned lat_formula(const xbar_params_t *p)
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
void chk_read_issued(chk_t *k, uint64_t c, unsigned addr)
{
    if (k->rd_out) {
        k->rd_ignored++; /* outstanding (up to and including its answer's step): ignored */
        return;
    }
    k->rd_out = 1;
    k->rd_addr = addr;
    k->rd_at = c;
}

void chk_preset(chk_t *k, unsigned s, uint32_t value, uint64_t step)
{
    if (s < XBAR_MAX_PORTS * XBAR_NCTR) {
        k->pre[s] = value;
        k->pre_step[s] = step;
    }
}

int addr_present(const chk_t *k, unsigned addr)
{
    return k->p->COUNTERS && (addr >> 4) < k->n && (addr & 15u) < XBAR_NCTR;
}

/* the step W in which the outstanding read of a present counter is answered: the flusher writes slot s in
 * every step W >= 3 with W = s + 3 (mod NS), steps counted from the last reset edge (step 0; the bench's
 * cycle c is step c + 1); the read is answered in the first such W after the request's step */
static uint64_t answer_step(const chk_t *k)
{
    const unsigned ns = DOC_NCTR_SLOTS * k->n;
    unsigned a = k->rd_addr;
    unsigned slot = (a >> 4) * DOC_NCTR_SLOTS + (a & 15u);
    uint64_t R = k->rd_at + 1, W0 = R + 1;
    uint64_t W = W0 + ((uint64_t)slot + DOC_FLUSH_OFFSET + ns * 4 - W0 % ns) % ns;
    if (W < 3)
        W += ns;
    return W;
}

static void check_regport(chk_t *k, result_t *res, uint64_t c, const xbar_out_t *out)
{
    const unsigned ns = DOC_NCTR_SLOTS * k->n;
    const uint64_t mask = k->p->CTR_WIDTH >= 32 ? 0xFFFFFFFFull : (1ull << k->p->CTR_WIDTH) - 1;
    if (!out->reg_rvalid) {
        if (k->rd_out) {
            /* due: an absent address DOC_RD_ABSENT cycles after the request, a present counter in step W */
            uint64_t due = addr_present(k, k->rd_addr) ? answer_step(k) - 1 : k->rd_at + DOC_RD_ABSENT;
            if (c >= due)
                fail(res, c, "CHECK register port: read of address 0x%02x in cycle %" PRIu64 " not answered in cycle %"
                     PRIu64 " as due", k->rd_addr, k->rd_at, due);
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
    unsigned slot = (a >> 4) * DOC_NCTR_SLOTS + (a & 15u);
    uint64_t W = answer_step(k);
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
    if ((a & 15u) == XBAR_CTR_DROP_TIMEOUT) { /* unwrapped: fewer than 2^CTR_WIDTH timeouts between two reads */
        uint32_t pre = k->pre_step[slot] && W > k->pre_step[slot] ? k->pre[slot] : 0;
        uint32_t ev = (uint32_t)(((uint64_t)out->reg_rdata - pre) & mask);
        k->tmo_total[a >> 4] += ((uint64_t)ev - k->tmo_last[a >> 4]) & mask;
        k->tmo_last[a >> 4] = ev;
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
        k->defer[k->ndefer].pre = k->pre_step[slot] && W > k->pre_step[slot] ? k->pre[slot] : 0;
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
        uint64_t want = (k->ev_hist[k->defer[i].upto % RING][e][port] + k->defer[i].pre) & mask;
        if (k->defer[i].value != want)
            fail(res, c, "CHECK register port: counter %s of port %u read in cycle %u is %u, expected %" PRIu64
                 " (events the bench saw up to cycle %" PRIu64 " + preset %u, mod 2^%u)", xbar_counter_name(ev_ctr[e]),
                 port, k->defer[i].read_at, k->defer[i].value, want, k->defer[i].upto, k->defer[i].pre,
                 k->p->CTR_WIDTH);
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
 * after the GO was sampled, or one cycle later behind a STOP/GO of its own (top priority; with
 * STOP_THRESH - GO_THRESH = 1, as many cycles later as STOP/GOs of its own come in a row). */
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
        } else if (is_flow_char(t) && (!k->resume_flow[q] || k->p->STOP_THRESH - k->p->GO_THRESH == 1)) {
            /* (a STOP/GO of its own goes first, rule 4.1; the occupancy moves by one a step, so two in a
             * row only when STOP_THRESH - GO_THRESH = 1: then as many as come in a row) */
            k->resume_flow[q]++;
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
void check_cycle(chk_t *k, result_t *res, uint64_t c, const xbar_in_t *in, const xbar_out_t *out,
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

/* sanfab — VC switch bench: packets and the end-to-end scoreboard.
 *
 * Every packet a source (input p, VC v) sends is predicted when its head is received: dropped
 * (drop_route / drop_vc, from the bench's shadow of the tables as written by the steps before),
 * or delivered on output VC (o, u), cut at MAXLEN when longer. Each flit that leaves is matched to
 * its packet at once: the head's payload names its source (input port and VC), the other flits
 * follow on their output VC. A source's packets leave in the order sent (one FIFO per input VC),
 * so the next packet of a source is known; a source that ignores STOP may lose whole packets or
 * have them cut (overflow), which the scoreboard accounts for and the switch's counters confirm.
 *
 * Flit data: head = {src port, src VC, seq} above the tag; flit 1 = {seq, VC, port}; the others a
 * hash of (source, seq, index); the last flit of a packet of >= 2 flits a checksum of the others.
 */
#include "vcsw_bench_sb.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static uint32_t mask_w(unsigned w) { return w >= 32 ? 0xFFFFFFFFu : (1u << w) - 1u; }

static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    return x;
}

static uint32_t body_word(const bench_t *b, unsigned src, const pkt_t *k, unsigned i)
{
    const unsigned p = src / b->nvc, v = src % b->nvc;
    if (i == 1)
        return (k->seq << 8) | (v << 4) | p;
    return hash32(k->seq * 0x9E3779B1u + src * 0x85EBCA6Bu + i * 0xC2B2AE35u + (uint32_t)b->o->cl.seed);
}

uint32_t sb_flit_data(const bench_t *b, unsigned src, const pkt_t *k, unsigned i)
{
    const unsigned fw = b->p->FLIT_W, tw = b->p->TAG_W;
    if (i == 0) {
        const unsigned p = src / b->nvc, v = src % b->nvc;
        uint32_t pay = p | (v << b->pb) | (k->seq << (b->pb + b->vcw));
        return ((pay << tw) | k->tag) & mask_w(fw);
    }
    if (i + 1 == k->len && k->len >= 2) {
        uint32_t c = 0x5A5Au;
        for (unsigned j = 0; j + 1 < k->len; j++)
            c = hash32(c ^ sb_flit_data(b, src, k, j)) + j;
        return c & mask_w(fw);
    }
    return body_word(b, src, k, i) & mask_w(fw);
}

pkt_t *sb_new_packet(bench_t *b, unsigned src, unsigned tag, unsigned len)
{
    source_t *s = &b->src[src];
    /* retire finished packets at the front */
    while (s->first != s->end && s->ring[s->first % SRC_RING].done &&
           (s->ring[s->first % SRC_RING].sent == s->ring[s->first % SRC_RING].len ||
            s->ring[s->first % SRC_RING].lost)) {
        pkt_t *k = &s->ring[s->first % SRC_RING];
        free(k->in_step);
        k->in_step = NULL;
        s->first++;
    }
    if (s->end - s->first >= SRC_RING)
        return NULL;
    pkt_t *k = &s->ring[s->end % SRC_RING];
    memset(k, 0, sizeof *k);
    k->in_step = calloc(len, sizeof *k->in_step);
    if (!k->in_step)
        return NULL;
    k->seq = s->seq++;
    k->tag = (uint16_t)tag;
    k->len = (uint16_t)len;
    k->may_ovf = s->ignore_stop;
    k->faults = (uint8_t)((len > b->p->MAXLEN ? 1u << FK_LONG : 0u) | (k->may_ovf ? 1u << FK_IGN : 0u));
    s->end++;
    s->made++;
    b->res->made++;
    return k;
}

void sb_route(const bench_t *b, unsigned p, unsigned v, unsigned tag, uint8_t *fate, uint8_t *o, uint8_t *u)
{
    const int ctl = b->p->CTRL && v >= b->ndvc;
    const unsigned d = ctl ? v - b->ndvc : v;
    const uint8_t r = b->sh.route[tag];
    *o = *u = 0;
    if (!(r & 0x80u) || (r & 15u) >= b->n) {
        *fate = F_DROP_ROUTE;
        return;
    }
    const unsigned oo = r & 15u;
    const uint8_t e = b->sh.vct[p][oo][d];
    if (!(e & 0x80u) || (e & 15u) >= b->ndvc) {
        *fate = F_DROP_VC;
        return;
    }
    *fate = F_DELIVER;
    *o = (uint8_t)oo;
    *u = (uint8_t)((e & 15u) + (ctl ? b->ndvc : 0u));
}

/* Flit i of packet k from source src enters on input p in the current step (docs/vcsw.md 1.
 * Ingress: processed, counted and admitted in the next step). */
void sb_flit_in(bench_t *b, unsigned p, const vcsw_flit_t *f, unsigned src, pkt_t *k, unsigned i)
{
    source_t *s = &b->src[src];
    const uint64_t date = b->step + DOC_INGRESS;
    const unsigned v = src % b->nvc;
    k->in_step[i] = b->step;
    s->flits_sent++;
    bench_event(b, date, p, v, VCSW_CTR_RX_FLITS);
    if (i == 0) {
        s->heads_sent++;
        bench_event(b, date, p, v, VCSW_CTR_RX_PKTS);
        sb_route(b, p, v, f->data & ((1u << b->p->TAG_W) - 1u), &k->fate, &k->o, &k->u);
        if (k->fate == F_DROP_ROUTE) {
            /* both entries bad (the routing entry invalid but naming a port whose VC entry is bad too):
             * drop_route alone (docs/vcsw.md, "Several faults in one packet") */
            const uint8_t r = b->sh.route[k->tag];
            const unsigned d = b->p->CTRL && v >= b->ndvc ? v - b->ndvc : v;
            k->faults |= 1u << FK_ROUTE;
            if ((r & 15u) < b->n && (!(b->sh.vct[p][r & 15u][d] & 0x80u) || (b->sh.vct[p][r & 15u][d] & 15u) >= b->ndvc))
                k->faults |= 1u << FK_VC;
            s->drop_route++;
            b->res->dropped++;
            bench_event(b, date, p, v, VCSW_CTR_DROP_ROUTE);
        } else if (k->fate == F_DROP_VC) {
            k->faults |= 1u << FK_VC;
            s->drop_vc++;
            b->res->dropped++;
            bench_event(b, date, p, v, VCSW_CTR_DROP_VC);
        }
        if (b->p->CTRL && v >= b->ndvc)
            b->cov_ctrl++;
        if (k->len == 1)
            b->cov_one++;
        if (k->len > b->p->MAXLEN)
            b->cov_over++;
    }
    k->sent = (uint16_t)(i + 1);
    if (k->fate == F_DELIVER && !k->may_ovf && i < b->p->MAXLEN)
        b->adm_cum[src]++;
    /* a packet of a STOP-ignoring source may be cut at a full buffer before its MAXLEN-th flit (then it
     * counts overflow, not trunc): its trunc is counted when its tail shows (sb_flit_out) */
    if (k->fate == F_DELIVER && i + 1 == b->p->MAXLEN && k->len > b->p->MAXLEN && !k->may_ovf) {
        s->trunc++;
        bench_event(b, date, p, v, VCSW_CTR_TRUNC);
    }
    if (k->fate != F_DELIVER && k->sent == k->len)
        k->done = 1;
    if (k->sent == k->len)
        bench_faults(b, k->faults);
}

/* A packet of a STOP-ignoring source discarded whole at a full buffer: with MAXLEN = 1 a longer one's
 * head was cut by the length rule first, so it counts trunc as well as overflow (docs/vcsw.md, "Several
 * faults in one packet") */
static void sb_head_cut(bench_t *b, unsigned src, const pkt_t *k)
{
    if (b->p->MAXLEN == 1 && k->len > 1) {
        b->src[src].trunc++;
        b->cum[src / b->nvc][src % b->nvc][VCSW_CTR_TRUNC]++;
    }
}

static unsigned exp_len(const bench_t *b, const pkt_t *k) { return k->len < b->p->MAXLEN ? k->len : b->p->MAXLEN; }

/* The packet of source s that a head on (o, u) with data `data` must be: skips dropped packets
 * and, for a source that ignores STOP, packets discarded whole at a full buffer. NULL if none. */
static pkt_t *next_of(bench_t *b, unsigned src, uint32_t data, uint32_t *idx_out, int account)
{
    source_t *s = &b->src[src];
    for (uint32_t idx = s->deliv; idx != s->end; idx++) {
        pkt_t *k = &s->ring[idx % SRC_RING];
        if (k->sent == 0)
            return NULL; /* not sent yet */
        if (k->fate != F_DELIVER)
            continue;
        if (k->done)
            continue;
        if (sb_flit_data(b, src, k, 0) != data) {
            if (!k->may_ovf)
                return NULL;
            if (account) { /* discarded whole at a full buffer */
                k->done = 1;
                s->overflow++;
                sb_head_cut(b, src, k);
            }
            continue;
        }
        *idx_out = idx;
        return k;
    }
    return NULL;
}

static void head_out(bench_t *b, unsigned o, const vcsw_flit_t *f, outvc_t *ov)
{
    const uint64_t t = b->step;
    const unsigned tw = b->p->TAG_W;
    uint32_t pay = b->p->FLIT_W > tw ? f->data >> tw : 0;
    int src = -1;
    uint32_t idx = 0;
    pkt_t *k = NULL;
    /* the head names its source (the bench refuses parameter sets without room for it) */
    unsigned p = pay & ((1u << b->pb) - 1u), v = (pay >> b->pb) & ((1u << b->vcw) - 1u);
    if (p >= b->n || v >= b->nvc) {
        bench_fail(b, "SCOREBOARD output %u VC %u: head 0x%x in step %" PRIu64 " names source input %u VC %u, "
                   "which does not exist", o, f->vc, f->data, t, p, v);
        return;
    }
    src = (int)(p * b->nvc + v);
    k = next_of(b, (unsigned)src, f->data, &idx, 1);
    if (!k) {
        const source_t *s = &b->src[src];
        const pkt_t *e = NULL;
        for (uint32_t j = s->deliv; j != s->end && !e; j++)
            if (s->ring[j % SRC_RING].fate == F_DELIVER && !s->ring[j % SRC_RING].done)
                e = &s->ring[j % SRC_RING];
        if (e && e->sent)
            bench_fail(b, "SCOREBOARD output %u VC %u step %" PRIu64 ": head 0x%x from input %u VC %u is not its "
                       "next packet (expected seq %u tag %u head 0x%x, received in step %" PRIu64 "): lost, "
                       "duplicated or altered", o, f->vc, t, f->data, p, v, e->seq, e->tag,
                       sb_flit_data(b, (unsigned)src, e, 0), e->in_step[0]);
        else
            bench_fail(b, "SCOREBOARD output %u VC %u step %" PRIu64 ": head 0x%x from input %u VC %u, which has "
                       "no packet in the switch (duplicated or invented)", o, f->vc, t, f->data, p, v);
        return;
    }
    source_t *s = &b->src[src];
    if (k->o != o || k->u != f->vc) {
        bench_fail(b, "SCOREBOARD packet seq %u from input %u VC %u (tag %u, head received in step %" PRIu64 ") left on "
                   "output %u VC %u in step %" PRIu64 ", its tables say output %u VC %u", k->seq, src / b->nvc,
                   src % b->nvc, k->tag, k->in_step[0], o, f->vc, t, k->o, k->u);
        return;
    }
    s->deliv = idx;
    ov->active = 1;
    ov->src = (unsigned)src;
    ov->idx = idx;
    ov->flit = 0;
}

/* A flit on output o in the current step (after the switch's step; allocated LINK_DELAY steps ago). */
void sb_flit_out(bench_t *b, unsigned o, const vcsw_flit_t *f)
{
    const uint64_t t = b->step, a = t - b->ld;
    outvc_t *ov = &b->ovc[o][f->vc];
    const int head = !ov->active;
    if (head) {
        /* docs/vcsw.md 3: a first flit leaves only with the stop bit of (o, u) received in a - 1 at 0 */
        if (a >= 1 + DOC_TXSTOP_AGE && ((b->txstop_hist[(a - DOC_TXSTOP_AGE) % RING][o] >> f->vc) & 1u)) {
            bench_fail(b, "CHECK Go & Stop downstream: a head left output %u VC %u in step %" PRIu64 " (allocated in "
                       "step %" PRIu64 ") although tx_stop[%u] was 1 in step %" PRIu64, o, f->vc, t, a,
                       o * b->nvc + f->vc, a - DOC_TXSTOP_AGE);
            return;
        }
        head_out(b, o, f, ov);
        if (b->res->failed)
            return;
    }
    source_t *s = &b->src[ov->src];
    pkt_t *k = &s->ring[ov->idx % SRC_RING];
    const unsigned i = ov->flit, el = exp_len(b, k);
    const unsigned p = ov->src / b->nvc, v = ov->src % b->nvc;
    if (!head)
        ov->flit = i; /* (ov->flit was advanced at the previous flit) */
    if (i >= k->sent) {
        bench_fail(b, "SCOREBOARD output %u VC %u step %" PRIu64 ": flit %u of packet seq %u from input %u VC %u left "
                   "before it was sent (%u sent)", o, f->vc, t, i, k->seq, p, v, k->sent);
        return;
    }
    uint32_t want = sb_flit_data(b, ov->src, k, i);
    if (f->data != want) {
        bench_fail(b, "SCOREBOARD output %u VC %u step %" PRIu64 ": flit %u of packet seq %u from input %u VC %u "
                   "(tag %u, %u flits) is 0x%x, sent 0x%x", o, f->vc, t, i, k->seq, p, v, k->tag, k->len, f->data,
                   want);
        return;
    }
    const uint64_t lat = t - k->in_step[i];
    if (lat < DOC_HEAD_LAT + b->ld) {
        bench_fail(b, "CHECK latency: flit %u of packet seq %u from input %u VC %u, received in step %" PRIu64 ", left "
                   "output %u in step %" PRIu64 ": %" PRIu64 " steps, at least %u (3 + LINK_DELAY)", i, k->seq, p, v,
                   k->in_step[i], o, t, lat, DOC_HEAD_LAT + b->ld);
        return;
    }
    if (b->d->checks & CK_LAT_EXACT) {
        /* a packet alone on an idle switch: head exactly 3 + LINK_DELAY, then one flit per step */
        uint64_t want_t = k->in_step[0] + DOC_HEAD_LAT + b->ld + i;
        if (t != want_t) {
            bench_fail(b, "CHECK latency: alone on the switch, flit %u of packet seq %u (input %u VC %u -> output %u, "
                       "head received in step %" PRIu64 ") left in step %" PRIu64 ", expected %" PRIu64 " (head after "
                       "3 + LINK_DELAY = %u steps, then one flit per step)", i, k->seq, p, v, o, k->in_step[0], t,
                       want_t, DOC_HEAD_LAT + b->ld);
            return;
        }
        if (i == 0)
            b->lat_samples++;
    }
    if (f->tail && i + 1 < el) {
        if (!k->may_ovf) {
            bench_fail(b, "SCOREBOARD output %u VC %u step %" PRIu64 ": packet seq %u from input %u VC %u (%u flits) "
                       "ends after %u flits: cut although its host obeys Go & Stop", o, f->vc, t, k->seq, p, v, k->len,
                       i + 1);
            return;
        }
        k->cut = 1;
    }
    if (!f->tail && i + 1 >= el) {
        bench_fail(b, "SCOREBOARD output %u VC %u step %" PRIu64 ": flit %u of packet seq %u from input %u VC %u (%u "
                   "flits sent%s) has no tail bit", o, f->vc, t, i, k->seq, p, v, k->len,
                   k->len > b->p->MAXLEN ? ", cut at MAXLEN" : "");
        return;
    }
    /* the flit is popped from (p, v) in its allocation step */
    b->pop_cum[ov->src]++;
    b->popped_seen[ov->src]++;
    bench_event(b, a, o, f->vc, VCSW_CTR_TX_FLITS);
    b->res->flits_out++;
    if (f->tail) {
        bench_event(b, a, o, f->vc, VCSW_CTR_TX_PKTS);
        k->got = (uint16_t)(i + 1);
        k->done = 1;
        if (k->cut)
            s->overflow++;
        else if (k->may_ovf && k->len > b->p->MAXLEN && i + 1 == b->p->MAXLEN) {
            /* cut at MAXLEN: trunc, also when its MAXLEN-th flit found the buffer at DEPTH - 1 (the length
             * rule cuts it first). Dated long ago: reads along the way skip this counter (the overflow's too) */
            s->trunc++;
            b->cum[p][v][VCSW_CTR_TRUNC]++;
        }
        s->delivered++;
        b->res->delivered++;
        s->deliv = ov->idx + 1;
        ov->active = 0;
    } else
        ov->flit = i + 1;
    ov->last_out = t;
}

/* Nothing the scoreboard still waits for: every packet sent, every one that must arrive arrived. */
int sb_idle(const bench_t *b)
{
    for (unsigned s = 0; s < b->n * b->nvc; s++) {
        const source_t *x = &b->src[s];
        if (x->send != x->end)
            return 0;
        for (uint32_t j = x->deliv; j != x->end; j++) {
            const pkt_t *k = &x->ring[j % SRC_RING];
            if (!k->done && k->fate == F_DELIVER && !k->may_ovf)
                return 0;
        }
    }
    for (unsigned o = 0; o < b->n; o++)
        for (unsigned u = 0; u < b->nvc; u++)
            if (b->ovc[o][u].active)
                return 0;
    return 1;
}

/* rst (test reset), called before the first edge with rst high, after the outputs of the step
 * before it were seen. docs/vcsw.md, Steps: after reset there are no flits and every buffer is
 * empty, and tx_* is idle for the first LINK_DELAY steps; so every packet with a flit received
 * (step < the reset) that has not all come out is gone: its flits in the input register, the
 * buffers, the transmit register and the link delay. The bench knows exactly which ones these
 * are from the ports. They count as lost at the reset; a host in the middle of one abandons the
 * rest of it (sending it after the reset would make its next flit a head). Packets not started
 * stay queued. The overflow count restarts with the counters. */
void sb_reset(bench_t *b)
{
    for (unsigned sidx = 0; sidx < b->n * b->nvc; sidx++) {
        source_t *s = &b->src[sidx];
        if (s->send != s->end && s->ring[s->send % SRC_RING].sent)
            s->send++;
        for (uint32_t j = s->first; j != s->send; j++) {
            pkt_t *k = &s->ring[j % SRC_RING];
            if (k->done)
                continue;
            k->done = 1;
            k->lost = 1;
            if (k->sent) {
                k->faults |= 1u << FK_RESET;
                bench_faults(b, k->faults);
            }
            if (k->fate == F_DELIVER) {
                s->lost_reset++;
                b->lost_reset++;
            }
        }
        s->deliv = s->send;
        b->ovf_before_reset += s->overflow;
        s->overflow = 0;
    }
    memset(b->ovc, 0, sizeof b->ovc);
}

/* End of a test (traffic drained, counters read): every packet accounted for, and the switch's
 * counters equal the bench's own counts (modulo 2^CTR_WIDTH). */
void sb_final(bench_t *b)
{
    const uint64_t mask = mask_w(b->p->CTR_WIDTH);
    for (unsigned sidx = 0; sidx < b->n * b->nvc && !b->res->failed; sidx++) {
        source_t *s = &b->src[sidx];
        for (uint32_t j = s->deliv; j != s->end; j++) {
            pkt_t *k = &s->ring[j % SRC_RING];
            if (k->done || k->fate != F_DELIVER)
                continue;
            if (k->may_ovf) { /* discarded whole at a full buffer */
                k->done = 1;
                s->overflow++;
                sb_head_cut(b, sidx, k);
                continue;
            }
            bench_fail(b, "SCOREBOARD packet seq %u from input %u VC %u (tag %u, %u flits, head received in step %"
                       PRIu64 ", for output %u VC %u) never arrived (%u flits delivered)", k->seq, sidx / b->nvc,
                       sidx % b->nvc, k->tag, k->len, k->in_step[0], k->o, k->u, k->got);
            return;
        }
    }
    /* the counters */
    const int have_model = b->o->cl.mode != MODE_RTL;
    if (!b->p->COUNTERS && !have_model)
        return; /* --mode rtl with COUNTERS = 0: nothing to read (every read answered 0, checked) */
    for (unsigned port = 0; port < b->n && !b->res->failed; port++)
        for (unsigned vc = 0; vc < b->nvc && !b->res->failed; vc++)
            for (unsigned c = 0; c < VCSW_NCTR && !b->res->failed; c++) {
                const source_t *s = &b->src[port * b->nvc + vc];
                uint64_t want = c == VCSW_CTR_OVERFLOW ? s->overflow : b->cum[port][vc][c];
                const unsigned slot = (port * b->nvc + vc) * VCSW_NCTR + c;
                /* the preset test mode: the preset counts in a flush after it (the model's total: after it) */
                const uint32_t pre = bench_preset(b, slot, b->final_w[slot]);
                want += pre;
                uint32_t got = b->p->COUNTERS ? b->final_val[slot] : 0;
                const char *how = "read through the configuration port";
                if (!b->p->COUNTERS) {
                    got = b->final_val[slot]; /* filled from the model's vcsw_counter() */
                    how = "vcsw_counter() of the model (COUNTERS=0)";
                }
                if ((want & mask) != got) {
                    bench_fail(b, "SCOREBOARD counter %s of port %u VC %u %s is %u, the bench counted %" PRIu64
                               " (with the preset %u; mod 2^%u = %" PRIu64 ")%s", vcsw_counter_name(c), port, vc, how,
                               got, want, pre, b->p->CTR_WIDTH, want & mask,
                               c == VCSW_CTR_OVERFLOW && s->ignore_stop ? " (source ignores STOP)" : "");
                    return;
                }
                if (want > mask)
                    b->cov_wrap++;
            }
}

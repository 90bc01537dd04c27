/* sanfab — VC switch bench: tables, hosts, receivers and configuration traffic.
 *
 * Hosts (one per input port) send at most one flit per step, interleaving their VCs at random. A
 * host starts a new packet on VC v in its step m only if rx_stop of (p, v) after step
 * m - LINK_DELAY - 3 was 0: the upstream switch's view in docs/vcsw.md "Go & Stop", the latest
 * moment the rule allows; the rest of a started packet goes regardless. Sources named by the test
 * ignore STOP. Receivers drive tx_stop per VC with on/off bursts of a duty drawn per (output, VC).
 */
#include "vcsw_bench_traffic.h"

#include <stdlib.h>
#include <string.h>

static unsigned entry_random(bench_t *b, unsigned limit, unsigned bad_pct)
{
    unsigned junk = rng_pct(&b->rng, 20) ? (rng_below(&b->rng, 0x800) << 4) : 0; /* bits 14..4: ignored */
    unsigned r = rng_below(&b->rng, 100);
    if (r < bad_pct / 2)
        return junk | rng_below(&b->rng, 16); /* invalid */
    if (r < bad_pct && limit < 16)
        return 0x8000u | junk | (limit + rng_below(&b->rng, 16 - limit)); /* valid, out of range */
    return 0x8000u | junk | rng_below(&b->rng, limit);
}

void tr_queue_write(bench_t *b, uint16_t addr, uint16_t wdata)
{
    if (b->wq_n == b->wq_cap) {
        size_t nc = b->wq_cap ? b->wq_cap * 2 : 1024;
        vcsw_cfg_write_t *q = realloc(b->wq, nc * sizeof *q);
        if (!q)
            return;
        b->wq = q;
        b->wq_cap = nc;
    }
    b->wq[b->wq_n++] = (vcsw_cfg_write_t){addr, wdata};
}

/* The tables a test starts with, queued as configuration writes. */
void tr_tables_initial(bench_t *b)
{
    const unsigned n = b->n, nt = 1u << b->p->TAG_W;
    const test_desc_t *d = b->d;
    if (d->tables == TB_FILE && b->file) {
        for (size_t i = 0; i < b->file->nwrites; i++)
            tr_queue_write(b, b->file->writes[i].addr, b->file->writes[i].wdata);
        return;
    }
    /* the test that must see every drop (badentries) on small tables (TAG_W 1: two tags; one data VC on 3
     * ports: nine VC entries) keeps what each drop needs: a tag routed and one not (drop_route), and on a
     * routed output a good VC entry (trunc) and a bad one (drop_vc); other draws are left as they are */
    const int need = d->tables == TB_RANDOM && (d->checks & CK_DROPS) && nt > 1;
    unsigned outs = 0; /* the outputs some tag is routed to */
    int dropped = 0;
    for (unsigned t = 0; t < nt; t++) {
        unsigned e = d->tables == TB_RANDOM ? entry_random(b, n, d->bad_pct) : 0x8000u | (t % n);
        tr_queue_write(b, VCSW_CFG_ADDR(VCSW_SPACE_ROUTE, t), (uint16_t)e);
        if ((e & 0x8000u) && (e & 15u) < n)
            outs |= 1u << (e & 15u);
        else
            dropped = 1;
    }
    if (need && !outs) {
        tr_queue_write(b, VCSW_CFG_ADDR(VCSW_SPACE_ROUTE, nt - 1), (uint16_t)(0x8000u | ((nt - 1) % n)));
        outs = 1u << ((nt - 1) % n);
    }
    if (need && !dropped)
        tr_queue_write(b, VCSW_CFG_ADDR(VCSW_SPACE_ROUTE, 0), 0);
    int vc_good = 0, vc_bad = 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned o = 0; o < n; o++)
            for (unsigned dv = 0; dv < b->ndvc; dv++) {
                unsigned e;
                if (d->tables == TB_RANDOM)
                    e = entry_random(b, b->ndvc, d->bad_pct);
                else if (d->traffic == TR_PERM)
                    e = 0x8000u | dv; /* one stream per output VC */
                else
                    e = 0x8000u | ((dv + i + o) % b->ndvc);
                tr_queue_write(b, VCSW_CFG_ADDR(VCSW_SPACE_VC, VCSW_VC_INDEX(i, o, dv)), (uint16_t)e);
                if ((outs >> o) & 1u) {
                    if ((e & 0x8000u) && (e & 15u) < b->ndvc)
                        vc_good = 1;
                    else
                        vc_bad = 1;
                }
            }
    unsigned o1 = 0; /* the first routed output */
    while (outs && !((outs >> o1) & 1u))
        o1++;
    if (need && !vc_good)
        for (unsigned i = 0; i < n; i++) /* every input's entries of VC 0 to it */
            tr_queue_write(b, VCSW_CFG_ADDR(VCSW_SPACE_VC, VCSW_VC_INDEX(i, o1, 0)), 0x8000u);
    if (need && !vc_bad) /* the last input's on its last data VC */
        tr_queue_write(b, VCSW_CFG_ADDR(VCSW_SPACE_VC, VCSW_VC_INDEX(n - 1, o1, b->ndvc - 1)), 0);
}

/* The heads of a STOP-ignoring source repeat only every 256 packets or more: the sequence bits
 * the head carries above tag, source and VC (at least 2), times the tags that reach outputs 0 and 1
 * (make_packet cycles them). */
int tr_heads_distinct(const bench_t *b)
{
    const int sbits = (int)b->p->FLIT_W - (int)b->p->TAG_W - (int)(b->pb + b->vcw);
    const unsigned per = (1u << b->p->TAG_W) / b->n;
    return sbits >= 2 && ((uint64_t)per << (sbits < 16 ? sbits : 16)) >= 256;
}

void tr_setup(bench_t *b)
{
    const test_desc_t *d = b->d;
    const unsigned n = b->n, ns = n * b->nvc;
    /* permutation: every VC of input p to output (p + shift) % n (docs/vcsw.md, Latency and throughput) */
    const unsigned shift = 1 + rng_below(&b->rng, n - 1);
    for (unsigned s = 0; s < ns; s++) {
        b->load_pct[s] = d->load_lo + (d->load_hi > d->load_lo ? rng_below(&b->rng, d->load_hi - d->load_lo + 1) : 0);
        b->perm_dst[s] = (s / b->nvc + shift) % n;
    }
    for (unsigned p = 0; p < n; p++)
        b->bubble_pct[p] = d->bubble_max ? rng_below(&b->rng, d->bubble_max + 1) : 0;
    /* STOP-ignoring sources need heads that tell their packets apart: whole packets may vanish at
     * a full buffer (see tr_heads_distinct) */
    for (unsigned k = 0; k < d->ignore && k < ns && tr_heads_distinct(b); k++) /* spread over ports and VCs, */
        b->src[k + 1 == d->ignore ? ns - 1 : (k * 5 + 1) % ns].ignore_stop = 1; /* the last one: the highest slot */
    for (unsigned o = 0; o < n; o++)
        for (unsigned u = 0; u < b->nvc; u++)
            b->stop_duty[o][u] = (uint8_t)(d->stop_duty ? rng_below(&b->rng, d->stop_duty + 1) : 0);
    if (d->ignore) /* the ignoring sources' outputs are slow: hold STOP long on every VC of output 0 and 1 */
        for (unsigned o = 0; o < 2 && o < n; o++)
            for (unsigned u = 0; u < b->nvc; u++)
                b->stop_duty[o][u] = 70;
}

/* valid (tag) choices of source s from the loaded file: tags whose route has a VC entry for s */
static int file_tag(bench_t *b, unsigned s, unsigned *tag)
{
    const unsigned p = s / b->nvc, v = s % b->nvc;
    const unsigned dv = b->p->CTRL && v >= b->ndvc ? v - b->ndvc : v;
    const unsigned nt = 1u << b->p->TAG_W;
    /* a few random probes: a valid pair among the file's tags */
    for (int tries = 0; tries < 24; tries++) {
        unsigned t = rng_below(&b->rng, b->file && b->file->tags && b->file->tags < nt ? b->file->tags : nt);
        uint8_t r = b->sh.route[t];
        if (!(r & 0x80u) || (r & 15u) >= b->n)
            continue;
        if (b->sh.vct[p][r & 15u][dv] & 0x80u) {
            *tag = t;
            return 1;
        }
    }
    return 0;
}

static unsigned pick_len(bench_t *b)
{
    const unsigned ml = b->p->MAXLEN;
    unsigned len;
    switch (b->d->len) {
    case LEN_ONE: return 1;
    case LEN_MAX: len = ml; break;
    case LEN_SHORT: len = 1 + rng_below(&b->rng, ml < 4 ? ml : 4); break;
    case LEN_MIXED:
    default: {
        unsigned r = rng_below(&b->rng, 100);
        len = r < 20 ? 1 : r < 70 ? 1 + rng_below(&b->rng, ml / 2 + 1) : 1 + rng_below(&b->rng, ml);
        if (len > ml)
            len = ml;
    }
    }
    if (b->d->over_pm && rng_below(&b->rng, 1000) < b->d->over_pm) /* STOP-ignoring sources too */
        len = ml + 1 + rng_below(&b->rng, ml + 2);
    return len;
}

static void make_packet(bench_t *b, unsigned s)
{
    const unsigned nt = 1u << b->p->TAG_W, n = b->n;
    unsigned tag, len = pick_len(b);
    switch (b->d->traffic) {
    case TR_PERM: tag = b->perm_dst[s]; break;
    case TR_FAIR:
    case TR_HOT: tag = rng_below(&b->rng, 2) % n; break;
    case TR_ROUTES:
        if (rng_pct(&b->rng, 95)) {
            if (file_tag(b, s, &tag))
                break;
            if (!rng_pct(&b->rng, 10))
                return; /* a (port, VC) no route uses: seldom */
        }
        tag = rng_below(&b->rng, nt);
        break;
    case TR_UNIFORM:
    case TR_LATENCY:
    default: tag = rng_below(&b->rng, nt); break;
    }
    if (b->src[s].ignore_stop && b->d->tables == TB_CLEAN) {
        /* towards the slow outputs 0 and 1; the tag also changes with the sequence number above the
         * bits the head carries, so that heads repeat only every (nt / n) * 16 packets */
        const unsigned sbits = b->p->FLIT_W - b->p->TAG_W - b->pb - b->vcw;
        tag = (unsigned)(((b->src[s].seq >> (sbits < 16 ? sbits : 16)) % (nt / n ? nt / n : 1)) * n +
                         rng_below(&b->rng, 2) % n);
        if (tag >= nt)
            tag = rng_below(&b->rng, 2) % n;
    } else if (b->src[s].ignore_stop && b->d->traffic == TR_UNIFORM) {
        /* random tables: the tag's low bits follow the sequence number above the bits the head carries
         * (16 values, or nt), its other bits random, so that heads repeat only every 256 packets or more */
        const unsigned sbits = b->p->FLIT_W - b->p->TAG_W - b->pb - b->vcw, lo = nt < 16 ? nt : 16;
        tag = rng_below(&b->rng, nt / lo) * lo + (unsigned)((b->src[s].seq >> (sbits < 16 ? sbits : 16)) % lo);
    }
    sb_new_packet(b, s, tag, len);
}

/* latency: one packet at a time on an idle switch, every input, output and VC in turn */
static void scen_latency(bench_t *b)
{
    if (b->lat.waiting) {
        if (!sb_idle(b) || !tr_hosts_idle(b) || b->quiet_steps < 2)
            return;
        b->lat.waiting = 0;
        b->lat.next_at = b->step + 1 + rng_below(&b->rng, 4);
    }
    if (b->step < b->lat.next_at)
        return;
    const unsigned n = b->n, k = (unsigned)b->lat.k++;
    unsigned p = k % n, o = (k / n) % n, v = (k / (n * n)) % b->nvc;
    unsigned len = k % 7 == 0 ? 1 : k % 7 == 1 ? b->p->MAXLEN : 1 + rng_below(&b->rng, b->p->MAXLEN);
    if (sb_new_packet(b, p * b->nvc + v, o, len))
        b->lat.waiting = 1;
}

static int gate_open(const bench_t *b, unsigned p, unsigned v)
{
    if (b->step <= b->ld + DOC_GS_LOOK)
        return 1; /* rx_stop after steps <= 0: the reset value 0 */
    uint64_t j = b->step - b->ld - DOC_GS_LOOK;
    return !((b->stop_hist[j % RING][p] >> v) & 1u);
}

int tr_hosts_idle(const bench_t *b)
{
    for (unsigned s = 0; s < b->n * b->nvc; s++)
        if (b->src[s].send != b->src[s].end)
            return 0;
    return 1;
}

void tr_release(bench_t *b)
{
    memset(b->stop_duty, 0, sizeof b->stop_duty);
    memset(b->stop_now, 0, sizeof b->stop_now);
    b->blockvc_on = 0;
}

/* a configuration request while traffic runs: rewrites and reads */
static void cfg_traffic(bench_t *b, vcsw_in_t *in)
{
    const test_desc_t *d = b->d;
    const unsigned nt = 1u << b->p->TAG_W, n = b->n;
    const int hold = b->hold_cfg; /* a reset is coming (combos test): rewrites only, no read */
    if (b->reread && !hold && !b->rd_out && rng_pct(&b->rng, 60)) {
        /* the entry written in the step before: the read must see the write (steps < r) */
        in->cfg_re = 1;
        in->cfg_addr = (uint16_t)(b->reread - 1);
        b->reread = 0;
        b->cov_reread++;
        return;
    }
    b->reread = 0;
    if (d->rewrite_pm && (rng_below(&b->rng, 1000) < d->rewrite_pm || (hold && rng_pct(&b->rng, 50)))) {
        /* rewrite an entry the next packet of some source will use */
        unsigned s = rng_below(&b->rng, n * b->nvc);
        const source_t *x = &b->src[s];
        b->force_src = x->send != x->end && x->ring[x->send % SRC_RING].sent == 0 ? s + 1 : 0;
        unsigned tag = x->send != x->end ? x->ring[x->send % SRC_RING].tag : rng_below(&b->rng, nt);
        if ((d->checks & CK_PAIRS) && (hold || rng_pct(&b->rng, 50))) {
            /* the combos test: often (always with a reset coming) an entry of a packet inside the switch
             * (it must keep its route) */
            int found = 0;
            for (unsigned j = 0; j < n * b->nvc && !found; j++) {
                const source_t *y = &b->src[(s + j) % (n * b->nvc)];
                for (uint32_t q = y->deliv; q != y->end; q++) { /* the one being sent too */
                    const pkt_t *pk = &y->ring[q % SRC_RING];
                    if (pk->sent && !pk->done) {
                        s = (s + j) % (n * b->nvc);
                        tag = pk->tag;
                        b->force_src = 0;
                        found = 1;
                        break;
                    }
                }
            }
        }
        in->cfg_we = 1;
        if (rng_pct(&b->rng, 60)) {
            in->cfg_addr = VCSW_CFG_ADDR(VCSW_SPACE_ROUTE, tag);
            in->cfg_wdata = (uint16_t)(d->tables == TB_RANDOM ? entry_random(b, n, d->bad_pct)
                                                              : 0x8000u | rng_below(&b->rng, n));
        } else {
            uint8_t r = b->sh.route[tag];
            unsigned o = (r & 0x80u) && (r & 15u) < n ? r & 15u : rng_below(&b->rng, n);
            unsigned v = s % b->nvc, dv = b->p->CTRL && v >= b->ndvc ? v - b->ndvc : v;
            in->cfg_addr = VCSW_CFG_ADDR(VCSW_SPACE_VC, VCSW_VC_INDEX(s / b->nvc, o, dv));
            in->cfg_wdata = (uint16_t)(d->tables == TB_RANDOM ? entry_random(b, b->ndvc, d->bad_pct)
                                                              : 0x8000u | rng_below(&b->rng, b->ndvc));
        }
        b->res->rewrites++;
        b->reread = hold ? 0u : in->cfg_addr + 1u;
        /* coverage: packets in flight whose route entry this is (they must keep their route) */
        for (unsigned k = 0; k < n * b->nvc; k++) {
            source_t *y = &b->src[k];
            int hit = 0;
            for (uint32_t j = y->deliv; j != y->end; j++) { /* the one being sent too */
                pkt_t *pk = &y->ring[j % SRC_RING];
                if (pk->sent && !pk->done && pk->tag == tag) {
                    /* (a dropped packet still being discarded counts for the combos test's coverage) */
                    if (!hit && pk->fate == F_DELIVER)
                        b->rewrites_inflight++;
                    hit |= pk->fate == F_DELIVER;
                    pk->faults |= 1u << FK_REWRITE;
                    bench_faults(b, pk->faults);
                }
            }
        }
        if (hold || !(d->checks & CK_CFG_ALL) || rng_pct(&b->rng, 80))
            return;
        in->cfg_re = 1; /* a read with the write: ignored */
        return;
    }
    if (hold)
        return;
    if (d->read_pm && rng_below(&b->rng, 1000) < d->read_pm) {
        if (b->rd_out && !rng_pct(&b->rng, 10))
            return; /* mostly wait for the answer; sometimes ask anyway (ignored) */
        unsigned r = rng_below(&b->rng, 100), idx;
        unsigned space = r < 35 ? 0 : r < 60 ? 1 : r < 92 ? 2 : 3;
        int out_of_range = rng_pct(&b->rng, 8);
        switch (space) {
        case 0: idx = out_of_range ? nt + rng_below(&b->rng, 0x4000 - nt + 1) % (0x4000 - nt + 1) : rng_below(&b->rng, nt);
            if (idx >= 0x4000)
                idx = 0x3FFF;
            break;
        case 1:
            idx = out_of_range ? rng_below(&b->rng, 0x4000)
                               : VCSW_VC_INDEX(rng_below(&b->rng, n), rng_below(&b->rng, n), rng_below(&b->rng, b->ndvc));
            break;
        case 2:
            idx = out_of_range ? rng_below(&b->rng, 0x4000)
                               : VCSW_CTR_INDEX(rng_below(&b->rng, n), rng_below(&b->rng, b->nvc),
                                                rng_below(&b->rng, VCSW_NCTR));
            break;
        default: idx = rng_below(&b->rng, 0x4000); break;
        }
        in->cfg_re = 1;
        in->cfg_addr = VCSW_CFG_ADDR(space, idx);
        if ((d->checks & CK_CFG_ALL) && rng_pct(&b->rng, 5)) {
            /* a write to the counters or to space 3: ignored (the read with it too) */
            in->cfg_we = 1;
            in->cfg_addr = VCSW_CFG_ADDR(rng_pct(&b->rng, 50) ? 2 : 3, idx);
            in->cfg_wdata = (uint16_t)rng_below(&b->rng, 0x10000);
        } else if ((d->checks & CK_CFG_ALL) && rng_pct(&b->rng, 3) && space < 2) {
            /* a write to an index outside its table: ignored */
            in->cfg_re = 0;
            in->cfg_we = 1;
            in->cfg_addr = VCSW_CFG_ADDR(space, space == 0 ? (nt < 0x4000 ? nt + rng_below(&b->rng, 0x4000 - nt) : 0)
                                                           : VCSW_VC_INDEX(n < 16 ? n : 0, 0, 0) | 0x3000u);
            in->cfg_wdata = (uint16_t)(0x8000u | rng_below(&b->rng, 16));
            if (space == 0 && nt >= 0x4000)
                in->cfg_we = 0;
        }
    }
}

/* the final read-out of every counter: the unread slot flushed soonest */
static void cfg_final(bench_t *b, vcsw_in_t *in)
{
    if (b->rd_out || !b->final_left)
        return;
    const unsigned ns = VCSW_NCTR * b->nvc * b->n;
    unsigned best = ns;
    uint64_t best_w = UINT64_MAX;
    for (unsigned k = 0; k < ns; k++) {
        unsigned s = (unsigned)((b->step + 1 + ns - DOC_FLUSH_OFF + k) % ns);
        if (b->final_done[s])
            continue;
        uint64_t w = bench_flush_step(b, s, b->step);
        if (w < best_w) {
            best_w = w;
            best = s;
        }
        break;
    }
    if (best == ns)
        return;
    b->final_done[best] = 1;
    b->final_left--;
    unsigned port = best / (VCSW_NCTR * b->nvc), vc = (best / VCSW_NCTR) % b->nvc, c = best % VCSW_NCTR;
    in->cfg_re = 1;
    in->cfg_addr = VCSW_CFG_ADDR(VCSW_SPACE_CTR, VCSW_CTR_INDEX(port, vc, c));
}

/* test reset: after the reset of a drained switch, every routing and VC entry read back in turn
 * (checked in vcsw_bench_check.c against the shadow: the entries as loaded, nothing written since) */
static void cfg_sweep(bench_t *b, vcsw_in_t *in)
{
    if (b->rd_out)
        return;
    const unsigned nt = 1u << b->p->TAG_W, i = b->sweep_pos++;
    in->cfg_re = 1;
    if (i < nt)
        in->cfg_addr = VCSW_CFG_ADDR(VCSW_SPACE_ROUTE, i);
    else {
        const unsigned j = i - nt, d = j % b->ndvc, o = (j / b->ndvc) % b->n, p = j / (b->ndvc * b->n);
        in->cfg_addr = VCSW_CFG_ADDR(VCSW_SPACE_VC, VCSW_VC_INDEX(p, o, d));
    }
    b->sweep_reads++;
    if (b->sweep_pos == b->sweep_n)
        b->sweep_n = b->sweep_pos = 0;
}

/* rst (test reset), before its first edge: the history of what the switch showed starts again at
 * step 0 (rx_stop after steps <= 0 is the reset value 0). The receivers keep their state. */
void tr_reset(bench_t *b)
{
    memset(b->stop_hist, 0, sizeof b->stop_hist);
    memset(b->txstop_hist, 0, sizeof b->txstop_hist);
    memset(b->last_write_step, 0, sizeof b->last_write_step);
    b->reread = 0;
    b->force_src = 0;
    b->quiet_steps = 0;
    b->last_rx_step = 0;
}

/* The inputs of an edge with rst high: random flits on every input and random stop bits, which the
 * switch must ignore (after the edge it holds no flits, docs/vcsw.md Steps); no configuration
 * request (a table write with rst high is left undefined by the doc). */
void tr_reset_inputs(bench_t *b, vcsw_in_t *in)
{
    memset(in, 0, sizeof *in);
    const uint32_t fm = b->p->FLIT_W >= 32 ? 0xFFFFFFFFu : (1u << b->p->FLIT_W) - 1u;
    for (unsigned p = 0; p < b->n; p++) {
        if (rng_pct(&b->rng, 70)) {
            in->rx[p].valid = 1;
            in->rx[p].vc = (uint8_t)rng_below(&b->rng, b->nvc);
            in->rx[p].tail = (uint8_t)rng_below(&b->rng, 2);
            in->rx[p].data = (uint32_t)rng_next(&b->rng) & fm;
        }
        in->tx_stop[p] = (uint16_t)(rng_below(&b->rng, 1u << b->nvc));
    }
}

/* The inputs of the current step: tx_stop, flits, configuration. */
void tr_inputs(bench_t *b, vcsw_in_t *in)
{
    const unsigned n = b->n, nvc = b->nvc;
    const test_desc_t *d = b->d;
    memset(in, 0, sizeof *in);
    /* receivers */
    const unsigned burst = d->stop_burst ? d->stop_burst : 20;
    for (unsigned o = 0; o < n; o++) {
        uint16_t bits = 0;
        for (unsigned u = 0; u < nvc; u++) {
            unsigned duty = b->stop_duty[o][u];
            if (duty) {
                if (b->stop_now[o][u])
                    b->stop_now[o][u] = !rng_pct(&b->rng, 100 / burst ? 100 / burst : 1);
                else
                    b->stop_now[o][u] = rng_below(&b->rng, 100 * burst * (100 - duty + 1)) < 100 * duty;
            } else
                b->stop_now[o][u] = 0;
            if (b->stop_now[o][u] || (b->blockvc_on && u == b->blockvc_u))
                bits |= (uint16_t)(1u << u);
        }
        in->tx_stop[o] = bits;
        b->txstop_hist[b->step % RING][o] = bits;
    }
    /* sources */
    if (b->generate) {
        if (d->traffic == TR_LATENCY)
            scen_latency(b);
        else
            for (unsigned s = 0; s < n * nvc; s++)
                if (b->src[s].end - b->src[s].send < 2 && b->load_pct[s] && rng_pct(&b->rng, b->load_pct[s]))
                    make_packet(b, s);
    }
    /* hosts */
    for (unsigned p = 0; p < n; p++) {
        unsigned cand[VCSW_MAX_VCS], nc = 0;
        for (unsigned v = 0; v < nvc; v++) {
            source_t *x = &b->src[p * nvc + v];
            if (x->send == x->end)
                continue;
            const pkt_t *k = &x->ring[x->send % SRC_RING];
            if (k->sent == 0) {
                if (!x->ignore_stop && !gate_open(b, p, v))
                    continue;
                if (d->traffic == TR_FAIR && x->flits_sent - b->popped_seen[p * nvc + v] > 2)
                    continue;
            }
            cand[nc++] = v;
        }
        if (!nc || (b->bubble_pct[p] && rng_pct(&b->rng, b->bubble_pct[p])))
            continue;
        unsigned v = cand[rng_below(&b->rng, nc)], s = p * nvc + v;
        for (unsigned j = 0; j < nc; j++) {
            const unsigned c = p * nvc + cand[j];
            /* the source whose entry was just rewritten goes first (a head right after the write);
             * a STOP-ignoring source mostly goes first (it must overflow) */
            if ((b->force_src && c + 1 == b->force_src) || (b->src[c].ignore_stop && rng_pct(&b->rng, 75))) {
                v = cand[j];
                s = c;
                break;
            }
        }
        source_t *x = &b->src[s];
        pkt_t *k = &x->ring[x->send % SRC_RING];
        unsigned i = k->sent;
        vcsw_flit_t *f = &in->rx[p];
        f->valid = 1;
        f->vc = (uint8_t)v;
        f->tail = i + 1 == k->len;
        f->data = sb_flit_data(b, s, k, i);
        b->last_rx_step = b->step;
        sb_flit_in(b, p, f, s, k, i);
        if (f->tail)
            x->send++;
        if (i == 0 && (b->last_write_step[0][k->tag] + 1 == b->step)) {
            b->rewrites_next++;
            k->faults |= 1u << FK_REWRITE;
            bench_faults(b, k->faults);
        }
    }
    b->force_src = 0;
    /* configuration */
    if (b->wq_pos < b->wq_n) {
        in->cfg_we = 1;
        in->cfg_addr = b->wq[b->wq_pos].addr;
        in->cfg_wdata = b->wq[b->wq_pos].wdata;
        b->wq_pos++;
    } else if (b->final_phase)
        cfg_final(b, in);
    else if (b->sweep_n && !b->hold_cfg)
        cfg_sweep(b, in);
    else if (b->generate && (!b->hold_cfg || (d->checks & CK_PAIRS)))
        cfg_traffic(b, in); /* with a reset coming, the combos test's rewrites only */
}

void tr_after(bench_t *b, const vcsw_out_t *out)
{
    for (unsigned p = 0; p < b->n; p++)
        b->stop_hist[b->step % RING][p] = out->rx_stop[p];
}

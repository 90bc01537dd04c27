/* sanfab — cycle-exact C model of the source-routed wormhole crossbar.
 *
 * Every field below is a register of rtl/xbar/ with the same name (without the _q suffix);
 * xbar_step() computes the next value of every register from the current values and the
 * inputs, exactly as the RTL's combinational blocks do, and then commits them all at once.
 */
#include "xbar.h"
#include "link.h"

#include <stdlib.h>
#include <string.h>

/* Slack-buffer entry kinds (bits 9..8 of an entry; bits 7..0 are a byte). */
enum { K_DATA = 0, K_LAST = 1, K_HDR = 2, K_ABORT = 3 };
#define ENT(kind, byte) ((uint16_t)(((unsigned)(kind) << 8) | ((unsigned)(byte) & 0xFFu)))
#define ENT_KIND(e) (((unsigned)(e) >> 8) & 3u)
#define ENT_BYTE(e) ((uint8_t)((e) & 0xFFu))

/* Read-side states of an input. */
enum { RS_IDLE = 0, RS_HDR = 1, RS_BOUND = 2, RS_DRAIN = 3 };

typedef struct {
    /* ingress (write side) */
    uint8_t in_pkt, ih_v, ih_d, crc_chk, crc_fwd, err;
    uint8_t dropping; /* this packet found no room for its header: all of it is discarded */
    /* slack buffer: memory pointers, BRAM read register (s1), head register (h) */
    uint8_t wr_ptr, rd_ptr, s1_v, h_v;
    uint16_t s1_d, h_d, occ;
    /* read side */
    uint8_t rs, hdr_port, want; /* hdr_port: the header's output (one-hot hdr_oh in the RTL), kept while bound */
    uint8_t abort_q;   /* the bound packet must be closed with ABORT (registered request to the output) */
    uint16_t rdly;
    uint32_t tmo;
    uint32_t ctr[XBAR_NCTR]; /* events so far (xbar_counter); the register port reads the RAM below */
} xin_t;

typedef struct {
    uint8_t busy, owner, abort_pend, gap_pend, stop, free_, ann, rr;
    uint16_t tx;
    uint16_t dl[XBAR_MAX_LINK_DELAY];
} xout_t;

struct xbar {
    xbar_params_t p;
    unsigned aw_mask; /* slack memory is 2^AW entries, AW = clog2(SLACK_DEPTH + 1) */
    xin_t in[XBAR_MAX_PORTS];
    xout_t out[XBAR_MAX_PORTS];
    uint16_t mem[XBAR_MAX_PORTS][XBAR_MAX_SLACK + 1];
    /* counters (rtl/xbar/xbar_counters.v): RAM words, pending counts, flusher, read request */
    unsigned ns, pend_mask; /* pending counts hold 0..ns (the RTL keeps them as LFSR states) */
    uint32_t cram[XBAR_MAX_PORTS * XBAR_NCTR];
    uint16_t pend[XBAR_MAX_PORTS * XBAR_NCTR];
    uint8_t ev_q[XBAR_MAX_PORTS * XBAR_NCTR]; /* last cycle's events (registered on the way in) */
    unsigned fl, rd_slot, wr_slot, rq_slot;
    uint8_t init, rd_v, rd_init, wr_v, wr_init, rq_v, rvalid;
    uint16_t rd_snap, snap;
    uint32_t ram_q, word_q, rdata;
};

static unsigned clog2u(unsigned v)
{
    unsigned w = 0;
    while ((1u << w) < v)
        w++;
    return w;
}

xbar_params_t xbar_default_params(void)
{
    xbar_params_t p = {.NPORTS = 8, .SLACK_DEPTH = 80, .STOP_THRESH = 56, .GO_THRESH = 40,
                       .ROUTE_DELAY = 0, .LINK_DELAY = 0, .TIMEOUT = 4096};
    return p;
}

const char *xbar_params_check(const xbar_params_t *p)
{
    if (p->NPORTS < 2 || p->NPORTS > XBAR_MAX_PORTS)
        return "NPORTS must be 2..16";
    if (p->SLACK_DEPTH < 4 || p->SLACK_DEPTH > XBAR_MAX_SLACK - 1)
        return "SLACK_DEPTH must be 4..255";
    if (p->STOP_THRESH > p->SLACK_DEPTH || p->STOP_THRESH == 0)
        return "STOP_THRESH must be 1..SLACK_DEPTH";
    if (p->GO_THRESH >= p->STOP_THRESH)
        return "GO_THRESH must be below STOP_THRESH";
    if (p->ROUTE_DELAY > 255)
        return "ROUTE_DELAY must be 0..255";
    if (p->LINK_DELAY > XBAR_MAX_LINK_DELAY)
        return "LINK_DELAY must be 0..64";
    if (p->TIMEOUT > 0xFFFFFFu)
        return "TIMEOUT must be 0..16777215";
    return NULL;
}

static const char *const ctr_names[XBAR_NCTR] = {
    "rx_pkts", "rx_bytes", "tx_pkts", "tx_bytes", "crc_err",
    "drop_route", "drop_timeout", "malformed", "overflow"};

const char *xbar_counter_name(unsigned ctr) { return ctr < XBAR_NCTR ? ctr_names[ctr] : "?"; }

xbar_t *xbar_new(const xbar_params_t *p)
{
    if (!p || xbar_params_check(p))
        return NULL;
    xbar_t *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->p = *p;
    unsigned aw = 0;
    while ((1u << aw) < p->SLACK_DEPTH + 1u)
        aw++;
    m->aw_mask = (1u << aw) - 1u;
    m->ns = p->NPORTS * XBAR_NCTR;
    m->pend_mask = (1u << clog2u(m->ns + 2)) - 1u;
    xbar_reset(m);
    return m;
}

void xbar_free(xbar_t *m) { free(m); }

void xbar_reset(xbar_t *m)
{
    memset(m->in, 0, sizeof m->in);
    memset(m->out, 0, sizeof m->out);
    for (unsigned i = 0; i < XBAR_MAX_PORTS; i++) {
        m->out[i].tx = CH_IDLE;
        for (unsigned k = 0; k < XBAR_MAX_LINK_DELAY; k++)
            m->out[i].dl[k] = CH_IDLE;
    }
    /* slack memory is not reset in the RTL (block RAM); its contents are never read before written */
    memset(m->cram, 0, sizeof m->cram); /* the RTL clears them in its first rotation */
    memset(m->pend, 0, sizeof m->pend);
    memset(m->ev_q, 0, sizeof m->ev_q);
    m->fl = m->rd_slot = m->wr_slot = m->rq_slot = 0;
    m->init = 1;
    m->rd_v = m->rd_init = m->wr_v = m->wr_init = m->rq_v = m->rvalid = 0;
    m->rd_snap = m->snap = 0;
    m->ram_q = m->word_q = m->rdata = 0;
}

uint32_t xbar_counter(const xbar_t *m, unsigned port, unsigned ctr)
{
    if (port >= m->p.NPORTS || ctr >= XBAR_NCTR)
        return 0;
    return m->in[port].ctr[ctr];
}

/* Route byte -> port, or -1 if it names no port of this switch. */
static int route_port(const xbar_t *m, uint8_t b)
{
    if (!ROUTE_IS_ROUTE(b))
        return -1;
    unsigned port = ROUTE_PORT(b);
    return port < m->p.NPORTS ? (int)port : -1;
}

void xbar_step(xbar_t *m, const xbar_in_t *in, xbar_out_t *out)
{
    const xbar_params_t *P = &m->p;
    const unsigned N = P->NPORTS;
    xin_t ni[XBAR_MAX_PORTS];
    xout_t no[XBAR_MAX_PORTS];
    memcpy(ni, m->in, sizeof(xin_t) * N);
    for (unsigned i = 0; i < N; i++) {
        no[i] = m->out[i];
    }

    /* ---- arbitration: one header per output, round robin from rr ---- */
    int grant_in[XBAR_MAX_PORTS]; /* output granted to input i, or -1 */
    for (unsigned i = 0; i < N; i++)
        grant_in[i] = -1;
    for (unsigned p = 0; p < N; p++) {
        const xout_t *o = &m->out[p];
        if (o->busy)
            continue;
        for (unsigned k = 0; k < N; k++) {
            unsigned i = (o->rr + k) % N;
            const xin_t *x = &m->in[i];
            if (x->rs == RS_HDR && x->hdr_port == p && x->rdly >= P->ROUTE_DELAY) {
                grant_in[i] = (int)p;
                no[p].busy = 1;
                no[p].owner = (uint8_t)i;
                no[p].rr = (uint8_t)((i + 1) % N);
                break;
            }
        }
    }

    /* ---- per input: ingress, read side, slack buffer ---- */
    for (unsigned i = 0; i < N; i++) {
        const xin_t *x = &m->in[i];
        xin_t *n = &ni[i];
        n->abort_q = 0;
        uint16_t c = in->rx[i] & 0x1FFu;

        /* ingress: data and headers keep one slot free, so an open packet's end always fits */
        const int full = x->occ >= P->SLACK_DEPTH, full_data = x->occ >= P->SLACK_DEPTH - 1;
        int wr = 0, wr_end = 0, bypass = 0;
        uint16_t went = 0;
        if (!CH_IS_DATA(c)) {
            switch (c) {
            case CH_IDLE:
                break;
            case CH_STOP:
                no[i].stop = 1;
                break;
            case CH_GO:
                no[i].stop = 0;
                break;
            case CH_GAP:
            case CH_ABORT:
                if (x->in_pkt) {
                    n->in_pkt = 0;
                    n->ih_v = 0;
                    n->ctr[XBAR_CTR_RX_PKTS]++;
                    wr = 1;
                    wr_end = 1;
                    n->dropping = 0;
                    if (c == CH_GAP && x->ih_v) {
                        int bad = x->crc_chk != 0 || x->err;
                        if (x->crc_chk != 0 && x->crc_chk != CRC8_MARKED_RESIDUE)
                            n->ctr[XBAR_CTR_CRC_ERR]++;
                        went = ENT(K_LAST, x->crc_fwd ^ (bad ? 0xFFu : 0u));
                    } else {
                        if (c == CH_GAP)
                            n->ctr[XBAR_CTR_MALFORMED]++;
                        went = ENT(K_ABORT, 0);
                    }
                }
                break;
            default:
                n->ctr[XBAR_CTR_MALFORMED]++;
                if (x->in_pkt)
                    n->err = 1;
                break;
            }
        } else {
            uint8_t d = (uint8_t)c;
            n->ctr[XBAR_CTR_RX_BYTES]++;
            if (!x->in_pkt) {
                n->in_pkt = 1;
                n->err = 0;
                n->crc_chk = crc8_step(0, d);
                n->crc_fwd = 0;
                n->ih_v = 0;
                if (x->rs == RS_IDLE && x->occ == 0)
                    bypass = 1;
                else {
                    wr = 1;
                    went = ENT(K_HDR, d);
                    n->dropping = (uint8_t)full_data;
                }
            } else {
                n->crc_chk = crc8_step(x->crc_chk, d);
                if (x->ih_v) {
                    wr = 1;
                    went = ENT(K_DATA, x->ih_d);
                    if (!full_data && !x->dropping) /* the regenerated CRC covers only forwarded bytes */
                        n->crc_fwd = crc8_step(x->crc_fwd, x->ih_d);
                }
                n->ih_v = 1;
                n->ih_d = d;
            }
        }
        if (wr && (wr_end ? (full || x->dropping) : (full_data || x->dropping))) {
            wr = 0;
            n->ctr[XBAR_CTR_OVERFLOW]++;
            if (n->in_pkt)
                n->err = 1;
        }

        /* read side */
        int pop = 0;
        unsigned hk = ENT_KIND(x->h_d);
        int hdr_load = 0;
        uint8_t hdr_byte = 0;
        switch (x->rs) {
        case RS_IDLE:
            if (x->h_v) {
                pop = 1;
                if (hk == K_HDR) {
                    hdr_load = 1;
                    hdr_byte = ENT_BYTE(x->h_d);
                }
            } else if (bypass) {
                hdr_load = 1;
                hdr_byte = (uint8_t)c;
            }
            break;
        case RS_HDR:
            if (grant_in[i] >= 0) {
                n->rs = RS_BOUND;
                n->tmo = 0;
            } else {
                if (x->rdly < P->ROUTE_DELAY)
                    n->rdly = (uint16_t)(x->rdly + 1);
                if (P->TIMEOUT && x->tmo == P->TIMEOUT - 1) {
                    n->rs = RS_DRAIN;
                    n->tmo = 0;
                    n->ctr[XBAR_CTR_DROP_TIMEOUT]++;
                } else
                    n->tmo = x->tmo + 1;
            }
            break;
        case RS_BOUND:
            if (x->h_v && hk == K_HDR) { /* the packet's end was lost: close it */
                n->rs = RS_IDLE;
                n->abort_q = 1;
            } else if (x->h_v && m->out[x->hdr_port].free_) {
                pop = 1;
                n->tmo = 0;
                if (hk == K_LAST || hk == K_ABORT)
                    n->rs = RS_IDLE;
            } else if (P->TIMEOUT && x->tmo == P->TIMEOUT - 1) {
                n->rs = RS_DRAIN;
                n->tmo = 0;
                n->abort_q = 1;
                n->ctr[XBAR_CTR_DROP_TIMEOUT]++;
            } else
                n->tmo = x->tmo + 1;
            break;
        default: /* RS_DRAIN */
            if (x->h_v) {
                if (hk == K_HDR)
                    n->rs = RS_IDLE;
                else {
                    pop = 1;
                    if (hk == K_LAST || hk == K_ABORT)
                        n->rs = RS_IDLE;
                }
            }
            break;
        }
        if (hdr_load) {
            int port = route_port(m, hdr_byte);
            n->hdr_port = (uint8_t)(port < 0 ? 0 : port);
            n->rdly = 0;
            n->tmo = 0;
            if (port >= 0)
                n->rs = RS_HDR;
            else {
                n->rs = RS_DRAIN;
                n->ctr[XBAR_CTR_DROP_ROUTE]++;
            }
        }

        /* slack buffer (FWFT: block RAM, its read register s1, head register h) */
        unsigned mask = m->aw_mask;
        int mem_ne = x->wr_ptr != x->rd_ptr;
        int h_free = !x->h_v || pop;
        int s1_to_h = x->s1_v && h_free;
        int rd_en = mem_ne && (!x->s1_v || s1_to_h);
        int to_h = wr && !mem_ne && !x->s1_v && h_free;
        if (s1_to_h) {
            n->h_d = x->s1_d;
            n->h_v = 1;
        } else if (to_h) {
            n->h_d = went;
            n->h_v = 1;
        } else if (pop)
            n->h_v = 0;
        if (rd_en) {
            n->s1_d = m->mem[i][x->rd_ptr];
            n->s1_v = 1;
        } else if (s1_to_h)
            n->s1_v = 0;
        /* every write goes into the RAM; one that also went straight to the head is skipped by
         * the read pointer at once (to_h and rd_en never coincide) */
        if (rd_en || to_h)
            n->rd_ptr = (uint8_t)((x->rd_ptr + 1u) & mask);
        if (wr) {
            m->mem[i][x->wr_ptr] = went; /* never the address read above: that one holds data */
            n->wr_ptr = (uint8_t)((x->wr_ptr + 1u) & mask);
        }
        n->occ = (uint16_t)(x->occ + (wr ? 1 : 0) - (pop ? 1 : 0));

        /* STOP/GO wanted for this input's slack buffer (hysteresis on the registered occupancy) */
        if (x->occ >= P->STOP_THRESH)
            n->want = 1;
        else if (x->occ <= P->GO_THRESH)
            n->want = 0;
    }

    /* ---- per output: transmit one character ---- */
    for (unsigned p = 0; p < N; p++) {
        const xout_t *o = &m->out[p];
        xout_t *n = &no[p];
        const xin_t *ow = &m->in[o->owner];
        int take = o->busy && !o->abort_pend && ow->rs == RS_BOUND && ow->h_v &&
                   ENT_KIND(ow->h_d) != K_HDR && o->free_;
        int gap_now = o->gap_pend && !o->stop;
        int fc_send = !o->free_ && !gap_now && m->in[p].want != o->ann;
        int abort_now = o->abort_pend && !o->stop && !gap_now && !fc_send;
        uint16_t tx = CH_IDLE;
        xin_t *cnt = &ni[p];
        if (take) {
            unsigned k = ENT_KIND(ow->h_d);
            if (k == K_ABORT) {
                tx = CH_ABORT;
                n->busy = 0;
                cnt->ctr[XBAR_CTR_TX_PKTS]++;
            } else {
                tx = ENT_BYTE(ow->h_d);
                cnt->ctr[XBAR_CTR_TX_BYTES]++;
                if (k == K_LAST) {
                    n->busy = 0;
                    n->gap_pend = 1;
                }
            }
        } else if (gap_now) {
            tx = CH_GAP;
            n->gap_pend = 0;
            cnt->ctr[XBAR_CTR_TX_PKTS]++;
        } else if (fc_send) {
            tx = m->in[p].want ? CH_STOP : CH_GO;
            n->ann = m->in[p].want;
        } else if (abort_now) {
            tx = CH_ABORT;
            n->abort_pend = 0;
            n->busy = 0;
            cnt->ctr[XBAR_CTR_TX_PKTS]++;
        }
        if (o->busy && !o->abort_pend && m->in[o->owner].abort_q)
            n->abort_pend = 1;
        n->tx = tx;
        /* the next cycle's data slot is free unless stopped, a GAP is still owed, or STOP/GO is owed */
        n->free_ = !n->stop && !(o->gap_pend && o->stop) && ni[p].want == n->ann;
        /* cable delay line */
        for (unsigned k = P->LINK_DELAY; k-- > 1;)
            n->dl[k] = o->dl[k - 1];
        if (P->LINK_DELAY)
            n->dl[0] = o->tx;
    }

    /* ---- counters: this cycle's events per slot, then the flusher and the read port ---- */
    const unsigned NS = m->ns;
    uint32_t wdata = (m->wr_init ? 0u : m->word_q) + m->snap;
    uint8_t rvalid = 0, rq_v = m->rq_v;
    uint32_t rdata = 0;
    unsigned rq_slot = m->rq_slot;
    if (m->rq_v && m->wr_v && m->wr_slot == m->rq_slot) {
        rq_v = 0;
        rvalid = 1;
        rdata = wdata;
    } else if (!m->rq_v && in->reg_rd) {
        unsigned port = in->reg_addr >> 4, ctr = in->reg_addr & 15u;
        if (port < N && ctr < XBAR_NCTR) {
            rq_v = 1;
            rq_slot = port * XBAR_NCTR + ctr;
        } else
            rvalid = 1;
    }
    uint16_t snap = m->pend[m->fl];
    uint32_t ram_q = m->cram[m->fl];
    if (m->wr_v)
        m->cram[m->wr_slot] = wdata;
    for (unsigned i = 0; i < N; i++)
        for (unsigned c = 0; c < XBAR_NCTR; c++) {
            unsigned s = i * XBAR_NCTR + c;
            unsigned ev = m->ev_q[s];
            m->pend[s] = (uint16_t)((s == m->fl ? ev : m->pend[s] + ev) & m->pend_mask);
            m->ev_q[s] = (uint8_t)(ni[i].ctr[c] - m->in[i].ctr[c]); /* 0 or 1 */
        }
    m->wr_slot = m->rd_slot;
    m->wr_v = m->rd_v;
    m->wr_init = m->rd_init;
    m->snap = m->rd_snap;
    m->word_q = m->ram_q;
    m->rd_slot = m->fl;
    m->rd_v = 1;
    m->rd_init = m->init;
    m->rd_snap = snap;
    m->ram_q = ram_q;
    if (m->fl == NS - 1) {
        m->fl = 0;
        m->init = 0;
    } else
        m->fl++;
    m->rq_v = rq_v;
    m->rq_slot = rq_slot;

    /* ---- commit ---- */
    memcpy(m->in, ni, sizeof(xin_t) * N);
    for (unsigned p = 0; p < N; p++)
        m->out[p] = no[p];
    m->rvalid = rvalid;
    m->rdata = rdata;

    memset(out, 0, sizeof *out);
    for (unsigned p = 0; p < XBAR_MAX_PORTS; p++)
        out->tx[p] = CH_IDLE;
    for (unsigned p = 0; p < N; p++)
        out->tx[p] = P->LINK_DELAY ? m->out[p].dl[P->LINK_DELAY - 1] : m->out[p].tx;
    out->reg_rvalid = m->rvalid;
    out->reg_rdata = m->rdata;
}

/* sanfab — cycle-exact C model of the source-routed wormhole crossbar, written from docs/xbar.md
 * (the v2 contract), not from the RTL. Section names below are the doc's.
 *
 * One xbar_step() is one step k. Every register value of step k is computed from the registers of
 * step k-1 and the inputs of step k. The stages run in the order ingress + read side (per input),
 * output (per output), counters, register port, cable; whatever one block reads of another block's
 * step-(k-1) registers is either read before that block is updated in this step (outputs' gp and
 * mp, read by the inputs, which run first) or taken into a small snapshot (`prev_t`) at the start
 * of the step (inputs' occ, xf, ab, req, read by the outputs).
 *
 * Doc readings the model had to choose (also listed in the lead's report) are marked "DOC:".
 */
#include "xbar.h"

#include "ctr_sched.h"
#include "link.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ assertions */

#ifdef SANFAB_ASSERT
#define XASSERT(m, cond, port, ...)                                                                    \
    do {                                                                                               \
        if (!(cond)) {                                                                                 \
            fprintf(stderr, "xbar model: assertion failed at step %llu, port %u: ",                    \
                    (unsigned long long)(m)->step, (unsigned)(port));                                  \
            fprintf(stderr, __VA_ARGS__);                                                              \
            fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__);                                         \
            abort();                                                                                   \
        }                                                                                              \
    } while (0)
#else
#define XASSERT(m, cond, port, ...) ((void)0)
#endif


/* ------------------------------------------------------------------ state */

/* slack-buffer entry: {kind[1:0], byte[7:0]} */
enum { K_DATA = 0, K_LAST = 1, K_HDR = 2, K_ABORT = 3 };
#define ENT(kind, b) ((uint16_t)(((unsigned)(kind) << 8) | ((unsigned)(b) & 0xFFu)))
#define ENT_KIND(e) ((unsigned)(e) >> 8)
#define ENT_BYTE(e) ((uint8_t)((e) & 0xFFu))
#define ENT_IS_END(e) (ENT_KIND(e) == K_LAST || ENT_KIND(e) == K_ABORT)

/* read-side states */
enum { RS_IDLE = 0, RS_HDR, RS_BOUND, RS_DRAIN };

#define RING_MIN 256 /* slack-buffer ring: a power of 2 above SLACK_DEPTH, at least this */

typedef struct {
    /* ingress */
    uint8_t in_pkt, ih, ih_v, crc_chk, crc_fwd, err, dropping;
    /* slack buffer: a ring of entries, each with the step it was written; the head register is
     * not stored but derived from the doc's head-timing rule (fifo_head) */
    uint16_t rd, wr; /* ring indices (modulo the ring size, m->rmask + 1) */
    uint16_t occ;
    uint64_t last_pop; /* step of the latest pop (0: none since reset) */
    /* read side */
    uint8_t state, hdr, rdly;
    uint32_t tmo;
    uint8_t xf_v; /* transfer register: valid + entry */
    uint16_t xf;
    uint8_t ab; /* abort request */
    uint16_t *ent;   /* the ring's entries and the step each was written */
    uint64_t *wstep;
} xin_t;

typedef struct {
    uint8_t busy, rr, qn, gap, abt, stop, want, ann, av;
    uint32_t own, gp, mp; /* one-hot / masks over the inputs (bit i = input i, up to 32 ports) */
    uint16_t q[2];        /* queue, q[0] its head */
    uint16_t tx;          /* transmit register */
    uint16_t cable[XBAR_MAX_LINK_DELAY];
} xout_t;

struct xbar {
    xbar_params_t p;
    uint64_t step;
    /* counters: the event bits of this step (one event per counter and step at most), then the
     * schedule (slot = port * XBAR_NCTR + index) */
    uint16_t ev[XBAR_MAX_PORTS];
    ctr_sched_t cs;
    /* register port */
    uint8_t rd_pend, rd_port, rd_ctr;
    uint64_t rd_w; /* step that answers the outstanding read */
    uint8_t rvalid;
    uint32_t rdata;
    unsigned cpos; /* cable ring position (shared by all ports) */
    uint16_t rmask; /* slack-buffer ring size - 1 */
    uint8_t crc_tab[256]; /* crc_tab[x] = crc8_step(0, x), so crc8_step(s, d) = crc_tab[s ^ d] */
    xin_t in[XBAR_MAX_PORTS];
    xout_t out[XBAR_MAX_PORTS];
};

/* step-(k-1) values of the inputs that the outputs read in step k */
typedef struct {
    uint16_t occ[XBAR_MAX_PORTS];
    uint16_t xf[XBAR_MAX_PORTS];
    uint32_t xf_v;                 /* mask over the inputs */
    uint32_t ab;                   /* mask over the inputs */
    uint32_t req[XBAR_MAX_PORTS];  /* per output: mask of the inputs requesting it */
    uint32_t mp;                   /* OR over the outputs of mp: input i may pop if bit i */
} prev_t;

/* index of the lowest set bit of a non-zero input mask (or counter event mask) */
static inline unsigned ctz32(uint32_t x) { return (unsigned)__builtin_ctz(x); }

static inline void event(uint16_t *ev, unsigned port, unsigned ctr) { ev[port] |= (uint16_t)(1u << ctr); }

/* ------------------------------------------------------------------ parameters */

/* the header's limits are the table's ranges (cmodel/sanfab_params.h) */
enum {
#define XBAR_PARAM(NAME, DEFAULT, LO, HI) XBAR_HI_##NAME = HI,
#include "sanfab_params.h"
};
_Static_assert(XBAR_HI_NPORTS == XBAR_MAX_PORTS, "XBAR_MAX_PORTS is not NPORTS's HI in cmodel/sanfab_params.h");
_Static_assert(XBAR_HI_LINK_DELAY == XBAR_MAX_LINK_DELAY, "XBAR_MAX_LINK_DELAY is not LINK_DELAY's HI in cmodel/sanfab_params.h");

xbar_params_t xbar_default_params(void)
{
    /* the defaults of cmodel/sanfab_params.h, the one table of them */
    xbar_params_t p = {
#define XBAR_PARAM(NAME, DEFAULT, LO, HI) .NAME = DEFAULT,
#include "sanfab_params.h"
    };
    return p;
}

const char *xbar_params_check(const xbar_params_t *p)
{
    if (!p)
        return "no parameters";
    if (p->NPORTS < 2 || p->NPORTS > XBAR_MAX_PORTS)
        return "NPORTS must be 2..32";
    if (p->SLACK_DEPTH < 4 || p->SLACK_DEPTH > XBAR_MAX_SLACK)
        return "SLACK_DEPTH must be 4..8191";
    if (p->STOP_THRESH < 1 || p->STOP_THRESH > p->SLACK_DEPTH)
        return "STOP_THRESH must be 1..SLACK_DEPTH";
    if (p->GO_THRESH >= p->STOP_THRESH)
        return "GO_THRESH must be 0..STOP_THRESH-1";
    if (p->ROUTE_DELAY > 255)
        return "ROUTE_DELAY must be 0..255";
    if (p->LINK_DELAY > XBAR_MAX_LINK_DELAY)
        return "LINK_DELAY must be 0..64";
    if (p->TIMEOUT == 1 || p->TIMEOUT > (1u << 24) - 1u)
        return "TIMEOUT must be 0 (never) or 2..2^24-1 (16777215)";
    if (p->COUNTERS > 1)
        return "COUNTERS must be 0 or 1";
    if (p->CTR_WIDTH < 8 || p->CTR_WIDTH > 32)
        return "CTR_WIDTH must be 8..32";
    return NULL;
}

/* ------------------------------------------------------------------ life cycle */

xbar_t *xbar_new(const xbar_params_t *p)
{
    if (xbar_params_check(p))
        return NULL;
    xbar_t *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->p = *p;
    unsigned ring = RING_MIN;
    while (ring <= p->SLACK_DEPTH)
        ring *= 2;
    m->rmask = (uint16_t)(ring - 1u);
    int bad = ctr_sched_init(&m->cs, p->NPORTS * XBAR_NCTR, p->CTR_WIDTH) != 0;
    for (unsigned i = 0; i < XBAR_MAX_PORTS && !bad; i++) {
        m->in[i].ent = calloc(ring, sizeof *m->in[i].ent);
        m->in[i].wstep = calloc(ring, sizeof *m->in[i].wstep);
        bad = !m->in[i].ent || !m->in[i].wstep;
    }
    if (bad) {
        xbar_free(m);
        return NULL;
    }
    for (unsigned x = 0; x < 256; x++)
        m->crc_tab[x] = crc8_step(0, (uint8_t)x);
    xbar_reset(m);
    return m;
}

void xbar_free(xbar_t *m)
{
    if (!m)
        return;
    ctr_sched_free(&m->cs);
    for (unsigned i = 0; i < XBAR_MAX_PORTS; i++) {
        free(m->in[i].ent);
        free(m->in[i].wstep);
    }
    free(m);
}

void xbar_reset(xbar_t *m)
{
    m->step = 0;
    memset(m->ev, 0, sizeof m->ev);
    ctr_sched_reset(&m->cs);
    m->rd_pend = m->rd_port = m->rd_ctr = 0;
    m->rd_w = 0;
    m->rvalid = 0;
    m->rdata = 0;
    m->cpos = 0;
    for (unsigned i = 0; i < XBAR_MAX_PORTS; i++) {
        xin_t *s = &m->in[i];
        s->in_pkt = s->ih = s->ih_v = s->crc_chk = s->crc_fwd = s->err = s->dropping = 0;
        s->rd = s->wr = 0;
        s->occ = 0;
        s->last_pop = 0;
        s->state = RS_IDLE;
        s->hdr = s->rdly = 0;
        s->tmo = 0;
        s->xf_v = 0;
        s->xf = 0;
        s->ab = 0;
        xout_t *o = &m->out[i];
        o->busy = o->rr = o->qn = o->gap = o->abt = o->stop = o->want = o->ann = 0;
        o->av = 1;
        o->own = o->gp = o->mp = 0;
        o->q[0] = o->q[1] = 0;
        o->tx = CH_IDLE;
        for (unsigned d = 0; d < XBAR_MAX_LINK_DELAY; d++)
            o->cable[d] = CH_IDLE;
    }
}

/* ------------------------------------------------------------------ slack buffer */

/* Does the head register hold an entry at step t (t = the step whose registers are current, i.e.
 * before this step's pops and writes)? Head timing (doc): the oldest unpopped entry e, written in
 * step w, whose predecessor was popped in step p, is in the head at step w if p <= w (or there is
 * no predecessor: last_pop = 0), otherwise from step max(w + 2, p). Pops are in order, so the
 * predecessor of the oldest unpopped entry is the latest entry popped. */
static inline int fifo_head(const xin_t *s, uint64_t t, uint16_t *e)
{
    if (s->occ == 0)
        return 0;
    uint64_t w = s->wstep[s->rd], p = s->last_pop;
    uint64_t avail = p <= w ? w : (w + 2 > p ? w + 2 : p);
    if (avail > t)
        return 0;
    *e = s->ent[s->rd];
    return 1;
}

/* ------------------------------------------------------------------ ingress */

typedef struct {
    int wr;       /* an entry is written in this step */
    uint16_t ent; /* which */
    int bypass;   /* a route byte goes straight to the read side */
    uint8_t byte; /* which */
} ingress_res_t;

/* Room (doc): an end entry needs occ[k-1] < SLACK_DEPTH and not dropping; a data or header entry
 * needs occ[k-1] < SLACK_DEPTH - 1 and not dropping. A lost entry is an overflow event. */
static inline int ingress_write(const xbar_t *m, xin_t *s, unsigned i, unsigned occ0, uint16_t e,
                                ingress_res_t *r, uint16_t *ev)
{
    unsigned lim = ENT_IS_END(e) ? m->p.SLACK_DEPTH : m->p.SLACK_DEPTH - 1u;
    if (occ0 < lim && !s->dropping) {
        r->wr = 1;
        r->ent = e;
        return 1;
    }
    event(ev, i, XBAR_CTR_OVERFLOW);
    return 0;
}

/* Ingress of input i in step k: c = rx_i[k]; rs_idle0 = read side IDLE at k-1; occ0 = occ[k-1]. */
static ingress_res_t ingress(const xbar_t *m, xin_t *s, unsigned i, unsigned c, int rs_idle0, unsigned occ0,
                             uint16_t *ev)
{
    ingress_res_t r = {0, 0, 0, 0};
    if (CH_IS_DATA(c)) {
        uint8_t b = (uint8_t)c;
        event(ev, i, XBAR_CTR_RX_BYTES);
        s->crc_chk = m->crc_tab[(s->in_pkt ? s->crc_chk : 0) ^ b];
        if (!s->in_pkt) { /* the route byte */
            s->in_pkt = 1;
            s->err = 0;
            s->crc_fwd = 0;
            s->ih_v = 0;
            if (rs_idle0 && occ0 == 0) {
                r.bypass = 1;
                r.byte = b;
            } else {
                /* DOC: `dropping` is 0 between packets, so the header's room check is occ alone;
                 * a lost header also sets err (the doc's generic rule; err is unobservable then). */
                if (!ingress_write(m, s, i, occ0, ENT(K_HDR, b), &r, ev))
                    s->err = 1;
                s->dropping = occ0 >= m->p.SLACK_DEPTH - 1u;
            }
        } else {
            if (s->ih_v) {
                if (ingress_write(m, s, i, occ0, ENT(K_DATA, s->ih), &r, ev))
                    s->crc_fwd = m->crc_tab[s->crc_fwd ^ s->ih];
                else
                    s->err = 1;
            }
            s->ih = b;
            s->ih_v = 1;
        }
    } else if (c == CH_GAP || c == CH_ABORT) {
        if (s->in_pkt) {
            event(ev, i, XBAR_CTR_RX_PKTS);
            uint16_t e;
            if (c == CH_GAP && s->ih_v) {
                uint8_t mark = (s->crc_chk != 0 || s->err) ? 0xFFu : 0u;
                e = ENT(K_LAST, s->crc_fwd ^ mark);
                /* DOC: crc_err is counted by the GAP's CRC check even when the packet is being
                 * dropped (`dropping`): the doc puts no condition on it. */
                if (s->crc_chk != 0 && s->crc_chk != CRC8_MARKED_RESIDUE)
                    event(ev, i, XBAR_CTR_CRC_ERR);
            } else {
                if (c == CH_GAP) /* runt: route byte then GAP */
                    event(ev, i, XBAR_CTR_MALFORMED);
                e = ENT(K_ABORT, 0);
            }
            /* DOC: an end entry of a dropped packet is counted overflow too ("each counted
             * overflow"), so a dropped runt counts malformed and overflow. */
            (void)ingress_write(m, s, i, occ0, e, &r, ev);
            s->in_pkt = 0;
            s->ih_v = 0;
            s->dropping = 0;
        }
        /* GAP or ABORT between packets: ignored, not counted */
    } else if (c >= 0x105u) { /* illegal control character */
        event(ev, i, XBAR_CTR_MALFORMED);
        if (s->in_pkt)
            s->err = 1;
    }
    /* IDLE, STOP, GO: nothing for the ingress */
    return r;
}

/* ------------------------------------------------------------------ read side */

/* Load a route byte (IDLE): HDR with its port, or DRAIN (drop_route) if it names no port. */
static inline void rs_load(const xbar_t *m, xin_t *s, unsigned i, uint8_t b, uint16_t *ev)
{
    if (ROUTE_IS_ROUTE(b) && ROUTE_PORT(b) < m->p.NPORTS) {
        s->state = RS_HDR;
        s->hdr = (uint8_t)ROUTE_PORT(b);
        s->rdly = 0;
        s->tmo = 0;
    } else {
        s->state = RS_DRAIN;
        event(ev, i, XBAR_CTR_DROP_ROUTE);
    }
}

/* BOUND's pop: if the head holds an entry at k-1 and mp_i[k-1], pop it into xf. */
static inline int rs_bound_pop(xbar_t *m, xin_t *s, unsigned i, int head_v, uint16_t head, int may_pop)
{
    (void)m;
    (void)i;
    XASSERT(m, !head_v || ENT_KIND(head) != K_HDR, i, "read side BOUND sees a header at the slack head");
    if (!(head_v && may_pop))
        return 0;
    s->xf_v = 1;
    s->xf = head;
    s->tmo = 0;
    if (ENT_IS_END(head))
        s->state = RS_IDLE;
    return 1;
}

/* Read side of input i in step k. Returns 1 if it pops the head. */
static int read_side(xbar_t *m, xin_t *s, unsigned i, int head_v, uint16_t head, const ingress_res_t *ig,
                     int granted, int may_pop, uint16_t *ev)
{
    const unsigned T = m->p.TIMEOUT;
    int pop = 0;
    s->xf_v = 0;
    s->ab = 0;
    switch (s->state) {
    case RS_IDLE:
        if (head_v) {
            XASSERT(m, ENT_KIND(head) == K_HDR, i, "read side IDLE sees a non-header (kind %u) at the slack head",
                    ENT_KIND(head));
            pop = 1;
            rs_load(m, s, i, ENT_BYTE(head), ev);
        } else if (ig->bypass) {
            rs_load(m, s, i, ig->byte, ev);
        }
        break;
    case RS_HDR:
        if (granted) {
            s->state = RS_BOUND;
            s->tmo = 0;
            pop = rs_bound_pop(m, s, i, head_v, head, may_pop); /* without a pop tmo stays 0 */
        } else {
            if (s->rdly < m->p.ROUTE_DELAY)
                s->rdly++;
            if (T != 0 && s->tmo == T - 1u) {
                s->state = RS_DRAIN;
                event(ev, i, XBAR_CTR_DROP_TIMEOUT);
            } else {
                s->tmo++;
            }
        }
        break;
    case RS_BOUND:
        pop = rs_bound_pop(m, s, i, head_v, head, may_pop);
        if (!pop) {
            if (T != 0 && s->tmo == T - 1u) {
                s->state = RS_DRAIN;
                s->ab = 1;
                event(ev, i, XBAR_CTR_DROP_TIMEOUT);
            } else {
                s->tmo++;
            }
        }
        break;
    default: /* RS_DRAIN */
        if (head_v) {
            XASSERT(m, ENT_KIND(head) != K_HDR, i, "read side DRAIN sees a header at the slack head");
            pop = 1;
            if (ENT_IS_END(head))
                s->state = RS_IDLE;
        }
        break;
    }
    return pop;
}

/* Ingress, slack buffer and read side of input i in step k. */
static void input_step(xbar_t *m, unsigned i, unsigned c, const prev_t *pv, uint16_t *ev)
{
    xin_t *s = &m->in[i];
    const uint64_t k = m->step;
    const unsigned occ0 = s->occ;
    /* Fast path, the same as the full step below: an empty buffer in IDLE or DRAIN and IDLE, STOP or GO on
     * the input (nothing for the ingress, no head, no bypass): the read side only clears xf and ab. */
    if (occ0 == 0 && (s->state == RS_IDLE || s->state == RS_DRAIN) &&
        (c == CH_IDLE || c == CH_STOP || c == CH_GO)) {
        s->xf_v = 0;
        s->ab = 0;
        return;
    }
    uint16_t head = 0;
    const int head_v = fifo_head(s, k - 1, &head); /* head at k-1 */

    ingress_res_t ig = ingress(m, s, i, c, s->state == RS_IDLE, occ0, ev);

    /* gp[k-1] of output hdr and mp[k-1]: the outputs are updated after the inputs in this step */
    int granted = s->state == RS_HDR && ((m->out[s->hdr].gp >> i) & 1u);
    int pop = read_side(m, s, i, head_v, head, &ig, granted, (pv->mp >> i) & 1u, ev);

    /* slack buffer: occ[k] = occ[k-1] + wr[k] - pop[k] */
    if (pop) {
        s->rd = (uint16_t)((s->rd + 1u) & m->rmask);
        s->occ--;
        s->last_pop = k;
    }
    if (ig.wr) {
        s->ent[s->wr] = ig.ent;
        s->wstep[s->wr] = k;
        s->wr = (uint16_t)((s->wr + 1u) & m->rmask);
        s->occ++;
    }
    XASSERT(m, s->occ <= m->p.SLACK_DEPTH, i, "slack occupancy %u above SLACK_DEPTH %u", s->occ,
            m->p.SLACK_DEPTH);
}

/* ------------------------------------------------------------------ output */

/* Rules 2 and 3 of an output: STOP/GO received (c = rx_p[k]) and the wish of input p, with
 * hysteresis on its occupancy after k-1. */
static inline void out_flow(xout_t *o, unsigned c, unsigned occ, const xbar_params_t *q)
{
    if (c == CH_STOP)
        o->stop = 1;
    else if (c == CH_GO)
        o->stop = 0;
    if (occ >= q->STOP_THRESH)
        o->want = 1;
    else if (occ <= q->GO_THRESH)
        o->want = 0;
}

/* Output p in step k: c = rx_p[k] (its STOP/GO). */
static void output_step(xbar_t *m, unsigned p, unsigned c, const prev_t *pv, uint16_t *ev)
{
    xout_t *o = &m->out[p];
    const uint8_t busy0 = o->busy, abt0 = o->abt, gap0 = o->gap, stop0 = o->stop, want0 = o->want,
                  ann0 = o->ann, av0 = o->av;
    const uint32_t own0 = o->own;

    /* Fast path, the same as the full rules below: a free output (not busy, so no transfer and no
     * arbitration without requests) with no queue, no GAP, ABORT, STOP or GO owed and no request sends
     * IDLE and only follows STOP/GO and its input's wish. */
    if (!busy0 && !o->qn && !gap0 && !abt0 && want0 == ann0 && !pv->req[p]) {
        out_flow(o, c, pv->occ[p], &m->p);
        o->tx = CH_IDLE;
        o->gp = 0;
        o->av = 1;
        o->mp = own0;
        return;
    }

    /* 1. transfer in: xf of the owner at k-1 */
    int xv = 0;
    uint16_t x = 0;
    if (busy0 && !abt0) { /* rule 1: nothing once a timeout ABORT is owed */
        unsigned j = ctz32(own0);
        if ((pv->xf_v >> j) & 1u) {
            xv = 1;
            x = pv->xf[j];
        }
    }
    const int x_end = xv && ENT_IS_END(x);

    /* 2. flow control in; 3. wish of input p (hysteresis on occ_p[k-1]) */
    out_flow(o, c, pv->occ[p], &m->p);

    /* 4. transmit, first that applies */
    int sent_q = 0, sent_x = 0;
    o->gp = 0;
    if (want0 != ann0) {
        o->tx = want0 ? CH_STOP : CH_GO;
        o->ann = want0;
    } else if (stop0) {
        o->tx = CH_IDLE;
    } else if (gap0) {
        o->tx = CH_GAP;
        o->gap = 0;
        event(ev, p, XBAR_CTR_TX_PKTS);
    } else if (o->qn || xv) {
        uint16_t e;
        if (o->qn) {
            e = o->q[0];
            sent_q = 1;
        } else {
            e = x;
            sent_x = 1;
        }
        switch (ENT_KIND(e)) {
        case K_DATA:
            o->tx = ENT_BYTE(e);
            event(ev, p, XBAR_CTR_TX_BYTES);
            break;
        case K_LAST:
            o->tx = ENT_BYTE(e);
            event(ev, p, XBAR_CTR_TX_BYTES);
            o->gap = 1;
            break;
        case K_ABORT:
            o->tx = CH_ABORT;
            event(ev, p, XBAR_CTR_TX_PKTS);
            break;
        default:
            XASSERT(m, 0, p, "output got a header entry");
            o->tx = CH_IDLE;
            break;
        }
    } else if (abt0) {
        o->tx = CH_ABORT;
        o->abt = 0;
        o->busy = 0;
        o->own = 0;
        event(ev, p, XBAR_CTR_TX_PKTS);
    } else {
        o->tx = CH_IDLE;
    }

    /* 5. queue */
    if (sent_q) {
        o->q[0] = o->q[1];
        o->qn--;
    }
    if (xv && !sent_x) {
        /* The queue holds at most 2 entries by construction (av; rule 1 ignores a timed-out
         * owner's transfers). Without SANFAB_ASSERT a third entry is dropped. */
        XASSERT(m, o->qn < 2, p, "output queue above 2 entries (owner input %u, abt %u, input state %u)", ctz32(own0),
                abt0, m->in[ctz32(own0)].state);
        if (o->qn < 2)
            o->q[o->qn++] = x;
    }

    /* 6. abort request of the owner */
    if (busy0 && (pv->ab & own0) && !abt0) /* rule 6 */
        o->abt = 1;

    /* 7. arbitration */
    if (!busy0 || x_end) {
        uint32_t req = pv->req[p];
        if (req) {
            uint32_t hi = req & ~((UINT32_C(1) << o->rr) - 1u); /* rr <= NPORTS - 1 <= 31 */
            unsigned g = ctz32(hi ? hi : req);
            o->own = UINT32_C(1) << g;
            o->busy = 1;
            o->gp = UINT32_C(1) << g;
            o->rr = (uint8_t)((g + 1u) % m->p.NPORTS);
        } else if (x_end) {
            o->busy = 0;
            o->own = 0;
        }
    }

    /* 8. room and may-pop */
    o->av = (uint8_t)(o->qn + av0 < 2u);
    o->mp = (o->av && !o->abt) ? o->own : 0;

    XASSERT(m, o->busy ? (o->own != 0 && (o->own & (o->own - 1u)) == 0) : o->own == 0, p,
            "output busy=%u with owner mask 0x%x (want exactly one owner when busy, none when free)",
            o->busy, (unsigned)o->own);
}

/* ------------------------------------------------------------------ counters and register port */

/* Schedule (doc, ctr_sched.h): slot s = port*9 + index is written at every step W >= 3 with
 * W = s+3 (mod NS), with the number of its events in steps <= W-4. A read of slot s outstanding
 * from step r is answered at the first such W > r. */
static void register_port(xbar_t *m, const xbar_in_t *in)
{
    const uint64_t k = m->step;
    m->rvalid = 0;
    m->rdata = 0;
    if (!m->p.COUNTERS) { /* every request answered at once with 0 */
        if (in->reg_rd)
            m->rvalid = 1;
        return;
    }
    if (m->rd_pend) { /* outstanding, including in the step it is answered: requests are ignored */
        if (k == m->rd_w) {
            m->rvalid = 1;
            m->rdata = ctr_sched_flush_value(&m->cs, m->rd_port * XBAR_NCTR + m->rd_ctr);
            m->rd_pend = 0;
        }
        return;
    }
    if (in->reg_rd) {
        /* {port, counter[3:0]}: XBAR_ADDR_BITS(NPORTS) bits, the bits above are not on the port */
        const unsigned addr = (unsigned)in->reg_addr & ((1u << XBAR_ADDR_BITS(m->p.NPORTS)) - 1u);
        unsigned port = addr >> 4, ctr = addr & 15u;
        if (port >= m->p.NPORTS || ctr >= XBAR_NCTR) {
            m->rvalid = 1; /* absent address: answered in this step with 0 */
        } else {
            m->rd_pend = 1;
            m->rd_port = (uint8_t)port;
            m->rd_ctr = (uint8_t)ctr;
            m->rd_w = ctr_sched_flush_step(&m->cs, port * XBAR_NCTR + ctr, k);
        }
    }
}

/* ------------------------------------------------------------------ step */

void xbar_step(xbar_t *m, const xbar_in_t *in, xbar_out_t *out)
{
    const unsigned N = m->p.NPORTS;
    const unsigned T = m->p.TIMEOUT;
    const uint64_t k = ++m->step;
    uint16_t *ev = m->ev;
    prev_t pv;

    ctr_sched_begin_step(&m->cs, k);

    /* step-(k-1) values crossing from the inputs to the outputs */
    pv.xf_v = pv.ab = pv.mp = 0;
    uint32_t bit = 1; /* bit i: input i */
    for (unsigned i = 0; i < N; i++, bit <<= 1) {
        const xin_t *s = &m->in[i];
        ev[i] = 0;
        pv.req[i] = 0;
        pv.occ[i] = s->occ;
        pv.xf[i] = s->xf;
        if (s->xf_v)
            pv.xf_v |= bit;
        if (s->ab)
            pv.ab |= bit;
        pv.mp |= m->out[i].mp;
    }
    bit = 1;
    for (unsigned i = 0; i < N; i++, bit <<= 1) {
        const xin_t *s = &m->in[i];
        /* req_i[k-1] = HDR ∧ rdly >= ROUTE_DELAY ∧ ¬(TIMEOUT ≠ 0 ∧ tmo = TIMEOUT-1) */
        if (s->state == RS_HDR && s->rdly >= m->p.ROUTE_DELAY && !(T != 0 && s->tmo == T - 1u))
            pv.req[s->hdr] |= bit;
    }

    for (unsigned i = 0; i < N; i++)
        input_step(m, i, in->rx[i] & 0x1FFu, &pv, ev);
    for (unsigned p = 0; p < N; p++)
        output_step(m, p, in->rx[p] & 0x1FFu, &pv, ev);

    /* counters: this step's events */
    for (unsigned p = 0; p < N; p++)
        for (unsigned b = ev[p]; b; b &= b - 1u)
            ctr_sched_event(&m->cs, p * XBAR_NCTR + ctz32(b));

    register_port(m, in);

    /* outputs: tx through LINK_DELAY cable registers */
    const unsigned L = m->p.LINK_DELAY;
    for (unsigned p = 0; p < N; p++) {
        xout_t *o = &m->out[p];
        if (L) {
            out->tx[p] = o->cable[m->cpos];
            o->cable[m->cpos] = o->tx;
        } else {
            out->tx[p] = o->tx;
        }
        out->stat_occ[p] = m->in[p].occ;
    }
    if (L && ++m->cpos == L)
        m->cpos = 0;
    for (unsigned p = N; p < XBAR_MAX_PORTS; p++) {
        out->tx[p] = CH_IDLE;
        out->stat_occ[p] = 0;
    }
    out->reg_rvalid = m->rvalid;
    out->reg_rdata = m->rdata;
}

/* ------------------------------------------------------------------ introspection */

uint32_t xbar_counter(const xbar_t *m, unsigned port, unsigned ctr)
{
    if (!m || port >= m->p.NPORTS || ctr >= XBAR_NCTR)
        return 0;
    return ctr_sched_total(&m->cs, port * XBAR_NCTR + ctr);
}

void xbar_ctr_preset(xbar_t *m, unsigned port, unsigned ctr, uint32_t value)
{
    if (!m || port >= m->p.NPORTS || ctr >= XBAR_NCTR)
        return;
    ctr_sched_add(&m->cs, port * XBAR_NCTR + ctr, value); /* (flushes and reads take it mod 2^CTR_WIDTH) */
}

const char *xbar_counter_name(unsigned ctr)
{
    static const char *const names[XBAR_NCTR] = {"rx_pkts",  "rx_bytes",   "tx_pkts",      "tx_bytes", "crc_err",
                                                 "drop_route", "drop_timeout", "malformed", "overflow"};
    return ctr < XBAR_NCTR ? names[ctr] : "?";
}

/* ------------------------------------------------------------------ quiescence (for network simulators) */

/* Quiet: a step whose inputs are all IDLE and that has no register read would change nothing but the
 * step number (and the counter schedule's window of recent events, which then holds no events). From
 * xbar_step, with every rx IDLE and reg_rd 0:
 *   inputs:  the ingress ignores IDLE; with occ 0 there is no head, no pop, no write, no bypass; the read
 *            side in IDLE (or DRAIN, which only pops) does nothing; xf_v and ab are cleared every step,
 *            so they must be 0 already. (HDR and BOUND count rdly/tmo: not quiet.)
 *   outputs: want[k] = 0 because occ = 0 <= GO_THRESH, so want = ann = 0 (no STOP/GO owed); not busy,
 *            no owner, no queue, no GAP or ABORT owed, av = 1 (av[k] = qn + av < 2), gp = mp = 0, tx and
 *            every cable register IDLE (the cable then only rotates: cpos advances); stop may be 0 or 1
 *            (IDLE keeps it); no request reaches the arbiter (no input in HDR), so rr stays.
 *   counters: no events; register port: no read outstanding, rvalid = rdata = 0. */
int xbar_quiet(const xbar_t *m)
{
    if (m->rd_pend || m->rvalid || m->rdata)
        return 0;
    const unsigned N = m->p.NPORTS, L = m->p.LINK_DELAY;
    for (unsigned i = 0; i < N; i++) {
        const xin_t *s = &m->in[i];
        if (s->occ || s->xf_v || s->ab || (s->state != RS_IDLE && s->state != RS_DRAIN))
            return 0;
        const xout_t *o = &m->out[i];
        if (o->busy || o->own || o->qn || o->gap || o->abt || o->want || o->ann || !o->av || o->gp || o->mp ||
            o->tx != CH_IDLE)
            return 0;
        for (unsigned d = 0; d < L; d++)
            if (o->cable[d] != CH_IDLE)
                return 0;
    }
    return 1;
}

/* Exactly what n quiet steps (every input IDLE, no read) do to a quiet model: the step number and the
 * cable position advance, the counter schedule forgets the events of the steps that leave its window
 * (ctr_sched_begin_step of the last min(n, LAG) of them), this step's event bits are 0. */
void xbar_skip(xbar_t *m, uint64_t n)
{
    if (n == 0)
        return;
    const uint64_t k0 = m->step;
    const uint64_t first = n > CTR_SCHED_LAG ? n - CTR_SCHED_LAG + 1u : 1u;
    for (uint64_t j = first; j <= n; j++)
        ctr_sched_begin_step(&m->cs, k0 + j);
    m->step = k0 + n;
    const unsigned L = m->p.LINK_DELAY;
    if (L)
        m->cpos = (unsigned)((m->cpos + n % L) % L);
    memset(m->ev, 0, sizeof m->ev);
}

/* Steps so far (0 after reset). */
uint64_t xbar_steps(const xbar_t *m) { return m->step; }

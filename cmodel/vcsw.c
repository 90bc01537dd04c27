/* sanfab — cycle-exact C model of the table-lookup virtual-channel switch, written from its contract
 * docs/vcsw.md, not from the RTL. Section names below are the doc's.
 *
 * One vcsw_step() is one step k. Every value of step k is computed from the state after step k-1
 * and the inputs of step k. The stages run in this order, each reading only step-(k-1) state:
 *
 *   go_stop      rx_stop register from the occupancies after k-1 (before anything changes them)
 *   ingress      the flit in the input register (received in k-1): head lookup result, ingress
 *                state, MAXLEN cut and admission against the occupancy after k-1; it only
 *                *decides* the entry to write (wr_*), the buffer is not touched yet
 *   allocation   pipelined and separable: (3.1) each input's offer register F (prepared in k-1)
 *                requests its output -- a first flit only if its output VC is free after k-1 and
 *                its stop bit used in k (tx_stop received in k-1) is 0 -- and each output takes one
 *                requesting input (round robin over input numbers); (3.2) the flit taken is the
 *                head of F's VC, into the transmit register, with the new ownership; (3.3) each
 *                input prepares F for k+1 from the state after k-1 as it will be after its own
 *                pop: the next head of F's VC when taken is S_v[1], else R's entry if of v, else
 *                none, every other VC's S_w[0]; eligible: a body flit, or a first flit whose
 *                output VC is free after k-1 and unstopped in k; the first eligible VC at or after
 *                the input's position (which moves past v only when F is taken). It only
 *                *decides* the pops (at most one per input), the transmit register, the ownership,
 *                the round-robin positions and the offer registers (none of which another
 *                decision of this step reads: requests and eligibility use a snapshot of the
 *                output VCs' owned and stop bits after k-1)
 *   buffer       per input: pop, read register to staging, RAM read, write, each condition taken
 *                on the counts captured before any of them
 *   input reg    latches this step's rx flits with their table lookup (tables after k-1)
 *   config port  reads (tables after k-1), then writes
 *   counters     this step's events (ctr_sched), then the counter reads' flushes
 *   outputs      transmit registers and rx_stop through LINK_DELAY cable registers
 *
 * vcsw_quiet/vcsw_skip (at the end) let a network simulator skip the steps of an idle switch.
 *
 * Doc readings the model had to choose are marked "doc:" and reported to the doc's owner.
 */
#include "vcsw.h"

#include "ctr_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ assertions */

#ifdef SANFAB_ASSERT
#define VASSERT(m, cond, ...)                                                                          \
    do {                                                                                               \
        if (!(cond)) {                                                                                 \
            fprintf(stderr, "vcsw model: assertion failed at step %llu: ", (unsigned long long)(m)->step); \
            fprintf(stderr, __VA_ARGS__);                                                              \
            fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__);                                         \
            abort();                                                                                   \
        }                                                                                              \
    } while (0)
#else
#define VASSERT(m, cond, ...) ((void)0)
#endif

/* ------------------------------------------------------------------ state */

/* A buffer entry: the flit's data and tail, whether it is a packet's first flit, and (first flits
 * only) the packet's route (o, u) fixed when the head was received. */
enum { E_TAIL = 1, E_FIRST = 2 };
typedef struct {
    uint32_t data;
    uint8_t flags;
    uint8_t o, u;
} ent_t;

/* ingress states */
enum { IG_IDLE = 0, IG_PASS, IG_DISCARD };
/* lookup results */
enum { LK_OK = 0, LK_DROP_ROUTE, LK_DROP_VC };

/* (input, VC) */
typedef struct {
    ent_t s[3];     /* staging part, s[0] the head */
    uint8_t sn;     /* |S_v| */
    uint16_t mrd;   /* RAM part: ring of DEPTH entries, oldest at mrd */
    uint16_t mn;    /* |M_v| */
    uint16_t occ;   /* |M_v| + |S_v| + (R holds v) */
    uint8_t ist;    /* ingress state */
    uint16_t icnt;  /* flits of the packet in PASS */
    uint8_t own;    /* owns output VC (own_o, own_u) */
    uint8_t own_o, own_u;
} vcst_t;

typedef struct {
    /* input register: the flit received in the previous step and its lookup */
    uint8_t iv, ivc, itail, ilk, io, iu;
    uint32_t idata;
    /* read register R */
    uint8_t rv, rvc;
    ent_t r;
    uint8_t ram_rr; /* round-robin position of the RAM read */
    uint8_t arr;    /* round-robin position of the input's offer (rule 3.3), over VC numbers */
    /* offer register F (rule 3): valid, VC v, output o, output VC u, first flit */
    uint8_t fv, fvc, fo, fu, ffirst;
    uint16_t hmask; /* VCs with |S_v| > 0 */
    uint16_t mmask; /* VCs with |M_v| > 0 */
    uint16_t omask; /* VCs with occupancy >= STOP_AT */
    uint16_t stopreg; /* rx_stop register (before the cable) */
} inp_t;

typedef struct {
    uint16_t busy;  /* output VCs owned */
    uint16_t stop;  /* tx_stop received in the previous step */
    uint16_t rr;    /* round-robin position of the output arbitration (rule 3.1), over input numbers */
    vcsw_flit_t tx; /* transmit register */
} outp_t;

struct vcsw {
    vcsw_params_t p;
    uint64_t step;
    unsigned ndvc, stop_at;
    uint32_t fmask, tmask;
    /* tables: bit 7 valid, bits 3..0 value */
    uint8_t *rt;                                               /* 2^TAG_W */
    uint8_t vt[VCSW_MAX_PORTS][VCSW_MAX_PORTS][VCSW_MAX_VCS]; /* [in][out][d] */
    inp_t in[VCSW_MAX_PORTS];
    outp_t out[VCSW_MAX_PORTS];
    vcst_t vc[VCSW_MAX_PORTS][VCSW_MAX_VCS];
    ent_t *ram; /* [(p * NVC + v) * DEPTH + i] */
    /* cables: LINK_DELAY registers, ring position shared */
    unsigned cpos;
    vcsw_flit_t *cab_tx;   /* [LINK_DELAY][NPORTS] */
    uint16_t *cab_stop;    /* [LINK_DELAY][NPORTS] */
    /* configuration read: outstanding, the step it is answered, the value, counter slot */
    uint8_t rd_pend, rd_ctr;
    uint64_t rd_ans;
    uint32_t rd_val;
    unsigned rd_slot;
    /* counters */
    ctr_sched_t cs;
    /* per step scratch (not state): pops per input, entries to write */
    uint16_t pop[VCSW_MAX_PORTS];
    uint8_t wr[VCSW_MAX_PORTS], wr_vc[VCSW_MAX_PORTS];
    ent_t wr_e[VCSW_MAX_PORTS];
};

static inline unsigned ctz32(uint32_t x) { return (unsigned)__builtin_ctz(x); }

static inline unsigned slot_of(const vcsw_t *m, unsigned port, unsigned vc, unsigned ctr)
{
    return ((port * m->p.NVC) + vc) * VCSW_NCTR + ctr;
}

static inline void event(vcsw_t *m, unsigned port, unsigned vc, unsigned ctr)
{
    ctr_sched_event(&m->cs, slot_of(m, port, vc, ctr));
}

/* ------------------------------------------------------------------ parameters */

vcsw_params_t vcsw_default_params(void)
{
    vcsw_params_t p = {.NPORTS = 8,
                       .NVC = 2,
                       .CTRL = 1,
                       .FLIT_W = 16,
                       .TAG_W = 8,
                       .DEPTH = 64,
                       .MAXLEN = 32,
                       .LINK_DELAY = 0,
                       .COUNTERS = 1,
                       .CTR_WIDTH = 32};
    return p;
}

int vcsw_stop_at(const vcsw_params_t *p)
{
    return (int)p->DEPTH - (int)p->MAXLEN - 2 * (int)p->LINK_DELAY - 4;
}

unsigned vcsw_ndvc(const vcsw_params_t *p) { return p->CTRL ? p->NVC / 2u : p->NVC; }

const char *vcsw_params_check(const vcsw_params_t *p)
{
    if (!p)
        return "no parameters";
    if (p->NPORTS < 2 || p->NPORTS > VCSW_MAX_PORTS)
        return "NPORTS must be 2..16";
    if (p->NVC != 2 && p->NVC != 4 && p->NVC != 8 && p->NVC != 16)
        return "NVC must be 2, 4, 8 or 16";
    if (p->CTRL > 1)
        return "CTRL must be 0 or 1";
    if (p->TAG_W < 1 || p->TAG_W > 12)
        return "TAG_W must be 1..12";
    if (p->FLIT_W < p->TAG_W || p->FLIT_W > 32)
        return "FLIT_W must be TAG_W..32";
    if (p->DEPTH != 8 && p->DEPTH != 16 && p->DEPTH != 32 && p->DEPTH != 64 && p->DEPTH != 128 && p->DEPTH != 256)
        return "DEPTH must be 8, 16, 32, 64, 128 or 256";
    if (p->MAXLEN < 1 || p->MAXLEN > p->DEPTH)
        return "MAXLEN must be 1..DEPTH";
    if (p->LINK_DELAY > VCSW_MAX_LINK_DELAY)
        return "LINK_DELAY must be 0..64";
    if (p->COUNTERS > 1)
        return "COUNTERS must be 0 or 1";
    if (p->CTR_WIDTH < 8 || p->CTR_WIDTH > 32)
        return "CTR_WIDTH must be 8..32";
    if (vcsw_stop_at(p) < 1)
        return "STOP_AT = DEPTH - MAXLEN - 2*LINK_DELAY - 4 must be at least 1 (DEPTH >= MAXLEN + 2*LINK_DELAY + 5)";
    return NULL;
}

/* ------------------------------------------------------------------ life cycle */

vcsw_t *vcsw_new(const vcsw_params_t *p)
{
    if (vcsw_params_check(p))
        return NULL;
    vcsw_t *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->p = *p;
    m->ndvc = vcsw_ndvc(p);
    m->stop_at = (unsigned)vcsw_stop_at(p);
    m->fmask = p->FLIT_W >= 32 ? 0xFFFFFFFFu : ((1u << p->FLIT_W) - 1u);
    m->tmask = (1u << p->TAG_W) - 1u;
    m->rt = calloc((size_t)1 << p->TAG_W, 1);
    m->ram = calloc((size_t)p->NPORTS * p->NVC * p->DEPTH, sizeof *m->ram);
    if (p->LINK_DELAY) {
        m->cab_tx = calloc((size_t)p->LINK_DELAY * p->NPORTS, sizeof *m->cab_tx);
        m->cab_stop = calloc((size_t)p->LINK_DELAY * p->NPORTS, sizeof *m->cab_stop);
    }
    int bad = !m->rt || !m->ram || (p->LINK_DELAY && (!m->cab_tx || !m->cab_stop));
    if (bad || ctr_sched_init(&m->cs, VCSW_NCTR * p->NVC * p->NPORTS, p->CTR_WIDTH) != 0) {
        if (!bad)
            ctr_sched_free(&m->cs);
        free(m->rt);
        free(m->ram);
        free(m->cab_tx);
        free(m->cab_stop);
        free(m);
        return NULL;
    }
    vcsw_reset(m);
    return m;
}

void vcsw_free(vcsw_t *m)
{
    if (!m)
        return;
    ctr_sched_free(&m->cs);
    free(m->rt);
    free(m->ram);
    free(m->cab_tx);
    free(m->cab_stop);
    free(m);
}

void vcsw_reset(vcsw_t *m)
{
    const vcsw_params_t *p = &m->p;
    m->step = 0;
    /* the tables are RAM: rst keeps them (docs/vcsw.md, Tables); vcsw_new made them invalid */
    memset(m->in, 0, sizeof m->in);
    memset(m->out, 0, sizeof m->out);
    memset(m->vc, 0, sizeof m->vc);
    if (p->LINK_DELAY) {
        memset(m->cab_tx, 0, (size_t)p->LINK_DELAY * p->NPORTS * sizeof *m->cab_tx);
        memset(m->cab_stop, 0, (size_t)p->LINK_DELAY * p->NPORTS * sizeof *m->cab_stop);
    }
    m->cpos = 0;
    m->rd_pend = m->rd_ctr = 0;
    m->rd_ans = 0;
    m->rd_val = 0;
    m->rd_slot = 0;
    ctr_sched_reset(&m->cs);
    memset(m->pop, 0, sizeof m->pop);
    memset(m->wr, 0, sizeof m->wr);
}

/* ------------------------------------------------------------------ 4. Go & Stop */

/* rx_stop register after step k: occupancy after step k-1 >= STOP_AT (the cable follows in outputs()),
 * kept per input as the mask omask, updated by buffer() wherever an occupancy changes. */
static void go_stop(vcsw_t *m)
{
    const unsigned N = m->p.NPORTS;
    for (unsigned p = 0; p < N; p++)
        m->in[p].stopreg = m->in[p].omask;
}

/* ------------------------------------------------------------------ 1. ingress */

/* Admission of entry e (tail possibly already set by a MAXLEN cut) into (p, v), occupancy n after
 * step k-1. `head`: it is a packet's first flit; `rx_tail`: the tail bit it was received with.
 * Returns the new ingress state given `st` the state the packet rules chose. */
static unsigned admit(vcsw_t *m, unsigned p, unsigned v, ent_t e, int head, int rx_tail, unsigned st)
{
    const unsigned D = m->p.DEPTH, n = m->vc[p][v].occ;
    if (n >= D) {
        /* discarded; only a head can find the buffer full */
        VASSERT(m, n == D, "occupancy %u of input %u VC %u above DEPTH %u", n, p, v, D);
        VASSERT(m, head, "a body flit found the buffer of input %u VC %u full", p, v);
        if (head)
            event(m, p, v, VCSW_CTR_OVERFLOW);
        return rx_tail ? IG_IDLE : IG_DISCARD;
    }
    if (n == D - 1u && !(e.flags & E_TAIL)) { /* stored as a tail (cut) */
        e.flags |= E_TAIL;
        event(m, p, v, VCSW_CTR_OVERFLOW);
        st = IG_DISCARD;
    }
    m->wr[p] = 1;
    m->wr_vc[p] = (uint8_t)v;
    m->wr_e[p] = e;
    return st;
}

/* Ingress of input p in step k: the flit in the input register (received in step k-1). */
static void ingress(vcsw_t *m, unsigned p)
{
    inp_t *ip = &m->in[p];
    const unsigned v = ip->ivc;
    vcst_t *vs = &m->vc[p][v];
    const int tail = ip->itail;
    event(m, p, v, VCSW_CTR_RX_FLITS);
    switch (vs->ist) {
    case IG_IDLE: {
        event(m, p, v, VCSW_CTR_RX_PKTS);
        if (ip->ilk == LK_DROP_ROUTE) {
            event(m, p, v, VCSW_CTR_DROP_ROUTE);
            vs->ist = tail ? IG_IDLE : IG_DISCARD;
            break;
        }
        if (ip->ilk == LK_DROP_VC) {
            event(m, p, v, VCSW_CTR_DROP_VC);
            vs->ist = tail ? IG_IDLE : IG_DISCARD;
            break;
        }
        ent_t e = {ip->idata, (uint8_t)(E_FIRST | (tail ? E_TAIL : 0)), ip->io, ip->iu};
        unsigned st = tail ? IG_IDLE : IG_PASS;
        /* doc: the IDLE rule does not say what MAXLEN = 1 does to a head without tail; the model
         * applies the MAXLEN cut of "Malformed input" (the MAXLEN-th flit leaves as its tail) to the
         * head too: stored as a tail, trunc, DISCARD. */
        if (!tail && m->p.MAXLEN == 1u) {
            e.flags |= E_TAIL;
            event(m, p, v, VCSW_CTR_TRUNC);
            st = IG_DISCARD;
        }
        vs->icnt = 1;
        vs->ist = (uint8_t)admit(m, p, v, e, 1, tail, st);
        break;
    }
    case IG_PASS: {
        ent_t e = {ip->idata, (uint8_t)(tail ? E_TAIL : 0), 0, 0};
        unsigned st = tail ? IG_IDLE : IG_PASS;
        vs->icnt++;
        /* doc: when the MAXLEN-th flit also finds the buffer at DEPTH-1, the model counts trunc only:
         * the MAXLEN rule runs first and the admission then sees a tail ("if it is not a tail") */
        if (!tail && vs->icnt == m->p.MAXLEN) { /* cut at MAXLEN: admitted as a tail */
            e.flags |= E_TAIL;
            event(m, p, v, VCSW_CTR_TRUNC);
            st = IG_DISCARD;
        }
        VASSERT(m, vs->icnt <= m->p.MAXLEN, "input %u VC %u: packet count %u above MAXLEN", p, v, vs->icnt);
        vs->ist = (uint8_t)admit(m, p, v, e, 0, tail, st);
        break;
    }
    default: /* IG_DISCARD */
        if (tail)
            vs->ist = IG_IDLE;
        break;
    }
}

/* ------------------------------------------------------------------ 3. allocation and output */

/* First set bit of the set x at or after position pos, wrapping (round robin, rule 2); x != 0. */
static inline unsigned rr_first(uint32_t x, unsigned pos)
{
    const uint32_t hi = x & ~((1u << pos) - 1u);
    return ctz32(hi ? hi : x);
}

/* Rule 3.3: input p's offer register for step k+1, from the state after k-1 as it will be after its
 * own pop of step k. `taken`: its offer F was taken in step k (the ownership of F's VC is already
 * updated for it); blk: per output the VCs owned after k-1 or stopped in step k. The VCs are tried in
 * round-robin order from the position after step k and the first eligible one is offered. */
static void next_offer(vcsw_t *m, unsigned p, int taken, const uint16_t *blk)
{
    inp_t *ip = &m->in[p];
    const unsigned V = m->p.NVC;
    uint32_t cand = ip->hmask; /* VCs whose next head may exist: S_w[0] after k-1 */
    const unsigned fv = ip->fvc;
    const ent_t *fnext = NULL; /* next head of F's VC when F is taken */
    if (taken) {
        const vcst_t *vs = &m->vc[p][fv];
        if (vs->sn >= 2)
            fnext = &vs->s[1];
        else if (ip->rv && ip->rvc == fv)
            fnext = &ip->r;
        /* doc: an entry that reaches an empty staging part in step k is not seen */
        if (!fnext)
            cand &= ~(1u << fv);
        ip->arr = (uint8_t)(fv + 1u == V ? 0u : fv + 1u); /* the position moves past v only when F is taken */
    }
    ip->fv = 0;
    const uint32_t low = (1u << ip->arr) - 1u;
    const uint32_t order[2] = {cand & ~low, cand & low};
    for (unsigned i = 0; i < 2; i++)
        for (uint32_t c = order[i]; c; c &= c - 1u) {
            const unsigned w = ctz32(c);
            const vcst_t *ws = &m->vc[p][w];
            const ent_t *e = (taken && w == fv) ? fnext : &ws->s[0];
            if (e->flags & E_FIRST) {
                VASSERT(m, !ws->own || (taken && w == fv),
                        "input %u VC %u owns an output VC but its next head is a first flit", p, w);
                /* doc: "free after step k-1", taken literally, also when the output VC is owned by
                 * F's own packet whose tail F takes in step k: the next packet of the same VC to the
                 * same output VC is offered one step later (one idle step between back-to-back
                 * packets on one output VC unless another VC fills it; see the report to the doc's
                 * owner: "Latency and throughput" says the other VCs keep the whole link) */
                if (blk[e->o] >> e->u & 1u) /* output VC owned after k-1 or stopped in step k */
                    continue;
                ip->fo = e->o;
                ip->fu = e->u;
                ip->ffirst = 1;
            } else {
                VASSERT(m, ws->own, "input %u VC %u owns nothing but its next head is a body flit", p, w);
                ip->fo = ws->own_o;
                ip->fu = ws->own_u;
                ip->ffirst = 0;
            }
            ip->fv = 1;
            ip->fvc = (uint8_t)w;
            return;
        }
}

/* Allocation in step k from the state after k-1 (rule 3, pipelined and separable). The offer
 * registers F (after k-1) request their outputs (3.1: a first flit only if its output VC is free
 * after k-1 and its stop bit used in step k is 0); each output takes one requesting input, round
 * robin over input numbers (3.1), and the flit taken is popped and put into the transmit register
 * (3.2). Then every input prepares its offer register for step k+1 (3.3) from the state after k-1
 * as it will be after its own pop of step k. Decides the pops (m->pop, at most one per input), the
 * transmit registers, the ownership changes, the round-robin positions and the offer registers;
 * registers tx_stop for step k+1. O(NPORTS) plus, per input with staged heads, the VCs up to the
 * first eligible one in round-robin order. */
static void allocation(vcsw_t *m, const vcsw_in_t *in)
{
    const unsigned N = m->p.NPORTS, V = m->p.NVC;
    uint16_t req[VCSW_MAX_PORTS]; /* per output: the inputs requesting it */
    uint16_t blk[VCSW_MAX_PORTS]; /* per output: its VCs owned after k-1 or with stop bit 1 in step k */
    uint32_t taken = 0;           /* inputs whose offer is taken in step k */

    /* 3.1 requests, on the state after k-1 (snapshot before this step's ownership changes) */
    for (unsigned o = 0; o < N; o++) {
        req[o] = 0;
        blk[o] = (uint16_t)(m->out[o].busy | m->out[o].stop);
    }
    for (unsigned p = 0; p < N; p++) {
        const inp_t *ip = &m->in[p];
        m->pop[p] = 0;
        if (ip->fv && (!ip->ffirst || !(blk[ip->fo] >> ip->fu & 1u)))
            req[ip->fo] |= (uint16_t)(1u << p);
    }

    /* 3.1 output arbitration and 3.2 transmit */
    for (unsigned o = 0; o < N; o++) {
        outp_t *op = &m->out[o];
        op->stop = (uint16_t)(in->tx_stop[o] & ((1u << V) - 1u)); /* used in step k+1 */
        if (!req[o]) {
            op->tx.valid = op->tx.vc = op->tx.tail = 0;
            op->tx.data = 0;
            continue;
        }
        const unsigned p = rr_first(req[o], op->rr);
        op->rr = (uint16_t)(p + 1u == N ? 0u : p + 1u); /* past the input taken */
        taken |= 1u << p;
        const inp_t *ip = &m->in[p];
        const unsigned v = ip->fvc, u = ip->fu;
        vcst_t *vs = &m->vc[p][v];
        const ent_t *e = &vs->s[0];
        VASSERT(m, vs->sn > 0, "input %u: offer of VC %u taken but its staging part is empty", p, v);
        VASSERT(m, !(e->flags & E_FIRST) == !ip->ffirst, "input %u VC %u: the offer's first bit is not the head's", p,
                v);
        VASSERT(m, ip->ffirst ? (e->o == o && e->u == u) : (vs->own && vs->own_o == o && vs->own_u == u),
                "input %u VC %u: the offer's route (%u, %u) is not the head's", p, v, o, u);
        const int tail = e->flags & E_TAIL;
        if (ip->ffirst) {
            if (!tail) { /* owns output VC u of o from step k+1 */
                op->busy |= (uint16_t)(1u << u);
                vs->own = 1;
                vs->own_o = (uint8_t)o;
                vs->own_u = (uint8_t)u;
            }
        } else if (tail) { /* the VC it owned is free from step k+1 */
            VASSERT(m, op->busy >> u & 1u, "output %u VC %u owned by input %u VC %u but not busy", o, u, p, v);
            op->busy &= (uint16_t)~(1u << u);
            vs->own = 0;
        }
        m->pop[p] = (uint16_t)(1u << v);
        op->tx.valid = 1;
        op->tx.vc = (uint8_t)u;
        op->tx.tail = tail ? 1 : 0;
        op->tx.data = e->data;
        event(m, o, u, VCSW_CTR_TX_FLITS);
        if (tail)
            event(m, o, u, VCSW_CTR_TX_PKTS);
    }

    /* 3.3 the next offers */
    for (unsigned p = 0; p < N; p++)
        next_offer(m, p, (int)(taken >> p & 1u), blk);
}

/* ------------------------------------------------------------------ 2. input buffer */

static inline void s_push(vcsw_t *m, unsigned p, unsigned v, const ent_t *e)
{
    vcst_t *vs = &m->vc[p][v];
    VASSERT(m, vs->sn < 3, "staging of input %u VC %u above 3 entries", p, v);
    if (vs->sn < 3)
        vs->s[vs->sn++] = *e;
}

/* Buffer of input p in step k: pop, read register to staging, RAM read, write; every condition on
 * the counts after step k-1. */
static void buffer(vcsw_t *m, unsigned p)
{
    inp_t *ip = &m->in[p];
    const unsigned V = m->p.NVC, D = m->p.DEPTH;
    const int r_v = ip->rv;
    const unsigned r_vc = ip->rvc;

    /* 3. RAM read choice (state after k-1): |M_v| > 0 and |S_v| + (R holds v) <= 2; round robin
     * over the candidates numbered by their VC v (doc: the numbering is implied, not stated) */
    int rd = -1;
    if (ip->mmask) {
        uint32_t q = 0;
        for (uint32_t mm = ip->mmask; mm; mm &= mm - 1u) {
            const unsigned v = ctz32(mm);
            if (m->vc[p][v].sn + (unsigned)(r_v && r_vc == v) <= 2u)
                q |= 1u << v;
        }
        if (q) {
            const uint32_t hi = q & ~((1u << ip->ram_rr) - 1u);
            rd = (int)ctz32(hi ? hi : q);
            ip->ram_rr = (uint8_t)((unsigned)rd + 1u == V ? 0u : (unsigned)rd + 1u);
        }
    }
    /* 4. write destination (state after k-1): staging if |M_v| = 0, R not v, |S_v| <= 2 */
    int wr_s = 0;
    if (m->wr[p]) {
        const vcst_t *vs = &m->vc[p][m->wr_vc[p]];
        wr_s = vs->mn == 0 && !(r_v && r_vc == m->wr_vc[p]) && vs->sn <= 2u;
    }

    /* 1. pops */
    for (uint32_t pm = m->pop[p]; pm; pm &= pm - 1u) {
        vcst_t *vs = &m->vc[p][ctz32(pm)];
        vs->s[0] = vs->s[1];
        vs->s[1] = vs->s[2];
        vs->sn--;
        vs->occ--;
    }
    /* 2. read register to staging */
    if (r_v)
        s_push(m, p, r_vc, &ip->r);
    /* 3. RAM read */
    if (rd >= 0) {
        vcst_t *vs = &m->vc[p][rd];
        ip->r = m->ram[((size_t)p * V + (unsigned)rd) * D + vs->mrd];
        ip->rv = 1;
        ip->rvc = (uint8_t)rd;
        vs->mrd = (uint16_t)(vs->mrd + 1u == D ? 0u : vs->mrd + 1u);
        vs->mn--;
    } else {
        ip->rv = 0;
    }
    /* 4. write */
    int wr_v = -1;
    if (m->wr[p]) {
        const unsigned v = m->wr_vc[p];
        wr_v = (int)v;
        vcst_t *vs = &m->vc[p][v];
        if (wr_s) {
            s_push(m, p, v, &m->wr_e[p]);
        } else {
            VASSERT(m, vs->mn < D, "RAM part of input %u VC %u above DEPTH", p, v);
            unsigned i = vs->mrd + vs->mn;
            if (i >= D)
                i -= D;
            m->ram[((size_t)p * V + v) * D + i] = m->wr_e[p];
            vs->mn++;
        }
        vs->occ++;
        VASSERT(m, vs->occ <= D, "occupancy %u of input %u VC %u above DEPTH %u", vs->occ, p, v, D);
        m->wr[p] = 0;
    }

    /* the masks of the VCs this step touched (pops, R, RAM read, write) */
    uint32_t t = m->pop[p] | (r_v ? 1u << r_vc : 0u) | (rd >= 0 ? 1u << (unsigned)rd : 0u) |
                 (wr_v >= 0 ? 1u << (unsigned)wr_v : 0u);
    uint16_t h = ip->hmask, mm = ip->mmask, om = ip->omask;
    for (; t; t &= t - 1u) {
        const unsigned v = ctz32(t);
        const uint16_t b = (uint16_t)(1u << v);
        const vcst_t *vs = &m->vc[p][v];
        h = (uint16_t)(vs->sn ? h | b : h & ~b);
        mm = (uint16_t)(vs->mn ? mm | b : mm & ~b);
        om = (uint16_t)(vs->occ >= m->stop_at ? om | b : om & ~b);
        VASSERT(m, vs->occ == vs->mn + vs->sn + (unsigned)(ip->rv && ip->rvc == v),
                "input %u VC %u: occupancy %u is not |M| %u + |S| %u + R", p, v, vs->occ, vs->mn, vs->sn);
    }
    ip->hmask = h;
    ip->mmask = mm;
    ip->omask = om;
}

/* ------------------------------------------------------------------ input register and lookup */

/* Latches the flit received on input p in step k with its lookup (tables as written by the writes
 * of steps < k: this step's write is applied later). */
static void input_register(vcsw_t *m, unsigned p, const vcsw_flit_t *f)
{
    inp_t *ip = &m->in[p];
    ip->iv = f->valid ? 1 : 0;
    if (!ip->iv)
        return;
    const unsigned V = m->p.NVC, v = f->vc & (V - 1u);
    ip->ivc = (uint8_t)v;
    ip->itail = f->tail ? 1 : 0;
    ip->idata = f->data & m->fmask;
    ip->io = ip->iu = 0;
    const uint8_t re = m->rt[ip->idata & m->tmask];
    const unsigned o = re & 15u;
    if (!(re & 0x80u) || o >= m->p.NPORTS) {
        ip->ilk = LK_DROP_ROUTE;
        return;
    }
    const unsigned ctl = v >= m->ndvc; /* a control VC (CTRL = 1): looked up as data VC v - NDVC */
    const uint8_t ve = m->vt[p][o][ctl ? v - m->ndvc : v];
    const unsigned u = ve & 15u;
    if (!(ve & 0x80u) || u >= m->ndvc) {
        ip->ilk = LK_DROP_VC;
        return;
    }
    ip->ilk = LK_OK;
    ip->io = (uint8_t)o;
    ip->iu = (uint8_t)(ctl ? u + m->ndvc : u);
}

/* ------------------------------------------------------------------ configuration port */

/* Table entry address decode: a pointer to the entry, or NULL if the index is outside its table.
 * doc: the index is the whole 14-bit field; index bits above the table's fields ({in,out,d} uses
 * 12 bits, {port,vc,ctr} 11) must be 0, else the index is outside its table. */
static uint8_t *table_entry(vcsw_t *m, unsigned space, unsigned idx)
{
    if (space == VCSW_SPACE_ROUTE)
        return idx <= m->tmask ? &m->rt[idx] : NULL;
    if (space == VCSW_SPACE_VC) {
        const unsigned i = idx >> 8, o = (idx >> 4) & 15u, d = idx & 15u;
        if (i >= m->p.NPORTS || o >= m->p.NPORTS || d >= m->ndvc) /* i >= 16 when bits 13:12 are set */
            return NULL;
        return &m->vt[i][o][d];
    }
    return NULL;
}

/* Configuration port in step k: a read is answered from the tables after k-1, then the write is done. */
static void config(vcsw_t *m, const vcsw_in_t *in)
{
    const uint64_t k = m->step;
    const unsigned space = (unsigned)in->cfg_addr >> 14, idx = (unsigned)in->cfg_addr & 0x3FFFu;
    if (m->rd_pend) {
        /* outstanding, including in the step it is answered: a read is ignored */
    } else if (in->cfg_re && !in->cfg_we) {
        m->rd_pend = 1;
        m->rd_ctr = 0;
        m->rd_ans = k + 1;
        if (space == VCSW_SPACE_ROUTE || space == VCSW_SPACE_VC) {
            const uint8_t *e = table_entry(m, space, idx);
            m->rd_val = e ? (uint32_t)(((*e & 0x80u) ? 0x8000u : 0u) | (*e & 15u)) : VCSW_RDATA_ERROR;
        } else if (space == VCSW_SPACE_CTR) {
            const unsigned port = idx >> 7, vc = (idx >> 3) & 15u, c = idx & 7u;
            /* doc: an index outside the counter table answers the error also with COUNTERS = 0 */
            if (port >= m->p.NPORTS || vc >= m->p.NVC) {
                m->rd_val = VCSW_RDATA_ERROR;
            } else if (!m->p.COUNTERS) {
                m->rd_val = 0;
            } else {
                m->rd_ctr = 1;
                m->rd_slot = slot_of(m, port, vc, c);
                m->rd_ans = ctr_sched_flush_step(&m->cs, m->rd_slot, k) + 1u;
            }
        } else {
            m->rd_val = VCSW_RDATA_ERROR;
        }
    }
    if (in->cfg_we) {
        uint8_t *e = table_entry(m, space, idx);
        if (e)
            *e = (uint8_t)(((in->cfg_wdata & 0x8000u) ? 0x80u : 0u) | (in->cfg_wdata & 15u));
    }
}

/* ------------------------------------------------------------------ step */

void vcsw_step(vcsw_t *m, const vcsw_in_t *in, vcsw_out_t *out)
{
    const unsigned N = m->p.NPORTS, L = m->p.LINK_DELAY;
    const uint64_t k = ++m->step;
    ctr_sched_begin_step(&m->cs, k);

    go_stop(m);
    for (unsigned p = 0; p < N; p++)
        if (m->in[p].iv)
            ingress(m, p);
    allocation(m, in);
    for (unsigned p = 0; p < N; p++) {
        const inp_t *ip = &m->in[p];
        if (m->pop[p] || ip->rv || ip->mmask || m->wr[p])
            buffer(m, p);
    }
    for (unsigned p = 0; p < N; p++)
        input_register(m, p, &in->rx[p]);
    config(m, in);

    /* counter read: the flush of its slot in step W is answered in step W+1 */
    out->cfg_rvalid = 0;
    out->cfg_rdata = 0;
    if (m->rd_pend) {
        if (m->rd_ctr && k + 1u == m->rd_ans)
            m->rd_val = ctr_sched_flush_value(&m->cs, m->rd_slot);
        else if (k == m->rd_ans) {
            out->cfg_rvalid = 1;
            out->cfg_rdata = m->rd_val;
            m->rd_pend = 0;
        }
    }

    /* outputs through the cable */
    if (L) {
        vcsw_flit_t *ct = &m->cab_tx[(size_t)m->cpos * N];
        uint16_t *cst = &m->cab_stop[(size_t)m->cpos * N];
        for (unsigned p = 0; p < N; p++) {
            out->tx[p] = ct[p];
            ct[p] = m->out[p].tx;
            out->rx_stop[p] = cst[p];
            cst[p] = m->in[p].stopreg;
        }
        if (++m->cpos == L)
            m->cpos = 0;
    } else {
        for (unsigned p = 0; p < N; p++) {
            out->tx[p] = m->out[p].tx;
            out->rx_stop[p] = m->in[p].stopreg;
        }
    }
    static const vcsw_flit_t idle = {0, 0, 0, 0};
    for (unsigned p = N; p < VCSW_MAX_PORTS; p++) {
        out->tx[p] = idle;
        out->rx_stop[p] = 0;
    }
}

/* ------------------------------------------------------------------ introspection */

uint32_t vcsw_counter(const vcsw_t *m, unsigned port, unsigned vc, unsigned ctr)
{
    if (!m || port >= m->p.NPORTS || vc >= m->p.NVC || ctr >= VCSW_NCTR)
        return 0;
    return ctr_sched_total(&m->cs, slot_of(m, port, vc, ctr));
}

const char *vcsw_counter_name(unsigned ctr)
{
    static const char *const names[VCSW_NCTR] = {"rx_flits",   "rx_pkts", "tx_flits", "tx_pkts",
                                                 "drop_route", "drop_vc", "trunc",    "overflow"};
    return ctr < VCSW_NCTR ? names[ctr] : "?";
}

unsigned vcsw_occupancy(const vcsw_t *m, unsigned port, unsigned vc)
{
    if (!m || port >= m->p.NPORTS || vc >= m->p.NVC)
        return 0;
    return m->vc[port][vc].occ;
}

/* ------------------------------------------------------------------ quiescence (for network simulators) */

/* Quiet: a step whose inputs are all idle (no rx flit, tx_stop 0, cfg_we = cfg_re = 0) would change
 * nothing but the step number (and what follows from it: the counter schedule's window of recent
 * events, which then records none, and the cable ring position). From vcsw_step with idle inputs:
 *   go_stop      stopreg = omask: both must be 0 already (omask is 0 when every buffer is empty; a
 *                stopreg of 1 still falls in this step)
 *   ingress      runs only for a flit in the input register: iv = 0 on every input. The ingress states
 *                (IDLE, PASS or DISCARD of a packet whose sender stalled) are not touched without a flit
 *   allocation   requests come from the offer registers: fv = 0. op->stop takes tx_stop = 0: stop = 0.
 *                No request, so every transmit register is made idle: tx idle already; the outputs'
 *                round robins stay; pop = 0 (the pops of the last step must be 0 already). Next offers:
 *                the candidates are the staged heads, hmask = 0, so fv stays 0 and arr stays. busy and
 *                the VCs' own (an output VC held by a packet whose sender stalled) do not change
 *   buffer       runs only with a pop, a read register, a RAM part or a write: pop = 0, rv = 0,
 *                mmask = 0, wr = 0 (hmask = mmask = rv = 0: every occupancy is 0); ram_rr stays
 *   input reg    idle flits: iv stays 0 (the register's other fields are kept as they are)
 *   config       nothing without a request or an outstanding read: rd_pend = 0 (an outstanding read is
 *                answered in a later step, which changes rd_val and the outputs: not quiet until then)
 *   counters     no events
 *   cable        an idle tx and stopreg 0 shifted into rings of idle flits and zero stop words: every
 *                cable register idle, only cpos moves
 * The outputs are then idle (tx all-zero, rx_stop 0, cfg_rvalid = cfg_rdata = 0), and every condition
 * above holds again after the step: a quiet model stays quiet over idle steps. Some conditions follow
 * from the others (rv, mmask, fv, omask from empty staging parts; stopreg and the cable's stop words
 * from the flits still to leave; pop from the transmit registers; wr is 0 after every step); each is
 * tested anyway, as the field the step reads. */
int vcsw_quiet(const vcsw_t *m)
{
    if (m->rd_pend)
        return 0;
    const unsigned N = m->p.NPORTS, L = m->p.LINK_DELAY;
    for (unsigned p = 0; p < N; p++) {
        const inp_t *ip = &m->in[p];
        if (ip->iv || ip->rv || ip->fv || ip->hmask || ip->mmask || ip->omask || ip->stopreg || m->pop[p] || m->wr[p])
            return 0;
        const outp_t *op = &m->out[p];
        if (op->stop || op->tx.valid || op->tx.vc || op->tx.tail || op->tx.data)
            return 0;
    }
    for (size_t i = 0; i < (size_t)L * N; i++) {
        const vcsw_flit_t *f = &m->cab_tx[i];
        if (f->valid || f->vc || f->tail || f->data || m->cab_stop[i])
            return 0;
    }
#ifdef SANFAB_ASSERT
    for (unsigned p = 0; p < N; p++)
        for (unsigned v = 0; v < m->p.NVC; v++)
            VASSERT(m, m->vc[p][v].occ == 0, "quiet with occupancy %u in input %u VC %u", m->vc[p][v].occ, p, v);
#endif
    return 1;
}

/* Exactly what n idle steps do to a quiet model: the step number and the cable position advance, and
 * the counter schedule forgets the events of the steps that leave its window (ctr_sched_begin_step of
 * the last min(n, LAG) of them: the earlier ones would clear rows that these clear again). Everything
 * else an idle step writes (tx, stop, stopreg, iv, fv, pop, the cable registers) it writes with the
 * value it already has. */
void vcsw_skip(vcsw_t *m, uint64_t n)
{
    if (n == 0)
        return;
    VASSERT(m, vcsw_quiet(m), "vcsw_skip(%llu) of a model that is not quiet", (unsigned long long)n);
    const uint64_t k0 = m->step;
    const uint64_t first = n > CTR_SCHED_LAG ? n - CTR_SCHED_LAG + 1u : 1u;
    for (uint64_t j = first; j <= n; j++)
        ctr_sched_begin_step(&m->cs, k0 + j);
    m->step = k0 + n;
    const unsigned L = m->p.LINK_DELAY;
    if (L)
        m->cpos = (unsigned)((m->cpos + n % L) % L);
}

uint64_t vcsw_steps(const vcsw_t *m) { return m->step; }

/* ------------------------------------------------------------------ state comparison (tests) */

static int ent_eq(const ent_t *a, const ent_t *b)
{
    return a->data == b->data && a->flags == b->flags && a->o == b->o && a->u == b->u;
}

static int flit_eq(const vcsw_flit_t *a, const vcsw_flit_t *b)
{
    return a->valid == b->valid && a->vc == b->vc && a->tail == b->tail && a->data == b->data;
}

/* Field by field (the structs have padding): every field, also those a valid bit makes irrelevant, so
 * that a skip which leaves any trace differs. */
int vcsw_state_equal(const vcsw_t *a, const vcsw_t *b)
{
    if (!a || !b)
        return a == b;
    if (memcmp(&a->p, &b->p, sizeof a->p) != 0) /* unsigned fields only: no padding */
        return 0;
    const unsigned N = a->p.NPORTS, V = a->p.NVC, D = a->p.DEPTH, L = a->p.LINK_DELAY;
    if (a->step != b->step || memcmp(a->rt, b->rt, (size_t)1 << a->p.TAG_W) != 0 || memcmp(a->vt, b->vt, sizeof a->vt))
        return 0;
    for (unsigned p = 0; p < N; p++) {
        const inp_t *x = &a->in[p], *y = &b->in[p];
        if (x->iv != y->iv || x->ivc != y->ivc || x->itail != y->itail || x->ilk != y->ilk || x->io != y->io ||
            x->iu != y->iu || x->idata != y->idata || x->rv != y->rv || x->rvc != y->rvc || !ent_eq(&x->r, &y->r) ||
            x->ram_rr != y->ram_rr || x->arr != y->arr || x->fv != y->fv || x->fvc != y->fvc || x->fo != y->fo ||
            x->fu != y->fu || x->ffirst != y->ffirst || x->hmask != y->hmask || x->mmask != y->mmask ||
            x->omask != y->omask || x->stopreg != y->stopreg)
            return 0;
        const outp_t *o = &a->out[p], *q = &b->out[p];
        if (o->busy != q->busy || o->stop != q->stop || o->rr != q->rr || !flit_eq(&o->tx, &q->tx))
            return 0;
        for (unsigned v = 0; v < V; v++) {
            const vcst_t *s = &a->vc[p][v], *t = &b->vc[p][v];
            for (unsigned i = 0; i < 3; i++)
                if (!ent_eq(&s->s[i], &t->s[i]))
                    return 0;
            if (s->sn != t->sn || s->mrd != t->mrd || s->mn != t->mn || s->occ != t->occ || s->ist != t->ist ||
                s->icnt != t->icnt || s->own != t->own || s->own_o != t->own_o || s->own_u != t->own_u)
                return 0;
        }
        if (a->pop[p] != b->pop[p] || a->wr[p] != b->wr[p] || a->wr_vc[p] != b->wr_vc[p] ||
            !ent_eq(&a->wr_e[p], &b->wr_e[p]))
            return 0;
    }
    for (size_t i = 0; i < (size_t)N * V * D; i++)
        if (!ent_eq(&a->ram[i], &b->ram[i]))
            return 0;
    if (a->cpos != b->cpos)
        return 0;
    for (size_t i = 0; i < (size_t)L * N; i++)
        if (!flit_eq(&a->cab_tx[i], &b->cab_tx[i]) || a->cab_stop[i] != b->cab_stop[i])
            return 0;
    if (a->rd_pend != b->rd_pend || a->rd_ctr != b->rd_ctr || a->rd_ans != b->rd_ans || a->rd_val != b->rd_val ||
        a->rd_slot != b->rd_slot)
        return 0;
    const ctr_sched_t *c = &a->cs, *d = &b->cs;
    if (c->ns != d->ns || c->mask != d->mask || c->step != d->step ||
        memcmp(c->tot, d->tot, c->ns * sizeof *c->tot) != 0 ||
        memcmp(c->recent, d->recent, (size_t)CTR_SCHED_LAG * c->ns * sizeof *c->recent) != 0 ||
        memcmp(c->ntouched, d->ntouched, sizeof c->ntouched) != 0)
        return 0;
    for (unsigned row = 0; row < CTR_SCHED_LAG; row++)
        if (memcmp(&c->touched[row * c->ns], &d->touched[row * d->ns], c->ntouched[row] * sizeof *c->touched) != 0)
            return 0;
    return 1;
}

/* sanfab — the VC switch C model (cmodel/vcsw.c): allocation and output of a step (docs/vcsw.md rule 3,
 * the stage "allocation" of vcsw.c's header comment). Calls no other file of the model.
 */
#include "vcsw_int.h"

#include <string.h>

/* ------------------------------------------------------------------ 3. allocation and output */

/* Rule 3.3: input p's offer register for step k+1, from the state after k-1 as it will be after its
 * own pop of step k. `taken`: its offer F was taken in step k (the ownership of F's VC is already
 * updated for it); blk: per output the VCs owned after k-1 or stopped in step k. The VCs are tried in
 * round-robin order from the position after step k and the first eligible one is offered: returns 1
 * with the offer's fields set, or 0 (no valid offer; the fields are left as they were). Records in
 * waitm the outputs whose blk it read (those of the first flits it tried). */
static int next_offer(vcsw_t *m, unsigned p, int taken, const uint16_t *blk)
{
    inp_t *ip = &m->in[p];
    const vcst_t *vcs = m->vc[p];
    const unsigned V = m->p.NVC;
    uint32_t cand = ip->hmask; /* VCs whose next head may exist: S_w[0] after k-1 */
    const unsigned fv = ip->fvc;
    const ent_t *fnext = NULL; /* next head of F's VC when F is taken */
    unsigned tw = VCSW_MAX_VCS; /* F's VC when F is taken and fnext exists, else none */
    if (taken) {
        const vcst_t *vs = &vcs[fv];
        /* S_v[1] if |S_v| >= 2, else R's entry if of v (with |S_v| = 1 it follows S_v[0] too) */
        if (vs->sn >= 2 || ((m->rvm >> p & 1u) && ip->rvc == fv))
            fnext = &vs->ring[(vs->hd + 1u) & m->dmask];
        /* doc: an entry that reaches an empty staging part in step k is not seen */
        if (!fnext)
            cand &= ~(1u << fv);
        else
            tw = fv;
        ip->arr = (uint8_t)(fv + 1u == V ? 0u : fv + 1u); /* the position moves past v only when F is taken */
    }
    /* the candidates rotated so that bit i is VC (arr + i) mod NVC: round-robin order from arr */
    const unsigned a = ip->arr;
    uint32_t rot = ((cand >> a) | (cand << (V - a))) & m->vmask;
    uint32_t wait = 0; /* the outputs whose blk this preparation reads */
    for (; rot; rot &= rot - 1u) {
        const unsigned w = (ctz32(rot) + a) & (V - 1u);
        const vcst_t *ws = &vcs[w];
        const ent_t *e = w == tw ? fnext : &ws->ring[ws->hd];
        if (e->flags & E_FIRST) {
            VASSERT(m, !ws->own || (taken && w == fv),
                    "input %u VC %u owns an output VC but its next head is a first flit", p, w);
            /* doc: "free after step k-1", taken literally, also when the output VC is owned by
             * F's own packet whose tail F takes in step k: the next packet of the same VC to the
             * same output VC is offered one step later (one idle step between back-to-back
             * packets on one output VC unless another VC fills it; see the report to the doc's
             * owner: "Latency and throughput" says the other VCs keep the whole link) */
            wait |= 1u << e->o;
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
        ip->fvc = (uint8_t)w;
        ip->waitm = (uint16_t)wait;
        return 1;
    }
    ip->waitm = (uint16_t)wait;
    return 0;
}

/* Allocation in step k from the state after k-1 (rule 3, pipelined and separable). The offer
 * registers F (after k-1) request their outputs (3.1: a first flit only if its output VC is free
 * after k-1 and its stop bit used in step k is 0); each output takes one requesting input, round
 * robin over input numbers (3.1), and the flit taken is popped and put into the transmit register
 * (3.2). Then every input prepares its offer register for step k+1 (3.3) from the state after k-1
 * as it will be after its own pop of step k. Decides the pops (popm, popv: at most one per input),
 * the transmit registers, the ownership changes, the round-robin positions and the offer registers;
 * registers tx_stop for step k+1. Only the inputs with a valid offer request; only the outputs with
 * a request or a transmit register to make idle are visited.
 *
 * Rule 3.3 is evaluated (next_offer) only for the inputs whose result can differ from the offer they
 * hold (the one prepared in step k-1, or earlier and kept since): an input with no staged head after
 * k-1 has no candidate, so its offer is not valid and its position stays, and it holds no valid offer
 * already (a valid offer's VC keeps an entry in staging after the step that prepared it: fvm within
 * hm). An input with staged heads whose offer is not taken in step k evaluates rule 3.3 on its hmask,
 * the heads S_w[0], the ownership of its VCs, its position and the blk bits of the outputs its heads
 * name. Its position and ownership change only in a step that takes its offer, and its heads only in a
 * step that changes its staging parts (a pop, which follows a take, or a push): if neither happened in
 * step k-1 (sch) and no output it looked at (waitm) has other blk bits in step k than in step k-1, the
 * evaluation would read what the previous one read and give the offer it holds. So the inputs taken
 * in step k, those of sch, and those looking at an output whose blk changed are evaluated; the others
 * keep their offer register (and waitm) as they are. */
void vcsw_allocation(vcsw_t *m, const vcsw_in_t *in)
{
    const unsigned N = m->p.NPORTS;
    uint16_t req[VCSW_MAX_PORTS]; /* per output: the inputs requesting it */
    uint16_t blk[VCSW_MAX_PORTS]; /* per output: its VCs owned after k-1 or with stop bit 1 in step k */
    uint32_t reqo = 0;            /* outputs requested */
    uint32_t taken = 0;           /* inputs whose offer is taken in step k */

    /* 3.1 requests, on the state after k-1 (snapshot before this step's ownership changes) */
    for (unsigned o = 0; o < VCSW_MAX_PORTS; o++) {
        req[o] = 0;
        blk[o] = (uint16_t)(m->busy[o] | m->stop[o]);
    }
    uint32_t chg = 0; /* outputs whose blk differs from the last step's */
    if (memcmp(blk, m->blk_prev, sizeof blk) != 0) {
        for (unsigned o = 0; o < N; o++)
            chg |= (uint32_t)(blk[o] != m->blk_prev[o]) << o;
        memcpy(m->blk_prev, blk, sizeof blk);
    }
    m->popm = 0;
    for (uint32_t f = m->fvm; f; f &= f - 1u) {
        const unsigned p = ctz32(f);
        const inp_t *ip = &m->in[p];
        if (!ip->ffirst || !(blk[ip->fo] >> ip->fu & 1u)) {
            req[ip->fo] |= (uint16_t)(1u << p);
            reqo |= 1u << ip->fo;
        }
    }
    for (unsigned o = 0; o < VCSW_MAX_PORTS; o++)
        m->stop[o] = (uint16_t)(in->tx_stop[o] & m->pvm[o]); /* used in step k+1; 0 past NPORTS */

    /* 3.1 output arbitration and 3.2 transmit; an output that takes nothing holds an idle flit */
    for (uint32_t t = m->txm & ~reqo; t; t &= t - 1u) {
        vcsw_flit_t *tx = &m->txr[ctz32(t)];
        tx->valid = tx->vc = tx->tail = 0;
        tx->data = 0;
    }
    m->txm = reqo;
    for (uint32_t r = reqo; r; r &= r - 1u) {
        const unsigned o = ctz32(r);
        const unsigned p = rr_first(req[o], m->orr[o]);
        m->orr[o] = (uint16_t)(p + 1u == N ? 0u : p + 1u); /* past the input taken */
        taken |= 1u << p;
        const inp_t *ip = &m->in[p];
        const unsigned v = ip->fvc, u = ip->fu;
        vcst_t *vs = &m->vc[p][v];
        const ent_t *e = &vs->ring[vs->hd]; /* S_v[0] */
        VASSERT(m, vs->sn > 0, "input %u: offer of VC %u taken but its staging part is empty", p, v);
        VASSERT(m, !(e->flags & E_FIRST) == !ip->ffirst, "input %u VC %u: the offer's first bit is not the head's", p,
                v);
        VASSERT(m, ip->ffirst ? (e->o == o && e->u == u) : (vs->own && vs->own_o == o && vs->own_u == u),
                "input %u VC %u: the offer's route (%u, %u) is not the head's", p, v, o, u);
        const int tail = e->flags & E_TAIL;
        if (ip->ffirst) {
            if (!tail) { /* owns output VC u of o from step k+1 */
                m->busy[o] |= (uint16_t)(1u << u);
                vs->own = 1;
                vs->own_o = (uint8_t)o;
                vs->own_u = (uint8_t)u;
            }
        } else if (tail) { /* the VC it owned is free from step k+1 */
            VASSERT(m, m->busy[o] >> u & 1u, "output %u VC %u owned by input %u VC %u but not busy", o, u, p, v);
            m->busy[o] &= (uint16_t)~(1u << u);
            vs->own = 0;
        }
        m->popm |= 1u << p;
        m->popv[p] = (uint8_t)v;
        vcsw_flit_t *tx = &m->txr[o];
        tx->valid = 1;
        tx->vc = (uint8_t)u;
        tx->tail = tail ? 1 : 0;
        tx->data = e->data;
        const unsigned sl = slot_of(m, o, u, VCSW_CTR_TX_FLITS);
        ctr_sched_event(&m->cs, sl);
        if (tail)
            ctr_sched_event(&m->cs, sl + (VCSW_CTR_TX_PKTS - VCSW_CTR_TX_FLITS));
    }

    /* 3.3 the next offers, of the inputs whose offer may change (above) */
    VASSERT(m, (m->fvm & ~m->hm) == 0 && (taken & ~m->hm) == 0, "offer valid on an input without staged heads");
    uint32_t eval = taken | (m->hm & m->sch);
    if (chg)
        for (uint32_t c = m->hm & ~eval; c; c &= c - 1u) {
            const unsigned p = ctz32(c);
            if (m->in[p].waitm & chg)
                eval |= 1u << p;
        }
    uint32_t fvm = m->fvm & ~eval;
    for (uint32_t c = eval; c; c &= c - 1u) {
        const unsigned p = ctz32(c);
        fvm |= (uint32_t)next_offer(m, p, (int)(taken >> p & 1u), blk) << p;
    }
#ifdef SANFAB_ASSERT
    for (uint32_t c = m->hm & ~eval; c; c &= c - 1u) { /* the offers kept are those rule 3.3 gives */
        const unsigned p = ctz32(c);
        inp_t *ip = &m->in[p];
        const inp_t keep = *ip;
        const int fv = next_offer(m, p, 0, blk);
        VASSERT(m, fv == (int)(fvm >> p & 1u) && keep.arr == ip->arr && keep.waitm == ip->waitm &&
                       keep.fvc == ip->fvc && keep.fo == ip->fo && keep.fu == ip->fu && keep.ffirst == ip->ffirst,
                "input %u: the offer kept is not the one rule 3.3 gives", p);
    }
#endif
    m->fvm = fvm;
}

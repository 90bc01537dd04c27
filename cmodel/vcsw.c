/* sanfab — cycle-exact C model of the table-lookup virtual-channel switch, written from its contract
 * docs/vcsw.md, not from the RTL. Section names below are the doc's.
 *
 * One vcsw_step() is one step k. Every value of step k is computed from the state after step k-1
 * and the inputs of step k. The stages run in this order, each reading only step-(k-1) state:
 *
 *   go_stop      rx_stop register from the occupancies after k-1 (before anything changes them)
 *   ingress      the flit in the input register (received in k-1): head lookup result, ingress
 *                state, MAXLEN cut and admission against the occupancy after k-1; it only
 *                *decides* the entry to write (wr_*): it puts it into the free ring slot after
 *                the VC's last entry, where the write of step 2.4 puts it, but no count or part
 *                of the buffer changes yet
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
 * Speed (a network simulator steps many of these; docs/vcsw.md "C model: speed"): a stage visits only
 * the ports it can change, found through sets of ports (bit masks) that the stages keep up to date as
 * they go: inputs with a flit in the input register, a valid offer, a staged head, a read register, a
 * pop, an entry to write or a VC that qualifies for the RAM read; outputs with a request or a valid
 * transmit register. A port a stage does not visit is one where the stage would change nothing (each
 * such skip is argued where it is made), so the results are those of visiting every port. An input's
 * offer (rule 3.3) is prepared again only when something it reads has changed (vcsw_allocation()). Each
 * (input, VC) buffer is one ring in FIFO order (vcst_t), so that entries do not move between its parts.
 * Registers that every step copies for every port (rx_stop, transmit, cables) are whole arrays over
 * VCSW_MAX_PORTS ports. Counter events go to ctr_sched.h's lists.
 *
 * vcsw_quiet/vcsw_skip (vcsw_cfg.c) let a network simulator skip the steps of an idle switch.
 *
 * Doc readings the model had to choose are marked "doc:" and reported to the doc's owner.
 *
 * The model is cut into files (calls one way, from this file to the others): this file, the step and
 * its stages but allocation; vcsw_alloc.c, allocation and output; vcsw_cfg.c, parameters, life cycle,
 * configuration port, introspection, quiescence, state comparison; vcsw_int.h, the state they share.
 */
#include "vcsw_int.h"

#include <string.h>

/* ------------------------------------------------------------------ 4. Go & Stop */

/* rx_stop register after step k: occupancy after step k-1 >= STOP_AT (the cable follows in outputs()),
 * kept per input as the mask omask, updated by buffer() wherever an occupancy changes (0 past NPORTS). */
static void go_stop(vcsw_t *m)
{
    memcpy(m->stopreg, m->omask, sizeof m->stopreg);
}

/* ------------------------------------------------------------------ 1. ingress */

/* Admission of entry e (tail possibly already set by a MAXLEN cut) into (p, v), occupancy n after
 * step k-1 (vs: its state, sb: its counter slot 0). `head`: it is a packet's first flit; `rx_tail`: the
 * tail bit it was received with.
 * Returns the new ingress state given `st` the state the packet rules chose. */
static inline unsigned admit(vcsw_t *m, unsigned p, unsigned v, vcst_t *vs, unsigned sb, ent_t e, int head,
                             int rx_tail, unsigned st)
{
    const unsigned D = m->p.DEPTH, n = vs->occ;
    if (n >= D) {
        /* discarded; only a head can find the buffer full */
        VASSERT(m, n == D, "occupancy %u of input %u VC %u above DEPTH %u", n, p, v, D);
        VASSERT(m, head, "a body flit found the buffer of input %u VC %u full", p, v);
        if (head)
            ctr_sched_event(&m->cs, sb + VCSW_CTR_OVERFLOW);
        return rx_tail ? IG_IDLE : IG_DISCARD;
    }
    if (n == D - 1u && !(e.flags & E_TAIL)) { /* stored as a tail (cut) */
        e.flags |= E_TAIL;
        ctr_sched_event(&m->cs, sb + VCSW_CTR_OVERFLOW);
        st = IG_DISCARD;
    }
    m->wrm |= 1u << p;
    m->wr_vc[p] = (uint8_t)v;
    /* the entry goes to the ring slot after the n entries held: free now, and the same slot after
     * this step's pop (hd + 1, n - 1); buffer() counts it in S_v or M_v */
    vs->ring[(vs->hd + n) & m->dmask] = e;
    return st;
}

/* Ingress of input p in step k: the flit in the input register (received in step k-1). */
static void ingress(vcsw_t *m, unsigned p)
{
    inp_t *ip = &m->in[p];
    const unsigned v = ip->ivc;
    vcst_t *vs = &m->vc[p][v];
    const int tail = ip->itail;
    const unsigned sb = slot_of(m, p, v, 0); /* + ctr: the counters of (p, v) */
    ctr_sched_event(&m->cs, sb + VCSW_CTR_RX_FLITS);
    switch (vs->ist) {
    case IG_IDLE: {
        ctr_sched_event(&m->cs, sb + VCSW_CTR_RX_PKTS);
        if (ip->ilk == LK_DROP_ROUTE) {
            ctr_sched_event(&m->cs, sb + VCSW_CTR_DROP_ROUTE);
            vs->ist = tail ? IG_IDLE : IG_DISCARD;
            break;
        }
        if (ip->ilk == LK_DROP_VC) {
            ctr_sched_event(&m->cs, sb + VCSW_CTR_DROP_VC);
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
            ctr_sched_event(&m->cs, sb + VCSW_CTR_TRUNC);
            st = IG_DISCARD;
        }
        vs->icnt = 1;
        vs->ist = (uint8_t)admit(m, p, v, vs, sb, e, 1, tail, st);
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
            ctr_sched_event(&m->cs, sb + VCSW_CTR_TRUNC);
            st = IG_DISCARD;
        }
        VASSERT(m, vs->icnt <= m->p.MAXLEN, "input %u VC %u: packet count %u above MAXLEN", p, v, vs->icnt);
        vs->ist = (uint8_t)admit(m, p, v, vs, sb, e, 0, tail, st);
        break;
    }
    default: /* IG_DISCARD */
        if (tail)
            vs->ist = IG_IDLE;
        break;
    }
}

/* ------------------------------------------------------------------ 2. input buffer */

/* The entry that follows S_v's last (R's entry, or the one written this step) joins S_v. */
static inline void s_push(vcsw_t *m, unsigned p, unsigned v)
{
    inp_t *ip = &m->in[p];
    vcst_t *vs = &m->vc[p][v];
    VASSERT(m, vs->sn < 3, "staging of input %u VC %u above 3 entries", p, v);
    ip->hmask |= (uint16_t)(1u << v);
    m->hm |= 1u << p;
    if (++vs->sn == 3u) {
        ip->fullm |= (uint16_t)(1u << v);
        if (!(ip->mmask & ~ip->fullm))
            m->rdm &= ~(1u << p);
    }
}

/* The buffer of input p in step k (rule 2): pop, read register to staging, RAM read, write; every
 * condition on the counts after step k-1. In the ring (vcst_t) these change counts only; each
 * operation updates the VC masks (hmask, mmask, fullm, omask) and the sets of inputs (hm, rdm) that
 * its change can change. */
static void buffer(vcsw_t *m, unsigned p)
{
    inp_t *ip = &m->in[p];
    vcst_t *const vcs = m->vc[p];
    const uint32_t pb = 1u << p;
    const int r_v = (m->rvm & pb) != 0, pop = (m->popm & pb) != 0, wr = (m->wrm & pb) != 0;
    const unsigned r_vc = ip->rvc;

    /* 3. RAM read choice (state after k-1): |M_v| > 0 and |S_v| + (R holds v) <= 2; round robin
     * over the candidates numbered by their VC v (doc: the numbering is implied, not stated).
     * |S_v| <= 2: not in fullm; R's own VC also needs |S_v| <= 1. */
    uint32_t q = (uint32_t)(ip->mmask & ~ip->fullm);
    if (r_v && (q >> r_vc & 1u) && vcs[r_vc].sn == 2u)
        q &= ~(1u << r_vc);
    /* 4. write destination (state after k-1): staging if |M_v| = 0, R not v, |S_v| <= 2 */
    int wr_s = 0;
    if (wr) {
        const unsigned wv = m->wr_vc[p];
        const vcst_t *vs = &vcs[wv];
        wr_s = vs->mn == 0 && !(r_v && r_vc == wv) && vs->sn <= 2u;
    }
    if (pop || r_v || wr_s) /* the staging parts change */
        m->sch |= pb;

    /* 1. pop: S_v[0] leaves (|S_v| <= 2 after it; the occupancy falls below STOP_AT if it was STOP_AT) */
    if (pop) {
        const unsigned v = m->popv[p];
        const uint16_t b = (uint16_t)(1u << v);
        vcst_t *vs = &vcs[v];
        vs->hd = (uint16_t)((vs->hd + 1u) & m->dmask);
        if (vs->sn-- == 3u) {
            ip->fullm &= (uint16_t)~b;
            if (ip->mmask & b)
                m->rdm |= pb;
        }
        if (vs->sn == 0 && !(ip->hmask &= (uint16_t)~b))
            m->hm &= ~pb;
        if (vs->occ-- == m->stop_at)
            m->omask[p] &= (uint16_t)~b;
    }
    /* 2. read register to staging (the occupancy counts R already) */
    if (r_v)
        s_push(m, p, r_vc);
    /* 3. RAM read: M_v's oldest becomes R's entry */
    if (q) {
        const unsigned rd = rr_first(q, ip->ram_rr);
        ip->ram_rr = (uint8_t)(rd + 1u == m->p.NVC ? 0u : rd + 1u);
        m->rvm |= pb;
        ip->rvc = (uint8_t)rd;
        if (--vcs[rd].mn == 0 && !((ip->mmask &= (uint16_t)~(1u << rd)) & ~ip->fullm))
            m->rdm &= ~pb;
    } else {
        m->rvm &= ~pb;
    }
    /* 4. write: the entry (already in the ring after the VC's last) joins S_v or M_v */
    if (wr) {
        const unsigned wv = m->wr_vc[p];
        vcst_t *vs = &vcs[wv];
        if (wr_s) {
            s_push(m, p, wv);
        } else {
            VASSERT(m, vs->mn < m->p.DEPTH, "RAM part of input %u VC %u above DEPTH", p, wv);
            vs->mn++;
            ip->mmask |= (uint16_t)(1u << wv);
            if (!(ip->fullm >> wv & 1u))
                m->rdm |= pb;
        }
        if (++vs->occ == m->stop_at)
            m->omask[p] |= (uint16_t)(1u << wv);
        VASSERT(m, vs->occ <= m->p.DEPTH, "occupancy %u of input %u VC %u above DEPTH %u", vs->occ, p, wv, m->p.DEPTH);
    }
}

/* The buffers in step k (rule 2). Only the inputs where something happens are visited: a pop, a read
 * register, an entry to write, or a VC that qualifies for the RAM read (rdm: a VC with |M_v| > 0 and
 * |S_v| <= 2; with a read register, its own VC also needs |S_v| <= 1, but then the input is visited
 * for its read register anyway). An input outside these pops nothing, moves nothing, reads nothing
 * (R stays empty) and writes nothing. */
static void buffers(vcsw_t *m)
{
    const uint32_t set = m->popm | m->rvm | m->wrm | m->rdm;
    m->sch = 0;
    for (uint32_t s = set; s; s &= s - 1u)
        buffer(m, ctz32(s));
    m->wrm = 0;
}

/* ------------------------------------------------------------------ input register and lookup */

/* Latches the flit received on input p in step k with its lookup (tables as written by the writes
 * of steps < k: this step's write is applied later); called for a valid flit only (the input
 * register's valid bit is bit p of ivm, set by the caller; an idle flit leaves the other fields). */
static void input_register(vcsw_t *m, unsigned p, const vcsw_flit_t *f)
{
    inp_t *ip = &m->in[p];
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

/* ------------------------------------------------------------------ step */

#ifdef SANFAB_ASSERT
/* After a step: the sets of ports and the per-input masks agree with the state they summarize. */
static void check_sets(const vcsw_t *m)
{
    const unsigned N = m->p.NPORTS, V = m->p.NVC;
    VASSERT(m, m->wrm == 0, "entries left to write after the step");
    VASSERT(m, (m->fvm & ~m->hm) == 0, "offer valid on an input without staged heads");
    for (unsigned p = 0; p < VCSW_MAX_PORTS; p++) {
        const inp_t *ip = &m->in[p];
        const uint32_t pb = 1u << p;
        uint16_t h = 0, mm = 0, fm = 0, om = 0;
        for (unsigned v = 0; p < N && v < V; v++) {
            const vcst_t *vs = &m->vc[p][v];
            h |= (uint16_t)((vs->sn > 0) << v);
            mm |= (uint16_t)((vs->mn > 0) << v);
            fm |= (uint16_t)((vs->sn == 3) << v);
            om |= (uint16_t)((vs->occ >= m->stop_at) << v);
            VASSERT(m, vs->occ == vs->mn + vs->sn + (unsigned)((m->rvm & pb) && ip->rvc == v),
                    "input %u VC %u: occupancy %u is not |M| %u + |S| %u + R", p, v, vs->occ, vs->mn, vs->sn);
        }
        VASSERT(m, ip->hmask == h && ip->mmask == mm && ip->fullm == fm && m->omask[p] == om,
                "input %u: VC masks 0x%x 0x%x 0x%x 0x%x, state says 0x%x 0x%x 0x%x 0x%x", p, ip->hmask, ip->mmask,
                ip->fullm, m->omask[p], h, mm, fm, om);
        VASSERT(m, !(m->hm & pb) == !h && !(m->rdm & pb) == !(mm & ~fm), "input %u: sets of inputs out of date", p);
        VASSERT(m, p < N || !((m->ivm | m->rvm | m->fvm | m->popm | m->txm) & pb), "port %u past NPORTS in a set", p);
        VASSERT(m, !(m->txm & pb) == !m->txr[p].valid, "output %u: transmit set out of date", p);
    }
}
#endif

void vcsw_step(vcsw_t *m, const vcsw_in_t *in, vcsw_out_t *out)
{
    const unsigned N = m->p.NPORTS, L = m->p.LINK_DELAY;
    const uint64_t k = ++m->step;
    ctr_sched_begin_step(&m->cs, k);

    go_stop(m);
    for (uint32_t s = m->ivm; s; s &= s - 1u)
        ingress(m, ctz32(s));
    vcsw_allocation(m, in);
    buffers(m);
    uint32_t iv = 0;
    for (unsigned p = 0; p < N; p++)
        if (in->rx[p].valid) {
            iv |= 1u << p;
            input_register(m, p, &in->rx[p]);
        }
    m->ivm = iv;
    if (m->rd_pend || in->cfg_we || in->cfg_re) /* else the port does nothing */
        vcsw_config(m, in);

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

    /* outputs through the cable: whole rows of VCSW_MAX_PORTS ports (idle and 0 past NPORTS) */
    if (L) {
        vcsw_flit_t *ct = &m->cab_tx[(size_t)m->cpos * VCSW_MAX_PORTS];
        uint16_t *cst = &m->cab_stop[(size_t)m->cpos * VCSW_MAX_PORTS];
        memcpy(out->tx, ct, sizeof out->tx);
        memcpy(ct, m->txr, sizeof m->txr);
        memcpy(out->rx_stop, cst, sizeof out->rx_stop);
        memcpy(cst, m->stopreg, sizeof m->stopreg);
        if (++m->cpos == L)
            m->cpos = 0;
    } else {
        memcpy(out->tx, m->txr, sizeof out->tx);
        memcpy(out->rx_stop, m->stopreg, sizeof out->rx_stop);
    }
#ifdef SANFAB_ASSERT
    check_sets(m);
#endif
}

/* sanfab — the VC switch C model (cmodel/vcsw.c): parameters, life cycle, configuration port (the
 * tables), introspection, quiescence (vcsw_quiet/vcsw_skip) and state comparison. Calls no other file
 * of the model.
 */
#include "vcsw_int.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ parameters */

/* the header's limits are the table's ranges (cmodel/sanfab_params.h) */
enum {
#define VCSW_PARAM(NAME, DEFAULT, LO, HI) VCSW_HI_##NAME = HI,
#include "sanfab_params.h"
};
_Static_assert(VCSW_HI_NPORTS == VCSW_MAX_PORTS, "VCSW_MAX_PORTS is not NPORTS's HI in cmodel/sanfab_params.h");
_Static_assert(VCSW_HI_NVC == VCSW_MAX_VCS, "VCSW_MAX_VCS is not NVC's HI in cmodel/sanfab_params.h");
_Static_assert(VCSW_HI_LINK_DELAY == VCSW_MAX_LINK_DELAY, "VCSW_MAX_LINK_DELAY is not LINK_DELAY's HI in cmodel/sanfab_params.h");

vcsw_params_t vcsw_default_params(void)
{
    /* the defaults of cmodel/sanfab_params.h, the one table of them */
    vcsw_params_t p = {
#define VCSW_PARAM(NAME, DEFAULT, LO, HI) .NAME = DEFAULT,
#include "sanfab_params.h"
    };
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
    m->dmask = p->DEPTH - 1u;
    m->fmask = p->FLIT_W >= 32 ? 0xFFFFFFFFu : ((1u << p->FLIT_W) - 1u);
    m->tmask = (1u << p->TAG_W) - 1u;
    m->vmask = (uint16_t)((1u << p->NVC) - 1u);
    m->vsh = (unsigned)__builtin_ctz(p->NVC) + 3u;
    for (unsigned i = 0; i < p->NPORTS; i++)
        m->pvm[i] = m->vmask;
    m->rt = calloc((size_t)1 << p->TAG_W, 1);
    m->ram = calloc((size_t)p->NPORTS * p->NVC * p->DEPTH, sizeof *m->ram);
    if (p->LINK_DELAY) {
        m->cab_tx = calloc((size_t)p->LINK_DELAY * VCSW_MAX_PORTS, sizeof *m->cab_tx);
        m->cab_stop = calloc((size_t)p->LINK_DELAY * VCSW_MAX_PORTS, sizeof *m->cab_stop);
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
    memset(m->vc, 0, sizeof m->vc);
    for (unsigned i = 0; i < p->NPORTS; i++)
        for (unsigned v = 0; v < p->NVC; v++)
            m->vc[i][v].ring = &m->ram[((size_t)i * p->NVC + v) * p->DEPTH];
    memset(m->omask, 0, sizeof m->omask);
    memset(m->stopreg, 0, sizeof m->stopreg);
    memset(m->busy, 0, sizeof m->busy);
    memset(m->stop, 0, sizeof m->stop);
    memset(m->orr, 0, sizeof m->orr);
    memset(m->txr, 0, sizeof m->txr);
    memset(m->blk_prev, 0, sizeof m->blk_prev);
    m->sch = 0;
    m->ivm = m->rvm = m->fvm = m->hm = m->rdm = m->txm = 0;
    if (p->LINK_DELAY) {
        memset(m->cab_tx, 0, (size_t)p->LINK_DELAY * VCSW_MAX_PORTS * sizeof *m->cab_tx);
        memset(m->cab_stop, 0, (size_t)p->LINK_DELAY * VCSW_MAX_PORTS * sizeof *m->cab_stop);
    }
    m->cpos = 0;
    m->rd_pend = m->rd_ctr = 0;
    m->rd_ans = 0;
    m->rd_val = 0;
    m->rd_slot = 0;
    ctr_sched_reset(&m->cs);
    m->popm = m->wrm = 0;
    memset(m->popv, 0, sizeof m->popv);
    memset(m->wr_vc, 0, sizeof m->wr_vc);
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
void vcsw_config(vcsw_t *m, const vcsw_in_t *in)
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

/* ------------------------------------------------------------------ introspection */

uint32_t vcsw_counter(const vcsw_t *m, unsigned port, unsigned vc, unsigned ctr)
{
    if (!m || port >= m->p.NPORTS || vc >= m->p.NVC || ctr >= VCSW_NCTR)
        return 0;
    return ctr_sched_total(&m->cs, slot_of(m, port, vc, ctr));
}

void vcsw_ctr_preset(vcsw_t *m, unsigned port, unsigned vc, unsigned ctr, uint32_t add)
{
    if (!m || port >= m->p.NPORTS || vc >= m->p.NVC || ctr >= VCSW_NCTR)
        return;
    /* a flush after this step counts it, a flush before did not */
    ctr_sched_add(&m->cs, slot_of(m, port, vc, ctr), add);
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
 * events, which then records none, and the cable ring position), besides allocation's record of the
 * owned and stop bits it saw (blk_prev, a cache of the model, not a register: it becomes busy | stop,
 * stop being 0). From vcsw_step with idle inputs:
 *   go_stop      stopreg = omask: both must be 0 already (omask is 0 when every buffer is empty; a
 *                stopreg of 1 still falls in this step)
 *   ingress      runs only for a flit in the input register (the inputs of ivm): ivm = 0. The ingress
 *                states (IDLE, PASS or DISCARD of a packet whose sender stalled) are not touched without a flit
 *   allocation   requests come from the valid offer registers (fvm): fvm = 0. stop takes tx_stop = 0:
 *                stop = 0. No request, so every transmit register is made idle: tx idle already (txm = 0);
 *                the outputs' round robins stay; popm = 0 (the pops of the last step must be none already).
 *                Next offers: the candidates are the staged heads, hm = 0 (every hmask 0), so fvm stays 0
 *                and arr stays. busy and the VCs' own (an output VC held by a packet whose sender stalled)
 *                do not change
 *   buffer       runs only with a pop, a read register, a RAM part or a write: popm = rvm = wrm = 0 and
 *                every mmask 0 (so rdm = 0; hm = 0, mmask = 0, rvm = 0: every occupancy is 0); ram_rr stays
 *   input reg    idle flits: ivm stays 0 (the register's other fields are kept as they are)
 *   config       nothing without a request or an outstanding read: rd_pend = 0 (an outstanding read is
 *                answered in a later step, which changes rd_val and the outputs: not quiet until then)
 *   counters     no events
 *   cable        an idle tx and stopreg 0 shifted into rings of idle flits and zero stop words: every
 *                cable register idle, only cpos moves
 * The outputs are then idle (tx all-zero, rx_stop 0, cfg_rvalid = cfg_rdata = 0), and every condition
 * above holds again after the step: a quiet model stays quiet over idle steps. Some conditions follow
 * from the others (rvm, mmask, rdm, fvm, omask from empty staging parts; stopreg and the cable's stop words
 * from the flits still to leave; popm from the transmit registers; wrm is 0 after every step); each is
 * tested anyway, as the field the step reads. */
int vcsw_quiet(const vcsw_t *m)
{
    if (m->rd_pend)
        return 0;
    if (m->ivm | m->rvm | m->fvm | m->hm | m->rdm | m->popm | m->wrm | m->sch)
        return 0;
    const unsigned N = m->p.NPORTS, L = m->p.LINK_DELAY;
    for (unsigned p = 0; p < N; p++) {
        if (m->in[p].mmask || m->omask[p] || m->stopreg[p] || m->stop[p])
            return 0;
        const vcsw_flit_t *tx = &m->txr[p];
        if (tx->valid || tx->vc || tx->tail || tx->data)
            return 0;
    }
    for (size_t i = 0; i < (size_t)L * VCSW_MAX_PORTS; i++) {
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
 * the last min(n, LAG) of them: the earlier ones would clear rows that these clear again), and
 * allocation's record of the owned and stop bits it saw (blk_prev) becomes what an idle step sees.
 * Everything else an idle step writes (stop, stopreg, ivm, fvm, popm, txm, sch, the cable registers)
 * it writes with the value it already has. */
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
    /* allocation's record of the blk bits it saw: an idle step sees busy | stop with stop 0 */
    for (unsigned o = 0; o < VCSW_MAX_PORTS; o++)
        m->blk_prev[o] = (uint16_t)(m->busy[o] | m->stop[o]);
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
    if (a->ivm != b->ivm || a->rvm != b->rvm || a->fvm != b->fvm || a->hm != b->hm || a->rdm != b->rdm ||
        a->txm != b->txm || a->popm != b->popm || a->wrm != b->wrm || a->sch != b->sch)
        return 0;
    for (unsigned p = 0; p < VCSW_MAX_PORTS; p++) {
        if (a->omask[p] != b->omask[p] || a->stopreg[p] != b->stopreg[p] || a->busy[p] != b->busy[p] ||
            a->stop[p] != b->stop[p] || a->orr[p] != b->orr[p] || !flit_eq(&a->txr[p], &b->txr[p]) ||
            a->blk_prev[p] != b->blk_prev[p] || a->pvm[p] != b->pvm[p])
            return 0;
    }
    for (unsigned p = 0; p < N; p++) {
        const inp_t *x = &a->in[p], *y = &b->in[p];
        if (x->ivc != y->ivc || x->itail != y->itail || x->ilk != y->ilk || x->io != y->io || x->iu != y->iu ||
            x->idata != y->idata || x->rvc != y->rvc || x->ram_rr != y->ram_rr ||
            x->arr != y->arr || x->fvc != y->fvc || x->fo != y->fo || x->fu != y->fu || x->ffirst != y->ffirst ||
            x->hmask != y->hmask || x->mmask != y->mmask || x->fullm != y->fullm || x->waitm != y->waitm)
            return 0;
        for (unsigned v = 0; v < V; v++) {
            const vcst_t *s = &a->vc[p][v], *t = &b->vc[p][v];
            if (s->sn != t->sn || s->hd != t->hd || s->mn != t->mn || s->occ != t->occ || s->ist != t->ist ||
                s->icnt != t->icnt || s->own != t->own || s->own_o != t->own_o || s->own_u != t->own_u)
                return 0;
        }
        if (a->popv[p] != b->popv[p] || a->wr_vc[p] != b->wr_vc[p])
            return 0;
    }
    for (size_t i = 0; i < (size_t)N * V * D; i++)
        if (!ent_eq(&a->ram[i], &b->ram[i]))
            return 0;
    if (a->cpos != b->cpos)
        return 0;
    for (size_t i = 0; i < (size_t)L * VCSW_MAX_PORTS; i++)
        if (!flit_eq(&a->cab_tx[i], &b->cab_tx[i]) || a->cab_stop[i] != b->cab_stop[i])
            return 0;
    if (a->rd_pend != b->rd_pend || a->rd_ctr != b->rd_ctr || a->rd_ans != b->rd_ans || a->rd_val != b->rd_val ||
        a->rd_slot != b->rd_slot)
        return 0;
    return ctr_sched_equal(&a->cs, &b->cs);
}

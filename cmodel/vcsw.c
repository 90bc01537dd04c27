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
 * offer (rule 3.3) is prepared again only when something it reads has changed (allocation()). Each
 * (input, VC) buffer is one ring in FIFO order (vcst_t), so that entries do not move between its parts.
 * Registers that every step copies for every port (rx_stop, transmit, cables) are whole arrays over
 * VCSW_MAX_PORTS ports. Counter events go to ctr_sched.h's lists.
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

/* (input, VC). Its buffer is a FIFO whose entries are, oldest first, the staging part S_v, the entry
 * of R if R holds one of v, and the RAM part M_v (rule 2 keeps this order: a pop takes S_v[0]; R's
 * entry is the one after S_v's last and moves to its end; the RAM read moves M_v's oldest into an R
 * that the same step has emptied; a write goes to S_v only when M_v and R hold nothing of v, else to
 * M_v's end). The model keeps the FIFO as one ring of DEPTH entries (the occupancy never exceeds
 * DEPTH): S_v[i] at hd + i, R's entry at hd + |S_v|, M_v from hd + |S_v| + (R holds v), all mod
 * DEPTH. So the moves between the parts change counts only, and an entry is written once. */
typedef struct {
    ent_t *ring;    /* the VC's DEPTH entries of the buffer RAM (fixed) */
    uint16_t hd;    /* ring index of the oldest entry (S_v[0] when |S_v| > 0) */
    uint8_t sn;     /* |S_v| */
    uint16_t mn;    /* |M_v| */
    uint16_t occ;   /* |M_v| + |S_v| + (R holds v) */
    uint8_t ist;    /* ingress state */
    uint16_t icnt;  /* flits of the packet in PASS */
    uint8_t own;    /* owns output VC (own_o, own_u) */
    uint8_t own_o, own_u;
} vcst_t;

/* An input. Its valid bits (input register, read register, offer register) are kept as the switch's
 * sets of inputs ivm, rvm, fvm (below), its occupancy mask and rx_stop register as omask[p], stopreg[p]. */
typedef struct {
    /* input register: the flit received in the previous step and its lookup (valid: bit p of ivm) */
    uint8_t ivc, itail, ilk, io, iu;
    uint32_t idata;
    /* read register R (valid: bit p of rvm): its VC (the entry is in that VC's ring) */
    uint8_t rvc;
    uint8_t ram_rr; /* round-robin position of the RAM read */
    uint8_t arr;    /* round-robin position of the input's offer (rule 3.3), over VC numbers */
    /* offer register F (rule 3): VC v, output o, output VC u, first flit (valid: bit p of fvm) */
    uint8_t fvc, fo, fu, ffirst;
    uint16_t hmask; /* VCs with |S_v| > 0 */
    uint16_t mmask; /* VCs with |M_v| > 0 */
    uint16_t fullm; /* VCs with |S_v| = 3 */
    uint16_t waitm; /* outputs whose owned and stop bits the offer's last preparation looked at */
} inp_t;

/* The per-port registers that every step reads or writes for every port are arrays over all
 * VCSW_MAX_PORTS ports (those past NPORTS stay 0), so that whole-array copies serve them; what only
 * some ports need each step is reached through sets of ports (bit p = port p), kept up to date by
 * the stages that change them, so that idle ports cost nothing. */
struct vcsw {
    vcsw_params_t p;
    uint64_t step;
    unsigned ndvc, stop_at;
    unsigned dmask;  /* DEPTH - 1 */
    unsigned vsh;    /* log2(NVC) + 3: counter slot of (port, vc, ctr) = port << vsh | vc << 3 | ctr */
    uint32_t fmask, tmask;
    uint16_t vmask;  /* NVC bits */
    /* tables: bit 7 valid, bits 3..0 value */
    uint8_t *rt;                                               /* 2^TAG_W */
    uint8_t vt[VCSW_MAX_PORTS][VCSW_MAX_PORTS][VCSW_MAX_VCS]; /* [in][out][d] */
    inp_t in[VCSW_MAX_PORTS];
    vcst_t vc[VCSW_MAX_PORTS][VCSW_MAX_VCS];
    ent_t *ram; /* [(p * NVC + v) * DEPTH + i]: the rings of the VCs */
    /* per input */
    uint16_t omask[VCSW_MAX_PORTS];   /* VCs with occupancy >= STOP_AT */
    uint16_t stopreg[VCSW_MAX_PORTS]; /* rx_stop register (before the cable) */
    /* per output */
    uint16_t busy[VCSW_MAX_PORTS];    /* output VCs owned */
    uint16_t stop[VCSW_MAX_PORTS];    /* tx_stop received in the previous step */
    uint16_t orr[VCSW_MAX_PORTS];     /* round-robin position of the output arbitration (rule 3.1), over input numbers */
    vcsw_flit_t txr[VCSW_MAX_PORTS];  /* transmit registers */
    uint16_t blk_prev[VCSW_MAX_PORTS]; /* per output: its VCs owned or stopped as allocation saw them in the last step */
    uint16_t pvm[VCSW_MAX_PORTS];      /* per port: NVC bits below NPORTS, 0 past it (constant) */
    /* sets of inputs: input register valid, read register valid, offer register valid, |S_v| > 0 for
     * some v (hmask != 0), |M_v| > 0 and |S_v| <= 2 for some v (mmask & ~fullm != 0); of outputs:
     * transmit register valid */
    uint32_t ivm, rvm, fvm, hm, rdm, txm;
    /* cables: LINK_DELAY registers, ring position shared */
    unsigned cpos;
    vcsw_flit_t *cab_tx;   /* [LINK_DELAY][VCSW_MAX_PORTS] */
    uint16_t *cab_stop;    /* [LINK_DELAY][VCSW_MAX_PORTS] */
    /* configuration read: outstanding, the step it is answered, the value, counter slot */
    uint8_t rd_pend, rd_ctr;
    uint64_t rd_ans;
    uint32_t rd_val;
    unsigned rd_slot;
    /* counters */
    ctr_sched_t cs;
    /* per step scratch (decided by ingress and allocation, used by buffer): the inputs popped and their
     * VC (at most one per input; the set is kept until the next step's allocation), the inputs with an
     * entry to write and its VC (the set is emptied by buffer; ingress has put the entry in the free
     * ring slot after the VC's last entry, where the write puts it) */
    uint32_t popm, wrm;
    uint32_t sch; /* inputs whose staging parts changed in the last step (a pop, a push) */
    uint8_t popv[VCSW_MAX_PORTS];
    uint8_t wr_vc[VCSW_MAX_PORTS];
};

static inline unsigned ctz32(uint32_t x) { return (unsigned)__builtin_ctz(x); }

_Static_assert(VCSW_NCTR == 8, "counter slots: 3 bits of counter index");

static inline unsigned slot_of(const vcsw_t *m, unsigned port, unsigned vc, unsigned ctr)
{
    return (port << m->vsh) | (vc << 3) | ctr; /* ((port * NVC) + vc) * VCSW_NCTR + ctr */
}

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
static void allocation(vcsw_t *m, const vcsw_in_t *in)
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
    allocation(m, in);
    buffers(m);
    uint32_t iv = 0;
    for (unsigned p = 0; p < N; p++)
        if (in->rx[p].valid) {
            iv |= 1u << p;
            input_register(m, p, &in->rx[p]);
        }
    m->ivm = iv;
    if (m->rd_pend || in->cfg_we || in->cfg_re) /* else the port does nothing */
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

/* sanfab — internal header of the VC switch C model (cmodel/vcsw.c, vcsw_alloc.c, vcsw_cfg.c): the
 * model's state, its assertions and the stages that cross files. Not for users of the model (vcsw.h).
 * The files call one way: vcsw.c (the step and its stages) calls vcsw_alloc.c (allocation and output)
 * and vcsw_cfg.c (parameters, life cycle, configuration port, introspection); those two call neither
 * vcsw.c nor each other.
 */
#ifndef SANFAB_VCSW_INT_H
#define SANFAB_VCSW_INT_H

#include "vcsw.h"

#include "ctr_sched.h"

#include <stdio.h>
#include <stdlib.h>

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

/* ------------------------------------------------------------------ round robin */

/* First set bit of the set x at or after position pos, wrapping (round robin, rule 2); x != 0. */
static inline unsigned rr_first(uint32_t x, unsigned pos)
{
    const uint32_t hi = x & ~((1u << pos) - 1u);
    return ctz32(hi ? hi : x);
}

/* ------------------------------------------------------------------ stages in other files */

/* Allocation and output of step k (rule 3, vcsw_alloc.c): decides the pops, the transmit registers,
 * the ownership, the round-robin positions and the offer registers; registers tx_stop for step k+1. */
void vcsw_allocation(vcsw_t *m, const vcsw_in_t *in);

/* Configuration port of step k (vcsw_cfg.c): a read is answered from the tables after k-1, then the
 * write is done. */
void vcsw_config(vcsw_t *m, const vcsw_in_t *in);

#endif

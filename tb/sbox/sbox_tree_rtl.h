/* sanfab — C interface to the Verilated two-box tree top (tb/sbox/sbox_tree.v: boxes A and B of
 * rtl/sbox/sbox.v, docs/sbox.md), for the tree bench tb/sbox/sbox_tree_bench.c. One sbox_tree_rtl_step()
 * is one rising clock edge of both boxes; the first call after sbox_tree_rtl_new() is step 1. The
 * links (the one between A and B too) and the nodes are not in the RTL: the bench carries them.
 */
#ifndef SANFAB_SBOX_TREE_RTL_H
#define SANFAB_SBOX_TREE_RTL_H

#include "sbox.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sbox_tree_rtl sbox_tree_rtl_t;

/* 1 when the Verilated tree is linked in (sbox_tree_rtl.cpp), 0 in the model-only build
 * (sbox_tree_rtl_none.c). */
int sbox_tree_rtl_available(void);

/* The parameters both boxes were verilated with (the ST_* defines; MASTER_MASK is A's, 0; the
 * model-only build: docs/sbox.md's defaults, which the bench's --PORTS N ... options change). */
sbox_params_t sbox_tree_rtl_params(void);

/* B's up port UP_B (its MLC there is a master: B's MASTER_MASK = 1 << UP_B; the model-only build: 0,
 * the bench's --UP N changes it). */
unsigned sbox_tree_rtl_up(void);

/* Name of the variant built in: the tree set or MUTANTS_<set>. */
const char *sbox_tree_rtl_variant(void);

/* New tree held in reset for a few edges (the last one is step 0); argv[0..argc) are Verilator
 * run-time arguments (+verilator+...). */
sbox_tree_rtl_t *sbox_tree_rtl_new(int argc, const char *const *argv);

/* Frees the tree (closing its trace); NULL is allowed. */
void sbox_tree_rtl_free(sbox_tree_rtl_t *r);

/* One step: in[0] on box A's input ports, in[1] on B's, one rising edge, their outputs into out[0], out[1]. */
void sbox_tree_rtl_step(sbox_tree_rtl_t *r, const sbox_in_t in[2], sbox_out_t out[2]);

/* One step with rst high and idle inputs on both boxes (the models' sbox_reset): back to step 0; out gets the outputs. */
void sbox_tree_rtl_reset(sbox_tree_rtl_t *r, sbox_out_t out[2]);

/* Test only (the bench's counter preset): box j's (0 A, 1 B) counter i (0..7) set to v wrapped to CTR_W bits through
 * the Verilator backdoor (sbox_regs.v's ctr_q, public_flat_rw), between two steps. */
void sbox_tree_rtl_ctr_preset(sbox_tree_rtl_t *r, unsigned j, unsigned i, uint64_t v);

/* 1 once the RTL has stopped itself (an assertion). */
int sbox_tree_rtl_stopped(const sbox_tree_rtl_t *r);

/* Starts a VCD of every following edge at path, the next edge being bench cycle `cycle` (time
 * 10 cycle + 5 ns: tb/common/vrtl.h); once per instance. 0 on success, -1 if it cannot be written. */
int sbox_tree_rtl_trace_open(sbox_tree_rtl_t *r, const char *path, uint64_t cycle);

/* Closes the VCD (if open); range gets the first and last cycle it holds. 1 if it holds any. */
int sbox_tree_rtl_trace_close(sbox_tree_rtl_t *r, uint64_t range[2]);

#ifdef __cplusplus
}
#endif

#endif

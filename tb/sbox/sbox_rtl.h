/* sanfab — C interface to the Verilated Maestro switch box (rtl/sbox/sbox.v, docs/sbox.md), with
 * the meaning of one sbox_step() call of the C model: one sbox_rtl_step() is one rising clock edge;
 * the first call after sbox_rtl_new() is step 1. The links and the nodes are not in the RTL: the
 * bench carries them (cmodel's mlc_link_* and node MLC models).
 */
#ifndef SANFAB_SBOX_RTL_H
#define SANFAB_SBOX_RTL_H

#include "sbox.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sbox_rtl sbox_rtl_t;

/* 1 when the Verilated box is linked in (sbox_rtl.cpp), 0 in the model-only build (sbox_rtl_none.c). */
int sbox_rtl_available(void);

/* The parameters the RTL was verilated with (the SB_* defines; the model-only build: docs/sbox.md's
 * defaults, which the bench's --PORTS N ... options change). */
sbox_params_t sbox_rtl_params(void);

/* Name of the variant built in: the parameter set or MUTANTS_<set>. */
const char *sbox_rtl_variant(void);

/* New box held in reset for a few edges (the last one is step 0); argv[0..argc) are Verilator
 * run-time arguments (+verilator+...). */
sbox_rtl_t *sbox_rtl_new(int argc, const char *const *argv);

/* Frees the box (closing its trace); NULL is allowed. */
void sbox_rtl_free(sbox_rtl_t *r);

/* One step: in on the input ports, one rising edge, every output port into out. */
void sbox_rtl_step(sbox_rtl_t *r, const sbox_in_t *in, sbox_out_t *out);

/* One step with rst high and idle inputs (the model's sbox_reset): back to step 0; out gets the outputs. */
void sbox_rtl_reset(sbox_rtl_t *r, sbox_out_t *out);

/* Test only (the bench's counter preset): box counter i (0..7) set to v wrapped to CTR_W bits through the
 * Verilator backdoor (sbox_regs.v's ctr_q, public_flat_rw), between two steps. */
void sbox_rtl_ctr_preset(sbox_rtl_t *r, unsigned i, uint64_t v);

/* 1 once the RTL has stopped itself (an assertion). */
int sbox_rtl_stopped(const sbox_rtl_t *r);

/* Starts a VCD of every following edge at path, the next edge being bench cycle `cycle` (time
 * 10 cycle + 5 ns: tb/common/vrtl.h); once per instance. 0 on success, -1 if it cannot be written. */
int sbox_rtl_trace_open(sbox_rtl_t *r, const char *path, uint64_t cycle);

/* Closes the VCD (if open); range gets the first and last cycle it holds. 1 if it holds any. */
int sbox_rtl_trace_close(sbox_rtl_t *r, uint64_t range[2]);

#ifdef __cplusplus
}
#endif

#endif

/* sanfab — C interface to the Verilated MLC pair (rtl/mlc/mlc_pair.v: node 0 the master, node 1
 * the slave), with the meaning of two mlc_step() calls of the C model: one mlc_rtl_step() is one
 * rising clock edge of both ends; the first call after mlc_rtl_new() is step 1. The link between the
 * two ends is not in the RTL: the bench carries it (cmodel's mlc_link_*).
 */
#ifndef SANFAB_MLC_RTL_H
#define SANFAB_MLC_RTL_H

#include "mlc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mlc_rtl mlc_rtl_t;

/* The parameters the RTL was verilated with (the ML_* defines), for node 0 (master) or 1 (slave). */
mlc_params_t mlc_rtl_params(unsigned node);

/* LINK_DELAY of the bench's link model in this build (ML_LINK_DELAY). */
unsigned mlc_rtl_link_delay(void);

/* Name of the variant built in: the parameter set or MUTANTS_<set>. */
const char *mlc_rtl_variant(void);

/* New pair held in reset for a few edges (the last one is step 0); argv[0..argc) are Verilator
 * run-time arguments (+verilator+...). */
mlc_rtl_t *mlc_rtl_new(int argc, const char *const *argv);

/* Frees the pair (closing its trace). */
void mlc_rtl_free(mlc_rtl_t *r);

/* One step: in[n] on node n's input ports, one rising edge, every output port of node n into out[n]. */
void mlc_rtl_step(mlc_rtl_t *r, const mlc_in_t in[2], mlc_out_t out[2]);

/* One step with rst high (both ends, the host and link inputs idle): the pair is back at step 0,
 * its outputs (the reset values) into out[n]. */
void mlc_rtl_reset_step(mlc_rtl_t *r, mlc_out_t out[2]);

/* TEST ONLY (the bench's counter preset mode): sets counter ctr (0..14) of node n to v modulo
 * 2^CTR_W through the Verilator backdoor on rtl/mlc/mlc_regs.v's ctr_q (public_flat_rw), between two
 * steps: the next step counts on from v, as mlc_ctr_preset() makes the model do. */
void mlc_rtl_ctr_preset(mlc_rtl_t *r, unsigned node, unsigned ctr, uint32_t v);

/* 1 once the RTL has stopped itself. */
int mlc_rtl_stopped(const mlc_rtl_t *r);

/* Starts a VCD of every following edge at path, the next edge being bench cycle `cycle` (time
 * 10 cycle + 5 ns: tb/common/vrtl.h); once per instance. 0 on success, -1 if it cannot be written. */
int mlc_rtl_trace_open(mlc_rtl_t *r, const char *path, uint64_t cycle);

/* Closes the VCD (if open); range gets the first and last cycle it holds. 1 if it holds any. */
int mlc_rtl_trace_close(mlc_rtl_t *r, uint64_t range[2]);

#ifdef __cplusplus
}
#endif

#endif

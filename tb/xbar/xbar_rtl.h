/* sanfab — C interface to the Verilated crossbar RTL (xbar_rtl.cpp), or to nothing
 * (xbar_rtl_none.c) in model-only builds. One xbar_rtl_step() is one rising clock edge with the
 * same meaning as xbar_step() of the C model. */
#ifndef SANFAB_XBAR_RTL_H
#define SANFAB_XBAR_RTL_H

#include "xbar.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xbar_rtl xbar_rtl_t;

/* 1 if this build contains the RTL. */
int xbar_rtl_available(void);

/* The parameters the RTL was verilated with. */
xbar_params_t xbar_rtl_params(void);

/* Name of the RTL variant built in: the parameter set or MUTANTS_<set>. */
const char *xbar_rtl_variant(void);

/* New RTL instance, held in reset for a few cycles; NULL if unavailable. argv[0..argc) are
 * Verilator run-time arguments (+verilator+rand+reset+2 +verilator+seed+N ...) for this instance's
 * context, read before the model is built (so a random initial state is seeded by them). */
xbar_rtl_t *xbar_rtl_new(int argc, const char *const *argv);

/* Reset in mid-run: rst high for three edges (the last is step 0 again), as xbar_rtl_new() does; the
 * receive links keep their last characters meanwhile, reg_rd is 0. The model's twin is xbar_reset(). */
void xbar_rtl_reset(xbar_rtl_t *r);

/* Frees an instance (closing its trace). */
void xbar_rtl_free(xbar_rtl_t *r);

/* One rising clock edge. */
void xbar_rtl_step(xbar_rtl_t *r, const xbar_in_t *in, xbar_out_t *out);

/* TEST ONLY (the bench's counter preset): adds value to the counter RAM word of slot (port * 9 + index)
 * through Verilator's backdoor (ctr_bank's `mem` is public_flat_rw), modulo the word width; nothing with
 * COUNTERS = 0. Call it right after the step that flushed the slot, as for the model's xbar_ctr_preset(). */
void xbar_rtl_ctr_preset(xbar_rtl_t *r, unsigned slot, uint32_t value);

/* 1 once the RTL has stopped itself ($stop/$error of an assertion in a SANFAB_ASSERT build; the
 * message is on stdout): the caller ends the run and reports it. */
int xbar_rtl_stopped(const xbar_rtl_t *r);

/* Starts a VCD of every following edge at path, the next edge being bench cycle `cycle` (time
 * 10 cycle + 5 ns: tb/common/vrtl.h); once per instance. 0 on success, -1 if it cannot be written. */
int xbar_rtl_trace_open(xbar_rtl_t *r, const char *path, uint64_t cycle);

/* Closes the VCD (if open); range gets the first and last cycle it holds. 1 if it holds any. */
int xbar_rtl_trace_close(xbar_rtl_t *r, uint64_t range[2]);

#ifdef __cplusplus
}
#endif

#endif

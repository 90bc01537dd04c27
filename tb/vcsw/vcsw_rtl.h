/* sanfab — C interface to the Verilated VC switch RTL (vcsw_rtl.cpp), or to nothing
 * (vcsw_rtl_none.c) in model-only builds. One vcsw_rtl_step() is one rising clock edge (one step)
 * with the same meaning as vcsw_step() of the C model: the first call after vcsw_rtl_new() is step 1.
 */
#ifndef SANFAB_VCSW_RTL_H
#define SANFAB_VCSW_RTL_H

#include "vcsw.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vcsw_rtl vcsw_rtl_t;

/* 1 if this build contains the RTL. */
int vcsw_rtl_available(void);

/* The parameters the RTL was verilated with (the VC_* defines of the build). */
vcsw_params_t vcsw_rtl_params(void);

/* Name of the RTL variant built in: the parameter set or MUTANTS_<set> ("none" without RTL). */
const char *vcsw_rtl_variant(void);

/* New RTL instance, held in reset for a few edges (the last one is step 0); NULL if unavailable.
 * argv[0..argc) are Verilator run-time arguments (+verilator+rand+reset+2 +verilator+seed+N ...),
 * read before the model is built so that a random initial state is seeded by them. */
vcsw_rtl_t *vcsw_rtl_new(int argc, const char *const *argv);

/* Frees an instance (closing its trace). */
void vcsw_rtl_free(vcsw_rtl_t *r);

/* One step: drives `in` on the input ports, one rising edge, reads every output port into `out`
 * (ports past NPORTS idle, stop bits past NVC 0). */
void vcsw_rtl_step(vcsw_rtl_t *r, const vcsw_in_t *in, vcsw_out_t *out);

/* One step with rst high (docs/vcsw.md, Steps: after it the switch is at step 0, the tables kept):
 * drives `in` (ignored by the switch), one rising edge with rst = 1, reads every output port into
 * `out` like vcsw_rtl_step(). The next vcsw_rtl_step() is step 1 again. */
void vcsw_rtl_reset_step(vcsw_rtl_t *r, const vcsw_in_t *in, vcsw_out_t *out);

/* Test only (the bench's counter preset mode): adds `add` to the counter RAM word of counter slot `slot`
 * (((port * NVC) + vc) * 8 + ctr), modulo 2^CTR_WIDTH, through Verilator's access to ctr_bank's `mem`
 * (public_flat_rw), between two steps. The word must not be in the flusher's read-modify-write (read in
 * step W - 2, written in W, W the slot's flush step), nor in the first rotation after reset (steps <= NS + 2);
 * the caller picks the step. Nothing with COUNTERS = 0 or without RTL. */
void vcsw_rtl_ctr_add(vcsw_rtl_t *r, unsigned slot, uint32_t add);

/* 1 once the RTL has stopped itself ($stop/$error of an assertion in a SANFAB_ASSERT build). */
int vcsw_rtl_stopped(const vcsw_rtl_t *r);

/* Starts a VCD of every following edge at path, the next edge being bench cycle `cycle` (time
 * 10 cycle + 5 ns: tb/common/vrtl.h); once per instance. 0 on success, -1 if it cannot be written. */
int vcsw_rtl_trace_open(vcsw_rtl_t *r, const char *path, uint64_t cycle);

/* Closes the VCD (if open); range gets the first and last cycle it holds. 1 if it holds any. */
int vcsw_rtl_trace_close(vcsw_rtl_t *r, uint64_t range[2]);

#ifdef __cplusplus
}
#endif

#endif

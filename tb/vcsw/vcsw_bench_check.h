/* sanfab — VC switch bench: the checks of docs/vcsw.md that never consult the model (vcsw_bench_check.c),
 * over vcsw_bench_sb.h. */
#ifndef SANFAB_VCSW_BENCH_CHECK_H
#define SANFAB_VCSW_BENCH_CHECK_H

#include "vcsw_bench_sb.h"

/* The start of a step: the events it causes start empty. */
void ck_step_begin(bench_t *b);
/* The checks of the step's outputs (with the inputs it was given). */
void ck_outputs(bench_t *b, const vcsw_in_t *in, const vcsw_out_t *out);
/* The checks and bookkeeping of the inputs put on the ports in this step. */
void ck_inputs(bench_t *b, const vcsw_in_t *in);
/* The checks at the end of a run (coverage of what the test asks for). */
void ck_end(bench_t *b);
/* A test reset: forgets what the reset clears. */
void ck_reset(bench_t *b);
/* The outputs of an edge with rst high: idle, nothing stopped, no answer. */
void ck_reset_outputs(bench_t *b, const vcsw_out_t *out);

#endif

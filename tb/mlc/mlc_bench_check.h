/* sanfab — MLC lockstep bench: the link checks on the primary outputs and the model-free checks of
 * docs/mlc.md (mlc_bench_check.c), over mlc_bench_base.h. */
#ifndef SANFAB_MLC_BENCH_CHECK_H
#define SANFAB_MLC_BENCH_CHECK_H

#include "mlc_bench_base.h"

/* 1 while the link may still be disturbed by a CTL fault (two full frames and four turn-rounds after it). */
int ctl_unsettled(const bench_t *b);
/* After the step: the link's turn-round rules on the primary outputs (one driver, alternation, gaps, frame lengths). */
void link_checks(bench_t *b);
/* Before the step: host writes and reads refused by the status after the previous step (rule 7). */
void host_count(bench_t *b, unsigned n, const mlc_in_t *in);
/* Before the step: what a register read of this step must return (rule 8), where the bench knows it. */
void reg_expect(bench_t *b, unsigned n, const mlc_in_t *in);
/* After the step: the register port's answer. */
void reg_check(bench_t *b, unsigned n, const mlc_in_t *in);
/* After the step: frames arriving at node n's pins (rx: the inputs it was given in this step). */
void rx_decode(bench_t *b, unsigned n, const mlc_in_t *rx);
/* After the step: the frames node n sends, against its configuration's cap and the frame they answer (rules 3-5). */
void tx_check(bench_t *b, unsigned n);
/* After the step: the master's timeout (rule 2), exact to the step; counts the timeouts. */
void timeout_check(bench_t *b, const mlc_in_t *rx);

#endif

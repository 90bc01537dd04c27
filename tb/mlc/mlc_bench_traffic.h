/* sanfab — MLC lockstep bench: the host stimulus and the forged frames (mlc_bench_traffic.c), over mlc_bench_base.h. */
#ifndef SANFAB_MLC_BENCH_TRAFFIC_H
#define SANFAB_MLC_BENCH_TRAFFIC_H

#include "mlc_bench_base.h"

/* The host side of node n's inputs for this step (link fields untouched): random messages on both
 * channels while not draining, reads of everything, register reads and writes. */
void host_inputs(bench_t *b, unsigned n, int draining, mlc_in_t *in);
/* --forge: now and then replaces the frame arriving at end n by a made-up frame with a correct check. */
void forge(bench_t *b, unsigned n);

#endif

/* sanfab — VC switch bench: one run of a test, the model and the RTL in lockstep (vcsw_bench_run.c),
 * over vcsw_bench_check.h and vcsw_bench_traffic.h. */
#ifndef SANFAB_VCSW_BENCH_RUN_H
#define SANFAB_VCSW_BENCH_RUN_H

#include "vcsw_bench_check.h"
#include "vcsw_bench_traffic.h"

/* One test from reset on the table file `file` (NULL: the test's own tables). w: the waves to write
 * (a window of the run's cycles, bench_waves_at()), or NULL for none. */
result_t run(const opts_t *o, const test_desc_t *d, const vcsw_tables_t *file, const bench_waves_t *w);

#endif

/* sanfab — VC switch bench: tables, hosts, receivers and configuration traffic (vcsw_bench_traffic.c),
 * over vcsw_bench_sb.h. */
#ifndef SANFAB_VCSW_BENCH_TRAFFIC_H
#define SANFAB_VCSW_BENCH_TRAFFIC_H

#include "vcsw_bench_sb.h"

/* Draws the test's loads, receivers' duties, permutation and STOP-ignoring sources. */
void tr_setup(bench_t *b);
/* Do the heads of the table file's triples differ enough for the test (routes test)? */
int tr_heads_distinct(const bench_t *b);
/* Queues the writes of the initial tables (random, clean or from the file). */
void tr_tables_initial(bench_t *b);
/* The step's inputs: host flits, tx_stop, configuration requests. */
void tr_inputs(bench_t *b, vcsw_in_t *in);
/* What the hosts learn from the step's outputs. */
void tr_after(bench_t *b, const vcsw_out_t *out);
/* The sources stop and every receiver lets go (the drain). */
void tr_release(bench_t *b);
/* Have the hosts nothing more to send? */
int tr_hosts_idle(const bench_t *b);
/* A test reset: the hosts and receivers forget what the reset clears. */
void tr_reset(bench_t *b);
/* The inputs of an edge with rst high. */
void tr_reset_inputs(bench_t *b, vcsw_in_t *in);
/* Queues a configuration write of wdata to addr. */
void tr_queue_write(bench_t *b, uint16_t addr, uint16_t wdata);

#endif

/* sanfab — MLC lockstep bench: one step of both pairs, --speed's record and replay, the drains and the
 * phases (mlc_bench_run.c), over mlc_bench_traffic.h and mlc_bench_check.h. */
#ifndef SANFAB_MLC_BENCH_RUN_H
#define SANFAB_MLC_BENCH_RUN_H

#include "mlc_bench_check.h"
#include "mlc_bench_traffic.h"

/* One step of the model pair and the RTL pair on the same stimulus, compared and checked. draining: 0
 * traffic; 1 the final drain (no new messages, no faults); 2 a drain between phases. */
void step(bench_t *b, int draining);
/* --speed: the recorded stimulus replayed into fresh models and a fresh RTL pair (plusargs plus), only the
 * step calls timed; prints the speed line; 0 on success. */
int speed_replay(bench_t *b, int nplus, const char *const *plus);
/* No new messages, no random faults, hosts read everything: all in flight must arrive (quiet: a drain
 * between phases, the link must become quiet too); returns the steps run. */
uint64_t drain(bench_t *b, int quiet);
/* The configuration of phase ph: pipelined in even phases, message-based in odd ones. */
void phase_config(bench_t *b, unsigned ph);
/* Between two phases: a drain until the link is quiet, new host drivers, both configurations written. */
void phase_switch(bench_t *b);

/* A reset after traffic (docs/verification.md): one step with rst high on both ends of both pairs
 * (the RTL's outputs compared with the reset values), the link models emptied, the counters preset
 * again; every message not wholly read is lost (dropped from the scoreboard), the host drivers and
 * the bench's link and model-free checks start again as after step 0; the phase's configuration is
 * written in the next step. */
void reset_step(bench_t *b);
/* The limits test (docs/verification.md): a quiet link, both ends pipelined Network Burst; the
 * readers stop and Type0 messages are written as fast as they go until every receive FIFO is full
 * (st_rx_avail = FIFO_BYTES, its credit 0) and every send FIFO full (st_tx_space 0); the directed
 * fault pairs (pairs); everything read; the receive FIFOs filled again with nothing behind them;
 * then each host reads one word every lim_every steps until everything has arrived: the credits
 * climb one by one through 15 and 16 free units. Random faults go on, but not in the pairs and the
 * walk (a timeout there would let the free units jump). Skipped with --forge. */
void limits(bench_t *b);
/* After the run: every bit of every status and flag word that can be 1 was seen 1 and 0, and none
 * that cannot was ever 1 (bench_t seen0/seen1); a failure is a CHECK line. Skipped with --forge. */
void cov_check(const bench_t *b);

#endif

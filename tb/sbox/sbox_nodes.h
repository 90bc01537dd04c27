/* tb/sbox/sbox_nodes.h -- what the switch-box benches share (tb/sbox/sbox_bench.c, one box; tb/sbox/sbox_tree_bench.c,
 * the two-box tree): the nodes (MLC, host, link), random data messages, link faults, failure lines, option
 * parsing. No state of its own: every function works on what it is given and draws from the caller's rng_t
 * in the order the benches always drew (a seed replays as before). */
#ifndef SBOX_NODES_H
#define SBOX_NODES_H

#include "mlc.h"
#include "sbox.h"
#include "mlc_host.h"
#include "ring.h"
#include "bench_cli.h"
#include "rng.h"

#include <stdarg.h>
#include <stdint.h>

/* The number of bits set in x. */
unsigned sbn_popc(unsigned x);

/* Finishes random message *m (type, kind, dst, mask drawn): src, random length and data (malloc'd, the caller
 * frees it) for FIFOs of fifo_bytes; 1 if its PC is to be corrupted (drawn), 0, or -1 when out of memory. */
int sbn_msg_finish(rng_t *rng, mlc_msg_t *m, unsigned src, unsigned fifo_bytes, int msgmode);

/* *cp = a copy of *m with its own data (malloc'd, at least 1 byte). 0, or -1 when out of memory. */
int sbn_msg_copy(mlc_msg_t *cp, const mlc_msg_t *m);

/* Node n's host in one step: draws its stalls (epoch's hold_kind/hold_node, only while traffic: 1 node hold_node in
 * the epoch's first 2000 steps, 2 bursts of 400 steps on every node, 3 node hold_node now), drives host
 * after the MLC's outputs *out into *h and copies the host signals into *in, register port idle. */
void sbn_node_host(rng_t *rng, mlc_host_t *host, const mlc_out_t *out, mlc_in_t *in, mlc_in_t *h, int traffic,
                   unsigned hold_kind, unsigned hold_node, unsigned n, uint64_t cycle);

/* A write of the node MLC's configuration register (value cfg) on *in's register port. */
void sbn_node_cfg(mlc_in_t *in, unsigned cfg);

/* A host word written on channel h->h_wch: if it is the word first in ring pcbad[h_wch] (uint64_t word
 * indexes), *in's data becomes 0 or 1 (drawn) and leaves the ring; counts it in wr_words[h_wch]. */
void sbn_node_word(rng_t *rng, mlc_in_t *in, const mlc_in_t *h, ring_t *pcbad, uint64_t *wr_words);

/* Option name's value v, a number 0..max, into *out: -1 (taken), or 2 after a message on stderr prefixed
 * with prog (bench_cli's option-callback convention). */
int sbn_num_opt(const char *prog, const char *name, const char *v, unsigned max, unsigned *out);

/* Faults on one link end's input (en, d) this step, drawn from frng: symbols corrupted (per mille, counted in
 * *corrupted) and CTL faults (per million; *prev_en, *erasing the end's state). 1 when a CTL fault hit. */
int sbn_fault(rng_t *frng, unsigned corrupt_pm, unsigned ctl_rate, unsigned link_w, uint8_t *prev_en, int *erasing,
              uint8_t *en, uint8_t *d, uint64_t *corrupted);

/* A node: MLC (a link master, no guard) of the box's parameters *p, host driver, link model of link_delay
 * registers; *out the MLC's outputs before its first step. 0, or -1 when out of memory. */
int sbn_node_new(const sbox_params_t *p, unsigned link_delay, int msgmode, mlc_t **node, mlc_host_t **host,
                 mlc_link_t **link, mlc_out_t *out);
/* The node made anew (after a reset): its MLC, host driver and link freed, then sbn_node_new. 0, or -1. */
int sbn_node_renew(const sbox_params_t *p, unsigned link_delay, int msgmode, mlc_t **node, mlc_host_t **host,
                   mlc_link_t **link, mlc_out_t *out);

/* Prints the failure line "TAG cycle=C WHEREmessage seed=S" (where "" or ending in a space; the message from
 * fmt, ap, at most 399 characters). */
void sbn_vreport(const char *tag, uint64_t cycle, uint64_t seed, const char *where, const char *fmt, va_list ap);

/* The failure path's waves: with --vcd-on-fail (and not model-only) runs the bench again with argv and
 * writes the waves of the steps up to failing step `cycle` (tb/common/rerun.h), printing where. */
void sbn_fail_rerun(const char *prog, const bench_opts_t *o, int argc, char *const *argv, uint64_t cycle);

/* A barrier ended at step now: raises *max to its length, from the last of the member requests'
 * writes (written_at[i] for the bits i < n of members) to now. */
void sbn_bar_wait(uint64_t *max, uint64_t now, const uint64_t *written_at, unsigned n, unsigned members);

/* The progress line every millionth step (not with --quiet). */
void sbn_progress(const bench_opts_t *o, uint64_t cycle, uint64_t sent, uint64_t recvd, uint64_t barriers);

/* The box parameters' options of the model-only benches (bench_opt_t entries for the sbox_params_t *P). */
#define SBN_BOX_PARAMS(P)                                                                                               \
    BENCH_PARAM(P, PORTS), BENCH_PARAM(P, NODES), BENCH_PARAM(P, LINK_W), BENCH_PARAM(P, FIFO_BYTES),                \
        BENCH_PARAM(P, TURN), BENCH_PARAM(P, TIMEOUT), BENCH_PARAM(P, CTR_W)

#endif

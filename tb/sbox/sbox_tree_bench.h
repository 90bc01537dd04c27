/* tb/sbox/sbox_tree_bench.h -- the switch-box tree bench's own parts (internal: tb/sbox/sbox_tree_bench*.c
 * only). The bench's state (bench_t) and the functions its files share, by layer: sbox_tree_bench_base.c
 * (failures, the check/fail helpers, the tables and port sets) is used by sbox_tree_bench_traffic.c
 * (stimulus, faults, receiving), both by sbox_tree_bench_step.c (one step, the tree from the tables), all by
 * sbox_tree_bench.c (the command line, main); no file calls one above it. The model-only build links
 * sbox_tree_rtl_none.c instead of the Verilated glue sbox_tree_rtl.cpp. */
#ifndef SANFAB_SBOX_TREE_BENCH_H
#define SANFAB_SBOX_TREE_BENCH_H

/* the bench's name (its messages, --version) */
#define ST_PROG "sbox_tree_bench"
#define _POSIX_C_SOURCE 200809L
#include "mlc.h"
#include "sbox.h"
#include "sbox_load.h"
#include "mlc_host.h"
#include "ring.h"
#include "bench_cli.h"
#include "rerun.h"
#include "rng.h"
#include "sbox_nodes.h"
#include "sbox_tree_rtl.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NB 2
#define NPMAX 8
#define NCH 2
#define NNODE 16
#define NLINK (NNODE + 1) /* node links by node number, then the link between the boxes */
#define TLINK NNODE
#define ERRV 0x80000000u
#define NFINAL (SBOX_NCTR + 2 * NPMAX + NCH)

static const char box_name[NB] = {'A', 'B'};

typedef struct {
    int active;
    unsigned mask;                 /* the node mask of the requests */
    unsigned members;              /* member nodes (bit per node number) */
    uint64_t start;
    uint64_t send_at[NNODE];       /* step in which member n's host queues its request */
    uint64_t target[NNODE];        /* words written on the channel when its request is written whole */
    uint64_t written_at[NNODE];    /* step its last word was written (0: not yet) */
    uint8_t queued[NNODE], released[NNODE];
} bar_t;

typedef struct {
    bench_opts_t o;
    bench_cli_t cli;
    int argc;
    char **argv;
    const char *table_arg;
    unsigned ctl_rate, corrupt_pm, link_delay, tree_delay;
    int ctl_given, ld_given, td_given, no_preset, no_resets;
    /* the system resets after traffic (as the one-box bench's): the step of the last one (the setup counts from
     * it), how many so far (0..2), when the first (in mid-flight) comes and the drain before the second begins */
    uint64_t setup_base, reset_at[2];
    unsigned nresets;
    /* parameters and the tree */
    sbox_params_t p, pb;           /* A's, B's (MASTER_MASK bit UP) */
    unsigned P, up, al;            /* ports; B's up port; A's port to B */
    unsigned up_opt;               /* the model-only build's --UP */
    int tport[NB][NNODE];          /* table: port of node d in box j, -1 invalid */
    uint16_t twdata[NB][NNODE];    /* what was written to entry d */
    uint16_t upw[NB];              /* what was written to the up ports */
    int node_box[NNODE], node_port[NNODE]; /* where node n hangs (-1: no such node) */
    int port_node[NB][NPMAX];      /* the node on port q of box j (-1: none, -2: the link between the boxes) */
    unsigned nodes;                /* bit per existing node */
    unsigned msgmode, ncfg[NNODE], bcfg[NB][NPMAX];
    rng_t rng, frng;
    /* the boxes (models and RTL), the nodes, the links */
    sbox_t *bm[NB];
    sbox_tree_rtl_t *br;
    mlc_t *node[NNODE];
    mlc_host_t *host[NNODE];
    mlc_link_t *link[NLINK];
    mlc_in_t nin[NNODE];           /* nodes' link inputs of the next step */
    mlc_out_t nout[NNODE];         /* nodes' outputs after the last step */
    sbox_in_t bnext[NB];           /* boxes' link inputs of the next step */
    sbox_out_t om[NB], orr[NB], prim[NB];
    ring_t exp[NNODE][NCH][NNODE][2]; /* mlc_msg_t sent by node s on channel c for node d by route k (sb_route),
                                       * not yet received */
    uint64_t wr_words[NNODE][NCH];
    ring_t pcbad[NNODE][NCH];      /* uint64_t: indexes of words (PC of a 2-unit Type1 message) turned into 0 or 1 */
    bar_t bar[NCH];
    uint64_t cycle;
    int phase;                     /* 0 setup, 1 random traffic, 2 drain, 3 final reads */
    unsigned hold_kind, hold_node, load_pm[NCH], mcast_pct, span_pct;
    unsigned span;                 /* bit j: box j's nodes send multicasts to nodes on both boxes (--span) */
    uint64_t e_ctr[NB][SBOX_NCTR]; /* the bench's own counts of both boxes' counters */
    /* statistics */
    uint64_t sent, recvd, bytes, mcast_sent, cross_sent, dropped_sent, barriers, span_barriers, releases, bad_bar,
        bad_pc, corrupted, ctl_faults, regreads;
    uint64_t bar_wait_max;         /* longest barrier: last member's request written to the last release */
    /* faults: per link and end (0 box side of a node link / A's end of the tree link, 1 the other) */
    int erasing[NLINK][2];
    uint8_t prev_en[NLINK][2];
    /* register ports */
    int rd_prev[NB];
    uint16_t rd_prev_addr[NB];
    unsigned final_reads, nfinal, final_got[NB];
    uint16_t final_addr[NFINAL];
    uint32_t final_val[NB][NFINAL];
} bench_t;

/* ------------------------------------------------------------------ sbox_tree_bench_base.c */

/* The waves of this run (--vcd): closes the VCD and prints where it is. */
void waves_done(const bench_t *b, const char *indent);

/* a failed check that never consults the model: the CHECK line, then fail_exit (exit 1) */
void check_fail(const bench_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* a scoreboard failure on a port (node) and channel: the SCOREBOARD line, then fail_exit (exit 1) */
void sb_fail(const bench_t *b, unsigned n, unsigned ch, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* out of memory: the message, exit 2 */
void oom(void);

/* every box output of the RTL against the model's this step; the first difference fails the run */
void compare(const bench_t *b);

/* E(m) of box j: the ports of the node set `mask` (docs/sbox.md rule 5) */
unsigned mask_ports(const bench_t *b, unsigned j, unsigned mask);

/* the nodes a data message from node s reaches through the tree (the box s hangs on, then the other
 * while the port set holds the link: B up to A, A back down to B), *mask the MASK it arrives with;
 * with ctr, the boxes' counters it moves: err_msg (bad_pc) in every box it enters, msgs, mcast, words
 * there, or drop_route */
unsigned route(bench_t *b, unsigned s, unsigned dst, unsigned *mask, unsigned units, int bad_pc, int ctr,
               int *crossed);

/* the route by which a data message from node s reaches node d: 1 when it went up alone from B and
 * turned at A back into its sender's box (docs/sbox.md, Messages: a later message of s to d by
 * the direct route may arrive first), else 0. The same from the header sent and from the one received
 * (clearing the sender's bit changes no member outside B). */
unsigned sb_route(const bench_t *b, unsigned s, unsigned d, unsigned dst, unsigned mask);

/* ------------------------------------------------------------------ sbox_tree_bench_traffic.c */

/* the box counters' modulus minus 1: 2^CTR_W - 1 */
uint64_t ctr_mask(const bench_t *b);

/* a random node of the tree (one that hangs on a box) */
unsigned random_node(bench_t *b);

/* a random data message from node s on channel c: unicast within its box or across the tree,
 * multicast to sets on one box or spanning both, unrouted */
void new_message(bench_t *b, unsigned s, unsigned c);

/* barriers: start one now and then per channel (members on both boxes in span_pct... of the cases),
 * members queue their requests late */
void barrier_stimulus(bench_t *b, int draining);

/* a register request of the random phase: reads of any address, now and then a write the box ignores */
void reg_stimulus(bench_t *b, sbox_in_t *in);

/* the read of the previous step is answered after this one, and nothing else */
void reg_check(bench_t *b, unsigned j);

/* corrupt symbols and CTL faults on the link input (en, d) of end e of link l */
void fault(bench_t *b, unsigned l, unsigned e, uint8_t *en, uint8_t *d);

/* what the node on port (node) q's host reads this step, checked against the scoreboard */
void receive(bench_t *b, unsigned n);

/* ------------------------------------------------------------------ sbox_tree_bench_step.c */

/* one step of nodes, links and box (model and RTL), the outputs compared and the checks run */
void bench_step(bench_t *b);

/* presets every counter of both boxes to 2^CTR_W - K (K = 1..8) in the models and the RTL (the backdoor) and the
 * bench's expected counts to the same (docs/verification.md) */
void ctr_preset(bench_t *b);

/* a system reset after traffic: both boxes (models and RTL, one step with rst), the nodes, links and hosts made
 * anew, everything in flight forgotten by the scoreboard, the counters preset again; the setup follows */
void system_reset(bench_t *b);

/* where every node hangs, A's port to B; 0, or -1 with a message in err */
int place_nodes(bench_t *b, char *err, size_t n);

#endif

/* tb/sbox/sbox_bench.h -- the switch-box lockstep bench's own parts (internal: tb/sbox/sbox_bench*.c only).
 * The bench's state (bench_t) and the functions its files share, by layer: sbox_bench_base.c (failures, the
 * check/fail helpers, the table and port sets) is used by sbox_bench_traffic.c (stimulus, receiving, the
 * register port checks), both by sbox_bench_step.c (faults, the transit test, one step, the bus share test),
 * all by sbox_bench.c (the command line, main); no file calls one above it. The model-only build links
 * sbox_rtl_none.c instead of the Verilated glue sbox_rtl.cpp. */
#ifndef SANFAB_SBOX_BENCH_H
#define SANFAB_SBOX_BENCH_H

/* the bench's name (its messages, --version) */
#define SB_PROG "sbox_bench"
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
#include "sbox_rtl.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The link models' delay and the table are the bench's, not the RTL's parameters: --link-delay and
 * --table (mk/sbox.mk gives each parameter set's runs its own, sbox_ARGS_<set>). Without them: delay
 * SB_LINK_DELAY (0), node p on port p. */
#ifndef SB_LINK_DELAY
#define SB_LINK_DELAY 0
#endif

#define NPMAX 8
#define NCH 2
#define NNODE 16
#define ERRV 0x80000000u

/* ------------------------------------------------------------------ bench state */

typedef struct {
    int active;
    unsigned mask;                 /* the node mask of the requests */
    unsigned ports;                /* member ports E(mask) */
    uint64_t start;
    uint64_t send_at[NPMAX];       /* step in which member p's host queues its request */
    uint64_t target[NPMAX];        /* words written on the channel when its request is fully written */
    uint64_t written_at[NPMAX];    /* step its last word was written (0: not yet) */
    uint8_t queued[NPMAX], released[NPMAX];
} bar_t;

/* the directed transit test */
enum { TR_IDLE, TR_WAIT_ACCEPT, TR_WAIT_START, TR_WAIT_DELIVER };

typedef struct {
    /* options */
    bench_opts_t o;
    bench_cli_t cli;
    int argc;
    char **argv;
    const char *table_arg;
    char table_path[1024];
    unsigned table_sw;
    unsigned ctl_rate, corrupt_pm, transits, link_delay;
    int ctl_given, ld_given, plain, no_preset, no_resets;
    /* parameters */
    sbox_params_t p;
    unsigned P;
    int tport[NNODE];              /* table: port of node d, -1 invalid */
    uint16_t twdata[NNODE];        /* what was written to entry d */
    uint16_t upw;                  /* what was written to the up port (bit 4 clear: none) */
    uint16_t upw_none;             /* the up port of the run (none, random other bits); the setup tries every port */
    unsigned ncfg[NPMAX], bcfg[NPMAX], msgmode; /* MLC configurations now (nodes, box ports) */
    unsigned ncfg_run[NPMAX], bcfg_run[NPMAX];  /* those of the random phase (random transfer sizes) */
    uint64_t phase1_start;
    rng_t rng, frng;
    /* the box (model and RTL) and the nodes */
    sbox_t *bm;
    sbox_rtl_t *br;
    mlc_t *node[NPMAX];
    mlc_host_t *host[NPMAX];
    mlc_link_t *link[NPMAX];
    mlc_in_t nin[NPMAX];           /* nodes' link inputs of the next step */
    mlc_out_t nout[NPMAX];         /* nodes' outputs after the last step */
    sbox_in_t bnext;               /* box's link inputs of the next step */
    sbox_out_t om, orr, prim, pprev;
    ring_t exp[NPMAX][NCH][NPMAX]; /* mlc_msg_t sent by node s on channel c for port q, not yet received */
    uint64_t wr_words[NPMAX][NCH];
    ring_t pcbad[NPMAX][NCH];      /* uint64_t: indexes of words (PC of a 2-unit Type1 message) the bench
                                      overwrites with 0 or 1 as the host writes them */
    bar_t bar[NCH];
    uint64_t cycle;
    int phase;                     /* 0 start, 1 random traffic, 2 drain, 3 final reads */
    unsigned hold_kind, hold_node; /* this epoch's stalled readers: none, one node, bursts on every node */
    unsigned load_pm[NCH], mcast_pct; /* this epoch's new-message rate (per 10000 steps, node and channel) and
                                      multicast share; a new epoch every 10000 steps */
    unsigned epochs;                  /* load epochs begun; the first is heavy on both channels with many
                                         multicasts (the reservation's coverage, rule 3) */
    /* the bench's own counts of the box counters */
    uint64_t e_ctr[SBOX_NCTR];
    /* the system resets after traffic (docs/verification.md): the step of the last one (the setup counts from
     * it), how many so far (0..2), when the first (in mid-flight) comes and the drain before the second begins */
    uint64_t setup_base, reset_at[2], mid_drain;
    unsigned nresets;
    /* the directed crosses of fault kinds (combo_step): this window's link (its sender's), extra corruption
     * and CTL faults on it, the node whose reader stalls (-1 none); the pairs sent */
    int cb_link, cb_corrupt, cb_ctl, cb_stall;
    uint64_t combos, limits;       /* pair windows, limit messages (the largest message a FIFO takes, MASK 0xFFFF) */
    /* statistics */
    uint64_t sent, recvd, bytes, mcast_sent, dropped_sent, releases, barriers, bad_bar, bad_pc, corrupted,
        ctl_faults, regreads, transit_ok, frames_in;
    uint64_t bar_wait_max;         /* longest barrier: last member's request written to the last release */
    /* faults */
    uint64_t last_fault[NPMAX];
    /* link order (lorder): -1 none yet, -2 settling (wait for silence), -3 next start unchecked,
     * 0 the box port's frame ended last, 1 the node's; the step it ended (tx_en fell); the node's
     * last frame end; who sends now (-1 none) */
    int lo_last[NPMAX], lo_cur[NPMAX];
    uint64_t lo_end[NPMAX], lo_node_end[NPMAX];
    uint64_t lo_start[NPMAX];      /* the step the current (last) frame started */
    unsigned lo_np[NPMAX];         /* its NP */
    int early_done[NPMAX];         /* the directed early frame at the box port was sent */
    uint64_t early_pulses;
    int erasing[NPMAX][2];
    uint8_t prev_en[NPMAX][2];
    /* register port: the read of the previous step */
    int rd_prev, rd_prev_final;
    uint16_t rd_prev_addr;
    int final_reads;               /* final phase: index of the next read */
    uint32_t final_val[64];
    uint16_t final_addr[64];
    unsigned nfinal, final_got;
    /* frames at the box's pins */
    int rx_in[NPMAX];
    unsigned rx_np[NPMAX];
    /* the watched destination FIFO (port wq's send FIFO of channel wc): its st_tx_space read through
     * the register port in every step the random reads leave free; wstep[i] = the step word i of its
     * stream was written (0: not known exactly), wn words so far; wmsg = words of the messages its
     * node has received (the next boundary) */
    unsigned wq, wc, wok;
    uint64_t *wstep, wn, wcap, wmsg, wlast_step, wbound, wbound_checked;
    uint32_t wlast_val;
    int rd_prev_watch;
    /* the bus share test: every port streams to the next port, the bus is the bottleneck */
    int fair_state;                /* 0 not yet, 1 running, 2 done */
    uint64_t fair_start, fair_words[NPMAX];
    unsigned fair_dst[NPMAX];
    /* transit test */
    int tr_state;
    unsigned tr_a, tr_q, tr_b, tr_c, tr_done;
    uint64_t tr_t, tr_since;
} bench_t;

#define FAIR_STEPS 6000u /* the bus share test's length (sbox_bench_step.c) */
#define COMBO_KINDS 7u
#define COMBO_PAIRS 21u   /* pairs of the seven kinds */
#define COMBO_STEPS 300u  /* steps of each pair's window */

/* ------------------------------------------------------------------ sbox_bench_base.c */

/* The waves of this run (--vcd): closes the VCD and prints where it is. */
void waves_done(const bench_t *b, const char *indent);

/* a failed check that never consults the model: the CHECK line, then fail_exit (exit 1) */
void check_fail(const bench_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* a scoreboard failure on a port (node) and channel: the SCOREBOARD line, then fail_exit (exit 1) */
void sb_fail(const bench_t *b, unsigned port, unsigned ch, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* out of memory: the message, exit 2 */
void oom(void);

/* every box output of the RTL against the model's this step; the first difference fails the run */
void compare(const bench_t *b);

/* ports of the node set `mask` (E(m) of docs/sbox.md rule 5, no up port) */
unsigned mask_ports(const bench_t *b, unsigned mask);

/* port a is a box port: two or more nodes behind it in the table (docs/sbox.md, Messages) */
int box_port(const bench_t *b, unsigned a);

/* the port set of a message arriving on port a (docs/sbox.md, Messages; no up port: a unicast or
 * a message from a node port never goes back, a multicast from a box port turns and may) */
unsigned port_set(const bench_t *b, unsigned a, unsigned dst, unsigned mask);

/* ------------------------------------------------------------------ sbox_bench_traffic.c */

/* the box counters' modulus minus 1: 2^CTR_W - 1 */
uint64_t ctr_mask(const bench_t *b);

/* queues message m on node a's channel c and what the box must do with it; 0 on success */
int send_msg(bench_t *b, unsigned a, unsigned c, mlc_msg_t *m, int bad_pc);

/* a random data message from node a on channel c */
void new_message(bench_t *b, unsigned a, unsigned c);

/* barriers: start one now and then per channel, members queue their requests late */
void barrier_stimulus(bench_t *b, int draining);

/* a barrier request from node a on channel c that the box must reject (err_bar): a is no member port of its
 * MASK; none = 1: the MASK names no member port at all (docs/sbox.md, Malformed input: err_bar, not drop_route) */
void bad_request(bench_t *b, unsigned a, unsigned c, int none);

/* a MASK of unrouted node numbers (beyond NODES, invalid entries, node a's own if a is a node port): a multicast
 * from node a with it has no port set (drop_route) */
unsigned unrouted_mask(bench_t *b, unsigned a);

/* a register request of the random phase: any address, now and then a write the box ignores */
void reg_stimulus(bench_t *b, sbox_in_t *in);

/* the read of the previous step is answered after this one, and nothing else */
void reg_check(bench_t *b);

/* what the node on port (node) q's host reads this step, checked against the scoreboard */
void receive(bench_t *b, unsigned q);

/* ------------------------------------------------------------------ sbox_bench_step.c */

/* steps of one frame of np units on a link (its symbols at LINK_W bits a step) */
unsigned frame_steps(const bench_t *b, unsigned np);

/* starts the next directed transit test on the idle box */
void transit_start(bench_t *b);

/* one step of nodes, links and box (model and RTL), the outputs compared and the checks run */
void bench_step(bench_t *b);

/* the directed crosses of fault kinds at the start of each random phase: one window of COMBO_STEPS steps per
 * pair of the seven kinds (corrupted nibbles, CTL faults, unrouted, PC < 2, a non-member barrier request, a
 * multicast, a stalled reader), each sending a message that has both (docs/sbox.md, Several faults at once);
 * then the limits: the largest message a FIFO takes whole and a multicast with all 16 MASK bits */
void combo_step(bench_t *b);

/* presets every box counter to 2^CTR_W - K (K = 1..8) in the model and the RTL (the backdoor) and the bench's
 * expected counts to the same: every carry reaches the top bit within a short run (docs/verification.md) */
void ctr_preset(bench_t *b);

/* a system reset after traffic: the box (model and RTL, one step with rst), the nodes, links and hosts made
 * anew, everything in flight forgotten by the scoreboard, the counters preset again; the setup follows */
void system_reset(bench_t *b);

/* every port streams Type1 messages (48 words) on channel 0 to a node on the next port; needs such a
 * node for every port, and links that together bring more than the bus moves (about 0.95*LINK_W/16
 * words per step each, the bus one) */
int fair_possible(bench_t *b);

/* rule 1: the grant goes round robin over the eligible sources, so with every source eligible (the
 * bus the bottleneck) each port's stream gets the same share: none below a third of the mean */
void fair_check(bench_t *b);

#endif

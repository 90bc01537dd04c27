/* sanfab — MLC lockstep bench, lowest layer: the bench's state (bench_t), the failure lines and the
 * comparison of the RTL with the model, the frame check; every other mlc_bench file uses it. Above it,
 * each using only the files under it: mlc_bench_traffic (host stimulus, forged frames) and
 * mlc_bench_check (the link and model-free checks); mlc_bench_run (one step, --speed, drains and
 * phases); mlc_bench.c (the command line). No global mutable state: a run lives in its bench_t. */
#ifndef SANFAB_MLC_BENCH_BASE_H
#define SANFAB_MLC_BENCH_BASE_H

#include "mlc.h"
#include "mlc_host.h"
#include "ring.h"
#include "bench_cli.h"
#include "rng.h"
#include "mlc_rtl.h"

#include <stdint.h>

/* the words of the bit coverage (bench_t seen0/seen1) */
enum { COV_SPACE0, COV_SPACE1, COV_AVAIL0, COV_AVAIL1, COV_LINK, COV_CFG, COV_NP, COV_FLAGS, COV_CR0, COV_CR1, COV_N };
/* the fault kinds of the directed pairs: a corrupted bit (two: C2), the frame's last CTL cycle dropped
 * (one symbol short), a CTL pulse right after its last symbol (one long), a forged data frame with a
 * good check and more units than granted */
enum { PF_C = 1, PF_C2 = 2, PF_S = 4, PF_G = 8, PF_K = 16 };

/* a frame that arrived at an end's pins, decoded by the bench */
typedef struct {
    int valid, len_ok, crc_ok;
    uint64_t start, end; /* end: the first step with rx_en = 0 (the step it is judged in) */
    unsigned np, cr[2];
} rxframe_t;

typedef struct {
    uint64_t seed, cycles, drain;
    int mode, quiet;
    bench_waves_t waves;       /* --vcd, --vcd-on-fail, --vcd-start, --vcd-cycles (tb/common/waves.h) */
    int argc;
    char **argv;
    mlc_params_t p[2];
    unsigned link_delay;
    unsigned cfg[2];
    rng_t rng, frng;           /* traffic; faults */
    mlc_t *m[2];
    mlc_link_t *lm, *lr;
    mlc_rtl_t *rtl;
    mlc_host_t *h[2];
    mlc_in_t nm[2], nr[2];     /* link fields of the next step (model pair, RTL pair) */
    mlc_out_t om[2], orr[2], prim[2];
    ring_t exp[2][MLC_NCH];    /* messages (mlc_msg_t) sent by node n on channel c, not yet received */
    uint64_t sent, recvd, corrupted, bytes;
    uint64_t cycle;
    /* link timing checks (on the primary outputs) */
    int last_end;              /* node whose frame ended last (-1: none yet) */
    uint64_t last_end_cycle;   /* first idle step after it */
    int cur;                   /* node driving now, -1 idle */
    uint64_t cur_start;
    unsigned cur_np, cur_nib0_ok;
    uint64_t frames;
    /* CTL faults (--ctl-faults R: R per million steps and end, each of: a dropped CTL cycle, a
     * spurious CTL pulse, a whole frame erased); the link timing checks pause after each */
    unsigned ctl_rate;
    uint64_t last_fault, ctl_faults;
    uint64_t last_nib;
    /* resets after traffic (reset_step): the step of the last one (0: none; the pair is at its step
     * 0 after it), how many, the messages they lost (sent, not wholly read) */
    uint64_t step0, resets, reset_lost;            /* the last step a nibble was corrupted (the directed pairs wait) */
    int erasing[2];
    uint8_t prev_rx_en[2];
    /* forged frames (--forge R, lockstep only, no scoreboard): R per thousand frames arriving at an
     * end are replaced by a made-up frame with a correct check (random NP, flags, credits, units;
     * now and then one symbol too many or too few), to exercise rules 6.1, 6.3 and 6.4 */
    unsigned forge_rate;
    uint8_t fsym[2][512];
    unsigned flen[2], fpos[2];
    int swallow[2];
    uint8_t fprev_en[2];
    uint64_t forged;
    /* several faults in one frame (random, with the other faults): at 3 in 100 frame starts at an
     * end, a plan of two single-bit flips at symbols mf_off (1 .. F(0) - 2) and, with CTL faults, in
     * half of them a CTL cycle dropped at symbol mf_drop (F(0) - 1: the frame cut, or split) */
    int mf_on[2];
    uint8_t mf_prev[2];
    unsigned mf_pos[2], mf_off[2][2], mf_bit[2][2], mf_drop[2];
    uint64_t multi;
    /* phases: the traffic runs in phases of phase_len cycles, pipelined and message-based in turn
     * (phase 0 pipelined); between two phases the hosts stop, everything in flight is delivered and
     * read, and with the link quiet both ends' configuration is written (docs/mlc.md, Configuration) */
    uint64_t phase_len;
    unsigned nphase;              /* phases started */
    uint64_t phase_drain;         /* steps spent in the drains between phases */
    unsigned cfg_pending[2];      /* the configuration cfg[n] is written in the next step */
    unsigned cfg_wr[2];           /* it was written in this step */
    unsigned cfg_rb[2];           /* it is read back in the next step (the bit coverage of register 16) */
    unsigned cfg_eff[2];          /* the configuration after the previous step (in effect now) */
    int erase_next;               /* erase the next frame arriving at the master (a timeout test) */
    int pulse_next;               /* a CTL pulse at the slave in its next frame's second step (hold) */
    int guard_next;               /* then, hold 0, a CTL pulse at the slave LINK_DELAY + 1 after a frame (guard) */
    uint64_t guard_pulses;        /* directed early frames at the slave */
    uint64_t slave_silent_end;    /* the last step a frame ended at the slave's pins that it does not answer */
    /* model-free checks (docs/mlc.md, without the model): the bench's own counts of the counters
     * it can count exactly from the ports, compared with every register-port read of them */
    uint64_t cnt[2][MLC_NCTR];
    /* counter preset mode (--ctr-preset K, default 16; docs/verification.md): right after reset every
     * register-port counter of both ends, RTL (backdoor) and model (mlc_ctr_preset), starts at
     * preset[n][k]: 2^CTR_W - j, or (a quarter of them) 2^(CTR_W-1) - j, j in 1..K, so carries run
     * through the top bits within a short run; the bench's own counts start there too */
    unsigned preset_k;
    /* the limits test (limits(), docs/verification.md): lim 1 fill (Type0 messages as fast as the
     * hosts take them, no reads: every receive FIFO full, its credit 0, every send FIFO full), 2 flush
     * (everything read), 3 refill (no reads, no more units written than the receiver has free: full
     * receive FIFOs with nothing behind them), 4 walk (each host reads one word every lim_every
     * steps, no random faults: the free units and the credits climb one by one through 15 and
     * 16), 0 off */
    int lim;
    unsigned lim_every;
    uint64_t lim_fill, lim_walk;  /* steps each part took */
    /* bit coverage: for each end, the bits of each status and flag word seen 1 (seen1) and seen 0
     * (seen0): st_tx_space0/1, st_rx_avail0/1 (every step), registers 15 and 16 (every read), the
     * NP/FLAGS/CR0/CR1 nibbles of every frame it received with a good length and check */
    uint32_t seen1[2][COV_N], seen0[2][COV_N];
    /* the directed fault pairs (pairs(), in the limits test with every credit 0, no random faults):
     * one frame of the master at the slave gets the faults of pk (PF_*); pph 1 armed (the next frame
     * arriving at the slave), 2 in it (pos its symbol, plen its length, poff its corrupted symbols);
     * preg: forced register reads of the slave (pra its addresses, prv the values read) */
    int pairs_on, pph;
    unsigned pk, pos, plen, poff[2], pbit[2];
    unsigned preg, pra[4];
    uint32_t prv[4];
    uint64_t pairs_done;

    uint32_t preset[2][MLC_NCTR];
    int ctr_known[MLC_NCTR];      /* counters the bench counts (others are not checked) */
    mlc_out_t prev[2];            /* the outputs after the previous step */
    int rd_exp_ok[2];             /* a register read of this step has an expected value */
    uint32_t rd_exp[2];
    /* frames arriving at each end's pins, as the end sees them (the inputs it is given), decoded:
     * a run of rx_en while the end does not drive; the last complete one is kept */
    struct {
        int in;
        uint64_t start;
        unsigned n;
        uint16_t crc;
        uint8_t nib[4];
        int early; /* the slave: the frame's first symbol came fewer than GUARD steps after its last (rule 2) */
    } rxd[2];
    rxframe_t rxl[2][8];                  /* the last 8 (a conflict in TURN may end after the judged one) */
    unsigned rxl_i[2];
    /* the frame each end is sending: first two nibbles, its cap, the last frame received then */
    struct {
        uint64_t start;
        unsigned nibs, np, fl, cap, cr[2];
        int checked, crk;         /* crk: the credits' expected values are known (pipelined) */
    } txf[2];
    uint64_t rdw[2][MLC_NCH], rdw_prev[2][MLC_NCH]; /* words read by the host (after this / the previous step) */
    /* frames an end must answer (rule 2): the end's last driving step, runs of rx_en since, the
     * step its answer is due in (0: none) */
    uint64_t last_tx[2], runs_since_tx[2], answer_due[2];
    int hold;                     /* the slave's hold bit as the bench follows it (rules 1, 2, 6) */
    uint64_t turn_from, turn_to;  /* the slave's TURN steps with w > 0 after its last judgement */
    /* the master's timeout (rule 2): its last driving step, a frame seen since, the step its next
     * frame must start in after a timeout */
    int mt_armed, mt_rx;
    uint64_t mt_end;
    uint64_t timeouts_seen;
    /* --speed (lockstep only): every step's inputs of the model ends and of the RTL pair, and every
     * SPEED_SAMPLE-th step's outputs, for the replay that times the step calls alone */
    int speed;
    mlc_in_t *rec_im, *rec_ir;    /* 2 per step */
    mlc_out_t *rec_om, *rec_or;   /* 2 per sampled step */
    uint64_t rec_n, rec_cap;
} bench_t;

#define SPEED_SAMPLE 64u


/* Drops the oldest expected message of q (and its data). */
void exp_drop(ring_t *q);
/* The waves of this run (--vcd): closes the VCD and prints where it is. */
void waves_done(const bench_t *b, const char *indent);
/* Prints "CHECK cycle=C what seed=S", the waves (or a re-run for them, --vcd-on-fail), and exits 1. */
void check_fail(const bench_t *b, const char *what);
/* Prints "SCOREBOARD cycle=C node=N ch=C what seed=S", then as check_fail(). */
void sb_fail(const bench_t *b, unsigned node, unsigned ch, const char *what);
/* Compares every output port of end n, model e against RTL a: the first difference fails the run (LOCKSTEP MISMATCH). */
void compare(const bench_t *b, unsigned n, const mlc_out_t *e, const mlc_out_t *a);
/* The counter mask 2^CTR_W - 1. */
uint32_t ctr_mask(const bench_t *b);
/* Draws the counter presets of both ends (preset_k 0: all 0) from the run's seed and starts the
 * bench's own counts there. */
void preset_draw(bench_t *b);
/* Applies the presets to the model ends m0, m1 and the RTL pair r (each may be NULL): at step 0. */
void preset_apply(const bench_t *b, mlc_t *m0, mlc_t *m1, mlc_rtl_t *r);
/* Records one value of coverage word w at end n (bench_t seen0/seen1). */
void cov_see(bench_t *b, unsigned n, unsigned w, uint32_t v);
/* CRC-16 0x1021 over one nibble x, MSB first, from state s (docs/mlc.md, Frames), written here for the bench. */
uint16_t fcrc(uint16_t s, unsigned x);
/* Appends the frame check (fcrc from 0xFFFF over nib[0..k-1], four nibbles MSB first) to nib; the new length. */
unsigned fcrc_append(uint8_t *nib, unsigned k);

#endif

/* sanfab — lockstep bench of the Maestro Link Controller (docs/mlc.md): two MLCs, node 0 the master
 * and node 1 the slave, joined by the link model (cmodel mlc_link_*), once as Verilated RTL
 * (rtl/mlc/mlc_pair.v through tb/mlc/mlc_rtl.cpp) and once as C models. Every cycle both pairs get
 * the same host stimulus (the host driver sw/mlc_host.c, random messages on both channels, refused
 * writes and reads, register reads and writes) and the same corrupted nibbles on the link; every
 * output port of both RTL ends is compared with the model every cycle.
 *
 * Checks besides the comparison:
 *   - scoreboard: every message arrives whole, unaltered, in order per channel, exactly once; after
 *     the run a drain phase (no new messages, no faults) must deliver everything still in flight;
 *   - the link: at no end's pins do both ends drive in one cycle, the ends alternate strictly (the
 *     frame after a frame of one end is the other end's), the first frame starts in step TURN + 1,
 *     and every turn-round leaves exactly G = 2 + LINK_DELAY + TURN idle steps (rule 3);
 *   - every frame is F(NP) symbols long, NP read from its first nibble (docs/mlc.md, Frames), and
 *     the master's first frame is the doc's example (0 0 F F 0 3 F F).
 *   - model-free rules (docs/mlc.md, without asking the model): every frame's NP within the cap of
 *     the sender's configuration (rule 5); a data frame only right after a frame of good length and
 *     check that ended TURN + 1 steps before it, with NP at most that frame's credit for its channel
 *     (rules 2-4, decoded from the symbols the end was given); the master's timeout exactly TIMEOUT
 *     silent steps after its last symbol, its next frame TURN + 1 steps later (rule 2); register
 *     reads answered in their step with the value after the step before (rule 8): counters the bench
 *     counts itself (tx_frames, tx_null, tx_pkts, timeout, wr_over, rd_under; err_credit and dup 0)
 *     modulo 2^CTR_W, the configuration written, the status, 0x80000000 beyond 20.
 * Phases: the --cycles traffic cycles run in phases (--phase N; default five phases from a million
 * cycles on, else two), pipelined and message-based transfer in turn from pipelined. Between two,
 * the hosts stop sending, both ends go to Network Burst, there are no random faults, and everything
 * in flight is delivered and read until the link is quiet; then both ends' configuration is written
 * in one step (the next mode, a new transfer size each: docs/mlc.md, Configuration) and the host
 * drivers are made anew for the new mode (the scoreboard carries over). With CTL faults each such
 * drain begins with the next frame at the master erased (a directed timeout), a CTL pulse at the
 * slave in the second step of its next frame (a directed conflict: hold), and once hold is 0 again a
 * CTL pulse at the slave LINK_DELAY + 1 steps after its next frame's last symbol (an early frame:
 * the guard of rule 2 ignores it, where an unguarded slave would answer it in the step the master
 * answers its frame). Phase k starts at step
 * k * N, the drains counting in the cycles, but no phase has less than N/2 traffic cycles (a run may
 * go beyond --cycles by that).
 * With TIMEOUT > 0 the link also gets CTL faults (--ctl-faults): dropped CTL cycles, spurious CTL
 * pulses, whole frames erased; the link timing checks pause after each until the link has settled
 * (two full frames and four turn-rounds: docs/mlc.md, recovery is bounded), while the comparison and the
 * scoreboard go on; a frame the slave rightly leaves unanswered (early, or bad while it holds)
 * hands the link to the master's timeout, checked to the step.
 *
 * Usage: mlc_lockstep [--cycles N] [--seed N] [--mode lockstep|rtl|model] [--quiet] [--vcd FILE]
 *                     [--vcd-start N] [--vcd-cycles N] [--vcd-on-fail FILE] [--ctl-faults R] [--forge R] [--phase N] [--speed] [--help] [+verilator+...]
 * --speed (lockstep only): every step's inputs of the two model ends and of the RTL pair are recorded;
 * after the PASS line fresh models and a fresh RTL pair are stepped over them, each loop of step calls
 * timed alone (no host drivers, link models, checks), every 64th step's outputs checked against the
 * run's; one line "speed: N steps: model X steps/s, rtl Y steps/s, ratio Z (step calls only ...)".
 * --vcd FILE: the RTL's waves of this run (or of the window --vcd-start, --vcd-cycles), passing or
 * failing; --vcd-on-fail FILE: on a failure the bench runs itself again with the same arguments and
 * writes the RTL's last --vcd-cycles (default 2000) steps up to the failing one to FILE
 * (tb/common/waves.h, tb/common/rerun.h); either prints "waves: FILE (cycles A..B)".
 * Exit status: 0 pass, 1 a mismatch or a check failed, 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include "../../cmodel/mlc.h"
#include "../../sw/mlc_host.h"
#include "../../sw/ring.h"
#include "../../sw/src/sf_cli.h"
#include "../common/rerun.h"
#include "../common/rng.h"
#include "mlc_rtl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { M_LOCKSTEP, M_RTL, M_MODEL };

/* ------------------------------------------------------------------ scoreboard */

/* the messages node n sent on channel c and that have not arrived: a ring_t of mlc_msg_t (sw/ring.h) */

/* drops the oldest expected message (and its data) */
static void exp_drop(ring_t *q)
{
    mlc_msg_t m;
    if (ring_pop(q, &m))
        free(m.data);
}

/* ------------------------------------------------------------------ bench state */

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
    /* phases: the traffic runs in phases of phase_len cycles, pipelined and message-based in turn
     * (phase 0 pipelined); between two phases the hosts stop, everything in flight is delivered and
     * read, and with the link quiet both ends' configuration is written (docs/mlc.md, Configuration) */
    uint64_t phase_len;
    unsigned nphase;              /* phases started */
    uint64_t phase_drain;         /* steps spent in the drains between phases */
    unsigned cfg_pending[2];      /* the configuration cfg[n] is written in the next step */
    unsigned cfg_wr[2];           /* it was written in this step */
    unsigned cfg_eff[2];          /* the configuration after the previous step (in effect now) */
    int erase_next;               /* erase the next frame arriving at the master (a timeout test) */
    int pulse_next;               /* a CTL pulse at the slave in its next frame's second step (hold) */
    int guard_next;               /* then, hold 0, a CTL pulse at the slave LINK_DELAY + 1 after a frame (guard) */
    uint64_t guard_pulses;        /* directed early frames at the slave */
    uint64_t slave_silent_end;    /* the last step a frame ended at the slave's pins that it does not answer */
    /* model-free checks (docs/mlc.md, without the model): the bench's own counts of the counters
     * it can count exactly from the ports, compared with every register-port read of them */
    uint64_t cnt[2][MLC_NCTR];
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

/* The waves of this run (--vcd): closes the VCD and prints where it is. */
static void waves_done(const bench_t *b, const char *indent)
{
    if (!b->waves.vcd || !b->rtl)
        return;
    uint64_t range[2];
    int any = mlc_rtl_trace_close(b->rtl, range);
    bench_waves_print(stdout, indent, b->waves.vcd, any, range, b->waves.start);
}

/* after a failure line: the waves of this run (--vcd), or with --vcd-on-fail a run again with the
 * same arguments and a trace of the steps up to the failure; then exit 1 */
static void fail_exit(const bench_t *b)
{
    fflush(stdout);
    waves_done(b, "     ");
    if (b->waves.on_fail && b->mode != M_MODEL)
        bench_rerun_vcd("mlc_lockstep", "     ", b->argc, b->argv, &b->waves, b->cycle, 1);
    if (b->rtl)
        mlc_rtl_free(b->rtl);
    fflush(stdout);
    exit(1);
}

static void mismatch(const bench_t *b, unsigned node, const char *sig, uint64_t exp, uint64_t act)
{
    printf("LOCKSTEP MISMATCH cycle=%" PRIu64 " node=%u signal=%s expected=0x%" PRIx64 " actual=0x%" PRIx64
           " seed=%" PRIu64 "\n",
           b->cycle, node, sig, exp, act, b->seed);
    fail_exit(b);
}

static void check_fail(const bench_t *b, const char *what)
{
    printf("CHECK cycle=%" PRIu64 " %s seed=%" PRIu64 "\n", b->cycle, what, b->seed);
    fail_exit(b);
}

static void sb_fail(const bench_t *b, unsigned node, unsigned ch, const char *what)
{
    printf("SCOREBOARD cycle=%" PRIu64 " node=%u ch=%u %s seed=%" PRIu64 "\n", b->cycle, node, ch, what, b->seed);
    fail_exit(b);
}

static void compare(const bench_t *b, unsigned n, const mlc_out_t *e, const mlc_out_t *a)
{
    if (e->tx_en != a->tx_en)
        mismatch(b, n, "tx_en", e->tx_en, a->tx_en);
    if (e->tx_d != a->tx_d)
        mismatch(b, n, "tx_d", e->tx_d, a->tx_d);
    if (e->h_rvalid != a->h_rvalid)
        mismatch(b, n, "h_rvalid", e->h_rvalid, a->h_rvalid);
    if (e->h_rdata != a->h_rdata)
        mismatch(b, n, "h_rdata", e->h_rdata, a->h_rdata);
    for (unsigned c = 0; c < MLC_NCH; c++) {
        if (e->st_tx_space[c] != a->st_tx_space[c])
            mismatch(b, n, c ? "st_tx_space1" : "st_tx_space0", e->st_tx_space[c], a->st_tx_space[c]);
        if (e->st_rx_avail[c] != a->st_rx_avail[c])
            mismatch(b, n, c ? "st_rx_avail1" : "st_rx_avail0", e->st_rx_avail[c], a->st_rx_avail[c]);
    }
    if (e->reg_rvalid != a->reg_rvalid)
        mismatch(b, n, "reg_rvalid", e->reg_rvalid, a->reg_rvalid);
    if (e->reg_rdata != a->reg_rdata)
        mismatch(b, n, "reg_rdata", e->reg_rdata, a->reg_rdata);
}

/* ------------------------------------------------------------------ stimulus */

static void new_message(bench_t *b, unsigned n, unsigned c)
{
    mlc_msg_t m;
    memset(&m, 0, sizeof m);
    m.type = rng_pct(&b->rng, 35) ? 0u : 1u;
    m.kind = rng_below(&b->rng, 128);
    m.dst = rng_pct(&b->rng, 10) ? MLC_DST_MULTI : rng_below(&b->rng, 255);
    m.mask = m.dst == MLC_DST_MULTI ? rng_below(&b->rng, 65536) : 0u;
    m.src = n;
    if (m.type == 0) {
        m.len = MLC_T0_DATA;
    } else {
        unsigned r = rng_below(&b->rng, 100);
        unsigned maxlen = r < 60 ? 40 : r < 90 ? 300 : 2 * b->p[n].FIFO_BYTES;
        m.len = rng_below(&b->rng, maxlen + 1);
    }
    m.data = malloc(m.len ? m.len : 1);
    if (!m.data) {
        fprintf(stderr, "mlc_lockstep: out of memory\n");
        exit(1);
    }
    for (unsigned i = 0; i < m.len; i++)
        m.data[i] = (uint8_t)rng_below(&b->rng, 256);
    if (mlc_host_send(b->h[n], c, &m) != 0) { /* e.g. larger than the FIFO in message mode */
        free(m.data);
        return;
    }
    if (ring_push(&b->exp[n][c], &m) != 0) {
        fprintf(stderr, "mlc_lockstep: out of memory\n");
        exit(1);
    }
    b->sent++;
}

/* the host side of node n's inputs for this step (link fields untouched) */
static void host_inputs(bench_t *b, unsigned n, int draining, mlc_in_t *in)
{
    mlc_in_t h;
    memset(&h, 0, sizeof h);
    if (!draining)
        for (unsigned c = 0; c < MLC_NCH; c++)
            if (mlc_host_tx_pending(b->h[n], c) < 64 && rng_pct(&b->rng, 3))
                new_message(b, n, c);
    /* a busy host now and then: bursts of held reads build up back-pressure (credits) */
    int hold_rd = !draining && (b->cycle / 3000 + n) % 4 == 0 && rng_pct(&b->rng, 95);
    int hold_wr = !draining && rng_pct(&b->rng, 10);
    mlc_host_hold(b->h[n], hold_wr, hold_rd);
    mlc_host_drive(b->h[n], &b->prim[n], &h);
    /* refused writes and reads: only where the status says there is no room / nothing */
    if (!h.h_wr && rng_pct(&b->rng, 20)) {
        unsigned c = rng_below(&b->rng, 2);
        if (b->prim[n].st_tx_space[c] == 0) {
            h.h_wr = 1;
            h.h_wch = (uint8_t)c;
            h.h_wdata = (uint16_t)rng_below(&b->rng, 65536);
        }
    }
    if (!h.h_rd && rng_pct(&b->rng, 20)) {
        unsigned c = rng_below(&b->rng, 2);
        if (b->prim[n].st_rx_avail[c] == 0) {
            h.h_rd = 1;
            h.h_rch = (uint8_t)c;
        }
    }
    /* register port */
    if (rng_pct(&b->rng, 15)) {
        h.reg_rd = 1;
        h.reg_addr = (uint8_t)rng_below(&b->rng, 32);
    }
    b->cfg_wr[n] = 0;
    if (b->cfg_pending[n]) { /* the phase's configuration (step 1, and at every phase switch) */
        b->cfg_pending[n] = 0;
        b->cfg_wr[n] = 1;
        h.reg_wr = 1;
        h.reg_addr = MLC_REG_CFG;
        h.reg_wdata = (uint16_t)(b->cfg[n] | 0xFFF8u); /* the upper bits are ignored */
    } else if (rng_pct(&b->rng, 1)) {
        h.reg_wr = 1;
        if (rng_pct(&b->rng, 5) && draining != 2) { /* a new transfer size; the mode (MSG) stays */
            b->cfg[n] = (b->cfg[n] & MLC_CFG_MSG) | MLC_CFG_SP(rng_below(&b->rng, 4));
            b->cfg_wr[n] = 1;
            h.reg_addr = MLC_REG_CFG;
            h.reg_wdata = (uint16_t)b->cfg[n];
        } else { /* writes elsewhere are ignored */
            do
                h.reg_addr = (uint8_t)rng_below(&b->rng, 32);
            while (h.reg_addr == MLC_REG_CFG);
            h.reg_wdata = (uint16_t)rng_below(&b->rng, 65536);
        }
    }
    in->h_wr = h.h_wr;
    in->h_wch = h.h_wch;
    in->h_wdata = h.h_wdata;
    in->h_rd = h.h_rd;
    in->h_rch = h.h_rch;
    in->reg_rd = h.reg_rd;
    in->reg_wr = h.reg_wr;
    in->reg_addr = h.reg_addr;
    in->reg_wdata = h.reg_wdata;
}

/* ------------------------------------------------------------------ link checks (primary outputs) */

/* 1 while the link may still be disturbed by a CTL fault: until two full frames and four
 * turn-rounds have passed since the last one (docs/mlc.md, Malformed input: recovery is bounded;
 * with the slave's guard frames cannot keep crossing). A frame the slave rightly leaves unanswered
 * (early, or bad while it holds) is not waited out here: link_checks lets the master's timeout
 * restart the link, and timeout_check holds that timeout to the step. */
static int ctl_unsettled(const bench_t *b)
{
    if (!b->last_fault)
        return 0;
    uint64_t win = 2u * ((8u + 32u * 15u) * 4u / b->p[0].LINK_W) + 4u * (2u + b->link_delay + b->p[0].TURN) + 16u;
    return b->cycle - b->last_fault <= win;
}

static void link_checks(bench_t *b)
{
    unsigned G = 2 + b->link_delay + b->p[0].TURN;
    unsigned lw = b->p[0].LINK_W;
    int drv = -1;
    /* the master's first frame is the doc's example: nibbles 0 0 F F 0 3 F F (a null frame, both
     * credits 15, CRC-16 0x03FF), in steps TURN+1 .. TURN+F(0) */
    static const uint8_t first[8] = {0, 0, 15, 15, 0, 3, 15, 15};
    unsigned f0 = 32u / lw;
    if (b->cycle >= b->p[0].TURN + 1u && b->cycle <= b->p[0].TURN + f0) {
        unsigned i = (unsigned)(b->cycle - b->p[0].TURN - 1u);
        unsigned sym = lw == 4 ? first[i] : (unsigned)(first[2 * i] | (first[2 * i + 1] << 4));
        if (!b->prim[0].tx_en || b->prim[0].tx_d != sym) {
            char m[120];
            snprintf(m, sizeof m, "first frame symbol %u is %u/0x%x, docs/mlc.md's example says 1/0x%x", i,
                     b->prim[0].tx_en, b->prim[0].tx_d, sym);
            check_fail(b, m);
        }
    }
    if (ctl_unsettled(b)) { /* no timing rules; pick up again at the next silence */
        b->cur = -1;
        b->last_end = -2;
        return;
    }
    if (b->last_end == -2) {
        if (b->prim[0].tx_en || b->prim[1].tx_en)
            return;
        b->last_end = -3; /* silence: the next frame start is tracked, its turn-round is not */
    }
    if (b->prim[0].tx_en && b->prim[1].tx_en)
        check_fail(b, "both ends drive in the same step");
    if (b->prim[0].tx_en)
        drv = 0;
    else if (b->prim[1].tx_en)
        drv = 1;
    if (drv >= 0 && b->cur < 0) { /* a frame starts */
        if (b->last_end == -3) {
            /* first frame after a CTL fault: only its length is checked */
        } else if (b->last_end < 0) {
            if (drv != 0 || b->cycle != b->p[0].TURN + 1u)
                check_fail(b, "the first frame is not the master's in step TURN+1");
        } else {
            if (drv == b->last_end)
                check_fail(b, "the same end sends two frames in a row (no strict alternation)");
            if (b->cycle - b->last_end_cycle != G) {
                char m[160];
                snprintf(m, sizeof m, "turn-round of %" PRIu64 " idle steps, expected G=%u",
                         b->cycle - b->last_end_cycle, G);
                check_fail(b, m);
            }
        }
        b->cur = drv;
        b->cur_start = b->cycle;
        b->cur_np = b->prim[drv].tx_d & 15u;
        b->frames++;
    } else if (drv >= 0 && drv != b->cur) {
        check_fail(b, "the other end starts driving inside a frame");
    } else if (drv < 0 && b->cur >= 0) { /* a frame ended */
        uint64_t len = b->cycle - b->cur_start;
        uint64_t f = (8u + 32u * b->cur_np) * 4u / lw;
        if (len != f) {
            char m[160];
            snprintf(m, sizeof m, "frame of node %d lasted %" PRIu64 " steps, F(%u) = %" PRIu64, b->cur, len,
                     b->cur_np, f);
            check_fail(b, m);
        }
        b->last_end = b->cur;
        b->last_end_cycle = b->cycle;
        b->cur = -1;
    } else if (drv < 0 && b->last_end == 0 && b->cycle - b->last_end_cycle > G &&
               b->slave_silent_end == b->last_end_cycle + 1u + b->link_delay) {
        /* the slave does not answer this frame of the master (rule 2: bad at a holding slave, or
         * early): rx_decode holds it to that; the master's timeout restarts the link (checked
         * exactly by timeout_check); the timing rules pick up again at its frame */
        b->last_end = -2;
    } else if (drv < 0 && b->last_end >= 0 && b->cycle - b->last_end_cycle > G) {
        check_fail(b, "the link stalled: no frame started G steps after the last one ended");
    }
}

/* ------------------------------------------------------------------ forged frames */

/* CRC-16 0x1021 over one nibble, MSB first (docs/mlc.md, Frames), written here for the bench */
static uint16_t fcrc(uint16_t s, unsigned x)
{
    for (int i = 3; i >= 0; i--) {
        unsigned top = (s >> 15) ^ ((x >> i) & 1u);
        s = (uint16_t)((s << 1) ^ (top ? 0x1021u : 0u));
    }
    return s;
}

static void forge(bench_t *b, unsigned n)
{
    uint8_t nib[8 + 32 * 15 + 8];
    unsigned lw = b->p[n].LINK_W, k = 0;
    unsigned np = rng_pct(&b->frng, 30) ? 0u : 1u + rng_below(&b->frng, rng_pct(&b->frng, 50) ? 3 : 15);
    nib[k++] = (uint8_t)np;
    nib[k++] = (uint8_t)rng_below(&b->frng, 16);
    nib[k++] = (uint8_t)rng_below(&b->frng, 16);
    nib[k++] = (uint8_t)rng_below(&b->frng, 16);
    for (unsigned i = 0; i < 32 * np; i++)
        nib[k++] = (uint8_t)rng_below(&b->frng, 16);
    for (unsigned u = 0; u < np; u++)
        if (rng_pct(&b->frng, 50)) { /* a small first word: Type0/Type1 headers, Pkt-Counters 0..3 */
            nib[4 + 32 * u] = (uint8_t)rng_below(&b->frng, 4);
            nib[5 + 32 * u] = nib[6 + 32 * u] = nib[7 + 32 * u] = 0;
        }
    uint16_t c = 0xFFFF;
    for (unsigned i = 0; i < k; i++)
        c = fcrc(c, nib[i]);
    nib[k++] = (uint8_t)(c >> 12);
    nib[k++] = (uint8_t)((c >> 8) & 15u);
    nib[k++] = (uint8_t)((c >> 4) & 15u);
    nib[k++] = (uint8_t)(c & 15u);
    unsigned r = rng_below(&b->frng, 20);
    if (r == 0 && k > 8)
        k -= lw / 4; /* one symbol short */
    else if (r == 1) {
        nib[k++] = (uint8_t)rng_below(&b->frng, 16); /* one symbol long */
        if (lw == 8)
            nib[k++] = (uint8_t)rng_below(&b->frng, 16);
    }
    unsigned per = lw / 4;
    b->flen[n] = k / per;
    for (unsigned i = 0; i < b->flen[n]; i++)
        b->fsym[n][i] = per == 1 ? nib[i] : (uint8_t)(nib[2 * i] | (nib[2 * i + 1] << 4));
    b->fpos[n] = 0;
    b->forged++;
}

/* ------------------------------------------------------------------ model-free checks (docs/mlc.md) */

static uint32_t ctr_mask(const bench_t *b)
{
    return b->p[0].CTR_W >= 32 ? 0xFFFFFFFFu : (uint32_t)((1ull << b->p[0].CTR_W) - 1u);
}

/* the single-packet cap of a configuration (docs/mlc.md, Configuration: cap) */
static unsigned cfg_cap(unsigned cfg)
{
    static const unsigned cap[4] = {15, 1, 2, 4};
    return cap[(cfg >> 1) & 3u];
}

/* before the step: what a register read of this step must return, the value after the previous
 * step (rule 8), for the registers the bench knows without the model */
static void reg_expect(bench_t *b, unsigned n, const mlc_in_t *in)
{
    b->rd_exp_ok[n] = 0;
    if (!in->reg_rd)
        return;
    unsigned a = in->reg_addr;
    if (a < 15 && b->ctr_known[a]) {
        b->rd_exp[n] = (uint32_t)b->cnt[n][a] & ctr_mask(b);
        b->rd_exp_ok[n] = 1;
    } else if (a == MLC_REG_CFG) {
        b->rd_exp[n] = b->cfg_eff[n];
        b->rd_exp_ok[n] = 1;
    } else if (a >= 17 && a <= 20) {
        b->rd_exp[n] = a < 19 ? b->prev[n].st_tx_space[a - 17] : b->prev[n].st_rx_avail[a - 19];
        b->rd_exp_ok[n] = 1;
    } else if (a > 20) {
        b->rd_exp[n] = MLC_RDATA_ERROR;
        b->rd_exp_ok[n] = 1;
    }
}

/* after the step: the register port's answer */
static void reg_check(const bench_t *b, unsigned n, const mlc_in_t *in)
{
    const mlc_out_t *o = &b->prim[n];
    char m[200];
    if (!in->reg_rd) {
        if (o->reg_rvalid || o->reg_rdata) {
            snprintf(m, sizeof m, "node %u: reg_rvalid %u reg_rdata 0x%x without a read (rule 8)", n, o->reg_rvalid,
                     (unsigned)o->reg_rdata);
            check_fail(b, m);
        }
        return;
    }
    if (!o->reg_rvalid) {
        snprintf(m, sizeof m, "node %u: register read of address %u not answered in its step (rule 8)", n,
                 in->reg_addr);
        check_fail(b, m);
    }
    if (b->rd_exp_ok[n] && o->reg_rdata != b->rd_exp[n]) {
        unsigned a = in->reg_addr;
        snprintf(m, sizeof m,
                 "node %u: register %u (%s) read 0x%x, the bench's own value is 0x%x (CTR_W=%u; docs/mlc.md rule 8, Counters)",
                 n, a, a < 15 ? mlc_counter_name(a) : a == MLC_REG_CFG ? "configuration" : a <= 20 ? "status" : "none",
                 (unsigned)o->reg_rdata, (unsigned)b->rd_exp[n], b->p[0].CTR_W);
        check_fail(b, m);
    }
}

/* after the step: frames arriving at node n's pins (rx: the inputs it was given in this step) */
static void rx_decode(bench_t *b, unsigned n, const mlc_in_t *rx)
{
    unsigned lw = b->p[n].LINK_W;
    char m[200];
    if (n == 1 && rx->rx_en && (b->prim[1].tx_en || (b->cycle >= b->turn_from && b->cycle <= b->turn_to)))
        b->hold = 1; /* a bus conflict at the slave (rule 1) */
    if (b->prim[n].tx_en) { /* driving (TURN with w = 0, SEND): arriving symbols are ignored */
        b->rxd[n].in = 0;
        if (n == 1 && !b->prev[1].tx_en && !b->answer_due[1] && !b->forge_rate) {
            snprintf(m, sizeof m, "node 1: the slave starts a frame in step %" PRIu64 " with no frame to answer (rules 2, 3; hold %d)",
                     b->cycle, b->hold);
            check_fail(b, m);
        }
        if (b->answer_due[n] && b->answer_due[n] != b->cycle && !b->prev[n].tx_en) {
            snprintf(m, sizeof m, "node %u: frame starts in step %" PRIu64 ", the answer to a good frame was due in step %" PRIu64 " (rules 2, 3)",
                     n, b->cycle, b->answer_due[n]);
            check_fail(b, m);
        }
        b->answer_due[n] = 0;
        b->last_tx[n] = b->cycle;
        b->runs_since_tx[n] = 0;
        return;
    }
    if (b->answer_due[n] && b->cycle >= b->answer_due[n]) {
        snprintf(m, sizeof m, "node %u: no frame in step %" PRIu64 ", the answer to the frame judged in step %" PRIu64 " (rules 2, 3, 6: a good frame clears hold; slave hold %d)",
                 n, b->answer_due[n], b->answer_due[n] - 1u - b->p[n].TURN, b->hold);
        check_fail(b, m);
    }
    if (rx->rx_en) {
        if (!b->rxd[n].in) {
            b->rxd[n].in = 1;
            b->rxd[n].start = b->cycle;
            b->rxd[n].n = 0;
            b->rxd[n].crc = 0xFFFF;
            /* the slave's guard (rule 2): fewer than GUARD steps after its last symbol (it has sent
             * one), an early frame: a conflict (hold), not answered */
            b->rxd[n].early = n == 1 && b->last_tx[1] && b->cycle - b->last_tx[1] < b->p[1].GUARD;
            if (b->rxd[n].early)
                b->hold = 1;
        }
        for (unsigned k = 0; k < lw / 4; k++) {
            unsigned x = (rx->rx_d >> (4 * k)) & 15u;
            if (b->rxd[n].n < 4)
                b->rxd[n].nib[b->rxd[n].n] = (uint8_t)x;
            b->rxd[n].crc = fcrc(b->rxd[n].crc, x);
            if (b->rxd[n].n < 100000)
                b->rxd[n].n++;
        }
    } else if (b->rxd[n].in) { /* the frame ended in this step */
        b->rxd[n].in = 0;
        b->rxl_i[n] = (b->rxl_i[n] + 1) % 8;
        rxframe_t *l = &b->rxl[n][b->rxl_i[n]];
        l->valid = 1;
        l->start = b->rxd[n].start;
        l->end = b->cycle;
        l->np = b->rxd[n].n >= 1 ? b->rxd[n].nib[0] : 0;
        l->cr[0] = b->rxd[n].n >= 3 ? b->rxd[n].nib[2] : 0;
        l->cr[1] = b->rxd[n].n >= 4 ? b->rxd[n].nib[3] : 0;
        l->len_ok = b->rxd[n].n == 8 + 32 * l->np;
        l->crc_ok = b->rxd[n].crc == 0;
        /* a frame the end received in LISTEN: it started after the end last drove, no answer was
         * pending then (else it is a conflict in TURN), and for the master before its timeout. It is
         * answered TURN + 1 steps after it ended, except a bad frame at the slave with hold = 1; a
         * good frame clears hold (without forged frames, which may fail rules 6.3-6.4) */
        unsigned to = n == 0 ? b->p[0].TIMEOUT : 0;
        int listen = l->start > b->last_tx[n] && !b->answer_due[n] &&
                     (!to || !b->last_tx[n] || l->start <= b->last_tx[n] + to);
        int good = l->len_ok && l->crc_ok;
        if (listen && b->rxd[n].early) {
            /* ignored: no judgement, no answer, hold stays 1 */
            b->slave_silent_end = b->cycle;
        } else if (listen && !b->forge_rate) {
            if (n == 1 && !good && b->hold)
                b->slave_silent_end = b->cycle;
            if (n == 0 || good || !b->hold) {
                b->answer_due[n] = b->cycle + 1u + b->p[n].TURN;
                if (n == 1) {
                    b->turn_from = b->cycle + 1u;
                    b->turn_to = b->cycle + b->p[1].TURN;
                }
            }
            if (n == 1 && good)
                b->hold = 0;
        }
        b->runs_since_tx[n]++;
    }
}

/* after the step: frames node n sends (prev: its outputs after the previous step); counts
 * tx_frames, tx_null, tx_pkts; checks NP against the cap of its configuration (rule 5) and a data
 * frame against the frame it answers (rules 3, 4: right after a good frame, at most its credit) */
static void tx_check(bench_t *b, unsigned n)
{
    const mlc_out_t *o = &b->prim[n];
    unsigned lw = b->p[n].LINK_W;
    char m[220];
    if (!o->tx_en)
        return;
    if (!b->prev[n].tx_en) { /* a frame starts: built in this step */
        b->txf[n].start = b->cycle;
        b->txf[n].nibs = 0;
        b->txf[n].np = o->tx_d & 15u;
        b->txf[n].cap = cfg_cap(b->cfg_eff[n]);
        b->txf[n].checked = 0;
        /* pipelined: free units of receive FIFO c from its status and the words read (docs/mlc.md,
         * FIFOs and status): acc = (avail/2 + rd)/8, free = CAP_U - (acc - rd/8); CR = min(15, free) */
        b->txf[n].crk = !(b->cfg_eff[n] & MLC_CFG_MSG);
        for (unsigned c = 0; c < MLC_NCH; c++) {
            uint64_t rd = b->rdw_prev[n][c], acc = (b->prev[n].st_rx_avail[c] / 2u + rd) / 8u;
            uint64_t fr = b->p[n].FIFO_BYTES / 16u - (acc - rd / 8u);
            b->txf[n].cr[c] = fr < 15 ? (unsigned)fr : 15u;
        }
        b->cnt[n][MLC_CTR_TX_FRAMES]++;
        b->cnt[n][MLC_CTR_TX_NULL] += b->txf[n].np == 0;
        b->cnt[n][MLC_CTR_TX_PKTS] += b->txf[n].np;
        if (b->txf[n].np > b->txf[n].cap) {
            snprintf(m, sizeof m,
                     "node %u: frame of step %" PRIu64 " has NP=%u, more than the cap %u of its configuration 0x%x (rule 5)",
                     n, b->cycle, b->txf[n].np, b->txf[n].cap, b->cfg_eff[n]);
            check_fail(b, m);
        }
    }
    for (unsigned k = 0; k < lw / 4; k++, b->txf[n].nibs++) {
        unsigned x = (o->tx_d >> (4 * k)) & 15u, i = b->txf[n].nibs;
        if (i == 1)
            b->txf[n].fl = x;
        if ((i == 2 || i == 3) && b->txf[n].crk && x != b->txf[n].cr[i - 2]) {
            snprintf(m, sizeof m,
                     "node %u: frame of step %" PRIu64 " grants CR%u=%u, receive FIFO %u: min(15, free units) = %u (rule 4.3)",
                     n, b->txf[n].start, i - 2, x, i - 2, b->txf[n].cr[i - 2]);
            check_fail(b, m);
        }
    }
    if (b->txf[n].checked || b->txf[n].nibs < 2)
        return;
    b->txf[n].checked = 1;
    if (b->txf[n].np == 0)
        return;
    unsigned ch = b->txf[n].fl & 1u;
    uint64_t t = b->txf[n].start - 1u - b->p[n].TURN; /* the judging step of the frame it answers */
    int j = -1;
    for (unsigned k = 0; k < 8; k++)
        if (b->rxl[n][k].valid && b->rxl[n][k].end == t)
            j = (int)k;
    if (j < 0) {
        snprintf(m, sizeof m,
                 "node %u: data frame of step %" PRIu64 " does not answer a frame ending in step %" PRIu64
                 " (rules 2-4: data only right after a good frame)",
                 n, b->txf[n].start, t);
        check_fail(b, m);
    }
    if (!b->rxl[n][j].len_ok || !b->rxl[n][j].crc_ok) {
        snprintf(m, sizeof m, "node %u: data frame of step %" PRIu64 " answers a bad frame (%s) (rule 4.1)", n,
                 b->txf[n].start, b->rxl[n][j].len_ok ? "check" : "length");
        check_fail(b, m);
    }
    if (b->txf[n].np > b->rxl[n][j].cr[ch]) {
        snprintf(m, sizeof m,
                 "node %u: data frame of step %" PRIu64 " has NP=%u on channel %u, the frame it answers granted CR%u=%u (rule 4)",
                 n, b->txf[n].start, b->txf[n].np, ch, ch, b->rxl[n][j].cr[ch]);
        check_fail(b, m);
    }
}

/* after the step: the master's timeout (rule 2): with no frame at its pins in the TIMEOUT steps
 * after its last symbol (step e), it times out in step e + TIMEOUT and its next frame starts in
 * step e + TIMEOUT + TURN + 1, exactly; counts the timeouts */
static void timeout_check(bench_t *b, const mlc_in_t *rx)
{
    unsigned to = b->p[0].TIMEOUT;
    char m[200];
    if (!to)
        return;
    uint64_t due = b->mt_end + to + b->p[0].TURN + 1u;
    if (b->prim[0].tx_en) {
        if (!b->prev[0].tx_en && b->mt_armed && !b->mt_rx && b->cycle != due) {
            snprintf(m, sizeof m,
                     "master frame starts in step %" PRIu64 ", no frame arrived since its last symbol in step %" PRIu64
                     ": a timeout (TIMEOUT=%u, TURN=%u) starts it in step %" PRIu64 " (rule 2)",
                     b->cycle, b->mt_end, to, b->p[0].TURN, due);
            check_fail(b, m);
        }
        b->mt_armed = 1;
        b->mt_rx = 0;
        b->mt_end = b->cycle;
        return;
    }
    if (!b->mt_armed)
        return;
    uint64_t d = b->cycle - b->mt_end;
    if (d <= to && rx->rx_en)
        b->mt_rx = 1;
    if (!b->mt_rx && d == to) {
        b->cnt[0][MLC_CTR_TIMEOUT]++;
        b->timeouts_seen++;
    }
    if (!b->mt_rx && b->cycle == due) {
        snprintf(m, sizeof m,
                 "master silent since its last symbol in step %" PRIu64 " with no frame arriving: no frame in step %" PRIu64
                 " (timeout in step %" PRIu64 ", TIMEOUT=%u, TURN=%u; rule 2)",
                 b->mt_end, due, b->mt_end + to, to, b->p[0].TURN);
        check_fail(b, m);
    }
}

/* before the step: host writes and reads refused by the status after the previous step (rule 7) */
static void host_count(bench_t *b, unsigned n, const mlc_in_t *in)
{
    for (unsigned c = 0; c < MLC_NCH; c++)
        b->rdw_prev[n][c] = b->rdw[n][c];
    if (in->h_rd && b->prev[n].st_rx_avail[in->h_rch & 1u] >= 2)
        b->rdw[n][in->h_rch & 1u]++;
    if (in->h_wr && b->prev[n].st_tx_space[in->h_wch & 1u] < 2)
        b->cnt[n][MLC_CTR_WR_OVER]++;
    if (in->h_rd && b->prev[n].st_rx_avail[in->h_rch & 1u] < 2)
        b->cnt[n][MLC_CTR_RD_UNDER]++;
}

/* ------------------------------------------------------------------ one step */

/* draining: 0 traffic; 1 the final drain (no new messages, no faults); 2 a drain between phases
 * (no new messages, no random faults but the directed erased frame and CTL pulse, Network Burst: no
 * new transfer sizes) */
/* ------------------------------------------------------------------ --speed: record and replay */

static void speed_record(bench_t *b, const mlc_in_t im[2], const mlc_in_t ir[2])
{
    if (b->rec_n == b->rec_cap) {
        uint64_t cap = b->rec_cap ? 2 * b->rec_cap : 1u << 16;
        mlc_in_t *a = realloc(b->rec_im, (size_t)cap * 2 * sizeof *a);
        if (a)
            b->rec_im = a;
        mlc_in_t *c = a ? realloc(b->rec_ir, (size_t)cap * 2 * sizeof *c) : NULL;
        if (c)
            b->rec_ir = c;
        mlc_out_t *d = c ? realloc(b->rec_om, (size_t)(cap / SPEED_SAMPLE + 1) * 2 * sizeof *d) : NULL;
        if (d)
            b->rec_om = d;
        mlc_out_t *e = d ? realloc(b->rec_or, (size_t)(cap / SPEED_SAMPLE + 1) * 2 * sizeof *e) : NULL;
        if (!e) {
            fprintf(stderr, "mlc_lockstep: out of memory (--speed)\n");
            exit(1);
        }
        b->rec_or = e;
        b->rec_cap = cap;
    }
    uint64_t i = b->rec_n++;
    memcpy(&b->rec_im[2 * i], im, 2 * sizeof *im);
    memcpy(&b->rec_ir[2 * i], ir, 2 * sizeof *ir);
    if (i % SPEED_SAMPLE == 0) {
        memcpy(&b->rec_om[2 * (i / SPEED_SAMPLE)], b->om, 2 * sizeof *b->om);
        memcpy(&b->rec_or[2 * (i / SPEED_SAMPLE)], b->orr, 2 * sizeof *b->orr);
    }
}

static int out_eq(const mlc_out_t *e, const mlc_out_t *a)
{
    return e->tx_en == a->tx_en && e->tx_d == a->tx_d && e->h_rvalid == a->h_rvalid && e->h_rdata == a->h_rdata &&
           e->st_tx_space[0] == a->st_tx_space[0] && e->st_tx_space[1] == a->st_tx_space[1] &&
           e->st_rx_avail[0] == a->st_rx_avail[0] && e->st_rx_avail[1] == a->st_rx_avail[1] &&
           e->reg_rvalid == a->reg_rvalid && e->reg_rdata == a->reg_rdata;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the recorded stimulus replayed into fresh models and a fresh RTL pair, only the step calls timed
 * (two model ends per step are one step, as the RTL pair's one edge is); every SPEED_SAMPLE-th
 * step's outputs must equal those of the run (the replay is the run); 0 on success */
static int speed_replay(bench_t *b, int nplus, const char *const *plus)
{
    uint64_t n = b->rec_n, bad = 0;
    mlc_out_t o[2];
    mlc_t *m0 = mlc_new(&b->p[0]), *m1 = mlc_new(&b->p[1]);
    if (!m0 || !m1) {
        fprintf(stderr, "mlc_lockstep: out of memory (--speed)\n");
        return 1;
    }
    double t0 = now_s();
    for (uint64_t i = 0; i < n; i++) {
        mlc_step(m0, &b->rec_im[2 * i], &o[0]);
        mlc_step(m1, &b->rec_im[2 * i + 1], &o[1]);
        if (i % SPEED_SAMPLE == 0 && (!out_eq(&b->rec_om[2 * (i / SPEED_SAMPLE)], &o[0]) ||
                                      !out_eq(&b->rec_om[2 * (i / SPEED_SAMPLE) + 1], &o[1])) && !bad++)
            printf("SPEED replay: the model's outputs of step %" PRIu64 " differ from the run's\n", i + 1);
    }
    double tm = now_s() - t0;
    mlc_free(m0);
    mlc_free(m1);
    mlc_rtl_t *r = mlc_rtl_new(nplus, plus);
    t0 = now_s();
    for (uint64_t i = 0; i < n; i++) {
        mlc_rtl_step(r, &b->rec_ir[2 * i], o);
        if (i % SPEED_SAMPLE == 0 && (!out_eq(&b->rec_or[2 * (i / SPEED_SAMPLE)], &o[0]) ||
                                      !out_eq(&b->rec_or[2 * (i / SPEED_SAMPLE) + 1], &o[1])) && !bad++)
            printf("SPEED replay: the RTL's outputs of step %" PRIu64 " differ from the run's\n", i + 1);
    }
    double tr = now_s() - t0;
    mlc_rtl_free(r);
    if (bad) {
        printf("SPEED replay: %" PRIu64 " sampled steps differ (of %" PRIu64 ")\n", bad, (n + SPEED_SAMPLE - 1) / SPEED_SAMPLE);
        return 1;
    }
    double ms = tm > 0 ? (double)n / tm : 0, rs = tr > 0 ? (double)n / tr : 0;
    printf("speed: %" PRIu64 " steps: model %.0f steps/s, rtl %.0f steps/s, ratio %.2f (step calls only;"
           " model %.3f s, rtl %.3f s, replayed stimulus, outputs of every %uth step checked)\n",
           n, ms, rs, rs > 0 ? ms / rs : 0.0, tm, tr, SPEED_SAMPLE);
    return 0;
}

static void step(bench_t *b, int draining)
{
    int faults = draining == 0;
    mlc_in_t im[2], ir[2];
    b->cycle++;
    if (b->waves.vcd && b->rtl) {
        int wa = bench_waves_at(&b->waves, b->cycle, 1);
        if (wa > 0 && mlc_rtl_trace_open(b->rtl, b->waves.vcd, b->cycle) != 0) {
            fprintf(stderr, "mlc_lockstep: cannot write %s\n", b->waves.vcd);
            exit(1);
        }
        if (wa < 0)
            mlc_rtl_trace_close(b->rtl, NULL);
    }
    for (unsigned n = 0; n < 2; n++) {
        b->prev[n] = b->prim[n];
        im[n] = b->nm[n];
        ir[n] = b->nr[n];
        host_inputs(b, n, draining, &im[n]);
        reg_expect(b, n, &im[n]);
        host_count(b, n, &im[n]);
        /* the same host and register inputs into the RTL */
        ir[n].h_wr = im[n].h_wr;
        ir[n].h_wch = im[n].h_wch;
        ir[n].h_wdata = im[n].h_wdata;
        ir[n].h_rd = im[n].h_rd;
        ir[n].h_rch = im[n].h_rch;
        ir[n].reg_rd = im[n].reg_rd;
        ir[n].reg_wr = im[n].reg_wr;
        ir[n].reg_addr = im[n].reg_addr;
        ir[n].reg_wdata = im[n].reg_wdata;
        /* a corrupted nibble on the link: the same flip into both pairs */
        if (faults && rng_below(&b->frng, 1000) < 2) {
            unsigned lw = b->p[n].LINK_W;
            uint8_t flip = (uint8_t)(1u + rng_below(&b->frng, (1u << lw) - 1u));
            int en = b->mode == M_RTL ? ir[n].rx_en : im[n].rx_en;
            if (en) {
                im[n].rx_d ^= flip;
                ir[n].rx_d ^= flip;
                b->corrupted++;
            }
        }
        /* CTL faults: the same into both pairs */
        if (b->ctl_rate && draining != 1) {
            int en = b->mode == M_RTL ? ir[n].rx_en : im[n].rx_en;
            int starts = en && !b->prev_rx_en[n];
            b->prev_rx_en[n] = (uint8_t)en;
            if (!en)
                b->erasing[n] = 0;
            else if (starts && n == 0 && b->erase_next) {
                b->erasing[n] = 1; /* the first frame at the master after a phase switch */
                b->erase_next = 0;
            } else if (starts && faults && rng_below(&b->frng, 1000000) < 500u * b->ctl_rate / 100u)
                b->erasing[n] = 1; /* roughly ctl_rate per million frames x 5 */
            unsigned r = rng_below(&b->frng, 1000000);
            int drop = faults && en && r < b->ctl_rate;
            int spur = faults && !en && r >= b->ctl_rate && r < 2u * b->ctl_rate;
            if (n == 1 && b->pulse_next && b->prev[1].tx_en && b->cycle == b->txf[1].start + 1u) {
                spur = 1; /* a directed conflict: a CTL pulse at the slave while it sends (hold) */
                b->pulse_next = 0;
            } else if (n == 1 && b->guard_next && !b->pulse_next && !b->hold && !en &&
                       b->txf[1].start &&
                       b->cycle == b->txf[1].start + (8u + 32u * b->txf[1].np) * 4u / b->p[1].LINK_W + b->link_delay) {
                /* a directed early frame: a CTL pulse at the slave LINK_DELAY + 1 steps after its last
                 * symbol, hold 0: the guard ignores it (rule 2); an unguarded slave would answer it in
                 * the step the master answers its frame (crossing frames) */
                spur = 1;
                b->guard_next = 0;
                b->guard_pulses++;
            }
            if (b->erasing[n] || drop) {
                im[n].rx_en = ir[n].rx_en = 0;
                im[n].rx_d = ir[n].rx_d = 0;
            } else if (spur) {
                uint8_t d = (uint8_t)rng_below(&b->frng, 1u << b->p[n].LINK_W);
                im[n].rx_en = ir[n].rx_en = 1;
                im[n].rx_d = ir[n].rx_d = d;
            }
            if (b->erasing[n] || drop || spur) {
                if (b->cycle != b->last_fault)
                    b->ctl_faults++;
                b->last_fault = b->cycle;
            }
        }
    }
    if (b->forge_rate && faults)
        for (unsigned n = 0; n < 2; n++) {
            int en = im[n].rx_en; /* lockstep only: the model's and the RTL's links agree */
            int starts = en && !b->fprev_en[n];
            b->fprev_en[n] = (uint8_t)en;
            if (!en)
                b->swallow[n] = 0;
            if (starts && b->fpos[n] >= b->flen[n] && rng_below(&b->frng, 1000) < b->forge_rate)
                forge(b, n);
            if (b->fpos[n] < b->flen[n]) {
                im[n].rx_en = ir[n].rx_en = 1;
                im[n].rx_d = ir[n].rx_d = b->fsym[n][b->fpos[n]++];
                b->swallow[n] = b->fpos[n] == b->flen[n] && en; /* then drop the rest of the real one */
                b->last_fault = b->cycle;
            } else if (b->swallow[n]) {
                im[n].rx_en = ir[n].rx_en = 0;
                im[n].rx_d = ir[n].rx_d = 0;
                b->last_fault = b->cycle;
            }
        }
    if (b->mode != M_RTL) {
        mlc_step(b->m[0], &im[0], &b->om[0]);
        mlc_step(b->m[1], &im[1], &b->om[1]);
    }
    if (b->mode != M_MODEL) {
        mlc_rtl_step(b->rtl, ir, b->orr);
        if (mlc_rtl_stopped(b->rtl))
            check_fail(b, "the RTL stopped itself (assertion)");
    }
    if (b->speed)
        speed_record(b, im, ir);
    if (b->mode == M_LOCKSTEP) {
        compare(b, 0, &b->om[0], &b->orr[0]);
        compare(b, 1, &b->om[1], &b->orr[1]);
    }
    for (unsigned n = 0; n < 2; n++)
        b->prim[n] = b->mode == M_RTL ? b->orr[n] : b->om[n];
    if (b->mode != M_RTL) {
        uint64_t ov = mlc_link_overlaps(b->lm);
        mlc_link_step(b->lm, &b->om[0], &b->om[1], &b->nm[0], &b->nm[1]);
        if (mlc_link_overlaps(b->lm) != ov && !ctl_unsettled(b))
            check_fail(b, "both ends drive at one end's pins (model link)");
    }
    if (b->mode != M_MODEL) {
        uint64_t ov = mlc_link_overlaps(b->lr);
        mlc_link_step(b->lr, &b->orr[0], &b->orr[1], &b->nr[0], &b->nr[1]);
        if (mlc_link_overlaps(b->lr) != ov && !ctl_unsettled(b))
            check_fail(b, "both ends drive at one end's pins (RTL link)");
    }
    link_checks(b);
    for (unsigned n = 0; n < 2; n++) {
        const mlc_in_t *rx = b->mode == M_RTL ? &ir[n] : &im[n]; /* what the primary end was given */
        rx_decode(b, n, rx);
        tx_check(b, n);
        if (n == 0)
            timeout_check(b, rx);
        reg_check(b, n, &im[n]);
        if (b->cfg_wr[n])
            b->cfg_eff[n] = b->cfg[n] & 7u;
    }
    /* host side: collect the words read, check whole messages */
    for (unsigned n = 0; n < 2; n++) {
        mlc_host_collect(b->h[n], &b->prim[n]);
        for (unsigned c = 0; c < MLC_NCH; c++) {
            mlc_msg_t m;
            while (mlc_host_recv(b->h[n], c, &m)) {
                ring_t *q = &b->exp[1 - n][c];
                if (b->forge_rate) { /* forged data frames are accepted: no scoreboard */
                    b->recvd++;
                    mlc_msg_free(&m);
                    continue;
                }
                mlc_msg_t *e = ring_front(q);
                if (!e)
                    sb_fail(b, n, c, "a message arrived that was not sent (or twice)");
                if (!mlc_msg_eq(&m, e)) {
                    char w[200];
                    snprintf(w, sizeof w,
                             "message %" PRIu64 " differs from the next one sent (type %u/%u kind %u/%u len %u/%u)",
                             b->recvd, m.type, e->type, m.kind, e->kind, m.len, e->len);
                    sb_fail(b, n, c, w);
                }
                b->bytes += m.len;
                mlc_msg_free(&m);
                exp_drop(q);
                b->recvd++;
            }
        }
    }
}

/* ------------------------------------------------------------------ drains and phases */

static int sb_busy(const bench_t *b)
{
    for (unsigned n = 0; n < 2; n++)
        for (unsigned c = 0; c < MLC_NCH; c++)
            if (b->exp[n][c].n)
                return 1;
    return 0;
}

/* the link is quiet: nothing left to write, every unit acknowledged, every receive FIFO read */
static int link_quiet(const bench_t *b)
{
    for (unsigned n = 0; n < 2; n++)
        for (unsigned c = 0; c < MLC_NCH; c++)
            if (mlc_host_tx_pending(b->h[n], c) || b->prim[n].st_tx_space[c] != b->p[n].FIFO_BYTES ||
                b->prim[n].st_rx_avail[c] != 0)
                return 0;
    return 1;
}

/* no new messages, no random faults, hosts read everything: all in flight must arrive within the
 * limit; quiet: a drain between phases (the directed faults of phase_switch) and the link must
 * become quiet; returns the steps run */
static uint64_t drain(bench_t *b, int quiet)
{
    uint64_t limit = 400000 + 40 * (uint64_t)b->p[0].FIFO_BYTES, k;
    if (b->forge_rate) /* forged units may block message-based delivery for ever: a bounded wait */
        limit = quiet ? 20000 : 0;
    for (k = 0; k < limit; k++) {
        if (!(b->forge_rate ? 0 : sb_busy(b)) && (!quiet || link_quiet(b)))
            break;
        step(b, quiet ? 2 : 1);
    }
    if (b->forge_rate)
        return k;
    for (unsigned n = 0; n < 2; n++)
        for (unsigned c = 0; c < MLC_NCH; c++)
            if (b->exp[n][c].n || (quiet && !link_quiet(b))) {
                char w[160];
                for (unsigned x = 0; x < 2; x++)
                    printf("  node %u cfg %u: words pending %" PRIu64 "/%" PRIu64 ", space %u/%u, avail %u/%u\n", x,
                           b->cfg[x], mlc_host_tx_pending(b->h[x], 0), mlc_host_tx_pending(b->h[x], 1),
                           b->prim[x].st_tx_space[0], b->prim[x].st_tx_space[1], b->prim[x].st_rx_avail[0],
                           b->prim[x].st_rx_avail[1]);
                if (b->m[0])
                    for (unsigned x = 0; x < 2; x++) {
                        printf("  node %u:", x);
                        for (unsigned j = 0; j < MLC_NCTR; j++)
                            printf(" %s=%u", mlc_counter_name(j), (unsigned)mlc_counter(b->m[x], j));
                        printf("\n");
                    }
                if (b->exp[n][c].n)
                    snprintf(w, sizeof w, "%zu messages sent by node %u never arrived (drain of %" PRIu64 " steps)",
                             b->exp[n][c].n, n, k);
                else
                    snprintf(w, sizeof w,
                             "the link did not become quiet (units unacknowledged or unread) in a drain of %" PRIu64
                             " steps",
                             k);
                sb_fail(b, 1 - n, c, w);
            }
    return k;
}

/* the configuration of phase ph: pipelined in even phases, message-based in odd ones; each end its
 * own transfer size (both ends in the same mode: a message-based receiver could never deliver a
 * message larger than its FIFO that a pipelined sender accepted) */
static void phase_config(bench_t *b, unsigned ph)
{
    unsigned msg = ph % 2 ? MLC_CFG_MSG : 0u;
    for (unsigned n = 0; n < 2; n++) {
        unsigned r = rng_below(&b->rng, 8);
        b->cfg[n] = msg | MLC_CFG_SP(r < 5 ? 0 : r - 4);
        b->cfg_pending[n] = 1;
    }
}

/* between two phases: drain in Network Burst until the link is quiet, a driver for the new mode
 * (sw/mlc_host takes the mode at creation; nothing is left in the old one), both configurations
 * written in one step */
static void phase_switch(bench_t *b)
{
    b->erase_next = b->ctl_rate != 0; /* a directed timeout: the next frame at the master erased */
    b->pulse_next = b->ctl_rate != 0; /* a directed conflict at the slave: hold set, then cleared */
    b->guard_next = b->ctl_rate != 0; /* then an early frame at the slave: the guard */
    for (unsigned n = 0; n < 2; n++) { /* the drain in Network Burst (the mode stays) */
        b->cfg[n] = (b->cfg[n] & MLC_CFG_MSG) | MLC_CFG_SP(0);
        b->cfg_pending[n] = 1;
    }
    uint64_t d = drain(b, 1);
    b->phase_drain += d;
    phase_config(b, b->nphase);
    for (unsigned n = 0; n < 2; n++) {
        mlc_host_free(b->h[n]);
        b->h[n] = mlc_host_new(b->p[n].FIFO_BYTES, b->cfg[n] & MLC_CFG_MSG);
        if (!b->h[n]) {
            fprintf(stderr, "mlc_lockstep: out of memory\n");
            exit(1);
        }
    }
    if (!b->quiet)
        printf("  phase %u from step %" PRIu64 " (after a drain of %" PRIu64 " steps): %s, cfg=%u/%u\n", b->nphase,
               b->cycle + 1, d, b->cfg[0] & MLC_CFG_MSG ? "message-based" : "pipelined", b->cfg[0], b->cfg[1]);
    b->nphase++;
}

/* ------------------------------------------------------------------ main */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mlc_lockstep [--cycles N] [--seed N] [--mode lockstep|rtl|model] [--quiet] [--vcd FILE]\n"
            "                    [--vcd-start N] [--vcd-cycles N] [--vcd-on-fail FILE] [--ctl-faults R]\n"
            "                    [--forge R] [--phase N] [--speed] [--help] [+verilator+...]\n");
    bench_waves_usage(f, "");
    fprintf(f,
            "  Cycles are the bench's steps (1 = the first edge after reset); save file tb/mlc/mlc.gtkw\n"
            "  (gtkwave FILE tb/mlc/mlc.gtkw).\n"
            "--ctl-faults R: also R per million steps and end dropped CTL cycles and spurious CTL pulses,\n"
            "  and about 5R per million frames erased (needs TIMEOUT > 0; default 20 with TIMEOUT > 0, else 0).\n"
            "--forge R: R per thousand arriving frames replaced by made-up frames with a correct check\n"
            "  (lockstep only; the scoreboard and the drain are off).\n"
            "--phase N: cycles per phase (default: a fifth of --cycles from 1000000 on, else half):\n"
            "  pipelined and message-based transfer in turn, a drain (counted in the cycles) and a\n"
            "  configuration write between two phases; each phase has at least N/2 traffic cycles.\n"
            "--speed: lockstep only: record every step's inputs of the model ends and the RTL pair, then\n"
            "  replay them into fresh models and a fresh RTL pair, timing the step calls alone (two model\n"
            "  ends per step are one step); every 64th step's outputs are checked against the run's; prints\n"
            "  'speed: N steps: model X steps/s, rtl Y steps/s, ratio Z (step calls only ...)'.\n"
            "Two MLCs (master, slave) joined by the link model, RTL against the C model every cycle,\n"
            "random host traffic on both channels, corrupted nibbles on the link, a scoreboard and the\n"
            "link's turn-round rules. Parameters are fixed at build time (variant %s).\n",
            mlc_rtl_variant());
}

int main(int argc, char **argv)
{
    static bench_t b;
    const char *plus[64];
    int nplus = 0;
    b.seed = 1;
    b.cycles = 100000;
    for (unsigned n = 0; n < 2; n++)
        for (unsigned c = 0; c < MLC_NCH; c++)
            b.exp[n][c] = ring_make(sizeof(mlc_msg_t));
    b.mode = M_LOCKSTEP;
    int ctl_given = 0;
    b.argc = argc;
    b.argv = argv;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        static const char *const opts[] = {"--help", "-h", "--version", "--cycles", "--seed", "--quiet", "--speed",
                                           "--vcd", "--vcd-on-fail", "--ctl-faults", "--forge", "--phase",
                                           "--vcd-cycles", "--vcd-start", "--mode"};
        static const char *const numeric[] = {"--cycles", "--seed", "--ctl-faults", "--forge", "--phase", "--vcd-cycles",
                                              "--vcd-start"};
        for (size_t k = 0; k < sizeof numeric / sizeof numeric[0]; k++)
            if (!strcmp(a, numeric[k]) && i + 1 < argc) {
                const char *v = argv[i + 1], *p = v;
                while (*p >= '0' && *p <= '9')
                    p++;
                if (!*v || *p) {
                    fprintf(stderr, "mlc_lockstep: %s wants a whole number 0..2^64-1, got '%s'\n", a, v);
                    return 2;
                }
            }
        if (!strcmp(a, "--version")) {
            sf_cli_print_version(stdout, "mlc_lockstep");
            return 0;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--cycles") && i + 1 < argc) {
            b.cycles = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(a, "--seed") && i + 1 < argc) {
            b.seed = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(a, "--quiet")) {
            b.quiet = 1;
        } else if (!strcmp(a, "--speed")) {
            b.speed = 1;
        } else if (!strcmp(a, "--vcd") && i + 1 < argc) {
            b.waves.vcd = argv[++i];
        } else if (!strcmp(a, "--vcd-on-fail") && i + 1 < argc) {
            b.waves.on_fail = argv[++i];
        } else if (!strcmp(a, "--ctl-faults") && i + 1 < argc) {
            b.ctl_rate = (unsigned)strtoul(argv[++i], NULL, 0);
            ctl_given = 1;
        } else if (!strcmp(a, "--forge") && i + 1 < argc) {
            b.forge_rate = (unsigned)strtoul(argv[++i], NULL, 0);
        } else if (!strcmp(a, "--phase") && i + 1 < argc) {
            b.phase_len = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(a, "--vcd-cycles") && i + 1 < argc) {
            b.waves.cycles = strtoull(argv[++i], NULL, 0);
            if (!b.waves.cycles) {
                fprintf(stderr, "mlc_lockstep: --vcd-cycles wants at least 1\n");
                return 2;
            }
        } else if (!strcmp(a, "--vcd-start") && i + 1 < argc) {
            b.waves.start = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(a, "--mode") && i + 1 < argc) {
            const char *m = argv[++i];
            if (!strcmp(m, "lockstep"))
                b.mode = M_LOCKSTEP;
            else if (!strcmp(m, "rtl"))
                b.mode = M_RTL;
            else if (!strcmp(m, "model"))
                b.mode = M_MODEL;
            else {
                fprintf(stderr, "mlc_lockstep: unknown mode '%s'\n", m);
                return 2;
            }
        } else if (a[0] == '+' && nplus < 63) {
            plus[nplus++] = a;
        } else {
            char dym[128];
            int has = 0;
            for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++)
                has |= !strcmp(a, opts[k]);
            if (has)
                fprintf(stderr, "mlc_lockstep: %s needs a value (see --help)\n", a);
            else
                fprintf(stderr, "mlc_lockstep: unknown option '%s'%s (see --help)\n", a,
                        sf_cli_did_you_mean(dym, sizeof dym, a, opts, sizeof opts / sizeof opts[0]));
            return 2;
        }
    }
    b.p[0] = mlc_rtl_params(0);
    b.p[1] = mlc_rtl_params(1);
    b.link_delay = mlc_rtl_link_delay();
    if (b.forge_rate && mlc_rtl_params(0).TIMEOUT == 0) {
        fprintf(stderr, "mlc_lockstep: --forge needs TIMEOUT > 0 (a collision it causes may stop the link)\n");
        return 2;
    }
    if (b.speed && b.mode != M_LOCKSTEP) {
        fprintf(stderr, "mlc_lockstep: --speed runs in lockstep mode only\n");
        return 2;
    }
    if (bench_waves_check("mlc_lockstep", &b.waves, b.mode != M_MODEL))
        return 2;
    if (b.speed && b.waves.vcd && b.waves.start)
        b.speed = 0; /* the --vcd-on-fail replay of a failure */
    if (b.forge_rate && b.mode != M_LOCKSTEP) {
        fprintf(stderr, "mlc_lockstep: --forge runs in lockstep mode only (it turns the scoreboard off)\n");
        return 2;
    }
    if (!ctl_given && b.p[0].TIMEOUT > 0)
        b.ctl_rate = 20;
    if (b.ctl_rate && b.p[0].TIMEOUT == 0) {
        fprintf(stderr, "mlc_lockstep: --ctl-faults needs TIMEOUT > 0 (a frame lost entirely stops the link)\n");
        return 2;
    }
    if (b.ctl_rate > 100000) {
        fprintf(stderr, "mlc_lockstep: --ctl-faults is at most 100000\n");
        return 2;
    }
    const char *bad = mlc_params_check(&b.p[0]);
    if (bad) {
        fprintf(stderr, "mlc_lockstep: %s\n", bad);
        return 2;
    }
    rng_seed(&b.rng, b.seed * 0x9E3779B97F4A7C15ull + 1);
    rng_seed(&b.frng, b.seed * 0xC2B2AE3D27D4EB4Full + 7);
    if (!b.phase_len) /* five phases in a run of a million cycles or more, else two */
        b.phase_len = b.cycles >= 1000000 ? b.cycles / 5 : b.cycles / 2 ? b.cycles / 2 : 1;
    phase_config(&b, 0);
    b.nphase = 1;
    /* the counters the bench counts itself from the ports (docs/mlc.md, Counters): frames and units
     * sent, timeouts, refused writes and reads; err_credit and dup stay 0 between two correct ends
     * (rule 6), except with forged frames */
    b.ctr_known[MLC_CTR_TX_FRAMES] = b.ctr_known[MLC_CTR_TX_NULL] = b.ctr_known[MLC_CTR_TX_PKTS] = 1;
    b.ctr_known[MLC_CTR_TIMEOUT] = b.ctr_known[MLC_CTR_WR_OVER] = b.ctr_known[MLC_CTR_RD_UNDER] = 1;
    b.ctr_known[MLC_CTR_ERR_CREDIT] = b.ctr_known[MLC_CTR_DUP] = !b.forge_rate;
    for (unsigned n = 0; n < 2; n++) {
        b.m[n] = mlc_new(&b.p[n]);
        b.h[n] = mlc_host_new(b.p[n].FIFO_BYTES, b.cfg[n] & MLC_CFG_MSG);
        if (!b.m[n] || !b.h[n]) {
            fprintf(stderr, "mlc_lockstep: out of memory\n");
            return 1;
        }
        b.prim[n] = (mlc_out_t){0};
        b.prim[n].st_tx_space[0] = b.prim[n].st_tx_space[1] = (uint16_t)b.p[n].FIFO_BYTES;
    }
    b.lm = mlc_link_new(b.link_delay);
    b.lr = mlc_link_new(b.link_delay);
    if (b.mode != M_MODEL) {
        b.rtl = mlc_rtl_new(nplus, plus);
    }
    b.last_end = -1;
    b.cur = -1;
    printf("mlc_lockstep: variant %s LINK_W=%u FIFO_BYTES=%u TURN=%u TIMEOUT=%u CTR_W=%u LINK_DELAY=%u "
           "cfg=%u/%u ctl-faults=%u mode=%s cycles=%" PRIu64 " seed=%" PRIu64 "\n"
           "  phases of %" PRIu64 " cycles (%" PRIu64 " in this run), pipelined and message-based in turn from pipelined;"
           " between two: drain (Network Burst%s), quiet link, both configurations written\n",
           mlc_rtl_variant(), b.p[0].LINK_W, b.p[0].FIFO_BYTES, b.p[0].TURN, b.p[0].TIMEOUT, b.p[0].CTR_W,
           b.link_delay, b.cfg[0], b.cfg[1], b.ctl_rate, b.mode == M_LOCKSTEP ? "lockstep" : b.mode == M_RTL ? "rtl" : "model",
           b.cycles, b.seed, b.phase_len, (b.cycles + b.phase_len - 1) / b.phase_len,
           b.ctl_rate ? ", the next frame at the master erased: a timeout, a CTL pulse at the slave: hold" : "");
    fflush(stdout);
    /* phase k starts at step k * phase_len, or later: every phase has at least half a phase of
     * traffic (a drain counts in the cycles, and may be long); the last one runs to --cycles */
    uint64_t ph_traffic = 0;
    unsigned planned = (unsigned)((b.cycles + b.phase_len - 1) / b.phase_len);
    while (b.cycle < b.cycles || ph_traffic < b.phase_len / 2) {
        if (b.nphase < planned && b.cycle >= (uint64_t)b.nphase * b.phase_len && ph_traffic >= b.phase_len / 2) {
            phase_switch(&b);
            ph_traffic = 0;
            continue;
        }
        step(&b, 0);
        ph_traffic++;
        if (!b.quiet && b.cycle % 1000000 == 0) {
            printf("  cycle %" PRIu64 ": %" PRIu64 " messages sent, %" PRIu64 " received, %" PRIu64
                   " nibbles corrupted\n",
                   b.cycle, b.sent, b.recvd, b.corrupted);
            fflush(stdout);
        }
    }
    /* drain: no new messages, no faults, hosts read everything; all in flight must arrive */
    uint64_t ran = b.cycle; /* --cycles, or more when the last phase needed its half phase */
    b.drain = drain(&b, 0);
    if (b.frames < 4)
        check_fail(&b, "fewer than 4 frames on the link");
    printf("PASS mlc_lockstep variant %s: %" PRIu64 " cycles (+%" PRIu64 " drain), %" PRIu64 " frames, %" PRIu64
           " messages (%" PRIu64 " bytes) delivered, %" PRIu64 " nibbles corrupted, %" PRIu64 " CTL faults, %" PRIu64
           " forged frames, seed=%" PRIu64 "\n",
           mlc_rtl_variant(), ran, b.drain, b.frames, b.recvd, b.bytes, b.corrupted, b.ctl_faults, b.forged,
           b.seed);
    printf("  phases: %u (%u pipelined, %u message-based; %" PRIu64 " drain steps between them, in the cycles),"
           " %" PRIu64 " timeouts seen, %" PRIu64 " directed early frames at the slave (guard)\n",
           b.nphase, (b.nphase + 1) / 2, b.nphase / 2, b.phase_drain, b.timeouts_seen, b.guard_pulses);
    if (b.mode != M_RTL && !b.quiet) { /* what the run exercised (model counters, both ends) */
        printf("  events:");
        for (unsigned k = MLC_CTR_ERR_CHECK; k < MLC_NCTR; k++)
            printf(" %s=%u", mlc_counter_name(k), (unsigned)(mlc_counter(b.m[0], k) + mlc_counter(b.m[1], k)));
        printf("\n");
    }
    waves_done(&b, "");
    if (b.rtl)
        mlc_rtl_free(b.rtl);
    int rc = 0;
    if (b.speed) {
        fflush(stdout);
        rc = speed_replay(&b, nplus, plus);
        free(b.rec_im);
        free(b.rec_ir);
        free(b.rec_om);
        free(b.rec_or);
    }
    for (unsigned n = 0; n < 2; n++) {
        mlc_free(b.m[n]);
        mlc_host_free(b.h[n]);
        for (unsigned c = 0; c < MLC_NCH; c++) {
            while (b.exp[n][c].n)
                exp_drop(&b.exp[n][c]);
            ring_free(&b.exp[n][c]);
        }
    }
    mlc_link_free(b.lm);
    mlc_link_free(b.lr);
    return rc;
}

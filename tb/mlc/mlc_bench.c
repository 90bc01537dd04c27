/* sanfab — lockstep bench of the Maestro Link Controller (docs/mlc.md): two MLCs, node 0 the master
 * and node 1 the slave, joined by the link model (cmodel mlc_link_*), once as Verilated RTL
 * (rtl/mlc/mlc_pair.v through tb/mlc/mlc_rtl.cpp) and once as C models. Every cycle both pairs get
 * the same host stimulus (the host driver sw/sim/mlc_host.c, random messages on both channels, refused
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
 * Resets after traffic (not with --speed): one in mid-flight halfway through phase 0 (every message
 * not wholly read is lost: dropped from the scoreboard), one after the drain before phase 1.
 * Before the final drain, the limits test (not with --forge): every FIFO full (st_rx_avail =
 * FIFO_BYTES, credits 0, st_tx_space 0), the directed fault pairs at the slave (a corrupted bit, two,
 * a CTL cycle short, a pulse long, a forged over-credit frame, alone and in pairs: the counter rule
 * 6's first failing test names moves by one, no other), then the receive FIFOs read back slower than
 * frames alternate so the credits climb one by one through 15 and 16 free units; after the drain,
 * every bit of the status outputs, registers 15 and 16 and the received NP/FLAGS/CR nibbles must
 * have been seen 0 and 1 (none beyond its field 1). Random frames also get several faults at once
 * (two flipped bits, with CTL faults also a dropped CTL cycle) at 3 in 100 frame starts.
 * With TIMEOUT > 0 the link also gets CTL faults (--ctl-faults): dropped CTL cycles, spurious CTL
 * pulses, whole frames erased; the link timing checks pause after each until the link has settled
 * (two full frames and four turn-rounds: docs/mlc.md, recovery is bounded), while the comparison and the
 * scoreboard go on; a frame the slave rightly leaves unanswered (early, or bad while it holds)
 * hands the link to the master's timeout, checked to the step.
 *
 * Usage: mlc_bench [--cycles N] [--seed N] [--mode lockstep|rtl|model] [--quiet] [--vcd FILE]
 *                  [--vcd-start N] [--vcd-cycles N] [--vcd-on-fail FILE] [--ctl-faults R] [--forge R] [--phase N] [--ctr-preset K] [--speed] [--test all] [--help] [+verilator+...]
 * (the command line is tb/common/bench_cli's: numbers decimal, 0x hex or 0 octal; with
 * +verilator+rand+reset+ and no +verilator+seed+ a seed derived from --seed).
 * --ctr-preset K (default 16, 0 off): the counter preset mode (docs/verification.md): right after reset
 * every register-port counter of both ends starts near its wrap, 2^CTR_W - j (a quarter of them
 * 2^(CTR_W-1) - j), j random in 1..K from the seed, in the RTL (a Verilator backdoor on ctr_q,
 * mlc_rtl_ctr_preset) and in the model (mlc_ctr_preset, test only); the bench's own counts start
 * there too, so every read of a counter checks value = events + preset modulo 2^CTR_W.
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
#include "sf_cli.h"
#include "mlc_bench_run.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ main */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mlc_bench [--cycles N] [--seed N] [--mode lockstep|rtl|model] [--quiet] [--vcd FILE]\n"
            "                 [--vcd-start N] [--vcd-cycles N] [--vcd-on-fail FILE] [--ctl-faults R]\n"
            "                 [--forge R] [--phase N] [--ctr-preset K] [--speed] [--test all] [--help]\n"
            "                 [+verilator+...]\n");
    bench_waves_usage(f, "");
    fprintf(f,
            "  Cycles are the bench's steps (1 = the first edge after reset); save file tb/mlc/mlc.gtkw\n"
            "  (gtkwave FILE tb/mlc/mlc.gtkw).\n"
            "--ctl-faults R: also R per million steps and end dropped CTL cycles and spurious CTL pulses,\n"
            "  and about 5R per million frames erased (needs TIMEOUT > 0; default 20 with TIMEOUT > 0, else 0).\n"
            "--forge R: R per thousand arriving frames replaced by made-up frames with a correct check\n"
            "  (lockstep only; the scoreboard and the drain are off).\n"
            "--ctr-preset K: counter preset mode (default K 16; 0 off): right after reset every counter of\n"
            "  both ends (RTL by a backdoor, model) starts at 2^CTR_W - j, a quarter of them at\n"
            "  2^(CTR_W-1) - j, j random in 1..K, so carries reach the top bits; the checks count from there.\n"
            "--phase N: cycles per phase (default: a fifth of --cycles from 1000000 on, else half):\n"
            "  pipelined and message-based transfer in turn, a drain (counted in the cycles) and a\n"
            "  configuration write between two phases; each phase has at least N/2 traffic cycles.\n"
            "--speed: lockstep only: record every step's inputs of the model ends and the RTL pair, then\n"
            "  replay them into fresh models and a fresh RTL pair, timing the step calls alone (two model\n"
            "  ends per step are one step); every 64th step's outputs are checked against the run's; prints\n"
            "  'speed: N steps: model X steps/s, rtl Y steps/s, ratio Z (step calls only ...)'.\n"
            "Two MLCs (master, slave) joined by the link model, RTL against the C model every cycle,\n"
            "random host traffic on both channels, corrupted nibbles on the link, a scoreboard and the\n"
            "link's turn-round rules; resets after traffic, the limits test (every FIFO full, the\n"
            "directed fault pairs, the credits climbing through 16 free units) and the bit coverage of\n"
            "every status and flag word. Parameters are fixed at build time (variant %s).\n",
            mlc_rtl_variant());
}

/* --ctl-faults given: the default rate (20 with TIMEOUT > 0) is not used */
static int ctl_given(void *ctx, const char *value)
{
    (void)value;
    *(int *)ctx = 1;
    return -1;
}

/* the parameters come from the RTL build; mlc_params_check() of the master's */
static const char *check_params(const void *params, char *buf, size_t n)
{
    (void)buf, (void)n;
    return mlc_params_check(params);
}

int main(int argc, char **argv)
{
    static bench_t b;
    bench_opts_t o;
    bench_cli_t cli;
    uint64_t ctl_rate = 0, forge_rate = 0, preset_k = 16;
    int ctl_set = 0;
    for (unsigned n = 0; n < 2; n++)
        for (unsigned c = 0; c < MLC_NCH; c++)
            b.exp[n][c] = ring_make(sizeof(mlc_msg_t));
    b.argc = argc;
    b.argv = argv;
    b.p[0] = mlc_rtl_params(0);
    b.p[1] = mlc_rtl_params(1);
    b.link_delay = mlc_rtl_link_delay();
    if (bench_cli_init(&cli, &o, 1, argc)) {
        fprintf(stderr, "mlc_bench: out of memory\n");
        return 1;
    }
    const bench_opt_t own[] = {{"--speed", BENCH_OPT_FLAG, &b.speed, NULL, NULL},
                               {"--ctl-faults", BENCH_OPT_NUM, &ctl_rate, ctl_given, &ctl_set},
                               {"--forge", BENCH_OPT_NUM, &forge_rate, NULL, NULL},
                               {"--phase", BENCH_OPT_NUM, &b.phase_len, NULL, NULL},
                               {"--ctr-preset", BENCH_OPT_NUM, &preset_k, NULL, NULL}};
    const bench_cli_spec_t spec = {"mlc_bench", 1, usage, own, sizeof own / sizeof own[0], check_params, &b.p[0]};
    int rc = bench_cli_parse(&spec, argc, argv, &cli, &o);
    if (rc < 0 && strcmp(cli.test, "all") != 0) {
        fprintf(stderr, "mlc_bench: unknown test '%s' (the bench has one: all)\n", cli.test);
        rc = 2;
    }
    if (rc >= 0) {
        bench_cli_free(&cli);
        return rc;
    }
    b.seed = o.seed;
    b.cycles = o.cycles;
    b.mode = o.mode;
    b.quiet = o.quiet;
    b.waves = o.waves;
    const int nplus = o.nplus;
    const char *const *plus = o.plus;
    b.forge_rate = (unsigned)forge_rate;
    if (b.forge_rate && mlc_rtl_params(0).TIMEOUT == 0) {
        fprintf(stderr, "mlc_bench: --forge needs TIMEOUT > 0 (a collision it causes may stop the link)\n");
        bench_cli_free(&cli);
        return 2;
    }
    if (b.speed && b.mode != MODE_LOCKSTEP) {
        fprintf(stderr, "mlc_bench: --speed runs in lockstep mode only\n");
        bench_cli_free(&cli);
        return 2;
    }
    if (b.speed && b.waves.vcd && b.waves.start)
        b.speed = 0; /* the --vcd-on-fail replay of a failure */
    if (b.forge_rate && b.mode != MODE_LOCKSTEP) {
        fprintf(stderr, "mlc_bench: --forge runs in lockstep mode only (it turns the scoreboard off)\n");
        bench_cli_free(&cli);
        return 2;
    }
    if (!ctl_set && b.p[0].TIMEOUT > 0)
        ctl_rate = 20;
    if (ctl_rate && b.p[0].TIMEOUT == 0) {
        fprintf(stderr, "mlc_bench: --ctl-faults needs TIMEOUT > 0 (a frame lost entirely stops the link)\n");
        bench_cli_free(&cli);
        return 2;
    }
    if (ctl_rate > 100000) {
        fprintf(stderr, "mlc_bench: --ctl-faults is at most 100000\n");
        bench_cli_free(&cli);
        return 2;
    }
    b.ctl_rate = (unsigned)ctl_rate;
    if (preset_k > 1000) {
        fprintf(stderr, "mlc_bench: --ctr-preset is at most 1000\n");
        bench_cli_free(&cli);
        return 2;
    }
    b.preset_k = (unsigned)preset_k;
    preset_draw(&b);
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
            fprintf(stderr, "mlc_bench: out of memory\n");
            return 1;
        }
        b.prim[n] = (mlc_out_t){0};
        b.prim[n].st_tx_space[0] = b.prim[n].st_tx_space[1] = (uint16_t)b.p[n].FIFO_BYTES;
    }
    b.lm = mlc_link_new(b.link_delay);
    b.lr = mlc_link_new(b.link_delay);
    if (b.mode != MODE_MODEL) {
        b.rtl = mlc_rtl_new(nplus, plus);
    }
    preset_apply(&b, b.m[0], b.m[1], b.rtl); /* the counter preset mode, at step 0 */
    b.last_end = -1;
    b.cur = -1;
    printf("mlc_bench: variant %s LINK_W=%u FIFO_BYTES=%u TURN=%u TIMEOUT=%u CTR_W=%u LINK_DELAY=%u "
           "cfg=%u/%u ctl-faults=%u mode=%s cycles=%" PRIu64 " seed=%" PRIu64 "\n"
           "  phases of %" PRIu64 " cycles (%" PRIu64 " in this run), pipelined and message-based in turn from pipelined;"
           " between two: drain (Network Burst%s), quiet link, both configurations written\n",
           mlc_rtl_variant(), b.p[0].LINK_W, b.p[0].FIFO_BYTES, b.p[0].TURN, b.p[0].TIMEOUT, b.p[0].CTR_W,
           b.link_delay, b.cfg[0], b.cfg[1], b.ctl_rate, b.mode == MODE_LOCKSTEP ? "lockstep" : b.mode == MODE_RTL ? "rtl" : "model",
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
        if (b.nphase == 1 && ph_traffic == b.phase_len / 2 && !b.speed && !b.resets)
            reset_step(&b); /* a reset in mid-flight: what was not wholly read is lost */
        else
            step(&b, 0);
        ph_traffic++;
        if (!b.quiet && b.cycle % 1000000 == 0) {
            printf("  cycle %" PRIu64 ": %" PRIu64 " messages sent, %" PRIu64 " received, %" PRIu64
                   " nibbles corrupted\n",
                   b.cycle, b.sent, b.recvd, b.corrupted);
            fflush(stdout);
        }
    }
    /* the limits test, then the drain: no new messages, no faults, hosts read everything; all in
     * flight must arrive; then every status and flag bit must have been seen both ways */
    uint64_t ran = b.cycle; /* --cycles, or more when the last phase needed its half phase */
    limits(&b);
    uint64_t lim_steps = b.cycle - ran;
    b.drain = drain(&b, 0);
    cov_check(&b);
    if (b.frames < 4)
        check_fail(&b, "fewer than 4 frames on the link");
    printf("PASS mlc_bench variant %s: %" PRIu64 " cycles (+%" PRIu64 " drain), %" PRIu64 " frames, %" PRIu64
           " messages (%" PRIu64 " bytes) delivered, %" PRIu64 " nibbles corrupted, %" PRIu64 " CTL faults, %" PRIu64
           " forged frames, %" PRIu64 " frames with several faults, seed=%" PRIu64 "\n",
           mlc_rtl_variant(), ran, b.drain, b.frames, b.recvd, b.bytes, b.corrupted, b.ctl_faults, b.forged,
           b.multi, b.seed);
    printf("  phases: %u (%u pipelined, %u message-based; %" PRIu64 " drain steps between them, in the cycles),"
           " %" PRIu64 " timeouts seen, %" PRIu64 " directed early frames at the slave (guard)\n",
           b.nphase, (b.nphase + 1) / 2, b.nphase / 2, b.phase_drain, b.timeouts_seen, b.guard_pulses);
    printf("  resets after traffic: %" PRIu64 " (in mid-flight in phase 0, after the drain before phase 1), %" PRIu64
           " messages lost by them\n", b.resets, b.reset_lost);
    if (!b.forge_rate)
        printf("  limits: %" PRIu64 " steps (after the traffic cycles, before the drain): every FIFO full in %" PRIu64 ", read back a word every %u steps in %" PRIu64
               "; %" PRIu64 " directed fault combinations; every status and flag bit seen 0 and 1\n",
               lim_steps, b.lim_fill, b.lim_every, b.lim_walk, b.pairs_done);
    if (b.mode != MODE_RTL && !b.quiet) { /* what the run exercised (model counters, both ends) */
        printf("  events:");
        for (unsigned k = MLC_CTR_ERR_CHECK; k < MLC_NCTR; k++)
            printf(" %s=%u", mlc_counter_name(k),
                   (unsigned)(((mlc_counter(b.m[0], k) - b.preset[0][k]) & ctr_mask(&b)) +
                              ((mlc_counter(b.m[1], k) - b.preset[1][k]) & ctr_mask(&b))));
        printf("\n");
    }
    waves_done(&b, "");
    if (b.rtl)
        mlc_rtl_free(b.rtl);
    rc = 0;
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
    bench_cli_free(&cli);
    return rc;
}

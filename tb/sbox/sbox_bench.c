/* sanfab — lockstep bench of the Maestro switch box (docs/sbox.md): the box as Verilated RTL
 * (rtl/sbox/sbox.v through tb/sbox/sbox_rtl.cpp) and as the C model (cmodel/sbox.c), stepped with the
 * same inputs every step; PORTS node MLCs (C models, MASTER = 1, each with the host driver
 * sw/sim/mlc_host.c) joined to the box's ports by link models (cmodel mlc_link_*, LINK_DELAY cable
 * registers). One set of nodes and links, fed by the RTL box's outputs (the model's in --mode
 * model); every box output (tx_en, tx_d of every port, reg_rvalid, reg_rdata) is compared with the
 * model every step, and the first difference ends the run with a LOCKSTEP MISMATCH line.
 *
 * Start: the table (--table FILE[:SWITCH], a `sanfab-maestro 1` file read by cmodel/sbox_load.c;
 * default node p on port p) and the box MLCs' configuration are written through the register port
 * (with ignored writes between), then a directed transit test on the idle box, then random traffic,
 * then a drain and the final register reads.
 *
 * Checks that never consult the model (they run in every mode; --mode rtl runs them on the RTL alone):
 *   - scoreboard: every data message arrives whole, unaltered, in order per (source node, channel,
 *     destination port), exactly once at every port of its port set (docs/sbox.md, Messages:
 *     the table, the multicast MASK, minus the arrival port unless a multicast turns at a box port),
 *     never at its sender's node port; barrier requests
 *     are never forwarded; everything is delivered by the drain;
 *   - barriers (no up port): every member port gets exactly one release per barrier (Type0, KIND 3,
 *     DST 255, MASK the members, SRC 255, data 0), none before the last member's request was
 *     written by its host; requests from non-member ports are rejected (err_bar);
 *   - box counters at the end (register port) against the bench's own counts: msgs, mcast, words,
 *     drop_route, bar_req, bar_done, err_bar, err_msg (modulo 2^CTR_W); every box MLC's wr_over and
 *     rd_under are 0;
 *   - the transit (docs/sbox.md, Timing): a single Type0 message through the idle box; from the
 *     step t in which the frame carrying it ends at the source port's pins, the first frame the
 *     destination port starts in a step >= t+14 carries a unit and none starting in t..t+13 does;
 *   - each link (outside the settling window of an injected CTL fault: two full frames and four
 *     turn-rounds, docs/mlc.md "recovery is bounded"): the two ends never drive at one end's pins
 *     in the same step, and they alternate strictly (docs/mlc.md rules 2, 3): the box port (the
 *     slave) starts a frame exactly G = 2 + LINK_DELAY + TURN steps after a node frame ended and
 *     at no other time; the node (the master) exactly G after a box frame ended, or, the box not
 *     answering (hold, guard), exactly TIMEOUT + TURN + 1 steps after its own last symbol (its
 *     timeout); so no two frames cross;
 *   - register port: a read in step r is answered after step r+1 and only then; table entries,
 *     the up port, absent registers (0x80000000), box MLC configuration read back as written;
 *     counters below 2^CTR_W; barrier registers well formed.
 * Faults: corrupted nibbles on every link (both directions), CTL faults (dropped cycles, spurious
 * pulses, erased frames; default 20 per million steps and end when TIMEOUT > 0), hosts that stall
 * reading or writing so FIFOs fill; with TIMEOUT > 0, once on every link in the setup (idle links), a
 * CTL pulse at the box port LINK_DELAY + 1 steps after its frame's last symbol (an early frame: the
 * guard, docs/mlc.md rule 2). Several faults per message: destination kind and PC < 2 drawn independently
 * (a multicast to unrouted nodes only, with PC < 2, ...), and at the start of every random phase one
 * window per pair of the seven fault kinds (docs/sbox.md, Several faults at once), then the limits (the
 * largest message a FIFO takes whole, a multicast with all 16 MASK bits). The table's top entry is always
 * routed; the setup drives the up port register's bits both ways. Every box counter is preset near its wrap
 * after every reset (model hook and RTL backdoor), and a long enough run is reset twice after traffic (in
 * mid-flight and after a drain), everything in flight forgotten, the setup done again (docs/verification.md).
 *
 * Exit status: 0 pass, 1 a mismatch or a check failed, 2 usage. --help lists the options.
 */
#include "sbox_bench.h"

/* ------------------------------------------------------------------ command line */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: %s [--cycles N] [--seed N] [--mode lockstep|rtl|model] [--quiet]\n"
            "       [--vcd FILE] [--vcd-start N] [--vcd-cycles N] [--vcd-on-fail FILE]\n"
            "       [--table FILE[:SWITCH]] [--link-delay N] [--ctl-faults R] [--corrupt R] [--transits N]\n"
            "       [--help] [+verilator+...]\n"
            "The Maestro switch box (docs/sbox.md) as RTL and as C model in lockstep, PORTS node MLCs joined to\n"
            "its ports by link models; every box output compared every step; scoreboard, barriers, box counters,\n"
            "the 13-step transit and the register port checked without the model (--mode rtl: RTL alone).\n"
            "  --cycles N          steps of setup, transit test and random traffic (default 100000), then a drain\n"
            "  --table FILE[:S]    the table of switch S (default 0) of a sanfab-maestro file (sanfab-route\n"
            "                      --maestro); default: %s\n"
            "  (make list-runs and make sbox-sim give each parameter set's runs its own --link-delay and --table)\n"
            "  --link-delay N      cable registers per link direction (default: the build's, %u)\n"
            "  --ctl-faults R      R per million steps and link end: dropped CTL cycles, spurious pulses, and\n"
            "                      about 5R per million frames erased (default 20 with TIMEOUT > 0, else 0)\n"
            "  --corrupt R         R per thousand steps and link end: one corrupted symbol (default 2)\n"
            "  --transits N        directed transit tests on the idle box before the traffic (default 4)\n"
            "  --plain-writes      table and up port written with bit 3 and bits 15..5 clear (by default they\n"
            "                      are random: the box stores bit 4 and bits 2..0 only)\n"
            "  --no-ctr-preset     box counters start at 0 (by default, after every reset, every box counter is\n"
            "                      preset to 2^CTR_W - K, K = 1..8, in the model and through the RTL's backdoor)\n"
            "  --no-resets         no system resets after traffic (by default one in mid-flight a third into the\n"
            "                      random traffic, one after a drain two thirds in, each followed by the setup)\n"
            "  (the wave options are listed last; cycles are the bench's steps, 1 = the first edge after\n"
            "  reset; save file tb/sbox/sbox.gtkw: gtkwave FILE tb/sbox/sbox.gtkw)\n"
            "Parameters are fixed by the build (variant %s; the model-only build takes --PORTS N, --NODES N,\n"
            "--LINK_W N, --FIFO_BYTES N, --TURN N, --TIMEOUT N, --CTR_W N). Exit status 0 pass, 1 failed, 2 usage.\n",
            SB_PROG, "node p on port p", (unsigned)SB_LINK_DELAY, sbox_rtl_variant());
    bench_waves_usage(f, "  ");
}

static int opt_table(void *ctx, const char *v)
{
    bench_t *b = ctx;
    b->table_arg = v;
    snprintf(b->table_path, sizeof b->table_path, "%s", v);
    b->table_sw = 0;
    char *colon = strrchr(b->table_path, ':');
    if (colon && colon[1]) {
        char *end;
        unsigned long s = strtoul(colon + 1, &end, 10);
        if (!*end) {
            *colon = 0;
            b->table_sw = (unsigned)s;
        }
    }
    return -1;
}

static int num_opt(const char *name, const char *v, unsigned max, unsigned *out)
{
    return sbn_num_opt(SB_PROG, name, v, max, out);
}
static int opt_ld(void *ctx, const char *v)
{
    bench_t *b = ctx;
    b->ld_given = 1;
    return num_opt("--link-delay", v, MLC_MAX_LINK_DELAY, &b->link_delay);
}
static int opt_ctl(void *ctx, const char *v)
{
    bench_t *b = ctx;
    b->ctl_given = 1;
    return num_opt("--ctl-faults", v, 100000, &b->ctl_rate);
}
static int opt_corrupt(void *ctx, const char *v) { return num_opt("--corrupt", v, 1000, &((bench_t *)ctx)->corrupt_pm); }
static int opt_transits(void *ctx, const char *v) { return num_opt("--transits", v, 1000, &((bench_t *)ctx)->transits); }

static const char *check_params(const void *pp, char *buf, size_t n)
{
    return sbox_params_check(pp, buf, n) ? buf : NULL;
}

/* ------------------------------------------------------------------ main */

static void final_reads_plan(bench_t *b)
{
    b->nfinal = 0;
    for (unsigned i = 0; i < SBOX_NCTR; i++)
        b->final_addr[b->nfinal++] = SBOX_REG_CTR(i);
    for (unsigned p = 0; p < b->P; p++) {
        b->final_addr[b->nfinal++] = SBOX_REG_MLC(p, MLC_CTR_WR_OVER);
        b->final_addr[b->nfinal++] = SBOX_REG_MLC(p, MLC_CTR_RD_UNDER);
    }
    b->final_addr[b->nfinal++] = SBOX_REG_BAR(0);
    b->final_addr[b->nfinal++] = SBOX_REG_BAR(1);
}

static int all_delivered(const bench_t *b)
{
    for (unsigned s = 0; s < b->P; s++)
        for (unsigned c = 0; c < NCH; c++) {
            if (mlc_host_tx_pending(b->host[s], c) || b->nout[s].st_tx_space[c] != b->p.FIFO_BYTES)
                return 0;
            for (unsigned q = 0; q < b->P; q++)
                if (b->exp[s][c][q].n)
                    return 0;
        }
    return !b->bar[0].active && !b->bar[1].active;
}

int main(int argc, char **argv)
{
    static bench_t b;
    b.argc = argc;
    b.argv = argv;
    b.p = sbox_rtl_params();
    b.link_delay = SB_LINK_DELAY;
    b.corrupt_pm = 2;
    b.load_pm[0] = b.load_pm[1] = 20;
    b.mcast_pct = 15;
    b.transits = 4;
    if (bench_cli_init(&b.cli, &b.o, sbox_rtl_available(), argc))
        oom();
    const bench_opt_t own[] = {
        {"--table", BENCH_OPT_STR, NULL, opt_table, &b},         {"--link-delay", BENCH_OPT_STR, NULL, opt_ld, &b},
        {"--ctl-faults", BENCH_OPT_STR, NULL, opt_ctl, &b},      {"--corrupt", BENCH_OPT_STR, NULL, opt_corrupt, &b},
        {"--transits", BENCH_OPT_STR, NULL, opt_transits, &b},   
        {"--plain-writes", BENCH_OPT_FLAG, &b.plain, NULL, NULL},
        {"--no-ctr-preset", BENCH_OPT_FLAG, &b.no_preset, NULL, NULL},
        {"--no-resets", BENCH_OPT_FLAG, &b.no_resets, NULL, NULL},
        /* the model-only build's (sbox_rtl_none.c): the parameters */
        SBN_BOX_PARAMS(&b.p),
    };
    const size_t n_own = sbox_rtl_available() ? 8 : sizeof own / sizeof own[0]; /* 8: every build's options */
    const bench_cli_spec_t spec = {SB_PROG, sbox_rtl_available(), usage, own, n_own, check_params, &b.p};
    int rc = bench_cli_parse(&spec, argc, argv, &b.cli, &b.o);
    if (rc >= 0) {
        bench_cli_free(&b.cli);
        return rc;
    }
    b.P = b.p.PORTS;
    for (unsigned n = 0; n < NPMAX; n++)
        b.lo_last[n] = b.lo_cur[n] = -1;
    if (!b.ctl_given && b.p.TIMEOUT > 0)
        b.ctl_rate = 20;
    if (b.ctl_rate && b.p.TIMEOUT == 0) {
        fprintf(stderr, "%s: --ctl-faults needs TIMEOUT > 0 (a frame lost entirely stops the link)\n", SB_PROG);
        return 2;
    }
    if (b.p.MASTER_MASK != 0) {
        fprintf(stderr, "%s: the bench's nodes are the link masters: MASTER_MASK must be 0\n", SB_PROG);
        return 2;
    }
    if (!sbox_rtl_available()) {
        b.p.LINK_DELAY = b.link_delay; /* the slave MLCs' guard follows the link */
    } else if (b.link_delay < b.p.LINK_DELAY) { /* the RTL's guard would cut every reply */
        fprintf(stderr, "%s: --link-delay %u is below the RTL's LINK_DELAY %u (its MLCs' GUARD, docs/mlc.md)\n", SB_PROG,
                b.link_delay, b.p.LINK_DELAY);
        return 2;
    }
    if (b.p.TIMEOUT && b.p.TIMEOUT <= 2 * b.link_delay + b.p.TURN + 3) {
        fprintf(stderr, "%s: TIMEOUT %u must exceed 2*LINK_DELAY + TURN + 3 (docs/mlc.md)\n", SB_PROG, b.p.TIMEOUT);
        return 2;
    }
    /* the table */
    for (unsigned d = 0; d < NNODE; d++)
        b.tport[d] = d < b.p.NODES && d < b.P ? (int)d : -1;
    if (b.table_arg) {
        sbox_table_t t;
        char err[400];
        if (sbox_load_file(b.table_path, b.table_sw, b.P, b.p.NODES, &t, err, sizeof err)) {
            fprintf(stderr, "%s: %s\n", SB_PROG, err);
            return 2;
        }
        for (unsigned d = 0; d < NNODE; d++)
            b.tport[d] = d < t.nodes ? t.port[d] : -1;
    }
    /* the table at its top: node NODES - 1 always routed (every make set's table leaves it invalid), to a port
     * drawn at random (which may make that port a box port: two nodes behind it) */
    if (b.tport[b.p.NODES - 1] < 0)
        b.tport[b.p.NODES - 1] = (int)((b.o.seed * 7u + 3u) % b.P);
    rng_seed(&b.rng, b.o.seed * 0x9E3779B97F4A7C15ull + 11);
    rng_seed(&b.frng, b.o.seed * 0xC2B2AE3D27D4EB4Full + 5);
    for (unsigned d = 0; d < b.p.NODES; d++) {
        /* bit 4 valid, bits 2..0 the port; bit 3 and the upper bits random (not stored) */
        uint16_t w = (uint16_t)(rng_below(&b.rng, 65536) & ~0x17u);
        if (b.plain)
            w = 0;
        b.twdata[d] = b.tport[d] >= 0 ? (uint16_t)(w | 0x10u | (unsigned)b.tport[d])
                                      : (uint16_t)(w | rng_below(&b.rng, 8));
    }
    b.upw = (uint16_t)(rng_below(&b.rng, 65536) & ~0x10u);
    if (b.plain)
        b.upw = 0;
    b.upw_none = b.upw;
    /* MLC modes: all message-based (then every message fits a FIFO) or all pipelined; each MLC its
     * own transfer size */
    b.msgmode = rng_pct(&b.rng, 30);
    for (unsigned n = 0; n < b.P; n++) {
        unsigned r = rng_below(&b.rng, 8);
        b.ncfg_run[n] = (b.msgmode ? MLC_CFG_MSG : 0u) | MLC_CFG_SP(r < 5 ? 0 : r - 4);
        r = rng_below(&b.rng, 8);
        b.bcfg_run[n] = (b.msgmode ? MLC_CFG_MSG : 0u) | MLC_CFG_SP(r < 5 ? 0 : r - 4);
        b.ncfg[n] = b.bcfg[n] = b.msgmode ? MLC_CFG_MSG : 0u;
        if (sbn_node_new(&b.p, b.link_delay, b.msgmode, &b.node[n], &b.host[n], &b.link[n], &b.nout[n]))
            oom();
        for (unsigned c = 0; c < NCH; c++) {
            b.pcbad[n][c] = ring_make(sizeof(uint64_t));
            for (unsigned q = 0; q < NPMAX; q++)
                b.exp[n][c][q] = ring_make(sizeof(mlc_msg_t));
        }
    }
    /* the watched FIFO: a port some node is on, a channel */
    {
        unsigned cand[NPMAX], nc = 0;
        for (unsigned q = 0; q < b.P; q++)
            for (unsigned d = 0; d < b.p.NODES && d < NNODE; d++)
                if (b.tport[d] == (int)q) {
                    cand[nc++] = q;
                    break;
                }
        if (nc) {
            b.wq = cand[rng_below(&b.rng, nc)];
            b.wc = rng_below(&b.rng, NCH);
            b.wok = 1;
        }
    }
    if (b.o.mode != MODE_RTL && !(b.bm = sbox_new(&b.p)))
        oom();
    if (b.o.mode != MODE_MODEL)
        b.br = sbox_rtl_new(b.o.nplus, b.o.plus);
    final_reads_plan(&b);
    b.cb_link = b.cb_stall = -1;
    ctr_preset(&b);
    printf("%s: variant %s PORTS=%u NODES=%u LINK_W=%u FIFO_BYTES=%u TURN=%u TIMEOUT=%u CTR_W=%u LINK_DELAY=%u "
           "table=%s mlc=%s ctl-faults=%u corrupt=%u mode=%s cycles=%" PRIu64 " seed=%" PRIu64 "\n",
           SB_PROG, sbox_rtl_variant(), b.P, b.p.NODES, b.p.LINK_W, b.p.FIFO_BYTES, b.p.TURN, b.p.TIMEOUT, b.p.CTR_W,
           b.link_delay, b.table_arg ? b.table_arg : "node p on port p", b.msgmode ? "message-based" : "pipelined",
           b.ctl_rate, b.corrupt_pm, bench_mode_name(b.o.mode), b.o.cycles, b.o.seed);
    fflush(stdout);
    /* setup and the directed transit tests (the links settle first), then random traffic */
    uint64_t settle = 300 + 8u * b.link_delay + 4u * frame_steps(&b, 0);
    uint64_t mid_drain = 0;
    for (uint64_t k = 0; k < b.o.cycles; k++) {
        if (b.phase == 0 && b.nresets) {
            if (b.cycle >= b.setup_base + settle) { /* after a reset and the setup: traffic again */
                b.phase = 1;
                b.phase1_start = b.cycle + 1;
            }
        } else if (b.phase == 0 && b.cycle >= settle) {
            if (b.tr_state == TR_IDLE && b.tr_done < b.transits && b.cycle + 3000 < b.o.cycles)
                transit_start(&b);
            else if (b.tr_state == TR_IDLE && b.fair_state == 0 && fair_possible(&b) &&
                     b.cycle + FAIR_STEPS + 3000 < b.o.cycles) {
                b.fair_state = 1;
                b.fair_start = b.cycle;
            } else if (b.fair_state == 1 && b.cycle >= b.fair_start + FAIR_STEPS) {
                fair_check(&b);
                b.fair_state = 2;
            } else if (b.tr_state == TR_IDLE && b.fair_state != 1) {
                b.phase = 1;
                b.phase1_start = b.cycle + 1;
                /* the resets after traffic: in mid-flight a third into the random traffic, and after a drain
                 * begun two thirds in (if it ends before the run does) */
                uint64_t rest = b.o.cycles > b.cycle ? b.o.cycles - b.cycle : 0;
                b.reset_at[0] = b.no_resets || rest < 3u * COMBO_PAIRS * COMBO_STEPS ? UINT64_MAX : b.cycle + rest / 3u;
                b.reset_at[1] = b.reset_at[0] == UINT64_MAX ? UINT64_MAX : b.cycle + 2u * rest / 3u;
            }
        }
        if (b.phase == 1 && b.nresets == 0 && b.cycle >= b.reset_at[0]) {
            system_reset(&b); /* in mid-flight: everything in flight is lost */
        } else if (b.phase == 1 && b.nresets == 1 && b.cycle >= b.reset_at[1]) {
            b.phase = 2; /* drain, then the second reset */
            mid_drain = b.cycle;
        } else if (b.phase == 2 && b.nresets == 1 && all_delivered(&b)) {
            system_reset(&b); /* after the drain: nothing in flight but the drops the box may still be reading */
            b.mid_drain = b.cycle - mid_drain;
        }
        bench_step(&b);
        sbn_progress(&b.o, b.cycle, b.sent, b.recvd, b.barriers);
    }
    if (b.tr_state != TR_IDLE && b.tr_state != TR_WAIT_DELIVER)
        check_fail(&b, "transit test unfinished at the end of the run (state %d)", b.tr_state);
    /* drain: no new messages or barriers (those begun finish), no faults, hosts read everything */
    b.phase = 2;
    uint64_t limit = 400000 + 200u * (uint64_t)b.p.FIFO_BYTES, drain = 0;
    for (; drain < limit && !all_delivered(&b); drain++)
        bench_step(&b);
    if (!all_delivered(&b)) {
        for (unsigned s = 0; s < b.P; s++)
            for (unsigned c = 0; c < NCH; c++)
                for (unsigned q = 0; q < b.P; q++)
                    if (b.exp[s][c][q].n)
                        sb_fail(&b, q, c, "%zu messages sent by node %u never arrived (drain of %" PRIu64 " steps)",
                                b.exp[s][c][q].n, s, drain);
        for (unsigned c = 0; c < NCH; c++)
            if (b.bar[c].active)
                for (unsigned p = 0; p < b.P; p++)
                    if ((b.bar[c].ports >> p) & 1u && !b.bar[c].released[p])
                        sb_fail(&b, p, c, "barrier (mask 0x%04x, since step %" PRIu64 ") never released here",
                                b.bar[c].mask, b.bar[c].start);
        check_fail(&b, "drain of %" PRIu64 " steps: the nodes' send FIFOs never emptied", drain);
    }
    /* dropped messages may still be read by the box: wait until every box FIFO is read */
    for (uint64_t k = 0; k < 1000u + 8u * b.p.FIFO_BYTES; k++)
        bench_step(&b);
    /* the final register reads */
    b.phase = 3;
    for (unsigned k = 0; k < b.nfinal + 3; k++)
        bench_step(&b);
    if (b.final_got != b.nfinal)
        check_fail(&b, "final register reads: %u of %u answered", b.final_got, b.nfinal);
    static const char *const cn[SBOX_NCTR] = {"msgs",    "mcast",    "words",   "drop_route",
                                              "bar_req", "bar_done", "err_bar", "err_msg"};
    for (unsigned i = 0; i < SBOX_NCTR; i++) {
        uint64_t e = b.e_ctr[i] & ctr_mask(&b);
        if (b.final_val[i] != e)
            check_fail(&b, "box counter %s (0x%03x) is %u, the bench counted %" PRIu64 " (mod 2^%u)", cn[i],
                       SBOX_REG_CTR(i), b.final_val[i], e, b.p.CTR_W);
    }
    for (unsigned p = 0; p < b.P; p++)
        if (b.final_val[SBOX_NCTR + 2 * p] || b.final_val[SBOX_NCTR + 2 * p + 1])
            check_fail(&b, "box port %u's MLC: wr_over %u, rd_under %u (the box must never write beyond the space or "
                           "read beyond the status)",
                       p, b.final_val[SBOX_NCTR + 2 * p], b.final_val[SBOX_NCTR + 2 * p + 1]);
    for (unsigned c = 0; c < NCH; c++)
        if (b.final_val[SBOX_NCTR + 2 * b.P + c] & SBOX_BAR_BUSY)
            check_fail(&b, "barrier of channel %u still busy at the end (0x%x)", c, b.final_val[SBOX_NCTR + 2 * b.P + c]);
    if (b.transits && b.transit_ok < b.transits && b.o.cycles >= 20000)
        check_fail(&b, "only %" PRIu64 " of %u transit tests ran", b.transit_ok, b.transits);
    /* rule 3's reservation must hold a source back at least once, or a box without it passes (mutant RSV_OFF);
     * with two ports each port has one sender on a channel, so nothing is ever held back */
    const uint64_t rsv_holds = b.bm ? sbox_rsv_holds(b.bm) : 0;
    if (b.bm && b.o.cycles >= 20000 && b.P >= 3 && !rsv_holds)
        check_fail(&b, "CHECK coverage (reservation): no reservation held a waiting source back (docs/sbox.md rule 3)");
    printf("PASS %s variant %s: %" PRIu64 " cycles (+%" PRIu64 " drain), %" PRIu64 " messages sent (%" PRIu64
           " multicast, %" PRIu64 " unrouted), %" PRIu64 " deliveries (%" PRIu64 " bytes), %" PRIu64 " barriers (%" PRIu64
           " releases, %" PRIu64 " bad requests, longest %" PRIu64 " steps), %" PRIu64 " PC < 2, %" PRIu64 " transits, %" PRIu64 " register reads, %" PRIu64
           " nibbles corrupted, %" PRIu64 " CTL faults (%" PRIu64 " directed early frames), %" PRIu64 " fault pairs, %" PRIu64
           " limit windows, %u resets after traffic, %" PRIu64 " reservation holds, seed=%" PRIu64 "\n",
           SB_PROG, sbox_rtl_variant(), b.o.cycles, drain, b.sent, b.mcast_sent, b.dropped_sent, b.recvd, b.bytes,
           b.barriers, b.releases, b.bad_bar, b.bar_wait_max, b.bad_pc, b.transit_ok, b.regreads, b.corrupted, b.ctl_faults,
           b.early_pulses, b.combos, b.limits, b.nresets, rsv_holds, b.o.seed);
    if (!b.o.quiet) {
        printf("  watched FIFO: port %u channel %u, %" PRIu64 " words, %" PRIu64 " message boundaries (%" PRIu64
               " with both steps known)\n",
               b.wq, b.wc, b.wn, b.wbound, b.wbound_checked);
        printf("  box counters:");
        for (unsigned i = 0; i < SBOX_NCTR; i++)
            printf(" %s=%u", cn[i], b.final_val[i]);
        printf("\n");
        if (b.bm) {
            uint32_t ev[MLC_NCTR] = {0};
            for (unsigned p = 0; p < b.P; p++)
                for (unsigned k = 0; k < MLC_NCTR; k++)
                    ev[k] += mlc_counter(sbox_mlc(b.bm, p), k) + mlc_counter(b.node[p], k);
            printf("  link events (box and nodes, model):");
            for (unsigned k = MLC_CTR_ERR_CHECK; k < MLC_NCTR; k++)
                printf(" %s=%u", mlc_counter_name(k), ev[k]);
            printf("\n");
        }
    }
    waves_done(&b, "");
    sbox_rtl_free(b.br);
    sbox_free(b.bm);
    free(b.wstep);
    for (unsigned n = 0; n < b.P; n++) {
        mlc_free(b.node[n]);
        mlc_host_free(b.host[n]);
        mlc_link_free(b.link[n]);
        for (unsigned c = 0; c < NCH; c++) {
            ring_free(&b.pcbad[n][c]);
        }
        for (unsigned c = 0; c < NCH; c++)
            for (unsigned q = 0; q < NPMAX; q++) {
                mlc_msg_t m;
                while (ring_pop(&b.exp[n][c][q], &m))
                    free(m.data);
                ring_free(&b.exp[n][c][q]);
            }
    }
    bench_cli_free(&b.cli);
    return 0;
}

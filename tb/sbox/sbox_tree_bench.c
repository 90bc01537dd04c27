/* sanfab — lockstep bench of a two-box tree of Maestro switch boxes (docs/sbox.md, "Barriers" and
 * "Verification"): box A (the root) and box B below it, as Verilated RTL (tb/sbox/sbox_tree.v, two
 * rtl/sbox/sbox.v, through tb/sbox/sbox_tree_rtl.cpp) and as two C models (cmodel/sbox.c), stepped with
 * the same inputs every step. A's port AL is joined to B's up port UP by a link model (cmodel
 * mlc_link_*, --tree-delay cable registers; B's MLC there is the link master, MASTER_MASK bit UP),
 * and every other port of both boxes that has a node carries a node MLC (C model, the link master,
 * with the host driver sw/sim/mlc_host.c) over a link model of --link-delay registers. One set of nodes
 * and links, fed by the RTL boxes' outputs (the models' in --mode model); every output of both boxes
 * (tx_en, tx_d of every port, reg_rvalid, reg_rdata) is compared with its model every step, and the
 * first difference ends the run with a LOCKSTEP MISMATCH line naming the box, port and signal.
 *
 * The tables come from a `sanfab-maestro 1` file (--table FILE: switch 0 is A, switch 1 is B; from
 * `sanfab-route updown --maestro` of a two-switch topology, tb/sbox/sbox_tree*.topo), or, without
 * --table, nodes 0.. on A's ports but AL = PORTS-1, then on B's ports but UP. Where each node hangs
 * and which port of A leads to B is read from the tables: a node is on the port of the box whose
 * entry does not lead to the other box, and the other box's entry must lead to the link.
 *
 * Checks that never consult the models (they run in every mode; --mode rtl runs them on the RTL alone):
 *   - scoreboard: every data message arrives whole, in order per (source node, channel, destination
 *     node, route: direct, or up alone and back down into its sender's box), exactly once at every
 *     node its port sets give (docs/sbox.md, Messages: up alone, never back to a node, turn),
 *     with MASK as sent or, if it went up alone, its sender's bit cleared, never at its sender;
 *     barrier requests are never forwarded;
 *     everything is delivered by a bounded drain (nothing hangs);
 *   - barriers (rule 5 through the tree): member nodes on both boxes, on one, requests queued late;
 *     every member node gets exactly one release (Type0, KIND 3, DST 255, MASK the members, SRC 255,
 *     data 0) and none before the last member's request was written by its host; a barrier whose
 *     members span both boxes completes at A (B sends one request up, A releases, B forwards the
 *     release down); requests from non-members are rejected (err_bar) in the box they enter;
 *   - both boxes' counters at the end (register port) against the bench's own counts per box: msgs,
 *     mcast, words, drop_route, bar_req, bar_done, err_bar, err_msg (mod 2^CTR_W); every box MLC's
 *     wr_over and rd_under 0; both barriers idle;
 *   - register port of both boxes: a read in step r is answered after step r+1 and only then; table
 *     entries and the up port read back as written; absent registers 0x80000000.
 * Faults: corrupted symbols and CTL faults on every link, the one between the boxes too (--corrupt,
 * --ctl-faults), hosts that stall reading or writing so FIFOs fill back through the tree. Both boxes'
 * counters are preset near their wrap after every reset (model hook and RTL backdoor), and a long enough run
 * resets the whole tree twice after traffic (in mid-flight and after a drain; docs/verification.md).
 *
 * Exit status: 0 pass, 1 a mismatch or a check failed, 2 usage. --help lists the options.
 */
#include "sbox_tree_bench.h"

/* ------------------------------------------------------------------ command line */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: %s [--cycles N] [--seed N] [--mode lockstep|rtl|model] [--quiet]\n"
            "       [--vcd FILE] [--vcd-start N] [--vcd-cycles N] [--vcd-on-fail FILE]\n"
            "       [--table FILE] [--link-delay N] [--tree-delay N] [--span W] [--ctl-faults R] [--corrupt R] [--help] [+verilator+...]\n"
            "A two-box tree of Maestro switch boxes (docs/sbox.md) as RTL (tb/sbox/sbox_tree.v) and as C models in\n"
            "lockstep: A the root, B below it with its up port UP joined to A's port AL, a node MLC on every other\n"
            "port of both; every output of both boxes compared every step; scoreboard (unicast and multicast within\n"
            "and across the boxes), barriers with members on both boxes (complete at A, release down through B), both\n"
            "boxes' counters and register ports checked without the models (--mode rtl: the RTL alone).\n"
            "  --cycles N          steps of setup and random traffic (default 100000), then a bounded drain\n"
            "  --table FILE        a sanfab-maestro file (sanfab-route --maestro) of two switches: 0 is A, 1 is B;\n"
            "                      default: nodes 0.. on A's ports but AL = PORTS-1, then on B's but UP\n"
            "  --link-delay N      cable registers per direction of every node link (default: LINK_DELAY)\n"
            "  --tree-delay N      cable registers per direction of the link between A and B (default: --link-delay)\n"
            "  --ctl-faults R      R per million steps and link end: dropped CTL cycles, spurious pulses, and\n"
            "                      about 5R per million frames erased (default 20 with TIMEOUT > 0, else 0)\n"
            "  --corrupt R         R per thousand steps and link end: one corrupted symbol (default 2)\n"
            "  --span both|A|B|none  whose nodes send data multicasts to nodes on both boxes (default both; B's\n"
            "                      go up alone and turn at A: docs/sbox.md, Messages and destinations)\n"
            "  --no-ctr-preset     box counters start at 0 (by default, after every reset, every counter of both\n"
            "                      boxes is preset to 2^CTR_W - K, K = 1..8, in the models and through the RTL's backdoor)\n"
            "  --no-resets         no system resets after traffic (by default one in mid-flight a third into the\n"
            "                      random traffic, one after a drain two thirds in, each followed by the setup)\n"
            "  (the wave options are listed last; cycles are the bench's steps, 1 = the first edge after\n"
            "  reset; save file tb/sbox/sbox_tree.gtkw: gtkwave FILE tb/sbox/sbox_tree.gtkw)\n"
            "Parameters are fixed by the build (variant %s, B's up port %u; the model-only build takes --PORTS N,\n"
            "--NODES N, --LINK_W N, --FIFO_BYTES N, --TURN N, --TIMEOUT N, --CTR_W N, --UP N). Exit status 0 pass,\n"
            "1 failed, 2 usage.\n",
            ST_PROG, sbox_tree_rtl_variant(), sbox_tree_rtl_up());
    bench_waves_usage(f, "  ");
}

static int num_opt(const char *name, const char *v, unsigned max, unsigned *out)
{
    return sbn_num_opt(ST_PROG, name, v, max, out);
}
static int opt_table(void *ctx, const char *v)
{
    ((bench_t *)ctx)->table_arg = v;
    return -1;
}
static int opt_ld(void *ctx, const char *v)
{
    bench_t *b = ctx;
    b->ld_given = 1;
    return num_opt("--link-delay", v, MLC_MAX_LINK_DELAY, &b->link_delay);
}
static int opt_td(void *ctx, const char *v)
{
    bench_t *b = ctx;
    b->td_given = 1;
    return num_opt("--tree-delay", v, MLC_MAX_LINK_DELAY, &b->tree_delay);
}
static int opt_ctl(void *ctx, const char *v)
{
    bench_t *b = ctx;
    b->ctl_given = 1;
    return num_opt("--ctl-faults", v, 100000, &b->ctl_rate);
}
static int opt_span(void *ctx, const char *v)
{
    bench_t *b = ctx;
    b->span = !strcmp(v, "both") ? 3u : !strcmp(v, "A") ? 1u : !strcmp(v, "B") ? 2u : !strcmp(v, "none") ? 0u : 4u;
    if (b->span == 4u) {
        fprintf(stderr, "%s: --span wants both, A, B or none, got '%s'\n", ST_PROG, v);
        return 2;
    }
    return -1;
}
static int opt_corrupt(void *ctx, const char *v) { return num_opt("--corrupt", v, 1000, &((bench_t *)ctx)->corrupt_pm); }
static int opt_up(void *ctx, const char *v) { return num_opt("--UP", v, NPMAX - 1, &((bench_t *)ctx)->up_opt); }

static const char *check_params(const void *pp, char *buf, size_t n)
{
    return sbox_params_check(pp, buf, n) ? buf : NULL;
}

/* ------------------------------------------------------------------ main */

static int all_delivered(const bench_t *b)
{
    for (unsigned s = 0; s < NNODE; s++) {
        if (!((b->nodes >> s) & 1u))
            continue;
        for (unsigned c = 0; c < NCH; c++) {
            if (mlc_host_tx_pending(b->host[s], c) || b->nout[s].st_tx_space[c] != b->p.FIFO_BYTES)
                return 0;
            for (unsigned d = 0; d < NNODE; d++)
                if (b->exp[s][c][d][0].n || b->exp[s][c][d][1].n)
                    return 0;
        }
    }
    return !b->bar[0].active && !b->bar[1].active;
}

/* what is left when the drain ends without delivering everything: per node its host's queue, its
 * MLC's FIFO status and link counters, and (with a model) the box MLC's on the other end */
static void stuck_report(const bench_t *b)
{
    static const unsigned ks[] = {MLC_CTR_TX_FRAMES, MLC_CTR_RX_FRAMES, MLC_CTR_TX_PKTS, MLC_CTR_RX_PKTS,
                                  MLC_CTR_TIMEOUT, MLC_CTR_RETX};
    for (unsigned l = 0; l < NLINK; l++) {
        unsigned j, q;
        if (l == TLINK) {
            j = 1;
            q = b->up;
            printf("  link A port %u <-> B port %u:", b->al, b->up);
        } else if ((b->nodes >> l) & 1u) {
            j = (unsigned)b->node_box[l];
            q = (unsigned)b->node_port[l];
            printf("  node %u (box %c port %u): queued %" PRIu64 "/%" PRIu64 " space %u/%u avail %u/%u;", l, box_name[j],
                   q, mlc_host_tx_pending(b->host[l], 0), mlc_host_tx_pending(b->host[l], 1), b->nout[l].st_tx_space[0],
                   b->nout[l].st_tx_space[1], b->nout[l].st_rx_avail[0], b->nout[l].st_rx_avail[1]);
            for (unsigned k = 0; k < sizeof ks / sizeof ks[0]; k++)
                printf(" %s=%u", mlc_counter_name(ks[k]), mlc_counter(b->node[l], ks[k]));
        } else {
            continue;
        }
        for (unsigned e = 0; e < (l == TLINK ? 2u : 1u); e++) {
            unsigned jj = l == TLINK ? e : j, qq = l == TLINK ? (e ? b->up : b->al) : q;
            if (!b->bm[jj])
                continue;
            printf(" | box %c port %u:", box_name[jj], qq);
            for (unsigned k = 0; k < sizeof ks / sizeof ks[0]; k++)
                printf(" %s=%u", mlc_counter_name(ks[k]), mlc_counter(sbox_mlc(b->bm[jj], qq), ks[k]));
        }
        printf("\n");
    }
    for (unsigned c = 0; c < NCH; c++) {
        const bar_t *x = &b->bar[c];
        if (!x->active)
            continue;
        printf("  barrier on channel %u since step %" PRIu64 ": mask 0x%04x, members", c, x->start, x->mask);
        for (unsigned n = 0; n < NNODE; n++)
            if ((x->members >> n) & 1u)
                printf(" %u(%s)", n, x->released[n] ? "released" : x->written_at[n] ? "written" : x->queued[n] ? "queued" : "not yet");
        printf("\n");
    }
}

static const char *const cn[SBOX_NCTR] = {"msgs",    "mcast",    "words",   "drop_route",
                                          "bar_req", "bar_done", "err_bar", "err_msg"};

int main(int argc, char **argv)
{
    static bench_t b;
    b.argc = argc;
    b.argv = argv;
    b.p = sbox_tree_rtl_params();
    b.corrupt_pm = 2;
    b.load_pm[0] = b.load_pm[1] = 20;
    b.mcast_pct = 15;
    b.span_pct = 50;
    b.span = 3u;
    if (bench_cli_init(&b.cli, &b.o, sbox_tree_rtl_available(), argc))
        oom();
    const bench_opt_t own[] = {
        {"--table", BENCH_OPT_STR, NULL, opt_table, &b},       {"--link-delay", BENCH_OPT_STR, NULL, opt_ld, &b},
        {"--tree-delay", BENCH_OPT_STR, NULL, opt_td, &b},     {"--ctl-faults", BENCH_OPT_STR, NULL, opt_ctl, &b},
        {"--corrupt", BENCH_OPT_STR, NULL, opt_corrupt, &b},     {"--span", BENCH_OPT_STR, NULL, opt_span, &b},
        {"--no-ctr-preset", BENCH_OPT_FLAG, &b.no_preset, NULL, NULL},
        {"--no-resets", BENCH_OPT_FLAG, &b.no_resets, NULL, NULL},
        /* the model-only build's (sbox_tree_rtl_none.c): B's up port and the parameters */
        {"--UP", BENCH_OPT_STR, NULL, opt_up, &b},
        SBN_BOX_PARAMS(&b.p),
    };
    const size_t n_own = sbox_tree_rtl_available() ? 8 : sizeof own / sizeof own[0]; /* 8: every build's options */
    const bench_cli_spec_t spec = {ST_PROG, sbox_tree_rtl_available(), usage, own, n_own, check_params, &b.p};
    int rc = bench_cli_parse(&spec, argc, argv, &b.cli, &b.o);
    if (rc >= 0) {
        bench_cli_free(&b.cli);
        return rc;
    }
    b.P = b.p.PORTS;
    b.up = sbox_tree_rtl_available() ? sbox_tree_rtl_up() : b.up_opt;
    if (b.up >= b.P) {
        fprintf(stderr, "%s: B's up port %u is not below PORTS %u\n", ST_PROG, b.up, b.P);
        return 2;
    }
    if (!b.ld_given)
        b.link_delay = b.p.LINK_DELAY;
    if (!b.td_given)
        b.tree_delay = b.link_delay;
    if (!sbox_tree_rtl_available()) {
        b.p.LINK_DELAY = b.link_delay < b.tree_delay ? b.link_delay : b.tree_delay; /* the slave MLCs' guard follows the links */
    } else if (b.link_delay < b.p.LINK_DELAY || b.tree_delay < b.p.LINK_DELAY) { /* the RTL's guard would cut every reply */
        fprintf(stderr, "%s: --link-delay %u / --tree-delay %u below the RTL's LINK_DELAY %u (its MLCs' GUARD, docs/mlc.md)\n",
                ST_PROG, b.link_delay, b.tree_delay, b.p.LINK_DELAY);
        return 2;
    }
    b.pb = b.p;
    b.pb.MASTER_MASK = 1u << b.up;
    if (!b.ctl_given && b.p.TIMEOUT > 0)
        b.ctl_rate = 20;
    if (b.ctl_rate && b.p.TIMEOUT == 0) {
        fprintf(stderr, "%s: --ctl-faults needs TIMEOUT > 0 (a frame lost entirely stops the link)\n", ST_PROG);
        return 2;
    }
    unsigned dmax = b.link_delay > b.tree_delay ? b.link_delay : b.tree_delay;
    if (b.p.TIMEOUT && b.p.TIMEOUT <= 2 * dmax + b.p.TURN + 3) {
        fprintf(stderr, "%s: TIMEOUT %u must exceed 2*delay + TURN + 3 = %u (docs/mlc.md)\n", ST_PROG, b.p.TIMEOUT,
                2 * dmax + b.p.TURN + 3);
        return 2;
    }
    /* the tables */
    for (unsigned j = 0; j < NB; j++)
        for (unsigned d = 0; d < NNODE; d++)
            b.tport[j][d] = -1;
    if (b.table_arg) {
        for (unsigned j = 0; j < NB; j++) {
            sbox_table_t t;
            char err[400];
            if (sbox_load_file(b.table_arg, j, b.P, b.p.NODES, &t, err, sizeof err)) {
                fprintf(stderr, "%s: box %c (switch %u): %s\n", ST_PROG, box_name[j], j, err);
                return 2;
            }
            if (t.switches != NB) {
                fprintf(stderr, "%s: %s: %u switches, the tree bench needs exactly 2 (A = switch 0, B = switch 1)\n",
                        ST_PROG, b.table_arg, t.switches);
                return 2;
            }
            for (unsigned d = 0; d < NNODE; d++)
                b.tport[j][d] = d < t.nodes ? t.port[d] : -1;
        }
    } else { /* nodes 0.. on A's ports 0..PORTS-2, then on B's ports but UP */
        unsigned d = 0, al = b.P - 1;
        for (unsigned q = 0; q < al && d < b.p.NODES; q++, d++) {
            b.tport[0][d] = (int)q;
            b.tport[1][d] = (int)b.up;
        }
        for (unsigned q = 0; q < b.P && d < b.p.NODES; q++)
            if (q != b.up) {
                b.tport[0][d] = (int)al;
                b.tport[1][d] = (int)q;
                d++;
            }
    }
    {
        char err[300];
        if (place_nodes(&b, err, sizeof err)) {
            fprintf(stderr, "%s: %s: %s\n", ST_PROG, b.table_arg ? b.table_arg : "default tables", err);
            return 2;
        }
    }
    rng_seed(&b.rng, b.o.seed * 0x9E3779B97F4A7C15ull + 17);
    rng_seed(&b.frng, b.o.seed * 0xC2B2AE3D27D4EB4Full + 3);
    for (unsigned j = 0; j < NB; j++) {
        for (unsigned d = 0; d < b.p.NODES; d++) {
            /* bit 4 valid, bits 2..0 the port; bit 3 and the upper bits random (not stored) */
            uint16_t w = (uint16_t)(rng_below(&b.rng, 65536) & ~0x17u);
            b.twdata[j][d] = b.tport[j][d] >= 0 ? (uint16_t)(w | 0x10u | (unsigned)b.tport[j][d])
                                                : (uint16_t)(w | rng_below(&b.rng, 8));
        }
        b.upw[j] = (uint16_t)(rng_below(&b.rng, 65536) & ~0x10u); /* A: none */
    }
    b.upw[1] = (uint16_t)((b.upw[1] & ~0x17u) | 0x10u | b.up);
    /* MLC modes: all message-based (then every message fits a FIFO) or all pipelined; each MLC its own
     * transfer size; the two ends of the link between the boxes are box MLCs */
    b.msgmode = rng_pct(&b.rng, 30);
    for (unsigned j = 0; j < NB; j++)
        for (unsigned q = 0; q < b.P; q++) {
            unsigned r = rng_below(&b.rng, 8);
            b.bcfg[j][q] = (b.msgmode ? MLC_CFG_MSG : 0u) | MLC_CFG_SP(r < 5 ? 0 : r - 4);
        }
    for (unsigned n = 0; n < NNODE; n++) {
        for (unsigned c = 0; c < NCH; c++) {
            b.pcbad[n][c] = ring_make(sizeof(uint64_t));
            for (unsigned d = 0; d < NNODE; d++)
                for (unsigned k = 0; k < 2; k++)
                    b.exp[n][c][d][k] = ring_make(sizeof(mlc_msg_t));
        }
        if (!((b.nodes >> n) & 1u))
            continue;
        unsigned r = rng_below(&b.rng, 8);
        b.ncfg[n] = (b.msgmode ? MLC_CFG_MSG : 0u) | MLC_CFG_SP(r < 5 ? 0 : r - 4);
        if (sbn_node_new(&b.p, b.link_delay, b.msgmode, &b.node[n], &b.host[n], &b.link[n], &b.nout[n]))
            oom();
    }
    if (!(b.link[TLINK] = mlc_link_new(b.tree_delay)))
        oom();
    if (b.o.mode != MODE_RTL && (!(b.bm[0] = sbox_new(&b.p)) || !(b.bm[1] = sbox_new(&b.pb))))
        oom();
    if (b.o.mode != MODE_MODEL)
        b.br = sbox_tree_rtl_new(b.o.nplus, b.o.plus);
    ctr_preset(&b);
    /* the final reads of both boxes: counters, their MLCs' wr_over and rd_under, the barriers */
    for (unsigned i = 0; i < SBOX_NCTR; i++)
        b.final_addr[b.nfinal++] = SBOX_REG_CTR(i);
    for (unsigned p = 0; p < b.P; p++) {
        b.final_addr[b.nfinal++] = SBOX_REG_MLC(p, MLC_CTR_WR_OVER);
        b.final_addr[b.nfinal++] = SBOX_REG_MLC(p, MLC_CTR_RD_UNDER);
    }
    b.final_addr[b.nfinal++] = SBOX_REG_BAR(0);
    b.final_addr[b.nfinal++] = SBOX_REG_BAR(1);
    printf("%s: variant %s PORTS=%u NODES=%u LINK_W=%u FIFO_BYTES=%u TURN=%u TIMEOUT=%u CTR_W=%u LINK_DELAY=%u "
           "link-delay=%u tree-delay=%u A port %u <-> B up port %u, nodes A:",
           ST_PROG, sbox_tree_rtl_variant(), b.P, b.p.NODES, b.p.LINK_W, b.p.FIFO_BYTES, b.p.TURN, b.p.TIMEOUT, b.p.CTR_W,
           b.p.LINK_DELAY, b.link_delay, b.tree_delay, b.al, b.up);
    for (unsigned j = 0; j < NB; j++) {
        if (j)
            printf(" B:");
        for (unsigned q = 0; q < b.P; q++)
            if (b.port_node[j][q] >= 0)
                printf(" %d@%u", b.port_node[j][q], q);
    }
    printf(" span=%s table=%s mlc=%s ctl-faults=%u corrupt=%u mode=%s cycles=%" PRIu64 " seed=%" PRIu64 "\n",
           b.span == 3 ? "both" : b.span == 1 ? "A" : b.span == 2 ? "B" : "none", b.table_arg ? b.table_arg : "default", b.msgmode ? "message-based" : "pipelined", b.ctl_rate, b.corrupt_pm,
           bench_mode_name(b.o.mode), b.o.cycles, b.o.seed);
    fflush(stdout);
    /* setup (register writes, the links settle), then random traffic */
    uint64_t settle = 200 + 8u * dmax + (uint64_t)b.p.NODES + b.P;
    /* the resets after traffic: in mid-flight a third into the random traffic, and after a drain begun two
     * thirds in (if it ends before the run does); none in a run of less than 18,900 steps of traffic */
    uint64_t rest = b.o.cycles > settle ? b.o.cycles - settle : 0;
    b.reset_at[0] = b.no_resets || rest < 18900u ? UINT64_MAX : settle + rest / 3u;
    b.reset_at[1] = b.reset_at[0] == UINT64_MAX ? UINT64_MAX : settle + 2u * rest / 3u;
    for (uint64_t k = 0; k < b.o.cycles; k++) {
        if (b.phase == 0 && b.cycle >= b.setup_base + settle)
            b.phase = 1;
        if (b.phase == 1 && b.nresets == 0 && b.cycle >= b.reset_at[0])
            system_reset(&b); /* in mid-flight: everything in flight is lost */
        else if (b.phase == 1 && b.nresets == 1 && b.cycle >= b.reset_at[1])
            b.phase = 2; /* drain, then the second reset */
        else if (b.phase == 2 && b.nresets == 1 && all_delivered(&b))
            system_reset(&b);
        bench_step(&b);
        sbn_progress(&b.o, b.cycle, b.sent, b.recvd, b.barriers);
    }
    /* drain: no new messages or barriers (those begun finish), no faults, hosts read everything */
    b.phase = 2;
    uint64_t limit = 400000 + 200u * (uint64_t)b.p.FIFO_BYTES, drain = 0;
    for (; drain < limit && !all_delivered(&b); drain++)
        bench_step(&b);
    if (!all_delivered(&b)) {
        stuck_report(&b);
        for (unsigned s = 0; s < NNODE; s++)
            for (unsigned c = 0; c < NCH; c++)
                for (unsigned d = 0; d < NNODE; d++)
                    if (b.exp[s][c][d][0].n + b.exp[s][c][d][1].n)
                        sb_fail(&b, d, c, "%zu messages sent by node %u never arrived (drain of %" PRIu64 " steps)",
                                b.exp[s][c][d][0].n + b.exp[s][c][d][1].n, s, drain);
        for (unsigned c = 0; c < NCH; c++)
            if (b.bar[c].active)
                for (unsigned n = 0; n < NNODE; n++)
                    if ((b.bar[c].members >> n) & 1u && !b.bar[c].released[n])
                        sb_fail(&b, n, c, "barrier (mask 0x%04x, since step %" PRIu64 ") never released here",
                                b.bar[c].mask, b.bar[c].start);
        check_fail(&b, "drain of %" PRIu64 " steps: the nodes' send FIFOs never emptied", drain);
    }
    /* dropped messages may still be read by the boxes: wait until every box FIFO is read */
    for (uint64_t k = 0; k < 1000u + 8u * b.p.FIFO_BYTES; k++)
        bench_step(&b);
    b.phase = 3;
    for (unsigned k = 0; k < b.nfinal + 3; k++)
        bench_step(&b);
    for (unsigned j = 0; j < NB; j++) {
        if (b.final_got[j] != b.nfinal)
            check_fail(&b, "box %c final register reads: %u of %u answered", box_name[j], b.final_got[j], b.nfinal);
        for (unsigned i = 0; i < SBOX_NCTR; i++) {
            uint64_t e = b.e_ctr[j][i] & ctr_mask(&b);
            if (b.final_val[j][i] != e)
                check_fail(&b, "box %c counter %s (0x%03x) is %u, the bench counted %" PRIu64 " (mod 2^%u)", box_name[j],
                           cn[i], SBOX_REG_CTR(i), b.final_val[j][i], e, b.p.CTR_W);
        }
        for (unsigned p = 0; p < b.P; p++)
            if (b.final_val[j][SBOX_NCTR + 2 * p] || b.final_val[j][SBOX_NCTR + 2 * p + 1])
                check_fail(&b, "box %c port %u's MLC: wr_over %u, rd_under %u (the box must never write beyond the space "
                               "or read beyond the status)",
                           box_name[j], p, b.final_val[j][SBOX_NCTR + 2 * p], b.final_val[j][SBOX_NCTR + 2 * p + 1]);
        for (unsigned c = 0; c < NCH; c++) {
            uint32_t v = b.final_val[j][SBOX_NCTR + 2 * b.P + c];
            if (v & (SBOX_BAR_BUSY | SBOX_BAR_UP_SENT))
                check_fail(&b, "box %c barrier of channel %u still busy at the end (0x%x)", box_name[j], c, v);
        }
    }
    printf("PASS %s variant %s: %" PRIu64 " cycles (+%" PRIu64 " drain), %" PRIu64 " messages sent (%" PRIu64
           " across the boxes, %" PRIu64 " multicast, %" PRIu64 " unrouted), %" PRIu64 " deliveries (%" PRIu64
           " bytes), %" PRIu64 " barriers (%" PRIu64 " spanning both boxes, %" PRIu64 " releases, %" PRIu64
           " bad requests, longest %" PRIu64 " steps), %" PRIu64 " PC < 2, %" PRIu64 " register reads, %" PRIu64 " symbols corrupted, %" PRIu64
           " CTL faults, %u resets after traffic, seed=%" PRIu64 "\n",
           ST_PROG, sbox_tree_rtl_variant(), b.o.cycles, drain, b.sent, b.cross_sent, b.mcast_sent, b.dropped_sent, b.recvd,
           b.bytes, b.barriers, b.span_barriers, b.releases, b.bad_bar, b.bar_wait_max, b.bad_pc, b.regreads, b.corrupted, b.ctl_faults,
           b.nresets, b.o.seed);
    if (!b.o.quiet)
        for (unsigned j = 0; j < NB; j++) {
            printf("  box %c counters:", box_name[j]);
            for (unsigned i = 0; i < SBOX_NCTR; i++)
                printf(" %s=%u", cn[i], b.final_val[j][i]);
            printf("\n");
        }
    waves_done(&b, "");
    sbox_tree_rtl_free(b.br);
    for (unsigned j = 0; j < NB; j++)
        sbox_free(b.bm[j]);
    for (unsigned n = 0; n < NNODE; n++) {
        mlc_free(b.node[n]);
        mlc_host_free(b.host[n]);
        for (unsigned c = 0; c < NCH; c++) {
            ring_free(&b.pcbad[n][c]);
            for (unsigned d = 0; d < NNODE; d++)
                for (unsigned k = 0; k < 2; k++) {
                    mlc_msg_t m;
                    while (ring_pop(&b.exp[n][c][d][k], &m))
                        free(m.data);
                    ring_free(&b.exp[n][c][d][k]);
                }
        }
    }
    for (unsigned l = 0; l < NLINK; l++)
        mlc_link_free(b.link[l]);
    bench_cli_free(&b.cli);
    return 0;
}

/* sanfab — lockstep bench of the Maestro switch box (docs/sbox.md): the box as Verilated RTL
 * (rtl/sbox/sbox.v through tb/sbox/sbox_rtl.cpp) and as the C model (cmodel/sbox.c), stepped with the
 * same inputs every step; PORTS node MLCs (C models, MASTER = 1, each with the host driver
 * sw/mlc_host.c) joined to the box's ports by link models (cmodel mlc_link_*, LINK_DELAY cable
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
 * guard, docs/mlc.md rule 2).
 *
 * Exit status: 0 pass, 1 a mismatch or a check failed, 2 usage. --help lists the options.
 */
#define _POSIX_C_SOURCE 200809L
#include "../../cmodel/mlc.h"
#include "../../cmodel/sbox.h"
#include "../../cmodel/sbox_load.h"
#include "../../sw/mlc_host.h"
#include "../../sw/ring.h"
#include "../common/bench_cli.h"
#include "../common/rerun.h"
#include "../common/rng.h"
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
    int ctl_given, ld_given, plain;
    /* parameters */
    sbox_params_t p;
    unsigned P;
    int tport[NNODE];              /* table: port of node d, -1 invalid */
    uint16_t twdata[NNODE];        /* what was written to entry d */
    uint16_t upw;                  /* what was written to the up port (bit 4 clear: none) */
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
    /* the bench's own counts of the box counters */
    uint64_t e_ctr[SBOX_NCTR];
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

static const char *prog = "sbox_bench";

/* the sanitizer build of mk/rules.mk (B_SAN_C, compiled with -DSANFAB_ASSERT and no Verilated RTL) is
 * model-only, as is any build with -DSB_NO_RTL */
#if defined(SANFAB_ASSERT) && !defined(SB_NO_RTL)
#define SB_NO_RTL 1
#endif
#ifdef SB_NO_RTL
/* ------------------------------------------------------------------ model-only build (no RTL)
 * the model alone (--mode model), the parameters from the command line (--PORTS N ...; defaults
 * docs/sbox.md's) */
static sbox_params_t cli_params = {8, 16, 4, 2048, 1, 1024, 16, 0, 0};
sbox_params_t sbox_rtl_params(void) { return cli_params; }
const char *sbox_rtl_variant(void) { return "model-only"; }
sbox_rtl_t *sbox_rtl_new(int argc, const char *const *argv)
{
    (void)argc;
    (void)argv;
    return NULL;
}
void sbox_rtl_free(sbox_rtl_t *r) { (void)r; }
void sbox_rtl_step(sbox_rtl_t *r, const sbox_in_t *in, sbox_out_t *out)
{
    (void)r;
    (void)in;
    memset(out, 0, sizeof *out);
}
int sbox_rtl_stopped(const sbox_rtl_t *r) { return r != NULL; }
int sbox_rtl_trace_open(sbox_rtl_t *r, const char *path, uint64_t cycle)
{
    (void)r;
    (void)path;
    (void)cycle;
    return -1;
}

int sbox_rtl_trace_close(sbox_rtl_t *r, uint64_t range[2])
{
    (void)r;
    range[0] = range[1] = 0;
    return 0;
}
#define HAVE_RTL 0
#else
#define HAVE_RTL 1
#endif

/* ------------------------------------------------------------------ failures */

/* The waves of this run (--vcd): closes the VCD and prints where it is. */
static void waves_done(const bench_t *b, const char *indent)
{
    if (!b->o.waves.vcd || !b->br)
        return;
    uint64_t range[2];
    int any = sbox_rtl_trace_close(b->br, range);
    bench_waves_print(stdout, indent, b->o.waves.vcd, any, range, b->o.waves.start);
}

/* after a failure line: the FAIL and replay lines, the waves of this run (--vcd) or of a re-run up to
 * the failure (--vcd-on-fail); then exit 1 */
static void fail_exit(const bench_t *b)
{
    printf("FAIL %s variant %s seed %" PRIu64 " cycle %" PRIu64 " (mode %s)\n     replay: %s --seed %" PRIu64
           " --cycles %" PRIu64 " --mode %s%s%s%s\n",
           prog, sbox_rtl_variant(), b->o.seed, b->cycle, bench_mode_name(b->o.mode), b->argv[0], b->o.seed,
           b->o.cycles, bench_mode_name(b->o.mode), b->table_arg ? " --table " : "", b->table_arg ? b->table_arg : "",
           b->cli.plusline);
    waves_done(b, "     ");
    sbn_fail_rerun(prog, &b->o, b->argc, b->argv, b->cycle);
    fflush(stdout);
    exit(1);
}

static void mismatch(const bench_t *b, const char *port, const char *sig, uint64_t exp, uint64_t act)
{
    printf("LOCKSTEP MISMATCH cycle=%" PRIu64 " port=%s signal=%s expected=0x%" PRIx64 " actual=0x%" PRIx64
           " seed=%" PRIu64 "\n",
           b->cycle, port, sig, exp, act, b->o.seed);
    fail_exit(b);
}

static void check_fail(const bench_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check_fail(const bench_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sbn_vreport("CHECK", b->cycle, b->o.seed, "", fmt, ap);
    va_end(ap);
    fail_exit(b);
}

static void sb_fail(const bench_t *b, unsigned port, unsigned ch, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void sb_fail(const bench_t *b, unsigned port, unsigned ch, const char *fmt, ...)
{
    char m[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    printf("SCOREBOARD cycle=%" PRIu64 " port=%u ch=%u %s seed=%" PRIu64 "\n", b->cycle, port, ch, m, b->o.seed);
    fail_exit(b);
}

static void oom(void)
{
    fprintf(stderr, "%s: out of memory\n", prog);
    exit(1);
}

static void compare(const bench_t *b)
{
    char pn[12];
    for (unsigned p = 0; p < b->P; p++) {
        snprintf(pn, sizeof pn, "%u", p);
        if (b->om.tx_en[p] != b->orr.tx_en[p])
            mismatch(b, pn, "tx_en", b->om.tx_en[p], b->orr.tx_en[p]);
        if (b->om.tx_d[p] != b->orr.tx_d[p])
            mismatch(b, pn, "tx_d", b->om.tx_d[p], b->orr.tx_d[p]);
    }
    if (b->om.reg_rvalid != b->orr.reg_rvalid)
        mismatch(b, "reg", "reg_rvalid", b->om.reg_rvalid, b->orr.reg_rvalid);
    if (b->om.reg_rdata != b->orr.reg_rdata)
        mismatch(b, "reg", "reg_rdata", b->om.reg_rdata, b->orr.reg_rdata);
}

/* ------------------------------------------------------------------ the table and port sets */

/* ports of the node set `mask` (E(m) of docs/sbox.md rule 5, no up port) */
static unsigned mask_ports(const bench_t *b, unsigned mask)
{
    unsigned s = 0;
    for (unsigned i = 0; i < b->p.NODES && i < NNODE; i++)
        if ((mask >> i) & 1u && b->tport[i] >= 0)
            s |= 1u << b->tport[i];
    return s;
}

/* port a is a box port: two or more nodes behind it in the table (docs/sbox.md, Messages) */
static int box_port(const bench_t *b, unsigned a)
{
    unsigned n = 0;
    for (unsigned i = 0; i < b->p.NODES && i < NNODE; i++)
        n += b->tport[i] == (int)a;
    return n >= 2;
}

/* the port set of a message arriving on port a (docs/sbox.md, Messages; no up port: a unicast or
 * a message from a node port never goes back, a multicast from a box port turns and may) */
static unsigned port_set(const bench_t *b, unsigned a, unsigned dst, unsigned mask)
{
    unsigned s = 0;
    if (dst < b->p.NODES && dst < NNODE)
        s = b->tport[dst] >= 0 ? 1u << b->tport[dst] : 0u;
    else if (dst == 255)
        return box_port(b, a) ? mask_ports(b, mask) : mask_ports(b, mask) & ~(1u << a);
    return s & ~(1u << a);
}

/* ------------------------------------------------------------------ stimulus */

static uint64_t ctr_mask(const bench_t *b) { return b->p.CTR_W >= 64 ? ~0ull : (1ull << b->p.CTR_W) - 1u; }

/* queues message m on node a's channel c and what the box must do with it; 0 on success */
static int send_msg(bench_t *b, unsigned a, unsigned c, mlc_msg_t *m, int bad_pc)
{
    uint64_t at = b->wr_words[a][c] + mlc_host_tx_pending(b->host[a], c) + 8; /* its word 8 */
    if (mlc_host_send(b->host[a], c, m) != 0)
        return -1;
    if (bad_pc) {
        /* a 2-unit Type1 message whose PC the bench turns into 0 or 1 on its way into the MLC: the
         * MLCs and the box take it as 2 (the same message arrives) and count err_msg */
        if (ring_push(&b->pcbad[a][c], &at))
            oom();
        b->e_ctr[SBOX_CTR_ERR_MSG]++;
        b->bad_pc++;
    }
    unsigned set = port_set(b, a, m->dst, m->mask);
    if (!set) {
        b->e_ctr[SBOX_CTR_DROP_ROUTE]++;
        b->dropped_sent++;
    } else {
        b->e_ctr[SBOX_CTR_MSGS]++;
        if (sbn_popc(set) >= 2) {
            b->e_ctr[SBOX_CTR_MCAST]++;
            b->mcast_sent++;
        }
        b->e_ctr[SBOX_CTR_WORDS] += 8u * mlc_msg_units(m);
        for (unsigned q = 0; q < b->P; q++)
            if ((set >> q) & 1u) {
                mlc_msg_t cp;
                if (sbn_msg_copy(&cp, m))
                    oom();
                if (ring_push(&b->exp[a][c][q], &cp))
                    oom();
            }
    }
    b->sent++;
    return 0;
}

/* a random data message from node a on channel c */
static void new_message(bench_t *b, unsigned a, unsigned c)
{
    mlc_msg_t m;
    memset(&m, 0, sizeof m);
    m.type = rng_pct(&b->rng, 35) ? 0u : 1u;
    m.kind = rng_below(&b->rng, 128);
    unsigned r = rng_below(&b->rng, 100);
    if (r < b->mcast_pct) { /* multicast */
        unsigned k = rng_below(&b->rng, 4);
        m.dst = MLC_DST_MULTI;
        m.mask = k == 0 ? 0xFFFFu : k == 1 ? 1u << rng_below(&b->rng, 16) : rng_below(&b->rng, 65536);
    } else if (r < b->mcast_pct + 10) { /* unrouted: beyond NODES, an invalid entry, or the sender's own port */
        unsigned k = rng_below(&b->rng, 3);
        m.dst = rng_below(&b->rng, b->p.NODES);
        if (k == 0 && b->p.NODES < 255)
            m.dst = b->p.NODES + rng_below(&b->rng, 255 - b->p.NODES);
        else
            for (unsigned t = 0; t < 32; t++) {
                unsigned d = rng_below(&b->rng, b->p.NODES);
                if (b->tport[d] < 0 || (unsigned)b->tport[d] == a) {
                    m.dst = d;
                    break;
                }
            }
    } else { /* a routed node */
        m.dst = rng_below(&b->rng, b->p.NODES);
        for (unsigned t = 0; t < 32; t++) {
            unsigned d = rng_below(&b->rng, b->p.NODES);
            if (b->tport[d] >= 0 && (unsigned)b->tport[d] != a) {
                m.dst = d;
                break;
            }
        }
    }
    int bad_pc = sbn_msg_finish(&b->rng, &m, a, b->p.FIFO_BYTES, b->msgmode);
    if (bad_pc < 0)
        oom();
    send_msg(b, a, c, &m, bad_pc);
    free(m.data);
}

/* queues a barrier request from node a on channel c for node set mask; the words written when it is
 * written whole */
static uint64_t queue_request(bench_t *b, unsigned a, unsigned c, unsigned mask, uint32_t epoch)
{
    if (mlc_host_barrier(b->host[a], c, a, mask, epoch) != 0)
        oom();
    return b->wr_words[a][c] + mlc_host_tx_pending(b->host[a], c);
}

/* barriers: start one now and then per channel, members queue their requests late */
static void barrier_stimulus(bench_t *b, int draining)
{
    for (unsigned c = 0; c < NCH; c++) {
        bar_t *x = &b->bar[c];
        if (!x->active && !draining && rng_below(&b->rng, 2000) == 0) {
            unsigned mask = 0, ports = 0;
            for (unsigned t = 0; t < 16 && !ports; t++) {
                unsigned k = rng_below(&b->rng, 4);
                mask = k == 0 ? (b->p.NODES >= 16 ? 0xFFFFu : (1u << b->p.NODES) - 1u) /* all nodes */
                       : k == 1 ? 0xFFFFu
                                : rng_below(&b->rng, 65536);
                ports = mask_ports(b, mask);
            }
            if (!ports)
                continue;
            memset(x, 0, sizeof *x);
            x->active = 1;
            x->mask = mask;
            x->ports = ports;
            x->start = b->cycle;
            int together = rng_pct(&b->rng, 20);
            for (unsigned p = 0; p < b->P; p++)
                x->send_at[p] = b->cycle + (together ? 0 : rng_below(&b->rng, 4000));
        }
        if (!x->active)
            continue;
        for (unsigned p = 0; p < b->P; p++)
            if ((x->ports >> p) & 1u && !x->queued[p] && b->cycle >= x->send_at[p]) {
                x->target[p] = queue_request(b, p, c, x->mask, (uint32_t)b->barriers);
                x->queued[p] = 1;
            }
    }
    /* a request from a port that is not a member: rejected (err_bar), nothing else changes */
    if (!draining && rng_below(&b->rng, 3000) == 0) {
        unsigned a = rng_below(&b->rng, b->P), c = rng_below(&b->rng, NCH);
        for (unsigned t = 0; t < 16; t++) {
            unsigned mask = rng_below(&b->rng, 65536);
            if (!((mask_ports(b, mask) >> a) & 1u)) {
                queue_request(b, a, c, mask, 0xBADu);
                b->e_ctr[SBOX_CTR_ERR_BAR]++;
                b->bad_bar++;
                break;
            }
        }
    }
}

/* a register request of the random phase: any address, now and then a write the box ignores */
static void reg_stimulus(bench_t *b, sbox_in_t *in)
{
    if (rng_pct(&b->rng, 3)) {
        unsigned k = rng_below(&b->rng, 6);
        in->reg_rd = 1;
        /* one draw a statement: the order of two draws among a call's arguments is unspecified in C, and the
         * run must be the same for a seed whatever the compiler */
        const unsigned port = rng_below(&b->rng, k == 1 ? 8u : b->P);
        const unsigned reg = k == 1 ? rng_below(&b->rng, 32) : 13u + rng_below(&b->rng, 8);
        in->reg_addr = (uint16_t)(k == 0   ? rng_below(&b->rng, 512)
                                  : k == 1 ? SBOX_REG_MLC(port, reg)
                                  : k == 2 ? SBOX_REG_CTR(rng_below(&b->rng, 8))
                                  : k == 3 ? SBOX_REG_TABLE(rng_below(&b->rng, 16))
                                  : k == 4 ? 0x110u + rng_below(&b->rng, 3)
                                           : SBOX_REG_MLC(port, reg));
    }
    if (rng_below(&b->rng, 1000) < 3) {
        unsigned k = rng_below(&b->rng, 5);
        uint16_t a;
        uint16_t w = (uint16_t)rng_below(&b->rng, 65536);
        if (k == 0)
            a = (uint16_t)(SBOX_REG_CTR(rng_below(&b->rng, 8)));
        else if (k == 1)
            a = (uint16_t)(0x111u + rng_below(&b->rng, 2));
        else if (k == 2) { /* an MLC register other than the configuration: ignored by the MLC */
            unsigned r;
            do
                r = rng_below(&b->rng, 32);
            while (r == MLC_REG_CFG);
            a = SBOX_REG_MLC(rng_below(&b->rng, b->P), r);
        } else if (k == 3 && b->p.NODES < 16) { /* a table entry beyond NODES */
            a = SBOX_REG_TABLE(b->p.NODES + rng_below(&b->rng, 16 - b->p.NODES));
        } else if (k == 4 && b->P < 8) { /* up port >= PORTS, or an entry with a port >= PORTS: ignored */
            unsigned port = b->P + rng_below(&b->rng, 8 - b->P);
            w = (uint16_t)((w & ~0x17u) | 0x10u | port);
            a = rng_pct(&b->rng, 50) ? (uint16_t)SBOX_REG_UP : SBOX_REG_TABLE(rng_below(&b->rng, b->p.NODES));
        } else { /* absent addresses */
            static const uint16_t absent[] = {0x108, 0x10F, 0x113, 0x11F, 0x130, 0x1FF};
            a = absent[rng_below(&b->rng, 6)];
        }
        in->reg_wr = 1;
        in->reg_addr = a;
        in->reg_wdata = w;
    }
}

/* ------------------------------------------------------------------ register port checks */

/* what a read of addr must return: *exact 1 and the value, or a bound (value <= lim) */
static void reg_expect(const bench_t *b, unsigned addr, int *exact, uint32_t *v, uint32_t *lim)
{
    *exact = 0;
    *v = 0;
    *lim = 0xFFFFFFFFu;
    uint32_t cmax = (uint32_t)ctr_mask(b);
    if (addr < 0x100) {
        unsigned p = addr >> 5, a = addr & 31u;
        if (p >= b->P || a >= 21) {
            *exact = 1;
            *v = ERRV;
        } else if (a <= 14) {
            *lim = cmax;
        } else if (a == MLC_REG_LINK) {
            *lim = 0x7FFF;
        } else if (a == MLC_REG_CFG) {
            *exact = 1;
            *v = b->bcfg[p];
        } else {
            *lim = b->p.FIFO_BYTES;
        }
    } else if (addr <= 0x107) {
        *lim = cmax;
    } else if (addr == SBOX_REG_UP) {
        *exact = 1;
        *v = b->upw & 0x17u; /* bit 4 and bits 2..0 are stored */
    } else if (addr == 0x111 || addr == 0x112) {
        *lim = 0xFFFFFFFFu; /* form checked by the caller */
    } else if (addr >= 0x120 && addr <= 0x12F) {
        unsigned d = addr - 0x120;
        *exact = 1;
        *v = d < b->p.NODES ? (uint32_t)(b->twdata[d] & 0x17u) : ERRV;
    } else {
        *exact = 1;
        *v = ERRV;
    }
}

/* an answer of the watched FIFO's st_tx_space: the value after step s = cycle - 2. Between two
 * answers the space changes by 16 per acknowledged unit and -2 per word written, so the words
 * written since the last answer are (-delta mod 16) / 2 (at most 7 steps apart) */
static void watch_answer(bench_t *b, uint32_t v)
{
    uint64_t s = b->cycle - 2;
    if (b->wok && b->wlast_step) {
        uint64_t gap = s - b->wlast_step;
        unsigned w = (unsigned)((16u - ((v - b->wlast_val) & 15u)) & 15u) / 2u;
        if (gap > 7 || w > gap) {
            b->wok = 0; /* lost track: no more checks */
        } else {
            for (unsigned i = 0; i < w; i++) {
                if (b->wn == b->wcap) {
                    b->wcap = b->wcap ? 2 * b->wcap : 65536;
                    b->wstep = realloc(b->wstep, b->wcap * sizeof *b->wstep);
                    if (!b->wstep)
                        oom();
                }
                b->wstep[b->wn++] = gap == 1 ? s : 0;
            }
        }
    }
    b->wlast_step = s;
    b->wlast_val = v;
}

/* a message of `words` words arrived at the watched port's node: between the last word of the
 * message before it and its first word in the FIFO at least 2 steps (rule 3: a source that ended
 * its message in step k unlocks from step k+1, the next one's first grant is in step k+2 at the
 * earliest, its word written in k+3; the last word of the first was written in k+1) */
static void watch_message(bench_t *b, unsigned words)
{
    if (!b->wok)
        return;
    uint64_t first = b->wmsg;
    b->wmsg += words;
    if (first == 0 || first >= b->wn)
        return;
    uint64_t a = b->wstep[first - 1], c = b->wstep[first];
    b->wbound++;
    if (a && c) {
        b->wbound_checked++;
        if (c < a + 2)
            check_fail(b,
                       "port %u's send FIFO %u: a message's last word written in step %" PRIu64 " and the next "
                       "message's first word in step %" PRIu64 " (rule 3: the next source is activated after "
                       "the step of the last grant, so at least 2 steps apart)",
                       b->wq, b->wc, a, c);
    }
}

/* the read of the previous step is answered after this one, and nothing else */
static void reg_check(bench_t *b)
{
    const sbox_out_t *o = &b->prim;
    if (!b->rd_prev) {
        if (o->reg_rvalid || o->reg_rdata)
            check_fail(b, "register port: reg_rvalid=%u reg_rdata=0x%x without a read in the step before",
                       o->reg_rvalid, o->reg_rdata);
        return;
    }
    if (!o->reg_rvalid)
        check_fail(b, "register port: the read of 0x%03x in step %" PRIu64 " is not answered after step %" PRIu64,
                   b->rd_prev_addr, b->cycle - 1, b->cycle);
    int exact;
    uint32_t v, lim;
    reg_expect(b, b->rd_prev_addr, &exact, &v, &lim);
    if (exact && o->reg_rdata != v)
        check_fail(b, "register port: read of 0x%03x returned 0x%x, expected 0x%x", b->rd_prev_addr, o->reg_rdata, v);
    if (!exact && o->reg_rdata > lim)
        check_fail(b, "register port: read of 0x%03x returned 0x%x, above 0x%x", b->rd_prev_addr, o->reg_rdata, lim);
    if (b->rd_prev_addr == 0x111 || b->rd_prev_addr == 0x112) {
        uint32_t x = o->reg_rdata;
        if ((x & 0xFEu) || SBOX_BAR_A(x) >= (1u << b->P))
            check_fail(b, "register port: barrier register 0x%03x = 0x%x (no up port: up_sent and bits 7..2 are 0, A < "
                          "2^PORTS)",
                       b->rd_prev_addr, x);
    }
    b->regreads++;
    if (b->rd_prev_watch)
        watch_answer(b, o->reg_rdata);
    if (b->rd_prev_final && b->final_got < b->nfinal && b->final_addr[b->final_got] == b->rd_prev_addr)
        b->final_val[b->final_got++] = o->reg_rdata;
}

/* ------------------------------------------------------------------ faults */

static unsigned frame_steps(const bench_t *b, unsigned np) { return (8u + 32u * np) * 4u / b->p.LINK_W; }

/* 1 while link p may still be disturbed by a CTL fault: two full frames and four turn-rounds since
 * the last one (docs/mlc.md, Malformed input: recovery is bounded; the slave's guard keeps frames
 * from crossing, which before it could go on for thousands of steps after one fault). An overlap or
 * a frame out of order after that fails the run. */
static int unsettled(const bench_t *b, unsigned p)
{
    if (!b->last_fault[p])
        return 0;
    uint64_t win = 2u * (uint64_t)frame_steps(b, 15) + 4u * (2u + b->link_delay + b->p.TURN) + 16u;
    return b->cycle - b->last_fault[p] <= win;
}

/* link p's frame order after the step (docs/mlc.md rules 2, 3, the box port the slave, the node the
 * master): box frames start exactly G after a node frame ended; node frames exactly G after a box
 * frame ended or exactly TIMEOUT + TURN + 1 after the node's last symbol (its timeout); never both
 * ends at once. Paused while the link settles from a CTL fault; the first frame after it unchecked. */
static void lorder(bench_t *b, unsigned p)
{
    unsigned G = 2u + b->link_delay + b->p.TURN;
    int eb = b->prim.tx_en[p], en = b->nout[p].tx_en;
    if (eb && !b->pprev.tx_en[p]) { /* the box port starts a frame */
        b->lo_start[p] = b->cycle;
        b->lo_np[p] = b->prim.tx_d[p] & 15u;
    }
    if (unsettled(b, p)) {
        b->lo_last[p] = -2;
        b->lo_cur[p] = eb ? 0 : en ? 1 : -1;
        return;
    }
    if (b->lo_last[p] == -2) {
        b->lo_cur[p] = eb ? 0 : en ? 1 : -1;
        if (eb || en)
            return;
        b->lo_last[p] = -3; /* silence: the next frame start is tracked, not its timing */
    }
    if (eb && en)
        check_fail(b, "link %u: the box port and the node both drive in step %" PRIu64 " (frames cross)", p, b->cycle);
    int drv = eb ? 0 : en ? 1 : -1;
    if (drv >= 0 && b->lo_cur[p] < 0) { /* a frame starts */
        int last = b->lo_last[p];
        uint64_t t = b->cycle;
        if (last == 0 || last == 1) {
            uint64_t own_to = b->lo_node_end[p] + b->p.TIMEOUT + b->p.TURN; /* node: last symbol + TIMEOUT + TURN + 1 */
            int ok = drv != last ? t == b->lo_end[p] + G
                                 : (drv == 1 && b->p.TIMEOUT && t == own_to);
            if (!ok)
                check_fail(b, "link %u: the %s starts a frame in step %" PRIu64 "; the %s's frame ended in step %" PRIu64
                              ": an answer is due in step +G = %u, a node timeout only %u steps after its own frame "
                              "(docs/mlc.md rules 2, 3)",
                           p, drv ? "node" : "box port", t, last ? "node" : "box port", b->lo_end[p], G,
                           b->p.TIMEOUT + b->p.TURN);
        } else if (last == -1 && drv != 1) {
            check_fail(b, "link %u: the box port (the slave) sends the link's first frame in step %" PRIu64, p, t);
        }
        b->lo_cur[p] = drv;
    } else if (drv >= 0 && drv != b->lo_cur[p]) {
        check_fail(b, "link %u: the other end starts driving inside a frame in step %" PRIu64, p, b->cycle);
    } else if (drv < 0 && b->lo_cur[p] >= 0) { /* a frame ended in this step */
        b->lo_last[p] = b->lo_cur[p];
        b->lo_end[p] = b->cycle;
        if (b->lo_cur[p] == 1)
            b->lo_node_end[p] = b->cycle;
        b->lo_cur[p] = -1;
    }
}

/* corrupt nibbles and CTL faults on the link input (en, d) of end e (0 box, 1 node) of link p */
static void fault(bench_t *b, unsigned p, unsigned e, uint8_t *en, uint8_t *d)
{
    if (sbn_fault(&b->frng, b->corrupt_pm, b->ctl_rate, b->p.LINK_W, &b->prev_en[p][e], &b->erasing[p][e], en, d,
                  &b->corrupted)) {
        if (b->cycle != b->last_fault[p])
            b->ctl_faults++;
        b->last_fault[p] = b->cycle;
    }
}

/* ------------------------------------------------------------------ receiving */

static void got_release(bench_t *b, unsigned q, unsigned c, const mlc_msg_t *m)
{
    bar_t *x = &b->bar[c];
    if (!x->active)
        sb_fail(b, q, c, "a barrier release arrived with no barrier in progress on the channel");
    if (!((x->ports >> q) & 1u))
        sb_fail(b, q, c, "a barrier release arrived at a port that is not a member (members 0x%x)", x->ports);
    if (x->released[q])
        sb_fail(b, q, c, "a second release for one barrier (mask 0x%04x)", x->mask);
    if (m->mask != x->mask)
        sb_fail(b, q, c, "release with MASK 0x%04x, the barrier's members are 0x%04x", m->mask, x->mask);
    for (unsigned i = 0; i < m->len; i++)
        if (m->data[i])
            sb_fail(b, q, c, "release data byte %u is 0x%02x, a made unit's words 2..7 are 0x00FF, 0...", i + 1,
                    m->data[i]);
    for (unsigned p = 0; p < b->P; p++)
        if ((x->ports >> p) & 1u && !x->written_at[p])
            sb_fail(b, q, c, "release before member port %u's request was written by its host", p);
    x->released[q] = 1;
    b->releases++;
    for (unsigned p = 0; p < b->P; p++)
        if ((x->ports >> p) & 1u && !x->released[p])
            return;
    /* every member released: the barrier is over */
    b->e_ctr[SBOX_CTR_BAR_REQ] += sbn_popc(x->ports);
    b->e_ctr[SBOX_CTR_BAR_DONE]++;
    b->e_ctr[SBOX_CTR_WORDS] += 8;
    sbn_bar_wait(&b->bar_wait_max, b->cycle, x->written_at, b->P, x->ports);
    b->barriers++;
    x->active = 0;
}

static void receive(bench_t *b, unsigned q)
{
    for (unsigned c = 0; c < NCH; c++) {
        mlc_msg_t m;
        while (mlc_host_recv(b->host[q], c, &m)) {
            if (q == b->wq && c == b->wc)
                watch_message(b, 8u * mlc_msg_units(&m));
            if (m.type == 0 && m.dst == MLC_DST_MULTI && m.kind == MLC_KIND_RELEASE && m.src == 255) {
                got_release(b, q, c, &m);
                mlc_msg_free(&m);
                continue;
            }
            if (m.type == 0 && m.dst == MLC_DST_MULTI && m.kind == MLC_KIND_BARRIER)
                sb_fail(b, q, c, "a barrier request (from node %u) was forwarded", m.src);
            if (m.src >= b->P)
                sb_fail(b, q, c, "a message from node %u arrived, no such node", m.src);
            if (m.src == q && (m.dst != 255 || !box_port(b, q)))
                sb_fail(b, q, c, "a message came back to its sender (dst %u mask 0x%04x)", m.dst, m.mask);
            mlc_msg_t *e = ring_front(&b->exp[m.src][c][q]);
            if (!e)
                sb_fail(b, q, c, "a message from node %u (type %u kind %u dst %u mask 0x%04x len %u) arrived that was "
                                 "not sent to this port (or twice)",
                        m.src, m.type, m.kind, m.dst, m.mask, m.len);
            if (!mlc_msg_eq(&m, e))
                sb_fail(b, q, c,
                        "a message from node %u differs from the next one it sent here (type %u/%u kind %u/%u dst "
                        "%u/%u mask 0x%04x/0x%04x len %u/%u; got/expected)",
                        m.src, m.type, e->type, m.kind, e->kind, m.dst, e->dst, m.mask, e->mask, m.len, e->len);
            b->bytes += m.len;
            b->recvd++;
            if (b->fair_state == 1 && c == 0 && b->cycle >= b->fair_start + 1500)
                b->fair_words[m.src] += 8u * mlc_msg_units(&m);
            mlc_msg_free(&m);
            mlc_msg_t d;
            ring_pop(&b->exp[m.src][c][q], &d);
            free(d.data);
        }
    }
}

/* ------------------------------------------------------------------ the transit test */

static void transit_start(bench_t *b)
{
    /* a source port a and a routed node b on another port q */
    for (unsigned t = 0; t < 64; t++) {
        unsigned a = rng_below(&b->rng, b->P), d = rng_below(&b->rng, b->p.NODES);
        if (b->tport[d] < 0 || (unsigned)b->tport[d] == a)
            continue;
        mlc_msg_t m;
        uint8_t data[MLC_T0_DATA];
        for (unsigned i = 0; i < MLC_T0_DATA; i++)
            data[i] = (uint8_t)rng_below(&b->rng, 256);
        memset(&m, 0, sizeof m);
        m.type = 0;
        m.kind = 0;
        m.dst = d;
        m.src = a;
        m.len = MLC_T0_DATA;
        m.data = data;
        b->tr_c = rng_below(&b->rng, NCH);
        if (send_msg(b, a, b->tr_c, &m, 0))
            oom();
        b->tr_a = a;
        b->tr_b = d;
        b->tr_q = (unsigned)b->tport[d];
        b->tr_state = TR_WAIT_ACCEPT;
        b->tr_since = b->cycle;
        return;
    }
    b->tr_done = b->transits; /* no pair of ports to test */
}

/* the frames at the box's pins this step: in = the link inputs of this step, prim/pprev its outputs */
static void frames_watch(bench_t *b, const sbox_in_t *in)
{
    for (unsigned p = 0; p < b->P; p++) {
        if (in->rx_en[p] && !b->rx_in[p]) {
            b->rx_in[p] = 1;
            b->rx_np[p] = in->rx_d[p] & 15u;
        } else if (!in->rx_en[p] && b->rx_in[p]) { /* the frame ended in this step */
            b->rx_in[p] = 0;
            b->frames_in++;
            if (b->tr_state == TR_WAIT_ACCEPT && p == b->tr_a && b->rx_np[p] > 0) {
                b->tr_t = b->cycle;
                b->tr_state = TR_WAIT_START;
            }
        }
    }
    if (b->tr_state == TR_WAIT_START) {
        unsigned q = b->tr_q;
        if (b->prim.tx_en[q] && !b->pprev.tx_en[q]) { /* port q starts a frame in this step */
            unsigned np = b->prim.tx_d[q] & 15u;
            if (b->cycle < b->tr_t + 14 && np)
                check_fail(b,
                           "transit: port %u's frame starting in step %" PRIu64 " carries %u units; the unit accepted "
                           "on port %u in step %" PRIu64 " is written in step t+13 (docs/sbox.md, Timing)",
                           q, b->cycle, np, b->tr_a, b->tr_t);
            if (b->cycle >= b->tr_t + 14) {
                if (!np)
                    check_fail(b,
                               "transit: port %u's first frame from step t+14 (t = %" PRIu64 ", the frame end on port "
                               "%u) starts in step %" PRIu64 " and carries no unit: transit above 13 steps",
                               q, b->tr_t, b->tr_a, b->cycle);
                b->transit_ok++;
                b->tr_state = TR_WAIT_DELIVER;
                b->tr_since = b->cycle;
            }
        }
    }
    if (b->tr_state != TR_IDLE && b->cycle - b->tr_since > 20000)
        check_fail(b, "transit: message from port %u to node %u (port %u) stuck (state %d since step %" PRIu64 ")",
                   b->tr_a, b->tr_b, b->tr_q, b->tr_state, b->tr_since);
}

/* ------------------------------------------------------------------ one step */

static void step(bench_t *b)
{
    mlc_in_t nin[NPMAX];
    sbox_in_t in = b->bnext;
    b->cycle++;
    if (b->o.waves.vcd && b->br) {
        int wa = bench_waves_at(&b->o.waves, b->cycle, 1);
        if (wa > 0 && sbox_rtl_trace_open(b->br, b->o.waves.vcd, b->cycle) != 0) {
            fprintf(stderr, "%s: cannot write %s\n", prog, b->o.waves.vcd);
            exit(1);
        }
        if (wa < 0)
            sbox_rtl_trace_close(b->br, NULL);
    }
    int traffic = b->phase == 1, draining = b->phase >= 2;
    if (traffic && b->cycle % 10000 == 0) {
        /* a new load epoch: heavy (the box's bus and output links saturate, multicasts wait long),
         * moderate, light, or a lull in which the backlog drains and barriers complete */
        static const unsigned loads[] = {100, 20, 10, 5, 5, 2, 0, 0}; /* the bus saturates near 16 */
        for (unsigned c = 0; c < NCH; c++) /* each channel its own load */
            b->load_pm[c] = loads[rng_below(&b->rng, 8)];
        b->mcast_pct = rng_below(&b->rng, 4) == 0 ? 40 : rng_below(&b->rng, 16);
        b->hold_kind = rng_below(&b->rng, 3);
        b->hold_node = rng_below(&b->rng, b->P);
    }
    /* ---- nodes' host side */
    if (traffic || draining)
        barrier_stimulus(b, draining);
    if (b->fair_state == 1)
        for (unsigned n = 0; n < b->P; n++)
            if (mlc_host_tx_pending(b->host[n], 0) < 64) {
                uint8_t data[87];
                for (unsigned i = 0; i < sizeof data; i++)
                    data[i] = (uint8_t)rng_below(&b->rng, 256);
                mlc_msg_t m = {1, 0, b->fair_dst[n], 0, n, sizeof data, data}; /* 6 units, 48 words */
                send_msg(b, n, 0, &m, 0);
            }
    for (unsigned n = 0; n < b->P; n++) {
        nin[n] = b->nin[n];
        mlc_in_t h;
        memset(&h, 0, sizeof h);
        if (traffic)
            for (unsigned c = 0; c < NCH; c++)
                if (mlc_host_tx_pending(b->host[n], c) < 64 && rng_below(&b->rng, 10000) < b->load_pm[c] &&
                    !(b->bar[c].active && b->bar[c].queued[n] && !b->bar[c].released[n])) /* waits in a barrier */
                    new_message(b, n, c);
        /* stalled readers (their FIFOs fill, then the box's send FIFOs, then every source that waits
         * for them): one node for the first 2000 steps of the epoch, or bursts of 400 steps on each */
        sbn_node_host(&b->rng, b->host[n], &b->nout[n], &nin[n], &h, traffic, b->hold_kind, b->hold_node, n, b->cycle);
        if (b->cycle == 1 || (traffic && b->cycle == b->phase1_start)) {
            /* the start: Network Burst (the directed tests need full-rate links); the random phase: each
             * MLC its own transfer size (docs/mlc.md: a change with units in flight loses nothing) */
            if (b->cycle != 1)
                b->ncfg[n] = b->ncfg_run[n];
            sbn_node_cfg(&nin[n], b->ncfg[n]);
        }
        if (h.h_wr) {
            sbn_node_word(&b->rng, &nin[n], &h, b->pcbad[n], b->wr_words[n]);
            bar_t *x = &b->bar[h.h_wch];
            if (x->active && x->queued[n] && !x->written_at[n] && b->wr_words[n][h.h_wch] >= x->target[n])
                x->written_at[n] = b->cycle;
        }
        /* a directed early frame at every box port (the link's slave), once, in the setup (idle links):
         * a CTL pulse LINK_DELAY + 1 steps after the last symbol of its frame; the guard ignores it
         * (docs/mlc.md rule 2). An unguarded MLC answers it in the very step the node answers the box
         * port's frame, and with LINK_DELAY >= F(0) - 1 the two ends then cross frames for as long as
         * the link stays idle ("crossing frames"): lorder fails the run once the window is over. */
        if (!b->early_done[n] && b->p.TIMEOUT && b->phase == 0 && b->lo_start[n] &&
            !in.rx_en[n] && b->cycle == b->lo_start[n] + frame_steps(b, b->lo_np[n]) + b->link_delay) {
            in.rx_en[n] = 1;
            in.rx_d[n] = 0;
            b->early_done[n] = 1;
            b->early_pulses++;
            b->ctl_faults++;
            b->last_fault[n] = b->cycle;
        }
        /* faults on both directions of link n */
        if (traffic) {
            fault(b, n, 0, &in.rx_en[n], &in.rx_d[n]);
            fault(b, n, 1, &nin[n].rx_en, &nin[n].rx_d);
        }
    }
    /* ---- the box's register port */
    in.reg_rd = in.reg_wr = 0;
    in.reg_addr = in.reg_wdata = 0;
    if (b->phase == 0) {
        /* steps 1..: the table (every entry below NODES, and one beyond), the MLC configurations, the up
         * port (none), writes the box ignores; reads of what was written come in the random phase */
        uint64_t k = b->cycle - 1;
        if (k < b->p.NODES) {
            in.reg_wr = 1;
            in.reg_addr = SBOX_REG_TABLE(k);
            in.reg_wdata = b->twdata[k];
        } else if (k < b->p.NODES + b->P) {
            unsigned p = (unsigned)(k - b->p.NODES);
            in.reg_wr = 1;
            in.reg_addr = SBOX_REG_MLC(p, MLC_REG_CFG);
            in.reg_wdata = (uint16_t)(b->bcfg[p] | (rng_below(&b->rng, 8192) << 3)); /* upper bits ignored */
        } else if (k == b->p.NODES + b->P) {
            in.reg_wr = 1;
            in.reg_addr = SBOX_REG_UP;
            in.reg_wdata = b->upw; /* bit 4 clear: none */
        } else if (k == b->p.NODES + b->P + 1) {
            in.reg_wr = 1;
            in.reg_addr = SBOX_REG_CTR(SBOX_CTR_MSGS);
            in.reg_wdata = 0x1234;
        }
    } else if (b->phase == 1 && b->cycle < b->phase1_start + 2u * b->P) {
        /* the box ports' configurations, every other step (the watched FIFO is read between) */
        unsigned p = (unsigned)(b->cycle - b->phase1_start) / 2u;
        if ((b->cycle - b->phase1_start) % 2u == 0) {
            b->bcfg[p] = b->bcfg_run[p];
            in.reg_wr = 1;
            in.reg_addr = SBOX_REG_MLC(p, MLC_REG_CFG);
            in.reg_wdata = (uint16_t)(b->bcfg[p] | (rng_below(&b->rng, 8192) << 3));
        }
    } else if (b->phase == 1 || b->phase == 2) {
        reg_stimulus(b, &in);
    } else if (b->phase == 3 && b->final_reads < (int)b->nfinal) {
        in.reg_rd = 1;
        in.reg_addr = b->final_addr[b->final_reads++];
    }
    /* the watched FIFO's space, in every step without another read */
    int watch = 0;
    if (!in.reg_rd && !in.reg_wr && b->wok) { /* one address: not with a write */
        in.reg_rd = 1;
        in.reg_addr = SBOX_REG_MLC(b->wq, MLC_REG_TX_SPACE(b->wc));
        watch = 1;
    }
    /* ---- the box: model and RTL */
    if (b->o.mode != MODE_RTL)
        sbox_step(b->bm, &in, &b->om);
    if (b->o.mode != MODE_MODEL) {
        sbox_rtl_step(b->br, &in, &b->orr);
        if (sbox_rtl_stopped(b->br))
            check_fail(b, "the RTL stopped itself (assertion)");
    }
    if (b->o.mode == MODE_LOCKSTEP)
        compare(b);
    b->pprev = b->prim;
    b->prim = b->o.mode == MODE_RTL || b->o.mode == MODE_LOCKSTEP ? b->orr : b->om;
    /* ---- the nodes */
    for (unsigned n = 0; n < b->P; n++) {
        mlc_step(b->node[n], &nin[n], &b->nout[n]);
        mlc_host_collect(b->host[n], &b->nout[n]);
    }
    /* ---- the links: box port n (end A) and node n (end B) */
    for (unsigned n = 0; n < b->P; n++) {
        mlc_out_t bo;
        mlc_in_t bi, ni;
        memset(&bo, 0, sizeof bo);
        bo.tx_en = b->prim.tx_en[n];
        bo.tx_d = b->prim.tx_d[n];
        uint64_t ov = mlc_link_overlaps(b->link[n]);
        mlc_link_step(b->link[n], &bo, &b->nout[n], &bi, &ni);
        if (mlc_link_overlaps(b->link[n]) != ov && !unsettled(b, n))
            check_fail(b, "link %u: the box port and the node drive at one end's pins in the same step (last CTL fault on it in "
                          "step %" PRIu64 ")",
                       n, b->last_fault[n]);
        b->bnext.rx_en[n] = bi.rx_en;
        b->bnext.rx_d[n] = bi.rx_d;
        b->nin[n].rx_en = ni.rx_en;
        b->nin[n].rx_d = ni.rx_d;
    }
    for (unsigned n = 0; n < b->P; n++)
        lorder(b, n);
    /* ---- checks */
    reg_check(b);
    b->rd_prev = in.reg_rd;
    b->rd_prev_addr = in.reg_addr;
    b->rd_prev_final = b->phase == 3 && in.reg_rd && !watch;
    b->rd_prev_watch = watch;
    frames_watch(b, &in);
    for (unsigned n = 0; n < b->P; n++)
        receive(b, n);
    if (b->tr_state == TR_WAIT_DELIVER && b->exp[b->tr_a][b->tr_c][b->tr_q].n == 0 && b->cycle - b->tr_since > 200) {
        b->tr_state = TR_IDLE;
        b->tr_done++;
        b->tr_since = b->cycle;
    }
}

/* ------------------------------------------------------------------ the bus share test */

#define FAIR_STEPS 6000u

/* every port streams Type1 messages (48 words) on channel 0 to a node on the next port; needs such a
 * node for every port, and links that together bring more than the bus moves (about 0.95*LINK_W/16
 * words per step each, the bus one) */
static int fair_possible(bench_t *b)
{
    if (b->P * b->p.LINK_W * 95u < 2080u) /* 1.3 words per step */
        return 0;
    for (unsigned a = 0; a < b->P; a++) {
        int found = 0;
        for (unsigned d = 0; d < b->p.NODES && d < NNODE && !found; d++)
            if (b->tport[d] == (int)((a + 1) % b->P)) {
                b->fair_dst[a] = d;
                found = 1;
            }
        if (!found)
            return 0;
    }
    return 1;
}

/* rule 1: the grant goes round robin over the eligible sources, so with every source eligible (the
 * bus the bottleneck) each port's stream gets the same share: none below a third of the mean */
static void fair_check(bench_t *b)
{
    uint64_t sum = 0, min = UINT64_MAX;
    unsigned at = 0;
    for (unsigned a = 0; a < b->P; a++) {
        sum += b->fair_words[a];
        if (b->fair_words[a] < min) {
            min = b->fair_words[a];
            at = a;
        }
    }
    if (!b->o.quiet) {
        printf("  bus share (words delivered per port in %u steps):", FAIR_STEPS - 1500u);
        for (unsigned a = 0; a < b->P; a++)
            printf(" %" PRIu64, b->fair_words[a]);
        printf("\n");
    }
    if (sum == 0 || 3u * min * b->P < sum)
        check_fail(b,
                   "bus share: port %u's stream got %" PRIu64 " words of %" PRIu64 " while every port's source was "
                   "eligible (rule 1: round robin from bp, bp = s + 1: equal shares)",
                   at, min, sum);
}

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
            "  (the wave options are listed last; cycles are the bench's steps, 1 = the first edge after\n"
            "  reset; save file tb/sbox/sbox.gtkw: gtkwave FILE tb/sbox/sbox.gtkw)\n"
            "Parameters are fixed by the build (variant %s; the model-only build takes --PORTS N, --NODES N,\n"
            "--LINK_W N, --FIFO_BYTES N, --TURN N, --TIMEOUT N, --CTR_W N). Exit status 0 pass, 1 failed, 2 usage.\n",
            prog, "node p on port p", (unsigned)SB_LINK_DELAY, sbox_rtl_variant());
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
    return sbn_num_opt(prog, name, v, max, out);
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
    if (bench_cli_init(&b.cli, &b.o, HAVE_RTL, argc))
        oom();
    const bench_opt_t own[] = {
        {"--table", BENCH_OPT_STR, NULL, opt_table, &b},         {"--link-delay", BENCH_OPT_STR, NULL, opt_ld, &b},
        {"--ctl-faults", BENCH_OPT_STR, NULL, opt_ctl, &b},      {"--corrupt", BENCH_OPT_STR, NULL, opt_corrupt, &b},
        {"--transits", BENCH_OPT_STR, NULL, opt_transits, &b},   
        {"--plain-writes", BENCH_OPT_FLAG, &b.plain, NULL, NULL},
#ifdef SB_NO_RTL
        SBN_BOX_PARAMS(&b.p),
#endif
    };
    const bench_cli_spec_t spec = {prog, HAVE_RTL, usage, own, sizeof own / sizeof own[0], check_params, &b.p};
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
        fprintf(stderr, "%s: --ctl-faults needs TIMEOUT > 0 (a frame lost entirely stops the link)\n", prog);
        return 2;
    }
    if (b.p.MASTER_MASK != 0) {
        fprintf(stderr, "%s: the bench's nodes are the link masters: MASTER_MASK must be 0\n", prog);
        return 2;
    }
#ifdef SB_NO_RTL
    b.p.LINK_DELAY = b.link_delay; /* the slave MLCs' guard follows the link */
#else
    if (b.link_delay < b.p.LINK_DELAY) { /* the RTL's guard would cut every reply */
        fprintf(stderr, "%s: --link-delay %u is below the RTL's LINK_DELAY %u (its MLCs' GUARD, docs/mlc.md)\n", prog,
                b.link_delay, b.p.LINK_DELAY);
        return 2;
    }
#endif
    if (b.p.TIMEOUT && b.p.TIMEOUT <= 2 * b.link_delay + b.p.TURN + 3) {
        fprintf(stderr, "%s: TIMEOUT %u must exceed 2*LINK_DELAY + TURN + 3 (docs/mlc.md)\n", prog, b.p.TIMEOUT);
        return 2;
    }
    /* the table */
    for (unsigned d = 0; d < NNODE; d++)
        b.tport[d] = d < b.p.NODES && d < b.P ? (int)d : -1;
    if (b.table_arg) {
        sbox_table_t t;
        char err[400];
        if (sbox_load_file(b.table_path, b.table_sw, b.P, b.p.NODES, &t, err, sizeof err)) {
            fprintf(stderr, "%s: %s\n", prog, err);
            return 2;
        }
        for (unsigned d = 0; d < NNODE; d++)
            b.tport[d] = d < t.nodes ? t.port[d] : -1;
    }
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
    printf("%s: variant %s PORTS=%u NODES=%u LINK_W=%u FIFO_BYTES=%u TURN=%u TIMEOUT=%u CTR_W=%u LINK_DELAY=%u "
           "table=%s mlc=%s ctl-faults=%u corrupt=%u mode=%s cycles=%" PRIu64 " seed=%" PRIu64 "\n",
           prog, sbox_rtl_variant(), b.P, b.p.NODES, b.p.LINK_W, b.p.FIFO_BYTES, b.p.TURN, b.p.TIMEOUT, b.p.CTR_W,
           b.link_delay, b.table_arg ? b.table_arg : "node p on port p", b.msgmode ? "message-based" : "pipelined",
           b.ctl_rate, b.corrupt_pm, bench_mode_name(b.o.mode), b.o.cycles, b.o.seed);
    fflush(stdout);
    /* setup and the directed transit tests (the links settle first), then random traffic */
    uint64_t settle = 300 + 8u * b.link_delay + 4u * frame_steps(&b, 0);
    for (uint64_t k = 0; k < b.o.cycles; k++) {
        if (b.phase == 0 && b.cycle >= settle) {
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
            }
        }
        step(&b);
        sbn_progress(&b.o, b.cycle, b.sent, b.recvd, b.barriers);
    }
    if (b.tr_state != TR_IDLE && b.tr_state != TR_WAIT_DELIVER)
        check_fail(&b, "transit test unfinished at the end of the run (state %d)", b.tr_state);
    /* drain: no new messages or barriers (those begun finish), no faults, hosts read everything */
    b.phase = 2;
    uint64_t limit = 400000 + 200u * (uint64_t)b.p.FIFO_BYTES, drain = 0;
    for (; drain < limit && !all_delivered(&b); drain++)
        step(&b);
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
        step(&b);
    /* the final register reads */
    b.phase = 3;
    for (unsigned k = 0; k < b.nfinal + 3; k++)
        step(&b);
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
    printf("PASS %s variant %s: %" PRIu64 " cycles (+%" PRIu64 " drain), %" PRIu64 " messages sent (%" PRIu64
           " multicast, %" PRIu64 " unrouted), %" PRIu64 " deliveries (%" PRIu64 " bytes), %" PRIu64 " barriers (%" PRIu64
           " releases, %" PRIu64 " bad requests, longest %" PRIu64 " steps), %" PRIu64 " PC < 2, %" PRIu64 " transits, %" PRIu64 " register reads, %" PRIu64
           " nibbles corrupted, %" PRIu64 " CTL faults (%" PRIu64 " directed early frames), seed=%" PRIu64 "\n",
           prog, sbox_rtl_variant(), b.o.cycles, drain, b.sent, b.mcast_sent, b.dropped_sent, b.recvd, b.bytes,
           b.barriers, b.releases, b.bad_bar, b.bar_wait_max, b.bad_pc, b.transit_ok, b.regreads, b.corrupted, b.ctl_faults,
           b.early_pulses, b.o.seed);
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

/* sanfab — lockstep bench of a two-box tree of Maestro switch boxes (docs/sbox.md, "Barriers" and
 * "Verification"): box A (the root) and box B below it, as Verilated RTL (tb/sbox/sbox_tree.v, two
 * rtl/sbox/sbox.v, through tb/sbox/sbox_tree_rtl.cpp) and as two C models (cmodel/sbox.c), stepped with
 * the same inputs every step. A's port AL is joined to B's up port UP by a link model (cmodel
 * mlc_link_*, --tree-delay cable registers; B's MLC there is the link master, MASTER_MASK bit UP),
 * and every other port of both boxes that has a node carries a node MLC (C model, the link master,
 * with the host driver sw/mlc_host.c) over a link model of --link-delay registers. One set of nodes
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
 * --ctl-faults), hosts that stall reading or writing so FIFOs fill back through the tree.
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

static const char *prog = "sbox_tree_bench";
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
    int ctl_given, ld_given, td_given;
    /* parameters and the tree */
    sbox_params_t p, pb;           /* A's, B's (MASTER_MASK bit UP) */
    unsigned P, up, al;            /* ports; B's up port; A's port to B */
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

/* the sanitizer build (-DSANFAB_ASSERT without the Verilated RTL) is model-only, as is -DST_NO_RTL */
#if defined(SANFAB_ASSERT) && !defined(ST_NO_RTL)
#define ST_NO_RTL 1
#endif
#ifdef ST_NO_RTL
static sbox_params_t cli_params = {8, 16, 4, 2048, 1, 1024, 16, 0, 0};
static unsigned cli_up = 0;
sbox_params_t sbox_tree_rtl_params(void) { return cli_params; }
unsigned sbox_tree_rtl_up(void) { return cli_up; }
const char *sbox_tree_rtl_variant(void) { return "model-only"; }
sbox_tree_rtl_t *sbox_tree_rtl_new(int argc, const char *const *argv)
{
    (void)argc;
    (void)argv;
    return NULL;
}
void sbox_tree_rtl_free(sbox_tree_rtl_t *r) { (void)r; }
void sbox_tree_rtl_step(sbox_tree_rtl_t *r, const sbox_in_t in[2], sbox_out_t out[2])
{
    (void)r;
    (void)in;
    memset(out, 0, 2 * sizeof *out);
}
int sbox_tree_rtl_stopped(const sbox_tree_rtl_t *r) { return r != NULL; }
int sbox_tree_rtl_trace_open(sbox_tree_rtl_t *r, const char *path, uint64_t cycle)
{
    (void)r;
    (void)path;
    (void)cycle;
    return -1;
}

int sbox_tree_rtl_trace_close(sbox_tree_rtl_t *r, uint64_t range[2])
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
    int any = sbox_tree_rtl_trace_close(b->br, range);
    bench_waves_print(stdout, indent, b->o.waves.vcd, any, range, b->o.waves.start);
}

/* after a failure line: the FAIL and replay lines, the waves of this run (--vcd) or of a re-run up to
 * the failure (--vcd-on-fail); then exit 1 */
static void fail_exit(const bench_t *b)
{
    static const char *const span[] = {"none", "A", "B", "both"};
    char params[200] = "";
    if (!HAVE_RTL) /* the model-only build takes the parameters from the command line */
        snprintf(params, sizeof params, " --PORTS %u --NODES %u --LINK_W %u --FIFO_BYTES %u --TURN %u --TIMEOUT %u --CTR_W %u --UP %u",
                 b->P, b->p.NODES, b->p.LINK_W, b->p.FIFO_BYTES, b->p.TURN, b->p.TIMEOUT, b->p.CTR_W, b->up);
    printf("FAIL %s variant %s seed %" PRIu64 " cycle %" PRIu64 " (mode %s)\n     replay: %s --seed %" PRIu64
           " --cycles %" PRIu64 " --mode %s%s%s%s --link-delay %u --tree-delay %u --span %s --ctl-faults %u --corrupt %u%s\n",
           prog, sbox_tree_rtl_variant(), b->o.seed, b->cycle, bench_mode_name(b->o.mode), b->argv[0], b->o.seed,
           b->o.cycles, bench_mode_name(b->o.mode), params, b->table_arg ? " --table " : "", b->table_arg ? b->table_arg : "",
           b->link_delay, b->tree_delay, span[b->span & 3u], b->ctl_rate, b->corrupt_pm, b->cli.plusline);
    waves_done(b, "     ");
    sbn_fail_rerun(prog, &b->o, b->argc, b->argv, b->cycle);
    fflush(stdout);
    exit(1);
}

static void mismatch(const bench_t *b, unsigned j, const char *port, const char *sig, uint64_t exp, uint64_t act)
{
    printf("LOCKSTEP MISMATCH cycle=%" PRIu64 " box=%c port=%s signal=%s expected=0x%" PRIx64 " actual=0x%" PRIx64
           " seed=%" PRIu64 "\n",
           b->cycle, box_name[j], port, sig, exp, act, b->o.seed);
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

static void sb_fail(const bench_t *b, unsigned n, unsigned ch, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void sb_fail(const bench_t *b, unsigned n, unsigned ch, const char *fmt, ...)
{
    char m[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    printf("SCOREBOARD cycle=%" PRIu64 " node=%u (box %c port %d) ch=%u %s seed=%" PRIu64 "\n", b->cycle, n,
           b->node_box[n] >= 0 ? box_name[b->node_box[n]] : '?', b->node_port[n], ch, m, b->o.seed);
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
    for (unsigned j = 0; j < NB; j++) {
        const sbox_out_t *e = &b->om[j], *a = &b->orr[j];
        for (unsigned p = 0; p < b->P; p++) {
            snprintf(pn, sizeof pn, "%u", p);
            if (e->tx_en[p] != a->tx_en[p])
                mismatch(b, j, pn, "tx_en", e->tx_en[p], a->tx_en[p]);
            if (e->tx_d[p] != a->tx_d[p])
                mismatch(b, j, pn, "tx_d", e->tx_d[p], a->tx_d[p]);
        }
        if (e->reg_rvalid != a->reg_rvalid)
            mismatch(b, j, "reg", "reg_rvalid", e->reg_rvalid, a->reg_rvalid);
        if (e->reg_rdata != a->reg_rdata)
            mismatch(b, j, "reg", "reg_rdata", e->reg_rdata, a->reg_rdata);
    }
}

/* ------------------------------------------------------------------ the tables and port sets */

static unsigned lport(const bench_t *b, unsigned j) { return j ? b->up : b->al; } /* box j's port to the other box */

/* E(m) of box j: the ports of the node set `mask` (docs/sbox.md rule 5) */
static unsigned mask_ports(const bench_t *b, unsigned j, unsigned mask)
{
    unsigned s = 0;
    for (unsigned i = 0; i < b->p.NODES && i < NNODE; i++)
        if ((mask >> i) & 1u && b->tport[j][i] >= 0)
            s |= 1u << b->tport[j][i];
    return s;
}

/* the port set in box j of a data message arriving on port a (docs/sbox.md, Messages and
 * destinations: 1. a multicast that needs the up port and did not come from it goes up alone, from a
 * node port with its sender's bit cleared in *mask; 2. a unicast, or a message from the up port or a
 * node port, never goes back; 3. a multicast from a box port turns there). Only B has an up port. */
static unsigned port_set(const bench_t *b, unsigned j, unsigned a, unsigned dst, unsigned *mask)
{
    unsigned up = j ? 1u << b->up : 0u, behind = 0, E = 0;
    for (unsigned i = 0; i < b->p.NODES && i < NNODE; i++)
        if (b->tport[j][i] == (int)a)
            behind |= 1u << i;
    int node_port = sbn_popc(behind) <= 1;
    if (dst < b->p.NODES && dst < NNODE)
        E = b->tport[j][dst] >= 0 ? 1u << b->tport[j][dst] : 0u;
    else if (dst == MLC_DST_MULTI)
        E = mask_ports(b, j, *mask);
    if (dst == MLC_DST_MULTI && (E & up) && !((up >> a) & 1u)) {
        if (node_port)
            *mask &= ~behind;
        return up;
    }
    if (dst != MLC_DST_MULTI || ((up >> a) & 1u) || node_port)
        return E & ~(1u << a);
    return E;
}

/* the nodes a data message from node s reaches through the tree (the box s hangs on, then the other
 * while the port set holds the link: B up to A, A back down to B), *mask the MASK it arrives with;
 * with ctr, the boxes' counters it moves: err_msg (bad_pc) in every box it enters, msgs, mcast, words
 * there, or drop_route */
static unsigned route(bench_t *b, unsigned s, unsigned dst, unsigned *mask, unsigned units, int bad_pc, int ctr,
                      int *crossed)
{
    unsigned j = (unsigned)b->node_box[s], a = (unsigned)b->node_port[s], got = 0;
    *crossed = 0;
    for (unsigned hop = 0; hop < 3; hop++) { /* B, A, B at most: a message from the up port goes down only */
        unsigned set = port_set(b, j, a, dst, mask);
        if (ctr) {
            if (bad_pc)
                b->e_ctr[j][SBOX_CTR_ERR_MSG]++;
            if (!set) {
                b->e_ctr[j][SBOX_CTR_DROP_ROUTE]++;
            } else {
                b->e_ctr[j][SBOX_CTR_MSGS]++;
                if (sbn_popc(set) >= 2)
                    b->e_ctr[j][SBOX_CTR_MCAST]++;
                b->e_ctr[j][SBOX_CTR_WORDS] += 8u * units;
            }
        }
        int next = 0;
        for (unsigned q = 0; q < b->P; q++)
            if ((set >> q) & 1u) {
                if (q == lport(b, j))
                    next = 1;
                else if (b->port_node[j][q] >= 0)
                    got |= 1u << b->port_node[j][q];
            }
        if (!next)
            break;
        *crossed = 1;
        a = lport(b, 1 - j);
        j = 1 - j;
    }
    return got;
}

/* the route by which a data message from node s reaches node d: 1 when it went up alone from B and
 * turned at A back into its sender's box (docs/sbox.md, Messages: a later message of s to d by
 * the direct route may arrive first), else 0. The same from the header sent and from the one received
 * (clearing the sender's bit changes no member outside B). */
static unsigned sb_route(const bench_t *b, unsigned s, unsigned d, unsigned dst, unsigned mask)
{
    return dst == MLC_DST_MULTI && b->node_box[s] == 1 && b->node_box[d] == 1 &&
           ((mask_ports(b, 1, mask) >> b->up) & 1u);
}

/* ------------------------------------------------------------------ stimulus */

static uint64_t ctr_mask(const bench_t *b) { return b->p.CTR_W >= 64 ? ~0ull : (1ull << b->p.CTR_W) - 1u; }

static unsigned node_count(const bench_t *b) { return sbn_popc(b->nodes); }

/* the k-th existing node (k < node_count) */
static unsigned nth_node(const bench_t *b, unsigned k)
{
    for (unsigned n = 0; n < NNODE; n++)
        if ((b->nodes >> n) & 1u && k-- == 0)
            return n;
    return 0;
}

static unsigned random_node(bench_t *b) { return nth_node(b, rng_below(&b->rng, node_count(b))); }

/* a random node on box j (or any node if it has none) */
static unsigned random_node_on(bench_t *b, unsigned j)
{
    for (unsigned t = 0; t < 64; t++) {
        unsigned n = random_node(b);
        if ((unsigned)b->node_box[n] == j)
            return n;
    }
    return random_node(b);
}

/* queues message m on node s's channel c and what the tree must do with it */
static void send_msg(bench_t *b, unsigned s, unsigned c, mlc_msg_t *m, int bad_pc)
{
    uint64_t at = b->wr_words[s][c] + mlc_host_tx_pending(b->host[s], c) + 8; /* its word 8 */
    if (mlc_host_send(b->host[s], c, m) != 0)
        oom();
    if (bad_pc) {
        /* a 2-unit Type1 message whose PC the bench turns into 0 or 1 on its way into the node's MLC:
         * the MLCs and both boxes take it as 2 (the same message arrives); err_msg in every box it enters */
        if (ring_push(&b->pcbad[s][c], &at))
            oom();
        b->bad_pc++;
    }
    int crossed;
    unsigned mask = m->mask;
    unsigned got = route(b, s, m->dst, &mask, mlc_msg_units(m), bad_pc, 1, &crossed);
    if (!got)
        b->dropped_sent++;
    if (sbn_popc(got) >= 2)
        b->mcast_sent++;
    b->cross_sent += (uint64_t)crossed;
    for (unsigned d = 0; d < NNODE; d++)
        if ((got >> d) & 1u) {
            mlc_msg_t cp;
            if (sbn_msg_copy(&cp, m))
                oom();
            cp.mask = mask; /* its sender's bit cleared if it went up alone */
            if (ring_push(&b->exp[s][c][d][sb_route(b, s, d, m->dst, mask)], &cp))
                oom();
        }
    b->sent++;
}

/* a random data message from node s on channel c: unicast within its box or across the tree,
 * multicast to sets on one box or spanning both, unrouted */
static void new_message(bench_t *b, unsigned s, unsigned c)
{
    mlc_msg_t m;
    memset(&m, 0, sizeof m);
    m.type = rng_pct(&b->rng, 35) ? 0u : 1u;
    m.kind = rng_below(&b->rng, 128);
    unsigned r = rng_below(&b->rng, 100);
    if (r < b->mcast_pct) { /* multicast */
        unsigned k = rng_below(&b->rng, 5);
        m.dst = MLC_DST_MULTI;
        if (k == 0)
            m.mask = 0xFFFFu;
        else if (k == 1) { /* one node on each box (one draw after the other: a fixed order of the draws) */
            m.mask = 1u << random_node_on(b, 0);
            m.mask |= 1u << random_node_on(b, 1);
        }
        else if (k == 2) /* nodes of one box, below */
            m.mask = 0;
        else
            m.mask = rng_below(&b->rng, 65536);
        if (k == 2) {
            unsigned j = rng_below(&b->rng, NB);
            for (unsigned n = 0; n < NNODE; n++)
                if ((b->nodes >> n) & 1u && (unsigned)b->node_box[n] == j && rng_pct(&b->rng, 60))
                    m.mask |= 1u << n;
        }
        unsigned j = (unsigned)b->node_box[s], mine = 0;
        for (unsigned n = 0; n < NNODE; n++)
            if ((b->nodes >> n) & 1u && (unsigned)b->node_box[n] == j)
                mine |= 1u << n;
        if (!((b->span >> j) & 1u) && (m.mask & mine & ~(1u << s)) && (m.mask & b->nodes & ~mine)) {
            /* this box's nodes send no multicast to both boxes (--span): its own box's or the other's */
            m.mask &= rng_pct(&b->rng, 50) ? mine : ~mine;
        }
    } else if (r < b->mcast_pct + 8) { /* unrouted: beyond NODES, an invalid entry, or the sender itself */
        unsigned k = rng_below(&b->rng, 3);
        if (k == 0 && b->p.NODES < 255)
            m.dst = b->p.NODES + rng_below(&b->rng, 255 - b->p.NODES);
        else if (k == 1)
            m.dst = s;
        else
            m.dst = rng_below(&b->rng, b->p.NODES);
    } else { /* a node: across the tree in span_pct of the cases */
        unsigned j = (unsigned)b->node_box[s];
        m.dst = random_node_on(b, rng_pct(&b->rng, b->span_pct) ? 1 - j : j);
        if (m.dst == s)
            m.dst = random_node(b);
    }
    int bad_pc = sbn_msg_finish(&b->rng, &m, s, b->p.FIFO_BYTES, b->msgmode);
    if (bad_pc < 0)
        oom();
    send_msg(b, s, c, &m, bad_pc);
    free(m.data);
}

static uint64_t queue_request(bench_t *b, unsigned n, unsigned c, unsigned mask, uint32_t epoch)
{
    if (mlc_host_barrier(b->host[n], c, n, mask, epoch) != 0)
        oom();
    return b->wr_words[n][c] + mlc_host_tx_pending(b->host[n], c);
}

/* barriers: start one now and then per channel (members on both boxes in span_pct... of the cases),
 * members queue their requests late */
static void barrier_stimulus(bench_t *b, int draining)
{
    for (unsigned c = 0; c < NCH; c++) {
        bar_t *x = &b->bar[c];
        if (!x->active && !draining && rng_below(&b->rng, 1000) == 0) {
            unsigned mask = 0;
            unsigned k = rng_below(&b->rng, 5);
            if (k == 0)
                mask = 0xFFFFu;
            else if (k == 1 || k == 2) { /* spanning: a random set with at least one node on each box */
                mask = rng_below(&b->rng, 65536);
                mask |= 1u << random_node_on(b, 0);
                mask |= 1u << random_node_on(b, 1);
            } else if (k == 3) { /* one box's nodes */
                unsigned j = rng_below(&b->rng, NB);
                for (unsigned n = 0; n < NNODE; n++)
                    if ((b->nodes >> n) & 1u && (unsigned)b->node_box[n] == j && rng_pct(&b->rng, 70))
                        mask |= 1u << n;
            } else {
                mask = rng_below(&b->rng, 65536);
            }
            unsigned members = mask & b->nodes;
            if (!members)
                continue;
            memset(x, 0, sizeof *x);
            x->active = 1;
            x->mask = mask;
            x->members = members;
            x->start = b->cycle;
            int together = rng_pct(&b->rng, 20);
            for (unsigned n = 0; n < NNODE; n++)
                x->send_at[n] = b->cycle + (together ? 0 : rng_below(&b->rng, 3000));
        }
        if (!x->active)
            continue;
        for (unsigned n = 0; n < NNODE; n++)
            if ((x->members >> n) & 1u && !x->queued[n] && b->cycle >= x->send_at[n]) {
                x->target[n] = queue_request(b, n, c, x->mask, (uint32_t)b->barriers);
                x->queued[n] = 1;
            }
    }
    /* a request from a node that is not a member: rejected (err_bar) by its box, nothing else changes */
    if (!draining && rng_below(&b->rng, 3000) == 0) {
        unsigned n = random_node(b), c = rng_below(&b->rng, NCH);
        unsigned mask = rng_below(&b->rng, 65536) & ~(1u << n);
        queue_request(b, n, c, mask, 0xBADu);
        b->e_ctr[b->node_box[n]][SBOX_CTR_ERR_BAR]++;
        b->bad_bar++;
    }
}

/* a barrier's counts in both boxes once it is over (docs/sbox.md rule 5, counters) */
static void barrier_counts(bench_t *b, unsigned mask)
{
    unsigned ea = mask_ports(b, 0, mask), eb = mask_ports(b, 1, mask);
    unsigned eb1 = eb & ~(1u << b->up);
    if (eb1 && (eb >> b->up) & 1u) {
        /* members on both boxes: B takes its members' requests and sends one up (a made unit); A takes
         * its members' and B's, completes and releases (a made unit) to E'(m) (AL among them); B
         * forwards the release to its member ports (a message from a port: msgs) */
        b->e_ctr[1][SBOX_CTR_BAR_REQ] += sbn_popc(eb1);
        b->e_ctr[1][SBOX_CTR_BAR_DONE]++;
        b->e_ctr[1][SBOX_CTR_WORDS] += 8;
        b->e_ctr[0][SBOX_CTR_BAR_REQ] += sbn_popc(ea);
        b->e_ctr[0][SBOX_CTR_BAR_DONE]++;
        b->e_ctr[0][SBOX_CTR_WORDS] += 8;
        b->e_ctr[1][SBOX_CTR_MSGS]++;
        if (sbn_popc(eb1) >= 2)
            b->e_ctr[1][SBOX_CTR_MCAST]++;
        b->e_ctr[1][SBOX_CTR_WORDS] += 8;
        b->span_barriers++;
    } else {
        unsigned j = eb1 ? 1 : 0, e = eb1 ? eb1 : ea;
        b->e_ctr[j][SBOX_CTR_BAR_REQ] += sbn_popc(e);
        b->e_ctr[j][SBOX_CTR_BAR_DONE]++;
        b->e_ctr[j][SBOX_CTR_WORDS] += 8;
    }
}

/* a register request of the random phase: reads of any address, now and then a write the box ignores */
static void reg_stimulus(bench_t *b, sbox_in_t *in)
{
    if (rng_pct(&b->rng, 3)) {
        unsigned k = rng_below(&b->rng, 5), mp = rng_below(&b->rng, 8);
        in->reg_rd = 1;
        in->reg_addr = (uint16_t)(k == 0   ? rng_below(&b->rng, 512)
                                  : k == 1 ? SBOX_REG_MLC(mp, rng_below(&b->rng, 32))
                                  : k == 2 ? SBOX_REG_CTR(rng_below(&b->rng, 8))
                                  : k == 3 ? SBOX_REG_TABLE(rng_below(&b->rng, 16))
                                           : 0x110u + rng_below(&b->rng, 3));
    } else if (rng_below(&b->rng, 1000) < 2) {
        static const uint16_t ignored[] = {0x100, 0x105, 0x108, 0x111, 0x112, 0x113, 0x130, 0x1FF};
        in->reg_wr = 1;
        in->reg_addr = ignored[rng_below(&b->rng, 8)];
        in->reg_wdata = (uint16_t)rng_below(&b->rng, 65536);
    }
}

/* what a read of addr of box j must return when that is known exactly (1), else 0 */
static int reg_exact(const bench_t *b, unsigned j, unsigned addr, uint32_t *v)
{
    if (addr < 0x100) {
        unsigned p = addr >> 5, a = addr & 31u;
        *v = ERRV;
        if (p >= b->P || a >= 21)
            return 1;
        *v = b->bcfg[j][p];
        return a == MLC_REG_CFG;
    }
    if (addr <= 0x107 || addr == 0x111 || addr == 0x112)
        return 0;
    if (addr == SBOX_REG_UP) {
        *v = b->upw[j] & 0x17u;
        return 1;
    }
    if (addr >= 0x120 && addr <= 0x12F) {
        unsigned d = addr - 0x120;
        *v = d < b->p.NODES ? (uint32_t)(b->twdata[j][d] & 0x17u) : ERRV;
        return 1;
    }
    *v = ERRV;
    return 1;
}

/* the read of the previous step is answered after this one, and nothing else */
static void reg_check(bench_t *b, unsigned j)
{
    const sbox_out_t *o = &b->prim[j];
    if (!b->rd_prev[j]) {
        if (o->reg_rvalid || o->reg_rdata)
            check_fail(b, "box %c register port: reg_rvalid=%u reg_rdata=0x%x without a read in the step before",
                       box_name[j], o->reg_rvalid, o->reg_rdata);
        return;
    }
    if (!o->reg_rvalid)
        check_fail(b, "box %c register port: the read of 0x%03x in step %" PRIu64 " is not answered after step %" PRIu64,
                   box_name[j], b->rd_prev_addr[j], b->cycle - 1, b->cycle);
    uint32_t v;
    if (reg_exact(b, j, b->rd_prev_addr[j], &v) && o->reg_rdata != v)
        check_fail(b, "box %c register port: read of 0x%03x returned 0x%x, expected 0x%x", box_name[j],
                   b->rd_prev_addr[j], o->reg_rdata, v);
    b->regreads++;
    if (b->phase == 3 && b->final_got[j] < b->nfinal && b->final_addr[b->final_got[j]] == b->rd_prev_addr[j])
        b->final_val[j][b->final_got[j]++] = o->reg_rdata;
}

/* ------------------------------------------------------------------ faults */

/* corrupt symbols and CTL faults on the link input (en, d) of end e of link l */
static void fault(bench_t *b, unsigned l, unsigned e, uint8_t *en, uint8_t *d)
{
    if (sbn_fault(&b->frng, b->corrupt_pm, b->ctl_rate, b->p.LINK_W, &b->prev_en[l][e], &b->erasing[l][e], en, d,
                  &b->corrupted))
        b->ctl_faults++;
}

/* ------------------------------------------------------------------ receiving */

static void got_release(bench_t *b, unsigned n, unsigned c, const mlc_msg_t *m)
{
    bar_t *x = &b->bar[c];
    if (!x->active)
        sb_fail(b, n, c, "a barrier release arrived with no barrier in progress on the channel");
    if (!((x->members >> n) & 1u))
        sb_fail(b, n, c, "a barrier release arrived at a node that is not a member (members 0x%04x)", x->members);
    if (x->released[n])
        sb_fail(b, n, c, "a second release for one barrier (mask 0x%04x)", x->mask);
    if (m->mask != x->mask)
        sb_fail(b, n, c, "release with MASK 0x%04x, the barrier's is 0x%04x", m->mask, x->mask);
    for (unsigned i = 0; i < m->len; i++)
        if (m->data[i])
            sb_fail(b, n, c, "release data byte %u is 0x%02x, a made unit's words 2..7 are 0x00FF, 0...", i + 1,
                    m->data[i]);
    for (unsigned k = 0; k < NNODE; k++)
        if ((x->members >> k) & 1u && !x->written_at[k])
            sb_fail(b, n, c, "release (mask 0x%04x) before member node %u's request (box %c port %d) was written by its host",
                    x->mask, k, box_name[b->node_box[k]], b->node_port[k]);
    x->released[n] = 1;
    b->releases++;
    for (unsigned k = 0; k < NNODE; k++)
        if ((x->members >> k) & 1u && !x->released[k])
            return;
    barrier_counts(b, x->mask);
    sbn_bar_wait(&b->bar_wait_max, b->cycle, x->written_at, NNODE, x->members);
    b->barriers++;
    x->active = 0;
}

static void receive(bench_t *b, unsigned n)
{
    for (unsigned c = 0; c < NCH; c++) {
        mlc_msg_t m;
        while (mlc_host_recv(b->host[n], c, &m)) {
            if (m.type == 0 && m.dst == MLC_DST_MULTI && m.kind == MLC_KIND_RELEASE && m.src == 255) {
                got_release(b, n, c, &m);
                mlc_msg_free(&m);
                continue;
            }
            if (m.type == 0 && m.dst == MLC_DST_MULTI && m.kind == MLC_KIND_BARRIER)
                sb_fail(b, n, c, "a barrier request (from %u) was forwarded", m.src);
            if (m.src >= NNODE || !((b->nodes >> m.src) & 1u))
                sb_fail(b, n, c, "a message from node %u arrived, no such node", m.src);
            if (m.src == n)
                sb_fail(b, n, c, "a message came back to its sender (dst %u mask 0x%04x)", m.dst, m.mask);
            unsigned k = sb_route(b, m.src, n, m.dst, m.mask);
            mlc_msg_t *e = ring_front(&b->exp[m.src][c][n][k]);
            if (!e)
                sb_fail(b, n, c, "a message from node %u (type %u kind %u dst %u mask 0x%04x len %u) arrived that was "
                                 "not sent to this node (or twice)",
                        m.src, m.type, m.kind, m.dst, m.mask, m.len);
            if (!mlc_msg_eq(&m, e))
                sb_fail(b, n, c,
                        "a message from node %u differs from the next one it sent here (type %u/%u kind %u/%u dst "
                        "%u/%u mask 0x%04x/0x%04x len %u/%u; got/expected)",
                        m.src, m.type, e->type, m.kind, e->kind, m.dst, e->dst, m.mask, e->mask, m.len, e->len);
            b->bytes += m.len;
            b->recvd++;
            mlc_msg_free(&m);
            mlc_msg_t d;
            ring_pop(&b->exp[m.src][c][n][k], &d);
            free(d.data);
        }
    }
}

/* ------------------------------------------------------------------ one step */

static void step(bench_t *b)
{
    mlc_in_t nin[NNODE];
    sbox_in_t in[NB];
    memcpy(in, b->bnext, sizeof in);
    b->cycle++;
    if (b->o.waves.vcd && b->br) {
        int wa = bench_waves_at(&b->o.waves, b->cycle, 1);
        if (wa > 0 && sbox_tree_rtl_trace_open(b->br, b->o.waves.vcd, b->cycle) != 0) {
            fprintf(stderr, "%s: cannot write %s\n", prog, b->o.waves.vcd);
            exit(1);
        }
        if (wa < 0)
            sbox_tree_rtl_trace_close(b->br, NULL);
    }
    int traffic = b->phase == 1, draining = b->phase >= 2;
    if (traffic && b->cycle % 10000 == 0) {
        /* a new load epoch: heavy, moderate, light, or a lull in which the backlog drains */
        static const unsigned loads[] = {60, 20, 10, 5, 5, 2, 0, 0};
        for (unsigned c = 0; c < NCH; c++)
            b->load_pm[c] = loads[rng_below(&b->rng, 8)];
        b->mcast_pct = rng_below(&b->rng, 4) == 0 ? 40 : rng_below(&b->rng, 16);
        b->span_pct = rng_below(&b->rng, 101);
        b->hold_kind = rng_below(&b->rng, 3);
        b->hold_node = random_node(b);
    }
    /* ---- the nodes' host side */
    if (traffic || draining)
        barrier_stimulus(b, draining);
    for (unsigned n = 0; n < NNODE; n++) {
        if (!((b->nodes >> n) & 1u))
            continue;
        nin[n] = b->nin[n];
        mlc_in_t h;
        memset(&h, 0, sizeof h);
        if (traffic)
            for (unsigned c = 0; c < NCH; c++)
                if (mlc_host_tx_pending(b->host[n], c) < 64 && rng_below(&b->rng, 10000) < b->load_pm[c] &&
                    !(b->bar[c].active && b->bar[c].queued[n] && !b->bar[c].released[n])) /* waits in a barrier */
                    new_message(b, n, c);
        /* stalled readers: one node for the first 2000 steps of the epoch, or bursts of 400 steps */
        sbn_node_host(&b->rng, b->host[n], &b->nout[n], &nin[n], &h, traffic, b->hold_kind, b->hold_node, n, b->cycle);
        if (b->cycle == 1) { /* the node MLC's configuration */
            sbn_node_cfg(&nin[n], b->ncfg[n]);
        }
        if (h.h_wr) {
            sbn_node_word(&b->rng, &nin[n], &h, b->pcbad[n], b->wr_words[n]);
            bar_t *x = &b->bar[h.h_wch];
            if (x->active && x->queued[n] && !x->written_at[n] && b->wr_words[n][h.h_wch] >= x->target[n])
                x->written_at[n] = b->cycle;
        }
        if (traffic) { /* faults on both directions of node n's link */
            unsigned j = (unsigned)b->node_box[n], q = (unsigned)b->node_port[n];
            fault(b, n, 0, &in[j].rx_en[q], &in[j].rx_d[q]);
            fault(b, n, 1, &nin[n].rx_en, &nin[n].rx_d);
        }
    }
    if (traffic) { /* and on both directions of the link between the boxes */
        fault(b, TLINK, 0, &in[0].rx_en[b->al], &in[0].rx_d[b->al]);
        fault(b, TLINK, 1, &in[1].rx_en[b->up], &in[1].rx_d[b->up]);
    }
    /* ---- the boxes' register ports */
    for (unsigned j = 0; j < NB; j++) {
        sbox_in_t *x = &in[j];
        x->reg_rd = x->reg_wr = 0;
        x->reg_addr = x->reg_wdata = 0;
        if (b->phase == 0) {
            /* the table, the box MLCs' configurations, the up port */
            uint64_t k = b->cycle - 1;
            if (k < b->p.NODES) {
                x->reg_wr = 1;
                x->reg_addr = SBOX_REG_TABLE(k);
                x->reg_wdata = b->twdata[j][k];
            } else if (k < b->p.NODES + b->P) {
                unsigned p = (unsigned)(k - b->p.NODES);
                x->reg_wr = 1;
                x->reg_addr = SBOX_REG_MLC(p, MLC_REG_CFG);
                x->reg_wdata = (uint16_t)(b->bcfg[j][p] | (rng_below(&b->rng, 8192) << 3)); /* upper bits ignored */
            } else if (k == b->p.NODES + b->P) {
                x->reg_wr = 1;
                x->reg_addr = SBOX_REG_UP;
                x->reg_wdata = b->upw[j];
            } else if (k == b->p.NODES + b->P + 1) { /* read back the up port */
                x->reg_rd = 1;
                x->reg_addr = SBOX_REG_UP;
            }
        } else if (b->phase == 1 || b->phase == 2) {
            reg_stimulus(b, x);
        } else if (b->phase == 3 && b->final_reads < b->nfinal) {
            x->reg_rd = 1;
            x->reg_addr = b->final_addr[b->final_reads];
        }
    }
    if (b->phase == 3 && b->final_reads < b->nfinal)
        b->final_reads++;
    /* ---- the boxes: models and RTL */
    if (b->o.mode != MODE_RTL)
        for (unsigned j = 0; j < NB; j++)
            sbox_step(b->bm[j], &in[j], &b->om[j]);
    if (b->o.mode != MODE_MODEL) {
        sbox_tree_rtl_step(b->br, in, b->orr);
        if (sbox_tree_rtl_stopped(b->br))
            check_fail(b, "the RTL stopped itself (assertion)");
    }
    if (b->o.mode == MODE_LOCKSTEP)
        compare(b);
    memcpy(b->prim, b->o.mode == MODE_MODEL ? b->om : b->orr, sizeof b->prim);
    /* ---- the nodes */
    for (unsigned n = 0; n < NNODE; n++)
        if ((b->nodes >> n) & 1u) {
            mlc_step(b->node[n], &nin[n], &b->nout[n]);
            mlc_host_collect(b->host[n], &b->nout[n]);
        }
    /* ---- the links: box port (end A) and node (end B); A's port AL (end A) and B's up port (end B) */
    for (unsigned l = 0; l < NLINK; l++) {
        unsigned ja, qa;
        mlc_out_t oa, ob;
        mlc_in_t ia, ib;
        memset(&oa, 0, sizeof oa);
        if (l == TLINK) {
            ja = 0;
            qa = b->al;
            memset(&ob, 0, sizeof ob);
            ob.tx_en = b->prim[1].tx_en[b->up];
            ob.tx_d = b->prim[1].tx_d[b->up];
        } else if ((b->nodes >> l) & 1u) {
            ja = (unsigned)b->node_box[l];
            qa = (unsigned)b->node_port[l];
            ob = b->nout[l];
        } else {
            continue;
        }
        oa.tx_en = b->prim[ja].tx_en[qa];
        oa.tx_d = b->prim[ja].tx_d[qa];
        mlc_link_step(b->link[l], &oa, &ob, &ia, &ib);
        b->bnext[ja].rx_en[qa] = ia.rx_en;
        b->bnext[ja].rx_d[qa] = ia.rx_d;
        if (l == TLINK) {
            b->bnext[1].rx_en[b->up] = ib.rx_en;
            b->bnext[1].rx_d[b->up] = ib.rx_d;
        } else {
            b->nin[l].rx_en = ib.rx_en;
            b->nin[l].rx_d = ib.rx_d;
        }
    }
    /* ---- checks */
    for (unsigned j = 0; j < NB; j++) {
        reg_check(b, j);
        b->rd_prev[j] = in[j].reg_rd;
        b->rd_prev_addr[j] = in[j].reg_addr;
    }
    for (unsigned n = 0; n < NNODE; n++)
        if ((b->nodes >> n) & 1u)
            receive(b, n);
}

/* ------------------------------------------------------------------ the tree from the tables */

/* where every node hangs, A's port to B; 0, or -1 with a message in err */
static int place_nodes(bench_t *b, char *err, size_t n)
{
    for (unsigned d = 0; d < NNODE; d++)
        b->node_box[d] = b->node_port[d] = -1;
    for (unsigned j = 0; j < NB; j++)
        for (unsigned q = 0; q < NPMAX; q++)
            b->port_node[j][q] = -1;
    b->nodes = 0;
    int al = -1;
    for (unsigned d = 0; d < b->p.NODES && d < NNODE; d++) {
        int ta = b->tport[0][d], tb = b->tport[1][d];
        if (ta < 0 && tb < 0)
            continue; /* no such node: unrouted in both boxes */
        if (ta < 0 || tb < 0) {
            snprintf(err, n, "node %u has an entry in box %c only (a tree needs both: the node's port, and the link)", d,
                     ta < 0 ? 'B' : 'A');
            return -1;
        }
        if (tb != (int)b->up) { /* on B: A's entry is the link */
            if (al >= 0 && ta != al) {
                snprintf(err, n, "node %u is on B (port %d) but A routes it to port %d, other nodes of B to port %d", d,
                         tb, ta, al);
                return -1;
            }
            al = ta;
            b->node_box[d] = 1;
            b->node_port[d] = tb;
        } else {
            b->node_box[d] = 0;
            b->node_port[d] = ta;
        }
    }
    if (al < 0) {
        snprintf(err, n, "no node is on B (every entry of B leads to its up port %u)", b->up);
        return -1;
    }
    b->al = (unsigned)al;
    b->port_node[0][b->al] = b->port_node[1][b->up] = -2;
    for (unsigned d = 0; d < NNODE; d++) {
        if (b->node_box[d] < 0)
            continue;
        unsigned j = (unsigned)b->node_box[d], q = (unsigned)b->node_port[d];
        if (j == 0 && q == b->al) {
            snprintf(err, n, "node %u: box A routes it to port %u, which leads to B, and B to its up port", d, q);
            return -1;
        }
        if (b->port_node[j][q] != -1) {
            snprintf(err, n, "nodes %d and %u on one port (box %c port %u): one node a port", b->port_node[j][q], d,
                     box_name[j], q);
            return -1;
        }
        b->port_node[j][q] = (int)d;
        b->nodes |= 1u << d;
    }
    if (!b->nodes || sbn_popc(b->nodes) < 2) {
        snprintf(err, n, "fewer than two nodes");
        return -1;
    }
    return 0;
}

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
            "  (the wave options are listed last; cycles are the bench's steps, 1 = the first edge after\n"
            "  reset; save file tb/sbox/sbox_tree.gtkw: gtkwave FILE tb/sbox/sbox_tree.gtkw)\n"
            "Parameters are fixed by the build (variant %s, B's up port %u; the model-only build takes --PORTS N,\n"
            "--NODES N, --LINK_W N, --FIFO_BYTES N, --TURN N, --TIMEOUT N, --CTR_W N, --UP N). Exit status 0 pass,\n"
            "1 failed, 2 usage.\n",
            prog, sbox_tree_rtl_variant(), sbox_tree_rtl_up());
    bench_waves_usage(f, "  ");
}

static int num_opt(const char *name, const char *v, unsigned max, unsigned *out)
{
    return sbn_num_opt(prog, name, v, max, out);
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
        fprintf(stderr, "%s: --span wants both, A, B or none, got '%s'\n", prog, v);
        return 2;
    }
    return -1;
}
static int opt_corrupt(void *ctx, const char *v) { return num_opt("--corrupt", v, 1000, &((bench_t *)ctx)->corrupt_pm); }
#ifdef ST_NO_RTL
static int opt_up(void *ctx, const char *v)
{
    (void)ctx;
    return num_opt("--UP", v, NPMAX - 1, &cli_up);
}
#endif

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
    if (bench_cli_init(&b.cli, &b.o, HAVE_RTL, argc))
        oom();
    const bench_opt_t own[] = {
        {"--table", BENCH_OPT_STR, NULL, opt_table, &b},       {"--link-delay", BENCH_OPT_STR, NULL, opt_ld, &b},
        {"--tree-delay", BENCH_OPT_STR, NULL, opt_td, &b},     {"--ctl-faults", BENCH_OPT_STR, NULL, opt_ctl, &b},
        {"--corrupt", BENCH_OPT_STR, NULL, opt_corrupt, &b},     {"--span", BENCH_OPT_STR, NULL, opt_span, &b},   
#ifdef ST_NO_RTL
        {"--UP", BENCH_OPT_STR, NULL, opt_up, &b},
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
    b.up = sbox_tree_rtl_up();
    if (b.up >= b.P) {
        fprintf(stderr, "%s: B's up port %u is not below PORTS %u\n", prog, b.up, b.P);
        return 2;
    }
    if (!b.ld_given)
        b.link_delay = b.p.LINK_DELAY;
    if (!b.td_given)
        b.tree_delay = b.link_delay;
#ifdef ST_NO_RTL
    b.p.LINK_DELAY = b.link_delay < b.tree_delay ? b.link_delay : b.tree_delay; /* the slave MLCs' guard follows the links */
#else
    if (b.link_delay < b.p.LINK_DELAY || b.tree_delay < b.p.LINK_DELAY) { /* the RTL's guard would cut every reply */
        fprintf(stderr, "%s: --link-delay %u / --tree-delay %u below the RTL's LINK_DELAY %u (its MLCs' GUARD, docs/mlc.md)\n",
                prog, b.link_delay, b.tree_delay, b.p.LINK_DELAY);
        return 2;
    }
#endif
    b.pb = b.p;
    b.pb.MASTER_MASK = 1u << b.up;
    if (!b.ctl_given && b.p.TIMEOUT > 0)
        b.ctl_rate = 20;
    if (b.ctl_rate && b.p.TIMEOUT == 0) {
        fprintf(stderr, "%s: --ctl-faults needs TIMEOUT > 0 (a frame lost entirely stops the link)\n", prog);
        return 2;
    }
    unsigned dmax = b.link_delay > b.tree_delay ? b.link_delay : b.tree_delay;
    if (b.p.TIMEOUT && b.p.TIMEOUT <= 2 * dmax + b.p.TURN + 3) {
        fprintf(stderr, "%s: TIMEOUT %u must exceed 2*delay + TURN + 3 = %u (docs/mlc.md)\n", prog, b.p.TIMEOUT,
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
                fprintf(stderr, "%s: box %c (switch %u): %s\n", prog, box_name[j], j, err);
                return 2;
            }
            if (t.switches != NB) {
                fprintf(stderr, "%s: %s: %u switches, the tree bench needs exactly 2 (A = switch 0, B = switch 1)\n",
                        prog, b.table_arg, t.switches);
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
            fprintf(stderr, "%s: %s: %s\n", prog, b.table_arg ? b.table_arg : "default tables", err);
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
           prog, sbox_tree_rtl_variant(), b.P, b.p.NODES, b.p.LINK_W, b.p.FIFO_BYTES, b.p.TURN, b.p.TIMEOUT, b.p.CTR_W,
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
    for (uint64_t k = 0; k < b.o.cycles; k++) {
        if (b.phase == 0 && b.cycle >= settle)
            b.phase = 1;
        step(&b);
        sbn_progress(&b.o, b.cycle, b.sent, b.recvd, b.barriers);
    }
    /* drain: no new messages or barriers (those begun finish), no faults, hosts read everything */
    b.phase = 2;
    uint64_t limit = 400000 + 200u * (uint64_t)b.p.FIFO_BYTES, drain = 0;
    for (; drain < limit && !all_delivered(&b); drain++)
        step(&b);
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
        step(&b);
    b.phase = 3;
    for (unsigned k = 0; k < b.nfinal + 3; k++)
        step(&b);
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
           " CTL faults, seed=%" PRIu64 "\n",
           prog, sbox_tree_rtl_variant(), b.o.cycles, drain, b.sent, b.cross_sent, b.mcast_sent, b.dropped_sent, b.recvd,
           b.bytes, b.barriers, b.span_barriers, b.releases, b.bad_bar, b.bar_wait_max, b.bad_pc, b.regreads, b.corrupted, b.ctl_faults,
           b.o.seed);
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

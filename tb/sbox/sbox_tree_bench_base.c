/* sanfab — the switch-box tree bench (tb/sbox/sbox_tree_bench.c), its lowest layer: failures (the
 * mismatch, check and fail lines, the replay), the tables and the port sets. */
#include "sbox_tree_bench.h"

/* ------------------------------------------------------------------ failures */

/* The waves of this run (--vcd): closes the VCD and prints where it is. */
void waves_done(const bench_t *b, const char *indent)
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
    if (!sbox_tree_rtl_available()) /* the model-only build takes the parameters from the command line */
        snprintf(params, sizeof params, " --PORTS %u --NODES %u --LINK_W %u --FIFO_BYTES %u --TURN %u --TIMEOUT %u --CTR_W %u --UP %u",
                 b->P, b->p.NODES, b->p.LINK_W, b->p.FIFO_BYTES, b->p.TURN, b->p.TIMEOUT, b->p.CTR_W, b->up);
    printf("FAIL %s variant %s seed %" PRIu64 " cycle %" PRIu64 " (mode %s)\n     replay: %s --seed %" PRIu64
           " --cycles %" PRIu64 " --mode %s%s%s%s --link-delay %u --tree-delay %u --span %s --ctl-faults %u --corrupt %u%s\n",
           ST_PROG, sbox_tree_rtl_variant(), b->o.seed, b->cycle, bench_mode_name(b->o.mode), b->argv[0], b->o.seed,
           b->o.cycles, bench_mode_name(b->o.mode), params, b->table_arg ? " --table " : "", b->table_arg ? b->table_arg : "",
           b->link_delay, b->tree_delay, span[b->span & 3u], b->ctl_rate, b->corrupt_pm, b->cli.plusline);
    waves_done(b, "     ");
    sbn_fail_rerun(ST_PROG, &b->o, b->argc, b->argv, b->cycle);
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

void check_fail(const bench_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sbn_vreport("CHECK", b->cycle, b->o.seed, "", fmt, ap);
    va_end(ap);
    fail_exit(b);
}

void sb_fail(const bench_t *b, unsigned n, unsigned ch, const char *fmt, ...)
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

void oom(void)
{
    fprintf(stderr, "%s: out of memory\n", ST_PROG);
    exit(1);
}

void compare(const bench_t *b)
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
unsigned mask_ports(const bench_t *b, unsigned j, unsigned mask)
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
unsigned route(bench_t *b, unsigned s, unsigned dst, unsigned *mask, unsigned units, int bad_pc, int ctr,
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
unsigned sb_route(const bench_t *b, unsigned s, unsigned d, unsigned dst, unsigned mask)
{
    return dst == MLC_DST_MULTI && b->node_box[s] == 1 && b->node_box[d] == 1 &&
           ((mask_ports(b, 1, mask) >> b->up) & 1u);
}

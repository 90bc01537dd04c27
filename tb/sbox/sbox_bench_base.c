/* sanfab — the switch-box lockstep bench (tb/sbox/sbox_bench.c), its lowest layer: failures (the
 * mismatch, check and fail lines, the replay), the table and the port sets. */
#include "sbox_bench.h"

/* ------------------------------------------------------------------ failures */

/* The waves of this run (--vcd): closes the VCD and prints where it is. */
void waves_done(const bench_t *b, const char *indent)
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
           SB_PROG, sbox_rtl_variant(), b->o.seed, b->cycle, bench_mode_name(b->o.mode), b->argv[0], b->o.seed,
           b->o.cycles, bench_mode_name(b->o.mode), b->table_arg ? " --table " : "", b->table_arg ? b->table_arg : "",
           b->cli.plusline);
    waves_done(b, "     ");
    sbn_fail_rerun(SB_PROG, &b->o, b->argc, b->argv, b->cycle);
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

void check_fail(const bench_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sbn_vreport("CHECK", b->cycle, b->o.seed, "", fmt, ap);
    va_end(ap);
    fail_exit(b);
}

void sb_fail(const bench_t *b, unsigned port, unsigned ch, const char *fmt, ...)
{
    char m[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    printf("SCOREBOARD cycle=%" PRIu64 " port=%u ch=%u %s seed=%" PRIu64 "\n", b->cycle, port, ch, m, b->o.seed);
    fail_exit(b);
}

void oom(void)
{
    fprintf(stderr, "%s: out of memory\n", SB_PROG);
    exit(1);
}

void compare(const bench_t *b)
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
unsigned mask_ports(const bench_t *b, unsigned mask)
{
    unsigned s = 0;
    for (unsigned i = 0; i < b->p.NODES && i < NNODE; i++)
        if ((mask >> i) & 1u && b->tport[i] >= 0)
            s |= 1u << b->tport[i];
    return s;
}

/* port a is a box port: two or more nodes behind it in the table (docs/sbox.md, Messages) */
int box_port(const bench_t *b, unsigned a)
{
    unsigned n = 0;
    for (unsigned i = 0; i < b->p.NODES && i < NNODE; i++)
        n += b->tport[i] == (int)a;
    return n >= 2;
}

/* the port set of a message arriving on port a (docs/sbox.md, Messages; no up port: a unicast or
 * a message from a node port never goes back, a multicast from a box port turns and may) */
unsigned port_set(const bench_t *b, unsigned a, unsigned dst, unsigned mask)
{
    unsigned s = 0;
    if (dst < b->p.NODES && dst < NNODE)
        s = b->tport[dst] >= 0 ? 1u << b->tport[dst] : 0u;
    else if (dst == 255)
        return box_port(b, a) ? mask_ports(b, mask) : mask_ports(b, mask) & ~(1u << a);
    return s & ~(1u << a);
}

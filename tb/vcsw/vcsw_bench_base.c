/* sanfab — VC switch bench, lowest layer: the test table, the failure record, counter events (vcsw_bench_base.h). */
#define _POSIX_C_SOURCE 200809L
#include "vcsw_bench_base.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

const test_desc_t vcsw_tests[] = {
    {.name = "random",
     .what = "random tables with bad entries, rewritten now and then; uniform tags, every VC (control VCs too), "
             "1..MAXLEN flits and some longer, two sources ignoring STOP (their packets long too), so that a packet "
             "may carry several faults at once; bubbles, random tx_stop pressure, reads of every space",
     .div = 0, .tables = TB_RANDOM, .bad_pct = 10, .traffic = TR_UNIFORM, .len = LEN_MIXED, .over_pm = 40,
     .load_lo = 5, .load_hi = 100, .bubble_max = 10, .stop_duty = 50, .stop_burst = 30, .ignore = 2, .rewrite_pm = 3,
     .read_pm = 30, .checks = CK_CTRL},
    {.name = "latency",
     .what = "one packet at a time on an idle switch, every input, output and VC: head exactly 3 + LINK_DELAY "
             "steps after it is received, then one flit per step",
     .div = 20, .min_cycles = 3000, .tables = TB_CLEAN, .traffic = TR_LATENCY, .len = LEN_MIXED,
     .checks = CK_LAT_EXACT},
    {.name = "permutation",
     .what = "saturating permutation, every VC of input p to output pi(p), one stream per output VC "
             "(MAXLEN-flit packets): every output link carries a flit in >= 99 % of the steps (not held to a "
             "rate if STOP_AT < 3)",
     .div = 10, .min_cycles = 8000, .tables = TB_CLEAN, .traffic = TR_PERM, .len = LEN_MAX, .load_lo = 100,
     .load_hi = 100, .checks = CK_LINK_FULL},
    {.name = "blockvc",
     .what = "the permutation with output VC 0 of every output held stopped downstream in the middle of the run: "
             "the other VCs keep every link busy (>= 99 %; one VC left: MAXLEN/(MAXLEN+1) of it, one idle step "
             "between its packets; no rate if STOP_AT < 3)",
     .div = 10, .min_cycles = 20000, .tables = TB_CLEAN, .traffic = TR_PERM, .len = LEN_MAX, .load_lo = 100,
     .load_hi = 100, .checks = CK_LINK_FULL | CK_BLOCKVC},
    {.name = "fairness",
     .what = "one-flit packets from every source into outputs 0 and 1, at most three flits of a source in the "
             "switch, random tx_stop: every allocation checked against the separable round robin (inputs offer "
             "one VC, outputs take one input)",
     .div = 10, .min_cycles = 8000, .tables = TB_CLEAN, .traffic = TR_FAIR, .len = LEN_ONE, .load_lo = 100,
     .load_hi = 100, .stop_duty = 30, .stop_burst = 5, .checks = CK_RR_EXACT},
    {.name = "gostop",
     .what = "MAXLEN-flit packets at full load into outputs held stopped most of the time: buffers at STOP_AT, "
             "hosts starting packets at the latest moment, no flit ever cut",
     .div = 10, .min_cycles = 8000, .tables = TB_CLEAN, .traffic = TR_UNIFORM, .len = LEN_MAX, .load_lo = 100,
     .load_hi = 100, .stop_duty = 85, .stop_burst = 150, .checks = CK_STOPPED},
    {.name = "badentries",
     .what = "half the table entries invalid or out of range (ports >= NPORTS, VCs >= NDVC), packets longer than "
             "MAXLEN, one-flit packets: drop_route, drop_vc, trunc",
     .div = 10, .min_cycles = 5000, .tables = TB_RANDOM, .bad_pct = 50, .traffic = TR_UNIFORM, .len = LEN_MIXED,
     .over_pm = 150, .load_lo = 60, .load_hi = 100, .stop_duty = 30, .stop_burst = 10, .read_pm = 20,
     .checks = CK_DROPS},
    {.name = "overflow",
     .what = "three sources ignore STOP towards slow outputs: overflow counted per source, every packet accounted "
             "for, nothing hangs",
     .div = 10, .min_cycles = 5000, .tables = TB_CLEAN, .traffic = TR_UNIFORM, .len = LEN_MIXED, .load_lo = 100,
     .load_hi = 100, .ignore = 3, .read_pm = 20, .checks = CK_OVERFLOW},
    {.name = "rewrite",
     .what = "routing and VC entries rewritten under load (the next packet's entries): packets in flight keep "
             "their route, heads after the write take the new one",
     .div = 10, .min_cycles = 5000, .tables = TB_CLEAN, .traffic = TR_UNIFORM, .len = LEN_MIXED, .load_lo = 50,
     .load_hi = 100, .stop_duty = 30, .stop_burst = 20, .rewrite_pm = 150, .checks = CK_REWRITE},
    {.name = "config",
     .what = "configuration traffic: reads of every space and of indexes outside the tables, reads right after "
             "a write of the entry, reads while one is outstanding, reads with writes, writes to counters, space 3 "
             "and outside the tables",
     .div = 10, .min_cycles = 5000, .tables = TB_RANDOM, .bad_pct = 10, .traffic = TR_UNIFORM, .len = LEN_SHORT,
     .load_lo = 20, .load_hi = 60, .stop_duty = 20, .rewrite_pm = 30, .read_pm = 600, .checks = CK_CFG_ALL},
    {.name = "counters",
     .what = "long saturating permutation with counter reads all along: the values exact, narrow counters wrap",
     .div = 10, .min_cycles = 20000, .tables = TB_CLEAN, .traffic = TR_PERM, .len = LEN_MIXED, .load_lo = 100,
     .load_hi = 100, .read_pm = 400, .checks = CK_WRAP},
    {.name = "routes",
     .what = "real route tables (--tables FILE[:SWITCH], default <BUILD>/vcsw/tables/n<NPORTS>-*.rhinet beside the bench, the switch "
             "with the most entries): traffic on the routes' (tag, VC) pairs, 5 % random",
     .div = 10, .min_cycles = 5000, .tables = TB_FILE, .traffic = TR_ROUTES, .len = LEN_MIXED, .load_lo = 20,
     .load_hi = 100, .stop_duty = 30, .stop_burst = 20, .read_pm = 20},
    {.name = "reset",
     .what = "random valid tables, traffic, drain; rst for 1..3 steps (random inputs, ignored): outputs idle, every "
             "table entry read back as loaded, new traffic routed by the old tables, counters from 0; then rst with "
             "traffic in flight: the packets inside lost, the others delivered, counters from 0 again",
     .div = 10, .min_cycles = 6000, .tables = TB_RANDOM, .bad_pct = 0, .traffic = TR_UNIFORM, .len = LEN_MIXED,
     .load_lo = 20, .load_hi = 100, .bubble_max = 10, .stop_duty = 30, .stop_burst = 20, .read_pm = 30,
     .checks = CK_RESET},
    {.name = "combos",
     .what = "several faults in one packet, every pair of kinds crossed: a third of the entries bad (routing and "
             "VC entry both bad too), a quarter of the packets longer than MAXLEN, four sources ignoring STOP, "
             "entries rewritten under load, rst in flight (the reset test's three segments): drop_route, drop_vc, "
             "trunc and overflow counted as docs/vcsw.md's table of combinations says",
     .div = 10, .min_cycles = 6000, .tables = TB_RANDOM, .bad_pct = 35, .traffic = TR_UNIFORM, .len = LEN_MIXED,
     .over_pm = 250, .load_lo = 40, .load_hi = 100, .bubble_max = 10, .stop_duty = 60, .stop_burst = 40,
     .ignore = 4, .rewrite_pm = 80, .read_pm = 20, .checks = CK_PAIRS | CK_RESET | CK_DROPS | CK_OVERFLOW},
};
const unsigned vcsw_ntests = sizeof vcsw_tests / sizeof vcsw_tests[0];

double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void bench_fail(bench_t *b, const char *fmt, ...)
{
    result_t *res = b->res;
    if (res->failed)
        return;
    res->failed = 1;
    res->fail_cycle = b->base + b->step;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->why, sizeof res->why, fmt, ap);
    va_end(ap);
    if (b->base && strncmp(res->why, "LOCKSTEP", 8) != 0) {
        size_t l = strlen(res->why);
        snprintf(res->why + l, sizeof res->why - l, " [steps count from the reset: step k is cycle %" PRIu64 " + k]",
                 b->base);
    }
}

unsigned bench_src(const bench_t *b, unsigned p, unsigned v) { return p * b->nvc + v; }

unsigned log2u(unsigned x)
{
    unsigned r = 0;
    while ((1u << r) < x)
        r++;
    return r;
}

void bench_event(bench_t *b, uint64_t date, unsigned port, unsigned vc, unsigned ctr)
{
    b->cum[port][vc][ctr]++;
    unsigned r = (unsigned)(date % RING);
    if (b->nev[r] < MAX_EV_STEP)
        b->ev[r][b->nev[r]++] = (uint16_t)((port << 8) | (vc << 3) | ctr);
}

uint32_t bench_preset(const bench_t *b, unsigned slot, uint64_t w)
{
    return b->pre_at[slot] && w > b->pre_at[slot] ? b->pre_val[slot] : 0u;
}

void bench_faults(bench_t *b, unsigned faults)
{
    for (unsigned x = 0; x < FK_N; x++)
        for (unsigned y = x + 1; y < FK_N; y++)
            if (((faults >> x) & 1u) && ((faults >> y) & 1u))
                b->pairs[x][y]++;
}

uint64_t bench_flush_step(const bench_t *b, unsigned slot, uint64_t r)
{
    const uint64_t ns = (uint64_t)VCSW_NCTR * b->nvc * b->n;
    uint64_t w = r + 1;
    w += ((slot + DOC_FLUSH_OFF) % ns + ns - w % ns) % ns;
    if (w < DOC_FLUSH_MIN)
        w += ns;
    return w;
}

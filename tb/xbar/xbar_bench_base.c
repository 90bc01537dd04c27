/* sanfab — crossbar bench, lowest layer: the test table, the failure record, character names (xbar_bench_base.h). */
#define _POSIX_C_SOURCE 200809L
#include "xbar_bench_base.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

const test_desc_t xbar_tests[] = {
    {.name = "random",
     .what = "uniform random destinations, mixed sizes, zero, one or several faults a packet (CRC errors, marked, "
             "illegal codes, aborts, runts, bad routes), stray characters between packets, bubbles, random drain "
             "rates, STOP storms; counters preset near their wrap",
     .div = 0, .dst = DST_UNIFORM, .len = LEN_MIXED, .load = LOAD_RANDOM, .drain_lo = 30, .drain_hi = 100,
     .bubble_max = 10, .storm_pm = 2,
     .mix = {.crc_bad = 20, .marked = 10, .illegal = 15, .abort = 10, .runt = 10, .badroute = 20}, .between_pm = 30,
     .multi_pct = 30, .ctr_preset = 1, .checks = CK_CTR_WRAP},
    {.name = "permutation",
     .what = "saturating permutation, every input to a distinct output: exact input and output rates, no STOP",
     .div = 10, .min_cycles = 5000, .dst = DST_PERM, .len = LEN_32, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100, .checks = CK_PERM_RATE},
    {.name = "hotspot",
     .what = "every input saturates output 0: round-robin order, exact handover gap, no timeout",
     .div = 10, .min_cycles = 5000, .dst = DST_HOT0, .len = LEN_32, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100, .checks = CK_HANDOVER | CK_RR_ORDER | CK_NO_TIMEOUT},
    {.name = "backtoback",
     .what = "back-to-back shortest and longest packets from every input",
     .div = 10, .min_cycles = 5000, .dst = DST_UNIFORM, .len = LEN_SHORT_LONG, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100},
    {.name = "badroute",
     .what = "first bytes run through all 256 values: every one that is not 10pppppp with p < NPORTS is dropped and "
             "counted drop_route; other traffic must not stall",
     .div = 10, .min_cycles = 5000, .dst = DST_UNIFORM, .len = LEN_SHORT, .load = LOAD_RANDOM, .drain_lo = 60,
     .drain_hi = 100, .bubble_max = 5, .sweep_routes = 1, .checks = CK_COVER_ROUTES},
    {.name = "stopstorm",
     .what = "receivers force STOP often and drain slowly",
     .div = 10, .min_cycles = 5000, .dst = DST_UNIFORM, .len = LEN_MIXED, .load = LOAD_FULL, .drain_lo = 10,
     .drain_hi = 40, .storm_pm = 20, .checks = CK_SOME_STOP},
    {.name = "crc",
     .what = "injected CRC errors and already-marked packets",
     .div = 10, .min_cycles = 5000, .dst = DST_UNIFORM, .len = LEN_MIXED, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100, .mix = {.crc_bad = 300, .marked = 150}},
    {.name = "illegal",
     .what = "every illegal control code 0x105-0x1FF inside packets (anywhere between route byte and GAP) and "
             "between packets, stray GAPs and ABORTs, sender ABORTs and runts",
     .div = 10, .min_cycles = 12000, .dst = DST_UNIFORM, .len = LEN_SHORT, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100, .bubble_max = 5, .mix = {.illegal = 600, .abort = 100, .runt = 50}, .between_pm = 700,
     .sweep_illegal = 1, .checks = CK_COVER_ILLEGAL},
    {.name = "timeout",
     .what = "output 0's receiver holds STOP past the timeout; packets drain, traffic recovers; faulty packets "
             "among them (timeouts crossed with every fault)",
     .div = 10, .min_cycles = 5000, .timeout_mult = 5, .dst = DST_HALF_HOT0, .len = LEN_MIXED, .load = LOAD_FULL,
     .drain_lo = 100, .drain_hi = 100, .checks = CK_SOME_TIMEOUT,
     .mix = {.crc_bad = 30, .marked = 20, .illegal = 30, .abort = 20, .runt = 20, .badroute = 20}, .multi_pct = 30},
    {.name = "blocked",
     .what = "directed blocked packets (waiting and owning an output): drained exactly TIMEOUT cycles after they "
             "block, the ABORT exactly when the output is let go",
     .div = 10, .min_cycles = 5000, .timeout_mult = 12, .dst = DST_UNIFORM, .len = LEN_MIXED, .load = LOAD_NONE,
     .drain_lo = 100, .drain_hi = 100, .scen = SCEN_BLOCKED, .checks = CK_TIMEOUT_EXACT},
    {.name = "latency",
     .what = "single packets on an idle switch: every header-in to first-byte-out sample exact",
     .div = 10, .min_cycles = 5000, .dst = DST_UNIFORM, .len = LEN_16, .load = LOAD_NONE, .drain_lo = 100,
     .drain_hi = 100, .scen = SCEN_LATENCY, .checks = CK_LATENCY_EXACT},
    {.name = "saturate",
     .what = "every input saturated, uniform random destinations, good packets (speed runs)",
     .div = 10, .min_cycles = 5000, .dst = DST_UNIFORM, .len = LEN_SAT, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100},
    {.name = "overflow",
     .what = "host 0 ignores STOP towards a slow output: overflow counted, its damaged packets marked bad or aborted, "
             "every other packet exact, nothing hangs; faulty packets among them (overflow crossed with every fault)",
     .div = 10, .min_cycles = 5000, .dst = DST_OVERFLOW, .len = LEN_MIXED, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100, .ignore_stop0 = 1, .checks = CK_DAMAGE_SEEN,
     .mix = {.crc_bad = 30, .marked = 20, .illegal = 30, .abort = 20, .runt = 20, .badroute = 20}, .multi_pct = 30},
    {.name = "counters",
     .what = "long saturating permutation: byte counters pass 65536 (and wrap narrow counters), every register "
             "address read while traffic runs",
     .div = 10, .min_cycles = 80000, .dst = DST_PERM, .len = LEN_LONG, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100, .checks = CK_CTR_BIG | CK_CTR_WRAP, .ctr_preset = 1},
    {.name = "pairs",
     .what = "directed double faults: every fault kind alone, then every pair of kinds in one packet, in turn; host "
             "0 ignores STOP towards a slow output (overflow crossed with them); each counter as the doc's table says",
     .div = 10, .min_cycles = 5000, .dst = DST_OVERFLOW, .len = LEN_SHORT, .load = LOAD_FULL, .drain_lo = 100,
     .drain_hi = 100, .between_pm = 50, .ignore_stop0 = 1, .pairs = 1, .ctr_preset = 1,
     .checks = CK_COVER_PAIRS | CK_DAMAGE_SEEN},
    {.name = "reset",
     .what = "random traffic with faults, a reset in mid-flight, traffic, drain and accounting, a reset of the "
             "drained switch, traffic, drain and accounting again (counters preset after every reset)",
     .div = 10, .min_cycles = 6000, .dst = DST_UNIFORM, .len = LEN_MIXED, .load = LOAD_RANDOM, .drain_lo = 30,
     .drain_hi = 100, .bubble_max = 10, .storm_pm = 2,
     .mix = {.crc_bad = 20, .marked = 10, .illegal = 15, .abort = 10, .runt = 10, .badroute = 20}, .between_pm = 30,
     .multi_pct = 30, .ctr_preset = 1, .resets = 1},
};
const unsigned xbar_ntests = sizeof xbar_tests / sizeof xbar_tests[0];

double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void fail(result_t *res, uint64_t cyc, const char *fmt, ...)
{
    if (res->failed)
        return;
    res->failed = 1;
    res->fail_cycle = cyc;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->why, sizeof res->why, fmt, ap);
    va_end(ap);
}

const char *ch_name(uint16_t c, char *buf)
{
    switch (c) {
    case CH_IDLE: return "IDLE";
    case CH_GAP: return "GAP";
    case CH_STOP: return "STOP";
    case CH_GO: return "GO";
    case CH_ABORT: return "ABORT";
    default:
        snprintf(buf, 24, CH_IS_DATA(c) ? "0x%02x" : "ctl:0x%03x", c);
        return buf;
    }
}

/* Starts a JSON record of reports/bench.json: block, parameters, what was run. */
void json_head(FILE *f, const xbar_params_t *p, const char *what, const char *test)
{
    fprintf(f,
            "{\"block\": \"xbar\", \"params\": {\"NPORTS\": %u, \"SLACK_DEPTH\": %u, \"STOP_THRESH\": %u, "
            "\"GO_THRESH\": %u, \"ROUTE_DELAY\": %u, \"LINK_DELAY\": %u, \"TIMEOUT\": %u, \"COUNTERS\": %u, "
            "\"CTR_WIDTH\": %u}, \"what\": \"%s\", \"test\": \"%s\"",
            p->NPORTS, p->SLACK_DEPTH, p->STOP_THRESH, p->GO_THRESH, p->ROUTE_DELAY, p->LINK_DELAY, p->TIMEOUT,
            p->COUNTERS, p->CTR_WIDTH, what, test);
}

/* the test of the table named name, or NULL */
const test_desc_t *test_find(const char *name)
{
    for (unsigned i = 0; i < xbar_ntests; i++)
        if (strcmp(xbar_tests[i].name, name) == 0)
            return &xbar_tests[i];
    return NULL;
}

void json_record(FILE *f, const opts_t *o, const test_desc_t *d, const result_t *r)
{
    json_head(f, &o->p, bench_mode_name(o->cl.mode), d->name);
    fprintf(f,
            ", \"seed\": %" PRIu64 ", \"cycles\": %" PRIu64 ", \"seconds\": %.6f, \"cycles_per_s\": %.1f, "
            "\"packets_made\": %" PRIu64 ", \"packets_delivered\": %" PRIu64 ", \"timeouts\": %" PRIu64
            ", \"stops\": %" PRIu64 ", \"reads_checked\": %" PRIu64,
            o->cl.seed, r->cycles_run, r->seconds, r->seconds > 0 ? (double)r->cycles_run / r->seconds : 0.0, r->made,
            r->delivered, r->timeouts, r->stops, r->reads_checked);
    if (d->checks & CK_PERM_RATE)
        fprintf(f, ", \"input_chars_per_cycle\": %.4f, \"output_data_per_cycle\": %.4f", r->in_util, r->out_data);
    if (d->checks & CK_LATENCY_EXACT)
        fprintf(f, ", \"header_to_first_byte_cycles\": %u, \"latency_samples\": %" PRIu64, r->latency, r->lat_samples);
    fprintf(f, ", \"passed\": %s}\n", r->failed ? "false" : "true");
}

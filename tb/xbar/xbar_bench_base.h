/* sanfab — crossbar bench, lowest layer: the documented rules, the test table's types, the run's
 * options and result, the failure record and the character helpers every other bench file uses
 * (xbar_bench_traffic, xbar_bench_check, xbar_bench_scenarios, xbar_bench build on it; it calls none of them). */
#ifndef SANFAB_XBAR_BENCH_BASE_H
#define SANFAB_XBAR_BENCH_BASE_H

#include "link.h"
#include "xbar.h"
#include "bench_cli.h"

#include <stdint.h>
#include <stdio.h>

/* ================================================================ documented rules (docs/xbar.md)
 * Every constant here is a number written in docs/xbar.md; the checks below use only these, the
 * parameters, and what the bench itself put on the links and saw come out. */

/* "Latency": an idle switch forwards the first body byte on tx[p] max(DOC_LAT_MIN, ROUTE_DELAY +
 * DOC_LAT_RD) + LINK_DELAY cycles after the route byte was sampled on rx[i]. */
#define DOC_LAT_MIN 4u
#define DOC_LAT_RD 3u
/* "Flow control, towards upstream": input i's wish changes when stat_occ[i] (registered) crosses a
 * threshold in cycle c; STOP/GO leaves on tx[i] in cycle c + DOC_FC_DELAY + LINK_DELAY. */
#define DOC_FC_DELAY 2u
/* "Flow control, from downstream": STOP sampled on rx[p] in cycle s: no packet character on tx[p]
 * in cycles s + DOC_STOP_EFFECT + LINK_DELAY ... until the same distance after a GO. */
#define DOC_STOP_EFFECT 1u
/* "Arbitration": a contended handover leaves exactly this many IDLE cycles on tx[p] between
 * the GAP of one packet and the first byte of the next. */
#define DOC_HANDOVER_IDLE 0u
/* "Counters": a read answered in cycle r counts exactly the events that happened in cycles
 * <= r - DOC_CTR_AGE (rx events: the cycle the character was sampled; tx events: the cycle it
 * left on tx less LINK_DELAY). */
#define DOC_CTR_AGE 4u
/* "Blocking timeout": see scen_blocked() (the drain shows on stat_occ one step after the step that
 * drains; the ABORT leaves two steps after it when the output is free to send). */
/* "Reading": a read sampled in step r to an absent address (any address when COUNTERS=0) is
 * answered in step r + DOC_RD_ABSENT with 0; a present counter in the first step W > r in which the
 * flusher writes its slot (so within DOC_RD_MIN .. 9 * NPORTS steps). */
#define DOC_NCTR_SLOTS 9u
#define DOC_FLUSH_OFFSET 3u /* "Schedule": slot s is written in steps W = s + 3 (mod NS) */
#define DOC_RD_ABSENT 0u
#define DOC_RD_MIN 1u

/* ================================================================ tests */


typedef enum { DST_UNIFORM, DST_PERM, DST_HOT0, DST_HALF_HOT0, DST_OVERFLOW } dst_policy_t;
typedef enum { LEN_MIXED, LEN_32, LEN_SHORT_LONG, LEN_16, LEN_SAT, LEN_SHORT, LEN_LONG } len_policy_t;
typedef enum { LOAD_RANDOM, LOAD_FULL, LOAD_NONE } load_policy_t;
typedef enum { SCEN_NONE, SCEN_LATENCY, SCEN_BLOCKED } scenario_t;

/* checks a test asks for (the always-on ones are listed in check_cycle()) */
enum {
    CK_LATENCY_EXACT = 1u << 0, /* every packet: header in to first byte out equals the formula */
    CK_PERM_RATE = 1u << 1,     /* input and output data rates equal the packet-length figures */
    CK_HANDOVER = 1u << 2,      /* contended handover: exactly DOC_HANDOVER_IDLE idle cycles */
    CK_RR_ORDER = 1u << 3,      /* round robin: no waiting input is skipped */
    CK_NO_TIMEOUT = 1u << 4,    /* round robin bounds every wait below TIMEOUT */
    CK_SOME_TIMEOUT = 1u << 5,  /* the stimulus produced timeouts (if TIMEOUT > 0) */
    CK_SOME_STOP = 1u << 6,     /* the switch sent STOP */
    CK_DAMAGE_SEEN = 1u << 7,   /* the STOP-ignoring source had damaged packets */
    CK_COVER_ILLEGAL = 1u << 8, /* every illegal code went in inside a packet and between packets */
    CK_COVER_ROUTES = 1u << 9,  /* every first byte 0..255 was sent */
    CK_CTR_BIG = 1u << 10,      /* a counter passed 65536 (or wrapped, narrow counters) */
    CK_TIMEOUT_EXACT = 1u << 11, /* directed blocked packets: drain and ABORT cycles exact */
    CK_COVER_PAIRS = 1u << 12,   /* every fault and every pair of faults went into some packet */
    CK_CTR_WRAP = 1u << 13       /* counter preset: some counter of every port wrapped past 2^CTR_WIDTH */
};

/* kind mix in per mille: crc_bad, marked, illegal, abort, runt, badroute (the rest normal) */
typedef struct {
    unsigned crc_bad, marked, illegal, abort, runt, badroute;
} mix_t;

typedef struct {
    const char *name;
    const char *what;
    unsigned div;            /* under --test all: --cycles / div traffic cycles (0: all of --cycles) */
    unsigned min_cycles;     /* ... but at least this many */
    unsigned timeout_mult;   /* ... and at least TIMEOUT * this many */
    dst_policy_t dst;
    len_policy_t len;
    load_policy_t load;
    unsigned drain_lo, drain_hi; /* receiver drain rate, % per cycle, drawn per host */
    unsigned bubble_max;         /* idle cycles inside packets, % per cycle, drawn per host */
    unsigned storm_pm;           /* chance per mille per cycle that a receiver starts a STOP storm */
    mix_t mix;
    unsigned between_pm;         /* chance per mille per packet of stray characters before it */
    int sweep_routes;            /* first bytes run through 0..255 */
    int sweep_illegal;           /* illegal codes run through 0x105..0x1FF */
    int ignore_stop0;            /* host 0 ignores STOP and floods output 1, whose receiver is slow */
    unsigned multi_pct;          /* chance in % of one more fault from the mix, drawn again while it hits */
    int pairs;                   /* faults in turn: each alone, then each pair (the mix is unused) */
    int ctr_preset;              /* the counter preset right after every reset (docs/verification.md) */
    int resets;                  /* reset in mid-flight, then after the drain: three phases of traffic */
    scenario_t scen;
    unsigned checks;
} test_desc_t;


/* The test table (docs/verification.md lists it) and its length. */
extern const test_desc_t xbar_tests[];
extern const unsigned xbar_ntests;

typedef struct {
    xbar_params_t p;
    int ctr_preset;          /* --ctr-preset: the counter preset in every test, not only those of the table */
    uint64_t perm_body;      /* --perm-body: body bytes of the permutation test's packets (0: 32) */
    bench_opts_t cl;         /* mode, seed, cycles, vcd, quiet, Verilator plusargs (bench_cli.h) */
    xbar_in_t *record;       /* if set, every cycle's inputs are stored here (record_max entries) */
    uint64_t record_max;
} opts_t;

typedef struct {
    int failed;
    uint64_t fail_cycle; /* cycle of the first lockstep mismatch, scoreboard or check error */
    char why[700];       /* starts with LOCKSTEP MISMATCH, SCOREBOARD or CHECK */
    uint64_t cycles_run;
    double seconds;
    uint64_t made, delivered, timeouts;
    double in_util;    /* characters per cycle per input, averaged (permutation) */
    double out_data;   /* data characters per cycle per output (permutation) */
    unsigned latency;  /* header in to first byte out, cycles (latency test) */
    uint64_t lat_samples;
    uint64_t stops;    /* STOP symbols the switch sent */
    uint64_t handovers, rr_checked, reads_checked, scen_done, resumes;
    int waves;                  /* the run wrote waves: cycles waves_range[0..1] */
    uint64_t waves_range[2];
} result_t;

/* Seconds on the monotonic clock. */
double now_s(void);
/* Records the run's first failure (a LOCKSTEP, SCOREBOARD or CHECK line) in cycle cyc; later ones are ignored. */
void fail(result_t *res, uint64_t cyc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The name of link character c (IDLE, GAP, ..., 0xNN), written into buf (24 bytes) when it is not a constant. */
const char *ch_name(uint16_t c, char *buf);
/* The test of the table named name, or NULL. */
const test_desc_t *test_find(const char *name);
/* Starts a JSON record of reports/bench.json: block, parameters, what was run. */
void json_head(FILE *f, const xbar_params_t *p, const char *what, const char *test);
/* Prints the JSON record of test d's run r (one line of reports/bench.json). */
void json_record(FILE *f, const opts_t *o, const test_desc_t *d, const result_t *r);

static inline int is_pkt_char(uint16_t c) { return CH_IS_DATA(c) || c == CH_GAP || c == CH_ABORT; }
static inline int is_flow_char(uint16_t c) { return c == CH_STOP || c == CH_GO; }
static inline int is_illegal_char(uint16_t c) { return c >= 0x105u; }
static inline int route_valid(unsigned b, unsigned n) { return ROUTE_IS_ROUTE(b) && ROUTE_PORT(b) < n; }

#endif

/* sanfab — VC switch bench, lowest layer: the documented rules (DOC_*), the types every bench file
 * shares, the test table, the failure record and the counter-event bookkeeping. Above it, each using
 * only the files under it: vcsw_bench_sb (packets and the scoreboard); vcsw_bench_check (the checks of
 * docs/vcsw.md that never consult the model) and vcsw_bench_traffic (tables, hosts, receivers,
 * configuration traffic), both over vcsw_bench_sb; vcsw_bench_run (one run, the lockstep comparison); vcsw_bench
 * (the command line). There is no global mutable state: everything of one run lives in a bench_t.
 */
#ifndef SANFAB_VCSW_BENCH_BASE_H
#define SANFAB_VCSW_BENCH_BASE_H

#include "vcsw.h"
#include "vcsw_load.h"
#include "bench_cli.h"
#include "rng.h"
#include "vcsw_rtl.h"

#include <stddef.h>
#include <stdint.h>

/* ================================================================ documented rules (docs/vcsw.md)
 * Every number the checks use is written here with the doc's words; the checks use only these,
 * the parameters, and what the bench put on the ports and saw come out. */

/* "Header latency": a head received in step k on a free path is on tx_* after step k + 3 + LINK_DELAY. */
#define DOC_HEAD_LAT 3u
/* "Go & Stop": a sender may start a packet on VC v in its step m only if rx_stop after step
 * m - LINK_DELAY - DOC_GS_LOOK was 0 (the upstream switch's view, the latest the rule allows). */
#define DOC_GS_LOOK 3u
/* "Latency and throughput": a stream passing at one flit per step keeps 2 entries in its buffer,
 * so links are kept full only if STOP_AT >= 3. */
#define DOC_STREAM_STOP_AT 3u
/* "Go & Stop": rx_stop after step k = (occupancy after step k - 1 - LINK_DELAY >= STOP_AT). */
#define DOC_STOP_AGE 1u
/* "3. Allocation": the stop bit used in step k is tx_stop received in step k - 1 (rule 3.1, the
 * request); an offer requesting in step k was prepared in step k - 1 (rule 3.3), with the stop bit
 * used there. */
#define DOC_TXSTOP_AGE 1u
#define DOC_OFFER_AHEAD 1u
/* "1. Ingress": a flit received in step k is processed (admitted, counted) in step k + 1. */
#define DOC_INGRESS 1u
/* "2. Input buffer" and "3.3": a flit received in step k into an empty VC is at the head after
 * step k + 1, in the offer register after step k + 2, so it requests from step k + 3. */
#define DOC_CAND 3u
/* "Configuration port": table reads (and errors, and counters with COUNTERS = 0) answered in r + 1. */
#define DOC_RD_TABLE 1u
/* "Counters": slot s = ((port*NVC)+vc)*8+ctr flushed in steps W >= DOC_FLUSH_MIN, W = s + 3 (mod
 * NS = 8*NVC*NPORTS), with the events of steps <= W - DOC_CTR_AGE; the read answered in W + 1. */
#define DOC_FLUSH_OFF 3u
#define DOC_FLUSH_MIN 3u
#define DOC_CTR_AGE 4u

#define RING 256u      /* history of steps kept (> LINK_DELAY + the ages above); a power of two */
#define SRC_RING 2048u /* packets remembered per source (queued, in the switch, in flight) */
#define MAX_SRC (VCSW_MAX_PORTS * VCSW_MAX_VCS)
#define MAX_EV_STEP 128u /* counter events dated one step: <= 3 per input flit, 2 per output flit */

/* ================================================================ tests */

typedef enum { TB_RANDOM, TB_CLEAN, TB_FILE } tables_kind_t;
typedef enum { TR_UNIFORM, TR_PERM, TR_LATENCY, TR_FAIR, TR_HOT, TR_ROUTES } traffic_kind_t;
typedef enum { LEN_MIXED, LEN_ONE, LEN_MAX, LEN_SHORT } len_kind_t;

/* checks a test asks for (the always-on ones are listed in vcsw_bench_check.c) */
enum {
    CK_LAT_EXACT = 1u << 0,  /* latency test: head exactly 3 + LINK_DELAY, body one per step */
    CK_LINK_FULL = 1u << 1,  /* every output link carries a flit in >= 99 % of the window's steps */
    CK_RR_EXACT = 1u << 2,   /* every allocation is the separable allocation's choice (inputs, then outputs) */
    CK_DROPS = 1u << 3,      /* drop_route, drop_vc and trunc all happened */
    CK_OVERFLOW = 1u << 4,   /* the STOP-ignoring sources overflowed */
    CK_WRAP = 1u << 5,       /* a counter passed 2^CTR_WIDTH (narrow counters) */
    CK_CTRL = 1u << 6,       /* control VCs carried packets (CTRL = 1) */
    CK_REWRITE = 1u << 7,    /* rewrites hit packets in flight and heads right after the write */
    CK_STOPPED = 1u << 8,    /* the buffers reached STOP_AT (Go & Stop at work) */
    CK_CFG_ALL = 1u << 9,    /* reads of every space answered, errors and ignored reads seen */
    CK_BLOCKVC = 1u << 10,   /* one output VC held stopped in the middle of the window */
    CK_RESET = 1u << 11,     /* rst on a drained switch, then in flight: tables kept, the rest cleared */
    CK_PAIRS = 1u << 12      /* every pair of fault kinds met in one packet (FK_* below) */
};

/* Fault kinds a packet can carry (several at once; docs/vcsw.md "Malformed input", "Several faults in one
 * packet"): its routing entry bad, its VC entry bad (with a routing entry naming a port < NPORTS; both bad:
 * drop_route), longer than MAXLEN, sent by a source that ignores STOP, its entry rewritten while it is in
 * flight (or just before its head), inside the switch at a reset. */
enum { FK_ROUTE, FK_VC, FK_LONG, FK_IGN, FK_REWRITE, FK_RESET, FK_N };

typedef struct {
    const char *name, *what;
    unsigned div, min_cycles;     /* under --test all: max(--cycles / div, min_cycles) (div 0: --cycles) */
    tables_kind_t tables;
    unsigned bad_pct;             /* TB_RANDOM: % of entries invalid or out of range */
    traffic_kind_t traffic;
    len_kind_t len;
    unsigned over_pm;             /* per mille of packets longer than MAXLEN */
    unsigned load_lo, load_hi;    /* % chance per step that a source queues a packet (drawn per source) */
    unsigned bubble_max;          /* % idle steps of a sender with something to send (drawn per host) */
    unsigned stop_duty;           /* tx_stop: max % of steps a receiver holds STOP on one VC */
    unsigned stop_burst;          /* ... mean length of a STOP burst, steps */
    unsigned ignore;              /* sources (p, v) that ignore STOP */
    unsigned rewrite_pm;          /* per mille per step: a table entry is rewritten under traffic */
    unsigned read_pm;             /* per mille per step: a configuration read (any space) */
    unsigned checks;
} test_desc_t;

typedef struct {
    vcsw_params_t p;
    bench_opts_t cl;    /* mode, seed, cycles, vcd, quiet, Verilator plusargs (bench_cli.h) */
    int speed;          /* --speed: time the step calls of the model and the RTL apart */
    int no_preset;      /* --no-preset: counters start at 0 (no preset test mode) */
    const char *tables; /* --tables FILE (the routes test), switch below */
    int table_switch;   /* VCSW_LOAD_MOST or a switch */
} opts_t;

typedef struct {
    int failed;
    uint64_t fail_cycle;
    char why[900]; /* starts with LOCKSTEP MISMATCH, SCOREBOARD or CHECK */
    uint64_t cycles_run;
    double seconds;
    double model_s, rtl_s; /* --speed: seconds inside vcsw_step / vcsw_rtl_step */
    uint64_t made, delivered, dropped, flits_out;
    uint64_t lat_samples, reads, rr_checked, rewrites, stops_seen;
    double link_min; /* lowest output link use over the measured window (CK_LINK_FULL) */
    int link_unchecked; /* CK_LINK_FULL not applicable: STOP_AT < 3 */
    unsigned occ_max;
    char note[200];
    int waves;                /* the run wrote waves: cycles waves_range[0..1] */
    uint64_t waves_range[2];
} result_t;

/* ================================================================ packets and scoreboard */

enum { F_NONE = 0, F_DELIVER, F_DROP_ROUTE, F_DROP_VC };

typedef struct {
    uint32_t seq;     /* per-source sequence number */
    uint16_t tag, len;
    uint16_t sent;    /* flits the host has put on the link */
    uint16_t got;     /* flits delivered */
    uint8_t fate, o, u;
    uint8_t may_ovf;  /* the source ignores STOP: may be cut or discarded (overflow) */
    uint8_t done;     /* delivered, dropped or accounted */
    uint8_t cut;      /* delivered shorter than sent because of an overflow */
    uint8_t lost;     /* inside the switch (received, not all out) at a reset: gone with it */
    uint8_t faults;   /* 1 << FK_*: the fault kinds it carries */
    uint64_t *in_step; /* receive step of every flit sent (len entries) */
} pkt_t;

typedef struct {
    pkt_t ring[SRC_RING];
    uint32_t first, deliv, send, end; /* oldest unfinished, next to deliver, next to send, next free */
    uint32_t seq;
    /* counts for the final accounting */
    uint64_t flits_sent, heads_sent, drop_route, drop_vc, trunc, overflow, delivered, made;
    uint64_t lost_reset; /* packets inside the switch at a reset (test reset) */
    uint8_t ignore_stop;
} source_t;

/* the packet being delivered on each output VC */
typedef struct {
    int active;
    unsigned src;
    uint32_t idx; /* position in the source's ring (monotonic) */
    unsigned flit;
    uint64_t last_out; /* step the previous flit showed */
} outvc_t;

/* ================================================================ one run */

/* shadow tables: entry = bit 7 valid, bits 3..0 value (what the switch holds after the writes so far) */
typedef struct {
    uint8_t route[1u << 12];
    uint8_t vct[VCSW_MAX_PORTS][VCSW_MAX_PORTS][VCSW_MAX_VCS];
} shadow_t;

typedef struct bench bench_t;

struct bench {
    const opts_t *o;
    const test_desc_t *d;
    const vcsw_params_t *p;
    unsigned n, nvc, ndvc, ld, vcw, pb; /* ports, VCs, data VCs, LINK_DELAY, VC bits, port bits */
    int stop_at;
    rng_t rng;
    result_t *res;
    uint64_t step;      /* the step being made (1 = first after reset) */
    uint64_t base;      /* edges made before the step 0 of the last reset (0: only the initial one) */
    int generate;       /* sources make packets */
    shadow_t sh;

    /* table file (routes test) */
    const vcsw_tables_t *file;
    uint16_t (*ftrip)[2]; /* valid (tag, vc) pairs per input: [p * ftrip_max + i] */
    unsigned ftrip_n[VCSW_MAX_PORTS], ftrip_max;

    /* sources (input p, VC v) = p * nvc + v; hosts */
    source_t *src;
    unsigned load_pct[MAX_SRC];
    unsigned bubble_pct[VCSW_MAX_PORTS];
    unsigned perm_dst[MAX_SRC];
    uint16_t stop_hist[RING][VCSW_MAX_PORTS]; /* rx_stop after each step */
    uint64_t popped_seen[MAX_SRC];            /* flits of the source seen leaving (fairness hosts) */

    /* receivers: tx_stop */
    uint8_t stop_duty[VCSW_MAX_PORTS][VCSW_MAX_VCS];
    uint8_t stop_now[VCSW_MAX_PORTS][VCSW_MAX_VCS];
    uint16_t txstop_hist[RING][VCSW_MAX_PORTS]; /* tx_stop driven in each step */
    int blockvc_on;
    unsigned blockvc_u;

    /* outputs */
    outvc_t ovc[VCSW_MAX_PORTS][VCSW_MAX_VCS];
    int measure; /* the link-use window is open */
    uint64_t link_busy[VCSW_MAX_PORTS], link_window;
    uint64_t quiet_steps; /* consecutive steps with every tx idle */
    uint64_t last_rx_step; /* the last step a host sent a flit */

    /* occupancy from the ports: admissions dated by their step, pops by their allocation step */
    uint64_t adm_cum[MAX_SRC], pop_cum[MAX_SRC];
    uint32_t adm_hist[RING][MAX_SRC];
    uint32_t occ_hist[RING][MAX_SRC];

    /* counters: cumulative events and the events of each recent date */
    uint64_t cum[VCSW_MAX_PORTS][VCSW_MAX_VCS][VCSW_NCTR];
    uint16_t ev[RING][MAX_EV_STEP];
    unsigned nev[RING];

    /* configuration port */
    int rd_out;          /* a read is outstanding (until and including its answer step) */
    uint64_t rd_at, rd_ans;
    uint16_t rd_addr;
    int rd_kind;         /* 0: fixed value rd_val; 1: counter */
    uint32_t rd_val;
    struct {
        int on;
        uint64_t at, date;
        unsigned port, vc, ctr;
        uint32_t value;
        uint64_t read_at;
    } ctr_defer;
    uint64_t cfg_reads_ignored, cfg_errors, cfg_space_seen[4];
    uint64_t rewrites_inflight, rewrites_next;
    unsigned force_src; /* 1 + the source whose next head goes first in the next step (0: none) */
    unsigned reread;    /* 1 + the address written in the step before (read it back now) */
    uint64_t cov_reread;
    uint64_t last_write_step[2][1u << 12]; /* [space][index % 4096] step of the last write (0: none) */
    /* pending configuration requests (table loads) */
    vcsw_cfg_write_t *wq;
    size_t wq_n, wq_cap, wq_pos;
    /* final counter read-out */
    int final_phase;
    uint8_t final_done[VCSW_MAX_PORTS * VCSW_MAX_VCS * VCSW_NCTR];
    uint32_t final_val[VCSW_MAX_PORTS * VCSW_MAX_VCS * VCSW_NCTR];
    unsigned final_left;

    /* test reset */
    int hold_cfg;           /* no configuration traffic (a reset is about to come) */
    unsigned sweep_pos, sweep_n; /* read-back of every table entry: next entry, entries (0: none) */
    uint64_t sweep_reads, resets, lost_reset, delivered_at_reset;
    uint64_t ovf_before_reset; /* overflows counted before the resets (coverage) */
    uint32_t rd_bits1, rd_bits0;           /* bits of cfg_rdata seen at 1, at 0 (coverage) */
    uint16_t stop_seen[VCSW_MAX_PORTS];    /* rx_stop bits seen at 1 (coverage) */
    uint8_t stop_duty0[VCSW_MAX_PORTS][VCSW_MAX_VCS]; /* the receivers' duties drawn at setup */

    /* counter preset test mode (docs/vcsw.md "Counters"): after step pre_step (and pre_step + 2 for the
     * two slots whose RAM word is then in the flusher's read-modify-write) every counter gets pre_val added,
     * in the model and the RTL; a flush in step W counts it when W > pre_at (0: not yet) */
    rng_t prng;
    uint64_t pre_step;
    uint32_t pre_val[VCSW_MAX_PORTS * VCSW_MAX_VCS * VCSW_NCTR];
    uint64_t pre_at[VCSW_MAX_PORTS * VCSW_MAX_VCS * VCSW_NCTR];
    uint64_t final_w[VCSW_MAX_PORTS * VCSW_MAX_VCS * VCSW_NCTR]; /* flush step of each final read */
    uint64_t cov_preset;                                        /* counters preset */
    uint64_t pairs[FK_N][FK_N];                                 /* packets carrying fault kinds a and b (a < b) */

    /* directed scenarios */
    struct {
        int waiting;
        uint64_t next_at, k;
    } lat;
    /* coverage */
    uint64_t cov_ctrl, cov_one, cov_over, cov_stop, cov_wrap;
    unsigned occ_max;
    uint64_t lat_samples, rr_checked, rr_ptr[VCSW_MAX_PORTS], in_ptr[VCSW_MAX_PORTS];
};

/* The test table (docs/verification.md lists it) and its length. */
extern const test_desc_t vcsw_tests[];
extern const unsigned vcsw_ntests;

/* Seconds on the monotonic clock. */
double now_s(void);
/* The bits needed for x values (ceil(log2 x)). */
unsigned log2u(unsigned x);
/* Records the run's first failure (a LOCKSTEP MISMATCH, SCOREBOARD or CHECK line), in the cycle of
 * b's step, noting the cycle offset after a test reset; later failures are ignored. */
void bench_fail(bench_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The source number of input p, VC v. */
unsigned bench_src(const bench_t *b, unsigned p, unsigned v);
/* Counts a counter event of (port, vc, ctr) dated step `date` (the bench's own counts of the counters). */
void bench_event(bench_t *b, uint64_t date, unsigned port, unsigned vc, unsigned ctr);
/* The preset the value of counter slot `slot` flushed in step W carries (0 before the preset). */
uint32_t bench_preset(const bench_t *b, unsigned slot, uint64_t w);
/* Counts a packet carrying the fault kinds of `faults` (1 << FK_*) for every pair of them. */
void bench_faults(bench_t *b, unsigned faults);
/* The step W in which counter slot `slot` is flushed for a read sampled in step r (docs/vcsw.md, "Counters"). */
uint64_t bench_flush_step(const bench_t *b, unsigned slot, uint64_t r);

#endif

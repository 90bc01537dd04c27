/* sanfab — crossbar bench: the checks of docs/xbar.md's rules that never consult the model (they see
 * only the ports and the parameters), over xbar_bench_base.h. */
#ifndef SANFAB_XBAR_BENCH_CHECK_H
#define SANFAB_XBAR_BENCH_CHECK_H

#include "xbar_bench_base.h"

/* ================================================================ independent checks
 * They see only what crosses the block's ports (rx, reg_rd/reg_addr in; tx, stat_occ, reg_rvalid,
 * reg_rdata out) and the parameters, and compare with the rules of xbar_bench_base.h. */

#define RING 256u /* > max LINK_DELAY + DOC delays + counter age; a power of two */
#define HFIFO 64u /* headers remembered per input and output */

typedef struct {
    uint64_t t[HFIFO];
    unsigned head, count;
} hfifo_t;

enum { EV_RX_PKTS, EV_RX_BYTES, EV_TX_PKTS, EV_TX_BYTES, EV_N };

typedef struct {
    const xbar_params_t *p;
    const test_desc_t *d;
    unsigned n, ld;
    int damage_possible;
    /* flow control towards upstream */
    uint8_t wish[XBAR_MAX_PORTS];                  /* 1 = STOP, from stat_occ and the thresholds */
    uint16_t fc_expect[XBAR_MAX_PORTS][RING];      /* STOP/GO due on tx[i] in that cycle (0: none) */
    uint64_t fc_cause[XBAR_MAX_PORTS][RING];
    unsigned last_occ[XBAR_MAX_PORTS];
    /* flow control from downstream: state after rx[p] of each cycle (1 = stopped) */
    uint8_t down[XBAR_MAX_PORTS][RING];
    uint8_t down_now[XBAR_MAX_PORTS];
    uint64_t last_down_change[XBAR_MAX_PORTS];
    /* ... and resuming after GO (see check_resume) */
    uint64_t stop_at[XBAR_MAX_PORTS], occ_seen[XBAR_MAX_PORTS], resume_due[XBAR_MAX_PORTS];
    int res_inpkt[XBAR_MAX_PORTS], res_owner[XBAR_MAX_PORTS], resume_flow[XBAR_MAX_PORTS];
    uint64_t resumes;
    /* packets: input side and output side */
    int rx_inpkt[XBAR_MAX_PORTS];
    int tx_inpkt[XBAR_MAX_PORTS];
    hfifo_t hdr[XBAR_MAX_PORTS][XBAR_MAX_PORTS]; /* [input][output]: cycles route bytes were sampled */
    uint64_t hdr_total[XBAR_MAX_PORTS];
    int cur_src[XBAR_MAX_PORTS];                 /* output's current packet's source (-1 none) */
    int last_src[XBAR_MAX_PORTS];                /* source of the output's previous packet */
    uint64_t last_gap[XBAR_MAX_PORTS];           /* cycle of the output's last GAP/ABORT */
    uint64_t src_last_end[XBAR_MAX_PORTS][XBAR_MAX_PORTS]; /* [input][output]: end of its last packet there */
    int gap_contended[XBAR_MAX_PORTS];
    uint64_t last_flow[XBAR_MAX_PORTS];          /* last STOP/GO the switch sent on tx[q] */
    int flow_seen[XBAR_MAX_PORTS];
    unsigned gap_idle[XBAR_MAX_PORTS], gap_flow[XBAR_MAX_PORTS];
    uint64_t gap_window_from[XBAR_MAX_PORTS];
    /* counter events by cycle (cumulative), for the register port */
    uint64_t ev_cum[EV_N][XBAR_MAX_PORTS];
    uint64_t ev_hist[RING][EV_N][XBAR_MAX_PORTS];
    /* counter values to compare once the bench has seen every event they count (a tx event shows
     * on the port LINK_DELAY cycles after its step) */
    struct {
        uint64_t at, upto;      /* compare in cycle `at` with the events of cycles <= upto */
        unsigned port, ev;
        uint32_t value, read_at, pre;
    } defer[16];
    /* the counter preset (docs/verification.md): slot s holds pre[s] more than its events in every flush
     * after step pre_step[s] (0: no preset) */
    uint32_t pre[XBAR_MAX_PORTS * XBAR_NCTR];
    uint64_t pre_step[XBAR_MAX_PORTS * XBAR_NCTR];
    unsigned ndefer;
    /* register port */
    int rd_out;                 /* a read is outstanding */
    uint64_t rd_ignored;        /* requests issued while one was outstanding */
    unsigned rd_addr;
    uint64_t rd_at;
    uint32_t last_value;
    int have_value;
    /* each port's drop_timeout unwrapped from the reads along the way (a narrow counter wraps): the events
     * counted up to the last read, and that read's value less its preset, mod 2^CTR_WIDTH */
    uint64_t tmo_total[XBAR_MAX_PORTS];
    uint32_t tmo_last[XBAR_MAX_PORTS];
    /* rates (permutation) */
    uint64_t in_chars, out_data, window, flow_out;
    /* latency */
    unsigned lat_worst;
    uint64_t lat_samples;
    uint64_t handovers, rr_checked, reads_checked;
    uint64_t stops;
} chk_t;

/* Clears the checks' state for a run of test d with parameters p. */
void chk_init(chk_t *k, const xbar_params_t *p, const test_desc_t *d);
/* The latency formula of docs/xbar.md: route byte sampled to first body byte out, cycles. */
unsigned lat_formula(const xbar_params_t *p);
/* A register read of addr was put on the port in cycle c. */
void chk_read_issued(chk_t *k, uint64_t c, unsigned addr);
/* Is addr a counter the switch has (not an absent address)? */
int addr_present(const chk_t *k, unsigned addr);
/* The counter preset: slot s got `value` more right after step `step` (every later flush includes it). */
void chk_preset(chk_t *k, unsigned s, uint32_t value, uint64_t step);
/* Every check of cycle c on what crossed the ports (measure: the rate window is open). */
void check_cycle(chk_t *k, result_t *res, uint64_t c, const xbar_in_t *in, const xbar_out_t *out, int measure);

#endif

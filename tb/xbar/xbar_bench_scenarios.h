/* sanfab — crossbar bench: the directed scenarios (latency on an idle switch, blocked packets and the
 * timeout), over xbar_bench_traffic.h and xbar_bench_check.h. */
#ifndef SANFAB_XBAR_BENCH_SCENARIOS_H
#define SANFAB_XBAR_BENCH_SCENARIOS_H

#include "xbar_bench_check.h"
#include "xbar_bench_traffic.h"

/* latency: one packet at a time on an idle switch, every input and output in turn */
typedef struct {
    int waiting;
    uint64_t next_at;
    unsigned src, k;
} scen_lat_t;

/* blocked packets: see scen_blocked() */
typedef enum { BL_IDLE, BL_RUN, BL_RESUME } bl_phase_t;
typedef struct {
    bl_phase_t ph;
    unsigned round;
    int with_stop;          /* this round output 0 is also stopped from downstream */
    unsigned a, b;          /* the owning input and the waiting input */
    uint64_t at;            /* when the round started */
    uint64_t hdr_a, hdr_b;  /* route bytes sampled (UINT64_MAX: not yet) */
    uint64_t end_b;         /* B's GAP sampled */
    uint64_t last_out_a;    /* last data character of A on tx[0] */
    uint64_t go_at;         /* GO sampled on rx[0] (with_stop rounds) */
    uint64_t stop_at;       /* STOP sampled on rx[0] (with_stop rounds) */
    unsigned occ_b;         /* stat_occ[b] after B's GAP */
    int b_drained, a_aborted;
    uint64_t done_at;
    uint64_t quiet_from;    /* the switch and the hosts quiet since */
} scen_bl_t;

typedef struct {
    scen_lat_t lat;
    scen_bl_t bl;
} scen_t;

/* The latency scenario's cycle: one packet at a time on an idle switch, every input and output in turn. */
void scen_latency(scen_t *s, traffic_t *t, host_t *host, sb_t *sb, const chk_t *k, uint64_t cyc, int generate);
/* The blocked-packets scenario's cycle (xbar_bench_scenarios.c): post = 0 acts before the hosts step, post = 1 checks the step. */
void scen_blocked(scen_t *s, traffic_t *t, host_t *host, sb_t *sb, result_t *res, uint64_t cyc,
                  const xbar_in_t *in, const xbar_out_t *out, int generate, int post);

#endif

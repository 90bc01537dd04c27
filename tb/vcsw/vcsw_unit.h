/* sanfab — the VC switch model's unit test (vcsw_unit): its simulation harness (vcsw_unit_sim.c: a
 * run of the model with its stimulus and everything it sent, configuration and flit stimulus, output
 * analysis, the parameter sets) and the tests, one file per topic (vcsw_unit_<topic>.c), which the
 * table of vcsw_unit.c runs (tb/common/unit_main.h). */
#ifndef VCSW_UNIT_H
#define VCSW_UNIT_H

#include "unit_main.h"
#include "vcsw.h"
#include "rng.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ simulation harness */

/* A run of the model: stimulus per step (index k = the input of vcsw_step number k; step 0 is reset)
 * and what came out after every step. */
typedef struct {
    vcsw_params_t p;
    vcsw_t *m;
    unsigned n, nvc, ndvc, L, maxs, k, cfg_next;
    uint32_t fmask;
    vcsw_flit_t *rx[VCSW_MAX_PORTS];
    uint16_t *ts[VCSW_MAX_PORTS]; /* tx_stop */
    uint8_t *we, *re;
    uint16_t *addr, *wd;
    vcsw_flit_t *tx[VCSW_MAX_PORTS];
    uint16_t *rs[VCSW_MAX_PORTS]; /* rx_stop */
    uint8_t *rv;
    uint32_t *rd;
    uint16_t *occ; /* [(k * n + p) * nvc + v]: vcsw_occupancy after step k */
} sim_t;

/* parameter sets the directed tests run on */
static const struct {
    unsigned n, nvc, ctrl, L;
} psets[] = {
    {8, 2, 1, 0}, {8, 2, 1, 3}, {2, 2, 0, 0}, {3, 4, 1, 3}, {5, 4, 0, 0}, {5, 2, 1, 3},
    {16, 16, 1, 0}, {16, 16, 0, 3}, {4, 8, 1, 1}, {16, 2, 0, 0},
};

#define NPSETS (sizeof psets / sizeof psets[0])

/* vcsw_unit_sim.c: the helpers */

void *xcalloc(size_t n, size_t sz);
sim_t *sim_new(const vcsw_params_t *p, unsigned maxs);
void sim_free(sim_t *s);
unsigned occ_at(const sim_t *s, unsigned k, unsigned p, unsigned v);
void sim_step(sim_t *s);
void sim_run(sim_t *s, unsigned upto);
void sim_all(sim_t *s);
void cfg_write_at(sim_t *s, unsigned k, unsigned space, unsigned idx, unsigned wdata);
void cfg_read_at(sim_t *s, unsigned k, unsigned space, unsigned idx);
void set_route(sim_t *s, unsigned tag, unsigned port);
void set_vc(sim_t *s, unsigned in, unsigned out, unsigned d, unsigned u);
void put_flit(sim_t *s, unsigned port, unsigned k, unsigned vc, uint32_t data, unsigned tail);
uint32_t pkt_data(const sim_t *s, unsigned id, unsigned i, unsigned tag);
unsigned put_pkt(sim_t *s, unsigned port, unsigned k, unsigned vc, unsigned tag, unsigned len, unsigned id);
void stop_range(sim_t *s, unsigned o, unsigned u, unsigned from, unsigned to);
int flit_is(const vcsw_flit_t *f, unsigned vc, uint32_t data, unsigned tail);
int flit_idle(const vcsw_flit_t *f);
int pkt_at(const sim_t *s, unsigned o, unsigned k, unsigned u, unsigned tag, unsigned len, unsigned id);
unsigned count_valid(const sim_t *s, unsigned o, unsigned from, unsigned to);
unsigned find_data(const sim_t *s, unsigned o, unsigned from, unsigned to, uint32_t data);
int others_idle(const sim_t *s, int except, unsigned from, unsigned to);
int never_rvalid(const sim_t *s, unsigned from, unsigned to);
vcsw_params_t params(unsigned n, unsigned nvc, unsigned ctrl, unsigned L);
const char *pstr(const vcsw_params_t *p);

/* vcsw_unit_flow.c: the diagram, latency, ownership and handover, Go & Stop both ways, VC interleaving */

void test_diagram(void);
void test_latency(void);
void test_ownership(void);
void test_stop_bit(void);
void test_interleave(void);
void test_blocked_vc(void);
void test_rx_stop(void);
void test_obeying_sender(void);

/* vcsw_unit_admission.c: admission at a full buffer, MAXLEN cuts, table drops, control VCs */

void test_admission(void);
void test_trunc_at_full(void);
void test_maxlen(void);
void test_drops(void);
void test_ctrl_vcs(void);

/* vcsw_unit_config.c: table-write timing, the configuration port, the counter schedule, the RAM read */

void test_write_timing(void);
void test_cfg(void);
void test_counters(void);
void test_ram_read(void);

/* vcsw_unit_arbitration.c: allocation and input round robin, starvation, blocked release, permutation throughput */

void test_alloc_rr(void);
void test_input_rr(void);
void test_starvation(void);
void test_blocked_release(void);
void test_permutation(void);

/* vcsw_unit_random.c: random traffic, event steps, port widths, stress, reset */

void test_random(void);
void test_event_steps(void);
void test_port_widths(void);
void test_stress(void);
void test_reset(void);
void test_reset_keeps_tables(void);

/* vcsw_unit_rule3.c: rule 3 (pipelined allocation) step by step, offers at reset, parameter checks */

void test_rule3_diagram_steps(void);
void test_rule3_stream(void);
void test_rule3_contention(void);
void test_rule3_stop_rise(void);
void test_rule3_single_flits(void);
void test_reset_offer(void);
void test_params(void);

/* vcsw_unit_quiet.c: vcsw_quiet/vcsw_skip against a model stepped every step */

void test_quiet_skip(void);

#endif

/* sanfab — the crossbar model's unit test (xbar_unit): its simulation harness (xbar_unit_sim.c: a run
 * of the model with its stimulus and everything it sent, packets made and parsed) and the tests, one
 * file per topic (xbar_unit_<topic>.c), which the table of xbar_unit.c runs (tb/common/unit_main.h). */
#ifndef XBAR_UNIT_H
#define XBAR_UNIT_H

#include "unit_main.h"
#include "link.h"
#include "xbar.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ simulation harness */

/* A run of the model: the stimulus rx[port][step] (IDLE unless set) and reg_rd/reg_addr[step],
 * and what came out at every step. Step 0 is reset; xbar_step() number k consumes index k. */
typedef struct {
    xbar_params_t p;
    xbar_t *m;
    unsigned n, maxs;
    unsigned k; /* last step done */
    uint16_t *rx[XBAR_MAX_PORTS], *tx[XBAR_MAX_PORTS];
    uint16_t *occ[XBAR_MAX_PORTS];
    uint8_t *rd, *rv;
    uint16_t *addr; /* reg_addr: {port, counter[3:0]}, XBAR_ADDR_BITS(NPORTS) bits */
    uint32_t *rdata;
    uint32_t *ctr; /* ctr[(step * NPORTS + port) * XBAR_NCTR + c]: xbar_counter after the step */
} sim_t;

enum { CRC_GOOD, CRC_WRONG, CRC_MARKED, CRC_NONE };

/* A packet seen on a tx link: its data bytes and how it ended. */
typedef struct {
    unsigned first, end_step; /* step of its first character and of its GAP/ABORT */
    unsigned len;
    uint8_t b[512];
    uint16_t end;    /* CH_GAP or CH_ABORT */
    uint8_t residue; /* CRC register over all its bytes (0 good, 0xF3 marked) */
} rxpkt_t;

/* xbar_unit_sim.c: the helpers */

sim_t *sim_new(const xbar_params_t *p, unsigned maxs);
void sim_free(sim_t *s);
uint32_t ctr_at(const sim_t *s, unsigned step, unsigned port, unsigned c);
void sim_run(sim_t *s, unsigned upto);
void sim_all(sim_t *s);
unsigned put_pkt(sim_t *s, unsigned port, unsigned step, const uint8_t *b, unsigned len, int crc,
                 uint16_t end);
unsigned make_pkt(uint8_t *b, unsigned dst, unsigned body, unsigned tag);
unsigned parse_tx(const sim_t *s, unsigned port, unsigned from, unsigned to, rxpkt_t *pk, unsigned max);
unsigned first_data(const sim_t *s, unsigned port, unsigned from, unsigned to);
unsigned count_char(const sim_t *s, unsigned port, unsigned from, unsigned to, uint16_t c);
xbar_params_t params(unsigned n);
unsigned umax(unsigned a, unsigned b);

/* xbar_unit_timing.c: latency, handover, STOP/GO both ways, timeouts */

void test_latency(void);
void test_handover(void);
void test_stop_go(void);
void test_downstream_stop(void);
void test_timeout_bound(void);
void test_timeout_hdr(void);

/* xbar_unit_malformed.c: illegal characters, routes, runts, CRC marking, overflow and dropping, ABORT owed */

void test_illegal(void);
void test_routes(void);
void test_runt_abort(void);
void test_crc(void);
void test_overflow(void);
void test_dropping(void);
void test_abt_owner(void);

/* xbar_unit_counters.c: the counter schedule and register port, occupancy, quiet/skip */

void test_counters(void);
void test_ctr_preset(void);
void test_occupancy(void);
void test_quiet_skip(void);

/* xbar_unit_arbitration.c: round robin, head timing, permutation throughput, 32 ports, parameter checks */

void test_round_robin(void);
void test_rr_regrant(void);
void test_head_timing(void);
void test_permutation(void);
void test_ports32(void);
void test_params(void);

#endif

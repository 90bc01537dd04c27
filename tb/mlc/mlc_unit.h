/* sanfab — the MLC model's unit test (mlc_unit): its harness (mlc_unit_pair.c: the reference check,
 * two MLCs joined by the link model, the frames seen on one end, stimulus) and the tests, one file
 * per topic (mlc_unit_<topic>.c), which the table of mlc_unit.c runs (tb/common/unit_main.h). */
#ifndef MLC_UNIT_H
#define MLC_UNIT_H

#include "unit_main.h"
#include "mlc.h"
#include "mlc_host.h"
#include "ring.h"
#include "rng.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ two-end harness */

typedef struct {
    uint64_t step;
    unsigned to_b;  /* 1: on B's inputs (the A->B direction), 0: on A's */
    uint8_t xor_d;  /* rx_d ^= xor_d */
} flip_t;

typedef struct {
    mlc_params_t pa, pb;
    unsigned LD;
    mlc_t *a, *b;
    mlc_link_t *l;
    mlc_host_t *ha, *hb;  /* host drivers, or NULL: host fields from sa/sb */
    mlc_in_t ia, ib;      /* rx fields of the next step (from the link) */
    mlc_out_t oa, ob;     /* outputs after the last step */
    uint64_t k;
    size_t maxs;          /* trace length (0: none) */
    mlc_in_t *sa, *sb;    /* stimulus of step k (host and register fields; rx too with manual_rx_b) */
    mlc_out_t *ta, *tb;   /* outputs after step k */
    mlc_in_t *xa, *xb;    /* inputs of step k as applied */
    int manual_rx_b;      /* B's rx_en/rx_d from sb[k] instead of the link */
    flip_t flips[64];
    unsigned nflips;
    uint64_t erase_from[2], erase_to[2]; /* [to_b]: rx_en forced 0 in these steps */
    mlc_in_t ain, bin;    /* inputs of the last step as applied (faults included) */
    uint64_t pulse[2];    /* [to_b]: rx_en forced 1 (rx_d 0) in this step (0: none) */
} pair_t;

/* GUARD value of params(): pair_new replaces it by the doc's 2 LINK_DELAY + 4 + TURN(A) */
#define GUARD_AUTO 1000u

/* ---------------------------------------------------------------- frames seen on one end's tx */

typedef struct {
    uint64_t start;   /* first step whose output carries the frame */
    unsigned n;       /* nibbles */
    uint8_t nib[MLC_MAX_NIBBLES + 8];
} frame_t;

/* mlc_unit_pair.c: the helpers */

void *xcalloc(size_t n, size_t sz);
unsigned ref_crc(const uint8_t *nib, unsigned n);
unsigned add_check(uint8_t *nib, unsigned n);
pair_t *pair_new(const mlc_params_t *pa, const mlc_params_t *pb, unsigned LD, size_t maxs, int hosts);
void pair_free(pair_t *P);
void pair_flip(pair_t *P, uint64_t step, unsigned to_b, uint8_t xor_d);
void pair_step(pair_t *P);
void pair_run(pair_t *P, uint64_t upto);
unsigned frames_of(const pair_t *P, unsigned side, frame_t *fr, unsigned max);
int nib_eq(const uint8_t *a, const uint8_t *b, unsigned n);
void print_nibs(const char *what, const uint8_t *n, unsigned len);
void put_write(mlc_in_t *s, uint64_t k, unsigned ch, uint16_t w);
void put_unit_ii(mlc_in_t *s, uint64_t k, unsigned ch);
mlc_params_t params(unsigned lw, unsigned fifo, unsigned turn, unsigned master, unsigned timeout);
unsigned G_of(unsigned LD, unsigned turn);
uint64_t put_units(mlc_in_t *s, uint64_t k, unsigned ch, unsigned units);
void set_cfg(mlc_in_t *s, uint64_t k, unsigned v);
uint64_t put_frame_b(pair_t *P, uint64_t k, const uint8_t *nib, unsigned n);
unsigned mk_frame(uint8_t *f, unsigned np, unsigned ch, unsigned T, unsigned E, unsigned seed);

/* mlc_unit_frames.c: parameter checks, the frame format: the check, null frames, turn timing, one packet, latency */

void test_params(void);
void test_crc_reference(void);
void test_null_frames(void);
void test_turn_timing(void);
void test_one_packet(void);
void test_latency(void);

/* mlc_unit_credits.c: credits, bursts, modes, straddling units */

void test_credit_limit(void);
void test_burst(void);
void test_modes(void);
void test_straddle(void);

/* mlc_unit_messages.c: messages through the driver, configuration changes, message switching */

void test_messages(void);
void test_cfg_changes(void);
void test_msg_switch(void);

/* mlc_unit_errors.c: check errors and recovery, hand-made frames, the guard pulse, double talk */

void test_corrupt_data(void);
void test_corrupt_reply(void);
void test_corrupt_fields(void);
void test_handmade(void);
void test_guard_pulse(void);
void test_double_talk(void);

/* mlc_unit_guard.c: the slave's guard (rule 2), the timeout */

void test_guard_edges(void);
void test_guard_free(void);
void test_guard_sweep(void);
void test_timeout(void);

/* mlc_unit_ports.c: the host and register ports, reset, efficiency (docs/mlc.md, Efficiency) */

void test_ports(void);
void test_reset(void);
void test_efficiency(void);

/* mlc_unit_random.c: random traffic with a scoreboard */

void test_random(uint64_t seed0, uint64_t total);

#endif

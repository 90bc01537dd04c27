/* sanfab — cycle-exact C model of the Maestro switch box, written from its contract
 * docs/sbox.md (and docs/mlc.md for the MLCs it is built from).
 *
 * The box holds PORTS MLC models (cmodel/mlc.h) and is the host of all of them: message analyzers,
 * a round-robin manager, one 16-bit bus with round-robin grants, destination locks, barriers
 * through a tree, a register port and CTR_W-bit counters. One sbox_step() call is one step (one
 * rising clock edge): `in` holds what the input ports carry in that cycle, `out` receives what the
 * registered output ports carry after the edge. After sbox_new()/sbox_reset() the box is at step 0.
 */
#ifndef SANFAB_SBOX_H
#define SANFAB_SBOX_H

#include "mlc.h"

#include <stddef.h>
#include <stdint.h>

#define SBOX_MAX_PORTS 8   /* PORTS range 2..8 */
#define SBOX_MAX_NODES 16  /* NODES range 1..16 (MASK has 16 bits) */
#define SBOX_NCH 2         /* channels */

/* Register port addresses (docs/sbox.md, Register port); reg_addr is 9 bits wide. */
#define SBOX_REG_MLC(p, a) ((uint16_t)((((unsigned)(p) & 7u) << 5) | ((unsigned)(a) & 31u))) /* MLC p's register a */
#define SBOX_REG_CTR(i) ((uint16_t)(0x100u + (unsigned)(i)))  /* box counter i (0..7), read only */
#define SBOX_REG_UP 0x110u                                    /* up port: bit 4 set, bits 2..0 the port */
#define SBOX_REG_BAR(c) ((uint16_t)(0x111u + (unsigned)(c)))  /* barrier of channel c, read only */
#define SBOX_REG_TABLE(d) ((uint16_t)(0x120u + (unsigned)(d))) /* table entry d: bit 4 valid, bits 2..0 port */
#define SBOX_REG_VALID 0x10u                                  /* bit 4 of the up port and of a table entry */
#define SBOX_RDATA_ERROR 0x80000000u                          /* no such register */

/* Barrier register fields (0x111, 0x112). */
#define SBOX_BAR_BUSY 1u
#define SBOX_BAR_UP_SENT 2u
#define SBOX_BAR_A(v) (((uint32_t)(v) >> 8) & 0xFFu)
#define SBOX_BAR_M(v) (((uint32_t)(v) >> 16) & 0xFFFFu)

/* Made barrier units' word 0 (docs/sbox.md rule 5). */
#define SBOX_W0_REQUEST 0xFF04u /* TYPE 0, KIND 2, DST 255 */
#define SBOX_W0_RELEASE 0xFF06u /* TYPE 0, KIND 3, DST 255 */

/* Box counters (docs/sbox.md, Counters); register 0x100 + index. */
enum {
    SBOX_CTR_MSGS = 0,   /* messages activated with a port set (data and releases) */
    SBOX_CTR_MCAST,      /* of those, with two or more ports */
    SBOX_CTR_WORDS,      /* words written to destination FIFOs (a multicast word counts once) */
    SBOX_CTR_DROP_ROUTE, /* messages dropped: no destination */
    SBOX_CTR_BAR_REQ,    /* barrier requests taken */
    SBOX_CTR_BAR_DONE,   /* barriers complete at this box */
    SBOX_CTR_ERR_BAR,    /* barrier requests rejected */
    SBOX_CTR_ERR_MSG,    /* Type1 messages with PC < 2 */
    SBOX_NCTR
};

/* LINK_DELAY (0..64): the ports' links' cable registers; the box's slave MLCs get GUARD = mlc_guard(LINK_DELAY, 0) */
typedef struct { unsigned PORTS, NODES, LINK_W, FIFO_BYTES, TURN, TIMEOUT, CTR_W, MASTER_MASK, LINK_DELAY; } sbox_params_t;
typedef struct { uint8_t rx_en[8], rx_d[8]; uint8_t reg_rd, reg_wr; uint16_t reg_addr, reg_wdata; } sbox_in_t;
typedef struct { uint8_t tx_en[8], tx_d[8]; uint8_t reg_rvalid; uint32_t reg_rdata; } sbox_out_t;

typedef struct sbox sbox_t;

/* 0 if the parameter set is valid, else -1 and (if err) a message naming the first bad parameter
 * and its range, cut to n bytes. */
int sbox_params_check(const sbox_params_t *p, char *err, size_t n);

/* Allocates a box at step 0 (as after reset); NULL on a bad parameter set or no memory. */
sbox_t *sbox_new(const sbox_params_t *p);

/* Back to step 0, as a step with rst = 1: every MLC reset, every source IDLE, pointers, counters,
 * barriers, in-flight read/write and register answer 0, table invalid, no up port. */
void sbox_reset(sbox_t *b);

/* One step (rising clock edge): consumes this cycle's inputs, writes the registered outputs after it. */
void sbox_step(sbox_t *b, const sbox_in_t *in, sbox_out_t *out);

/* Box counter i (0..SBOX_NCTR-1), wrapped to CTR_W bits; 0 for another i. */
uint64_t sbox_counter(const sbox_t *b, unsigned i);

/* Test only (the benches' counter preset, docs/verification.md): sets box counter i (0..SBOX_NCTR-1) to v wrapped to
 * CTR_W bits between two steps, as the benches' backdoor does to the RTL's; another i is ignored. */
void sbox_ctr_preset(sbox_t *b, unsigned i, uint64_t v);

/* Skipping the box's own rules in a step in which they would change nothing (every source idle, nothing to read,
 * no register request): on (1, the default) or off (0). Outputs and state are the same either way; a speed-up. */
void sbox_set_fast(sbox_t *b, int on);

/* Coverage (no effect on behaviour): the steps since sbox_new in which a reservation held back a waiting data or
 * release source whose FIFOs were all unlocked (docs/sbox.md rule 3, Reservation). */
uint64_t sbox_rsv_holds(const sbox_t *b);

/* Port p's MLC model (for its counters), or NULL if p >= PORTS. */
const mlc_t *sbox_mlc(const sbox_t *b, unsigned p);

/* Frees a box and its MLCs (NULL is allowed). */
void sbox_free(sbox_t *b);

#endif

/* sanfab — cycle-exact C model of one Maestro Link Controller (MLC), written from its contract
 * docs/mlc.md, plus the two-end link model that joins two of them.
 *
 * One mlc_step() call is one step (one rising clock edge): `in` holds what the input ports carry in
 * that cycle, `out` receives what the registered output ports carry after the edge. After
 * mlc_new()/mlc_reset() the model is at step 0; the first mlc_step() call is step 1.
 */
#ifndef SANFAB_MLC_H
#define SANFAB_MLC_H

#include <stdint.h>

#define MLC_NCH 2             /* channels */
#define MLC_MAX_NP 15         /* units per frame */
#define MLC_MAX_NIBBLES 488   /* nibbles of a full frame: 8 + 32*15 */
#define MLC_MAX_LINK_DELAY 64 /* cable registers of the link model */

/* Configuration register (reg_addr 16). */
#define MLC_CFG_MSG 1u                                  /* bit 0: message-based transfer */
#define MLC_CFG_SP(sp) ((uint16_t)(((unsigned)(sp) & 3u) << 1)) /* bits 2..1: 0 burst, 1/2/3 single 16/32/64 B */

/* Register port addresses. */
#define MLC_REG_LINK 15u
#define MLC_REG_CFG 16u
#define MLC_REG_TX_SPACE(c) (17u + (unsigned)(c))
#define MLC_REG_RX_AVAIL(c) (19u + (unsigned)(c))
#define MLC_RDATA_ERROR 0x80000000u

/* Link states (register 15 bits 13..12). */
enum { MLC_ST_TURN = 0, MLC_ST_SEND = 1, MLC_ST_LISTEN = 2 };

/* Counter indices (docs/mlc.md, Counters); 0..14 are on the register port. */
enum {
    MLC_CTR_TX_FRAMES = 0, /* frames sent */
    MLC_CTR_TX_NULL,       /* null frames sent */
    MLC_CTR_TX_PKTS,       /* units sent, resends included */
    MLC_CTR_RX_FRAMES,     /* good frames received */
    MLC_CTR_RX_NULL,       /* good null frames received */
    MLC_CTR_RX_PKTS,       /* units accepted */
    MLC_CTR_ERR_CHECK,     /* frames dropped: check failed */
    MLC_CTR_ERR_LEN,       /* frames dropped: too long or too short */
    MLC_CTR_ERR_CREDIT,    /* frames dropped: more units than granted */
    MLC_CTR_DUP,           /* frames dropped: data frame already accepted */
    MLC_CTR_RETX,          /* units found unacknowledged (to be resent) */
    MLC_CTR_TIMEOUT,       /* master timeouts */
    MLC_CTR_CONFLICT,      /* steps with rx_en while in TURN or SEND */
    MLC_CTR_WR_OVER,       /* host writes refused */
    MLC_CTR_RD_UNDER,      /* host reads refused */
    MLC_CTR_ERR_MSG,       /* Type1 with Pkt-Counter < 2 (model only) */
    MLC_NCTR
};

/* Parameters: the same names, meaning and ranges as the RTL parameters (docs/mlc.md). */
typedef struct {
    unsigned LINK_W;     /* 4, 8 */
    unsigned FIFO_BYTES; /* 256, 512, 1024, 2048, 4096 */
    unsigned TURN;       /* 0..15 */
    unsigned MASTER;     /* 0, 1 */
    unsigned TIMEOUT;    /* 0 or 16..65535 (master only) */
    unsigned CTR_W;      /* 8..32 */
    unsigned GUARD;      /* 0..147, slave only: 2*LINK_DELAY + 4 + TURN of the master (mlc_guard); 0 no guard */
} mlc_params_t;

typedef struct {
    uint8_t h_wr, h_wch;  /* host write of one word into send FIFO h_wch */
    uint16_t h_wdata;
    uint8_t h_rd, h_rch;  /* host read of one word from receive FIFO h_rch */
    uint8_t rx_en, rx_d;  /* link: CTL and D as seen at this end */
    uint8_t reg_rd, reg_wr, reg_addr;
    uint16_t reg_wdata;
} mlc_in_t;

typedef struct {
    uint8_t tx_en, tx_d;            /* link: this end drives D = tx_d, CTL = 1 */
    uint8_t h_rvalid;
    uint16_t h_rdata;
    uint16_t st_tx_space[MLC_NCH];  /* bytes the host may write now */
    uint16_t st_rx_avail[MLC_NCH];  /* bytes the host may read now */
    uint8_t reg_rvalid;
    uint32_t reg_rdata;
} mlc_out_t;

typedef struct mlc mlc_t;

/* Default parameters: LINK_W 4, FIFO_BYTES 2048, TURN 1, MASTER 1, TIMEOUT 1024, CTR_W 16, GUARD 5. */
mlc_params_t mlc_default_params(void);

/* The slave's GUARD for a link of `link_delay` cable registers whose master has TURN `master_turn`:
 * 2*link_delay + 4 + master_turn, the step (after its own last symbol) the master's reply arrives in. */
unsigned mlc_guard(unsigned link_delay, unsigned master_turn);

/* NULL if the parameter set is valid, else a static message naming the first bad parameter and its range. */
const char *mlc_params_check(const mlc_params_t *p);

/* Length in symbols (steps) of a frame of np units: (8 + 32*np) * 4 / LINK_W. */
unsigned mlc_frame_symbols(const mlc_params_t *p, unsigned np);

/* Allocates a model at step 0; NULL if the parameters are invalid or memory is short. */
mlc_t *mlc_new(const mlc_params_t *p);

/* Frees a model (NULL is allowed). */
void mlc_free(mlc_t *m);

/* Back to step 0 (rst): FIFOs empty, every register and counter at its reset value. */
void mlc_reset(mlc_t *m);

/* One step (rising clock edge): consumes this cycle's inputs, writes the registered outputs after the edge. */
void mlc_step(mlc_t *m, const mlc_in_t *in, mlc_out_t *out);

/* Events of counter `ctr` in every step so far, modulo 2^CTR_W; 0 out of range. */
uint32_t mlc_counter(const mlc_t *m, unsigned ctr);

/* TEST ONLY (the benches' counter preset mode, docs/verification.md): sets counter `ctr` to v modulo
 * 2^CTR_W, as the RTL bench's backdoor does to the RTL's counter; no effect out of range. */
void mlc_ctr_preset(mlc_t *m, unsigned ctr, uint32_t v);

/* Name of a counter index, e.g. "tx_frames"; "?" if out of range. */
const char *mlc_counter_name(unsigned ctr);

/* Steps since the last reset. */
uint64_t mlc_steps(const mlc_t *m);

/* ------------------------------------------------------------------ link model */

/* Two ends A and B joined by LINK_DELAY cable registers per direction (docs/mlc.md, The link). */
typedef struct mlc_link mlc_link_t;

/* Allocates a link of `delay` (0..64) cable registers, idle; NULL if delay is out of range. */
mlc_link_t *mlc_link_new(unsigned delay);

/* Frees a link (NULL is allowed). */
void mlc_link_free(mlc_link_t *l);

/* Back to idle (every cable register empty), overlap count 0. */
void mlc_link_reset(mlc_link_t *l);

/* Carries the link outputs of both ends after step k (oa, ob) to their rx_en/rx_d inputs of step
 * k+1 (ia, ib; only those two fields are written): each end sees the other's output of LINK_DELAY
 * steps earlier. Counts an overlap whenever, at either end's pins, both ends drive in one cycle. */
void mlc_link_step(mlc_link_t *l, const mlc_out_t *oa, const mlc_out_t *ob, mlc_in_t *ia, mlc_in_t *ib);

/* Cycles in which both ends drove at one end's pins (0 for two correct ends). */
uint64_t mlc_link_overlaps(const mlc_link_t *l);

#endif

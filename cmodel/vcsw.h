/* sanfab — cycle-exact C model of the RHiNET-2-style table-lookup virtual-channel switch, written
 * from its contract docs/vcsw.md, not from the RTL.
 *
 * One vcsw_step() call is one step (one rising clock edge): `in` holds what the input ports carry
 * in that cycle, `out` receives what the registered output ports carry after the edge. After
 * vcsw_new()/vcsw_reset() the model is at step 0; the first vcsw_step() call is step 1.
 */
#ifndef SANFAB_VCSW_H
#define SANFAB_VCSW_H

#include <stdint.h>

#define VCSW_MAX_PORTS 16
#define VCSW_MAX_VCS 16
#define VCSW_MAX_LINK_DELAY 64

/* Configuration address spaces: cfg_addr = space << 14 | index. */
#define VCSW_SPACE_ROUTE 0u
#define VCSW_SPACE_VC 1u
#define VCSW_SPACE_CTR 2u
#define VCSW_CFG_ADDR(space, index) ((uint16_t)(((unsigned)(space) << 14) | ((unsigned)(index) & 0x3FFFu)))
#define VCSW_VC_INDEX(in, out, d) ((((unsigned)(in) & 15u) << 8) | (((unsigned)(out) & 15u) << 4) | ((unsigned)(d) & 15u))
#define VCSW_CTR_INDEX(port, vc, ctr) ((((unsigned)(port) & 15u) << 7) | (((unsigned)(vc) & 15u) << 3) | ((unsigned)(ctr) & 7u))
#define VCSW_ENTRY(valid, value) ((uint16_t)(((valid) ? 0x8000u : 0u) | ((unsigned)(value) & 15u)))
#define VCSW_RDATA_ERROR 0x80000000u

/* Counter indices (docs/vcsw.md, Counters). */
enum {
    VCSW_CTR_RX_FLITS = 0, /* flits received */
    VCSW_CTR_RX_PKTS,      /* heads received, dropped ones included */
    VCSW_CTR_TX_FLITS,     /* flits sent (put into the transmit register) */
    VCSW_CTR_TX_PKTS,      /* tails sent */
    VCSW_CTR_DROP_ROUTE,   /* packets dropped: routing entry invalid or port >= NPORTS */
    VCSW_CTR_DROP_VC,      /* packets dropped: VC entry invalid or VC >= NDVC */
    VCSW_CTR_TRUNC,        /* packets cut at MAXLEN */
    VCSW_CTR_OVERFLOW,     /* packets cut or discarded at a full buffer */
    VCSW_NCTR
};

/* Parameters: the same names, meaning and ranges as the RTL parameters (docs/vcsw.md). */
typedef struct {
    unsigned NPORTS;     /* 2..16 */
    unsigned NVC;        /* 2, 4, 8, 16 */
    unsigned CTRL;       /* 1: upper half of the VCs are control VCs; 0: all data */
    unsigned FLIT_W;     /* TAG_W..32 */
    unsigned TAG_W;      /* 1..12 */
    unsigned DEPTH;      /* 8, 16, 32, 64, 128, 256 flits per input VC */
    unsigned MAXLEN;     /* 1..DEPTH flits per packet */
    unsigned LINK_DELAY; /* 0..64 */
    unsigned COUNTERS;   /* 0, 1 */
    unsigned CTR_WIDTH;  /* 8..32 */
} vcsw_params_t;

/* One flit on a link (valid = 0: idle; then vc, tail and data are 0 on outputs). */
typedef struct {
    uint8_t valid;
    uint8_t vc;
    uint8_t tail;
    uint32_t data;
} vcsw_flit_t;

typedef struct {
    vcsw_flit_t rx[VCSW_MAX_PORTS];  /* flit arriving on each input (ignored past NPORTS) */
    uint16_t tx_stop[VCSW_MAX_PORTS]; /* stop bits from the receiver on each output, bit v = VC v */
    uint8_t cfg_we, cfg_re;
    uint16_t cfg_addr, cfg_wdata;
} vcsw_in_t;

typedef struct {
    vcsw_flit_t tx[VCSW_MAX_PORTS];  /* flit leaving each output (idle past NPORTS) */
    uint16_t rx_stop[VCSW_MAX_PORTS]; /* stop bits towards the sender on each input, bit v = VC v */
    uint8_t cfg_rvalid;
    uint32_t cfg_rdata;
} vcsw_out_t;

typedef struct vcsw vcsw_t;

/* Default parameters: 8 ports, 2 VCs, CTRL 1, 16-bit flits, 8-bit tags, DEPTH 64, MAXLEN 32,
 * LINK_DELAY 0, COUNTERS 1, CTR_WIDTH 32. */
vcsw_params_t vcsw_default_params(void);

/* NULL if the parameter set is valid, else a static message naming the first bad parameter and its range. */
const char *vcsw_params_check(const vcsw_params_t *p);

/* STOP_AT of a parameter set: DEPTH - MAXLEN - 2*LINK_DELAY - 4 (may be <= 0 for invalid sets). */
int vcsw_stop_at(const vcsw_params_t *p);

/* Data VCs (NDVC): NVC/2 with CTRL = 1, else NVC. */
unsigned vcsw_ndvc(const vcsw_params_t *p);

/* Allocates a model at step 0; NULL if the parameters are invalid or memory is short. */
vcsw_t *vcsw_new(const vcsw_params_t *p);

/* Frees a model (NULL is allowed). */
void vcsw_free(vcsw_t *m);

/* Back to step 0 (rst): every register at its reset value, counters 0; the tables are kept (they
 * are RAM, invalid only after vcsw_new). */
void vcsw_reset(vcsw_t *m);

/* One step (rising clock edge): consumes this cycle's inputs, writes the registered outputs after the edge. */
void vcsw_step(vcsw_t *m, const vcsw_in_t *in, vcsw_out_t *out);

/* Events of counter `ctr` of (port, vc) in every step so far, modulo 2^CTR_WIDTH (kept even with
 * COUNTERS = 0); 0 out of range. For scoreboards and debugging. */
uint32_t vcsw_counter(const vcsw_t *m, unsigned port, unsigned vc, unsigned ctr);

/* Test only (the benches' counter preset mode, docs/vcsw.md "Counters"): adds `add` to counter `ctr` of
 * (port, vc), modulo 2^CTR_WIDTH, for every flush after the current step and for vcsw_counter(); nothing
 * out of range. A switch has no such operation: the RTL benches add the same to the counter RAM. */
void vcsw_ctr_preset(vcsw_t *m, unsigned port, unsigned vc, unsigned ctr, uint32_t add);

/* Name of a counter index, e.g. "rx_flits"; "?" if out of range. */
const char *vcsw_counter_name(unsigned ctr);

/* Occupancy of the buffer of (port, vc) after the last step (entries held); 0 out of range. */
unsigned vcsw_occupancy(const vcsw_t *m, unsigned port, unsigned vc);

/* Quiescence, for network simulators that skip idle switches (docs/vcsw.md, "C model: quiet switches"):
 * 1 if a step with idle inputs (no rx flit, tx_stop 0, cfg_we = cfg_re = 0) would change nothing but
 * the step number (every buffer, read register, input register and offer register empty, the rx_stop
 * and tx_stop registers 0, every transmit and cable register idle, no read outstanding; ingress states
 * and owned output VCs may be anything). Its outputs are then idle and the next idle step is quiet too. */
int vcsw_quiet(const vcsw_t *m);

/* Advances a quiet model by n steps exactly as n vcsw_step() calls with idle inputs would (step number,
 * cable position, counter schedule); call it only when vcsw_quiet() is 1 (it stays 1 over idle steps). */
void vcsw_skip(vcsw_t *m, uint64_t n);

/* Steps since the last reset (vcsw_step() calls plus steps skipped by vcsw_skip()). */
uint64_t vcsw_steps(const vcsw_t *m);

/* 1 if two models of the same parameters hold the same state (every register, buffer, RAM word, table,
 * cable register and position, read, counter schedule and step); for tests of vcsw_skip(). */
int vcsw_state_equal(const vcsw_t *a, const vcsw_t *b);

#endif

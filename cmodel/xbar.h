/* sanfab — cycle-exact C model of the source-routed wormhole crossbar, written from its contract
 * docs/xbar.md (v2, pipelined), not from the RTL.
 *
 * One xbar_step() call is one step (one rising clock edge): `in` holds what the input ports carry
 * in that cycle, `out` receives what the registered output ports carry after the edge. After
 * xbar_new()/xbar_reset() the model is at step 0 (the last edge with rst high); the first
 * xbar_step() call is step 1.
 */
#ifndef SANFAB_XBAR_H
#define SANFAB_XBAR_H

#include <stdint.h>

#define XBAR_MAX_PORTS 32
#define XBAR_MAX_SLACK 8191 /* SLACK_DEPTH 4..8191: a 4 KB packet and its STOP/GO slack fit */
#define XBAR_MAX_LINK_DELAY 64

/* Width of the register port's address in bits: {port, counter[3:0]} with 4 port bits up to 16 ports
 * and 5 above (8 or 9 bits; the RTL's reg_addr port has this width). */
#define XBAR_ADDR_BITS(nports) ((nports) > 16u ? 9u : 8u)

/* Counter indices of the register port: reg_addr = port * 16 + index. */
enum {
    XBAR_CTR_RX_PKTS = 0,   /* packets ended on this input (GAP or ABORT inside a packet) */
    XBAR_CTR_RX_BYTES,      /* data characters received, route byte included */
    XBAR_CTR_TX_PKTS,       /* packets ended on this output (GAP or ABORT sent) */
    XBAR_CTR_TX_BYTES,      /* data characters sent */
    XBAR_CTR_CRC_ERR,       /* packets whose CRC was wrong here (not already marked upstream) */
    XBAR_CTR_DROP_ROUTE,    /* packets dropped: the route byte named no port */
    XBAR_CTR_DROP_TIMEOUT,  /* packets drained by the blocking timeout (forward reset) */
    XBAR_CTR_MALFORMED,     /* runts and illegal control characters (inside or between packets) */
    XBAR_CTR_OVERFLOW,      /* slack-buffer entries lost to a full buffer */
    XBAR_NCTR
};

/* Parameters: the same names, meaning and ranges as the RTL parameters (docs/xbar.md). */
typedef struct {
    unsigned NPORTS;      /* ports, 2..32 */
    unsigned SLACK_DEPTH; /* slack buffer capacity per input in entries, 4..8191 */
    unsigned STOP_THRESH; /* want STOP when occupancy >= STOP_THRESH, 1..SLACK_DEPTH */
    unsigned GO_THRESH;   /* want GO when occupancy <= GO_THRESH, 0..STOP_THRESH-1 */
    unsigned ROUTE_DELAY; /* steps a header waits in HDR before it may request its output, 0..255 */
    unsigned LINK_DELAY;  /* cable registers after every transmit register, 0..64 */
    unsigned TIMEOUT;     /* steps without progress before a packet is drained: 0 (never) or 2..2^24-1 */
    unsigned COUNTERS;    /* 1: counter block and read port; 0: none, every read answers 0 at once */
    unsigned CTR_WIDTH;   /* counter width 8..32: counters wrap modulo 2^CTR_WIDTH */
} xbar_params_t;

typedef struct {
    uint16_t rx[XBAR_MAX_PORTS]; /* 9-bit character per input port (bits above 8 are ignored) */
    uint8_t reg_rd;              /* counter read request */
    uint16_t reg_addr;           /* {port, counter[3:0]}, XBAR_ADDR_BITS(NPORTS) bits (bits above are ignored) */
} xbar_in_t;

typedef struct {
    uint16_t tx[XBAR_MAX_PORTS];      /* 9-bit character per output port (IDLE past NPORTS) */
    uint8_t reg_rvalid;               /* a read is answered in this step */
    uint32_t reg_rdata;               /* its value (0 when reg_rvalid is 0) */
    uint16_t stat_occ[XBAR_MAX_PORTS]; /* occupancy of each input's slack buffer (0 past NPORTS) */
} xbar_out_t;

typedef struct xbar xbar_t;

/* Default parameters: 8 ports, Myrinet's 80-entry slack buffer with STOP at 56 and GO at 40,
 * ROUTE_DELAY 0, LINK_DELAY 0, TIMEOUT 4096, COUNTERS 1, CTR_WIDTH 32. */
xbar_params_t xbar_default_params(void);

/* Checks a parameter set against the doc's ranges: NULL if valid, else a static message naming
 * the first bad parameter and its allowed range. */
const char *xbar_params_check(const xbar_params_t *p);

/* Allocates a model in its reset state (step 0); NULL if the parameters are invalid or memory is short. */
xbar_t *xbar_new(const xbar_params_t *p);

/* Frees a model (NULL is allowed). */
void xbar_free(xbar_t *m);

/* Puts the model back into its reset state (step 0: every register at its reset value). */
void xbar_reset(xbar_t *m);

/* One step (rising clock edge): consumes this cycle's inputs, writes the registered outputs after the edge. */
void xbar_step(xbar_t *m, const xbar_in_t *in, xbar_out_t *out);

/* Events of counter `ctr` of `port` in every step so far, modulo 2^CTR_WIDTH (counted by the model
 * even with COUNTERS = 0); 0 for a port or index out of range. For scoreboards and debugging. */
uint32_t xbar_counter(const xbar_t *m, unsigned port, unsigned ctr);

/* TEST ONLY (the bench's counter preset, docs/verification.md): adds `value` to counter `ctr` of `port`, as
 * if that many events had come before, so every later flush and xbar_counter() include it (mod 2^CTR_WIDTH).
 * The RTL twin adds it to the slot's RAM word, so call it right after the step that flushed the slot. */
void xbar_ctr_preset(xbar_t *m, unsigned port, unsigned ctr, uint32_t value);

/* Name of a counter index, e.g. "rx_pkts"; "?" if out of range. */
const char *xbar_counter_name(unsigned ctr);

/* Quiescence, for network simulators that skip idle switches: 1 if a step with every input IDLE and no
 * register read would change nothing but the step number (empty slack buffers, every read side IDLE or
 * DRAIN, no transfer or abort request, every output free with no queue, no GAP/ABORT/STOP/GO owed and
 * IDLE in its transmit and cable registers, no read outstanding or answered). Its outputs are then IDLE. */
int xbar_quiet(const xbar_t *m);

/* Advances a quiet model by n steps exactly as n xbar_step() calls with IDLE inputs and no read would
 * (step number, cable position, counter schedule); call it only when xbar_quiet() held for all n. */
void xbar_skip(xbar_t *m, uint64_t n);

/* Steps since the last reset (xbar_step() calls plus steps skipped by xbar_skip()). */
uint64_t xbar_steps(const xbar_t *m);

#endif

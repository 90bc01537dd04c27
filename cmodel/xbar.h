/* sanfab — cycle-exact C model of the source-routed wormhole crossbar (rtl/xbar/xbar.v).
 *
 * One xbar_step() call is one rising clock edge: `in` holds what the input ports carry in this
 * cycle, `out` receives what the (registered) output ports carry after the edge. The model keeps
 * the same registers as the RTL; docs/xbar.md describes the behaviour both implement.
 */
#ifndef SANFAB_XBAR_H
#define SANFAB_XBAR_H

#include <stdint.h>

#define XBAR_MAX_PORTS 16
#define XBAR_MAX_SLACK 256
#define XBAR_MAX_LINK_DELAY 64

/* Counter indices of the register port: reg_addr = port * 16 + index. */
enum {
    XBAR_CTR_RX_PKTS = 0,   /* packets ended on this input (GAP or ABORT) */
    XBAR_CTR_RX_BYTES,      /* data characters received, route byte included */
    XBAR_CTR_TX_PKTS,       /* packets ended on this output (GAP or ABORT sent) */
    XBAR_CTR_TX_BYTES,      /* data characters sent */
    XBAR_CTR_CRC_ERR,       /* packets with a CRC error detected here (not marked upstream) */
    XBAR_CTR_DROP_ROUTE,    /* packets dropped: route byte names no port */
    XBAR_CTR_DROP_TIMEOUT,  /* packets drained by the blocking timeout (forward reset) */
    XBAR_CTR_MALFORMED,     /* runts (no byte after the route byte) and illegal control characters */
    XBAR_CTR_OVERFLOW,      /* characters lost because the slack buffer was full */
    XBAR_NCTR
};

/* Parameters: the same names and meaning as the RTL parameters. */
typedef struct {
    unsigned NPORTS;      /* 2..16 */
    unsigned SLACK_DEPTH; /* slack buffer capacity in characters, 4..255 */
    unsigned STOP_THRESH; /* send STOP upstream when occupancy >= STOP_THRESH */
    unsigned GO_THRESH;   /* send GO upstream when occupancy <= GO_THRESH */
    unsigned ROUTE_DELAY; /* extra cycles a header waits before it may request its output */
    unsigned LINK_DELAY;  /* cycles of cable delay modelled on every tx output, 0..64 */
    unsigned TIMEOUT;     /* cycles a packet may stay blocked before it is drained; 0 = never */
} xbar_params_t;

typedef struct {
    uint16_t rx[XBAR_MAX_PORTS]; /* 9-bit character per input port */
    uint8_t reg_rd;              /* counter read request */
    uint8_t reg_addr;            /* {port[3:0], counter[3:0]} */
} xbar_in_t;

typedef struct {
    uint16_t tx[XBAR_MAX_PORTS]; /* 9-bit character per output port */
    uint8_t reg_rvalid;          /* reg_rdata is valid this cycle */
    uint32_t reg_rdata;
} xbar_out_t;

typedef struct xbar xbar_t;

/* Default parameters (Myrinet values: 80-byte slack buffer, STOP at 56, GO at 40). */
xbar_params_t xbar_default_params(void);

/* Checks a parameter set; returns NULL if valid, else a static message naming the problem. */
const char *xbar_params_check(const xbar_params_t *p);

/* Allocates a model in its reset state; NULL if the parameters are invalid or memory is short. */
xbar_t *xbar_new(const xbar_params_t *p);

/* Frees a model (NULL is allowed). */
void xbar_free(xbar_t *m);

/* Puts the model into its reset state (the same as cycles with rst high in the RTL). */
void xbar_reset(xbar_t *m);

/* One rising clock edge: consumes this cycle's inputs, writes the outputs after the edge. */
void xbar_step(xbar_t *m, const xbar_in_t *in, xbar_out_t *out);

/* Events counted so far (what the register port will answer once the counter RAM has caught up);
 * for scoreboards and debugging. */
uint32_t xbar_counter(const xbar_t *m, unsigned port, unsigned ctr);

/* Name of a counter index, e.g. "rx_pkts"; "?" if out of range. */
const char *xbar_counter_name(unsigned ctr);

#endif

/* sanfab — a host at the end of a Myrinet-style link, for benches and network runs.
 *
 * The host sends queued packets (character streams) on its transmit link, obeying STOP/GO it
 * receives, and receives packets on its receive link into a modelled slack buffer that drains at
 * a configurable rate and sends STOP/GO back. Received packets are handed to a callback.
 * One host_step() is one clock cycle. All state is in the host_t.
 */
#ifndef SANFAB_XBAR_HOST_H
#define SANFAB_XBAR_HOST_H

#include <stdint.h>
#include "rng.h"

#define HOST_MAX_PKT 4096   /* characters in one queued or received packet */
#define HOST_QUEUE 8        /* packets queued for sending */
#define HOST_MAX_REACT 64

typedef struct {
    unsigned slack;      /* receive slack buffer capacity in characters */
    unsigned stop_th;    /* send STOP when occupancy >= stop_th */
    unsigned go_th;      /* send GO when occupancy <= go_th */
    unsigned drain_pct;  /* chance per cycle that one received character leaves the buffer */
    unsigned react;      /* cycles between receiving STOP/GO and obeying it (0..64) */
    unsigned bubble_pct; /* chance per cycle of an idle cycle inside a packet being sent */
    int ignore_stop;     /* misbehave: keep sending after STOP (overflow tests) */
    unsigned stop_grace; /* the far end may send packet characters this many cycles after our STOP */
} host_cfg_t;

/* What ended a received packet. */
typedef enum { HOST_END_GAP, HOST_END_ABORT } host_end_t;

/* Called for each packet received; bytes exclude the end symbol. */
typedef void (*host_rx_fn)(void *ctx, unsigned port, const uint8_t *bytes, unsigned len, host_end_t end);

typedef struct {
    uint16_t ch[HOST_MAX_PKT];
    unsigned len;
    int is_pkt; /* 1: a packet (counted in sent_pkts); 0: characters between packets */
} host_pkt_t;

typedef struct {
    host_cfg_t cfg;
    unsigned port;
    rng_t rng;
    /* sender */
    host_pkt_t q[HOST_QUEUE];
    unsigned q_head, q_count, pos;
    int stopped;                      /* obeyed STOP state */
    unsigned pause_at;                /* >0: hold the current packet before its character pause_at */
    uint8_t react_line[HOST_MAX_REACT + 1]; /* pending STOP(1)/GO(2) symbols by age */
    /* receiver */
    unsigned occ;
    int want_stop, announced_stop, force_stop;
    uint8_t rx_buf[HOST_MAX_PKT];
    unsigned rx_len;
    int rx_overflowed;                /* a packet longer than HOST_MAX_PKT arrived */
    host_rx_fn rx_fn;
    void *rx_ctx;
    /* statistics */
    uint64_t sent_pkts, sent_data, rcvd_gap, rcvd_abort, rcvd_data, slack_overflows, illegal_rcvd;
    uint64_t stray_gap_rcvd;          /* GAPs received outside a packet (a switch never sends one) */
    uint16_t first_illegal;           /* the first illegal character received (0: none) */
    uint64_t stops_rcvd, stops_sent;
    uint64_t stop_violations;         /* packet characters received later than stop_grace after STOP */
    uint64_t now, stop_sent_at;
} host_t;

/* Default configuration: 80-character buffer, STOP at 56, GO at 40, full drain rate. */
host_cfg_t host_default_cfg(void);

/* Initializes a host on `port` with its own random stream. */
void host_init(host_t *h, const host_cfg_t *cfg, unsigned port, uint64_t seed, host_rx_fn fn, void *ctx);

/* True if another packet can be queued. */
int host_can_queue(const host_t *h);

/* Queues a packet (characters, ending with GAP or ABORT as the caller wishes); 0 if full or too long. */
int host_queue(host_t *h, const uint16_t *ch, unsigned len);

/* Queues characters to be sent between packets (stray GAP/ABORT, illegal control characters):
 * they are not a packet and are not counted in sent_pkts. 0 if the queue is full. */
int host_queue_between(host_t *h, const uint16_t *ch, unsigned len);

/* True while a packet is queued or being sent. */
int host_busy(const host_t *h);

/* Holds the packet being sent before its character `pos` (0: never) until called again with 0:
 * the link idles inside the packet (blocked-packet tests). */
void host_pause_at(host_t *h, unsigned pos);

/* Forces STOP towards the switch (a STOP storm) while on is set. */
void host_force_stop(host_t *h, int on);

/* One cycle: `from_link` is the character arriving on the receive link; returns the character
 * the host puts on its transmit link. */
uint16_t host_step(host_t *h, uint16_t from_link);

#endif

/* sf_nic.h - Myrinet-style NICs of a crossbar network (seed 000 sec 4 and 5.3): source-route table,
 * packet building (route bytes + type + payload + CRC-8 + GAP), constant-rate message generation,
 * reception and latency measurement, In-Transit Buffers (ITB) with detection and DMA set-up delays,
 * cut-through re-injection, a per-NIC ITB pool and the seed's dynamic local/in-transit priority,
 * STOP/GO flow control in both directions. Model and choices: docs/network.md.
 * No global state; all randomness from the seed given to sf_nics_new(). */
#ifndef SF_NIC_H
#define SF_NIC_H

#include <stdint.h>
#include <stdio.h>

#include "sf_route.h"
#include "sf_topo.h"

/* Destination patterns (docs/network.md "Traffic"). */
typedef enum {
    SF_TR_UNIFORM = 0, SF_TR_BITREV, SF_TR_HOTSPOT, SF_TR_LOCAL, SF_TR_TRANSPOSE, SF_TR_COMPLEMENT, SF_TR_PERM
} sf_traffic;

/** Name of a pattern ("uniform", "bit-reversal", ...). */
const char *sf_traffic_name(sf_traffic t);
/** Pattern by name; -1 if unknown. */
int sf_traffic_parse(const char *s);

typedef struct {
    /* traffic */
    sf_traffic traffic;
    double hotspot_frac;      /* hotspot: share of messages to the hotspot host (0..1) */
    int local_l;              /* local: destinations at most l switches away */
    unsigned msg_size;        /* payload bytes per message (>= 8: source and sequence number travel in it) */
    double rate;              /* messages generated per cycle per host (constant rate); 0 = none */
    int alt_random;           /* 1: pick among a pair's alternatives at random; 0: always alternative 0 */
    /* ITB (seed 000 sec 5.3) */
    unsigned itb_detect;      /* cycles from an in-transit packet's first byte to its detection (44 = 275 ns) */
    unsigned itb_dma;         /* more cycles to set the re-injection DMA up (32 = 200 ns) */
    uint64_t itb_pool;        /* ITB pool per NIC in bytes (512 KB) */
    unsigned prio_equal;      /* local queue length from which local and in-transit packets alternate (8) */
    /* receive buffer and its STOP/GO towards the switch */
    unsigned rx_buf, rx_stop, rx_go; /* bytes (80, 56, 40) */
    unsigned rx_drain_per_64; /* bytes taken out of the receive buffer per 64 cycles (64 = link rate) */
    uint64_t seed;
} sf_nic_params;

/** Defaults: uniform, 512-byte messages, rate 0, ITB 44 + 32 cycles, 512 KB pool, prio_equal 8,
 *  receive buffer 80 / 56 / 40, drain at link rate, seed 1. */
void sf_nic_params_default(sf_nic_params *p);

/** Counts of the whole NIC layer (messages are counted once each). */
typedef struct {
    uint64_t generated, injected, delivered;   /* messages */
    uint64_t lost_aborted, lost_crc, lost_itb_pool, misrouted, duplicate, rx_overflow;
    uint64_t itb_packets, itb_reinjected;      /* in-transit packets received (admitted) / fully re-injected */
    uint64_t gen_bytes, deliv_bytes;           /* payload bytes */
    uint64_t hot_gen_bytes, hot_deliv_bytes;   /* payload bytes to the hotspot host (hotspot traffic; else 0) */
    uint64_t stops_sent, gos_sent;
} sf_nic_counts;

typedef struct sf_nics sf_nics;

/** Creates the NICs of every host of t with the route table `rs` (host pairs; alternatives kept). NULL with
 *  e set if the routes cannot be used (VCs, host map, a pattern the host count does not allow). */
sf_nics *sf_nics_new(const sf_topo *t, const sf_routes *rs, const sf_nic_params *p, sf_err *e);
/** Frees the NICs (NULL allowed). */
void sf_nics_free(sf_nics *n);
/** Fabric callback (net_nic_fn): one cycle of every NIC; ctx is the sf_nics. */
void sf_nics_step(void *ctx, uint64_t cycle, unsigned nhosts, const uint64_t *in_fwd, const uint64_t *in_back,
                  uint64_t *out_fwd, uint64_t *out_back);
/** Stops (0) or restarts (1) message generation from the next cycle (queued messages are still sent). */
void sf_nics_generate(sf_nics *n, int on);
/** Starts the measurement window at the current cycle: latency, pool occupancy and window counts restart. */
void sf_nics_window_start(sf_nics *n, uint64_t cycle);
/** Counts since creation (all) and since the window started (win). */
void sf_nics_counts(const sf_nics *n, sf_nic_counts *all, sf_nic_counts *win);
/** Messages generated but neither delivered nor lost: queued at sources, in switches, links or ITB pools. */
uint64_t sf_nics_in_flight(const sf_nics *n);
/** Messages queued at their sources (not yet started). */
uint64_t sf_nics_queued(const sf_nics *n);

/** Latency summary (cycles) of messages generated in the window and delivered; percentiles from a
 *  histogram exact below 1024 cycles and within 1/64 above. */
typedef struct {
    uint64_t count;
    double avg, avg_net, p50, p95, p99, max; /* avg_net: from the first byte injected */
    double itbs_per_msg;                     /* ITBs taken per delivered message */
} sf_lat;
/** Latency of the window (messages generated at or after the window start and delivered since). */
void sf_nics_latency(const sf_nics *n, sf_lat *l);
/** ITB pool of host h over the window up to `cycle`: time-average and maximum of packets and bytes held. */
void sf_nics_pool(const sf_nics *n, unsigned h, uint64_t cycle, double *avg_pkts, uint64_t *max_pkts,
                  double *avg_bytes, uint64_t *max_bytes);
/** The hotspot host (hotspot traffic; -1 for the other patterns). */
int sf_nics_hotspot(const sf_nics *n);
/** Longest packet on a link in bytes (route bytes + type + payload + CRC), the pool's reservation unit. */
unsigned sf_nics_max_packet(const sf_nics *n);

#endif

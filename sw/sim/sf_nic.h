/* sf_nic.h - Myrinet-style NICs of a crossbar network (Flich et al. 2002, sec. 4 and 5.3): source-route table,
 * packet building (route bytes + type + payload + CRC-8 + GAP), reception, In-Transit Buffers (ITB) with
 * detection and DMA set-up delays, cut-through re-injection, a per-NIC ITB pool and the seed's dynamic
 * local/in-transit priority, STOP/GO flow control in both directions. The messages, their destinations
 * and their measurement are the shared traffic layer's (sf_traffic.h). Model and choices: docs/network.md.
 * No global state; every random choice is drawn from the host's generator of the traffic layer. */
#ifndef SF_NIC_H
#define SF_NIC_H

#include <stdint.h>
#include <stdio.h>

#include "sf_policy.h"
#include "sf_route.h"
#include "sf_topo.h"
#include "sf_traffic.h"

typedef struct {
    unsigned msg_size;        /* payload bytes per message (>= 8: source and sequence number travel in it) */
    sf_policy_params pol;     /* which of a pair's alternative routes a packet takes (sf_policy.h) */
    /* probing: a probe is busy when it took longer than probe_base + probe_per_switch x switches + its length +
     * probe_margin cycles from its first byte sent to its end taken from the destination's receive buffer */
    unsigned probe_base, probe_per_switch, probe_margin;
    uint64_t probe_timeout;   /* a probe unanswered this long counts as busy (lost probe or answer) */
    /* ITB (Flich et al. 2002, sec. 5.3) */
    unsigned itb_detect;      /* cycles from an in-transit packet's first byte to its detection (44 = 275 ns) */
    unsigned itb_dma;         /* more cycles to set the re-injection DMA up (32 = 200 ns) */
    uint64_t itb_pool;        /* ITB pool per NIC in bytes (512 KB) */
    unsigned prio_equal;      /* local queue length from which local and in-transit packets alternate (8) */
    /* receive buffer and its STOP/GO towards the switch */
    unsigned rx_buf, rx_stop, rx_go; /* bytes (80, 56, 40) */
    unsigned rx_drain_per_64; /* bytes taken out of the receive buffer per 64 cycles (64 = link rate) */
    unsigned tx_per_64;       /* the host's rate into the NIC, bytes per 64 cycles (64: none below link rate): a
                               * packet leaves at link rate once the host has copied all of it into the NIC (the
                               * copy runs while the host has a packet to send, at most one packet ahead) */
    uint8_t half_duplex;      /* 1: the NIC's host side serves one direction at a time (Etsion et al. 2000's LANai): tx_per_64
                               * is shared by the copy of packets to send and the drain of the receive buffer
                               * (rx_drain_per_64 unused); a cycle both want goes to them in turn */
} sf_nic_params;

/** Defaults: 512-byte messages, the oblivious policy (a random alternative per packet; adaptive and probing:
 *  threshold 4, probability 1, 2 probe rounds), ITB 44 + 32 cycles, 512 KB pool, prio_equal 8, receive buffer
 *  80 / 56 / 40, drain at link rate; probe timing for Myrinet (base 16 + 24 a switch, margin 64, timeout 10^6). */
void sf_nic_params_default(sf_nic_params *p);

/** Counts of the whole NIC layer (the messages' own counts are the traffic layer's). */
typedef struct {
    uint64_t lost_aborted, lost_crc, lost_itb_pool, rx_overflow; /* messages lost, characters lost */
    uint64_t itb_packets, itb_reinjected;      /* in-transit packets received (admitted) / fully re-injected */
    uint64_t stops_sent, gos_sent;
    uint64_t probes_sent, answers_sent, probe_timeouts, ctl_lost; /* probing's control packets */
} sf_nic_counts;

typedef struct sf_nics sf_nics;

/** Creates the NICs of every host of t with the route table `rs` (host pairs; alternatives kept), sending the
 *  messages of `tr` (not owned; its msg_units must be p->msg_size). NULL with e set if the routes cannot be
 *  used (VCs, host map). */
sf_nics *sf_nics_new(const sf_topo *t, const sf_routes *rs, const sf_nic_params *p, sf_traffic *tr, sf_err *e);
/** Frees the NICs (NULL allowed). */
void sf_nics_free(sf_nics *n);
/** Fabric callback (net_nic_fn): one cycle of every NIC; ctx is the sf_nics. */
void sf_nics_step(void *ctx, uint64_t cycle, unsigned nhosts, const uint64_t *in_fwd, const uint64_t *in_back,
                  uint64_t *out_fwd, uint64_t *out_back);
/** Starts the measurement window of the ITB pools at `cycle` (the traffic layer keeps its own window). */
void sf_nics_window_start(sf_nics *n, uint64_t cycle);
/** Counts since creation. */
void sf_nics_counts(const sf_nics *n, sf_nic_counts *all);
/** ITB pool of host h over the window up to `cycle`: time-average and maximum of packets and bytes held. */
void sf_nics_pool(const sf_nics *n, unsigned h, uint64_t cycle, double *avg_pkts, uint64_t *max_pkts,
                  double *avg_bytes, uint64_t *max_bytes);
/** The route policy's counts (route changes, probes). */
void sf_nics_policy_counts(const sf_nics *n, sf_policy_counts *c);
/** Longest packet on a link in bytes (route bytes + type + payload + CRC), the pool's reservation unit. */
unsigned sf_nics_max_packet(const sf_nics *n);

#endif

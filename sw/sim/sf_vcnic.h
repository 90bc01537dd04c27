/* sf_vcnic.h - RHiNET-style NICs of a VC-switch network (Koibuchi et al. 2003, sec. 4 and 5.1; docs/network.md "The VC
 * network"): the source's tag and injection VC per destination from the `sanfab-route --rhinet` file's nic
 * lines, packets of a fixed number of flits (the head carries the destination tag), per-VC Go & Stop in both
 * directions with the switch's own timing rule, a receive side that checks every flit and never loses one,
 * and the NIC's side of the cable. The messages, their destinations and their measurement are the shared
 * traffic layer's (sf_traffic.h). No global state; random choices come from the host's generator there. */
#ifndef SF_VCNIC_H
#define SF_VCNIC_H

#include <stdint.h>

#include "sf_policy.h"
#include "sf_topo.h"
#include "sf_traffic.h"
#include "vcsw_load.h"

typedef struct {
    unsigned packet_flits;  /* flits per packet, head and tail included (>= 1 + the id flits) */
    sf_policy_params pol;   /* which of a pair's alternatives a packet takes: static, oblivious, adaptive (a packet
                             * that waited for a stopped VC counts as stopped), first; not probing */
    unsigned flit_w, tag_w; /* the switches' FLIT_W and TAG_W */
    unsigned nvc;           /* VCs on a link (the switches' NVC: width of the stop bits) */
    unsigned link_delay;    /* the cable: registers on the NIC's outputs (the switches' LINK_DELAY) */
    unsigned rx_buf;        /* receive buffer in flits (shared by the VCs) */
    unsigned rx_drain_per_64; /* flits taken out of the receive buffer per 64 cycles (64 = link rate) */
} sf_vcnic_params;

/** Defaults: 128-flit packets (Koibuchi et al. 2003, sec. 5.1.1), the oblivious policy (a random alternative per packet), FLIT_W 16, TAG_W 8, 4 VCs, no cable,
 *  a 256-flit receive buffer drained at link rate. */
void sf_vcnic_params_default(sf_vcnic_params *p);

/** Flits that carry a message's source and sequence number after the head (64 bits in FLIT_W-bit flits). */
unsigned sf_vcnic_id_flits(unsigned flit_w);

/** The receive buffer's stop threshold: it sends STOP on every VC from this occupancy on (the switch's rule,
 *  docs/vcsw.md: buffer - packet - 2 x cable - 4, so a switch that obeys it never overflows it); <= 0: too small. */
int sf_vcnic_stop_at(const sf_vcnic_params *p);

/** Counts of the NIC layer (the messages' own counts are the traffic layer's). */
typedef struct {
    uint64_t lost_corrupt;  /* packets with a flit whose data is not what its source sent */
    uint64_t lost_length;   /* packets whose tail came early or late (cut in a switch, or merged) */
    uint64_t rx_overflow;   /* flits that found the receive buffer full (lost: must stay 0) */
    uint64_t stops_sent;    /* times the receive buffer raised STOP */
    uint64_t stalled;       /* cycles a source waited with a packet ready for a stopped VC */
} sf_vcnic_counts;

typedef struct sf_vcnics sf_vcnics;

/** The NICs of every host of t, sending the messages of `tr` (not owned; its msg_units must be
 *  p->packet_flits) with the tags and VCs of `tab`'s nic lines (not owned). NULL with e set if the lines do
 *  not cover every host pair, name a VC or tag the switches cannot carry, or the packet is too short. */
sf_vcnics *sf_vcnics_new(const sf_topo *t, const vcsw_net_tables_t *tab, const sf_vcnic_params *p, sf_traffic *tr,
                         sf_err *e);
/** Frees the NICs (NULL allowed). */
void sf_vcnics_free(sf_vcnics *n);
/** Fabric callback (net_nic_fn): one cycle of every NIC; ctx is the sf_vcnics. */
void sf_vcnics_step(void *ctx, uint64_t cycle, unsigned nhosts, const uint64_t *in_fwd, const uint64_t *in_back,
                    uint64_t *out_fwd, uint64_t *out_back);
/** Counts since creation. */
void sf_vcnics_counts(const sf_vcnics *n, sf_vcnic_counts *all);
/** The route policy's counts (route changes, stopped packets). */
void sf_vcnics_policy_counts(const sf_vcnics *n, sf_policy_counts *c);

#endif

/* sf_mnic.h - the Maestro NIs of a switch-box network (Yamagiwa et al. 2000, sec. 4; docs/network.md "The Maestro
 * network"): per host one Maestro Link Controller (cmodel/mlc.h, a link master, as the node end of the tree bench)
 * and its host driver (mlc_host.h: messages packed into 16-byte units, written and read under the paper's FIFO
 * flow control). A message of the shared traffic layer (sf_traffic.h) becomes one Maestro message on channel 0 to
 * its destination node, or a multicast to its members (DST 255 and MASK: the boxes copy it on their bus), (Type0 when
 * its user bytes fit 11, else Type1 of that many bytes) whose data carry the
 * sequence number and a pattern of (source, sequence), so the receiver checks every byte. The NI hands its queue's
 * head to the driver once the driver has written the previous message whole into the MLC's send FIFO. A workload's
 * messages have their own sizes (its packets of at most mtu bytes); its barrier operations are the boxes' barrier:
 * the NI requests it on channel 1 for every host (docs/sbox.md rule 5) and the release moves the host on. No global
 * state; the NIs draw nothing at random.
 *
 * Direct mode (sf_mnics_set_direct) serves measurements and tests that send messages of their own (multicasts,
 * barriers, ping-pong): the NIs then take nothing from the traffic layer, send what sf_mnics_send and
 * sf_mnics_barrier queue, and keep every message received for sf_mnics_recv. */
#ifndef SF_MNIC_H
#define SF_MNIC_H

#include <stdint.h>

#include "mlc.h"
#include "mlc_host.h"
#include "sf_topo.h"
#include "sf_traffic.h"

typedef struct {
    unsigned link_w, fifo_bytes, turn, timeout, ctr_w; /* the MLCs' parameters (the boxes' MLCs have the same) */
    unsigned msg_bytes;                                 /* user bytes of a message: 4..65535 (<= 11: Type0) */
    unsigned link_delay;                                /* the links' delay (the boxes' LINK_DELAY; the NIs' MLCs are
                                                         * masters and need no guard) */
} sf_mnic_params;

/** Defaults: the MLC's (LINK_W 4, FIFO_BYTES 2048, TURN 1, TIMEOUT 1024, CTR_W 16) and 11-byte (Type0) messages. */
void sf_mnic_params_default(sf_mnic_params *p);

/** Counts of the NI layer (the messages' own counts are the traffic layer's). */
typedef struct {
    uint64_t lost_corrupt;  /* messages received whose header or data is not what their source sent */
    uint64_t misdelivered;  /* messages received whose destination is another node */
    uint64_t units_sent;    /* 16-byte units handed to the MLCs */
    uint64_t status_reads;  /* status reads that opened a burst (mlc_host_status_reads, every NI) */
    uint64_t barriers;      /* a workload's barriers: releases received (one per host and barrier) */
    uint64_t bad_barrier;   /* barrier releases nobody waited for, other messages on channel 1, refused requests */
} sf_mnic_counts;

typedef struct sf_mnics sf_mnics;

/** The NIs of every host of t (at most 255 hosts: a Maestro node number is a byte), sending the messages of `tr`
 *  (not owned; its msg_units must be p->msg_bytes). NULL with e set on bad parameters. */
sf_mnics *sf_mnics_new(const sf_topo *t, const sf_mnic_params *p, sf_traffic *tr, sf_err *e);
/** Frees the NIs (NULL allowed). */
void sf_mnics_free(sf_mnics *n);
/** Fabric callback (net_nic_fn): one cycle of every NI; ctx is the sf_mnics. Forward words as cmodel/sbox_net.h. */
void sf_mnics_step(void *ctx, uint64_t cycle, unsigned nhosts, const uint64_t *in_fwd, const uint64_t *in_back,
                   uint64_t *out_fwd, uint64_t *out_back);
/** Counts since creation. */
void sf_mnics_counts(const sf_mnics *n, sf_mnic_counts *c);
/** Direct mode on (1) or off (0, the default): see the file's head. */
void sf_mnics_set_direct(sf_mnics *n, int on);
/** Direct mode: queues message *msg (copied; its src is set to h) on host h's channel ch; 0, or -1 if the driver refuses
 *  it (a bad field) or h is out of range. */
int sf_mnics_send(sf_mnics *n, unsigned h, unsigned ch, const mlc_msg_t *msg);
/** Direct mode: queues host h's barrier request (docs/sbox.md rule 5: members `mask`, `epoch`) on channel ch; 0 or -1. */
int sf_mnics_barrier(sf_mnics *n, unsigned h, unsigned ch, unsigned mask, uint32_t epoch);
/** Direct mode: the oldest message host h has received whole on channel ch into *msg (its data owned by *msg: free it
 *  with mlc_msg_free): 1, or 0 if none. A message received in cycle k is here once net_step of cycle k returned. */
int sf_mnics_recv(sf_mnics *n, unsigned h, unsigned ch, mlc_msg_t *msg);
/** Words host h has queued on channel ch and not yet written into its MLC. */
uint64_t sf_mnics_tx_pending(const sf_mnics *n, unsigned h, unsigned ch);
/** Host h's MLC model (its counters), NULL out of range. */
const mlc_t *sf_mnics_mlc(const sf_mnics *n, unsigned h);

#endif

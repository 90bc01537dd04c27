/* sf_traffic.h - the traffic and measurement layer every NIC kind shares (docs/network.md "Traffic"):
 * destination patterns, constant-rate generation with a random phase per host, the messages each host has
 * generated (its source queue, in generation order), their delivery or loss, the latency histogram and the
 * window counts. A NIC (sf_nic.h: Myrinet; sf_vcnic.h: RHiNET) asks it for the next message to send and
 * tells it when a message starts, arrives or is lost; it keeps nothing of links, packets or flow control.
 * No global state; all randomness from the seed (one generator per host, shared with that host's NIC). */
#ifndef SF_TRAFFIC_H
#define SF_TRAFFIC_H

#include <stdint.h>

#include "sf_rng.h"
#include "sf_topo.h"
#include "sf_workload.h"

/* Destination patterns (docs/network.md "Traffic"). */
typedef enum {
    SF_TR_UNIFORM = 0, SF_TR_BITREV, SF_TR_HOTSPOT, SF_TR_LOCAL, SF_TR_TRANSPOSE, SF_TR_COMPLEMENT, SF_TR_PERM,
    SF_TR_BUTTERFLY, SF_TR_MULTICAST
} sf_pattern;
#define SF_TR_NPATTERNS 9
#define SF_TR_MULTI_DST UINT32_MAX /* sf_msg.dst of a multicast: its members are sf_msg.mask */

/** Name of a pattern ("uniform", "bit-reversal", ...); "?" out of range. */
const char *sf_pattern_name(sf_pattern t);
/** Pattern by name; -1 if unknown. */
int sf_pattern_parse(const char *s);
/** Every pattern's name, comma-separated (for help texts and messages). */
const char *sf_pattern_names(void);

typedef struct {
    sf_pattern pattern;
    double hotspot_frac;  /* hotspot: share of messages to the hotspot host (0..1) */
    int local_l;          /* local: destinations at most l switch-to-switch hops away */
    double rate;          /* messages generated per cycle per host (constant rate); 0 = none */
    unsigned msg_units;   /* size of one message in the network's traffic unit (payload bytes, flits) */
    uint64_t seed;
    const sf_workload *wl; /* not NULL: run these programs instead of the constant-rate generator (not owned) */
    unsigned mtu;          /* workload: largest packet payload in traffic units; a message is cut into packets */
    unsigned mcast_k;      /* multicast: members of each message, random hosts other than its source (1..hosts-1) */
    int nic_barrier;       /* workload: 1 = a barrier operation is the NIC's (sf_traffic_barrier_pending / _release: the
                            * network's own barrier, e.g. the Maestro boxes'); 0 = the simulator's, which sends nothing */
} sf_traffic_params;

/* Message states. */
enum { SF_MSG_QUEUED = 0, SF_MSG_SENT, SF_MSG_DONE, SF_MSG_LOST };

/* One generated message (a packet, when a workload's message is cut into packets): generation and injection
 * cycles, destination, size in traffic units, the workload message it belongs to (UINT32_MAX: none), state,
 * the marks its route carried (the Myrinet NIC's ITBs; averaged over delivered messages); a multicast's members
 * (dst SF_TR_MULTI_DST; bit h = host h) and those it has not reached yet. */
typedef struct {
    uint64_t gen, inj;
    uint32_t dst, units, wm;
    uint8_t state, marks;
    uint64_t mask, left;
} sf_msg;

/* Counts of the whole traffic layer (units: sf_traffic_params.msg_units per message; a multicast's units count once
 * per member, generated and delivered alike, and it is delivered once it has reached its last member). */
typedef struct {
    uint64_t generated, injected, delivered, misrouted, duplicate;
    uint64_t reordered;                      /* delivered after a later message of the same source to the same host */
    uint64_t gen_units, deliv_units;         /* traffic units generated / delivered */
    uint64_t hot_gen_units, hot_deliv_units; /* of them to the hotspot host (hotspot traffic; else 0) */
} sf_traffic_counts;

/** Latency summary (cycles) of messages generated in the window and delivered; p50/p95/p99 are exact nearest-rank
 *  percentiles of those samples (the smallest latency with at least ceil(q x count) samples at or below it: a
 *  sample, so within [smallest, max]). */
typedef struct {
    uint64_t count;
    double avg, avg_net, p50, p95, p99, max; /* avg_net: from injection */
    double marks_per_msg;                    /* route marks (ITBs) per delivered message */
} sf_lat;

typedef struct sf_traffic sf_traffic;

/** The traffic of every host of t; NULL with e set if the pattern does not fit the hosts (bit-reversal,
 *  transpose and butterfly need a power-of-2 host count, multicast 1..hosts-1 members and at most 64 hosts) or there
 *  are fewer than 2 hosts. */
sf_traffic *sf_traffic_new(const sf_topo *t, const sf_traffic_params *p, sf_err *e);
/** Frees it (NULL allowed). */
void sf_traffic_free(sf_traffic *tr);
/** Number of hosts. */
unsigned sf_traffic_hosts(const sf_traffic *tr);

/** Host h's messages due by `cycle` join its queue (nothing while generation is off). Call once a cycle per
 *  host (or sf_traffic_generate_all), before the host's NIC draws from sf_traffic_rng (the draw order makes a run
 *  reproducible). */
void sf_traffic_generate(sf_traffic *tr, unsigned h, uint64_t cycle);
/** sf_traffic_generate for every host: a NIC layer calls it once a cycle before any host's own draws. */
void sf_traffic_generate_all(sf_traffic *tr, uint64_t cycle);
/** Host h's own generator: destinations are drawn from it, and its NIC draws its own choices from it too. */
sf_rng *sf_traffic_rng(sf_traffic *tr, unsigned h);
/** Stops (0) or restarts (1) generation from the next cycle (queued messages are still sent). */
void sf_traffic_set_generate(sf_traffic *tr, int on);
/** The next message host h has to start (its queue's head) and its sequence number; NULL when none. */
const sf_msg *sf_traffic_head(const sf_traffic *tr, unsigned h, uint32_t *seq);
/** Messages host h has queued (generated, not started). */
unsigned sf_traffic_queued_at(const sf_traffic *tr, unsigned h);
/** Host h starts its head message in `cycle` (it is then in flight); `marks` is kept for the statistics. */
void sf_traffic_start(sf_traffic *tr, unsigned h, uint64_t cycle, unsigned marks);

/* What a delivery was. */
enum { SF_DELIV_OK = 0, SF_DELIV_MISROUTED, SF_DELIV_DUPLICATE };
/** A message arrived whole at host h in `cycle`: message `seq` of host `src` (known = 0: its id could not be
 *  read); counted as delivered, misrouted (unknown or another host's; a multicast's at a host not a member) or
 *  duplicate (a multicast's: at a member it reached before). Returns SF_DELIV_*. */
int sf_traffic_deliver(sf_traffic *tr, unsigned h, int known, uint32_t src, uint32_t seq, uint64_t cycle);
/** Message `seq` of host `src` is lost (the NIC counts why); nothing if unknown or not in flight. */
void sf_traffic_lost(sf_traffic *tr, uint32_t src, uint32_t seq);

/** Starts the measurement window at `cycle`: latency and window counts restart. */
void sf_traffic_window_start(sf_traffic *tr, uint64_t cycle);
/** Start of the window (0 before sf_traffic_window_start). */
uint64_t sf_traffic_window(const sf_traffic *tr);
/** Counts since creation (all) and since the window started (win); either may be NULL. */
void sf_traffic_counts_get(const sf_traffic *tr, sf_traffic_counts *all, sf_traffic_counts *win);
/** Messages generated but neither delivered nor lost: queued at sources or in the network. */
uint64_t sf_traffic_in_flight(const sf_traffic *tr);
/** Messages from s to d started and neither delivered nor lost (0 when the network has more than 4096 hosts). */
unsigned sf_traffic_pair_in_flight(const sf_traffic *tr, unsigned s, unsigned d);
/** Messages queued at their sources (not started). */
uint64_t sf_traffic_queued(const sf_traffic *tr);
/** Latency of the window (messages generated at or after its start and delivered since). */
void sf_traffic_latency(const sf_traffic *tr, sf_lat *l);
/** The hotspot host (hotspot traffic; -1 for the other patterns). */
int sf_traffic_hotspot(const sf_traffic *tr);
/** Largest message (packet) in traffic units: msg_units, or a workload's MTU. */
unsigned sf_traffic_max_units(const sf_traffic *tr);

/* A workload's outcome (sf_traffic_workload). Bandwidths in traffic units per cycle. */
typedef struct {
    int finished;            /* every program ended and every message arrived */
    uint64_t end;            /* the cycle the last host completed (or the run stopped) */
    uint64_t messages, packets, units; /* workload messages, their packets, units sent */
    unsigned senders;        /* hosts that send */
    double bw_min, bw_avg, bw_max; /* per sending host: units it sent / cycles until it completed */
    double aggregate;        /* units delivered / cycles until the last host completed */
    double msg_lat_avg, msg_lat_max; /* message latency: send until its last packet arrived */
    int waiting_host;        /* not finished: the first host still running its program (-1 none) */
    char waiting[160];       /* what it waits for */
} sf_wl_result;

/** Workload with nic_barrier: 1 (once) when host h has reached a barrier operation and its NIC is to request the
 *  network's barrier; else 0. */
int sf_traffic_barrier_pending(sf_traffic *tr, unsigned h);
/** Workload with nic_barrier: the network released host h's barrier in `cycle`: its program goes on. 0, or -1 if the
 *  host was not waiting at a barrier (a release nobody asked for). */
int sf_traffic_barrier_release(sf_traffic *tr, unsigned h, uint64_t cycle);
/** Message `seq` of host `src` (NULL if there is none): a NIC checks what arrived against it. */
const sf_msg *sf_traffic_msg(const sf_traffic *tr, uint32_t src, uint32_t seq);

/** 1 when the workload has finished: every program ended, every message arrived (0 without a workload). */
int sf_traffic_done(const sf_traffic *tr);
/** The workload's outcome at `cycle`. A host completes when its program has ended and all it sent arrived. */
void sf_traffic_workload(const sf_traffic *tr, uint64_t cycle, sf_wl_result *r);
/** Host h's completion cycle (0 while it runs) and the units its program sent. */
uint64_t sf_traffic_host_end(const sf_traffic *tr, unsigned h, uint64_t *units);

/** The pattern's fixed destination of source s (bit-reversal, transpose, complement, permutation, butterfly;
 *  -1 if s sends nothing or the pattern has no fixed destination). */
int sf_traffic_fixed_dst(const sf_traffic *tr, unsigned s);

#endif

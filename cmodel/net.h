/* sanfab — the network fabric: switch models joined by link models with a delay, NICs on host ports.
 *
 * The fabric knows a switch only through net_switch_ops (create from parameters, step one cycle with
 * the words arriving on each port, read what leaves each port, read counters); each kind's adapter
 * lives beside its model (cmodel/xbar_net.c, cmodel/vcsw_net.c) and net_kinds.c lists them by name,
 * so the crossbar, the VC switch and the Maestro switch box plug into the same fabric. Every port
 * carries, per cycle and direction, a 64-bit forward word (crossbar: a 9-bit link character; VC
 * switch: a packed flit, vcsw_net.h) and a 64-bit backward sideband word (VC switch: per-VC stop bits
 * towards the sender; the crossbar ignores it and sends 0: its STOP/GO travel as characters in the
 * forward words of the other direction).
 *
 * Timing (docs/network.md): one net_step() is one cycle for every switch and every NIC. A word that an
 * endpoint puts out in cycle k (its registered output after edge k) is sampled by the far endpoint in
 * cycle k + 1 + D, D = the link's delay. This is exactly the crossbar's own LINK_DELAY = D cable, so a
 * crossbar with LINK_DELAY 0 on links of delay D behaves as one with LINK_DELAY D on links of delay 0.
 * A run is a pure function of its inputs: no randomness and no global state in the fabric.
 */
#ifndef SANFAB_NET_H
#define SANFAB_NET_H

#include <stddef.h>
#include <stdint.h>

#define NET_MAX_PORTS 64

/* A switch kind: the one interface the fabric knows switches by. */
typedef struct net_switch_ops {
    const char *name;   /* "xbar", "vcsw", ... */
    uint64_t idle_word; /* forward word meaning "nothing this cycle" (what unconnected ports receive) */
    unsigned nctr;      /* counters per port */
    /* Creates switch number `sw` of the network, of `nports` ports, from kind-specific parameters (the same
     * for every switch of a network; a kind whose switches differ, e.g. by their tables, finds switch `sw`'s
     * share in them); NULL with a message in err. */
    void *(*create)(const void *params, unsigned sw, unsigned nports, char *err, size_t errlen);
    /* One cycle: in_fwd/in_back[p] arrive on port p; out_fwd/out_back[p] leave port p after the edge. */
    void (*step)(void *sw, const uint64_t *in_fwd, const uint64_t *in_back, uint64_t *out_fwd, uint64_t *out_back);
    /* Frees a switch (NULL allowed). */
    void (*destroy)(void *sw);
    /* Events of counter `ctr` of port `port` so far. */
    uint64_t (*counter)(const void *sw, unsigned port, unsigned ctr);
    /* Name of counter `ctr` ("?" out of range). */
    const char *(*counter_name)(unsigned ctr);
    /* Index of the counter of packets cut by the blocking timeout (forward reset), or -1 if none. */
    int ctr_timeout;
    /* Optional (NULL: the switch is stepped every cycle). quiet: 1 if a cycle in which every port receives
     * the idle word (sideband 0) would change nothing but the switch's step count, and its outputs are then
     * idle words (sideband 0). skip: advance a quiet switch by n such cycles exactly. With both, the fabric
     * does not step a quiet switch while its inputs are idle and fast-forwards it before its next step. */
    int (*quiet)(const void *sw);
    void (*skip)(void *sw, uint64_t n);
} net_switch_ops;

/* Looks a switch kind up by name ("xbar", "vcsw": net_kinds.c); NULL if unknown. */
const net_switch_ops *net_switch_kind(const char *name);

/* The names of every switch kind, comma-separated ("xbar, vcsw"), for messages and help texts. */
const char *net_switch_kind_names(void);

/* Endpoint kinds of a link end. */
enum { NET_EP_NONE = 0, NET_EP_SWITCH = 1, NET_EP_HOST = 2 };

/* The network to build: switches (port counts), full-duplex links between switch ports, hosts on
 * switch ports. Each link has its own delay in cycles (0..NET_MAX_DELAY). */
#define NET_MAX_DELAY 4096
typedef struct { unsigned a, pa, b, pb, delay; } net_link_desc;  /* switch a port pa <-> switch b port pb */
typedef struct { unsigned sw, port, delay; } net_host_desc;      /* host i hangs on (sw, port) */
typedef struct {
    unsigned nsw, nlinks, nhosts;
    const unsigned *nports;      /* nsw port counts, 1..NET_MAX_PORTS */
    const net_link_desc *links;  /* nlinks */
    const net_host_desc *hosts;  /* nhosts, host i = hosts[i] */
} net_desc;

/* The NIC side: called once per cycle with every host's arriving words; writes what each host puts out. */
typedef void (*net_nic_fn)(void *ctx, uint64_t cycle, unsigned nhosts, const uint64_t *in_fwd,
                           const uint64_t *in_back, uint64_t *out_fwd, uint64_t *out_back);

typedef struct net net_t;

/* Builds a network of switches of one kind; NULL with "problem" in err (bad description, a switch the
 * kind refuses, a port used twice). The NIC callback may be NULL (hosts then send idle words). */
net_t *net_new(const net_desc *d, const net_switch_ops *kind, const void *params, net_nic_fn nic, void *nic_ctx,
               char *err, size_t errlen);

/* Frees the network and its switches (NULL allowed). */
void net_free(net_t *n);

/* One cycle: every switch and the NIC callback step once, then every link moves one word. */
void net_step(net_t *n);

/* Cycles stepped so far (the next net_step() is cycle net_cycle() + 1). */
uint64_t net_cycle(const net_t *n);

/* Number of directed channels: 2 per switch link (link l: 2l = a->b, 2l+1 = b->a), then 2 per host
 * (host h: 2*nlinks + 2h = host->switch, 2*nlinks + 2h + 1 = switch->host). */
unsigned net_nchannels(const net_t *n);

/* Cycles so far in which channel c carried a word other than the idle word that the counting
 * predicate accepts (see net_set_busy_mask): e.g. data characters only. */
uint64_t net_channel_busy(const net_t *n, unsigned c);

/* Counts a channel's word as busy when (word & mask) == value (default: word != idle, mask 0). The
 * crossbar's data characters: mask 0x100, value 0. */
void net_set_busy_mask(net_t *n, uint64_t mask, uint64_t value);

/* Events of counter `ctr` of port `port` of switch s so far (0 out of range). */
uint64_t net_switch_counter(const net_t *n, unsigned s, unsigned port, unsigned ctr);

/* Sum of counter `ctr` over every port of every switch. */
uint64_t net_counter_total(const net_t *n, unsigned ctr);

/* Skipping of quiet switches (see net_switch_ops.quiet): on (1, the default) or off (0); results are the
 * same either way (a test checks it), only the speed differs. Turning it off brings every switch up to date. */
void net_set_skip(net_t *n, int on);

/* Brings every skipped switch up to date (its model stepped to net_cycle()); net_free and net_set_skip do it. */
void net_sync(net_t *n);

/* Switch-cycles skipped so far (quiet switches with idle inputs not stepped), for speed statistics. */
uint64_t net_skipped(const net_t *n);

/* Forward word switch s put out on port p in the last cycle (idle word out of range; exact with skipping off). */
uint64_t net_switch_out(const net_t *n, unsigned s, unsigned p);

/* Sideband word switch s put out on port p in the last cycle (0 out of range; exact with skipping off). */
uint64_t net_switch_out_back(const net_t *n, unsigned s, unsigned p);

/* The switch kind of the network. */
const net_switch_ops *net_kind(const net_t *n);

#endif

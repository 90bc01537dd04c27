/* sf_workload.h - message workloads: a small program of messages per host (docs/network.md "Workloads").
 * A program is a list of operations each host runs in order: send BYTES to a host (non-blocking: the message
 * is queued at the host's NIC, cut into packets of at most the MTU), receive COUNT whole messages from a host
 * (blocks until they have arrived), a barrier (every host waits until all have reached it; a simulator-level
 * synchronisation that sends no packet), and compute (wait CYCLES). The traffic layer (sf_traffic.h) runs the
 * programs; this file only builds them: the built-in workloads of seeds 001-003 and a user's own file.
 * No global state; every random choice from the seed given. */
#ifndef SF_WORKLOAD_H
#define SF_WORKLOAD_H

#include <stdint.h>

#include "sf_topo.h"

typedef enum { SF_OP_SEND = 0, SF_OP_RECV, SF_OP_BARRIER, SF_OP_COMPUTE } sf_op_kind;

#define SF_WL_ANY 0xFFFFFFFFu /* recv: from any host */

/* One operation: send `arg` bytes to `peer`; recv `arg` messages from `peer` (or SF_WL_ANY); barrier; compute
 * `arg` cycles. */
typedef struct {
    uint32_t kind, peer;
    uint64_t arg;
} sf_op;

/* The programs of every host: host h's operations are ops[off[h] .. off[h+1]). */
typedef struct {
    unsigned hosts;
    uint32_t *off;
    sf_op *ops;
    size_t nops;
    uint64_t send_bytes;  /* bytes all programs send */
    char desc[256];       /* "NAME key=value ..." for the JSON */
} sf_workload;

/* The built-in workloads' parameters. */
typedef struct {
    uint64_t bytes;    /* bytes per message */
    unsigned messages; /* messages per pair (exchange, bridge), repetitions (the collectives) */
    unsigned root;     /* root of the one-to-all and all-to-one patterns */
    uint64_t seed;     /* exchange: the random bisection pattern */
} sf_wl_params;

/** Names of the built-in workloads, comma-separated (for help texts and messages). */
const char *sf_workload_names(void);
/** Builds built-in workload `name` for the hosts of t: exchange (random bisection pair-wise exchange, Geoffray and Hoefler 2008
 *  sec 5.2), bridge (the hosts of leaf switch 2i paired with those of 2i+1, Geoffray and Hoefler 2008, sec. 5.4), alltoall,
 *  alltoall-phased (Etsion et al. 2000 Fig. 11), bcast-serial, bcast-tree, gather (all-to-one), barrier (every host
 *  sends a message to every other and waits for all of them). NULL with e set on a bad name or parameter. */
sf_workload *sf_workload_builtin(const char *name, const sf_topo *t, const sf_wl_params *p, sf_err *e);
/** Reads a workload file (format: docs/network.md "Workloads") for `hosts` hosts; NULL with "FILE:LINE: problem". */
sf_workload *sf_workload_read(const char *path, unsigned hosts, sf_err *e);
/** Places logical host r's program on physical host map[r] (its peers mapped too): FM's random host map (Etsion et al. 2000
 *  sec 4); map is a permutation of the hosts. */
void sf_workload_remap(sf_workload *w, const int *map);
/** Frees a workload (NULL allowed). */
void sf_workload_free(sf_workload *w);
#endif

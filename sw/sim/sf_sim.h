/* sf_sim.h - the network simulator's run configuration, one load point's run and its JSON results
 * (docs/network.md). A run is a pure function of the configuration (topology, routes, traffic, parameters,
 * seed): the same configuration gives the same JSON bytes. No global state. */
#ifndef SF_SIM_H
#define SF_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "net.h"
#include "sf_nic.h"
#include "sf_route.h"
#include "sf_topo.h"

#define SF_SIM_MAX_LOADS 256
#define SF_SIM_NS_PER_CYCLE 6.25 /* Myrinet: 1 cycle = 1 flit = 6.25 ns */

/* A run configuration: config file keys and their command-line overrides (docs/network.md). */
typedef struct {
    char topology[1024], routes[1024]; /* paths (a config file's relative paths are taken from its directory) */
    char kind[16];                     /* switch kind: "xbar" */
    sf_nic_params nic;                 /* traffic, message size, ITB, NIC buffer; nic.rate is set per load */
    double loads[SF_SIM_MAX_LOADS];    /* offered load points in flits/ns/switch */
    int nloads;
    uint64_t warmup, cycles, drain;    /* warm-up, measurement window, most drain cycles (0 = no drain) */
    unsigned link_delay, host_delay;   /* cable delays in cycles */
    unsigned slack, stop, go, route_delay, timeout; /* crossbar parameters */
    int allow_deadlock, links;         /* accept a cyclic route set; per-link utilisation in the JSON */
    double sat_ratio;                  /* a point is saturated when accepted < sat_ratio * offered */
    int no_skip;                       /* step quiet switches too (--no-skip; not a key: results are the same) */
    int set_line[64];                  /* per key: config-file line that set it (0 = not from the file) */
    unsigned char set_cmd[64];         /* per key: set on the command line */
} sf_sim_cfg;

/** Fill the defaults (Myrinet: link and host delay 8, slack 80/56/40, ROUTE_DELAY 21, TIMEOUT 2^20,
 *  512-byte uniform messages, warm-up 20000, window 100000, seed 1). */
void sf_sim_cfg_default(sf_sim_cfg *c);
/** Set one key from text (`where` names the origin in messages, e.g. "net.cfg:7" or "--load"); -1 with
 *  e = "WHERE: problem" on an unknown key, a bad value or a key given twice from the same origin kind. */
int sf_sim_cfg_set(sf_sim_cfg *c, const char *key, const char *value, const char *where, int from_cmdline, sf_err *e);
/** Read a config file ("sanfab-sim 1" first, then "KEY VALUE..." lines, # comments); -1 with "FILE:LINE: problem". */
int sf_sim_cfg_read(sf_sim_cfg *c, const char *path, sf_err *e);
/** Check the finished configuration (required keys present, values consistent); -1 with e set. */
int sf_sim_cfg_check(const sf_sim_cfg *c, sf_err *e);
/** 1 if `key` is a configuration key (command-line option --KEY). */
int sf_sim_is_key(const char *key);
/** Print the key table (name, default, meaning) for --help. */
void sf_sim_keys_help(FILE *f);

/* The loaded network: topology and checked routes, shared by every load point. */
typedef struct {
    sf_topo *t;
    sf_routes *rs;
    char algo[200];
    int cyclic;        /* the route set has a channel dependency cycle (allowed by allow-deadlock) */
    char cycle[400];   /* the cycle found */
} sf_sim_net;

/** Load and check topology and routes (deadlock check; a cyclic set is refused unless allow_deadlock). */
int sf_sim_net_load(const sf_sim_cfg *c, sf_sim_net *n, sf_err *e);
/** Free what sf_sim_net_load made. */
void sf_sim_net_free(sf_sim_net *n);

/* Progress callback: called about every 16384 cycles with the cycles done and the total. */
typedef void (*sf_sim_progress)(void *ctx, uint64_t done, uint64_t total);

/** The NICs of load point `li` (every host generating at the point's load); NULL with e set. */
sf_nics *sf_sim_point_nics(const sf_sim_cfg *c, const sf_sim_net *n, int li, sf_err *e);

/** Build load point `li`'s NICs and fabric as sf_sim_run_point does (nothing stepped yet); the fabric calls
 *  nic_fn(nic_ctx, ...) each cycle, or sf_nics_step on the NICs if nic_fn is NULL. 0, or -1 with e set. */
int sf_sim_point_build(const sf_sim_cfg *c, const sf_sim_net *n, int li, net_nic_fn nic_fn, void *nic_ctx,
                       sf_nics **nics, net_t **net, sf_err *e);

/* Bits of a point's saturation flag: the total accepted traffic fell behind the offered, and (hotspot
 * traffic) the hotspot host's own accepted traffic fell behind what is offered to it. */
#define SF_SIM_SAT_TOTAL 1
#define SF_SIM_SAT_HOTSPOT 2

/** Run load point `li` of the configuration and write its JSON object to `out` (no trailing newline).
 *  *accepted and *offered get the point's traffic (flits/ns/switch) and *saturated its flag (SF_SIM_SAT_*
 *  bits); *seconds the wall time and *flit_hops the data characters moved over links. 0, or -1 with e set. */
int sf_sim_run_point(const sf_sim_cfg *c, const sf_sim_net *n, int li, FILE *out, int with_time, sf_sim_progress prog,
                     void *pctx, double *offered, double *accepted, int *saturated, double *seconds, double *flit_hops,
                     uint64_t *cycles, sf_err *e);

/** Write the JSON header (tool, seed, config, network) up to and including `"points": [`. */
void sf_sim_json_head(const sf_sim_cfg *c, const sf_sim_net *n, FILE *out);
/** Write the JSON tail: the saturation summary of the points and the closing braces. */
void sf_sim_json_tail(const sf_sim_cfg *c, const double *offered, const double *accepted, const int *saturated,
                      FILE *out);

#endif

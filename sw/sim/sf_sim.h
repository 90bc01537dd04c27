/* sf_sim.h - the network simulator's run configuration, one load point's run and its JSON results
 * (docs/network.md). A run is a pure function of the configuration (topology, routes, tables, traffic,
 * parameters, seed): the same configuration gives the same JSON bytes. No global state.
 *
 * Three kinds of network run, each three parts written once: the switch kind's adapter to the fabric (beside
 * its C model: cmodel/xbar_net.c, cmodel/vcsw_net.c, cmodel/sbox_net.c), its NIC (sf_nic.c Myrinet, sf_vcnic.c
 * RHiNET, sf_mnic.c Maestro) and the traffic layer every NIC shares (sf_traffic.c). `switch xbar`: crossbars with
 * Myrinet NICs and source routes (Flich et al. 2002); `switch vcsw`: table-lookup VC switches with RHiNET NICs and
 * the --rhinet tables (Koibuchi et al. 2003); `switch sbox`: a tree of Maestro switch boxes with Maestro NIs and the
 * --maestro tables (Yamagiwa et al. 2000). */
#ifndef SF_SIM_H
#define SF_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "net.h"
#include "sbox_net.h"
#include "sf_mnic.h"
#include "sf_nic.h"
#include "sf_route.h"
#include "sf_topo.h"
#include "sf_traffic.h"
#include "sf_vcnic.h"
#include "sf_workload.h"
#include "vcsw.h"
#include "vcsw_load.h"

#define SF_SIM_MAX_LOADS 256
#define SF_SIM_NS_PER_CYCLE 6.25 /* Myrinet(-2000 timing set): 1 cycle = 1 flit = 6.25 ns; the ns-per-cycle key */
#define SF_SIM_NKEYS 80

/* The kinds of network (the `switch` key). */
typedef enum { SF_KIND_XBAR = 0, SF_KIND_VCSW, SF_KIND_SBOX } sf_kind;

/* A run configuration: config file keys and their command-line overrides (docs/network.md). */
typedef struct {
    char topology[1024], routes[1024]; /* paths (a config file's relative paths are taken from its directory) */
    char tables[1024];                 /* vcsw: the sanfab-route --rhinet file, sbox: --maestro ("" = written from the routes) */
    char topology_gen[1024];           /* instead of topology: a generator line, sanfab-topo's "KIND [options]" */
    char routing[1024];                /* instead of routes: an algorithm line, sanfab-route's "ALGORITHM [options]" */
    char topology_desc[1400], routing_desc[1400]; /* "FILE:LINE: topology-gen LINE": names them in messages */
    char write_topology[1024], write_routes[1024], write_tables[1024]; /* where to keep what was made ("" = not) */
    char kind[16];                     /* switch kind: "xbar", "vcsw" or "sbox" */
    sf_kind k;
    sf_traffic_params tr;              /* pattern, hotspot, local, seed; rate and msg_units are set per load point */
    sf_nic_params nic;                 /* xbar: the Myrinet NICs (message size, ITB, receive buffer) */
    sf_vcnic_params vnic;              /* vcsw: the RHiNET NICs (packet flits, receive buffer) */
    vcsw_params_t vcsw;                /* vcsw: the switches' parameters (NPORTS per switch, LINK_DELAY = link_delay) */
    sf_mnic_params mnic;               /* sbox: the Maestro NIs and every MLC of the network (boxes' too), message bytes */
    double loads[SF_SIM_MAX_LOADS];    /* offered load points: flits/ns/switch (xbar), flits/host/cycle (vcsw), payload
                                        * bytes/host/cycle (sbox) */
    int nloads;
    uint64_t warmup, cycles, drain;    /* warm-up, measurement window, most drain cycles (0 = no drain) */
    uint64_t deadlock_limit;           /* stop a point after this many cycles without a flit moving (0 = never) */
    unsigned link_delay, host_delay;   /* cable delays in cycles */
    unsigned slack, stop, go, route_delay, timeout; /* crossbar parameters */
    int allow_deadlock, links;         /* accept a cyclic route set; per-link utilisation in the JSON */
    double sat_ratio;                  /* a point is saturated when accepted < sat_ratio * offered */
    int no_skip;                       /* step quiet switches too (--no-skip; not a key: results are the same) */
    double ns_per_cycle;               /* xbar: link time of one character (6.25 Myrinet, 0.8 Myri-10G); sbox: 20 (50 MHz) */
    char timing[1024];                 /* the timing set read (a named set or a file), "" none */
    int timing_done;                   /* its keys have been taken */
    char workload[64];                 /* a built-in workload ("" = constant-rate traffic at the loads) */
    char workload_file[1024];          /* a workload file */
    sf_wl_params wlp;                  /* the built-in workload's parameters (message bytes, messages, root; seed) */
    unsigned mtu;                      /* workload: largest packet payload in bytes */
    uint64_t max_cycles;               /* workload: stop the run after this many cycles */
    int set_line[SF_SIM_NKEYS];        /* per key: config-file line that set it (0 = not from the file) */
    unsigned char set_cmd[SF_SIM_NKEYS]; /* per key: set on the command line */
    unsigned char given[SF_SIM_NKEYS];   /* per key: set by any means (the kind's defaults fill the others) */
} sf_sim_cfg;

/** Fill the defaults (switch xbar with Myrinet timing: the switches' and cables' defaults of both kinds are
 *  cmodel/sanfab_params.h's NET_*_PARAM lines; 512-byte uniform messages, warm-up 20000, window 100000, seed 1; the
 *  vcsw defaults of the other keys are filled by sf_sim_cfg_check when the run's switch is vcsw). */
void sf_sim_cfg_default(sf_sim_cfg *c);
/** Set one key from text (`where` names the origin in messages, e.g. "net.cfg:7" or "--load"); -1 with
 *  e = "WHERE: problem" on an unknown key, a bad value or a key given twice from the same origin kind. */
int sf_sim_cfg_set(sf_sim_cfg *c, const char *key, const char *value, const char *where, int from_cmdline, sf_err *e);
/** Read a config file ("sanfab-sim 1" first, then "KEY VALUE..." lines, # comments); -1 with "FILE:LINE: problem".
 *  Its `timing` key reads a timing set there: its keys are taken unless the file gave them before or the command
 *  line did; the file's later lines override it. */
int sf_sim_cfg_read(sf_sim_cfg *c, const char *path, sf_err *e);
/** The switch kind's defaults for the keys not given (the VC network's: cables of 0, 50,000 + 950,000 cycles, a
 *  256-flit NIC buffer, MAXLEN = packet-flits), and the VC NICs' flit format from the switches'; sf_sim_cfg_check
 *  calls it. */
void sf_sim_cfg_kind_defaults(sf_sim_cfg *c);
/** Finish the configuration: the switch kind's defaults for the keys not given, then the checks (required keys
 *  present, every key given one the kind uses, values consistent); -1 with e set. */
int sf_sim_cfg_check(sf_sim_cfg *c, sf_err *e);
/** 1 if `key` is a configuration key (command-line option --KEY). */
int sf_sim_is_key(const char *key);
/** The key closest to a misspelt `key` (sf_cli_suggest over the key names), or NULL. */
const char *sf_sim_key_suggest(const char *key);
/** " (did you mean X?)" for an unknown command-line option `opt` ("--name"): X the closest of the tool's own
 *  options `own` (n_own, given whole) or else "--" and the closest sanfab-sim key; "" when none is close. Written
 *  into buf (len bytes), which is returned. */
const char *sf_sim_option_hint(char *buf, size_t len, const char *opt, const char *const *own, size_t n_own);
/** A tool's command-line option argv[*i] = "--KEY" with its value argv[*i + 1], set into c (*i moves past the value);
 *  0, or 2 after "PROG: problem" on stderr (an unknown option with the closest of `own` or of the keys, a missing
 *  or bad value). */
int sf_sim_cfg_arg(sf_sim_cfg *c, const char *prog, int argc, char *const *argv, int *i, const char *const *own, size_t n_own);
/** Print the key table (name, default, meaning, which switch kind uses it) for --help. */
void sf_sim_keys_help(FILE *f);
/** The unit of the `load` key and of the throughput for the configuration's kind. */
const char *sf_sim_load_unit(const sf_sim_cfg *c);

/* The loaded network: topology, checked routes and (vcsw) every switch's tables, shared by every load point. */
typedef struct {
    sf_topo *t;
    sf_routes *rs;
    vcsw_net_tables_t *tables; /* vcsw: loaded from c->tables, or written from the routes (--rhinet) and loaded */
    sbox_net_box *boxes;       /* sbox: every box's table (c->tables, or written from the routes: --maestro) and up port */
    char algo[200];
    int cyclic;                /* the route set has a channel dependency cycle (allowed by allow-deadlock) */
    char cycle[400];           /* the cycle found */
    sf_workload *wl;           /* the run's workload, NULL for constant-rate traffic */
} sf_sim_net;

/** Load and check topology, routes and tables (deadlock check; a cyclic set is refused unless allow_deadlock;
 *  a route set the kind cannot run, tables of another network or tables that do not route the route set as
 *  it says are refused, naming the first disagreement). */
int sf_sim_net_load(const sf_sim_cfg *c, sf_sim_net *n, sf_err *e);
/** Free what sf_sim_net_load made. */
void sf_sim_net_free(sf_sim_net *n);

/* One load point's network: its traffic, the kind's NICs and (unless built without) the fabric. */
typedef struct {
    sf_kind k;
    sf_traffic *tr;
    void *nics;          /* sf_nics (xbar), sf_vcnics (vcsw) or sf_mnics (sbox) */
    net_nic_fn nic_step; /* sf_nics_step, sf_vcnics_step or sf_mnics_step */
    net_t *net;          /* NULL when built by sf_sim_point_nics */
} sf_sim_point;

/* Progress callback: called about every 16384 cycles with the cycles done and the total. */
typedef void (*sf_sim_progress)(void *ctx, uint64_t done, uint64_t total);

/** The traffic and NICs of load point `li` (every host generating at the point's load; li < 0: the run's workload),
 *  no fabric; 0, or -1 with e set. */
int sf_sim_point_nics(const sf_sim_cfg *c, const sf_sim_net *n, int li, sf_sim_point *pt, sf_err *e);
/** Build load point `li`'s traffic, NICs and fabric as sf_sim_run_point does (nothing stepped yet); the fabric
 *  calls nic_fn(nic_ctx, ...) each cycle, or the NICs' own step if nic_fn is NULL. 0, or -1 with e set. */
int sf_sim_point_build(const sf_sim_cfg *c, const sf_sim_net *n, int li, net_nic_fn nic_fn, void *nic_ctx,
                       sf_sim_point *pt, sf_err *e);
/** Free a point's fabric, NICs and traffic (a zeroed point is fine). */
void sf_sim_point_free(sf_sim_point *pt);
/** The busy predicate of the kind's links (net_set_busy_mask): a data character (xbar), a flit (vcsw), a driven symbol (sbox). */
void sf_sim_busy_mask(sf_kind k, uint64_t *mask, uint64_t *value);

/** What a point's NICs lost, summed over the kind's reasons (aborted, bad CRC, ITB pool full; corrupt or cut
 *  packets), and the flits or characters lost at full receive buffers. */
void sf_sim_point_losses(const sf_sim_point *pt, uint64_t *lost_msgs, uint64_t *rx_overflow);

/* Bits of a point's saturation flag: the total accepted traffic fell behind the offered, and (hotspot
 * traffic) the hotspot host's own accepted traffic fell behind what is offered to it. */
#define SF_SIM_SAT_TOTAL 1
#define SF_SIM_SAT_HOTSPOT 2

/** Run load point `li` of the configuration and write its JSON object to `out` (no trailing newline).
 *  *accepted and *offered get the point's traffic (in the kind's load unit) and *saturated its flag (SF_SIM_SAT_*
 *  bits); *seconds the wall time and *flit_hops the flits (data characters) moved over links. 0, or -1 with e set. */
int sf_sim_run_point(const sf_sim_cfg *c, const sf_sim_net *n, int li, FILE *out, int with_time, sf_sim_progress prog,
                     void *pctx, double *offered, double *accepted, int *saturated, double *seconds, double *flit_hops,
                     uint64_t *cycles, sf_err *e);

/** Run the configuration's workload to its end (or max-cycles, or a deadlock) and write the whole JSON document
 *  (header, "workload" result, links, perf with with_time). *flit_hops, *seconds, *cycles for the caller's line.
 *  0 (also for a workload that did not finish: its JSON says so), or -1 with e set. */
int sf_sim_run_workload(const sf_sim_cfg *c, const sf_sim_net *n, FILE *out, int with_time, sf_sim_progress prog, void *pctx,
                        double *seconds, double *flit_hops, uint64_t *cycles, sf_err *e);

/** Write the JSON header (tool, seed, config, network) up to and including `"points": [`. */
void sf_sim_json_head(const sf_sim_cfg *c, const sf_sim_net *n, FILE *out);
/** Write the JSON tail: the saturation summary of the points and the closing braces. */
void sf_sim_json_tail(const sf_sim_cfg *c, const sf_sim_net *n, const double *offered, const double *accepted,
                      const int *saturated, FILE *out);

#endif

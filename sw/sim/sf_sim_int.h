/* sf_sim_int.h - declarations shared by the network simulator's own files (sf_sim.c, sf_simkeys.c, sf_simcfg.c,
 * sf_simnet.c, sf_simjson.c); not part of the public API (sf_sim.h). */
#ifndef SF_SIM_INT_H
#define SF_SIM_INT_H

#include "sf_sim.h"

#include <stdio.h>

/* configuration keys: their index in sf_sim_keys and in the cfg's given / set_line / set_cmd arrays */
enum {
    K_TOPOLOGY, K_ROUTES, K_TABLES, K_TOPOGEN, K_ROUTING, K_WTOPO, K_WROUTES, K_WTABLES, K_SWITCH, K_TRAFFIC, K_HOTSPOT, K_LOCAL, K_MSGSIZE, K_PKTFLITS, K_LOAD, K_WARMUP,
    K_CYCLES, K_DRAIN, K_SEED, K_LINKDELAY, K_HOSTDELAY, K_ROUTEDELAY, K_SLACK, K_STOP, K_GO, K_TIMEOUT, K_VCS, K_CTRL,
    K_FLITW, K_TAGW, K_DEPTH, K_MAXLEN, K_COUNTERS, K_CTRW, K_ITBDETECT, K_ITBDMA, K_ITBPOOL, K_ITBPRIO, K_NICBUF,
    K_NICSTOP, K_NICGO, K_NICDRAIN, K_ALT, K_ALLOWDL, K_DEADLOCK, K_SAT, K_LINKS, K_POLICY, K_THRESH, K_PROB,
    K_PROBEROUNDS, K_PROBEMARGIN, K_WORKLOAD, K_WLFILE, K_MSGBYTES, K_MESSAGES, K_MTU, K_ROOT, K_MAXCYC, K_NSPC, K_TIMING,
    K_NICINJ, K_NICDUPLEX, K_LINKW, K_FIFO, K_TURN, K_MLCTMO, K_MCASTK, K_N
};

/* which kinds use a key */
enum { FOR_XBAR = 1, FOR_VCSW = 2, FOR_SBOX = 4, FOR_ALL = 7 };

/* one key: its name, its default for xbar (and every kind), for vcsw when it differs, its help line, the kinds that
 * use it (FOR_*), its default for sbox when it differs */
typedef struct {
    const char *name, *def, *vdef, *help;
    unsigned char kinds;
    const char *sdef;
} sf_sim_key;

/* the table of keys (sf_simkeys.c), indexed by K_* */
extern const sf_sim_key sf_sim_keys[K_N];

/* the index of key k in sf_sim_keys, or -1 */
int sf_sim_key_index(const char *k);
/* the unknown key message in e: "WHERE: unknown key "K" (did you mean X?)"; returns -1 */
int sf_sim_unknown_key(sf_err *e, const char *where, const char *key, int cmdline);

/* The run's topology and routes as messages name them: the file, or the generator / algorithm line and where it was
 * given. */
static inline const char *TN(const sf_sim_cfg *c) { return c->topology[0] ? c->topology : c->topology_desc; }
static inline const char *RN(const sf_sim_cfg *c) { return c->routes[0] ? c->routes : c->routing_desc; }

/* s as a JSON string (quoted, escaped) */
void sf_sim_jstr(FILE *f, const char *s);
/* v as a JSON number (%.6g), null if not finite */
void sf_sim_jnum(FILE *f, double v);
/* "NAME": {avg, avg_network, p50, p95, p99, max} of l, each times scale */
void sf_sim_lat_json(FILE *out, const char *name, const sf_lat *l, double scale);

#endif

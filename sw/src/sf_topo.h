/* sf_topo.h - network topology: switches with ports, hosts on switch ports, links between switch ports.
 * File format: docs/topology.md. No global state; errors go to an sf_err the caller owns. */
#ifndef SF_TOPO_H
#define SF_TOPO_H
#include <stdint.h>
#include <stdio.h>
#include "sf_rng.h"

#define SF_MAX_PORTS 64

typedef struct { char msg[600]; } sf_err;

enum { SF_PEER_NONE = 0, SF_PEER_HOST = 1, SF_PEER_SWITCH = 2 };

/** What hangs on one switch port: nothing, a host (id) or a switch (id, port). */
typedef struct { int kind, id, port, line; } sf_peer;

typedef struct {
    int nports;   /* ports 0..nports-1 */
    int level;    /* generator hint (tree stage, 0 = top); -1 when not given */
    int line;     /* declaring line in the file, 0 when generated */
    sf_peer *peer;/* nports entries */
    int *ch;      /* channel leaving each port toward a switch, -1 otherwise */
} sf_switch;

typedef struct { int sw, port, line; } sf_host;

typedef struct {
    char name[128];      /* free text from the "name" line */
    int nsw, nhost;
    sf_switch *sw;
    sf_host *host;
    int allow_parallel;  /* 1 when "parallel-links yes" was given */
    /* derived by sf_topo_finish(): directed switch-to-switch channels; link l is channels 2l and 2l+1 */
    int nch;
    int *ch_from, *ch_fport, *ch_to, *ch_tport;
    int *hoff, *hlist;   /* CSR: hosts of switch s are hlist[hoff[s] .. hoff[s+1]-1], by port */
    int *adjoff, *adjch; /* CSR: channels leaving switch s, by port */
} sf_topo;

/** Create an empty topology (no switches yet); free with sf_topo_free. */
sf_topo *sf_topo_new(void);
/** Release a topology and everything it owns (NULL is fine). */
void sf_topo_free(sf_topo *t);
/** Declare switch `id` with `nports` ports (ids must end up dense 0..N-1); line is for messages. */
int sf_topo_add_switch(sf_topo *t, int id, int nports, int level, const char *file, int line, sf_err *e);
/** Attach host `id` to switch port (sw, port); errors on unknown switch, port out of range or in use. */
int sf_topo_add_host(sf_topo *t, int id, int sw, int port, const char *file, int line, sf_err *e);
/** Link switch port (a, pa) to (b, pb); errors on self-link, used ports, duplicate link unless parallel allowed. */
int sf_topo_add_link(sf_topo *t, int a, int pa, int b, int pb, const char *file, int line, sf_err *e);
/** Check density of ids and connectivity, then build channels and host lists. Call once after adding. */
int sf_topo_finish(sf_topo *t, const char *file, sf_err *e);

/** Parse a topology text file (see docs/topology.md); NULL and e->msg "file:line: problem" on error. */
sf_topo *sf_topo_read(const char *path, sf_err *e);
/** Parse topology text held in memory; `file` is the name used in messages. */
sf_topo *sf_topo_parse(const char *text, const char *file, sf_err *e);
/** Write a finished topology in the text format. */
void sf_topo_write(const sf_topo *t, FILE *f);

/** Switch-hop distance matrix (nsw*nsw ints, -1 unreachable) by BFS; caller frees. */
int *sf_topo_distances(const sf_topo *t);
/** Number of switch-to-switch links (nch/2). */
static inline int sf_topo_nlinks(const sf_topo *t) { return t->nch / 2; }

/* ---- generators (all return a finished topology or NULL with e set) ---- */
/** Random irregular network: n switches of p ports, h hosts each (ports 0..h-1), at most one link per pair, connected. */
sf_topo *sf_gen_random(int n, int p, int h, uint64_t seed, sf_err *e);
/** 2D mesh (wrap=0) or torus (wrap=1) of kx*ky switches with `p` ports and h hosts each. */
sf_topo *sf_gen_mesh(int kx, int ky, int wrap, int p, int h, sf_err *e);
/** 2D torus with express channels to the second-order neighbours in each dimension (Flich et al. 2002, sec. 5.1). */
sf_topo *sf_gen_express(int k, int p, int h, sf_err *e);
/** CPLANT-like network of Flich et al. 2002, sec. 5.1: 50 switches of 16 ports, 8 hosts each. */
sf_topo *sf_gen_cplant(sf_err *e);
/** 3-stage folded Clos: `leaves` leaf switches with h hosts and `spines` uplinks, spines with `leaves` ports. */
sf_topo *sf_gen_clos(int leaves, int h, int spines, sf_err *e);
/** k-ary n-tree (fat tree): n levels of k^(n-1) switches with 2k ports, k^n hosts. */
sf_topo *sf_gen_fattree(int k, int n, sf_err *e);
/** Hypercube of 2^dim switches, `p` ports each, h hosts each. */
sf_topo *sf_gen_hypercube(int dim, int p, int h, sf_err *e);
/** Seed 002 Fig. 10: 16 hosts on dual 8-way Myrinet boxes (each two 8-port crossbars, 2k = A and 2k+1 = B of box k,
 *  not linked inside the box) with a bisection of `bisection` links: 1, 2, 4 (two boxes, 4 hosts a crossbar: chain,
 *  ring, K4) or 5, 6, 9 (three boxes, 3 hosts on switches 0-3 and 2 on 4-5: K6 less four, three or no links). */
sf_topo *sf_gen_dual8(int bisection, sf_err *e);
/** Seed 002 Fig. 2: the ParPar test cluster, `boxes` 2 (16 hosts, K4 with each box's A-B link doubled, every port
 *  used) or 3 (18 hosts, K6 of 3 hosts a crossbar). */
sf_topo *sf_gen_parpar(int boxes, sf_err *e);

/* ---- trees of switch boxes (sf_tree.c; the Maestro network of Yamagiwa et al. 2000, sec. 4) ---- */
#define SF_TREE_MAX_LEVELS 6
/** Tree of `levels` boxes of p ports: the root (level 0) and every inner box have f children on ports 0..f-1, every
 *  non-root box goes up by port p-1, leaves hold h hosts on 0..h-1 (one level: one box, h hosts); ids breadth-first. */
sf_topo *sf_gen_tree(int levels, int p, int f, int h, sf_err *e);
/** Checks that t's switches form a tree (connected, no cycle, no two links between a pair); gives each its up port
 *  (-1: the root) and the root (the level-0 switch, else 0). 0, or -1 with e "FILE:LINE: problem" ("topology: ..." if generated). */
int sf_topo_tree(const sf_topo *t, const char *file, int *up_port, int *root, sf_err *e);

#endif

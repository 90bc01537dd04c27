/* sf_route.h - route sets, routing algorithms, checks, metrics and output formats.
 * Formats: docs/routing.md. No global state; all randomness from opts->seed. */
#ifndef SF_ROUTE_H
#define SF_ROUTE_H
#include <stdint.h>
#include <stdio.h>
#include "sf_topo.h"

/** One hop of a path: at switch `sw` leave by `port` on virtual channel `vc`.
 *  itb=1: `port` leads to an in-transit host of `sw`; the next hop starts again at `sw`. */
typedef struct { int32_t sw; int16_t port; int8_t vc; uint8_t itb; } sf_hop;

/** A route set: per (source, destination) pair up to `nalt` paths. Paths run from the source switch to the
 *  destination switch; the final port (to the destination host) comes from the topology. */
typedef struct {
    const sf_topo *t;    /* not owned */
    int per_switch;      /* 1: pairs are switch pairs (shared by their hosts); 0: host pairs */
    int nalt;
    int *index;          /* npairs * nalt path ids, -1 = none */
    int npath, pcap;
    int *poff, *plen;
    int8_t *pvc0;        /* VC on the injection link (start layer) */
    sf_hop *hops;
    size_t nhops, hcap;
    int nvc;             /* VCs (layers) the set uses, >= 1 */
    int promise_minimal; /* 1: every path claims to be a shortest path */
    int promise_updown;  /* 1: every segment claims to obey up*-then-down* on `dir` */
    int promise_onevc;   /* 1: every route claims to keep one VC from source to destination (updown) */
    int8_t *dir;         /* optional orientation used (1 = up) per channel, owned, may be NULL */
    int *map;            /* optional logical -> physical host mapping (nhost entries), owned, may be NULL */
    char algo[200];      /* description "NAME key=value ...", goes in file headers (docs/routing.md) */
    int nondisjoint;     /* FM: pairs whose second route could not be link-disjoint */
    int root;            /* up/down root the set was built for (-1 = level-0 switches, else switch 0) */
    int rule;            /* sf_rule: DL restriction inside each layer the set promises; SF_RULE_NONE = none */
    int fallbacks;       /* ITB: host pairs routed by up/down because no minimal path could place its ITBs */
    int *fallback_pairs; /* ITB: 3 ints per fallback (source host, destination host, host-less switch), owned */
} sf_routes;

/** Create an empty route set over topology t (per_switch: index switch pairs, else host pairs). */
sf_routes *sf_routes_new(const sf_topo *t, int per_switch, int nalt);
/** Free a route set (NULL is fine). */
void sf_routes_free(sf_routes *rs);
/** Store a path for pair (a, b) alternative alt (a, b are switches or hosts as per_switch says); returns path id. */
int sf_routes_set(sf_routes *rs, int a, int b, int alt, const sf_hop *h, int n, int vc0);
/** Path for host pair (src, dst) alternative alt: hops and count via *n, start VC via *vc0; NULL when absent. */
const sf_hop *sf_routes_get(const sf_routes *rs, int src, int dst, int alt, int *n, int *vc0);
/** Cursor over every stored path of a route set, host pairs src != dst in (src, dst, alt) order. */
typedef struct { int src, dst, alt, n, vc0; const sf_hop *h; } sf_route_it;
/** Step the cursor (start from `sf_route_it it = {0};`): 1 with its fields set to the next path, 0 at the end. */
int sf_routes_next(const sf_routes *rs, sf_route_it *it);
/** 1 if the set maps logical to physical hosts other than one to one in order (FM --map random); an identity map,
 *  as FM --map identity writes, is no map. */
int sf_routes_maps_hosts(const sf_routes *rs);
/** Number of switch-to-switch links a path crosses (ITB hops are not links). */
int sf_path_links(const sf_hop *h, int n);

typedef enum { SF_SEL_LOW = 0, SF_SEL_RANDOM, SF_SEL_BALANCED, SF_SEL_SANCHO, SF_SEL_PCH } sf_select;
typedef enum { SF_RULE_NONE = 0, SF_RULE_UD, SF_RULE_UDDU, SF_RULE_UD_DU, SF_RULE_LTURN } sf_rule;
typedef enum { SF_FIX_NONE = 0, SF_FIX_ITB, SF_FIX_LAYERS } sf_fix;
typedef enum { SF_FALLBACK_UPDOWN = 0, SF_FALLBACK_REFUSE } sf_fallback;

/** Options shared by the routing algorithms (sf_route_opts_default fills the defaults). */
typedef struct {
    int root;          /* up/down root switch; -1 = switches of level 0 if the file has levels, else 0 */
    sf_select sel;     /* path choice among legal paths */
    sf_rule rule;      /* DL restriction inside a layer */
    int nvc;           /* DL: number of VCs (layers) */
    int ud_vcs;        /* updown: VCs offered at the source (1..16); each route keeps the one its selection picks */
    int maxvc;         /* LASH / layer fix: most layers allowed */
    int maxalt;        /* clos-all: most routes per pair */
    double weight;     /* balanced: cost of a link = 1 + weight * load / mean load */
    sf_fix fix;        /* FM: how to make the set deadlock-free */
    int map_random;    /* FM: random logical -> physical host mapping */
    sf_fallback fallback; /* ITB: pairs without a minimal ITB route go up/down (recorded) or the run fails */
    uint64_t seed;
} sf_route_opts;

/** Fill opts with the defaults (root -1, low-port, (UD)*, 3 DL VCs, 1 updown VC, 16 layers, 16 alternatives,
 *  weight 3, ITB fix, ITB fallback to up/down). */
void sf_route_opts_default(sf_route_opts *o);
/** Up/down orientation (BFS from root(s), Autonet rules): 1 = channel goes up; caller frees. */
int8_t *sf_updown_dir(const sf_topo *t, int root, int *level_out, int *preorder_out);

/** 1 when `rule` lets a packet in layer v turn from channel class a to class b without changing layer. */
int sf_rule_allows(sf_rule rule, int v, int a, int b);
/** Class of every channel under `rule` for `root` (up/down rules: 0 up, 1 down; L-turn: 0 LD, 1 LU, 2 RU, 3 RD);
 *  caller frees. */
int8_t *sf_channel_classes(const sf_topo *t, sf_rule rule, int root);

/** Up/down routes, one per pair, each on one of o->ud_vcs VCs chosen at the source; sel = low/random/sancho/pch per
 *  switch pair, balanced (simple_routes-like) per host pair. */
sf_routes *sf_route_updown(const sf_topo *t, const sf_route_opts *o, sf_err *e);
/** Minimal routes with In-Transit Buffers (Flich et al. 2002, sec. 4): random minimal path, ITB at every down->up turn; pairs
 *  whose minimal paths all turn at host-less switches fall back to up/down (recorded) or fail (o->fallback). */
sf_routes *sf_route_itb(const sf_topo *t, const sf_route_opts *o, sf_err *e);
/** Descending Layers (Koibuchi et al. 2003): o->nvc layers, o->rule inside layers, o->sel path selection. */
sf_routes *sf_route_dl(const sf_topo *t, const sf_route_opts *o, sf_err *e);
/** FM routing (Etsion et al. 2000): least-used minimal path plus a link-disjoint second route, made deadlock-free by o->fix. */
sf_routes *sf_route_fm(const sf_topo *t, const sf_route_opts *o, sf_err *e);
/** All shortest up/down routes per switch pair (at most o->maxalt), for dispersive routing on Clos/fat trees. */
sf_routes *sf_route_allud(const sf_topo *t, const sf_route_opts *o, sf_err *e);
/** LASH: shortest paths (sel low/random/sancho), each in the lowest layer that keeps that layer's dependency graph
 *  acyclic; fails as soon as one path does not fit in o->maxvc layers. */
sf_routes *sf_route_lash(const sf_topo *t, const sf_route_opts *o, sf_err *e);
/** Split every path at down->up turns of `dir` with an ITB at a host of the turning switch; -1 if a switch has no host. */
int sf_fix_itb(sf_routes *rs, const int8_t *dir, sf_err *e);
/** Give every path one layer (VC) so each layer's dependency graph is acyclic; -1 if more than maxvc are needed. */
int sf_fix_layers(sf_routes *rs, int maxvc, sf_err *e);

/** Channel dependency check over (channel, VC); ITB hops break dependencies. 0 = acyclic; 1 = cycle, described in msg. */
int sf_check_deadlock(const sf_routes *rs, char *msg, size_t msglen);
/** Every host pair has a route, every route is well formed and ends at its destination; 0 ok, -1 with e set. */
int sf_check_routes(const sf_routes *rs, sf_err *e);
/** Count routes longer than the shortest switch distance (*total gets the number of routes examined). */
long sf_count_nonminimal(const sf_routes *rs, long *total);
/** Count down->up turns inside ITB-free segments with respect to `dir` (0 for a correct up/down set). */
long sf_count_downup(const sf_routes *rs, const int8_t *dir);
/** Routes with a down->up turn (w.r.t. dir) inside an ITB-free segment; the first one is described in msg. */
long sf_check_updown(const sf_routes *rs, const int8_t *dir, char *msg, size_t len);
/** Routes breaking the DL rule (VCs never increase along a route; a turn inside one layer must be allowed by
 *  `rule` for the channel classes `cls`); the first one is described in msg. */
long sf_check_layers(const sf_routes *rs, sf_rule rule, const int8_t *cls, char *msg, size_t len);
/** Routes whose VC changes along the way (updown sets promise one VC per route, chosen at the source); the first
 *  one is described in msg. */
long sf_check_onevc(const sf_routes *rs, char *msg, size_t len);
/** Every check the set's header promises (well-formed, deadlock-free, minimal, up/down, one VC per route, DL rule),
 *  one line per finding on `log` (may be NULL) after `prefix`; returns the number of failed checks (a cycle counts
 *  only if !allow_deadlock). */
int sf_verify(const sf_routes *rs, int allow_deadlock, FILE *log, const char *prefix);

/** Metrics of a route set (see docs/routing.md "stats"). */
typedef struct {
    int hosts, switches, links, nvc, nalt;
    long routes;              /* routes examined (all alternatives) */
    double avg_hops;          /* switch-to-switch links per route, all ordered host pairs src != dst */
    double avg_hops_remote;   /* same, only pairs on different switches */
    int max_hops;
    double minimal_share;     /* pairs on different switches whose route is shortest */
    double avg_itb;           /* ITBs per route */
    long routes_with_itb;
    long max_link_routes;     /* routes per directed link */
    double mean_link_routes;
    long *link_routes;        /* per channel (owned, nch entries) */
    int vcs_used;
    int itb_fallbacks;        /* ITB sets: pairs routed by up/down instead of a minimal ITB route */
} sf_stats;

/** Compute metrics; free with sf_stats_free. */
void sf_stats_compute(const sf_routes *rs, sf_stats *s);
/** Release the per-link list. */
void sf_stats_free(sf_stats *s);
/** Print metrics as a JSON object (per-link list included when links != 0). */
void sf_stats_json(const sf_stats *s, const sf_topo *t, FILE *f, int links);
/** Print metrics as an aligned text table. */
void sf_stats_table(const sf_stats *s, const sf_topo *t, FILE *f, int links);

/** Write Myrinet-style source routes (route bytes 0x80|port, ITB mark 0xC0). */
void sf_write_routes(const sf_routes *rs, FILE *f);
/** Read a route file for topology t (checks every byte against the topology, and takes the promises of its
 *  "algorithm" header: root, tie rule, DL rule, vcs=); NULL with e set on error. */
sf_routes *sf_read_routes(const sf_topo *t, const char *path, sf_err *e);
/** Write RHiNET-style per-switch tables (tag -> port, (in, out, in VC) -> out VC); -1 with e set if impossible. */
int sf_write_rhinet(const sf_routes *rs, FILE *f, sf_err *e);
/** Write Maestro switch-box tables (destination host -> output port); -1 if routes are not destination-based. */
int sf_write_maestro(const sf_routes *rs, FILE *f, sf_err *e);

#endif

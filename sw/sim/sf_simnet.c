/* sf_simnet.c - the network simulator's network: the topology and routes of a run (read, or generated and computed),
 * the VC network's tables, the files a run writes (sf_sim.h). */
#include "sf_sim_int.h"

#include "sf_cli.h"
#include "sf_route_cli.h"
#include "sf_topo_cli.h"
#include "sbox_load.h"
#include "vcsw_net.h"
#include "xbar.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ network */

static int write_file(const char *path, const char *what, const void *obj, sf_err *e);

/* The decoded tables of one switch: tag -> port (-1 none), (in, out, data VC) -> VC (-1 none). */
typedef struct {
    int8_t *rt;
    int8_t vt[16][16][16];
} dtab_t;

static void decode(const vcsw_tables_t *ts, unsigned ntags, dtab_t *d)
{
    memset(d->rt, -1, ntags);
    memset(d->vt, -1, sizeof d->vt);
    for (size_t i = 0; i < ts->nwrites; i++) {
        const unsigned sp = ts->writes[i].addr >> 14, ix = ts->writes[i].addr & 0x3FFFu, v = ts->writes[i].wdata & 15u;
        if (sp == VCSW_SPACE_ROUTE && ix < ntags)
            d->rt[ix] = (int8_t)v;
        else if (sp == VCSW_SPACE_VC)
            d->vt[ix >> 8 & 15u][ix >> 4 & 15u][ix & 15u] = (int8_t)v;
    }
}

/* The tables route every route of the set as the set says: each nic line's tag and VC, followed switch by switch
 * through the routing and VC tables, leave every switch by the route's port on the route's VC and reach the
 * destination host. 0, or -1 naming the first disagreement. */
static int tables_match(const sf_sim_cfg *c, const sf_sim_net *n, sf_err *e)
{
    const sf_topo *t = n->t;
    const vcsw_net_tables_t *tb = n->tables;
    const unsigned S = (unsigned)t->nsw, ntags = 1u << c->vcsw.TAG_W;
    dtab_t *d = calloc(S, sizeof *d);
    if (!d) {
        fprintf(stderr, "sanfab-sim: out of memory\n");
        exit(2);
    }
    int rc = 0;
    for (unsigned s = 0; s < S && !rc; s++) {
        if (!(d[s].rt = malloc(ntags))) {
            fprintf(stderr, "sanfab-sim: out of memory\n");
            exit(2);
        }
        decode(&tb->sw[s], ntags, &d[s]);
    }
    const char *tn = c->tables[0] ? c->tables : "(tables written from the routes)";
    size_t covered = 0;
    for (size_t i = 0; i < tb->nnics && !rc; i++) {
        const vcsw_nic_t *l = &tb->nics[i];
        int nh = 0, vc0 = 0;
        const sf_hop *h = (int)l->alt < n->rs->nalt ? sf_routes_get(n->rs, (int)l->src, (int)l->dst, (int)l->alt, &nh, &vc0) : NULL;
        if (!h && l->src != l->dst) {
            snprintf(e->msg, sizeof e->msg, "%.300s: nic %u dst %u alt %u: %.200s has no such route (are the tables of this "
                     "route set?)", tn, l->src, l->dst, l->alt, RN(c));
            rc = -1;
            break;
        }
        covered++;
        if (l->vc != (unsigned)vc0) {
            snprintf(e->msg, sizeof e->msg, "%.300s: host %u to %u (alt %u) starts on VC %u in the tables, on VC %d in %.200s",
                     tn, l->src, l->dst, l->alt, l->vc, vc0, RN(c));
            rc = -1;
            break;
        }
        unsigned sw = (unsigned)t->host[l->src].sw, in = (unsigned)t->host[l->src].port, vc = l->vc;
        for (int k = 0; k <= nh && !rc; k++) {
            const unsigned out = k < nh ? (unsigned)h[k].port : (unsigned)t->host[l->dst].port;
            const int want_vc = k < nh ? h[k].vc : (int)vc;
            const int port = d[sw].rt[l->tag];
            const int ovc = port >= 0 && in < 16 && (unsigned)port < 16 && vc < 16 ? d[sw].vt[in][port][vc] : -1;
            if ((k < nh && (unsigned)h[k].sw != sw) || port != (int)out || ovc != want_vc) {
                snprintf(e->msg, sizeof e->msg, "%.200s: host %u to %u (alt %u, tag %u) leaves switch %u by port %d on VC %d in "
                         "the tables, by port %u on VC %d in %.150s", tn, l->src, l->dst, l->alt, l->tag, sw, port, ovc, out,
                         want_vc, RN(c));
                rc = -1;
                break;
            }
            if (k < nh) {
                const sf_peer *pe = &t->sw[sw].peer[out];
                sw = (unsigned)pe->id;
                in = (unsigned)pe->port;
                vc = (unsigned)ovc;
            }
        }
    }
    if (!rc) {
        size_t routes = 0;
        for (sf_route_it it = {0}; sf_routes_next(n->rs, &it);)
            routes++;
        if (routes != covered) {
            snprintf(e->msg, sizeof e->msg, "%.300s: %zu nic lines for the %zu routes of %.200s (are the tables of this route set?)",
                     tn, covered, routes, RN(c));
            rc = -1;
        }
    }
    for (unsigned s = 0; s < S; s++)
        free(d[s].rt);
    free(d);
    return rc;
}

/* The route set's tables as `writer` (sanfab-route --rhinet's or --maestro's) writes them, in a temporary file rewound
 * to its start, named in *name for messages; NULL with e = "ROUTES: the route set has no KIND tables: why". */
static FILE *tables_from_routes(const sf_sim_cfg *c, const sf_sim_net *n, int (*writer)(const sf_routes *, FILE *, sf_err *),
                                const char *kind, char *name, size_t namelen, sf_err *e)
{
    FILE *f = tmpfile();
    if (!f) {
        snprintf(e->msg, sizeof e->msg, "cannot create a temporary file for the tables");
        return NULL;
    }
    if (writer(n->rs, f, e)) {
        char why[sizeof e->msg];
        snprintf(why, sizeof why, "%s", e->msg);
        snprintf(e->msg, sizeof e->msg, "%.250s: the route set has no %s tables: %.300s", RN(c), kind, why);
        fclose(f);
        return NULL;
    }
    rewind(f);
    snprintf(name, namelen, "(tables written from %.1000s)", RN(c));
    return f;
}

/* The VC network's tables: the tables file, or written from the routes (sanfab-route --rhinet's writer). */
static int load_tables(const sf_sim_cfg *c, sf_sim_net *n, sf_err *e)
{
    for (size_t i = 0; i < n->rs->nhops; i++)
        if (n->rs->hops[i].itb) {
            snprintf(e->msg, sizeof e->msg, "%.300s: the route set uses In-Transit Buffers, which only the crossbar network's "
                     "NICs handle (switch xbar)", RN(c));
            return -1;
        }
    const unsigned S = (unsigned)n->t->nsw;
    unsigned *np = calloc(S, sizeof *np);
    n->tables = calloc(1, sizeof *n->tables);
    if (!np || !n->tables) {
        fprintf(stderr, "sanfab-sim: out of memory\n");
        exit(2);
    }
    for (unsigned s = 0; s < S; s++) {
        np[s] = (unsigned)n->t->sw[s].nports;
        if (np[s] > VCSW_MAX_PORTS) {
            snprintf(e->msg, sizeof e->msg, "%.300s: switch %u has %u ports; the VC switch has at most %d", TN(c), s, np[s],
                     VCSW_MAX_PORTS);
            free(np);
            return -1;
        }
        if (np[s] < 2)
            np[s] = 2;
    }
    char err[600];
    int rc;
    if (c->tables[0]) {
        rc = vcsw_load_network(c->tables, &c->vcsw, np, S, n->tables, err, sizeof err);
    } else {
        char name[1100];
        FILE *f = tables_from_routes(c, n, sf_write_rhinet, "VC-switch", name, sizeof name, e);
        if (!f) {
            free(np);
            return -1;
        }
        if (c->write_tables[0] && write_file(c->write_tables, "write-tables", n->rs, e)) {
            fclose(f);
            free(np);
            return -1;
        }
        rc = vcsw_load_network_stream(f, name, &c->vcsw, np, S, n->tables, err, sizeof err);
        fclose(f);
    }
    free(np);
    if (rc) {
        snprintf(e->msg, sizeof e->msg, "%.590s", err);
        return -1;
    }
    if (n->tables->hosts != (unsigned)n->t->nhost) {
        snprintf(e->msg, sizeof e->msg, "%.300s: the tables are for %u hosts, %.200s has %d", c->tables, n->tables->hosts,
                 TN(c), n->t->nhost);
        return -1;
    }
    return tables_match(c, n, e);
}

/* The Maestro network's boxes: the tree's up ports and every box's table (the tables file, or written from the
 * routes by sanfab-route --maestro's writer), checked to lead every host to every other. */
static int load_boxes(const sf_sim_cfg *c, sf_sim_net *n, sf_err *e)
{
    const sf_topo *t = n->t;
    const unsigned S = (unsigned)t->nsw, H = (unsigned)t->nhost;
    if (H > SBOX_MAX_NODES) {
        snprintf(e->msg, sizeof e->msg, "%.300s: %u hosts; a Maestro network has at most %d (a box's table and a multicast's MASK "
                 "hold 16 nodes, docs/sbox.md)", TN(c), H, SBOX_MAX_NODES);
        return -1;
    }
    for (unsigned s = 0; s < S; s++)
        if (t->sw[s].nports > SBOX_MAX_PORTS) {
            snprintf(e->msg, sizeof e->msg, "%.300s: switch %u has %d ports; a Maestro switch box has at most %d", TN(c), s,
                     t->sw[s].nports, SBOX_MAX_PORTS);
            return -1;
        }
    if (n->rs->nvc > 1) {
        snprintf(e->msg, sizeof e->msg, "%.300s: the route set uses %d VCs; the Maestro network has none", RN(c), n->rs->nvc);
        return -1;
    }
    n->boxes = calloc(S, sizeof *n->boxes);
    int *up = calloc(S, sizeof *up);
    if (!n->boxes || !up) {
        fprintf(stderr, "sanfab-sim: out of memory\n");
        exit(2);
    }
    int root;
    if (sf_topo_tree(t, c->topology[0] ? c->topology : NULL, up, &root, e)) {
        if (c->topology_gen[0]) { /* a generated topology: name the line that made it */
            char why[sizeof e->msg];
            snprintf(why, sizeof why, "%s", e->msg);
            snprintf(e->msg, sizeof e->msg, "%.280s: %.300s", c->topology_desc, why);
        }
        free(up);
        return -1;
    }
    FILE *f = NULL;
    char name[1100];
    if (c->tables[0]) {
        f = fopen(c->tables, "r");
        if (!f) {
            snprintf(e->msg, sizeof e->msg, "%.400s: cannot open: %s", c->tables, strerror(errno));
            free(up);
            return -1;
        }
        snprintf(name, sizeof name, "%s", c->tables);
    } else if (!(f = tables_from_routes(c, n, sf_write_maestro, "switch-box", name, sizeof name, e))) {
        free(up);
        return -1;
    }
    int rc = 0;
    for (unsigned s = 0; s < S && !rc; s++) {
        sbox_table_t tb;
        char err[600];
        rewind(f);
        const unsigned ports = t->sw[s].nports < 2 ? 2u : (unsigned)t->sw[s].nports;
        if (sbox_load_stream(f, name, s, ports, H ? H : 1, &tb, err, sizeof err)) {
            snprintf(e->msg, sizeof e->msg, "%.590s", err);
            rc = -1;
        } else if (tb.switches != S || tb.hosts != H) {
            snprintf(e->msg, sizeof e->msg, "%.300s: the tables are for %u switches and %u hosts, %.200s has %u and %u", name,
                     tb.switches, tb.hosts, TN(c), S, H);
            rc = -1;
        } else {
            for (unsigned d = 0; d < SBOX_MAX_NODES; d++)
                n->boxes[s].port[d] = tb.port[d];
            n->boxes[s].up = up[s];
        }
    }
    fclose(f);
    free(up);
    /* every host reaches every other by the tables: box by box along the ports they give */
    for (unsigned a = 0; a < H && !rc; a++)
        for (unsigned d = 0; d < H && !rc; d++) {
            if (a == d)
                continue;
            unsigned sw = (unsigned)t->host[a].sw, hops = 0;
            for (;;) {
                const int p = n->boxes[sw].port[d];
                const sf_peer *pe = p >= 0 ? &t->sw[sw].peer[p] : NULL;
                if (pe && pe->kind == SF_PEER_HOST && pe->id == (int)d)
                    break;
                if (!pe || pe->kind != SF_PEER_SWITCH || ++hops > S) {
                    snprintf(e->msg, sizeof e->msg, "%.300s: host %u does not reach host %u: box %u %s", name, a, d, sw,
                             p < 0 ? "has no entry for it" : !pe || pe->kind != SF_PEER_SWITCH ? "sends it to a port without it"
                                                                                              : "sends it round a loop");
                    rc = -1;
                    break;
                }
                sw = (unsigned)pe->id;
            }
        }
    return rc;
}

/* Write a topology (what "write-topology"), a route set ("write-routes") or its RHiNET tables ("write-tables") to
 * path, as sanfab-topo -o, sanfab-route -o and sanfab-route --rhinet write them; 0, or -1 with e set. */
static int write_file(const char *path, const char *what, const void *obj, sf_err *e)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(e->msg, sizeof e->msg, "%s %.400s: cannot write: %s", what, path, strerror(errno));
        return -1;
    }
    int rc = 0;
    if (!strcmp(what, "write-topology"))
        sf_topo_write(obj, f);
    else if (!strcmp(what, "write-routes"))
        sf_write_routes(obj, f);
    else if (!strcmp(what, "write-maestro")) {
        if (sf_write_maestro(obj, f, e)) {
            char why[sizeof e->msg];
            snprintf(why, sizeof why, "%s", e->msg);
            snprintf(e->msg, sizeof e->msg, "write-tables %.300s: the route set has no switch-box tables: %.200s", path, why);
            rc = -1;
        }
    } else if (sf_write_rhinet(obj, f, e)) {
        char why[sizeof e->msg];
        snprintf(why, sizeof why, "%s", e->msg);
        snprintf(e->msg, sizeof e->msg, "%s %.300s: the route set has no RHiNET tables: %.200s", what, path, why);
        rc = -1;
    }
    if (fclose(f) != 0 && !rc) {
        snprintf(e->msg, sizeof e->msg, "%s %.400s: write error", what, path);
        rc = -1;
    }
    return rc;
}

/* The topology of the topology-gen line (sanfab-topo's parser and generators, sf_topo_cli.c); written to
 * write-topology if given. NULL with e = "WHERE: topology-gen: problem". */
static sf_topo *gen_topology(const sf_sim_cfg *c, sf_err *e)
{
    char line[1024], *argv[256];
    snprintf(line, sizeof line, "%s", c->topology_gen);
    const int argc = sf_cli_split(line, argv, 256);
    sf_topo_cli a;
    sf_err pe = {{0}};
    sf_topo *t = NULL;
    if (argc > 0 && sf_topo_cli_parse(&a, argc, argv, 0, &pe) == SF_CLI_OK)
        t = sf_topo_cli_generate(&a, &pe);
    if (!t) {
        snprintf(e->msg, sizeof e->msg, "%.280s: %.300s", c->topology_desc, pe.msg);
        return NULL;
    }
    if (c->write_topology[0] && write_file(c->write_topology, "write-topology", t, e)) {
        sf_topo_free(t);
        return NULL;
    }
    return t;
}

/* The routes of the routing line on t (sanfab-route's parser and algorithms, sf_route_cli.c), checked as
 * sanfab-route checks what it writes (a dependency cycle is left to allow-deadlock); written to write-routes if
 * given. NULL with e = "WHERE: routing: problem". */
static sf_routes *compute_routes(const sf_sim_cfg *c, const sf_topo *t, sf_err *e)
{
    char line[1024], *argv[256];
    snprintf(line, sizeof line, "%s", c->routing);
    const int argc = sf_cli_split(line, argv, 256);
    sf_route_cli r;
    sf_err pe = {{0}};
    sf_routes *rs = NULL;
    int status = SF_CLI_FAIL;
    if (argc > 0 && sf_route_cli_parse(&r, argc, argv, 0, &pe) == SF_CLI_OK)
        rs = sf_route_cli_compute(&r, t, &status, &pe);
    if (!rs) {
        snprintf(e->msg, sizeof e->msg, "%.280s: %.300s", c->routing_desc, pe.msg);
        return NULL;
    }
    char prefix[1500];
    snprintf(prefix, sizeof prefix, "sanfab-sim: %.1400s: ", c->routing_desc);
    sf_route_cli_report(&r, rs, stderr, prefix);
    if (sf_verify(rs, 1, NULL, "")) {
        sf_verify(rs, 1, stderr, prefix);
        snprintf(e->msg, sizeof e->msg, "%.500s: the computed route set fails its checks (above)", c->routing_desc);
        sf_routes_free(rs);
        return NULL;
    }
    if (c->write_routes[0] && write_file(c->write_routes, "write-routes", rs, e)) {
        sf_routes_free(rs);
        return NULL;
    }
    return rs;
}

int sf_sim_net_load(const sf_sim_cfg *c, sf_sim_net *n, sf_err *e)
{
    memset(n, 0, sizeof *n);
    n->t = c->topology_gen[0] ? gen_topology(c, e) : sf_topo_read(c->topology, e);
    if (!n->t)
        return -1;
    n->rs = c->routing[0] ? compute_routes(c, n->t, e) : sf_read_routes(n->t, c->routes, e);
    if (!n->rs) {
        sf_sim_net_free(n);
        return -1;
    }
    if (c->write_tables[0] && c->k != SF_KIND_VCSW &&
        write_file(c->write_tables, c->k == SF_KIND_SBOX ? "write-maestro" : "write-tables", n->rs, e)) {
        sf_sim_net_free(n);
        return -1;
    }
    snprintf(n->algo, sizeof n->algo, "%s", n->rs->algo);
    if (sf_check_routes(n->rs, e)) {
        sf_sim_net_free(n);
        return -1;
    }
    if (sf_check_deadlock(n->rs, n->cycle, sizeof n->cycle)) {
        n->cyclic = 1;
        if (!c->allow_deadlock) {
            snprintf(e->msg, sizeof e->msg, "%.200s: the route set can deadlock (%.300s); give allow-deadlock yes to run it anyway",
                     RN(c), n->cycle);
            sf_sim_net_free(n);
            return -1;
        }
    }
    if (c->given[K_POLICY] && c->nic.pol.kind != SF_POL_STATIC && n->rs->nalt < 2) {
        snprintf(e->msg, sizeof e->msg, "%.300s: the %s policy chooses among a pair's alternative routes, and this route set "
                 "has one route a pair (sanfab-route clos-all or fm write alternatives)", RN(c),
                 sf_policy_name(c->nic.pol.kind));
        sf_sim_net_free(n);
        return -1;
    }
    if (sf_routes_maps_hosts(n->rs) && !c->workload[0] && !c->workload_file[0]) {
        snprintf(e->msg, sizeof e->msg, "%.300s: the route set maps logical to physical hosts (FM --map random): sanfab-sim runs "
                 "it with a workload (its programs are placed by the map), not with constant-rate loads", RN(c));
        sf_sim_net_free(n);
        return -1;
    }
    if (c->workload[0] || c->workload_file[0]) {
        sf_wl_params wp = c->wlp;
        wp.seed = c->tr.seed;
        n->wl = c->workload[0] ? sf_workload_builtin(c->workload, n->t, &wp, e)
                               : sf_workload_read(c->workload_file, (unsigned)n->t->nhost, e);
        if (!n->wl) {
            sf_sim_net_free(n);
            return -1;
        }
        if (sf_routes_maps_hosts(n->rs))
            sf_workload_remap(n->wl, n->rs->map);
    }
    if (c->k == SF_KIND_SBOX) {
        for (size_t i = 0; i < n->rs->nhops; i++)
            if (n->rs->hops[i].itb) {
                snprintf(e->msg, sizeof e->msg, "%.300s: the route set uses In-Transit Buffers, which only the crossbar network's "
                         "NICs handle (switch xbar)", RN(c));
                sf_sim_net_free(n);
                return -1;
            }
        if (load_boxes(c, n, e)) {
            sf_sim_net_free(n);
            return -1;
        }
        return 0;
    }
    if (c->k == SF_KIND_VCSW) {
        if (load_tables(c, n, e)) {
            sf_sim_net_free(n);
            return -1;
        }
        return 0;
    }
    if (n->rs->nvc > 1) {
        snprintf(e->msg, sizeof e->msg, "%.300s: the route set uses %d VCs; the crossbar network has none (run it on the VC-switch "
                 "network: --switch vcsw, with its sanfab-route --rhinet tables as --tables, or none: they are then written "
                 "from the routes)", RN(c), n->rs->nvc);
        sf_sim_net_free(n);
        return -1;
    }
    for (int s = 0; s < n->t->nsw; s++)
        if (n->t->sw[s].nports > XBAR_MAX_PORTS) {
            snprintf(e->msg, sizeof e->msg, "%.300s: switch %d has %d ports; the crossbar model has at most %d", TN(c), s,
                     n->t->sw[s].nports, XBAR_MAX_PORTS);
            sf_sim_net_free(n);
            return -1;
        }
    return 0;
}

void sf_sim_net_free(sf_sim_net *n)
{
    sf_routes_free(n->rs);
    sf_topo_free(n->t);
    vcsw_net_tables_free(n->tables);
    free(n->tables);
    free(n->boxes);
    n->boxes = NULL;
    sf_workload_free(n->wl);
    n->wl = NULL;
    n->rs = NULL;
    n->t = NULL;
    n->tables = NULL;
}

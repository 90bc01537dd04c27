/* sanfab-route: compute, check, write and measure route sets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sf_route.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: sanfab-route ALGORITHM TOPOLOGY [options]   compute routes, check them, write outputs\n"
            "       sanfab-route check TOPOLOGY ROUTES              check a route file (connectivity, destinations,\n"
            "                                                       deadlock freedom, promised minimality)\n"
            "       sanfab-route stats TOPOLOGY ROUTES [--json] [--links]   metrics of a route file\n"
            "algorithms:\n"
            "  updown    up*/down* on a BFS spanning tree (Autonet rules)\n"
            "  itb       random minimal paths split by In-Transit Buffers at down->up turns (seed 000 sec 4)\n"
            "  dl        Descending Layers with --vcs layers and a --rule (seed 001)\n"
            "  fm        FM: least-used minimal path + link-disjoint second route (seed 002)\n"
            "  clos-all  all shortest up*/down* routes per pair, at most --max-alt (dispersive routing, seed 003)\n"
            "  lash      layered shortest path; reports the layers it needs\n"
            "options:\n"
            "  --root N          up*/down* root switch (default: level-0 switches if the file has levels, else 0)\n"
            "  --select S        low | random | balanced | sancho | pch   (default low)\n"
            "                    balanced = simple_routes-like weighted links (may take non-minimal legal paths)\n"
            "                    sancho = least static path load; pch = least loaded physical channel first\n"
            "  --vcs N           DL layers (default 3)\n"
            "  --rule R          DL restriction: ud | ud-du | ud-dudu | lturn  = (UD)*, (UD-DU)*, UD-(DU)*, (L-turn)*\n"
            "  --weight W        balanced: link cost 1 + W*load/mean load (default 3)\n"
            "  --max-alt K       clos-all: routes per pair (default 16)\n"
            "  --max-vcs K       lash / layer fix: most layers (default 16)\n"
            "  --deadlock F      fm: itb | layers | none (default itb)\n"
            "  --map random      fm: random logical->physical host mapping\n"
            "  --seed S          random seed (default 1; always printed)\n"
            "  -o FILE           write source routes (route bytes 0x80|port, ITB mark 0xc0)\n"
            "  --rhinet FILE     write RHiNET-style switch tables\n"
            "  --maestro FILE    write Maestro switch-box tables\n"
            "  --stats           print metrics as a table; --json as JSON; --links adds the per-link list\n"
            "  --allow-deadlock  write outputs even if the dependency graph has a cycle\n"
            "  --time            print the routing time\n"
            "Exit status: 0 ok, 1 check failed or bad input, 2 usage.\n");
}

static int num(const char *opt, const char *v, long lo, long hi, long *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (!*v || *end || x < lo || x > hi) {
        fprintf(stderr, "sanfab-route: %s needs a number in %ld..%ld, got \"%s\"\n", opt, lo, hi, v);
        return -1;
    }
    *out = x;
    return 0;
}

static int verify(const sf_routes *rs, int allow_deadlock)
{
    sf_err e = {""};
    int bad = 0;
    if (sf_check_routes(rs, &e)) { fprintf(stderr, "sanfab-route: check: %s\n", e.msg); bad = 1; }
    char msg[4096];
    if (sf_check_deadlock(rs, msg, sizeof msg)) {
        fprintf(stderr, "sanfab-route: check: deadlock possible: %s\n", msg);
        if (!allow_deadlock) bad = 1;
    } else fprintf(stderr, "sanfab-route: check: deadlock-free (%d VC%s)\n", rs->nvc, rs->nvc > 1 ? "s" : "");
    if (rs->promise_minimal) {
        long tot, nm = sf_count_nonminimal(rs, &tot);
        if (nm) { fprintf(stderr, "sanfab-route: check: %ld of %ld routes promised minimal are not\n", nm, tot); bad = 1; }
    }
    if (rs->promise_updown && rs->dir) {
        long du = sf_count_downup(rs, rs->dir);
        if (du) { fprintf(stderr, "sanfab-route: check: %ld down->up turns in up*/down* segments\n", du); bad = 1; }
    }
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) { usage(argc < 2 ? stderr : stdout); return argc < 2 ? 2 : 0; }
    if (argc < 3) { usage(stderr); return 2; }
    const char *alg = argv[1], *topo = argv[2];
    sf_route_opts o;
    sf_route_opts_default(&o);
    const char *out = NULL, *rh = NULL, *ma = NULL, *routes_in = NULL;
    int stats = 0, json = 0, links = 0, allow = 0, timeit = 0;
    int first = 3;
    if (!strcmp(alg, "check") || !strcmp(alg, "stats")) {
        if (argc < 4) { usage(stderr); return 2; }
        routes_in = argv[3];
        first = 4;
    }
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--stats")) { stats = 1; continue; }
        if (!strcmp(a, "--json")) { json = 1; continue; }
        if (!strcmp(a, "--links")) { links = 1; continue; }
        if (!strcmp(a, "--allow-deadlock")) { allow = 1; continue; }
        if (!strcmp(a, "--time")) { timeit = 1; continue; }
        if (!strcmp(a, "--help")) { usage(stdout); return 0; }
        if (i + 1 >= argc) { fprintf(stderr, "sanfab-route: option %s needs a value (see --help)\n", a); return 2; }
        const char *v = argv[++i];
        long x;
        if (!strcmp(a, "--root")) { if (num(a, v, -1, 1 << 20, &x)) return 2; o.root = (int)x; }
        else if (!strcmp(a, "--select")) {
            if (!strcmp(v, "low")) o.sel = SF_SEL_LOW;
            else if (!strcmp(v, "random")) o.sel = SF_SEL_RANDOM;
            else if (!strcmp(v, "balanced")) o.sel = SF_SEL_BALANCED;
            else if (!strcmp(v, "sancho")) o.sel = SF_SEL_SANCHO;
            else if (!strcmp(v, "pch")) o.sel = SF_SEL_PCH;
            else { fprintf(stderr, "sanfab-route: unknown --select %s\n", v); return 2; }
        } else if (!strcmp(a, "--rule")) {
            if (!strcmp(v, "ud")) o.rule = SF_RULE_UD;
            else if (!strcmp(v, "ud-du")) o.rule = SF_RULE_UDDU;
            else if (!strcmp(v, "ud-dudu")) o.rule = SF_RULE_UD_DU;
            else if (!strcmp(v, "lturn")) o.rule = SF_RULE_LTURN;
            else { fprintf(stderr, "sanfab-route: unknown --rule %s\n", v); return 2; }
        } else if (!strcmp(a, "--vcs")) { if (num(a, v, 1, 16, &x)) return 2; o.nvc = (int)x; }
        else if (!strcmp(a, "--weight")) {
            char *end;
            o.weight = strtod(v, &end);
            if (!*v || *end || o.weight < 0) { fprintf(stderr, "sanfab-route: --weight needs a number >= 0\n"); return 2; }
        }
        else if (!strcmp(a, "--max-alt")) { if (num(a, v, 1, 1024, &x)) return 2; o.maxalt = (int)x; }
        else if (!strcmp(a, "--max-vcs")) { if (num(a, v, 1, 64, &x)) return 2; o.maxvc = (int)x; }
        else if (!strcmp(a, "--deadlock")) {
            if (!strcmp(v, "itb")) o.fix = SF_FIX_ITB;
            else if (!strcmp(v, "layers")) o.fix = SF_FIX_LAYERS;
            else if (!strcmp(v, "none")) o.fix = SF_FIX_NONE;
            else { fprintf(stderr, "sanfab-route: unknown --deadlock %s\n", v); return 2; }
        } else if (!strcmp(a, "--map")) {
            if (strcmp(v, "random") && strcmp(v, "identity")) { fprintf(stderr, "sanfab-route: --map random|identity\n"); return 2; }
            o.map_random = !strcmp(v, "random");
        } else if (!strcmp(a, "--seed")) {
            char *end;
            o.seed = strtoull(v, &end, 10);
            if (!*v || *end) { fprintf(stderr, "sanfab-route: --seed needs a number\n"); return 2; }
        }
        else if (!strcmp(a, "-o")) out = v;
        else if (!strcmp(a, "--rhinet")) rh = v;
        else if (!strcmp(a, "--maestro")) ma = v;
        else { fprintf(stderr, "sanfab-route: unknown option %s (see --help)\n", a); return 2; }
    }
    sf_err e = {""};
    sf_topo *t = sf_topo_read(topo, &e);
    if (!t) { fprintf(stderr, "sanfab-route: %s\n", e.msg); return 1; }
    fprintf(stderr, "sanfab-route: seed %llu\n", (unsigned long long)o.seed);
    if (o.root >= t->nsw) {
        fprintf(stderr, "sanfab-route: --root %d: no such switch (0..%d)\n", o.root, t->nsw - 1);
        sf_topo_free(t);
        return 2;
    }
    sf_routes *rs = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (routes_in) rs = sf_read_routes(t, routes_in, &e);
    else if (!strcmp(alg, "updown")) rs = sf_route_updown(t, &o, &e);
    else if (!strcmp(alg, "itb")) rs = sf_route_itb(t, &o, &e);
    else if (!strcmp(alg, "dl")) rs = sf_route_dl(t, &o, &e);
    else if (!strcmp(alg, "fm")) rs = sf_route_fm(t, &o, &e);
    else if (!strcmp(alg, "clos-all")) rs = sf_route_allud(t, &o, &e);
    else if (!strcmp(alg, "lash")) rs = sf_route_lash(t, &o, &e);
    else { fprintf(stderr, "sanfab-route: unknown algorithm \"%s\" (see --help)\n", alg); sf_topo_free(t); return 2; }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!rs) { fprintf(stderr, "sanfab-route: %s\n", e.msg); sf_topo_free(t); return 1; }
    if (timeit)
        fprintf(stderr, "sanfab-route: routing time %.3f ms\n",
                (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
    if (!strcmp(alg, "lash")) fprintf(stderr, "sanfab-route: lash needs %d layers\n", rs->nvc);
    int bad = verify(rs, allow);
    if (!strcmp(alg, "check")) { sf_routes_free(rs); sf_topo_free(t); return bad; }
    if (!bad && out) {
        FILE *f = fopen(out, "w");
        if (!f) { perror(out); bad = 1; }
        else { sf_write_routes(rs, f); fclose(f); }
    }
    if (!bad && rh) {
        FILE *f = fopen(rh, "w");
        if (!f) { perror(rh); bad = 1; }
        else { if (sf_write_rhinet(rs, f, &e)) { fprintf(stderr, "sanfab-route: rhinet: %s\n", e.msg); bad = 1; } fclose(f); }
    }
    if (!bad && ma) {
        FILE *f = fopen(ma, "w");
        if (!f) { perror(ma); bad = 1; }
        else { if (sf_write_maestro(rs, f, &e)) { fprintf(stderr, "sanfab-route: maestro: %s\n", e.msg); bad = 1; } fclose(f); }
    }
    if (stats || json || !strcmp(alg, "stats")) {
        sf_stats s;
        sf_stats_compute(rs, &s);
        if (json) sf_stats_json(&s, t, stdout, links);
        else sf_stats_table(&s, t, stdout, links);
        sf_stats_free(&s);
    }
    sf_routes_free(rs);
    sf_topo_free(t);
    return bad;
}

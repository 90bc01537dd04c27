/* sanfab-route: compute, check, write and measure route sets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sf_route_cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: sanfab-route ALGORITHM TOPOLOGY [options]   compute routes, check them, write outputs\n"
            "       sanfab-route check TOPOLOGY ROUTES              check a route file against everything its header\n"
            "                                                       promises (no options)\n"
            "       sanfab-route stats TOPOLOGY ROUTES [--json] [--links]   metrics of a route file\n"
            "Options may come anywhere on the line. An option the command does not use is an error, never ignored.\n"
            "algorithms and the options each uses:\n"
            "  updown    up*/down* on a BFS spanning tree (Autonet rules)\n"
            "            --root N, --select low|random|sancho|pch|balanced (default low), --weight W (balanced),\n"
            "            --seed S (random), --vcs N (1..16, default 1: each route keeps one VC, chosen at the source:\n"
            "            low VC 0, random uniform, sancho/pch/balanced the least loaded VC of the chosen path)\n"
            "  itb       random minimal paths split by In-Transit Buffers at down->up turns (Flich et al. 2002, sec. 4)\n"
            "            --root N, --seed S, --fallback updown|refuse (default updown: pairs whose minimal paths all\n"
            "            need an ITB at a switch without a host take up*/down* routes, with a warning naming them)\n"
            "  dl        Descending Layers (Koibuchi et al. 2003)\n"
            "            --root N, --vcs N (1..16, default 3), --rule ud|ud-du|ud-dudu|lturn (default ud),\n"
            "            --select low|random|sancho|pch|balanced (default low), --weight W (balanced), --seed S (random)\n"
            "  fm        FM: least-used minimal path + link-disjoint second route (Etsion et al. 2000)\n"
            "            --deadlock itb|layers|none (default itb), --map random|identity, --root N (itb),\n"
            "            --max-vcs K (layers), --allow-deadlock (none), --seed S (--map random)\n"
            "  clos-all  all shortest up*/down* routes per pair (dispersive routing, Geoffray and Hoefler 2008)\n"
            "            --root N, --max-alt K (1..1024, default 16)\n"
            "  lash      layered shortest path; reports the layers it needs, warns above 8\n"
            "            --select low|random|sancho (default sancho), --max-vcs K (1..64, default 16: fails at the\n"
            "            first path that fits in none), --seed S (random)\n"
            "option meanings:\n"
            "  --root N          up*/down* root switch (default: level-0 switches if the file has levels, else 0)\n"
            "  --select S        low = lowest port; random = uniform over shortest legal paths; sancho = least static\n"
            "                    path load; pch = least loaded physical channel first; balanced = simple_routes-like\n"
            "                    weighted links (may take non-minimal legal paths)\n"
            "  --weight W        balanced: link cost 1 + W*load/mean load (default 3)\n"
            "  --seed S          random seed 0..2^64-1 (default 1; printed by every run that uses it)\n"
            "outputs (every algorithm; paths are checked before routing starts):\n"
            "  -o FILE           write source routes (route bytes 0x80|port, ITB mark 0xc0); without -o they go to\n"
            "                    standard output, unless --stats or --json prints there\n"
            "  --rhinet FILE     write RHiNET-style switch tables\n"
            "  --maestro FILE    write Maestro switch-box tables\n"
            "  --stats           print metrics as a table, or --json as JSON; --links adds the per-link list\n"
            "  --time            print the routing time\n"
            "  --version         print the version\n"
            "Exit status: 0 ok, 1 check failed or bad input, 2 usage.\n"
            "Which simulator network runs the output: route sets with one VC and no host map run on the crossbar\n"
            "network (sanfab-sim --switch xbar, the -o source-route file); route sets with VCs (dl, lash, fm --deadlock\n"
            "layers, updown --vcs N) run on the VC-switch network (sanfab-sim --switch vcsw) with the --rhinet tables,\n"
            "as do one-VC sets without ITBs; ITB route sets (itb, fm --deadlock itb) need the crossbar network's NICs;\n"
            "FM's --map random host map is not run by sanfab-sim yet; --maestro tables are for the Maestro switch box\n"
            "(not a sanfab-sim network yet).\n");
}

/* an output path must be writable before any routing is done: an existing regular file we may write, or a new
 * name in a directory we may write to */
static int writable(const char *what, const char *path)
{
    struct stat st;
    if (!*path) { fprintf(stderr, "sanfab-route: %s: empty file name\n", what); return 0; }
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) { fprintf(stderr, "sanfab-route: %s %s: is a directory\n", what, path); return 0; }
        if (access(path, W_OK)) { fprintf(stderr, "sanfab-route: %s %s: cannot write: %s\n", what, path, strerror(errno)); return 0; }
        return 1;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = 0;
    else *slash = 0;
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) { fprintf(stderr, "sanfab-route: %s %s: directory %s does not exist\n", what, path, dir); return 0; }
    if (access(dir, W_OK | X_OK)) { fprintf(stderr, "sanfab-route: %s %s: cannot write in %s: %s\n", what, path, dir, strerror(errno)); return 0; }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) { usage(stderr); return 2; }
    /* the command and its options: the same parser as sanfab-sim's routing key (sw/src/sf_route_cli.c) */
    sf_route_cli r;
    sf_err e = {""};
    switch (sf_route_cli_parse(&r, argc - 1, argv + 1, 1, &e)) {
    case SF_CLI_OK: break;
    case SF_CLI_HELP: usage(stdout); return 0;
    case SF_CLI_VERSION: sf_cli_print_version(stdout, "sanfab-route"); return 0;
    case SF_CLI_NOARGS: usage(stderr); return 2;
    default: fprintf(stderr, "sanfab-route: %s\n", e.msg); return 2;
    }
    const sf_route_cli_opt *O = r.O;
    const char *topo = r.pos[1], *routes_in = r.is_check || r.is_stats ? r.pos[2] : NULL;
    int is_check = r.is_check, is_stats = r.is_stats;
    if (!is_check && !is_stats) {
        /* outputs: checked before any work */
        const int outk[3] = {SF_RO_OUT, SF_RO_RHINET, SF_RO_MAESTRO};
        for (int i = 0; i < 3; i++) {
            if (!O[outk[i]].given) continue;
            if (!writable(O[outk[i]].name, O[outk[i]].value)) return 1;
            if (!strcmp(O[outk[i]].value, topo)) { fprintf(stderr, "sanfab-route: %s would overwrite the topology %s\n", O[outk[i]].name, topo); return 2; }
            for (int j = 0; j < i; j++)
                if (O[outk[j]].given && !strcmp(O[outk[i]].value, O[outk[j]].value)) {
                    fprintf(stderr, "sanfab-route: %s and %s name the same file %s\n", O[outk[j]].name, O[outk[i]].name, O[outk[i]].value);
                    return 2;
                }
        }
    }
    const char *out = O[SF_RO_OUT].value, *rh = O[SF_RO_RHINET].value, *ma = O[SF_RO_MAESTRO].value;
    int json = O[SF_RO_JSON].given, links = O[SF_RO_LINKS].given, stats = O[SF_RO_STATS].given || json || is_stats;
    /* without -o the routes go to standard output, unless the metrics (--stats, --json) go there */
    int routes_stdout = !is_check && !is_stats && !out && !stats;

    sf_topo *t = sf_topo_read(topo, &e);
    if (!t) { fprintf(stderr, "sanfab-route: %s\n", e.msg); return 1; }
    if (r.uses_seed) fprintf(stderr, "sanfab-route: seed %llu\n", (unsigned long long)r.o.seed);
    sf_routes *rs = NULL;
    struct timespec t0, t1;
    int status = 1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (routes_in) rs = sf_read_routes(t, routes_in, &e);
    else rs = sf_route_cli_compute(&r, t, &status, &e);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!rs) { fprintf(stderr, "sanfab-route: %s\n", e.msg); sf_topo_free(t); return status; }
    if (O[SF_RO_TIME].given)
        fprintf(stderr, "sanfab-route: routing time %.3f ms\n",
                (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
    if (!routes_in) sf_route_cli_report(&r, rs, stderr, "sanfab-route: ");
    if (rs->fallbacks && routes_in)
        fprintf(stderr, "sanfab-route: note: the header records %d ITB fallbacks (up*/down* routes, no minimality promise)\n", rs->fallbacks);
    if (routes_in) {
        char name[64] = "";
        sscanf(rs->algo, "%63s", name);
        if (!rs->promise_updown && rs->rule == SF_RULE_NONE && strcmp(name, "lash") && strcmp(name, "fm"))
            fprintf(stderr, "sanfab-route: note: algorithm \"%s\" records no routing rule; checking connectivity, "
                    "deadlock freedom%s only\n", name[0] ? name : "(none)", rs->promise_minimal ? " and promised minimality" : "");
    }
    int bad = sf_verify(rs, O[SF_RO_ALLOW].given, stderr, "sanfab-route: ") != 0;
    if (is_check) { sf_routes_free(rs); sf_topo_free(t); return bad; }
    if (!bad && out) {
        FILE *f = fopen(out, "w");
        if (!f) { perror(out); bad = 1; }
        else { sf_write_routes(rs, f); fclose(f); }
    }
    if (!bad && routes_stdout) {
        sf_write_routes(rs, stdout);
        if (fflush(stdout)) { perror("standard output"); bad = 1; }
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
    if (stats) {
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

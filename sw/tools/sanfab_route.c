/* sanfab-route: compute, check, write and measure route sets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sf_route.h"

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
            "  itb       random minimal paths split by In-Transit Buffers at down->up turns (seed 000 sec 4)\n"
            "            --root N, --seed S, --fallback updown|refuse (default updown: pairs whose minimal paths all\n"
            "            need an ITB at a switch without a host take up*/down* routes, with a warning naming them)\n"
            "  dl        Descending Layers (seed 001)\n"
            "            --root N, --vcs N (1..16, default 3), --rule ud|ud-du|ud-dudu|lturn (default ud),\n"
            "            --select low|random|sancho|pch|balanced (default low), --weight W (balanced), --seed S (random)\n"
            "  fm        FM: least-used minimal path + link-disjoint second route (seed 002)\n"
            "            --deadlock itb|layers|none (default itb), --map random|identity, --root N (itb),\n"
            "            --max-vcs K (layers), --allow-deadlock (none), --seed S (--map random)\n"
            "  clos-all  all shortest up*/down* routes per pair (dispersive routing, seed 003)\n"
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
            "  -o FILE           write source routes (route bytes 0x80|port, ITB mark 0xc0)\n"
            "  --rhinet FILE     write RHiNET-style switch tables\n"
            "  --maestro FILE    write Maestro switch-box tables\n"
            "  --stats           print metrics as a table, or --json as JSON; --links adds the per-link list\n"
            "  --time            print the routing time\n"
            "Exit status: 0 ok, 1 check failed or bad input, 2 usage.\n"
            "Which simulator network runs the output: route sets with one VC and no host map run on the crossbar\n"
            "network (sanfab-sim --switch xbar, the -o source-route file); route sets with VCs (dl, lash, fm --deadlock\n"
            "layers, updown --vcs N) run on the VC-switch network (sanfab-sim --switch vcsw) with the --rhinet tables,\n"
            "as do one-VC sets without ITBs; ITB route sets (itb, fm --deadlock itb) need the crossbar network's NICs;\n"
            "FM's --map random host map is not run by sanfab-sim yet; --maestro tables are for the Maestro switch box\n"
            "(not a sanfab-sim network yet).\n");
}

/* one command-line option: name, whether it takes a value, the value, how often given */
typedef struct { const char *name; int has_value; const char *value; int given; } opt;

enum { O_ROOT, O_SELECT, O_VCS, O_RULE, O_WEIGHT, O_MAXALT, O_MAXVCS, O_DEADLOCK, O_MAP, O_FALLBACK, O_SEED, O_OUT,
       O_RHINET, O_MAESTRO, O_STATS, O_JSON, O_LINKS, O_ALLOW, O_TIME, O_N };

static int num(const char *opt, const char *v, long lo, long hi, long *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (!*v || !(isdigit((unsigned char)v[0]) || (v[0] == '-' && isdigit((unsigned char)v[1]))) || *end || x < lo || x > hi) {
        fprintf(stderr, "sanfab-route: %s needs a whole number in %ld..%ld, got \"%s\"\n", opt, lo, hi, v);
        return -1;
    }
    *out = x;
    return 0;
}

/* option `o` was given but `why` says the chosen command does not use it */
static int unused(const opt *o, const char *why)
{
    fprintf(stderr, "sanfab-route: %s is not used %s (see --help)\n", o->name, why);
    return 2;
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

static void report_fallbacks(const sf_routes *rs)
{
    const sf_topo *t = rs->t;
    int nf = rs->fallbacks;
    fprintf(stderr, "sanfab-route: warning: itb: %d host pair%s %s no minimal route whose ITBs all fall at switches with a "
            "host; %s up*/down* routes instead (not minimal: the file does not promise minimality)\n", nf, nf > 1 ? "s" : "",
            nf > 1 ? "have" : "has", nf > 1 ? "they take" : "it takes");
    int *cnt = calloc((size_t)t->nsw, sizeof(int));
    if (!cnt) exit(2);
    for (int i = 0; i < nf; i++)
        if (rs->fallback_pairs[3 * i + 2] >= 0) cnt[rs->fallback_pairs[3 * i + 2]]++;
    fprintf(stderr, "sanfab-route: warning: itb: switches without a host where a minimal route would need its ITB:");
    for (int x = 0; x < t->nsw; x++)
        if (cnt[x]) fprintf(stderr, " %d (%d pair%s)", x, cnt[x], cnt[x] > 1 ? "s" : "");
    fprintf(stderr, "\n");
    free(cnt);
    int show = nf < 20 ? nf : 20;
    for (int i = 0; i < show; i++) {
        int a = rs->fallback_pairs[3 * i], b = rs->fallback_pairs[3 * i + 1];
        fprintf(stderr, "sanfab-route: warning: itb: host %d -> host %d (switch %d -> switch %d): ITB needed at switch %d\n", a,
                b, t->host[a].sw, t->host[b].sw, rs->fallback_pairs[3 * i + 2]);
    }
    if (nf > show) fprintf(stderr, "sanfab-route: warning: itb: ... and %d more pairs\n", nf - show);
    fprintf(stderr, "sanfab-route: warning: itb: use --fallback refuse to fail instead\n");
}

int main(int argc, char **argv)
{
    opt O[O_N] = {
        [O_ROOT] = {"--root", 1, 0, 0}, [O_SELECT] = {"--select", 1, 0, 0}, [O_VCS] = {"--vcs", 1, 0, 0},
        [O_RULE] = {"--rule", 1, 0, 0}, [O_WEIGHT] = {"--weight", 1, 0, 0}, [O_MAXALT] = {"--max-alt", 1, 0, 0},
        [O_MAXVCS] = {"--max-vcs", 1, 0, 0}, [O_DEADLOCK] = {"--deadlock", 1, 0, 0}, [O_MAP] = {"--map", 1, 0, 0},
        [O_FALLBACK] = {"--fallback", 1, 0, 0}, [O_SEED] = {"--seed", 1, 0, 0}, [O_OUT] = {"-o", 1, 0, 0},
        [O_RHINET] = {"--rhinet", 1, 0, 0}, [O_MAESTRO] = {"--maestro", 1, 0, 0}, [O_STATS] = {"--stats", 0, 0, 0},
        [O_JSON] = {"--json", 0, 0, 0}, [O_LINKS] = {"--links", 0, 0, 0}, [O_ALLOW] = {"--allow-deadlock", 0, 0, 0},
        [O_TIME] = {"--time", 0, 0, 0},
    };
    const char *pos[4];
    int npos = 0;
    if (argc < 2) { usage(stderr); return 2; }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        if (a[0] == '-' && a[1]) {
            int k = 0;
            while (k < O_N && strcmp(O[k].name, a)) k++;
            if (k == O_N) { fprintf(stderr, "sanfab-route: unknown option %s (see --help)\n", a); return 2; }
            if (O[k].given++) { fprintf(stderr, "sanfab-route: %s given twice\n", a); return 2; }
            if (O[k].has_value) {
                if (i + 1 >= argc) { fprintf(stderr, "sanfab-route: option %s needs a value (see --help)\n", a); return 2; }
                O[k].value = argv[++i];
            }
            continue;
        }
        if (npos == 3) { fprintf(stderr, "sanfab-route: unexpected argument \"%s\" (see --help)\n", a); return 2; }
        pos[npos++] = a;
    }
    if (npos < 2) { usage(stderr); return 2; }
    const char *alg = pos[0], *topo = pos[1], *routes_in = NULL;
    int is_check = !strcmp(alg, "check"), is_stats = !strcmp(alg, "stats");
    static const char *algs[] = {"updown", "itb", "dl", "fm", "clos-all", "lash"};
    int known = is_check || is_stats;
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) known |= !strcmp(alg, algs[i]);
    if (!known) { fprintf(stderr, "sanfab-route: unknown algorithm \"%s\" (see --help)\n", alg); return 2; }
    if (is_check || is_stats) {
        if (npos != 3) { fprintf(stderr, "sanfab-route: usage: sanfab-route %s TOPOLOGY ROUTES\n", alg); return 2; }
        routes_in = pos[2];
        for (int k = 0; k < O_N; k++) {
            if (!O[k].given) continue;
            if (is_stats && (k == O_JSON || k == O_LINKS)) continue;
            return unused(&O[k], is_check ? "by check (it takes no options)" : "by stats (only --json and --links)");
        }
    } else if (npos != 2) { fprintf(stderr, "sanfab-route: unexpected argument \"%s\" (see --help)\n", pos[2]); return 2; }

    sf_route_opts o;
    sf_route_opts_default(&o);
    long x;
    int uses_seed = 0;
    /* --select: which selections each algorithm implements */
    if (O[O_SELECT].given) {
        const char *v = O[O_SELECT].value;
        if (!strcmp(v, "low")) o.sel = SF_SEL_LOW;
        else if (!strcmp(v, "random")) o.sel = SF_SEL_RANDOM;
        else if (!strcmp(v, "balanced")) o.sel = SF_SEL_BALANCED;
        else if (!strcmp(v, "sancho")) o.sel = SF_SEL_SANCHO;
        else if (!strcmp(v, "pch")) o.sel = SF_SEL_PCH;
        else { fprintf(stderr, "sanfab-route: unknown --select %s (low, random, balanced, sancho, pch)\n", v); return 2; }
        const char *ok = !strcmp(alg, "updown") ? "low random sancho pch balanced"
                       : !strcmp(alg, "dl")     ? "low random sancho pch balanced"
                       : !strcmp(alg, "lash")   ? "low random sancho" : NULL;
        if (!ok) return unused(&O[O_SELECT], !strcmp(alg, "itb") ? "by itb (it always takes a uniformly random minimal path)"
                                             : !strcmp(alg, "fm") ? "by fm (it always takes the least-used minimal path)"
                                             : "by clos-all (it keeps every shortest legal path)");
        char padded[64];
        snprintf(padded, sizeof padded, " %s ", ok);
        char key[40];
        snprintf(key, sizeof key, " %s ", v);
        if (!strstr(padded, key)) {
            fprintf(stderr, "sanfab-route: %s does not implement --select %s (it implements: %s)\n", alg, v, ok);
            return 2;
        }
    } else if (!strcmp(alg, "lash")) o.sel = SF_SEL_SANCHO; /* LASH's documented default: least static load */
    if (!is_check && !is_stats) {
        int ud = !strcmp(alg, "updown"), itb = !strcmp(alg, "itb"), dl = !strcmp(alg, "dl"), fm = !strcmp(alg, "fm"),
            ca = !strcmp(alg, "clos-all"), la = !strcmp(alg, "lash");
        if (O[O_DEADLOCK].given) {
            if (!fm) return unused(&O[O_DEADLOCK], "except by fm");
            const char *v = O[O_DEADLOCK].value;
            if (!strcmp(v, "itb")) o.fix = SF_FIX_ITB;
            else if (!strcmp(v, "layers")) o.fix = SF_FIX_LAYERS;
            else if (!strcmp(v, "none")) o.fix = SF_FIX_NONE;
            else { fprintf(stderr, "sanfab-route: unknown --deadlock %s (itb, layers, none)\n", v); return 2; }
        }
        if (O[O_MAP].given) {
            if (!fm) return unused(&O[O_MAP], "except by fm");
            const char *v = O[O_MAP].value;
            if (strcmp(v, "random") && strcmp(v, "identity")) { fprintf(stderr, "sanfab-route: --map random|identity, got \"%s\"\n", v); return 2; }
            o.map_random = !strcmp(v, "random");
        }
        if (O[O_ROOT].given) {
            if (la) return unused(&O[O_ROOT], "by lash (no up*/down* orientation)");
            if (fm && o.fix != SF_FIX_ITB) return unused(&O[O_ROOT], "by fm unless --deadlock itb");
            if (num("--root", O[O_ROOT].value, 0, 1 << 20, &x)) return 2;
            o.root = (int)x;
        }
        if (O[O_VCS].given) {
            if (!dl && !ud) return unused(&O[O_VCS], "except by dl and updown (lash and fm --deadlock layers take --max-vcs)");
            if (num("--vcs", O[O_VCS].value, 1, 16, &x)) return 2;
            if (dl) o.nvc = (int)x;
            else o.ud_vcs = (int)x;
        }
        if (O[O_RULE].given) {
            if (!dl) return unused(&O[O_RULE], "except by dl");
            const char *v = O[O_RULE].value;
            if (!strcmp(v, "ud")) o.rule = SF_RULE_UD;
            else if (!strcmp(v, "ud-du")) o.rule = SF_RULE_UDDU;
            else if (!strcmp(v, "ud-dudu")) o.rule = SF_RULE_UD_DU;
            else if (!strcmp(v, "lturn")) o.rule = SF_RULE_LTURN;
            else { fprintf(stderr, "sanfab-route: unknown --rule %s (ud, ud-du, ud-dudu, lturn)\n", v); return 2; }
        }
        if (O[O_WEIGHT].given) {
            if (!((ud || dl) && o.sel == SF_SEL_BALANCED)) return unused(&O[O_WEIGHT], "except by --select balanced (updown, dl)");
            const char *v = O[O_WEIGHT].value;
            char *end;
            o.weight = strtod(v, &end);
            if (!*v || *end || !(o.weight >= 0 && o.weight <= 1e6)) {
                fprintf(stderr, "sanfab-route: --weight needs a number in 0..1e6, got \"%s\"\n", v);
                return 2;
            }
        }
        if (O[O_MAXALT].given) {
            if (!ca) return unused(&O[O_MAXALT], "except by clos-all");
            if (num("--max-alt", O[O_MAXALT].value, 1, 1024, &x)) return 2;
            o.maxalt = (int)x;
        }
        if (O[O_MAXVCS].given) {
            if (!(la || (fm && o.fix == SF_FIX_LAYERS))) return unused(&O[O_MAXVCS], "except by lash and fm --deadlock layers");
            if (num("--max-vcs", O[O_MAXVCS].value, 1, 64, &x)) return 2;
            o.maxvc = (int)x;
        }
        if (O[O_FALLBACK].given) {
            if (!itb) return unused(&O[O_FALLBACK], "except by itb (fm --deadlock itb always refuses)");
            const char *v = O[O_FALLBACK].value;
            if (!strcmp(v, "updown")) o.fallback = SF_FALLBACK_UPDOWN;
            else if (!strcmp(v, "refuse")) o.fallback = SF_FALLBACK_REFUSE;
            else { fprintf(stderr, "sanfab-route: unknown --fallback %s (updown, refuse)\n", v); return 2; }
        }
        if (O[O_ALLOW].given && !(fm && o.fix == SF_FIX_NONE))
            return unused(&O[O_ALLOW], "except by fm --deadlock none (every other algorithm is deadlock-free by construction)");
        if (O[O_STATS].given && O[O_JSON].given) { fprintf(stderr, "sanfab-route: give --stats (table) or --json, not both\n"); return 2; }
        if (O[O_LINKS].given && !O[O_STATS].given && !O[O_JSON].given) return unused(&O[O_LINKS], "without --stats or --json");
        uses_seed = itb || ((ud || dl || la) && o.sel == SF_SEL_RANDOM) || (fm && o.map_random);
        if (O[O_SEED].given) {
            if (!uses_seed) return unused(&O[O_SEED], "by this run: it makes no random choice (random choices: itb, --select random, fm --map random)");
            const char *v = O[O_SEED].value;
            char *end;
            errno = 0;
            unsigned long long sd = strtoull(v, &end, 10);
            if (!isdigit((unsigned char)v[0]) || *end || errno) {
                fprintf(stderr, "sanfab-route: --seed needs a whole number in 0..18446744073709551615, got \"%s\"\n", v);
                return 2;
            }
            o.seed = sd;
        }
        /* outputs: checked before any work */
        const int outk[3] = {O_OUT, O_RHINET, O_MAESTRO};
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
    const char *out = O[O_OUT].value, *rh = O[O_RHINET].value, *ma = O[O_MAESTRO].value;
    int json = O[O_JSON].given, links = O[O_LINKS].given, stats = O[O_STATS].given || json || is_stats;

    sf_err e = {""};
    sf_topo *t = sf_topo_read(topo, &e);
    if (!t) { fprintf(stderr, "sanfab-route: %s\n", e.msg); return 1; }
    if (uses_seed) fprintf(stderr, "sanfab-route: seed %llu\n", (unsigned long long)o.seed);
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
    else rs = sf_route_lash(t, &o, &e);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!rs) { fprintf(stderr, "sanfab-route: %s\n", e.msg); sf_topo_free(t); return 1; }
    if (O[O_TIME].given)
        fprintf(stderr, "sanfab-route: routing time %.3f ms\n",
                (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
    if (!strcmp(alg, "lash")) {
        fprintf(stderr, "sanfab-route: lash needs %d layers\n", rs->nvc);
        if (rs->nvc > 8)
            fprintf(stderr, "sanfab-route: warning: lash needs %d layers, more than the 8 data VLs of InfiniBand (--max-vcs N "
                    "makes it fail instead)\n", rs->nvc);
    }
    if (rs->fallbacks && !routes_in) report_fallbacks(rs);
    if (rs->fallbacks && routes_in)
        fprintf(stderr, "sanfab-route: note: the header records %d ITB fallbacks (up*/down* routes, no minimality promise)\n", rs->fallbacks);
    if (routes_in) {
        char name[64] = "";
        sscanf(rs->algo, "%63s", name);
        if (!rs->promise_updown && rs->rule == SF_RULE_NONE && strcmp(name, "lash") && strcmp(name, "fm"))
            fprintf(stderr, "sanfab-route: note: algorithm \"%s\" records no routing rule; checking connectivity, "
                    "deadlock freedom%s only\n", name[0] ? name : "(none)", rs->promise_minimal ? " and promised minimality" : "");
    }
    int bad = sf_verify(rs, O[O_ALLOW].given, stderr, "sanfab-route: ") != 0;
    if (is_check) { sf_routes_free(rs); sf_topo_free(t); return bad; }
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

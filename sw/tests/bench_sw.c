/* bench_sw.c - routing targets of issue 3, measured; writes a JSON list of records.
 * usage: bench_sw OUT.json [--seed S]. Timing is measured here and never asserted in a test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sf_route.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct { FILE *f; int n; } out_t;

static void rec_begin(out_t *o) { fprintf(o->f, "%s\n  {\"block\": \"routing\", ", o->n++ ? "," : ""); }

static sf_routes *run(const char *alg, const sf_topo *t, const sf_route_opts *o, double *secs)
{
    sf_err e = {""};
    double t0 = now();
    sf_routes *rs = NULL;
    if (!strcmp(alg, "updown")) rs = sf_route_updown(t, o, &e);
    else if (!strcmp(alg, "dl")) rs = sf_route_dl(t, o, &e);
    else if (!strcmp(alg, "itb")) rs = sf_route_itb(t, o, &e);
    else if (!strcmp(alg, "lash")) rs = sf_route_lash(t, o, &e);
    else if (!strcmp(alg, "fm")) rs = sf_route_fm(t, o, &e);
    else if (!strcmp(alg, "clos-all")) rs = sf_route_allud(t, o, &e);
    *secs = now() - t0;
    if (!rs) { fprintf(stderr, "bench: %s failed: %s\n", alg, e.msg); exit(1); }
    return rs;
}

/* 1-minute load average of the machine (Linux), -1 when unknown: timings are taken on a shared machine */
static double loadavg(void)
{
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) { if (fscanf(f, "%lf", &l) != 1) l = -1; fclose(f); }
    return l;
}

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const char *selname(sf_select s) { const char *n[] = {"low", "random", "balanced", "sancho", "pch"}; return n[s]; }
static const char *rulename(sf_rule r) { const char *n[] = {"none", "ud", "ud-du", "ud-dudu", "lturn"}; return n[r]; }

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    char *end = NULL;
    if (!(argc == 2 || (argc == 4 && !strcmp(argv[2], "--seed") && argv[3][0] >= '0' && argv[3][0] <= '9' &&
                        (seed = strtoull(argv[3], &end, 10), !*end)))) {
        fprintf(stderr, "usage: bench_sw OUT.json [--seed S]\n");
        return 2;
    }
    printf("bench_sw: seed %llu\n", (unsigned long long)seed);
    out_t o = {fopen(argv[1], "w"), 0};
    if (!o.f) { perror(argv[1]); return 1; }
    fprintf(o.f, "[");
    sf_err e = {""};
    char msg[4096];

    /* 1. ten random 64-switch networks, 8 ports, 4 hosts: Koibuchi et al. 2003 Table 7 (uniform, average hops) */
    struct { const char *alg; sf_select sel; sf_rule rule; int nvc; double paper; } cfg[] = {
        {"updown", SF_SEL_LOW, SF_RULE_UD, 1, 3.72},
        {"updown", SF_SEL_SANCHO, SF_RULE_UD, 1, 3.72},
        {"dl", SF_SEL_SANCHO, SF_RULE_UD, 3, 3.14},
        {"dl", SF_SEL_PCH, SF_RULE_UDDU, 3, 3.15},
        {"dl", SF_SEL_SANCHO, SF_RULE_UD_DU, 3, 3.14},
        {"dl", SF_SEL_SANCHO, SF_RULE_LTURN, 3, 3.14},
        {"itb", SF_SEL_RANDOM, SF_RULE_UD, 1, 0},
        {"lash", SF_SEL_SANCHO, SF_RULE_UD, 1, 0},
    };
    int ncfg = (int)(sizeof cfg / sizeof cfg[0]);
    for (int c = 0; c < ncfg; c++) {
        double sum = 0, sumr = 0, smin = 0, tmax = 0, tsum = 0, mlr = 0;
        int vcs = 0, all_ok = 1;
        for (int k = 0; k < 10; k++) {
            sf_topo *t = sf_gen_random(64, 8, 4, seed + (uint64_t)k, &e);
            sf_route_opts op;
            sf_route_opts_default(&op);
            op.sel = cfg[c].sel; op.rule = cfg[c].rule; op.nvc = cfg[c].nvc; op.seed = seed + (uint64_t)k;
            double secs;
            sf_routes *rs = run(cfg[c].alg, t, &op, &secs);
            if (sf_check_deadlock(rs, msg, sizeof msg) || sf_check_routes(rs, &e)) all_ok = 0;
            sf_stats s;
            sf_stats_compute(rs, &s);
            sum += s.avg_hops; sumr += s.avg_hops_remote; smin += s.minimal_share; mlr += (double)s.max_link_routes;
            if (s.vcs_used > vcs) vcs = s.vcs_used;
            if (secs > tmax) tmax = secs;
            tsum += secs;
            sf_stats_free(&s);
            sf_routes_free(rs);
            sf_topo_free(t);
        }
        rec_begin(&o);
        fprintf(o.f, "\"params\": {\"topology\": \"random\", \"switches\": 64, \"ports\": 8, \"hosts_per_switch\": 4, \"networks\": 10, "
                     "\"first_seed\": %llu, \"algorithm\": \"%s\", \"select\": \"%s\", \"rule\": \"%s\", \"vcs\": %d}, ",
                (unsigned long long)seed, cfg[c].alg, selname(cfg[c].sel), rulename(cfg[c].rule), cfg[c].nvc);
        fprintf(o.f, "\"what\": \"avg hops on 10 random 64-switch networks (Koibuchi et al. 2003 Table 7)\", \"seconds\": %.6f, "
                     "\"max_seconds\": %.6f, \"avg_hops\": %.4f, \"avg_hops_remote\": %.4f, \"minimal_share\": %.4f, "
                     "\"max_link_routes\": %.1f, \"vcs_used\": %d, \"deadlock_free\": %s",
                tsum / 10, tmax, sum / 10, sumr / 10, smin / 10, mlr / 10, vcs, all_ok ? "true" : "false");
        if (cfg[c].paper > 0)
            fprintf(o.f, ", \"paper_avg_hops\": %.2f, \"deviation\": %.4f", cfg[c].paper, (sum / 10 - cfg[c].paper) / cfg[c].paper);
        fprintf(o.f, "}");
        printf("random64 %-6s %-7s %-8s vcs=%d: avg hops %.3f (paper %.2f) minimal %.1f%% time mean %.2f ms max %.2f ms\n",
               cfg[c].alg, selname(cfg[c].sel), rulename(cfg[c].rule), cfg[c].nvc, sum / 10, cfg[c].paper, 100 * smin / 10,
               1e3 * tsum / 10, 1e3 * tmax);
        fflush(stdout);
    }

    /* 2. 8x8 torus of 16-port switches with 8 hosts each: Flich et al. 2002, sec. 5.5.1 */
    {
        sf_topo *t = sf_gen_mesh(8, 8, 1, 16, 8, &e);
        struct { const char *alg; sf_select sel; double pmin, pdist; } tc[] = {
            {"updown", SF_SEL_LOW, 0.80, 4.57}, {"updown", SF_SEL_BALANCED, 0.80, 4.57}, {"itb", SF_SEL_RANDOM, 1.0, 4.06}};
        for (int c = 0; c < 3; c++) {
            sf_route_opts op;
            sf_route_opts_default(&op);
            op.sel = tc[c].sel; op.seed = seed;
            double secs;
            sf_routes *rs = run(tc[c].alg, t, &op, &secs);
            int dl = sf_check_deadlock(rs, msg, sizeof msg);
            sf_stats s;
            sf_stats_compute(rs, &s);
            rec_begin(&o);
            fprintf(o.f, "\"params\": {\"topology\": \"torus\", \"k\": 8, \"ports\": 16, \"hosts_per_switch\": 8, \"algorithm\": \"%s\", "
                         "\"select\": \"%s\", \"root\": 0, \"seed\": %llu}, ",
                    tc[c].alg, selname(tc[c].sel), (unsigned long long)seed);
            fprintf(o.f, "\"what\": \"8x8 torus minimal share and average distance in links between hosts on different switches (Flich et al. 2002, sec. 5.5.1)\", "
                         "\"seconds\": %.6f, \"minimal_share\": %.4f, \"avg_hops_remote\": %.4f, \"avg_hops\": %.4f, \"avg_itb\": %.4f, "
                         "\"max_link_routes\": %ld, \"deadlock_free\": %s, \"paper_minimal_share\": %.2f, \"paper_avg_distance\": %.2f, "
                         "\"deviation_minimal\": %.4f, \"deviation_distance\": %.4f}",
                    secs, s.minimal_share, s.avg_hops_remote, s.avg_hops, s.avg_itb, s.max_link_routes, dl ? "false" : "true",
                    tc[c].pmin, tc[c].pdist, (s.minimal_share - tc[c].pmin) / tc[c].pmin, (s.avg_hops_remote - tc[c].pdist) / tc[c].pdist);
            printf("torus8x8 %-6s %-8s: minimal %.2f%% (paper %.0f%%) avg distance %.3f (paper %.2f) %.1f ms\n", tc[c].alg,
                   selname(tc[c].sel), 100 * s.minimal_share, 100 * tc[c].pmin, s.avg_hops_remote, tc[c].pdist, 1e3 * secs);
            fflush(stdout);
            sf_stats_free(&s);
            sf_routes_free(rs);
        }
        /* Koibuchi et al. 2003 Table 7 torus column: 4 hosts per switch, 8-port switches */
        sf_topo_free(t);
        t = sf_gen_mesh(8, 8, 1, 8, 4, &e);
        struct { const char *alg; sf_select sel; int nvc; double paper; } t7[] = {{"updown", SF_SEL_SANCHO, 1, 4.36}, {"dl", SF_SEL_SANCHO, 3, 4.02}};
        for (int c = 0; c < 2; c++) {
            sf_route_opts op;
            sf_route_opts_default(&op);
            op.sel = t7[c].sel; op.nvc = t7[c].nvc; op.seed = seed;
            double secs;
            sf_routes *rs = run(t7[c].alg, t, &op, &secs);
            sf_stats s;
            sf_stats_compute(rs, &s);
            rec_begin(&o);
            fprintf(o.f, "\"params\": {\"topology\": \"torus\", \"k\": 8, \"ports\": 8, \"hosts_per_switch\": 4, \"algorithm\": \"%s\", "
                         "\"select\": \"sancho\", \"vcs\": %d}, \"what\": \"8x8 torus avg hops (Koibuchi et al. 2003 Table 7)\", \"seconds\": %.6f, "
                         "\"avg_hops\": %.4f, \"paper_avg_hops\": %.2f, \"deviation\": %.4f}",
                    t7[c].alg, t7[c].nvc, secs, s.avg_hops, t7[c].paper, (s.avg_hops - t7[c].paper) / t7[c].paper);
            printf("torus8x8 (4 hosts) %-6s: avg hops %.3f (paper %.2f)\n", t7[c].alg, s.avg_hops, t7[c].paper);
            sf_stats_free(&s);
            sf_routes_free(rs);
        }
        sf_topo_free(t);
    }

    /* 3. 1024 switches: a deadlock-free route set, routing plus deadlock check */
    {
        double tg = now();
        sf_topo *t = sf_gen_random(1024, 8, 4, seed, &e);
        tg = now() - tg;
        struct { const char *alg; sf_select sel; int nvc; } big[] = {{"updown", SF_SEL_LOW, 1}, {"dl", SF_SEL_LOW, 3}};
        enum { REP = 7 };
        for (int c = 0; c < 2; c++) {
            sf_route_opts op;
            sf_route_opts_default(&op);
            op.sel = big[c].sel; op.nvc = big[c].nvc; op.seed = seed;
            double rt[REP], ct[REP], tot[REP];
            int dl = 0;
            sf_stats s = {0};
            double load0 = loadavg();
            for (int r = 0; r < REP; r++) {
                double secs;
                sf_routes *rs = run(big[c].alg, t, &op, &secs);
                double tc0 = now();
                dl |= sf_check_deadlock(rs, msg, sizeof msg);
                double tcheck = now() - tc0;
                rt[r] = secs; ct[r] = tcheck; tot[r] = secs + tcheck;
                if (r == 0) sf_stats_compute(rs, &s);
                sf_routes_free(rs);
            }
            qsort(rt, REP, sizeof(double), dcmp); qsort(ct, REP, sizeof(double), dcmp); qsort(tot, REP, sizeof(double), dcmp);
            rec_begin(&o);
            fprintf(o.f, "\"params\": {\"topology\": \"random\", \"switches\": 1024, \"ports\": 8, \"hosts_per_switch\": 4, \"seed\": %llu, "
                         "\"algorithm\": \"%s\", \"select\": \"low\", \"vcs\": %d, \"repeats\": %d}, \"what\": \"deadlock-free route set for 1024 switches "
                         "(route + deadlock check, min / median / max of repeated runs on the shared 2-core machine)\", "
                         "\"seconds\": %.6f, \"median_seconds\": %.6f, \"max_seconds\": %.6f, \"route_seconds\": %.6f, "
                         "\"median_route_seconds\": %.6f, \"check_seconds\": %.6f, \"median_check_seconds\": %.6f, \"generate_seconds\": %.6f, "
                         "\"avg_hops\": %.4f, \"minimal_share\": %.4f, \"deadlock_free\": %s, \"target_seconds\": 5, "
                         "\"loadavg_before\": %.2f, \"loadavg_after\": %.2f}",
                    (unsigned long long)seed, big[c].alg, big[c].nvc, REP, tot[0], tot[REP / 2], tot[REP - 1], rt[0], rt[REP / 2], ct[0],
                    ct[REP / 2], tg, s.avg_hops, s.minimal_share, dl ? "false" : "true", load0, loadavg());
            printf("random1024 %-6s: route+check min %.3f s median %.3f s max %.3f s (route min %.3f median %.3f; check min %.3f median %.3f), "
                   "avg hops %.3f, %s\n", big[c].alg, tot[0], tot[REP / 2], tot[REP - 1], rt[0], rt[REP / 2], ct[0], ct[REP / 2],
                   s.avg_hops, dl ? "CYCLE" : "deadlock-free");
            fflush(stdout);
            sf_stats_free(&s);
        }
        sf_topo_free(t);
    }

    /* 4. 512-node Clos of 32-port crossbars: 16 routes per pair */
    {
        sf_topo *t = sf_gen_clos(32, 16, 16, &e);
        sf_route_opts op;
        sf_route_opts_default(&op);
        double secs;
        sf_routes *rs = run("clos-all", t, &op, &secs);
        int dl = sf_check_deadlock(rs, msg, sizeof msg);
        sf_stats s;
        sf_stats_compute(rs, &s);
        rec_begin(&o);
        fprintf(o.f, "\"params\": {\"topology\": \"clos\", \"leaves\": 32, \"hosts_per_leaf\": 16, \"spines\": 16, \"algorithm\": \"clos-all\", "
                     "\"max_alt\": 16}, \"what\": \"all shortest up*/down* routes on the 512-node Clos (Geoffray and Hoefler 2008)\", \"seconds\": %.6f, "
                     "\"routes\": %ld, \"routes_per_remote_pair\": %.3f, \"max_hops\": %d, \"deadlock_free\": %s}",
                secs, s.routes, (double)(s.routes - 512L * 15) / (512.0 * 496), s.max_hops, dl ? "false" : "true");
        printf("clos512 clos-all: %ld routes, %.3f per remote pair, %.3f s\n", s.routes, (double)(s.routes - 512L * 15) / (512.0 * 496), secs);
        sf_stats_free(&s);
        sf_routes_free(rs);
        sf_topo_free(t);
    }

    /* 5. other regular networks of Flich et al. 2002 (informative): up/down against ITB */
    {
        sf_topo *nets[2] = {sf_gen_express(8, 16, 8, &e), sf_gen_cplant(&e)};
        const char *nn[2] = {"express", "cplant"};
        for (int i = 0; i < 2; i++)
            for (int c = 0; c < 2; c++) {
                sf_route_opts op;
                sf_route_opts_default(&op);
                op.seed = seed;
                double secs;
                sf_routes *rs = run(c ? "itb" : "updown", nets[i], &op, &secs);
                int dl = sf_check_deadlock(rs, msg, sizeof msg);
                sf_stats s;
                sf_stats_compute(rs, &s);
                rec_begin(&o);
                fprintf(o.f, "\"params\": {\"topology\": \"%s\", \"algorithm\": \"%s\", \"select\": \"%s\", \"seed\": %llu}, "
                             "\"what\": \"Flich et al. 2002 regular network, up*/down* vs ITB (informative)\", \"seconds\": %.6f, "
                             "\"minimal_share\": %.4f, \"avg_hops_remote\": %.4f, \"avg_itb\": %.4f, \"max_link_routes\": %ld, "
                             "\"deadlock_free\": %s}",
                        nn[i], c ? "itb" : "updown", c ? "random" : "low", (unsigned long long)seed, secs, s.minimal_share,
                        s.avg_hops_remote, s.avg_itb, s.max_link_routes, dl ? "false" : "true");
                printf("%-8s %-6s: minimal %.1f%% avg distance %.3f ITB/route %.3f max routes/link %ld\n", nn[i],
                       c ? "itb" : "updown", 100 * s.minimal_share, s.avg_hops_remote, s.avg_itb, s.max_link_routes);
                sf_stats_free(&s);
                sf_routes_free(rs);
            }
        sf_topo_free(nets[0]);
        sf_topo_free(nets[1]);
    }

    /* 6. up/down average hops on the ten 64-switch networks: selections and root choices (Koibuchi et al. 2003 Table 7: 3.72) */
    {
        sf_select sels[4] = {SF_SEL_LOW, SF_SEL_RANDOM, SF_SEL_SANCHO, SF_SEL_BALANCED};
        double selsum[4] = {0}, r0 = 0, rmean = 0, rbest = 0, rworst = 0, rdeg = 0, rcen = 0, perk[10];
        for (int k = 0; k < 10; k++) {
            sf_topo *t = sf_gen_random(64, 8, 4, seed + (uint64_t)k, &e);
            for (int q = 0; q < 4; q++) {
                sf_route_opts op;
                sf_route_opts_default(&op);
                op.sel = sels[q]; op.seed = seed + (uint64_t)k; op.root = 0;
                double secs;
                sf_routes *rs = run("updown", t, &op, &secs);
                sf_stats s;
                sf_stats_compute(rs, &s);
                selsum[q] += s.avg_hops;
                if (q == 0) perk[k] = s.avg_hops;
                sf_stats_free(&s);
                sf_routes_free(rs);
            }
            /* every root with low-port selection */
            int *d = sf_topo_distances(t);
            double best = 1e9, worst = 0, sum = 0, vdeg = 0, vcen = 0;
            int maxdeg = -1, degroot = 0, cenroot = 0;
            long cenbest = -1;
            for (int x = 0; x < t->nsw; x++) {
                int deg = t->adjoff[x + 1] - t->adjoff[x];
                long dsum = 0;
                for (int y = 0; y < t->nsw; y++) dsum += d[(size_t)x * t->nsw + y];
                if (deg > maxdeg) { maxdeg = deg; degroot = x; }
                if (cenbest < 0 || dsum < cenbest) { cenbest = dsum; cenroot = x; }
            }
            for (int x = 0; x < t->nsw; x++) {
                sf_route_opts op;
                sf_route_opts_default(&op);
                op.root = x;
                double secs;
                sf_routes *rs = run("updown", t, &op, &secs);
                sf_stats s;
                sf_stats_compute(rs, &s);
                sum += s.avg_hops;
                if (s.avg_hops < best) best = s.avg_hops;
                if (s.avg_hops > worst) worst = s.avg_hops;
                if (x == degroot) vdeg = s.avg_hops;
                if (x == cenroot) vcen = s.avg_hops;
                sf_stats_free(&s);
                sf_routes_free(rs);
            }
            free(d);
            r0 += perk[k]; rmean += sum / t->nsw; rbest += best; rworst += worst; rdeg += vdeg; rcen += vcen;
            sf_topo_free(t);
        }
        rec_begin(&o);
        fprintf(o.f, "\"params\": {\"topology\": \"random\", \"switches\": 64, \"ports\": 8, \"hosts_per_switch\": 4, \"networks\": 10, "
                     "\"first_seed\": %llu, \"algorithm\": \"updown\", \"study\": \"selection and root\"}, "
                     "\"what\": \"up*/down* avg hops (Koibuchi et al. 2003 Table 7: 3.72) by selection (root 0) and by root (low-port)\", "
                     "\"avg_hops_root0\": {\"low\": %.4f, \"random\": %.4f, \"sancho\": %.4f, \"balanced\": %.4f}, "
                     "\"avg_hops_low_by_root\": {\"root0\": %.4f, \"mean_over_roots\": %.4f, \"best_root\": %.4f, \"worst_root\": %.4f, "
                     "\"max_degree_root\": %.4f, \"centre_root\": %.4f}, \"avg_hops_root0_low_per_network\": [",
                (unsigned long long)seed, selsum[0] / 10, selsum[1] / 10, selsum[2] / 10, selsum[3] / 10, r0 / 10, rmean / 10, rbest / 10,
                rworst / 10, rdeg / 10, rcen / 10);
        for (int k = 0; k < 10; k++) fprintf(o.f, "%s%.4f", k ? ", " : "", perk[k]);
        fprintf(o.f, "], \"paper_avg_hops\": 3.72}");
        printf("updown study: root 0: low %.4f random %.4f sancho %.4f balanced %.4f; low by root: root0 %.4f mean %.4f best %.4f worst %.4f "
               "maxdeg %.4f centre %.4f\n", selsum[0] / 10, selsum[1] / 10, selsum[2] / 10, selsum[3] / 10, r0 / 10, rmean / 10,
               rbest / 10, rworst / 10, rdeg / 10, rcen / 10);
        printf("updown study: per network (root 0, low):");
        for (int k = 0; k < 10; k++) printf(" %.3f", perk[k]);
        printf("\n");
    }
    fprintf(o.f, "\n]\n");
    fclose(o.f);
    return 0;
}

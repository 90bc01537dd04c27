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

static const char *selname(sf_select s) { const char *n[] = {"low", "random", "balanced", "sancho", "pch"}; return n[s]; }
static const char *rulename(sf_rule r) { const char *n[] = {"none", "ud", "ud-du", "ud-dudu", "lturn"}; return n[r]; }

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: bench_sw OUT.json [--seed S]\n"); return 2; }
    uint64_t seed = 1;
    if (argc >= 4 && !strcmp(argv[2], "--seed")) seed = strtoull(argv[3], NULL, 10);
    printf("bench_sw: seed %llu\n", (unsigned long long)seed);
    out_t o = {fopen(argv[1], "w"), 0};
    if (!o.f) { perror(argv[1]); return 1; }
    fprintf(o.f, "[");
    sf_err e = {""};
    char msg[4096];

    /* 1. ten random 64-switch networks, 8 ports, 4 hosts: seed 001 Table 7 (uniform, average hops) */
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
        fprintf(o.f, "\"what\": \"avg hops on 10 random 64-switch networks (seed 001 Table 7)\", \"seconds\": %.6f, "
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

    /* 2. 8x8 torus of 16-port switches with 8 hosts each: seed 000 sec 5.5.1 */
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
            fprintf(o.f, "\"what\": \"8x8 torus minimal share and average distance in links between hosts on different switches (seed 000 sec 5.5.1)\", "
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
        /* seed 001 Table 7 torus column: 4 hosts per switch, 8-port switches */
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
                         "\"select\": \"sancho\", \"vcs\": %d}, \"what\": \"8x8 torus avg hops (seed 001 Table 7)\", \"seconds\": %.6f, "
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
        for (int c = 0; c < 2; c++) {
            sf_route_opts op;
            sf_route_opts_default(&op);
            op.sel = big[c].sel; op.nvc = big[c].nvc; op.seed = seed;
            double secs;
            sf_routes *rs = run(big[c].alg, t, &op, &secs);
            double tc0 = now();
            int dl = sf_check_deadlock(rs, msg, sizeof msg);
            double tcheck = now() - tc0;
            sf_stats s;
            sf_stats_compute(rs, &s);
            rec_begin(&o);
            fprintf(o.f, "\"params\": {\"topology\": \"random\", \"switches\": 1024, \"ports\": 8, \"hosts_per_switch\": 4, \"seed\": %llu, "
                         "\"algorithm\": \"%s\", \"select\": \"low\", \"vcs\": %d}, \"what\": \"deadlock-free route set for 1024 switches\", "
                         "\"seconds\": %.6f, \"route_seconds\": %.6f, \"check_seconds\": %.6f, \"generate_seconds\": %.6f, "
                         "\"avg_hops\": %.4f, \"minimal_share\": %.4f, \"deadlock_free\": %s, \"target_seconds\": 5}",
                    (unsigned long long)seed, big[c].alg, big[c].nvc, secs + tcheck, secs, tcheck, tg, s.avg_hops, s.minimal_share,
                    dl ? "false" : "true");
            printf("random1024 %-6s: route %.3f s + deadlock check %.3f s, avg hops %.3f, minimal %.1f%%, %s\n", big[c].alg, secs,
                   tcheck, s.avg_hops, 100 * s.minimal_share, dl ? "CYCLE" : "deadlock-free");
            fflush(stdout);
            sf_stats_free(&s);
            sf_routes_free(rs);
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
                     "\"max_alt\": 16}, \"what\": \"all shortest up*/down* routes on the 512-node Clos (seed 003)\", \"seconds\": %.6f, "
                     "\"routes\": %ld, \"routes_per_remote_pair\": %.3f, \"max_hops\": %d, \"deadlock_free\": %s}",
                secs, s.routes, (double)(s.routes - 512L * 15) / (512.0 * 496), s.max_hops, dl ? "false" : "true");
        printf("clos512 clos-all: %ld routes, %.3f per remote pair, %.3f s\n", s.routes, (double)(s.routes - 512L * 15) / (512.0 * 496), secs);
        sf_stats_free(&s);
        sf_routes_free(rs);
        sf_topo_free(t);
    }

    /* 5. other regular networks of seed 000 (informative): up/down against ITB */
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
                             "\"what\": \"seed 000 regular network, up*/down* vs ITB (informative)\", \"seconds\": %.6f, "
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
    fprintf(o.f, "\n]\n");
    fclose(o.f);
    return 0;
}

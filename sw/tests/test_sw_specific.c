/* test_sw_specific.c - specific algorithm facts */
#include "test_sw.h"

/* ------------------------------------------------------------------ specific algorithm facts */
void test_specifics(T *t)
{
    sf_err e = {""};
    sf_route_opts o;
    sf_route_opts_default(&o);
    /* Clos 512: 16 routes per pair on different leaves, 1 on the same leaf, all up/down and minimal */
    sf_topo *clos = sf_gen_clos(32, 16, 16, &e);
    sf_routes *rs = sf_route_allud(clos, &o, &e);
    int ok = rs != NULL;
    if (rs) {
        int n, cnt = 0, cnt_same = 0;
        for (int alt = 0; alt < 16; alt++) { if (sf_routes_get(rs, 0, 500, alt, &n, NULL)) cnt++; }
        for (int alt = 0; alt < 16; alt++) { if (sf_routes_get(rs, 0, 1, alt, &n, NULL)) cnt_same++; }
        char msg[200];
        ok = cnt == 16 && cnt_same == 1 && !sf_check_deadlock(rs, msg, sizeof msg) && sf_count_nonminimal(rs, NULL) == 0;
    }
    report(t, ok, "clos-all: 512-node Clos has 16 minimal up/down routes per pair", e.msg);
    sf_routes_free(rs);
    sf_topo_free(clos);
    /* k-ary n-tree: (k)^(n-1) routes between hosts in different top subtrees */
    sf_topo *ft = sf_gen_fattree(4, 3, &e);
    rs = sf_route_allud(ft, &o, &e);
    ok = rs != NULL;
    if (rs) {
        int n, cnt = 0;
        for (int alt = 0; alt < 16; alt++) if (sf_routes_get(rs, 0, 63, alt, &n, NULL)) cnt++;
        ok = cnt == 16;
    }
    report(t, ok, "clos-all: 4-ary 3-tree has 16 routes between far hosts", e.msg);
    sf_routes_free(rs);
    sf_topo_free(ft);
    /* 8x8 torus: up/down low-port is about 80 % minimal (Flich et al. 2002, sec. 5.5.1), ITB 100 % */
    sf_topo *tor = sf_gen_mesh(8, 8, 1, 16, 8, &e);
    rs = sf_route_updown(tor, &o, &e);
    sf_stats s;
    sf_stats_compute(rs, &s);
    char d[200];
    snprintf(d, sizeof d, "minimal %.3f avg %.3f", s.minimal_share, s.avg_hops_remote);
    report(t, s.minimal_share > 0.70 && s.minimal_share < 0.90, "up/down on 8x8 torus: 70..90 % minimal", d);
    sf_stats_free(&s);
    sf_routes_free(rs);
    /* RHiNET tables for DL: consistent; Maestro tables refuse ITB routes */
    o.nvc = 3;
    rs = sf_route_dl(tor, &o, &e);
    char path[512];
    snprintf(path, sizeof path, "%s/dl.rhinet", t->tmp);
    FILE *f = fopen(path, "w");
    int rc = sf_write_rhinet(rs, f, &e);
    fclose(f);
    report(t, rc == 0, "rhinet: DL (UD)* route set maps onto tag and VC tables", e.msg);
    sf_routes_free(rs);
    rs = sf_route_itb(tor, &o, &e);
    f = fopen(path, "w");
    rc = sf_write_maestro(rs, f, &e);
    fclose(f);
    report(t, rc != 0 && strstr(e.msg, "ITB"), "maestro: ITB routes are refused with a reason", e.msg);
    sf_routes_free(rs);
    sf_topo_free(tor);
    /* Maestro on a single switch box */
    sf_topo *box = sf_topo_parse("sanfab-topology 1\nswitch 0 ports 4\nhost 0 0:0\nhost 1 0:1\nhost 2 0:2\nhost 3 0:3\n", "box", &e);
    rs = sf_route_updown(box, &o, &e);
    f = fopen(path, "w");
    rc = sf_write_maestro(rs, f, &e);
    fclose(f);
    report(t, rc == 0, "maestro: single switch box table", e.msg);
    sf_routes_free(rs);
    sf_topo_free(box);
    /* FM: second route link-disjoint on a torus (2-connected) */
    sf_topo *t4 = sf_gen_mesh(4, 4, 1, 8, 1, &e);
    o.fix = SF_FIX_LAYERS;
    rs = sf_route_fm(t4, &o, &e);
    ok = rs && rs->nondisjoint == 0;
    for (int a = 0; ok && a < t4->nhost; a++)
        for (int b = 0; ok && b < t4->nhost; b++) {
            if (a == b) continue;
            int n1, n2;
            const sf_hop *h1 = sf_routes_get(rs, a, b, 0, &n1, NULL), *h2 = sf_routes_get(rs, a, b, 1, &n2, NULL);
            for (int i = 0; i < n1; i++)
                for (int j = 0; j < n2; j++)
                    if ((t4->sw[h1[i].sw].ch[h1[i].port] >> 1) == (t4->sw[h2[j].sw].ch[h2[j].port] >> 1)) ok = 0;
        }
    char msg[500] = "";
    report(t, ok && !sf_check_deadlock(rs, msg, sizeof msg), "fm: second routes are link-disjoint; layers make them deadlock-free", msg);
    sf_routes_free(rs);
    /* FM without a fix on a torus has a cycle, and the checker says so */
    o.fix = SF_FIX_NONE;
    rs = sf_route_fm(t4, &o, &e);
    report(t, rs && sf_check_deadlock(rs, msg, sizeof msg) == 1, "fm: unfixed minimal torus routes are caught as cyclic", msg);
    sf_routes_free(rs);
    sf_topo_free(t4);
    /* DL with more layers is never longer */
    sf_topo *r64 = sf_gen_random(32, 8, 4, 3, &e);
    double prev = 1e9;
    ok = 1;
    for (int v = 1; v <= 4; v++) {
        sf_route_opts_default(&o);
        o.nvc = v;
        rs = sf_route_dl(r64, &o, &e);
        sf_stats_compute(rs, &s);
        if (s.avg_hops > prev + 1e-9) ok = 0;
        prev = s.avg_hops;
        sf_stats_free(&s);
        sf_routes_free(rs);
    }
    report(t, ok, "dl: more layers never lengthen the average path", NULL);
    sf_topo_free(r64);
}

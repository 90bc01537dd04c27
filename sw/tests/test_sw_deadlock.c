/* test_sw_deadlock.c - deadlock detection and route files */
#include "test_sw.h"

/* ------------------------------------------------------------------ deadlock detection */
void test_deadlock_detect(T *t)
{
    sf_err e = {""};
    /* ring of 4 switches, one host each; every route goes clockwise: cyclic dependencies */
    const char *ring = "sanfab-topology 1\nswitch 0 ports 3\nswitch 1 ports 3\nswitch 2 ports 3\nswitch 3 ports 3\n"
                       "host 0 0:0\nhost 1 1:0\nhost 2 2:0\nhost 3 3:0\n"
                       "link 0:1 1:2\nlink 1:1 2:2\nlink 2:1 3:2\nlink 3:1 0:2\n";
    sf_topo *tp = sf_topo_parse(ring, "ring", &e);
    sf_routes *rs = sf_routes_new(tp, 0, 1);
    for (int s = 0; s < 4; s++)
        for (int k = 1; k < 4; k++) {
            sf_hop h[4];
            for (int i = 0; i < k; i++) h[i] = (sf_hop){(s + i) % 4, 1, 0, 0};
            sf_routes_set(rs, s, (s + k) % 4, 0, h, k, 0);
        }
    char msg[2000];
    int cyc = sf_check_deadlock(rs, msg, sizeof msg);
    int routes_ok = sf_check_routes(rs, &e) == 0;
    report(t, cyc == 1 && strstr(msg, "cycle of 4 channels") && routes_ok, "deadlock: clockwise ring routes are caught", msg);
    printf("  (reported: %s)\n", msg);
    /* the same routes with an ITB at switch 2 for routes through it break the cycle */
    sf_routes *r2 = sf_routes_new(tp, 0, 1);
    for (int s = 0; s < 4; s++)
        for (int k = 1; k < 4; k++) {
            sf_hop h[8];
            int n = 0;
            for (int i = 0; i < k; i++) {
                int sw = (s + i) % 4;
                if (sw == 2 && i > 0) h[n++] = (sf_hop){2, 0, 0, 1};
                h[n++] = (sf_hop){sw, 1, 0, 0};
            }
            sf_routes_set(r2, s, (s + k) % 4, 0, h, n, 0);
        }
    cyc = sf_check_deadlock(r2, msg, sizeof msg);
    report(t, cyc == 0 && sf_check_routes(r2, &e) == 0, "deadlock: ITB host breaks the ring cycle", msg);
    /* the same cycle over two VCs: only a cycle inside one VC counts */
    sf_routes *r3 = sf_routes_new(tp, 0, 1);
    for (int s = 0; s < 4; s++)
        for (int k = 1; k < 4; k++) {
            sf_hop h[4];
            for (int i = 0; i < k; i++) h[i] = (sf_hop){(s + i) % 4, 1, (int8_t)((s + i) % 4 == 3 ? 0 : 1), 0};
            /* VC 1 until leaving switch 3, then VC 0: descending order breaks the cycle */
            int v = 1;
            for (int i = 0; i < k; i++) { if ((s + i) % 4 == 3 || v == 0) v = 0; h[i].vc = (int8_t)v; }
            sf_routes_set(r3, s, (s + k) % 4, 0, h, k, h[0].vc);
        }
    cyc = sf_check_deadlock(r3, msg, sizeof msg);
    report(t, cyc == 0, "deadlock: descending VCs break the ring cycle", msg);
    sf_routes_free(rs); sf_routes_free(r2); sf_routes_free(r3);

    /* a hand-made route with a down->up turn is counted (ring of 5, root 0: 2->3 is down, 3->4 is up) */
    {
        sf_err e5 = {""};
        sf_topo *r5 = sf_topo_parse("sanfab-topology 1\nswitch 0 ports 3\nswitch 1 ports 3\nswitch 2 ports 3\nswitch 3 ports 3\n"
                                    "switch 4 ports 3\nlink 0:1 1:2\nlink 1:1 2:2\nlink 2:1 3:2\nlink 3:1 4:2\nlink 4:1 0:2\n", "r5", &e5);
        int8_t *d5 = sf_updown_dir(r5, 0, NULL, NULL);
        sf_routes *rr = sf_routes_new(r5, 1, 1);
        sf_hop h[2] = {{2, 1, 0, 0}, {3, 1, 0, 0}};
        sf_routes_set(rr, 2, 4, 0, h, 2, 0);
        long du = sf_count_downup(rr, d5);
        sf_hop hi[3] = {{2, 1, 0, 0}, {3, 0, 0, 1}, {3, 1, 0, 0}};
        sf_routes *ri = sf_routes_new(r5, 1, 1);
        sf_routes_set(ri, 2, 4, 0, hi, 3, 0);
        report(t, du == 1 && sf_count_downup(ri, d5) == 0, "up/down: a down->up turn is counted, an ITB there clears it", NULL);
        sf_routes_free(rr); sf_routes_free(ri); free(d5); sf_topo_free(r5);
    }
    sf_topo_free(tp);
}

/* ------------------------------------------------------------------ route files */
void test_route_files(T *t)
{
    sf_err e = {""};
    sf_topo *tp = sf_gen_random(16, 8, 2, 7, &e);
    sf_route_opts o;
    sf_route_opts_default(&o);
    o.nvc = 2;
    sf_routes *rs = sf_route_dl(tp, &o, &e);
    char path[512];
    snprintf(path, sizeof path, "%s/dl.routes", t->tmp);
    FILE *f = fopen(path, "w");
    sf_write_routes(rs, f);
    fclose(f);
    sf_routes *back = sf_read_routes(tp, path, &e);
    int same = back != NULL;
    for (int a = 0; same && a < tp->nhost; a++)
        for (int b = 0; same && b < tp->nhost; b++) {
            if (a == b) continue;
            int n1, n2, v1, v2;
            const sf_hop *h1 = sf_routes_get(rs, a, b, 0, &n1, &v1), *h2 = sf_routes_get(back, a, b, 0, &n2, &v2);
            same = h1 && h2 && n1 == n2 && v1 == v2;
            for (int i = 0; same && i < n1; i++) same = h1[i].sw == h2[i].sw && h1[i].port == h2[i].port && h1[i].vc == h2[i].vc;
        }
    report(t, same, "route file: DL routes with VCs survive write/read", e.msg);
    sf_routes_free(back);
    sf_routes_free(rs);
    /* ITB routes round trip */
    rs = sf_route_itb(tp, &o, &e);
    f = fopen(path, "w");
    sf_write_routes(rs, f);
    fclose(f);
    back = sf_read_routes(tp, path, &e);
    char msg[1000] = "";
    report(t, back && sf_check_routes(back, &e) == 0 && !sf_check_deadlock(back, msg, sizeof msg) && back->promise_minimal &&
                  sf_count_nonminimal(back, NULL) == 0,
           "route file: ITB routes survive write/read and stay deadlock-free", e.msg);
    sf_routes_free(back);
    sf_routes_free(rs);
    sf_topo_free(tp);
    /* malformed route files on a 2-switch topology: host 0 on 0:0, host 1 on 1:0, host 2 on 1:1, link 0:2-1:2 */
    tp = sf_topo_parse("sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nhost 0 0:0\nhost 1 1:0\nhost 2 1:1\nlink 0:2 1:2\n",
                       "two", &e);
    static const struct { const char *name, *body, *expect; } bad[] = {
        {"header", "routes\n", ":1: first line must be"},
        {"non-route byte", "sanfab-routes 1\nhosts 3 switches 2 vcs 1 alternatives 1\nroute 0 1 0 : 12 80\n", ":3: byte 12 is neither"},
        {"port out of range", "sanfab-routes 1\nhosts 3 switches 2 vcs 1 alternatives 1\nroute 0 1 0 : 87 80\n", ":3: port 7 out of range on switch 0"},
        {"unconnected port", "sanfab-routes 1\nhosts 3 switches 2 vcs 1 alternatives 1\nroute 0 1 0 : 83 80\n", ":3: port 3 of switch 0 is not connected"},
        {"wrong destination", "sanfab-routes 1\nhosts 3 switches 2 vcs 1 alternatives 1\nroute 0 1 0 : 82 81\n", ":3: route ends at host 2, not at host 1"},
        {"stops early", "sanfab-routes 1\nhosts 3 switches 2 vcs 1 alternatives 1\nroute 0 1 0 : 82\n", ":3: route does not end at destination host 1"},
        {"misplaced ITB mark", "sanfab-routes 1\nhosts 3 switches 2 vcs 1 alternatives 1\nroute 0 1 0 : c0 82 80\n", ":3: ITB mark c0 not right after"},
        {"host count", "sanfab-routes 1\nhosts 4 switches 2 vcs 1 alternatives 1\n", ":2: route file is for 4 hosts"},
        {"vc out of range", "sanfab-routes 1\nhosts 3 switches 2 vcs 1 alternatives 1\nroute 0 1 0 : 82 80 | vc 0 1\n", ":3: VC 1 out of range"},
        {"duplicate route", "sanfab-routes 1\nhosts 3 switches 2 vcs 1 alternatives 1\nroute 0 1 0 : 82 80\nroute 0 1 0 : 82 80\n", ":4: second route"},
        {"updown header without root", "sanfab-routes 1\nalgorithm updown select=low\nhosts 3 switches 2 vcs 1 alternatives 1\n", ":2: algorithm updown: root=N missing"},
        {"unknown tie rule", "sanfab-routes 1\nalgorithm updown root=0 tie=higher-id\nhosts 3 switches 2 vcs 1 alternatives 1\n", ":2: algorithm header: unknown tie rule"},
        {"root out of range", "sanfab-routes 1\nalgorithm clos-all root=9\nhosts 3 switches 2 vcs 1 alternatives 1\n", ":2: algorithm header: bad root="},
        {"unknown DL rule", "sanfab-routes 1\nalgorithm dl rule=(XY)* root=0\nhosts 3 switches 2 vcs 1 alternatives 1\n", ":2: algorithm dl: unknown rule"},
        {"DL vcs below use", "sanfab-routes 1\nalgorithm dl vcs=1 rule=(UD)* root=0\nhosts 3 switches 2 vcs 2 alternatives 1\nroute 0 1 0 : 82 80 | vc 1 1\n", ":2: algorithm dl: vcs=1 but the routes use 2 VCs"},
        {"fm header without deadlock", "sanfab-routes 1\nalgorithm fm alternatives=2\nhosts 3 switches 2 vcs 1 alternatives 1\n", ":2: algorithm fm: deadlock=itb|layers|none missing"},
        {"second algorithm line", "sanfab-routes 1\nalgorithm lash\nalgorithm lash\n", ":3: second \"algorithm\" line (first at line 2)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_text(path, bad[i].body);
        sf_err e2 = {""};
        sf_routes *r = sf_read_routes(tp, path, &e2);
        char name[100], det[900];
        snprintf(name, sizeof name, "malformed route file: %s", bad[i].name);
        snprintf(det, sizeof det, "got \"%s\" want \"%s\"", r ? "(accepted)" : e2.msg, bad[i].expect);
        report(t, !r && strstr(e2.msg, bad[i].expect), name, det);
        sf_routes_free(r);
    }
    /* a valid file with an ITB at host 2 ... (switch 1 to itself is not useful; check the good path) */
    write_text(path, "sanfab-routes 1\nhosts 3 switches 2 vcs 1 alternatives 1\nroute 0 1 0 : 82 80\nroute 1 0 0 : 82 80\n"
                     "route 0 2 0 : 82 81\nroute 2 0 0 : 82 80\nroute 1 2 0 : 81\nroute 2 1 0 : 80\n");
    sf_routes *r = sf_read_routes(tp, path, &e);
    report(t, r && sf_check_routes(r, &e) == 0, "route file: hand-written valid file", e.msg);
    sf_routes_free(r);
    /* a missing pair is a connectivity failure */
    write_text(path, "sanfab-routes 1\nhosts 3 switches 2 vcs 1 alternatives 1\nroute 0 1 0 : 82 80\n");
    r = sf_read_routes(tp, path, &e);
    report(t, r && sf_check_routes(r, &e) != 0 && strstr(e.msg, "no route from host"), "route file: missing pair is reported", e.msg);
    sf_routes_free(r);
    sf_topo_free(tp);
}

/* test_sw.c - unit and property tests for the topology and routing library.
 * usage: test_sw [--quick] [--seed S] [--tmp DIR]; prints one line per test and "N passed, M failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sf_route.h"

typedef struct { int pass, fail; const char *tmp; int quick; uint64_t seed; } T;

static void report(T *t, int ok, const char *name, const char *detail)
{
    if (ok) { t->pass++; printf("PASS %s\n", name); }
    else { t->fail++; printf("FAIL %s: %s\n", name, detail ? detail : ""); }
    fflush(stdout);
}

/* ------------------------------------------------------------------ unit: PRNG */
static void test_rng(T *t)
{
    sf_rng a, b;
    sf_rng_seed(&a, 42); sf_rng_seed(&b, 42);
    int same = 1;
    for (int i = 0; i < 1000; i++) same &= sf_rng_next(&a) == sf_rng_next(&b);
    int inrange = 1;
    for (int i = 0; i < 10000; i++) inrange &= sf_rng_below(&a, 7) < 7;
    sf_rng_seed(&b, 43);
    report(t, same && inrange && sf_rng_next(&a) != sf_rng_next(&b), "rng: deterministic, bounded, seed-dependent", NULL);
}

/* ------------------------------------------------------------------ unit: parser */
static const char *GOOD =
    "sanfab-topology 1\n"
    "name example   # comment\n"
    "switch 0 ports 4\nswitch 1 ports 4\nswitch 2 ports 4 level 0\n"
    "host 0 0:0\nhost 1 1:0\nhost 2 2:0\n"
    "link 0:1 1:1\nlink 1:2 2:2\nlink 2:3 0:3\n";

static void test_parse_good(T *t)
{
    sf_err e = {""};
    sf_topo *tp = sf_topo_parse(GOOD, "good.topo", &e);
    int ok = tp && tp->nsw == 3 && tp->nhost == 3 && tp->nch == 6 && !strcmp(tp->name, "example") && tp->sw[2].level == 0;
    report(t, ok, "parse: valid file", e.msg);
    if (!tp) return;
    /* write and parse again: identical */
    char path[512];
    snprintf(path, sizeof path, "%s/roundtrip.topo", t->tmp);
    FILE *f = fopen(path, "w");
    sf_topo_write(tp, f);
    fclose(f);
    sf_topo *t2 = sf_topo_read(path, &e);
    ok = t2 && t2->nsw == 3 && t2->nch == 6 && t2->host[2].sw == 2 && t2->sw[0].peer[1].id == 1;
    report(t, ok, "parse: write/read round trip", e.msg);
    sf_topo_free(t2);
    sf_topo_free(tp);
}

static void test_parse_bad(T *t)
{
    static const struct { const char *name, *text, *expect; } cases[] = {
        {"missing header", "switch 0 ports 4\n", "bad.topo:1: first line must be"},
        {"empty file", "", "empty file"},
        {"unknown keyword", "sanfab-topology 1\nrouter 0\n", "bad.topo:2: unknown keyword \"router\""},
        {"bad number", "sanfab-topology 1\nswitch x ports 4\n", "bad.topo:2: bad switch id"},
        {"port count out of range", "sanfab-topology 1\nswitch 0 ports 65\n", "bad.topo:2: switch 0: port count 65 out of range"},
        {"switch twice", "sanfab-topology 1\nswitch 0 ports 4\nswitch 0 ports 4\n", "bad.topo:3: switch 0 declared twice (first at line 2)"},
        {"unknown switch (host)", "sanfab-topology 1\nswitch 0 ports 4\nhost 0 5:0\n", "bad.topo:3: unknown switch 5"},
        {"unknown switch (link)", "sanfab-topology 1\nswitch 0 ports 4\nlink 0:1 7:1\n", "bad.topo:3: unknown switch 7"},
        {"port out of range", "sanfab-topology 1\nswitch 0 ports 4\nhost 0 0:4\n", "bad.topo:3: port 4 out of range on switch 0"},
        {"port used twice (hosts)", "sanfab-topology 1\nswitch 0 ports 4\nhost 0 0:1\nhost 1 0:1\n",
         "bad.topo:4: port 1 of switch 0 used twice (host 0 at line 3)"},
        {"port used twice (link)", "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nhost 0 0:1\nlink 0:1 1:1\n",
         "bad.topo:5: port 1 of switch 0 used twice"},
        {"self-link", "sanfab-topology 1\nswitch 0 ports 4\nlink 0:1 0:2\n", "bad.topo:3: self-link on switch 0"},
        {"duplicate link", "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nlink 0:1 1:1\nlink 0:2 1:2\n",
         "bad.topo:5: duplicate link between switches 0 and 1 (first at line 4"},
        {"disconnected", "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nswitch 2 ports 4\nlink 0:1 1:1\n",
         "bad.topo:4: disconnected network: switch 2 cannot be reached"},
        {"missing switch id", "sanfab-topology 1\nswitch 0 ports 4\nswitch 2 ports 4\nlink 0:1 2:1\n", "switch 1 is missing"},
        {"missing host id", "sanfab-topology 1\nswitch 0 ports 4\nhost 1 0:0\n", "host 0 is missing"},
        {"host twice", "sanfab-topology 1\nswitch 0 ports 4\nhost 0 0:0\nhost 0 0:1\n", "bad.topo:4: host 0 declared twice"},
        {"bad SWITCH:PORT", "sanfab-topology 1\nswitch 0 ports 4\nhost 0 0-1\n", "bad.topo:3: expected SWITCH:PORT"},
        {"missing fields", "sanfab-topology 1\nswitch 0\n", "bad.topo:2: usage: switch ID ports N"},
        {"no switches", "sanfab-topology 1\n", "no switches declared"},
        {"parallel after link", "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nlink 0:1 1:1\nparallel-links yes\n",
         "bad.topo:5: parallel-links must come before"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sf_err e = {""};
        sf_topo *tp = sf_topo_parse(cases[i].text, "bad.topo", &e);
        char name[128];
        snprintf(name, sizeof name, "malformed topology: %s", cases[i].name);
        char detail[800];
        snprintf(detail, sizeof detail, "got \"%s\", want \"%s\"", tp ? "(accepted)" : e.msg, cases[i].expect);
        report(t, !tp && strstr(e.msg, cases[i].expect), name, detail);
        sf_topo_free(tp);
    }
    /* parallel links allowed when declared */
    sf_err e = {""};
    sf_topo *tp = sf_topo_parse("sanfab-topology 1\nparallel-links yes\nswitch 0 ports 4\nswitch 1 ports 4\nlink 0:1 1:1\nlink 0:2 1:2\n",
                                "par.topo", &e);
    report(t, tp && tp->nch == 4, "parse: parallel links when allowed", e.msg);
    sf_topo_free(tp);
    /* the name is free text: any number of words, commas and all */
    tp = sf_topo_parse("sanfab-topology 1\nname  a ring, with commas: one two three four five six seven eight nine ten "
                       "eleven twelve thirteen fourteen fifteen\t sixteen   # a comment\nswitch 0 ports 2\n", "name.topo", &e);
    report(t, tp && !strcmp(tp->name, "a ring, with commas: one two three four five six seven eight nine ten eleven "
                                      "twelve thirteen fourteen fifteen sixteen"), "parse: a name of 20 words", e.msg);
    sf_topo_free(tp);
}


/* ------------------------------------------------------------------ fuzz: mutated files never crash */
static void test_fuzz(T *t)
{
    sf_rng r;
    sf_rng_seed(&r, t->seed ^ 0xF022);
    size_t len = strlen(GOOD);
    char *buf = malloc(len + 64);
    int n = t->quick ? 300 : 2000, accepted = 0, rejected_with_msg = 0;
    static const char alphabet[] = "0123456789: \n#-xsl";
    for (int i = 0; i < n; i++) {
        memcpy(buf, GOOD, len + 1);
        int muts = 1 + (int)sf_rng_below(&r, 4);
        for (int m = 0; m < muts; m++) {
            size_t pos = sf_rng_below(&r, (uint32_t)len);
            switch (sf_rng_below(&r, 3)) {
            case 0: buf[pos] = alphabet[sf_rng_below(&r, sizeof alphabet - 1)]; break;
            case 1: buf[pos] = (char)(1 + sf_rng_below(&r, 255)); break;
            default: buf[pos] = 0; break; /* truncate */
            }
        }
        sf_err e = {""};
        sf_topo *tp = sf_topo_parse(buf, "fuzz.topo", &e);
        if (tp) accepted++;
        else if (strncmp(e.msg, "fuzz.topo", 9) == 0) rejected_with_msg++;
        sf_topo_free(tp);
    }
    free(buf);
    char d[100];
    snprintf(d, sizeof d, "%d accepted, %d rejected with a message, of %d", accepted, rejected_with_msg, n);
    report(t, accepted + rejected_with_msg == n, "fuzz: mutated topology files are accepted or rejected with a message", d);
}

/* ------------------------------------------------------------------ unit: generators */
static int no_duplicate_links(const sf_topo *tp)
{
    for (int s = 0; s < tp->nsw; s++)
        for (int p = 0; p < tp->sw[s].nports; p++)
            for (int q = p + 1; q < tp->sw[s].nports; q++)
                if (tp->sw[s].peer[p].kind == SF_PEER_SWITCH && tp->sw[s].peer[q].kind == SF_PEER_SWITCH &&
                    tp->sw[s].peer[p].id == tp->sw[s].peer[q].id) return 0;
    return 1;
}

static void test_generators(T *t)
{
    sf_err e = {""};
    char d[200];
    for (int n = 8; n <= 64; n *= 2) {
        sf_topo *tp = sf_gen_random(n, 8, 4, t->seed + (uint64_t)n, &e);
        snprintf(d, sizeof d, "%.190s", tp ? "wrong sizes or duplicate link" : e.msg);
        char name[80];
        snprintf(name, sizeof name, "generator: random %d switches 8 ports 4 hosts", n);
        report(t, tp && tp->nsw == n && tp->nhost == 4 * n && tp->nch / 2 <= 2 * n && no_duplicate_links(tp), name, d);
        sf_topo_free(tp);
    }
    sf_topo *a = sf_gen_random(32, 8, 4, 99, &e), *b = sf_gen_random(32, 8, 4, 99, &e), *c = sf_gen_random(32, 8, 4, 100, &e);
    int same = a && b && a->nch == b->nch, differ = 0;
    for (int i = 0; same && i < a->nch; i++) same &= a->ch_to[i] == b->ch_to[i] && a->ch_from[i] == b->ch_from[i];
    for (int i = 0; c && a && i < a->nch && i < c->nch; i++) differ |= a->ch_to[i] != c->ch_to[i];
    report(t, same && differ, "generator: random is reproducible per seed", NULL);
    sf_topo_free(a); sf_topo_free(b); sf_topo_free(c);
    struct { const char *name; sf_topo *tp; int nsw, nhost, nlinks; } g[] = {
        {"mesh 4x4", sf_gen_mesh(4, 4, 0, 8, 4, &e), 16, 64, 24},
        {"torus 8x8 (16 ports, 8 hosts)", sf_gen_mesh(8, 8, 1, 16, 8, &e), 64, 512, 128},
        {"express torus 8x8", sf_gen_express(8, 16, 8, &e), 64, 512, 256},
        {"cplant", sf_gen_cplant(&e), 50, 400, 48 * 7 / 2 + 1 + 14},
        {"clos 512 nodes of 32-port crossbars", sf_gen_clos(32, 16, 16, &e), 48, 512, 512},
        {"4-ary 3-tree", sf_gen_fattree(4, 3, &e), 48, 64, 128},
        {"hypercube dim 4", sf_gen_hypercube(4, 8, 4, &e), 16, 64, 32},
    };
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        char name[100];
        snprintf(name, sizeof name, "generator: %s", g[i].name);
        snprintf(d, sizeof d, "%.190s", g[i].tp ? "" : e.msg);
        if (g[i].tp) snprintf(d, sizeof d, "got %d switches %d hosts %d links", g[i].tp->nsw, g[i].tp->nhost, g[i].tp->nch / 2);
        report(t, g[i].tp && g[i].tp->nsw == g[i].nsw && g[i].tp->nhost == g[i].nhost && g[i].tp->nch / 2 == g[i].nlinks &&
                      no_duplicate_links(g[i].tp), name, d);
        sf_topo_free(g[i].tp);
    }
    sf_topo *bad = sf_gen_mesh(2, 2, 1, 8, 4, &e);
    report(t, !bad && strstr(e.msg, "torus"), "generator: bad parameters give a message", e.msg);
}

/* ------------------------------------------------------------------ unit: up/down orientation */
static void test_orientation(T *t)
{
    sf_err e = {""};
    /* ring 0-1-2-3-0: root 0; 1 and 3 at level 1, 2 at level 2 */
    sf_topo *tp = sf_gen_mesh(4, 1, 0, 8, 1, &e);
    int lvl[8];
    int8_t *dir = sf_updown_dir(tp, 0, lvl, NULL);
    int ok = lvl[0] == 0 && lvl[1] == 1 && lvl[2] == 2 && lvl[3] == 3;
    for (int c = 0; c < tp->nch; c++) ok &= dir[c] == (tp->ch_to[c] < tp->ch_from[c]);
    report(t, ok, "up/down: levels and up ends on a line", NULL);
    free(dir);
    sf_topo_free(tp);
    /* same-level tie: lower id is the up end (4-ring: 1 and 3 at level 1 are not linked; use triangle) */
    sf_topo *tr = sf_topo_parse("sanfab-topology 1\nswitch 0 ports 3\nswitch 1 ports 3\nswitch 2 ports 3\n"
                                "link 0:0 1:0\nlink 0:1 2:0\nlink 1:1 2:1\n", "tri", &e);
    dir = sf_updown_dir(tr, 0, lvl, NULL);
    int c12 = tr->sw[1].ch[1], c21 = tr->sw[2].ch[1];
    report(t, lvl[1] == 1 && lvl[2] == 1 && dir[c21] == 1 && dir[c12] == 0, "up/down: tie broken by lower id (Autonet)", NULL);
    free(dir);
    sf_topo_free(tr);
}

/* ------------------------------------------------------------------ deadlock detection */
static void test_deadlock_detect(T *t)
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
static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    fclose(f);
    return 0;
}

static void test_route_files(T *t)
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

/* ------------------------------------------------------------------ property tests */
typedef struct { const char *name; int alg; sf_select sel; sf_rule rule; int nvc; } algdef;
enum { A_UD, A_ITB, A_DL, A_FM, A_LASH, A_ALL };

static const algdef ALGS[] = {
    {"updown low", A_UD, SF_SEL_LOW, 0, 1},
    {"updown random", A_UD, SF_SEL_RANDOM, 0, 1},
    {"updown balanced", A_UD, SF_SEL_BALANCED, 0, 1},
    {"updown sancho", A_UD, SF_SEL_SANCHO, 0, 1},
    {"updown pch", A_UD, SF_SEL_PCH, 0, 1},
    {"updown pch 3vc", A_UD, SF_SEL_PCH, 0, 3},
    {"updown random 3vc", A_UD, SF_SEL_RANDOM, 0, 3},
    {"updown balanced 2vc", A_UD, SF_SEL_BALANCED, 0, 2},
    {"itb", A_ITB, SF_SEL_RANDOM, 0, 1},
    {"dl (UD)* low 3vc", A_DL, SF_SEL_LOW, SF_RULE_UD, 3},
    {"dl (UD)* sancho 2vc", A_DL, SF_SEL_SANCHO, SF_RULE_UD, 2},
    {"dl (UD-DU)* random 3vc", A_DL, SF_SEL_RANDOM, SF_RULE_UDDU, 3},
    {"dl UD-(DU)* pch 3vc", A_DL, SF_SEL_PCH, SF_RULE_UD_DU, 3},
    {"dl (L-turn)* sancho 3vc", A_DL, SF_SEL_SANCHO, SF_RULE_LTURN, 3},
    {"dl (UD)* balanced 2vc", A_DL, SF_SEL_BALANCED, SF_RULE_UD, 2},
    {"fm itb", A_FM, SF_SEL_SANCHO, 0, 1},
    {"lash", A_LASH, SF_SEL_LOW, 0, 1},
    {"clos-all", A_ALL, SF_SEL_LOW, 0, 1},
};

static sf_routes *run_alg(const algdef *a, const sf_topo *tp, uint64_t seed, sf_err *e)
{
    sf_route_opts o;
    sf_route_opts_default(&o);
    o.sel = a->sel; o.rule = a->rule; o.nvc = a->nvc; o.seed = seed; o.maxalt = 4;
    switch (a->alg) {
    case A_UD: o.ud_vcs = a->nvc; return sf_route_updown(tp, &o, e);
    case A_ITB: return sf_route_itb(tp, &o, e);
    case A_DL: return sf_route_dl(tp, &o, e);
    case A_FM: o.map_random = (seed & 1); return sf_route_fm(tp, &o, e);
    case A_LASH: return sf_route_lash(tp, &o, e);
    default: return sf_route_allud(tp, &o, e);
    }
}

/* Shortest legal up/down path lengths between all switch pairs (nsw * nsw, -1 = none; caller frees): BFS over
 * (switch, gone down yet) states, written from docs/routing.md independently of the engine. */
static int *ud_legal_dist(const sf_topo *tp, const int8_t *dir)
{
    int n = tp->nsw, *out = malloc(sizeof(int) * (size_t)n * (size_t)n), *d = malloc(sizeof(int) * 2 * (size_t)n);
    int *q = malloc(sizeof(int) * 2 * (size_t)n);
    for (int s = 0; s < n; s++) {
        int qh = 0, qt = 0;
        for (int i = 0; i < 2 * n; i++) d[i] = -1;
        d[2 * s] = 0;
        q[qt++] = 2 * s;
        while (qh < qt) {
            int u = q[qh++], x = u / 2, down = u % 2;
            for (int p = 0; p < tp->sw[x].nports; p++) {
                if (tp->sw[x].peer[p].kind != SF_PEER_SWITCH) continue;
                int c = tp->sw[x].ch[p];
                if (dir[c] && down) continue; /* down->up turn */
                int w = 2 * tp->sw[x].peer[p].id + (down || !dir[c]);
                if (d[w] < 0) { d[w] = d[u] + 1; q[qt++] = w; }
            }
        }
        for (int y = 0; y < n; y++) {
            int a = d[2 * y], b = d[2 * y + 1];
            out[(size_t)s * n + y] = a < 0 ? b : b < 0 ? a : a < b ? a : b;
        }
    }
    free(d); free(q);
    return out;
}

/* check one route set; returns 0 if fine, else writes why */
static int check_props(const algdef *a, const sf_routes *rs, char *why, size_t len)
{
    sf_err e = {""};
    if (sf_check_routes(rs, &e)) { snprintf(why, len, "routes: %s", e.msg); return -1; }
    char msg[2000];
    if (sf_check_deadlock(rs, msg, sizeof msg)) { snprintf(why, len, "deadlock: %.400s", msg); return -1; }
    if (rs->promise_minimal && sf_count_nonminimal(rs, NULL)) { snprintf(why, len, "promised minimal but is not"); return -1; }
    if (rs->promise_updown && rs->dir && sf_count_downup(rs, rs->dir)) { snprintf(why, len, "down->up turn inside a segment"); return -1; }
    if (a->alg == A_ITB || a->alg == A_LASH) {
        if (!rs->promise_minimal) { snprintf(why, len, "not minimal"); return -1; }
    }
    if (a->alg == A_FM) { /* first routes minimal (switch hops, ITBs excluded) */
        int *d = sf_topo_distances(rs->t);
        for (int s = 0; s < rs->t->nhost; s++)
            for (int x = 0; x < rs->t->nhost; x++) {
                int n;
                const sf_hop *h = x == s ? NULL : sf_routes_get(rs, s, x, 0, &n, NULL);
                if (h && sf_path_links(h, n) != d[rs->t->host[s].sw * rs->t->nsw + rs->t->host[x].sw]) {
                    free(d);
                    snprintf(why, len, "fm first route %d->%d not minimal", s, x);
                    return -1;
                }
            }
        free(d);
    }
    if (a->alg == A_DL && rs->nvc > a->nvc) { snprintf(why, len, "DL used %d VCs > %d", rs->nvc, a->nvc); return -1; }
    if (a->alg == A_UD) { /* one VC per route, at most a->nvc; shortest legal paths unless balanced */
        if (rs->nvc > a->nvc) { snprintf(why, len, "updown used %d VCs > %d", rs->nvc, a->nvc); return -1; }
        if (sf_check_onevc(rs, msg, sizeof msg)) { snprintf(why, len, "updown: %.400s", msg); return -1; }
        if (a->sel != SF_SEL_BALANCED) {
            int *ld = ud_legal_dist(rs->t, rs->dir), bad = 0;
            for (sf_route_it r = {0}; !bad && sf_routes_next(rs, &r);)
                if (sf_path_links(r.h, r.n) != ld[(size_t)rs->t->host[r.src].sw * rs->t->nsw + rs->t->host[r.dst].sw]) {
                    snprintf(why, len, "updown route %d->%d is not a shortest legal path", r.src, r.dst);
                    bad = 1;
                }
            free(ld);
            if (bad) return -1;
        }
    }
    return 0;
}

static void test_properties(T *t)
{
    int ntopo = t->quick ? 8 : 60;
    sf_rng r;
    sf_rng_seed(&r, t->seed);
    int nalg = (int)(sizeof ALGS / sizeof ALGS[0]);
    int *ok = calloc((size_t)nalg, sizeof(int)), *runs = calloc((size_t)nalg, sizeof(int));
    char (*why)[600] = calloc((size_t)nalg, sizeof *why);
    for (int i = 0; i < ntopo; i++) {
        int n = 4 + (int)sf_rng_below(&r, t->quick ? 20 : 40), p = 5 + (int)sf_rng_below(&r, 4), h = 1 + (int)sf_rng_below(&r, 3);
        uint64_t ts = sf_rng_next(&r) & 0xffffffff;
        sf_err e = {""};
        sf_topo *tp = sf_gen_random(n, p, h, ts, &e);
        if (!tp) { report(t, 0, "property: generate", e.msg); continue; }
        for (int a = 0; a < nalg; a++) {
            sf_routes *rs = run_alg(&ALGS[a], tp, ts, &e);
            runs[a]++;
            char w[500] = "";
            if (!rs) snprintf(w, sizeof w, "failed: %.400s", e.msg);
            else check_props(&ALGS[a], rs, w, sizeof w);
            if (!w[0]) ok[a]++;
            else if (!why[a][0]) snprintf(why[a], sizeof why[a], "random n=%d p=%d h=%d seed=%llu: %.400s", n, p, h, (unsigned long long)ts, w);
            sf_routes_free(rs);
        }
        sf_topo_free(tp);
    }
    /* regular topologies too */
    sf_err e = {""};
    sf_topo *reg[] = {sf_gen_mesh(4, 4, 0, 8, 2, &e), sf_gen_mesh(4, 4, 1, 8, 2, &e), sf_gen_hypercube(4, 6, 2, &e),
                      sf_gen_express(5, 12, 2, &e), sf_gen_fattree(2, 3, &e), sf_gen_clos(4, 2, 3, &e)};
    const char *rn[] = {"mesh4x4", "torus4x4", "hypercube4", "express5x5", "2-ary 3-tree", "clos 4x3"};
    for (size_t i = 0; i < sizeof reg / sizeof reg[0]; i++) {
        for (int a = 0; a < nalg; a++) {
            runs[a]++;
            sf_routes *rs = run_alg(&ALGS[a], reg[i], 5, &e);
            char w[500] = "";
            if (!rs) {
                /* ITB-based algorithms need a host at every turning switch: trees have host-less switches but no turns */
                snprintf(w, sizeof w, "failed: %.400s", e.msg);
            } else check_props(&ALGS[a], rs, w, sizeof w);
            if (!w[0]) ok[a]++;
            else if (!why[a][0]) snprintf(why[a], sizeof why[a], "%s: %.400s", rn[i], w);
            sf_routes_free(rs);
        }
        sf_topo_free(reg[i]);
    }
    for (int a = 0; a < nalg; a++) {
        char name[160];
        snprintf(name, sizeof name, "property: %s on %d topologies: routes complete, deadlock-free, minimal as promised",
                 ALGS[a].name, runs[a]);
        report(t, ok[a] == runs[a], name, why[a]);
    }
    free(ok); free(runs); free(why);
}

/* ------------------------------------------------------------------ specific algorithm facts */
static void test_specifics(T *t)
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

/* ------------------------------------------------------------------ updown: pch, and VCs chosen at the source */
/* 1 when both sets have the same route for every host pair: same ports, and same VCs when vcs_too */
static int same_routes(const sf_routes *a, const sf_routes *b, int vcs_too)
{
    for (sf_route_it r = {0}; sf_routes_next(a, &r);) {
        int n, vc0;
        const sf_hop *h = sf_routes_get(b, r.src, r.dst, r.alt, &n, &vc0);
        if (!h || n != r.n || (vcs_too && vc0 != r.vc0)) return 0;
        for (int i = 0; i < n; i++)
            if (h[i].sw != r.h[i].sw || h[i].port != r.h[i].port || (vcs_too && h[i].vc != r.h[i].vc)) return 0;
    }
    return 1;
}

static void test_updown_vcs(T *t)
{
    sf_err e = {""};
    char d[600], name[200], path[512];
    /* pch: the same set twice (deterministic) on random networks and a torus; shortest legal paths are checked by the
     * property tests */
    sf_topo *nets[] = {sf_gen_random(16, 8, 4, 1, &e), sf_gen_random(40, 8, 2, 9, &e), sf_gen_mesh(6, 6, 1, 8, 2, &e)};
    const char *nn[] = {"random 16", "random 40", "torus 6x6"};
    for (int k = 0; k < 3; k++) {
        sf_route_opts o;
        sf_route_opts_default(&o);
        o.sel = SF_SEL_PCH;
        for (int v = 1; v <= 3; v += 2) {
            o.ud_vcs = v;
            sf_routes *a = sf_route_updown(nets[k], &o, &e), *b = sf_route_updown(nets[k], &o, &e);
            snprintf(name, sizeof name, "updown pch %d VC%s on %s: deterministic, checks pass", v, v > 1 ? "s" : "", nn[k]);
            report(t, a && b && same_routes(a, b, 1) && sf_verify(a, 0, NULL, NULL) == 0, name, e.msg);
            sf_routes_free(a); sf_routes_free(b);
        }
    }
    /* --vcs 3 with every selection on the 16-switch network, against the same selection with 1 VC */
    const sf_topo *tp = nets[0];
    static const struct { sf_select sel; const char *name; } sels[] = {
        {SF_SEL_LOW, "low"}, {SF_SEL_RANDOM, "random"}, {SF_SEL_SANCHO, "sancho"}, {SF_SEL_PCH, "pch"}, {SF_SEL_BALANCED, "balanced"}};
    for (size_t k = 0; k < sizeof sels / sizeof sels[0]; k++) {
        sf_route_opts o;
        sf_route_opts_default(&o);
        o.sel = sels[k].sel;
        sf_routes *r1 = sf_route_updown(tp, &o, &e);
        o.ud_vcs = 3;
        sf_routes *r3 = sf_route_updown(tp, &o, &e);
        d[0] = 0;
        int used[16] = {0}, nused = 0, ok = r1 && r3;
        if (ok && (strstr(r1->algo, "vcs=") || !strstr(r3->algo, "updown vcs=3 "))) snprintf(d, sizeof d, "headers %s / %s", r1->algo, r3->algo);
        if (ok && !d[0] && sf_verify(r3, 0, NULL, NULL)) snprintf(d, sizeof d, "check fails");
        char msg[600];
        if (ok && !d[0] && sf_check_onevc(r3, msg, sizeof msg)) snprintf(d, sizeof d, "%.500s", msg);
        for (sf_route_it r = {0}; ok && !d[0] && sf_routes_next(r3, &r);) {
            if (r.vc0 < 0 || r.vc0 > 2) snprintf(d, sizeof d, "route %d->%d on VC %d", r.src, r.dst, r.vc0);
            else nused += !used[r.vc0]++;
            int n1;
            const sf_hop *h1 = sf_routes_get(r1, r.src, r.dst, 0, &n1, NULL);
            if (!h1 || n1 != r.n) snprintf(d, sizeof d, "route %d->%d has %d hops with 3 VCs, %d with 1", r.src, r.dst, r.n, n1);
        }
        /* low, sancho, balanced: the VC does not move the physical path */
        int samepath = sels[k].sel == SF_SEL_RANDOM || sels[k].sel == SF_SEL_PCH || (ok && same_routes(r1, r3, 0));
        if (ok && !d[0] && !samepath) snprintf(d, sizeof d, "physical paths differ from the 1-VC set");
        if (ok && !d[0] && sels[k].sel == SF_SEL_LOW && !(nused == 1 && used[0])) snprintf(d, sizeof d, "low uses %d VCs", nused);
        if (ok && !d[0] && sels[k].sel != SF_SEL_LOW && nused < 2) snprintf(d, sizeof d, "%s uses only %d VC", sels[k].name, nused);
        /* RHiNET tables: every (in, out, VC) entry keeps the VC; each NIC injects on its route's VC */
        snprintf(path, sizeof path, "%s/ud3.rhinet", t->tmp);
        FILE *f = fopen(path, "w");
        if (ok && !d[0] && sf_write_rhinet(r3, f, &e)) snprintf(d, sizeof d, "rhinet: %.500s", e.msg);
        fclose(f);
        f = fopen(path, "r");
        char line[256];
        long vcl = 0;
        while (ok && !d[0] && fgets(line, sizeof line, f)) {
            int i, o2, v, m, src, dst, alt, tag, vc, n;
            if (sscanf(line, "  vc %d %d %d %d", &i, &o2, &v, &m) == 4) {
                vcl++;
                if (v != m) snprintf(d, sizeof d, "rhinet entry changes the VC: %s", line);
            } else if (sscanf(line, "nic %d dst %d alt %d tag %d vc %d", &src, &dst, &alt, &tag, &vc) == 5) {
                int vc0;
                if (!sf_routes_get(r3, src, dst, alt, &n, &vc0) || vc0 != vc) snprintf(d, sizeof d, "rhinet nic line %s", line);
            }
        }
        fclose(f);
        if (ok && !d[0] && !vcl) snprintf(d, sizeof d, "rhinet: no vc entries");
        snprintf(name, sizeof name, "updown %s --vcs 3: one VC per route (%d used), same hops as 1 VC, checks pass, RHiNET "
                 "tables keep the VC (%ld entries)", sels[k].name, nused, vcl);
        report(t, ok && !d[0], name, ok ? d : e.msg);
        sf_routes_free(r1); sf_routes_free(r3);
    }
    /* the header's vcs= is checked: vcs=1 (or none) with routes on VC 2 is refused; a route changing VC is caught */
    {
        sf_route_opts o;
        sf_route_opts_default(&o);
        o.sel = SF_SEL_PCH; o.ud_vcs = 3;
        sf_routes *rs = sf_route_updown(tp, &o, &e);
        snprintf(path, sizeof path, "%s/ud3.routes", t->tmp);
        FILE *f = fopen(path, "w");
        sf_write_routes(rs, f);
        fclose(f);
        sf_routes *back = sf_read_routes(tp, path, &e);
        report(t, back && same_routes(rs, back, 1) && back->promise_onevc && sf_verify(back, 0, NULL, NULL) == 0,
               "updown --vcs 3 route file: survives write/read, check passes", e.msg);
        sf_routes_free(back);
        /* the text of the file, with the header and one route edited */
        f = fopen(path, "r");
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fseek(f, 0, SEEK_SET);
        char *txt = calloc((size_t)len + 64, 1);
        if (fread(txt, 1, (size_t)len, f) != (size_t)len) txt[0] = 0;
        fclose(f);
        char *hv = strstr(txt, "vcs=3");
        static const struct { const char *to, *want; } hdr[] = {
            {"vcs=1", ":2: algorithm updown: vcs=1 but the routes use 3 VCs"},
            {"vcs=x", ":2: algorithm updown: bad vcs="},
            {"", ":2: algorithm updown: no vcs= (1 VC) but the routes use 3 VCs"},
        };
        for (size_t i = 0; i < sizeof hdr / sizeof hdr[0]; i++) {
            char *mod = calloc((size_t)len + 64, 1);
            if (hv) {
                memcpy(mod, txt, (size_t)(hv - txt));
                strcat(mod, hdr[i].to);
                strcat(mod, hv + 5 + (hdr[i].to[0] ? 0 : 1)); /* drop the space too when the key goes */
            }
            write_text(path, mod);
            sf_err e2 = {""};
            sf_routes *r = sf_read_routes(tp, path, &e2);
            snprintf(name, sizeof name, "updown route file: header %s refused", hdr[i].to[0] ? hdr[i].to : "without vcs=");
            snprintf(d, sizeof d, "got \"%.300s\" want \"%s\"", r ? "(accepted)" : e2.msg, hdr[i].want);
            report(t, hv && !r && strstr(e2.msg, hdr[i].want), name, d);
            sf_routes_free(r);
            free(mod);
        }
        /* a route that changes VC: the first route with 2+ hops starts on another VC (first entry of its VC list) */
        char *mod = calloc((size_t)len + 64, 1), *line = txt, *edit = NULL;
        while ((line = strstr(line, "\nroute ")) != NULL) {
            line++;
            char *bar = strstr(line, "| vc "), *nl = strchr(line, '\n');
            if (bar && bar < nl && nl - bar >= 10) { edit = bar + 5; break; } /* "| vc V V V": 2 hops and the host */
        }
        if (edit) {
            memcpy(mod, txt, (size_t)(len + 1));
            mod[edit - txt] = *edit == '0' ? '1' : '0';
        }
        write_text(path, mod);
        sf_routes *r = sf_read_routes(tp, path, &e);
        char msg[600] = "";
        int bad = r ? sf_verify(r, 0, NULL, NULL) : -1;
        if (r) sf_check_onevc(r, msg, sizeof msg);
        report(t, edit && bad == 1 && strstr(msg, "changes from VC"), "updown route file: a route that changes VC is refused by check", msg);
        printf("  (reported: %s)\n", msg);
        sf_routes_free(r);
        free(mod); free(txt);
        sf_routes_free(rs);
    }
    for (int k = 0; k < 3; k++) sf_topo_free(nets[k]);
}

/* ------------------------------------------------------------------ property: check rejects rule-breaking mutations */
/* The reference rule here is written out from docs/routing.md, independently of the library's sf_rule_allows. */
static int ref_allows(sf_rule r, int v, int a, int b)
{
    int downup = a == 1 && b == 0, updown = a == 0 && b == 1;
    if (r == SF_RULE_UD) return !downup;
    if (r == SF_RULE_UDDU) return v % 2 ? !updown : !downup;
    if (r == SF_RULE_UD_DU) return v ? !updown : !downup;
    if (r == SF_RULE_LTURN) return a <= b; /* LD < LU < RU < RD */
    return 1;
}

/* does path h (n hops, start VC vc0) break the set's rule? updown: a down->up turn or a VC change; DL: a VC climb or
 * a forbidden same-layer turn */
static int ref_breaks(const sf_topo *tp, const int8_t *dir, const int8_t *cls, sf_rule rule, const sf_hop *h, int n, int vc0)
{
    int down = 0, pv = vc0, pc = -1;
    for (int i = 0; i < n; i++) {
        int c = tp->sw[h[i].sw].ch[h[i].port];
        if (rule == SF_RULE_NONE) {
            if ((dir[c] && down) || h[i].vc != vc0) return 1;
            if (!dir[c]) down = 1;
        } else {
            if (h[i].vc > pv) return 1;
            if (pc >= 0 && h[i].vc == pv && !ref_allows(rule, pv, cls[pc], cls[c])) return 1;
            pv = h[i].vc;
            pc = c;
        }
    }
    return 0;
}

/* copy of rs (per-switch, one alternative) with the path of switch pair (a, b) replaced */
static sf_routes *with_path(const sf_routes *rs, int a, int b, const sf_hop *h, int n, int vc0)
{
    const sf_topo *tp = rs->t;
    sf_routes *m = sf_routes_new(tp, 1, 1);
    for (int x = 0; x < tp->nsw; x++)
        for (int y = 0; y < tp->nsw; y++) {
            int id = rs->index[(size_t)x * tp->nsw + y];
            if (x == a && y == b) sf_routes_set(m, x, y, 0, h, n, vc0);
            else if (id >= 0) sf_routes_set(m, x, y, 0, rs->hops + rs->poff[id], rs->plen[id], rs->pvc0[id]);
        }
    m->nvc = rs->nvc;
    m->promise_updown = rs->promise_updown;
    m->promise_onevc = rs->promise_onevc;
    m->root = rs->root;
    m->rule = rs->rule;
    if (rs->dir) { m->dir = malloc((size_t)tp->nch); memcpy(m->dir, rs->dir, (size_t)tp->nch); }
    return m;
}

static void test_mutations(T *t)
{
    struct { const char *name; int dl; sf_rule rule; int nvc; sf_select sel; } cfg[] = {
        {"updown low", 0, SF_RULE_NONE, 1, SF_SEL_LOW}, {"updown sancho", 0, SF_RULE_NONE, 1, SF_SEL_SANCHO},
        {"updown pch 3 VCs", 0, SF_RULE_NONE, 3, SF_SEL_PCH},
        {"dl (UD)* 3 VCs", 1, SF_RULE_UD, 3, SF_SEL_SANCHO}, {"dl (UD-DU)* 3 VCs", 1, SF_RULE_UDDU, 3, SF_SEL_LOW},
        {"dl UD-(DU)* 2 VCs", 1, SF_RULE_UD_DU, 2, SF_SEL_RANDOM}, {"dl (L-turn)* 2 VCs", 1, SF_RULE_LTURN, 2, SF_SEL_PCH},
    };
    int ntopo = t->quick ? 2 : 5, cap = t->quick ? 150 : 600;
    for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; k++) {
        long breaking = 0, rejected = 0, keeping = 0, accepted = 0;
        char why[600] = "";
        for (int ti = 0; ti < ntopo; ti++) {
            sf_err e = {""};
            sf_topo *tp = sf_gen_random(10 + 3 * ti, 6, 1, t->seed + 77 * (uint64_t)ti + k, &e);
            sf_route_opts o;
            sf_route_opts_default(&o);
            o.sel = cfg[k].sel; o.nvc = o.ud_vcs = cfg[k].nvc; o.rule = cfg[k].dl ? cfg[k].rule : SF_RULE_UD; o.seed = t->seed;
            o.root = ti % 3 == 2 ? tp->nsw - 1 : -1;
            sf_routes *rs = cfg[k].dl ? sf_route_dl(tp, &o, &e) : sf_route_updown(tp, &o, &e);
            if (!rs) { snprintf(why, sizeof why, "routing failed: %.300s", e.msg); sf_topo_free(tp); break; }
            int8_t *dir = sf_updown_dir(tp, rs->root, NULL, NULL);
            int8_t *cls = cfg[k].dl ? sf_channel_classes(tp, cfg[k].rule, rs->root) : NULL;
            int *dist = sf_topo_distances(tp);
            sf_rng r;
            sf_rng_seed(&r, t->seed ^ (k * 131 + (uint64_t)ti));
            for (int tries = 0; tries < cap; tries++) {
                int a = (int)sf_rng_below(&r, (uint32_t)tp->nsw), b = (int)sf_rng_below(&r, (uint32_t)tp->nsw);
                int id = rs->index[(size_t)a * tp->nsw + b];
                if (id < 0 || rs->plen[id] == 0) continue;
                int n = rs->plen[id], i = (int)sf_rng_below(&r, (uint32_t)n), vc0 = rs->pvc0[id];
                sf_hop mh[256];
                memcpy(mh, rs->hops + rs->poff[id], sizeof(sf_hop) * (size_t)n);
                int m = n;
                if (cfg[k].nvc > 1 && sf_rng_below(&r, 2)) { /* mutate the VC of hop i */
                    int nv = (int)sf_rng_below(&r, (uint32_t)cfg[k].nvc);
                    if (nv == mh[i].vc) continue;
                    mh[i].vc = (int8_t)nv;
                    if (i == 0) vc0 = nv;
                } else { /* hop i leaves by another link port; the rest is a shortest path from there, same VC */
                    int x = mh[i].sw, np = tp->sw[x].nports, p = (int)sf_rng_below(&r, (uint32_t)np);
                    if (p == mh[i].port || tp->sw[x].peer[p].kind != SF_PEER_SWITCH) continue;
                    mh[i].port = (int16_t)p;
                    int cur = tp->sw[x].peer[p].id, v = mh[i].vc;
                    m = i + 1;
                    while (cur != b && m < 250) {
                        int q = 0;
                        while (!(tp->sw[cur].peer[q].kind == SF_PEER_SWITCH &&
                                 dist[(size_t)tp->sw[cur].peer[q].id * tp->nsw + b] == dist[(size_t)cur * tp->nsw + b] - 1)) q++;
                        mh[m++] = (sf_hop){cur, (int16_t)q, (int8_t)v, 0};
                        cur = tp->sw[cur].peer[q].id;
                    }
                }
                int brk = ref_breaks(tp, dir, cls, cfg[k].dl ? cfg[k].rule : SF_RULE_NONE, mh, m, vc0);
                sf_routes *mu = with_path(rs, a, b, mh, m, vc0);
                int rej = sf_verify(mu, 0, NULL, NULL) != 0;
                sf_routes_free(mu);
                if (brk) { breaking++; rejected += rej; if (!rej && !why[0]) snprintf(why, sizeof why, "switch pair %d->%d hop %d: mutation breaks the rule but check accepts it", a, b, i); }
                else { keeping++; accepted += !rej; }
            }
            free(dir); free(cls); free(dist);
            sf_routes_free(rs);
            sf_topo_free(tp);
        }
        char name[200], d[800];
        snprintf(name, sizeof name, "mutation: check rejects every rule-breaking single-hop mutation of %s (%ld of %ld rejected; "
                 "%ld of %ld rule-keeping mutations accepted)", cfg[k].name, rejected, breaking, accepted, keeping);
        snprintf(d, sizeof d, "%s", why);
        report(t, !why[0] && breaking > 0 && rejected == breaking, name, d);
    }
}

int main(int argc, char **argv)
{
    T t = {0, 0, "/tmp", 0, 20240601};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) t.quick = 1;
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) t.seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--tmp") && i + 1 < argc) t.tmp = argv[++i];
        else { fprintf(stderr, "usage: test_sw [--quick] [--seed S] [--tmp DIR]\n"); return 2; }
    }
    printf("test_sw: seed %llu%s\n", (unsigned long long)t.seed, t.quick ? " (quick)" : "");
    test_rng(&t);
    test_parse_good(&t);
    test_parse_bad(&t);
    test_fuzz(&t);
    test_generators(&t);
    test_orientation(&t);
    test_deadlock_detect(&t);
    test_route_files(&t);
    test_specifics(&t);
    test_updown_vcs(&t);
    test_properties(&t);
    test_mutations(&t);
    printf("%d passed, %d failed\n", t.pass, t.fail);
    return t.fail ? 1 : 0;
}

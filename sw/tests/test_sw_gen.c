/* test_sw_gen.c - the topology generators and the up/down orientation */
#include "test_sw.h"

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

void test_generators(T *t)
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
void test_orientation(T *t)
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

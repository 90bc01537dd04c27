/* sf_gen.c - seeded topology generators. Hosts take the lowest ports of each switch, links the next ones. */
#include <stdlib.h>
#include <string.h>
#include "sf_topo.h"

static int gfail(sf_err *e, const char *msg)
{
    if (e) snprintf(e->msg, sizeof e->msg, "generator: %s", msg);
    return -1;
}

/* create n switches of p ports with h hosts each on ports 0..h-1 */
static sf_topo *base(int n, int p, int h, int level, sf_err *e)
{
    if (n < 1 || p < 1 || p > SF_MAX_PORTS || h < 0 || h > p) {
        gfail(e, "bad sizes (need switches >= 1, 1 <= ports <= 64, 0 <= hosts <= ports)");
        return NULL;
    }
    sf_topo *t = sf_topo_new();
    for (int s = 0; s < n; s++)
        if (sf_topo_add_switch(t, s, p, level, "generator", 0, e)) goto bad;
    for (int s = 0; s < n; s++)
        for (int j = 0; j < h; j++)
            if (sf_topo_add_host(t, s * h + j, s, j, "generator", 0, e)) goto bad;
    return t;
bad:
    sf_topo_free(t);
    return NULL;
}

static int first_free(const sf_topo *t, int s)
{
    for (int p = 0; p < t->sw[s].nports; p++)
        if (t->sw[s].peer[p].kind == SF_PEER_NONE) return p;
    return -1;
}

static int linked(const sf_topo *t, int a, int b)
{
    for (int p = 0; p < t->sw[a].nports; p++)
        if (t->sw[a].peer[p].kind == SF_PEER_SWITCH && t->sw[a].peer[p].id == b) return 1;
    return 0;
}

static int link_free(sf_topo *t, int a, int b, sf_err *e)
{
    int pa = first_free(t, a), pb = first_free(t, b);
    if (pa < 0 || pb < 0) return gfail(e, "no free port for a link");
    return sf_topo_add_link(t, a, pa, b, pb, "generator", 0, e);
}

sf_topo *sf_gen_random(int n, int p, int h, uint64_t seed, sf_err *e)
{
    if (n > 1 && p - h < 1) { gfail(e, "random: need at least one port per switch for links"); return NULL; }
    if (n > 2 && p - h < 2) { gfail(e, "random: need at least two link ports per switch for more than 2 switches"); return NULL; }
    sf_topo *t = base(n, p, h, -1, e);
    if (!t) return NULL;
    snprintf(t->name, sizeof t->name, "random n=%d p=%d h=%d seed=%llu", n, p, h, (unsigned long long)seed);
    sf_rng r;
    sf_rng_seed(&r, seed);
    int *perm = malloc(sizeof(int) * (size_t)n), *cand = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) perm[i] = i;
    sf_rng_shuffle(&r, perm, n);
    /* random spanning tree: each switch joins a random earlier switch with a free port */
    for (int i = 1; i < n; i++) {
        int nc = 0;
        for (int j = 0; j < i; j++)
            if (first_free(t, perm[j]) >= 0) cand[nc++] = perm[j];
        if (!nc) { gfail(e, "random: ran out of ports while building the tree"); goto bad; }
        if (link_free(t, perm[i], cand[sf_rng_below(&r, (uint32_t)nc)], e)) goto bad;
    }
    /* then random extra links between switches with free ports, at most one link per pair */
    for (;;) {
        int nc = 0;
        for (int s = 0; s < n; s++)
            if (first_free(t, s) >= 0) cand[nc++] = s;
        if (nc < 2) break;
        int done = 0;
        for (int tries = 0; tries < 64 && !done; tries++) {
            int a = cand[sf_rng_below(&r, (uint32_t)nc)], b = cand[sf_rng_below(&r, (uint32_t)nc)];
            if (a == b || linked(t, a, b)) continue;
            if (link_free(t, a, b, e)) goto bad;
            done = 1;
        }
        if (done) continue;
        /* exhaustive: any remaining legal pair, chosen at random */
        int pairs = 0;
        for (int i = 0; i < nc; i++)
            for (int j = i + 1; j < nc; j++)
                if (!linked(t, cand[i], cand[j])) pairs++;
        if (!pairs) break;
        int pick = (int)sf_rng_below(&r, (uint32_t)pairs);
        for (int i = 0; i < nc && !done; i++)
            for (int j = i + 1; j < nc && !done; j++)
                if (!linked(t, cand[i], cand[j]) && pick-- == 0) {
                    if (link_free(t, cand[i], cand[j], e)) goto bad;
                    done = 1;
                }
    }
    free(perm); free(cand);
    if (sf_topo_finish(t, "generator", e)) { sf_topo_free(t); return NULL; }
    return t;
bad:
    free(perm); free(cand);
    sf_topo_free(t);
    return NULL;
}

sf_topo *sf_gen_mesh(int kx, int ky, int wrap, int p, int h, sf_err *e)
{
    if (kx < 1 || ky < 1) { gfail(e, "mesh: k must be >= 1"); return NULL; }
    if (wrap && (kx < 3 || ky < 3)) { gfail(e, "torus: k must be >= 3 (k=2 would double links)"); return NULL; }
    if (p < h + 4) { gfail(e, "mesh/torus: need ports >= hosts + 4"); return NULL; }
    sf_topo *t = base(kx * ky, p, h, -1, e);
    if (!t) return NULL;
    snprintf(t->name, sizeof t->name, "%s %dx%d p=%d h=%d", wrap ? "torus" : "mesh", kx, ky, p, h);
    for (int y = 0; y < ky; y++)
        for (int x = 0; x < kx; x++) {
            int s = y * kx + x;
            if (x + 1 < kx || wrap) {
                int d = y * kx + (x + 1) % kx;
                if (sf_topo_add_link(t, s, h + 0, d, h + 1, "generator", 0, e)) goto bad;
            }
            if (y + 1 < ky || wrap) {
                int d = ((y + 1) % ky) * kx + x;
                if (sf_topo_add_link(t, s, h + 2, d, h + 3, "generator", 0, e)) goto bad;
            }
        }
    if (sf_topo_finish(t, "generator", e)) goto bad;
    return t;
bad:
    sf_topo_free(t);
    return NULL;
}

sf_topo *sf_gen_express(int k, int p, int h, sf_err *e)
{
    if (k < 5) { gfail(e, "express torus: k must be >= 5"); return NULL; }
    if (p < h + 8) { gfail(e, "express torus: need ports >= hosts + 8"); return NULL; }
    sf_topo *t = base(k * k, p, h, -1, e);
    if (!t) return NULL;
    snprintf(t->name, sizeof t->name, "express torus %dx%d p=%d h=%d", k, k, p, h);
    for (int y = 0; y < k; y++)
        for (int x = 0; x < k; x++) {
            int s = y * k + x;
            for (int step = 1; step <= 2; step++) {
                int base_port = h + (step - 1) * 4;
                int dx = y * k + (x + step) % k, dy = ((y + step) % k) * k + x;
                if (sf_topo_add_link(t, s, base_port + 0, dx, base_port + 1, "generator", 0, e)) goto bad;
                if (sf_topo_add_link(t, s, base_port + 2, dy, base_port + 3, "generator", 0, e)) goto bad;
            }
        }
    if (sf_topo_finish(t, "generator", e)) goto bad;
    return t;
bad:
    sf_topo_free(t);
    return NULL;
}

sf_topo *sf_gen_cplant(sf_err *e)
{
    sf_topo *t = base(50, 16, 8, -1, e);
    if (!t) return NULL;
    snprintf(t->name, sizeof t->name, "cplant 50 switches p=16 h=8");
    /* groups g=0..5 of 8 switches (id g*8+i): in-group 3-cube on ports 8..10 plus farthest (i^7) on 11 */
    for (int g = 0; g < 6; g++)
        for (int i = 0; i < 8; i++) {
            int s = g * 8 + i;
            for (int b = 0; b < 3; b++) {
                int j = i ^ (1 << b);
                if (j > i && sf_topo_add_link(t, s, 8 + b, g * 8 + j, 8 + b, "generator", 0, e)) goto bad;
            }
            int j = i ^ 7;
            if (j > i && sf_topo_add_link(t, s, 11, g * 8 + j, 11, "generator", 0, e)) goto bad;
            /* groups: incomplete 3-cube of 6 groups plus farthest groups, ports 12..14 and 15 */
            for (int b = 0; b < 3; b++) {
                int h2 = g ^ (1 << b);
                if (h2 > g && h2 < 6 && sf_topo_add_link(t, s, 12 + b, h2 * 8 + i, 12 + b, "generator", 0, e)) goto bad;
            }
            int h2 = g ^ 7;
            if (h2 > g && h2 < 6 && sf_topo_add_link(t, s, 15, h2 * 8 + i, 15, "generator", 0, e)) goto bad;
        }
    /* the two extra switches 48 and 49 stand in for the missing groups 6 and 7 */
    if (sf_topo_add_link(t, 48, 8, 49, 8, "generator", 0, e)) goto bad;
    static const int g6[3] = {1, 2, 4}, port6[3] = {15, 14, 13};
    static const int g7[3] = {0, 3, 5}, port7[3] = {15, 14, 13};
    for (int k = 0; k < 7; k++) {
        if (sf_topo_add_link(t, 48, 9 + k, g6[k % 3] * 8 + k, port6[k % 3], "generator", 0, e)) goto bad;
        if (sf_topo_add_link(t, 49, 9 + k, g7[k % 3] * 8 + k, port7[k % 3], "generator", 0, e)) goto bad;
    }
    if (sf_topo_finish(t, "generator", e)) goto bad;
    return t;
bad:
    sf_topo_free(t);
    return NULL;
}

sf_topo *sf_gen_clos(int leaves, int h, int spines, sf_err *e)
{
    if (leaves < 1 || spines < 1 || h + spines > SF_MAX_PORTS || leaves > SF_MAX_PORTS || h < 0) {
        gfail(e, "clos: need 1 <= leaves <= 64, 1 <= spines, hosts + spines <= 64");
        return NULL;
    }
    sf_topo *t = sf_topo_new();
    for (int s = 0; s < leaves; s++)
        if (sf_topo_add_switch(t, s, h + spines, 1, "generator", 0, e)) goto bad;
    for (int s = 0; s < spines; s++)
        if (sf_topo_add_switch(t, leaves + s, leaves, 0, "generator", 0, e)) goto bad;
    snprintf(t->name, sizeof t->name, "clos leaves=%d hosts=%d spines=%d", leaves, h, spines);
    for (int s = 0; s < leaves; s++)
        for (int j = 0; j < h; j++)
            if (sf_topo_add_host(t, s * h + j, s, j, "generator", 0, e)) goto bad;
    for (int s = 0; s < leaves; s++)
        for (int j = 0; j < spines; j++)
            if (sf_topo_add_link(t, s, h + j, leaves + j, s, "generator", 0, e)) goto bad;
    if (sf_topo_finish(t, "generator", e)) goto bad;
    return t;
bad:
    sf_topo_free(t);
    return NULL;
}

sf_topo *sf_gen_fattree(int k, int n, sf_err *e)
{
    if (k < 2 || n < 1 || 2 * k > SF_MAX_PORTS) { gfail(e, "fattree: need k >= 2, n >= 1, 2k <= 64"); return NULL; }
    long per = 1;
    for (int i = 0; i < n - 1; i++) { per *= k; if (per > 65536) { gfail(e, "fattree: too large"); return NULL; } }
    int W = (int)per;
    sf_topo *t = sf_topo_new();
    snprintf(t->name, sizeof t->name, "%d-ary %d-tree", k, n);
    for (int l = 0; l < n; l++)
        for (int w = 0; w < W; w++)
            if (sf_topo_add_switch(t, l * W + w, 2 * k, l, "generator", 0, e)) goto bad;
    for (int w = 0; w < W; w++)
        for (int j = 0; j < k; j++)
            if (sf_topo_add_host(t, w * k + j, (n - 1) * W + w, j, "generator", 0, e)) goto bad;
    /* parent <w,l> and child <w',l+1> are linked when their digits agree except digit l */
    for (int l = 0; l + 1 < n; l++) {
        long pw = 1;
        for (int i = 0; i < l; i++) pw *= k;
        for (int w = 0; w < W; w++) {
            int dl = (int)((w / pw) % k);
            for (int c = 0; c < k; c++) {
                int wc = (int)(w - dl * pw + c * pw);
                /* parent down port c, child up port k + dl */
                if (sf_topo_add_link(t, l * W + w, c, (l + 1) * W + wc, k + dl, "generator", 0, e)) goto bad;
            }
        }
    }
    if (sf_topo_finish(t, "generator", e)) goto bad;
    return t;
bad:
    sf_topo_free(t);
    return NULL;
}

sf_topo *sf_gen_hypercube(int dim, int p, int h, sf_err *e)
{
    if (dim < 1 || dim > 16) { gfail(e, "hypercube: need 1 <= dim <= 16"); return NULL; }
    if (p < h + dim) { gfail(e, "hypercube: need ports >= hosts + dim"); return NULL; }
    sf_topo *t = base(1 << dim, p, h, -1, e);
    if (!t) return NULL;
    snprintf(t->name, sizeof t->name, "hypercube dim=%d p=%d h=%d", dim, p, h);
    for (int s = 0; s < (1 << dim); s++)
        for (int b = 0; b < dim; b++) {
            int d = s ^ (1 << b);
            if (d > s && sf_topo_add_link(t, s, h + b, d, h + b, "generator", 0, e)) goto bad;
        }
    if (sf_topo_finish(t, "generator", e)) goto bad;
    return t;
bad:
    sf_topo_free(t);
    return NULL;
}

/* ------------------------------------------------------------------ Etsion et al. 2000: dual 8-way Myrinet switches */

/* A dual 8-way box holds two independent 8-port crossbars, A and B, with no link between them inside the box
 * (Etsion et al. 2000, sec. 1.1: one port of each is needed to join them). Box k's crossbars are switches 2k (A) and 2k+1 (B).
 * `hosts[s]` hosts go on ports 0.. of switch s, numbered in switch order; the links take the next free ports in
 * the order of `links` (pairs of switches; a pair given twice is two parallel links). */
static sf_topo *dual_boxes(int boxes, const int *hosts, const int (*links)[2], int nlinks, int parallel,
                           const char *name, sf_err *e)
{
    sf_topo *t = sf_topo_new();
    snprintf(t->name, sizeof t->name, "%s", name);
    t->allow_parallel = parallel;
    int host = 0;
    for (int s = 0; s < 2 * boxes; s++) {
        if (sf_topo_add_switch(t, s, 8, -1, "generator", 0, e)) goto bad;
        for (int j = 0; j < hosts[s]; j++)
            if (sf_topo_add_host(t, host++, s, j, "generator", 0, e)) goto bad;
    }
    for (int l = 0; l < nlinks; l++)
        if (link_free(t, links[l][0], links[l][1], e)) goto bad;
    if (sf_topo_finish(t, "generator", e)) goto bad;
    return t;
bad:
    sf_topo_free(t);
    return NULL;
}

sf_topo *sf_gen_dual8(int bisection, sf_err *e)
{
    /* two boxes (4 crossbars of 4 hosts): a chain B1-A1-A2-B2 (1), closed into a ring (2), with both diagonals
     * K4 (4: "all 6 links", Etsion et al. 2000, sec. 6) */
    static const int two[6][2] = {{0, 1}, {0, 2}, {2, 3}, {1, 3}, {0, 3}, {1, 2}};
    /* three boxes (6 crossbars; 3 hosts on switches 0-3, 2 on 4-5): K6 (9), K6 without the three A-B links
     * inside a box (6), and without A1-B2 as well (5) */
    static const int three[15][2] = {{0, 2}, {0, 4}, {0, 5}, {1, 2}, {1, 4}, {1, 5}, {2, 4}, {2, 5}, {3, 4},
                                     {3, 5}, {1, 3}, {0, 3}, {0, 1}, {2, 3}, {4, 5}};
    static const int h2[4] = {4, 4, 4, 4}, h3[6] = {3, 3, 3, 3, 2, 2};
    char name[96];
    snprintf(name, sizeof name, "dual8 bisection=%d: 16 hosts on %s dual 8-way boxes (Etsion et al. 2000 Fig. 10)", bisection,
             bisection <= 4 ? "two" : "three");
    switch (bisection) {
    case 1: return dual_boxes(2, h2, two, 3, 0, name, e);
    case 2: return dual_boxes(2, h2, two, 4, 0, name, e);
    case 4: return dual_boxes(2, h2, two, 6, 0, name, e);
    case 5: return dual_boxes(3, h3, three, 11, 0, name, e);
    case 6: return dual_boxes(3, h3, three, 12, 0, name, e);
    case 9: return dual_boxes(3, h3, three, 15, 0, name, e);
    default:
        if (e) snprintf(e->msg, sizeof e->msg, "generator: dual8: bisection %d not one of Etsion et al. 2000 Fig. 10's 1, 2, 4, 5, 6, 9",
                        bisection);
        return NULL;
    }
}

sf_topo *sf_gen_parpar(int boxes, sf_err *e)
{
    /* Fig. 2 top: 4 crossbars of 4 hosts, every port used (8 links): K4 with the A-B link of each box doubled */
    static const int two[8][2] = {{0, 1}, {0, 1}, {2, 3}, {2, 3}, {0, 2}, {1, 3}, {0, 3}, {1, 2}};
    /* Fig. 2 bottom: 6 crossbars of 3 hosts, every port used (15 links): K6 */
    static const int three[15][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {1, 2}, {1, 3}, {1, 4}, {1, 5},
                                     {2, 3}, {2, 4}, {2, 5}, {3, 4}, {3, 5}, {4, 5}};
    static const int h2[4] = {4, 4, 4, 4}, h3[6] = {3, 3, 3, 3, 3, 3};
    if (boxes == 2)
        return dual_boxes(2, h2, two, 8, 1, "parpar boxes=2: the 16-node test cluster, two dual 8-way boxes (Etsion et al. 2000 Fig. 2 top)", e);
    if (boxes == 3)
        return dual_boxes(3, h3, three, 15, 0, "parpar boxes=3: 18 nodes on three dual 8-way boxes (Etsion et al. 2000 Fig. 2 bottom)", e);
    if (e) snprintf(e->msg, sizeof e->msg, "generator: parpar: boxes must be 2 (Fig. 2 top) or 3 (Fig. 2 bottom), got %d", boxes);
    return NULL;
}

/* test_sw_props.c - property tests of every algorithm, and check against rule-breaking mutations */
#include "test_sw.h"

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

void test_properties(T *t)
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

void test_mutations(T *t)
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

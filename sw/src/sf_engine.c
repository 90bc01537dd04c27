/* sf_engine.c - routing algorithms on a layered state graph.
 * A state is (switch, layer, class of the channel the packet arrived by, or START). A rule says which class
 * turns are allowed inside a layer; a forbidden turn moves the packet one layer down (Descending Layers), or
 * is impossible in layer 0. Up/down routing is one layer with the UD rule, or with VCs one copy of it per VC that
 * a packet never leaves (keep); plain shortest paths use NONE. The orientation, the rules and the channel classes
 * are in sf_rules.c, LASH's layers in sf_layers.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sf_route.h"
#include "sf_route_int.h"
#include "sf_util.h"


void sf_route_opts_default(sf_route_opts *o)
{
    memset(o, 0, sizeof *o);
    o->root = -1;
    o->sel = SF_SEL_LOW;
    o->rule = SF_RULE_UD;
    o->nvc = 3;
    o->ud_vcs = 1;
    o->maxvc = 16;
    o->maxalt = 16;
    o->weight = 3.0;
    o->fix = SF_FIX_ITB;
    o->seed = 1;
}

/* ------------------------------------------------------------------ layered state graph */

typedef struct {
    const sf_topo *t;
    sf_rule rule;
    int nvc, C, C1, ns;
    int keep;        /* 1: the layers are copies a packet never leaves (up/down with VCs); 0: forbidden turns descend */
    int8_t *cls;     /* class per channel */
    int8_t *dir;     /* up/down orientation (owned) */
    int16_t *dist;   /* nsw * ns: distance from state to destination switch d, -1 = none */
    int8_t *itbok;   /* optional, per switch: down->up turns allowed there (ITB at one of its hosts); owned */
} eng;

/* turn a -> b at switch x inside layer v; E->itbok[x] lets a down->up turn happen at x (ITB at a host of x) */
static int allowed(const eng *E, int x, int v, int a, int b)
{
    if (E->itbok && E->itbok[x] && a == 1 && b == 0) return 1;
    return sf_rule_allows(E->rule, v, a, b);
}

static inline int st_sw(const eng *E, int u) { return u / (E->nvc * E->C1); }
static inline int st_v(const eng *E, int u) { return (u / E->C1) % E->nvc; }
static inline int st_a(const eng *E, int u) { return u % E->C1; }
static inline int st_id(const eng *E, int s, int v, int a) { return (s * E->nvc + v) * E->C1 + a; }

/* next state when leaving state u by channel c, or -1; *vc = VC on c */
static int step(const eng *E, int u, int c, int *vc)
{
    int v = st_v(E, u), a = st_a(E, u), b = E->cls[c], to = E->t->ch_to[c];
    if (a == E->C || allowed(E, st_sw(E, u), v, a, b)) { *vc = v; return st_id(E, to, v, b); }
    if (v > 0 && !E->keep) { *vc = v - 1; return st_id(E, to, v - 1, b); }
    return -1;
}

static int eng_init2(eng *E, const sf_topo *t, sf_rule rule, int nvc, int keep, int root, int need_dist, int8_t *itbok)
{
    memset(E, 0, sizeof *E);
    E->itbok = itbok;
    E->keep = keep;
    E->t = t; E->rule = rule; E->nvc = nvc < 1 ? 1 : nvc;
    E->C = rule == SF_RULE_NONE ? 1 : rule == SF_RULE_LTURN ? 4 : 2;
    E->C1 = E->C + 1;
    E->ns = t->nsw * E->nvc * E->C1;
    E->cls = sf_rule_classes(t, rule, root, &E->dir);
    if (!need_dist) return 0;
    if ((size_t)t->nsw * (size_t)E->ns > ((size_t)1 << 31)) return -1;
    E->dist = sf_xcalloc((size_t)t->nsw * (size_t)E->ns, sizeof(int16_t));
    int *q = sf_xcalloc((size_t)E->ns, sizeof(int));
    for (int d = 0; d < t->nsw; d++) {
        int16_t *D = E->dist + (size_t)d * E->ns;
        for (int i = 0; i < E->ns; i++) D[i] = -1;
        int qh = 0, qt = 0;
        for (int v = 0; v < E->nvc; v++)
            for (int a = 0; a <= E->C; a++) { int u = st_id(E, d, v, a); D[u] = 0; q[qt++] = u; }
        while (qh < qt) {
            int u2 = q[qh++];
            int y = st_sw(E, u2), v2 = st_v(E, u2), b = st_a(E, u2);
            if (b == E->C) continue; /* START states have no predecessors */
            for (int i = t->adjoff[y]; i < t->adjoff[y + 1]; i++) {
                int c = t->adjch[i] ^ 1; /* channel x -> y */
                if (E->cls[c] != b) continue;
                int x = t->ch_from[c];
                for (int a = 0; a <= E->C; a++) {
                    if (a == E->C || allowed(E, x, v2, a, b)) {
                        int u = st_id(E, x, v2, a);
                        if (D[u] < 0) { D[u] = (int16_t)(D[u2] + 1); q[qt++] = u; }
                    }
                    if (!E->keep && a < E->C && v2 + 1 < E->nvc && !allowed(E, x, v2 + 1, a, b)) {
                        int u = st_id(E, x, v2 + 1, a);
                        if (D[u] < 0) { D[u] = (int16_t)(D[u2] + 1); q[qt++] = u; }
                    }
                }
            }
        }
    }
    free(q);
    return 0;
}

static int eng_init(eng *E, const sf_topo *t, sf_rule rule, int nvc, int root, int need_dist)
{
    return eng_init2(E, t, rule, nvc, 0, root, need_dist, NULL);
}

static void eng_free(eng *E) { free(E->cls); free(E->dir); free(E->dist); free(E->itbok); }

/* ------------------------------------------------------------------ path selection on the shortest DAG */

typedef struct {
    eng *E;
    sf_select sel;
    sf_rng rng;
    double *pload;   /* per channel: routes (host pairs) using it */
    double *vload;   /* per (channel, vc) */
    double total;    /* sum of loads */
    double weight;
    /* scratch */
    int *mark, stamp, *list;
    double *val, *val2;
    sf_hop *hops;
    int *prevs, *prevc;
} selctx;

static void sel_init(selctx *S, eng *E, sf_select sel, uint64_t seed, double weight)
{
    memset(S, 0, sizeof *S);
    S->E = E; S->sel = sel; S->weight = weight;
    sf_rng_seed(&S->rng, seed);
    const sf_topo *t = E->t;
    S->pload = sf_xcalloc((size_t)t->nch, sizeof(double));
    S->vload = sf_xcalloc((size_t)t->nch * (size_t)E->nvc, sizeof(double));
    S->mark = sf_xcalloc((size_t)E->ns, sizeof(int));
    S->list = sf_xcalloc((size_t)E->ns, sizeof(int));
    S->val = sf_xcalloc((size_t)E->ns, sizeof(double));
    S->val2 = sf_xcalloc((size_t)E->ns, sizeof(double));
    S->hops = sf_xcalloc((size_t)E->ns + 8, sizeof(sf_hop));
    S->prevs = sf_xcalloc((size_t)E->ns, sizeof(int));
    S->prevc = sf_xcalloc((size_t)E->ns, sizeof(int));
}

static void sel_free(selctx *S)
{
    free(S->pload); free(S->vload); free(S->mark); free(S->list); free(S->val); free(S->val2); free(S->hops);
    free(S->prevs); free(S->prevc);
}

static void add_load(selctx *S, const sf_hop *h, int n, double w)
{
    const sf_topo *t = S->E->t;
    for (int i = 0; i < n; i++) {
        if (h[i].itb) continue;
        int c = t->sw[h[i].sw].ch[h[i].port];
        S->pload[c] += w;
        S->vload[(size_t)c * S->E->nvc + h[i].vc] += w;
        S->total += w;
    }
}

/* Layers that are copies (E->keep): move path h to the VC whose (channel, VC) loads along it sum least, the lowest
 * VC on a tie (every copy holds the same legal paths); returns that VC. */
static int least_loaded_vc(const selctx *S, sf_hop *h, int n)
{
    const eng *E = S->E;
    int best = 0;
    double bsum = INFINITY;
    for (int v = 0; v < E->nvc; v++) {
        double sum = 0;
        for (int i = 0; i < n; i++)
            if (!h[i].itb) sum += S->vload[(size_t)E->t->sw[h[i].sw].ch[h[i].port] * E->nvc + v];
        if (sum < bsum) { bsum = sum; best = v; }
    }
    for (int i = 0; i < n; i++) h[i].vc = (int8_t)best;
    return best;
}

/* Among shortest legal paths from switch s to switch d choose one by S->sel; returns hop count, -1 if none.
 * *vc0 gets the start layer. Candidate start layers follow Koibuchi et al. 2003, sec. 3.3: from the top layer down while the
 * shortest length does not grow (copies, E->keep: every layer, Koibuchi et al. 2003, sec. 5.1.2). */
static int pick_shortest(selctx *S, int s, int d, int *vc0)
{
    eng *E = S->E;
    const sf_topo *t = E->t;
    const int16_t *D = E->dist + (size_t)d * E->ns;
    int starts[64], ns = 0;
    int L = D[st_id(E, s, E->nvc - 1, E->C)];
    if (L < 0) {
        /* top layer cannot reach (rules differ per layer): take the best over all layers */
        for (int v = 0; v < E->nvc; v++) {
            int x = D[st_id(E, s, v, E->C)];
            if (x >= 0 && (L < 0 || x < L)) L = x;
        }
        if (L < 0) return -1;
        for (int v = E->nvc - 1; v >= 0; v--)
            if (D[st_id(E, s, v, E->C)] == L) starts[ns++] = st_id(E, s, v, E->C);
    } else {
        for (int v = E->nvc - 1; v >= 0 && D[st_id(E, s, v, E->C)] == L; v--) starts[ns++] = st_id(E, s, v, E->C);
    }
    if (L == 0) { *vc0 = st_v(E, starts[ns - 1]); return 0; }
    int sel = S->sel;
    /* DAG of states on shortest paths reachable from the starts, by BFS levels */
    int cnt = 0;
    if (sel != SF_SEL_LOW) {
        S->stamp++;
        for (int i = 0; i < ns; i++) { S->mark[starts[i]] = S->stamp; S->list[cnt++] = starts[i]; }
        for (int h = 0; h < cnt; h++) {
            int u = S->list[h], x = st_sw(E, u);
            if (D[u] == 0) continue;
            for (int i = t->adjoff[x]; i < t->adjoff[x + 1]; i++) {
                int vc, w = step(E, u, t->adjch[i], &vc);
                if (w >= 0 && D[w] == D[u] - 1 && S->mark[w] != S->stamp) { S->mark[w] = S->stamp; S->list[cnt++] = w; }
            }
        }
        /* values bottom-up */
        for (int h = cnt - 1; h >= 0; h--) {
            int u = S->list[h], x = st_sw(E, u);
            if (D[u] == 0) { S->val[u] = sel == SF_SEL_RANDOM ? 1.0 : 0.0; S->val2[u] = 0; continue; }
            double best = sel == SF_SEL_RANDOM ? 0.0 : INFINITY, best2 = INFINITY;
            for (int i = t->adjoff[x]; i < t->adjoff[x + 1]; i++) {
                int c = t->adjch[i], vc, w = step(E, u, c, &vc);
                if (w < 0 || D[w] != D[u] - 1) continue;
                if (sel == SF_SEL_RANDOM) best += S->val[w];
                else if (sel == SF_SEL_PCH) {
                    double m = fmax(S->pload[c], S->val[w]), s2 = S->vload[(size_t)c * E->nvc + vc] + S->val2[w];
                    if (m < best || (m == best && s2 < best2)) { best = m; best2 = s2; }
                } else {
                    double cst = S->pload[c] + S->val[w];
                    if (cst < best) best = cst;
                }
            }
            S->val[u] = best; S->val2[u] = best2;
        }
    }
    /* choose the start */
    int u;
    if (sel == SF_SEL_LOW) u = starts[ns - 1];
    else if (sel == SF_SEL_RANDOM) {
        double tot = 0;
        for (int i = 0; i < ns; i++) tot += S->val[starts[i]];
        double r = sf_rng_unit(&S->rng) * tot;
        u = starts[ns - 1];
        for (int i = 0; i < ns; i++) { r -= S->val[starts[i]]; if (r < 0) { u = starts[i]; break; } }
    } else {
        u = starts[ns - 1];
        for (int i = ns - 2; i >= 0; i--) {
            int c = starts[i];
            if (S->val[c] < S->val[u] || (sel == SF_SEL_PCH && S->val[c] == S->val[u] && S->val2[c] < S->val2[u])) u = c;
        }
    }
    *vc0 = st_v(E, u);
    int n = 0;
    while (D[u] > 0) {
        int x = st_sw(E, u);
        int bc = -1, bw = -1, bvc = 0;
        double bval = INFINITY, bval2 = INFINITY, r = 0, tot = 0;
        if (sel == SF_SEL_RANDOM) {
            for (int i = t->adjoff[x]; i < t->adjoff[x + 1]; i++) {
                int vc, w = step(E, u, t->adjch[i], &vc);
                if (w >= 0 && D[w] == D[u] - 1) tot += S->val[w];
            }
            r = sf_rng_unit(&S->rng) * tot;
        }
        for (int i = t->adjoff[x]; i < t->adjoff[x + 1]; i++) {
            int c = t->adjch[i], vc, w = step(E, u, c, &vc);
            if (w < 0 || D[w] != D[u] - 1) continue;
            if (sel == SF_SEL_LOW) { /* channels are in port order: the first legal one is the lowest port */
                bc = c; bw = w; bvc = vc;
                break;
            } else if (sel == SF_SEL_RANDOM) {
                bc = c; bw = w; bvc = vc;
                r -= S->val[w];
                if (r < 0) break;
            } else if (sel == SF_SEL_PCH) {
                double m = fmax(S->pload[c], S->val[w]), s2 = S->vload[(size_t)c * E->nvc + vc] + S->val2[w];
                if (bc < 0 || m < bval || (m == bval && s2 < bval2)) { bc = c; bw = w; bvc = vc; bval = m; bval2 = s2; }
            } else {
                double cst = S->pload[c] + S->val[w];
                if (bc < 0 || cst < bval) { bc = c; bw = w; bvc = vc; bval = cst; }
            }
        }
        if (bc < 0) return -1; /* cannot happen: dist is exact */
        S->hops[n++] = (sf_hop){x, (int16_t)t->ch_fport[bc], (int8_t)bvc, 0};
        u = bw;
    }
    return n;
}

/* Least-cost legal path (Dijkstra over states) from s to d; cost of channel c = 1 + weight*load/mean, plus
 * `ban` channels excluded when ban != NULL. Returns hop count or -1. */
static int pick_dijkstra(selctx *S, int s, int d, const char *ban, double eps, int *vc0)
{
    eng *E = S->E;
    const sf_topo *t = E->t;
    if (s == d) { *vc0 = 0; return 0; }
    int ns = E->ns;
    double *dist = S->val;
    for (int i = 0; i < ns; i++) { dist[i] = INFINITY; S->prevs[i] = -1; }
    /* binary heap of (dist, state) */
    int *heap = S->list, hn = 0;
    int *pos = S->mark; /* heap position + 1, 0 = not in heap */
    for (int i = 0; i < ns; i++) pos[i] = 0;
    double mean = t->nch ? S->total / t->nch : 0;
#define HLESS(a, b) (dist[heap[a]] < dist[heap[b]])
#define HSWAP(a, b) do { int tmp_ = heap[a]; heap[a] = heap[b]; heap[b] = tmp_; pos[heap[a]] = (a) + 1; pos[heap[b]] = (b) + 1; } while (0)
    for (int v = 0; v < (E->keep ? 1 : E->nvc); v++) { /* copies: search one, the caller picks the VC */
        int u = st_id(E, s, v, E->C);
        dist[u] = 0;
        heap[hn] = u; pos[u] = hn + 1; hn++;
    }
    int end = -1;
    while (hn) {
        int u = heap[0];
        hn--;
        pos[u] = -1;
        if (hn) {
            heap[0] = heap[hn]; pos[heap[0]] = 1;
            int i = 0;
            for (;;) {
                int l = 2 * i + 1, r = l + 1, m = i;
                if (l < hn && HLESS(l, m)) m = l;
                if (r < hn && HLESS(r, m)) m = r;
                if (m == i) break;
                HSWAP(i, m);
                i = m;
            }
        }
        int x = st_sw(E, u);
        if (x == d) { end = u; break; }
        for (int i = t->adjoff[x]; i < t->adjoff[x + 1]; i++) {
            int c = t->adjch[i], vc, w = step(E, u, c, &vc);
            if (w < 0 || pos[w] < 0) continue;
            if (ban && ban[c >> 1]) continue;
            double cost = 1.0 + (eps > 0 ? eps * S->pload[c] : (mean > 0 ? S->weight * S->pload[c] / mean : 0));
            double nd = dist[u] + cost;
            if (nd < dist[w]) {
                dist[w] = nd;
                S->prevs[w] = u; S->prevc[w] = c;
                int k;
                if (pos[w] == 0) { k = hn++; heap[k] = w; pos[w] = k + 1; }
                else k = pos[w] - 1;
                while (k > 0 && HLESS(k, (k - 1) / 2)) { HSWAP(k, (k - 1) / 2); k = (k - 1) / 2; }
            }
        }
    }
#undef HLESS
#undef HSWAP
    for (int i = 0; i < ns; i++) S->mark[i] = 0; /* mark doubled as heap positions: reset for pick_shortest */
    S->stamp = 0;
    if (end < 0) return -1;
    int n = 0;
    for (int u = end; S->prevs[u] >= 0; u = S->prevs[u]) n++;
    int k = n;
    int u = end;
    while (S->prevs[u] >= 0) {
        int c = S->prevc[u], p = S->prevs[u];
        int vc;
        step(E, p, c, &vc);
        S->hops[--k] = (sf_hop){t->ch_from[c], (int16_t)t->ch_fport[c], (int8_t)vc, 0};
        u = p;
    }
    *vc0 = st_v(E, u);
    return n;
}

static int nhosts_of(const sf_topo *t, int s) { return t->hoff[s + 1] - t->hoff[s]; }

static int rfail(sf_err *e, const char *fmt, int a, int b)
{
    if (e) snprintf(e->msg, sizeof e->msg, fmt, a, b);
    return -1;
}

/* Route every pair with the engine. per_switch: one path per switch pair weighted by host pairs; else per host pair.
 * order: optional host order (logical -> physical) for host pairs. */
/* lay != NULL: each path is put in a layer (LASH) as soon as it is chosen, so an unmeetable layer limit fails early */
static sf_routes *route_pairs(eng *E, const sf_route_opts *o, int per_switch, sf_select sel, sf_layers *lay, sf_err *e)
{
    const sf_topo *t = E->t;
    sf_routes *rs = sf_routes_new(t, per_switch, 1);
    selctx S;
    sel_init(&S, E, sel, o->seed, o->weight);
    int N = per_switch ? t->nsw : t->nhost;
    for (int k = 0; k < N; k++)
        for (int a = 0; a < N; a++) {
            int b = (a + k) % N;
            int sa = per_switch ? a : t->host[a].sw, sb = per_switch ? b : t->host[b].sw;
            double w = 1;
            if (per_switch) {
                w = (double)nhosts_of(t, a) * nhosts_of(t, b) - (a == b ? nhosts_of(t, a) : 0);
                if (w <= 0) continue;
            } else if (a == b) continue;
            int vc0 = 0, n;
            if (sel == SF_SEL_BALANCED) n = pick_dijkstra(&S, sa, sb, NULL, 0, &vc0);
            else n = pick_shortest(&S, sa, sb, &vc0);
            if (n < 0) {
                rfail(e, "no legal path from switch %d to switch %d under this rule/root (try another --root)", sa, sb);
                sel_free(&S);
                sf_routes_free(rs);
                return NULL;
            }
            /* up/down with VCs: low and random chose the VC with the path (lowest VC; uniform), the others take the
             * least loaded VC of the path they chose */
            if (E->keep && E->nvc > 1 && sel != SF_SEL_LOW && sel != SF_SEL_RANDOM) vc0 = least_loaded_vc(&S, S.hops, n);
            int id = sf_routes_set(rs, a, b, 0, S.hops, n, vc0);
            add_load(&S, S.hops, n, w);
            if (lay && sf_layers_place(lay, rs, id, e)) {
                sel_free(&S);
                sf_routes_free(rs);
                return NULL;
            }
        }
    sel_free(&S);
    return rs;
}

static const char *sel_name(sf_select s)
{
    static const char *nm[] = {"low", "random", "balanced", "sancho", "pch"};
    return nm[s];
}
static const char *rule_name(sf_rule r)
{
    static const char *nm[] = {"none", "(UD)*", "(UD-DU)*", "UD-(DU)*", "(L-turn)*"};
    return nm[r];
}

static int8_t *dup_dir(const eng *E)
{
    int8_t *d = sf_xcalloc((size_t)E->t->nch, 1);
    memcpy(d, E->dir, (size_t)E->t->nch);
    return d;
}

sf_routes *sf_route_updown(const sf_topo *t, const sf_route_opts *o, sf_err *e)
{
    if (o->ud_vcs < 1 || o->ud_vcs > 16) { rfail(e, "updown: VCs must be 1..16 (got %d)%.0d", o->ud_vcs, 0); return NULL; }
    eng E; /* one up/down copy per VC (Koibuchi et al. 2003, sec. 5.1.2): the source picks the VC, the packet keeps it */
    if (eng_init2(&E, t, SF_RULE_UD, o->ud_vcs, 1, o->root, 1, NULL)) {
        eng_free(&E);
        rfail(e, "network too large (%d switches)%.0d", t->nsw, 0);
        return NULL;
    }
    sf_select sel = o->sel;
    sf_routes *rs = route_pairs(&E, o, sel != SF_SEL_BALANCED, sel, NULL, e);
    if (rs) {
        rs->promise_updown = 1;
        rs->promise_onevc = 1;
        rs->root = o->root;
        rs->dir = dup_dir(&E);
        char vb[16] = "", sb[32] = "", wb[32] = "";
        if (o->ud_vcs > 1) snprintf(vb, sizeof vb, " vcs=%d", o->ud_vcs);
        if (sel == SF_SEL_RANDOM) snprintf(sb, sizeof sb, " seed=%llu", (unsigned long long)o->seed);
        if (sel == SF_SEL_BALANCED) snprintf(wb, sizeof wb, " weight=%g", o->weight);
        snprintf(rs->algo, sizeof rs->algo, "updown%s select=%s root=%d%s tie=lower-id%s%s", vb, sel_name(sel), o->root,
                 o->root < 0 ? "(top-or-0)" : "", wb, sb);
    }
    eng_free(&E);
    return rs;
}

sf_routes *sf_route_dl(const sf_topo *t, const sf_route_opts *o, sf_err *e)
{
    if (o->nvc < 1 || o->nvc > 16) { rfail(e, "DL: VCs must be 1..16 (got %d)%.0d", o->nvc, 0); return NULL; }
    if (o->rule == SF_RULE_NONE) { rfail(e, "DL: a restriction is needed%.0d%.0d", 0, 0); return NULL; }
    eng E;
    if (eng_init(&E, t, o->rule, o->nvc, o->root, 1)) { rfail(e, "network too large (%d switches)%.0d", t->nsw, 0); return NULL; }
    sf_routes *rs = route_pairs(&E, o, o->sel != SF_SEL_BALANCED, o->sel, NULL, e);
    if (rs) {
        rs->dir = dup_dir(&E);
        rs->root = o->root;
        rs->rule = o->rule;
        char sb[64] = "", wb[64] = "";
        if (o->sel == SF_SEL_RANDOM) snprintf(sb, sizeof sb, " seed=%llu", (unsigned long long)o->seed);
        if (o->sel == SF_SEL_BALANCED) snprintf(wb, sizeof wb, " weight=%g", o->weight);
        snprintf(rs->algo, sizeof rs->algo, "dl vcs=%d rule=%s select=%s root=%d%s tie=lower-id%s%s", o->nvc, rule_name(o->rule),
                 sel_name(o->sel), o->root, o->root < 0 ? "(top-or-0)" : "", wb, sb);
    }
    eng_free(&E);
    return rs;
}

/* ------------------------------------------------------------------ ITB */

/* split hops at down->up turns; out gets the new hops; returns new count or -1 if a turn switch has no host */
static int split_itb(const sf_topo *t, const int8_t *dir, const sf_hop *h, int n, sf_hop *out, int *rr)
{
    int m = 0, down = 0;
    for (int i = 0; i < n; i++) {
        if (h[i].itb) { out[m++] = h[i]; down = 0; continue; }
        int c = t->sw[h[i].sw].ch[h[i].port];
        if (dir[c] && down) {
            int x = h[i].sw, nh = t->hoff[x + 1] - t->hoff[x];
            if (!nh) return -1;
            int host = t->hlist[t->hoff[x] + rr[x]++ % nh];
            out[m++] = (sf_hop){x, (int16_t)t->host[host].port, 0, 1};
            down = 0;
        }
        if (!dir[c]) down = 1;
        out[m++] = h[i];
    }
    return m;
}

int sf_fix_itb(sf_routes *rs, const int8_t *dir, sf_err *e)
{
    const sf_topo *t = rs->t;
    sf_hop *nh = sf_xcalloc(rs->nhops * 2 + 16, sizeof(sf_hop));
    int *rr = sf_xcalloc((size_t)t->nsw, sizeof(int));
    size_t m = 0;
    for (int id = 0; id < rs->npath; id++) {
        int k = split_itb(t, dir, rs->hops + rs->poff[id], rs->plen[id], nh + m, rr);
        if (k < 0) {
            const sf_hop *h = rs->hops + rs->poff[id];
            int bad = -1, down = 0;
            for (int i = 0; i < rs->plen[id] && bad < 0; i++) {
                int c = t->sw[h[i].sw].ch[h[i].port];
                if (dir[c] && down) bad = h[i].sw;
                if (!dir[c]) down = 1;
            }
            snprintf(e->msg, sizeof e->msg, "ITB needed at switch %d, which has no host (use --deadlock layers)", bad);
            free(nh); free(rr);
            return -1;
        }
        rs->poff[id] = (int)m;
        rs->plen[id] = k;
        m += (size_t)k;
    }
    free(rs->hops);
    rs->hops = nh;
    rs->nhops = m;
    rs->hcap = rs->nhops * 2 + 16;
    free(rr);
    if (!rs->dir) { rs->dir = sf_xcalloc((size_t)t->nch, 1); memcpy(rs->dir, dir, (size_t)t->nch); }
    rs->promise_updown = 1;
    return 0;
}

sf_routes *sf_route_itb(const sf_topo *t, const sf_route_opts *o, sf_err *e)
{
    /* E: plain minimal paths (only to name the host-less turning switch of a fallback pair);
     * I: up/down classes where a down->up turn is allowed at switches with a host (the ITB goes there), so every
     *    path I finds can be split by ITBs; U: up/down for fallbacks */
    eng E, I, U;
    int8_t *itbok = sf_xcalloc((size_t)t->nsw, 1);
    for (int x = 0; x < t->nsw; x++) itbok[x] = (int8_t)(nhosts_of(t, x) > 0);
    if (eng_init2(&I, t, SF_RULE_UD, 1, 0, o->root, 1, itbok)) {
        eng_free(&I);
        rfail(e, "network too large (%d switches)%.0d", t->nsw, 0);
        return NULL;
    }
    int have_fb = 0; /* E, U and their selectors are built at the first fallback only */
    int *dist = sf_topo_distances(t);
    selctx S, SI, SU;
    memset(&E, 0, sizeof E); memset(&U, 0, sizeof U); memset(&S, 0, sizeof S); memset(&SU, 0, sizeof SU);
    sel_init(&SI, &I, SF_SEL_RANDOM, o->seed, o->weight);
    sf_routes *rs = sf_routes_new(t, 0, 1);
    sf_hop *tmp = sf_xcalloc((size_t)I.ns * 2 + 16, sizeof(sf_hop));
    int *rr = sf_xcalloc((size_t)t->nsw, sizeof(int));
    int N = t->nhost, fallback = 0, fcap = 0;
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) {
            if (a == b) continue;
            int sa = t->host[a].sw, sb = t->host[b].sw, vc0, m;
            const int16_t *DI = I.dist + (size_t)sb * I.ns;
            int lmin = dist[(size_t)sa * t->nsw + sb], litb = DI[st_id(&I, sa, 0, I.C)];
            if (lmin < 0) { rfail(e, "no path from switch %d to switch %d", sa, sb); goto bad; }
            if (litb == lmin) { /* uniform over the minimal paths whose down->up turns are all at switches with hosts */
                int n = pick_shortest(&SI, sa, sb, &vc0);
                m = split_itb(t, I.dir, SI.hops, n, tmp, rr);
            } else { /* every minimal path turns down->up at a switch without a host */
                if (!have_fb) {
                    have_fb = 1;
                    eng_init(&E, t, SF_RULE_NONE, 1, o->root, 1);
                    eng_init(&U, t, SF_RULE_UD, 1, o->root, 1);
                    sel_init(&S, &E, SF_SEL_RANDOM, o->seed ^ 0xFA11BAC4ULL, o->weight);
                    sel_init(&SU, &U, SF_SEL_LOW, o->seed, o->weight);
                }
                int n = pick_shortest(&S, sa, sb, &vc0), bad = -1, down = 0;
                for (int i = 0; i < n && bad < 0; i++) {
                    int c = t->sw[S.hops[i].sw].ch[S.hops[i].port];
                    if (E.dir[c] && down && !itbok[S.hops[i].sw]) bad = S.hops[i].sw;
                    if (!E.dir[c]) down = 1;
                }
                if (o->fallback == SF_FALLBACK_REFUSE) {
                    snprintf(e->msg, sizeof e->msg,
                             "itb: no minimal route from host %d (switch %d) to host %d (switch %d) can place its ITBs: "
                             "a minimal path would need an ITB at switch %d, which has no host (refused: --fallback refuse)",
                             a, sa, b, sb, bad);
                    goto bad;
                }
                n = pick_shortest(&SU, sa, sb, &vc0);
                if (n < 0) { rfail(e, "no up/down path from switch %d to switch %d (try another --root)", sa, sb); goto bad; }
                memcpy(tmp, SU.hops, sizeof(sf_hop) * (size_t)n);
                m = n;
                if (fallback == fcap) {
                    fcap = fcap ? 2 * fcap : 64;
                    rs->fallback_pairs = realloc(rs->fallback_pairs, sizeof(int) * 3 * (size_t)fcap);
                    if (!rs->fallback_pairs) { fprintf(stderr, "sanfab: out of memory\n"); exit(2); }
                }
                rs->fallback_pairs[3 * fallback] = a;
                rs->fallback_pairs[3 * fallback + 1] = b;
                rs->fallback_pairs[3 * fallback + 2] = bad;
                fallback++;
            }
            sf_routes_set(rs, a, b, 0, tmp, m, 0);
        }
    rs->fallbacks = fallback;
    rs->promise_minimal = fallback == 0;
    rs->promise_updown = 1;
    rs->root = o->root;
    rs->dir = dup_dir(&I);
    snprintf(rs->algo, sizeof rs->algo, "itb select=random-minimal root=%d%s tie=lower-id seed=%llu fallback=%s fallbacks=%d",
             o->root, o->root < 0 ? "(top-or-0)" : "", (unsigned long long)o->seed,
             o->fallback == SF_FALLBACK_REFUSE ? "refuse" : "updown", fallback);
    free(tmp); free(rr); free(dist);
    sel_free(&S); sel_free(&SI); sel_free(&SU); eng_free(&E); eng_free(&I); eng_free(&U);
    return rs;
bad:
    free(tmp); free(rr); free(dist);
    sel_free(&S); sel_free(&SI); sel_free(&SU); eng_free(&E); eng_free(&I); eng_free(&U);
    sf_routes_free(rs);
    return NULL;
}

/* ------------------------------------------------------------------ FM (Etsion et al. 2000) */

sf_routes *sf_route_fm(const sf_topo *t, const sf_route_opts *o, sf_err *e)
{
    eng E;
    if (eng_init(&E, t, SF_RULE_NONE, 1, o->root, 1)) { rfail(e, "network too large (%d switches)%.0d", t->nsw, 0); return NULL; }
    selctx S;
    sel_init(&S, &E, SF_SEL_SANCHO, o->seed, o->weight);
    sf_routes *rs = sf_routes_new(t, 0, 2);
    int N = t->nhost;
    int *map = sf_xcalloc((size_t)N, sizeof(int));
    for (int i = 0; i < N; i++) map[i] = i;
    if (o->map_random) {
        sf_rng r;
        sf_rng_seed(&r, o->seed ^ 0x5EED);
        sf_rng_shuffle(&r, map, N);
    }
    char *ban = sf_xcalloc((size_t)t->nch / 2 + 1, 1);
    sf_hop *first = sf_xcalloc((size_t)E.ns + 8, sizeof(sf_hop));
    /* pass 1: least-used minimal paths in logical order */
    for (int la = 0; la < N; la++)
        for (int lb = 0; lb < N; lb++) {
            if (la == lb) continue;
            int a = map[la], b = map[lb], vc0;
            int n = pick_shortest(&S, t->host[a].sw, t->host[b].sw, &vc0);
            if (n < 0) { rfail(e, "no path between hosts %d and %d", a, b); goto bad; }
            sf_routes_set(rs, a, b, 0, S.hops, n, 0);
            add_load(&S, S.hops, n, 1);
        }
    /* pass 2: second route avoiding the links of the first (fewest hops, then least used) */
    for (int la = 0; la < N; la++)
        for (int lb = 0; lb < N; lb++) {
            if (la == lb) continue;
            int a = map[la], b = map[lb], n1, vc0;
            const sf_hop *h1 = sf_routes_get(rs, a, b, 0, &n1, &vc0);
            memcpy(first, h1, sizeof(sf_hop) * (size_t)n1);
            for (int i = 0; i < n1; i++) ban[t->sw[first[i].sw].ch[first[i].port] >> 1] = 1;
            double eps = 1.0 / (S.total + 1.0);
            int n = pick_dijkstra(&S, t->host[a].sw, t->host[b].sw, ban, eps, &vc0);
            if (n < 0 || (n == 0 && n1 == 0)) {
                if (n1 > 0) rs->nondisjoint++;
                n = pick_dijkstra(&S, t->host[a].sw, t->host[b].sw, NULL, eps, &vc0);
            }
            for (int i = 0; i < n1; i++) ban[t->sw[first[i].sw].ch[first[i].port] >> 1] = 0;
            sf_routes_set(rs, a, b, 1, S.hops, n, 0);
            add_load(&S, S.hops, n, 1);
        }
    free(ban); free(first);
    rs->map = map;
    rs->dir = dup_dir(&E);
    {
        char sb[64] = "", rb[64] = "";
        if (o->map_random) snprintf(sb, sizeof sb, " seed=%llu", (unsigned long long)o->seed);
        if (o->fix == SF_FIX_ITB) snprintf(rb, sizeof rb, " root=%d%s tie=lower-id", o->root, o->root < 0 ? "(top-or-0)" : "");
        if (o->fix == SF_FIX_LAYERS) snprintf(rb, sizeof rb, " max-vcs=%d", o->maxvc);
        snprintf(rs->algo, sizeof rs->algo, "fm alternatives=2 map=%s deadlock=%s%s%s nondisjoint=%d",
                 o->map_random ? "random" : "identity", o->fix == SF_FIX_ITB ? "itb" : o->fix == SF_FIX_LAYERS ? "layers" : "none",
                 rb, sb, rs->nondisjoint);
    }
    rs->root = o->root;
    sel_free(&S);
    eng_free(&E);
    if (o->fix == SF_FIX_ITB && sf_fix_itb(rs, rs->dir, e)) { sf_routes_free(rs); return NULL; }
    if (o->fix == SF_FIX_LAYERS && sf_fix_layers(rs, o->maxvc, e)) { sf_routes_free(rs); return NULL; }
    return rs;
bad:
    free(ban); free(first); free(map);
    sel_free(&S); eng_free(&E);
    sf_routes_free(rs);
    return NULL;
}

/* ------------------------------------------------------------------ all shortest up/down routes (Clos) */

sf_routes *sf_route_allud(const sf_topo *t, const sf_route_opts *o, sf_err *e)
{
    int K = o->maxalt < 1 ? 1 : o->maxalt;
    eng E;
    if (eng_init(&E, t, SF_RULE_UD, 1, o->root, 1)) { rfail(e, "network too large (%d switches)%.0d", t->nsw, 0); return NULL; }
    sf_routes *rs = sf_routes_new(t, 1, K);
    sf_hop *stack = sf_xcalloc((size_t)E.ns + 8, sizeof(sf_hop));
    int *ust = sf_xcalloc((size_t)E.ns + 8, sizeof(int)), *ist = sf_xcalloc((size_t)E.ns + 8, sizeof(int));
    for (int a = 0; a < t->nsw; a++)
        for (int b = 0; b < t->nsw; b++) {
            int w = nhosts_of(t, a) * nhosts_of(t, b) - (a == b ? nhosts_of(t, a) : 0);
            if (w <= 0) continue;
            const int16_t *D = E.dist + (size_t)b * E.ns;
            int u0 = st_id(&E, a, 0, E.C);
            if (D[u0] < 0) { rfail(e, "no up/down path from switch %d to switch %d (try another --root)", a, b); goto bad; }
            if (D[u0] == 0) { sf_routes_set(rs, a, b, 0, NULL, 0, 0); continue; }
            /* DFS over the shortest DAG, ports in increasing order */
            int found = 0, sp = 0;
            ust[0] = u0; ist[0] = t->adjoff[a];
            while (sp >= 0 && found < K) {
                int u = ust[sp];
                if (D[u] == 0) { sf_routes_set(rs, a, b, found++, stack, sp, 0); sp--; continue; }
                int x = st_sw(&E, u);
                if (ist[sp] >= t->adjoff[x + 1]) { sp--; continue; }
                int c = t->adjch[ist[sp]++], vc, w2 = step(&E, u, c, &vc);
                if (w2 < 0 || D[w2] != D[u] - 1) continue;
                stack[sp] = (sf_hop){x, (int16_t)t->ch_fport[c], 0, 0};
                sp++;
                ust[sp] = w2;
                ist[sp] = t->adjoff[st_sw(&E, w2)];
            }
        }
    rs->promise_minimal = 0;
    rs->promise_updown = 1;
    rs->dir = dup_dir(&E);
    rs->root = o->root;
    snprintf(rs->algo, sizeof rs->algo, "clos-all max-alt=%d root=%d%s tie=lower-id", K, o->root, o->root < 0 ? "(top-or-0)" : "");
    free(stack); free(ust); free(ist);
    eng_free(&E);
    return rs;
bad:
    free(stack); free(ust); free(ist);
    eng_free(&E);
    sf_routes_free(rs);
    return NULL;
}

sf_routes *sf_route_lash(const sf_topo *t, const sf_route_opts *o, sf_err *e)
{
    eng E;
    if (eng_init(&E, t, SF_RULE_NONE, 1, o->root, 1)) { rfail(e, "network too large (%d switches)%.0d", t->nsw, 0); return NULL; }
    sf_select sel = o->sel;
    if (sel == SF_SEL_BALANCED || sel == SF_SEL_PCH) {
        eng_free(&E);
        snprintf(e->msg, sizeof e->msg, "lash: selection %s is not implemented (low, random, sancho)", sel_name(sel));
        return NULL;
    }
    sf_layers *L = sf_layers_new(t, o->maxvc);
    sf_routes *rs = route_pairs(&E, o, 1, sel, L, e);
    eng_free(&E);
    if (rs) rs->nvc = sf_layers_used(L) < 1 ? 1 : sf_layers_used(L);
    sf_layers_free(L);
    if (!rs) return NULL;
    rs->promise_minimal = 1;
    char sb[64] = "";
    if (sel == SF_SEL_RANDOM) snprintf(sb, sizeof sb, " seed=%llu", (unsigned long long)o->seed);
    snprintf(rs->algo, sizeof rs->algo, "lash select=%s layers=%d max-vcs=%d%s", sel_name(sel), rs->nvc, o->maxvc, sb);
    return rs;
}

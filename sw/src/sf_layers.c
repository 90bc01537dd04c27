/* sf_layers.c - layers of LASH (layered shortest path routing): each path is put in the lowest layer (VC) whose
 * channel dependency graph stays acyclic (sf_route.h: sf_fix_layers; sf_route_int.h: the engine's incremental use). */
#include <stdlib.h>
#include <string.h>
#include "sf_route.h"
#include "sf_route_int.h"
#include "sf_util.h"

typedef struct { int *v; int n, cap; } ivec;
static void ivec_push(ivec *a, int x)
{
    if (a->n == a->cap) { a->cap = a->cap ? a->cap * 2 : 4; a->v = realloc(a->v, sizeof(int) * (size_t)a->cap); if (!a->v) exit(2); }
    a->v[a->n++] = x;
}

/* One layer's channel dependency graph kept with a topological order (Pearce-Kelly dynamic topological sort):
 * an edge that agrees with the order is added without any search; otherwise only the nodes between the two ends
 * in the order are searched. Removing edges keeps the order valid, so a rolled-back path costs nothing. */
typedef struct {
    ivec *out, *in; int *ord, *at;
    sf_u64set no; /* edges known to close a cycle (edges are never removed for good) */
} layer;

typedef struct { int o, n; } ordnode;

static int ordnode_cmp(const void *a, const void *b)
{
    int x = ((const ordnode *)a)->o, y = ((const ordnode *)b)->o;
    return (x > y) - (x < y);
}

typedef struct { int *seen, stamp, *stk; ordnode *F, *B; int *pos; } lscratch;

static void layer_init(layer *g, int nn)
{
    g->out = sf_xcalloc((size_t)nn, sizeof(ivec));
    g->in = sf_xcalloc((size_t)nn, sizeof(ivec));
    g->ord = sf_xcalloc((size_t)nn, sizeof(int));
    g->at = sf_xcalloc((size_t)nn, sizeof(int));
    for (int i = 0; i < nn; i++) { g->ord[i] = i; g->at[i] = i; }
}

static void layer_free(layer *g, int nn)
{
    if (!g->out) return;
    for (int i = 0; i < nn; i++) { free(g->out[i].v); free(g->in[i].v); }
    free(g->out); free(g->in); free(g->ord); free(g->at); sf_u64set_free(&g->no);
}

static int has_edge(const ivec *g, int u, int w)
{
    for (int i = 0; i < g[u].n; i++)
        if (g[u].v[i] == w) return 1;
    return 0;
}

/* add edge u -> w unless it closes a cycle: 1 added, 0 refused (graph unchanged) */
static int layer_add(layer *g, int u, int w, lscratch *s)
{
    if (g->ord[u] > g->ord[w]) {
        int lb = g->ord[w], ub = g->ord[u], nf = 0, nb = 0, sp = 0;
        int sf = ++s->stamp;
        s->stk[sp++] = w; s->seen[w] = sf;
        while (sp) { /* forward from w among nodes ordered before u */
            int x = s->stk[--sp];
            s->F[nf++] = (ordnode){g->ord[x], x};
            for (int i = 0; i < g->out[x].n; i++) {
                int y = g->out[x].v[i];
                if (y == u) return 0;
                if (g->ord[y] < ub && s->seen[y] != sf) { s->seen[y] = sf; s->stk[sp++] = y; }
            }
        }
        int sb = ++s->stamp;
        s->stk[sp++] = u; s->seen[u] = sb;
        while (sp) { /* backward from u among nodes ordered after w */
            int x = s->stk[--sp];
            s->B[nb++] = (ordnode){g->ord[x], x};
            for (int i = 0; i < g->in[x].n; i++) {
                int y = g->in[x].v[i];
                if (g->ord[y] > lb && s->seen[y] != sb) { s->seen[y] = sb; s->stk[sp++] = y; }
            }
        }
        qsort(s->F, (size_t)nf, sizeof(ordnode), ordnode_cmp);
        qsort(s->B, (size_t)nb, sizeof(ordnode), ordnode_cmp);
        int np = 0;
        for (int i = 0; i < nb; i++) s->pos[np++] = s->B[i].o;
        for (int i = 0; i < nf; i++) s->pos[np++] = s->F[i].o;
        ordnode *P = s->F + nf; /* reuse: sort the freed positions */
        for (int i = 0; i < np; i++) P[i] = (ordnode){s->pos[i], 0};
        qsort(P, (size_t)np, sizeof(ordnode), ordnode_cmp);
        int k = 0;
        for (int i = 0; i < nb; i++, k++) { g->ord[s->B[i].n] = P[k].o; g->at[P[k].o] = s->B[i].n; }
        for (int i = 0; i < nf; i++, k++) { g->ord[s->F[i].n] = P[k].o; g->at[P[k].o] = s->F[i].n; }
    }
    ivec_push(&g->out[u], w);
    ivec_push(&g->in[w], u);
    return 1;
}

struct sf_layers { const sf_topo *t; layer *g; int maxvc, nn, used, placed; lscratch s; int *added; };

static void lstate_init(sf_layers *S, const sf_topo *t, int maxvc)
{
    memset(S, 0, sizeof *S);
    if (maxvc < 1) maxvc = 1;
    if (maxvc > 64) maxvc = 64;
    int nn = t->nch;
    S->t = t; S->maxvc = maxvc; S->nn = nn;
    S->g = sf_xcalloc((size_t)maxvc, sizeof(layer));
    S->s = (lscratch){sf_xcalloc((size_t)nn, sizeof(int)), 0, sf_xcalloc((size_t)nn + 1, sizeof(int)),
                      sf_xcalloc(2 * (size_t)nn + 2, sizeof(ordnode)), sf_xcalloc((size_t)nn + 1, sizeof(ordnode)),
                      sf_xcalloc(2 * (size_t)nn + 2, sizeof(int))};
    S->added = sf_xcalloc(64 + 2 * (size_t)nn, sizeof(int));
}

static void lstate_free(sf_layers *S)
{
    for (int L = 0; L < S->maxvc; L++) layer_free(&S->g[L], S->nn);
    free(S->g); free(S->s.seen); free(S->s.stk); free(S->s.F); free(S->s.B); free(S->s.pos); free(S->added);
}

int sf_layers_place(sf_layers *S, sf_routes *rs, int id, sf_err *e)
{
    const sf_topo *t = S->t;
    sf_hop *h = rs->hops + rs->poff[id];
    int n = rs->plen[id], placed = -1;
    for (int L = 0; L < S->maxvc && placed < 0; L++) {
        layer *g = &S->g[L];
        if (!g->out) layer_init(g, S->nn);
        int na = 0, ok = 1, prev = -1;
        for (int i = 0; i < n && ok; i++) {
            if (h[i].itb) { prev = -1; continue; }
            int c = t->sw[h[i].sw].ch[h[i].port];
            if (prev >= 0 && !has_edge(g->out, prev, c)) {
                uint64_t key = (uint64_t)prev << 32 | (uint32_t)c;
                if (sf_u64set_has(&g->no, key)) ok = 0;
                else if (!layer_add(g, prev, c, &S->s)) {
                    ok = 0;
                    /* refused before this path added anything: the layer's own edges close the cycle, and a layer
                     * only gains edges for good, so this edge stays refused */
                    if (!na) sf_u64set_add(&g->no, key);
                } else { S->added[2 * na] = prev; S->added[2 * na + 1] = c; na++; }
            }
            prev = c;
        }
        if (ok) placed = L;
        else
            for (int k = na - 1; k >= 0; k--) { /* roll back: the edges were appended last */
                g->out[S->added[2 * k]].n--;
                g->in[S->added[2 * k + 1]].n--;
            }
    }
    if (placed < 0) {
        int from = n ? h[0].sw : -1, to = n ? t->ch_to[t->sw[h[n - 1].sw].ch[h[n - 1].port]] : -1;
        snprintf(e->msg, sizeof e->msg, "layers: more than %d layers needed: the path from switch %d to switch %d fits in "
                 "none of them (stopped after placing %d paths; raise --max-vcs)", S->maxvc, from, to, S->placed);
        return -1;
    }
    for (int i = 0; i < n; i++) h[i].vc = (int8_t)placed;
    rs->pvc0[id] = (int8_t)placed;
    if (placed + 1 > S->used) S->used = placed + 1;
    S->placed++;
    return 0;
}

int sf_fix_layers(sf_routes *rs, int maxvc, sf_err *e)
{
    sf_layers S;
    lstate_init(&S, rs->t, maxvc);
    int rc = 0;
    for (int id = 0; id < rs->npath && !rc; id++) rc = sf_layers_place(&S, rs, id, e);
    if (!rc) rs->nvc = S.used < 1 ? 1 : S.used;
    lstate_free(&S);
    return rc;
}

sf_layers *sf_layers_new(const sf_topo *t, int maxvc)
{
    sf_layers *S = sf_xcalloc(1, sizeof *S);
    lstate_init(S, t, maxvc);
    return S;
}

int sf_layers_used(const sf_layers *S) { return S->used; }

void sf_layers_free(sf_layers *S)
{
    lstate_free(S);
    free(S);
}


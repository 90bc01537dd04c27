/* sf_tree.c - trees of switch boxes (the Maestro network of Yamagiwa et al. 2000, sec. 4): the `tree` generator
 * and the tree check that gives every box its up port (sf_topo.h; docs/topology.md, "Trees of switch boxes"). */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sf_topo.h"
#include "sf_util.h"

/* the most boxes and hosts a generated tree may have (the topology's id limit is 2^18) */
#define TREE_MAX_SW 65536LL
#define TREE_MAX_HOST 262144LL

static sf_topo *gen_fail(sf_err *e, const char *fmt, ...)
{
    if (!e) return NULL;
    char buf[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    snprintf(e->msg, sizeof e->msg, "generator: tree: %s", buf);
    return NULL;
}

sf_topo *sf_gen_tree(int levels, int p, int f, int h, sf_err *e)
{
    if (levels < 1 || levels > SF_TREE_MAX_LEVELS)
        return gen_fail(e, "levels must be 1..%d, got %d", SF_TREE_MAX_LEVELS, levels);
    if (p < 1 || p > SF_MAX_PORTS) return gen_fail(e, "ports must be 1..%d, got %d", SF_MAX_PORTS, p);
    if (h < 0) return gen_fail(e, "hosts must be 0 or more, got %d", h);
    if (levels == 1) {
        if (h > p) return gen_fail(e, "%d hosts do not fit on one box of %d ports", h, p);
    } else {
        if (f < 1) return gen_fail(e, "fanout must be 1 or more, got %d", f);
        if (f > p) return gen_fail(e, "fanout %d does not fit on the root box of %d ports (at most %d children)", f, p, p);
        if (levels > 2 && f > p - 1)
            return gen_fail(e, "fanout %d does not fit on an inner box of %d ports: its last port (%d) goes up to its parent, "
                            "so at most %d children", f, p, p - 1, p - 1);
        if (h > p - 1)
            return gen_fail(e, "%d hosts do not fit on a leaf box of %d ports: its last port (%d) goes up to its parent, "
                            "so at most %d hosts", h, p, p - 1, p - 1);
    }
    /* level l holds f^l boxes; the boxes of level l start at id off[l] */
    long long off[SF_TREE_MAX_LEVELS + 1], width = 1;
    off[0] = 0;
    for (int l = 0; l < levels; l++) {
        off[l + 1] = off[l] + width;
        if (l + 1 < levels) width *= f;
    }
    long long nsw = off[levels], nhost = width * h;
    if (nsw > TREE_MAX_SW || nhost > TREE_MAX_HOST)
        return gen_fail(e, "too large: %lld boxes and %lld hosts (at most %lld boxes and %lld hosts)", nsw, nhost, TREE_MAX_SW,
                        TREE_MAX_HOST);
    sf_topo *t = sf_topo_new();
    if (levels == 1) snprintf(t->name, sizeof t->name, "tree levels=1 ports=%d hosts=%d", p, h);
    else snprintf(t->name, sizeof t->name, "tree levels=%d ports=%d fanout=%d hosts=%d", levels, p, f, h);
    for (int l = 0; l < levels; l++)
        for (long long i = off[l]; i < off[l + 1]; i++)
            if (sf_topo_add_switch(t, (int)i, p, l, "generator", 0, e)) goto bad;
    /* child c of the i-th box of level l is the (i*f + c)-th box of level l+1: parent port c, child port p-1 */
    for (int l = 0; l + 1 < levels; l++)
        for (long long i = 0; i < off[l + 1] - off[l]; i++)
            for (int c = 0; c < f; c++)
                if (sf_topo_add_link(t, (int)(off[l] + i), c, (int)(off[l + 1] + i * f + c), p - 1, "generator", 0, e)) goto bad;
    /* hosts leaf by leaf: the j-th leaf holds hosts j*h .. j*h+h-1 on ports 0..h-1 */
    for (long long j = 0; j < width; j++)
        for (int k = 0; k < h; k++)
            if (sf_topo_add_host(t, (int)(j * h + k), (int)(off[levels - 1] + j), k, "generator", 0, e)) goto bad;
    if (sf_topo_finish(t, "generator", e)) goto bad;
    return t;
bad:
    sf_topo_free(t);
    return NULL;
}

/* ------------------------------------------------------------------ the tree check */

static int tree_fail(sf_err *e, const char *file, int line, const char *fmt, ...)
{
    if (!e) return -1;
    char buf[500];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (line > 0) snprintf(e->msg, sizeof e->msg, "%s:%d: %s", file ? file : "topology", line, buf);
    else snprintf(e->msg, sizeof e->msg, "topology: %s", buf);
    return -1;
}

static int link_line(const sf_topo *t, int l) { return t->sw[t->ch_from[2 * l]].peer[t->ch_fport[2 * l]].line; }

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Writes the cycle through path[0..n) (the boxes of a cycle in order, closing back to path[0]) into buf as
 * "a-b-...-a", starting at its lowest box and going first towards the lower of that box's two neighbours. */
static void cycle_text(char *buf, size_t len, const int *path, int n)
{
    int m = 0;
    for (int i = 1; i < n; i++)
        if (path[i] < path[m]) m = i;
    int dir = path[(m + 1) % n] <= path[(m + n - 1) % n] ? 1 : n - 1;
    size_t u = 0;
    buf[0] = 0;
    for (int k = 0; k <= n; k++) {
        int s = path[(m + (size_t)k * dir) % n];
        char w[24];
        snprintf(w, sizeof w, "%s%d", k ? "-" : "", s);
        if (u + strlen(w) + 5 >= len) { snprintf(buf + u, len - u, "-..."); return; }
        memcpy(buf + u, w, strlen(w) + 1);
        u += strlen(w);
    }
}

/* union-find: the representative of x's tree, halving the path on the way */
static int find(int *comp, int x)
{
    while (comp[x] != x) {
        comp[x] = comp[comp[x]];
        x = comp[x];
    }
    return x;
}

int sf_topo_tree(const sf_topo *t, const char *file, int *up_port, int *root, sf_err *e)
{
    const int n = t->nsw, nl = t->nch / 2;
    const char *tail = "a Maestro network is a tree of switch boxes";
    int r = -1;
    for (int s = 0; s < n; s++)
        if (t->sw[s].level == 0) {
            if (r >= 0)
                return tree_fail(e, file, t->sw[s].line, "switch %d is a second level-0 box (the first is switch %d); %s with one root",
                                 s, r, tail);
            r = s;
        }
    if (r < 0) r = 0;
    /* the links in the order of their lines (generated topologies: in channel order); each joins two trees of the
     * forest built so far, or closes a cycle */
    int64_t *ord = sf_xcalloc((size_t)nl, sizeof *ord);
    for (int l = 0; l < nl; l++) ord[l] = ((int64_t)link_line(t, l) << 32) | l;
    qsort(ord, (size_t)nl, sizeof *ord, cmp_i64);
    int *comp = sf_xcalloc((size_t)n, sizeof(int)), *in = sf_xcalloc((size_t)nl, sizeof(int));
    int *prev = sf_xcalloc((size_t)n, sizeof(int)), *q = sf_xcalloc((size_t)n, sizeof(int));
    for (int s = 0; s < n; s++) comp[s] = s;
    int rc = 0;
    for (int k = 0; k < nl && !rc; k++) {
        const int l = (int)(ord[k] & 0xffffffff), a = t->ch_from[2 * l], b = t->ch_to[2 * l], line = link_line(t, l);
        int ca = find(comp, a), cb = find(comp, b);
        if (ca != cb) {
            comp[ca] = cb;
            in[l] = 1;
            continue;
        }
        /* a second link between a and b, or a cycle: the path from a to b over the links taken so far */
        for (int m = 0; m < nl; m++)
            if (in[m] && ((t->ch_from[2 * m] == a && t->ch_to[2 * m] == b) || (t->ch_from[2 * m] == b && t->ch_to[2 * m] == a))) {
                rc = tree_fail(e, file, line, "link %d:%d %d:%d is a second link between boxes %d and %d (first at line %d); %s",
                               a, t->ch_fport[2 * l], b, t->ch_tport[2 * l], a, b, link_line(t, m), tail);
                break;
            }
        if (rc) break;
        for (int s = 0; s < n; s++) prev[s] = -2;
        int qh = 0, qt = 0;
        prev[a] = -1;
        q[qt++] = a;
        while (qh < qt && prev[b] == -2) {
            int x = q[qh++];
            for (int i = t->adjoff[x]; i < t->adjoff[x + 1]; i++) {
                int c = t->adjch[i], y = t->ch_to[c];
                if (in[c / 2] && prev[y] == -2) { prev[y] = x; q[qt++] = y; }
            }
        }
        int np = 0;
        for (int x = b; x >= 0; x = prev[x]) q[np++] = x; /* b .. a */
        char cyc[300];
        cycle_text(cyc, sizeof cyc, q, np);
        rc = tree_fail(e, file, line, "link %d:%d %d:%d closes a cycle of boxes %s; %s", a, t->ch_fport[2 * l], b,
                       t->ch_tport[2 * l], cyc, tail);
    }
    if (!rc) {
        /* every box reached from the root: the port towards the root is the one it was reached by */
        for (int s = 0; s < n; s++) prev[s] = -2;
        int qh = 0, qt = 0;
        prev[r] = -1;
        up_port[r] = -1;
        q[qt++] = r;
        while (qh < qt) {
            int x = q[qh++];
            for (int i = t->adjoff[x]; i < t->adjoff[x + 1]; i++) {
                int c = t->adjch[i], y = t->ch_to[c];
                if (prev[y] == -2) { prev[y] = x; up_port[y] = t->ch_tport[c]; q[qt++] = y; }
            }
        }
        for (int s = 0; s < n && !rc; s++)
            if (prev[s] == -2)
                rc = tree_fail(e, file, t->sw[s].line, "disconnected network: switch %d cannot be reached from switch %d; %s", s, r,
                               tail);
    }
    if (!rc && root) *root = r;
    free(ord); free(comp); free(in); free(prev); free(q);
    return rc;
}

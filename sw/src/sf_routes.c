/* sf_routes.c - route set container, checks (deadlock, connectivity, minimality) and metrics. */
#include <stdlib.h>
#include <string.h>
#include "sf_route.h"
#include "sf_util.h"

static void *xrealloc(void *p, size_t sz)
{
    p = realloc(p, sz ? sz : 1);
    if (!p) { fprintf(stderr, "sanfab: out of memory\n"); exit(2); }
    return p;
}

sf_routes *sf_routes_new(const sf_topo *t, int per_switch, int nalt)
{
    sf_routes *rs = sf_xcalloc(1, sizeof *rs);
    rs->t = t;
    rs->per_switch = per_switch;
    rs->nalt = nalt < 1 ? 1 : nalt;
    size_t n = (size_t)(per_switch ? t->nsw : t->nhost);
    size_t np = n * n * (size_t)rs->nalt;
    rs->index = sf_xcalloc(np, sizeof(int));
    for (size_t i = 0; i < np; i++) rs->index[i] = -1;
    rs->nvc = 1;
    rs->root = -1;
    return rs;
}

void sf_routes_free(sf_routes *rs)
{
    if (!rs) return;
    free(rs->index); free(rs->poff); free(rs->plen); free(rs->pvc0); free(rs->hops);
    free(rs->dir); free(rs->map); free(rs->fallback_pairs);
    free(rs);
}

int sf_routes_set(sf_routes *rs, int a, int b, int alt, const sf_hop *h, int n, int vc0)
{
    if (rs->npath == rs->pcap) {
        rs->pcap = rs->pcap ? rs->pcap * 2 : 1024;
        rs->poff = xrealloc(rs->poff, sizeof(int) * (size_t)rs->pcap);
        rs->plen = xrealloc(rs->plen, sizeof(int) * (size_t)rs->pcap);
        rs->pvc0 = xrealloc(rs->pvc0, (size_t)rs->pcap);
    }
    /* allocated with the first path, even an empty one (hosts on one switch): a NULL hops array
     * would make sf_routes_get answer "no route" for every zero-hop path */
    if (!rs->hops || rs->nhops + (size_t)n > rs->hcap) {
        if (!rs->hcap) rs->hcap = 4096;
        while (rs->nhops + (size_t)n > rs->hcap) rs->hcap *= 2;
        rs->hops = xrealloc(rs->hops, sizeof(sf_hop) * rs->hcap);
    }
    int id = rs->npath++;
    rs->poff[id] = (int)rs->nhops;
    rs->plen[id] = n;
    rs->pvc0[id] = (int8_t)vc0;
    if (n) memcpy(rs->hops + rs->nhops, h, sizeof(sf_hop) * (size_t)n);
    rs->nhops += (size_t)n;
    for (int i = 0; i < n; i++)
        if (h[i].vc + 1 > rs->nvc) rs->nvc = h[i].vc + 1;
    if (vc0 + 1 > rs->nvc) rs->nvc = vc0 + 1;
    size_t N = (size_t)(rs->per_switch ? rs->t->nsw : rs->t->nhost);
    rs->index[((size_t)a * N + (size_t)b) * (size_t)rs->nalt + (size_t)alt] = id;
    return id;
}

const sf_hop *sf_routes_get(const sf_routes *rs, int src, int dst, int alt, int *n, int *vc0)
{
    int a = src, b = dst;
    size_t N = (size_t)rs->t->nhost;
    if (rs->per_switch) { a = rs->t->host[src].sw; b = rs->t->host[dst].sw; N = (size_t)rs->t->nsw; }
    if (alt < 0 || alt >= rs->nalt) return NULL;
    int id = rs->index[((size_t)a * N + (size_t)b) * (size_t)rs->nalt + (size_t)alt];
    if (id < 0) return NULL;
    *n = rs->plen[id];
    if (vc0) *vc0 = rs->pvc0[id];
    return rs->hops + rs->poff[id];
}

int sf_routes_next(const sf_routes *rs, sf_route_it *it)
{
    int H = rs->t->nhost;
    /* it->h == NULL: a fresh cursor, start at (0, 0, 0); else move past the current path */
    int s = it->src, d = it->dst, alt = it->h ? it->alt + 1 : it->alt;
    for (; s < H; s++, d = 0, alt = 0)
        for (; d < H; d++, alt = 0) {
            if (s == d) continue;
            for (; alt < rs->nalt; alt++) {
                const sf_hop *h = sf_routes_get(rs, s, d, alt, &it->n, &it->vc0);
                if (!h) continue;
                it->src = s; it->dst = d; it->alt = alt; it->h = h;
                return 1;
            }
        }
    it->src = H; it->dst = 0; it->alt = 0; it->h = NULL; it->n = 0;
    return 0;
}

int sf_path_links(const sf_hop *h, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++) k += !h[i].itb;
    return k;
}

/* ------------------------------------------------------------------ well-formedness */

int sf_check_routes(const sf_routes *rs, sf_err *e)
{
    const sf_topo *t = rs->t;
    for (int s = 0; s < t->nhost; s++)
        for (int d = 0; d < t->nhost; d++) {
            if (s == d) continue;
            int n, vc0;
            const sf_hop *h = sf_routes_get(rs, s, d, 0, &n, &vc0);
            if (!h) {
                snprintf(e->msg, sizeof e->msg, "no route from host %d to host %d (not connected)", s, d);
                return -1;
            }
            for (int alt = 0; alt < rs->nalt; alt++) {
                h = sf_routes_get(rs, s, d, alt, &n, &vc0);
                if (!h) continue;
                int cur = t->host[s].sw;
                if (vc0 < 0 || vc0 >= rs->nvc) goto badvc;
                for (int i = 0; i < n; i++) {
                    if (h[i].sw != cur) {
                        snprintf(e->msg, sizeof e->msg, "route %d->%d alt %d: hop %d is at switch %d, packet is at switch %d",
                                 s, d, alt, i, h[i].sw, cur);
                        return -1;
                    }
                    if (h[i].port < 0 || h[i].port >= t->sw[cur].nports) {
                        snprintf(e->msg, sizeof e->msg, "route %d->%d alt %d: hop %d port %d out of range on switch %d",
                                 s, d, alt, i, h[i].port, cur);
                        return -1;
                    }
                    if (h[i].vc < 0 || h[i].vc >= rs->nvc) goto badvc;
                    const sf_peer *p = &t->sw[cur].peer[h[i].port];
                    if (h[i].itb) {
                        if (p->kind != SF_PEER_HOST || i == n - 1) {
                            snprintf(e->msg, sizeof e->msg, "route %d->%d alt %d: ITB at hop %d is not a host port followed by more hops",
                                     s, d, alt, i);
                            return -1;
                        }
                    } else {
                        if (p->kind != SF_PEER_SWITCH) {
                            snprintf(e->msg, sizeof e->msg, "route %d->%d alt %d: hop %d leaves switch %d by port %d, which is not a link",
                                     s, d, alt, i, cur, h[i].port);
                            return -1;
                        }
                        cur = p->id;
                    }
                }
                if (cur != t->host[d].sw) {
                    snprintf(e->msg, sizeof e->msg, "route %d->%d alt %d ends at switch %d, destination host is on switch %d",
                             s, d, alt, cur, t->host[d].sw);
                    return -1;
                }
                continue;
            badvc:
                snprintf(e->msg, sizeof e->msg, "route %d->%d alt %d: VC out of range 0..%d", s, d, alt, rs->nvc - 1);
                return -1;
            }
        }
    return 0;
}

long sf_count_nonminimal(const sf_routes *rs, long *total)
{
    const sf_topo *t = rs->t;
    int *dist = sf_topo_distances(t);
    long bad = 0, tot = 0;
    int N = rs->per_switch ? t->nsw : t->nhost;
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++)
            for (int alt = 0; alt < rs->nalt; alt++) {
                int id = rs->index[((size_t)a * N + b) * rs->nalt + alt];
                if (id < 0) continue;
                int sa = rs->per_switch ? a : t->host[a].sw, sb = rs->per_switch ? b : t->host[b].sw;
                tot++;
                if (sf_path_links(rs->hops + rs->poff[id], rs->plen[id]) != dist[(size_t)sa * t->nsw + sb]) bad++;
            }
    free(dist);
    if (total) *total = tot;
    return bad;
}

long sf_count_downup(const sf_routes *rs, const int8_t *dir)
{
    const sf_topo *t = rs->t;
    long bad = 0;
    for (int id = 0; id < rs->npath; id++) {
        const sf_hop *h = rs->hops + rs->poff[id];
        int down = 0;
        for (int i = 0; i < rs->plen[id]; i++) {
            if (h[i].itb) { down = 0; continue; }
            int c = t->sw[h[i].sw].ch[h[i].port];
            if (dir[c] && down) bad++;
            if (!dir[c]) down = 1;
        }
    }
    return bad;
}

/* source host, destination host and alternative of path id (first match; per-switch sets give a host pair) */
static void path_pair(const sf_routes *rs, int id, int *src, int *dst, int *alt)
{
    int N = rs->per_switch ? rs->t->nsw : rs->t->nhost;
    *src = *dst = *alt = -1;
    for (size_t i = 0; i < (size_t)N * N * (size_t)rs->nalt; i++)
        if (rs->index[i] == id) {
            int a = (int)(i / ((size_t)rs->nalt * N)), b = (int)(i / (size_t)rs->nalt % (size_t)N);
            *alt = (int)(i % (size_t)rs->nalt);
            if (rs->per_switch) { /* first hosts of those switches */
                const sf_topo *t = rs->t;
                *src = t->hoff[a] < t->hoff[a + 1] ? t->hlist[t->hoff[a]] : -1;
                *dst = t->hoff[b] < t->hoff[b + 1] ? t->hlist[t->hoff[b]] : -1;
                if (a == b && t->hoff[a] + 1 < t->hoff[a + 1]) *dst = t->hlist[t->hoff[a] + 1];
            } else { *src = a; *dst = b; }
            return;
        }
}

long sf_check_updown(const sf_routes *rs, const int8_t *dir, char *msg, size_t len)
{
    const sf_topo *t = rs->t;
    long bad = 0;
    for (int id = 0; id < rs->npath; id++) {
        const sf_hop *h = rs->hops + rs->poff[id];
        int down = 0, prevsw = -1, hit = -1;
        for (int i = 0; i < rs->plen[id] && hit < 0; i++) {
            if (h[i].itb) { down = 0; continue; }
            int c = t->sw[h[i].sw].ch[h[i].port];
            if (dir[c] && down) hit = i;
            else { if (!dir[c]) down = 1; prevsw = h[i].sw; }
        }
        if (hit < 0) continue;
        if (!bad++ && msg && len) {
            int s, d, alt;
            path_pair(rs, id, &s, &d, &alt);
            snprintf(msg, len, "route %d->%d alt %d turns down->up at switch %d (arrives down from switch %d, leaves up "
                     "to switch %d by port %d) without an ITB", s, d, alt, h[hit].sw, prevsw,
                     t->ch_to[t->sw[h[hit].sw].ch[h[hit].port]], h[hit].port);
        }
    }
    return bad;
}

long sf_check_layers(const sf_routes *rs, sf_rule rule, const int8_t *cls, char *msg, size_t len)
{
    const sf_topo *t = rs->t;
    long bad = 0;
    for (int id = 0; id < rs->npath; id++) {
        const sf_hop *h = rs->hops + rs->poff[id];
        int pv = rs->pvc0[id], pc = -1;
        char why[300] = "";
        for (int i = 0; i < rs->plen[id] && !why[0]; i++) {
            if (h[i].itb) { pc = -1; pv = 127; continue; } /* reinjected: starts afresh */
            int c = t->sw[h[i].sw].ch[h[i].port];
            if (h[i].vc > pv)
                snprintf(why, sizeof why, "climbs from VC %d to VC %d at switch %d (layers may only descend)", pv, h[i].vc, h[i].sw);
            else if (pc >= 0 && h[i].vc == pv && !sf_rule_allows(rule, pv, cls[pc], cls[c]))
                snprintf(why, sizeof why, "turns from a class-%d channel to a class-%d channel at switch %d inside layer %d, "
                         "which the rule forbids", cls[pc], cls[c], h[i].sw, pv);
            pv = h[i].vc;
            pc = c;
        }
        if (!why[0]) continue;
        if (!bad++ && msg && len) {
            int s, d, alt;
            path_pair(rs, id, &s, &d, &alt);
            snprintf(msg, len, "route %d->%d alt %d %s", s, d, alt, why);
        }
    }
    return bad;
}

long sf_check_onevc(const sf_routes *rs, char *msg, size_t len)
{
    long bad = 0;
    for (int id = 0; id < rs->npath; id++) {
        const sf_hop *h = rs->hops + rs->poff[id];
        int pv = rs->pvc0[id], hit = -1;
        for (int i = 0; i < rs->plen[id] && hit < 0; i++)
            if (h[i].vc != pv) hit = i;
        if (hit < 0) continue;
        if (!bad++ && msg && len) {
            int s, d, alt;
            path_pair(rs, id, &s, &d, &alt);
            snprintf(msg, len, "route %d->%d alt %d changes from VC %d to VC %d at switch %d", s, d, alt,
                     hit ? h[hit - 1].vc : pv, h[hit].vc, h[hit].sw);
        }
    }
    return bad;
}

/* ------------------------------------------------------------------ deadlock: channel dependency graph */

static void describe_node(const sf_topo *t, int nvc, int node, char *buf, size_t len)
{
    int c = node / nvc, v = node % nvc;
    snprintf(buf, len, "%d:%d->%d:%d vc%d", t->ch_from[c], t->ch_fport[c], t->ch_to[c], t->ch_tport[c], v);
}

int sf_check_deadlock(const sf_routes *rs, char *msg, size_t msglen)
{
    const sf_topo *t = rs->t;
    int nvc = rs->nvc;
    int nn = t->nch * nvc;
    sf_u64set hs = {0};
    for (int id = 0; id < rs->npath; id++) {
        const sf_hop *h = rs->hops + rs->poff[id];
        int prev = -1;
        for (int i = 0; i < rs->plen[id]; i++) {
            if (h[i].itb) { prev = -1; continue; }
            int c = t->sw[h[i].sw].ch[h[i].port];
            if (c < 0) { prev = -1; continue; }
            int node = c * nvc + h[i].vc;
            if (prev >= 0) sf_u64set_add(&hs, (uint64_t)prev << 32 | (uint32_t)node);
            prev = node;
        }
    }
    /* CSR adjacency */
    int *deg = sf_xcalloc((size_t)nn + 1, sizeof(int));
    for (size_t i = 0; i < hs.cap; i++)
        if (hs.k[i] != UINT64_MAX) deg[hs.k[i] >> 32]++;
    int *off = sf_xcalloc((size_t)nn + 1, sizeof(int));
    for (int i = 0; i < nn; i++) off[i + 1] = off[i] + deg[i];
    int *adj = sf_xcalloc(hs.n, sizeof(int)), *fill = sf_xcalloc((size_t)nn, sizeof(int));
    for (size_t i = 0; i < hs.cap; i++)
        if (hs.k[i] != UINT64_MAX) {
            int u = (int)(hs.k[i] >> 32), v = (int)(hs.k[i] & 0xffffffffu);
            adj[off[u] + fill[u]++] = v;
        }
    sf_u64set_free(&hs); free(deg); free(fill);
    /* iterative DFS, colours 0 white 1 grey 2 black */
    char *col = sf_xcalloc((size_t)nn, 1);
    int *stk = sf_xcalloc((size_t)nn, sizeof(int)), *it = sf_xcalloc((size_t)nn, sizeof(int));
    int found = 0;
    for (int r = 0; r < nn && !found; r++) {
        if (col[r]) continue;
        int sp = 0;
        stk[sp++] = r; col[r] = 1; it[r] = off[r];
        while (sp && !found) {
            int u = stk[sp - 1];
            if (it[u] < off[u + 1]) {
                int v = adj[it[u]++];
                if (col[v] == 0) { col[v] = 1; it[v] = off[v]; stk[sp++] = v; }
                else if (col[v] == 1) {
                    /* cycle: v ... u -> v */
                    found = 1;
                    if (msg && msglen) {
                        int k = sp - 1;
                        while (stk[k] != v) k--;
                        size_t used = (size_t)snprintf(msg, msglen, "cycle of %d channels:", sp - k);
                        for (int j = k; j < sp && used < msglen; j++) {
                            char b[96];
                            describe_node(t, nvc, stk[j], b, sizeof b);
                            used += (size_t)snprintf(msg + used, msglen - used, " %s ->", b);
                        }
                        if (used < msglen) {
                            char b[96];
                            describe_node(t, nvc, v, b, sizeof b);
                            snprintf(msg + used, msglen - used, " %s", b);
                        }
                    }
                }
            } else {
                col[u] = 2;
                sp--;
            }
        }
    }
    if (!found && msg && msglen) snprintf(msg, msglen, "no cycle: channel dependency graph is acyclic");
    free(col); free(stk); free(it); free(off); free(adj);
    return found;
}

/* ------------------------------------------------------------------ everything a set promises */

static const char *rule_text(int r)
{
    static const char *nm[] = {"none", "(UD)*", "(UD-DU)*", "UD-(DU)*", "(L-turn)*"};
    return r >= 0 && r <= 4 ? nm[r] : "?";
}

int sf_verify(const sf_routes *rs, int allow_deadlock, FILE *log, const char *prefix)
{
    sf_err e = {""};
    int bad = 0;
    if (!prefix) prefix = "";
    char *msg = sf_xcalloc(4096, 1);
    if (sf_check_routes(rs, &e)) {
        if (log) fprintf(log, "%scheck: %s\n", prefix, e.msg);
        free(msg);
        return 1; /* the other checks assume well-formed routes */
    }
    if (sf_check_deadlock(rs, msg, 4096)) {
        if (log) fprintf(log, "%scheck: deadlock possible: %s\n", prefix, msg);
        if (!allow_deadlock) bad++;
    } else if (log) fprintf(log, "%scheck: deadlock-free (%d VC%s)\n", prefix, rs->nvc, rs->nvc > 1 ? "s" : "");
    if (rs->promise_minimal) {
        long tot, nm = sf_count_nonminimal(rs, &tot);
        if (nm) { if (log) fprintf(log, "%scheck: %ld of %ld routes promised minimal are not\n", prefix, nm, tot); bad++; }
        else if (log) fprintf(log, "%scheck: minimal as promised (%ld routes)\n", prefix, tot);
    }
    if (rs->promise_updown && rs->dir) {
        long du = sf_check_updown(rs, rs->dir, msg, 4096);
        if (du) { if (log) fprintf(log, "%scheck: up*/down* (root %d, tie lower id) broken by %ld routes: %s\n", prefix, rs->root, du, msg); bad++; }
        else if (log) fprintf(log, "%scheck: up*/down* legal (root %d, tie lower id)\n", prefix, rs->root);
    }
    if (rs->promise_onevc && rs->nvc > 1) { /* one VC: nothing to check */
        long nb = sf_check_onevc(rs, msg, 4096);
        if (nb) { if (log) fprintf(log, "%scheck: one VC per route (updown) broken by %ld routes: %s\n", prefix, nb, msg); bad++; }
        else if (log) fprintf(log, "%scheck: every route keeps the VC it starts on\n", prefix);
    }
    if (rs->rule != SF_RULE_NONE) {
        int8_t *cls = sf_channel_classes(rs->t, (sf_rule)rs->rule, rs->root);
        long nb = sf_check_layers(rs, (sf_rule)rs->rule, cls, msg, 4096);
        free(cls);
        if (nb) { if (log) fprintf(log, "%scheck: DL rule %s (root %d) broken by %ld routes: %s\n", prefix, rule_text(rs->rule), rs->root, nb, msg); bad++; }
        else if (log) fprintf(log, "%scheck: DL rule %s holds in every layer, layers never increase (root %d)\n", prefix, rule_text(rs->rule), rs->root);
    }
    free(msg);
    return bad;
}

/* ------------------------------------------------------------------ metrics */

void sf_stats_compute(const sf_routes *rs, sf_stats *s)
{
    const sf_topo *t = rs->t;
    memset(s, 0, sizeof *s);
    s->hosts = t->nhost; s->switches = t->nsw; s->links = t->nch / 2; s->nvc = rs->nvc; s->nalt = rs->nalt;
    s->link_routes = sf_xcalloc((size_t)t->nch, sizeof(long));
    int *dist = sf_topo_distances(t);
    double sum = 0, sumr = 0;
    long nr = 0, nremote = 0, nmin = 0, itbs = 0;
    int maxvc = 0;
    for (sf_route_it r = {0}; sf_routes_next(rs, &r);) {
        const sf_hop *h = r.h;
        int n = r.n, vc0 = r.vc0;
        int L = sf_path_links(h, n);
        int sa = t->host[r.src].sw, sb = t->host[r.dst].sw;
        nr++;
        sum += L;
        if (L > s->max_hops) s->max_hops = L;
        if (vc0 > maxvc) maxvc = vc0;
        int it = 0;
        for (int i = 0; i < n; i++) {
            if (h[i].itb) { it++; continue; }
            if (h[i].vc > maxvc) maxvc = h[i].vc;
            s->link_routes[t->sw[h[i].sw].ch[h[i].port]]++;
        }
        itbs += it;
        if (it) s->routes_with_itb++;
        if (sa != sb) {
            nremote++;
            sumr += L;
            if (L == dist[(size_t)sa * t->nsw + sb]) nmin++;
        }
    }
    free(dist);
    s->routes = nr;
    s->avg_hops = nr ? sum / (double)nr : 0;
    s->avg_hops_remote = nremote ? sumr / (double)nremote : 0;
    s->minimal_share = nremote ? (double)nmin / (double)nremote : 1.0;
    s->avg_itb = nr ? (double)itbs / (double)nr : 0;
    long tot = 0;
    for (int c = 0; c < t->nch; c++) {
        tot += s->link_routes[c];
        if (s->link_routes[c] > s->max_link_routes) s->max_link_routes = s->link_routes[c];
    }
    s->mean_link_routes = t->nch ? (double)tot / t->nch : 0;
    s->vcs_used = maxvc + 1;
    s->itb_fallbacks = rs->fallbacks;
}

void sf_stats_free(sf_stats *s) { free(s->link_routes); s->link_routes = NULL; }

void sf_stats_json(const sf_stats *s, const sf_topo *t, FILE *f, int links)
{
    fprintf(f, "{\"hosts\": %d, \"switches\": %d, \"links\": %d, \"routes\": %ld, \"alternatives\": %d,\n", s->hosts,
            s->switches, s->links, s->routes, s->nalt);
    fprintf(f, " \"avg_hops\": %.4f, \"avg_hops_remote\": %.4f, \"max_hops\": %d, \"minimal_share\": %.4f,\n",
            s->avg_hops, s->avg_hops_remote, s->max_hops, s->minimal_share);
    fprintf(f, " \"avg_itb\": %.4f, \"routes_with_itb\": %ld, \"itb_fallbacks\": %d, \"vcs_used\": %d,\n", s->avg_itb,
            s->routes_with_itb, s->itb_fallbacks, s->vcs_used);
    fprintf(f, " \"max_link_routes\": %ld, \"mean_link_routes\": %.2f", s->max_link_routes, s->mean_link_routes);
    if (links) {
        fprintf(f, ",\n \"per_link\": [");
        for (int c = 0; c < t->nch; c++)
            fprintf(f, "%s\n  {\"from\": \"%d:%d\", \"to\": \"%d:%d\", \"routes\": %ld}", c ? "," : "", t->ch_from[c],
                    t->ch_fport[c], t->ch_to[c], t->ch_tport[c], s->link_routes[c]);
        fprintf(f, "]");
    }
    fprintf(f, "}\n");
}

void sf_stats_table(const sf_stats *s, const sf_topo *t, FILE *f, int links)
{
    fprintf(f, "%-28s %d\n%-28s %d\n%-28s %d\n", "hosts", s->hosts, "switches", s->switches, "links", s->links);
    fprintf(f, "%-28s %ld\n%-28s %d\n", "routes", s->routes, "alternatives per pair", s->nalt);
    fprintf(f, "%-28s %.4f\n%-28s %.4f\n%-28s %d\n", "avg hops (all pairs)", s->avg_hops,
            "avg hops (remote pairs)", s->avg_hops_remote, "max hops", s->max_hops);
    fprintf(f, "%-28s %.2f %%\n", "minimal routes", 100.0 * s->minimal_share);
    fprintf(f, "%-28s %.4f\n%-28s %ld\n", "ITBs per route", s->avg_itb, "routes with ITB", s->routes_with_itb);
    fprintf(f, "%-28s %d\n", "ITB fallbacks (up*/down*)", s->itb_fallbacks);
    fprintf(f, "%-28s %ld\n%-28s %.2f\n%-28s %d\n", "max routes per link", s->max_link_routes,
            "mean routes per link", s->mean_link_routes, "VCs (layers) used", s->vcs_used);
    if (links) {
        fprintf(f, "%-12s %-12s %s\n", "from", "to", "routes");
        for (int c = 0; c < t->nch; c++) {
            char a[24], b[24];
            snprintf(a, sizeof a, "%d:%d", t->ch_from[c], t->ch_fport[c]);
            snprintf(b, sizeof b, "%d:%d", t->ch_to[c], t->ch_tport[c]);
            fprintf(f, "%-12s %-12s %ld\n", a, b, s->link_routes[c]);
        }
    }
}

int sf_routes_maps_hosts(const sf_routes *rs)
{
    if (!rs->map)
        return 0;
    for (int i = 0; i < rs->t->nhost; i++)
        if (rs->map[i] != i)
            return 1;
    return 0;
}

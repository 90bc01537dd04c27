/* sf_io.c - route files (Myrinet-style source routes), RHiNET-style and Maestro tables. Formats: docs/routing.md. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sf_route.h"

#include "link.h" /* route byte and ITB mark encodings (cmodel/link.h via -I$(LINK_INC), see sw/Makefile) */
#include "sf_util.h"


void sf_write_routes(const sf_routes *rs, FILE *f)
{
    const sf_topo *t = rs->t;
    fprintf(f, "sanfab-routes 1\n");
    fprintf(f, "algorithm %s\n", rs->algo[0] ? rs->algo : "unknown");
    fprintf(f, "hosts %d switches %d vcs %d alternatives %d\n", t->nhost, t->nsw, rs->nvc, rs->nalt);
    if (rs->promise_minimal) fprintf(f, "promise minimal\n");
    if (rs->map)
        for (int i = 0; i < t->nhost; i++) fprintf(f, "map %d %d\n", i, rs->map[i]);
    for (sf_route_it r = {0}; sf_routes_next(rs, &r);) {
        const sf_hop *h = r.h;
        int n = r.n, vc0 = r.vc0;
        fprintf(f, "route %d %d %d :", r.src, r.dst, r.alt);
        for (int i = 0; i < n; i++) {
            fprintf(f, " %02x", ROUTE_BYTE(h[i].port));
            if (h[i].itb) fprintf(f, " %02x", ITB_MARK);
        }
        fprintf(f, " %02x", ROUTE_BYTE(t->host[r.dst].port));
        if (rs->nvc > 1) {
            fprintf(f, " | vc");
            for (int i = 0; i < n; i++) fprintf(f, " %d", h[i].vc);
            fprintf(f, " %d", n ? h[n - 1].vc : vc0);
        }
        fprintf(f, "\n");
    }
}

static int rerr(sf_err *e, const char *file, int line, const char *msg, long a, long b)
{
    char buf[300];
    snprintf(buf, sizeof buf, msg, a, b);
    snprintf(e->msg, sizeof e->msg, "%s:%d: %s", file, line, buf);
    return -1;
}

/* value of "key=" in the algorithm header, NULL when absent */
static const char *hval(const char *algo, const char *key, char *buf, size_t len)
{
    size_t kl = strlen(key);
    for (const char *p = algo; (p = strstr(p, key)) != NULL; p += kl)
        if ((p == algo || p[-1] == ' ') && p[kl] == '=') {
            const char *v = p + kl + 1;
            size_t n = strcspn(v, " ");
            if (n >= len) n = len - 1;
            memcpy(buf, v, n);
            buf[n] = 0;
            return buf;
        }
    return NULL;
}

/* Take the promises of the "algorithm" header (docs/routing.md, "What check verifies"). */
static int apply_header(sf_routes *rs, const char *algo, const char *path, int line, sf_err *e)
{
    char name[64] = "", v[128];
    size_t n = strcspn(algo, " ");
    if (n >= sizeof name) n = sizeof name - 1;
    memcpy(name, algo, n);
    int need_root = 0, updown = 0;
    if (!strcmp(name, "updown") || !strcmp(name, "itb") || !strcmp(name, "clos-all")) need_root = updown = 1;
    else if (!strcmp(name, "fm")) {
        if (!hval(algo, "deadlock", v, sizeof v)) return rerr(e, path, line, "algorithm fm: deadlock=itb|layers|none missing%.0ld%.0ld", 0, 0);
        need_root = updown = !strcmp(v, "itb");
    } else if (!strcmp(name, "dl")) {
        need_root = 1;
        if (!hval(algo, "rule", v, sizeof v)) return rerr(e, path, line, "algorithm dl: rule=... missing%.0ld%.0ld", 0, 0);
        if (!strcmp(v, "(UD)*") || !strcmp(v, "ud")) rs->rule = SF_RULE_UD;
        else if (!strcmp(v, "(UD-DU)*") || !strcmp(v, "ud-du")) rs->rule = SF_RULE_UDDU;
        else if (!strcmp(v, "UD-(DU)*") || !strcmp(v, "ud-dudu")) rs->rule = SF_RULE_UD_DU;
        else if (!strcmp(v, "(L-turn)*") || !strcmp(v, "lturn")) rs->rule = SF_RULE_LTURN;
        else return rerr(e, path, line, "algorithm dl: unknown rule (expected (UD)*, (UD-DU)*, UD-(DU)*, (L-turn)*)%.0ld%.0ld", 0, 0);
    }
    /* vcs=: DL's layers, updown's VCs (absent in an updown header: 1 VC); never below the VCs the routes use */
    int is_ud = !strcmp(name, "updown");
    if (!strcmp(name, "dl") || is_ud) {
        int given = hval(algo, "vcs", v, sizeof v) != NULL;
        long k = is_ud ? 1 : rs->nvc;
        if (given) {
            char *end;
            k = strtol(v, &end, 10);
            if (!*v || *end || k < 1 || k > 64) {
                snprintf(e->msg, sizeof e->msg, "%s:%d: algorithm %s: bad vcs= (expected 1..64)", path, line, name);
                return -1;
            }
        }
        if (k < rs->nvc) {
            if (given) snprintf(v, sizeof v, "vcs=%ld", k);
            else snprintf(v, sizeof v, "no vcs= (1 VC)");
            snprintf(e->msg, sizeof e->msg, "%s:%d: algorithm %s: %s but the routes use %d VCs", path, line, name, v, rs->nvc);
            return -1;
        }
        rs->promise_onevc = is_ud;
    }
    if (need_root) {
        if (!hval(algo, "root", v, sizeof v)) {
            snprintf(e->msg, sizeof e->msg, "%s:%d: algorithm %s: root=N missing (the rule needs the root)", path, line, name);
            return -1;
        }
        char *end;
        long r = strtol(v, &end, 10);
        if (end == v || (*end && strcmp(end, "(top-or-0)")) || r < -1 || r >= rs->t->nsw)
            return rerr(e, path, line, "algorithm header: bad root=%.0ld (expected -1 or a switch 0..%ld)", 0, rs->t->nsw - 1);
        rs->root = (int)r;
        if (hval(algo, "tie", v, sizeof v) && strcmp(v, "lower-id"))
            return rerr(e, path, line, "algorithm header: unknown tie rule (only tie=lower-id)%.0ld%.0ld", 0, 0);
    }
    if (updown) {
        rs->promise_updown = 1;
        rs->dir = sf_updown_dir(rs->t, rs->root, NULL, NULL);
    }
    if (hval(algo, "fallbacks", v, sizeof v)) rs->fallbacks = atoi(v);
    return 0;
}

sf_routes *sf_read_routes(const sf_topo *t, const char *path, sf_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f) { snprintf(e->msg, sizeof e->msg, "%s: cannot open: %s", path, strerror(errno)); return NULL; }
    sf_routes *rs = NULL;
    char line[8192];
    int ln = 0, have_header = 0, nalt = 1, nvc = 1, promise = 0;
    sf_hop *hops = sf_xcalloc(4096, sizeof(sf_hop));
    char algo[200] = "";
    int *map = NULL, algo_line = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (!strchr(line, '\n') && !feof(f)) { rerr(e, path, ln, "line too long%.0ld%.0ld", 0, 0); goto bad; }
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *tok[600];
        int nt = 0;
        char *s = strtok(line, " \t\r\n");
        for (; s && nt < 600; s = strtok(NULL, " \t\r\n")) tok[nt++] = s;
        if (s) { rerr(e, path, ln, "too many fields (at most %ld)%.0ld", 600, 0); goto bad; }
        if (!nt) continue;
        if (!have_header) {
            if (nt != 2 || strcmp(tok[0], "sanfab-routes") || strcmp(tok[1], "1")) {
                rerr(e, path, ln, "first line must be \"sanfab-routes 1\"%.0ld%.0ld", 0, 0);
                goto bad;
            }
            have_header = 1;
            continue;
        }
        if (!strcmp(tok[0], "algorithm")) {
            if (algo_line) { rerr(e, path, ln, "second \"algorithm\" line (first at line %ld)%.0ld", algo_line, 0); goto bad; }
            algo_line = ln;
            algo[0] = 0;
            for (int i = 1; i < nt && strlen(algo) + strlen(tok[i]) + 2 < sizeof algo; i++) {
                if (i > 1) strcat(algo, " ");
                strcat(algo, tok[i]);
            }
        } else if (!strcmp(tok[0], "hosts")) {
            if (nt != 8 || strcmp(tok[2], "switches") || strcmp(tok[4], "vcs") || strcmp(tok[6], "alternatives")) {
                rerr(e, path, ln, "usage: hosts H switches S vcs V alternatives A%.0ld%.0ld", 0, 0);
                goto bad;
            }
            char *e1, *e2, *e3, *e4;
            long h = strtol(tok[1], &e1, 10), sw = strtol(tok[3], &e2, 10);
            nvc = (int)strtol(tok[5], &e3, 10); nalt = (int)strtol(tok[7], &e4, 10);
            if (*e1 || *e2 || *e3 || *e4) { rerr(e, path, ln, "hosts line: numbers expected%.0ld%.0ld", 0, 0); goto bad; }
            if (rs) { rerr(e, path, ln, "second \"hosts\" line%.0ld%.0ld", 0, 0); goto bad; }
            if (h != t->nhost || sw != t->nsw) {
                rerr(e, path, ln, h != t->nhost ? "route file is for %ld hosts, topology has %ld" : "route file is for %ld switches, topology has %ld",
                     h != t->nhost ? h : sw, h != t->nhost ? t->nhost : t->nsw);
                goto bad;
            }
            if (nvc < 1 || nvc > 64 || nalt < 1 || nalt > 1024) { rerr(e, path, ln, "bad vcs/alternatives%.0ld%.0ld", 0, 0); goto bad; }
            rs = sf_routes_new(t, 0, nalt);
        } else if (!strcmp(tok[0], "promise")) {
            if (nt == 2 && !strcmp(tok[1], "minimal")) promise = 1;
            else { rerr(e, path, ln, "usage: promise minimal%.0ld%.0ld", 0, 0); goto bad; }
        } else if (!strcmp(tok[0], "map")) {
            int lg, ph;
            if (nt != 3 || (lg = atoi(tok[1])) < 0 || lg >= t->nhost || (ph = atoi(tok[2])) < 0 || ph >= t->nhost) {
                rerr(e, path, ln, "usage: map LOGICAL PHYSICAL (hosts 0..%ld)%.0ld", t->nhost - 1, 0);
                goto bad;
            }
            if (!map) map = sf_xcalloc((size_t)t->nhost, sizeof(int));
            map[lg] = ph;
        } else if (!strcmp(tok[0], "route")) {
            if (!rs) { rerr(e, path, ln, "route before the \"hosts\" line%.0ld%.0ld", 0, 0); goto bad; }
            if (nt < 6 || strcmp(tok[4], ":")) { rerr(e, path, ln, "usage: route SRC DST ALT : BYTES... [| vc V...]%.0ld%.0ld", 0, 0); goto bad; }
            char *end;
            long src = strtol(tok[1], &end, 10);
            if (*end || src < 0 || src >= t->nhost) { rerr(e, path, ln, "source host %ld out of range%.0ld", src, 0); goto bad; }
            long dst = strtol(tok[2], &end, 10);
            if (*end || dst < 0 || dst >= t->nhost || dst == src) { rerr(e, path, ln, "destination host %ld out of range or equal to the source%.0ld", dst, 0); goto bad; }
            long alt = strtol(tok[3], &end, 10);
            if (*end || alt < 0 || alt >= nalt) { rerr(e, path, ln, "alternative %ld out of range 0..%ld", alt, nalt - 1); goto bad; }
            int bar = nt;
            for (int i = 5; i < nt; i++)
                if (!strcmp(tok[i], "|")) { bar = i; break; }
            int vcs[600], nvcs = 0;
            if (bar < nt) {
                if (bar + 1 >= nt || strcmp(tok[bar + 1], "vc")) { rerr(e, path, ln, "expected \"| vc ...\"%.0ld%.0ld", 0, 0); goto bad; }
                for (int i = bar + 2; i < nt; i++) {
                    long v = strtol(tok[i], &end, 10);
                    if (*end || v < 0 || v >= nvc) { rerr(e, path, ln, "VC %ld out of range 0..%ld", v, nvc - 1); goto bad; }
                    vcs[nvcs++] = (int)v;
                }
            }
            int cur = t->host[src].sw, n = 0, nbytes = 0, delivered = 0;
            for (int i = 5; i < bar; i++) {
                long b = strtol(tok[i], &end, 16);
                if (*end || b < 0 || b > 255) { rerr(e, path, ln, "bad byte (expected two hex digits)%.0ld%.0ld", 0, 0); goto bad; }
                if (delivered) { rerr(e, path, ln, "bytes after the route reached host %ld%.0ld", dst, 0); goto bad; }
                if (b == ITB_MARK) {
                    if (!n || !hops[n - 1].itb || hops[n - 1].sw != cur || i == 5) {
                        rerr(e, path, ln, "ITB mark c0 not right after a route byte to a host%.0ld%.0ld", 0, 0);
                        goto bad;
                    }
                    hops[n - 1].itb = 2; /* confirmed */
                    continue;
                }
                if (!ROUTE_IS_ROUTE(b)) { rerr(e, path, ln, "byte %02lx is neither a route byte (0x80|port) nor the ITB mark c0%.0ld", b, 0); goto bad; }
                if (n && hops[n - 1].itb == 1) {
                    rerr(e, path, ln, "route reaches host %ld before the destination without an ITB mark%.0ld",
                         t->sw[cur].peer[hops[n - 1].port].id, 0);
                    goto bad;
                }
                int port = (int)ROUTE_PORT(b);
                if (port >= t->sw[cur].nports) { rerr(e, path, ln, "port %ld out of range on switch %ld", port, cur); goto bad; }
                const sf_peer *p = &t->sw[cur].peer[port];
                int vc = nbytes < nvcs ? vcs[nbytes] : 0;
                nbytes++;
                if (p->kind == SF_PEER_NONE) { rerr(e, path, ln, "port %ld of switch %ld is not connected", port, cur); goto bad; }
                if (n >= 4000) { rerr(e, path, ln, "route too long%.0ld%.0ld", 0, 0); goto bad; }
                if (p->kind == SF_PEER_SWITCH) {
                    hops[n++] = (sf_hop){cur, (int16_t)port, (int8_t)vc, 0};
                    cur = p->id;
                } else if (p->id == dst && i == bar - 1) {
                    delivered = 1;
                } else {
                    hops[n++] = (sf_hop){cur, (int16_t)port, (int8_t)vc, 1}; /* must be followed by the ITB mark */
                }
            }
            if (n && hops[n - 1].itb == 1) { rerr(e, path, ln, "route ends at host %ld, not at host %ld", t->sw[cur].peer[hops[n - 1].port].id, dst); goto bad; }
            if (!delivered) { rerr(e, path, ln, "route does not end at destination host %ld (stops at switch %ld)", dst, cur); goto bad; }
            if (nvcs && nvcs != nbytes) { rerr(e, path, ln, "%ld VCs for %ld route bytes", nvcs, nbytes); goto bad; }
            for (int i = 0; i < n; i++) if (hops[i].itb) hops[i].itb = 1;
            size_t N = (size_t)t->nhost;
            if (rs->index[((size_t)src * N + (size_t)dst) * (size_t)nalt + (size_t)alt] >= 0) {
                rerr(e, path, ln, "second route for the same pair and alternative%.0ld%.0ld", 0, 0);
                goto bad;
            }
            sf_routes_set(rs, (int)src, (int)dst, (int)alt, hops, n, nvcs ? vcs[0] : 0);
        } else {
            rerr(e, path, ln, "unknown keyword (expected algorithm, hosts, promise, map, route)%.0ld%.0ld", 0, 0);
            goto bad;
        }
    }
    if (!rs) { snprintf(e->msg, sizeof e->msg, "%s: no \"hosts\" line", path); goto bad; }
    fclose(f);
    free(hops);
    rs->nvc = nvc > rs->nvc ? nvc : rs->nvc;
    rs->promise_minimal = promise;
    rs->map = map;
    map = NULL;
    snprintf(rs->algo, sizeof rs->algo, "%s", algo);
    if (apply_header(rs, algo, path, algo_line, e)) { sf_routes_free(rs); return NULL; }
    return rs;
bad:
    fclose(f);
    free(hops); free(map);
    sf_routes_free(rs);
    return NULL;
}

/* ------------------------------------------------------------------ RHiNET-style tables */

int sf_write_rhinet(const sf_routes *rs, FILE *f, sf_err *e)
{
    const sf_topo *t = rs->t;
    int H = t->nhost, S = t->nsw, V = rs->nvc;
    /* tags: routes to the same destination share a tag while they agree on the output port at every switch */
    int tcap = H * 4 + 16, ntag = 0;
    int *tagdst = sf_xcalloc((size_t)tcap, sizeof(int));
    int16_t *tport = sf_xcalloc((size_t)tcap * (size_t)S, sizeof(int16_t));
    int *rtag = sf_xcalloc((size_t)H * H * rs->nalt, sizeof(int));
    /* VC map per switch: (in port, out port, in vc) -> out vc, -1 = unused */
    size_t vsz = (size_t)S * SF_MAX_PORTS * SF_MAX_PORTS * (size_t)V;
    int8_t *vmap = sf_xcalloc(vsz, 1);
    memset(vmap, -1, vsz);
    int *first_tag = sf_xcalloc((size_t)H, sizeof(int));
    int rc = 0;
    for (int d = 0; d < H; d++) {
        first_tag[d] = ntag;
        for (int s = 0; s < H; s++) {
            if (s == d) continue;
            for (int alt = 0; alt < rs->nalt; alt++) {
                int n, vc0;
                const sf_hop *h = sf_routes_get(rs, s, d, alt, &n, &vc0);
                rtag[((size_t)s * H + d) * rs->nalt + alt] = -1;
                if (!h) continue;
                for (int i = 0; i < n; i++)
                    if (h[i].itb) {
                        snprintf(e->msg, sizeof e->msg, "route %d->%d uses an ITB: table-based switches cannot express it", s, d);
                        rc = -1;
                        goto done;
                    }
                int tag = -1;
                for (int k = first_tag[d]; k < ntag && tag < 0; k++) {
                    int ok = 1;
                    for (int i = 0; i < n && ok; i++) {
                        int16_t p = tport[(size_t)k * S + h[i].sw];
                        if (p >= 0 && p != h[i].port) ok = 0;
                    }
                    if (ok) tag = k;
                }
                if (tag < 0) {
                    if (ntag == tcap) {
                        tcap *= 2;
                        tagdst = realloc(tagdst, sizeof(int) * (size_t)tcap);
                        tport = realloc(tport, sizeof(int16_t) * (size_t)tcap * S);
                        if (!tagdst || !tport) exit(2);
                    }
                    tag = ntag++;
                    tagdst[tag] = d;
                    for (int x = 0; x < S; x++) tport[(size_t)tag * S + x] = -1;
                    tport[(size_t)tag * S + t->host[d].sw] = (int16_t)t->host[d].port;
                }
                for (int i = 0; i < n; i++) tport[(size_t)tag * S + h[i].sw] = h[i].port;
                rtag[((size_t)s * H + d) * rs->nalt + alt] = tag;
                /* VC transitions along the route, including injection and ejection ports */
                int inport = t->host[s].port, invc = vc0;
                for (int i = 0; i <= n; i++) {
                    int sw = i < n ? h[i].sw : t->host[d].sw;
                    int out = i < n ? h[i].port : t->host[d].port;
                    int outvc = i < n ? h[i].vc : invc;
                    int8_t *m = &vmap[(((size_t)sw * SF_MAX_PORTS + inport) * SF_MAX_PORTS + out) * V + invc];
                    if (*m >= 0 && *m != outvc) {
                        snprintf(e->msg, sizeof e->msg,
                                 "VC table conflict at switch %d: (in %d, out %d, vc %d) needs vc %d and vc %d", sw, inport,
                                 out, invc, *m, outvc);
                        rc = -1;
                        goto done;
                    }
                    *m = (int8_t)outvc;
                    if (i < n) { inport = t->sw[sw].peer[out].port; invc = outvc; }
                }
            }
        }
    }
    fprintf(f, "sanfab-rhinet 1\nalgorithm %s\n", rs->algo);
    fprintf(f, "switches %d hosts %d vcs %d tags %d\n", S, H, V, ntag);
    for (sf_route_it r = {0}; sf_routes_next(rs, &r);) {
        int tag = rtag[((size_t)r.src * H + r.dst) * rs->nalt + r.alt];
        if (tag >= 0) fprintf(f, "nic %d dst %d alt %d tag %d vc %d\n", r.src, r.dst, r.alt, tag, r.vc0);
    }
    for (int x = 0; x < S; x++) {
        fprintf(f, "switch %d\n", x);
        for (int k = 0; k < ntag; k++)
            if (tport[(size_t)k * S + x] >= 0) fprintf(f, "  tag %d port %d\n", k, tport[(size_t)k * S + x]);
        for (int i = 0; i < t->sw[x].nports; i++)
            for (int o = 0; o < t->sw[x].nports; o++)
                for (int v = 0; v < V; v++) {
                    int8_t m = vmap[(((size_t)x * SF_MAX_PORTS + i) * SF_MAX_PORTS + o) * V + v];
                    if (m >= 0) fprintf(f, "  vc %d %d %d %d\n", i, o, v, m);
                }
    }
done:
    free(tagdst); free(tport); free(rtag); free(vmap); free(first_tag);
    return rc;
}

/* ------------------------------------------------------------------ Maestro switch-box tables */

int sf_write_maestro(const sf_routes *rs, FILE *f, sf_err *e)
{
    const sf_topo *t = rs->t;
    int H = t->nhost, S = t->nsw;
    int16_t *tab = sf_xcalloc((size_t)S * H, sizeof(int16_t));
    for (size_t i = 0; i < (size_t)S * H; i++) tab[i] = -1;
    for (int d = 0; d < H; d++) tab[(size_t)t->host[d].sw * H + d] = (int16_t)t->host[d].port;
    for (size_t i = 0; i < rs->nhops; i++)
        if (rs->hops[i].itb) {
            snprintf(e->msg, sizeof e->msg, "route set uses ITBs (switch %d): Maestro tables cannot express them", rs->hops[i].sw);
            free(tab);
            return -1;
        }
    for (int s = 0; s < H; s++)
        for (int d = 0; d < H; d++) {
            if (s == d) continue;
            int n, vc0;
            const sf_hop *h = sf_routes_get(rs, s, d, 0, &n, &vc0);
            if (!h) continue;
            for (int i = 0; i < n; i++) {
                if (h[i].itb) {
                    snprintf(e->msg, sizeof e->msg, "route %d->%d uses an ITB: Maestro tables cannot express it", s, d);
                    free(tab);
                    return -1;
                }
                int16_t *p = &tab[(size_t)h[i].sw * H + d];
                if (*p >= 0 && *p != h[i].port) {
                    snprintf(e->msg, sizeof e->msg,
                             "routes are not destination-based: switch %d sends traffic for host %d to ports %d and %d",
                             h[i].sw, d, *p, h[i].port);
                    free(tab);
                    return -1;
                }
                *p = h[i].port;
            }
        }
    fprintf(f, "sanfab-maestro 1\nalgorithm %s\nswitches %d hosts %d\n", rs->algo, S, H);
    for (int x = 0; x < S; x++) {
        fprintf(f, "switch %d\n", x);
        for (int d = 0; d < H; d++)
            if (tab[(size_t)x * H + d] >= 0) fprintf(f, "  dst %d port %d\n", d, tab[(size_t)x * H + d]);
    }
    free(tab);
    return 0;
}

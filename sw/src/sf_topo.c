/* sf_topo.c - topology builder, parser, writer and distances. */
#include "sf_topo.h"
#include "sf_util.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ID (1 << 18)

static int fail(sf_err *e, const char *file, int line, const char *fmt, ...)
{
    if (!e) return -1;
    char buf[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (line > 0) snprintf(e->msg, sizeof e->msg, "%s:%d: %s", file ? file : "<topology>", line, buf);
    else snprintf(e->msg, sizeof e->msg, "%s: %s", file ? file : "<topology>", buf);
    return -1;
}


sf_topo *sf_topo_new(void) { return sf_xcalloc(1, sizeof(sf_topo)); }

void sf_topo_free(sf_topo *t)
{
    if (!t) return;
    for (int i = 0; i < t->nsw; i++) { free(t->sw[i].peer); free(t->sw[i].ch); }
    free(t->sw); free(t->host);
    free(t->ch_from); free(t->ch_fport); free(t->ch_to); free(t->ch_tport);
    free(t->hoff); free(t->hlist); free(t->adjoff); free(t->adjch);
    free(t);
}

int sf_topo_add_switch(sf_topo *t, int id, int nports, int level, const char *file, int line, sf_err *e)
{
    if (id < 0 || id >= MAX_ID) return fail(e, file, line, "switch id %d out of range 0..%d", id, MAX_ID - 1);
    if (nports < 1 || nports > SF_MAX_PORTS)
        return fail(e, file, line, "switch %d: port count %d out of range 1..%d", id, nports, SF_MAX_PORTS);
    if (id >= t->nsw) {
        int n = id + 1;
        t->sw = realloc(t->sw, (size_t)n * sizeof *t->sw);
        if (!t->sw) { fprintf(stderr, "sanfab: out of memory\n"); exit(2); }
        memset(t->sw + t->nsw, 0, (size_t)(n - t->nsw) * sizeof *t->sw);
        t->nsw = n;
    }
    sf_switch *s = &t->sw[id];
    if (s->nports) return fail(e, file, line, "switch %d declared twice (first at line %d)", id, s->line);
    s->nports = nports;
    s->level = level;
    s->line = line;
    s->peer = sf_xcalloc((size_t)nports, sizeof *s->peer);
    return 0;
}

static int check_port(sf_topo *t, int sw, int port, const char *file, int line, sf_err *e)
{
    if (sw < 0 || sw >= t->nsw || !t->sw[sw].nports) return fail(e, file, line, "unknown switch %d", sw);
    if (port < 0 || port >= t->sw[sw].nports)
        return fail(e, file, line, "port %d out of range on switch %d (ports 0..%d)", port, sw, t->sw[sw].nports - 1);
    sf_peer *p = &t->sw[sw].peer[port];
    if (p->kind != SF_PEER_NONE) {
        if (p->kind == SF_PEER_HOST)
            return fail(e, file, line, "port %d of switch %d used twice (host %d at line %d)", port, sw, p->id, p->line);
        return fail(e, file, line, "port %d of switch %d used twice (link to %d:%d at line %d)", port, sw, p->id,
                    p->port, p->line);
    }
    return 0;
}

int sf_topo_add_host(sf_topo *t, int id, int sw, int port, const char *file, int line, sf_err *e)
{
    if (id < 0 || id >= MAX_ID) return fail(e, file, line, "host id %d out of range", id);
    if (id < t->nhost && t->host[id].sw >= 0)
        return fail(e, file, line, "host %d declared twice (first at line %d)", id, t->host[id].line);
    if (check_port(t, sw, port, file, line, e)) return -1;
    if (id >= t->nhost) {
        int n = id + 1;
        t->host = realloc(t->host, (size_t)n * sizeof *t->host);
        if (!t->host) { fprintf(stderr, "sanfab: out of memory\n"); exit(2); }
        for (int i = t->nhost; i < n; i++) t->host[i] = (sf_host){-1, -1, 0};
        t->nhost = n;
    }
    t->host[id] = (sf_host){sw, port, line};
    t->sw[sw].peer[port] = (sf_peer){SF_PEER_HOST, id, -1, line};
    return 0;
}

int sf_topo_add_link(sf_topo *t, int a, int pa, int b, int pb, const char *file, int line, sf_err *e)
{
    if (a == b && a >= 0 && a < t->nsw && t->sw[a].nports)
        return fail(e, file, line, "self-link on switch %d (ports %d and %d)", a, pa, pb);
    if (check_port(t, a, pa, file, line, e)) return -1;
    if (check_port(t, b, pb, file, line, e)) return -1;
    if (!t->allow_parallel) {
        sf_switch *s = &t->sw[a];
        for (int p = 0; p < s->nports; p++)
            if (s->peer[p].kind == SF_PEER_SWITCH && s->peer[p].id == b)
                return fail(e, file, line,
                            "duplicate link between switches %d and %d (first at line %d; add \"parallel-links yes\" to allow)",
                            a, b, s->peer[p].line);
    }
    t->sw[a].peer[pa] = (sf_peer){SF_PEER_SWITCH, b, pb, line};
    t->sw[b].peer[pb] = (sf_peer){SF_PEER_SWITCH, a, pa, line};
    return 0;
}

int sf_topo_finish(sf_topo *t, const char *file, sf_err *e)
{
    if (t->nsw == 0) return fail(e, file, 0, "no switches declared");
    for (int i = 0; i < t->nsw; i++)
        if (!t->sw[i].nports) return fail(e, file, 0, "switch ids must be 0..%d: switch %d is missing", t->nsw - 1, i);
    for (int i = 0; i < t->nhost; i++)
        if (t->host[i].sw < 0) return fail(e, file, 0, "host ids must be 0..%d: host %d is missing", t->nhost - 1, i);
    /* channels */
    int nch = 0;
    for (int s = 0; s < t->nsw; s++)
        for (int p = 0; p < t->sw[s].nports; p++)
            if (t->sw[s].peer[p].kind == SF_PEER_SWITCH) nch++;
    t->nch = nch;
    t->ch_from = sf_xcalloc((size_t)nch, sizeof(int));
    t->ch_fport = sf_xcalloc((size_t)nch, sizeof(int));
    t->ch_to = sf_xcalloc((size_t)nch, sizeof(int));
    t->ch_tport = sf_xcalloc((size_t)nch, sizeof(int));
    for (int s = 0; s < t->nsw; s++) {
        t->sw[s].ch = sf_xcalloc((size_t)t->sw[s].nports, sizeof(int));
        for (int p = 0; p < t->sw[s].nports; p++) t->sw[s].ch[p] = -1;
    }
    int c = 0;
    for (int s = 0; s < t->nsw; s++)
        for (int p = 0; p < t->sw[s].nports; p++) {
            sf_peer *q = &t->sw[s].peer[p];
            if (q->kind != SF_PEER_SWITCH) continue;
            if (q->id < s || (q->id == s && q->port < p)) continue;
            t->ch_from[c] = s; t->ch_fport[c] = p; t->ch_to[c] = q->id; t->ch_tport[c] = q->port;
            t->sw[s].ch[p] = c;
            c++;
            t->ch_from[c] = q->id; t->ch_fport[c] = q->port; t->ch_to[c] = s; t->ch_tport[c] = p;
            t->sw[q->id].ch[q->port] = c;
            c++;
        }
    /* CSR host lists and adjacency, in port order */
    t->hoff = sf_xcalloc((size_t)t->nsw + 1, sizeof(int));
    t->hlist = sf_xcalloc((size_t)t->nhost, sizeof(int));
    t->adjoff = sf_xcalloc((size_t)t->nsw + 1, sizeof(int));
    t->adjch = sf_xcalloc((size_t)nch, sizeof(int));
    int hn = 0, an = 0;
    for (int s = 0; s < t->nsw; s++) {
        t->hoff[s] = hn; t->adjoff[s] = an;
        for (int p = 0; p < t->sw[s].nports; p++) {
            if (t->sw[s].peer[p].kind == SF_PEER_HOST) t->hlist[hn++] = t->sw[s].peer[p].id;
            if (t->sw[s].ch[p] >= 0) t->adjch[an++] = t->sw[s].ch[p];
        }
    }
    t->hoff[t->nsw] = hn; t->adjoff[t->nsw] = an;
    /* connectivity */
    int *seen = sf_xcalloc((size_t)t->nsw, sizeof(int)), *q = sf_xcalloc((size_t)t->nsw, sizeof(int));
    int qh = 0, qt = 0;
    seen[0] = 1; q[qt++] = 0;
    while (qh < qt) {
        int s = q[qh++];
        for (int i = t->adjoff[s]; i < t->adjoff[s + 1]; i++) {
            int d = t->ch_to[t->adjch[i]];
            if (!seen[d]) { seen[d] = 1; q[qt++] = d; }
        }
    }
    int bad = -1;
    for (int s = 0; s < t->nsw && bad < 0; s++)
        if (!seen[s]) bad = s;
    free(seen); free(q);
    if (bad >= 0)
        return fail(e, file, t->sw[bad].line, "disconnected network: switch %d cannot be reached from switch 0", bad);
    return 0;
}

/* ------------------------------------------------------------------ parser */

typedef struct { const char *file; int line; sf_err *e; } pctx;

static int parse_int(const char *tok, int *out)
{
    if (!tok || !*tok) return -1;
    char *end;
    errno = 0;
    long v = strtol(tok, &end, 10);
    if (*end || errno || v < -1000000000L || v > 1000000000L) return -1;
    *out = (int)v;
    return 0;
}

static int parse_swport(pctx *c, const char *tok, int *sw, int *port)
{
    const char *colon = tok ? strchr(tok, ':') : NULL;
    if (!colon) return fail(c->e, c->file, c->line, "expected SWITCH:PORT, got \"%s\"", tok ? tok : "");
    char a[32], b[32];
    size_t la = (size_t)(colon - tok);
    if (la == 0 || la >= sizeof a || strlen(colon + 1) >= sizeof b)
        return fail(c->e, c->file, c->line, "expected SWITCH:PORT, got \"%s\"", tok);
    memcpy(a, tok, la); a[la] = 0;
    strcpy(b, colon + 1);
    if (parse_int(a, sw) || parse_int(b, port))
        return fail(c->e, c->file, c->line, "expected SWITCH:PORT with numbers, got \"%s\"", tok);
    return 0;
}

sf_topo *sf_topo_parse(const char *text, const char *file, sf_err *e)
{
    sf_topo *t = sf_topo_new();
    pctx c = {file ? file : "<topology>", 0, e};
    const char *p = text;
    int have_header = 0, seen_link = 0;
    char line[1024];
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        c.line++;
        if (len >= sizeof line) { fail(e, c.file, c.line, "line too long (max %d characters)", (int)sizeof line - 1); goto bad; }
        memcpy(line, p, len); line[len] = 0;
        p += len + (nl ? 1 : 0);
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *q = line + strspn(line, " \t\r");
        if (have_header && !strncmp(q, "name", 4) && (q[4] == ' ' || q[4] == '\t' || q[4] == '\r')) {
            /* free text: every word, one space between, cut at the name's size */
            t->name[0] = 0;
            for (char *s = strtok(q + 4, " \t\r"); s; s = strtok(NULL, " \t\r")) {
                size_t u = strlen(t->name);
                snprintf(t->name + u, sizeof t->name - u, "%s%s", u ? " " : "", s);
            }
            continue;
        }
        char *tok[16]; int nt = 0;
        for (char *s = strtok(line, " \t\r"); s; s = strtok(NULL, " \t\r")) {
            if (nt == 16) { fail(e, c.file, c.line, "too many fields"); goto bad; }
            tok[nt++] = s;
        }
        if (!nt) continue;
        if (!have_header) {
            if (strcmp(tok[0], "sanfab-topology") || nt != 2 || strcmp(tok[1], "1")) {
                fail(e, c.file, c.line, "first line must be \"sanfab-topology 1\"");
                goto bad;
            }
            have_header = 1;
            continue;
        }
        if (!strcmp(tok[0], "name")) {
            t->name[0] = 0;
            for (int i = 1; i < nt; i++) {
                if (strlen(t->name) + strlen(tok[i]) + 2 >= sizeof t->name) break;
                if (i > 1) strcat(t->name, " ");
                strcat(t->name, tok[i]);
            }
        } else if (!strcmp(tok[0], "parallel-links")) {
            if (nt != 2 || (strcmp(tok[1], "yes") && strcmp(tok[1], "no"))) {
                fail(e, c.file, c.line, "usage: parallel-links yes|no");
                goto bad;
            }
            if (seen_link) { fail(e, c.file, c.line, "parallel-links must come before the first link"); goto bad; }
            t->allow_parallel = !strcmp(tok[1], "yes");
        } else if (!strcmp(tok[0], "switch")) {
            int id, np, lvl = -1;
            if ((nt != 4 && nt != 6) || strcmp(tok[2], "ports") || (nt == 6 && strcmp(tok[4], "level"))) {
                fail(e, c.file, c.line, "usage: switch ID ports N [level L]");
                goto bad;
            }
            if (parse_int(tok[1], &id)) { fail(e, c.file, c.line, "bad switch id \"%s\"", tok[1]); goto bad; }
            if (parse_int(tok[3], &np)) { fail(e, c.file, c.line, "bad port count \"%s\"", tok[3]); goto bad; }
            if (nt == 6 && (parse_int(tok[5], &lvl) || lvl < 0)) { fail(e, c.file, c.line, "bad level \"%s\"", tok[5]); goto bad; }
            if (sf_topo_add_switch(t, id, np, lvl, c.file, c.line, e)) goto bad;
        } else if (!strcmp(tok[0], "host")) {
            int id, sw, port;
            if (nt != 3) { fail(e, c.file, c.line, "usage: host ID SWITCH:PORT"); goto bad; }
            if (parse_int(tok[1], &id)) { fail(e, c.file, c.line, "bad host id \"%s\"", tok[1]); goto bad; }
            if (parse_swport(&c, tok[2], &sw, &port)) goto bad;
            if (sf_topo_add_host(t, id, sw, port, c.file, c.line, e)) goto bad;
        } else if (!strcmp(tok[0], "link")) {
            int a, pa, b, pb;
            if (nt != 3) { fail(e, c.file, c.line, "usage: link SWITCH:PORT SWITCH:PORT"); goto bad; }
            if (parse_swport(&c, tok[1], &a, &pa) || parse_swport(&c, tok[2], &b, &pb)) goto bad;
            seen_link = 1;
            if (sf_topo_add_link(t, a, pa, b, pb, c.file, c.line, e)) goto bad;
        } else {
            fail(e, c.file, c.line, "unknown keyword \"%s\" (expected name, parallel-links, switch, host, link)", tok[0]);
            goto bad;
        }
    }
    if (!have_header) { fail(e, c.file, 0, "empty file (expected \"sanfab-topology 1\")"); goto bad; }
    if (sf_topo_finish(t, c.file, e)) goto bad;
    return t;
bad:
    sf_topo_free(t);
    return NULL;
}

sf_topo *sf_topo_read(const char *path, sf_err *e)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fail(e, path, 0, "cannot open: %s", strerror(errno)); return NULL; }
    size_t cap = 1 << 16, n = 0;
    char *buf = sf_xcalloc(cap, 1);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 >= cap) { cap *= 2; buf = realloc(buf, cap); if (!buf) exit(2); }
    }
    fclose(f);
    buf[n] = 0;
    if (memchr(buf, 0, n)) { free(buf); fail(e, path, 0, "binary data (NUL byte) in topology file"); return NULL; }
    sf_topo *t = sf_topo_parse(buf, path, e);
    free(buf);
    return t;
}

void sf_topo_write(const sf_topo *t, FILE *f)
{
    fprintf(f, "sanfab-topology 1\n");
    if (t->name[0]) fprintf(f, "name %s\n", t->name);
    if (t->allow_parallel) fprintf(f, "parallel-links yes\n");
    fprintf(f, "# %d switches, %d hosts, %d links\n", t->nsw, t->nhost, t->nch / 2);
    for (int s = 0; s < t->nsw; s++) {
        if (t->sw[s].level >= 0) fprintf(f, "switch %d ports %d level %d\n", s, t->sw[s].nports, t->sw[s].level);
        else fprintf(f, "switch %d ports %d\n", s, t->sw[s].nports);
    }
    for (int h = 0; h < t->nhost; h++) fprintf(f, "host %d %d:%d\n", h, t->host[h].sw, t->host[h].port);
    for (int c = 0; c < t->nch; c += 2)
        fprintf(f, "link %d:%d %d:%d\n", t->ch_from[c], t->ch_fport[c], t->ch_to[c], t->ch_tport[c]);
}

int *sf_topo_distances(const sf_topo *t)
{
    int n = t->nsw;
    int *d = sf_xcalloc((size_t)n * (size_t)n, sizeof(int));
    int *q = sf_xcalloc((size_t)n, sizeof(int));
    for (int s = 0; s < n; s++) {
        int *row = d + (size_t)s * n;
        for (int i = 0; i < n; i++) row[i] = -1;
        int qh = 0, qt = 0;
        row[s] = 0; q[qt++] = s;
        while (qh < qt) {
            int x = q[qh++];
            for (int i = t->adjoff[x]; i < t->adjoff[x + 1]; i++) {
                int y = t->ch_to[t->adjch[i]];
                if (row[y] < 0) { row[y] = row[x] + 1; q[qt++] = y; }
            }
        }
    }
    free(q);
    return d;
}

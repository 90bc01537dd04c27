/* sf_workload.c - message workloads: built-in programs and the workload file (sf_workload.h, docs/network.md). */
#include "sf_workload.h"

#include "sf_rng.h"
#include "sf_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPS 50000000u   /* operations of all programs together */
#define MAX_BYTES (1ull << 40)

/* ------------------------------------------------------------------ building programs */

typedef struct {
    unsigned H;
    sf_op **v;
    size_t *n, *cap;
    size_t total;
    uint64_t bytes;
} builder;

static void b_init(builder *b, unsigned H)
{
    b->H = H;
    b->v = sf_xcalloc(H, sizeof *b->v);
    b->n = sf_xcalloc(H, sizeof *b->n);
    b->cap = sf_xcalloc(H, sizeof *b->cap);
    b->total = 0;
    b->bytes = 0;
}

static void b_free(builder *b)
{
    for (unsigned h = 0; h < b->H; h++)
        free(b->v[h]);
    free(b->v);
    free(b->n);
    free(b->cap);
}

/* appends an operation to host h's program; -1 past MAX_OPS */
static int b_add(builder *b, unsigned h, uint32_t kind, uint32_t peer, uint64_t arg)
{
    if (b->total >= MAX_OPS)
        return -1;
    if (b->n[h] == b->cap[h]) {
        b->cap[h] = b->cap[h] ? 2 * b->cap[h] : 16;
        sf_op *x = realloc(b->v[h], b->cap[h] * sizeof *x);
        if (!x) {
            fprintf(stderr, "sanfab-sim: out of memory\n");
            exit(2);
        }
        b->v[h] = x;
    }
    b->v[h][b->n[h]++] = (sf_op){kind, peer, arg};
    b->total++;
    if (kind == SF_OP_SEND)
        b->bytes += arg;
    return 0;
}

static sf_workload *b_finish(builder *b, const char *desc)
{
    sf_workload *w = sf_xcalloc(1, sizeof *w);
    w->hosts = b->H;
    w->off = sf_xcalloc((size_t)b->H + 1, sizeof *w->off);
    w->ops = sf_xcalloc(b->total, sizeof *w->ops);
    size_t k = 0;
    for (unsigned h = 0; h < b->H; h++) {
        w->off[h] = (uint32_t)k;
        if (b->n[h])
            memcpy(w->ops + k, b->v[h], b->n[h] * sizeof *w->ops);
        k += b->n[h];
    }
    w->off[b->H] = (uint32_t)k;
    w->nops = k;
    w->send_bytes = b->bytes;
    snprintf(w->desc, sizeof w->desc, "%s", desc);
    b_free(b);
    return w;
}

void sf_workload_free(sf_workload *w)
{
    if (!w)
        return;
    free(w->off);
    free(w->ops);
    free(w);
}

void sf_workload_remap(sf_workload *w, const int *map)
{
    const unsigned H = w->hosts;
    uint32_t *off = sf_xcalloc((size_t)H + 1, sizeof *off);
    sf_op *ops = sf_xcalloc(w->nops ? w->nops : 1, sizeof *ops);
    int *inv = sf_xcalloc(H, sizeof *inv);
    for (unsigned r = 0; r < H; r++)
        inv[map[r]] = (int)r;
    size_t k = 0;
    for (unsigned h = 0; h < H; h++) { /* physical host h runs logical inv[h]'s program */
        const unsigned r = (unsigned)inv[h];
        off[h] = (uint32_t)k;
        for (uint32_t i = w->off[r]; i < w->off[r + 1]; i++) {
            ops[k] = w->ops[i];
            if (ops[k].peer != SF_WL_ANY && (ops[k].kind == SF_OP_SEND || ops[k].kind == SF_OP_RECV))
                ops[k].peer = (uint32_t)map[ops[k].peer];
            k++;
        }
    }
    off[H] = (uint32_t)k;
    free(w->off);
    free(w->ops);
    free(inv);
    w->off = off;
    w->ops = ops;
    const size_t L = strlen(w->desc);
    snprintf(w->desc + L, sizeof w->desc - L, " mapped");
}

const char *sf_workload_names(void)
{
    return "exchange, bridge, alltoall, alltoall-phased, bcast-serial, bcast-tree, gather, barrier";
}

/* ------------------------------------------------------------------ built-in workloads */

/* exchange: random halves A and B, A[i] paired with B[i] (a shuffle gives both at once); bridge: host k of the
 * i-th switch with hosts paired with host k of the (i^1)-th. pair[h] = partner or -1. */
static int *make_pairs(int bridge, const sf_topo *t, uint64_t seed, sf_err *e)
{
    const unsigned H = (unsigned)t->nhost;
    int *pair = sf_xcalloc(H, sizeof *pair);
    for (unsigned h = 0; h < H; h++)
        pair[h] = -1;
    if (!bridge) {
        if (H % 2) {
            snprintf(e->msg, sizeof e->msg, "exchange needs an even number of hosts (have %u)", H);
            free(pair);
            return NULL;
        }
        int *p = sf_xcalloc(H, sizeof *p);
        for (unsigned h = 0; h < H; h++)
            p[h] = (int)h;
        sf_rng g;
        sf_rng_seed(&g, seed);
        sf_rng_shuffle(&g, p, (int)H);
        for (unsigned i = 0; i < H / 2; i++) {
            pair[p[i]] = p[H / 2 + i];
            pair[p[H / 2 + i]] = p[i];
        }
        free(p);
        return pair;
    }
    /* leaf switches: the switches with hosts, in id order */
    int *leaf = sf_xcalloc((size_t)t->nsw, sizeof *leaf);
    int nl = 0, per = -1;
    for (int s = 0; s < t->nsw; s++) {
        const int k = t->hoff[s + 1] - t->hoff[s];
        if (!k)
            continue;
        if (per >= 0 && k != per) {
            snprintf(e->msg, sizeof e->msg, "bridge needs the same number of hosts on every switch with hosts (switch %d has %d, "
                     "others %d)", s, k, per);
            free(leaf);
            free(pair);
            return NULL;
        }
        per = k;
        leaf[nl++] = s;
    }
    if (nl % 2) {
        snprintf(e->msg, sizeof e->msg, "bridge needs an even number of switches with hosts (have %d)", nl);
        free(leaf);
        free(pair);
        return NULL;
    }
    for (int i = 0; i < nl; i++) {
        const int a = leaf[i], b = leaf[i ^ 1];
        for (int k = 0; k < per; k++)
            pair[t->hlist[t->hoff[a] + k]] = t->hlist[t->hoff[b] + k];
    }
    free(leaf);
    return pair;
}

sf_workload *sf_workload_builtin(const char *name, const sf_topo *t, const sf_wl_params *p, sf_err *e)
{
    const unsigned H = (unsigned)t->nhost;
    if (H < 2) {
        snprintf(e->msg, sizeof e->msg, "a workload needs at least 2 hosts");
        return NULL;
    }
    if (p->bytes < 1 || p->bytes > MAX_BYTES || p->messages < 1) {
        snprintf(e->msg, sizeof e->msg, "workload %s: message bytes 1..2^40 and at least one message", name);
        return NULL;
    }
    if (p->root >= H) {
        snprintf(e->msg, sizeof e->msg, "workload %s: root %u out of range 0..%u", name, p->root, H - 1);
        return NULL;
    }
    builder b;
    char desc[256];
    const uint64_t s = p->bytes;
    const unsigned k = p->messages, r = p->root;
    int rc = 0;
    if (!strcmp(name, "exchange") || !strcmp(name, "bridge")) {
        const int bridge = name[0] == 'b';
        int *pair = make_pairs(bridge, t, p->seed, e);
        if (!pair)
            return NULL;
        b_init(&b, H);
        /* one message at a time in each direction (Geoffray and Hoefler 2008, sec. 5.2, ping-ping): send the i-th, wait for the
         * peer's i-th, then the next */
        for (unsigned h = 0; h < H && !rc; h++)
            for (unsigned i = 0; i < k && !rc && pair[h] >= 0; i++)
                rc = b_add(&b, h, SF_OP_SEND, (uint32_t)pair[h], s) | b_add(&b, h, SF_OP_RECV, (uint32_t)pair[h], 1);
        free(pair);
        if (bridge)
            snprintf(desc, sizeof desc, "bridge bytes=%llu messages=%u", (unsigned long long)s, k);
        else
            snprintf(desc, sizeof desc, "exchange bytes=%llu messages=%u pattern-seed=%llu", (unsigned long long)s, k,
                     (unsigned long long)p->seed);
    } else if (!strcmp(name, "alltoall") || !strcmp(name, "barrier")) {
        /* every host sends to every other (h+1, h+2, ... in turn), then takes any message in (Etsion et al. 2000 Fig. 11 left);
         * barrier: the same with one small message each, repeated */
        b_init(&b, H);
        for (unsigned i = 0; i < k && !rc; i++)
            for (unsigned h = 0; h < H && !rc; h++) {
                for (unsigned j = 1; j < H && !rc; j++)
                    rc = b_add(&b, h, SF_OP_SEND, (h + j) % H, s);
                if (!rc)
                    rc = b_add(&b, h, SF_OP_RECV, SF_WL_ANY, H - 1);
            }
        snprintf(desc, sizeof desc, "%s bytes=%llu messages=%u", name, (unsigned long long)s, k);
    } else if (!strcmp(name, "alltoall-phased")) {
        /* H-1 phases (Etsion et al. 2000 Fig. 11 right): in phase j host h pairs with h XOR j (power of 2 hosts) or sends to
         * h+j and takes from h-j; the lower of a pair sends first, the higher receives first */
        const int pow2 = !(H & (H - 1));
        b_init(&b, H);
        for (unsigned i = 0; i < k && !rc; i++)
            for (unsigned j = 1; j < H && !rc; j++)
                for (unsigned h = 0; h < H && !rc; h++) {
                    const unsigned to = pow2 ? h ^ j : (h + j) % H, from = pow2 ? h ^ j : (h + H - j) % H;
                    if (!pow2 || h < to)
                        rc = b_add(&b, h, SF_OP_SEND, to, s) | b_add(&b, h, SF_OP_RECV, from, 1);
                    else
                        rc = b_add(&b, h, SF_OP_RECV, from, 1) | b_add(&b, h, SF_OP_SEND, to, s);
                }
        snprintf(desc, sizeof desc, "alltoall-phased bytes=%llu messages=%u", (unsigned long long)s, k);
    } else if (!strcmp(name, "bcast-serial") || !strcmp(name, "gather")) {
        const int gather = name[0] == 'g';
        b_init(&b, H);
        for (unsigned i = 0; i < k && !rc; i++)
            for (unsigned j = 1; j < H && !rc; j++) {
                const unsigned h = (r + j) % H;
                rc = gather ? b_add(&b, h, SF_OP_SEND, r, s) | b_add(&b, r, SF_OP_RECV, h, 1)
                            : b_add(&b, r, SF_OP_SEND, h, s) | b_add(&b, h, SF_OP_RECV, r, 1);
            }
        snprintf(desc, sizeof desc, "%s bytes=%llu messages=%u root=%u", name, (unsigned long long)s, k, r);
    } else if (!strcmp(name, "bcast-tree")) {
        /* binomial tree on ranks relative to the root: rank q receives from q - 2^m (2^m its highest bit), then
         * sends to q + 2^j for every 2^j > q, the largest subtree first: in this numbering that is the nearest child
         * (q + the smallest 2^j), e.g. rank 0 sends to 1 (1, 3, 5, ...), then 2, 4, 8 (a leaf when H = 16) */
        b_init(&b, H);
        for (unsigned i = 0; i < k && !rc; i++)
            for (unsigned q = 0; q < H && !rc; q++) {
                const unsigned h = (q + r) % H;
                unsigned hb = 1;
                while (q && hb * 2 <= q)
                    hb *= 2;
                if (q)
                    rc = b_add(&b, h, SF_OP_RECV, (q - hb + r) % H, 1);
                unsigned c = 1;
                while (c <= q)
                    c *= 2;
                for (; q + c < H && !rc; c *= 2)
                    rc = b_add(&b, h, SF_OP_SEND, (q + c + r) % H, s);
            }
        snprintf(desc, sizeof desc, "bcast-tree bytes=%llu messages=%u root=%u", (unsigned long long)s, k, r);
    } else {
        snprintf(e->msg, sizeof e->msg, "unknown workload \"%.100s\" (%s, or a workload file)", name, sf_workload_names());
        return NULL;
    }
    if (rc) {
        b_free(&b);
        snprintf(e->msg, sizeof e->msg, "workload %s: more than %u operations", name, MAX_OPS);
        return NULL;
    }
    return b_finish(&b, desc);
}

/* ------------------------------------------------------------------ the workload file */

/* One parsed statement: an operation for a host set, or the start / end of a repeat block. */
typedef struct {
    int line;
    enum { ST_OP, ST_REPEAT, ST_END } what;
    uint64_t times;           /* repeat */
    uint32_t kind;            /* op */
    char hosts[256], peer[32];
    uint64_t arg;
} stmt;

/* 1 if host h is in the set "*", "N", "A-B" or a comma list of those; -1 on a bad set (message in why) */
static int in_set(const char *set, unsigned h, unsigned H, char *why, size_t wn)
{
    if (!strcmp(set, "*"))
        return 1;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", set);
    int hit = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char *dash = strchr(tok, '-');
        uint64_t a, b;
        if (dash) {
            *dash = 0;
            if (sf_parse_u64(tok, 0, H - 1, &a) || sf_parse_u64(dash + 1, 0, H - 1, &b) || b < a) {
                snprintf(why, wn, "bad host range \"%s-%s\" (hosts 0..%u)", tok, dash + 1, H - 1);
                return -1;
            }
        } else if (sf_parse_u64(tok, 0, H - 1, &a)) {
            snprintf(why, wn, "bad host \"%s\" (hosts 0..%u, a range A-B, a list, or *)", tok, H - 1);
            return -1;
        } else
            b = a;
        if (h >= a && h <= b)
            hit = 1;
    }
    return hit;
}

/* the peer of host h: N, +K (h+K mod H), -K (h-K mod H), ^K (h XOR K), any (recv only) */
static int peer_of(const char *p, unsigned h, unsigned H, int recv, uint32_t *out, char *why, size_t wn)
{
    uint64_t v;
    if (recv && !strcmp(p, "any")) {
        *out = SF_WL_ANY;
        return 0;
    }
    if ((p[0] == '+' || p[0] == '-' || p[0] == '^') && !sf_parse_u64(p + 1, 0, UINT32_MAX, &v)) {
        const uint64_t d = p[0] == '+' ? (h + v) % H : p[0] == '-' ? (h + H - v % H) % H : (uint64_t)(h ^ (uint32_t)v);
        if (d >= H) {
            snprintf(why, wn, "peer %s of host %u is host %llu, past the last host %u", p, h, (unsigned long long)d, H - 1);
            return -1;
        }
        *out = (uint32_t)d;
    } else if (!sf_parse_u64(p, 0, H - 1, &v))
        *out = (uint32_t)v;
    else {
        snprintf(why, wn, "bad peer \"%s\" (a host 0..%u, +K, -K, ^K%s)", p, H - 1, recv ? ", or any" : "");
        return -1;
    }
    if (*out == h) {
        snprintf(why, wn, "host %u would %s itself", h, recv ? "receive from" : "send to");
        return -1;
    }
    return 0;
}

/* expands statements [i, end of block) into the builder; returns the index after the block's END, -1 on error */
static long expand(const stmt *st, long n, long i, builder *b, const char *path, sf_err *e)
{
    while (i < n) {
        const stmt *s = &st[i];
        if (s->what == ST_END)
            return i + 1;
        if (s->what == ST_REPEAT) {
            long after = i + 1;
            for (uint64_t r = 0; r < s->times; r++) {
                after = expand(st, n, i + 1, b, path, e);
                if (after < 0)
                    return -1;
            }
            i = after;
            continue;
        }
        char why[200];
        for (unsigned h = 0; h < b->H; h++) {
            int in = in_set(s->hosts, h, b->H, why, sizeof why);
            uint32_t peer = 0;
            if (in > 0 && (s->kind == SF_OP_SEND || s->kind == SF_OP_RECV))
                in = peer_of(s->peer, h, b->H, s->kind == SF_OP_RECV, &peer, why, sizeof why) ? -1 : 1;
            if (in < 0) {
                snprintf(e->msg, sizeof e->msg, "%.380s:%d: %.190s", path, s->line, why);
                return -1;
            }
            if (in && b_add(b, h, s->kind, peer, s->arg)) {
                snprintf(e->msg, sizeof e->msg, "%.300s:%d: more than %u operations in all programs", path, s->line, MAX_OPS);
                return -1;
            }
        }
        i++;
    }
    return i;
}

/* every recv from a given host can be matched by as many messages sent (counted over the whole programs) */
static int check_matched(const sf_workload *w, const char *path, sf_err *e)
{
    const unsigned H = w->hosts;
    if (H > 2048)
        return 0;
    int64_t *bal = sf_xcalloc((size_t)H * H, sizeof *bal); /* [dst][src]: sent - received */
    int64_t *any = sf_xcalloc(H, sizeof *any);
    for (unsigned h = 0; h < H; h++)
        for (uint32_t i = w->off[h]; i < w->off[h + 1]; i++) {
            const sf_op *o = &w->ops[i];
            if (o->kind == SF_OP_SEND)
                bal[(size_t)o->peer * H + h]++;
            else if (o->kind == SF_OP_RECV && o->peer == SF_WL_ANY)
                any[h] += (int64_t)o->arg;
            else if (o->kind == SF_OP_RECV)
                bal[(size_t)h * H + o->peer] -= (int64_t)o->arg;
        }
    int rc = 0;
    for (unsigned d = 0; d < H && !rc; d++) {
        int64_t spare = 0;
        for (unsigned s = 0; s < H && !rc; s++) {
            const int64_t x = bal[(size_t)d * H + s];
            if (x < 0) {
                snprintf(e->msg, sizeof e->msg, "%.400s: host %u receives %lld more message(s) from host %u than it is sent: "
                         "the programs would never end", path, d, (long long)-x, s);
                rc = -1;
            }
            spare += x;
        }
        if (!rc && any[d] > spare) {
            snprintf(e->msg, sizeof e->msg, "%.400s: host %u receives %lld message(s) from any host, only %lld are left for "
                     "it: the programs would never end", path, d, (long long)any[d], (long long)spare);
            rc = -1;
        }
    }
    free(bal);
    free(any);
    return rc;
}

sf_workload *sf_workload_read(const char *path, unsigned H, sf_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(e->msg, sizeof e->msg, "%.400s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    stmt *st = NULL;
    long n = 0, cap = 0;
    int depth = 0, ln = 0, header = 0, rc = 0, rep_line[16];
    char line[1024];
    while (!rc && fgets(line, sizeof line, f)) {
        ln++;
        const size_t L = strlen(line);
        if (L == sizeof line - 1 && line[L - 1] != '\n') {
            snprintf(e->msg, sizeof e->msg, "%.400s:%d: line too long", path, ln);
            rc = -1;
            break;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *w[8];
        int nw = 0;
        for (char *tok = strtok(line, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
            if (nw == 8) {
                nw = 9;
                break;
            }
            w[nw++] = tok;
        }
        if (!nw)
            continue;
        if (!header) {
            if (nw != 2 || strcmp(w[0], "sanfab-workload") || strcmp(w[1], "1")) {
                snprintf(e->msg, sizeof e->msg, "%.400s:%d: first line must be \"sanfab-workload 1\"", path, ln);
                rc = -1;
            }
            header = 1;
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            stmt *x = realloc(st, (size_t)cap * sizeof *x);
            if (!x) {
                fprintf(stderr, "sanfab-sim: out of memory\n");
                exit(2);
            }
            st = x;
        }
        stmt *s = &st[n];
        memset(s, 0, sizeof *s);
        s->line = ln;
        uint64_t v;
        if (!strcmp(w[0], "repeat")) {
            if (nw != 2 || sf_parse_u64(w[1], 1, 1000000000, &v)) {
                snprintf(e->msg, sizeof e->msg, "%.400s:%d: expected \"repeat N\" with N 1..10^9", path, ln);
                rc = -1;
            } else if (depth == 16) {
                snprintf(e->msg, sizeof e->msg, "%.400s:%d: repeat blocks nested more than 16 deep", path, ln);
                rc = -1;
            } else {
                rep_line[depth++] = ln;
                s->what = ST_REPEAT;
                s->times = v;
                n++;
            }
            continue;
        }
        if (!strcmp(w[0], "end")) {
            if (nw != 1 || !depth) {
                snprintf(e->msg, sizeof e->msg, "%.400s:%d: %s", path, ln, depth ? "\"end\" takes nothing" : "\"end\" without \"repeat\"");
                rc = -1;
            } else {
                depth--;
                s->what = ST_END;
                n++;
            }
            continue;
        }
        /* HOSTS OP ARGS */
        if (nw < 2) {
            snprintf(e->msg, sizeof e->msg, "%.400s:%d: expected HOSTS OP [ARGS] (OP: send, recv, barrier, compute), repeat N or end",
                     path, ln);
            rc = -1;
            continue;
        }
        if (strlen(w[0]) >= sizeof s->hosts) {
            snprintf(e->msg, sizeof e->msg, "%.400s:%d: host set too long", path, ln);
            rc = -1;
            continue;
        }
        char why[200];
        if (in_set(w[0], 0, H, why, sizeof why) < 0) {
            snprintf(e->msg, sizeof e->msg, "%.380s:%d: %.190s", path, ln, why);
            rc = -1;
            continue;
        }
        snprintf(s->hosts, sizeof s->hosts, "%s", w[0]);
        const char *op = w[1];
        s->what = ST_OP;
        if (!strcmp(op, "send")) {
            if (nw != 4 || strlen(w[2]) >= sizeof s->peer || sf_parse_u64(w[3], 1, MAX_BYTES, &v)) {
                snprintf(e->msg, sizeof e->msg, "%.400s:%d: expected \"HOSTS send DST BYTES\" (DST: host, +K, -K or ^K; BYTES "
                         "1..2^40)", path, ln);
                rc = -1;
                continue;
            }
            s->kind = SF_OP_SEND;
            s->arg = v;
            snprintf(s->peer, sizeof s->peer, "%s", w[2]);
        } else if (!strcmp(op, "recv")) {
            v = 1;
            if ((nw != 3 && nw != 4) || strlen(w[2]) >= sizeof s->peer || (nw == 4 && sf_parse_u64(w[3], 1, 1000000000, &v))) {
                snprintf(e->msg, sizeof e->msg, "%.400s:%d: expected \"HOSTS recv SRC [COUNT]\" (SRC: host, +K, -K, ^K or any; "
                         "COUNT 1..10^9)", path, ln);
                rc = -1;
                continue;
            }
            s->kind = SF_OP_RECV;
            s->arg = v;
            snprintf(s->peer, sizeof s->peer, "%s", w[2]);
        } else if (!strcmp(op, "barrier")) {
            if (nw != 2 || strcmp(w[0], "*")) {
                snprintf(e->msg, sizeof e->msg, "%.400s:%d: expected \"* barrier\" (every host takes part)", path, ln);
                rc = -1;
                continue;
            }
            s->kind = SF_OP_BARRIER;
        } else if (!strcmp(op, "compute")) {
            if (nw != 3 || sf_parse_u64(w[2], 1, 1000000000000ull, &v)) {
                snprintf(e->msg, sizeof e->msg, "%.400s:%d: expected \"HOSTS compute CYCLES\" (1..10^12)", path, ln);
                rc = -1;
                continue;
            }
            s->kind = SF_OP_COMPUTE;
            s->arg = v;
        } else {
            snprintf(e->msg, sizeof e->msg, "%.400s:%d: unknown operation \"%.60s\" (send, recv, barrier, compute)", path, ln, op);
            rc = -1;
            continue;
        }
        n++;
    }
    fclose(f);
    if (!rc && !header) {
        snprintf(e->msg, sizeof e->msg, "%.400s:%d: first line must be \"sanfab-workload 1\"", path, ln ? ln : 1);
        rc = -1;
    }
    if (!rc && depth) {
        snprintf(e->msg, sizeof e->msg, "%.400s:%d: \"repeat\" without \"end\"", path, rep_line[depth - 1]);
        rc = -1;
    }
    sf_workload *wl = NULL;
    if (!rc) {
        builder b;
        b_init(&b, H);
        if (expand(st, n, 0, &b, path, e) < 0)
            b_free(&b);
        else {
            char desc[256];
            const char *base = strrchr(path, '/');
            snprintf(desc, sizeof desc, "file %.200s", base ? base + 1 : path);
            wl = b_finish(&b, desc);
            if (check_matched(wl, path, e)) {
                sf_workload_free(wl);
                wl = NULL;
            }
        }
    }
    free(st);
    return wl;
}

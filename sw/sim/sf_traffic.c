/* sf_traffic.c - the traffic and measurement layer every NIC kind shares (sf_traffic.h, docs/network.md). */
#include "sf_traffic.h"

#include "sf_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIST_EXACT 1024u
#define HIST_N (HIST_EXACT + 56u * 64u)

typedef struct {
    sf_rng rng;
    uint64_t next_gen, interval; /* 16.16 fixed-point cycles */
    sf_msg *msg;
    uint32_t nmsg, cap, next_inj;
} host_t;

struct sf_traffic {
    sf_traffic_params p;
    const sf_topo *t;
    unsigned H;
    host_t *host;
    int32_t *dstmap;             /* fixed patterns: destination of each source, -1 none */
    int32_t *loc_off, *loc_list; /* local: candidate hosts per source switch (CSR) */
    uint32_t hotspot;
    int gen_on;
    uint64_t win_start;
    sf_traffic_counts c, c_win0;
    uint64_t ended; /* messages delivered or lost (in flight = generated - ended) */
    uint64_t hist[HIST_N];
    uint64_t lat_n, lat_max;
    double lat_sum, lat_net_sum, marks_sum;
};

static const char *const pattern_names[SF_TR_NPATTERNS] = {"uniform",   "bit-reversal", "hotspot",     "local",
                                                           "transpose", "complement",   "permutation", "butterfly"};

const char *sf_pattern_name(sf_pattern t) { return (unsigned)t < SF_TR_NPATTERNS ? pattern_names[t] : "?"; }

int sf_pattern_parse(const char *s)
{
    for (int i = 0; i < SF_TR_NPATTERNS; i++)
        if (strcmp(s, pattern_names[i]) == 0)
            return i;
    return -1;
}

const char *sf_pattern_names(void)
{
    return "uniform, bit-reversal, hotspot, local, transpose, complement, permutation, butterfly";
}

static int is_pow2(unsigned x) { return x && !(x & (x - 1)); }

static unsigned log2u(unsigned x)
{
    unsigned l = 0;
    while ((1u << l) < x)
        l++;
    return l;
}

/* The fixed destination of source s under a bit pattern of b = log2(H) bits. */
static unsigned bit_pattern(sf_pattern pat, unsigned s, unsigned b)
{
    unsigned d = 0;
    switch (pat) {
    case SF_TR_BITREV: /* the b bits in reverse order */
        for (unsigned i = 0; i < b; i++)
            if (s & (1u << i))
                d |= 1u << (b - 1 - i);
        return d;
    case SF_TR_TRANSPOSE: { /* s = row * 2^hb + column of a 2^(b-hb) x 2^hb matrix -> column * 2^(b-hb) + row */
        const unsigned hb = b / 2, col = s & ((1u << hb) - 1u), row = s >> hb;
        return (col << (b - hb)) | row;
    }
    default: /* SF_TR_BUTTERFLY: the most and the least significant bit exchanged */
        if (b < 2)
            return s;
        d = s & ~(1u | (1u << (b - 1)));
        return d | ((s & 1u) << (b - 1)) | ((s >> (b - 1)) & 1u);
    }
}

sf_traffic *sf_traffic_new(const sf_topo *t, const sf_traffic_params *p, sf_err *e)
{
    const unsigned H = (unsigned)t->nhost;
    if (H < 2) {
        snprintf(e->msg, sizeof e->msg, "the network needs at least 2 hosts");
        return NULL;
    }
    const sf_pattern pat = p->pattern;
    if ((pat == SF_TR_BITREV || pat == SF_TR_TRANSPOSE || pat == SF_TR_BUTTERFLY) && !is_pow2(H)) {
        snprintf(e->msg, sizeof e->msg, "%s traffic needs a host count that is a power of 2 (have %u hosts)",
                 sf_pattern_name(pat), H);
        return NULL;
    }
    sf_traffic *tr = sf_xcalloc(1, sizeof *tr);
    tr->p = *p;
    tr->t = t;
    tr->H = H;
    tr->gen_on = 1;
    /* one generator for the run's shared choices, drawn in this order: hotspot, permutation, phases */
    sf_rng g;
    sf_rng_seed(&g, p->seed);
    tr->hotspot = sf_rng_below(&g, H);
    tr->dstmap = sf_xcalloc(H, sizeof *tr->dstmap);
    for (unsigned s = 0; s < H; s++)
        tr->dstmap[s] = -1;
    if (pat == SF_TR_BITREV || pat == SF_TR_TRANSPOSE || pat == SF_TR_BUTTERFLY) {
        const unsigned b = log2u(H);
        for (unsigned s = 0; s < H; s++) {
            const unsigned d = bit_pattern(pat, s, b);
            tr->dstmap[s] = d == s ? -1 : (int32_t)d;
        }
    } else if (pat == SF_TR_COMPLEMENT) {
        for (unsigned s = 0; s < H; s++)
            tr->dstmap[s] = H - 1 - s == s ? -1 : (int32_t)(H - 1 - s);
    } else if (pat == SF_TR_PERM) {
        int *perm = sf_xcalloc(H, sizeof *perm);
        for (unsigned s = 0; s < H; s++)
            perm[s] = (int)s;
        sf_rng_shuffle(&g, perm, (int)H);
        for (unsigned s = 0; s < H; s++) /* no host sends to itself: swap fixed points with the next */
            if (perm[s] == (int)s) {
                unsigned o = (s + 1) % H;
                int x = perm[s];
                perm[s] = perm[o];
                perm[o] = x;
            }
        for (unsigned s = 0; s < H; s++)
            tr->dstmap[s] = perm[s];
        free(perm);
    } else if (pat == SF_TR_LOCAL) {
        int *dist = sf_topo_distances(t);
        unsigned S = (unsigned)t->nsw;
        tr->loc_off = sf_xcalloc(S + 1, sizeof *tr->loc_off);
        tr->loc_list = sf_xcalloc((size_t)S * H, sizeof *tr->loc_list);
        unsigned k = 0;
        for (unsigned a = 0; a < S; a++) {
            tr->loc_off[a] = (int32_t)k;
            for (unsigned h = 0; h < H; h++) {
                int dd = dist[a * S + (unsigned)t->host[h].sw];
                if (dd >= 0 && dd <= p->local_l)
                    tr->loc_list[k++] = (int32_t)h;
            }
        }
        tr->loc_off[S] = (int32_t)k;
        free(dist);
    }
    tr->host = sf_xcalloc(H, sizeof *tr->host);
    const uint64_t interval = p->rate > 0 ? (uint64_t)llround(65536.0 / p->rate) : 0;
    for (unsigned h = 0; h < H; h++) {
        host_t *c = &tr->host[h];
        sf_rng_seed(&c->rng, p->seed ^ (0x9E3779B97F4A7C15ull * (h + 1)));
        c->interval = interval;
        c->next_gen = interval ? (1u << 16) + sf_rng_next(&g) % interval : UINT64_MAX;
    }
    return tr;
}

void sf_traffic_free(sf_traffic *tr)
{
    if (!tr)
        return;
    if (tr->host)
        for (unsigned h = 0; h < tr->H; h++)
            free(tr->host[h].msg);
    free(tr->host);
    free(tr->dstmap);
    free(tr->loc_off);
    free(tr->loc_list);
    free(tr);
}

unsigned sf_traffic_hosts(const sf_traffic *tr) { return tr->H; }

sf_rng *sf_traffic_rng(sf_traffic *tr, unsigned h) { return &tr->host[h].rng; }

void sf_traffic_set_generate(sf_traffic *tr, int on) { tr->gen_on = on; }

int sf_traffic_hotspot(const sf_traffic *tr) { return tr->p.pattern == SF_TR_HOTSPOT ? (int)tr->hotspot : -1; }

int sf_traffic_fixed_dst(const sf_traffic *tr, unsigned s) { return s < tr->H ? tr->dstmap[s] : -1; }

static int pick_dst(sf_traffic *tr, host_t *c, unsigned s)
{
    const unsigned H = tr->H;
    switch (tr->p.pattern) {
    case SF_TR_HOTSPOT:
        if (s != tr->hotspot && sf_rng_unit(&c->rng) < tr->p.hotspot_frac)
            return (int)tr->hotspot;
        /* fall through */
    case SF_TR_UNIFORM: {
        unsigned d = sf_rng_below(&c->rng, H - 1);
        return (int)(d >= s ? d + 1 : d);
    }
    case SF_TR_LOCAL: {
        unsigned a = (unsigned)tr->t->host[s].sw;
        int32_t lo = tr->loc_off[a], m = tr->loc_off[a + 1] - lo;
        if (m < 2)
            return -1;
        int d;
        do
            d = tr->loc_list[lo + (int32_t)sf_rng_below(&c->rng, (uint32_t)m)];
        while (d == (int)s);
        return d;
    }
    default:
        return tr->dstmap[s];
    }
}

void sf_traffic_generate(sf_traffic *tr, unsigned s, uint64_t cycle)
{
    if (!tr->gen_on)
        return;
    host_t *c = &tr->host[s];
    const uint64_t now = cycle << 16;
    while (c->next_gen <= now) {
        c->next_gen += c->interval;
        int d = pick_dst(tr, c, s);
        if (d < 0)
            continue;
        if (c->nmsg == c->cap) {
            c->cap = c->cap ? 2 * c->cap : 256;
            c->msg = realloc(c->msg, c->cap * sizeof *c->msg);
            if (!c->msg) {
                fprintf(stderr, "sanfab-sim: out of memory\n");
                exit(2);
            }
        }
        c->msg[c->nmsg++] = (sf_msg){cycle, 0, (uint32_t)d, SF_MSG_QUEUED, 0};
        tr->c.generated++;
        tr->c.gen_units += tr->p.msg_units;
        if (tr->p.pattern == SF_TR_HOTSPOT && (uint32_t)d == tr->hotspot)
            tr->c.hot_gen_units += tr->p.msg_units;
    }
}

void sf_traffic_generate_all(sf_traffic *tr, uint64_t cycle)
{
    if (!tr->gen_on)
        return;
    const uint64_t now = cycle << 16;
    for (unsigned h = 0; h < tr->H; h++)
        if (tr->host[h].next_gen <= now)
            sf_traffic_generate(tr, h, cycle);
}

const sf_msg *sf_traffic_head(const sf_traffic *tr, unsigned h, uint32_t *seq)
{
    const host_t *c = &tr->host[h];
    if (c->next_inj >= c->nmsg)
        return NULL;
    if (seq)
        *seq = c->next_inj;
    return &c->msg[c->next_inj];
}

unsigned sf_traffic_queued_at(const sf_traffic *tr, unsigned h) { return tr->host[h].nmsg - tr->host[h].next_inj; }

void sf_traffic_start(sf_traffic *tr, unsigned h, uint64_t cycle, unsigned marks)
{
    host_t *c = &tr->host[h];
    sf_msg *m = &c->msg[c->next_inj++];
    m->inj = cycle;
    m->state = SF_MSG_SENT;
    m->marks = (uint8_t)(marks > 255 ? 255 : marks);
    tr->c.injected++;
}

static sf_msg *find_msg(sf_traffic *tr, uint32_t src, uint32_t seq)
{
    if (src >= tr->H || seq >= tr->host[src].nmsg)
        return NULL;
    return &tr->host[src].msg[seq];
}

static unsigned hist_index(uint64_t v)
{
    if (v < HIST_EXACT)
        return (unsigned)v;
    unsigned e = 63u - (unsigned)__builtin_clzll(v); /* >= 10 */
    unsigned m = (unsigned)(v >> (e - 6)) & 63u;
    unsigned i = HIST_EXACT + (e - 10) * 64u + m;
    return i < HIST_N ? i : HIST_N - 1;
}

static double hist_value(unsigned i)
{
    if (i < HIST_EXACT)
        return i;
    unsigned e = (i - HIST_EXACT) / 64u + 10u, m = (i - HIST_EXACT) % 64u;
    double lo = ldexp(64.0 + m, (int)e - 6), w = ldexp(1.0, (int)e - 6);
    return lo + (w - 1) / 2.0;
}

int sf_traffic_deliver(sf_traffic *tr, unsigned h, int known, uint32_t src, uint32_t seq, uint64_t cycle)
{
    sf_msg *m = known ? find_msg(tr, src, seq) : NULL;
    if (!m || m->dst != h) {
        tr->c.misrouted++;
        return SF_DELIV_MISROUTED;
    }
    if (m->state != SF_MSG_SENT) {
        tr->c.duplicate++;
        return SF_DELIV_DUPLICATE;
    }
    m->state = SF_MSG_DONE;
    tr->ended++;
    tr->c.delivered++;
    tr->c.deliv_units += tr->p.msg_units;
    if (tr->p.pattern == SF_TR_HOTSPOT && h == tr->hotspot)
        tr->c.hot_deliv_units += tr->p.msg_units;
    if (m->gen >= tr->win_start) {
        uint64_t l = cycle - m->gen;
        tr->hist[hist_index(l)]++;
        tr->lat_n++;
        tr->lat_sum += (double)l;
        tr->lat_net_sum += (double)(cycle - m->inj);
        tr->marks_sum += m->marks;
        if (l > tr->lat_max)
            tr->lat_max = l;
    }
    return SF_DELIV_OK;
}

void sf_traffic_lost(sf_traffic *tr, uint32_t src, uint32_t seq)
{
    sf_msg *m = find_msg(tr, src, seq);
    if (m && m->state == SF_MSG_SENT) {
        m->state = SF_MSG_LOST;
        tr->ended++;
    }
}

void sf_traffic_window_start(sf_traffic *tr, uint64_t cycle)
{
    tr->win_start = cycle;
    tr->c_win0 = tr->c;
    memset(tr->hist, 0, sizeof tr->hist);
    tr->lat_n = tr->lat_max = 0;
    tr->lat_sum = tr->lat_net_sum = tr->marks_sum = 0;
}

uint64_t sf_traffic_window(const sf_traffic *tr) { return tr->win_start; }

void sf_traffic_counts_get(const sf_traffic *tr, sf_traffic_counts *all, sf_traffic_counts *win)
{
    if (all)
        *all = tr->c;
    if (win) {
        const uint64_t *a = (const uint64_t *)&tr->c, *b = (const uint64_t *)&tr->c_win0;
        uint64_t *w = (uint64_t *)win;
        for (size_t i = 0; i < sizeof(sf_traffic_counts) / sizeof(uint64_t); i++)
            w[i] = a[i] - b[i];
    }
}

uint64_t sf_traffic_in_flight(const sf_traffic *tr) { return tr->c.generated - tr->ended; }

uint64_t sf_traffic_queued(const sf_traffic *tr)
{
    uint64_t k = 0;
    for (unsigned h = 0; h < tr->H; h++)
        k += tr->host[h].nmsg - tr->host[h].next_inj;
    return k;
}

void sf_traffic_latency(const sf_traffic *tr, sf_lat *l)
{
    memset(l, 0, sizeof *l);
    l->count = tr->lat_n;
    if (!tr->lat_n)
        return;
    l->avg = tr->lat_sum / (double)tr->lat_n;
    l->avg_net = tr->lat_net_sum / (double)tr->lat_n;
    l->marks_per_msg = tr->marks_sum / (double)tr->lat_n;
    l->max = (double)tr->lat_max;
    const double q[3] = {0.50, 0.95, 0.99};
    double *o[3] = {&l->p50, &l->p95, &l->p99};
    for (int j = 0; j < 3; j++) {
        uint64_t want = (uint64_t)ceil(q[j] * (double)tr->lat_n), acc = 0;
        if (want < 1)
            want = 1;
        for (unsigned i = 0; i < HIST_N; i++) {
            acc += tr->hist[i];
            if (acc >= want) {
                *o[j] = hist_value(i);
                break;
            }
        }
    }
}

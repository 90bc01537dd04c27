/* sf_nic.c - the NIC layer of the crossbar network simulator (see sf_nic.h, docs/network.md). */
#include "sf_nic.h"

#include "link.h"
#include "sf_rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* message states */
enum { M_QUEUED = 0, M_SENT, M_DONE, M_LOST };
/* receive states */
enum { RX_IDLE = 0, RX_LOCAL, RX_ITB, RX_DISCARD };
/* transmit states */
enum { TX_NONE = 0, TX_LOCAL, TX_ITB, TX_GAP };

#define TYPE_BYTE 0x01u
#define HIST_EXACT 1024u
#define HIST_N (HIST_EXACT + 56u * 64u)

typedef struct {
    uint64_t gen, inj;
    uint32_t dst;
    uint8_t state, itbs;
} msg_t;

typedef struct itb_ent {
    uint8_t *buf;
    unsigned len;
    uint8_t ended, bad, aborted;
    uint64_t ready;
    struct itb_ent *next; /* free list */
} itb_ent;

typedef struct {
    sf_rng rng;
    uint64_t next_gen, interval; /* 16.16 fixed-point cycles */
    msg_t *msg;
    uint32_t nmsg, cap, next_inj;
    /* transmit */
    uint8_t stop, want, ann, tx_mode, crc;
    unsigned it_run;
    const uint8_t *route;
    unsigned rlen, pos, plen;
    uint32_t seq;
    itb_ent *tx_itb;
    /* ITB pool: FIFO of entries waiting for re-injection */
    itb_ent **fifo;
    unsigned fhead, fn, fcap;
    uint64_t resv, held_bytes, held_pkts;
    uint64_t t_last, max_pkts, max_bytes;
    double area_pkts, area_bytes;
    /* receive */
    uint16_t *rxq;
    unsigned rx_head, rx_n, drain_acc;
    uint8_t rx_state, rx_crc;
    int rx_body; /* -1 while in route bytes / ITB marks, else index in the body (0 = type) */
    uint8_t rx_id[8];
    itb_ent *rx_itb;
} nic_t;

struct sf_nics {
    sf_nic_params p;
    const sf_topo *t;
    unsigned H, nalt;
    nic_t *nic;
    /* routes: per (src, dst, alt) an offset into rbytes (-1 none), length, ITB marks */
    int32_t *roff;
    uint16_t *rlen;
    uint8_t *ritb, *rbytes;
    unsigned maxpkt;
    int32_t *dstmap;       /* fixed patterns: destination of each source, -1 none */
    int32_t *loc_off, *loc_list; /* local: candidate hosts per source switch (CSR) */
    uint32_t hotspot;
    int gen_on;
    uint64_t win_start;
    sf_nic_counts c, c_win0;
    uint64_t hist[HIST_N];
    uint64_t lat_n, lat_max;
    double lat_sum, lat_net_sum, itb_sum;
    itb_ent *free_ents;
    uint8_t crc_tab[256];
};

const char *sf_traffic_name(sf_traffic t)
{
    static const char *const n[] = {"uniform", "bit-reversal", "hotspot", "local", "transpose", "complement", "permutation"};
    return (unsigned)t < sizeof n / sizeof n[0] ? n[t] : "?";
}

int sf_traffic_parse(const char *s)
{
    for (int i = 0; i <= SF_TR_PERM; i++)
        if (strcmp(s, sf_traffic_name((sf_traffic)i)) == 0)
            return i;
    return -1;
}

void sf_nic_params_default(sf_nic_params *p)
{
    memset(p, 0, sizeof *p);
    p->traffic = SF_TR_UNIFORM;
    p->hotspot_frac = 0.05;
    p->local_l = 3;
    p->msg_size = 512;
    p->rate = 0;
    p->alt_random = 1;
    p->itb_detect = 44;
    p->itb_dma = 32;
    p->itb_pool = 512u * 1024u;
    p->prio_equal = 8;
    p->rx_buf = 80;
    p->rx_stop = 56;
    p->rx_go = 40;
    p->rx_drain_per_64 = 64;
    p->seed = 1;
}

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "sanfab-sim: out of memory\n");
        exit(2);
    }
    return p;
}

static int is_pow2(unsigned x) { return x && !(x & (x - 1)); }

static unsigned log2u(unsigned x)
{
    unsigned l = 0;
    while ((1u << l) < x)
        l++;
    return l;
}

sf_nics *sf_nics_new(const sf_topo *t, const sf_routes *rs, const sf_nic_params *p, sf_err *e)
{
    if (rs->nvc > 1) {
        snprintf(e->msg, sizeof e->msg, "the route set uses %d VCs; the crossbar network has none", rs->nvc);
        return NULL;
    }
    if (rs->map) {
        snprintf(e->msg, sizeof e->msg, "route sets with a logical-to-physical host map (FM --map random) are not supported");
        return NULL;
    }
    if (p->msg_size < 8 || p->msg_size > 65536) {
        snprintf(e->msg, sizeof e->msg, "message size %u out of range 8..65536 (source and sequence number travel in the first 8 bytes)",
                 p->msg_size);
        return NULL;
    }
    unsigned H = (unsigned)t->nhost;
    if (H < 2) {
        snprintf(e->msg, sizeof e->msg, "the network needs at least 2 hosts");
        return NULL;
    }
    sf_nics *n = xcalloc(1, sizeof *n);
    n->p = *p;
    n->t = t;
    n->H = H;
    n->nalt = (unsigned)rs->nalt;
    n->gen_on = 1;
    for (unsigned x = 0; x < 256; x++)
        n->crc_tab[x] = crc8_step(0, (uint8_t)x);
    /* route table */
    size_t np = (size_t)H * H * n->nalt;
    n->roff = xcalloc(np, sizeof *n->roff);
    n->rlen = xcalloc(np, sizeof *n->rlen);
    n->ritb = xcalloc(np, 1);
    for (size_t i = 0; i < np; i++)
        n->roff[i] = -1;
    size_t cap = 1024, used = 0;
    n->rbytes = xcalloc(cap, 1);
    unsigned maxr = 0;
    for (unsigned s = 0; s < H; s++)
        for (unsigned d = 0; d < H; d++) {
            if (s == d)
                continue;
            for (unsigned a = 0; a < n->nalt; a++) {
                int cnt = 0, vc0 = 0;
                const sf_hop *h = sf_routes_get(rs, (int)s, (int)d, (int)a, &cnt, &vc0);
                if (!h)
                    continue;
                if (used + 2 * (size_t)cnt + 2 > cap) {
                    cap = 2 * cap + 2 * (size_t)cnt + 2;
                    n->rbytes = realloc(n->rbytes, cap);
                    if (!n->rbytes) {
                        fprintf(stderr, "sanfab-sim: out of memory\n");
                        exit(2);
                    }
                }
                size_t at = used, k = (s * (size_t)H + d) * n->nalt + a;
                unsigned marks = 0;
                for (int i = 0; i < cnt; i++) {
                    n->rbytes[used++] = ROUTE_BYTE(h[i].port);
                    if (h[i].itb) {
                        n->rbytes[used++] = ITB_MARK;
                        marks++;
                    }
                }
                n->rbytes[used++] = ROUTE_BYTE(t->host[d].port);
                n->roff[k] = (int32_t)at;
                n->rlen[k] = (uint16_t)(used - at);
                n->ritb[k] = (uint8_t)marks;
                if (used - at > maxr)
                    maxr = (unsigned)(used - at);
            }
            if (n->roff[(s * (size_t)H + d) * n->nalt] < 0) {
                snprintf(e->msg, sizeof e->msg, "no route (alternative 0) from host %u to host %u", s, d);
                sf_nics_free(n);
                return NULL;
            }
        }
    n->maxpkt = maxr + 1 + p->msg_size + 1;
    /* destinations */
    sf_rng g;
    sf_rng_seed(&g, p->seed);
    n->hotspot = sf_rng_below(&g, H);
    n->dstmap = xcalloc(H, sizeof *n->dstmap);
    for (unsigned s = 0; s < H; s++)
        n->dstmap[s] = -1;
    if (p->traffic == SF_TR_BITREV || p->traffic == SF_TR_TRANSPOSE) {
        unsigned b = log2u(H);
        if (!is_pow2(H) || (p->traffic == SF_TR_TRANSPOSE && (b & 1))) {
            snprintf(e->msg, sizeof e->msg, "%s traffic needs a host count that is a power of 2%s (have %u hosts)",
                     sf_traffic_name(p->traffic), p->traffic == SF_TR_TRANSPOSE ? " with an even exponent" : "", H);
            sf_nics_free(n);
            return NULL;
        }
        for (unsigned s = 0; s < H; s++) {
            unsigned d = 0;
            if (p->traffic == SF_TR_BITREV) {
                for (unsigned i = 0; i < b; i++)
                    if (s & (1u << i))
                        d |= 1u << (b - 1 - i);
            } else {
                unsigned hb = b / 2, lo = s & ((1u << hb) - 1u);
                d = (lo << hb) | (s >> hb);
            }
            n->dstmap[s] = d == s ? -1 : (int32_t)d;
        }
    } else if (p->traffic == SF_TR_COMPLEMENT) {
        for (unsigned s = 0; s < H; s++)
            n->dstmap[s] = H - 1 - s == s ? -1 : (int32_t)(H - 1 - s);
    } else if (p->traffic == SF_TR_PERM) {
        int *perm = xcalloc(H, sizeof *perm);
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
            n->dstmap[s] = perm[s];
        free(perm);
    } else if (p->traffic == SF_TR_LOCAL) {
        int *dist = sf_topo_distances(t);
        unsigned S = (unsigned)t->nsw;
        n->loc_off = xcalloc(S + 1, sizeof *n->loc_off);
        n->loc_list = xcalloc((size_t)S * H, sizeof *n->loc_list);
        unsigned k = 0;
        for (unsigned a = 0; a < S; a++) {
            n->loc_off[a] = (int32_t)k;
            for (unsigned h = 0; h < H; h++) {
                int dd = dist[a * S + (unsigned)t->host[h].sw];
                if (dd >= 0 && dd <= p->local_l)
                    n->loc_list[k++] = (int32_t)h;
            }
        }
        n->loc_off[S] = (int32_t)k;
        free(dist);
    }
    /* NICs */
    n->nic = xcalloc(H, sizeof *n->nic);
    uint64_t interval = p->rate > 0 ? (uint64_t)llround(65536.0 / p->rate) : 0;
    for (unsigned h = 0; h < H; h++) {
        nic_t *c = &n->nic[h];
        sf_rng_seed(&c->rng, p->seed ^ (0x9E3779B97F4A7C15ull * (h + 1)));
        c->interval = interval;
        c->next_gen = interval ? (1u << 16) + sf_rng_next(&g) % interval : UINT64_MAX;
        c->rxq = xcalloc(p->rx_buf ? p->rx_buf : 1, sizeof *c->rxq);
        c->fcap = 16;
        c->fifo = xcalloc(c->fcap, sizeof *c->fifo);
    }
    return n;
}

void sf_nics_free(sf_nics *n)
{
    if (!n)
        return;
    if (n->nic)
        for (unsigned h = 0; h < n->H; h++) {
            nic_t *c = &n->nic[h];
            free(c->msg);
            free(c->rxq);
            for (unsigned i = 0; i < c->fn; i++) {
                itb_ent *x = c->fifo[(c->fhead + i) % c->fcap];
                if (x != c->rx_itb && x != c->tx_itb) {
                    free(x->buf);
                    free(x);
                }
            }
            if (c->tx_itb && c->tx_itb != c->rx_itb) {
                free(c->tx_itb->buf);
                free(c->tx_itb);
            }
            if (c->rx_itb) {
                free(c->rx_itb->buf);
                free(c->rx_itb);
            }
            free(c->fifo);
        }
    while (n->free_ents) {
        itb_ent *x = n->free_ents;
        n->free_ents = x->next;
        free(x->buf);
        free(x);
    }
    free(n->nic);
    free(n->roff);
    free(n->rlen);
    free(n->ritb);
    free(n->rbytes);
    free(n->dstmap);
    free(n->loc_off);
    free(n->loc_list);
    free(n);
}

/* ------------------------------------------------------------------ helpers */

static void pool_account(nic_t *c, uint64_t now)
{
    c->area_pkts += (double)c->held_pkts * (double)(now - c->t_last);
    c->area_bytes += (double)c->held_bytes * (double)(now - c->t_last);
    c->t_last = now;
}

static void pool_max(nic_t *c)
{
    if (c->held_pkts > c->max_pkts)
        c->max_pkts = c->held_pkts;
    if (c->held_bytes > c->max_bytes)
        c->max_bytes = c->held_bytes;
}

static itb_ent *ent_alloc(sf_nics *n)
{
    itb_ent *x = n->free_ents;
    if (x)
        n->free_ents = x->next;
    else {
        x = xcalloc(1, sizeof *x);
        x->buf = xcalloc(n->maxpkt, 1);
    }
    x->len = 0;
    x->ended = x->bad = x->aborted = 0;
    x->next = NULL;
    return x;
}

static void ent_release(sf_nics *n, nic_t *c, itb_ent *x, uint64_t now)
{
    pool_account(c, now);
    c->held_pkts--;
    c->held_bytes -= x->len;
    c->resv -= n->maxpkt;
    x->next = n->free_ents;
    n->free_ents = x;
}

static void fifo_push(nic_t *c, itb_ent *x)
{
    if (c->fn == c->fcap) {
        itb_ent **f = xcalloc(2 * (size_t)c->fcap, sizeof *f);
        for (unsigned i = 0; i < c->fn; i++)
            f[i] = c->fifo[(c->fhead + i) % c->fcap];
        free(c->fifo);
        c->fifo = f;
        c->fhead = 0;
        c->fcap *= 2;
    }
    c->fifo[(c->fhead + c->fn) % c->fcap] = x;
    c->fn++;
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

static int pick_dst(sf_nics *n, nic_t *c, unsigned s)
{
    unsigned H = n->H;
    switch (n->p.traffic) {
    case SF_TR_HOTSPOT:
        if (s != n->hotspot && sf_rng_unit(&c->rng) < n->p.hotspot_frac)
            return (int)n->hotspot;
        /* fall through */
    case SF_TR_UNIFORM: {
        unsigned d = sf_rng_below(&c->rng, H - 1);
        return (int)(d >= s ? d + 1 : d);
    }
    case SF_TR_LOCAL: {
        unsigned a = (unsigned)n->t->host[s].sw;
        int32_t lo = n->loc_off[a], m = n->loc_off[a + 1] - lo;
        if (m < 2)
            return -1;
        int d;
        do
            d = n->loc_list[lo + (int32_t)sf_rng_below(&c->rng, (uint32_t)m)];
        while (d == (int)s);
        return d;
    }
    default:
        return n->dstmap[s];
    }
}

static void generate(sf_nics *n, nic_t *c, unsigned s, uint64_t cycle)
{
    const uint64_t now = cycle << 16;
    while (c->next_gen <= now) {
        c->next_gen += c->interval;
        int d = pick_dst(n, c, s);
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
        c->msg[c->nmsg++] = (msg_t){cycle, 0, (uint32_t)d, M_QUEUED, 0};
        n->c.generated++;
        n->c.gen_bytes += n->p.msg_size;
        if (n->p.traffic == SF_TR_HOTSPOT && (uint32_t)d == n->hotspot)
            n->c.hot_gen_bytes += n->p.msg_size;
    }
}

/* the message a received body names (NULL if the id is unknown) */
static msg_t *find_msg(sf_nics *n, const uint8_t *id)
{
    uint32_t src = (uint32_t)id[0] | (uint32_t)id[1] << 8 | (uint32_t)id[2] << 16 | (uint32_t)id[3] << 24;
    uint32_t seq = (uint32_t)id[4] | (uint32_t)id[5] << 8 | (uint32_t)id[6] << 16 | (uint32_t)id[7] << 24;
    if (src >= n->H || seq >= n->nic[src].nmsg)
        return NULL;
    return &n->nic[src].msg[seq];
}

static void lose(sf_nics *n, nic_t *c, uint64_t *counter)
{
    (*counter)++;
    if (c->rx_body >= 9) {
        msg_t *m = find_msg(n, c->rx_id);
        if (m && m->state == M_SENT)
            m->state = M_LOST;
    }
}

static void deliver(sf_nics *n, nic_t *c, unsigned h, uint64_t cycle)
{
    msg_t *m = c->rx_body >= 9 ? find_msg(n, c->rx_id) : NULL;
    if (!m || m->dst != h) {
        n->c.misrouted++;
        return;
    }
    if (m->state != M_SENT) {
        n->c.duplicate++;
        return;
    }
    m->state = M_DONE;
    n->c.delivered++;
    n->c.deliv_bytes += n->p.msg_size;
    if (n->p.traffic == SF_TR_HOTSPOT && h == n->hotspot)
        n->c.hot_deliv_bytes += n->p.msg_size;
    if (m->gen >= n->win_start) {
        uint64_t l = cycle - m->gen;
        n->hist[hist_index(l)]++;
        n->lat_n++;
        n->lat_sum += (double)l;
        n->lat_net_sum += (double)(cycle - m->inj);
        n->itb_sum += m->itbs;
        if (l > n->lat_max)
            n->lat_max = l;
    }
}

/* one character out of the receive buffer */
static void rx_char(sf_nics *n, nic_t *c, unsigned h, unsigned ch, uint64_t cycle)
{
    if (CH_IS_DATA(ch)) {
        uint8_t b = (uint8_t)ch;
        if (c->rx_state == RX_IDLE) {
            c->rx_crc = 0;
            c->rx_body = -1;
            if (b == ITB_MARK) {
                if (c->resv + n->maxpkt <= n->p.itb_pool) {
                    itb_ent *x = ent_alloc(n);
                    x->ready = cycle + n->p.itb_detect + n->p.itb_dma;
                    c->resv += n->maxpkt;
                    pool_account(c, cycle);
                    c->held_pkts++;
                    pool_max(c);
                    fifo_push(c, x);
                    c->rx_itb = x;
                    c->rx_state = RX_ITB;
                    n->c.itb_packets++;
                } else {
                    c->rx_state = RX_DISCARD;
                    n->c.lost_itb_pool++;
                }
            } else if (ROUTE_IS_ROUTE(b)) {
                c->rx_state = RX_DISCARD; /* a route byte nobody stripped: misrouted */
                n->c.misrouted++;
            } else {
                c->rx_state = RX_LOCAL;
            }
        } else if (c->rx_state == RX_ITB) {
            itb_ent *x = c->rx_itb;
            if (x->len < n->maxpkt) {
                pool_account(c, cycle);
                x->buf[x->len++] = b;
                c->held_bytes++;
                pool_max(c);
            } else {
                x->aborted = 1; /* longer than any packet: cut */
            }
        }
        /* body parse (the message id) for every state */
        if (c->rx_body < 0) {
            if (b != ITB_MARK && !ROUTE_IS_ROUTE(b))
                c->rx_body = 0;
        } else {
            if (c->rx_body >= 1 && c->rx_body <= 8)
                c->rx_id[c->rx_body - 1] = b;
            if (c->rx_body < 1000)
                c->rx_body++;
        }
        if (c->rx_body == 0)
            c->rx_body = 1; /* the type byte just came */
        c->rx_crc = n->crc_tab[c->rx_crc ^ b];
        return;
    }
    if (ch != CH_GAP && ch != CH_ABORT)
        return;
    int gap = ch == CH_GAP;
    switch (c->rx_state) {
    case RX_LOCAL:
        if (!gap)
            lose(n, c, &n->c.lost_aborted);
        else if (c->rx_crc != 0)
            lose(n, c, &n->c.lost_crc);
        else
            deliver(n, c, h, cycle);
        break;
    case RX_ITB: {
        itb_ent *x = c->rx_itb;
        x->ended = 1;
        if (!gap)
            x->aborted = 1;
        else if (c->rx_crc != 0)
            x->bad = 1;
        c->rx_itb = NULL;
        break;
    }
    case RX_DISCARD:
        if (c->rx_body >= 9) {
            msg_t *m = find_msg(n, c->rx_id);
            if (m && m->state == M_SENT)
                m->state = M_LOST;
        }
        break;
    default:
        break;
    }
    c->rx_state = RX_IDLE;
}

/* start a packet if one may go: in-transit (ready) against local, the seed's dynamic priority */
static void tx_choose(sf_nics *n, nic_t *c, unsigned s, uint64_t cycle)
{
    unsigned q = c->nmsg - c->next_inj;
    int itb = c->fn > 0 && c->fifo[c->fhead]->ready <= cycle;
    int local;
    if (itb && q) {
        unsigned lim = n->p.prio_equal / q;
        if (lim < 1)
            lim = 1;
        local = c->it_run >= lim;
        c->it_run = local ? 0 : c->it_run + 1;
    } else {
        local = q > 0;
        c->it_run = 0;
    }
    if (local) {
        msg_t *m = &c->msg[c->next_inj];
        unsigned a = 0;
        size_t base = ((size_t)s * n->H + m->dst) * n->nalt;
        if (n->nalt > 1 && n->p.alt_random) {
            unsigned na = 0;
            while (na < n->nalt && n->roff[base + na] >= 0)
                na++;
            a = sf_rng_below(&c->rng, na);
        }
        c->route = n->rbytes + n->roff[base + a];
        c->rlen = n->rlen[base + a];
        m->itbs = n->ritb[base + a];
        m->inj = cycle;
        m->state = M_SENT;
        c->seq = c->next_inj++;
        c->pos = 0;
        c->plen = c->rlen + 1 + n->p.msg_size + 1;
        c->crc = 0;
        c->tx_mode = TX_LOCAL;
        n->c.injected++;
    } else if (itb) {
        c->tx_itb = c->fifo[c->fhead];
        c->fhead = (c->fhead + 1) % c->fcap;
        c->fn--;
        c->pos = 0;
        c->crc = 0;
        c->tx_mode = TX_ITB;
    }
}

static unsigned tx_char(sf_nics *n, nic_t *c, unsigned s, uint64_t cycle)
{
    if (c->want != c->ann) {
        c->ann = c->want;
        if (c->want)
            n->c.stops_sent++;
        else
            n->c.gos_sent++;
        return c->want ? CH_STOP : CH_GO;
    }
    if (c->stop)
        return CH_IDLE;
    if (c->tx_mode == TX_GAP) {
        if (c->tx_itb) {
            n->c.itb_reinjected++;
            ent_release(n, c, c->tx_itb, cycle);
            c->tx_itb = NULL;
        }
        c->tx_mode = TX_NONE;
        return CH_GAP;
    }
    if (c->tx_mode == TX_NONE)
        tx_choose(n, c, s, cycle);
    if (c->tx_mode == TX_LOCAL) {
        unsigned p = c->pos++, r = c->rlen, b;
        if (p < r)
            b = c->route[p];
        else if (p == r)
            b = TYPE_BYTE;
        else if (p + 1 < c->plen) {
            unsigned q = p - r - 1;
            if (q < 4)
                b = (s >> (8 * q)) & 0xFFu;
            else if (q < 8)
                b = (c->seq >> (8 * (q - 4))) & 0xFFu;
            else
                b = (q * 7u + c->seq) & 0xFFu;
        } else {
            c->tx_mode = TX_GAP;
            return c->crc;
        }
        c->crc = n->crc_tab[c->crc ^ b];
        return b;
    }
    if (c->tx_mode == TX_ITB) {
        itb_ent *x = c->tx_itb;
        unsigned sendable = x->aborted ? x->len : (x->len ? x->len - 1 : 0);
        if (c->pos < sendable) {
            uint8_t b = x->buf[c->pos++];
            c->crc = n->crc_tab[c->crc ^ b];
            return b;
        }
        if (!x->ended)
            return CH_IDLE; /* cut-through: the rest has not arrived yet */
        if (x->aborted || x->len < 2) {
            ent_release(n, c, x, cycle);
            c->tx_itb = NULL;
            c->tx_mode = TX_NONE;
            return c->pos ? CH_ABORT : CH_IDLE;
        }
        c->tx_mode = TX_GAP;
        return (unsigned)(c->crc ^ (x->bad ? 0xFFu : 0u));
    }
    return CH_IDLE;
}

void sf_nics_step(void *ctx, uint64_t cycle, unsigned nhosts, const uint64_t *in_fwd, const uint64_t *in_back,
                  uint64_t *out_fwd, uint64_t *out_back)
{
    (void)in_back;
    sf_nics *n = ctx;
    const unsigned B = n->p.rx_buf;
    for (unsigned h = 0; h < nhosts; h++) {
        nic_t *c = &n->nic[h];
        unsigned ch = (unsigned)in_fwd[h] & 0x1FFu;
        if (n->gen_on)
            generate(n, c, h, cycle);
        /* our wish towards the switch follows the buffer's occupancy of the previous cycle */
        if (c->rx_n >= n->p.rx_stop)
            c->want = 1;
        else if (c->rx_n <= n->p.rx_go)
            c->want = 0;
        uint8_t stop_new = c->stop;
        if (ch == CH_STOP)
            stop_new = 1;
        else if (ch == CH_GO)
            stop_new = 0;
        else if (ch != CH_IDLE) {
            if (c->rx_n < B) {
                unsigned at = c->rx_head + c->rx_n; /* < 2B: head < B, rx_n < B */
                c->rxq[at >= B ? at - B : at] = (uint16_t)ch;
                c->rx_n++;
            } else {
                n->c.rx_overflow++;
            }
        }
        c->drain_acc += n->p.rx_drain_per_64;
        while (c->drain_acc >= 64 && c->rx_n) {
            c->drain_acc -= 64;
            unsigned x = c->rxq[c->rx_head];
            c->rx_head = c->rx_head + 1 == B ? 0 : c->rx_head + 1;
            c->rx_n--;
            rx_char(n, c, h, x, cycle);
        }
        if (c->rx_n == 0 && c->drain_acc > 64)
            c->drain_acc = 64;
        out_fwd[h] = tx_char(n, c, h, cycle);
        out_back[h] = 0;
        c->stop = stop_new;
    }
}

void sf_nics_generate(sf_nics *n, int on) { n->gen_on = on; }

void sf_nics_window_start(sf_nics *n, uint64_t cycle)
{
    n->win_start = cycle;
    n->c_win0 = n->c;
    memset(n->hist, 0, sizeof n->hist);
    n->lat_n = n->lat_max = 0;
    n->lat_sum = n->lat_net_sum = n->itb_sum = 0;
    for (unsigned h = 0; h < n->H; h++) {
        nic_t *c = &n->nic[h];
        c->t_last = cycle;
        c->area_pkts = c->area_bytes = 0;
        c->max_pkts = c->held_pkts;
        c->max_bytes = c->held_bytes;
    }
}

void sf_nics_counts(const sf_nics *n, sf_nic_counts *all, sf_nic_counts *win)
{
    if (all)
        *all = n->c;
    if (win) {
        const uint64_t *a = (const uint64_t *)&n->c, *b = (const uint64_t *)&n->c_win0;
        uint64_t *w = (uint64_t *)win;
        for (size_t i = 0; i < sizeof(sf_nic_counts) / sizeof(uint64_t); i++)
            w[i] = a[i] - b[i];
    }
}

int sf_nics_hotspot(const sf_nics *n)
{
    return n->p.traffic == SF_TR_HOTSPOT ? (int)n->hotspot : -1;
}

uint64_t sf_nics_in_flight(const sf_nics *n)
{
    uint64_t k = 0;
    for (unsigned h = 0; h < n->H; h++)
        for (uint32_t i = 0; i < n->nic[h].nmsg; i++)
            k += n->nic[h].msg[i].state <= M_SENT;
    return k;
}

uint64_t sf_nics_queued(const sf_nics *n)
{
    uint64_t k = 0;
    for (unsigned h = 0; h < n->H; h++)
        k += n->nic[h].nmsg - n->nic[h].next_inj;
    return k;
}

void sf_nics_latency(const sf_nics *n, sf_lat *l)
{
    memset(l, 0, sizeof *l);
    l->count = n->lat_n;
    if (!n->lat_n)
        return;
    l->avg = n->lat_sum / (double)n->lat_n;
    l->avg_net = n->lat_net_sum / (double)n->lat_n;
    l->itbs_per_msg = n->itb_sum / (double)n->lat_n;
    l->max = (double)n->lat_max;
    const double q[3] = {0.50, 0.95, 0.99};
    double *o[3] = {&l->p50, &l->p95, &l->p99};
    for (int j = 0; j < 3; j++) {
        uint64_t want = (uint64_t)ceil(q[j] * (double)n->lat_n), acc = 0;
        if (want < 1)
            want = 1;
        for (unsigned i = 0; i < HIST_N; i++) {
            acc += n->hist[i];
            if (acc >= want) {
                *o[j] = hist_value(i);
                break;
            }
        }
    }
}

void sf_nics_pool(const sf_nics *n, unsigned h, uint64_t cycle, double *avg_pkts, uint64_t *max_pkts,
                  double *avg_bytes, uint64_t *max_bytes)
{
    const nic_t *c = &n->nic[h];
    double span = cycle > n->win_start ? (double)(cycle - n->win_start) : 1.0;
    double dt = (double)(cycle - c->t_last);
    *avg_pkts = (c->area_pkts + (double)c->held_pkts * dt) / span;
    *avg_bytes = (c->area_bytes + (double)c->held_bytes * dt) / span;
    *max_pkts = c->max_pkts;
    *max_bytes = c->max_bytes;
}

unsigned sf_nics_max_packet(const sf_nics *n) { return n->maxpkt; }

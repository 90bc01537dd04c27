/* sf_vcnic.c - the RHiNET-style NICs of the VC-switch network simulator (see sf_vcnic.h, docs/network.md). */
#include "sf_vcnic.h"

#include "sf_util.h"
#include "vcsw_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* per (host, VC): the packet being received on that VC */
typedef struct {
    uint32_t pos;       /* flits of it received (0: the next flit is a head) */
    uint64_t id;        /* source << 32 | sequence number, as its id flits arrive */
    uint32_t head;      /* the head flit's data (checked once the id is known) */
    uint8_t bad;        /* a flit differed from what its source sent */
    uint8_t longer;     /* it ran past the packet length without a tail */
} rxvc_t;

typedef struct {
    /* transmit */
    uint8_t active;     /* a packet is being sent */
    uint8_t ready;      /* the queue's head message has its alternative chosen (tag, vc) */
    uint8_t waited;     /* it waited for its stopped VC (the policy's "stopped by flow control") */
    uint32_t dst;       /* its destination */
    uint32_t pos, seq;  /* flits of the packet sent; its message's sequence number */
    uint32_t tag;
    uint8_t vc;
    uint16_t stop_q;    /* stop bits received in the previous cycle (used to start a packet) */
    /* the cable: link_delay registers on the forward word and on the stop bits */
    uint64_t *cab_f;
    uint16_t *cab_b;
    unsigned cpos;
    /* receive */
    uint64_t *rxq;      /* FIFO of received flits (forward words) */
    unsigned rx_head, rx_n, drain_acc;
    uint8_t stopping;   /* the receive buffer asks for STOP */
    rxvc_t *rv;         /* per VC */
} vnic_t;

struct sf_vcnics {
    sf_vcnic_params p;
    sf_traffic *tr;
    unsigned H, nalt, idf;
    uint32_t fmask;
    int stop_at;
    uint16_t vmask;         /* the stop bits of every VC */
    /* per (src, dst, alt): tag and VC, or tag UINT32_MAX when absent */
    uint32_t *tag;
    uint8_t *vc;
    sf_policy *pol;
    vnic_t *nic;
    sf_vcnic_counts c;
};

void sf_vcnic_params_default(sf_vcnic_params *p)
{
    memset(p, 0, sizeof *p);
    p->packet_flits = 128;
    p->pol.kind = SF_POL_OBLIVIOUS;
    p->pol.threshold = 4;
    p->pol.probability = 1.0;
    p->pol.probe_rounds = 2;
    p->flit_w = 16;
    p->tag_w = 8;
    p->nvc = 4;
    p->link_delay = 0;
    p->rx_buf = 256;
    p->rx_drain_per_64 = 64;
}

unsigned sf_vcnic_id_flits(unsigned flit_w) { return (64u + flit_w - 1u) / flit_w; }

int sf_vcnic_stop_at(const sf_vcnic_params *p)
{
    return (int)p->rx_buf - (int)p->packet_flits - 2 * (int)p->link_delay - 4;
}

/* What flit i (i >= 1 + id flits) of message (src, seq) carries, and the head's bits above the tag. */
static uint32_t pattern(uint64_t id, uint32_t i)
{
    uint64_t x = id * 0x9E3779B97F4A7C15ull + (uint64_t)i * 0xD1B54A32D192ED03ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return (uint32_t)x;
}

sf_vcnics *sf_vcnics_new(const sf_topo *t, const vcsw_net_tables_t *tab, const sf_vcnic_params *p, sf_traffic *tr,
                         sf_err *e)
{
    const unsigned H = (unsigned)t->nhost;
    if (H < 2 || sf_traffic_hosts(tr) != H) {
        snprintf(e->msg, sizeof e->msg, "the network needs at least 2 hosts, as many as its traffic");
        return NULL;
    }
    if (p->flit_w < 1 || p->flit_w > 32 || p->tag_w < 1 || p->tag_w > p->flit_w || p->nvc < 1 || p->nvc > 16) {
        snprintf(e->msg, sizeof e->msg, "NIC: bad flit format (FLIT_W %u, TAG_W %u, NVC %u)", p->flit_w, p->tag_w, p->nvc);
        return NULL;
    }
    const unsigned idf = sf_vcnic_id_flits(p->flit_w);
    if (p->packet_flits < 1 + idf) {
        snprintf(e->msg, sizeof e->msg, "packets of %u flits are too short: the head and %u flits of source and sequence "
                 "number (FLIT_W %u) need %u", p->packet_flits, idf, p->flit_w, 1 + idf);
        return NULL;
    }
    if (sf_vcnic_stop_at(p) < 1) {
        snprintf(e->msg, sizeof e->msg, "NIC receive buffer of %u flits too small: it needs packet (%u) + 2 x cable (%u) + 5",
                 p->rx_buf, p->packet_flits, p->link_delay);
        return NULL;
    }
    if (tab->hosts != H) {
        snprintf(e->msg, sizeof e->msg, "the tables are for %u hosts, the network has %u", tab->hosts, H);
        return NULL;
    }
    unsigned nalt = 1;
    for (size_t i = 0; i < tab->nnics; i++)
        if (tab->nics[i].alt + 1 > nalt)
            nalt = tab->nics[i].alt + 1;
    if (nalt > 64) {
        snprintf(e->msg, sizeof e->msg, "the tables give %u alternatives for a host pair (at most 64)", nalt);
        return NULL;
    }
    sf_vcnics *n = sf_xcalloc(1, sizeof *n);
    n->p = *p;
    n->tr = tr;
    n->H = H;
    n->nalt = nalt;
    n->idf = idf;
    n->fmask = p->flit_w >= 32 ? 0xFFFFFFFFu : (1u << p->flit_w) - 1u;
    n->stop_at = sf_vcnic_stop_at(p);
    n->vmask = (uint16_t)((1u << p->nvc) - 1u);
    const size_t np = (size_t)H * H * nalt;
    n->tag = sf_xcalloc(np, sizeof *n->tag);
    n->vc = sf_xcalloc(np, 1);
    for (size_t i = 0; i < np; i++)
        n->tag[i] = UINT32_MAX;
    for (size_t i = 0; i < tab->nnics; i++) {
        const vcsw_nic_t *l = &tab->nics[i];
        if (l->tag >= (1u << p->tag_w) || l->vc >= p->nvc) {
            snprintf(e->msg, sizeof e->msg, "nic %u dst %u alt %u: %s %u does not fit the switches (%s)", l->src, l->dst, l->alt,
                     l->vc >= p->nvc ? "VC" : "tag", l->vc >= p->nvc ? l->vc : l->tag, l->vc >= p->nvc ? "NVC" : "TAG_W");
            sf_vcnics_free(n);
            return NULL;
        }
        const size_t k = ((size_t)l->src * H + l->dst) * nalt + l->alt;
        n->tag[k] = l->tag;
        n->vc[k] = (uint8_t)l->vc;
    }
    for (unsigned s = 0; s < H; s++)
        for (unsigned d = 0; d < H; d++)
            if (s != d && n->tag[((size_t)s * H + d) * nalt] == UINT32_MAX) {
                snprintf(e->msg, sizeof e->msg, "the tables have no nic line for host %u to host %u (alternative 0)", s, d);
                sf_vcnics_free(n);
                return NULL;
            }
    if (p->pol.kind == SF_POL_PROBING) {
        snprintf(e->msg, sizeof e->msg, "the probing policy needs the crossbar network's NICs (probe packets); the VC "
                 "network's run static, oblivious and adaptive");
        sf_vcnics_free(n);
        return NULL;
    }
    uint16_t *na = sf_xcalloc((size_t)H * H, sizeof *na);
    for (size_t i = 0; i < (size_t)H * H; i++) {
        unsigned k = 0;
        while (k < nalt && n->tag[i * nalt + k] != UINT32_MAX)
            k++;
        na[i] = (uint16_t)k;
    }
    n->pol = sf_policy_new(&p->pol, H, na);
    free(na);
    n->nic = sf_xcalloc(H, sizeof *n->nic);
    for (unsigned h = 0; h < H; h++) {
        vnic_t *c = &n->nic[h];
        c->rxq = sf_xcalloc(p->rx_buf, sizeof *c->rxq);
        c->rv = sf_xcalloc(p->nvc, sizeof *c->rv);
        if (p->link_delay) {
            c->cab_f = sf_xcalloc(p->link_delay, sizeof *c->cab_f);
            c->cab_b = sf_xcalloc(p->link_delay, sizeof *c->cab_b);
        }
    }
    return n;
}

void sf_vcnics_free(sf_vcnics *n)
{
    if (!n)
        return;
    if (n->nic)
        for (unsigned h = 0; h < n->H; h++) {
            free(n->nic[h].rxq);
            free(n->nic[h].rv);
            free(n->nic[h].cab_f);
            free(n->nic[h].cab_b);
        }
    free(n->nic);
    sf_policy_free(n->pol);
    free(n->tag);
    free(n->vc);
    free(n);
}

void sf_vcnics_counts(const sf_vcnics *n, sf_vcnic_counts *all) { *all = n->c; }

/* The packet received on VC v of host h ends (its tail came): deliver it or count why not. */
static void rx_end(sf_vcnics *n, unsigned h, rxvc_t *r, uint64_t cycle)
{
    const uint32_t src = (uint32_t)(r->id >> 32), seq = (uint32_t)r->id;
    const int known = r->pos > n->idf;
    if (r->longer || r->pos != n->p.packet_flits) {
        n->c.lost_length++;
        if (known)
            sf_traffic_lost(n->tr, src, seq);
    } else if (r->bad || ((r->head >> n->p.tag_w) != ((pattern(r->id, 0) << n->p.tag_w & n->fmask) >> n->p.tag_w))) {
        n->c.lost_corrupt++;
        sf_traffic_lost(n->tr, src, seq);
    } else {
        sf_traffic_deliver(n->tr, h, 1, src, seq, cycle);
    }
    memset(r, 0, sizeof *r);
}

/* One flit out of host h's receive buffer. */
static void rx_flit(sf_vcnics *n, unsigned h, uint64_t w, uint64_t cycle)
{
    const vcsw_flit_t f = vcsw_net_flit(w);
    if (f.vc >= n->p.nvc) { /* the switches never send on a VC they do not have */
        n->c.lost_corrupt++;
        return;
    }
    rxvc_t *r = &n->nic[h].rv[f.vc];
    const uint32_t i = r->pos;
    const uint32_t d = f.data & n->fmask;
    if (i == 0)
        r->head = d;
    else if (i <= n->idf)
        r->id |= (uint64_t)d << ((i - 1) * n->p.flit_w);
    else if (i < n->p.packet_flits)
        r->bad |= d != (pattern(r->id, i) & n->fmask);
    else
        r->longer = 1;
    if (r->pos < UINT32_MAX)
        r->pos++;
    if (f.tail)
        rx_end(n, h, r, cycle);
}

/* The flit host h sends this cycle (0: none). */
static uint64_t tx_flit(sf_vcnics *n, vnic_t *c, unsigned h, uint64_t cycle)
{
    if (!c->active) {
        uint32_t seq;
        const sf_msg *m = sf_traffic_head(n->tr, h, &seq);
        if (!m)
            return 0;
        if (!c->ready) { /* the alternative, chosen once per message */
            const size_t base = ((size_t)h * n->H + m->dst) * n->nalt;
            const unsigned a = sf_policy_route(n->pol, h, m->dst, sf_traffic_rng(n->tr, h));
            c->tag = n->tag[base + a];
            c->vc = n->vc[base + a];
            c->dst = m->dst;
            c->waited = 0;
            c->ready = 1;
        }
        if (c->stop_q >> c->vc & 1u) { /* Go & Stop: a packet starts only on a VC seen at GO */
            n->c.stalled++;
            c->waited = 1;
            return 0;
        }
        sf_traffic_start(n->tr, h, cycle, 0);
        c->seq = seq;
        c->active = 1;
        c->ready = 0;
        c->pos = 0;
    }
    const uint64_t id = (uint64_t)h << 32 | c->seq;
    const uint32_t i = c->pos++;
    uint32_t data;
    if (i == 0)
        data = (c->tag | pattern(id, 0) << n->p.tag_w) & n->fmask;
    else if (i <= n->idf)
        data = (uint32_t)(id >> ((i - 1) * n->p.flit_w)) & n->fmask;
    else
        data = pattern(id, i) & n->fmask;
    const int tail = c->pos == n->p.packet_flits;
    if (tail) {
        c->active = 0;
        sf_policy_sent(n->pol, h, c->dst, c->waited, sf_traffic_rng(n->tr, h));
    }
    const vcsw_flit_t f = {1, c->vc, (uint8_t)tail, data};
    return vcsw_net_word(&f);
}

void sf_vcnics_step(void *ctx, uint64_t cycle, unsigned nhosts, const uint64_t *in_fwd, const uint64_t *in_back,
                    uint64_t *out_fwd, uint64_t *out_back)
{
    sf_vcnics *n = ctx;
    const unsigned B = n->p.rx_buf, L = n->p.link_delay;
    sf_traffic_generate_all(n->tr, cycle); /* each host's own generator: the hosts' order does not matter */
    for (unsigned h = 0; h < nhosts; h++) {
        vnic_t *c = &n->nic[h];
        /* the stop bits towards the switch follow the buffer's occupancy of the previous cycle */
        const int stop = (int)c->rx_n >= n->stop_at;
        if (stop && !c->stopping)
            n->c.stops_sent++;
        c->stopping = (uint8_t)stop;
        uint64_t f = tx_flit(n, c, h, cycle);
        uint64_t b = stop ? n->vmask : 0;
        /* receive: into the buffer, then the drain */
        if (in_fwd[h] & VCSW_NET_VALID) {
            if (c->rx_n < B) {
                unsigned at = c->rx_head + c->rx_n;
                c->rxq[at >= B ? at - B : at] = in_fwd[h];
                c->rx_n++;
            } else {
                n->c.rx_overflow++;
            }
        }
        c->drain_acc += n->p.rx_drain_per_64;
        while (c->drain_acc >= 64 && c->rx_n) {
            c->drain_acc -= 64;
            const uint64_t w = c->rxq[c->rx_head];
            c->rx_head = c->rx_head + 1 == B ? 0 : c->rx_head + 1;
            c->rx_n--;
            rx_flit(n, h, w, cycle);
        }
        if (c->rx_n == 0 && c->drain_acc > 64)
            c->drain_acc = 64;
        c->stop_q = (uint16_t)in_back[h];
        /* the cable */
        if (L) {
            const uint64_t f0 = c->cab_f[c->cpos];
            const uint16_t b0 = c->cab_b[c->cpos];
            c->cab_f[c->cpos] = f;
            c->cab_b[c->cpos] = (uint16_t)b;
            c->cpos = c->cpos + 1 == L ? 0 : c->cpos + 1;
            f = f0;
            b = b0;
        }
        out_fwd[h] = f;
        out_back[h] = b;
    }
}

void sf_vcnics_policy_counts(const sf_vcnics *n, sf_policy_counts *c) { sf_policy_counts_get(n->pol, c); }

/* sf_nic.c - the Myrinet NICs of the crossbar network simulator (see sf_nic.h, docs/network.md). */
#include "sf_nic.h"

#include "sf_util.h"
#include "link.h"
#include "sf_rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* receive states */
enum { RX_IDLE = 0, RX_LOCAL, RX_ITB, RX_DISCARD };
/* transmit states */
enum { TX_NONE = 0, TX_LOCAL, TX_ITB, TX_CTL, TX_GAP };

#define TYPE_BYTE 0x01u  /* a message's packet */
#define TYPE_PROBE 0x02u /* a probe: prober (4 bytes), route (2), switches (1), cycle sent (8) */
#define TYPE_ANSWER 0x03u /* a probe's answer: the probe's destination (4), route (2), busy (1) */
#define CTL_BODY 15u     /* payload bytes of a control packet (the answer's are padded) */
#define RX_ID 16u        /* payload bytes the receiver keeps */

/* a control packet waiting to be sent: a probe (to dst on route alt) or an answer (to dst, about route alt) */
typedef struct {
    uint8_t type, busy, nsw;
    uint16_t alt;
    uint32_t dst;
} ctl_t;

/* a probe: waiting until the pair's packets in the network have arrived (sent 0), then for its answer */
typedef struct {
    uint32_t dst;
    uint16_t alt;
    uint8_t sent, nsw;
    uint64_t deadline;
} pend_t;

typedef struct itb_ent {
    uint8_t *buf;
    unsigned len;
    uint8_t ended, bad, aborted;
    uint64_t ready;
    struct itb_ent *next; /* free list */
} itb_ent;

typedef struct {
    /* transmit */
    uint8_t stop, want, ann, tx_mode, crc, tx_stopped, stop_wait;
    uint64_t credit; /* the host's rate (tx_per_64 < 64): bytes x 64 copied into the NIC, at most one packet ahead;
                      * the copy runs while the host has a packet queued or being sent */
    unsigned it_run;
    const uint8_t *route;
    unsigned rlen, pos, plen;
    uint32_t seq, tx_dst;
    itb_ent *tx_itb;
    /* control packets (probing): queue, the one being sent, probes waiting for answers */
    ctl_t *ctl;
    unsigned chead, cn, ccap;
    uint8_t cbuf[CTL_BODY + 1];
    pend_t *pend;
    unsigned npend, pcap;
    /* ITB pool: FIFO of entries waiting for re-injection */
    itb_ent **fifo;
    unsigned fhead, fn, fcap;
    uint64_t resv, held_bytes, held_pkts;
    uint64_t t_last, max_pkts, max_bytes;
    double area_pkts, area_bytes;
    /* receive */
    uint16_t *rxq;
    unsigned rx_head, rx_n, drain_acc;
    uint8_t hd_turn; /* half duplex: whose turn it is when both directions want the host side (1: receive) */
    uint8_t rx_state, rx_crc;
    int rx_body; /* -1 while in route bytes / ITB marks, else index in the body (0 = type) */
    uint8_t rx_type;
    uint8_t rx_id[RX_ID];
    itb_ent *rx_itb;
} nic_t;

struct sf_nics {
    sf_nic_params p;
    const sf_topo *t;
    sf_traffic *tr;
    unsigned H, nalt;
    nic_t *nic;
    /* routes: per (src, dst, alt) an offset into rbytes (-1 none), length, ITB marks */
    int32_t *roff;
    uint16_t *rlen;
    uint8_t *ritb, *rbytes;
    sf_policy *pol;
    unsigned maxpkt;
    uint64_t win_start;
    sf_nic_counts c;
    itb_ent *free_ents;
    uint8_t crc_tab[256];
};

void sf_nic_params_default(sf_nic_params *p)
{
    memset(p, 0, sizeof *p);
    p->msg_size = 512;
    p->pol.kind = SF_POL_OBLIVIOUS;
    p->pol.threshold = 4;
    p->pol.probability = 1.0;
    p->pol.probe_rounds = 2;
    p->probe_base = 16;
    p->probe_per_switch = 24;
    p->probe_margin = 64;
    p->probe_timeout = 1000000;
    p->itb_detect = 44;
    p->itb_dma = 32;
    p->itb_pool = 512u * 1024u;
    p->prio_equal = 8;
    p->rx_buf = 80;
    p->rx_stop = 56;
    p->rx_go = 40;
    p->rx_drain_per_64 = 64;
    p->tx_per_64 = 64;
}

sf_nics *sf_nics_new(const sf_topo *t, const sf_routes *rs, const sf_nic_params *p, sf_traffic *tr, sf_err *e)
{
    if (rs->nvc > 1) {
        snprintf(e->msg, sizeof e->msg, "the route set uses %d VCs; the crossbar network has none (run it on the VC-switch "
                 "network: switch vcsw, with the sanfab-route --rhinet tables)", rs->nvc);
        return NULL;
    }
    if (p->msg_size < 8 || p->msg_size > 65536) {
        snprintf(e->msg, sizeof e->msg, "message size %u out of range 8..65536 (source and sequence number travel in the first 8 bytes)",
                 p->msg_size);
        return NULL;
    }
    unsigned H = (unsigned)t->nhost;
    if (H < 2 || sf_traffic_hosts(tr) != H) {
        snprintf(e->msg, sizeof e->msg, "the network needs at least 2 hosts, as many as its traffic");
        return NULL;
    }
    sf_nics *n = sf_xcalloc(1, sizeof *n);
    n->p = *p;
    n->t = t;
    n->tr = tr;
    n->H = H;
    n->nalt = (unsigned)rs->nalt;
    for (unsigned x = 0; x < 256; x++)
        n->crc_tab[x] = crc8_step(0, (uint8_t)x);
    /* route table */
    size_t np = (size_t)H * H * n->nalt;
    n->roff = sf_xcalloc(np, sizeof *n->roff);
    n->rlen = sf_xcalloc(np, sizeof *n->rlen);
    n->ritb = sf_xcalloc(np, 1);
    for (size_t i = 0; i < np; i++)
        n->roff[i] = -1;
    size_t cap = 1024, used = 0;
    n->rbytes = sf_xcalloc(cap, 1);
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
    /* the policy's view of the routes: how many each pair has (alternatives 0..k-1 present) */
    uint16_t *na = sf_xcalloc((size_t)H * H, sizeof *na);
    int itb_marks = 0;
    for (size_t i = 0; i < (size_t)H * H; i++) {
        unsigned k = 0;
        while (k < n->nalt && n->roff[i * n->nalt + k] >= 0) {
            itb_marks |= n->ritb[i * n->nalt + k] != 0;
            k++;
        }
        na[i] = (uint16_t)k;
    }
    if (itb_marks && (p->pol.kind == SF_POL_ADAPTIVE || p->pol.kind == SF_POL_PROBING)) {
        snprintf(e->msg, sizeof e->msg, "the %s route policy needs routes without In-Transit Buffers (its probes and "
                 "stopped-packet counts are per end-to-end route)", sf_policy_name(p->pol.kind));
        free(na);
        sf_nics_free(n);
        return NULL;
    }
    n->pol = sf_policy_new(&p->pol, H, na);
    free(na);
    const unsigned body = sf_traffic_max_units(tr) > CTL_BODY ? sf_traffic_max_units(tr) : CTL_BODY;
    n->maxpkt = maxr + 1 + body + 1;
    /* NICs */
    n->nic = sf_xcalloc(H, sizeof *n->nic);
    for (unsigned h = 0; h < H; h++) {
        nic_t *c = &n->nic[h];
        c->rxq = sf_xcalloc(p->rx_buf ? p->rx_buf : 1, sizeof *c->rxq);
        c->fcap = 16;
        c->fifo = sf_xcalloc(c->fcap, sizeof *c->fifo);
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
            free(c->ctl);
            free(c->pend);
        }
    sf_policy_free(n->pol);
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
        x = sf_xcalloc(1, sizeof *x);
        x->buf = sf_xcalloc(n->maxpkt, 1);
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
        itb_ent **f = sf_xcalloc(2 * (size_t)c->fcap, sizeof *f);
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

/* the source and sequence number of the message a received body names (its bytes 1-8) */
static uint32_t id_src(const uint8_t *id) { return (uint32_t)id[0] | (uint32_t)id[1] << 8 | (uint32_t)id[2] << 16 | (uint32_t)id[3] << 24; }
static uint32_t id_seq(const uint8_t *id) { return (uint32_t)id[4] | (uint32_t)id[5] << 8 | (uint32_t)id[6] << 16 | (uint32_t)id[7] << 24; }

/* the packet being received is lost (counted by `counter`); its message too if its id was read */
static void lose(sf_nics *n, nic_t *c, uint64_t *counter)
{
    (*counter)++;
    if (c->rx_body >= 9)
        sf_traffic_lost(n->tr, id_src(c->rx_id), id_seq(c->rx_id));
}

/* Does the host's side limit what the NIC sends (a rate below the link's, or shared with receiving)? */
static int host_limited(const sf_nics *n)
{
    return n->p.tx_per_64 < 64 || n->p.half_duplex;
}

static void deliver(sf_nics *n, nic_t *c, unsigned h, uint64_t cycle)
{
    const int known = c->rx_body >= 9;
    sf_traffic_deliver(n->tr, h, known, known ? id_src(c->rx_id) : 0, known ? id_seq(c->rx_id) : 0, cycle);
}

static void ctl_push(nic_t *c, ctl_t x)
{
    if (c->cn == c->ccap) {
        ctl_t *q = sf_xcalloc(c->ccap ? 2 * (size_t)c->ccap : 8, sizeof *q);
        for (unsigned i = 0; i < c->cn; i++)
            q[i] = c->ctl[(c->chead + i) % c->ccap];
        free(c->ctl);
        c->ctl = q;
        c->chead = 0;
        c->ccap = c->ccap ? 2 * c->ccap : 8;
    }
    c->ctl[(c->chead + c->cn) % c->ccap] = x;
    c->cn++;
}

/* number of switches a route crosses (its route bytes, the last one the destination switch's) */
static unsigned route_switches(const sf_nics *n, size_t k) { return (unsigned)n->rlen[k] - n->ritb[k]; }

/* host s probes route alt to d (the policy asked for it) */
static void probe(sf_nics *n, unsigned s, unsigned d, int alt, uint64_t cycle)
{
    if (alt < 0)
        return;
    nic_t *c = &n->nic[s];
    const size_t k = ((size_t)s * n->H + d) * n->nalt + (unsigned)alt;
    if (c->npend == c->pcap) {
        c->pcap = c->pcap ? 2 * c->pcap : 4;
        pend_t *q = realloc(c->pend, c->pcap * sizeof *q);
        if (!q) {
            fprintf(stderr, "sanfab-sim: out of memory\n");
            exit(2);
        }
        c->pend = q;
    }
    c->pend[c->npend++] = (pend_t){d, (uint16_t)alt, 0, (uint8_t)route_switches(n, k), cycle};
}

/* the probe of route alt from s to d is answered (or timed out): drop it from the waiting list, tell the policy */
static void probe_done(sf_nics *n, unsigned s, unsigned d, unsigned alt, int busy, uint64_t cycle)
{
    nic_t *c = &n->nic[s];
    for (unsigned i = 0; i < c->npend; i++)
        if (c->pend[i].dst == d && c->pend[i].alt == alt && c->pend[i].sent) {
            c->pend[i] = c->pend[--c->npend];
            probe(n, s, d, sf_policy_probed(n->pol, s, d, alt, busy, sf_traffic_rng(n->tr, s)), cycle);
            return;
        }
}

static uint32_t le32(const uint8_t *b) { return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24; }

/* a whole, good control packet arrived at host h */
static void control_in(sf_nics *n, nic_t *c, unsigned h, uint64_t cycle)
{
    const uint8_t *b = c->rx_id;
    const uint32_t from = le32(b);
    const unsigned alt = (unsigned)b[4] | (unsigned)b[5] << 8;
    if (from >= n->H || from == h || alt >= n->nalt) {
        n->c.ctl_lost++;
        return;
    }
    if (c->rx_type == TYPE_ANSWER) {
        probe_done(n, h, from, alt, b[6] != 0, cycle);
        return;
    }
    /* a probe: judge it by its time through the network, answer the prober */
    const uint64_t sent = (uint64_t)le32(b + 7) | (uint64_t)le32(b + 11) << 32;
    const unsigned nsw = b[6];
    const uint64_t ideal = n->p.probe_base + (uint64_t)n->p.probe_per_switch * nsw + nsw + 2 + CTL_BODY;
    const int busy = cycle - sent > ideal + n->p.probe_margin;
    ctl_push(c, (ctl_t){TYPE_ANSWER, (uint8_t)busy, 0, (uint16_t)alt, from});
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
                sf_traffic_deliver(n->tr, h, 0, 0, 0, cycle);
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
            if (b != ITB_MARK && !ROUTE_IS_ROUTE(b)) {
                c->rx_body = 0;
                c->rx_type = b;
            }
        } else {
            if (c->rx_body >= 1 && c->rx_body <= (int)RX_ID)
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
        if (c->rx_type == TYPE_PROBE || c->rx_type == TYPE_ANSWER) {
            if (gap && c->rx_crc == 0 && c->rx_body >= 1 + (int)CTL_BODY)
                control_in(n, c, h, cycle);
            else
                n->c.ctl_lost++;
        } else if (!gap)
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
        if (c->rx_body >= 9)
            sf_traffic_lost(n->tr, id_src(c->rx_id), id_seq(c->rx_id));
        break;
    default:
        break;
    }
    c->rx_state = RX_IDLE;
}

/* start a packet if one may go: in-transit (ready) against local, the seed's dynamic priority */
static void tx_choose(sf_nics *n, nic_t *c, unsigned s, uint64_t cycle)
{
    for (unsigned i = 0; i < c->npend; i++) /* probes whose answer is overdue count as busy */
        if (c->pend[i].sent && c->pend[i].deadline <= cycle) {
            n->c.probe_timeouts++;
            probe_done(n, s, c->pend[i].dst, c->pend[i].alt, 1, cycle);
            break;
        }
    for (unsigned i = 0; i < c->npend; i++) /* a probe goes once the pair's own packets have all arrived */
        if (!c->pend[i].sent && !sf_traffic_pair_in_flight(n->tr, s, c->pend[i].dst)) {
            pend_t *x = &c->pend[i];
            x->sent = 1;
            x->deadline = cycle + n->p.probe_timeout;
            ctl_push(c, (ctl_t){TYPE_PROBE, 0, x->nsw, x->alt, x->dst});
            break;
        }
    if (c->cn) { /* control packets go first */
        const ctl_t x = c->ctl[c->chead];
        c->chead = (c->chead + 1) % c->ccap;
        c->cn--;
        const unsigned alt = x.type == TYPE_PROBE ? x.alt : sf_policy_current(n->pol, s, x.dst);
        const size_t k = ((size_t)s * n->H + x.dst) * n->nalt + alt;
        c->route = n->rbytes + n->roff[k];
        c->rlen = n->rlen[k];
        memset(c->cbuf, 0, sizeof c->cbuf);
        c->cbuf[0] = x.type;
        for (unsigned i = 0; i < 4; i++)
            c->cbuf[1 + i] = (uint8_t)(s >> (8 * i)); /* the prober, or the answering host */
        c->cbuf[5] = (uint8_t)x.alt;
        c->cbuf[6] = (uint8_t)(x.alt >> 8);
        if (x.type == TYPE_PROBE) {
            c->cbuf[7] = x.nsw;
            for (unsigned i = 0; i < 8; i++)
                c->cbuf[8 + i] = (uint8_t)(cycle >> (8 * i));
            n->c.probes_sent++;
        } else {
            c->cbuf[7] = x.busy;
            n->c.answers_sent++;
        }
        c->pos = 0;
        c->plen = c->rlen + 1 + CTL_BODY + 1;
        c->crc = 0;
        c->tx_mode = TX_CTL;
        return;
    }
    uint32_t seq = 0;
    const sf_msg *m = sf_traffic_head(n->tr, s, &seq);
    unsigned q = sf_traffic_queued_at(n->tr, s);
    if (m && sf_policy_probing(n->pol, s, m->dst))
        q = 0; /* the pair waits for its probe's answer */
    if (m && host_limited(n) && c->credit < 64u * (uint64_t)((m->units > 8 ? m->units : 8) + 2))
        q = 0; /* the host has not delivered the whole packet into the NIC yet */
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
        const unsigned a = sf_policy_route(n->pol, s, m->dst, sf_traffic_rng(n->tr, s));
        const size_t base = ((size_t)s * n->H + m->dst) * n->nalt;
        c->route = n->rbytes + n->roff[base + a];
        c->rlen = n->rlen[base + a];
        c->tx_dst = m->dst;
        c->tx_stopped = c->stop_wait;
        c->stop_wait = 0;
        if (host_limited(n))
            c->credit -= 64u * (uint64_t)((m->units > 8 ? m->units : 8) + 2);
        c->plen = c->rlen + 1 + (m->units > 8 ? m->units : 8) + 1; /* the id needs 8 payload bytes */
        sf_traffic_start(n->tr, s, cycle, n->ritb[base + a]);
        c->seq = seq;
        c->pos = 0;
        c->crc = 0;
        c->tx_mode = TX_LOCAL;
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
    if (c->stop) { /* flow control stops this packet, or the next one waiting to start */
        if (c->tx_mode == TX_LOCAL)
            c->tx_stopped = 1;
        else if (c->tx_mode != TX_ITB && c->tx_mode != TX_CTL && sf_traffic_queued_at(n->tr, s))
            c->stop_wait = 1;
        return CH_IDLE;
    }
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
            probe(n, s, c->tx_dst, sf_policy_sent(n->pol, s, c->tx_dst, c->tx_stopped, sf_traffic_rng(n->tr, s)), cycle);
            return c->crc;
        }
        c->crc = n->crc_tab[c->crc ^ b];
        return b;
    }
    if (c->tx_mode == TX_CTL) {
        unsigned p = c->pos++, b;
        if (p < c->rlen)
            b = c->route[p];
        else if (p + 1 < c->plen)
            b = c->cbuf[p - c->rlen];
        else {
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
    sf_traffic_generate_all(n->tr, cycle); /* each host's own generator: the hosts' order does not matter */
    for (unsigned h = 0; h < nhosts; h++) {
        nic_t *c = &n->nic[h];
        unsigned ch = (unsigned)in_fwd[h] & 0x1FFu;
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
        /* the host side: the drain of the receive buffer and the copy of the packet to send; half duplex, they share
         * the host's rate, one of them a cycle (in turn when both want it) */
        unsigned rx_rate = n->p.rx_drain_per_64, tx_rate = n->p.tx_per_64;
        if (n->p.half_duplex) {
            const int has_tx = c->tx_mode == TX_LOCAL || sf_traffic_queued_at(n->tr, h);
            const int tx_wants = has_tx && c->credit < (uint64_t)n->maxpkt * 64u, rx_wants = c->rx_n > 0;
            const int to_rx = rx_wants && (!tx_wants || c->hd_turn);
            if (rx_wants && tx_wants)
                c->hd_turn ^= 1;
            rx_rate = to_rx ? n->p.tx_per_64 : 0;
            tx_rate = to_rx ? 0 : n->p.tx_per_64;
        }
        c->drain_acc += rx_rate;
        while (c->drain_acc >= 64 && c->rx_n) {
            c->drain_acc -= 64;
            unsigned x = c->rxq[c->rx_head];
            c->rx_head = c->rx_head + 1 == B ? 0 : c->rx_head + 1;
            c->rx_n--;
            rx_char(n, c, h, x, cycle);
        }
        if (c->rx_n == 0 && c->drain_acc > 64)
            c->drain_acc = 64;
        if (host_limited(n)) { /* the host copies while it has something to send, at most a packet ahead */
            if (c->tx_mode != TX_LOCAL && !sf_traffic_queued_at(n->tr, h))
                c->credit = 0;
            else if (c->credit < (uint64_t)n->maxpkt * 64u)
                c->credit += tx_rate;
        }
        out_fwd[h] = tx_char(n, c, h, cycle);
        out_back[h] = 0;
        c->stop = stop_new;
    }
}

void sf_nics_window_start(sf_nics *n, uint64_t cycle)
{
    n->win_start = cycle;
    for (unsigned h = 0; h < n->H; h++) {
        nic_t *c = &n->nic[h];
        c->t_last = cycle;
        c->area_pkts = c->area_bytes = 0;
        c->max_pkts = c->held_pkts;
        c->max_bytes = c->held_bytes;
    }
}

void sf_nics_counts(const sf_nics *n, sf_nic_counts *all) { *all = n->c; }

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

void sf_nics_policy_counts(const sf_nics *n, sf_policy_counts *c) { sf_policy_counts_get(n->pol, c); }

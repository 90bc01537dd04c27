/* sf_traffic.c - the traffic and measurement layer every NIC kind shares (sf_traffic.h, docs/network.md). */
#include "sf_traffic.h"

#include "sf_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A workload message: cut into packets, complete when all arrived. */
typedef struct {
    uint32_t dst, npkts, arrived;
    uint64_t issue;
} wmsg_t;

/* where a host's program is */
enum { P_RUN = 0, P_RECV, P_BARRIER, P_COMPUTE, P_ENDED };

typedef struct {
    sf_rng rng;
    uint64_t next_gen, interval; /* 16.16 fixed-point cycles */
    sf_msg *msg;
    uint32_t nmsg, cap, next_inj;
    /* workload */
    uint32_t pc, pend;           /* next operation, end of the program */
    uint8_t pstate, runnable;
    uint64_t wake_at, prog_end, last_deliv, sent_units, end;
    uint32_t outstanding;        /* messages sent and not yet complete */
    uint8_t bar_req;             /* nic_barrier: reached a barrier, its NIC has not been told yet */
    wmsg_t *wm;
    uint32_t nwm, wmcap;
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
    uint64_t *lat;               /* the window's latency samples (exact percentiles); lat_n of lat_cap used */
    uint32_t lat_cap;
    uint64_t lat_n, lat_max;
    double lat_sum, lat_net_sum, marks_sum;
    uint32_t *lastseq;           /* [dst * H + src]: 1 + the highest sequence number delivered (reordering) */
    uint32_t *pairfl;            /* [src * H + dst]: messages started, not delivered or lost */
    /* workload */
    const sf_workload *wl;
    unsigned mtu;
    uint32_t *avail;             /* [dst * H + src]: whole messages arrived and not yet taken by a recv */
    uint64_t *avail_tot;         /* per dst: their sum */
    unsigned at_barrier, ended_hosts, runnable_n;
    uint64_t next_timer;         /* earliest compute wake-up */
    uint64_t wl_msgs, wl_pkts, wl_units, mlat_n, mlat_max;
    double mlat_sum;
};

static const char *const pattern_names[SF_TR_NPATTERNS] = {"uniform",   "bit-reversal", "hotspot",     "local",    "transpose",
                                                           "complement", "permutation",  "butterfly",   "multicast"};

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
    return "uniform, bit-reversal, hotspot, local, transpose, complement, permutation, butterfly, multicast";
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
    if (pat == SF_TR_MULTICAST && (H > 64 || p->mcast_k < 1 || p->mcast_k > H - 1)) {
        snprintf(e->msg, sizeof e->msg, "multicast traffic of %u members on %u hosts: it needs 1..hosts-1 members and at most "
                 "64 hosts", p->mcast_k, H);
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
    if (p->wl && (p->wl->hosts != H || p->mtu < 1)) {
        snprintf(e->msg, sizeof e->msg, "the workload is for %u hosts, the network has %u (or no MTU)", p->wl->hosts, H);
        free(tr->dstmap);
        free(tr->loc_off);
        free(tr->loc_list);
        free(tr);
        return NULL;
    }
    if (H <= 4096) {
        tr->lastseq = sf_xcalloc((size_t)H * H, sizeof *tr->lastseq);
        tr->pairfl = sf_xcalloc((size_t)H * H, sizeof *tr->pairfl);
    }
    tr->host = sf_xcalloc(H, sizeof *tr->host);
    if (p->wl) {
        tr->wl = p->wl;
        tr->mtu = p->mtu;
        tr->avail = sf_xcalloc((size_t)H * H, sizeof *tr->avail);
        tr->avail_tot = sf_xcalloc(H, sizeof *tr->avail_tot);
        tr->next_timer = UINT64_MAX;
        for (unsigned h = 0; h < H; h++) {
            tr->host[h].pc = p->wl->off[h];
            tr->host[h].pend = p->wl->off[h + 1];
            tr->host[h].runnable = 1;
        }
        tr->runnable_n = H;
    }
    const uint64_t interval = p->rate > 0 && !p->wl ? (uint64_t)llround(65536.0 / p->rate) : 0;
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
        for (unsigned h = 0; h < tr->H; h++) {
            free(tr->host[h].msg);
            free(tr->host[h].wm);
        }
    free(tr->host);
    free(tr->lastseq);
    free(tr->pairfl);
    free(tr->lat);
    free(tr->avail);
    free(tr->avail_tot);
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

unsigned sf_traffic_max_units(const sf_traffic *tr)
{
    if (!tr->wl)
        return tr->p.msg_units;
    uint64_t most = 0; /* the largest packet any send can make: the MTU, or a smaller largest message */
    for (size_t i = 0; i < tr->wl->nops; i++)
        if (tr->wl->ops[i].kind == SF_OP_SEND && tr->wl->ops[i].arg > most)
            most = tr->wl->ops[i].arg;
    return most < tr->mtu ? (unsigned)(most ? most : 1) : tr->mtu;
}

int sf_traffic_done(const sf_traffic *tr) { return tr->wl && tr->ended_hosts == tr->H; }

uint64_t sf_traffic_host_end(const sf_traffic *tr, unsigned h, uint64_t *units)
{
    if (units)
        *units = tr->host[h].sent_units;
    return tr->host[h].end;
}

void sf_traffic_workload(const sf_traffic *tr, uint64_t cycle, sf_wl_result *r)
{
    memset(r, 0, sizeof *r);
    r->waiting_host = -1;
    if (!tr->wl)
        return;
    r->finished = tr->ended_hosts == tr->H;
    r->messages = tr->wl_msgs;
    r->packets = tr->wl_pkts;
    r->units = tr->wl_units;
    uint64_t last = 0;
    double sum = 0;
    for (unsigned h = 0; h < tr->H; h++) {
        const host_t *c = &tr->host[h];
        const uint64_t end = c->end ? c->end : cycle;
        if (end > last)
            last = end;
        if (!c->end && r->waiting_host < 0) {
            r->waiting_host = (int)h;
            if (c->pstate == P_ENDED)
                snprintf(r->waiting, sizeof r->waiting, "host %u: program ended, %u message(s) it sent not complete", h,
                         c->outstanding);
            else if (c->pc < c->pend) {
                const sf_op *o = &tr->wl->ops[c->pc];
                if (o->kind == SF_OP_RECV && o->peer == SF_WL_ANY)
                    snprintf(r->waiting, sizeof r->waiting, "host %u: operation %u, recv from any host (%llu message(s))", h,
                             c->pc - tr->wl->off[h], (unsigned long long)o->arg);
                else if (o->kind == SF_OP_RECV)
                    snprintf(r->waiting, sizeof r->waiting, "host %u: operation %u, recv from host %u (%llu message(s))", h,
                             c->pc - tr->wl->off[h], o->peer, (unsigned long long)o->arg);
                else
                    snprintf(r->waiting, sizeof r->waiting, "host %u: operation %u (%s)", h,
                             c->pc - tr->wl->off[h],
                             o->kind == SF_OP_BARRIER ? "barrier" : o->kind == SF_OP_COMPUTE ? "compute" : "send");
            }
        }
        if (c->sent_units) {
            const double bw = (double)c->sent_units / (double)(end ? end : 1);
            if (!r->senders || bw < r->bw_min)
                r->bw_min = bw;
            if (!r->senders || bw > r->bw_max)
                r->bw_max = bw;
            sum += bw;
            r->senders++;
        }
    }
    r->end = last;
    r->bw_avg = r->senders ? sum / r->senders : 0;
    r->aggregate = last ? (double)tr->c.deliv_units / (double)last : 0;
    r->msg_lat_avg = tr->mlat_n ? tr->mlat_sum / (double)tr->mlat_n : 0;
    r->msg_lat_max = (double)tr->mlat_max;
}

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

static void *grow(void *p, uint32_t *cap, size_t sz, uint32_t first)
{
    *cap = *cap ? 2 * *cap : first;
    p = realloc(p, (size_t)*cap * sz);
    if (!p) {
        fprintf(stderr, "sanfab-sim: out of memory\n");
        exit(2);
    }
    return p;
}

/* queues a message (packet) of `units` from host s to d */
static void push_msg(sf_traffic *tr, host_t *c, uint64_t cycle, uint32_t d, uint32_t units, uint32_t wm)
{
    if (c->nmsg == c->cap)
        c->msg = grow(c->msg, &c->cap, sizeof *c->msg, 256);
    c->msg[c->nmsg++] = (sf_msg){cycle, 0, d, units, wm, SF_MSG_QUEUED, 0, 0, 0};
    tr->c.generated++;
    tr->c.gen_units += units;
    if (tr->p.pattern == SF_TR_HOTSPOT && d == tr->hotspot && !tr->wl)
        tr->c.hot_gen_units += units;
}

void sf_traffic_generate(sf_traffic *tr, unsigned s, uint64_t cycle)
{
    if (!tr->gen_on)
        return;
    host_t *c = &tr->host[s];
    const uint64_t now = cycle << 16;
    while (c->next_gen <= now) {
        c->next_gen += c->interval;
        if (tr->p.pattern == SF_TR_MULTICAST) { /* k distinct members other than s */
            uint64_t mask = 0;
            for (unsigned k = 0; k < tr->p.mcast_k;) {
                const unsigned d = sf_rng_below(&c->rng, tr->H);
                if (d != s && !((mask >> d) & 1u)) {
                    mask |= 1ull << d;
                    k++;
                }
            }
            push_msg(tr, c, cycle, SF_TR_MULTI_DST, tr->p.msg_units, UINT32_MAX);
            c->msg[c->nmsg - 1].mask = c->msg[c->nmsg - 1].left = mask;
            tr->c.gen_units += (uint64_t)tr->p.msg_units * (tr->p.mcast_k - 1u); /* every member's copy */
            continue;
        }
        int d = pick_dst(tr, c, s);
        if (d >= 0)
            push_msg(tr, c, cycle, (uint32_t)d, tr->p.msg_units, UINT32_MAX);
    }
}

/* ------------------------------------------------------------------ workload programs */

static void wake(sf_traffic *tr, unsigned h)
{
    if (!tr->host[h].runnable) {
        tr->host[h].runnable = 1;
        tr->runnable_n++;
    }
}

/* host h completes when its program has ended and everything it sent has arrived */
static void check_end(sf_traffic *tr, host_t *c, uint64_t cycle)
{
    if (c->pstate == P_ENDED && !c->outstanding && !c->end) {
        c->end = c->last_deliv > c->prog_end ? c->last_deliv : c->prog_end;
        if (!c->end)
            c->end = cycle ? cycle : 1;
        tr->ended_hosts++;
    }
}

/* takes n whole messages from `src` (or any host: lowest ids first) if they have arrived at d */
static int take(sf_traffic *tr, unsigned d, uint32_t src, uint64_t n)
{
    const unsigned H = tr->H;
    uint32_t *av = tr->avail + (size_t)d * H;
    if (src != SF_WL_ANY) {
        if (av[src] < n)
            return 0;
        av[src] -= (uint32_t)n;
        tr->avail_tot[d] -= n;
        return 1;
    }
    if (tr->avail_tot[d] < n)
        return 0;
    tr->avail_tot[d] -= n;
    for (unsigned s = 0; s < H && n; s++) {
        const uint32_t k = av[s] < n ? av[s] : (uint32_t)n;
        av[s] -= k;
        n -= k;
    }
    return 1;
}

/* runs host h's program until it blocks or ends */
static void run_program(sf_traffic *tr, unsigned h, uint64_t cycle)
{
    host_t *c = &tr->host[h];
    while (c->pstate != P_ENDED) {
        if (c->pc == c->pend) {
            c->pstate = P_ENDED;
            c->prog_end = cycle;
            check_end(tr, c, cycle);
            return;
        }
        const sf_op *o = &tr->wl->ops[c->pc];
        switch (o->kind) {
        case SF_OP_SEND: {
            const uint64_t mtu = tr->mtu, np = (o->arg + mtu - 1) / mtu;
            if (c->nwm == c->wmcap)
                c->wm = grow(c->wm, &c->wmcap, sizeof *c->wm, 64);
            const uint32_t id = c->nwm++;
            c->wm[id] = (wmsg_t){o->peer, (uint32_t)np, 0, cycle};
            for (uint64_t i = 0; i < np; i++) {
                const uint64_t u = i + 1 < np ? mtu : o->arg - (np - 1) * mtu;
                push_msg(tr, c, cycle, o->peer, (uint32_t)u, id);
            }
            c->outstanding++;
            c->sent_units += o->arg;
            tr->wl_msgs++;
            tr->wl_pkts += np;
            tr->wl_units += o->arg;
            c->pc++;
            break;
        }
        case SF_OP_RECV:
            if (!take(tr, h, o->peer, o->arg)) {
                c->pstate = P_RECV;
                return;
            }
            c->pstate = P_RUN;
            c->pc++;
            break;
        case SF_OP_BARRIER:
            if (c->pstate == P_BARRIER) /* still waiting: the last host to arrive (or the network) moves it on */
                return;
            c->pstate = P_BARRIER;
            if (tr->p.nic_barrier) { /* the network's barrier: the NIC requests it, its release moves the host on */
                c->bar_req = 1;
                return;
            }
            if (++tr->at_barrier < tr->H)
                return;
            tr->at_barrier = 0;
            for (unsigned x = 0; x < tr->H; x++)
                if (x != h) {
                    tr->host[x].pstate = P_RUN;
                    tr->host[x].pc++;
                    wake(tr, x);
                }
            c->pstate = P_RUN;
            c->pc++;
            break;
        default: /* SF_OP_COMPUTE */
            if (c->pstate != P_COMPUTE) {
                c->pstate = P_COMPUTE;
                c->wake_at = cycle + o->arg;
                if (c->wake_at < tr->next_timer)
                    tr->next_timer = c->wake_at;
                return;
            }
            if (cycle < c->wake_at)
                return;
            c->pstate = P_RUN;
            c->pc++;
            break;
        }
    }
}

static void run_programs(sf_traffic *tr, uint64_t cycle)
{
    if (cycle >= tr->next_timer) { /* compute operations that end now */
        tr->next_timer = UINT64_MAX;
        for (unsigned h = 0; h < tr->H; h++) {
            host_t *c = &tr->host[h];
            if (c->pstate != P_COMPUTE)
                continue;
            if (c->wake_at <= cycle)
                wake(tr, h);
            else if (c->wake_at < tr->next_timer)
                tr->next_timer = c->wake_at;
        }
    }
    /* in host order; a host released by a barrier or a message here runs in this pass if it comes later */
    for (unsigned h = 0; h < tr->H && tr->runnable_n; h++) {
        host_t *c = &tr->host[h];
        if (!c->runnable)
            continue;
        c->runnable = 0;
        tr->runnable_n--;
        run_program(tr, h, cycle);
    }
}

void sf_traffic_generate_all(sf_traffic *tr, uint64_t cycle)
{
    if (tr->wl) {
        if (tr->runnable_n || cycle >= tr->next_timer)
            run_programs(tr, cycle);
        return;
    }
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
    if (tr->pairfl && m->dst != SF_TR_MULTI_DST)
        tr->pairfl[(size_t)h * tr->H + m->dst]++;
}

static sf_msg *find_msg(sf_traffic *tr, uint32_t src, uint32_t seq)
{
    if (src >= tr->H || seq >= tr->host[src].nmsg)
        return NULL;
    return &tr->host[src].msg[seq];
}

const sf_msg *sf_traffic_msg(const sf_traffic *tr, uint32_t src, uint32_t seq)
{
    return src < tr->H && seq < tr->host[src].nmsg ? &tr->host[src].msg[seq] : NULL;
}

int sf_traffic_barrier_pending(sf_traffic *tr, unsigned h)
{
    if (h >= tr->H || !tr->host[h].bar_req)
        return 0;
    tr->host[h].bar_req = 0;
    return 1;
}

int sf_traffic_barrier_release(sf_traffic *tr, unsigned h, uint64_t cycle)
{
    host_t *c = h < tr->H ? &tr->host[h] : NULL;
    if (!c || !tr->wl || c->pstate != P_BARRIER || c->bar_req)
        return -1;
    c->pstate = P_RUN;
    c->pc++;
    wake(tr, h);
    (void)cycle;
    return 0;
}

int sf_traffic_deliver(sf_traffic *tr, unsigned h, int known, uint32_t src, uint32_t seq, uint64_t cycle)
{
    sf_msg *m = known ? find_msg(tr, src, seq) : NULL;
    const int multi = m && m->dst == SF_TR_MULTI_DST;
    if (!m || (multi ? h >= 64 || !((m->mask >> h) & 1u) : m->dst != h)) {
        tr->c.misrouted++;
        return SF_DELIV_MISROUTED;
    }
    if (m->state != SF_MSG_SENT || (multi && !((m->left >> h) & 1u))) {
        tr->c.duplicate++;
        return SF_DELIV_DUPLICATE;
    }
    if (tr->lastseq) {
        uint32_t *ls = &tr->lastseq[(size_t)h * tr->H + src];
        if (seq + 1 < *ls)
            tr->c.reordered++;
        else
            *ls = seq + 1;
    }
    if (multi) { /* a member's copy; the message is delivered once it has reached the last */
        m->left &= ~(1ull << h);
        tr->c.deliv_units += m->units;
        if (m->left)
            return SF_DELIV_OK;
        tr->c.deliv_units -= m->units; /* counted once more below */
    }
    m->state = SF_MSG_DONE;
    tr->ended++;
    tr->c.delivered++;
    if (tr->pairfl && !multi)
        tr->pairfl[(size_t)src * tr->H + h]--;
    tr->c.deliv_units += m->units;
    if (tr->p.pattern == SF_TR_HOTSPOT && h == tr->hotspot && !tr->wl)
        tr->c.hot_deliv_units += m->units;
    if (m->wm != UINT32_MAX) {
        host_t *c = &tr->host[src];
        wmsg_t *w = &c->wm[m->wm];
        if (++w->arrived == w->npkts) {
            const uint64_t l = cycle - w->issue;
            tr->mlat_n++;
            tr->mlat_sum += (double)l;
            if (l > tr->mlat_max)
                tr->mlat_max = l;
            tr->avail[(size_t)h * tr->H + src]++;
            tr->avail_tot[h]++;
            c->outstanding--;
            if (cycle > c->last_deliv)
                c->last_deliv = cycle;
            check_end(tr, c, cycle);
            if (tr->host[h].pstate == P_RECV)
                wake(tr, h);
        }
    }
    if (m->gen >= tr->win_start) {
        uint64_t l = cycle - m->gen;
        if (tr->lat_n == tr->lat_cap)
            tr->lat = grow(tr->lat, &tr->lat_cap, sizeof *tr->lat, 1024);
        tr->lat[tr->lat_n++] = l;
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
        if (tr->pairfl && m->dst != SF_TR_MULTI_DST)
            tr->pairfl[(size_t)src * tr->H + m->dst]--;
    }
}

void sf_traffic_window_start(sf_traffic *tr, uint64_t cycle)
{
    tr->win_start = cycle;
    tr->c_win0 = tr->c;
    tr->lat_n = tr->lat_max = 0; /* the samples' storage is kept */
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

unsigned sf_traffic_pair_in_flight(const sf_traffic *tr, unsigned s, unsigned d)
{
    return tr->pairfl ? tr->pairfl[(size_t)s * tr->H + d] : 0;
}

uint64_t sf_traffic_queued(const sf_traffic *tr)
{
    uint64_t k = 0;
    for (unsigned h = 0; h < tr->H; h++)
        k += tr->host[h].nmsg - tr->host[h].next_inj;
    return k;
}

/* rearranges v[lo..hi) so that v[k] (lo <= k < hi) is the value a sort would put there, with smaller or equal values
 * before it and greater or equal ones after it (quickselect: median-of-three pivot, three-way partition); returns v[k] */
static uint64_t select_kth(uint64_t *v, size_t lo, size_t hi, size_t k)
{
    for (;;) {
        const uint64_t a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi - 1];
        const uint64_t piv = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        size_t lt = lo, i = lo, gt = hi; /* v[lo..lt) < piv, v[lt..i) == piv, v[gt..hi) > piv */
        while (i < gt) {
            const uint64_t x = v[i];
            if (x < piv) {
                v[i++] = v[lt];
                v[lt++] = x;
            } else if (x > piv) {
                v[i] = v[--gt];
                v[gt] = x;
            } else
                i++;
        }
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return piv;
    }
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
    /* exact nearest-rank percentiles: the k-th smallest sample, k = ceil(q n), on a copy of the samples */
    uint64_t *v = malloc((size_t)tr->lat_n * sizeof *v);
    if (!v) {
        fprintf(stderr, "sanfab-sim: out of memory\n");
        exit(2);
    }
    memcpy(v, tr->lat, (size_t)tr->lat_n * sizeof *v);
    const uint64_t pct[3] = {50, 95, 99};
    double *o[3] = {&l->p50, &l->p95, &l->p99};
    size_t lo = 0;
    for (int j = 0; j < 3; j++) {
        uint64_t k = (pct[j] * tr->lat_n + 99) / 100; /* 1-based rank, >= 1 */
        if (k < 1)
            k = 1;
        *o[j] = (double)select_kth(v, lo, (size_t)tr->lat_n, (size_t)(k - 1));
        lo = (size_t)(k - 1); /* the later ranks are at or above it: v[lo..] holds them */
    }
    free(v);
}

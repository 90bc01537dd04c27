/* sanfab — the network fabric (see net.h and docs/network.md). */
#include "net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ the fabric */

typedef struct {
    uint32_t src, dst;  /* endpoint indices */
    uint32_t delay;     /* ring length (0: the word goes straight through) */
    uint32_t pos;       /* next ring slot */
    size_t ring;        /* offset of the ring in net.ring_f and net.ring_b */
} chan_t;

struct net {
    const net_switch_ops *kind;
    unsigned nsw, nhosts, nports_total, nch, nlinks;
    void **sw;
    unsigned *base;  /* first endpoint of each switch */
    unsigned *np;    /* port count of each switch */
    uint64_t *in_fwd, *in_back, *out_fwd, *out_back; /* per endpoint: switch ports, then hosts */
    chan_t *ch;
    uint64_t *ring_f, *ring_b; /* the channels' delay lines: forward words, sideband words */
    int back_zero;             /* every sideband word in ring_b and in_back is 0 (then a cycle whose out_back
                                * words are all 0 moves only the forward words) */
    size_t back_live;          /* sideband words in ring_b that are not 0 */
    uint64_t *busy;
    uint64_t busy_mask, busy_value;
    int busy_masked;
    net_nic_fn nic;
    void *nic_ctx;
    uint64_t cycle;
    int skip_on;       /* skip quiet switches (the kind has quiet and skip) */
    uint8_t *asleep;   /* per switch: quiet and not stepped since the cycle it fell asleep */
    uint64_t *pending; /* per switch: cycles skipped and not yet given to the model */
    uint64_t skipped;  /* switch-cycles skipped in all */
};

static int claim(unsigned *used, unsigned ep, char *err, size_t errlen, const char *what)
{
    if (used[ep]) {
        snprintf(err, errlen, "%s uses a port that is already connected", what);
        return -1;
    }
    used[ep] = 1;
    return 0;
}

net_t *net_new(const net_desc *d, const net_switch_ops *kind, const void *params, net_nic_fn nic, void *nic_ctx,
               char *err, size_t errlen)
{
    if (!d || !kind || d->nsw == 0) {
        snprintf(err, errlen, "empty network description");
        return NULL;
    }
    net_t *n = calloc(1, sizeof *n);
    if (!n) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    n->kind = kind;
    n->nsw = d->nsw;
    n->nhosts = d->nhosts;
    n->nlinks = d->nlinks;
    n->nic = nic;
    n->nic_ctx = nic_ctx;
    n->sw = calloc(d->nsw, sizeof *n->sw);
    n->base = calloc(d->nsw, sizeof *n->base);
    n->np = calloc(d->nsw, sizeof *n->np);
    n->asleep = calloc(d->nsw, sizeof *n->asleep);
    n->pending = calloc(d->nsw, sizeof *n->pending);
    n->skip_on = kind->quiet && kind->skip;
    unsigned *used = NULL;
    if (!n->sw || !n->base || !n->np || !n->asleep || !n->pending)
        goto oom;
    unsigned P = 0;
    for (unsigned s = 0; s < d->nsw; s++) {
        if (d->nports[s] < 1 || d->nports[s] > NET_MAX_PORTS) {
            snprintf(err, errlen, "switch %u: %u ports (1..%d)", s, d->nports[s], NET_MAX_PORTS);
            goto fail;
        }
        n->base[s] = P;
        n->np[s] = d->nports[s];
        P += d->nports[s];
    }
    n->nports_total = P;
    unsigned E = P + d->nhosts;
    n->in_fwd = malloc(E * sizeof(uint64_t));
    n->in_back = calloc(E, sizeof(uint64_t));
    n->out_fwd = malloc(E * sizeof(uint64_t));
    n->out_back = calloc(E, sizeof(uint64_t));
    used = calloc(E, sizeof *used);
    n->nch = 2 * d->nlinks + 2 * d->nhosts;
    n->ch = calloc(n->nch ? n->nch : 1, sizeof *n->ch);
    n->busy = calloc(n->nch ? n->nch : 1, sizeof *n->busy);
    if (!n->in_fwd || !n->in_back || !n->out_fwd || !n->out_back || !used || !n->ch || !n->busy)
        goto oom;
    for (unsigned e = 0; e < E; e++)
        n->in_fwd[e] = n->out_fwd[e] = kind->idle_word;
    size_t ringlen = 0;
    char what[96];
    for (unsigned l = 0; l < d->nlinks; l++) {
        const net_link_desc *k = &d->links[l];
        snprintf(what, sizeof what, "link %u (%u:%u - %u:%u)", l, k->a, k->pa, k->b, k->pb);
        if (k->a >= d->nsw || k->b >= d->nsw || k->pa >= d->nports[k->a] || k->pb >= d->nports[k->b]) {
            snprintf(err, errlen, "%s names a switch or port that does not exist", what);
            goto fail;
        }
        if (k->delay > NET_MAX_DELAY) {
            snprintf(err, errlen, "%s: delay %u out of range 0..%d", what, k->delay, NET_MAX_DELAY);
            goto fail;
        }
        unsigned ea = n->base[k->a] + k->pa, eb = n->base[k->b] + k->pb;
        if (claim(used, ea, err, errlen, what) || claim(used, eb, err, errlen, what))
            goto fail;
        n->ch[2 * l] = (chan_t){ea, eb, k->delay, 0, ringlen};
        ringlen += (size_t)k->delay;
        n->ch[2 * l + 1] = (chan_t){eb, ea, k->delay, 0, ringlen};
        ringlen += (size_t)k->delay;
    }
    for (unsigned h = 0; h < d->nhosts; h++) {
        const net_host_desc *k = &d->hosts[h];
        snprintf(what, sizeof what, "host %u (%u:%u)", h, k->sw, k->port);
        if (k->sw >= d->nsw || k->port >= d->nports[k->sw]) {
            snprintf(err, errlen, "%s names a switch or port that does not exist", what);
            goto fail;
        }
        if (k->delay > NET_MAX_DELAY) {
            snprintf(err, errlen, "%s: delay %u out of range 0..%d", what, k->delay, NET_MAX_DELAY);
            goto fail;
        }
        unsigned es = n->base[k->sw] + k->port, eh = P + h;
        if (claim(used, es, err, errlen, what))
            goto fail;
        unsigned c = 2 * d->nlinks + 2 * h;
        n->ch[c] = (chan_t){eh, es, k->delay, 0, ringlen};
        ringlen += (size_t)k->delay;
        n->ch[c + 1] = (chan_t){es, eh, k->delay, 0, ringlen};
        ringlen += (size_t)k->delay;
    }
    n->ring_f = malloc((ringlen ? ringlen : 1) * sizeof(uint64_t));
    n->ring_b = calloc(ringlen ? ringlen : 1, sizeof(uint64_t));
    if (!n->ring_f || !n->ring_b)
        goto oom;
    for (size_t i = 0; i < ringlen; i++)
        n->ring_f[i] = kind->idle_word;
    n->back_zero = 1;
    for (unsigned s = 0; s < d->nsw; s++) {
        n->sw[s] = kind->create(params, s, d->nports[s], what, sizeof what);
        if (!n->sw[s]) {
            snprintf(err, errlen, "switch %u: %s", s, what);
            goto fail;
        }
    }
    free(used);
    return n;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    free(used);
    net_free(n);
    return NULL;
}

void net_free(net_t *n)
{
    if (!n)
        return;
    if (n->sw && n->asleep && n->pending)
        net_sync(n);
    if (n->sw)
        for (unsigned s = 0; s < n->nsw; s++)
            if (n->sw[s])
                n->kind->destroy(n->sw[s]);
    free(n->sw);
    free(n->base);
    free(n->np);
    free(n->in_fwd);
    free(n->in_back);
    free(n->out_fwd);
    free(n->out_back);
    free(n->ch);
    free(n->ring_f);
    free(n->ring_b);
    free(n->busy);
    free(n->asleep);
    free(n->pending);
    free(n);
}

/* 1 if every port of switch s receives the idle word with sideband 0 in this cycle. */
static int inputs_idle(const net_t *n, unsigned s)
{
    const unsigned b = n->base[s], e = b + n->np[s];
    const uint64_t idle = n->kind->idle_word;
    for (unsigned i = b; i < e; i++)
        if (n->in_fwd[i] != idle || n->in_back[i] != 0)
            return 0;
    return 1;
}

/* Steps switch s in this cycle, or leaves it asleep: a quiet switch whose inputs are idle is not
 * stepped (its outputs are set to idle once, when it falls asleep); its skipped cycles are given to the
 * model (kind->skip) before its next step, so the model's state is always what stepping would give. */
static void switch_cycle(net_t *n, unsigned s)
{
    const net_switch_ops *k = n->kind;
    const unsigned b = n->base[s];
    if (n->skip_on && inputs_idle(n, s)) {
        if (n->asleep[s]) {
            n->pending[s]++;
            n->skipped++;
            return;
        }
        if (k->quiet(n->sw[s])) {
            n->asleep[s] = 1;
            n->pending[s] = 1;
            n->skipped++;
            for (unsigned i = b; i < b + n->np[s]; i++) {
                n->out_fwd[i] = k->idle_word;
                n->out_back[i] = 0;
            }
            return;
        }
    }
    if (n->asleep[s]) {
        k->skip(n->sw[s], n->pending[s]);
        n->pending[s] = 0;
        n->asleep[s] = 0;
    }
    k->step(n->sw[s], n->in_fwd + b, n->in_back + b, n->out_fwd + b, n->out_back + b);
}

void net_sync(net_t *n)
{
    for (unsigned s = 0; s < n->nsw; s++)
        if (n->asleep[s]) {
            if (n->pending[s])
                n->kind->skip(n->sw[s], n->pending[s]);
            n->pending[s] = 0;
            /* still quiet and its outputs idle: it may stay asleep */
        }
}

void net_set_skip(net_t *n, int on)
{
    net_sync(n);
    for (unsigned s = 0; s < n->nsw; s++)
        n->asleep[s] = 0;
    n->skip_on = on && n->kind->quiet && n->kind->skip;
}

uint64_t net_skipped(const net_t *n) { return n->skipped; }

/* The channel moves of one cycle when no sideband word is anywhere: forward words only. */
static void move_fwd(net_t *n, int masked, uint64_t mask, uint64_t value, uint64_t idle)
{
    uint64_t *rf = n->ring_f, *in_fwd = n->in_fwd, *busy = n->busy;
    const uint64_t *out_fwd = n->out_fwd;
    chan_t *ch = n->ch;
    const unsigned nch = n->nch;
    for (unsigned c = 0; c < nch; c++, ch++) {
        uint64_t f = out_fwd[ch->src];
        busy[c] += masked ? ((f & mask) == value) : (f != idle);
        if (ch->delay) {
            uint64_t *slot = rf + ch->ring + ch->pos;
            const uint64_t f0 = *slot;
            *slot = f;
            f = f0;
            if (++ch->pos == ch->delay)
                ch->pos = 0;
        }
        in_fwd[ch->dst] = f;
    }
}

void net_step(net_t *n)
{
    const net_switch_ops *k = n->kind;
    n->cycle++;
    for (unsigned s = 0; s < n->nsw; s++)
        switch_cycle(n, s);
    unsigned P = n->nports_total;
    if (n->nic)
        n->nic(n->nic_ctx, n->cycle, n->nhosts, n->in_fwd + P, n->in_back + P, n->out_fwd + P, n->out_back + P);
    /* every channel moves one word: out of its source now, into its destination D cycles later */
    const uint64_t idle = k->idle_word, mask = n->busy_mask, value = n->busy_value;
    const int masked = n->busy_masked;
    const unsigned E = P + n->nhosts;
    uint64_t any_back = 0;
    for (unsigned e = 0; e < E; e++)
        any_back |= n->out_back[e];
    if (n->back_zero && !any_back) {
        /* fast path: no sideband anywhere (the crossbar's case), so only the forward words move and
         * ring_b and in_back stay 0 */
        move_fwd(n, masked, mask, value, idle);
        return;
    }
    uint64_t *rf = n->ring_f, *rb = n->ring_b;
    uint64_t live = 0; /* every sideband word delivered this cycle, ORed */
    for (unsigned c = 0; c < n->nch; c++) {
        chan_t *ch = &n->ch[c];
        uint64_t f = n->out_fwd[ch->src], bk = n->out_back[ch->src];
        n->busy[c] += masked ? ((f & mask) == value) : (f != idle);
        if (ch->delay) {
            const size_t i = ch->ring + ch->pos;
            uint64_t f0 = rf[i], b0 = rb[i];
            rf[i] = f;
            rb[i] = bk;
            n->back_live += (size_t)(bk != 0) - (size_t)(b0 != 0);
            f = f0;
            bk = b0;
            if (++ch->pos == ch->delay)
                ch->pos = 0;
        }
        n->in_fwd[ch->dst] = f;
        n->in_back[ch->dst] = bk;
        live |= bk;
    }
    /* endpoints no channel reaches keep sideband 0 */
    n->back_zero = live == 0 && n->back_live == 0;
}

uint64_t net_cycle(const net_t *n) { return n->cycle; }

unsigned net_nchannels(const net_t *n) { return n->nch; }

uint64_t net_channel_busy(const net_t *n, unsigned c) { return c < n->nch ? n->busy[c] : 0; }

void net_set_busy_mask(net_t *n, uint64_t mask, uint64_t value)
{
    n->busy_mask = mask;
    n->busy_value = value;
    n->busy_masked = mask != 0;
}

uint64_t net_switch_counter(const net_t *n, unsigned s, unsigned port, unsigned ctr)
{
    if (s >= n->nsw || port >= n->np[s] || ctr >= n->kind->nctr)
        return 0;
    return n->kind->counter(n->sw[s], port, ctr);
}

uint64_t net_counter_total(const net_t *n, unsigned ctr)
{
    uint64_t t = 0;
    for (unsigned s = 0; s < n->nsw; s++)
        for (unsigned p = 0; p < n->np[s]; p++)
            t += net_switch_counter(n, s, p, ctr);
    return t;
}

const net_switch_ops *net_kind(const net_t *n) { return n->kind; }

uint64_t net_switch_out(const net_t *n, unsigned s, unsigned p)
{
    if (s >= n->nsw || p >= n->np[s])
        return n->kind->idle_word;
    return n->out_fwd[n->base[s] + p];
}

uint64_t net_switch_out_back(const net_t *n, unsigned s, unsigned p)
{
    if (s >= n->nsw || p >= n->np[s])
        return 0;
    return n->out_back[n->base[s] + p];
}

/* sf_mnic.c - the Maestro NIs of the switch-box network simulator (see sf_mnic.h, docs/network.md). */
#include "sf_mnic.h"

#include "mlc_host.h"
#include "sbox_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    mlc_t *m;
    mlc_host_t *h;
    mlc_out_t out;      /* the MLC's outputs after the last step (its status for the driver) */
} mni_t;

struct sf_mnics {
    sf_mnic_params p;
    sf_traffic *tr;
    unsigned H;
    mni_t *ni;
    uint8_t *buf;       /* a message's data being built */
    uint32_t *epoch;    /* per host: barrier requests sent (a workload's barriers) */
    int direct;         /* direct mode: no traffic layer; messages kept for sf_mnics_recv */
    sf_mnic_counts c;
};

void sf_mnic_params_default(sf_mnic_params *p)
{
    memset(p, 0, sizeof *p);
    p->link_w = 4;
    p->fifo_bytes = 2048;
    p->turn = 1;
    p->timeout = 1024;
    p->ctr_w = 16;
    p->msg_bytes = MLC_T0_DATA;
}

/* byte i (>= 4) of the data of message seq of source src; bytes 0..3 are seq, little-endian */
static uint8_t pattern(unsigned src, uint32_t seq, unsigned i)
{
    return (uint8_t)(seq * 131u + src * 29u + i * 7u + (i >> 8) * 3u);
}

static void fill(uint8_t *d, unsigned len, unsigned src, uint32_t seq)
{
    for (unsigned i = 0; i < len; i++)
        d[i] = i < 4 ? (uint8_t)(seq >> (8 * i)) : pattern(src, seq, i);
}

sf_mnics *sf_mnics_new(const sf_topo *t, const sf_mnic_params *p, sf_traffic *tr, sf_err *e)
{
    if (t->nhost > 255) {
        snprintf(e->msg, sizeof e->msg, "%d hosts: a Maestro node number is one byte (at most 255 hosts)", t->nhost);
        return NULL;
    }
    const unsigned maxu = sf_traffic_max_units(tr);
    if (maxu > MLC_T1_MAX_LEN) {
        snprintf(e->msg, sizeof e->msg, "messages (packets) of up to %u bytes: a Maestro message carries at most %u user bytes "
                 "(LEN is 16 bits; a workload's mtu)", maxu, MLC_T1_MAX_LEN);
        return NULL;
    }
    if (p->msg_bytes < 4 || p->msg_bytes > MLC_T1_MAX_LEN) {
        snprintf(e->msg, sizeof e->msg, "message of %u bytes: a Maestro NI sends 4..%u user bytes (4 carry its sequence number)",
                 p->msg_bytes, MLC_T1_MAX_LEN);
        return NULL;
    }
    mlc_params_t mp = mlc_default_params();
    mp.LINK_W = p->link_w;
    mp.FIFO_BYTES = p->fifo_bytes;
    mp.TURN = p->turn;
    mp.MASTER = 1;
    mp.TIMEOUT = p->timeout;
    mp.CTR_W = p->ctr_w;
    mp.GUARD = 0;
    const char *why = mlc_params_check(&mp);
    if (why) {
        snprintf(e->msg, sizeof e->msg, "the NIs' MLC: %s", why);
        return NULL;
    }
    sf_mnics *n = calloc(1, sizeof *n);
    if (!n || !(n->ni = calloc((size_t)t->nhost, sizeof *n->ni)) || !(n->epoch = calloc((size_t)t->nhost, sizeof *n->epoch)) ||
        !(n->buf = malloc(maxu > MLC_T0_DATA ? maxu : MLC_T0_DATA))) {
        sf_mnics_free(n);
        snprintf(e->msg, sizeof e->msg, "out of memory");
        return NULL;
    }
    n->p = *p;
    n->tr = tr;
    n->H = (unsigned)t->nhost;
    for (unsigned h = 0; h < n->H; h++) {
        mni_t *x = &n->ni[h];
        if (!(x->m = mlc_new(&mp)) || !(x->h = mlc_host_new(p->fifo_bytes, 0))) {
            sf_mnics_free(n);
            snprintf(e->msg, sizeof e->msg, "out of memory");
            return NULL;
        }
        /* the outputs "after step 0": reset values (every send FIFO empty, nothing to read) */
        memset(&x->out, 0, sizeof x->out);
        x->out.st_tx_space[0] = x->out.st_tx_space[1] = (uint16_t)p->fifo_bytes;
    }
    return n;
}

void sf_mnics_free(sf_mnics *n)
{
    if (!n)
        return;
    for (unsigned h = 0; n->ni && h < n->H; h++) {
        mlc_free(n->ni[h].m);
        mlc_host_free(n->ni[h].h);
    }
    free(n->ni);
    free(n->epoch);
    free(n->buf);
    free(n);
}

/* host h starts its queue's head message when its driver has written everything before it */
static void start(sf_mnics *n, unsigned h, uint64_t cycle)
{
    mni_t *x = &n->ni[h];
    uint32_t seq;
    const sf_msg *m = sf_traffic_head(n->tr, h, &seq);
    if (!m || mlc_host_tx_pending(x->h, 0))
        return;
    const unsigned len = m->units <= MLC_T0_DATA ? MLC_T0_DATA : m->units;
    fill(n->buf, len, h, seq);
    const int multi = m->dst == SF_TR_MULTI_DST; /* a multicast: DST 255, its members in MASK (at most 16 hosts) */
    mlc_msg_t msg = {m->units <= MLC_T0_DATA ? 0u : 1u, MLC_KIND_DATA, multi ? MLC_DST_MULTI : m->dst,
                     multi ? (unsigned)m->mask : 0u, h, len, n->buf};
    if (mlc_host_send(x->h, 0, &msg) != 0) { /* cannot happen for the checked sizes: count it as a loss */
        n->c.lost_corrupt++;
        sf_traffic_start(n->tr, h, cycle, 0);
        sf_traffic_lost(n->tr, h, seq);
        return;
    }
    n->c.units_sent += mlc_msg_units(&msg);
    sf_traffic_start(n->tr, h, cycle, 0);
}

/* host h's driver completed message *msg: checked, then delivered */
static void receive(sf_mnics *n, unsigned h, const mlc_msg_t *msg, uint64_t cycle)
{
    if (msg->kind != MLC_KIND_DATA || msg->src >= n->H || msg->len < 4) {
        n->c.lost_corrupt++;
        return;
    }
    const uint32_t seq = (uint32_t)msg->data[0] | (uint32_t)msg->data[1] << 8 | (uint32_t)msg->data[2] << 16 |
                         (uint32_t)msg->data[3] << 24;
    const sf_msg *m = sf_traffic_msg(n->tr, msg->src, seq); /* what its source sent: its size */
    const unsigned len = m && m->units > MLC_T0_DATA ? m->units : MLC_T0_DATA, type = m && m->units > MLC_T0_DATA ? 1u : 0u;
    if (!m || msg->type != type || msg->len != len) {
        n->c.lost_corrupt++;
        if (m)
            sf_traffic_lost(n->tr, msg->src, seq);
        return;
    }
    for (unsigned i = 4; i < len; i++)
        if (msg->data[i] != pattern(msg->src, seq, i)) {
            n->c.lost_corrupt++;
            sf_traffic_lost(n->tr, msg->src, seq);
            return;
        }
    if (msg->dst != h && msg->dst != MLC_DST_MULTI) /* a multicast's members are the traffic layer's to check */
        n->c.misdelivered++;
    sf_traffic_deliver(n->tr, h, 1, msg->src, seq, cycle);
}

void sf_mnics_step(void *ctx, uint64_t cycle, unsigned nhosts, const uint64_t *in_fwd, const uint64_t *in_back,
                   uint64_t *out_fwd, uint64_t *out_back)
{
    sf_mnics *n = ctx;
    (void)in_back;
    sf_traffic_generate_all(n->tr, cycle);
    for (unsigned h = 0; h < nhosts && h < n->H; h++) {
        mni_t *x = &n->ni[h];
        if (!n->direct) {
            start(n, h, cycle);
            if (sf_traffic_barrier_pending(n->tr, h)) { /* a workload's barrier: the boxes' (channel 1, every host) */
                const unsigned all = n->H >= 32 ? 0xFFFFFFFFu : (1u << n->H) - 1u;
                if (mlc_host_barrier(x->h, 1, h, all, n->epoch[h]++) != 0)
                    n->c.bad_barrier++;
            }
        }
        mlc_in_t in;
        memset(&in, 0, sizeof in);
        in.rx_en = (in_fwd[h] & SBOX_NET_EN) ? 1u : 0u;
        in.rx_d = (uint8_t)in_fwd[h];
        mlc_host_drive(x->h, &x->out, &in);
        mlc_step(x->m, &in, &x->out);
        mlc_host_collect(x->h, &x->out);
        mlc_msg_t msg;
        while (!n->direct && mlc_host_recv(x->h, 0, &msg)) {
            receive(n, h, &msg, cycle);
            mlc_msg_free(&msg);
        }
        while (!n->direct && mlc_host_recv(x->h, 1, &msg)) { /* channel 1: the releases of a workload's barriers only */
            if (msg.kind == MLC_KIND_RELEASE && sf_traffic_barrier_release(n->tr, h, cycle) == 0)
                n->c.barriers++;
            else
                n->c.bad_barrier++;
            mlc_msg_free(&msg);
        }
        out_fwd[h] = sbox_net_word(x->out.tx_en, x->out.tx_d);
        out_back[h] = 0;
    }
}

void sf_mnics_counts(const sf_mnics *n, sf_mnic_counts *c)
{
    *c = n->c;
    c->status_reads = 0;
    for (unsigned h = 0; h < n->H; h++)
        c->status_reads += mlc_host_status_reads(n->ni[h].h);
}

void sf_mnics_set_direct(sf_mnics *n, int on) { n->direct = on ? 1 : 0; }

int sf_mnics_send(sf_mnics *n, unsigned h, unsigned ch, const mlc_msg_t *msg)
{
    if (h >= n->H || ch >= MLC_NCH)
        return -1;
    mlc_msg_t m = *msg;
    m.src = h;
    if (mlc_host_send(n->ni[h].h, ch, &m) != 0)
        return -1;
    n->c.units_sent += mlc_msg_units(&m);
    return 0;
}

int sf_mnics_barrier(sf_mnics *n, unsigned h, unsigned ch, unsigned mask, uint32_t epoch)
{
    if (h >= n->H || ch >= MLC_NCH || mlc_host_barrier(n->ni[h].h, ch, h, mask, epoch) != 0)
        return -1;
    n->c.units_sent++;
    return 0;
}

int sf_mnics_recv(sf_mnics *n, unsigned h, unsigned ch, mlc_msg_t *msg)
{
    return h < n->H && ch < MLC_NCH ? mlc_host_recv(n->ni[h].h, ch, msg) : 0;
}

uint64_t sf_mnics_tx_pending(const sf_mnics *n, unsigned h, unsigned ch)
{
    return h < n->H && ch < MLC_NCH ? mlc_host_tx_pending(n->ni[h].h, ch) : 0;
}

const mlc_t *sf_mnics_mlc(const sf_mnics *n, unsigned h) { return h < n->H ? n->ni[h].m : NULL; }

/* sanfab — host driver of one Maestro Link Controller; see mlc_host.h and docs/mlc.md. */
#include "mlc_host.h"
#include "ring.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *b;     /* bytes of the message being received */
    size_t n, cap;  /* bytes so far */
    long need;      /* parser: 0 header next, -1 waiting for PC, >0 units to come */
} asm_t;

struct mlc_host {
    unsigned fifo_bytes, msg_mode;
    ring_t tx[MLC_NCH]; /* uint16_t words to write */
    ring_t rx[MLC_NCH]; /* mlc_msg_t received */
    asm_t as[MLC_NCH];
    uint32_t wbudget[MLC_NCH], rbudget[MLC_NCH]; /* bytes left of the last status read */
    unsigned wrr, rrr;                          /* round robin of writes and reads over channels */
    unsigned last_rd, last_rch;                 /* the read issued in the step being run */
    unsigned hold_wr, hold_rd;                  /* the next drive call skips writes / reads */
    uint64_t status_reads;
};

mlc_host_t *mlc_host_new(unsigned fifo_bytes, unsigned msg_mode)
{
    mlc_host_t *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->fifo_bytes = fifo_bytes;
    h->msg_mode = msg_mode ? 1 : 0;
    for (unsigned c = 0; c < MLC_NCH; c++) {
        h->tx[c] = ring_make(sizeof(uint16_t));
        h->rx[c] = ring_make(sizeof(mlc_msg_t));
    }
    return h;
}

void mlc_host_free(mlc_host_t *h)
{
    if (!h)
        return;
    for (unsigned c = 0; c < MLC_NCH; c++) {
        mlc_msg_t m;
        while (ring_pop(&h->rx[c], &m))
            free(m.data);
        ring_free(&h->tx[c]);
        ring_free(&h->rx[c]);
        free(h->as[c].b);
    }
    free(h);
}

void mlc_msg_free(mlc_msg_t *msg)
{
    if (msg) {
        free(msg->data);
        msg->data = NULL;
    }
}

unsigned mlc_msg_units(const mlc_msg_t *msg)
{
    if (msg->type == 0)
        return 1;
    unsigned rest = msg->len > 23 ? msg->len - 23 : 0;
    return 2 + (rest + 15) / 16;
}

void mlc_msg_encode(const mlc_msg_t *msg, uint8_t *buf)
{
    unsigned units = mlc_msg_units(msg);
    memset(buf, 0, 16u * units);
    buf[0] = (uint8_t)((msg->type & 1u) | ((msg->kind & 0x7Fu) << 1));
    buf[1] = (uint8_t)msg->dst;
    buf[2] = (uint8_t)(msg->mask & 0xFFu);
    buf[3] = (uint8_t)((msg->mask >> 8) & 0xFFu);
    buf[4] = (uint8_t)msg->src;
    if (msg->type == 0) {
        memcpy(buf + 5, msg->data, MLC_T0_DATA);
        return;
    }
    buf[5] = (uint8_t)(msg->len & 0xFFu);
    buf[6] = (uint8_t)((msg->len >> 8) & 0xFFu);
    /* user bytes at header 7..15, unit 1 bytes 2..15, then 16 per unit */
    unsigned i = 0;
    for (unsigned k = 7; k < 16 && i < msg->len; k++)
        buf[k] = msg->data[i++];
    buf[16] = (uint8_t)(units & 0xFFu);
    buf[17] = (uint8_t)((units >> 8) & 0xFFu);
    for (unsigned k = 18; k < 32 && i < msg->len; k++)
        buf[k] = msg->data[i++];
    for (unsigned k = 32; i < msg->len; k++)
        buf[k] = msg->data[i++];
}

int mlc_host_send(mlc_host_t *h, unsigned ch, const mlc_msg_t *msg)
{
    if (ch >= MLC_NCH || msg->type > 1 || msg->kind > 127 || msg->dst > 255 || msg->mask > 0xFFFF || msg->src > 255)
        return -1;
    if (msg->type == 1 && msg->len > MLC_T1_MAX_LEN)
        return -1; /* LEN is 16 bits */
    unsigned units = mlc_msg_units(msg);
    if (h->msg_mode && 16ull * units > h->fifo_bytes)
        return -1; /* could never be wholly in the FIFO */
    uint8_t *buf = malloc(16u * units);
    if (!buf)
        return -1;
    mlc_msg_encode(msg, buf);
    for (unsigned i = 0; i < 8u * units; i++)
        if (ring_push(&h->tx[ch], &(uint16_t){(uint16_t)(buf[2 * i] | (buf[2 * i + 1] << 8))})) {
            free(buf);
            return -1;
        }
    free(buf);
    return 0;
}

int mlc_host_barrier(mlc_host_t *h, unsigned ch, unsigned src, unsigned mask, uint32_t epoch)
{
    uint8_t d[MLC_T0_DATA] = {0};
    d[0] = (uint8_t)epoch;
    d[1] = (uint8_t)(epoch >> 8);
    d[2] = (uint8_t)(epoch >> 16);
    d[3] = (uint8_t)(epoch >> 24);
    mlc_msg_t m = {0, MLC_KIND_BARRIER, MLC_DST_MULTI, mask, src, MLC_T0_DATA, d};
    return mlc_host_send(h, ch, &m);
}

void mlc_host_drive(mlc_host_t *h, const mlc_out_t *prev, mlc_in_t *in)
{
    in->h_wr = in->h_rd = 0;
    in->h_wch = in->h_rch = 0;
    in->h_wdata = 0;
    /* write: the first channel (round robin) with words queued and budget; a channel whose budget
     * is spent reads its status register again (status after the previous step) */
    for (unsigned i = 0; i < MLC_NCH && !h->hold_wr; i++) {
        unsigned c = (h->wrr + i) % MLC_NCH;
        if (h->tx[c].n == 0)
            continue;
        if (h->wbudget[c] < 2) {
            h->wbudget[c] = prev->st_tx_space[c];
            if (h->wbudget[c] >= 2)
                h->status_reads++;
        }
        if (h->wbudget[c] >= 2) {
            in->h_wr = 1;
            in->h_wch = (uint8_t)c;
            ring_pop(&h->tx[c], &in->h_wdata);
            h->wbudget[c] -= 2;
            h->wrr = (c + 1) % MLC_NCH;
            break;
        }
    }
    /* read: the same with the receive status */
    h->last_rd = 0;
    for (unsigned i = 0; i < MLC_NCH && !h->hold_rd; i++) {
        unsigned c = (h->rrr + i) % MLC_NCH;
        if (h->rbudget[c] < 2) {
            h->rbudget[c] = prev->st_rx_avail[c];
            if (h->rbudget[c] >= 2)
                h->status_reads++;
        }
        if (h->rbudget[c] >= 2) {
            in->h_rd = 1;
            in->h_rch = (uint8_t)c;
            h->rbudget[c] -= 2;
            h->rrr = (c + 1) % MLC_NCH;
            h->last_rd = 1;
            h->last_rch = c;
            break;
        }
    }
    h->hold_wr = h->hold_rd = 0;
}

void mlc_host_hold(mlc_host_t *h, int hold_wr, int hold_rd)
{
    h->hold_wr = hold_wr ? 1u : 0u;
    h->hold_rd = hold_rd ? 1u : 0u;
}

/* a whole message is in a->b: decode it and queue it */
static void deliver(mlc_host_t *h, unsigned ch, asm_t *a)
{
    const uint8_t *b = a->b;
    mlc_msg_t m;
    memset(&m, 0, sizeof m);
    m.type = b[0] & 1u;
    m.kind = b[0] >> 1;
    m.dst = b[1];
    m.mask = (unsigned)b[2] | ((unsigned)b[3] << 8);
    m.src = b[4];
    if (m.type == 0) {
        m.len = MLC_T0_DATA;
        m.data = malloc(MLC_T0_DATA);
        if (m.data)
            memcpy(m.data, b + 5, MLC_T0_DATA);
    } else {
        m.len = (unsigned)b[5] | ((unsigned)b[6] << 8);
        m.data = malloc(m.len ? m.len : 1);
        unsigned i = 0;
        size_t k;
        for (k = 7; k < 16 && i < m.len; k++)
            m.data[i++] = b[k];
        for (k = 18; k < 32 && i < m.len; k++)
            m.data[i++] = b[k];
        for (k = 32; k < a->n && i < m.len; k++)
            m.data[i++] = b[k];
        m.len = i; /* a LEN beyond the message's units is cut to what came */
    }
    ring_push(&h->rx[ch], &m);
    a->n = 0;
}

void mlc_host_collect(mlc_host_t *h, const mlc_out_t *out)
{
    if (!h->last_rd || !out->h_rvalid)
        return;
    unsigned ch = h->last_rch;
    asm_t *a = &h->as[ch];
    if (a->n + 2 > a->cap) {
        size_t nc = a->cap ? 2 * a->cap : 256;
        uint8_t *nb = realloc(a->b, nc);
        if (!nb)
            return;
        a->b = nb;
        a->cap = nc;
    }
    a->b[a->n++] = (uint8_t)(out->h_rdata & 0xFFu);
    a->b[a->n++] = (uint8_t)(out->h_rdata >> 8);
    if (a->n % 16 != 0)
        return;
    /* a unit is complete: the same parser as the MLC's (docs/mlc.md, Messages) */
    const uint8_t *u = a->b + a->n - 16;
    unsigned w0 = (unsigned)u[0] | ((unsigned)u[1] << 8);
    int ends = 0;
    if (a->need == 0) {
        if ((w0 & 1u) == 0)
            ends = 1;
        else
            a->need = -1;
    } else if (a->need == -1) {
        unsigned pc = w0 < 2 ? 2 : w0;
        a->need = (long)pc - 2;
        ends = a->need == 0;
    } else {
        a->need--;
        ends = a->need == 0;
    }
    if (ends)
        deliver(h, ch, a);
}

int mlc_host_recv(mlc_host_t *h, unsigned ch, mlc_msg_t *msg) { return ring_pop(&h->rx[ch & 1u], msg); }

uint64_t mlc_host_tx_pending(const mlc_host_t *h, unsigned ch) { return ch < MLC_NCH ? h->tx[ch].n : 0; }

uint64_t mlc_host_status_reads(const mlc_host_t *h) { return h->status_reads; }

int mlc_msg_eq(const mlc_msg_t *a, const mlc_msg_t *b)
{
    return a->type == b->type && a->kind == b->kind && a->dst == b->dst && a->mask == b->mask && a->src == b->src &&
           a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

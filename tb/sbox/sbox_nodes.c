/* tb/sbox/sbox_nodes.c -- what the switch-box benches share (sbox_nodes.h) */
#include "sbox_nodes.h"

#include "rerun.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sbn_msg_finish(rng_t *rng, mlc_msg_t *m, unsigned src, unsigned fifo_bytes, int msgmode)
{
    if (m->type == 0 && m->dst == MLC_DST_MULTI && (m->kind == MLC_KIND_BARRIER || m->kind == MLC_KIND_RELEASE))
        m->kind = 0; /* those are the boxes' barrier units, not data */
    m->src = src;
    if (m->type == 0) {
        m->len = MLC_T0_DATA;
    } else {
        unsigned s = rng_below(rng, 100);
        unsigned maxlen = s < 65 ? 40 : s < 97 ? 300 : fifo_bytes + fifo_bytes / 2;
        m->len = 1 + rng_below(rng, maxlen);
        if (msgmode) { /* message-based MLCs: a message must fit the FIFO (docs/mlc.md rule 5) */
            unsigned maxu = fifo_bytes / 16;
            if (m->len > 23 + 16 * (maxu - 2))
                m->len = 23 + 16 * (maxu - 2);
        }
    }
    m->data = malloc(m->len ? m->len : 1);
    if (!m->data)
        return -1;
    for (unsigned i = 0; i < m->len; i++)
        m->data[i] = (uint8_t)rng_below(rng, 256);
    return m->type == 1 && mlc_msg_units(m) == 2 && rng_pct(rng, 10);
}

int sbn_msg_copy(mlc_msg_t *cp, const mlc_msg_t *m)
{
    *cp = *m;
    cp->data = malloc(m->len ? m->len : 1);
    if (!cp->data)
        return -1;
    if (m->len)
        memcpy(cp->data, m->data, m->len);
    return 0;
}

void sbn_node_host(rng_t *rng, mlc_host_t *host, const mlc_out_t *out, mlc_in_t *in, mlc_in_t *h, int traffic,
                   unsigned hold_kind, unsigned hold_node, unsigned n, uint64_t cycle)
{
    int hold_rd = traffic && rng_pct(rng, 95) &&
                  ((hold_kind == 1 && n == hold_node && cycle % 10000 < 2000) || (hold_kind == 3 && n == hold_node) ||
                   (hold_kind == 2 && (cycle / 400 + n) % 8 == 0));
    int hold_wr = traffic && rng_pct(rng, 10);
    mlc_host_hold(host, hold_wr, hold_rd);
    mlc_host_drive(host, out, h);
    in->h_wr = h->h_wr;
    in->h_wch = h->h_wch;
    in->h_wdata = h->h_wdata;
    in->h_rd = h->h_rd;
    in->h_rch = h->h_rch;
    in->reg_rd = in->reg_wr = 0;
}

void sbn_node_cfg(mlc_in_t *in, unsigned cfg)
{
    in->reg_wr = 1;
    in->reg_addr = MLC_REG_CFG;
    in->reg_wdata = (uint16_t)cfg;
}

void sbn_node_word(rng_t *rng, mlc_in_t *in, const mlc_in_t *h, ring_t *pcbad, uint64_t *wr_words)
{
    uint64_t *bad = ring_front(&pcbad[h->h_wch]);
    if (bad && *bad == wr_words[h->h_wch]) {
        in->h_wdata = (uint16_t)rng_below(rng, 2);
        ring_pop(&pcbad[h->h_wch], NULL);
    }
    wr_words[h->h_wch]++;
}

int sbn_num_opt(const char *prog, const char *name, const char *v, unsigned max, unsigned *out)
{
    char *end;
    unsigned long x = strtoul(v, &end, 0);
    if (!*v || *end || *v == '-' || x > max) {
        fprintf(stderr, "%s: %s wants a number 0..%u, got '%s'\n", prog, name, max, v);
        return 2;
    }
    *out = (unsigned)x;
    return -1;
}

unsigned sbn_popc(unsigned x)
{
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

int sbn_fault(rng_t *frng, unsigned corrupt_pm, unsigned ctl_rate, unsigned link_w, uint8_t *prev_en, int *erasing,
              uint8_t *en, uint8_t *d, uint64_t *corrupted)
{
    if (*en && rng_below(frng, 1000) < corrupt_pm) {
        *d ^= (uint8_t)(1u + rng_below(frng, (1u << link_w) - 1u));
        (*corrupted)++;
    }
    if (!ctl_rate)
        return 0;
    int starts = *en && !*prev_en;
    *prev_en = *en;
    if (!*en)
        *erasing = 0;
    else if (starts && rng_below(frng, 1000000) < 5u * ctl_rate)
        *erasing = 1;
    unsigned r = rng_below(frng, 1000000);
    int drop = *en && r < ctl_rate;
    int spur = !*en && r >= ctl_rate && r < 2u * ctl_rate;
    if (*erasing || drop) {
        *en = 0;
        *d = 0;
    } else if (spur) {
        *en = 1;
        *d = (uint8_t)rng_below(frng, 1u << link_w);
    }
    return *erasing || drop || spur;
}

int sbn_node_new(const sbox_params_t *p, unsigned link_delay, int msgmode, mlc_t **node, mlc_host_t **host,
                 mlc_link_t **link, mlc_out_t *out)
{
    mlc_params_t mp = {p->LINK_W, p->FIFO_BYTES, p->TURN, 1, p->TIMEOUT, p->CTR_W, 0}; /* a master: no guard */
    *node = mlc_new(&mp);
    *host = mlc_host_new(p->FIFO_BYTES, msgmode);
    *link = mlc_link_new(link_delay);
    if (!*node || !*host || !*link)
        return -1;
    out->st_tx_space[0] = out->st_tx_space[1] = (uint16_t)p->FIFO_BYTES;
    return 0;
}

int sbn_node_renew(const sbox_params_t *p, unsigned link_delay, int msgmode, mlc_t **node, mlc_host_t **host,
                   mlc_link_t **link, mlc_out_t *out)
{
    mlc_free(*node);
    mlc_host_free(*host);
    mlc_link_free(*link);
    *node = NULL;
    *host = NULL;
    *link = NULL;
    return sbn_node_new(p, link_delay, msgmode, node, host, link, out);
}

void sbn_vreport(const char *tag, uint64_t cycle, uint64_t seed, const char *where, const char *fmt, va_list ap)
{
    char m[400];
    vsnprintf(m, sizeof m, fmt, ap);
    printf("%s cycle=%" PRIu64 " %s%s seed=%" PRIu64 "\n", tag, cycle, where, m, seed);
}

void sbn_fail_rerun(const char *prog, const bench_opts_t *o, int argc, char *const *argv, uint64_t cycle)
{
    fflush(stdout);
    if (o->waves.on_fail && o->mode != MODE_MODEL)
        bench_rerun_vcd(prog, "     ", argc, argv, &o->waves, cycle, 1);
}

void sbn_progress(const bench_opts_t *o, uint64_t cycle, uint64_t sent, uint64_t recvd, uint64_t barriers)
{
    if (!o->quiet && cycle % 1000000 == 0) {
        printf("  cycle %" PRIu64 ": %" PRIu64 " messages sent, %" PRIu64 " received, %" PRIu64 " barriers\n", cycle,
               sent, recvd, barriers);
        fflush(stdout);
    }
}

void sbn_bar_wait(uint64_t *max, uint64_t now, const uint64_t *written_at, unsigned n, unsigned members)
{
    uint64_t last = 0;
    for (unsigned i = 0; i < n; i++)
        if ((members >> i) & 1u && written_at[i] > last)
            last = written_at[i];
    if (now - last > *max)
        *max = now - last;
}

/* sanfab — the Maestro switch box as a fabric switch (sbox_net.h): the glue between net_switch_ops and sbox.h. */
#include "sbox_net.h"

#include "mlc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    sbox_t *m;
    unsigned n;
    uint64_t steps;        /* network cycles stepped (the register schedule's clock) */
    sbox_net_box box;      /* its table and up port */
    int has_table;
    sbox_in_t in;
    sbox_out_t out;
} ssw_t;

void sbox_net_reg_in(const sbox_net_box *b, uint64_t cycle, sbox_in_t *in)
{
    in->reg_rd = 0;
    in->reg_wr = 0;
    in->reg_addr = 0;
    in->reg_wdata = 0;
    if (!b || cycle == 0 || cycle > SBOX_NET_LOAD_CYCLES)
        return;
    in->reg_wr = 1;
    if (cycle <= SBOX_MAX_NODES) {
        const unsigned d = (unsigned)(cycle - 1u);
        in->reg_addr = SBOX_REG_TABLE(d);
        in->reg_wdata = b->port[d] >= 0 ? (uint16_t)(SBOX_REG_VALID | ((unsigned)b->port[d] & 7u)) : 0u;
    } else {
        in->reg_addr = SBOX_REG_UP;
        in->reg_wdata = b->up >= 0 ? (uint16_t)(SBOX_REG_VALID | ((unsigned)b->up & 7u)) : 0u;
    }
}

static void *ssw_create(const void *params, unsigned sw, unsigned nports, char *err, size_t errlen)
{
    const sbox_net_params_t *np = params;
    if (!np) {
        snprintf(err, errlen, "switch box %u: no parameters (a Maestro network's boxes take an sbox_net_params_t)", sw);
        return NULL;
    }
    sbox_params_t p = np->p;
    if (nports > SBOX_MAX_PORTS) {
        snprintf(err, errlen, "switch box %u has %u ports; a Maestro switch box has at most %u", sw, nports,
                 (unsigned)SBOX_MAX_PORTS);
        return NULL;
    }
    p.PORTS = nports < 2 ? 2 : nports;
    const sbox_net_box *box = NULL;
    if (np->boxes) {
        if (sw >= np->nboxes) {
            snprintf(err, errlen, "the tables have %u boxes, no box %u", np->nboxes, sw);
            return NULL;
        }
        box = &np->boxes[sw];
        if (box->up >= (int)p.PORTS) {
            snprintf(err, errlen, "box %u: up port %d, the box has %u ports", sw, box->up, p.PORTS);
            return NULL;
        }
        for (unsigned d = 0; d < SBOX_MAX_NODES; d++)
            if (box->port[d] >= (int)p.PORTS) {
                snprintf(err, errlen, "box %u: node %u on port %d, the box has %u ports", sw, d, box->port[d], p.PORTS);
                return NULL;
            }
    }
    p.MASTER_MASK = box && box->up >= 0 ? 1u << box->up : 0u;
    char why[200];
    if (sbox_params_check(&p, why, sizeof why)) {
        snprintf(err, errlen, "switch box %u: %s", sw, why);
        return NULL;
    }
    ssw_t *s = calloc(1, sizeof *s);
    if (!s || !(s->m = sbox_new(&p))) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->n = p.PORTS;
    if (box) {
        s->box = *box;
        s->has_table = 1;
    }
    return s;
}

static void ssw_step(void *sw, const uint64_t *in_fwd, const uint64_t *in_back, uint64_t *out_fwd, uint64_t *out_back)
{
    ssw_t *s = sw;
    (void)in_back;
    s->steps++;
    sbox_net_reg_in(s->has_table ? &s->box : NULL, s->steps, &s->in);
    for (unsigned i = 0; i < s->n; i++) {
        s->in.rx_en[i] = (in_fwd[i] & SBOX_NET_EN) ? 1u : 0u;
        s->in.rx_d[i] = (uint8_t)in_fwd[i];
    }
    sbox_step(s->m, &s->in, &s->out);
    for (unsigned i = 0; i < s->n; i++) {
        out_fwd[i] = sbox_net_word(s->out.tx_en[i], s->out.tx_d[i]);
        out_back[i] = 0;
    }
}

static void ssw_destroy(void *sw)
{
    ssw_t *s = sw;
    if (s)
        sbox_free(s->m);
    free(s);
}

static uint64_t ssw_counter(const void *sw, unsigned port, unsigned ctr)
{
    const ssw_t *s = sw;
    if (port >= s->n)
        return 0;
    if (ctr < MLC_NCTR)
        return mlc_counter(sbox_mlc(s->m, port), ctr);
    return port == 0 ? sbox_counter(s->m, ctr - MLC_NCTR) : 0;
}

static const char *ssw_counter_name(unsigned ctr)
{
    static const char *const box[SBOX_NCTR] = {"box_msgs",    "box_mcast",    "box_words",   "box_drop_route",
                                               "box_bar_req", "box_bar_done", "box_err_bar", "box_err_msg"};
    if (ctr < MLC_NCTR)
        return mlc_counter_name(ctr);
    return ctr - MLC_NCTR < SBOX_NCTR ? box[ctr - MLC_NCTR] : "?";
}

const net_switch_ops net_sbox_ops = {
    .name = "sbox",
    .idle_word = 0,
    .nctr = MLC_NCTR + SBOX_NCTR,
    .create = ssw_create,
    .step = ssw_step,
    .destroy = ssw_destroy,
    .counter = ssw_counter,
    .counter_name = ssw_counter_name,
    .ctr_timeout = -1,
    .quiet = NULL,
    .skip = NULL,
};

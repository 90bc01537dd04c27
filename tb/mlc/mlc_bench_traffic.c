/* sanfab — MLC lockstep bench: the host stimulus and the forged frames (mlc_bench_traffic.h). */
#include "mlc_bench_traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ stimulus */

/* a random message from node n on channel c into its host driver and the scoreboard (type0: a Type0) */
static void new_message(bench_t *b, unsigned n, unsigned c, int type0)
{
    mlc_msg_t m;
    memset(&m, 0, sizeof m);
    m.type = type0 || rng_pct(&b->rng, 35) ? 0u : 1u;
    m.kind = rng_below(&b->rng, 128);
    m.dst = rng_pct(&b->rng, 10) ? MLC_DST_MULTI : rng_below(&b->rng, 255);
    m.mask = m.dst == MLC_DST_MULTI ? rng_below(&b->rng, 65536) : 0u;
    m.src = n;
    if (m.type == 0) {
        m.len = MLC_T0_DATA;
    } else {
        unsigned r = rng_below(&b->rng, 100);
        unsigned maxlen = r < 60 ? 40 : r < 90 ? 300 : 2 * b->p[n].FIFO_BYTES;
        m.len = rng_below(&b->rng, maxlen + 1);
    }
    m.data = malloc(m.len ? m.len : 1);
    if (!m.data) {
        fprintf(stderr, "mlc_bench: out of memory\n");
        exit(1);
    }
    for (unsigned i = 0; i < m.len; i++)
        m.data[i] = (uint8_t)rng_below(&b->rng, 256);
    if (mlc_host_send(b->h[n], c, &m) != 0) { /* e.g. larger than the FIFO in message mode */
        free(m.data);
        return;
    }
    if (ring_push(&b->exp[n][c], &m) != 0) {
        fprintf(stderr, "mlc_bench: out of memory\n");
        exit(1);
    }
    b->sent++;
}

/* the host side of node n's inputs for this step (link fields untouched) */
void host_inputs(bench_t *b, unsigned n, int draining, mlc_in_t *in)
{
    mlc_in_t h;
    memset(&h, 0, sizeof h);
    if (b->lim == 1) /* the limits test's fill: Type0 messages (whole units) as fast as they go */
        for (unsigned c = 0; c < MLC_NCH; c++) {
            if (mlc_host_tx_pending(b->h[n], c) < 64)
                new_message(b, n, c, 1);
        }
    else if (b->lim == 3) /* its refill: no more units than the other end's receive FIFO has free */
        for (unsigned c = 0; c < MLC_NCH; c++) {
            uint64_t out = (b->p[n].FIFO_BYTES - b->prim[n].st_tx_space[c]) / 16u + (mlc_host_tx_pending(b->h[n], c) + 7u) / 8u;
            uint64_t fr = b->p[n].FIFO_BYTES / 16u - b->prim[1 - n].st_rx_avail[c] / 16u;
            if (out < fr)
                new_message(b, n, c, 1);
        }
    else if (!draining && !b->lim)
        for (unsigned c = 0; c < MLC_NCH; c++)
            if (mlc_host_tx_pending(b->h[n], c) < 64 && rng_pct(&b->rng, 3))
                new_message(b, n, c, 0);
    /* a busy host now and then: bursts of held reads build up back-pressure (credits) */
    int hold_rd = !draining && (b->cycle / 3000 + n) % 4 == 0 && rng_pct(&b->rng, 95);
    int hold_wr = !draining && rng_pct(&b->rng, 10);
    if (b->lim) { /* the limits test: no reads while filling (1, 3), all (2), one word every lim_every steps (4) */
        hold_rd = b->lim == 1 || b->lim == 3 || (b->lim == 4 && b->cycle % b->lim_every != 0);
        hold_wr = 0;
    }
    mlc_host_hold(b->h[n], hold_wr, hold_rd);
    mlc_host_drive(b->h[n], &b->prim[n], &h);
    /* refused writes and reads: only where the status says there is no room / nothing */
    if (!h.h_wr && rng_pct(&b->rng, 20)) {
        unsigned c = rng_below(&b->rng, 2);
        if (b->prim[n].st_tx_space[c] == 0) {
            h.h_wr = 1;
            h.h_wch = (uint8_t)c;
            h.h_wdata = (uint16_t)rng_below(&b->rng, 65536);
        }
    }
    if (!h.h_rd && rng_pct(&b->rng, 20)) {
        unsigned c = rng_below(&b->rng, 2);
        if (b->prim[n].st_rx_avail[c] == 0) {
            h.h_rd = 1;
            h.h_rch = (uint8_t)c;
        }
    }
    /* register port; the link state (register 15) often in the limits test and while the slave
     * holds (the bit coverage of its flags) */
    int forced = n == 1 && b->preg && !b->cfg_pending[n];
    int readback = !forced && b->cfg_rb[n];
    b->cfg_rb[n] = 0;
    if (forced) { /* the directed pairs: the slave's counters */
        h.reg_rd = 1;
        h.reg_addr = (uint8_t)b->pra[4 - b->preg];
    } else if (readback) { /* the configuration written in the step before, read back: every run, however
                              * short, reads every configuration it writes (the bit coverage) */
        h.reg_rd = 1;
        h.reg_addr = MLC_REG_CFG;
    } else if ((b->lim || (n == 1 && b->hold)) && rng_pct(&b->rng, 50)) {
        h.reg_rd = 1;
        h.reg_addr = MLC_REG_LINK;
    } else if (rng_pct(&b->rng, 15)) {
        h.reg_rd = 1;
        h.reg_addr = (uint8_t)rng_below(&b->rng, 32);
    }
    b->cfg_wr[n] = 0;
    if (b->cfg_pending[n]) { /* the phase's configuration (step 1, and at every phase switch) */
        b->cfg_pending[n] = 0;
        b->cfg_wr[n] = 1;
        b->cfg_rb[n] = 1;
        h.reg_wr = 1;
        h.reg_addr = MLC_REG_CFG;
        h.reg_wdata = (uint16_t)(b->cfg[n] | 0xFFF8u); /* the upper bits are ignored */
    } else if (!forced && !readback && rng_pct(&b->rng, 1)) { /* (reads and writes share the address) */
        h.reg_wr = 1;
        if (rng_pct(&b->rng, 5) && draining != 2 && !b->lim) { /* a new transfer size; the mode (MSG) stays */
            b->cfg[n] = (b->cfg[n] & MLC_CFG_MSG) | MLC_CFG_SP(rng_below(&b->rng, 4));
            b->cfg_wr[n] = 1;
            b->cfg_rb[n] = 1;
            h.reg_addr = MLC_REG_CFG;
            h.reg_wdata = (uint16_t)b->cfg[n];
        } else { /* writes elsewhere are ignored */
            do
                h.reg_addr = (uint8_t)rng_below(&b->rng, 32);
            while (h.reg_addr == MLC_REG_CFG);
            h.reg_wdata = (uint16_t)rng_below(&b->rng, 65536);
        }
    }
    in->h_wr = h.h_wr;
    in->h_wch = h.h_wch;
    in->h_wdata = h.h_wdata;
    in->h_rd = h.h_rd;
    in->h_rch = h.h_rch;
    in->reg_rd = h.reg_rd;
    in->reg_wr = h.reg_wr;
    in->reg_addr = h.reg_addr;
    in->reg_wdata = h.reg_wdata;
}

/* ------------------------------------------------------------------ forged frames */

void forge(bench_t *b, unsigned n)
{
    uint8_t nib[8 + 32 * 15 + 8];
    unsigned lw = b->p[n].LINK_W, k = 0;
    unsigned np = rng_pct(&b->frng, 30) ? 0u : 1u + rng_below(&b->frng, rng_pct(&b->frng, 50) ? 3 : 15);
    nib[k++] = (uint8_t)np;
    nib[k++] = (uint8_t)rng_below(&b->frng, 16);
    nib[k++] = (uint8_t)rng_below(&b->frng, 16);
    nib[k++] = (uint8_t)rng_below(&b->frng, 16);
    for (unsigned i = 0; i < 32 * np; i++)
        nib[k++] = (uint8_t)rng_below(&b->frng, 16);
    for (unsigned u = 0; u < np; u++)
        if (rng_pct(&b->frng, 50)) { /* a small first word: Type0/Type1 headers, Pkt-Counters 0..3 */
            nib[4 + 32 * u] = (uint8_t)rng_below(&b->frng, 4);
            nib[5 + 32 * u] = nib[6 + 32 * u] = nib[7 + 32 * u] = 0;
        }
    k = fcrc_append(nib, k);
    unsigned r = rng_below(&b->frng, 20);
    if (r == 0 && k > 8)
        k -= lw / 4; /* one symbol short */
    else if (r == 1) {
        nib[k++] = (uint8_t)rng_below(&b->frng, 16); /* one symbol long */
        if (lw == 8)
            nib[k++] = (uint8_t)rng_below(&b->frng, 16);
    }
    unsigned per = lw / 4;
    b->flen[n] = k / per;
    for (unsigned i = 0; i < b->flen[n]; i++)
        b->fsym[n][i] = per == 1 ? nib[i] : (uint8_t)(nib[2 * i] | (nib[2 * i + 1] << 4));
    b->fpos[n] = 0;
    b->forged++;
}

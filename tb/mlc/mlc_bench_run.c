/* sanfab — MLC lockstep bench: one step, --speed, drains and phases (mlc_bench_run.h). */
#define _POSIX_C_SOURCE 200809L
#include "mlc_bench_run.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------ --speed: record and replay */

static void speed_record(bench_t *b, const mlc_in_t im[2], const mlc_in_t ir[2])
{
    if (b->rec_n == b->rec_cap) {
        uint64_t cap = b->rec_cap ? 2 * b->rec_cap : 1u << 16;
        mlc_in_t *a = realloc(b->rec_im, (size_t)cap * 2 * sizeof *a);
        if (a)
            b->rec_im = a;
        mlc_in_t *c = a ? realloc(b->rec_ir, (size_t)cap * 2 * sizeof *c) : NULL;
        if (c)
            b->rec_ir = c;
        mlc_out_t *d = c ? realloc(b->rec_om, (size_t)(cap / SPEED_SAMPLE + 1) * 2 * sizeof *d) : NULL;
        if (d)
            b->rec_om = d;
        mlc_out_t *e = d ? realloc(b->rec_or, (size_t)(cap / SPEED_SAMPLE + 1) * 2 * sizeof *e) : NULL;
        if (!e) {
            fprintf(stderr, "mlc_bench: out of memory (--speed)\n");
            exit(1);
        }
        b->rec_or = e;
        b->rec_cap = cap;
    }
    uint64_t i = b->rec_n++;
    memcpy(&b->rec_im[2 * i], im, 2 * sizeof *im);
    memcpy(&b->rec_ir[2 * i], ir, 2 * sizeof *ir);
    if (i % SPEED_SAMPLE == 0) {
        memcpy(&b->rec_om[2 * (i / SPEED_SAMPLE)], b->om, 2 * sizeof *b->om);
        memcpy(&b->rec_or[2 * (i / SPEED_SAMPLE)], b->orr, 2 * sizeof *b->orr);
    }
}

static int out_eq(const mlc_out_t *e, const mlc_out_t *a)
{
    return e->tx_en == a->tx_en && e->tx_d == a->tx_d && e->h_rvalid == a->h_rvalid && e->h_rdata == a->h_rdata &&
           e->st_tx_space[0] == a->st_tx_space[0] && e->st_tx_space[1] == a->st_tx_space[1] &&
           e->st_rx_avail[0] == a->st_rx_avail[0] && e->st_rx_avail[1] == a->st_rx_avail[1] &&
           e->reg_rvalid == a->reg_rvalid && e->reg_rdata == a->reg_rdata;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the recorded stimulus replayed into fresh models and a fresh RTL pair, only the step calls timed
 * (two model ends per step are one step, as the RTL pair's one edge is); every SPEED_SAMPLE-th
 * step's outputs must equal those of the run (the replay is the run); 0 on success */
int speed_replay(bench_t *b, int nplus, const char *const *plus)
{
    uint64_t n = b->rec_n, bad = 0;
    mlc_out_t o[2];
    mlc_t *m0 = mlc_new(&b->p[0]), *m1 = mlc_new(&b->p[1]);
    if (!m0 || !m1) {
        fprintf(stderr, "mlc_bench: out of memory (--speed)\n");
        return 1;
    }
    preset_apply(b, m0, m1, NULL);
    double t0 = now_s();
    for (uint64_t i = 0; i < n; i++) {
        mlc_step(m0, &b->rec_im[2 * i], &o[0]);
        mlc_step(m1, &b->rec_im[2 * i + 1], &o[1]);
        if (i % SPEED_SAMPLE == 0 && (!out_eq(&b->rec_om[2 * (i / SPEED_SAMPLE)], &o[0]) ||
                                      !out_eq(&b->rec_om[2 * (i / SPEED_SAMPLE) + 1], &o[1])) && !bad++)
            printf("SPEED replay: the model's outputs of step %" PRIu64 " differ from the run's\n", i + 1);
    }
    double tm = now_s() - t0;
    mlc_free(m0);
    mlc_free(m1);
    mlc_rtl_t *r = mlc_rtl_new(nplus, plus);
    preset_apply(b, NULL, NULL, r);
    t0 = now_s();
    for (uint64_t i = 0; i < n; i++) {
        mlc_rtl_step(r, &b->rec_ir[2 * i], o);
        if (i % SPEED_SAMPLE == 0 && (!out_eq(&b->rec_or[2 * (i / SPEED_SAMPLE)], &o[0]) ||
                                      !out_eq(&b->rec_or[2 * (i / SPEED_SAMPLE) + 1], &o[1])) && !bad++)
            printf("SPEED replay: the RTL's outputs of step %" PRIu64 " differ from the run's\n", i + 1);
    }
    double tr = now_s() - t0;
    mlc_rtl_free(r);
    if (bad) {
        printf("SPEED replay: %" PRIu64 " sampled steps differ (of %" PRIu64 ")\n", bad, (n + SPEED_SAMPLE - 1) / SPEED_SAMPLE);
        return 1;
    }
    double ms = tm > 0 ? (double)n / tm : 0, rs = tr > 0 ? (double)n / tr : 0;
    printf("speed: %" PRIu64 " steps: model %.0f steps/s, rtl %.0f steps/s, ratio %.2f (step calls only;"
           " model %.3f s, rtl %.3f s, replayed stimulus, outputs of every %uth step checked)\n",
           n, ms, rs, rs > 0 ? ms / rs : 0.0, tm, tr, SPEED_SAMPLE);
    return 0;
}

/* ------------------------------------------------------------------ one step */

/* draining: 0 traffic; 1 the final drain (no new messages, no faults); 2 a drain between phases
 * (no new messages, no random faults but the directed erased frame and CTL pulse, Network Burst: no
 * new transfer sizes) */
/* the directed pairs: the faults pk into the master's frame arriving at the slave (im, ir: its
 * inputs of this step in the model pair and the RTL pair, changed alike) */
static void pair_inject(bench_t *b, mlc_in_t *im, mlc_in_t *ir)
{
    int en = b->mode == MODE_RTL ? ir->rx_en : im->rx_en;
    uint8_t d = b->mode == MODE_RTL ? ir->rx_d : im->rx_d;
    unsigned lw = b->p[1].LINK_W;
    if (b->pph == 1) {
        if (!en || b->prim[1].tx_en || b->rxd[1].in)
            return;
        b->pph = 2;
        b->pos = 0;
        unsigned np = d & 15u;
        if (b->pk & PF_K) { /* a forged data frame: NP 1, CR 0 0, a good check */
            uint8_t nib[40];
            unsigned k = 0;
            nib[k++] = 1;
            nib[k++] = (uint8_t)rng_below(&b->frng, 8);
            nib[k++] = 0;
            nib[k++] = 0;
            for (unsigned i = 0; i < 32; i++)
                nib[k++] = (uint8_t)rng_below(&b->frng, 16);
            k = fcrc_append(nib, k);
            b->flen[1] = k * 4 / lw;
            for (unsigned i = 0; i < b->flen[1]; i++)
                b->fsym[1][i] = lw == 4 ? nib[i] : (uint8_t)(nib[2 * i] | (nib[2 * i + 1] << 4));
            np = 1;
        }
        b->plen = mlc_frame_symbols(&b->p[1], np);
        /* corrupted symbols: not the first (a corrupted NP fails the length test first), not the last
         * (S drops it), two different ones for C2 */
        b->poff[0] = 1u + rng_below(&b->frng, b->plen - 2);
        do
            b->poff[1] = 1u + rng_below(&b->frng, b->plen - 2);
        while (b->poff[1] == b->poff[0]);
        b->pbit[0] = rng_below(&b->frng, lw);
        b->pbit[1] = rng_below(&b->frng, lw);
    }
    if (b->pph != 2)
        return;
    unsigned i = b->pos++;
    if (b->pk & PF_K) {
        en = i < b->plen;
        d = en ? b->fsym[1][i] : 0;
    }
    if (i < b->plen && en) {
        if ((b->pk & (PF_C | PF_C2)) && i == b->poff[0])
            d ^= (uint8_t)(1u << b->pbit[0]);
        if ((b->pk & PF_C2) && i == b->poff[1])
            d ^= (uint8_t)(1u << b->pbit[1]);
        if ((b->pk & PF_S) && i == b->plen - 1)
            en = 0, d = 0;
    } else if (i == b->plen && (b->pk & PF_G)) {
        en = 1;
        d = (uint8_t)rng_below(&b->frng, 1u << lw);
    } else if (i >= b->plen && !(b->pk & PF_K) && en) {
        check_fail(b, "directed pairs: the master's frame is longer than its NP says");
    }
    if (i > b->plen)
        b->pph = 0;
    im->rx_en = ir->rx_en = (uint8_t)en;
    im->rx_d = ir->rx_d = en ? d : 0;
    b->last_fault = b->cycle;
}

/* a new bench step: the cycle count, and the RTL's waves opened or closed at their window's ends */
static void next_cycle(bench_t *b)
{
    b->cycle++;
    if (b->waves.vcd && b->rtl) {
        int wa = bench_waves_at(&b->waves, b->cycle, 1);
        if (wa > 0 && mlc_rtl_trace_open(b->rtl, b->waves.vcd, b->cycle) != 0) {
            fprintf(stderr, "mlc_bench: cannot write %s\n", b->waves.vcd);
            exit(1);
        }
        if (wa < 0)
            mlc_rtl_trace_close(b->rtl, NULL);
    }
}

void step(bench_t *b, int draining)
{
    int faults = draining == 0 && !b->pairs_on && b->lim != 4; /* none in the pairs and the walk */
    mlc_in_t im[2], ir[2];
    next_cycle(b);
    for (unsigned n = 0; n < 2; n++) {
        b->prev[n] = b->prim[n];
        im[n] = b->nm[n];
        ir[n] = b->nr[n];
        host_inputs(b, n, draining, &im[n]);
        reg_expect(b, n, &im[n]);
        host_count(b, n, &im[n]);
        /* the same host and register inputs into the RTL */
        ir[n].h_wr = im[n].h_wr;
        ir[n].h_wch = im[n].h_wch;
        ir[n].h_wdata = im[n].h_wdata;
        ir[n].h_rd = im[n].h_rd;
        ir[n].h_rch = im[n].h_rch;
        ir[n].reg_rd = im[n].reg_rd;
        ir[n].reg_wr = im[n].reg_wr;
        ir[n].reg_addr = im[n].reg_addr;
        ir[n].reg_wdata = im[n].reg_wdata;
        /* a corrupted nibble on the link: the same flip into both pairs */
        if (faults && rng_below(&b->frng, 1000) < 2) {
            unsigned lw = b->p[n].LINK_W;
            uint8_t flip = (uint8_t)(1u + rng_below(&b->frng, (1u << lw) - 1u));
            int en = b->mode == MODE_RTL ? ir[n].rx_en : im[n].rx_en;
            if (en) {
                im[n].rx_d ^= flip;
                ir[n].rx_d ^= flip;
                b->corrupted++;
                b->last_nib = b->cycle;
            }
        }
        /* CTL faults: the same into both pairs */
        if (b->ctl_rate && draining != 1) {
            int en = b->mode == MODE_RTL ? ir[n].rx_en : im[n].rx_en;
            int starts = en && !b->prev_rx_en[n];
            b->prev_rx_en[n] = (uint8_t)en;
            if (!en)
                b->erasing[n] = 0;
            else if (starts && n == 0 && b->erase_next) {
                b->erasing[n] = 1; /* the first frame at the master after a phase switch */
                b->erase_next = 0;
            } else if (starts && faults && rng_below(&b->frng, 1000000) < 500u * b->ctl_rate / 100u)
                b->erasing[n] = 1; /* roughly ctl_rate per million frames x 5 */
            unsigned r = rng_below(&b->frng, 1000000);
            int drop = faults && en && r < b->ctl_rate;
            int spur = faults && !en && r >= b->ctl_rate && r < 2u * b->ctl_rate;
            if (n == 1 && b->pulse_next && b->prev[1].tx_en && b->cycle == b->txf[1].start + 1u) {
                spur = 1; /* a directed conflict: a CTL pulse at the slave while it sends (hold) */
                b->pulse_next = 0;
            } else if (n == 1 && b->guard_next && !b->pulse_next && !b->hold && !en &&
                       b->txf[1].start &&
                       b->cycle == b->txf[1].start + (8u + 32u * b->txf[1].np) * 4u / b->p[1].LINK_W + b->link_delay) {
                /* a directed early frame: a CTL pulse at the slave LINK_DELAY + 1 steps after its last
                 * symbol, hold 0: the guard ignores it (rule 2); an unguarded slave would answer it in
                 * the step the master answers its frame (crossing frames) */
                spur = 1;
                b->guard_next = 0;
                b->guard_pulses++;
            }
            if (b->erasing[n] || drop) {
                im[n].rx_en = ir[n].rx_en = 0;
                im[n].rx_d = ir[n].rx_d = 0;
            } else if (spur) {
                uint8_t d = (uint8_t)rng_below(&b->frng, 1u << b->p[n].LINK_W);
                im[n].rx_en = ir[n].rx_en = 1;
                im[n].rx_d = ir[n].rx_d = d;
            }
            if (b->erasing[n] || drop || spur) {
                if (b->cycle != b->last_fault)
                    b->ctl_faults++;
                b->last_fault = b->cycle;
            }
        }
    }
    if (faults) /* several faults in one frame */
        for (unsigned n = 0; n < 2; n++) {
            int en = b->mode == MODE_RTL ? ir[n].rx_en : im[n].rx_en;
            unsigned lw = b->p[n].LINK_W, f0 = mlc_frame_symbols(&b->p[n], 0);
            if (en && !b->mf_prev[n] && !b->prim[n].tx_en && rng_below(&b->frng, 100) < 3) {
                b->mf_on[n] = 1;
                b->mf_pos[n] = 0;
                b->mf_off[n][0] = 1u + rng_below(&b->frng, f0 - 2);
                do
                    b->mf_off[n][1] = 1u + rng_below(&b->frng, f0 - 2);
                while (b->mf_off[n][1] == b->mf_off[n][0]);
                b->mf_bit[n][0] = rng_below(&b->frng, lw);
                b->mf_bit[n][1] = rng_below(&b->frng, lw);
                b->mf_drop[n] = b->ctl_rate && rng_pct(&b->frng, 50) ? f0 - 1 : ~0u;
                b->multi++;
            }
            b->mf_prev[n] = (uint8_t)en;
            if (!en) {
                b->mf_on[n] = 0;
                continue;
            }
            if (!b->mf_on[n])
                continue;
            unsigned i = b->mf_pos[n]++;
            for (unsigned j = 0; j < 2; j++)
                if (i == b->mf_off[n][j]) {
                    im[n].rx_d ^= (uint8_t)(1u << b->mf_bit[n][j]);
                    ir[n].rx_d ^= (uint8_t)(1u << b->mf_bit[n][j]);
                    b->corrupted++;
                    b->last_nib = b->cycle;
                }
            if (i == b->mf_drop[n]) {
                im[n].rx_en = ir[n].rx_en = 0;
                im[n].rx_d = ir[n].rx_d = 0;
                if (b->cycle != b->last_fault)
                    b->ctl_faults++;
                b->last_fault = b->cycle;
                b->mf_on[n] = 0;
            }
            if (i >= f0)
                b->mf_on[n] = 0;
        }
    if (b->pph)
        pair_inject(b, &im[1], &ir[1]);
    if (b->forge_rate && faults)
        for (unsigned n = 0; n < 2; n++) {
            int en = im[n].rx_en; /* lockstep only: the model's and the RTL's links agree */
            int starts = en && !b->fprev_en[n];
            b->fprev_en[n] = (uint8_t)en;
            if (!en)
                b->swallow[n] = 0;
            if (starts && b->fpos[n] >= b->flen[n] && rng_below(&b->frng, 1000) < b->forge_rate)
                forge(b, n);
            if (b->fpos[n] < b->flen[n]) {
                im[n].rx_en = ir[n].rx_en = 1;
                im[n].rx_d = ir[n].rx_d = b->fsym[n][b->fpos[n]++];
                b->swallow[n] = b->fpos[n] == b->flen[n] && en; /* then drop the rest of the real one */
                b->last_fault = b->cycle;
            } else if (b->swallow[n]) {
                im[n].rx_en = ir[n].rx_en = 0;
                im[n].rx_d = ir[n].rx_d = 0;
                b->last_fault = b->cycle;
            }
        }
    if (b->mode != MODE_RTL) {
        mlc_step(b->m[0], &im[0], &b->om[0]);
        mlc_step(b->m[1], &im[1], &b->om[1]);
    }
    if (b->mode != MODE_MODEL) {
        mlc_rtl_step(b->rtl, ir, b->orr);
        if (mlc_rtl_stopped(b->rtl))
            check_fail(b, "the RTL stopped itself (assertion)");
    }
    if (b->speed)
        speed_record(b, im, ir);
    if (b->mode == MODE_LOCKSTEP) {
        compare(b, 0, &b->om[0], &b->orr[0]);
        compare(b, 1, &b->om[1], &b->orr[1]);
    }
    for (unsigned n = 0; n < 2; n++) {
        b->prim[n] = b->mode == MODE_RTL ? b->orr[n] : b->om[n];
        for (unsigned c = 0; c < MLC_NCH; c++) { /* bit coverage of the status */
            cov_see(b, n, COV_SPACE0 + c, b->prim[n].st_tx_space[c]);
            cov_see(b, n, COV_AVAIL0 + c, b->prim[n].st_rx_avail[c]);
        }
    }
    if (b->mode != MODE_RTL) {
        uint64_t ov = mlc_link_overlaps(b->lm);
        mlc_link_step(b->lm, &b->om[0], &b->om[1], &b->nm[0], &b->nm[1]);
        if (mlc_link_overlaps(b->lm) != ov && !ctl_unsettled(b))
            check_fail(b, "both ends drive at one end's pins (model link)");
    }
    if (b->mode != MODE_MODEL) {
        uint64_t ov = mlc_link_overlaps(b->lr);
        mlc_link_step(b->lr, &b->orr[0], &b->orr[1], &b->nr[0], &b->nr[1]);
        if (mlc_link_overlaps(b->lr) != ov && !ctl_unsettled(b))
            check_fail(b, "both ends drive at one end's pins (RTL link)");
    }
    link_checks(b);
    for (unsigned n = 0; n < 2; n++) {
        const mlc_in_t *rx = b->mode == MODE_RTL ? &ir[n] : &im[n]; /* what the primary end was given */
        rx_decode(b, n, rx);
        tx_check(b, n);
        if (n == 0)
            timeout_check(b, rx);
        reg_check(b, n, &im[n]);
        if (b->cfg_wr[n])
            b->cfg_eff[n] = b->cfg[n] & 7u;
    }
    /* host side: collect the words read, check whole messages */
    for (unsigned n = 0; n < 2; n++) {
        mlc_host_collect(b->h[n], &b->prim[n]);
        for (unsigned c = 0; c < MLC_NCH; c++) {
            mlc_msg_t m;
            while (mlc_host_recv(b->h[n], c, &m)) {
                ring_t *q = &b->exp[1 - n][c];
                if (b->forge_rate) { /* forged data frames are accepted: no scoreboard */
                    b->recvd++;
                    mlc_msg_free(&m);
                    continue;
                }
                mlc_msg_t *e = ring_front(q);
                if (!e)
                    sb_fail(b, n, c, "a message arrived that was not sent (or twice)");
                if (!mlc_msg_eq(&m, e)) {
                    char w[200];
                    snprintf(w, sizeof w,
                             "message %" PRIu64 " differs from the next one sent (type %u/%u kind %u/%u len %u/%u)",
                             b->recvd, m.type, e->type, m.kind, e->kind, m.len, e->len);
                    sb_fail(b, n, c, w);
                }
                b->bytes += m.len;
                mlc_msg_free(&m);
                exp_drop(q);
                b->recvd++;
            }
        }
    }
}

/* ------------------------------------------------------------------ resets */

/* both ends' host drivers made anew, in the mode of their configuration (sw/sim/mlc_host takes the mode at
 * creation; nothing is left in the old one) */
static void hosts_new(bench_t *b)
{
    for (unsigned n = 0; n < 2; n++) {
        mlc_host_free(b->h[n]);
        b->h[n] = mlc_host_new(b->p[n].FIFO_BYTES, b->cfg[n] & MLC_CFG_MSG);
        if (!b->h[n]) {
            fprintf(stderr, "mlc_bench: out of memory\n");
            exit(1);
        }
    }
}

void reset_step(bench_t *b)
{
    next_cycle(b);
    mlc_out_t z[2];
    for (unsigned n = 0; n < 2; n++) {
        z[n] = (mlc_out_t){0};
        z[n].st_tx_space[0] = z[n].st_tx_space[1] = (uint16_t)b->p[n].FIFO_BYTES;
        mlc_reset(b->m[n]);
        b->om[n] = z[n];
    }
    mlc_link_reset(b->lm);
    mlc_link_reset(b->lr);
    if (b->rtl) {
        mlc_rtl_reset_step(b->rtl, b->orr);
        if (b->mode == MODE_LOCKSTEP) { /* the reset values */
            compare(b, 0, &b->om[0], &b->orr[0]);
            compare(b, 1, &b->om[1], &b->orr[1]);
        }
    }
    /* the counter preset mode: right after every reset */
    preset_apply(b, b->m[0], b->m[1], b->rtl);
    /* lost: every message not wholly read by its host (docs/verification.md) */
    for (unsigned n = 0; n < 2; n++)
        for (unsigned c = 0; c < MLC_NCH; c++)
            while (b->exp[n][c].n) {
                exp_drop(&b->exp[n][c]);
                b->reset_lost++;
            }
    hosts_new(b);
    for (unsigned n = 0; n < 2; n++) {
        for (unsigned k = 0; k < MLC_NCTR; k++)
            b->cnt[n][k] = b->preset[n][k];
        b->prim[n] = b->prev[n] = z[n];
        b->nm[n] = b->nr[n] = (mlc_in_t){0};
        b->cfg_pending[n] = 1; /* the configuration is 0 after reset: the phase's is written again */
        b->cfg_wr[n] = 0;
        b->cfg_rb[n] = 0;
        b->cfg_eff[n] = 0;
        b->erasing[n] = 0;
        b->prev_rx_en[n] = 0;
        b->fpos[n] = b->flen[n] = 0;
        b->swallow[n] = 0;
        b->fprev_en[n] = 0;
        b->mf_on[n] = 0;
        b->mf_prev[n] = 0;
        b->rd_exp_ok[n] = 0;
        memset(&b->rxd[n], 0, sizeof b->rxd[n]);
        memset(b->rxl[n], 0, sizeof b->rxl[n]);
        memset(&b->txf[n], 0, sizeof b->txf[n]);
        for (unsigned c = 0; c < MLC_NCH; c++)
            b->rdw[n][c] = b->rdw_prev[n][c] = 0;
        b->last_tx[n] = b->runs_since_tx[n] = b->answer_due[n] = 0;
    }
    b->last_end = -1;
    b->cur = -1;
    b->hold = 0;
    b->turn_from = b->turn_to = 0;
    b->mt_armed = b->mt_rx = 0;
    b->mt_end = 0;
    b->erase_next = b->pulse_next = b->guard_next = 0;
    b->slave_silent_end = 0;
    b->step0 = b->cycle;
    b->resets++;
}

/* ------------------------------------------------------------------ drains and phases */

static int sb_busy(const bench_t *b)
{
    for (unsigned n = 0; n < 2; n++)
        for (unsigned c = 0; c < MLC_NCH; c++)
            if (b->exp[n][c].n)
                return 1;
    return 0;
}

/* the link is quiet: nothing left to write, every unit acknowledged, every receive FIFO read */
static int link_quiet(const bench_t *b)
{
    for (unsigned n = 0; n < 2; n++)
        for (unsigned c = 0; c < MLC_NCH; c++)
            if (mlc_host_tx_pending(b->h[n], c) || b->prim[n].st_tx_space[c] != b->p[n].FIFO_BYTES ||
                b->prim[n].st_rx_avail[c] != 0)
                return 0;
    return 1;
}

/* no new messages, no random faults, hosts read everything: all in flight must arrive within the
 * limit; quiet: a drain between phases (the directed faults of phase_switch) and the link must
 * become quiet; returns the steps run */
uint64_t drain(bench_t *b, int quiet)
{
    uint64_t limit = 400000 + 40 * (uint64_t)b->p[0].FIFO_BYTES, k;
    if (b->forge_rate) /* forged units may block message-based delivery for ever: a bounded wait */
        limit = quiet ? 20000 : 0;
    for (k = 0; k < limit; k++) {
        if (!(b->forge_rate ? 0 : sb_busy(b)) && (!quiet || link_quiet(b)))
            break;
        step(b, quiet ? 2 : 1);
    }
    if (b->forge_rate)
        return k;
    for (unsigned n = 0; n < 2; n++)
        for (unsigned c = 0; c < MLC_NCH; c++)
            if (b->exp[n][c].n || (quiet && !link_quiet(b))) {
                char w[160];
                for (unsigned x = 0; x < 2; x++)
                    printf("  node %u cfg %u: words pending %" PRIu64 "/%" PRIu64 ", space %u/%u, avail %u/%u\n", x,
                           b->cfg[x], mlc_host_tx_pending(b->h[x], 0), mlc_host_tx_pending(b->h[x], 1),
                           b->prim[x].st_tx_space[0], b->prim[x].st_tx_space[1], b->prim[x].st_rx_avail[0],
                           b->prim[x].st_rx_avail[1]);
                if (b->m[0])
                    for (unsigned x = 0; x < 2; x++) {
                        printf("  node %u:", x);
                        for (unsigned j = 0; j < MLC_NCTR; j++)
                            printf(" %s=%u", mlc_counter_name(j), (unsigned)mlc_counter(b->m[x], j));
                        printf("\n");
                    }
                if (b->exp[n][c].n)
                    snprintf(w, sizeof w, "%zu messages sent by node %u never arrived (drain of %" PRIu64 " steps)",
                             b->exp[n][c].n, n, k);
                else
                    snprintf(w, sizeof w,
                             "the link did not become quiet (units unacknowledged or unread) in a drain of %" PRIu64
                             " steps",
                             k);
                sb_fail(b, 1 - n, c, w);
            }
    return k;
}

/* the configuration of phase ph: pipelined in even phases, message-based in odd ones; each end its
 * own transfer size (both ends in the same mode: a message-based receiver could never deliver a
 * message larger than its FIFO that a pipelined sender accepted). In phase 0 end 0, in phase 1 end 1
 * takes the largest single-packet cap (SP 3): every run, however short (two phases), sets every bit of
 * both ends' configuration register (the bit coverage; SP 0 comes with every drain) */
void phase_config(bench_t *b, unsigned ph)
{
    unsigned msg = ph % 2 ? MLC_CFG_MSG : 0u;
    for (unsigned n = 0; n < 2; n++) {
        unsigned r = rng_below(&b->rng, 8);
        if (ph == n)
            r = 7;
        b->cfg[n] = msg | MLC_CFG_SP(r < 5 ? 0 : r - 4);
        b->cfg_pending[n] = 1;
    }
}

/* between two phases: drain in Network Burst until the link is quiet, a driver for the new mode
 * (sw/sim/mlc_host takes the mode at creation; nothing is left in the old one), both configurations
 * written in one step */
void phase_switch(bench_t *b)
{
    b->erase_next = b->ctl_rate != 0; /* a directed timeout: the next frame at the master erased */
    b->pulse_next = b->ctl_rate != 0; /* a directed conflict at the slave: hold set, then cleared */
    b->guard_next = b->ctl_rate != 0; /* then an early frame at the slave: the guard */
    for (unsigned n = 0; n < 2; n++) { /* the drain in Network Burst (the mode stays) */
        b->cfg[n] = (b->cfg[n] & MLC_CFG_MSG) | MLC_CFG_SP(0);
        b->cfg_pending[n] = 1;
    }
    uint64_t d = drain(b, 1);
    b->phase_drain += d;
    if (b->nphase == 1 && !b->speed)
        reset_step(b); /* a reset after a drain: nothing is lost */
    phase_config(b, b->nphase);
    hosts_new(b);
    if (!b->quiet)
        printf("  phase %u from step %" PRIu64 " (after a drain of %" PRIu64 " steps): %s, cfg=%u/%u\n", b->nphase,
               b->cycle + 1, d, b->cfg[0] & MLC_CFG_MSG ? "message-based" : "pipelined", b->cfg[0], b->cfg[1]);
    b->nphase++;
}

/* ------------------------------------------------------------------ the limits test, the bit coverage */

/* every receive FIFO full and readable (its credit 0), every send FIFO full */
static int lim_full(const bench_t *b)
{
    for (unsigned n = 0; n < 2; n++)
        for (unsigned c = 0; c < MLC_NCH; c++)
            if (b->prim[n].st_rx_avail[c] != b->p[n].FIFO_BYTES || b->prim[n].st_tx_space[c] != 0)
                return 0;
    return 1;
}

/* steps until the link has settled after the last fault (two full frames and four turn-rounds after
 * the last CTL fault and the last corrupted nibble) and the slave does not hold (bounded) */
static void settle(bench_t *b)
{
    uint64_t win = 2u * mlc_frame_symbols(&b->p[0], 15) + 4u * (2u + b->link_delay + b->p[0].TURN) + 16u;
    for (unsigned k = 0; k < 100000 && (ctl_unsettled(b) || b->hold || b->pph || b->cycle - b->last_nib <= win); k++)
        step(b, 0);
    if (ctl_unsettled(b) || b->hold || b->pph)
        check_fail(b, "directed pairs: the link did not settle (or no frame of the master reached the slave)");
}

/* the slave's counters err_check, err_len, err_credit, conflict through the register port */
static void pair_read(bench_t *b, uint32_t v[4])
{
    static const unsigned a[4] = {MLC_CTR_ERR_CHECK, MLC_CTR_ERR_LEN, MLC_CTR_ERR_CREDIT, MLC_CTR_CONFLICT};
    for (unsigned i = 0; i < 4; i++)
        b->pra[i] = a[i];
    b->preg = 4;
    while (b->preg)
        step(b, 0);
    for (unsigned i = 0; i < 4; i++)
        v[i] = b->prv[i];
}

/* The directed pairs (docs/verification.md; docs/mlc.md, Malformed input: several faults in one
 * frame): with every credit 0 and no random faults, each combination of two fault kinds (and each
 * kind alone) hits one frame of the master at the slave; the slave's counters must move as rule 6's
 * first failing test says: length (S, G) before check (C) before credit (K), one counter, once. */
static void pairs(bench_t *b)
{
    static const unsigned combo[] = {PF_C, PF_S, PF_G, PF_K, PF_C | PF_C2, PF_C | PF_S, PF_C | PF_G, PF_C | PF_K,
                                     PF_S | PF_K, PF_G | PF_K};
    /* a forged frame of one unit holds the slave's answer back by F(1) - F(0) steps: not where the
     * master would time out meanwhile (TIMEOUT below F(1) - F(0) + 2 LINK_DELAY + TURN + 4) */
    unsigned to = b->p[0].TIMEOUT, late = mlc_frame_symbols(&b->p[0], 1) - mlc_frame_symbols(&b->p[0], 0) +
                                          2 * b->link_delay + b->p[0].TURN + 4;
    b->pairs_on = 1;
    for (unsigned r = 0; r < sizeof combo / sizeof combo[0]; r++) {
        uint32_t v0[4], v1[4], want[4] = {0, 0, 0, 0};
        unsigned k = combo[r];
        if ((k & PF_K) && to && to <= late)
            continue;
        settle(b);
        pair_read(b, v0);
        want[(k & (PF_S | PF_G)) ? 1 : (k & PF_C) ? 0 : 2] = 1;
        int known = b->ctr_known[MLC_CTR_ERR_CREDIT];
        b->ctr_known[MLC_CTR_ERR_CREDIT] = 0; /* not while the frame may be judged */
        b->pk = k;
        b->pph = 1;
        settle(b);
        pair_read(b, v1);
        b->ctr_known[MLC_CTR_ERR_CREDIT] = known;
        if (want[2])
            b->cnt[1][MLC_CTR_ERR_CREDIT]++; /* the bench's own count of err_credit (rule 8 checks) */
        for (unsigned i = 0; i < 4; i++)
            if (((v1[i] - v0[i]) & ctr_mask(b)) != want[i]) {
                char m[240];
                snprintf(m, sizeof m,
                         "directed pairs: faults%s%s%s%s%s in one frame at the slave: %s moved by %u, expected %u"
                         " (docs/mlc.md rule 6: the first failing test counts, once)",
                         k & PF_C ? " corrupted-bit" : "", k & PF_C2 ? " corrupted-bit" : "", k & PF_S ? " CTL-short" : "",
                         k & PF_G ? " CTL-long" : "", k & PF_K ? " forged-over-credit" : "",
                         mlc_counter_name(i == 3 ? MLC_CTR_CONFLICT : MLC_CTR_ERR_CHECK + i),
                         (unsigned)((v1[i] - v0[i]) & ctr_mask(b)), want[i]);
                check_fail(b, m);
            }
        b->pairs_done++;
    }
    b->pairs_on = 0;
}

/* every receive FIFO full and readable */
static int lim_rx_full(const bench_t *b)
{
    for (unsigned n = 0; n < 2; n++)
        for (unsigned c = 0; c < MLC_NCH; c++)
            if (b->prim[n].st_rx_avail[c] != b->p[n].FIFO_BYTES)
                return 0;
    return 1;
}

void limits(bench_t *b)
{
    if (b->forge_rate)
        return;
    for (unsigned n = 0; n < 2; n++) { /* Network Burst until the link is quiet (the mode stays) */
        b->cfg[n] = (b->cfg[n] & MLC_CFG_MSG) | MLC_CFG_SP(0);
        b->cfg_pending[n] = 1;
    }
    uint64_t d = drain(b, 1), k, limit = 400000 + 400 * (uint64_t)b->p[0].FIFO_BYTES;
    for (unsigned n = 0; n < 2; n++) { /* then pipelined Network Burst, new drivers */
        b->cfg[n] = 0;
        b->cfg_pending[n] = 1;
        mlc_host_free(b->h[n]);
        b->h[n] = mlc_host_new(b->p[n].FIFO_BYTES, 0);
        if (!b->h[n]) {
            fprintf(stderr, "mlc_bench: out of memory\n");
            exit(1);
        }
    }
    b->lim = 1;
    for (k = 0; k < limit && !lim_full(b); k++)
        step(b, 0);
    if (!lim_full(b))
        check_fail(b, "limits test: the FIFOs did not all fill (receive FIFOs full and readable, send FIFOs full)"
                      " with the readers stopped (docs/mlc.md, FIFOs and status)");
    b->lim_fill = d + k;
    pairs(b);
    b->lim = 2; /* flush: everything read */
    for (k = 0; k < limit && sb_busy(b); k++)
        step(b, 0);
    b->lim_walk = k;
    b->lim = 3; /* refill: no backlog behind the full receive FIFOs */
    for (k = 0; k < limit && !lim_rx_full(b); k++)
        step(b, 0);
    if (!lim_rx_full(b))
        check_fail(b, "limits test: the receive FIFOs did not fill again (docs/mlc.md, FIFOs and status)");
    b->lim_fill += k;
    /* the walk: a unit per channel read more slowly than null frames alternate (2 (F(0) + G) steps), so
     * the free units, and the credits, climb by at most one between two frames of an end */
    unsigned G = 2 + b->link_delay + b->p[0].TURN, f0 = mlc_frame_symbols(&b->p[0], 0);
    b->lim_every = (2 * (f0 + G) + 7) / 8 + 1;
    b->lim = 4;
    for (k = 0; k < limit && sb_busy(b); k++)
        step(b, 0);
    b->lim_walk += k;
    b->lim = 0;
}

void cov_check(const bench_t *b)
{
    static const char *const name[COV_N] = {"st_tx_space0", "st_tx_space1", "st_rx_avail0", "st_rx_avail1",
                                            "register 15 (link state)", "register 16 (configuration)",
                                            "received NP", "received FLAGS", "received CR0", "received CR1"};
    if (b->forge_rate)
        return;
    uint32_t st = 2u * b->p[0].FIFO_BYTES - 2u; /* bits 1..log2(FIFO_BYTES) of an even count 0..FIFO_BYTES */
    for (unsigned n = 0; n < 2; n++)
        for (unsigned w = 0; w < COV_N; w++) {
            uint32_t both, never;
            if (w <= COV_AVAIL1) {
                both = st;
                never = ~st;
            } else if (w == COV_LINK) {
                /* good, oval, tack, E_mine, crx0, crx1, state (0, 1, 2); hold: the slave's, set only by
                 * a conflict (CTL faults) */
                both = 0x3FFFu | (n == 1 && b->ctl_rate ? 0x4000u : 0u);
                never = ~(n == 1 ? 0x7FFFu : 0x3FFFu);
            } else if (w == COV_CFG) {
                both = 7u;
                never = ~7u;
            } else {
                both = w == COV_FLAGS ? 7u : 15u; /* FLAGS bit 3 is 0 */
                never = ~both;
            }
            uint32_t miss1 = both & ~b->seen1[n][w], miss0 = both & ~b->seen0[n][w], bad = never & b->seen1[n][w];
            if (miss1 || miss0 || bad) {
                char m[240];
                uint32_t x = bad ? bad : miss1 ? miss1 : miss0;
                unsigned i = 0;
                while (!(x >> i & 1u))
                    i++;
                snprintf(m, sizeof m, "bit coverage: node %u %s bit %u %s (docs/mlc.md; the limits test)", n, name[w], i,
                         bad ? "was 1, never allowed" : miss1 ? "never seen 1" : "never seen 0");
                check_fail(b, m);
            }
        }
}

/* sanfab — MLC lockstep bench: the link checks and the model-free checks of docs/mlc.md (mlc_bench_check.h). */
#include "mlc_bench_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ link checks (primary outputs) */

/* 1 while the link may still be disturbed by a CTL fault: until two full frames and four
 * turn-rounds have passed since the last one (docs/mlc.md, Malformed input: recovery is bounded;
 * with the slave's guard frames cannot keep crossing). A frame the slave rightly leaves unanswered
 * (early, or bad while it holds) is not waited out here: link_checks lets the master's timeout
 * restart the link, and timeout_check holds that timeout to the step. */
int ctl_unsettled(const bench_t *b)
{
    if (!b->last_fault)
        return 0;
    uint64_t win = 2u * ((8u + 32u * 15u) * 4u / b->p[0].LINK_W) + 4u * (2u + b->link_delay + b->p[0].TURN) + 16u;
    return b->cycle - b->last_fault <= win;
}

void link_checks(bench_t *b)
{
    unsigned G = 2 + b->link_delay + b->p[0].TURN;
    unsigned lw = b->p[0].LINK_W;
    int drv = -1;
    /* the master's first frame is the doc's example: nibbles 0 0 F F 0 3 F F (a null frame, both
     * credits 15, CRC-16 0x03FF), in steps TURN+1 .. TURN+F(0) */
    static const uint8_t first[8] = {0, 0, 15, 15, 0, 3, 15, 15};
    unsigned f0 = 32u / lw;
    uint64_t k = b->cycle - b->step0; /* the pair's step since its last reset */
    if (k >= b->p[0].TURN + 1u && k <= b->p[0].TURN + f0) {
        unsigned i = (unsigned)(k - b->p[0].TURN - 1u);
        unsigned sym = lw == 4 ? first[i] : (unsigned)(first[2 * i] | (first[2 * i + 1] << 4));
        if (!b->prim[0].tx_en || b->prim[0].tx_d != sym) {
            char m[120];
            snprintf(m, sizeof m, "first frame symbol %u is %u/0x%x, docs/mlc.md's example says 1/0x%x", i,
                     b->prim[0].tx_en, b->prim[0].tx_d, sym);
            check_fail(b, m);
        }
    }
    if (ctl_unsettled(b)) { /* no timing rules; pick up again at the next silence */
        b->cur = -1;
        b->last_end = -2;
        return;
    }
    if (b->last_end == -2) {
        if (b->prim[0].tx_en || b->prim[1].tx_en)
            return;
        b->last_end = -3; /* silence: the next frame start is tracked, its turn-round is not */
    }
    if (b->prim[0].tx_en && b->prim[1].tx_en)
        check_fail(b, "both ends drive in the same step");
    if (b->prim[0].tx_en)
        drv = 0;
    else if (b->prim[1].tx_en)
        drv = 1;
    if (drv >= 0 && b->cur < 0) { /* a frame starts */
        if (b->last_end == -3) {
            /* first frame after a CTL fault: only its length is checked */
        } else if (b->last_end < 0) {
            if (drv != 0 || k != b->p[0].TURN + 1u)
                check_fail(b, "the first frame is not the master's in step TURN+1");
        } else {
            if (drv == b->last_end)
                check_fail(b, "the same end sends two frames in a row (no strict alternation)");
            if (b->cycle - b->last_end_cycle != G) {
                char m[160];
                snprintf(m, sizeof m, "turn-round of %" PRIu64 " idle steps, expected G=%u",
                         b->cycle - b->last_end_cycle, G);
                check_fail(b, m);
            }
        }
        b->cur = drv;
        b->cur_start = b->cycle;
        b->cur_np = b->prim[drv].tx_d & 15u;
        b->frames++;
    } else if (drv >= 0 && drv != b->cur) {
        check_fail(b, "the other end starts driving inside a frame");
    } else if (drv < 0 && b->cur >= 0) { /* a frame ended */
        uint64_t len = b->cycle - b->cur_start;
        uint64_t f = (8u + 32u * b->cur_np) * 4u / lw;
        if (len != f) {
            char m[160];
            snprintf(m, sizeof m, "frame of node %d lasted %" PRIu64 " steps, F(%u) = %" PRIu64, b->cur, len,
                     b->cur_np, f);
            check_fail(b, m);
        }
        b->last_end = b->cur;
        b->last_end_cycle = b->cycle;
        b->cur = -1;
    } else if (drv < 0 && b->last_end == 0 && b->cycle - b->last_end_cycle > G &&
               b->slave_silent_end == b->last_end_cycle + 1u + b->link_delay) {
        /* the slave does not answer this frame of the master (rule 2: bad at a holding slave, or
         * early): rx_decode holds it to that; the master's timeout restarts the link (checked
         * exactly by timeout_check); the timing rules pick up again at its frame */
        b->last_end = -2;
    } else if (drv < 0 && b->last_end >= 0 && b->cycle - b->last_end_cycle > G) {
        check_fail(b, "the link stalled: no frame started G steps after the last one ended");
    }
}

/* ------------------------------------------------------------------ model-free checks (docs/mlc.md) */

/* the single-packet cap of a configuration (docs/mlc.md, Configuration: cap) */
static unsigned cfg_cap(unsigned cfg)
{
    static const unsigned cap[4] = {15, 1, 2, 4};
    return cap[(cfg >> 1) & 3u];
}

/* before the step: what a register read of this step must return, the value after the previous
 * step (rule 8), for the registers the bench knows without the model */
void reg_expect(bench_t *b, unsigned n, const mlc_in_t *in)
{
    b->rd_exp_ok[n] = 0;
    if (!in->reg_rd)
        return;
    unsigned a = in->reg_addr;
    if (a < 15 && b->ctr_known[a]) {
        b->rd_exp[n] = (uint32_t)b->cnt[n][a] & ctr_mask(b);
        b->rd_exp_ok[n] = 1;
    } else if (a == MLC_REG_CFG) {
        b->rd_exp[n] = b->cfg_eff[n];
        b->rd_exp_ok[n] = 1;
    } else if (a >= 17 && a <= 20) {
        b->rd_exp[n] = a < 19 ? b->prev[n].st_tx_space[a - 17] : b->prev[n].st_rx_avail[a - 19];
        b->rd_exp_ok[n] = 1;
    } else if (a > 20) {
        b->rd_exp[n] = MLC_RDATA_ERROR;
        b->rd_exp_ok[n] = 1;
    }
}

/* after the step: the register port's answer */
void reg_check(bench_t *b, unsigned n, const mlc_in_t *in)
{
    const mlc_out_t *o = &b->prim[n];
    char m[200];
    if (!in->reg_rd) {
        if (o->reg_rvalid || o->reg_rdata) {
            snprintf(m, sizeof m, "node %u: reg_rvalid %u reg_rdata 0x%x without a read (rule 8)", n, o->reg_rvalid,
                     (unsigned)o->reg_rdata);
            check_fail(b, m);
        }
        return;
    }
    if (!o->reg_rvalid) {
        snprintf(m, sizeof m, "node %u: register read of address %u not answered in its step (rule 8)", n,
                 in->reg_addr);
        check_fail(b, m);
    }
    if (n == 1 && b->preg && in->reg_addr == b->pra[4 - b->preg]) /* the directed pairs' reads */
        b->prv[4 - b->preg--] = o->reg_rdata;
    if (in->reg_addr == MLC_REG_LINK || in->reg_addr == MLC_REG_CFG) /* bit coverage */
        cov_see(b, n, in->reg_addr == MLC_REG_LINK ? COV_LINK : COV_CFG, o->reg_rdata);
    if (b->rd_exp_ok[n] && o->reg_rdata != b->rd_exp[n]) {
        unsigned a = in->reg_addr;
        snprintf(m, sizeof m,
                 "node %u: register %u (%s) read 0x%x, the bench's own value is 0x%x (CTR_W=%u; docs/mlc.md rule 8, Counters)",
                 n, a, a < 15 ? mlc_counter_name(a) : a == MLC_REG_CFG ? "configuration" : a <= 20 ? "status" : "none",
                 (unsigned)o->reg_rdata, (unsigned)b->rd_exp[n], b->p[0].CTR_W);
        check_fail(b, m);
    }
}

/* after the step: frames arriving at node n's pins (rx: the inputs it was given in this step) */
void rx_decode(bench_t *b, unsigned n, const mlc_in_t *rx)
{
    unsigned lw = b->p[n].LINK_W;
    char m[200];
    if (n == 1 && rx->rx_en && (b->prim[1].tx_en || (b->cycle >= b->turn_from && b->cycle <= b->turn_to)))
        b->hold = 1; /* a bus conflict at the slave (rule 1) */
    if (b->prim[n].tx_en) { /* driving (TURN with w = 0, SEND): arriving symbols are ignored */
        b->rxd[n].in = 0;
        if (n == 1 && !b->prev[1].tx_en && !b->answer_due[1] && !b->forge_rate) {
            snprintf(m, sizeof m, "node 1: the slave starts a frame in step %" PRIu64 " with no frame to answer (rules 2, 3; hold %d)",
                     b->cycle, b->hold);
            check_fail(b, m);
        }
        if (b->answer_due[n] && b->answer_due[n] != b->cycle && !b->prev[n].tx_en) {
            snprintf(m, sizeof m, "node %u: frame starts in step %" PRIu64 ", the answer to a good frame was due in step %" PRIu64 " (rules 2, 3)",
                     n, b->cycle, b->answer_due[n]);
            check_fail(b, m);
        }
        b->answer_due[n] = 0;
        b->last_tx[n] = b->cycle;
        b->runs_since_tx[n] = 0;
        return;
    }
    if (b->answer_due[n] && b->cycle >= b->answer_due[n]) {
        snprintf(m, sizeof m, "node %u: no frame in step %" PRIu64 ", the answer to the frame judged in step %" PRIu64 " (rules 2, 3, 6: a good frame clears hold; slave hold %d)",
                 n, b->answer_due[n], b->answer_due[n] - 1u - b->p[n].TURN, b->hold);
        check_fail(b, m);
    }
    if (rx->rx_en) {
        if (!b->rxd[n].in) {
            b->rxd[n].in = 1;
            b->rxd[n].start = b->cycle;
            b->rxd[n].n = 0;
            b->rxd[n].crc = 0xFFFF;
            /* the slave's guard (rule 2): fewer than GUARD steps after its last symbol (it has sent
             * one), an early frame: a conflict (hold), not answered */
            b->rxd[n].early = n == 1 && b->last_tx[1] && b->cycle - b->last_tx[1] < b->p[1].GUARD;
            if (b->rxd[n].early)
                b->hold = 1;
        }
        for (unsigned k = 0; k < lw / 4; k++) {
            unsigned x = (rx->rx_d >> (4 * k)) & 15u;
            if (b->rxd[n].n < 4)
                b->rxd[n].nib[b->rxd[n].n] = (uint8_t)x;
            b->rxd[n].crc = fcrc(b->rxd[n].crc, x);
            if (b->rxd[n].n < 100000)
                b->rxd[n].n++;
        }
    } else if (b->rxd[n].in) { /* the frame ended in this step */
        b->rxd[n].in = 0;
        b->rxl_i[n] = (b->rxl_i[n] + 1) % 8;
        rxframe_t *l = &b->rxl[n][b->rxl_i[n]];
        l->valid = 1;
        l->start = b->rxd[n].start;
        l->end = b->cycle;
        l->np = b->rxd[n].n >= 1 ? b->rxd[n].nib[0] : 0;
        l->cr[0] = b->rxd[n].n >= 3 ? b->rxd[n].nib[2] : 0;
        l->cr[1] = b->rxd[n].n >= 4 ? b->rxd[n].nib[3] : 0;
        l->len_ok = b->rxd[n].n == 8 + 32 * l->np;
        l->crc_ok = b->rxd[n].crc == 0;
        if (l->len_ok && l->crc_ok) { /* bit coverage of the frame fields (a good frame) */
            cov_see(b, n, COV_NP, l->np);
            cov_see(b, n, COV_FLAGS, b->rxd[n].nib[1]);
            cov_see(b, n, COV_CR0, l->cr[0]);
            cov_see(b, n, COV_CR1, l->cr[1]);
        }
        /* a frame the end received in LISTEN: it started after the end last drove, no answer was
         * pending then (else it is a conflict in TURN), and for the master before its timeout. It is
         * answered TURN + 1 steps after it ended, except a bad frame at the slave with hold = 1; a
         * good frame clears hold (without forged frames, which may fail rules 6.3-6.4) */
        unsigned to = n == 0 ? b->p[0].TIMEOUT : 0;
        int listen = l->start > b->last_tx[n] && !b->answer_due[n] &&
                     (!to || !b->last_tx[n] || l->start <= b->last_tx[n] + to);
        int good = l->len_ok && l->crc_ok;
        if (listen && b->rxd[n].early) {
            /* ignored: no judgement, no answer, hold stays 1 */
            b->slave_silent_end = b->cycle;
        } else if (listen && !b->forge_rate) {
            if (n == 1 && !good && b->hold)
                b->slave_silent_end = b->cycle;
            if (n == 0 || good || !b->hold) {
                b->answer_due[n] = b->cycle + 1u + b->p[n].TURN;
                if (n == 1) {
                    b->turn_from = b->cycle + 1u;
                    b->turn_to = b->cycle + b->p[1].TURN;
                }
            }
            if (n == 1 && good)
                b->hold = 0;
        }
        b->runs_since_tx[n]++;
    }
}

/* after the step: frames node n sends (prev: its outputs after the previous step); counts
 * tx_frames, tx_null, tx_pkts; checks NP against the cap of its configuration (rule 5) and a data
 * frame against the frame it answers (rules 3, 4: right after a good frame, at most its credit) */
void tx_check(bench_t *b, unsigned n)
{
    const mlc_out_t *o = &b->prim[n];
    unsigned lw = b->p[n].LINK_W;
    char m[220];
    if (!o->tx_en)
        return;
    if (!b->prev[n].tx_en) { /* a frame starts: built in this step */
        b->txf[n].start = b->cycle;
        b->txf[n].nibs = 0;
        b->txf[n].np = o->tx_d & 15u;
        b->txf[n].cap = cfg_cap(b->cfg_eff[n]);
        b->txf[n].checked = 0;
        /* pipelined: free units of receive FIFO c from its status and the words read (docs/mlc.md,
         * FIFOs and status): acc = (avail/2 + rd)/8, free = CAP_U - (acc - rd/8); CR = min(15, free) */
        b->txf[n].crk = !(b->cfg_eff[n] & MLC_CFG_MSG);
        for (unsigned c = 0; c < MLC_NCH; c++) {
            uint64_t rd = b->rdw_prev[n][c], acc = (b->prev[n].st_rx_avail[c] / 2u + rd) / 8u;
            uint64_t fr = b->p[n].FIFO_BYTES / 16u - (acc - rd / 8u);
            b->txf[n].cr[c] = fr < 15 ? (unsigned)fr : 15u;
        }
        b->cnt[n][MLC_CTR_TX_FRAMES]++;
        b->cnt[n][MLC_CTR_TX_NULL] += b->txf[n].np == 0;
        b->cnt[n][MLC_CTR_TX_PKTS] += b->txf[n].np;
        if (b->txf[n].np > b->txf[n].cap) {
            snprintf(m, sizeof m,
                     "node %u: frame of step %" PRIu64 " has NP=%u, more than the cap %u of its configuration 0x%x (rule 5)",
                     n, b->cycle, b->txf[n].np, b->txf[n].cap, b->cfg_eff[n]);
            check_fail(b, m);
        }
    }
    for (unsigned k = 0; k < lw / 4; k++, b->txf[n].nibs++) {
        unsigned x = (o->tx_d >> (4 * k)) & 15u, i = b->txf[n].nibs;
        if (i == 1)
            b->txf[n].fl = x;
        if ((i == 2 || i == 3) && b->txf[n].crk && x != b->txf[n].cr[i - 2]) {
            snprintf(m, sizeof m,
                     "node %u: frame of step %" PRIu64 " grants CR%u=%u, receive FIFO %u: min(15, free units) = %u (rule 4.3)",
                     n, b->txf[n].start, i - 2, x, i - 2, b->txf[n].cr[i - 2]);
            check_fail(b, m);
        }
    }
    if (b->txf[n].checked || b->txf[n].nibs < 2)
        return;
    b->txf[n].checked = 1;
    if (b->txf[n].np == 0)
        return;
    unsigned ch = b->txf[n].fl & 1u;
    uint64_t t = b->txf[n].start - 1u - b->p[n].TURN; /* the judging step of the frame it answers */
    int j = -1;
    for (unsigned k = 0; k < 8; k++)
        if (b->rxl[n][k].valid && b->rxl[n][k].end == t)
            j = (int)k;
    if (j < 0) {
        snprintf(m, sizeof m,
                 "node %u: data frame of step %" PRIu64 " does not answer a frame ending in step %" PRIu64
                 " (rules 2-4: data only right after a good frame)",
                 n, b->txf[n].start, t);
        check_fail(b, m);
    }
    if (!b->rxl[n][j].len_ok || !b->rxl[n][j].crc_ok) {
        snprintf(m, sizeof m, "node %u: data frame of step %" PRIu64 " answers a bad frame (%s) (rule 4.1)", n,
                 b->txf[n].start, b->rxl[n][j].len_ok ? "check" : "length");
        check_fail(b, m);
    }
    if (b->txf[n].np > b->rxl[n][j].cr[ch]) {
        snprintf(m, sizeof m,
                 "node %u: data frame of step %" PRIu64 " has NP=%u on channel %u, the frame it answers granted CR%u=%u (rule 4)",
                 n, b->txf[n].start, b->txf[n].np, ch, ch, b->rxl[n][j].cr[ch]);
        check_fail(b, m);
    }
}

/* after the step: the master's timeout (rule 2): with no frame at its pins in the TIMEOUT steps
 * after its last symbol (step e), it times out in step e + TIMEOUT and its next frame starts in
 * step e + TIMEOUT + TURN + 1, exactly; counts the timeouts */
void timeout_check(bench_t *b, const mlc_in_t *rx)
{
    unsigned to = b->p[0].TIMEOUT;
    char m[200];
    if (!to)
        return;
    uint64_t due = b->mt_end + to + b->p[0].TURN + 1u;
    if (b->prim[0].tx_en) {
        if (!b->prev[0].tx_en && b->mt_armed && !b->mt_rx && b->cycle != due) {
            snprintf(m, sizeof m,
                     "master frame starts in step %" PRIu64 ", no frame arrived since its last symbol in step %" PRIu64
                     ": a timeout (TIMEOUT=%u, TURN=%u) starts it in step %" PRIu64 " (rule 2)",
                     b->cycle, b->mt_end, to, b->p[0].TURN, due);
            check_fail(b, m);
        }
        b->mt_armed = 1;
        b->mt_rx = 0;
        b->mt_end = b->cycle;
        return;
    }
    if (!b->mt_armed)
        return;
    uint64_t d = b->cycle - b->mt_end;
    if (d <= to && rx->rx_en)
        b->mt_rx = 1;
    if (!b->mt_rx && d == to) {
        b->cnt[0][MLC_CTR_TIMEOUT]++;
        b->timeouts_seen++;
    }
    if (!b->mt_rx && b->cycle == due) {
        snprintf(m, sizeof m,
                 "master silent since its last symbol in step %" PRIu64 " with no frame arriving: no frame in step %" PRIu64
                 " (timeout in step %" PRIu64 ", TIMEOUT=%u, TURN=%u; rule 2)",
                 b->mt_end, due, b->mt_end + to, to, b->p[0].TURN);
        check_fail(b, m);
    }
}

/* before the step: host writes and reads refused by the status after the previous step (rule 7) */
void host_count(bench_t *b, unsigned n, const mlc_in_t *in)
{
    for (unsigned c = 0; c < MLC_NCH; c++)
        b->rdw_prev[n][c] = b->rdw[n][c];
    if (in->h_rd && b->prev[n].st_rx_avail[in->h_rch & 1u] >= 2)
        b->rdw[n][in->h_rch & 1u]++;
    if (in->h_wr && b->prev[n].st_tx_space[in->h_wch & 1u] < 2)
        b->cnt[n][MLC_CTR_WR_OVER]++;
    if (in->h_rd && b->prev[n].st_rx_avail[in->h_rch & 1u] < 2)
        b->cnt[n][MLC_CTR_RD_UNDER]++;
}

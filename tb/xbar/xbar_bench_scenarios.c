/* sanfab — crossbar bench: the directed scenarios (xbar_bench_scenarios.h). */
#include "xbar_bench_scenarios.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void scen_latency(scen_t *s, traffic_t *t, host_t *host, sb_t *sb, const chk_t *k, uint64_t cyc, int generate)
{
    scen_lat_t *l = &s->lat;
    const unsigned n = t->n;
    if (!generate)
        return;
    if (l->waiting) {
        /* wait until the previous packet has left completely and the switch is quiet again */
        int quiet = !host_busy(&host[l->src]);
        for (unsigned q = 0; q < n && quiet; q++)
            quiet = !k->tx_inpkt[q] && k->last_occ[q] == 0 && (!k->hdr[l->src][q].count);
        if (!quiet)
            return;
        l->waiting = 0;
        l->next_at = cyc + 8 + (cyc % 5);
    }
    if (cyc < l->next_at)
        return;
    l->src = (l->k + l->k / n) % n;
    unsigned dst = l->k % n;
    l->k++;
    if (make_packet(t, sb, &host[l->src], l->src, (int)dst, 0))
        l->waiting = 1;
}

#define BL_LEN_A 12u   /* A: route byte, 12 body bytes, CRC, GAP; held after BL_PAUSE_A characters */
#define BL_PAUSE_A 8u  /* route byte + b1..b7 sent: b7 is held at the ingress, b1..b6 leave */
#define BL_LEN_B 8u

/* B's whole packet (BL_LEN_B data entries and its LAST) must sit in its slack buffer without a STOP
 * towards its host */
static int bl_b_fits(const xbar_params_t *p) { return p->STOP_THRESH > BL_LEN_B + 2; }

/* Blocked packets (docs/xbar.md, "Blocking timeout"), in rounds on a quiet switch:
 *  - input a sends a packet to output 0 and its host pauses inside it: a owns output 0 and makes no
 *    progress (its last pop is the byte that left on tx[0] last, LINK_DELAY + 1 cycles before);
 *  - input b's packet to output 0 arrives meanwhile and waits in HDR from its route byte's step;
 *  - b is drained at step h_b + TIMEOUT: stat_occ[b] first falls at h_b + TIMEOUT + 1 (the whole
 *    packet sits in the buffer, nothing else arrives there);
 *  - a is drained at step j + TIMEOUT (j = its last pop) and output 0 sends ABORT at the first step
 *    >= j + TIMEOUT + 2 in which it is not stopped: o + TIMEOUT + 1 on the port (o = the cycle its last
 *    byte showed there); in odd rounds receiver 0 holds STOP past that and the ABORT leaves exactly
 *    LINK_DELAY + 1 cycles after the GO is sampled. Nothing else leaves tx[0] meanwhile.
 * With TIMEOUT 0 nothing may drain in 3000 cycles, and both packets arrive whole once a resumes.
 * post = 0: act before the hosts step; post = 1: observe the step's ports. */
void scen_blocked(scen_t *s, traffic_t *t, host_t *host, sb_t *sb, result_t *res, uint64_t cyc,
                         const xbar_in_t *in, const xbar_out_t *out, int generate, int post)
{
    scen_bl_t *b = &s->bl;
    const xbar_params_t *p = &t->o->p;
    const unsigned n = t->n, ld = p->LINK_DELAY;
    const uint64_t T = p->TIMEOUT;
    const uint64_t hold = T ? T : 3000; /* how long a round waits for the timeout */
    char b1[24];
    if (!post) {
        switch (b->ph) {
        case BL_IDLE:
            if (!generate || n < 3)
                return;
            for (unsigned q = 0; q < n; q++)
                if (host_busy(&host[q]) || out->tx[q] != CH_IDLE || out->stat_occ[q] || host[q].announced_stop)
                    b->quiet_from = cyc + 1;
            /* quiet long enough that nothing is left in the cables */
            if (cyc < b->quiet_from + lat_formula(p) + ld + 16)
                return;
            memset(b, 0, offsetof(scen_bl_t, done_at));
            b->ph = BL_RUN;
            b->round = (unsigned)res->scen_done;
            b->with_stop = b->round % 2 == 1;
            b->a = 1 + b->round % (n - 1);
            b->b = 1 + (b->round + 1) % (n - 1);
            b->hdr_a = b->hdr_b = b->end_b = UINT64_MAX;
            b->at = cyc;
            host_pause_at(&host[b->a], BL_PAUSE_A);
            make_packet(t, sb, &host[b->a], b->a, 0, BL_LEN_A);
            return;
        case BL_RUN:
            if (b->hdr_a != UINT64_MAX && cyc == b->hdr_a + 2 && bl_b_fits(p))
                make_packet(t, sb, &host[b->b], b->b, 0, BL_LEN_B);
            if (b->with_stop && b->hdr_a != UINT64_MAX && cyc == b->hdr_a + lat_formula(p) + 20)
                host_force_stop(&host[0], 1);
            if (b->with_stop && b->hdr_a != UINT64_MAX && cyc == b->hdr_a + hold + 200)
                host_force_stop(&host[0], 0);
            if (cyc == b->at + hold + 400 + 4 * ld) {
                /* the round is over: a sends the rest of its packet (drained at the input, or
                 * delivered whole with TIMEOUT 0) */
                if (!T && !res->failed && (b->a_aborted || b->b_drained))
                    fail(res, cyc, "CHECK timeout: TIMEOUT is 0 but a blocked packet was drained");
                if (T && !res->failed && (!b->a_aborted || (!b->b_drained && bl_b_fits(p))))
                    fail(res, cyc, "CHECK timeout: round %u: %s", b->round,
                         !b->b_drained ? "the waiting packet was never drained" : "no ABORT for the owning packet");
                host_pause_at(&host[b->a], 0);
                host_force_stop(&host[0], 0);
                b->ph = BL_RESUME;
            }
            return;
        case BL_RESUME:
            if (!host_busy(&host[b->a]) && !host_busy(&host[b->b])) {
                res->scen_done++;
                b->ph = BL_IDLE;
                b->quiet_from = cyc + 1;
            }
            return;
        }
        return;
    }
    if (b->ph != BL_RUN || res->failed)
        return;
    /* observe */
    if (b->hdr_a == UINT64_MAX && CH_IS_DATA(in->rx[b->a]))
        b->hdr_a = cyc;
    if (b->hdr_b == UINT64_MAX && CH_IS_DATA(in->rx[b->b]))
        b->hdr_b = cyc;
    if (b->hdr_b != UINT64_MAX && b->end_b == UINT64_MAX && in->rx[b->b] == CH_GAP) {
        b->end_b = cyc;
        b->occ_b = UINT32_MAX;
    }
    if (in->rx[0] == CH_GO && b->with_stop)
        b->go_at = cyc;
    if (in->rx[0] == CH_STOP && b->with_stop && !b->stop_at)
        b->stop_at = cyc;
    uint16_t t0 = out->tx[0];
    if (CH_IS_DATA(t0))
        b->last_out_a = cyc;
    /* B: constant once whole, first falls exactly at h_b + TIMEOUT + 1 */
    if (b->end_b != UINT64_MAX && cyc >= b->end_b + 3 && !b->b_drained) {
        unsigned occ = out->stat_occ[b->b];
        uint64_t due = b->hdr_b + T + 1;
        if (b->occ_b == UINT32_MAX)
            b->occ_b = occ;
        else if (occ < b->occ_b) {
            b->b_drained = 1;
            if (!T || cyc != due)
                fail(res, cyc, "CHECK timeout: input %u's packet to output 0 waited from its route byte in cycle %"
                     PRIu64 "; its drain shows on stat_occ in cycle %" PRIu64 ", expected %s%" PRIu64, b->b, b->hdr_b,
                     cyc, T ? "" : "never (TIMEOUT 0), not ", T ? due : cyc);
            return;
        } else if (occ != b->occ_b) {
            fail(res, cyc, "CHECK timeout: stat_occ[%u] moved from %u to %u in cycle %" PRIu64 " with nothing arriving",
                 b->b, b->occ_b, occ, cyc);
            return;
        }
        if (T && cyc == due) {
            fail(res, cyc, "CHECK timeout: input %u's packet to output 0 waited from its route byte in cycle %" PRIu64
                 " but was not drained %" PRIu64 " cycles later (stat_occ[%u] still %u in cycle %" PRIu64 ")", b->b,
                 b->hdr_b, T + 1, b->b, occ, cyc);
            return;
        }
    }
    /* A: after its last byte, nothing but STOP/GO/IDLE on tx[0] until the ABORT, which comes exactly
     * at o + TIMEOUT + 1, or LINK_DELAY + 1 after the GO when output 0 was still stopped then */
    if (b->hdr_a != UINT64_MAX && !b->a_aborted && b->last_out_a) {
        uint64_t due = b->last_out_a + T + 1;
        /* stopped by then: the first cycle after the GO lets it out */
        if (b->with_stop && b->stop_at && b->stop_at + DOC_STOP_EFFECT + ld <= due) {
            uint64_t go = b->go_at ? b->go_at + DOC_STOP_EFFECT + ld : UINT64_MAX;
            due = go > due ? go : due;
        }
        if (t0 == CH_ABORT || t0 == CH_GAP) {
            b->a_aborted = 1;
            if (!T || t0 == CH_GAP || cyc != due)
                fail(res, cyc, "CHECK timeout: output 0 sent %s in cycle %" PRIu64 "; input %u's packet last moved "
                     "(byte out) in cycle %" PRIu64 "%s, so the ABORT was due in cycle %" PRIu64 "%s", ch_name(t0, b1),
                     cyc, b->a, b->last_out_a, b->with_stop ? " and GO came later" : "", due,
                     T ? "" : " (TIMEOUT 0: never)");
        } else if (T && cyc == due)
            fail(res, cyc, "CHECK timeout: no ABORT on tx[0] in cycle %" PRIu64 " (found %s); input %u's packet last "
                 "moved (byte out) in cycle %" PRIu64 "%s%" PRIu64, cyc, ch_name(t0, b1), b->a, b->last_out_a,
                 b->with_stop ? ", GO sampled in cycle " : ", TIMEOUT ", b->with_stop ? b->go_at : T);
    }
}

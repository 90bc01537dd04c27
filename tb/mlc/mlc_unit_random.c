/* sanfab — mlc_unit: random traffic with a scoreboard
 * (run from the table of mlc_unit.c; the helpers they call are in mlc_unit_pair.c). */
#include "mlc_unit.h"

/* ================================================================ random traffic with a scoreboard */

static uint64_t random_run(uint64_t seed, uint64_t cycles, unsigned *fail_seed)
{
    rng_t r;
    rng_seed(&r, seed);
    unsigned lw = rng_pct(&r, 50) ? 4 : 8;
    static const unsigned fifos[] = {256, 512, 1024, 2048, 4096};
    unsigned fa = fifos[rng_below(&r, 5)], fb = fifos[rng_below(&r, 5)];
    unsigned ta = rng_below(&r, 5), tb = rng_below(&r, 5), LD = rng_below(&r, 6);
    mlc_params_t pa = params(lw, fa, ta, 1, 0), pb = params(lw, fb, tb, 0, 0);
    pa.TIMEOUT = 488 * 4 / lw + 2 * LD + tb + 4 + rng_below(&r, 200);
    pb.TIMEOUT = 1024;
    pa.CTR_W = pb.CTR_W = 32;
    unsigned cfga = rng_below(&r, 8), cfgb = rng_below(&r, 8);
    unsigned fault_ppm = rng_pct(&r, 70) ? 100 + rng_below(&r, 600) : 0; /* per step with rx_en */
    unsigned erase_ppm = rng_pct(&r, 50) ? 50 + rng_below(&r, 200) : 0;  /* per frame start */
    unsigned glitch_ppm = rng_pct(&r, 30) ? 20 + rng_below(&r, 200) : 0;  /* per step: CTL dropped or pulsed */
    unsigned load = 2 + rng_below(&r, 30);                                 /* % of steps queueing */
    unsigned stall = rng_below(&r, 40);                                   /* % of steps a host holds its reads */
    printf("random: seed %" PRIu64 ": LINK_W %u FIFO %u/%u TURN %u/%u LINK_DELAY %u TIMEOUT %u cfg %u/%u faults %u ppm "
           "erasures %u ppm CTL glitches %u ppm load %u%% stall %u%%\n",
           seed, lw, fa, fb, ta, tb, LD, pa.TIMEOUT, cfga, cfgb, fault_ppm, erase_ppm, glitch_ppm, load, stall);
    pair_t *P = pair_new(&pa, &pb, LD, 4, 1);
    mlc_host_free(P->ha);
    mlc_host_free(P->hb);
    P->ha = mlc_host_new(fa, cfga & 1u);
    P->hb = mlc_host_new(fb, cfgb & 1u);
    P->sa[1].reg_wr = P->sb[1].reg_wr = 1;
    P->sa[1].reg_addr = P->sb[1].reg_addr = MLC_REG_CFG;
    P->sa[1].reg_wdata = (uint16_t)cfga;
    P->sb[1].reg_wdata = (uint16_t)cfgb;
    /* message sizes: when either end of a direction is message-based, the message must fit the smaller FIFO */
    unsigned maxu_ab = ((cfga | cfgb) & 1u) ? (fa < fb ? fa : fb) / 16 : 3 * 128;
    unsigned maxu_ba = maxu_ab;
    ring_t exp[2][2]; /* mlc_msg_t sent by side s on channel c, not yet received (sw/sim/ring.h) */
    for (unsigned s = 0; s < 2; s++)
        for (unsigned c = 0; c < 2; c++)
            exp[s][c] = ring_make(sizeof(mlc_msg_t));
    uint32_t seq[2][2] = {{0, 0}, {0, 0}};
    uint64_t sent = 0, recvd = 0, bad = 0, erased = 0, flips = 0, slave_rule_bad = 0, glitches = 0;
    uint8_t hist_b[32] = {0}, hist_a[32] = {0}; /* rx_en as applied in the last 32 steps */
    uint64_t a_rule_other = 0, last_timeout = 0;
    uint8_t prev_tb = 0, prev_rxa = 0, prev_rxb = 0;
    int erasing[2] = {0, 0};
    uint64_t a_starts = 0;
    uint8_t prev_ta = 0;
    uint64_t drain_from = cycles, end = cycles + 400000;
    uint64_t k;
    for (k = 1; k <= end; k++) {
        /* new messages */
        if (k < drain_from && rng_below(&r, 100) < load) {
            unsigned side = rng_below(&r, 2), ch = rng_below(&r, 2);
            mlc_host_t *h = side ? P->hb : P->ha;
            if (mlc_host_tx_pending(h, ch) < 2000) {
                unsigned maxu = side ? maxu_ba : maxu_ab;
                mlc_msg_t m;
                memset(&m, 0, sizeof m);
                m.type = rng_pct(&r, 35) ? 0 : 1;
                m.kind = rng_below(&r, 4);
                m.dst = rng_below(&r, 256);
                m.mask = rng_below(&r, 65536);
                m.src = side;
                unsigned maxlen = 23 + 16 * (maxu - 2);
                m.len = m.type ? (rng_pct(&r, 60) ? rng_below(&r, 60) : rng_below(&r, maxlen + 1)) : MLC_T0_DATA;
                m.data = xcalloc(m.len + 4, 1);
                for (unsigned i = 0; i < m.len; i++)
                    m.data[i] = (uint8_t)rng_next(&r);
                if (m.len >= 4)
                    memcpy(m.data, &seq[side][ch], 4);
                if (mlc_host_send(h, ch, &m) == 0) {
                    if (ring_push(&exp[side][ch], &m) != 0) {
                        fprintf(stderr, "mlc_unit: out of memory\n");
                        exit(2);
                    }
                    seq[side][ch]++;
                    sent++;
                } else {
                    check(0, "random seed %" PRIu64 ": host refused a message it should take (len %u)", seed, m.len);
                    free(m.data);
                }
            }
        }
        if (rng_below(&r, 100) < stall)
            mlc_host_hold(P->ha, 0, 1);
        if (rng_below(&r, 100) < stall)
            mlc_host_hold(P->hb, 0, 1);
        /* faults on the next step's inputs (before the step: P->ia/P->ib are its rx fields) */
        P->nflips = 0;
        for (unsigned s = 0; s < 2; s++) {
            const mlc_in_t *x = s ? &P->ib : &P->ia;
            uint8_t prev = s ? prev_rxb : prev_rxa;
            if (x->rx_en && fault_ppm && rng_below(&r, 1000000) < fault_ppm) {
                pair_flip(P, k, s, (uint8_t)(1u << rng_below(&r, lw)));
                flips++;
                if (getenv("MLC_DEBUG"))
                    printf("flip step %" PRIu64 " side %u xor %x\n", k, s, P->flips[P->nflips - 1].xor_d);
            }
            if (x->rx_en && !prev && erase_ppm && rng_below(&r, 1000000) < erase_ppm * 50) {
                erasing[s] = 1;
                erased++;
            }
            if (erasing[s] && !x->rx_en)
                erasing[s] = 0;
            P->erase_from[s] = erasing[s] ? k : 0;
            P->erase_to[s] = erasing[s] ? k : 0;
            if (s)
                prev_rxb = x->rx_en;
            else
                prev_rxa = x->rx_en;
        }
        uint32_t ga = mlc_counter(P->a, MLC_CTR_RX_FRAMES), gb = mlc_counter(P->b, MLC_CTR_RX_FRAMES);
        uint32_t ba = mlc_counter(P->a, MLC_CTR_ERR_CHECK) + mlc_counter(P->a, MLC_CTR_ERR_LEN);
        uint32_t bb = mlc_counter(P->b, MLC_CTR_ERR_CHECK) + mlc_counter(P->b, MLC_CTR_ERR_LEN);
        uint32_t timeouts_before = mlc_counter(P->a, MLC_CTR_TIMEOUT);
        P->pulse[0] = P->pulse[1] = 0;
        if (glitch_ppm && rng_below(&r, 1000000) < glitch_ppm) {
            unsigned s = rng_below(&r, 2);
            const mlc_in_t *x = s ? &P->ib : &P->ia;
            if (x->rx_en && !erasing[s]) { /* a dropped cycle splits the frame */
                P->erase_from[s] = P->erase_to[s] = k;
            } else {
                P->pulse[s] = k; /* a spurious pulse */
            }
            glitches++;
        }
        pair_step(P);
        if (getenv("MLC_DEBUG")) {
            if (mlc_counter(P->a, MLC_CTR_RX_FRAMES) != ga || mlc_counter(P->a, MLC_CTR_ERR_CHECK) + mlc_counter(P->a, MLC_CTR_ERR_LEN) != ba)
                printf("A judged step %" PRIu64 " %s\n", k, mlc_counter(P->a, MLC_CTR_RX_FRAMES) != ga ? "good" : "bad");
            if (mlc_counter(P->b, MLC_CTR_RX_FRAMES) != gb || mlc_counter(P->b, MLC_CTR_ERR_CHECK) + mlc_counter(P->b, MLC_CTR_ERR_LEN) != bb)
                printf("B judged step %" PRIu64 " %s\n", k, mlc_counter(P->b, MLC_CTR_RX_FRAMES) != gb ? "good" : "bad");
        }
        /* rule 3 at every frame start in step b: it follows a frame end judged in b - 1 - TURN (rx_en
         * 1 in b - 2 - TURN, 0 from b - 1 - TURN to b); for the master, or a timeout */
        memmove(hist_b + 1, hist_b, sizeof hist_b - 1);
        memmove(hist_a + 1, hist_a, sizeof hist_a - 1);
        hist_b[0] = P->bin.rx_en; /* hist[j] = rx_en of step k - j */
        hist_a[0] = P->ain.rx_en;
        if (P->ob.tx_en && !prev_tb) {
            unsigned t = 1 + tb;
            int ok = hist_b[t + 1] == 1;
            for (unsigned j = 0; j <= t; j++)
                ok &= hist_b[j] == 0;
            if (!ok)
                slave_rule_bad++;
        }
        if (mlc_counter(P->a, MLC_CTR_TIMEOUT) != timeouts_before)
            last_timeout = k;
        if (P->oa.tx_en && !prev_ta) {
            unsigned t = 1 + ta;
            int ok = hist_a[t + 1] == 1;
            for (unsigned j = 0; j <= t; j++)
                ok &= hist_a[j] == 0;
            if (!ok)
                a_rule_other++;
            a_starts++;
        }
        prev_tb = P->ob.tx_en;
        prev_ta = P->oa.tx_en;
        for (unsigned c = 0; c < 2; c++)
            if (P->oa.st_tx_space[c] > fa || (P->oa.st_tx_space[c] & 1u) || P->ob.st_rx_avail[c] > fb ||
                (P->ob.st_rx_avail[c] & 1u))
                bad++;
        /* scoreboard */
        for (unsigned side = 0; side < 2; side++)
            for (unsigned ch = 0; ch < 2; ch++) {
                mlc_msg_t got;
                while (mlc_host_recv(side ? P->ha : P->hb, ch, &got)) {
                    ring_t *e = &exp[side][ch];
                    if (e->n == 0) {
                        check(0, "random seed %" PRIu64 ": step %" PRIu64 ": message from %u ch %u not sent (or twice)",
                              seed, k, side, ch);
                        bad++;
                    } else {
                        mlc_msg_t *w = ring_front(e);
                        if (!mlc_msg_eq(&got, w)) {
                            if (getenv("MLC_DEBUG")) {
                                unsigned i = 0;
                                while (i < got.len && got.data[i] == w->data[i])
                                    i++;
                                printf("differs at byte %u: got", i);
                                for (unsigned j = i; j < i + 40 && j < got.len; j++)
                                    printf(" %02x", got.data[j]);
                                printf("\nexpected        ");
                                for (unsigned j = i; j < i + 40 && j < got.len; j++)
                                    printf(" %02x", w->data[j]);
                                printf("\n");
                            }
                            check(0, "random seed %" PRIu64 ": step %" PRIu64 ": message from %u ch %u differs (len %u vs %u)",
                                  seed, k, side, ch, got.len, w->len);
                            bad++;
                        }
                        free(w->data);
                        ring_pop(e, NULL);
                        recvd++;
                    }
                    mlc_msg_free(&got);
                }
            }
        if (k >= drain_from && recvd == sent && !mlc_host_tx_pending(P->ha, 0) && !mlc_host_tx_pending(P->ha, 1) &&
            !mlc_host_tx_pending(P->hb, 0) && !mlc_host_tx_pending(P->hb, 1))
            break;
    }
    uint64_t ran = k < end ? k : end;
    unsigned ea = (unsigned)(mlc_counter(P->a, MLC_CTR_ERR_CHECK) + mlc_counter(P->a, MLC_CTR_ERR_LEN)),
             eb = (unsigned)(mlc_counter(P->b, MLC_CTR_ERR_CHECK) + mlc_counter(P->b, MLC_CTR_ERR_LEN));
    printf("random: seed %" PRIu64 ": %" PRIu64 " steps, %" PRIu64 " messages sent, %" PRIu64
           " received, %" PRIu64 " flips, %" PRIu64 " erasures, %" PRIu64 " CTL glitches, bad frames %u/%u, timeouts %u, "
           "conflicts %u/%u, retx %u/%u\n",
           seed, ran, sent, recvd, flips, erased, glitches, ea, eb, (unsigned)mlc_counter(P->a, MLC_CTR_TIMEOUT),
           (unsigned)mlc_counter(P->a, MLC_CTR_CONFLICT), (unsigned)mlc_counter(P->b, MLC_CTR_CONFLICT),
           (unsigned)mlc_counter(P->a, MLC_CTR_RETX), (unsigned)mlc_counter(P->b, MLC_CTR_RETX));
    int ok = check(recvd == sent && bad == 0, "random seed %" PRIu64 ": every message whole, in order, once (%" PRIu64
                   " of %" PRIu64 ")", seed, recvd, sent);
    /* with CTL glitches the ends may talk at once (conflicts), so the turn-round rules and the
     * no-overlap checks apply only to the other seeds; the scoreboard to all */
    if (!glitches) {
    ok &= check(slave_rule_bad == 0, "random seed %" PRIu64 ": every slave frame starts 1 + TURN after a frame end", seed);
    /* (a timeout in the last 1 + TURN steps of the run has not started its frame yet) */
    uint64_t pending_start = last_timeout && ran - last_timeout < 1u + ta ? 1 : 0;
    if (getenv("MLC_DEBUG"))
        printf("last timeout %" PRIu64 ", end %" PRIu64 "\n", last_timeout, ran);
    ok &= check(a_rule_other + pending_start == 1 + mlc_counter(P->a, MLC_CTR_TIMEOUT),
                "random seed %" PRIu64 ": every master frame but the first follows a frame end or a timeout (%" PRIu64
                " others, %u timeouts)",
                seed, a_rule_other, (unsigned)mlc_counter(P->a, MLC_CTR_TIMEOUT));
    ok &= check(mlc_link_overlaps(P->l) == 0 && mlc_counter(P->a, MLC_CTR_CONFLICT) == 0 &&
                    mlc_counter(P->b, MLC_CTR_CONFLICT) == 0,
                "random seed %" PRIu64 ": the ends never drive at once", seed);
    ok &= check(mlc_counter(P->b, MLC_CTR_DUP) == 0 && mlc_counter(P->a, MLC_CTR_DUP) == 0 &&
                    mlc_counter(P->a, MLC_CTR_ERR_CREDIT) == 0 && mlc_counter(P->b, MLC_CTR_ERR_CREDIT) == 0,
                "random seed %" PRIu64 ": no dup, no credit violation between correct ends", seed);
    }
    ok &= check(mlc_counter(P->a, MLC_CTR_WR_OVER) + mlc_counter(P->b, MLC_CTR_WR_OVER) +
                        mlc_counter(P->a, MLC_CTR_RD_UNDER) + mlc_counter(P->b, MLC_CTR_RD_UNDER) ==
                    0,
                "random seed %" PRIu64 ": the drivers obey the status registers", seed);
    ok &= check(flips + erased + glitches > 0 || (ea + eb) == 0, "random seed %" PRIu64 ": no bad frame without a fault", seed);
    ok &= check(a_starts == mlc_counter(P->a, MLC_CTR_TX_FRAMES) % (1u << 16) ||
                    mlc_counter(P->a, MLC_CTR_TX_FRAMES) == (a_starts & 0xFFFFu),
                "random seed %" PRIu64 ": A's tx_frames counts its frames", seed);
    if (!ok && fail_seed)
        *fail_seed = 1;
    for (unsigned s = 0; s < 2; s++)
        for (unsigned c = 0; c < 2; c++) {
            mlc_msg_t m;
            while (ring_pop(&exp[s][c], &m))
                free(m.data);
            ring_free(&exp[s][c]);
        }
    pair_free(P);
    return ran;
}

void test_random(uint64_t seed0, uint64_t total)
{
    uint64_t done = 0, seed = seed0;
    unsigned failed = 0;
    while (done < total) {
        done += random_run(seed, 100000, &failed);
        seed++;
    }
    printf("random: %" PRIu64 " steps over seeds %" PRIu64 "..%" PRIu64 "%s\n", done, seed0, seed - 1,
           failed ? " (FAILED)" : "");
}

/* sanfab — mlc_unit: the slave's guard (rule 2), the timeout
 * (run from the table of mlc_unit.c; the helpers they call are in mlc_unit_pair.c). */
#include "mlc_unit.h"

/* ================================================================ the slave's guard (rule 2) */

/* B alone (slave), rx by hand, GUARD g (the hand-made master keeps rule 3 where it says so):
 *   null frame 5..12          judged in 13, B answers 15..22          (B's last symbol e = 22)
 *   null frame from k1 = e + g - 1: early (k1 - e < g): 8 conflict steps, hold 1, not judged, no answer
 *   null frame from k2 = e + g + 20: judged good in k2 + 8 (hold 0), B answers k2 + 10 .. k2 + 17 = e2
 *   null frame from k3 = e2 + g: not early (k3 - e2 = g), judged in k3 + 8, B answers k3 + 10 .. k3 + 17 = e3
 *   1-unit frame (40 symbols) from k4 = e3 + g - 1: early as a whole (its symbols past e3 + g too):
 *                              40 conflict steps, not judged, no answer */
static void guard_edges(unsigned g)
{
    mlc_params_t pa = params(4, 256, 1, 1, 0), pb = params(4, 256, 1, 0, 0);
    pb.GUARD = g;
    uint64_t e = 22, k1 = e + g - 1, k2 = e + g + 20, e2 = k2 + 17, k3 = e2 + g, e3 = k3 + 17, k4 = e3 + g - 1;
    pair_t *P = pair_new(&pa, &pb, 0, (size_t)(k4 + 200), 0);
    P->manual_rx_b = 1;
    uint8_t f[MLC_MAX_NIBBLES + 8], d[MLC_MAX_NIBBLES + 8];
    unsigned n = mk_frame(f, 0, 0, 0, 0, 0), nd = mk_frame(d, 1, 0, 1, 0, 5);
    put_frame_b(P, 5, f, n);
    put_frame_b(P, k1, f, n);
    put_frame_b(P, k2, f, n);
    put_frame_b(P, k3, f, n);
    put_frame_b(P, k4, d, nd);
    uint64_t rd[3] = {k1 + 1, k2 + 9, k4 + 1}; /* hold after k1, after k2 + 8, after k4 */
    for (unsigned i = 0; i < 3; i++) {
        P->sb[rd[i]].reg_rd = 1;
        P->sb[rd[i]].reg_addr = MLC_REG_LINK;
    }
    pair_run(P, k4 + 150);
    frame_t fb[16];
    unsigned nb = frames_of(P, 1, fb, 16);
    check(nb == 3 && fb[0].start == 15 && fb[1].start == k2 + 10 && fb[2].start == k3 + 10,
          "guard %u: B answers at 15, %" PRIu64 ", %" PRIu64 " and not the early frames from e + GUARD - 1 (got %u frames)",
          g, k2 + 10, k3 + 10, nb);
    check(fb[1].start + 7 == e2 && fb[2].start + 7 == e3, "guard %u: B's last symbols %" PRIu64 ", %" PRIu64, g, e2, e3);
    check(mlc_counter(P->b, MLC_CTR_CONFLICT) == 8 + 40, "guard %u: 8 + 40 conflict steps (the early frames), got %u", g,
          (unsigned)mlc_counter(P->b, MLC_CTR_CONFLICT));
    check(mlc_counter(P->b, MLC_CTR_RX_FRAMES) == 3 && mlc_counter(P->b, MLC_CTR_ERR_LEN) == 0 &&
              mlc_counter(P->b, MLC_CTR_ERR_CHECK) == 0,
          "guard %u: 3 frames judged, all good (the frame from e2 + GUARD among them; no tail of an early frame judged)", g);
    check((P->tb[rd[0]].reg_rdata >> 14 & 1u) == 1 && (P->tb[rd[1]].reg_rdata >> 14 & 1u) == 0 &&
              (P->tb[rd[2]].reg_rdata >> 14 & 1u) == 1,
          "guard %u: hold 1 after the early frame's first step, 0 after the next good frame, 1 after the next early one", g);
    pair_free(P);
}

void test_guard_edges(void)
{
    check(mlc_guard(0, 1) == 5 && mlc_guard(3, 0) == 10 && mlc_guard(64, 15) == 147 && mlc_default_params().GUARD == 5,
          "guard: GUARD = 2 LINK_DELAY + 4 + TURN(master) (5 at the defaults, 147 at most)");
    guard_edges(5);
    guard_edges(9);
    guard_edges(17);
}

/* Fault-free the guard changes nothing: for several LINK_W / TURN / LINK_DELAY, two pairs, one with
 * the guard (GUARD = 2 LINK_DELAY + 4 + TURN) and one without (GUARD 0), the same data in both
 * directions: every output of both ends equal in every step, and no conflict at B. */
void test_guard_free(void)
{
    static const unsigned cfg[][3] = {{4, 1, 0}, {4, 0, 7}, {8, 0, 3}, {8, 2, 12}, {4, 15, 20}};
    for (unsigned i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
        unsigned lw = cfg[i][0], turn = cfg[i][1], LD = cfg[i][2];
        mlc_params_t pa = params(lw, 512, turn, 1, 1024), pb = params(lw, 512, turn, 0, 1024);
        pair_t *P = pair_new(&pa, &pb, LD, 4000, 0);
        pb.GUARD = 0;
        pair_t *Q = pair_new(&pa, &pb, LD, 4000, 0);
        for (unsigned u = 0; u < 12; u++) {
            put_unit_ii(P->sa, 30 + 97 * u, u & 1u);
            put_unit_ii(Q->sa, 30 + 97 * u, u & 1u);
            put_unit_ii(P->sb, 50 + 131 * u, 1u - (u & 1u));
            put_unit_ii(Q->sb, 50 + 131 * u, 1u - (u & 1u));
        }
        pair_run(P, 3900);
        pair_run(Q, 3900);
        int same = 1;
        for (unsigned k = 1; k < 3900 && same; k++)
            same = memcmp(&P->ta[k], &Q->ta[k], sizeof(mlc_out_t)) == 0 && memcmp(&P->tb[k], &Q->tb[k], sizeof(mlc_out_t)) == 0;
        check(same && P->pb.GUARD == mlc_guard(LD, turn) && mlc_counter(P->b, MLC_CTR_CONFLICT) == 0 &&
                  mlc_counter(P->b, MLC_CTR_RX_PKTS) == 12 && mlc_counter(P->a, MLC_CTR_RX_PKTS) == 12,
              "guard free: LINK_W %u TURN %u LINK_DELAY %u: with GUARD %u every output as with none, 12 units each way, "
              "no conflict",
              lw, turn, LD, P->pb.GUARD);
        pair_free(P);
        pair_free(Q);
    }
}

/* One spurious CTL pulse (rx_d 0) at every phase of one period of an idle link, at either end, for
 * LINK_W 4 and 8, TURN 0 and 1, LINK_DELAY 0..20 (TIMEOUT 100), with the full GUARD and (TURN 1)
 * with 2 LINK_DELAY + 4 (the GUARD of a slave that does not know its master's TURN): the link must
 * be back to strict alternation (ends alternating, each null frame starting F(0) + G after the
 * other's start) from a frame that starts at most TIMEOUT + F(0) + 2 TURN + 2 steps after the pulse
 * (docs/mlc.md, Malformed input) and stay so to the end of the run (30 periods after the bound).
 * Without the guard (GUARD 0) the same sweep must find the 2 locks at LINK_W 8, TURN 0, LINK_DELAY
 * 3 (the test can fail). */
static unsigned sweep_case(unsigned lw, unsigned turn, unsigned LD, unsigned guard, unsigned end, unsigned ph,
                           long *rec)
{
    const unsigned TO = 100, F0 = 32 / lw, G = 2 + LD + turn, Pd = 2 * F0 + 2 * G;
    mlc_params_t pa = params(lw, 256, turn, 1, TO), pb = params(lw, 256, turn, 0, TO);
    pb.GUARD = guard;
    pair_t *P = pair_new(&pa, &pb, LD, 0, 0);
    uint64_t ps = 6 * Pd + ph, bound = TO + F0 + 2 * turn + 2, total = ps + bound + 30 * Pd;
    P->pulse[end] = ps;
    uint64_t last = 0, lastst = 0;
    int lastwho = -1, pa_en = 0, pb_en = 0;
    uint64_t reg_from = 0; /* the first start of the final regular run */
    while (P->k < total) {
        pair_step(P);
        for (int w = 0; w < 2; w++) {
            int en = w ? P->ob.tx_en : P->oa.tx_en, *prev = w ? &pb_en : &pa_en;
            if (en && !*prev) {
                if (!(lastwho >= 0 && lastwho != w && P->k - lastst == F0 + G))
                    reg_from = P->k; /* irregular start: the regular run begins here at the earliest */
                lastwho = w;
                lastst = P->k;
                last = P->k;
            }
            *prev = en;
        }
    }
    pair_free(P);
    (void)last;
    *rec = reg_from > ps ? (long)(reg_from - ps) : 0;
    /* a lock: the regular run starts too late (or no frame for a period: a stall) */
    return reg_from > ps + bound || lastst + Pd < total;
}

void test_guard_sweep(void)
{
    unsigned cases = 0, bad = 0, worst_cfg = 0;
    long worst = 0;
    for (unsigned lw = 4; lw <= 8; lw += 4)
        for (unsigned turn = 0; turn <= 1; turn++)
            for (unsigned LD = 0; LD <= 20; LD++) {
                unsigned F0 = 32 / lw, G = 2 + LD + turn, Pd = 2 * F0 + 2 * G, nb = 0;
                /* the full GUARD, and (TURN 1) the one of a slave not knowing its master's TURN */
                for (unsigned gv = 0; gv < (turn ? 2u : 1u); gv++)
                for (unsigned end = 0; end < 2; end++)
                    for (unsigned ph = 0; ph < Pd; ph++) {
                        long r;
                        nb += sweep_case(lw, turn, LD, gv ? mlc_guard(LD, 0) : mlc_guard(LD, turn), end, ph, &r);
                        cases++;
                        if (r > worst) {
                            worst = r;
                            worst_cfg = lw * 10000 + turn * 100 + LD;
                        }
                    }
                bad += nb;
                if (nb)
                    check(0, "guard sweep: LINK_W %u TURN %u LINK_DELAY %u: %u of %u pulses not recovered within "
                             "TIMEOUT + F(0) + 2 TURN + 2",
                          lw, turn, LD, nb, (turn ? 4 : 2) * Pd);
            }
    check(bad == 0, "guard sweep: %u pulses (LINK_W 4, 8; TURN 0, 1; LINK_DELAY 0..20; every phase, both ends; GUARD "
                    "2 LINK_DELAY + 4 + TURN, and at TURN 1 also 2 LINK_DELAY + 4): all "
                    "back to strict alternation within TIMEOUT + F(0) + 2 TURN + 2 (worst %ld steps, LINK_W/TURN/LINK_DELAY "
                    "%u/%u/%u)",
          cases, worst, worst_cfg / 10000, worst_cfg / 100 % 100, worst_cfg % 100);
    unsigned locks = 0;
    for (unsigned end = 0; end < 2; end++)
        for (unsigned ph = 0; ph < 2 * 4 + 2 * 5; ph++) {
            long r;
            locks += sweep_case(8, 0, 3, 0, end, ph, &r);
        }
    check(locks == 2, "guard sweep: without the guard, LINK_W 8 TURN 0 LINK_DELAY 3: %u of 36 pulses lock (2 expected)",
          locks);
}

/* ================================================================ timeout */

/* B's first reply (13..20, at A's inputs 14..21) erased: A's silence counts from step 10; with
 * TIMEOUT 16 it times out in step 25 and starts a null frame after 27 (25 + 1 + TURN). */
void test_timeout(void)
{
    mlc_params_t pa = params(4, 2048, 1, 1, 16), pb = params(4, 2048, 1, 0, 16);
    pair_t *P = pair_new(&pa, &pb, 0, 300, 0);
    P->erase_from[0] = 14;
    P->erase_to[0] = 21;
    pair_run(P, 200);
    frame_t fa[16];
    unsigned na = frames_of(P, 0, fa, 16);
    check(mlc_counter(P->a, MLC_CTR_TIMEOUT) == 1 && na >= 2 && fa[1].start == 27 && fa[1].n == 8,
          "timeout: A times out in 25 and sends a null frame after 27");
    check(mlc_counter(P->b, MLC_CTR_CONFLICT) == 0 && mlc_link_overlaps(P->l) == 0, "timeout: no conflict");
    check(na >= 4 && fa[2].start == 27 + 22 && fa[3].start == 27 + 44, "timeout: the exchange resumes (period 22)");
    pair_free(P);

    /* A's data frame (24..95, 2 units) erased at B (inputs 25..96): B waits; A's silence from 96:
     * timeout in 111, null at 113; B replies E 0 -> A resends (retx 2); all 14 units arrive once */
    P = pair_new(&pa, &pb, 0, 1500, 0);
    put_units(P->sa, 1, 0, 14);
    P->erase_from[1] = 25;
    P->erase_to[1] = 96;
    pair_run(P, 1400);
    na = frames_of(P, 0, fa, 16);
    check(mlc_counter(P->a, MLC_CTR_TIMEOUT) == 1 && na >= 3 && fa[2].start == 113 && fa[2].n == 8,
          "timeout: A's erased data frame -> timeout in 111, null frame after 113");
    check(mlc_counter(P->a, MLC_CTR_RETX) == 2 && P->tb[1399].st_rx_avail[0] == 224 &&
              mlc_counter(P->b, MLC_CTR_RX_PKTS) == 14,
          "timeout: the 2 units are resent, 14 units arrive once");
    pair_free(P);

    /* the slave never times out: B hears nothing */
    pb.TIMEOUT = 16;
    pair_t *Q = pair_new(&pa, &pb, 0, 300, 0);
    Q->erase_from[1] = 1;
    Q->erase_to[1] = 299;
    pair_run(Q, 290);
    frame_t fb[4];
    check(frames_of(Q, 1, fb, 4) == 0 && mlc_counter(Q->b, MLC_CTR_TIMEOUT) == 0, "timeout: the slave waits silently");
    check(mlc_counter(Q->a, MLC_CTR_TIMEOUT) >= 10, "timeout: the master keeps trying");
    pair_free(Q);
}

/* sanfab — mlc_unit: parameter checks, the frame format: the check, null frames, turn timing, one packet, latency
 * (run from the table of mlc_unit.c; the helpers they call are in mlc_unit_pair.c). */
#include "mlc_unit.h"

/* ================================================================ parameters */

void test_params(void)
{
    mlc_params_t p = mlc_default_params();
    check(mlc_params_check(&p) == NULL, "params: defaults valid");
    check(p.LINK_W == 4 && p.FIFO_BYTES == 2048 && p.TURN == 1 && p.MASTER == 1 && p.TIMEOUT == 1024 && p.CTR_W == 16,
          "params: defaults are the doc's");
    struct {
        unsigned field, value;
        const char *word;
    } bad[] = {{0, 2, "LINK_W"},   {0, 16, "LINK_W"},  {1, 128, "FIFO_BYTES"}, {1, 3000, "FIFO_BYTES"},
               {1, 8192, "FIFO_BYTES"}, {2, 16, "TURN"}, {3, 2, "MASTER"},     {4, 15, "TIMEOUT"},
               {4, 65536, "TIMEOUT"}, {5, 7, "CTR_W"},  {5, 33, "CTR_W"}};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mlc_params_t q = mlc_default_params();
        unsigned *f[] = {&q.LINK_W, &q.FIFO_BYTES, &q.TURN, &q.MASTER, &q.TIMEOUT, &q.CTR_W};
        *f[bad[i].field] = bad[i].value;
        const char *e = mlc_params_check(&q);
        check(e && strstr(e, bad[i].word), "params: %s = %u refused, naming it (%s)", bad[i].word, bad[i].value,
              e ? e : "accepted");
        check(mlc_new(&q) == NULL, "params: mlc_new refuses %s = %u", bad[i].word, bad[i].value);
    }
    mlc_params_t q = mlc_default_params();
    q.TIMEOUT = 0;
    check(mlc_params_check(&q) == NULL, "params: TIMEOUT 0 valid");
    q.LINK_W = 8;
    q.FIFO_BYTES = 256;
    q.TURN = 15;
    q.CTR_W = 32;
    check(mlc_params_check(&q) == NULL, "params: LINK_W 8, FIFO 256, TURN 15, CTR_W 32 valid");
    check(mlc_frame_symbols(&p, 0) == 8 && mlc_frame_symbols(&p, 15) == 488 && mlc_frame_symbols(&q, 15) == 244,
          "params: F(0) = 8, F(15) = 488 at LINK_W 4, 244 at LINK_W 8");
    check(mlc_link_new(65) == NULL, "link: delay 65 refused");
}

/* ================================================================ frame format */

/* The doc's example: the first frame after reset is 0 0 F F 0 3 F F; the check by long division. */
void test_crc_reference(void)
{
    uint8_t f[8] = {0, 0, 15, 15};
    check(ref_crc(f, 4) == 0x03FF, "check: CRC-16 of 0 0 F F (init FFFF) = 0x03FF (doc's example)");
    add_check(f, 4);
    check(ref_crc(f, 8) == 0, "check: a frame with its check divides to 0");
}

/* Null frames after reset, defaults, LINK_DELAY 0 (doc: Timing, Exchange of null frames). */
void test_null_frames(void)
{
    mlc_params_t pa = params(4, 2048, 1, 1, 1024), pb = params(4, 2048, 1, 0, 1024);
    pair_t *P = pair_new(&pa, &pb, 0, 200, 0);
    pair_run(P, 60);
    /* A: tx_en 0 after step 1, then the frame after steps 2..9, then 0 */
    check(!P->ta[1].tx_en, "null: A idle after step 1 (TURN 1)");
    uint8_t exp[8] = {0, 0, 15, 15, 0, 3, 15, 15};
    int ok = 1;
    for (unsigned i = 0; i < 8; i++)
        ok &= P->ta[2 + i].tx_en == 1 && P->ta[2 + i].tx_d == exp[i];
    check(ok, "null: A's first frame 0 0 F F 0 3 F F after steps 2..9");
    check(!P->ta[10].tx_en && !P->ta[11].tx_en, "null: A releases after step 10");
    /* B: sees rx_en in 3..10, judges in 11, starts after 13 */
    ok = 1;
    for (unsigned k = 3; k <= 10; k++)
        ok &= P->xb[k].rx_en == 1 && P->xb[k].rx_d == exp[k - 3];
    check(ok && !P->xb[11].rx_en, "null: B sees the frame in steps 3..10 (LINK_DELAY 0)");
    check(!P->tb[12].tx_en && P->tb[13].tx_en, "null: B starts after step 13 = 11 + 1 + TURN");
    ok = 1;
    for (unsigned i = 0; i < 8; i++)
        ok &= P->tb[13 + i].tx_en == 1 && P->tb[13 + i].tx_d == exp[i];
    check(ok && !P->tb[21].tx_en, "null: B's reply is 0 0 F F 0 3 F F after steps 13..20 (E 0, credits 15)");
    check(!P->ta[23].tx_en && P->ta[24].tx_en, "null: A starts again after step 24 (judged in 22; period 22)");
    frame_t fr[8];
    unsigned n = frames_of(P, 0, fr, 8);
    ok = n >= 3;
    for (unsigned i = 0; i + 1 < n; i++)
        ok &= fr[i + 1].start - fr[i].start == 22;
    check(ok, "null: A's frames every 22 steps (F(0) + F(0) + 2G)");
    check(mlc_counter(P->a, MLC_CTR_TX_NULL) == mlc_counter(P->a, MLC_CTR_TX_FRAMES) &&
              mlc_counter(P->a, MLC_CTR_TX_FRAMES) == 3,
          "null: A sent 3 frames by step 60 (steps 2, 24, 46), all null (got %u)",
          (unsigned)mlc_counter(P->a, MLC_CTR_TX_FRAMES));
    check(mlc_counter(P->b, MLC_CTR_RX_NULL) == 3 && mlc_counter(P->b, MLC_CTR_RX_FRAMES) == 3,
          "null: B judged 3 good null frames by step 60 (steps 11, 33, 55)");
    pair_free(P);

    /* LINK_W 8: symbols 0x00 0xFF 0x30 0xFF, A after steps 2..5; B judges in 7, starts after 9 */
    pa.LINK_W = pb.LINK_W = 8;
    P = pair_new(&pa, &pb, 0, 100, 0);
    pair_run(P, 40);
    check(P->ta[2].tx_d == 0x00 && P->ta[3].tx_d == 0xFF && P->ta[4].tx_d == 0x30 && P->ta[5].tx_d == 0xFF &&
              P->ta[5].tx_en && !P->ta[6].tx_en,
          "null: LINK_W 8 symbols 00 FF 30 FF after steps 2..5");
    check(!P->tb[8].tx_en && P->tb[9].tx_en, "null: LINK_W 8, B starts after step 9 = 7 + 1 + TURN");
    pair_free(P);
}

/* Turn-round timing for several TURN / LINK_DELAY / LINK_W: frame starts alternate A, B with
 * start(B) = start(A) + F + G and the ends never overlap (rule 3). */
void test_turn_timing(void)
{
    static const unsigned sets[][3] = {{4, 0, 0}, {4, 1, 0}, {4, 3, 5}, {8, 0, 2}, {8, 15, 64}, {4, 0, 1}};
    for (unsigned s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        unsigned lw = sets[s][0], turn = sets[s][1], LD = sets[s][2];
        mlc_params_t pa = params(lw, 512, turn, 1, 0), pb = params(lw, 512, turn, 0, 0);
        pair_t *P = pair_new(&pa, &pb, LD, 2000, 0);
        pair_run(P, 1500);
        frame_t fa[64], fb[64];
        unsigned na = frames_of(P, 0, fa, 64), nb = frames_of(P, 1, fb, 64);
        unsigned F0 = 32 / lw, G = G_of(LD, turn);
        int ok = na >= 4 && nb >= 3 && fa[0].start == turn + 1u;
        for (unsigned i = 0; i + 1 < na && i < nb; i++)
            ok &= fb[i].start == fa[i].start + F0 + G && fa[i + 1].start == fb[i].start + F0 + G;
        check(ok, "turn: LINK_W %u TURN %u LINK_DELAY %u: A first at %u, each start F(0) + G = %u after the other's",
              lw, turn, LD, turn + 1, F0 + G);
        ok = mlc_link_overlaps(P->l) == 0 && mlc_counter(P->a, MLC_CTR_CONFLICT) == 0 &&
             mlc_counter(P->b, MLC_CTR_CONFLICT) == 0;
        check(ok, "turn: LINK_W %u TURN %u LINK_DELAY %u: no overlap, no conflict", lw, turn, LD);
        /* cycle c = the cycle before edge c. A drives its last symbol in cycle a_last + 1 (output after
         * step a_last); B's first symbol reaches A's pins in cycle fb.start + 1 + LD. A's last symbol
         * reaches B's pins in cycle a_last + 2 + LD; B drives from cycle fb.start + 1. */
        uint64_t a_last = fa[0].start + F0 - 1;
        uint64_t idle_a = (fb[0].start + 1 + LD) - (a_last + 1) - 1, idle_b = (fb[0].start + 1) - (a_last + 2 + LD) - 1;
        check(idle_a == 2u + 2u * LD + turn && idle_b == 1u + turn,
              "turn: idle cycles between the frames at A's pins 2 + 2 LINK_DELAY + TURN = %u (got %" PRIu64
              "), at B's pins 1 + TURN = %u (got %" PRIu64 ")",
              2u + 2u * LD + turn, idle_a, 1u + turn, idle_b);
        pair_free(P);
    }
}

/* One unit written into A ch0 in steps 1..8: A's first frame (step 2) is null (nothing received
 * yet), B's reply at 13, A judges it at 22 and builds a 1-unit frame at 24 (rule 4). */
void test_one_packet(void)
{
    mlc_params_t pa = params(4, 2048, 1, 1, 1024), pb = params(4, 2048, 1, 0, 1024);
    pair_t *P = pair_new(&pa, &pb, 0, 400, 0);
    put_unit_ii(P->sa, 1, 0);
    pair_run(P, 120);
    frame_t fa[8];
    unsigned na = frames_of(P, 0, fa, 8);
    uint8_t exp[64];
    unsigned n = 0;
    exp[n++] = 1;  /* NP */
    exp[n++] = 2;  /* FLAGS: CH 0, T = 1 - tack = 1, E 0 */
    exp[n++] = 15; /* CR0 */
    exp[n++] = 15; /* CR1 */
    for (unsigned b = 0; b < 16; b++) {
        exp[n++] = (uint8_t)b; /* byte b = 0xbb: low nibble, then high */
        exp[n++] = (uint8_t)b;
    }
    n = add_check(exp, n);
    check(na >= 2 && fa[0].n == 8 && fa[1].start == 24 && fa[1].n == 40,
          "one unit: A's second frame starts after step 24, 40 nibbles");
    int ok = na >= 2 && fa[1].n == n && nib_eq(fa[1].nib, exp, n);
    if (!check(ok, "one unit: frame = 1 2 F F 0 0 1 1 .. F F CHK (check by long division)") && na >= 2) {
        print_nibs("expected", exp, n);
        print_nibs("actual  ", fa[1].nib, fa[1].n);
    }
    /* B accepts in step 24 + 40 + 1 = 65 */
    check(P->tb[64].st_rx_avail[0] == 0 && P->tb[65].st_rx_avail[0] == 16,
          "one unit: B's st_rx_avail0 0 after step 64, 16 after step 65 (latency 65 - 8 = 57)");
    /* B replies at 67 with E = 1, CR0 = 15 (127 free): 0 4 F F + check */
    frame_t fb[8];
    unsigned nb = frames_of(P, 1, fb, 8);
    uint8_t rep[8] = {0, 4, 15, 15};
    add_check(rep, 4);
    check(nb >= 2 && fb[1].start == 67 && fb[1].n == 8 && nib_eq(fb[1].nib, rep, 8),
          "one unit: B's reply after step 67 is 0 4 F F + check (E = T = 1)");
    /* A judges it in 67 + 8 + 1 = 76: acknowledged, space back to 2048 */
    check(P->ta[75].st_tx_space[0] == 2032 && P->ta[76].st_tx_space[0] == 2048,
          "one unit: A's st_tx_space0 2032 after step 75, 2048 after step 76 (acknowledged)");
    /* host reads the unit at B in steps 130..137: words come out as written */
    for (unsigned j = 0; j < 8; j++) {
        P->sb[130 + j].h_rd = 1;
        P->sb[130 + j].h_rch = 0;
    }
    pair_run(P, 140);
    ok = 1;
    for (unsigned j = 0; j < 8; j++) {
        unsigned b0 = (2 * j) * 0x11u, b1 = (2 * j + 1) * 0x11u;
        ok &= P->tb[130 + j].h_rvalid && P->tb[130 + j].h_rdata == (uint16_t)(b0 | (b1 << 8));
        ok &= P->tb[130 + j].st_rx_avail[0] == 14 - 2 * j;
    }
    check(ok && !P->tb[138].h_rvalid, "one unit: B's host reads the 8 words back in order, avail 14 .. 0");
    check(mlc_counter(P->a, MLC_CTR_TX_PKTS) == 1 && mlc_counter(P->b, MLC_CTR_RX_PKTS) == 1,
          "one unit: counters tx_pkts 1, rx_pkts 1");
    pair_free(P);
}

/* Latency of one unit (doc: Timing, Latency): its last word written in step w on an idle link
 * (A's null frames start in 2 + 22 j); the first frame A starts in step b >= w + 1 (j >= 1: the
 * frame at 2 is built before anything was received) carries it; B accepts it in b + F(1) + 1 =
 * b + 41. Over one period of w: 42 .. 63 steps. */
void test_latency(void)
{
    mlc_params_t pa = params(4, 2048, 1, 1, 1024), pb = params(4, 2048, 1, 0, 1024);
    unsigned lmin = 1000, lmax = 0, ok = 1;
    for (unsigned w = 23; w <= 44; w++) {
        pair_t *P = pair_new(&pa, &pb, 0, 200, 0);
        put_unit_ii(P->sa, w - 7, 0);
        pair_run(P, 150);
        unsigned b = 24;
        while (b < w + 1)
            b += 22;
        unsigned t = 0;
        for (unsigned k = 1; k < 150 && !t; k++)
            if (P->tb[k].st_rx_avail[0] == 16)
                t = k;
        ok &= t == b + 41;
        if (t) {
            lmin = t - w < lmin ? t - w : lmin;
            lmax = t - w > lmax ? t - w : lmax;
        }
        pair_free(P);
    }
    check(ok, "latency: a unit completed in step w (23..44) is readable at B after step b + 41, b the next frame start");
    check(lmin == 42 && lmax == 63, "latency: 42 .. 63 steps over one null-frame period (got %u .. %u)", lmin, lmax);
}

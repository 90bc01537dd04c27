/* sanfab — mlc_unit: check errors and recovery, hand-made frames, the guard pulse, double talk
 * (run from the table of mlc_unit.c; the helpers they call are in mlc_unit_pair.c). */
#include "mlc_unit.h"

/* ================================================================ check errors and recovery */

/* A nibble of A's 2-unit data frame (after steps 24..95) corrupted at B: B drops it (err_check,
 * judged in 97), its reply (99) has E 0, A judges it in 108: E != T -> retx 2, resend; A builds at
 * 110 with floor(109/8) = 13 units from unit 0 again, T = 1 (F 424); B accepts them in 535. */
void test_corrupt_data(void)
{
    mlc_params_t pa = params(4, 2048, 1, 1, 1024), pb = params(4, 2048, 1, 0, 1024);
    pair_t *P = pair_new(&pa, &pb, 0, 1200, 0);
    put_units(P->sa, 1, 0, 14);
    pair_flip(P, 24 + 1 + 10, 1, 0x4); /* B's input of step 35 = A's symbol 10 */
    pair_run(P, 1100);
    check(mlc_counter(P->b, MLC_CTR_ERR_CHECK) == 1, "corrupt data: B counts err_check 1");
    check(P->tb[97].st_rx_avail[0] == 0, "corrupt data: nothing of the dropped frame readable after its end (97)");
    frame_t fb[8];
    frames_of(P, 1, fb, 8);
    check(fb[1].start == 99 && fb[1].nib[1] == 0, "corrupt data: B's reply after 99 echoes E 0");
    check(mlc_counter(P->a, MLC_CTR_RETX) == 2 && P->ta[108].st_tx_space[0] == 2048 - 2 * 108,
          "corrupt data: A counts retx 2 and keeps the units (space after step 108 = 2048 - 2 * 108 words written)");
    frame_t fa[8];
    unsigned na = frames_of(P, 0, fa, 8);
    check(na >= 3 && fa[2].start == 110 && fa[2].nib[0] == 13 && fa[2].nib[1] == 2 && fa[2].nib[4] == 0 &&
              fa[2].nib[5] == 0 && fa[2].nib[4 + 32 + 2] == 2,
          "corrupt data: A resends from unit 0: 13 units, T 1, after step 110");
    check(P->tb[534].st_rx_avail[0] == 0 && P->tb[535].st_rx_avail[0] == 208,
          "corrupt data: B accepts 13 units in step 535 (110 + 424 + 1)");
    check(P->tb[1099].st_rx_avail[0] == 224 && mlc_counter(P->b, MLC_CTR_RX_PKTS) == 14 &&
              mlc_counter(P->b, MLC_CTR_DUP) == 0,
          "corrupt data: all 14 units accepted once (rx_pkts 14, no dup)");
    pair_free(P);
}

/* B's reply (after 99..106) to A's data frame corrupted at A: A drops it (judged in 108, good 0) and
 * sends a null frame at 110; B's next reply (121) has E 1 -> A judges it in 130: acknowledged, no
 * resend; A's next data frame (132) has T 0 and the next 12 units (floor(131/8) = 16 > 14 written). */
void test_corrupt_reply(void)
{
    mlc_params_t pa = params(4, 2048, 1, 1, 1024), pb = params(4, 2048, 1, 0, 1024);
    pair_t *P = pair_new(&pa, &pb, 0, 1200, 0);
    put_units(P->sa, 1, 0, 14);
    pair_flip(P, 99 + 1 + 2, 0, 0x1); /* A's input of step 102 = B's symbol 2 (CR0) */
    pair_run(P, 1100);
    check(mlc_counter(P->a, MLC_CTR_ERR_CHECK) == 1 && P->tb[97].st_rx_avail[0] == 32,
          "corrupt reply: A counts err_check 1; B accepted 2 units in 97");
    frame_t fa[8];
    unsigned na = frames_of(P, 0, fa, 8);
    check(na >= 4 && fa[2].start == 110 && fa[2].n == 8 && fa[2].nib[1] == 0,
          "corrupt reply: A's next frame (110) is null (nothing learned from a bad frame)");
    check(fa[3].start == 132 && fa[3].nib[0] == 12 && fa[3].nib[1] == 0 && mlc_counter(P->a, MLC_CTR_RETX) == 0,
          "corrupt reply: A's frame at 132 carries 12 new units with T 0, nothing resent");
    check(P->ta[129].st_tx_space[0] == 2048 - 14 * 16 && P->ta[130].st_tx_space[0] == 2048 - 12 * 16,
          "corrupt reply: A's 2 units acknowledged in 130 by B's next good reply");
    check(P->tb[1099].st_rx_avail[0] == 224 && mlc_counter(P->b, MLC_CTR_DUP) == 0 && mlc_counter(P->b, MLC_CTR_RX_PKTS) == 14,
          "corrupt reply: all 14 units once at B");
    pair_free(P);
}

/* Corrupted NP makes the length wrong: err_len; a corrupted check nibble: err_check. */
void test_corrupt_fields(void)
{
    mlc_params_t pa = params(4, 2048, 1, 1, 1024), pb = params(4, 2048, 1, 0, 1024);
    pair_t *P = pair_new(&pa, &pb, 0, 200, 0);
    pair_flip(P, 3, 1, 0x1); /* NP nibble of A's first frame: 1, but 8 nibbles -> too short */
    pair_flip(P, 24 + 1 + 5, 1, 0x8); /* a check nibble of A's second frame (symbols 4..7) */
    pair_run(P, 150);
    check(mlc_counter(P->b, MLC_CTR_ERR_LEN) == 1 && mlc_counter(P->b, MLC_CTR_ERR_CHECK) == 1,
          "fields: NP corrupted -> err_len; check nibble corrupted -> err_check");
    check(mlc_counter(P->b, MLC_CTR_RX_FRAMES) == mlc_counter(P->b, MLC_CTR_RX_NULL) &&
              mlc_counter(P->b, MLC_CTR_RX_FRAMES) >= 4,
          "fields: B still judges the later null frames good");
    /* B still replied after the bad frames (turn-round does not need a good frame) */
    frame_t fb[16];
    unsigned nb = frames_of(P, 1, fb, 16);
    check(nb >= 6 && fb[0].start == 13 && fb[1].start == 35, "fields: B replies to bad frames on time (13, 35)");
    pair_free(P);
}

/* B alone (slave), its rx driven by hand: credit, duplicate, length rules (rule 6). Frames (nibbles,
 * steps), the step each is judged in, and B's reply 2 steps later (TURN 1):
 *   data T1 before any grant  40 nibbles  5..44    judged 45   err_credit
 *   null                       8          60..67   68          good: B grants 15, 15
 *   data T1, 1 unit ch0       40          80..119  120         accepted
 *   the same again            40          140..179 180         dup
 *   null + one nibble          9          200..208 209         err_len (too long)
 *   data T0, 2 units ch1      72          230..301 302         accepted
 *   1-unit frame cut at 20    20          340..359 360         err_len (too short) */
void test_handmade(void)
{
    /* the hand-made "master" does not keep the turn-round (80 is 3 steps after B's reply to 68
     * ended): B without the guard here; test_guard_edges has the guard */
    mlc_params_t pa = params(4, 256, 1, 1, 0), pb = params(4, 256, 1, 0, 0);
    pb.GUARD = 0;
    pair_t *P = pair_new(&pa, &pb, 0, 800, 0);
    P->manual_rx_b = 1;
    uint8_t f[MLC_MAX_NIBBLES + 8];
    unsigned n = mk_frame(f, 1, 0, 1, 0, 3);
    put_frame_b(P, 5, f, n);
    n = mk_frame(f, 0, 0, 0, 0, 0);
    put_frame_b(P, 60, f, n);
    n = mk_frame(f, 1, 0, 1, 0, 3);
    put_frame_b(P, 80, f, n);
    put_frame_b(P, 140, f, n);
    n = mk_frame(f, 0, 0, 0, 1, 0);
    f[n] = 0;
    put_frame_b(P, 200, f, n + 1);
    n = mk_frame(f, 2, 1, 0, 0, 9);
    put_frame_b(P, 230, f, n);
    n = mk_frame(f, 1, 0, 1, 0, 1);
    put_frame_b(P, 340, f, 20);
    pair_run(P, 400);
    check(mlc_counter(P->b, MLC_CTR_ERR_CREDIT) == 1 && P->tb[45].st_rx_avail[0] == 0,
          "handmade: data frame before any grant -> err_credit, nothing accepted");
    check(P->tb[120].st_rx_avail[0] == 16 && P->tb[119].st_rx_avail[0] == 0, "handmade: T 1 data frame accepted in 120");
    check(mlc_counter(P->b, MLC_CTR_DUP) == 1 && P->tb[180].st_rx_avail[0] == 16,
          "handmade: the same frame again is a dup, not delivered twice");
    check(mlc_counter(P->b, MLC_CTR_ERR_LEN) == 2, "handmade: one nibble too long and a cut frame -> err_len 2");
    check(P->tb[302].st_rx_avail[1] == 32 && P->tb[301].st_rx_avail[1] == 0, "handmade: T 0 on ch1 accepted in 302");
    frame_t fb[16];
    unsigned nb = frames_of(P, 1, fb, 16);
    int ok = 0;
    for (unsigned i = 0; i < nb; i++)
        if (fb[i].start == 122)
            ok = fb[i].nib[1] == 4 && fb[i].nib[2] == 15;
    check(ok, "handmade: B's reply after 122 has E 1, CR0 15");
    ok = 0;
    for (unsigned i = 0; i < nb; i++)
        if (fb[i].start == 304)
            ok = fb[i].nib[1] == 0 && fb[i].nib[2] == 15 && fb[i].nib[3] == 14;
    check(ok, "handmade: B's reply after 304 has E 0, CR0 15, CR1 14");
    static const uint64_t ends[] = {45, 68, 120, 180, 209, 302, 360};
    ok = nb >= 7;
    for (unsigned i = 0; i < 7 && ok; i++)
        ok &= fb[i].start == ends[i] + 2;
    check(ok, "handmade: B replies 2 steps after each frame end, good or bad");
    pair_free(P);

    /* conflict: a null frame in 5..12 is judged in 13; B waits (TURN) in 14 and sends 15..22 */
    P = pair_new(&pa, &pb, 0, 200, 0);
    P->manual_rx_b = 1;
    n = mk_frame(f, 0, 0, 0, 0, 0);
    put_frame_b(P, 5, f, n);
    P->sb[14].rx_en = 1;
    P->sb[16].rx_en = 1;
    P->sb[17].rx_en = 1;
    pair_run(P, 100);
    check(mlc_counter(P->b, MLC_CTR_CONFLICT) == 3, "handmade: rx_en in TURN or SEND counted as conflict (3)");
    check(mlc_counter(P->b, MLC_CTR_ERR_LEN) == 0 && mlc_counter(P->b, MLC_CTR_RX_FRAMES) == 1,
          "handmade: conflicting symbols ignored (no frame started)");
    pair_free(P);
}

/* The old double talk, now an early frame (docs/mlc.md rule 2, the slave's guard). Defaults,
 * nothing to send: A's null frames at 2, 24, 46; B's at 13, 35. A spurious CTL pulse at B's input in
 * step 21, one step after B's last symbol (20): 21 - 20 = 1 < GUARD = 2*0 + 4 + 1 = 5, so B ignores it
 * (a conflict, hold 1, no frame judged, no answer). A's frame (24..31) reaches B in 25..32, 25 - 20 =
 * 5 = GUARD: not early, judged good in 33 (hold 0 again), answered at 35, as without the pulse.
 * Without the guard B answered the 1-symbol frame at 24, in step with A (the old "double talk"). */
void test_guard_pulse(void)
{
    mlc_params_t pa = params(4, 2048, 1, 1, 1024), pb = params(4, 2048, 1, 0, 1024);
    pair_t *P = pair_new(&pa, &pb, 0, 400, 0);
    P->pulse[1] = 21;
    put_unit_ii(P->sa, 41, 0);
    P->sb[22].reg_rd = 1;
    P->sb[22].reg_addr = MLC_REG_LINK;
    P->sb[33].reg_rd = 1;
    P->sb[33].reg_addr = MLC_REG_LINK;
    P->sb[34].reg_rd = 1;
    P->sb[34].reg_addr = MLC_REG_LINK;
    pair_run(P, 300);
    frame_t fa[16], fb[16];
    unsigned na = frames_of(P, 0, fa, 16), nb = frames_of(P, 1, fb, 16);
    check(nb >= 3 && fb[0].start == 13 && fb[1].start == 35 && fb[2].start == 57,
          "guard pulse: B's frames at 13, 35, 57 (the pulse not answered)");
    check(na >= 4 && fa[1].start == 24 && fa[2].start == 46 && fa[3].start == 68 && fa[3].nib[0] == 1,
          "guard pulse: A's frames at 24, 46, 68 (the unit written in 41..48 in the frame at 68)");
    check(mlc_counter(P->b, MLC_CTR_CONFLICT) == 1 && mlc_counter(P->a, MLC_CTR_CONFLICT) == 0,
          "guard pulse: one conflict step at B (21), none at A");
    check(mlc_counter(P->b, MLC_CTR_ERR_LEN) == 0 && mlc_counter(P->a, MLC_CTR_ERR_LEN) == 0 &&
              mlc_link_overlaps(P->l) == 0,
          "guard pulse: no bad frame judged, no overlap");
    check((P->tb[22].reg_rdata >> 14 & 1u) == 1 && (P->tb[33].reg_rdata >> 14 & 1u) == 1 &&
              (P->tb[34].reg_rdata >> 14 & 1u) == 0,
          "guard pulse: B's hold 1 after steps 21 and 32, 0 after 33 (A's good frame)");
    check(P->tb[108].st_rx_avail[0] == 0 && P->tb[109].st_rx_avail[0] == 16,
          "guard pulse: the unit arrives in step 109 = 68 + F(1) + 1");
    pair_free(P);
}

/* Both ends talking at once (docs/mlc.md, rule 6 "Both ends talking at once"): the master's frame
 * wholly over the slave's. Defaults, TIMEOUT 16, nothing to send: A's null frame 2..9, B's 13..20
 * (at A's pins 14..21). A spurious CTL pulse at A's input in step 11: A judges a 1-symbol frame bad
 * in 12 and sends a null frame 14..21, while B's frame arrives: 8 conflict steps at A (14..21), and
 * nothing of B's frame left to judge. A's frame reaches B in 15..22: 6 conflict steps while B sends
 * (15..20, hold 1), then 21 and 22, 1 and 2 steps after B's last symbol (20): early (GUARD 5), 2 more
 * conflicts. A hears nothing after its frame (last symbol 21): it times out in 21 + 16 = 37 and sends
 * 39..46; B judges that good in 48 (hold 0) and answers at 50; the exchange goes on. */
void test_double_talk(void)
{
    mlc_params_t pa = params(4, 2048, 1, 1, 16), pb = params(4, 2048, 1, 0, 16);
    pair_t *P = pair_new(&pa, &pb, 0, 400, 0);
    P->pulse[0] = 11;
    P->sb[38].reg_rd = 1;
    P->sb[38].reg_addr = MLC_REG_LINK;
    P->sb[49].reg_rd = 1;
    P->sb[49].reg_addr = MLC_REG_LINK;
    pair_run(P, 300);
    frame_t fa[16], fb[16];
    unsigned na = frames_of(P, 0, fa, 16), nb = frames_of(P, 1, fb, 16);
    check(na >= 4 && fa[0].start == 2 && fa[1].start == 14 && fa[2].start == 39 && fa[3].start == 61,
          "double talk: A's frames at 2, 14 (answering the pulse), 39 (timeout), 61");
    check(nb >= 3 && fb[0].start == 13 && fb[1].start == 50 && fb[2].start == 72,
          "double talk: B's frames at 13, 50 (answering A's timeout frame), 72");
    check(mlc_counter(P->a, MLC_CTR_CONFLICT) == 8 && mlc_counter(P->b, MLC_CTR_CONFLICT) == 8,
          "double talk: 8 conflict steps at A (14..21), 8 at B (15..20 sending, 21..22 early)");
    check(mlc_counter(P->a, MLC_CTR_ERR_LEN) == 1 && mlc_counter(P->b, MLC_CTR_ERR_LEN) == 0 &&
              mlc_counter(P->a, MLC_CTR_TIMEOUT) == 1,
          "double talk: A judged one bad frame (the pulse) and timed out once; B judged none bad");
    check((P->tb[38].reg_rdata >> 14 & 1u) == 1 && (P->tb[49].reg_rdata >> 14 & 1u) == 0,
          "double talk: B's hold bit 1 after step 37, 0 after step 48");
    check(mlc_counter(P->b, MLC_CTR_RX_FRAMES) >= 10, "double talk: the exchange goes on (B judged %u good frames)",
          (unsigned)mlc_counter(P->b, MLC_CTR_RX_FRAMES));
    pair_free(P);
}

/* sanfab — mlc_unit: credits, bursts, modes, straddling units
 * (run from the table of mlc_unit.c; the helpers they call are in mlc_unit_pair.c). */
#include "mlc_unit.h"

/* ================================================================ credits, burst, modes */

/* np of every frame of one side (frames_of), into np[] */
static unsigned nps_of(const pair_t *P, unsigned side, unsigned *np, unsigned max, uint64_t *starts)
{
    frame_t *fr = xcalloc(max, sizeof(frame_t));
    unsigned n = frames_of(P, side, fr, max);
    for (unsigned i = 0; i < n; i++) {
        np[i] = fr[i].nib[0];
        if (starts)
            starts[i] = fr[i].start;
    }
    free(fr);
    return n;
}

static int seq_eq(const unsigned *a, unsigned na, const unsigned *b, unsigned nb)
{
    if (na < nb)
        return 0;
    for (unsigned i = 0; i < nb; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

static void print_seq(const char *what, const unsigned *a, unsigned n)
{
    printf("  %s:", what);
    for (unsigned i = 0; i < n && i < 40; i++)
        printf(" %u", a[i]);
    printf("\n");
}

/* B's receive FIFO holds 16 units and its host does not read: A's frames carry 15, then 1, then
 * nulls (credit 0); after B's host reads one unit, 1 more (rule 4: min(cap, sendable, credit)). */
void test_credit_limit(void)
{
    mlc_params_t pa = params(4, 2048, 1, 1, 1024), pb = params(4, 256, 1, 0, 1024);
    pair_t *P = pair_new(&pa, &pb, 0, 6000, 0);
    /* 40 units from step 1: unit i complete in step 8i + 8 */
    put_units(P->sa, 1, 0, 40);
    /* A's frames (doc: a frame starts F + G steps after the other's; G = 3, F(0) = 8, so A's next
     * frame starts F(np) + 14 after its last):
     *   2 null; 24: sendable floor(23/8) = 2 -> 2 (F 72); 110: floor(109/8) - 2 = 11, credit 14 -> 11
     *   (F 360); 484: 40 - 13 = 27 but B has 16 - 13 = 3 free -> 3 (F 104); 602: credit 0 -> null ... */
    pair_run(P, 2000);
    unsigned np[64];
    unsigned n = nps_of(P, 0, np, 64, NULL);
    unsigned exp[] = {0, 2, 11, 3, 0, 0, 0};
    if (!check(seq_eq(np, n, exp, 7), "credit: A's frames carry 0 2 11 3 0 0 0 (B holds 16 units, none read)"))
        print_seq("actual", np, n);
    check(P->tb[1999].st_rx_avail[0] == 256, "credit: B's FIFO full: st_rx_avail0 = 256");
    /* B's last frame advertises CR0 = 0 */
    frame_t fb[64];
    unsigned nb = frames_of(P, 1, fb, 64);
    check(nb > 4 && fb[nb - 1].nib[2] == 0 && fb[nb - 1].nib[3] == 15, "credit: B advertises CR0 0, CR1 15");
    /* B's host reads one unit (8 words) in steps 2001..2008: the next B frame carries CR0 1, A sends 1 */
    for (unsigned j = 0; j < 8; j++) {
        P->sb[2001 + j].h_rd = 1;
    }
    pair_run(P, 2600);
    unsigned np2[256];
    n = nps_of(P, 0, np2, 256, NULL);
    unsigned ones = 0, after = 0;
    for (unsigned i = 0; i < n; i++)
        if (np2[i] == 1)
            ones++;
    for (unsigned i = 0; i < n; i++)
        after += np2[i];
    check(ones == 1 && after == 17, "credit: after reading one unit, exactly one more unit is sent (got %u total)", after);
    check(P->tb[2599].st_rx_avail[0] == 256 && mlc_counter(P->b, MLC_CTR_ERR_CREDIT) == 0,
          "credit: B full again, never overrun (err_credit 0)");
    pair_free(P);

    /* credits per channel are independent: ch1 flows while ch0 is blocked */
    P = pair_new(&pa, &pb, 0, 6000, 0);
    uint64_t k = put_units(P->sa, 1, 0, 20);
    put_units(P->sa, k, 1, 10);
    pair_run(P, 5000);
    check(P->tb[4999].st_rx_avail[0] == 256 && P->tb[4999].st_rx_avail[1] == 160,
          "credit: ch0 stops at 16 units, ch1 gets all 10");
    pair_free(P);
}

/* Network Burst: 100 units from step 1, B's host reading at once (driver): A's frames carry
 * 0 2 11 15 15 15 15 15 12 (frame starts 2, 24, 110, 484, 986, ...: each F(np) + 14 after the last;
 * sendable at b is floor((b-1)/8) minus what went before, never more than 15). */
void test_burst(void)
{
    mlc_params_t pa = params(4, 2048, 1, 1, 1024), pb = params(4, 2048, 1, 0, 1024);
    pair_t *P = pair_new(&pa, &pb, 0, 6000, 1);
    mlc_host_hold(P->ha, 1, 0);
    /* A's words by hand from step 1 (host driver of B only reads) */
    put_units(P->sa, 1, 0, 100);
    mlc_host_free(P->ha);
    P->ha = NULL;
    pair_run(P, 5800);
    unsigned np[64];
    uint64_t st[64];
    unsigned n = nps_of(P, 0, np, 64, st);
    unsigned exp[] = {0, 2, 11, 15, 15, 15, 15, 15, 12, 0};
    if (!check(seq_eq(np, n, exp, 10), "burst: A's frames carry 0 2 11 15 15 15 15 15 12 0"))
        print_seq("actual", np, n);
    if (tally.verbose) {
        unsigned sts[64];
        for (unsigned i = 0; i < n; i++)
            sts[i] = (unsigned)st[i];
        print_seq("starts", sts, n);
    }
    uint64_t exps[] = {2, 24, 110, 484, 986, 1488, 1990, 2492, 2994, 3400};
    int ok = n >= 10;
    for (unsigned i = 0; i < 10 && ok; i++)
        ok &= st[i] == exps[i];
    check(ok, "burst: frame starts 2 24 110 484 986 1488 1990 2492 2994 3400 (each F(np) + 14 after the last)");
    unsigned mx = 0;
    for (unsigned i = 0; i < n; i++)
        mx = np[i] > mx ? np[i] : mx;
    check(mx == 15, "burst: never more than 15 units in a frame");
    pair_free(P);

    /* single-packet modes: cap 1, 2, 4 units (SP 1, 2, 3), 12 units from step 1. Frames by hand:
     * cap 4: 2 null, 24: 2 units (F 72), 110: min(4, 12 - 2) = 4 (F 136), 260: 4, 410: 2;
     * cap 2: 24, 110, 196, 282, 368, 454: 2 each (F 72, + 14); cap 1: 24, 78, 132, ...: 1 each (F 40). */
    static const unsigned caps[4] = {15, 1, 2, 4};
    static const unsigned seqs[4][14] = {{0}, {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0}, {0, 2, 2, 2, 2, 2, 2, 0},
                                         {0, 2, 4, 4, 2, 0}};
    static const unsigned seqn[4] = {0, 14, 8, 6};
    for (unsigned sp = 1; sp <= 3; sp++) {
        P = pair_new(&pa, &pb, 0, 3000, 0);
        P->sa[1].reg_wr = 1;
        P->sa[1].reg_addr = MLC_REG_CFG;
        P->sa[1].reg_wdata = MLC_CFG_SP(sp);
        put_units(P->sa, 1, 0, 12);
        pair_run(P, 2900);
        n = nps_of(P, 0, np, 64, NULL);
        unsigned tot = 0, bad = 0, full = 0;
        for (unsigned i = 0; i < n; i++) {
            tot += np[i];
            bad += np[i] > caps[sp];
            full += np[i] == caps[sp];
        }
        (void)full;
        check(tot == 12 && bad == 0 && seq_eq(np, n, seqs[sp], seqn[sp]),
              "single %u B: 12 units, frames of at most %u units, in the hand-computed sequence", 16u << (sp - 1),
              caps[sp]);
        /* the first data frame at 24 with min(cap, 2) units */
        frame_t fr[4];
        frames_of(P, 0, fr, 4);
        unsigned np1 = caps[sp] < 2 ? caps[sp] : 2;
        check(fr[1].start == 24 && fr[1].nib[0] == np1 && fr[2].start == 24 + mlc_frame_symbols(&pa, np1) + 14,
              "single %u B: first data frame at 24 with %u units, next F + 14 later", 16u << (sp - 1), np1);
        pair_free(P);
    }
}

/* Pipelined vs message-based: a Type1 message of 6 units written from step 1 (unit i complete in
 * step 8i + 8, the last in 48). */
static uint64_t put_type1(mlc_in_t *s, uint64_t k, unsigned ch, unsigned units)
{
    for (unsigned u = 0; u < units; u++)
        for (unsigned j = 0; j < 8; j++) {
            uint16_t w = (uint16_t)(u * 8 + j + 0x100);
            if (u == 0 && j == 0)
                w = 1; /* TYPE 1 */
            if (u == 1 && j == 0)
                w = (uint16_t)units; /* PC */
            put_write(s, k++, ch, w);
        }
    return k;
}

void test_modes(void)
{
    mlc_params_t pa = params(4, 2048, 1, 1, 1024), pb = params(4, 2048, 1, 0, 1024);
    for (unsigned am = 0; am < 2; am++)
        for (unsigned bm = 0; bm < 2; bm++) {
            pair_t *P = pair_new(&pa, &pb, 0, 1000, 0);
            set_cfg(P->sa, 1, am ? MLC_CFG_MSG : 0);
            set_cfg(P->sb, 1, bm ? MLC_CFG_MSG : 0);
            put_type1(P->sa, 1, 0, 6);
            pair_run(P, 900);
            unsigned np[16];
            uint64_t st[16];
            unsigned n = nps_of(P, 0, np, 16, st);
            if (!am) {
                /* pipelined: 24: 2 units (F 72) -> B accepts at 97; 110: 4 units (F 136) -> 247 */
                check(n >= 3 && st[1] == 24 && np[1] == 2 && st[2] == 110 && np[2] == 4,
                      "modes A pipelined: frames at 24 (2 units) and 110 (4 units)");
                if (!bm)
                    check(P->tb[96].st_rx_avail[0] == 0 && P->tb[97].st_rx_avail[0] == 32 &&
                              P->tb[246].st_rx_avail[0] == 32 && P->tb[247].st_rx_avail[0] == 96,
                          "modes B pipelined: 32 bytes readable after step 97, 96 after 247");
                else
                    check(P->tb[97].st_rx_avail[0] == 0 && P->tb[246].st_rx_avail[0] == 0 &&
                              P->tb[247].st_rx_avail[0] == 96,
                          "modes B message-based: nothing readable until the whole message, 96 after 247");
            } else {
                /* message-based: 24 null (incomplete), 46 null (complete only in 48), 68: 6 units (F 200)
                 * -> B accepts in 68 + 200 + 1 = 269 */
                check(n >= 4 && np[1] == 0 && st[2] == 46 && np[2] == 0 && st[3] == 68 && np[3] == 6,
                      "modes A message-based: nulls at 24, 46 (message complete in 48), 6 units at 68");
                check(P->tb[268].st_rx_avail[0] == 0 && P->tb[269].st_rx_avail[0] == 96,
                      "modes A message-based, B %s: 96 bytes readable after step 269", bm ? "message-based" : "pipelined");
            }
            pair_free(P);
        }
}

/* A frame holds parts of several messages and a message straddles frames: Type0, Type0, Type1 of
 * 20 units (22 units, written from step 1). Frames: 24: 2 units (the two Type0), 110: 11 (Type1
 * units 0..10), 484: 9 (Type1 units 11..19). B message-based: 32 bytes after 97, still 32 after
 * 471 (110 + 360 + 1: the Type1 is incomplete), 352 after 781 (484 + 296 + 1). */
void test_straddle(void)
{
    mlc_params_t pa = params(4, 2048, 1, 1, 1024), pb = params(4, 2048, 1, 0, 1024);
    for (unsigned bm = 0; bm < 2; bm++) {
        pair_t *P = pair_new(&pa, &pb, 0, 1000, 0);
        set_cfg(P->sb, 1, bm ? MLC_CFG_MSG : 0);
        uint64_t k = put_units(P->sa, 1, 0, 2);
        put_type1(P->sa, k, 0, 20);
        pair_run(P, 900);
        unsigned np[16];
        uint64_t st[16];
        unsigned n = nps_of(P, 0, np, 16, st);
        check(n >= 4 && st[1] == 24 && np[1] == 2 && st[2] == 110 && np[2] == 11 && st[3] == 484 && np[3] == 9,
              "straddle: frames at 24, 110, 484 with 2, 11, 9 units");
        if (bm)
            check(P->tb[97].st_rx_avail[0] == 32 && P->tb[471].st_rx_avail[0] == 32 && P->tb[780].st_rx_avail[0] == 32 &&
                      P->tb[781].st_rx_avail[0] == 352,
                  "straddle, B message-based: 32 bytes after 97, still 32 after 471, 352 after 781");
        else
            check(P->tb[97].st_rx_avail[0] == 32 && P->tb[471].st_rx_avail[0] == 208 && P->tb[781].st_rx_avail[0] == 352,
                  "straddle, B pipelined: 32 after 97, 208 after 471, 352 after 781");
        pair_free(P);
    }
}

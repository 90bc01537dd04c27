/* sanfab — unit tests of the Maestro Link Controller C model against the rules of docs/mlc.md.
 *
 * Two MLCs (A master, B slave) joined by the link model, with directed stimulus or the host driver
 * sw/mlc_host.c. Every expectation of a directed test is computed by hand from the doc's rules
 * (the comments give the steps): frame nibbles (the check by an independent long division, not the
 * model's LFSR), frame starts (rule 3: the next frame starts F + G steps after the previous one),
 * units per frame (rule 4), acceptance and acknowledgement steps (rule 6), status values. The
 * random test runs both directions and both channels with corrupted and erased frames under a
 * scoreboard (every message whole, in order per channel, exactly once) and checks the turn-round
 * rule at every frame start; the efficiency test measures one-way throughput against the doc's
 * formula exactly. tb/mlc/mutants.sh breaks the model in several ways and checks that this test
 * fails for each.
 *
 * Build and run (from the repository root):
 *   mkdir -p build/mlc && cc -std=c11 -Wall -Wextra -Werror -O1 -g -fsanitize=address,undefined \
 *     -fno-sanitize-recover=all cmodel/mlc.c sw/mlc_host.c tb/mlc/mlc_unit.c -o build/mlc/mlc_unit \
 *     && build/mlc/mlc_unit
 * Options: -v (print passing checks), --seed N (first seed of the random test), --cycles N (total
 * random-test cycles, default 1000000). A failing check prints "CHECK ... FAIL"; the last line is
 * "mlc_unit: N checks, M failed"; exit status 1 on any failure.
 */
#include "../common/unit_main.h"
#include "../../cmodel/mlc.h"
#include "../../sw/mlc_host.h"
#include "../../sw/ring.h"
#include "../common/rng.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "mlc_unit: out of memory\n");
        exit(2);
    }
    return p;
}

/* ================================================================ reference check (docs/mlc.md, Frames)
 * Long division of the frame's bit string (nibbles MSB first, followed by 16 zeros) by
 * x^16 + x^12 + x^5 + 1, the initial value 0xFFFF applied as an inversion of the first 16 bits: a
 * different algorithm from the model's LFSR. */
static unsigned ref_crc(const uint8_t *nib, unsigned n)
{
    unsigned nb = 4 * n;
    uint8_t *bits = xcalloc(nb + 16, 1);
    for (unsigned i = 0; i < n; i++)
        for (unsigned b = 0; b < 4; b++)
            bits[4 * i + b] = (uint8_t)((nib[i] >> (3 - b)) & 1u);
    for (unsigned i = 0; i < 16 && i < nb; i++)
        bits[i] ^= 1u;
    static const uint8_t poly[17] = {1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (unsigned i = 0; i < nb; i++)
        if (bits[i])
            for (unsigned j = 0; j < 17; j++)
                bits[i + j] ^= poly[j];
    unsigned r = 0;
    for (unsigned j = 0; j < 16; j++)
        r = (r << 1) | bits[nb + j];
    free(bits);
    return r;
}

/* appends the four check nibbles to a frame of n nibbles; returns n + 4 */
static unsigned add_check(uint8_t *nib, unsigned n)
{
    unsigned c = ref_crc(nib, n);
    for (unsigned i = 0; i < 4; i++)
        nib[n + i] = (uint8_t)((c >> (12 - 4 * i)) & 15u);
    return n + 4;
}

/* ================================================================ two-end harness */

typedef struct {
    uint64_t step;
    unsigned to_b;  /* 1: on B's inputs (the A->B direction), 0: on A's */
    uint8_t xor_d;  /* rx_d ^= xor_d */
} flip_t;

typedef struct {
    mlc_params_t pa, pb;
    unsigned LD;
    mlc_t *a, *b;
    mlc_link_t *l;
    mlc_host_t *ha, *hb;  /* host drivers, or NULL: host fields from sa/sb */
    mlc_in_t ia, ib;      /* rx fields of the next step (from the link) */
    mlc_out_t oa, ob;     /* outputs after the last step */
    uint64_t k;
    size_t maxs;          /* trace length (0: none) */
    mlc_in_t *sa, *sb;    /* stimulus of step k (host and register fields; rx too with manual_rx_b) */
    mlc_out_t *ta, *tb;   /* outputs after step k */
    mlc_in_t *xa, *xb;    /* inputs of step k as applied */
    int manual_rx_b;      /* B's rx_en/rx_d from sb[k] instead of the link */
    flip_t flips[64];
    unsigned nflips;
    uint64_t erase_from[2], erase_to[2]; /* [to_b]: rx_en forced 0 in these steps */
    mlc_in_t ain, bin;    /* inputs of the last step as applied (faults included) */
    uint64_t pulse[2];    /* [to_b]: rx_en forced 1 (rx_d 0) in this step (0: none) */
} pair_t;

/* GUARD value of params(): pair_new replaces it by the doc's 2 LINK_DELAY + 4 + TURN(A) */
#define GUARD_AUTO 1000u

static pair_t *pair_new(const mlc_params_t *pa, const mlc_params_t *pb, unsigned LD, size_t maxs, int hosts)
{
    pair_t *P = xcalloc(1, sizeof *P);
    P->pa = *pa;
    P->pb = *pb;
    if (P->pa.GUARD == GUARD_AUTO)
        P->pa.GUARD = mlc_guard(LD, pa->TURN); /* unused: A is the master */
    if (P->pb.GUARD == GUARD_AUTO)
        P->pb.GUARD = mlc_guard(LD, pa->TURN);
    pa = &P->pa;
    pb = &P->pb;
    P->LD = LD;
    P->a = mlc_new(pa);
    P->b = mlc_new(pb);
    P->l = mlc_link_new(LD);
    if (!P->a || !P->b || !P->l) {
        fprintf(stderr, "mlc_unit: bad parameters: %s / %s\n", mlc_params_check(pa) ? mlc_params_check(pa) : "-",
                mlc_params_check(pb) ? mlc_params_check(pb) : "-");
        exit(2);
    }
    if (hosts) {
        P->ha = mlc_host_new(pa->FIFO_BYTES, 0);
        P->hb = mlc_host_new(pb->FIFO_BYTES, 0);
    }
    P->maxs = maxs;
    if (maxs) {
        P->sa = xcalloc(maxs, sizeof(mlc_in_t));
        P->sb = xcalloc(maxs, sizeof(mlc_in_t));
        P->ta = xcalloc(maxs, sizeof(mlc_out_t));
        P->tb = xcalloc(maxs, sizeof(mlc_out_t));
        P->xa = xcalloc(maxs, sizeof(mlc_in_t));
        P->xb = xcalloc(maxs, sizeof(mlc_in_t));
    }
    /* outputs after step 0 (reset): idle link, empty FIFOs */
    for (unsigned c = 0; c < MLC_NCH; c++) {
        P->oa.st_tx_space[c] = (uint16_t)pa->FIFO_BYTES;
        P->ob.st_tx_space[c] = (uint16_t)pb->FIFO_BYTES;
    }
    if (maxs) {
        P->ta[0] = P->oa;
        P->tb[0] = P->ob;
    }
    return P;
}

static void pair_free(pair_t *P)
{
    mlc_free(P->a);
    mlc_free(P->b);
    mlc_link_free(P->l);
    mlc_host_free(P->ha);
    mlc_host_free(P->hb);
    free(P->sa);
    free(P->sb);
    free(P->ta);
    free(P->tb);
    free(P->xa);
    free(P->xb);
    free(P);
}

static void pair_flip(pair_t *P, uint64_t step, unsigned to_b, uint8_t xor_d)
{
    if (P->nflips < 64)
        P->flips[P->nflips++] = (flip_t){step, to_b, xor_d};
}

static void pair_step(pair_t *P)
{
    uint64_t k = ++P->k;
    mlc_in_t ia, ib;
    memset(&ia, 0, sizeof ia);
    memset(&ib, 0, sizeof ib);
    if (P->maxs && k < P->maxs) {
        ia = P->sa[k];
        ib = P->sb[k];
    }
    if (!(P->manual_rx_b && P->maxs)) {
        ib.rx_en = P->ib.rx_en;
        ib.rx_d = P->ib.rx_d;
    }
    ia.rx_en = P->ia.rx_en;
    ia.rx_d = P->ia.rx_d;
    if (P->ha)
        mlc_host_drive(P->ha, &P->oa, &ia);
    if (P->hb)
        mlc_host_drive(P->hb, &P->ob, &ib);
    for (unsigned i = 0; i < P->nflips; i++)
        if (P->flips[i].step == k) {
            mlc_in_t *x = P->flips[i].to_b ? &ib : &ia;
            x->rx_d ^= P->flips[i].xor_d;
        }
    for (unsigned s = 0; s < 2; s++) {
        mlc_in_t *x = s ? &ib : &ia;
        if (k >= P->erase_from[s] && k <= P->erase_to[s]) {
            x->rx_en = 0;
            x->rx_d = 0;
        }
        if (P->pulse[s] == k) {
            x->rx_en = 1;
            x->rx_d = 0;
        }
    }
    mlc_step(P->a, &ia, &P->oa);
    mlc_step(P->b, &ib, &P->ob);
    P->ain = ia;
    P->bin = ib;
    if (P->maxs && k < P->maxs) {
        P->ta[k] = P->oa;
        P->tb[k] = P->ob;
        P->xa[k] = ia;
        P->xb[k] = ib;
    }
    if (P->ha)
        mlc_host_collect(P->ha, &P->oa);
    if (P->hb)
        mlc_host_collect(P->hb, &P->ob);
    mlc_link_step(P->l, &P->oa, &P->ob, &P->ia, &P->ib);
}

static void pair_run(pair_t *P, uint64_t upto)
{
    while (P->k < upto)
        pair_step(P);
}

/* ---------------------------------------------------------------- frames seen on one end's tx */

typedef struct {
    uint64_t start;   /* first step whose output carries the frame */
    unsigned n;       /* nibbles */
    uint8_t nib[MLC_MAX_NIBBLES + 8];
} frame_t;

/* frames on the trace of side (0 A, 1 B) up to step P->k; returns how many (at most max) */
static unsigned frames_of(const pair_t *P, unsigned side, frame_t *fr, unsigned max)
{
    const mlc_out_t *t = side ? P->tb : P->ta;
    unsigned lw = side ? P->pb.LINK_W : P->pa.LINK_W;
    unsigned nf = 0;
    uint64_t end = P->k < P->maxs ? P->k : P->maxs - 1;
    for (uint64_t k = 1; k <= end; k++) {
        if (!t[k].tx_en)
            continue;
        if (k == 1 || !t[k - 1].tx_en) {
            if (nf == max)
                break;
            fr[nf].start = k;
            fr[nf].n = 0;
            nf++;
        }
        frame_t *f = &fr[nf - 1];
        for (unsigned i = 0; i < lw / 4; i++)
            if (f->n < MLC_MAX_NIBBLES + 8)
                f->nib[f->n++] = (uint8_t)((t[k].tx_d >> (4 * i)) & 15u);
    }
    return nf;
}

static int nib_eq(const uint8_t *a, const uint8_t *b, unsigned n) { return memcmp(a, b, n) == 0; }

static void print_nibs(const char *what, const uint8_t *n, unsigned len)
{
    printf("  %s:", what);
    for (unsigned i = 0; i < len && i < 60; i++)
        printf(" %X", n[i]);
    printf(len > 60 ? " ...\n" : "\n");
}

/* host stimulus: one word write in step k */
static void put_write(mlc_in_t *s, uint64_t k, unsigned ch, uint16_t w)
{
    s[k].h_wr = 1;
    s[k].h_wch = (uint8_t)ch;
    s[k].h_wdata = w;
}

/* the unit of test_one_packet: byte i = i * 0x11 (byte 0 = 0: a Type0 header), words from step k */
static void put_unit_ii(mlc_in_t *s, uint64_t k, unsigned ch)
{
    for (unsigned j = 0; j < 8; j++) {
        unsigned b0 = (2 * j) * 0x11u, b1 = (2 * j + 1) * 0x11u;
        put_write(s, k + j, ch, (uint16_t)(b0 | (b1 << 8)));
    }
}

static mlc_params_t params(unsigned lw, unsigned fifo, unsigned turn, unsigned master, unsigned timeout)
{
    mlc_params_t p = mlc_default_params();
    p.LINK_W = lw;
    p.FIFO_BYTES = fifo;
    p.TURN = turn;
    p.MASTER = master;
    p.TIMEOUT = timeout;
    p.GUARD = GUARD_AUTO;
    return p;
}

/* G of the doc: idle steps per turn-round */
static unsigned G_of(unsigned LD, unsigned turn) { return 2 + LD + turn; }

/* ================================================================ parameters */

static void test_params(void)
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
static void test_crc_reference(void)
{
    uint8_t f[8] = {0, 0, 15, 15};
    check(ref_crc(f, 4) == 0x03FF, "check: CRC-16 of 0 0 F F (init FFFF) = 0x03FF (doc's example)");
    add_check(f, 4);
    check(ref_crc(f, 8) == 0, "check: a frame with its check divides to 0");
}

/* Null frames after reset, defaults, LINK_DELAY 0 (doc: Timing, Exchange of null frames). */
static void test_null_frames(void)
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
static void test_turn_timing(void)
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
static void test_one_packet(void)
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
static void test_latency(void)
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

/* writes `units` Type0 units (word 0 = 0: Type0) into side's ch from step k, one word per step */
static uint64_t put_units(mlc_in_t *s, uint64_t k, unsigned ch, unsigned units)
{
    for (unsigned u = 0; u < units; u++)
        for (unsigned j = 0; j < 8; j++)
            put_write(s, k++, ch, (uint16_t)(j == 0 ? ((u & 0x7Fu) << 9) : (u * 8 + j)));
    return k;
}

/* B's receive FIFO holds 16 units and its host does not read: A's frames carry 15, then 1, then
 * nulls (credit 0); after B's host reads one unit, 1 more (rule 4: min(cap, sendable, credit)). */
static void test_credit_limit(void)
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
static void test_burst(void)
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

static void set_cfg(mlc_in_t *s, uint64_t k, unsigned v)
{
    s[k].reg_wr = 1;
    s[k].reg_addr = MLC_REG_CFG;
    s[k].reg_wdata = (uint16_t)v;
}

static void test_modes(void)
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
static void test_straddle(void)
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

/* ================================================================ messages through the driver */

static void test_messages(void)
{
    /* encoding by hand: Type1 of 30 bytes -> 2 + ceil(7/16) = 3 units; PC in unit 1 bytes 0..1 */
    uint8_t d[64];
    for (unsigned i = 0; i < 64; i++)
        d[i] = (uint8_t)(0xA0 + i);
    mlc_msg_t m1 = {1, MLC_KIND_DATA, 7, 0, 3, 30, d};
    check(mlc_msg_units(&m1) == 3, "msg: Type1 of 30 bytes is 3 units");
    uint8_t buf[48];
    mlc_msg_encode(&m1, buf);
    check(buf[0] == 1 && buf[1] == 7 && buf[4] == 3 && buf[5] == 30 && buf[6] == 0 && buf[7] == 0xA0 &&
              buf[15] == 0xA8 && buf[16] == 3 && buf[17] == 0 && buf[18] == 0xA9 && buf[31] == 0xB6 &&
              buf[32] == 0xB7 && buf[38] == 0xBD && buf[39] == 0,
          "msg: Type1 layout (header TYPE/DST/SRC/LEN, data 7..15, PC, data)");
    mlc_msg_t m0 = {0, MLC_KIND_ACK, 2, 0, 9, MLC_T0_DATA, d};
    check(mlc_msg_units(&m0) == 1, "msg: Type0 is 1 unit");
    mlc_msg_encode(&m0, buf);
    check(buf[0] == 2 && buf[1] == 2 && buf[4] == 9 && buf[5] == 0xA0 && buf[15] == 0xAA, "msg: Type0 layout");
    mlc_msg_t l23 = {1, 0, 1, 0, 0, 23, d}, l24 = {1, 0, 1, 0, 0, 24, d}, l0 = {1, 0, 1, 0, 0, 0, d};
    check(mlc_msg_units(&l23) == 2 && mlc_msg_units(&l24) == 3 && mlc_msg_units(&l0) == 2,
          "msg: Type1 of 0 and 23 bytes is 2 units, 24 bytes 3");

    /* through two MLCs and the drivers, both channels, both directions, with a barrier */
    mlc_params_t pa = params(4, 512, 1, 1, 1024), pb = params(4, 512, 1, 0, 1024);
    pair_t *P = pair_new(&pa, &pb, 2, 0, 1);
    unsigned lens[] = {0, 1, 9, 23, 24, 100, 300, 480};
    uint8_t big[512];
    for (unsigned i = 0; i < sizeof big; i++)
        big[i] = (uint8_t)(i * 7 + 1);
    for (unsigned i = 0; i < 8; i++) {
        mlc_msg_t m = {1, MLC_KIND_DATA, 1, 0, 0, lens[i], big};
        check(mlc_host_send(P->ha, i & 1u, &m) == 0, "msg: queued Type1 of %u bytes", lens[i]);
    }
    mlc_msg_t t0 = {0, MLC_KIND_ACK, 0, 0, 1, MLC_T0_DATA, big + 3};
    mlc_host_send(P->hb, 1, &t0);
    check(mlc_host_barrier(P->hb, 0, 1, 0x3u, 0xDEADBEEFu) == 0, "msg: barrier queued");
    pair_run(P, 20000);
    unsigned got = 0, ok = 1;
    for (unsigned i = 0; i < 8; i++) {
        mlc_msg_t r;
        memset(&r, 0, sizeof r);
        if (!mlc_host_recv(P->hb, i & 1u, &r)) {
            ok = 0;
            continue;
        }
        mlc_msg_t m = {1, MLC_KIND_DATA, 1, 0, 0, lens[i], big};
        ok &= mlc_msg_eq(&r, &m);
        got++;
        mlc_msg_free(&r);
    }
    check(ok && got == 8, "msg: 8 Type1 messages arrive whole on their channels, in order");
    mlc_msg_t r;
    memset(&r, 0, sizeof r);
    int got0 = mlc_host_recv(P->ha, 1, &r);
    check(got0 && mlc_msg_eq(&r, &t0), "msg: Type0 acknowledgement arrives on ch1");
    if (got0)
        mlc_msg_free(&r);
    memset(&r, 0, sizeof r);
    int bar = mlc_host_recv(P->ha, 0, &r);
    check(bar && r.type == 0 && r.kind == MLC_KIND_BARRIER && r.dst == MLC_DST_MULTI && r.mask == 3 &&
              r.data[0] == 0xEF && r.data[3] == 0xDE,
          "msg: barrier arrives (Type0, kind 2, DST 255, MASK 3, epoch)");
    if (bar)
        mlc_msg_free(&r);
    /* FIFO flow control: one status read per burst of writes, not one per word (A wrote 8 messages,
     * 2 + 2 + 2 + 2 + 3 + 7 + 19 + 31 = 68 units = 544 words into 512-byte FIFOs) */
    check(mlc_host_status_reads(P->ha) < 544 / 4, "msg: the driver reads a status once per burst (%u reads for 544 words)",
          (unsigned)mlc_host_status_reads(P->ha));
    check(mlc_host_status_reads(P->ha) > 0 && mlc_counter(P->a, MLC_CTR_WR_OVER) == 0 &&
              mlc_counter(P->b, MLC_CTR_RD_UNDER) == 0,
          "msg: the drivers never wrote or read beyond the status");
    pair_free(P);

    /* message mode driver refuses a message larger than the FIFO (512 B = 32 units) */
    mlc_host_t *h = mlc_host_new(512, 1);
    mlc_msg_t mbig = {1, 0, 1, 0, 0, 504, big}; /* 2 + ceil(481/16) = 33 units */
    mlc_msg_t mfit = {1, 0, 1, 0, 0, 503, big}; /* 2 + 30 = 32 units = 512 bytes */
    check(mlc_host_send(h, 0, &mbig) == -1 && mlc_host_send(h, 0, &mfit) == 0,
          "msg: message mode refuses 504 bytes (33 units) in a 512-byte FIFO, takes 503 (32 units)");
    mlc_host_free(h);

    /* Type1 with PC < 2: counted err_msg, taken as 2 units (message mode: ends after unit 1) */
    pair_t *Q = pair_new(&pa, &pb, 0, 600, 0);
    set_cfg(Q->sa, 1, MLC_CFG_MSG);
    for (unsigned j = 0; j < 16; j++)
        put_write(Q->sa, 1 + j, 0, (uint16_t)(j == 0 ? 1 : (j == 8 ? 1 : 0))); /* PC = 1 */
    pair_run(Q, 500);
    check(mlc_counter(Q->a, MLC_CTR_ERR_MSG) == 1 && mlc_counter(Q->b, MLC_CTR_ERR_MSG) == 1,
          "msg: PC 1 counted err_msg at the sender and the receiver");
    check(Q->tb[499].st_rx_avail[0] == 32, "msg: a PC-1 message moves as 2 units in message mode");
    pair_free(Q);
}

/* Configuration changes with traffic in flight (docs/mlc.md, Configuration: nothing is lost): both
 * ends get a random mode every 250 steps while the drivers move 60 messages each way (each at most
 * one FIFO, so message-based mode can always move it); all arrive whole, in order. */
static void test_cfg_changes(void)
{
    mlc_params_t pa = params(4, 1024, 1, 1, 1024), pb = params(4, 1024, 2, 0, 1024);
    const unsigned steps = 150000;
    pair_t *P = pair_new(&pa, &pb, 1, steps + 1, 1);
    rng_t r;
    rng_seed(&r, 77);
    for (unsigned k = 5; k < steps; k += 250) {
        set_cfg(P->sa, k, rng_below(&r, 8));
        set_cfg(P->sb, k + 100, rng_below(&r, 8));
    }
    static uint8_t data[1024];
    for (unsigned i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 13 + 5);
    mlc_msg_t sent[2][60];
    for (unsigned side = 0; side < 2; side++)
        for (unsigned i = 0; i < 60; i++) {
            mlc_msg_t m = {i % 5 == 0 ? 0u : 1u, 0, 1, 0, side, 0, data + i};
            m.len = m.type ? (i % 7 == 1 ? 1001u - i : rng_below(&r, 300)) : MLC_T0_DATA; /* at most 64 units */
            sent[side][i] = m;
            mlc_host_send(side ? P->hb : P->ha, i & 1u, &m);
        }
    pair_run(P, steps);
    unsigned ok = 1, got = 0;
    for (unsigned side = 0; side < 2; side++) {
        unsigned idx[2] = {0, 1};
        for (unsigned ch = 0; ch < 2; ch++) {
            mlc_msg_t m;
            memset(&m, 0, sizeof m);
            while (mlc_host_recv(side ? P->ha : P->hb, ch, &m)) {
                ok &= idx[ch] < 60 && mlc_msg_eq(&m, &sent[side][idx[ch]]);
                idx[ch] += 2;
                got++;
                mlc_msg_free(&m);
            }
        }
    }
    check(ok && got == 120, "config changes in flight: 120 messages arrive whole, in order (got %u)", got);
    pair_free(P);
}

/* docs/mlc.md, sendable units: message-based max(0, tmsgend - ack). A sends units 0..2 of a 6-unit
 * Type1 message in pipelined mode (B accepts them), then switches to message-based mode: nothing is
 * sendable (tmsgend 0 < ack 3) until the message ends; then its last 3 units go. */
static void test_msg_switch(void)
{
    mlc_params_t pa = params(4, 1024, 1, 1, 1024), pb = params(4, 1024, 1, 0, 1024);
    pair_t *P = pair_new(&pa, &pb, 0, 2001, 0);
    for (unsigned j = 0; j < 24; j++) /* units 0..2: header (Type1), PC = 6, one data unit */
        put_write(P->sa, 1 + j, 0, (uint16_t)(j == 0 ? 1 : (j == 8 ? 6 : j)));
    set_cfg(P->sa, 600, MLC_CFG_MSG);
    for (unsigned j = 24; j < 48; j++) /* units 3..5: the message ends */
        put_write(P->sa, 1201 + (j - 24), 0, (uint16_t)j);
    pair_run(P, 599);
    const uint64_t tx0 = mlc_counter(P->a, MLC_CTR_TX_PKTS);
    check(mlc_counter(P->b, MLC_CTR_RX_PKTS) == 3, "msg switch: B accepted units 0..2 in pipelined mode by 599");
    pair_run(P, 1200);
    check(mlc_counter(P->b, MLC_CTR_RX_PKTS) == 3 && mlc_counter(P->a, MLC_CTR_TX_PKTS) == tx0,
          "msg switch: after the switch to message-based mode in 600 nothing is sendable before the message "
          "ends (B %u units, A sent %u more)", (unsigned)mlc_counter(P->b, MLC_CTR_RX_PKTS),
          (unsigned)(mlc_counter(P->a, MLC_CTR_TX_PKTS) - tx0));
    pair_run(P, 2000);
    check(mlc_counter(P->b, MLC_CTR_RX_PKTS) == 6, "msg switch: its last 3 units go once the message ends (B %u)",
          (unsigned)mlc_counter(P->b, MLC_CTR_RX_PKTS));
    pair_free(P);
}

/* ================================================================ check errors and recovery */

/* A nibble of A's 2-unit data frame (after steps 24..95) corrupted at B: B drops it (err_check,
 * judged in 97), its reply (99) has E 0, A judges it in 108: E != T -> retx 2, resend; A builds at
 * 110 with floor(109/8) = 13 units from unit 0 again, T = 1 (F 424); B accepts them in 535. */
static void test_corrupt_data(void)
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
static void test_corrupt_reply(void)
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
static void test_corrupt_fields(void)
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

/* ---------------------------------------------------------------- hand-made frames into B */

/* puts a frame of nibbles on B's rx from step k (LINK_W 4); returns the step after its last symbol */
static uint64_t put_frame_b(pair_t *P, uint64_t k, const uint8_t *nib, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        P->sb[k + i].rx_en = 1;
        P->sb[k + i].rx_d = nib[i];
    }
    return k + n;
}

static unsigned mk_frame(uint8_t *f, unsigned np, unsigned ch, unsigned T, unsigned E, unsigned seed)
{
    unsigned n = 0;
    f[n++] = (uint8_t)np;
    f[n++] = (uint8_t)(ch | (T << 1) | (E << 2));
    f[n++] = 15;
    f[n++] = 15;
    for (unsigned u = 0; u < np; u++)
        for (unsigned i = 0; i < 32; i++)
            f[n++] = (uint8_t)((i == 0 || i == 1) ? 0 : ((seed + u * 5 + i) & 15u)); /* byte 0 = 0: Type0 */
    return add_check(f, n);
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
static void test_handmade(void)
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
static void test_guard_pulse(void)
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
static void test_double_talk(void)
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

static void test_guard_edges(void)
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
static void test_guard_free(void)
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

static void test_guard_sweep(void)
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
static void test_timeout(void)
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

/* ================================================================ host port, register port */

static void test_ports(void)
{
    mlc_params_t pa = params(4, 256, 1, 1, 1024), pb = params(4, 256, 1, 0, 1024);
    pair_t *P = pair_new(&pa, &pb, 0, 400, 0);
    /* 30 writes into ch1 of A in steps 1..30 (A's first data frame at 24 takes 2 of its units; they
     * are acknowledged only in 108), register reads in 6..11 */
    for (unsigned k = 1; k <= 30; k++)
        put_write(P->sa, k, 1, (uint16_t)k);
    P->sa[5].h_rd = 1; /* read with nothing available */
    P->sa[6].reg_rd = 1;
    P->sa[6].reg_addr = MLC_REG_TX_SPACE(1);
    P->sa[7].reg_rd = 1;
    P->sa[7].reg_addr = MLC_CTR_RD_UNDER;
    P->sa[8].reg_rd = 1;
    P->sa[8].reg_addr = 25;
    P->sa[9].reg_wr = 1;
    P->sa[9].reg_addr = MLC_REG_CFG;
    P->sa[9].reg_wdata = 0xFFFF;
    P->sa[9].reg_rd = 1;
    P->sa[10].reg_rd = 1;
    P->sa[10].reg_addr = MLC_REG_CFG;
    P->sa[10].reg_addr = MLC_REG_CFG;
    P->sa[9].reg_addr = MLC_REG_CFG;
    P->sa[11].reg_rd = 1;
    P->sa[11].reg_addr = MLC_CTR_TX_FRAMES;
    P->sa[31].reg_rd = 1;
    P->sa[31].reg_addr = MLC_REG_LINK;
    pair_run(P, 40);
    check(P->ta[1].st_tx_space[1] == 254 && P->ta[30].st_tx_space[1] == 256 - 60 && P->ta[30].st_tx_space[0] == 256,
          "ports: st_tx_space1 254 after the first word, 196 after 30");
    check(!P->ta[5].h_rvalid && mlc_counter(P->a, MLC_CTR_RD_UNDER) == 1, "ports: read with nothing available refused");
    check(P->ta[6].reg_rvalid && P->ta[6].reg_rdata == 256 - 10 && !P->ta[5].reg_rvalid && !P->ta[7].h_rvalid,
          "ports: register read answered in the same step with the value after the step before (246)");
    check(P->ta[7].reg_rdata == 1, "ports: counter rd_under reads 1");
    check(P->ta[8].reg_rdata == MLC_RDATA_ERROR, "ports: unmapped address reads 0x80000000");
    check(P->ta[9].reg_rdata == 0 && P->ta[10].reg_rdata == 7, "ports: config read old value with the write, 7 after");
    check(P->ta[11].reg_rdata == 1, "ports: tx_frames reads 1 (A's frame of step 2)");
    /* after step 30: the configuration written in step 9 (7: message-based, 64-byte packets) holds
     * back ch1's words (word 0 of unit 0 is 1: a Type1 whose PC, word 0 of unit 1, is 9: incomplete),
     * so A's frame at 24..31 is null: SEND, good 1, oval 0, tack 0, E_mine 0, crx 15/15 */
    check(P->ta[31].reg_rdata == (1u | (15u << 4) | (15u << 8) | (1u << 12)),
          "ports: link state register 0x1FF1 during A's null frame at 24 (got 0x%X)", (unsigned)P->ta[31].reg_rdata);
    pair_free(P);

    /* write refused when full: 256-byte FIFO, no link progress (B erased) */
    P = pair_new(&pa, &pb, 0, 400, 0);
    P->erase_from[1] = 1;
    P->erase_to[1] = 399;
    for (unsigned k = 1; k <= 130; k++)
        put_write(P->sa, k, 0, (uint16_t)k);
    pair_run(P, 140);
    check(P->ta[128].st_tx_space[0] == 0 && mlc_counter(P->a, MLC_CTR_WR_OVER) == 2,
          "ports: 128 words fill 256 bytes, 2 more refused (wr_over 2)");
    pair_free(P);
}

/* mlc_reset mid-traffic gives the reset state: same outputs as a fresh model */
static void test_reset(void)
{
    mlc_params_t pa = params(4, 512, 2, 1, 64), pb = params(4, 512, 2, 0, 64);
    pair_t *P = pair_new(&pa, &pb, 1, 0, 1);
    uint8_t d[64] = {1};
    mlc_msg_t m = {1, 0, 1, 0, 0, 60, d};
    for (int i = 0; i < 5; i++)
        mlc_host_send(P->ha, 0, &m);
    pair_run(P, 777);
    mlc_reset(P->a);
    mlc_t *f = mlc_new(&P->pa);
    mlc_in_t in;
    memset(&in, 0, sizeof in);
    int ok = mlc_steps(P->a) == 0;
    for (unsigned k = 0; k < 50; k++) {
        mlc_out_t o1, o2;
        mlc_step(P->a, &in, &o1);
        mlc_step(f, &in, &o2);
        ok &= memcmp(&o1, &o2, sizeof o1) == 0;
    }
    for (unsigned c = 0; c < MLC_NCTR; c++)
        ok &= mlc_counter(P->a, c) == mlc_counter(f, c);
    check(ok, "reset: a reset model behaves as a new one");
    mlc_free(f);
    pair_free(P);
    check(strcmp(mlc_counter_name(MLC_CTR_ERR_CHECK), "err_check") == 0 && strcmp(mlc_counter_name(99), "?") == 0,
          "counter names");
}

/* ================================================================ efficiency (docs/mlc.md, Efficiency) */

/* One long Type1 message A -> B, Network Burst, pipelined, B sending null frames. In the steady
 * state every period is F(15) + F(0) + 2G steps and carries 480 nibbles: the measured efficiency
 * over the run of full frames must equal 480 * 4 / (LINK_W * (F(15) + F(0) + 2G)) exactly. */
static void test_efficiency(void)
{
    static const unsigned sets[][3] = {{4, 1, 0}, {4, 0, 0}, {4, 2, 2}, {8, 1, 0}, {8, 0, 0}, {8, 0, 3}, {4, 5, 7}};
    for (unsigned s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        unsigned lw = sets[s][0], turn = sets[s][1], LD = sets[s][2];
        mlc_params_t pa = params(lw, 2048, turn, 1, 1024), pb = params(lw, 2048, turn, 0, 1024);
        pair_t *P = pair_new(&pa, &pb, LD, 0, 1);
        static uint8_t data[60000];
        for (unsigned i = 0; i < sizeof data; i++)
            data[i] = (uint8_t)(i ^ (i >> 8));
        mlc_msg_t m = {1, 0, 1, 0, 0, 60000, data};
        mlc_host_send(P->ha, 0, &m);
        unsigned units = mlc_msg_units(&m);
        uint64_t *st = xcalloc(units + 64, sizeof(uint64_t));
        unsigned *np = xcalloc(units + 64, sizeof(unsigned));
        unsigned nf = 0, b_data = 0;
        uint8_t pa_en = 0, pb_en = 0;
        uint64_t limit = (uint64_t)units / 15 * 600 + 20000;
        while (P->k < limit && mlc_counter(P->b, MLC_CTR_RX_PKTS) < units) {
            pair_step(P);
            if (P->oa.tx_en && !pa_en && nf < units + 64) {
                st[nf] = P->k;
                np[nf++] = P->oa.tx_d & 15u;
            }
            if (P->ob.tx_en && !pb_en && (P->ob.tx_d & 15u) != 0)
                b_data++;
            pa_en = P->oa.tx_en;
            pb_en = P->ob.tx_en;
        }
        /* the run of full frames: first and last frame with 15 units, all between full */
        unsigned i0 = 0, i1 = 0;
        while (i0 < nf && np[i0] != 15)
            i0++;
        i1 = i0;
        while (i1 + 1 < nf && np[i1 + 1] == 15)
            i1++;
        if (i0 >= nf)
            i0 = i1 = 0; /* no full frame at all: N = 0 fails below */
        unsigned F15 = mlc_frame_symbols(&pa, 15), F0 = mlc_frame_symbols(&pa, 0), G = G_of(LD, turn);
        unsigned period = F15 + F0 + 2 * G;
        unsigned N = i1 - i0;
        int ok = N > 200;
        for (unsigned i = i0; i < i1; i++)
            ok &= st[i + 1] - st[i] == period;
        check(ok, "efficiency LINK_W %u TURN %u LINK_DELAY %u: %u full frames, each period %u steps", lw, turn, LD, N,
              period);
        double meas = N ? (480.0 * 4.0 * N) / ((double)lw * (double)(st[i1] - st[i0])) : 0.0;
        double formula = 480.0 / (496.0 + 2.0 * G * lw / 4.0);
        check(N && (st[i1] - st[i0]) == (uint64_t)N * period,
              "efficiency LINK_W %u TURN %u LINK_DELAY %u: measured %.4f %% = formula 480/(496 + 2G*LINK_W/4) = %.4f %%",
              lw, turn, LD, 100.0 * meas, 100.0 * formula);
        check(meas == formula || (meas - formula < 1e-12 && formula - meas < 1e-12), "efficiency: measured == formula (%.6f, %.6f)",
              meas, formula);
        if (lw == 4 && G <= 4)
            check(meas >= 0.95, "efficiency LINK_W 4, G %u <= 4: >= 95 %% (%.2f %%)", G, 100.0 * meas);
        if (lw == 8 && G <= 2)
            check(meas >= 0.95, "efficiency LINK_W 8, G %u <= 2: >= 95 %% (%.2f %%)", G, 100.0 * meas);
        if (lw == 4 && turn == 1 && LD == 0)
            check(st[i1] - st[i0] == (uint64_t)N * 502, "efficiency at the defaults: 480 / 502 = 95.62 %%");
        check(b_data == 0, "efficiency: B sent only null frames");
        /* the message arrives whole */
        pair_run(P, P->k + 20000);
        mlc_msg_t r;
        memset(&r, 0, sizeof r);
        int got = mlc_host_recv(P->hb, 0, &r);
        check(got && mlc_msg_eq(&r, &m), "efficiency: the %u-unit message arrives whole", units);
        if (got)
            mlc_msg_free(&r);
        free(st);
        free(np);
        pair_free(P);
    }
}

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
    ring_t exp[2][2]; /* mlc_msg_t sent by side s on channel c, not yet received (sw/ring.h) */
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

static void test_random(uint64_t seed0, uint64_t total)
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

static uint64_t opt_seed = 1, opt_cycles = 1000000;

static void start(void) { printf("mlc_unit: seed %" PRIu64 ", %" PRIu64 " random cycles\n", opt_seed, opt_cycles); }

static void test_random_opts(void) { test_random(opt_seed, opt_cycles); }

static const unit_opt_t opts[] = {
    {"--seed", &opt_seed, "first seed of the random test (default 1)"},
    {"--cycles", &opt_cycles, "total random-test cycles (default 1000000)"},
};

static const unit_test_t tests[] = {
    {"params", test_params},
    {"crc_reference", test_crc_reference},
    {"null_frames", test_null_frames},
    {"turn_timing", test_turn_timing},
    {"one_packet", test_one_packet},
    {"latency", test_latency},
    {"credit_limit", test_credit_limit},
    {"burst", test_burst},
    {"modes", test_modes},
    {"straddle", test_straddle},
    {"cfg_changes", test_cfg_changes},
    {"msg_switch", test_msg_switch},
    {"messages", test_messages},
    {"corrupt_data", test_corrupt_data},
    {"corrupt_reply", test_corrupt_reply},
    {"corrupt_fields", test_corrupt_fields},
    {"handmade", test_handmade},
    {"guard_pulse", test_guard_pulse},
    {"double_talk", test_double_talk},
    {"guard_edges", test_guard_edges},
    {"guard_free", test_guard_free},
    {"guard_sweep", test_guard_sweep},
    {"timeout", test_timeout},
    {"ports", test_ports},
    {"reset", test_reset},
    {"efficiency", test_efficiency},
    {"random", test_random_opts},
};

int main(int argc, char **argv)
{
    static const unit_suite_t suite = {"mlc_unit", "Unit tests of the Maestro Link Controller C model (cmodel/mlc.c) against docs/mlc.md.",
                                       tests, sizeof tests / sizeof tests[0], opts, sizeof opts / sizeof opts[0], start};
    return unit_main(&suite, argc, argv);
}

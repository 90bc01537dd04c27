/* sanfab — mlc_unit's harness (mlc_unit.h): the reference check (docs/mlc.md, Frames), two MLCs
 * joined by the link model with their hosts, the frames seen on one end's tx, stimulus. */
#include "mlc_unit.h"

void *xcalloc(size_t n, size_t sz)
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
unsigned ref_crc(const uint8_t *nib, unsigned n)
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
unsigned add_check(uint8_t *nib, unsigned n)
{
    unsigned c = ref_crc(nib, n);
    for (unsigned i = 0; i < 4; i++)
        nib[n + i] = (uint8_t)((c >> (12 - 4 * i)) & 15u);
    return n + 4;
}

pair_t *pair_new(const mlc_params_t *pa, const mlc_params_t *pb, unsigned LD, size_t maxs, int hosts)
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

void pair_free(pair_t *P)
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

void pair_flip(pair_t *P, uint64_t step, unsigned to_b, uint8_t xor_d)
{
    if (P->nflips < 64)
        P->flips[P->nflips++] = (flip_t){step, to_b, xor_d};
}

void pair_step(pair_t *P)
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

void pair_run(pair_t *P, uint64_t upto)
{
    while (P->k < upto)
        pair_step(P);
}

/* frames on the trace of side (0 A, 1 B) up to step P->k; returns how many (at most max) */
unsigned frames_of(const pair_t *P, unsigned side, frame_t *fr, unsigned max)
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

int nib_eq(const uint8_t *a, const uint8_t *b, unsigned n) { return memcmp(a, b, n) == 0; }

void print_nibs(const char *what, const uint8_t *n, unsigned len)
{
    printf("  %s:", what);
    for (unsigned i = 0; i < len && i < 60; i++)
        printf(" %X", n[i]);
    printf(len > 60 ? " ...\n" : "\n");
}

/* host stimulus: one word write in step k */
void put_write(mlc_in_t *s, uint64_t k, unsigned ch, uint16_t w)
{
    s[k].h_wr = 1;
    s[k].h_wch = (uint8_t)ch;
    s[k].h_wdata = w;
}

/* the unit of test_one_packet: byte i = i * 0x11 (byte 0 = 0: a Type0 header), words from step k */
void put_unit_ii(mlc_in_t *s, uint64_t k, unsigned ch)
{
    for (unsigned j = 0; j < 8; j++) {
        unsigned b0 = (2 * j) * 0x11u, b1 = (2 * j + 1) * 0x11u;
        put_write(s, k + j, ch, (uint16_t)(b0 | (b1 << 8)));
    }
}

mlc_params_t params(unsigned lw, unsigned fifo, unsigned turn, unsigned master, unsigned timeout)
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
unsigned G_of(unsigned LD, unsigned turn) { return 2 + LD + turn; }

/* writes `units` Type0 units (word 0 = 0: Type0) into side's ch from step k, one word per step */
uint64_t put_units(mlc_in_t *s, uint64_t k, unsigned ch, unsigned units)
{
    for (unsigned u = 0; u < units; u++)
        for (unsigned j = 0; j < 8; j++)
            put_write(s, k++, ch, (uint16_t)(j == 0 ? ((u & 0x7Fu) << 9) : (u * 8 + j)));
    return k;
}

void set_cfg(mlc_in_t *s, uint64_t k, unsigned v)
{
    s[k].reg_wr = 1;
    s[k].reg_addr = MLC_REG_CFG;
    s[k].reg_wdata = (uint16_t)v;
}

/* ---------------------------------------------------------------- hand-made frames into B */

/* puts a frame of nibbles on B's rx from step k (LINK_W 4); returns the step after its last symbol */
uint64_t put_frame_b(pair_t *P, uint64_t k, const uint8_t *nib, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        P->sb[k + i].rx_en = 1;
        P->sb[k + i].rx_d = nib[i];
    }
    return k + n;
}

unsigned mk_frame(uint8_t *f, unsigned np, unsigned ch, unsigned T, unsigned E, unsigned seed)
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

/* sanfab — sbox_unit: parameter checks, the register port (box alone), counter wrap and reset
 * (run from the table of sbox_unit.c; the helpers they call are in sbox_unit_fab.c). */
#include "sbox_unit.h"

/* ================================================================ parameters */

void test_params(void)
{
    sbox_params_t p = bparams(8, 16);
    char e[200];
    check(sbox_params_check(&p, e, sizeof e) == 0, "params: defaults valid");
    struct {
        unsigned field, value;
        const char *word;
    } bad[] = {{0, 1, "PORTS"},     {0, 9, "PORTS"},      {1, 0, "NODES"},   {1, 17, "NODES"},
               {2, 5, "LINK_W"},    {3, 100, "FIFO_BYTES"}, {4, 16, "TURN"},  {5, 15, "TIMEOUT"},
               {5, 65536, "TIMEOUT"}, {6, 7, "CTR_W"},    {6, 33, "CTR_W"},  {7, 256, "MASTER_MASK"}};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sbox_params_t q = bparams(8, 16);
        unsigned *f[] = {&q.PORTS, &q.NODES, &q.LINK_W, &q.FIFO_BYTES, &q.TURN, &q.TIMEOUT, &q.CTR_W, &q.MASTER_MASK};
        *f[bad[i].field] = bad[i].value;
        e[0] = 0;
        int r = sbox_params_check(&q, e, sizeof e);
        check(r == -1 && strstr(e, bad[i].word), "params: %s = %u refused, naming it (%s)", bad[i].word, bad[i].value, e);
        sbox_t *b = sbox_new(&q);
        check(b == NULL, "params: sbox_new refuses %s = %u", bad[i].word, bad[i].value);
        sbox_free(b);
    }
    sbox_params_t q = bparams(3, 1);
    q.MASTER_MASK = 8;
    check(sbox_params_check(&q, NULL, 0) == -1, "params: MASTER_MASK 2^PORTS refused (PORTS 3), err NULL allowed");
    q.MASTER_MASK = 7;
    check(sbox_params_check(&q, e, sizeof e) == 0, "params: MASTER_MASK 2^PORTS-1 valid");
    sbox_params_t edge[] = {bparams(2, 1), bparams(8, 16)};
    edge[0].LINK_W = 8;
    edge[0].FIFO_BYTES = 256;
    edge[0].TURN = 0;
    edge[0].TIMEOUT = 0;
    edge[0].CTR_W = 8;
    edge[1].FIFO_BYTES = 4096;
    edge[1].TURN = 15;
    edge[1].TIMEOUT = 65535;
    edge[1].CTR_W = 32;
    edge[1].MASTER_MASK = 255;
    for (unsigned i = 0; i < 2; i++) {
        check(sbox_params_check(&edge[i], e, sizeof e) == 0, "params: edge set %u valid", i);
        sbox_t *b = sbox_new(&edge[i]);
        check(b != NULL && sbox_mlc(b, edge[i].PORTS - 1) != NULL && sbox_mlc(b, edge[i].PORTS) == NULL,
              "params: edge set %u built, PORTS MLCs", i);
        check(b && sbox_counter(b, 0) == 0 && sbox_counter(b, SBOX_NCTR) == 0, "params: counters 0, index 8 gives 0");
        if (b) { /* the benches' test-only preset: wrapped to CTR_W, index 8 ignored */
            uint64_t top = (1ull << edge[i].CTR_W) - 1u;
            sbox_ctr_preset(b, SBOX_CTR_WORDS, top + 6u);
            sbox_ctr_preset(b, SBOX_CTR_ERR_MSG, top);
            sbox_ctr_preset(b, SBOX_NCTR, 7u);
            check(sbox_counter(b, SBOX_CTR_WORDS) == 5u && sbox_counter(b, SBOX_CTR_ERR_MSG) == top &&
                      sbox_counter(b, SBOX_NCTR) == 0,
                  "params: sbox_ctr_preset wraps to CTR_W %u, index 8 ignored", edge[i].CTR_W);
        }
        sbox_free(b);
    }
    char small[6];
    q.PORTS = 0;
    check(sbox_params_check(&q, small, sizeof small) == -1 && strlen(small) == 5, "params: message cut to n bytes");
    check(sbox_params_check(NULL, e, sizeof e) == -1, "params: NULL refused");
    sbox_free(NULL);
}

/* ================================================================ register port (box alone) */

typedef struct {
    sbox_t *b;
    sbox_out_t o;
    uint64_t k;
} one_t;

static void one_step(one_t *B, unsigned rd, unsigned wr, unsigned addr, unsigned wdata)
{
    sbox_in_t in;
    memset(&in, 0, sizeof in);
    in.reg_rd = (uint8_t)rd;
    in.reg_wr = (uint8_t)wr;
    in.reg_addr = (uint16_t)addr;
    in.reg_wdata = (uint16_t)wdata;
    sbox_step(B->b, &in, &B->o);
    B->k++;
}

/* a read in step r answered after r+1; returns the value (checks rvalid after r 0 when nothing was read in r-1) */
static uint32_t one_read(one_t *B, unsigned addr)
{
    one_step(B, 1, 0, addr, 0);
    int quiet = B->o.reg_rvalid == 0 && B->o.reg_rdata == 0;
    one_step(B, 0, 0, 0, 0);
    check(quiet && B->o.reg_rvalid == 1, "regs: read of 0x%03X: nothing after r, answer after r+1", addr);
    return B->o.reg_rdata;
}

void test_regs(void)
{
    sbox_params_t p = bparams(4, 6);
    p.MASTER_MASK = 1; /* port 0's MLC is a master: it sends null frames (tx_frames counts) */
    p.TIMEOUT = 0;
    one_t B = {sbox_new(&p), {{0}, {0}, 0, 0}, 0};
    /* step 1: read of the up port; nothing after step 1, the answer after step 2 */
    one_step(&B, 1, 0, SBOX_REG_UP, 0);
    check(B.o.reg_rvalid == 0 && B.o.reg_rdata == 0, "regs: nothing after step r");
    one_step(&B, 0, 0, 0, 0);
    check(B.o.reg_rvalid == 1 && B.o.reg_rdata == 0, "regs: up port 0 (none) after reset, after step r+1");
    one_step(&B, 0, 0, 0, 0);
    check(B.o.reg_rvalid == 0 && B.o.reg_rdata == 0, "regs: rvalid 0, rdata 0 without a read");
    /* read and write in one step w: the read returns the old value; a read in w+1 the new one */
    one_step(&B, 1, 1, SBOX_REG_UP, 0x13);   /* w */
    one_step(&B, 1, 0, SBOX_REG_UP, 0);      /* w+1: answer of w */
    check(B.o.reg_rvalid == 1 && B.o.reg_rdata == 0, "regs: read and write in one step: old value");
    one_step(&B, 0, 0, 0, 0);
    check(B.o.reg_rvalid == 1 && B.o.reg_rdata == 0x13, "regs: write of step w seen by a read in w+1 (0x%X)", B.o.reg_rdata);
    one_step(&B, 0, 1, SBOX_REG_UP, 0x14); /* port 4 >= PORTS: ignored */
    check(one_read(&B, SBOX_REG_UP) == 0x13, "regs: up port write with port >= PORTS ignored");
    one_step(&B, 0, 1, SBOX_REG_UP, 0xFFE0); /* bits 4..0 = 0: none */
    check(one_read(&B, SBOX_REG_UP) == 0, "regs: up port none (bits 4..0 of reg_wdata)");
    /* table */
    for (unsigned d = 0; d < 6; d++)
        check(one_read(&B, SBOX_REG_TABLE(d)) == 0, "regs: table entry %u invalid after reset", d);
    check(one_read(&B, SBOX_REG_TABLE(6)) == SBOX_RDATA_ERROR && one_read(&B, SBOX_REG_TABLE(15)) == SBOX_RDATA_ERROR,
          "regs: table entry >= NODES reads 0x80000000");
    one_step(&B, 0, 1, SBOX_REG_TABLE(6), 0x11);
    check(one_read(&B, SBOX_REG_TABLE(6)) == SBOX_RDATA_ERROR, "regs: table write >= NODES ignored");
    one_step(&B, 1, 1, SBOX_REG_TABLE(5), 0x13);
    one_step(&B, 1, 1, SBOX_REG_TABLE(5), 0x15); /* port 5 >= PORTS: ignored */
    check(B.o.reg_rvalid && B.o.reg_rdata == 0, "regs: table read+write same step: old value");
    one_step(&B, 0, 0, 0, 0);
    check(B.o.reg_rvalid && B.o.reg_rdata == 0x13, "regs: table entry written (0x%X), bad port ignored", B.o.reg_rdata);
    one_step(&B, 0, 1, SBOX_REG_TABLE(5), 0x02);
    check(one_read(&B, SBOX_REG_TABLE(5)) == 0x02, "regs: table entry invalidated (bit 4 and bits 2..0 as written)");
    one_step(&B, 0, 1, SBOX_REG_TABLE(5), 0xFF1A); /* bit 3 and bits 15..5 are not stored */
    check(one_read(&B, SBOX_REG_TABLE(5)) == 0x12, "regs: table entry keeps bit 4 and bits 2..0 only");
    one_step(&B, 0, 1, SBOX_REG_UP, 0x0A);          /* not valid: bit 3 dropped, port kept */
    check(one_read(&B, SBOX_REG_UP) == 0x02, "regs: up port keeps bit 4 and bits 2..0 only");
    one_step(&B, 0, 1, SBOX_REG_UP, 0);
    /* counters, barriers, holes */
    for (unsigned i = 0; i < SBOX_NCTR; i++)
        check(one_read(&B, SBOX_REG_CTR(i)) == 0, "regs: counter %u 0", i);
    check(one_read(&B, SBOX_REG_BAR(0)) == 0 && one_read(&B, SBOX_REG_BAR(1)) == 0, "regs: barriers 0");
    static const unsigned holes[] = {0x108, 0x10F, 0x113, 0x11F, 0x130, 0x1FF, 0x140};
    for (unsigned i = 0; i < sizeof holes / sizeof holes[0]; i++) {
        one_step(&B, 0, 1, holes[i], 0x11);
        check(one_read(&B, holes[i]) == SBOX_RDATA_ERROR, "regs: 0x%03X reads 0x80000000", holes[i]);
    }
    /* MLC pass-through: configuration of MLC 2 written in w; read in w old, in w+1 new */
    one_step(&B, 1, 1, SBOX_REG_MLC(2, MLC_REG_CFG), 0x5);
    one_step(&B, 1, 0, SBOX_REG_MLC(2, MLC_REG_CFG), 0);
    check(B.o.reg_rvalid && B.o.reg_rdata == 0, "regs: MLC 2 cfg read+write same step: old value");
    one_step(&B, 0, 0, 0, 0);
    check(B.o.reg_rvalid && B.o.reg_rdata == 5, "regs: MLC 2 cfg written through the box (0x%X)", B.o.reg_rdata);
    check(one_read(&B, SBOX_REG_MLC(1, MLC_REG_CFG)) == 0, "regs: MLC 1 cfg untouched");
    check(one_read(&B, SBOX_REG_MLC(3, MLC_REG_TX_SPACE(1))) == 2048, "regs: MLC 3 tx_space1 = FIFO_BYTES");
    check(one_read(&B, SBOX_REG_MLC(3, 21)) == SBOX_RDATA_ERROR, "regs: MLC register 21 reads 0x80000000 (the MLC's)");
    check(one_read(&B, SBOX_REG_MLC(4, MLC_REG_CFG)) == SBOX_RDATA_ERROR &&
              one_read(&B, SBOX_REG_MLC(7, 0)) == SBOX_RDATA_ERROR,
          "regs: MLC p >= PORTS reads 0x80000000");
    one_step(&B, 0, 1, SBOX_REG_MLC(4, MLC_REG_CFG), 1); /* ignored; nothing to see but no effect */
    check(one_read(&B, SBOX_REG_MLC(0, MLC_REG_CFG)) == 0, "regs: write to MLC 4 (>= PORTS) reaches no MLC");
    sbox_free(B.b);

    /* pass-through value timing: MLC 0 (master, TURN 1) starts its first frame in step 2
     * (tx_frames 1 after step 2). A read in step r answers after r+1 with the value after r-1. */
    B.b = sbox_new(&p);
    B.k = 0;
    one_step(&B, 1, 0, SBOX_REG_MLC(0, MLC_CTR_TX_FRAMES), 0); /* r = 1: value after 0 */
    one_step(&B, 1, 0, SBOX_REG_MLC(0, MLC_CTR_TX_FRAMES), 0); /* r = 2: value after 1; answer of r = 1 */
    check(B.o.reg_rvalid && B.o.reg_rdata == 0 && B.o.tx_en[0] == 1, "regs: MLC 0 tx_frames after 0 = 0 (frame starts in 2)");
    one_step(&B, 1, 0, SBOX_REG_MLC(0, MLC_CTR_TX_FRAMES), 0); /* r = 3: value after 2 */
    check(B.o.reg_rvalid && B.o.reg_rdata == 0, "regs: MLC 0 tx_frames read in 2 = value after 1 = 0");
    one_step(&B, 0, 0, 0, 0);
    check(B.o.reg_rvalid && B.o.reg_rdata == 1, "regs: MLC 0 tx_frames read in 3 = value after 2 = 1 (%u)", B.o.reg_rdata);
    check(mlc_counter(sbox_mlc(B.b, 0), MLC_CTR_TX_FRAMES) == 1, "regs: sbox_mlc gives the port's MLC");
    /* a read pending across a reset is not answered */
    one_step(&B, 1, 0, SBOX_REG_UP, 0);
    sbox_reset(B.b);
    one_step(&B, 0, 0, 0, 0);
    check(B.o.reg_rvalid == 0 && B.o.reg_rdata == 0, "regs: reset drops the pending answer");
    sbox_free(B.b);
}

/* ================================================================ counters wrap, reset */

void test_wrap_reset(void)
{
    sbox_params_t bp = bparams(3, 3);
    bp.CTR_W = 8;
    bp.LINK_W = 8;
    fab_t *F = star(bp);
    /* one Type1 of 40 units (320 words) and 260 Type0 messages (2080 words): words 2400 mod 256 = 96,
     * msgs 261 mod 256 = 5 */
    mlc_msg_t L = mk_msg(1, 0, 1, 0, 0, 23 + 38 * 16, 1);
    check(mlc_msg_units(&L) == 40, "wrap: 40 units");
    send(F, 0, 0, &L);
    mlc_msg_t s = mk_msg(0, 0, 2, 0, 0, 0, 2);
    for (unsigned i = 0; i < 260; i++)
        send(F, 0, 1, &s);
    int ok = run_until_got(F, 1, 1, 20000) && run_until_got(F, 2, 260, 200000) && got_eq(F, 1, 0, &L, NULL);
    for (unsigned i = 0; i < 260; i++)
        ok &= got_eq(F, 2, 1, &s, NULL);
    check(ok, "wrap: all delivered");
    check(ctr(F, 0, SBOX_CTR_WORDS) == 96 && ctr(F, 0, SBOX_CTR_MSGS) == 5, "wrap: CTR_W 8: words 96, msgs 5 (%" PRIu64 ", %" PRIu64 ")",
          ctr(F, 0, SBOX_CTR_WORDS), ctr(F, 0, SBOX_CTR_MSGS));
    check(fab_rd(F, 0, SBOX_REG_CTR(SBOX_CTR_WORDS)) == 96 && fab_rd(F, 0, SBOX_REG_CTR(SBOX_CTR_MSGS)) == 5,
          "wrap: the register port reads the wrapped counters");
    check(fab_rd(F, 0, SBOX_REG_MLC(2, MLC_CTR_TX_PKTS)) == 260 % 256 + 0, "wrap: MLC counters wrap at CTR_W too");
    /* reset: everything back to 0, and the box works again */
    fab_wr(F, 0, SBOX_REG_UP, 0x12);
    fab_wr(F, 0, SBOX_REG_MLC(1, MLC_REG_CFG), 2);
    sbox_reset(F->box[0]);
    ok = 1;
    for (unsigned i = 0; i < SBOX_NCTR; i++)
        ok &= sbox_counter(F->box[0], i) == 0;
    for (unsigned q = 0; q < 3; q++)
        ok &= mlc_counter(sbox_mlc(F->box[0], q), MLC_CTR_RX_PKTS) == 0 && mlc_steps(sbox_mlc(F->box[0], q)) == 0;
    check(ok, "reset: counters 0, MLCs at step 0");
    /* the nodes are reset too (the links start over) */
    for (unsigned i = 0; i < F->nnode; i++) {
        mlc_reset(F->node[i]);
        memset(&F->nin[i], 0, sizeof F->nin[i]);
        memset(&F->nout[i], 0, sizeof F->nout[i]);
        for (unsigned c = 0; c < 2; c++)
            F->nout[i].st_tx_space[c] = (uint16_t)F->np[i].FIFO_BYTES;
        mlc_link_reset(F->w[i].l);
    }
    memset(&F->bin[0], 0, sizeof F->bin[0]);
    check(fab_rd(F, 0, SBOX_REG_UP) == 0 && fab_rd(F, 0, SBOX_REG_TABLE(1)) == 0 && fab_rd(F, 0, SBOX_REG_BAR(0)) == 0 &&
              fab_rd(F, 0, SBOX_REG_MLC(1, MLC_REG_CFG)) == 0 && fab_rd(F, 0, SBOX_REG_CTR(SBOX_CTR_WORDS)) == 0,
          "reset: up port none, table invalid, barrier 0, MLC configuration 0, counters 0");
    mlc_msg_t x = mk_msg(0, 0, 1, 0, 0, 0, 3);
    send(F, 0, 0, &x);
    fab_run(F, 400);
    check(F->got[1].n == 0 && ctr(F, 0, SBOX_CTR_DROP_ROUTE) == 1, "reset: with the table invalid the message is dropped (%u %" PRIu64 " %u)",
          (unsigned)F->got[1].n, ctr(F, 0, SBOX_CTR_DROP_ROUTE), (unsigned)mlc_counter(sbox_mlc(F->box[0], 0), MLC_CTR_RX_PKTS));
    for (unsigned d = 0; d < 3; d++)
        fab_route(F, 0, d, d);
    send(F, 0, 0, &x);
    check(run_until_got(F, 1, 1, 2000) && got_eq(F, 1, 0, &x, NULL), "reset: after the table is written, delivered");
    check(no_over_under(F), "wrap/reset: no wr_over / rd_under");
    mlc_msg_free(&L);
    mlc_msg_free(&s);
    mlc_msg_free(&x);
    fab_free(F);
}

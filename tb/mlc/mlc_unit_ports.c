/* sanfab — mlc_unit: the host and register ports, reset, efficiency (docs/mlc.md, Efficiency)
 * (run from the table of mlc_unit.c; the helpers they call are in mlc_unit_pair.c). */
#include "mlc_unit.h"

/* ================================================================ host port, register port */

void test_ports(void)
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
void test_reset(void)
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
void test_efficiency(void)
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

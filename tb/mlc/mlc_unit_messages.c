/* sanfab — mlc_unit: messages through the driver, configuration changes, message switching
 * (run from the table of mlc_unit.c; the helpers they call are in mlc_unit_pair.c). */
#include "mlc_unit.h"

/* ================================================================ messages through the driver */

void test_messages(void)
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
void test_cfg_changes(void)
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
void test_msg_switch(void)
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

/* test_net_switch.c - one switch in a network = the crossbar model stepped directly */
#include "test_net.h"

/* ------------------------------------------------------------------ 1: one switch = the crossbar model */

#define DLY 3

typedef struct {
    sf_rng r;
    int pos[NP], len[NP];
    uint8_t crc[NP];
    uint64_t seen[NP][1 << 14]; /* characters arriving at each host, by cycle */
    unsigned ncyc;
} drv_t;

/* an open-loop host: random packets (route byte, body, CRC, GAP, sometimes a bad route byte or an ABORT),
 * random STOP/GO, idles; depends only on its own generator, never on what arrives */
static uint64_t drv_char(drv_t *d, unsigned h)
{
    uint32_t x = sf_rng_below(&d->r, 100);
    if (x < 3)
        return x < 2 ? CH_STOP : CH_GO;
    if (d->pos[h] < 0) {
        if (x < 40)
            return CH_IDLE;
        d->len[h] = 2 + (int)sf_rng_below(&d->r, 120);
        d->pos[h] = 0;
        d->crc[h] = 0;
    }
    int p = d->pos[h]++;
    if (p == 0) {
        uint8_t b = sf_rng_below(&d->r, 50) == 0 ? 0xC0 : ROUTE_BYTE(sf_rng_below(&d->r, NP));
        d->crc[h] = crc8_step(0, b);
        return b;
    }
    if (p < d->len[h]) {
        if (x < 8)
            return CH_IDLE; /* a bubble inside the packet */
        uint8_t b = (uint8_t)sf_rng_below(&d->r, 256);
        d->crc[h] = crc8_step(d->crc[h], b);
        return b;
    }
    if (p == d->len[h])
        return d->crc[h];
    d->pos[h] = -1;
    return x < 5 ? CH_ABORT : CH_GAP;
}

static void drv_nic(void *ctx, uint64_t cycle, unsigned nh, const uint64_t *in_fwd, const uint64_t *in_back, uint64_t *out_fwd,
                    uint64_t *out_back)
{
    (void)in_back;
    drv_t *d = ctx;
    for (unsigned h = 0; h < nh; h++) {
        d->seen[h][cycle] = in_fwd[h];
        out_fwd[h] = drv_char(d, h);
        out_back[h] = 0;
    }
    d->ncyc = (unsigned)cycle;
}

void test_one_switch(void)
{
    static drv_t a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    sf_rng_seed(&a.r, 77);
    sf_rng_seed(&b.r, 77);
    for (int h = 0; h < NP; h++)
        a.pos[h] = b.pos[h] = -1;
    const unsigned C = (1 << 14) - 1;
    xbar_params_t p = xbar_default_params();
    p.SLACK_DEPTH = 40;
    p.STOP_THRESH = 24;
    p.GO_THRESH = 16;
    p.ROUTE_DELAY = 5;
    p.TIMEOUT = 300;
    /* fabric: one switch of NP ports, a host on every port, host links of delay DLY */
    unsigned nports[1] = {NP};
    net_host_desc hosts[NP];
    for (unsigned h = 0; h < NP; h++)
        hosts[h] = (net_host_desc){0, h, DLY};
    net_desc d = {1, 0, NP, nports, NULL, hosts};
    char err[200];
    net_t *n = net_new(&d, &net_xbar_ops, &p, drv_nic, &a, err, sizeof err);
    if (!n) {
        check(0, "fabric: one switch equals direct crossbar stepping", err);
        return;
    }
    for (unsigned k = 0; k < C; k++)
        net_step(n);
    /* reference: the crossbar stepped directly with LINK_DELAY = DLY on its outputs; what the hosts send
     * reaches rx one cycle (the register hop) plus DLY cycles later */
    xbar_params_t q = p;
    q.NPORTS = NP;
    q.LINK_DELAY = DLY;
    xbar_t *m = xbar_new(&q);
    static uint64_t hostout[1 << 14][NP];
    static uint64_t ref_seen[NP][1 << 14];
    xbar_in_t in;
    xbar_out_t out;
    memset(&in, 0, sizeof in);
    uint16_t last_tx[NP];
    for (unsigned h = 0; h < NP; h++)
        last_tx[h] = CH_IDLE;
    for (unsigned k = 1; k <= C; k++) {
        for (unsigned h = 0; h < NP; h++)
            in.rx[h] = (uint16_t)(k >= 2 + DLY ? hostout[k - 1 - DLY][h] : CH_IDLE);
        /* hosts see at cycle k what the switch's port showed after step k-1 */
        for (unsigned h = 0; h < NP; h++)
            ref_seen[h][k] = last_tx[h];
        for (unsigned h = 0; h < NP; h++)
            hostout[k][h] = drv_char(&b, h);
        xbar_step(m, &in, &out);
        for (unsigned h = 0; h < NP; h++)
            last_tx[h] = out.tx[h];
    }
    char msg[300] = "";
    int ok = 1;
    unsigned data = 0;
    for (unsigned k = 1; k <= C && ok; k++)
        for (unsigned h = 0; h < NP; h++) {
            data += CH_IS_DATA(a.seen[h][k]);
            if (a.seen[h][k] != ref_seen[h][k]) {
                snprintf(msg, sizeof msg, "cycle %u host %u: fabric 0x%03llx, crossbar 0x%03llx", k, h,
                         (unsigned long long)a.seen[h][k], (unsigned long long)ref_seen[h][k]);
                ok = 0;
                break;
            }
        }
    for (unsigned port = 0; port < NP && ok; port++)
        for (unsigned c = 0; c < XBAR_NCTR; c++)
            if (net_switch_counter(n, 0, port, c) != xbar_counter(m, port, c)) {
                snprintf(msg, sizeof msg, "counter %s of port %u differs", xbar_counter_name(c), port);
                ok = 0;
            }
    if (ok && data < 1000) {
        snprintf(msg, sizeof msg, "only %u data characters reached the hosts", data);
        ok = 0;
    }
    if (ok && net_counter_total(n, XBAR_CTR_DROP_TIMEOUT) == 0) {
        snprintf(msg, sizeof msg, "the scene never exercised the blocking timeout");
        ok = 0;
    }
    check(ok, "fabric: one switch with host links of delay 3 equals the crossbar stepped directly with LINK_DELAY 3 "
              "(every character at every host for 16383 cycles, every counter)", msg);
    xbar_free(m);
    net_free(n);
}

/* test_net.c - tests of the network simulator: the fabric (cmodel/net.c) against direct crossbar stepping,
 * conservation of messages with up*-down* and ITB routes, ITB pool overflow, NIC flow control, determinism,
 * a cyclic route set cleared by forward resets. Last line: "N passed, M failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link.h"
#include "net.h"
#include "sf_nic.h"
#include "sf_rng.h"
#include "sf_sim.h"
#include "xbar.h"

static int passed, failed;

static void check(int ok, const char *name, const char *detail)
{
    if (ok) {
        passed++;
        printf("PASS %s\n", name);
    } else {
        failed++;
        printf("FAIL %s: %s\n", name, detail);
    }
    fflush(stdout);
}

/* ------------------------------------------------------------------ 1: one switch = the crossbar model */

#define NP 5
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

static void test_one_switch(void)
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

/* ------------------------------------------------------------------ helpers for whole networks */

static sf_sim_net mknet(sf_topo *t, sf_routes *rs)
{
    sf_sim_net n;
    memset(&n, 0, sizeof n);
    n.t = t;
    n.rs = rs;
    snprintf(n.algo, sizeof n.algo, "%s", rs->algo);
    n.cyclic = sf_check_deadlock(rs, n.cycle, sizeof n.cycle);
    return n;
}

typedef struct {
    sf_nic_counts all;
    uint64_t in_flight, queued, timeouts, cycles;
    sf_lat lat;
} runres;

/* build the network and its NICs, generate for `gen` cycles, then drain for at most `drain` cycles */
static int run_net(const sf_sim_cfg *c, const sf_sim_net *sn, double load, uint64_t gen, uint64_t drain, runres *r,
                   char *msg, size_t ml)
{
    const sf_topo *t = sn->t;
    unsigned S = (unsigned)t->nsw, H = (unsigned)t->nhost, NL = (unsigned)sf_topo_nlinks(t);
    sf_nic_params np = c->nic;
    np.rate = load * SF_SIM_NS_PER_CYCLE * S / H / np.msg_size;
    sf_err e;
    sf_nics *nics = sf_nics_new(t, sn->rs, &np, &e);
    if (!nics) {
        snprintf(msg, ml, "%.300s", e.msg);
        return -1;
    }
    unsigned nports[256];
    net_link_desc links[1024];
    net_host_desc hosts[1024];
    for (unsigned s = 0; s < S; s++)
        nports[s] = (unsigned)t->sw[s].nports;
    for (unsigned l = 0; l < NL; l++)
        links[l] = (net_link_desc){(unsigned)t->ch_from[2 * l], (unsigned)t->ch_fport[2 * l], (unsigned)t->ch_to[2 * l],
                                   (unsigned)t->ch_tport[2 * l], c->link_delay};
    for (unsigned h = 0; h < H; h++)
        hosts[h] = (net_host_desc){(unsigned)t->host[h].sw, (unsigned)t->host[h].port, c->host_delay};
    net_desc d = {S, NL, H, nports, links, hosts};
    xbar_params_t xp = xbar_default_params();
    xp.ROUTE_DELAY = c->route_delay;
    xp.TIMEOUT = c->timeout;
    char err[200];
    net_t *n = net_new(&d, &net_xbar_ops, &xp, sf_nics_step, nics, err, sizeof err);
    if (!n) {
        snprintf(msg, ml, "%s", err);
        sf_nics_free(nics);
        return -1;
    }
    sf_nics_window_start(nics, 0);
    for (uint64_t k = 0; k < gen; k++)
        net_step(n);
    sf_nics_generate(nics, 0);
    for (uint64_t k = 0; k < drain; k++) {
        net_step(n);
        if ((k & 1023) == 0 && sf_nics_in_flight(nics) == 0)
            break;
    }
    sf_nics_counts(nics, &r->all, NULL);
    r->in_flight = sf_nics_in_flight(nics);
    r->queued = sf_nics_queued(nics);
    r->timeouts = net_counter_total(n, XBAR_CTR_DROP_TIMEOUT);
    r->cycles = net_cycle(n);
    sf_nics_latency(nics, &r->lat);
    net_free(n);
    sf_nics_free(nics);
    return 0;
}

static void test_conservation(void)
{
    sf_err e;
    sf_topo *t = sf_gen_random(8, 8, 4, 3, &e);
    sf_route_opts o;
    sf_route_opts_default(&o);
    o.seed = 3;
    sf_routes *ud = sf_route_updown(t, &o, &e), *itb = sf_route_itb(t, &o, &e);
    sf_sim_cfg c;
    sf_sim_cfg_default(&c);
    c.nic.msg_size = 64;
    const char *names[2] = {"up*/down*", "ITB"};
    sf_routes *sets[2] = {ud, itb};
    for (int i = 0; i < 2; i++) {
        sf_sim_net sn = mknet(t, sets[i]);
        runres r;
        char msg[400] = "";
        int rc = run_net(&c, &sn, 0.08, 20000, 200000, &r, msg, sizeof msg);
        int ok = rc == 0 && r.all.generated > 500 && r.all.delivered == r.all.generated && r.in_flight == 0 && r.queued == 0 &&
                 r.all.lost_aborted + r.all.lost_crc + r.all.lost_itb_pool + r.all.misrouted + r.all.duplicate == 0 &&
                 r.timeouts == 0;
        if (i == 1)
            ok = ok && r.all.itb_packets > 0 && r.all.itb_reinjected == r.all.itb_packets && r.lat.itbs_per_msg > 0;
        if (!msg[0])
            snprintf(msg, sizeof msg,
                     "generated %llu delivered %llu in flight %llu lost %llu/%llu/%llu misrouted %llu dup %llu timeouts %llu "
                     "ITB %llu/%llu itbs/msg %.3f",
                     (unsigned long long)r.all.generated, (unsigned long long)r.all.delivered, (unsigned long long)r.in_flight,
                     (unsigned long long)r.all.lost_aborted, (unsigned long long)r.all.lost_crc,
                     (unsigned long long)r.all.lost_itb_pool, (unsigned long long)r.all.misrouted,
                     (unsigned long long)r.all.duplicate, (unsigned long long)r.timeouts,
                     (unsigned long long)r.all.itb_packets, (unsigned long long)r.all.itb_reinjected, r.lat.itbs_per_msg);
        char name[200];
        snprintf(name, sizeof name,
                 "conservation, %s on a random 8-switch network near saturation: every message delivered exactly once after the "
                 "drain, nothing lost, no forward reset%s",
                 names[i], i ? "; every in-transit packet re-injected, ITBs counted" : "");
        check(ok, name, msg);
    }
    /* an ITB pool too small for one packet: every in-transit packet is dropped and counted, the rest delivered */
    {
        sf_sim_net sn = mknet(t, itb);
        sf_sim_cfg c2 = c;
        c2.nic.itb_pool = 16;
        runres r;
        char msg[300] = "";
        int rc = run_net(&c2, &sn, 0.02, 20000, 200000, &r, msg, sizeof msg);
        int ok = rc == 0 && r.all.lost_itb_pool > 0 && r.all.itb_packets == 0 &&
                 r.all.delivered + r.all.lost_itb_pool == r.all.generated && r.in_flight == 0;
        if (!msg[0])
            snprintf(msg, sizeof msg, "generated %llu delivered %llu lost to the pool %llu in flight %llu",
                     (unsigned long long)r.all.generated, (unsigned long long)r.all.delivered,
                     (unsigned long long)r.all.lost_itb_pool, (unsigned long long)r.in_flight);
        check(ok, "ITB pool full: in-transit packets are dropped and counted (lost_itb_pool), delivered + dropped = generated",
              msg);
    }
    /* a NIC that drains its receive buffer at a quarter of the link rate: it sends STOP/GO, nothing overflows */
    {
        sf_sim_net sn = mknet(t, itb);
        sf_sim_cfg c2 = c;
        c2.nic.rx_drain_per_64 = 16;
        runres r;
        char msg[300] = "";
        int rc = run_net(&c2, &sn, 0.08, 20000, 400000, &r, msg, sizeof msg);
        int ok = rc == 0 && r.all.stops_sent > 0 && r.all.gos_sent > 0 && r.all.rx_overflow == 0 &&
                 r.all.delivered == r.all.generated && r.timeouts == 0;
        if (!msg[0])
            snprintf(msg, sizeof msg, "stops %llu gos %llu overflow %llu generated %llu delivered %llu timeouts %llu",
                     (unsigned long long)r.all.stops_sent, (unsigned long long)r.all.gos_sent,
                     (unsigned long long)r.all.rx_overflow, (unsigned long long)r.all.generated,
                     (unsigned long long)r.all.delivered, (unsigned long long)r.timeouts);
        check(ok, "NIC flow control: a slow NIC sends STOP and GO, its buffer never overflows, everything is delivered", msg);
    }
    sf_routes_free(ud);
    sf_routes_free(itb);
    sf_topo_free(t);
}

/* ------------------------------------------------------------------ cyclic routes */

static void test_deadlock(void)
{
    /* a ring of 4 switches, one host each; every route runs clockwise: the channel dependency graph is a cycle */
    sf_err e;
    sf_topo *t = sf_topo_new();
    for (int s = 0; s < 4; s++)
        sf_topo_add_switch(t, s, 4, -1, "ring", 0, &e);
    for (int s = 0; s < 4; s++)
        sf_topo_add_host(t, s, s, 0, "ring", 0, &e);
    for (int s = 0; s < 4; s++)
        sf_topo_add_link(t, s, 1, (s + 1) % 4, 2, "ring", 0, &e);
    if (sf_topo_finish(t, "ring", &e)) {
        check(0, "cyclic route set", e.msg);
        return;
    }
    sf_routes *rs = sf_routes_new(t, 0, 1);
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) {
            if (a == b)
                continue;
            sf_hop h[4];
            int n = 0;
            for (int s = a; s != b; s = (s + 1) % 4)
                h[n++] = (sf_hop){s, 1, 0, 0};
            sf_routes_set(rs, a, b, 0, h, n, 0);
        }
    snprintf(rs->algo, sizeof rs->algo, "clockwise");
    sf_sim_net sn = mknet(t, rs);
    sf_sim_cfg c;
    sf_sim_cfg_default(&c);
    c.nic.msg_size = 512;
    c.timeout = 3000;
    runres r;
    char msg[400] = "";
    int rc = run_net(&c, &sn, 0.3, 40000, 300000, &r, msg, sizeof msg);
    /* a packet cut in its switch's HDR state vanishes there (the NICs still count it in flight); one cut while
     * BOUND reaches its destination ended by ABORT: every undelivered message is matched by a forward reset */
    uint64_t undelivered = r.in_flight + r.all.lost_aborted + r.all.lost_crc;
    int ok = rc == 0 && sn.cyclic && r.timeouts > 0 && r.all.delivered > 100 && r.queued == 0 && undelivered > 0 &&
             undelivered <= r.timeouts && r.all.delivered + undelivered == r.all.generated;
    if (!msg[0])
        snprintf(msg, sizeof msg, "cyclic %d timeouts %llu generated %llu delivered %llu aborted %llu crc %llu in flight %llu",
                 sn.cyclic, (unsigned long long)r.timeouts, (unsigned long long)r.all.generated,
                 (unsigned long long)r.all.delivered, (unsigned long long)r.all.lost_aborted,
                 (unsigned long long)r.all.lost_crc, (unsigned long long)r.in_flight);
    check(ok, "a cyclic route set (clockwise ring) deadlocks; forward resets (TIMEOUT 3000) clear it, are counted, and every "
              "undelivered message is matched by a forward reset",
          msg);
    /* the same with the timeout off: the network stays stuck */
    c.timeout = 0;
    rc = run_net(&c, &sn, 0.3, 40000, 20000, &r, msg, sizeof msg);
    check(rc == 0 && r.timeouts == 0 && r.in_flight > 0, "the same ring without a timeout stays deadlocked (messages stuck)",
          "expected messages in flight");
    sf_routes_free(rs);
    sf_topo_free(t);
}

/* ------------------------------------------------------------------ determinism */

static char *run_json(const sf_sim_cfg *c, const sf_sim_net *sn, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    double o, a, s, h;
    int st;
    uint64_t cyc;
    sf_err e;
    sf_sim_json_head(c, sn, f);
    for (int i = 0; i < c->nloads; i++)
        sf_sim_run_point(c, sn, i, f, 0, NULL, NULL, &o, &a, &st, &s, &h, &cyc, &e);
    fclose(f);
    return buf;
}

static void test_determinism(void)
{
    sf_err e;
    sf_topo *t = sf_gen_random(8, 8, 4, 5, &e);
    sf_route_opts o;
    sf_route_opts_default(&o);
    o.seed = 5;
    sf_routes *rs = sf_route_itb(t, &o, &e);
    sf_sim_net sn = mknet(t, rs);
    sf_sim_cfg c;
    sf_sim_cfg_default(&c);
    snprintf(c.topology, sizeof c.topology, "gen");
    snprintf(c.routes, sizeof c.routes, "gen");
    c.nic.msg_size = 32;
    c.nloads = 2;
    c.loads[0] = 0.02;
    c.loads[1] = 0.1;
    c.warmup = 2000;
    c.cycles = 10000;
    size_t l1, l2, l3;
    char *a = run_json(&c, &sn, &l1), *b = run_json(&c, &sn, &l2);
    c.nic.seed = 2;
    char *d = run_json(&c, &sn, &l3);
    check(l1 == l2 && memcmp(a, b, l1) == 0 && l1 > 1000, "determinism: the same configuration and seed give the same JSON bytes",
          "the two runs differ");
    check(!(l1 == l3 && memcmp(a, d, l1) == 0), "another seed gives other results", "seed 1 and seed 2 gave the same JSON");
    free(a);
    free(b);
    free(d);
    sf_routes_free(rs);
    sf_topo_free(t);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    test_one_switch();
    test_conservation();
    test_deadlock();
    test_determinism();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

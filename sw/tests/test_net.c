/* test_net.c - tests of the network simulator: the fabric (cmodel/net.c) against direct crossbar stepping,
 * conservation of messages with up*-down* and ITB routes, ITB pool overflow, NIC flow control, determinism,
 * a cyclic route set cleared by forward resets. Last line: "N passed, M failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "link.h"
#include "net.h"
#include "sf_traffic.h"
#include "vcsw_net.h"
#include "sf_nic.h"
#include "sf_rng.h"
#include "sf_sim.h"
#include "xbar.h"
#include "xbar_net.h"

#include "tcheck.h"

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
    sf_traffic_counts all;
    sf_nic_counts nic;     /* crossbar network */
    sf_vcnic_counts vnic;  /* VC network */
    uint64_t in_flight, queued, timeouts, cycles;
    sf_lat lat;
} runres;

/* build load point `load` of the configuration's network as sanfab-sim does (sf_sim_point_build), generate for `gen`
 * cycles, then drain for at most `drain` cycles */
static int run_net(const sf_sim_cfg *c, const sf_sim_net *sn, double load, uint64_t gen, uint64_t drain, runres *r,
                   char *msg, size_t ml)
{
    sf_sim_cfg c1 = *c;
    c1.nloads = 1;
    c1.loads[0] = load;
    sf_sim_point pt;
    sf_err e;
    if (sf_sim_point_build(&c1, sn, 0, NULL, NULL, &pt, &e)) {
        snprintf(msg, ml, "%.300s", e.msg);
        return -1;
    }
    sf_traffic_window_start(pt.tr, 0);
    for (uint64_t k = 0; k < gen; k++)
        net_step(pt.net);
    sf_traffic_set_generate(pt.tr, 0);
    for (uint64_t k = 0; k < drain; k++) {
        net_step(pt.net);
        if ((k & 1023) == 0 && sf_traffic_in_flight(pt.tr) == 0)
            break;
    }
    memset(r, 0, sizeof *r);
    sf_traffic_counts_get(pt.tr, &r->all, NULL);
    if (c->k == SF_KIND_VCSW)
        sf_vcnics_counts(pt.nics, &r->vnic);
    else
        sf_nics_counts(pt.nics, &r->nic);
    r->in_flight = sf_traffic_in_flight(pt.tr);
    r->queued = sf_traffic_queued(pt.tr);
    r->timeouts = c->k == SF_KIND_XBAR ? net_counter_total(pt.net, XBAR_CTR_DROP_TIMEOUT) : 0;
    r->cycles = net_cycle(pt.net);
    sf_traffic_latency(pt.tr, &r->lat);
    sf_sim_point_free(&pt);
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
                 r.nic.lost_aborted + r.nic.lost_crc + r.nic.lost_itb_pool + r.all.misrouted + r.all.duplicate == 0 &&
                 r.timeouts == 0;
        if (i == 1)
            ok = ok && r.nic.itb_packets > 0 && r.nic.itb_reinjected == r.nic.itb_packets && r.lat.marks_per_msg > 0;
        if (!msg[0])
            snprintf(msg, sizeof msg,
                     "generated %llu delivered %llu in flight %llu lost %llu/%llu/%llu misrouted %llu dup %llu timeouts %llu "
                     "ITB %llu/%llu itbs/msg %.3f",
                     (unsigned long long)r.all.generated, (unsigned long long)r.all.delivered, (unsigned long long)r.in_flight,
                     (unsigned long long)r.nic.lost_aborted, (unsigned long long)r.nic.lost_crc,
                     (unsigned long long)r.nic.lost_itb_pool, (unsigned long long)r.all.misrouted,
                     (unsigned long long)r.all.duplicate, (unsigned long long)r.timeouts,
                     (unsigned long long)r.nic.itb_packets, (unsigned long long)r.nic.itb_reinjected, r.lat.marks_per_msg);
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
        int ok = rc == 0 && r.nic.lost_itb_pool > 0 && r.nic.itb_packets == 0 &&
                 r.all.delivered + r.nic.lost_itb_pool == r.all.generated && r.in_flight == 0;
        if (!msg[0])
            snprintf(msg, sizeof msg, "generated %llu delivered %llu lost to the pool %llu in flight %llu",
                     (unsigned long long)r.all.generated, (unsigned long long)r.all.delivered,
                     (unsigned long long)r.nic.lost_itb_pool, (unsigned long long)r.in_flight);
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
        int ok = rc == 0 && r.nic.stops_sent > 0 && r.nic.gos_sent > 0 && r.nic.rx_overflow == 0 &&
                 r.all.delivered == r.all.generated && r.timeouts == 0;
        if (!msg[0])
            snprintf(msg, sizeof msg, "stops %llu gos %llu overflow %llu generated %llu delivered %llu timeouts %llu",
                     (unsigned long long)r.nic.stops_sent, (unsigned long long)r.nic.gos_sent,
                     (unsigned long long)r.nic.rx_overflow, (unsigned long long)r.all.generated,
                     (unsigned long long)r.all.delivered, (unsigned long long)r.timeouts);
        check(ok, "NIC flow control: a slow NIC sends STOP and GO, its buffer never overflows, everything is delivered", msg);
    }
    sf_routes_free(ud);
    sf_routes_free(itb);
    sf_topo_free(t);
}

/* ------------------------------------------------------------------ cyclic routes */

/* A ring of 4 switches, one host each, and a route set in which every route runs clockwise on VC 0: its channel
 * dependency graph is a cycle. NULL (the message in e) if the topology is refused. */
static sf_topo *ring4_clockwise(sf_routes **rs, sf_err *e)
{
    sf_topo *t = sf_topo_new();
    for (int s = 0; s < 4; s++)
        sf_topo_add_switch(t, s, 4, -1, "ring", 0, e);
    for (int s = 0; s < 4; s++)
        sf_topo_add_host(t, s, s, 0, "ring", 0, e);
    for (int s = 0; s < 4; s++)
        sf_topo_add_link(t, s, 1, (s + 1) % 4, 2, "ring", 0, e);
    if (sf_topo_finish(t, "ring", e)) {
        sf_topo_free(t);
        return NULL;
    }
    *rs = sf_routes_new(t, 0, 1);
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) {
            if (a == b)
                continue;
            sf_hop h[4];
            int n = 0;
            for (int s = a; s != b; s = (s + 1) % 4)
                h[n++] = (sf_hop){s, 1, 0, 0};
            sf_routes_set(*rs, a, b, 0, h, n, 0);
        }
    snprintf((*rs)->algo, sizeof (*rs)->algo, "clockwise");
    return t;
}

static void test_deadlock(void)
{
    sf_err e;
    sf_routes *rs = NULL;
    sf_topo *t = ring4_clockwise(&rs, &e);
    if (!t) {
        check(0, "cyclic route set", e.msg);
        return;
    }
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
    uint64_t undelivered = r.in_flight + r.nic.lost_aborted + r.nic.lost_crc;
    int ok = rc == 0 && sn.cyclic && r.timeouts > 0 && r.all.delivered > 100 && r.queued == 0 && undelivered > 0 &&
             undelivered <= r.timeouts && r.all.delivered + undelivered == r.all.generated;
    if (!msg[0])
        snprintf(msg, sizeof msg, "cyclic %d timeouts %llu generated %llu delivered %llu aborted %llu crc %llu in flight %llu",
                 sn.cyclic, (unsigned long long)r.timeouts, (unsigned long long)r.all.generated,
                 (unsigned long long)r.all.delivered, (unsigned long long)r.nic.lost_aborted,
                 (unsigned long long)r.nic.lost_crc, (unsigned long long)r.in_flight);
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
    c.tr.seed = 2;
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


/* ------------------------------------------------------------------ the VC network */

/* topology and routes through files, loaded as sanfab-sim loads them (tables written from the routes) */
static int load_vc(sf_sim_cfg *c, const sf_topo *t, const sf_routes *rs, sf_sim_net *sn, char *msg, size_t ml)
{
    char tp[64], rp[64];
    snprintf(tp, sizeof tp, "/tmp/sanfab-test-net-%d.topo", (int)getpid());
    snprintf(rp, sizeof rp, "/tmp/sanfab-test-net-%d.routes", (int)getpid());
    FILE *f = fopen(tp, "w"), *g = fopen(rp, "w");
    if (!f || !g) {
        snprintf(msg, ml, "cannot write %s", tp);
        if (f)
            fclose(f);
        if (g)
            fclose(g);
        return -1;
    }
    sf_topo_write(t, f);
    sf_write_routes(rs, g);
    fclose(f);
    fclose(g);
    snprintf(c->topology, sizeof c->topology, "%s", tp);
    snprintf(c->routes, sizeof c->routes, "%s", rp);
    sf_err e;
    int rc = sf_sim_cfg_check(c, &e) || sf_sim_net_load(c, sn, &e) ? -1 : 0;
    if (rc)
        snprintf(msg, ml, "%.300s", e.msg);
    unlink(tp);
    unlink(rp);
    return rc;
}

static void vc_cfg(sf_sim_cfg *c)
{
    sf_sim_cfg_default(c);
    sf_err e;
    sf_sim_cfg_set(c, "switch", "vcsw", "test", 0, &e);
    sf_sim_cfg_set(c, "load", "0.1", "test", 0, &e);
}

/* an open-loop VC-network host: random flits (valid, VC, tail, data) and random stop bits, independent of what
 * arrives */
typedef struct {
    sf_rng r;
    uint64_t seen[NP][1 << 13];
    uint64_t seen_b[NP][1 << 13];
} vdrv_t;

static void vdrv_word(vdrv_t *d, uint64_t *f, uint64_t *b)
{
    vcsw_flit_t x = {0, 0, 0, 0};
    if (sf_rng_below(&d->r, 100) < 60) {
        x.valid = 1;
        x.vc = (uint8_t)sf_rng_below(&d->r, 4);
        x.tail = sf_rng_below(&d->r, 100) < 20;
        x.data = (uint32_t)sf_rng_next(&d->r) & 0xFFFFu;
    }
    *f = vcsw_net_word(&x);
    *b = sf_rng_below(&d->r, 100) < 15 ? sf_rng_below(&d->r, 16) : 0;
}

static void vdrv_nic(void *ctx, uint64_t cycle, unsigned nh, const uint64_t *in_fwd, const uint64_t *in_back, uint64_t *out_fwd,
                     uint64_t *out_back)
{
    vdrv_t *d = ctx;
    for (unsigned h = 0; h < nh; h++) {
        d->seen[h][cycle] = in_fwd[h];
        d->seen_b[h][cycle] = in_back[h];
        vdrv_word(d, &out_fwd[h], &out_back[h]);
    }
}

static void test_vc_one_switch(void)
{
    static vdrv_t a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    sf_rng_seed(&a.r, 91);
    sf_rng_seed(&b.r, 91);
    const unsigned C = (1 << 13) - 1;
    vcsw_params_t p = vcsw_default_params();
    p.NPORTS = NP;
    p.NVC = 4;
    p.CTRL = 0;
    p.DEPTH = 32;
    p.MAXLEN = 8;
    p.LINK_DELAY = 2;
    /* random tables: every tag to a random port (some invalid), every (in, out, VC) to a random VC (some invalid) */
    sf_rng tr;
    sf_rng_seed(&tr, 5);
    vcsw_tables_t sw;
    memset(&sw, 0, sizeof sw);
    vcsw_cfg_write_t wr[256 + NP * NP * 4];
    size_t nw = 0;
    for (unsigned g = 0; g < 256; g++)
        wr[nw++] = (vcsw_cfg_write_t){VCSW_CFG_ADDR(VCSW_SPACE_ROUTE, g),
                                      VCSW_ENTRY(sf_rng_below(&tr, 10) != 0, sf_rng_below(&tr, NP + 1))};
    for (unsigned i = 0; i < NP; i++)
        for (unsigned o = 0; o < NP; o++)
            for (unsigned v = 0; v < 4; v++)
                wr[nw++] = (vcsw_cfg_write_t){VCSW_CFG_ADDR(VCSW_SPACE_VC, VCSW_VC_INDEX(i, o, v)),
                                              VCSW_ENTRY(sf_rng_below(&tr, 10) != 0, sf_rng_below(&tr, 4))};
    sw.writes = wr;
    sw.nwrites = nw;
    vcsw_net_tables_t tabs;
    memset(&tabs, 0, sizeof tabs);
    tabs.switches = 1;
    tabs.sw = &sw;
    vcsw_net_params_t np = {p, &tabs};
    unsigned nports[1] = {NP};
    net_host_desc hosts[NP];
    for (unsigned h = 0; h < NP; h++)
        hosts[h] = (net_host_desc){0, h, 0};
    net_desc d = {1, 0, NP, nports, NULL, hosts};
    char err[200];
    net_t *n = net_new(&d, &net_vcsw_ops, &np, vdrv_nic, &a, err, sizeof err);
    if (!n) {
        check(0, "VC network: one switch equals the VC switch stepped directly", err);
        return;
    }
    net_set_skip(n, 0);
    for (unsigned k = 0; k < C; k++)
        net_step(n);
    /* reference: the model stepped directly, loaded through its configuration port, then reset; what a host
     * puts out in cycle k reaches the switch's inputs in step k + 1 */
    vcsw_t *m = vcsw_new(&p);
    vcsw_in_t in;
    vcsw_out_t out;
    memset(&in, 0, sizeof in);
    in.cfg_we = 1;
    for (size_t i = 0; i < nw; i++) {
        in.cfg_addr = wr[i].addr;
        in.cfg_wdata = wr[i].wdata;
        vcsw_step(m, &in, &out);
    }
    vcsw_reset(m);
    memset(&in, 0, sizeof in);
    uint64_t last_f[NP] = {0}, last_b[NP] = {0};
    char msg[300] = "";
    int ok = 1;
    unsigned flits = 0;
    for (unsigned k = 1; k <= C && ok; k++) {
        for (unsigned h = 0; h < NP && ok; h++) {
            if (a.seen[h][k] != last_f[h] || a.seen_b[h][k] != last_b[h]) {
                snprintf(msg, sizeof msg, "cycle %u host %u: fabric 0x%llx/0x%llx, VC switch 0x%llx/0x%llx", k, h,
                         (unsigned long long)a.seen[h][k], (unsigned long long)a.seen_b[h][k], (unsigned long long)last_f[h],
                         (unsigned long long)last_b[h]);
                ok = 0;
            }
            flits += (a.seen[h][k] & VCSW_NET_VALID) != 0;
        }
        vcsw_step(m, &in, &out); /* with what the hosts put out in cycle k - 1 */
        for (unsigned h = 0; h < NP; h++) {
            uint64_t f, bk;
            vdrv_word(&b, &f, &bk);
            in.rx[h] = vcsw_net_flit(f);
            in.tx_stop[h] = (uint16_t)bk;
        }
        for (unsigned h = 0; h < NP; h++) {
            last_f[h] = vcsw_net_word(&out.tx[h]);
            last_b[h] = out.rx_stop[h];
        }
    }
    for (unsigned port = 0; port < NP && ok; port++)
        for (unsigned c = 0; c < VCSW_NCTR; c++) {
            uint64_t sum = 0;
            for (unsigned v = 0; v < 4; v++)
                sum += vcsw_counter(m, port, v, c);
            if (net_switch_counter(n, 0, port, c) != sum) {
                snprintf(msg, sizeof msg, "counter %s of port %u differs", vcsw_counter_name(c), port);
                ok = 0;
            }
        }
    if (ok && (flits < 2000 || net_counter_total(n, VCSW_CTR_DROP_ROUTE) == 0 || net_counter_total(n, VCSW_CTR_TRUNC) == 0)) {
        snprintf(msg, sizeof msg, "the scene is too tame: %u flits out, %llu route drops, %llu cuts", flits,
                 (unsigned long long)net_counter_total(n, VCSW_CTR_DROP_ROUTE),
                 (unsigned long long)net_counter_total(n, VCSW_CTR_TRUNC));
        ok = 0;
    }
    check(ok, "VC network: one switch (5 ports, 4 VCs, LINK_DELAY 2, random tables) in the fabric equals the VC switch "
              "stepped directly: every flit and stop bit at every host for 8191 cycles, every counter",
          msg);
    vcsw_free(m);
    net_free(n);
}

static void vc_summary(char *msg, size_t ml, const runres *r)
{
    snprintf(msg, ml, "generated %llu delivered %llu in flight %llu queued %llu corrupt %llu length %llu misrouted %llu dup %llu "
             "overflow %llu stops %llu",
             (unsigned long long)r->all.generated, (unsigned long long)r->all.delivered, (unsigned long long)r->in_flight,
             (unsigned long long)r->queued, (unsigned long long)r->vnic.lost_corrupt, (unsigned long long)r->vnic.lost_length,
             (unsigned long long)r->all.misrouted, (unsigned long long)r->all.duplicate,
             (unsigned long long)r->vnic.rx_overflow, (unsigned long long)r->vnic.stops_sent);
}

static int vc_clean(const runres *r)
{
    return r->all.generated > 100 && r->all.delivered == r->all.generated && r->in_flight == 0 && r->queued == 0 &&
           r->vnic.lost_corrupt + r->vnic.lost_length + r->vnic.rx_overflow + r->all.misrouted + r->all.duplicate == 0;
}

static void test_vc_conservation(void)
{
    sf_err e;
    sf_topo *t = sf_gen_random(8, 8, 4, 3, &e);
    sf_route_opts o;
    sf_route_opts_default(&o);
    o.seed = 3;
    o.nvc = 2;
    o.sel = SF_SEL_SANCHO;
    sf_routes *dl = sf_route_dl(t, &o, &e);
    sf_route_opts_default(&o);
    sf_routes *ud = sf_route_updown(t, &o, &e);
    const char *names[2] = {"DL with 2 VCs", "up*/down* (1 VC)"};
    sf_routes *sets[2] = {dl, ud};
    for (int i = 0; i < 2; i++) {
        sf_sim_cfg c;
        vc_cfg(&c);
        sf_err e2;
        sf_sim_cfg_set(&c, "packet-flits", "32", "test", 0, &e2);
        sf_sim_net sn;
        runres r;
        char msg[400] = "";
        int rc = load_vc(&c, t, sets[i], &sn, msg, sizeof msg);
        if (!rc)
            rc = run_net(&c, &sn, 0.35, 20000, 200000, &r, msg, sizeof msg);
        if (!rc)
            vc_summary(msg, sizeof msg, &r);
        char name[300];
        snprintf(name, sizeof name, "VC network conservation, %s on a random 8-switch network past saturation: every packet "
                 "delivered exactly once, whole and unaltered, after the drain; nothing lost", names[i]);
        check(rc == 0 && vc_clean(&r) && r.vnic.stalled > 0, name, msg);
        if (rc == 0)
            sf_sim_net_free(&sn);
        else
            memset(&sn, 0, sizeof sn);
    }
    /* a NIC that drains at a quarter of the link rate stops its switch and never loses a flit */
    {
        sf_sim_cfg c;
        vc_cfg(&c);
        sf_err e2;
        sf_sim_cfg_set(&c, "packet-flits", "32", "test", 0, &e2);
        sf_sim_cfg_set(&c, "nic-drain", "16", "test", 0, &e2);
        sf_sim_cfg_set(&c, "link-delay", "3", "test", 0, &e2);
        sf_sim_cfg_set(&c, "nic-buffer", "48", "test", 0, &e2);
        sf_sim_net sn;
        runres r;
        char msg[400] = "";
        int rc = load_vc(&c, t, dl, &sn, msg, sizeof msg);
        if (!rc) {
            rc = run_net(&c, &sn, 0.2, 20000, 400000, &r, msg, sizeof msg);
            sf_sim_net_free(&sn);
        }
        if (!rc)
            vc_summary(msg, sizeof msg, &r);
        check(rc == 0 && vc_clean(&r) && r.vnic.stops_sent > 0,
              "VC network: a NIC draining at a quarter of the link rate (48-flit buffer, cables of 3) raises STOP, never "
              "overflows, and everything is delivered",
              msg);
    }
    sf_routes_free(dl);
    sf_routes_free(ud);
    sf_topo_free(t);
}

/* the clockwise ring on a VC network: the VC switch has no timeout, so it deadlocks for ever */
static void test_vc_deadlock(void)
{
    sf_err e;
    sf_routes *rs = NULL;
    sf_topo *t = ring4_clockwise(&rs, &e);
    if (!t) {
        check(0, "VC network: cyclic route set", e.msg);
        return;
    }
    sf_sim_cfg c;
    vc_cfg(&c);
    sf_err e2;
    sf_sim_cfg_set(&c, "packet-flits", "16", "test", 0, &e2);
    sf_sim_cfg_set(&c, "depth", "32", "test", 0, &e2);
    sf_sim_net sn;
    char msg[600] = "";
    int rc = load_vc(&c, t, rs, &sn, msg, sizeof msg);
    check(rc != 0 && strstr(msg, "can deadlock") && strstr(msg, "cycle"),
          "VC network: a route set whose dependency graph has a cycle is refused, naming the cycle", msg);
    if (rc == 0)
        sf_sim_net_free(&sn);
    sf_sim_cfg_set(&c, "allow-deadlock", "yes", "test", 0, &e2);
    sf_sim_cfg_set(&c, "deadlock-limit", "5000", "test", 0, &e2);
    sf_sim_cfg_set(&c, "load", "0.9", "test", 0, &e2);
    sf_sim_cfg_set(&c, "warmup", "0", "test", 0, &e2);
    sf_sim_cfg_set(&c, "cycles", "1000000", "test", 0, &e2);
    rc = load_vc(&c, t, rs, &sn, msg, sizeof msg);
    char *buf = NULL;
    size_t len = 0;
    if (rc == 0) {
        FILE *f = open_memstream(&buf, &len);
        double o, a, s, h;
        int st;
        uint64_t cyc = 0;
        rc = sf_sim_run_point(&c, &sn, 0, f, 0, NULL, NULL, &o, &a, &st, &s, &h, &cyc, &e);
        fclose(f);
        snprintf(msg, sizeof msg, "rc %d, %llu cycles, JSON: %.400s", rc, (unsigned long long)cyc, buf ? buf : "");
        rc = rc == 0 && buf && strstr(buf, "\"deadlock\": {\"detected_cycle\"") && cyc < 100000 ? 0 : -1;
        sf_sim_net_free(&sn);
    }
    check(rc == 0, "VC network: the cyclic ring with allow-deadlock yes deadlocks; the point stops after deadlock-limit "
                   "cycles without a moving flit and reports the deadlock (no hang)",
          msg);
    free(buf);
    sf_routes_free(rs);
    sf_topo_free(t);
}

static void test_vc_determinism(void)
{
    sf_err e;
    sf_topo *t = sf_gen_random(8, 8, 4, 5, &e);
    sf_route_opts o;
    sf_route_opts_default(&o);
    o.nvc = 3;
    o.sel = SF_SEL_SANCHO;
    sf_routes *rs = sf_route_dl(t, &o, &e);
    sf_sim_cfg c;
    vc_cfg(&c);
    sf_err e2;
    sf_sim_cfg_set(&c, "load", "0.05,0.4", "test", 0, &e2);
    sf_sim_cfg_set(&c, "warmup", "2000", "test", 0, &e2);
    sf_sim_cfg_set(&c, "cycles", "20000", "test", 0, &e2);
    sf_sim_cfg_set(&c, "drain", "20000", "test", 0, &e2);
    sf_sim_cfg_set(&c, "packet-flits", "32", "test", 0, &e2);
    sf_sim_net sn;
    char msg[300] = "";
    if (load_vc(&c, t, rs, &sn, msg, sizeof msg)) {
        check(0, "VC network determinism", msg);
    } else {
        size_t l1, l2, l3, l4;
        char *a = run_json(&c, &sn, &l1), *b = run_json(&c, &sn, &l2);
        c.no_skip = 1;
        char *n = run_json(&c, &sn, &l4);
        c.no_skip = 0;
        c.tr.seed = 2;
        char *d = run_json(&c, &sn, &l3);
        check(l1 == l2 && memcmp(a, b, l1) == 0 && l1 > 1000,
              "VC network determinism: the same configuration and seed give the same JSON bytes", "the two runs differ");
        check(l1 == l4 && memcmp(a, n, l1) == 0,
              "VC network: skipping quiet switches is exact (the same JSON bytes with every switch stepped every cycle)",
              "skip and no-skip differ");
        check(!(l1 == l3 && memcmp(a, d, l1) == 0), "VC network: another seed gives other results", "seed 1 and 2 agree");
        free(a);
        free(b);
        free(n);
        free(d);
        sf_sim_net_free(&sn);
    }
    sf_routes_free(rs);
    sf_topo_free(t);
}

/* the fixed patterns: a permutation of the hosts (a host mapped to itself sends nothing), with the textbook values */
static void test_patterns(void)
{
    sf_err e;
    char msg[300] = "";
    int ok = 1;
    for (unsigned hosts = 2; hosts <= 64 && ok; hosts *= 2) {
        sf_topo *t = sf_topo_new();
        sf_topo_add_switch(t, 0, (int)hosts, -1, "one", 0, &e);
        for (unsigned h = 0; h < hosts; h++)
            sf_topo_add_host(t, (int)h, 0, (int)h, "one", 0, &e);
        sf_topo_finish(t, "one", &e);
        const sf_pattern pats[4] = {SF_TR_BITREV, SF_TR_TRANSPOSE, SF_TR_BUTTERFLY, SF_TR_COMPLEMENT};
        for (int k = 0; k < 4 && ok; k++) {
            sf_traffic_params p = {pats[k], 0, 0, 0, 1, 1, NULL, 0};
            sf_traffic *tr = sf_traffic_new(t, &p, &e);
            if (!tr) {
                snprintf(msg, sizeof msg, "%s on %u hosts: %.200s", sf_pattern_name(pats[k]), hosts, e.msg);
                ok = 0;
                break;
            }
            unsigned seen[64] = {0}, b = 0;
            while ((1u << b) < hosts)
                b++;
            for (unsigned s = 0; s < hosts && ok; s++) {
                int d = sf_traffic_fixed_dst(tr, s);
                unsigned dd = d < 0 ? s : (unsigned)d;
                seen[dd]++;
                unsigned want = s;
                if (pats[k] == SF_TR_BITREV) {
                    want = 0;
                    for (unsigned i = 0; i < b; i++)
                        if (s >> i & 1u)
                            want |= 1u << (b - 1 - i);
                } else if (pats[k] == SF_TR_TRANSPOSE) { /* rows of 2^(b/2) columns: (r, c) -> (c, r) */
                    unsigned cb = b / 2, rb = b - cb, r = s >> cb, col = s & ((1u << cb) - 1u);
                    want = col << rb | r;
                } else if (pats[k] == SF_TR_BUTTERFLY) {
                    want = s;
                    if (b >= 2 && ((s & 1u) != (s >> (b - 1) & 1u)))
                        want = s ^ (1u | 1u << (b - 1));
                } else {
                    want = hosts - 1 - s;
                }
                if (dd != want || d == (int)s) {
                    snprintf(msg, sizeof msg, "%s on %u hosts: %u -> %d, expected %u", sf_pattern_name(pats[k]), hosts, s, d, want);
                    ok = 0;
                }
            }
            for (unsigned x = 0; x < hosts && ok; x++)
                if (seen[x] != 1) {
                    snprintf(msg, sizeof msg, "%s on %u hosts is not a permutation (host %u reached %u times)",
                             sf_pattern_name(pats[k]), hosts, x, seen[x]);
                    ok = 0;
                }
            sf_traffic_free(tr);
        }
        sf_topo_free(t);
    }
    /* the matrix transpose of 8 hosts (a 4 x 2 matrix): host 1 = (row 0, column 1) -> (1, 0) = host 4; butterfly 1 -> 4 */
    if (ok) {
        sf_topo *t = sf_topo_new();
        sf_topo_add_switch(t, 0, 8, -1, "one", 0, &e);
        for (int h = 0; h < 8; h++)
            sf_topo_add_host(t, h, 0, h, "one", 0, &e);
        sf_topo_finish(t, "one", &e);
        sf_traffic_params p = {SF_TR_TRANSPOSE, 0, 0, 0, 1, 1, NULL, 0};
        sf_traffic *tr = sf_traffic_new(t, &p, &e);
        p.pattern = SF_TR_BUTTERFLY;
        sf_traffic *bf = sf_traffic_new(t, &p, &e);
        ok = tr && bf && sf_traffic_fixed_dst(tr, 1) == 4 && sf_traffic_fixed_dst(tr, 6) == 3 && sf_traffic_fixed_dst(bf, 1) == 4 &&
             sf_traffic_fixed_dst(bf, 3) == 6 && sf_traffic_fixed_dst(bf, 2) == -1;
        if (!ok)
            snprintf(msg, sizeof msg, "8 hosts: transpose 1 -> %d, 6 -> %d; butterfly 1 -> %d, 3 -> %d, 2 -> %d",
                     sf_traffic_fixed_dst(tr, 1), sf_traffic_fixed_dst(tr, 6), sf_traffic_fixed_dst(bf, 1),
                     sf_traffic_fixed_dst(bf, 3), sf_traffic_fixed_dst(bf, 2));
        sf_traffic_free(tr);
        sf_traffic_free(bf);
        sf_topo_free(t);
    }
    check(ok, "traffic patterns: bit-reversal, matrix transpose, butterfly and complement are permutations of 2..64 hosts "
              "(transpose also on odd powers of 2) with the textbook values",
          msg);
}

/* ------------------------------------------------------------------ latency percentiles */

/* latency of message i of run `run` (cycles): run 0 crosses the 1024-cycle mark (the old histogram's exact range),
 * run 1 sits where the old histogram's bin middle (1127.5) was above every sample (1122) */
static uint64_t pct_lat(int run, unsigned i) { return run == 0 ? 1000u + 3u * i : 1122u; }

static int u64cmp(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* the percentiles are exact nearest-rank values of the samples (the smallest latency with at least ceil(q n) samples
 * at or below it): so within [min, max] whatever the latencies */
static void test_percentiles(void)
{
    sf_err e;
    char msg[300] = "";
    int ok = 1;
    enum { N = 200 };
    for (int run = 0; run < 2 && ok; run++) {
        sf_topo *t = sf_topo_new();
        sf_topo_add_switch(t, 0, 2, -1, "one", 0, &e);
        for (int h = 0; h < 2; h++)
            sf_topo_add_host(t, h, 0, h, "one", 0, &e);
        sf_topo_finish(t, "one", &e);
        sf_traffic_params p = {SF_TR_COMPLEMENT, 0, 0, 1.0, 1, 1, NULL, 0}; /* a message a cycle, 0 -> 1 */
        sf_traffic *tr = sf_traffic_new(t, &p, &e);
        if (!tr) {
            snprintf(msg, sizeof msg, "%.200s", e.msg);
            ok = 0;
            sf_topo_free(t);
            break;
        }
        sf_traffic_window_start(tr, 0);
        uint64_t want[N];
        unsigned n = 0;
        for (uint64_t cyc = 0; n < N && cyc < 4 * N; cyc++) {
            sf_traffic_generate(tr, 0, cyc);
            uint32_t seq;
            const sf_msg *m;
            while (n < N && (m = sf_traffic_head(tr, 0, &seq)) != NULL) {
                const uint64_t g = m->gen;
                sf_traffic_start(tr, 0, cyc, 0);
                want[n] = pct_lat(run, n);
                sf_traffic_deliver(tr, 1, 1, 0, seq, g + want[n]);
                n++;
            }
        }
        sf_lat l;
        sf_traffic_latency(tr, &l);
        qsort(want, n, sizeof want[0], u64cmp);
        const double p50 = (double)want[N / 2 - 1], p95 = (double)want[N * 95 / 100 - 1], p99 = (double)want[N * 99 / 100 - 1];
        ok = n == N && l.count == N && l.max == (double)want[N - 1] && l.p50 == p50 && l.p95 == p95 && l.p99 == p99 &&
             l.p99 <= l.max && l.p50 >= (double)want[0];
        if (!ok)
            snprintf(msg, sizeof msg, "run %d: %u samples, p50 %.1f p95 %.1f p99 %.1f max %.1f (want %.0f %.0f %.0f %.0f)", run,
                     (unsigned)l.count, l.p50, l.p95, l.p99, l.max, p50, p95, p99, (double)want[N - 1]);
        sf_traffic_free(tr);
        sf_topo_free(t);
    }
    check(ok, "latency percentiles are the samples' exact nearest-rank values, never above the maximum (latencies "
              "across 1024 cycles; all equal to 1122)",
          msg);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    test_one_switch();
    test_conservation();
    test_deadlock();
    test_determinism();
    test_patterns();
    test_percentiles();
    test_vc_one_switch();
    test_vc_conservation();
    test_vc_deadlock();
    test_vc_determinism();
    return tcheck_summary();
}

/* test_net_vc.c - the VC network: one VC switch against its model, conservation, the deadlocked ring,
 * determinism */
#include "test_net.h"

/* ------------------------------------------------------------------ the VC network */

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

void test_vc_one_switch(void)
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

void test_vc_conservation(void)
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
void test_vc_deadlock(void)
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

void test_vc_determinism(void)
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

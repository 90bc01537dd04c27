/* test_net_fabric.c - whole crossbar networks: conservation of messages, cyclic routes, determinism */
#include "test_net.h"

/* ------------------------------------------------------------------ conservation */

void test_conservation(void)
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

void test_deadlock(void)
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

void test_determinism(void)
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

/* test_net_maestro.c - the Maestro network (switch sbox): one box in the fabric against the box model stepped directly,
 * conservation on trees, determinism, the refusals (a cycle of boxes, too many hosts, a box too large, tables that do
 * not lead every host to every other), multicast delivered once to every member and a barrier released once to all */
#include "test_net.h"

#include "sbox.h"
#include "sbox_net.h"
#include "sf_mnic.h"

/* a Maestro configuration: switch sbox on `topo_gen` with up*-down* tables, the given link delay and message size */
static void mb_cfg(sf_sim_cfg *c, const char *topo_gen, unsigned delay, unsigned msg_size)
{
    sf_sim_cfg_default(c);
    sf_err e;
    char d[16], m[16];
    snprintf(d, sizeof d, "%u", delay);
    snprintf(m, sizeof m, "%u", msg_size);
    sf_sim_cfg_set(c, "switch", "sbox", "test", 0, &e);
    sf_sim_cfg_set(c, "topology-gen", topo_gen, "test", 0, &e);
    sf_sim_cfg_set(c, "routing", "updown", "test", 0, &e);
    sf_sim_cfg_set(c, "link-delay", d, "test", 0, &e);
    sf_sim_cfg_set(c, "message-size", m, "test", 0, &e);
    sf_sim_cfg_set(c, "load", "0.05", "test", 0, &e);
}

/* configuration checked and network loaded; 0, or -1 with the message in msg */
static int mb_load(sf_sim_cfg *c, sf_sim_net *sn, char *msg, size_t ml)
{
    sf_err e;
    if (sf_sim_cfg_check(c, &e) || sf_sim_net_load(c, sn, &e)) {
        snprintf(msg, ml, "%.300s", e.msg);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ one box against its model */
/* (multicast traffic runs in the one-box tests' neighbour, test_mb_conservation) */

#define OB_CYC 12000u
#define OB_H 5u

/* the NIs' callback, recording what every host receives and puts out in every cycle */
typedef struct {
    sf_sim_point *pt;
    uint16_t in[OB_CYC + 1][OB_H], out[OB_CYC + 1][OB_H];
} ob_tap_t;

static void ob_tap(void *ctx, uint64_t cycle, unsigned nh, const uint64_t *in_fwd, const uint64_t *in_back, uint64_t *out_fwd,
                   uint64_t *out_back)
{
    ob_tap_t *t = ctx;
    t->pt->nic_step(t->pt->nics, cycle, nh, in_fwd, in_back, out_fwd, out_back);
    for (unsigned h = 0; h < nh && h < OB_H && cycle <= OB_CYC; h++) {
        t->in[cycle][h] = (uint16_t)in_fwd[h];
        t->out[cycle][h] = (uint16_t)out_fwd[h];
    }
}

/* one box of OB_H hosts, link delay D and messages of `size` bytes: every word the box puts out in the fabric equals
 * the box model's, stepped directly with the register writes of sbox_net_reg_in and what the hosts put out D + 1
 * cycles earlier (docs/network.md: a word put out in cycle k is sampled in cycle k + 1 + D) */
static void one_box(unsigned D, unsigned size)
{
    char name[120], msg[400] = "";
    snprintf(name, sizeof name, "Maestro network: one box (link delay %u, %u-byte messages) equals the box model stepped directly",
             D, size);
    sf_sim_cfg c;
    char gen[64];
    snprintf(gen, sizeof gen, "tree --levels 1 --ports %u --hosts %u", OB_H, OB_H);
    mb_cfg(&c, gen, D, size);
    sf_err e;
    sf_sim_cfg_set(&c, "load", "0.15", "test", 1, &e);
    sf_sim_net sn;
    if (mb_load(&c, &sn, msg, sizeof msg)) {
        check(0, name, msg);
        return;
    }
    static ob_tap_t tap;
    memset(&tap, 0, sizeof tap);
    sf_sim_point pt;
    tap.pt = &pt;
    if (sf_sim_point_build(&c, &sn, 0, ob_tap, &tap, &pt, &e)) {
        check(0, name, e.msg);
        sf_sim_net_free(&sn);
        return;
    }
    for (unsigned k = 0; k < OB_CYC; k++)
        net_step(pt.net);
    sf_traffic_counts all;
    sf_traffic_counts_get(pt.tr, &all, NULL);
    const sf_mnic_params *m = &c.mnic;
    sbox_params_t p = {OB_H, OB_H, m->link_w, m->fifo_bytes, m->turn, m->timeout, m->ctr_w, 0, D};
    sbox_t *b = sbox_new(&p);
    sbox_in_t in;
    sbox_out_t out;
    int ok = b != NULL;
    unsigned driven = 0;
    for (unsigned k = 1; ok && k + 1 + D <= OB_CYC; k++) {
        memset(&in, 0, sizeof in);
        sbox_net_reg_in(&sn.boxes[0], k, &in);
        for (unsigned h = 0; h < OB_H; h++) {
            const uint16_t w = k > 1 + D ? tap.out[k - 1 - D][h] : 0;
            in.rx_en[h] = (w & SBOX_NET_EN) ? 1u : 0u;
            in.rx_d[h] = (uint8_t)w;
        }
        sbox_step(b, &in, &out);
        for (unsigned h = 0; h < OB_H && ok; h++) {
            const uint16_t want = (uint16_t)sbox_net_word(out.tx_en[h], out.tx_d[h]), got = tap.in[k + 1 + D][h];
            driven += (want & SBOX_NET_EN) != 0;
            if (want != got) {
                snprintf(msg, sizeof msg, "box step %u port %u: the model puts out 0x%x, the fabric delivered 0x%x", k, h, want, got);
                ok = 0;
            }
        }
        if (out.reg_rvalid) {
            snprintf(msg, sizeof msg, "box step %u: a register answer, but nothing was read", k);
            ok = 0;
        }
    }
    if (ok && (all.delivered < 40 || driven < 1000)) {
        snprintf(msg, sizeof msg, "too little happened: %llu messages delivered, %u box symbols", (unsigned long long)all.delivered,
                 driven);
        ok = 0;
    }
    if (ok)
        snprintf(msg, sizeof msg, "%u steps, %llu messages delivered, %u box symbols", OB_CYC - 1 - D,
                 (unsigned long long)all.delivered, driven);
    check(ok, name, msg);
    sbox_free(b);
    sf_sim_point_free(&pt);
    sf_sim_net_free(&sn);
}

void test_mb_one_box(void)
{
    one_box(0, 11);
    one_box(3, 11);
    one_box(1, 100);
}

/* ------------------------------------------------------------------ conservation and determinism */

static void conserve(const char *gen, unsigned D, unsigned size, const char *traffic, double load)
{
    char name[200], msg[500] = "";
    snprintf(name, sizeof name, "Maestro network %s, link delay %u, %u-byte messages, %s at %g: every message delivered once, "
             "unaltered; no frame dropped", gen, D, size, traffic, load);
    sf_sim_cfg c;
    mb_cfg(&c, gen, D, size);
    sf_err e;
    sf_sim_cfg_set(&c, "traffic", traffic, "test", 1, &e);
    sf_sim_net sn;
    if (mb_load(&c, &sn, msg, sizeof msg)) {
        check(0, name, msg);
        return;
    }
    sf_sim_cfg c1 = c;
    c1.loads[0] = load;
    sf_sim_point pt;
    if (sf_sim_point_build(&c1, &sn, 0, NULL, NULL, &pt, &e)) {
        check(0, name, e.msg);
        sf_sim_net_free(&sn);
        return;
    }
    for (unsigned k = 0; k < 40000; k++)
        net_step(pt.net);
    sf_traffic_set_generate(pt.tr, 0);
    for (unsigned k = 0; k < 400000 && sf_traffic_in_flight(pt.tr); k++)
        net_step(pt.net);
    sf_traffic_counts all;
    sf_traffic_counts_get(pt.tr, &all, NULL);
    sf_mnic_counts mc;
    sf_mnics_counts(pt.nics, &mc);
    uint64_t bad = 0;
    for (unsigned ctr = MLC_CTR_ERR_CHECK; ctr <= MLC_CTR_DUP; ctr++)
        bad += net_counter_total(pt.net, ctr);
    bad += net_counter_total(pt.net, MLC_NCTR + SBOX_CTR_DROP_ROUTE) + net_counter_total(pt.net, MLC_NCTR + SBOX_CTR_ERR_MSG);
    const int ok = all.generated > 100 && all.delivered == all.generated && sf_traffic_in_flight(pt.tr) == 0 &&
                   all.misrouted + all.duplicate + mc.lost_corrupt + mc.misdelivered + bad == 0 && all.reordered == 0;
    snprintf(msg, sizeof msg, "generated %llu delivered %llu in flight %llu misrouted %llu dup %llu reordered %llu corrupt %llu "
             "misdelivered %llu dropped frames/messages %llu", (unsigned long long)all.generated,
             (unsigned long long)all.delivered, (unsigned long long)sf_traffic_in_flight(pt.tr),
             (unsigned long long)all.misrouted, (unsigned long long)all.duplicate, (unsigned long long)all.reordered,
             (unsigned long long)mc.lost_corrupt, (unsigned long long)mc.misdelivered, (unsigned long long)bad);
    check(ok, name, msg);
    sf_sim_point_free(&pt);
    sf_sim_net_free(&sn);
}

/* multicast traffic on a tree: every member gets every message once (the traffic layer's membership check), every
 * message completes; generated and delivered units count each member's copy */
static void conserve_mcast(const char *gen, unsigned k, double load)
{
    char name[200], msg[500] = "";
    snprintf(name, sizeof name, "Maestro network %s, multicast traffic to %u members at %g: every member gets every message "
             "once, nobody else", gen, k, load);
    sf_sim_cfg c;
    mb_cfg(&c, gen, 1, 11);
    sf_err e;
    char ks[16];
    snprintf(ks, sizeof ks, "%u", k);
    sf_sim_cfg_set(&c, "traffic", "multicast", "test", 1, &e);
    sf_sim_cfg_set(&c, "multicast-size", ks, "test", 1, &e);
    sf_sim_net sn;
    if (mb_load(&c, &sn, msg, sizeof msg)) {
        check(0, name, msg);
        return;
    }
    runres r;
    if (run_net(&c, &sn, load, 40000, 400000, &r, msg, sizeof msg)) {
        check(0, name, msg);
        sf_sim_net_free(&sn);
        return;
    }
    const int ok = r.all.generated > 100 && r.all.delivered == r.all.generated && r.in_flight == 0 &&
                   r.all.deliv_units == r.all.gen_units && r.all.gen_units == r.all.generated * k * 11u &&
                   r.all.misrouted + r.all.duplicate + r.mnic.lost_corrupt + r.mnic.misdelivered == 0;
    snprintf(msg, sizeof msg, "generated %llu delivered %llu units %llu/%llu misrouted %llu dup %llu corrupt %llu",
             (unsigned long long)r.all.generated, (unsigned long long)r.all.delivered, (unsigned long long)r.all.deliv_units,
             (unsigned long long)r.all.gen_units, (unsigned long long)r.all.misrouted, (unsigned long long)r.all.duplicate,
             (unsigned long long)r.mnic.lost_corrupt);
    check(ok, name, msg);
    sf_sim_net_free(&sn);
}

void test_mb_conservation(void)
{
    conserve_mcast("tree --levels 1 --ports 8", 7, 0.01);
    conserve_mcast("tree --levels 3 --ports 4 --fanout 2 --hosts 2", 3, 0.01);
    conserve_mcast("tree --levels 2 --ports 8 --fanout 4 --hosts 4", 5, 0.005);
    conserve("tree --levels 1 --ports 8", 0, 11, "uniform", 0.1);
    conserve("tree --levels 2 --ports 4 --fanout 3 --hosts 3", 2, 11, "uniform", 0.04);
    conserve("tree --levels 3 --ports 4 --fanout 2 --hosts 2", 1, 64, "uniform", 0.05);
    conserve("tree --levels 2 --ports 8 --fanout 4 --hosts 4", 0, 200, "hotspot", 0.04);
}

void test_mb_determinism(void)
{
    sf_sim_cfg c;
    char msg[400] = "";
    mb_cfg(&c, "tree --levels 2 --ports 4 --fanout 2 --hosts 3", 1, 40);
    sf_err e;
    sf_sim_cfg_set(&c, "load", "0.02,0.2", "test", 1, &e);
    sf_sim_cfg_set(&c, "warmup", "2000", "test", 1, &e);
    sf_sim_cfg_set(&c, "cycles", "15000", "test", 1, &e);
    sf_sim_net sn;
    if (mb_load(&c, &sn, msg, sizeof msg)) {
        check(0, "Maestro network: the same configuration gives the same JSON", msg);
        return;
    }
    size_t l1, l2, l3;
    char *a = run_json(&c, &sn, &l1), *b = run_json(&c, &sn, &l2);
    c.tr.seed = 2;
    char *d = run_json(&c, &sn, &l3);
    check(l1 == l2 && memcmp(a, b, l1) == 0 && strstr(a, "\"accepted_bytes_cycle_host\""),
          "Maestro network: the same configuration gives the same JSON", "");
    check(l1 != l3 || memcmp(a, d, l1) != 0, "Maestro network: another seed gives other results", "");
    free(a);
    free(b);
    free(d);
    sf_sim_net_free(&sn);
}

/* ------------------------------------------------------------------ refusals */

/* the configuration (topology file text, tables file text or NULL) is refused with a message holding `want` */
static void refused(const char *name, const char *topo, const char *tables, const char *want)
{
    char tp[80], bp[80], msg[700] = "";
    snprintf(tp, sizeof tp, "/tmp/sanfab-test-mb-%d.topo", (int)getpid());
    snprintf(bp, sizeof bp, "/tmp/sanfab-test-mb-%d.maestro", (int)getpid());
    FILE *f = fopen(tp, "w");
    if (!f) {
        check(0, name, "cannot write a temporary file");
        return;
    }
    fputs(topo, f);
    fclose(f);
    if (tables) {
        f = fopen(bp, "w");
        if (!f) {
            check(0, name, "cannot write a temporary file");
            unlink(tp);
            return;
        }
        fputs(tables, f);
        fclose(f);
    }
    sf_sim_cfg c;
    sf_sim_cfg_default(&c);
    sf_err e;
    sf_sim_cfg_set(&c, "switch", "sbox", "test", 0, &e);
    sf_sim_cfg_set(&c, "topology", tp, "test", 0, &e);
    if (!tables)
        sf_sim_cfg_set(&c, "routing", "updown", "test", 0, &e);
    sf_sim_cfg_set(&c, "load", "0.1", "test", 0, &e);
    sf_sim_net sn;
    memset(&sn, 0, sizeof sn);
    int rc = -1;
    if (tables) { /* the routes of the tables' network come from up*-down* on the topology, written to a file */
        char rp[80];
        snprintf(rp, sizeof rp, "/tmp/sanfab-test-mb-%d.routes", (int)getpid());
        sf_err pe;
        sf_topo *t = sf_topo_read(tp, &pe);
        sf_route_opts o;
        sf_route_opts_default(&o);
        sf_routes *rs = t ? sf_route_updown(t, &o, &pe) : NULL;
        FILE *g = rs ? fopen(rp, "w") : NULL;
        if (g) {
            sf_write_routes(rs, g);
            fclose(g);
            sf_sim_cfg_set(&c, "routes", rp, "test", 0, &e);
            sf_sim_cfg_set(&c, "tables", bp, "test", 0, &e);
            rc = sf_sim_cfg_check(&c, &e) || sf_sim_net_load(&c, &sn, &e) ? -1 : 0;
        } else
            snprintf(e.msg, sizeof e.msg, "(no routes: %.500s)", pe.msg);
        sf_routes_free(rs);
        sf_topo_free(t);
        unlink(rp);
    } else {
        rc = sf_sim_cfg_check(&c, &e) || sf_sim_net_load(&c, &sn, &e) ? -1 : 0;
    }
    if (rc == 0)
        sf_sim_net_free(&sn);
    snprintf(msg, sizeof msg, "%.600s", rc ? e.msg : "(accepted)");
    check(rc != 0 && strstr(e.msg, want) != NULL, name, msg);
    unlink(tp);
    if (tables)
        unlink(bp);
}

void test_mb_refusals(void)
{
    refused("Maestro network: a cycle of boxes is refused, naming the link's line",
            "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nswitch 2 ports 4\nhost 0 0:0\nhost 1 1:0\nhost 2 2:0\n"
            "link 0:1 1:1\nlink 1:2 2:1\nlink 2:2 0:2\n",
            NULL, ":10: link 0:2 2:2 closes a cycle of boxes");
    /* a chain of three 8-port boxes: 7 + 6 + 7 = 20 hosts */
    char big[2000] = "sanfab-topology 1\nswitch 0 ports 8\nswitch 1 ports 8\nswitch 2 ports 8\nlink 0:7 1:7\nlink 1:6 2:7\n";
    for (int h = 0, s = 0, p = 0; h < 20; h++, p++) {
        if (p == (s == 1 ? 6 : 7))
            s++, p = 0;
        const size_t l = strlen(big);
        snprintf(big + l, sizeof big - l, "host %d %d:%d\n", h, s, p);
    }
    refused("Maestro network: more than 16 hosts are refused (MASK)", big, NULL, "at most 16");
    refused("Maestro network: a box of more than 8 ports is refused",
            "sanfab-topology 1\nswitch 0 ports 9\nhost 0 0:0\nhost 1 0:8\n", NULL, "at most 8");
    refused("Maestro network: tables that do not lead every host to every other are refused",
            "sanfab-topology 1\nswitch 0 ports 3\nhost 0 0:0\nhost 1 0:1\nhost 2 0:2\n",
            "sanfab-maestro 1\nalgorithm hand\nswitches 1 hosts 3\nswitch 0\n  dst 0 port 0\n  dst 1 port 1\n",
            "host 0 does not reach host 2: box 0 has no entry for it");
    refused("Maestro network: tables that send a host the wrong way are refused",
            "sanfab-topology 1\nswitch 0 ports 3\nhost 0 0:0\nhost 1 0:1\nhost 2 0:2\n",
            "sanfab-maestro 1\nalgorithm hand\nswitches 1 hosts 3\nswitch 0\n  dst 0 port 0\n  dst 1 port 2\n  dst 2 port 1\n",
            "does not reach host 1: box 0 sends it to a port without it");
    refused("Maestro network: a malformed tables file is refused with its line",
            "sanfab-topology 1\nswitch 0 ports 3\nhost 0 0:0\nhost 1 0:1\nhost 2 0:2\n",
            "sanfab-maestro 1\nalgorithm hand\nswitches 1 hosts 3\nswitch 0\n  dst 0 prt 0\n", ".maestro:5:");
}

/* ------------------------------------------------------------------ multicast and barrier */

void test_mb_multicast_barrier(void)
{
    const char *name_m = "Maestro network: a multicast across a two-level tree reaches every member once, nobody else";
    const char *name_b = "Maestro network: a barrier of 16 nodes on a two-level tree is released once to every node, after the last "
                         "request";
    sf_sim_cfg c;
    char msg[400] = "";
    mb_cfg(&c, "tree --levels 2 --ports 8 --fanout 4 --hosts 4", 1, 11);
    sf_sim_net sn;
    if (mb_load(&c, &sn, msg, sizeof msg)) {
        check(0, name_m, msg);
        return;
    }
    sf_sim_point pt;
    sf_err e;
    if (sf_sim_point_build(&c, &sn, 0, NULL, NULL, &pt, &e)) {
        check(0, name_m, e.msg);
        sf_sim_net_free(&sn);
        return;
    }
    sf_mnics *ni = pt.nics;
    sf_mnics_set_direct(ni, 1);
    const unsigned H = (unsigned)sn.t->nhost;
    for (unsigned k = 0; k < 100; k++)
        net_step(pt.net);
    /* members on the sender's own leaf (1), on two other leaves (5, 6, 13) */
    const unsigned mask = 1u << 1 | 1u << 5 | 1u << 6 | 1u << 13;
    uint8_t data[MLC_T0_DATA] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    mlc_msg_t m = {0, MLC_KIND_DATA, MLC_DST_MULTI, mask, 0, MLC_T0_DATA, data};
    int ok = H == 16 && sf_mnics_send(ni, 0, 0, &m) == 0;
    unsigned got[16] = {0};
    for (unsigned k = 0; k < 5000 && ok; k++) {
        net_step(pt.net);
        for (unsigned h = 0; h < H; h++) {
            mlc_msg_t g;
            while (sf_mnics_recv(ni, h, 0, &g)) {
                got[h]++;
                if (g.dst != MLC_DST_MULTI || g.src != 0 || g.len != MLC_T0_DATA || memcmp(g.data, data, MLC_T0_DATA)) {
                    snprintf(msg, sizeof msg, "host %u received another message (dst %u src %u len %u)", h, g.dst, g.src, g.len);
                    ok = 0;
                }
                mlc_msg_free(&g);
            }
        }
    }
    for (unsigned h = 0; h < H && ok; h++)
        if (got[h] != ((mask >> h) & 1u)) {
            snprintf(msg, sizeof msg, "host %u received it %u times", h, got[h]);
            ok = 0;
        }
    check(ok, name_m, msg);
    /* the barrier: requests on channel 1 at staggered cycles */
    uint64_t last_req = 0;
    unsigned rel[16] = {0}, queued = 0;
    ok = 1;
    msg[0] = 0;
    for (unsigned k = 0; k < 20000 && ok; k++) {
        for (unsigned h = 0; h < H; h++)
            if (k == 37u * h + 3u) {
                ok &= sf_mnics_barrier(ni, h, 1, 0xFFFFu, 7) == 0;
                queued++;
                last_req = net_cycle(pt.net) + 1;
            }
        net_step(pt.net);
        for (unsigned h = 0; h < H; h++) {
            mlc_msg_t g;
            while (sf_mnics_recv(ni, h, 1, &g)) {
                rel[h]++;
                if (g.kind != MLC_KIND_RELEASE || queued < H || net_cycle(pt.net) <= last_req) {
                    snprintf(msg, sizeof msg, "host %u: kind %u arrived with %u requests queued", h, g.kind, queued);
                    ok = 0;
                }
                mlc_msg_free(&g);
            }
        }
    }
    for (unsigned h = 0; h < H && ok; h++)
        if (rel[h] != 1) {
            snprintf(msg, sizeof msg, "host %u released %u times", h, rel[h]);
            ok = 0;
        }
    if (ok && net_counter_total(pt.net, MLC_NCTR + SBOX_CTR_BAR_DONE) != (uint64_t)sn.t->nsw)
        snprintf(msg, sizeof msg, "%llu barriers complete in the boxes, %d boxes",
                 (unsigned long long)net_counter_total(pt.net, MLC_NCTR + SBOX_CTR_BAR_DONE), sn.t->nsw), ok = 0;
    check(ok, name_b, msg);
    sf_sim_point_free(&pt);
    sf_sim_net_free(&sn);
}

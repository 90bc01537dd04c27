/* test_wl.c - tests of message workloads (sw/sim/sf_workload.c, the traffic layer's programs) and of the NIC's
 * route policies (sw/sim/sf_policy.c, probes in sw/sim/sf_nic.c): the built-in programs against their definitions,
 * the workload file's errors (FILE:LINE: problem), the policies' decisions, reordering counts, and whole runs on
 * small Clos networks: a lone pair near link rate, every workload and policy finishing without loss, a run stopped
 * by max-cycles saying who waits for what, determinism, and probing taking two colliding pairs apart.
 * Last line: "N passed, M failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "net.h"
#include "sf_policy.h"
#include "sf_route.h"
#include "sf_sim.h"
#include "sf_traffic.h"
#include "sf_workload.h"

#include "tcheck.h"

static char dir[64];

static void path_of(char *out, size_t n, const char *name) { snprintf(out, n, "%s/%s", dir, name); }

static void write_file(const char *name, const char *text)
{
    char p[128];
    path_of(p, sizeof p, name);
    FILE *f = fopen(p, "w");
    if (!f) {
        perror(p);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
}

/* ------------------------------------------------------------------ built-in programs */

/* the operations of host h */
static const sf_op *ops_of(const sf_workload *w, unsigned h, unsigned *n)
{
    *n = w->off[h + 1] - w->off[h];
    return w->ops + w->off[h];
}

static void test_builtins(void)
{
    sf_err e;
    sf_topo *t = sf_gen_clos(4, 4, 4, &e); /* 16 hosts, 4 a leaf */
    sf_wl_params p = {1000, 3, 0, 7};
    char msg[300] = "";
    int ok = 1;
    /* exchange: a perfect matching between two random halves; k x (send, recv) with the partner */
    sf_workload *w = sf_workload_builtin("exchange", t, &p, &e);
    int partner[16], same_seed = 1, other_seed_differs = 0;
    for (unsigned h = 0; h < 16 && w && ok; h++) {
        unsigned n;
        const sf_op *o = ops_of(w, h, &n);
        partner[h] = (int)o[0].peer;
        if (n != 6)
            ok = 0, snprintf(msg, sizeof msg, "host %u has %u operations, expected 6", h, n);
        for (unsigned i = 0; i < n && ok; i++)
            if (o[i].kind != (i % 2 ? SF_OP_RECV : SF_OP_SEND) || o[i].peer != (uint32_t)partner[h] ||
                o[i].arg != (i % 2 ? 1u : 1000u))
                ok = 0, snprintf(msg, sizeof msg, "host %u operation %u is not send 1000 / recv 1 with its partner", h, i);
    }
    for (unsigned h = 0; h < 16 && ok; h++)
        if (partner[h] == (int)h || partner[partner[h]] != (int)h)
            ok = 0, snprintf(msg, sizeof msg, "host %u's partner %d is not paired back", h, partner[h]);
    if (w && ok) {
        sf_workload *w2 = sf_workload_builtin("exchange", t, &p, &e);
        sf_wl_params p3 = p;
        p3.seed = 8;
        sf_workload *w3 = sf_workload_builtin("exchange", t, &p3, &e);
        same_seed = w2 && !memcmp(w2->ops, w->ops, w->nops * sizeof *w->ops);
        other_seed_differs = w3 && memcmp(w3->ops, w->ops, w->nops * sizeof *w->ops);
        sf_workload_free(w2);
        sf_workload_free(w3);
    }
    check(w && ok && same_seed && other_seed_differs && w->send_bytes == 16u * 3 * 1000,
          "exchange: every host has one partner (paired back), 3 x (send 1000, recv 1); one pattern per seed", msg);
    sf_workload_free(w);
    /* bridge: host k of leaf 2i with host k of leaf 2i+1 (hosts of leaf L are 4L..4L+3 in sanfab-topo clos) */
    w = sf_workload_builtin("bridge", t, &p, &e);
    ok = w != NULL;
    for (unsigned h = 0; h < 16 && ok; h++) {
        unsigned n;
        const sf_op *o = ops_of(w, h, &n);
        const unsigned want = ((h / 4) ^ 1u) * 4 + h % 4;
        if (o[0].peer != want)
            ok = 0, snprintf(msg, sizeof msg, "host %u pairs with %u, expected %u", h, o[0].peer, want);
    }
    check(ok, "bridge: host k of leaf 2i exchanges with host k of leaf 2i+1", msg);
    sf_workload_free(w);
    /* alltoall: H-1 sends to distinct hosts, then recv any H-1; phased: phase j pairs h with h^j */
    w = sf_workload_builtin("alltoall", t, &p, &e);
    ok = w != NULL;
    for (unsigned h = 0; h < 16 && ok; h++) {
        unsigned n, seen = 0;
        const sf_op *o = ops_of(w, h, &n);
        for (unsigned i = 0; i < 16; i++)
            if (o[i].kind == SF_OP_SEND)
                seen |= 1u << o[i].peer;
        if (n != 3 * 16 || seen != (0xFFFFu & ~(1u << h)) || o[15].kind != SF_OP_RECV || o[15].peer != SF_WL_ANY || o[15].arg != 15)
            ok = 0, snprintf(msg, sizeof msg, "host %u: %u operations, sent-to mask %x", h, n, seen);
    }
    check(ok, "alltoall: every host sends to the 15 others, then takes any 15 messages (3 times)", msg);
    sf_workload_free(w);
    w = sf_workload_builtin("alltoall-phased", t, &p, &e);
    ok = w != NULL;
    for (unsigned h = 0; h < 16 && ok; h++) {
        unsigned n;
        const sf_op *o = ops_of(w, h, &n);
        for (unsigned j = 1; j < 16 && ok; j++) {
            const sf_op *a = &o[2 * (j - 1)], *b = &o[2 * (j - 1) + 1];
            const unsigned q = h ^ j;
            const int lower_first = h < q;
            if (a->peer != q || b->peer != q || a->kind != (lower_first ? SF_OP_SEND : SF_OP_RECV) ||
                b->kind != (lower_first ? SF_OP_RECV : SF_OP_SEND))
                ok = 0, snprintf(msg, sizeof msg, "host %u phase %u", h, j);
        }
    }
    check(ok, "alltoall-phased: in phase j host h exchanges with h XOR j, the lower one sending first", msg);
    sf_workload_free(w);
    /* bcast-tree from root 5: every other host receives once, from a host that received before it sends */
    p.root = 5;
    p.messages = 1;
    w = sf_workload_builtin("bcast-tree", t, &p, &e);
    ok = w != NULL;
    unsigned recvs[16] = {0}, sends = 0;
    for (unsigned h = 0; h < 16 && ok; h++) {
        unsigned n;
        const sf_op *o = ops_of(w, h, &n);
        for (unsigned i = 0; i < n; i++) {
            if (o[i].kind == SF_OP_SEND) {
                sends++;
                recvs[o[i].peer]++;
                if (h != 5 && (o[0].kind != SF_OP_RECV))
                    ok = 0, snprintf(msg, sizeof msg, "host %u sends before it has received", h);
            }
        }
    }
    for (unsigned h = 0; h < 16 && ok; h++)
        if (recvs[h] != (h == 5 ? 0u : 1u))
            ok = 0, snprintf(msg, sizeof msg, "host %u receives %u times", h, recvs[h]);
    unsigned rootn;
    const sf_op *ro = ops_of(w, 5, &rootn);
    const int order = rootn == 4 && ro[0].peer == 6 && ro[1].peer == 7 && ro[2].peer == 9 && ro[3].peer == 13;
    check(ok && sends == 15 && order, "bcast-tree: a binomial tree from root 5 (the root sends to ranks 1, 2, 4, 8: the "
          "largest subtree first; each other host receives once)", msg);
    sf_workload_free(w);
    w = sf_workload_builtin("gather", t, &p, &e);
    unsigned gn;
    const sf_op *go = w ? ops_of(w, 5, &gn) : NULL;
    check(w && gn == 15 && go[0].kind == SF_OP_RECV && go[0].peer == 6 && go[14].peer == 4, "gather: the root receives from the 15 others in turn", "");
    sf_workload_free(w);
    /* bad names and parameters */
    w = sf_workload_builtin("alltoal", t, &p, &e);
    check(!w && strstr(e.msg, "unknown workload") && strstr(e.msg, "alltoall-phased"), "an unknown workload is refused, naming the workloads", e.msg);
    p.root = 16;
    w = sf_workload_builtin("gather", t, &p, &e);
    check(!w && strstr(e.msg, "root 16 out of range"), "a root past the last host is refused", e.msg);
    sf_topo_free(t);
}

/* ------------------------------------------------------------------ the workload file */

static void test_file(void)
{
    char p[128], msg[300];
    sf_err e;
    path_of(p, sizeof p, "w.wl");
    write_file("w.wl", "sanfab-workload 1\n# a ring twice, then everybody at a barrier\nrepeat 2\n  * send +1 100\n  * recv -1\nend\n"
                       "* barrier\n0-1,3 compute 10\n2 send ^1 7\n3 recv any 1\n");
    sf_workload *w = sf_workload_read(p, 4, &e);
    int ok = w != NULL;
    if (w) {
        unsigned n;
        const sf_op *o = ops_of(w, 2, &n);
        ok = n == 6 && o[0].kind == SF_OP_SEND && o[0].peer == 3 && o[0].arg == 100 && o[1].kind == SF_OP_RECV && o[1].peer == 1 &&
             o[4].kind == SF_OP_BARRIER && o[5].kind == SF_OP_SEND && o[5].peer == 3 && o[5].arg == 7;
        o = ops_of(w, 3, &n);
        ok = ok && n == 7 && o[5].kind == SF_OP_COMPUTE && o[5].arg == 10 && o[6].peer == SF_WL_ANY;
        snprintf(msg, sizeof msg, "host 3 has %u operations", n);
    } else
        snprintf(msg, sizeof msg, "%.290s", e.msg);
    check(ok, "a workload file: repeat blocks, +K/-K/^K peers, host ranges and lists, barrier, compute, recv any", msg);
    sf_workload_free(w);
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"sanfab-workload 2\n", "w.wl:1: first line must be"},
        {"sanfab-workload 1\n0 send 1\n", "w.wl:2: expected \"HOSTS send DST BYTES\""},
        {"sanfab-workload 1\n0 send 9 10\n", "w.wl:2: bad peer \"9\""},
        {"sanfab-workload 1\n0 send 0 10\n", "w.wl:2: host 0 would send to itself"},
        {"sanfab-workload 1\n0-9 send 1 10\n", "w.wl:2: bad host range"},
        {"sanfab-workload 1\n0 jump 1\n", "w.wl:2: unknown operation \"jump\""},
        {"sanfab-workload 1\n0 barrier\n", "w.wl:2: expected \"* barrier\""},
        {"sanfab-workload 1\nrepeat 2\n0 send 1 5\n", "w.wl:2: \"repeat\" without \"end\""},
        {"sanfab-workload 1\nend\n", "w.wl:2: \"end\" without \"repeat\""},
        {"sanfab-workload 1\n\n0 send 1 5\n1 recv 0 2\n", "host 1 receives 1 more message(s) from host 0"},
        {"sanfab-workload 1\n1 recv any\n", "host 1 receives 1 message(s) from any host, only 0"},
        {"sanfab-workload 1\n0 compute 0\n", "w.wl:2: expected \"HOSTS compute CYCLES\""},
        {"sanfab-workload 1\n* send ^4 5\n", "w.wl:2: peer ^4 of host 0 is host 4, past the last host 3"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file("w.wl", bad[i].text);
        w = sf_workload_read(p, 4, &e);
        snprintf(msg, sizeof msg, "a bad workload file is refused: %s", bad[i].want);
        check(!w && strstr(e.msg, bad[i].want) != NULL, msg, w ? "accepted" : e.msg);
        sf_workload_free(w);
    }
}

/* ------------------------------------------------------------------ route policies */

static void test_policy(void)
{
    const unsigned H = 3;
    uint16_t na[9] = {1, 4, 4, 4, 1, 1, 4, 1, 1};
    sf_rng r;
    sf_rng_seed(&r, 1);
    char msg[200] = "";
    /* static: drawn once per pair, kept whatever flow control says */
    sf_policy_params pp = {SF_POL_STATIC, 0, 1.0, 2};
    sf_policy *pol = sf_policy_new(&pp, H, na);
    unsigned a0 = sf_policy_route(pol, 0, 1, &r), same = 1;
    for (int i = 0; i < 50; i++) {
        sf_policy_sent(pol, 0, 1, 1, &r);
        same &= sf_policy_route(pol, 0, 1, &r) == a0;
    }
    check(same && a0 < 4, "static: a pair keeps the route drawn at its first packet, stopped or not", "");
    sf_policy_free(pol);
    /* oblivious: every route, about equally often */
    pp.kind = SF_POL_OBLIVIOUS;
    pol = sf_policy_new(&pp, H, na);
    unsigned cnt[4] = {0};
    for (int i = 0; i < 4000; i++)
        cnt[sf_policy_route(pol, 0, 2, &r)]++;
    int even = 1;
    for (int i = 0; i < 4; i++)
        even &= cnt[i] > 850 && cnt[i] < 1150;
    snprintf(msg, sizeof msg, "%u %u %u %u", cnt[0], cnt[1], cnt[2], cnt[3]);
    check(even && sf_policy_route(pol, 1, 2, &r) == 0, "oblivious: a random route per packet, each of 4 about a quarter of the time", msg);
    sf_policy_free(pol);
    /* adaptive: threshold 3, probability 1: the 4th stopped packet changes the route, to another one */
    pp = (sf_policy_params){SF_POL_ADAPTIVE, 3, 1.0, 2};
    pol = sf_policy_new(&pp, H, na);
    unsigned a = sf_policy_route(pol, 0, 1, &r), changed_at = 0;
    for (unsigned i = 1; i <= 10 && !changed_at; i++) {
        sf_policy_sent(pol, 0, 1, 1, &r);
        if (sf_policy_route(pol, 0, 1, &r) != a)
            changed_at = i;
    }
    sf_policy_sent(pol, 0, 1, 0, &r); /* a packet that went through counts nothing */
    sf_policy_counts pc;
    sf_policy_counts_get(pol, &pc);
    snprintf(msg, sizeof msg, "changed at stopped packet %u, %llu changes", changed_at, (unsigned long long)pc.changes);
    check(changed_at == 4 && pc.changes == 1 && pc.stopped == 4, "adaptive (4, 100 %): the 4th stopped packet past threshold 3 changes the route", msg);
    sf_policy_free(pol);
    pp.probability = 0;
    pol = sf_policy_new(&pp, H, na);
    a = sf_policy_route(pol, 0, 1, &r);
    for (int i = 0; i < 100; i++)
        sf_policy_sent(pol, 0, 1, 1, &r);
    check(sf_policy_route(pol, 0, 1, &r) == a, "adaptive with probability 0 never changes", "");
    sf_policy_free(pol);
    /* probing: the trigger asks for a probe of another route; a free answer takes it; busy answers probe again,
     * and after rounds x (routes - 1) busy ones the route changes anyway */
    pp = (sf_policy_params){SF_POL_PROBING, 0, 1.0, 2};
    pol = sf_policy_new(&pp, H, na);
    a = sf_policy_route(pol, 0, 1, &r);
    int pr = sf_policy_sent(pol, 0, 1, 1, &r);
    int waiting = sf_policy_probing(pol, 0, 1), again = sf_policy_sent(pol, 0, 1, 1, &r);
    int next = pr >= 0 ? sf_policy_probed(pol, 0, 1, (unsigned)pr, 0, &r) : -2;
    check(pr >= 0 && (unsigned)pr != a && waiting && again == -1 && next == -1 && sf_policy_route(pol, 0, 1, &r) == (unsigned)pr &&
              !sf_policy_probing(pol, 0, 1),
          "probing: a stopped packet asks for a probe of another route, the pair waits, a free answer takes that route", "");
    a = sf_policy_route(pol, 0, 1, &r);
    int busy_answers = 0, kept = 1;
    for (int i = 0; i < 100 && sf_policy_route(pol, 0, 1, &r) == a; i++) {
        pr = sf_policy_sent(pol, 0, 1, 1, &r);
        if (pr < 0)
            continue;
        busy_answers++;
        kept &= sf_policy_probed(pol, 0, 1, (unsigned)pr, 1, &r) == -1 && !sf_policy_probing(pol, 0, 1);
    }
    sf_policy_counts_get(pol, &pc);
    snprintf(msg, sizeof msg, "%d busy answers, forced %llu", busy_answers, (unsigned long long)pc.forced);
    check(busy_answers == 6 && kept && pc.forced == 1 && sf_policy_route(pol, 0, 1, &r) != a,
          "probing: after a busy answer the pair goes on and probes at its next stopped packet; after 2 rounds x 3 other "
          "routes of busy answers the route changes anyway", msg);
    check(sf_policy_probed(pol, 0, 1, 1, 0, &r) == -1 && pc.probes == 7, "probing: an answer nobody waits for changes nothing", "");
    sf_policy_free(pol);
    check(sf_policy_parse("probing") == SF_POL_PROBING && sf_policy_parse("first") == -1 && sf_policy_parse("x") == -1,
          "policy names: static, oblivious, adaptive, probing", "");
}

/* ------------------------------------------------------------------ reordering */

static void test_reorder(void)
{
    sf_err e;
    sf_topo *t = sf_gen_clos(2, 1, 1, &e); /* hosts 0 and 1 */
    char p[128];
    path_of(p, sizeof p, "r.wl");
    write_file("r.wl", "sanfab-workload 1\n0 send 1 2500\n1 recv 0\n1 send 0 10\n0 recv 1\n");
    sf_workload *w = sf_workload_read(p, 2, &e);
    sf_traffic_params tp = {.pattern = SF_TR_UNIFORM, .msg_units = 1000, .seed = 1, .wl = w, .mtu = 1000};
    sf_traffic *tr = w ? sf_traffic_new(t, &tp, &e) : NULL;
    int ok = tr != NULL;
    char msg[200] = "";
    if (tr) {
        sf_traffic_generate_all(tr, 0); /* host 0 queues 3 packets (1000, 1000, 500), host 1 waits */
        uint32_t seq;
        for (int i = 0; i < 3; i++) {
            const sf_msg *m = sf_traffic_head(tr, 0, &seq);
            ok = ok && m && seq == (uint32_t)i && m->dst == 1 && m->units == (i < 2 ? 1000u : 500u);
            sf_traffic_start(tr, 0, 1, 0);
        }
        ok = ok && !sf_traffic_head(tr, 1, &seq) && sf_traffic_max_units(tr) == 1000;
        sf_traffic_deliver(tr, 1, 1, 0, 0, 100);
        sf_traffic_deliver(tr, 1, 1, 0, 2, 101);
        sf_traffic_generate_all(tr, 102);
        ok = ok && !sf_traffic_head(tr, 1, &seq); /* 2 of 3 packets: host 1 still waits */
        sf_traffic_deliver(tr, 1, 1, 0, 1, 103);
        sf_traffic_generate_all(tr, 104);
        const sf_msg *m = sf_traffic_head(tr, 1, &seq); /* the message is whole: host 1 goes on and sends */
        ok = ok && m && m->dst == 0 && m->units == 10;
        sf_traffic_counts c;
        sf_traffic_counts_get(tr, &c, NULL);
        ok = ok && c.reordered == 1 && c.delivered == 3;
        sf_traffic_start(tr, 1, 105, 0);
        sf_traffic_deliver(tr, 0, 1, 1, 0, 150);
        sf_traffic_generate_all(tr, 151);
        sf_wl_result r;
        sf_traffic_workload(tr, 151, &r);
        uint64_t u0, u1;
        const uint64_t e0 = sf_traffic_host_end(tr, 0, &u0), e1 = sf_traffic_host_end(tr, 1, &u1);
        snprintf(msg, sizeof msg, "finished %d end %llu, host 0 ends %llu (%llu units), host 1 %llu (%llu)", r.finished,
                 (unsigned long long)r.end, (unsigned long long)e0, (unsigned long long)u0, (unsigned long long)e1,
                 (unsigned long long)u1);
        ok = ok && sf_traffic_done(tr) && r.finished && r.end == 151 && e0 == 151 && u0 == 2500 && e1 == 150 && u1 == 10 &&
             r.senders == 2 && r.messages == 2 && r.packets == 4 && r.msg_lat_max == 103;
    }
    check(ok, "a message cut into MTU packets completes when its last packet arrives, a packet overtaken counts as reordered, "
              "the receiver then goes on; a host ends when its program has and all it sent arrived", msg);
    sf_traffic_free(tr);
    sf_workload_free(w);
    sf_topo_free(t);
}

/* ------------------------------------------------------------------ whole runs */

typedef struct {
    sf_wl_result r;
    sf_nic_counts nic;
    sf_policy_counts pol;
    sf_traffic_counts all;
    uint64_t cycles;
} wlres;

/* runs the configuration's workload as sanfab-sim does, to its end or max-cycles */
static int run_wl(sf_sim_cfg *c, wlres *out, char *msg, size_t ml)
{
    sf_err e;
    if (sf_sim_cfg_check(c, &e)) {
        snprintf(msg, ml, "config: %.280s", e.msg);
        return -1;
    }
    sf_sim_net sn;
    if (sf_sim_net_load(c, &sn, &e)) {
        snprintf(msg, ml, "net: %.280s", e.msg);
        return -1;
    }
    sf_sim_point pt;
    if (sf_sim_point_build(c, &sn, -1, NULL, NULL, &pt, &e)) {
        snprintf(msg, ml, "build: %.280s", e.msg);
        sf_sim_net_free(&sn);
        return -1;
    }
    net_set_skip(pt.net, !c->no_skip);
    while (!sf_traffic_done(pt.tr) && net_cycle(pt.net) < c->max_cycles)
        net_step(pt.net);
    memset(out, 0, sizeof *out);
    out->cycles = net_cycle(pt.net);
    sf_traffic_workload(pt.tr, out->cycles, &out->r);
    sf_nics_counts(pt.nics, &out->nic);
    sf_nics_policy_counts(pt.nics, &out->pol);
    sf_traffic_counts_get(pt.tr, &out->all, NULL);
    sf_sim_point_free(&pt);
    sf_sim_net_free(&sn);
    return 0;
}

/* a crossbar-network config over dir/NAME.topo and dir/NAME.routes */
static void cfg_for(sf_sim_cfg *c, const char *topo, const char *routes)
{
    sf_sim_cfg_default(c);
    path_of(c->topology, sizeof c->topology, topo);
    path_of(c->routes, sizeof c->routes, routes);
    c->links = 0;
}

static void make_clos(const char *name, int leaves, int hosts, int spines)
{
    sf_err e;
    sf_topo *t = sf_gen_clos(leaves, hosts, spines, &e);
    char p[128];
    snprintf(p, sizeof p, "%s/%s.topo", dir, name);
    FILE *f = fopen(p, "w");
    sf_topo_write(t, f);
    fclose(f);
    sf_route_opts o;
    sf_route_opts_default(&o);
    sf_routes *rs = sf_route_allud(t, &o, &e);
    snprintf(p, sizeof p, "%s/%s.routes", dir, name);
    f = fopen(p, "w");
    sf_write_routes(rs, f);
    fclose(f);
    sf_routes_free(rs);
    sf_topo_free(t);
}

static void test_runs(void)
{
    char msg[400], name[200];
    wlres a, b;
    sf_sim_cfg c;
    make_clos("c8", 4, 2, 2);   /* 8 hosts, 2 routes a pair between leaves */
    make_clos("c4", 2, 2, 2);   /* 4 hosts */
    /* a lone pair: 256 KB in 4 KB packets at close to the link rate (1 byte a cycle), never above it */
    write_file("pair.wl", "sanfab-workload 1\n0 send 7 131072\n7 recv 0\n");
    cfg_for(&c, "c8.topo", "c8.routes");
    path_of(c.workload_file, sizeof c.workload_file, "pair.wl");
    c.mtu = 2048;
    int rc = run_wl(&c, &a, msg, sizeof msg);
    if (!rc)
        snprintf(msg, sizeof msg, "finished %d, %.4f bytes/cycle, %llu packets", a.r.finished, a.r.bw_avg,
                 (unsigned long long)a.r.packets);
    check(!rc && a.r.finished && a.r.packets == 64 && a.r.senders == 1 && a.r.bw_avg > 0.98 && a.r.bw_avg <= 1.0,
          "a lone pair moves 128 KB in 64 packets of 2 KB at 0.98..1 byte a cycle", msg);
    /* every workload and every policy: finishes, every packet delivered once, nothing lost or misrouted */
    static const char *wls[] = {"exchange", "bridge", "alltoall", "alltoall-phased", "bcast-serial", "bcast-tree", "gather", "barrier"};
    static const sf_policy_kind pols[] = {SF_POL_STATIC, SF_POL_OBLIVIOUS, SF_POL_ADAPTIVE, SF_POL_PROBING};
    int all_ok = 1;
    msg[0] = 0;
    for (size_t i = 0; i < sizeof wls / sizeof wls[0]; i++)
        for (size_t j = 0; j < 4; j++) {
            cfg_for(&c, "c8.topo", "c8.routes");
            snprintf(c.workload, sizeof c.workload, "%s", wls[i]);
            c.wlp.bytes = strcmp(wls[i], "barrier") ? 5000 : 8;
            c.wlp.messages = 2;
            c.mtu = 2048;
            c.nic.pol.kind = pols[j];
            c.nic.pol.threshold = 0;
            c.tr.seed = 1 + i;
            if (run_wl(&c, &a, msg, sizeof msg) || !a.r.finished || a.all.delivered != a.r.packets || a.all.generated != a.r.packets ||
                a.nic.lost_aborted + a.nic.lost_crc + a.nic.ctl_lost + a.all.misrouted + a.all.duplicate + a.nic.rx_overflow) {
                if (all_ok)
                    snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " %s/%s: finished %d, %llu of %llu packets", wls[i],
                             sf_policy_name(pols[j]), a.r.finished, (unsigned long long)a.all.delivered,
                             (unsigned long long)a.r.packets);
                all_ok = 0;
            }
        }
    check(all_ok, "every built-in workload under every policy finishes on a Clos, every packet delivered once, nothing lost", msg);
    /* the same run twice, and with every switch stepped: the same results */
    cfg_for(&c, "c8.topo", "c8.routes");
    snprintf(c.workload, sizeof c.workload, "exchange");
    c.wlp.bytes = 20000;
    c.wlp.messages = 2;
    c.nic.pol.kind = SF_POL_PROBING;
    c.nic.pol.threshold = 0;
    c.tr.seed = 5;
    int r1 = run_wl(&c, &a, msg, sizeof msg), r2 = run_wl(&c, &b, msg, sizeof msg);
    int same = !r1 && !r2 && a.cycles == b.cycles && a.r.bw_avg == b.r.bw_avg && a.pol.probes == b.pol.probes;
    c.no_skip = 1;
    r2 = run_wl(&c, &b, msg, sizeof msg);
    same = same && !r2 && a.cycles == b.cycles && a.r.bw_min == b.r.bw_min && a.pol.changes == b.pol.changes;
    snprintf(name, sizeof name, "a probing exchange is deterministic and the same with every switch stepped (%llu cycles, %llu probes)",
             (unsigned long long)a.cycles, (unsigned long long)a.pol.probes);
    check(same, name, "differs");
    /* max-cycles stops a run and says who waits for what */
    cfg_for(&c, "c8.topo", "c8.routes");
    snprintf(c.workload, sizeof c.workload, "gather");
    c.wlp.bytes = 100000;
    c.max_cycles = 5000;
    rc = run_wl(&c, &a, msg, sizeof msg);
    check(!rc && !a.r.finished && a.r.waiting_host == 0 && strstr(a.r.waiting, "recv from host 1"),
          "a run stopped by max-cycles is not finished and names the host and what it waits for", a.r.waiting);
    /* probing takes two pairs that collide on one spine apart: find a seed where static collides (each pair at
     * half the link rate), then probing on the same seed ends with both near the link rate */
    int found = 0;
    double st_min = 0, pr_min = 0;
    uint64_t changes = 0;
    for (uint64_t seed = 1; seed < 40 && !found; seed++) {
        cfg_for(&c, "c4.topo", "c4.routes");
        snprintf(c.workload, sizeof c.workload, "bridge");
        c.wlp.bytes = 60000;
        c.wlp.messages = 1;
        c.mtu = 1024;
        c.tr.seed = seed;
        /* buffers that hold several packet heads' fall-through, and a host slower than the link (as Myri-10G's):
         * a lone stream is never stopped, only contention stops it */
        c.slack = 255;
        c.stop = 192;
        c.go = 128;
        c.nic.tx_per_64 = 58;
        c.nic.pol.kind = SF_POL_STATIC;
        if (run_wl(&c, &a, msg, sizeof msg) || a.r.bw_max > 0.7 || a.pol.stopped == 0)
            continue;
        found = 1;
        st_min = a.r.bw_min;
        c.nic.pol.kind = SF_POL_PROBING;
        c.nic.pol.threshold = 4;
        if (!run_wl(&c, &b, msg, sizeof msg)) {
            pr_min = b.r.bw_min;
            changes = b.pol.changes;
        }
    }
    snprintf(msg, sizeof msg, "found %d: static min %.3f, probing min %.3f after %llu changes", found, st_min, pr_min,
             (unsigned long long)changes);
    check(found && pr_min > st_min + 0.3 && changes >= 1, "probing separates two pairs that static routing put on one spine", msg);
    /* a lone stream slower than the link is never stopped: nothing to disperse */
    cfg_for(&c, "c8.topo", "c8.routes");
    path_of(c.workload_file, sizeof c.workload_file, "pair.wl");
    c.slack = 255;
    c.stop = 192;
    c.go = 128;
    c.nic.tx_per_64 = 58;
    c.nic.pol.kind = SF_POL_PROBING;
    rc = run_wl(&c, &a, msg, sizeof msg);
    snprintf(msg, sizeof msg, "%.4f bytes/cycle, %llu stopped, %llu probes", a.r.bw_avg, (unsigned long long)a.pol.stopped,
             (unsigned long long)a.pol.probes);
    check(!rc && a.r.finished && a.pol.stopped == 0 && a.pol.probes == 0 && a.r.bw_avg > 0.88 && a.r.bw_avg <= 58.0 / 64,
          "a lone pair whose host copies 58 bytes per 64 cycles into its NIC runs at that rate (0.88..0.91 byte a cycle), never stopped, never probing", msg);
    /* a half-duplex NIC (Etsion et al. 2000's LANai): the host side's rate is shared by sending and receiving. One way, a host
     * only sends or only receives: the rate, as full duplex; both ways at once, each host sends at most half of it */
    write_file("oneway.wl", "sanfab-workload 1\n0 send 7 65536\n7 recv 0\n");
    write_file("twoway.wl", "sanfab-workload 1\n0 send 7 65536\n7 send 0 65536\n0 recv 7\n7 recv 0\n");
    double bw[2][2] = {{0, 0}, {0, 0}};
    int hd_ok = 1;
    for (int half = 0; half < 2; half++)
        for (int two = 0; two < 2; two++) {
            cfg_for(&c, "c8.topo", "c8.routes");
            path_of(c.workload_file, sizeof c.workload_file, two ? "twoway.wl" : "oneway.wl");
            c.mtu = 1024;
            c.nic.tx_per_64 = 32;
            c.nic.half_duplex = (uint8_t)half;
            c.nic.rx_buf = 4096; /* packets taken from the link into the NIC's memory at link rate */
            c.nic.rx_stop = 3072;
            c.nic.rx_go = 2048;
            if (run_wl(&c, &a, msg, sizeof msg) || !a.r.finished || a.all.delivered != a.r.packets || a.nic.rx_overflow)
                hd_ok = 0;
            bw[half][two] = a.r.bw_avg;
        }
    snprintf(msg, sizeof msg, "bytes/cycle a host: full duplex one way %.4f, two ways %.4f; half duplex one way %.4f, two ways %.4f",
             bw[0][0], bw[0][1], bw[1][0], bw[1][1]);
    check(hd_ok && bw[0][0] > 0.47 && bw[0][0] <= 0.5 && bw[1][0] > 0.47 && bw[1][0] <= 0.5 && bw[0][1] > 0.47 && bw[0][1] <= 0.5,
          "nic-inject 32: a host sends at 0.47..0.5 byte a cycle one way (full or half duplex) and two ways (full duplex)", msg);
    check(hd_ok && bw[1][1] > 0.2 && bw[1][1] <= 0.25,
          "nic-inject 32, half duplex: a pair sending both ways at once gets 0.2..0.25 byte a cycle a host (the rate shared by its two directions)", msg);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    snprintf(dir, sizeof dir, "/tmp/sanfab-test-wl-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    test_builtins();
    test_file();
    test_policy();
    test_reorder();
    test_runs();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_wl: could not remove %s\n", dir);
    return tcheck_summary();
}

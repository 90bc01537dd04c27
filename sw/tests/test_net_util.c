/* test_net_util.c - the helpers the test_net topic files share: whole networks built and run as
 * sanfab-sim does, the clockwise ring, a run's JSON, VC networks through files */
#include "test_net.h"

/* ------------------------------------------------------------------ helpers for whole networks */

sf_sim_net mknet(sf_topo *t, sf_routes *rs)
{
    sf_sim_net n;
    memset(&n, 0, sizeof n);
    n.t = t;
    n.rs = rs;
    snprintf(n.algo, sizeof n.algo, "%s", rs->algo);
    n.cyclic = sf_check_deadlock(rs, n.cycle, sizeof n.cycle);
    return n;
}

/* build load point `load` of the configuration's network as sanfab-sim does (sf_sim_point_build), generate for `gen`
 * cycles, then drain for at most `drain` cycles */
int run_net(const sf_sim_cfg *c, const sf_sim_net *sn, double load, uint64_t gen, uint64_t drain, runres *r,
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
    else if (c->k == SF_KIND_SBOX)
        sf_mnics_counts(pt.nics, &r->mnic);
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

/* A ring of 4 switches, one host each, and a route set in which every route runs clockwise on VC 0: its channel
 * dependency graph is a cycle. NULL (the message in e) if the topology is refused. */
sf_topo *ring4_clockwise(sf_routes **rs, sf_err *e)
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

char *run_json(const sf_sim_cfg *c, const sf_sim_net *sn, size_t *len)
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

/* topology and routes through files, loaded as sanfab-sim loads them (tables written from the routes) */
int load_vc(sf_sim_cfg *c, const sf_topo *t, const sf_routes *rs, sf_sim_net *sn, char *msg, size_t ml)
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

void vc_cfg(sf_sim_cfg *c)
{
    sf_sim_cfg_default(c);
    sf_err e;
    sf_sim_cfg_set(c, "switch", "vcsw", "test", 0, &e);
    sf_sim_cfg_set(c, "load", "0.1", "test", 0, &e);
}
void vc_summary(char *msg, size_t ml, const runres *r)
{
    snprintf(msg, ml, "generated %llu delivered %llu in flight %llu queued %llu corrupt %llu length %llu misrouted %llu dup %llu "
             "overflow %llu stops %llu",
             (unsigned long long)r->all.generated, (unsigned long long)r->all.delivered, (unsigned long long)r->in_flight,
             (unsigned long long)r->queued, (unsigned long long)r->vnic.lost_corrupt, (unsigned long long)r->vnic.lost_length,
             (unsigned long long)r->all.misrouted, (unsigned long long)r->all.duplicate,
             (unsigned long long)r->vnic.rx_overflow, (unsigned long long)r->vnic.stops_sent);
}

int vc_clean(const runres *r)
{
    return r->all.generated > 100 && r->all.delivered == r->all.generated && r->in_flight == 0 && r->queued == 0 &&
           r->vnic.lost_corrupt + r->vnic.lost_length + r->vnic.rx_overflow + r->all.misrouted + r->all.duplicate == 0;
}

/* sf_sim.c - one load point's run and a workload's run of the network simulator (sf_sim.h); the configuration is in
 * sf_simkeys.c and sf_simcfg.c, the network in sf_simnet.c, the JSON head and tail in sf_simjson.c. */
#include "sf_sim_int.h"

#include "link.h"
#include "net.h"
#include "sf_cli.h"
#include "sf_route_cli.h"
#include "sf_topo_cli.h"
#include "sf_util.h"
#include "vcsw_net.h"
#include "xbar.h"
#include "xbar_net.h"

#include <unistd.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------ one load point */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void sf_sim_busy_mask(sf_kind k, uint64_t *mask, uint64_t *value)
{
    *mask = k == SF_KIND_VCSW ? VCSW_NET_VALID : k == SF_KIND_SBOX ? SBOX_NET_EN : XBAR_NET_BUSY_MASK;
    *value = k == SF_KIND_VCSW ? VCSW_NET_VALID : k == SF_KIND_SBOX ? SBOX_NET_EN : 0;
}

int sf_sim_point_nics(const sf_sim_cfg *c, const sf_sim_net *n, int li, sf_sim_point *pt, sf_err *e)
{
    const sf_topo *t = n->t;
    memset(pt, 0, sizeof *pt);
    pt->k = c->k;
    sf_traffic_params tp = c->tr;
    if (li < 0) {
        if (!n->wl || c->k == SF_KIND_VCSW) {
            snprintf(e->msg, sizeof e->msg, "no workload to run (workloads run on the crossbar and Maestro networks)");
            return -1;
        }
        tp.wl = n->wl;
        tp.mtu = c->mtu;
        tp.rate = 0;
        tp.msg_units = c->mtu;
        tp.nic_barrier = c->k == SF_KIND_SBOX; /* the boxes' barrier (the crossbar network: the simulator's) */
    } else if (c->k == SF_KIND_SBOX) {
        tp.msg_units = c->mnic.msg_bytes;
        tp.rate = c->loads[li] / c->mnic.msg_bytes; /* payload bytes/host/cycle -> messages per cycle per host */
        if (tp.pattern == SF_TR_MULTICAST && !tp.mcast_k)
            tp.mcast_k = (unsigned)t->nhost - 1u; /* every other host */
    } else if (c->k == SF_KIND_VCSW) {
        tp.msg_units = c->vnic.packet_flits;
        tp.rate = c->loads[li] / c->vnic.packet_flits; /* flits/host/cycle -> packets per cycle per host */
    } else {
        tp.msg_units = c->nic.msg_size;
        tp.rate = c->loads[li] * c->ns_per_cycle * t->nsw / t->nhost / c->nic.msg_size; /* messages per cycle per host */
    }
    pt->tr = sf_traffic_new(t, &tp, e);
    if (!pt->tr)
        return -1;
    if (c->k == SF_KIND_VCSW) {
        pt->nics = sf_vcnics_new(t, n->tables, &c->vnic, pt->tr, e);
        pt->nic_step = sf_vcnics_step;
    } else if (c->k == SF_KIND_SBOX) {
        pt->nics = sf_mnics_new(t, &c->mnic, pt->tr, e);
        pt->nic_step = sf_mnics_step;
    } else {
        pt->nics = sf_nics_new(t, n->rs, &c->nic, pt->tr, e);
        pt->nic_step = sf_nics_step;
    }
    if (!pt->nics) {
        sf_sim_point_free(pt);
        return -1;
    }
    return 0;
}

void sf_sim_point_free(sf_sim_point *pt)
{
    net_free(pt->net);
    if (pt->k == SF_KIND_VCSW)
        sf_vcnics_free(pt->nics);
    else if (pt->k == SF_KIND_SBOX)
        sf_mnics_free(pt->nics);
    else
        sf_nics_free(pt->nics);
    sf_traffic_free(pt->tr);
    memset(pt, 0, sizeof *pt);
}

void sf_sim_point_losses(const sf_sim_point *pt, uint64_t *lost_msgs, uint64_t *rx_overflow)
{
    if (pt->k == SF_KIND_VCSW) {
        sf_vcnic_counts v;
        sf_vcnics_counts(pt->nics, &v);
        *lost_msgs = v.lost_corrupt + v.lost_length;
        *rx_overflow = v.rx_overflow;
    } else if (pt->k == SF_KIND_SBOX) {
        sf_mnic_counts m;
        sf_mnics_counts(pt->nics, &m);
        *lost_msgs = m.lost_corrupt;
        *rx_overflow = 0;
    } else {
        sf_nic_counts m;
        sf_nics_counts(pt->nics, &m);
        *lost_msgs = m.lost_aborted + m.lost_crc + m.lost_itb_pool;
        *rx_overflow = m.rx_overflow;
    }
}

int sf_sim_point_build(const sf_sim_cfg *c, const sf_sim_net *n, int li, net_nic_fn nic_fn, void *nic_ctx,
                       sf_sim_point *pt, sf_err *e)
{
    const sf_topo *t = n->t;
    const unsigned S = (unsigned)t->nsw, H = (unsigned)t->nhost, NL = (unsigned)sf_topo_nlinks(t);
    if (sf_sim_point_nics(c, n, li, pt, e))
        return -1;
    /* the fabric's description of the topology; a VC network's cables are inside its switches (LINK_DELAY) and
     * its NICs, so its links have delay 0; a Maestro network's links, hosts' too, all have the one link delay */
    const int vc = c->k == SF_KIND_VCSW, mb = c->k == SF_KIND_SBOX;
    const unsigned ld = vc ? 0 : c->link_delay, hd = vc ? 0 : mb ? c->link_delay : c->host_delay;
    unsigned *nports = calloc(S, sizeof *nports);
    net_link_desc *links = calloc(NL ? NL : 1, sizeof *links);
    net_host_desc *hosts = calloc(H, sizeof *hosts);
    if (!nports || !links || !hosts) {
        fprintf(stderr, "sanfab-sim: out of memory\n");
        exit(2);
    }
    for (unsigned s = 0; s < S; s++)
        nports[s] = (unsigned)t->sw[s].nports;
    for (unsigned l = 0; l < NL; l++)
        links[l] = (net_link_desc){(unsigned)t->ch_from[2 * l], (unsigned)t->ch_fport[2 * l], (unsigned)t->ch_to[2 * l],
                                   (unsigned)t->ch_tport[2 * l], ld};
    for (unsigned h = 0; h < H; h++)
        hosts[h] = (net_host_desc){(unsigned)t->host[h].sw, (unsigned)t->host[h].port, hd};
    net_desc d = {S, NL, H, nports, links, hosts};
    xbar_params_t xp = xbar_default_params();
    xp.SLACK_DEPTH = c->slack;
    xp.STOP_THRESH = c->stop;
    xp.GO_THRESH = c->go;
    xp.ROUTE_DELAY = c->route_delay;
    xp.TIMEOUT = c->timeout;
    xp.LINK_DELAY = 0; /* cables are the fabric's links */
    xp.COUNTERS = 0;
    vcsw_net_params_t vp = {c->vcsw, n->tables};
    const sf_mnic_params *m = &c->mnic;
    sbox_net_params_t sp = {{8, H, m->link_w, m->fifo_bytes, m->turn, m->timeout, m->ctr_w, 0, c->link_delay}, S, n->boxes};
    char err[300];
    pt->net = net_new(&d, net_switch_kind(c->kind), vc ? (const void *)&vp : mb ? (const void *)&sp : (const void *)&xp,
                      nic_fn ? nic_fn : pt->nic_step, nic_fn ? nic_ctx : pt->nics, err, sizeof err);
    free(nports);
    free(links);
    free(hosts);
    if (!pt->net) {
        snprintf(e->msg, sizeof e->msg, "%.250s: %.300s", TN(c), err);
        sf_sim_point_free(pt);
        return -1;
    }
    uint64_t mask, value;
    sf_sim_busy_mask(c->k, &mask, &value);
    net_set_busy_mask(pt->net, mask, value);
    return 0;
}

/* Flits (data characters) moved over every channel so far. */
static uint64_t busy_total(const net_t *net)
{
    uint64_t t = 0;
    const unsigned NC = net_nchannels(net);
    for (unsigned ch = 0; ch < NC; ch++)
        t += net_channel_busy(net, ch);
    return t;
}

/* Watch for a deadlock: the cycle a flit last moved (checked every 1024 cycles). */
typedef struct {
    uint64_t limit, last_busy, last_move;
    int dead;
} stall_t;

/* Runs up to n cycles; stops early (returns 1) when no flit has moved for the limit while messages are in flight. */
static int run_cycles(net_t *net, const sf_traffic *tr, uint64_t n, uint64_t *done, uint64_t total, sf_sim_progress prog,
                      void *pctx, stall_t *st)
{
    for (uint64_t i = 0; i < n; i++) {
        net_step(net);
        ++*done;
        if (prog && (*done & 16383u) == 0)
            prog(pctx, *done, total);
        if (st->limit && (*done & 1023u) == 0) {
            const uint64_t b = busy_total(net), now = net_cycle(net);
            if (b != st->last_busy || sf_traffic_in_flight(tr) == 0) {
                st->last_busy = b;
                st->last_move = now;
            } else if (now - st->last_move >= st->limit) {
                st->dead = 1;
                return 1;
            }
        }
    }
    return 0;
}

int sf_sim_run_point(const sf_sim_cfg *c, const sf_sim_net *n, int li, FILE *out, int with_time, sf_sim_progress prog,
                     void *pctx, double *offered, double *accepted, int *saturated, double *seconds, double *flit_hops,
                     uint64_t *cycles_run, sf_err *e)
{
    const sf_topo *t = n->t;
    const unsigned S = (unsigned)t->nsw, H = (unsigned)t->nhost, NL = (unsigned)sf_topo_nlinks(t);
    const int vc = c->k == SF_KIND_VCSW, mb = c->k == SF_KIND_SBOX, xb = c->k == SF_KIND_XBAR;
    const char *unit = mb ? "bytes" : "flits"; /* a host's traffic: payload bytes (sbox), flits */
    sf_sim_point pt;
    const double load = c->loads[li];
    if (sf_sim_point_build(c, n, li, NULL, NULL, &pt, e))
        return -1;
    net_t *net = pt.net;
    sf_traffic *tr = pt.tr;
    net_set_skip(net, !c->no_skip); /* quiet switches are skipped: same results, faster */
    const net_switch_ops *k = net_kind(net);
    const unsigned NC = net_nchannels(net);
    uint64_t *busy0 = calloc(NC, sizeof *busy0);
    if (!busy0) {
        fprintf(stderr, "sanfab-sim: out of memory\n");
        exit(2);
    }
    double t0 = now_s();
    uint64_t done = 0, total = c->warmup + c->cycles + c->drain;
    stall_t st = {c->deadlock_limit, 0, 0, 0};
    run_cycles(net, tr, c->warmup, &done, total, prog, pctx, &st);
    const uint64_t wstart = net_cycle(net);
    sf_traffic_window_start(tr, wstart);
    sf_nic_counts mc_wstart;
    memset(&mc_wstart, 0, sizeof mc_wstart);
    if (xb) {
        sf_nics_window_start(pt.nics, wstart);
        sf_nics_counts(pt.nics, &mc_wstart);
    }
    for (unsigned ch = 0; ch < NC; ch++)
        busy0[ch] = net_channel_busy(net, ch);
    uint64_t tmo0 = k->ctr_timeout >= 0 ? net_counter_total(net, (unsigned)k->ctr_timeout) : 0;
    if (!st.dead)
        run_cycles(net, tr, c->cycles, &done, total, prog, pctx, &st);
    const uint64_t wend = net_cycle(net);
    const double W = wend > wstart ? (double)(wend - wstart) : 1.0; /* the window (shorter if the network deadlocked) */
    uint64_t tmo_win = (k->ctr_timeout >= 0 ? net_counter_total(net, (unsigned)k->ctr_timeout) : 0) - tmo0;
    sf_traffic_counts all, win;
    sf_traffic_counts_get(tr, &all, &win);
    sf_lat lat;
    sf_traffic_latency(tr, &lat);
    /* the NICs' counts at the window's end (ITB packets of the window: their difference from those at its start) */
    sf_nic_counts mc_wend;
    memset(&mc_wend, 0, sizeof mc_wend);
    if (xb)
        sf_nics_counts(pt.nics, &mc_wend);
    /* ITB pools (crossbar network) */
    double pool_avg_mean = 0, pool_avg_max = 0;
    uint64_t pool_max_pkts = 0, pool_max_bytes = 0;
    double *pavg = calloc(H, sizeof *pavg);
    uint64_t *pmax = calloc(H, sizeof *pmax);
    for (unsigned h = 0; h < H && xb; h++) {
        double ab;
        uint64_t mb;
        sf_nics_pool(pt.nics, h, wend, &pavg[h], &pmax[h], &ab, &mb);
        pool_avg_mean += pavg[h] / H;
        if (pavg[h] > pool_avg_max)
            pool_avg_max = pavg[h];
        if (pmax[h] > pool_max_pkts)
            pool_max_pkts = pmax[h];
        if (mb > pool_max_bytes)
            pool_max_bytes = mb;
    }
    /* links in the window: busy0[ch] becomes the flits channel ch carried in the window (a drain adds none) */
    double umax = 0, usum = 0, inj = 0, ej = 0, hops_win = 0;
    for (unsigned ch = 0; ch < NC; ch++) {
        busy0[ch] = net_channel_busy(net, ch) - busy0[ch];
        const double b = (double)busy0[ch];
        hops_win += b;
        if (ch < 2 * NL) {
            usum += b / W;
            if (b / W > umax)
                umax = b / W;
        } else if (((ch - 2 * NL) & 1) == 0)
            inj += b / W / H;
        else
            ej += b / W / H;
    }
    /* drain */
    uint64_t drained = 0;
    if (c->drain && !st.dead) {
        sf_traffic_set_generate(tr, 0);
        while (drained < c->drain) {
            uint64_t step = c->drain - drained < 1024 ? c->drain - drained : 1024;
            int dead = run_cycles(net, tr, step, &done, total, prog, pctx, &st);
            drained += step;
            if (dead || sf_traffic_in_flight(tr) == 0)
                break;
        }
        sf_traffic_counts_get(tr, &all, NULL);
    }
    double secs = now_s() - t0;
    double hops_all = (double)busy_total(net);
    const double ns = c->ns_per_cycle;
    /* offered and accepted traffic: payload bytes per ns per switch (xbar), flits per cycle per host (vcsw) */
    const double off_h = (double)win.gen_units / W / H, acc_h = (double)win.deliv_units / W / H;
    const double off_c = (double)win.gen_units / W / S, acc_c = (double)win.deliv_units / W / S;
    *offered = xb ? off_c / ns : off_h;
    *accepted = xb ? acc_c / ns : acc_h;
    /* the hotspot host alone (hotspot traffic): its own share can saturate while the total still passes */
    const int hot = sf_traffic_hotspot(tr);
    const double hot_off = (double)win.hot_gen_units / W, hot_acc = (double)win.hot_deliv_units / W;
    const int hot_sat = hot >= 0 && hot_acc < c->sat_ratio * hot_off;
    *saturated = (acc_h < c->sat_ratio * off_h ? SF_SIM_SAT_TOTAL : 0) | (hot_sat ? SF_SIM_SAT_HOTSPOT : 0);
    *seconds = secs;
    *flit_hops = hops_all;
    *cycles_run = net_cycle(net);
    /* JSON */
    fprintf(out, "  {\"load\": ");
    sf_sim_jnum(out, load);
    if (xb) {
        fprintf(out, ", \"offered_flits_ns_sw\": ");
        sf_sim_jnum(out, *offered);
        fprintf(out, ", \"accepted_flits_ns_sw\": ");
        sf_sim_jnum(out, *accepted);
        fprintf(out, ", \"offered_flits_cycle_sw\": ");
        sf_sim_jnum(out, off_c);
        fprintf(out, ", \"accepted_flits_cycle_sw\": ");
        sf_sim_jnum(out, acc_c);
    }
    fprintf(out, ", \"offered_%s_cycle_host\": ", unit);
    sf_sim_jnum(out, off_h);
    fprintf(out, ", \"accepted_%s_cycle_host\": ", unit);
    sf_sim_jnum(out, acc_h);
    if (mb) { /* bytes/cycle x 8 bits / ns per cycle = Gbit/s; x 1000 = Mbit/s */
        fprintf(out, ", \"accepted_mbit_s_host\": ");
        sf_sim_jnum(out, acc_h * 8.0 / ns * 1000.0);
    }
    fprintf(out, ", \"saturated\": %s,\n   ", *saturated ? "true" : "false");
    if (hot >= 0) {
        fprintf(out, "\"hotspot_host\": {\"host\": %d, ", hot);
        if (!xb) {
            fprintf(out, "\"offered_%s_cycle\": ", unit);
            sf_sim_jnum(out, hot_off);
            fprintf(out, ", \"accepted_%s_cycle\": ", unit);
            sf_sim_jnum(out, hot_acc);
        } else {
            fprintf(out, "\"offered_flits_ns\": ");
            sf_sim_jnum(out, hot_off / ns);
            fprintf(out, ", \"accepted_flits_ns\": ");
            sf_sim_jnum(out, hot_acc / ns);
        }
        fprintf(out, ", \"saturated\": %s},\n   ", hot_sat ? "true" : "false");
    }
    fprintf(out, "\"messages\": {\"window_generated\": %llu, \"window_delivered\": %llu, \"latency_samples\": %llu, "
                 "\"generated\": %llu, \"injected\": %llu, \"delivered\": %llu, \"in_flight\": %llu, \"queued\": %llu, ",
            (unsigned long long)win.generated, (unsigned long long)win.delivered, (unsigned long long)lat.count,
            (unsigned long long)all.generated, (unsigned long long)all.injected, (unsigned long long)all.delivered,
            (unsigned long long)sf_traffic_in_flight(tr), (unsigned long long)sf_traffic_queued(tr));
    sf_nic_counts mc;
    sf_vcnic_counts vcc;
    sf_mnic_counts mnc;
    memset(&mc, 0, sizeof mc);
    memset(&vcc, 0, sizeof vcc);
    memset(&mnc, 0, sizeof mnc);
    if (mb) {
        sf_mnics_counts(pt.nics, &mnc);
        fprintf(out, "\"lost_corrupt\": %llu, \"misdelivered\": %llu, ", (unsigned long long)mnc.lost_corrupt,
                (unsigned long long)mnc.misdelivered);
    } else if (vc) {
        sf_vcnics_counts(pt.nics, &vcc);
        fprintf(out, "\"lost_corrupt\": %llu, \"lost_length\": %llu, ", (unsigned long long)vcc.lost_corrupt,
                (unsigned long long)vcc.lost_length);
    } else {
        sf_nics_counts(pt.nics, &mc);
        fprintf(out, "\"lost_aborted\": %llu, \"lost_crc\": %llu, \"lost_itb_pool\": %llu, ", (unsigned long long)mc.lost_aborted,
                (unsigned long long)mc.lost_crc, (unsigned long long)mc.lost_itb_pool);
    }
    fprintf(out, "\"misrouted\": %llu, \"duplicate\": %llu, \"nic_rx_overflow\": %llu, \"drain_cycles\": %llu},\n   ",
            (unsigned long long)all.misrouted, (unsigned long long)all.duplicate,
            (unsigned long long)(vc ? vcc.rx_overflow : mb ? 0 : mc.rx_overflow), (unsigned long long)drained);
    sf_sim_lat_json(out, "latency_cycles", &lat, 1.0);
    if (!vc) {
        fprintf(out, ",\n   ");
        sf_sim_lat_json(out, "latency_ns", &lat, ns);
    }
    if (xb) {
        fprintf(out, ",\n   \"itbs_per_msg\": ");
        sf_sim_jnum(out, lat.marks_per_msg);
        fprintf(out, ", \"itb\": {\"span\": {\"packets\": \"run\", \"reinjected\": \"run\", \"packets_window\": \"window\", "
                     "\"reinjected_window\": \"window\", \"pool_avg_pkts_mean\": \"window\", \"pool_avg_pkts_max\": \"window\", "
                     "\"pool_max_pkts\": \"window\", \"pool_max_bytes\": \"window\", \"per_nic_avg_max_pkts\": \"window\"}, "
                     "\"packets\": %llu, \"reinjected\": %llu, \"packets_window\": %llu, \"reinjected_window\": %llu, "
                     "\"pool_avg_pkts_mean\": ",
                (unsigned long long)mc.itb_packets, (unsigned long long)mc.itb_reinjected,
                (unsigned long long)(mc_wend.itb_packets - mc_wstart.itb_packets),
                (unsigned long long)(mc_wend.itb_reinjected - mc_wstart.itb_reinjected));
        sf_sim_jnum(out, pool_avg_mean);
        fprintf(out, ", \"pool_avg_pkts_max\": ");
        sf_sim_jnum(out, pool_avg_max);
        fprintf(out, ", \"pool_max_pkts\": %llu, \"pool_max_bytes\": %llu, \"per_nic_avg_max_pkts\": [",
                (unsigned long long)pool_max_pkts, (unsigned long long)pool_max_bytes);
        for (unsigned h = 0; h < H; h++) {
            fprintf(out, "%s[", h ? ", " : "");
            sf_sim_jnum(out, pavg[h]);
            fprintf(out, ", %llu]", (unsigned long long)pmax[h]);
        }
        fprintf(out, "]}");
    }
    fprintf(out, ",\n   \"deadlock\": ");
    if (st.dead)
        fprintf(out, "{\"detected_cycle\": %llu, \"no_flit_moved_since\": %llu, \"in_flight\": %llu}",
                (unsigned long long)net_cycle(net), (unsigned long long)st.last_move,
                (unsigned long long)sf_traffic_in_flight(tr));
    else
        fputs("null", out);
    fprintf(out, ",\n   \"switches\": {");
    if (k->ctr_timeout >= 0)
        fprintf(out, "\"forward_resets_window\": %llu, ", (unsigned long long)tmo_win);
    int first = 1;
    for (unsigned ctr = 0; ctr < k->nctr; ctr++) {
        const char *nm = k->counter_name(ctr);
        if (strstr(nm, "drop") || strstr(nm, "err") || strstr(nm, "malformed") || strstr(nm, "overflow") || strstr(nm, "trunc")) {
            fprintf(out, "%s\"%s\": %llu", first ? "" : ", ", nm, (unsigned long long)net_counter_total(net, ctr));
            first = 0;
        }
    }
    if (mb)
        fprintf(out, "},\n   \"flow_control\": {\"status_reads\": %llu, \"units_sent\": %llu},\n   ",
                (unsigned long long)mnc.status_reads, (unsigned long long)mnc.units_sent);
    else if (vc)
        fprintf(out, "},\n   \"flow_control\": {\"nic_stops\": %llu, \"source_stalled_cycles\": %llu},\n   ",
                (unsigned long long)vcc.stops_sent, (unsigned long long)vcc.stalled);
    else
        fprintf(out, "},\n   \"flow_control\": {\"nic_stops\": %llu, \"nic_gos\": %llu},\n   ", (unsigned long long)mc.stops_sent,
                (unsigned long long)mc.gos_sent);
    fprintf(out, "\"links\": {\"mean_util\": ");
    sf_sim_jnum(out, NL ? usum / (2.0 * NL) : 0);
    fprintf(out, ", \"max_util\": ");
    sf_sim_jnum(out, umax);
    fprintf(out, ", \"host_inject_util\": ");
    sf_sim_jnum(out, inj);
    fprintf(out, ", \"host_eject_util\": ");
    sf_sim_jnum(out, ej);
    fprintf(out, ", \"flit_hops_window\": %.0f", hops_win);
    if (c->links) {
        fprintf(out, ",\n    \"per_channel\": [");
        for (unsigned ch = 0; ch < 2 * NL; ch++) {
            fprintf(out, "%s[%d, %d, %d, %d, ", ch ? ", " : "", t->ch_from[ch], t->ch_fport[ch], t->ch_to[ch], t->ch_tport[ch]);
            sf_sim_jnum(out, (double)busy0[ch] / W);
            fputc(']', out);
        }
        fprintf(out, "]");
    }
    fprintf(out, "}");
    if (with_time)
        fprintf(out, ",\n   \"perf\": {\"cycles\": %llu, \"seconds\": %.4f, \"cycles_per_s\": %.0f, \"flit_hops\": %.0f, "
                     "\"flit_hops_per_s\": %.0f, \"switch_cycles_skipped\": %.4f}",
                (unsigned long long)net_cycle(net), secs, (double)net_cycle(net) / secs, hops_all, hops_all / secs,
                (double)net_skipped(net) / ((double)net_cycle(net) * S));
    fprintf(out, "}");
    free(pavg);
    free(pmax);
    free(busy0);
    sf_sim_point_free(&pt);
    return 0;
}

/* ------------------------------------------------------------------ a workload run */

int sf_sim_run_workload(const sf_sim_cfg *c, const sf_sim_net *n, FILE *out, int with_time, sf_sim_progress prog, void *pctx,
                        double *seconds, double *flit_hops, uint64_t *cycles, sf_err *e)
{
    const sf_topo *t = n->t;
    const unsigned S = (unsigned)t->nsw, NL = (unsigned)sf_topo_nlinks(t);
    sf_sim_point pt;
    if (sf_sim_point_build(c, n, -1, NULL, NULL, &pt, e))
        return -1;
    net_t *net = pt.net;
    sf_traffic *tr = pt.tr;
    net_set_skip(net, !c->no_skip);
    const double t0 = now_s();
    uint64_t done = 0;
    stall_t st = {c->deadlock_limit, 0, 0, 0};
    /* run in steps of 64 cycles until every host has completed (the end is the completion cycle, not the step's) */
    while (!sf_traffic_done(tr) && done < c->max_cycles && !st.dead) {
        const uint64_t step = c->max_cycles - done < 64 ? c->max_cycles - done : 64;
        run_cycles(net, tr, step, &done, c->max_cycles, prog, pctx, &st);
    }
    const double secs = now_s() - t0;
    const uint64_t now = net_cycle(net);
    sf_wl_result r;
    sf_traffic_workload(tr, now, &r);
    sf_traffic_counts all;
    sf_traffic_counts_get(tr, &all, NULL);
    const int mb = c->k == SF_KIND_SBOX;
    sf_nic_counts mc;
    sf_policy_counts pc;
    sf_mnic_counts mnc;
    memset(&mc, 0, sizeof mc);
    memset(&pc, 0, sizeof pc);
    memset(&mnc, 0, sizeof mnc);
    if (mb)
        sf_mnics_counts(pt.nics, &mnc);
    else {
        sf_nics_counts(pt.nics, &mc);
        sf_nics_policy_counts(pt.nics, &pc);
    }
    const double ns = c->ns_per_cycle, hops = (double)busy_total(net);
    sf_sim_json_head(c, n, out);
    fprintf(out, ",\n \"workload\": {\"name\": ");
    sf_sim_jstr(out, n->wl->desc);
    fprintf(out, ", \"finished\": %s, \"cycles\": %llu, \"time_ns\": ", r.finished ? "true" : "false", (unsigned long long)r.end);
    sf_sim_jnum(out, (double)r.end * ns);
    fprintf(out, ", \"messages\": %llu, \"packets\": %llu, \"bytes\": %llu, \"senders\": %u,\n  \"bandwidth_bytes_cycle\": {\"min\": ",
            (unsigned long long)r.messages, (unsigned long long)r.packets, (unsigned long long)r.units, r.senders);
    sf_sim_jnum(out, r.bw_min);
    fprintf(out, ", \"avg\": ");
    sf_sim_jnum(out, r.bw_avg);
    fprintf(out, ", \"max\": ");
    sf_sim_jnum(out, r.bw_max);
    fprintf(out, "}, \"bandwidth_mb_s\": {\"min\": "); /* bytes/cycle / ns/cycle = GB/s; x 1000 = MB/s */
    sf_sim_jnum(out, r.bw_min / ns * 1000.0);
    fprintf(out, ", \"avg\": ");
    sf_sim_jnum(out, r.bw_avg / ns * 1000.0);
    fprintf(out, ", \"max\": ");
    sf_sim_jnum(out, r.bw_max / ns * 1000.0);
    fprintf(out, "},\n  \"aggregate_bytes_cycle\": ");
    sf_sim_jnum(out, r.aggregate);
    fprintf(out, ", \"aggregate_gbit_s\": ");
    sf_sim_jnum(out, r.aggregate / ns * 8.0);
    fprintf(out, ", \"message_latency_cycles\": {\"avg\": ");
    sf_sim_jnum(out, r.msg_lat_avg);
    fprintf(out, ", \"max\": ");
    sf_sim_jnum(out, r.msg_lat_max);
    if (mb)
        fprintf(out, "},\n  \"packets_delivered\": %llu, \"reordered_packets\": %llu, \"lost_corrupt\": %llu, \"misdelivered\": %llu, "
                     "\"misrouted\": %llu, \"duplicate\": %llu, \"barriers_released\": %llu, \"bad_barrier\": %llu,\n",
                (unsigned long long)all.delivered, (unsigned long long)all.reordered, (unsigned long long)mnc.lost_corrupt,
                (unsigned long long)mnc.misdelivered, (unsigned long long)all.misrouted, (unsigned long long)all.duplicate,
                (unsigned long long)mnc.barriers, (unsigned long long)mnc.bad_barrier);
    else
        fprintf(out, "},\n  \"packets_delivered\": %llu, \"reordered_packets\": %llu, \"lost_aborted\": %llu, \"lost_crc\": %llu, "
                     "\"lost_itb_pool\": %llu, \"misrouted\": %llu, \"duplicate\": %llu, \"nic_rx_overflow\": %llu,\n",
                (unsigned long long)all.delivered, (unsigned long long)all.reordered, (unsigned long long)mc.lost_aborted,
                (unsigned long long)mc.lost_crc, (unsigned long long)mc.lost_itb_pool, (unsigned long long)all.misrouted,
                (unsigned long long)all.duplicate, (unsigned long long)mc.rx_overflow);
    if (!mb)
        fprintf(out, "  \"policy\": {\"name\": \"%s\", \"stopped_packets\": %llu, \"route_changes\": %llu, \"forced_changes\": %llu, "
                 "\"probes\": %llu, \"probes_busy\": %llu, \"probe_timeouts\": %llu, \"answers\": %llu, \"control_lost\": %llu},\n",
            sf_policy_name(c->nic.pol.kind), (unsigned long long)pc.stopped, (unsigned long long)pc.changes,
            (unsigned long long)pc.forced, (unsigned long long)mc.probes_sent, (unsigned long long)pc.probes_busy,
            (unsigned long long)mc.probe_timeouts, (unsigned long long)mc.answers_sent, (unsigned long long)mc.ctl_lost);
    fprintf(out, "  \"stopped_by\": ");
    if (r.finished)
        fputs("null", out);
    else {
        char why[400];
        snprintf(why, sizeof why, "%s; %s", st.dead ? "deadlock: no flit moved for deadlock-limit cycles" : "max-cycles",
                 r.waiting_host >= 0 ? r.waiting : "?");
        sf_sim_jstr(out, why);
    }
    /* links over the whole run */
    double umax = 0, usum = 0;
    for (unsigned ch = 0; ch < 2 * NL; ch++) {
        const double u = (double)net_channel_busy(net, ch) / (double)(now ? now : 1);
        usum += u;
        if (u > umax)
            umax = u;
    }
    fprintf(out, "},\n \"links\": {\"mean_util\": ");
    sf_sim_jnum(out, NL ? usum / (2.0 * NL) : 0);
    fprintf(out, ", \"max_util\": ");
    sf_sim_jnum(out, umax);
    fprintf(out, ", \"flit_hops\": %.0f", hops);
    if (c->links) {
        fprintf(out, ",\n  \"per_channel\": [");
        for (unsigned ch = 0; ch < 2 * NL; ch++) {
            fprintf(out, "%s[%d, %d, %d, %d, ", ch ? ", " : "", t->ch_from[ch], t->ch_fport[ch], t->ch_to[ch], t->ch_tport[ch]);
            sf_sim_jnum(out, (double)net_channel_busy(net, ch) / (double)(now ? now : 1));
            fputc(']', out);
        }
        fprintf(out, "]");
    }
    fprintf(out, "}");
    if (with_time)
        fprintf(out, ",\n \"perf\": {\"cycles\": %llu, \"seconds\": %.4f, \"cycles_per_s\": %.0f, \"flit_hops\": %.0f, "
                     "\"flit_hops_per_s\": %.0f, \"switch_cycles_skipped\": %.4f}",
                (unsigned long long)now, secs, (double)now / secs, hops, hops / secs,
                (double)net_skipped(net) / ((double)now * S));
    fprintf(out, "}\n");
    *seconds = secs;
    *flit_hops = hops;
    *cycles = now;
    sf_sim_point_free(&pt);
    return 0;
}

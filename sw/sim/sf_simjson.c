/* sf_simjson.c - the network simulator's JSON results: the head (configuration, network) and tail (saturation,
 * throughput) of a run, and the helpers the points' JSON shares (sf_sim.h). */
#include "sf_sim_int.h"

#include "vcsw_net.h"

#include <math.h>

/* ------------------------------------------------------------------ JSON */

void sf_sim_jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

void sf_sim_jnum(FILE *f, double v)
{
    if (!isfinite(v))
        fputs("null", f);
    else
        fprintf(f, "%.6g", v);
}

void sf_sim_json_head(const sf_sim_cfg *c, const sf_sim_net *n, FILE *out)
{
    const int vc = c->k == SF_KIND_VCSW, mb = c->k == SF_KIND_SBOX;
    fprintf(out, "{\"tool\": \"sanfab-sim\", \"format\": 2, \"seed\": %llu,\n \"config\": {", (unsigned long long)c->tr.seed);
    /* the files read, or (topology-gen, routing) the lines that made them and the files written, null if none */
    const char *tf = c->topology[0] ? c->topology : c->write_topology, *rf = c->routes[0] ? c->routes : c->write_routes;
    const char *bf = c->tables[0] ? c->tables : c->write_tables;
    fprintf(out, "\"topology\": ");
    tf[0] ? sf_sim_jstr(out, tf) : (void)fputs("null", out);
    if (c->topology_gen[0]) {
        fprintf(out, ", \"topology_gen\": ");
        sf_sim_jstr(out, c->topology_gen);
    }
    fprintf(out, ", \"routes\": ");
    rf[0] ? sf_sim_jstr(out, rf) : (void)fputs("null", out);
    if (c->routing[0]) {
        fprintf(out, ", \"routing\": ");
        sf_sim_jstr(out, c->routing);
    }
    if (vc || mb) {
        fprintf(out, ", \"tables\": ");
        if (bf[0])
            sf_sim_jstr(out, bf);
        else
            fputs("null", out);
    }
    fprintf(out, ", \"switch\": \"%s\"", c->kind);
    if (n->wl) {
        fprintf(out, ", \"deadlock_limit\": %llu, \"link_delay\": %u", (unsigned long long)c->deadlock_limit, c->link_delay);
        goto kind_keys;
    }
    fprintf(out, ", \"traffic\": \"%s\"", sf_pattern_name(c->tr.pattern));
    if (c->tr.pattern == SF_TR_HOTSPOT)
        fprintf(out, ", \"hotspot\": %.6g", 100.0 * c->tr.hotspot_frac);
    if (c->tr.pattern == SF_TR_LOCAL)
        fprintf(out, ", \"local\": %d", c->tr.local_l);
    if (c->tr.pattern == SF_TR_MULTICAST)
        fprintf(out, ", \"multicast_size\": %u", c->tr.mcast_k ? c->tr.mcast_k : (unsigned)n->t->nhost - 1u);
    if (vc)
        fprintf(out, ", \"packet_flits\": %u", c->vnic.packet_flits);
    else
        fprintf(out, ", \"message_size\": %u", mb ? c->mnic.msg_bytes : c->nic.msg_size);
    fprintf(out, ", \"load_unit\": \"%s\", \"loads\": [", sf_sim_load_unit(c));
    for (int i = 0; i < c->nloads; i++) {
        fputs(i ? ", " : "", out);
        sf_sim_jnum(out, c->loads[i]);
    }
    fprintf(out, "], \"warmup\": %llu, \"cycles\": %llu, \"drain\": %llu, \"deadlock_limit\": %llu, \"link_delay\": %u",
            (unsigned long long)c->warmup, (unsigned long long)c->cycles, (unsigned long long)c->drain,
            (unsigned long long)c->deadlock_limit, c->link_delay);
kind_keys:
    if (mb) {
        const sf_mnic_params *m = &c->mnic;
        fprintf(out, ", \"link_width\": %u, \"fifo_bytes\": %u, \"turn\": %u, \"mlc_timeout\": %u, \"ctr_width\": %u, "
                     "\"message_type\": %u", m->link_w, m->fifo_bytes, m->turn, m->timeout, m->ctr_w, m->msg_bytes <= 11 ? 0u : 1u);
        if (n->wl) {
            fprintf(out, ", \"workload\": ");
            sf_sim_jstr(out, n->wl->desc);
            fprintf(out, ", \"mtu\": %u, \"max_cycles\": %llu, \"barrier\": \"the boxes'\"", c->mtu, (unsigned long long)c->max_cycles);
        }
    } else if (vc) {
        const vcsw_params_t *p = &c->vcsw;
        fprintf(out, ", \"vcs\": %u, \"ctrl\": %u, \"flit_width\": %u, \"tag_width\": %u, \"depth\": %u, \"maxlen\": %u, "
                     "\"counters\": %u, \"ctr_width\": %u, \"stop_at\": %d",
                p->NVC, p->CTRL, p->FLIT_W, p->TAG_W, p->DEPTH, p->MAXLEN, p->COUNTERS, p->CTR_WIDTH, vcsw_stop_at(p));
        fprintf(out, ", \"nic_buffer\": %u, \"nic_stop_at\": %d, \"nic_drain\": %u, \"alternatives\": \"%s\"", c->vnic.rx_buf,
                sf_vcnic_stop_at(&c->vnic), c->vnic.rx_drain_per_64, c->vnic.pol.kind == SF_POL_FIRST ? "first" : "random");
        if (c->vnic.pol.kind != SF_POL_OBLIVIOUS && c->vnic.pol.kind != SF_POL_FIRST)
            fprintf(out, ", \"policy\": \"%s\"", sf_policy_name(c->vnic.pol.kind));
        if (c->vnic.pol.kind == SF_POL_ADAPTIVE)
            fprintf(out, ", \"threshold\": %u, \"probability\": %.6g", c->vnic.pol.threshold, 100.0 * c->vnic.pol.probability);
    } else {
        fprintf(out, ", \"host_delay\": %u", c->host_delay);
        fprintf(out, ", \"route_delay\": %u, \"slack\": %u, \"stop\": %u, \"go\": %u, \"timeout\": %u", c->route_delay, c->slack,
                c->stop, c->go, c->timeout);
        fprintf(out, ", \"itb_detect\": %u, \"itb_dma\": %u, \"itb_pool\": %llu, \"itb_prio\": %u", c->nic.itb_detect,
                c->nic.itb_dma, (unsigned long long)c->nic.itb_pool, c->nic.prio_equal);
        fprintf(out, ", \"nic_buffer\": %u, \"nic_stop\": %u, \"nic_go\": %u, \"nic_drain\": %u, \"policy\": \"%s\"",
                c->nic.rx_buf, c->nic.rx_stop, c->nic.rx_go, c->nic.rx_drain_per_64, sf_policy_name(c->nic.pol.kind));
        if (c->nic.tx_per_64 < 64)
            fprintf(out, ", \"nic_inject\": %u", c->nic.tx_per_64);
        if (c->nic.half_duplex)
            fprintf(out, ", \"nic_duplex\": \"half\"");
        if (c->nic.pol.kind == SF_POL_ADAPTIVE || c->nic.pol.kind == SF_POL_PROBING)
            fprintf(out, ", \"threshold\": %u, \"probability\": %.6g", c->nic.pol.threshold, 100.0 * c->nic.pol.probability);
        if (c->nic.pol.kind == SF_POL_PROBING)
            fprintf(out, ", \"probe_rounds\": %u, \"probe_margin\": %u", c->nic.pol.probe_rounds, c->nic.probe_margin);
        if (n->wl) {
            fprintf(out, ", \"workload\": ");
            sf_sim_jstr(out, n->wl->desc);
            fprintf(out, ", \"mtu\": %u, \"max_cycles\": %llu", c->mtu, (unsigned long long)c->max_cycles);
        }
        if (c->timing[0]) {
            fprintf(out, ", \"timing\": ");
            sf_sim_jstr(out, c->timing);
        }
    }
    fprintf(out, ", \"allow_deadlock\": %s, \"saturation\": %.6g", c->allow_deadlock ? "true" : "false", c->sat_ratio);
    if (!vc)
        fprintf(out, ", \"ns_per_cycle\": %.6g", c->ns_per_cycle);
    if (mb) { /* the tree: every box's up port (-1: the root) */
        fprintf(out, "},\n \"tree\": {\"up_ports\": [");
        for (int s = 0; s < n->t->nsw; s++)
            fprintf(out, "%s%d", s ? ", " : "", n->boxes[s].up);
        fprintf(out, "]");
    }
    fprintf(out, "},\n \"network\": {\"name\": ");
    sf_sim_jstr(out, n->t->name);
    fprintf(out, ", \"switches\": %d, \"hosts\": %d, \"links\": %d, \"algorithm\": ", n->t->nsw, n->t->nhost, sf_topo_nlinks(n->t));
    sf_sim_jstr(out, n->algo);
    fprintf(out, ", \"vcs_used\": %d", n->rs->nvc);
    if (vc)
        fprintf(out, ", \"tags\": %u", n->tables->tags);
    fprintf(out, ", \"deadlock_free\": %s", n->cyclic ? "false" : "true");
    if (n->cyclic) {
        fprintf(out, ", \"cycle\": ");
        sf_sim_jstr(out, n->cycle);
    }
    fprintf(out, "}");
    if (!n->wl)
        fprintf(out, ",\n \"points\": [\n");
}

void sf_sim_json_tail(const sf_sim_cfg *c, const sf_sim_net *n, const double *offered, const double *accepted,
                      const int *saturated, FILE *out)
{
    double best = -1;
    int first_sat = -1, lowest = 0;
    (void)offered;
    for (int i = 0; i < c->nloads; i++) {
        if (!(saturated[i] & SF_SIM_SAT_HOTSPOT) && accepted[i] > best)
            best = accepted[i];
        if (saturated[i] && (first_sat < 0 || c->loads[i] < c->loads[first_sat]))
            first_sat = i;
        if (c->loads[i] < c->loads[lowest])
            lowest = i;
    }
    if (best < 0) /* the hotspot host saturated at every point: the lowest load's */
        best = c->nloads ? accepted[lowest] : 0;
    fprintf(out, "\n ],\n \"saturation\": {\"rule\": \"a point is saturated when accepted < %.6g x offered traffic, or "
                 "(hotspot traffic) when the hotspot host accepts < %.6g x the traffic offered to it; throughput = the "
                 "highest accepted traffic of the points at which the hotspot host is not saturated (every point for "
                 "the other patterns)\", ",
            c->sat_ratio, c->sat_ratio);
    const double S = n->t->nsw, H = n->t->nhost;
    if (c->k == SF_KIND_VCSW) {
        fprintf(out, "\"throughput_flits_cycle_host\": ");
        sf_sim_jnum(out, best);
    } else if (c->k == SF_KIND_SBOX) {
        fprintf(out, "\"throughput_bytes_cycle_host\": ");
        sf_sim_jnum(out, best);
        fprintf(out, ", \"throughput_mbit_s_host\": ");
        sf_sim_jnum(out, best * 8.0 / c->ns_per_cycle * 1000.0);
    } else {
        fprintf(out, "\"throughput_flits_ns_sw\": ");
        sf_sim_jnum(out, best);
        fprintf(out, ", \"throughput_flits_cycle_sw\": ");
        sf_sim_jnum(out, best * c->ns_per_cycle);
        fprintf(out, ", \"throughput_flits_cycle_host\": ");
        sf_sim_jnum(out, best * c->ns_per_cycle * S / H);
    }
    fprintf(out, ", \"saturation_load\": ");
    if (first_sat >= 0)
        sf_sim_jnum(out, c->loads[first_sat]);
    else
        fputs("null", out);
    fprintf(out, "}}\n");
}

void sf_sim_lat_json(FILE *out, const char *name, const sf_lat *l, double scale)
{
    fprintf(out, "\"%s\": {\"avg\": ", name);
    sf_sim_jnum(out, l->avg * scale);
    fprintf(out, ", \"avg_network\": ");
    sf_sim_jnum(out, l->avg_net * scale);
    fprintf(out, ", \"p50\": ");
    sf_sim_jnum(out, l->p50 * scale);
    fprintf(out, ", \"p95\": ");
    sf_sim_jnum(out, l->p95 * scale);
    fprintf(out, ", \"p99\": ");
    sf_sim_jnum(out, l->p99 * scale);
    fprintf(out, ", \"max\": ");
    sf_sim_jnum(out, l->max * scale);
    fprintf(out, "}");
}

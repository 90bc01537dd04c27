/* sanfab — the switch-box tree bench (tb/sbox/sbox_tree_bench.c): one step of nodes, links and both boxes
 * (models and RTL, compared), and the tree read from the tables. */
#include "sbox_tree_bench.h"

/* ------------------------------------------------------------------ one step */

void bench_step(bench_t *b)
{
    mlc_in_t nin[NNODE];
    sbox_in_t in[NB];
    memcpy(in, b->bnext, sizeof in);
    b->cycle++;
    if (b->o.waves.vcd && b->br) {
        int wa = bench_waves_at(&b->o.waves, b->cycle, 1);
        if (wa > 0 && sbox_tree_rtl_trace_open(b->br, b->o.waves.vcd, b->cycle) != 0) {
            fprintf(stderr, "%s: cannot write %s\n", ST_PROG, b->o.waves.vcd);
            exit(1);
        }
        if (wa < 0)
            sbox_tree_rtl_trace_close(b->br, NULL);
    }
    int traffic = b->phase == 1, draining = b->phase >= 2;
    if (traffic && b->cycle % 10000 == 0) {
        /* a new load epoch: heavy, moderate, light, or a lull in which the backlog drains */
        static const unsigned loads[] = {60, 20, 10, 5, 5, 2, 0, 0};
        for (unsigned c = 0; c < NCH; c++)
            b->load_pm[c] = loads[rng_below(&b->rng, 8)];
        b->mcast_pct = rng_below(&b->rng, 4) == 0 ? 40 : rng_below(&b->rng, 16);
        b->span_pct = rng_below(&b->rng, 101);
        b->hold_kind = rng_below(&b->rng, 3);
        b->hold_node = random_node(b);
    }
    /* ---- the nodes' host side */
    if (traffic || draining)
        barrier_stimulus(b, draining);
    for (unsigned n = 0; n < NNODE; n++) {
        if (!((b->nodes >> n) & 1u))
            continue;
        nin[n] = b->nin[n];
        mlc_in_t h;
        memset(&h, 0, sizeof h);
        if (traffic)
            for (unsigned c = 0; c < NCH; c++)
                if (mlc_host_tx_pending(b->host[n], c) < 64 && rng_below(&b->rng, 10000) < b->load_pm[c] &&
                    !(b->bar[c].active && b->bar[c].queued[n] && !b->bar[c].released[n])) /* waits in a barrier */
                    new_message(b, n, c);
        /* stalled readers: one node for the first 2000 steps of the epoch, or bursts of 400 steps */
        sbn_node_host(&b->rng, b->host[n], &b->nout[n], &nin[n], &h, traffic, b->hold_kind, b->hold_node, n, b->cycle);
        if (b->cycle == b->setup_base + 1) { /* the node MLC's configuration */
            sbn_node_cfg(&nin[n], b->ncfg[n]);
        }
        if (h.h_wr) {
            sbn_node_word(&b->rng, &nin[n], &h, b->pcbad[n], b->wr_words[n]);
            bar_t *x = &b->bar[h.h_wch];
            if (x->active && x->queued[n] && !x->written_at[n] && b->wr_words[n][h.h_wch] >= x->target[n])
                x->written_at[n] = b->cycle;
        }
        if (traffic) { /* faults on both directions of node n's link */
            unsigned j = (unsigned)b->node_box[n], q = (unsigned)b->node_port[n];
            fault(b, n, 0, &in[j].rx_en[q], &in[j].rx_d[q]);
            fault(b, n, 1, &nin[n].rx_en, &nin[n].rx_d);
        }
    }
    if (traffic) { /* and on both directions of the link between the boxes */
        fault(b, TLINK, 0, &in[0].rx_en[b->al], &in[0].rx_d[b->al]);
        fault(b, TLINK, 1, &in[1].rx_en[b->up], &in[1].rx_d[b->up]);
    }
    /* ---- the boxes' register ports */
    for (unsigned j = 0; j < NB; j++) {
        sbox_in_t *x = &in[j];
        x->reg_rd = x->reg_wr = 0;
        x->reg_addr = x->reg_wdata = 0;
        if (b->phase == 0) {
            /* the table, the box MLCs' configurations, the up port */
            uint64_t k = b->cycle - b->setup_base - 1;
            if (k < b->p.NODES) {
                x->reg_wr = 1;
                x->reg_addr = SBOX_REG_TABLE(k);
                x->reg_wdata = b->twdata[j][k];
            } else if (k < b->p.NODES + b->P) {
                unsigned p = (unsigned)(k - b->p.NODES);
                x->reg_wr = 1;
                x->reg_addr = SBOX_REG_MLC(p, MLC_REG_CFG);
                x->reg_wdata = (uint16_t)(b->bcfg[j][p] | (rng_below(&b->rng, 8192) << 3)); /* upper bits ignored */
            } else if (k == b->p.NODES + b->P) {
                x->reg_wr = 1;
                x->reg_addr = SBOX_REG_UP;
                x->reg_wdata = b->upw[j];
            } else if (k == b->p.NODES + b->P + 1) { /* read back the up port */
                x->reg_rd = 1;
                x->reg_addr = SBOX_REG_UP;
            }
        } else if (b->phase == 1 || b->phase == 2) {
            reg_stimulus(b, x);
        } else if (b->phase == 3 && b->final_reads < b->nfinal) {
            x->reg_rd = 1;
            x->reg_addr = b->final_addr[b->final_reads];
        }
    }
    if (b->phase == 3 && b->final_reads < b->nfinal)
        b->final_reads++;
    /* ---- the boxes: models and RTL */
    if (b->o.mode != MODE_RTL)
        for (unsigned j = 0; j < NB; j++)
            sbox_step(b->bm[j], &in[j], &b->om[j]);
    if (b->o.mode != MODE_MODEL) {
        sbox_tree_rtl_step(b->br, in, b->orr);
        if (sbox_tree_rtl_stopped(b->br))
            check_fail(b, "the RTL stopped itself (assertion)");
    }
    if (b->o.mode == MODE_LOCKSTEP)
        compare(b);
    memcpy(b->prim, b->o.mode == MODE_MODEL ? b->om : b->orr, sizeof b->prim);
    /* ---- the nodes */
    for (unsigned n = 0; n < NNODE; n++)
        if ((b->nodes >> n) & 1u) {
            mlc_step(b->node[n], &nin[n], &b->nout[n]);
            mlc_host_collect(b->host[n], &b->nout[n]);
        }
    /* ---- the links: box port (end A) and node (end B); A's port AL (end A) and B's up port (end B) */
    for (unsigned l = 0; l < NLINK; l++) {
        unsigned ja, qa;
        mlc_out_t oa, ob;
        mlc_in_t ia, ib;
        memset(&oa, 0, sizeof oa);
        if (l == TLINK) {
            ja = 0;
            qa = b->al;
            memset(&ob, 0, sizeof ob);
            ob.tx_en = b->prim[1].tx_en[b->up];
            ob.tx_d = b->prim[1].tx_d[b->up];
        } else if ((b->nodes >> l) & 1u) {
            ja = (unsigned)b->node_box[l];
            qa = (unsigned)b->node_port[l];
            ob = b->nout[l];
        } else {
            continue;
        }
        oa.tx_en = b->prim[ja].tx_en[qa];
        oa.tx_d = b->prim[ja].tx_d[qa];
        mlc_link_step(b->link[l], &oa, &ob, &ia, &ib);
        b->bnext[ja].rx_en[qa] = ia.rx_en;
        b->bnext[ja].rx_d[qa] = ia.rx_d;
        if (l == TLINK) {
            b->bnext[1].rx_en[b->up] = ib.rx_en;
            b->bnext[1].rx_d[b->up] = ib.rx_d;
        } else {
            b->nin[l].rx_en = ib.rx_en;
            b->nin[l].rx_d = ib.rx_d;
        }
    }
    /* ---- checks */
    for (unsigned j = 0; j < NB; j++) {
        reg_check(b, j);
        b->rd_prev[j] = in[j].reg_rd;
        b->rd_prev_addr[j] = in[j].reg_addr;
    }
    for (unsigned n = 0; n < NNODE; n++)
        if ((b->nodes >> n) & 1u)
            receive(b, n);
}

/* ------------------------------------------------------------------ the tree from the tables */

/* where every node hangs, A's port to B; 0, or -1 with a message in err */
int place_nodes(bench_t *b, char *err, size_t n)
{
    for (unsigned d = 0; d < NNODE; d++)
        b->node_box[d] = b->node_port[d] = -1;
    for (unsigned j = 0; j < NB; j++)
        for (unsigned q = 0; q < NPMAX; q++)
            b->port_node[j][q] = -1;
    b->nodes = 0;
    int al = -1;
    for (unsigned d = 0; d < b->p.NODES && d < NNODE; d++) {
        int ta = b->tport[0][d], tb = b->tport[1][d];
        if (ta < 0 && tb < 0)
            continue; /* no such node: unrouted in both boxes */
        if (ta < 0 || tb < 0) {
            snprintf(err, n, "node %u has an entry in box %c only (a tree needs both: the node's port, and the link)", d,
                     ta < 0 ? 'B' : 'A');
            return -1;
        }
        if (tb != (int)b->up) { /* on B: A's entry is the link */
            if (al >= 0 && ta != al) {
                snprintf(err, n, "node %u is on B (port %d) but A routes it to port %d, other nodes of B to port %d", d,
                         tb, ta, al);
                return -1;
            }
            al = ta;
            b->node_box[d] = 1;
            b->node_port[d] = tb;
        } else {
            b->node_box[d] = 0;
            b->node_port[d] = ta;
        }
    }
    if (al < 0) {
        snprintf(err, n, "no node is on B (every entry of B leads to its up port %u)", b->up);
        return -1;
    }
    b->al = (unsigned)al;
    b->port_node[0][b->al] = b->port_node[1][b->up] = -2;
    for (unsigned d = 0; d < NNODE; d++) {
        if (b->node_box[d] < 0)
            continue;
        unsigned j = (unsigned)b->node_box[d], q = (unsigned)b->node_port[d];
        if (j == 0 && q == b->al) {
            snprintf(err, n, "node %u: box A routes it to port %u, which leads to B, and B to its up port", d, q);
            return -1;
        }
        if (b->port_node[j][q] != -1) {
            snprintf(err, n, "nodes %d and %u on one port (box %c port %u): one node a port", b->port_node[j][q], d,
                     box_name[j], q);
            return -1;
        }
        b->port_node[j][q] = (int)d;
        b->nodes |= 1u << d;
    }
    if (!b->nodes || sbn_popc(b->nodes) < 2) {
        snprintf(err, n, "fewer than two nodes");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ counters preset, system reset */

void ctr_preset(bench_t *b)
{
    if (b->no_preset)
        return;
    uint64_t mod = ctr_mask(b);
    for (unsigned j = 0; j < NB; j++)
        for (unsigned i = 0; i < SBOX_NCTR; i++) {
            uint64_t v = (mod + 1u - (1u + rng_below(&b->rng, 8))) & mod;
            b->e_ctr[j][i] = v;
            if (b->bm[j])
                sbox_ctr_preset(b->bm[j], i, v);
            if (b->br)
                sbox_tree_rtl_ctr_preset(b->br, j, i, v);
        }
}

void system_reset(bench_t *b)
{
    for (unsigned j = 0; j < NB; j++)
        if (b->bm[j])
            sbox_reset(b->bm[j]);
    if (b->br)
        sbox_tree_rtl_reset(b->br, b->orr);
    memset(b->om, 0, sizeof b->om);
    memset(b->orr, 0, sizeof b->orr);
    memset(b->prim, 0, sizeof b->prim);
    memset(b->bnext, 0, sizeof b->bnext);
    for (unsigned n = 0; n < NNODE; n++) {
        for (unsigned c = 0; c < NCH; c++) {
            while (ring_pop(&b->pcbad[n][c], NULL)) {
            }
            b->wr_words[n][c] = 0;
            for (unsigned d = 0; d < NNODE; d++)
                for (unsigned k = 0; k < 2; k++) {
                    mlc_msg_t m;
                    while (ring_pop(&b->exp[n][c][d][k], &m))
                        free(m.data);
                }
        }
        if (!((b->nodes >> n) & 1u))
            continue;
        if (sbn_node_renew(&b->p, b->link_delay, b->msgmode, &b->node[n], &b->host[n], &b->link[n], &b->nout[n]))
            oom();
        memset(&b->nin[n], 0, sizeof b->nin[n]);
    }
    mlc_link_free(b->link[TLINK]);
    if (!(b->link[TLINK] = mlc_link_new(b->tree_delay)))
        oom();
    memset(b->erasing, 0, sizeof b->erasing);
    memset(b->prev_en, 0, sizeof b->prev_en);
    memset(b->bar, 0, sizeof b->bar);
    memset(b->rd_prev, 0, sizeof b->rd_prev);
    b->phase = 0;
    b->setup_base = b->cycle;
    b->nresets++;
    ctr_preset(b);
}

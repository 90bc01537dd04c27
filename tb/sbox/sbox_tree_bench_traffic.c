/* sanfab — the switch-box tree bench (tb/sbox/sbox_tree_bench.c): the traffic (stimulus, receiving and
 * the scoreboard) and the faults. */
#include "sbox_tree_bench.h"

/* ------------------------------------------------------------------ stimulus */

uint64_t ctr_mask(const bench_t *b) { return b->p.CTR_W >= 64 ? ~0ull : (1ull << b->p.CTR_W) - 1u; }

static unsigned node_count(const bench_t *b) { return sbn_popc(b->nodes); }

/* the k-th existing node (k < node_count) */
static unsigned nth_node(const bench_t *b, unsigned k)
{
    for (unsigned n = 0; n < NNODE; n++)
        if ((b->nodes >> n) & 1u && k-- == 0)
            return n;
    return 0;
}

unsigned random_node(bench_t *b) { return nth_node(b, rng_below(&b->rng, node_count(b))); }

/* a random node on box j (or any node if it has none) */
static unsigned random_node_on(bench_t *b, unsigned j)
{
    for (unsigned t = 0; t < 64; t++) {
        unsigned n = random_node(b);
        if ((unsigned)b->node_box[n] == j)
            return n;
    }
    return random_node(b);
}

/* queues message m on node s's channel c and what the tree must do with it */
static void send_msg(bench_t *b, unsigned s, unsigned c, mlc_msg_t *m, int bad_pc)
{
    uint64_t at = b->wr_words[s][c] + mlc_host_tx_pending(b->host[s], c) + 8; /* its word 8 */
    if (mlc_host_send(b->host[s], c, m) != 0)
        oom();
    if (bad_pc) {
        /* a 2-unit Type1 message whose PC the bench turns into 0 or 1 on its way into the node's MLC:
         * the MLCs and both boxes take it as 2 (the same message arrives); err_msg in every box it enters */
        if (ring_push(&b->pcbad[s][c], &at))
            oom();
        b->bad_pc++;
    }
    int crossed;
    unsigned mask = m->mask;
    unsigned got = route(b, s, m->dst, &mask, mlc_msg_units(m), bad_pc, 1, &crossed);
    if (!got)
        b->dropped_sent++;
    if (sbn_popc(got) >= 2)
        b->mcast_sent++;
    b->cross_sent += (uint64_t)crossed;
    for (unsigned d = 0; d < NNODE; d++)
        if ((got >> d) & 1u) {
            mlc_msg_t cp;
            if (sbn_msg_copy(&cp, m))
                oom();
            cp.mask = mask; /* its sender's bit cleared if it went up alone */
            if (ring_push(&b->exp[s][c][d][sb_route(b, s, d, m->dst, mask)], &cp))
                oom();
        }
    b->sent++;
}

/* a random data message from node s on channel c: unicast within its box or across the tree,
 * multicast to sets on one box or spanning both, unrouted */
void new_message(bench_t *b, unsigned s, unsigned c)
{
    mlc_msg_t m;
    memset(&m, 0, sizeof m);
    m.type = rng_pct(&b->rng, 35) ? 0u : 1u;
    m.kind = rng_below(&b->rng, 128);
    unsigned r = rng_below(&b->rng, 100);
    if (r < b->mcast_pct) { /* multicast */
        unsigned k = rng_below(&b->rng, 5);
        m.dst = MLC_DST_MULTI;
        if (k == 0)
            m.mask = 0xFFFFu;
        else if (k == 1) { /* one node on each box (one draw after the other: a fixed order of the draws) */
            m.mask = 1u << random_node_on(b, 0);
            m.mask |= 1u << random_node_on(b, 1);
        }
        else if (k == 2) /* nodes of one box, below */
            m.mask = 0;
        else
            m.mask = rng_below(&b->rng, 65536);
        if (k == 2) {
            unsigned j = rng_below(&b->rng, NB);
            for (unsigned n = 0; n < NNODE; n++)
                if ((b->nodes >> n) & 1u && (unsigned)b->node_box[n] == j && rng_pct(&b->rng, 60))
                    m.mask |= 1u << n;
        }
        unsigned j = (unsigned)b->node_box[s], mine = 0;
        for (unsigned n = 0; n < NNODE; n++)
            if ((b->nodes >> n) & 1u && (unsigned)b->node_box[n] == j)
                mine |= 1u << n;
        if (!((b->span >> j) & 1u) && (m.mask & mine & ~(1u << s)) && (m.mask & b->nodes & ~mine)) {
            /* this box's nodes send no multicast to both boxes (--span): its own box's or the other's */
            m.mask &= rng_pct(&b->rng, 50) ? mine : ~mine;
        }
    } else if (r < b->mcast_pct + 8) { /* unrouted: beyond NODES, an invalid entry, or the sender itself */
        unsigned k = rng_below(&b->rng, 3);
        if (k == 0 && b->p.NODES < 255)
            m.dst = b->p.NODES + rng_below(&b->rng, 255 - b->p.NODES);
        else if (k == 1)
            m.dst = s;
        else
            m.dst = rng_below(&b->rng, b->p.NODES);
    } else { /* a node: across the tree in span_pct of the cases */
        unsigned j = (unsigned)b->node_box[s];
        m.dst = random_node_on(b, rng_pct(&b->rng, b->span_pct) ? 1 - j : j);
        if (m.dst == s)
            m.dst = random_node(b);
    }
    int bad_pc = sbn_msg_finish(&b->rng, &m, s, b->p.FIFO_BYTES, b->msgmode);
    if (bad_pc < 0)
        oom();
    send_msg(b, s, c, &m, bad_pc);
    free(m.data);
}

static uint64_t queue_request(bench_t *b, unsigned n, unsigned c, unsigned mask, uint32_t epoch)
{
    if (mlc_host_barrier(b->host[n], c, n, mask, epoch) != 0)
        oom();
    return b->wr_words[n][c] + mlc_host_tx_pending(b->host[n], c);
}

/* barriers: start one now and then per channel (members on both boxes in span_pct... of the cases),
 * members queue their requests late */
void barrier_stimulus(bench_t *b, int draining)
{
    for (unsigned c = 0; c < NCH; c++) {
        bar_t *x = &b->bar[c];
        if (!x->active && !draining && rng_below(&b->rng, 1000) == 0) {
            unsigned mask = 0;
            unsigned k = rng_below(&b->rng, 5);
            if (k == 0)
                mask = 0xFFFFu;
            else if (k == 1 || k == 2) { /* spanning: a random set with at least one node on each box */
                mask = rng_below(&b->rng, 65536);
                mask |= 1u << random_node_on(b, 0);
                mask |= 1u << random_node_on(b, 1);
            } else if (k == 3) { /* one box's nodes */
                unsigned j = rng_below(&b->rng, NB);
                for (unsigned n = 0; n < NNODE; n++)
                    if ((b->nodes >> n) & 1u && (unsigned)b->node_box[n] == j && rng_pct(&b->rng, 70))
                        mask |= 1u << n;
            } else {
                mask = rng_below(&b->rng, 65536);
            }
            unsigned members = mask & b->nodes;
            if (!members)
                continue;
            memset(x, 0, sizeof *x);
            x->active = 1;
            x->mask = mask;
            x->members = members;
            x->start = b->cycle;
            int together = rng_pct(&b->rng, 20);
            for (unsigned n = 0; n < NNODE; n++)
                x->send_at[n] = b->cycle + (together ? 0 : rng_below(&b->rng, 3000));
        }
        if (!x->active)
            continue;
        for (unsigned n = 0; n < NNODE; n++)
            if ((x->members >> n) & 1u && !x->queued[n] && b->cycle >= x->send_at[n]) {
                x->target[n] = queue_request(b, n, c, x->mask, (uint32_t)b->barriers);
                x->queued[n] = 1;
            }
    }
    /* a request from a node that is not a member: rejected (err_bar) by its box, nothing else changes */
    if (!draining && rng_below(&b->rng, 3000) == 0) {
        unsigned n = random_node(b), c = rng_below(&b->rng, NCH);
        unsigned mask = rng_below(&b->rng, 65536) & ~(1u << n);
        queue_request(b, n, c, mask, 0xBADu);
        b->e_ctr[b->node_box[n]][SBOX_CTR_ERR_BAR]++;
        b->bad_bar++;
    }
}

/* a barrier's counts in both boxes once it is over (docs/sbox.md rule 5, counters) */
static void barrier_counts(bench_t *b, unsigned mask)
{
    unsigned ea = mask_ports(b, 0, mask), eb = mask_ports(b, 1, mask);
    unsigned eb1 = eb & ~(1u << b->up);
    if (eb1 && (eb >> b->up) & 1u) {
        /* members on both boxes: B takes its members' requests and sends one up (a made unit); A takes
         * its members' and B's, completes and releases (a made unit) to E'(m) (AL among them); B
         * forwards the release to its member ports (a message from a port: msgs) */
        b->e_ctr[1][SBOX_CTR_BAR_REQ] += sbn_popc(eb1);
        b->e_ctr[1][SBOX_CTR_BAR_DONE]++;
        b->e_ctr[1][SBOX_CTR_WORDS] += 8;
        b->e_ctr[0][SBOX_CTR_BAR_REQ] += sbn_popc(ea);
        b->e_ctr[0][SBOX_CTR_BAR_DONE]++;
        b->e_ctr[0][SBOX_CTR_WORDS] += 8;
        b->e_ctr[1][SBOX_CTR_MSGS]++;
        if (sbn_popc(eb1) >= 2)
            b->e_ctr[1][SBOX_CTR_MCAST]++;
        b->e_ctr[1][SBOX_CTR_WORDS] += 8;
        b->span_barriers++;
    } else {
        unsigned j = eb1 ? 1 : 0, e = eb1 ? eb1 : ea;
        b->e_ctr[j][SBOX_CTR_BAR_REQ] += sbn_popc(e);
        b->e_ctr[j][SBOX_CTR_BAR_DONE]++;
        b->e_ctr[j][SBOX_CTR_WORDS] += 8;
    }
}

/* a register request of the random phase: reads of any address, now and then a write the box ignores */
void reg_stimulus(bench_t *b, sbox_in_t *in)
{
    if (rng_pct(&b->rng, 3)) {
        unsigned k = rng_below(&b->rng, 5), mp = rng_below(&b->rng, 8);
        in->reg_rd = 1;
        in->reg_addr = (uint16_t)(k == 0   ? rng_below(&b->rng, 512)
                                  : k == 1 ? SBOX_REG_MLC(mp, rng_below(&b->rng, 32))
                                  : k == 2 ? SBOX_REG_CTR(rng_below(&b->rng, 8))
                                  : k == 3 ? SBOX_REG_TABLE(rng_below(&b->rng, 16))
                                           : 0x110u + rng_below(&b->rng, 3));
    } else if (rng_below(&b->rng, 1000) < 2) {
        static const uint16_t ignored[] = {0x100, 0x105, 0x108, 0x111, 0x112, 0x113, 0x130, 0x1FF};
        in->reg_wr = 1;
        in->reg_addr = ignored[rng_below(&b->rng, 8)];
        in->reg_wdata = (uint16_t)rng_below(&b->rng, 65536);
    }
}

/* what a read of addr of box j must return when that is known exactly (1), else 0 */
static int reg_exact(const bench_t *b, unsigned j, unsigned addr, uint32_t *v)
{
    if (addr < 0x100) {
        unsigned p = addr >> 5, a = addr & 31u;
        *v = ERRV;
        if (p >= b->P || a >= 21)
            return 1;
        *v = b->bcfg[j][p];
        return a == MLC_REG_CFG;
    }
    if (addr <= 0x107 || addr == 0x111 || addr == 0x112)
        return 0;
    if (addr == SBOX_REG_UP) {
        *v = b->upw[j] & 0x17u;
        return 1;
    }
    if (addr >= 0x120 && addr <= 0x12F) {
        unsigned d = addr - 0x120;
        *v = d < b->p.NODES ? (uint32_t)(b->twdata[j][d] & 0x17u) : ERRV;
        return 1;
    }
    *v = ERRV;
    return 1;
}

/* the read of the previous step is answered after this one, and nothing else */
void reg_check(bench_t *b, unsigned j)
{
    const sbox_out_t *o = &b->prim[j];
    if (!b->rd_prev[j]) {
        if (o->reg_rvalid || o->reg_rdata)
            check_fail(b, "box %c register port: reg_rvalid=%u reg_rdata=0x%x without a read in the step before",
                       box_name[j], o->reg_rvalid, o->reg_rdata);
        return;
    }
    if (!o->reg_rvalid)
        check_fail(b, "box %c register port: the read of 0x%03x in step %" PRIu64 " is not answered after step %" PRIu64,
                   box_name[j], b->rd_prev_addr[j], b->cycle - 1, b->cycle);
    uint32_t v;
    if (reg_exact(b, j, b->rd_prev_addr[j], &v) && o->reg_rdata != v)
        check_fail(b, "box %c register port: read of 0x%03x returned 0x%x, expected 0x%x", box_name[j],
                   b->rd_prev_addr[j], o->reg_rdata, v);
    b->regreads++;
    if (b->phase == 3 && b->final_got[j] < b->nfinal && b->final_addr[b->final_got[j]] == b->rd_prev_addr[j])
        b->final_val[j][b->final_got[j]++] = o->reg_rdata;
}

/* ------------------------------------------------------------------ faults */

/* corrupt symbols and CTL faults on the link input (en, d) of end e of link l */
void fault(bench_t *b, unsigned l, unsigned e, uint8_t *en, uint8_t *d)
{
    if (sbn_fault(&b->frng, b->corrupt_pm, b->ctl_rate, b->p.LINK_W, &b->prev_en[l][e], &b->erasing[l][e], en, d,
                  &b->corrupted))
        b->ctl_faults++;
}

/* ------------------------------------------------------------------ receiving */

static void got_release(bench_t *b, unsigned n, unsigned c, const mlc_msg_t *m)
{
    bar_t *x = &b->bar[c];
    if (!x->active)
        sb_fail(b, n, c, "a barrier release arrived with no barrier in progress on the channel");
    if (!((x->members >> n) & 1u))
        sb_fail(b, n, c, "a barrier release arrived at a node that is not a member (members 0x%04x)", x->members);
    if (x->released[n])
        sb_fail(b, n, c, "a second release for one barrier (mask 0x%04x)", x->mask);
    if (m->mask != x->mask)
        sb_fail(b, n, c, "release with MASK 0x%04x, the barrier's is 0x%04x", m->mask, x->mask);
    for (unsigned i = 0; i < m->len; i++)
        if (m->data[i])
            sb_fail(b, n, c, "release data byte %u is 0x%02x, a made unit's words 2..7 are 0x00FF, 0...", i + 1,
                    m->data[i]);
    for (unsigned k = 0; k < NNODE; k++)
        if ((x->members >> k) & 1u && !x->written_at[k])
            sb_fail(b, n, c, "release (mask 0x%04x) before member node %u's request (box %c port %d) was written by its host",
                    x->mask, k, box_name[b->node_box[k]], b->node_port[k]);
    x->released[n] = 1;
    b->releases++;
    for (unsigned k = 0; k < NNODE; k++)
        if ((x->members >> k) & 1u && !x->released[k])
            return;
    barrier_counts(b, x->mask);
    sbn_bar_wait(&b->bar_wait_max, b->cycle, x->written_at, NNODE, x->members);
    b->barriers++;
    x->active = 0;
}

void receive(bench_t *b, unsigned n)
{
    for (unsigned c = 0; c < NCH; c++) {
        mlc_msg_t m;
        while (mlc_host_recv(b->host[n], c, &m)) {
            if (m.type == 0 && m.dst == MLC_DST_MULTI && m.kind == MLC_KIND_RELEASE && m.src == 255) {
                got_release(b, n, c, &m);
                mlc_msg_free(&m);
                continue;
            }
            if (m.type == 0 && m.dst == MLC_DST_MULTI && m.kind == MLC_KIND_BARRIER)
                sb_fail(b, n, c, "a barrier request (from %u) was forwarded", m.src);
            if (m.src >= NNODE || !((b->nodes >> m.src) & 1u))
                sb_fail(b, n, c, "a message from node %u arrived, no such node", m.src);
            if (m.src == n)
                sb_fail(b, n, c, "a message came back to its sender (dst %u mask 0x%04x)", m.dst, m.mask);
            unsigned k = sb_route(b, m.src, n, m.dst, m.mask);
            mlc_msg_t *e = ring_front(&b->exp[m.src][c][n][k]);
            if (!e)
                sb_fail(b, n, c, "a message from node %u (type %u kind %u dst %u mask 0x%04x len %u) arrived that was "
                                 "not sent to this node (or twice)",
                        m.src, m.type, m.kind, m.dst, m.mask, m.len);
            if (!mlc_msg_eq(&m, e))
                sb_fail(b, n, c,
                        "a message from node %u differs from the next one it sent here (type %u/%u kind %u/%u dst "
                        "%u/%u mask 0x%04x/0x%04x len %u/%u; got/expected)",
                        m.src, m.type, e->type, m.kind, e->kind, m.dst, e->dst, m.mask, e->mask, m.len, e->len);
            b->bytes += m.len;
            b->recvd++;
            mlc_msg_free(&m);
            mlc_msg_t d;
            ring_pop(&b->exp[m.src][c][n][k], &d);
            free(d.data);
        }
    }
}

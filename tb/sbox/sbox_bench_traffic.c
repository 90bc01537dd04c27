/* sanfab — the switch-box lockstep bench (tb/sbox/sbox_bench.c): the traffic (stimulus, receiving and
 * the scoreboard) and the register port checks. */
#include "sbox_bench.h"

/* ------------------------------------------------------------------ stimulus */

uint64_t ctr_mask(const bench_t *b) { return b->p.CTR_W >= 64 ? ~0ull : (1ull << b->p.CTR_W) - 1u; }

/* queues message m on node a's channel c and what the box must do with it; 0 on success */
int send_msg(bench_t *b, unsigned a, unsigned c, mlc_msg_t *m, int bad_pc)
{
    uint64_t at = b->wr_words[a][c] + mlc_host_tx_pending(b->host[a], c) + 8; /* its word 8 */
    if (mlc_host_send(b->host[a], c, m) != 0)
        return -1;
    if (bad_pc) {
        /* a 2-unit Type1 message whose PC the bench turns into 0 or 1 on its way into the MLC: the
         * MLCs and the box take it as 2 (the same message arrives) and count err_msg */
        if (ring_push(&b->pcbad[a][c], &at))
            oom();
        b->e_ctr[SBOX_CTR_ERR_MSG]++;
        b->bad_pc++;
    }
    unsigned set = port_set(b, a, m->dst, m->mask);
    if (!set) {
        b->e_ctr[SBOX_CTR_DROP_ROUTE]++;
        b->dropped_sent++;
    } else {
        b->e_ctr[SBOX_CTR_MSGS]++;
        if (sbn_popc(set) >= 2) {
            b->e_ctr[SBOX_CTR_MCAST]++;
            b->mcast_sent++;
        }
        b->e_ctr[SBOX_CTR_WORDS] += 8u * mlc_msg_units(m);
        for (unsigned q = 0; q < b->P; q++)
            if ((set >> q) & 1u) {
                mlc_msg_t cp;
                if (sbn_msg_copy(&cp, m))
                    oom();
                if (ring_push(&b->exp[a][c][q], &cp))
                    oom();
            }
    }
    b->sent++;
    return 0;
}

/* a random data message from node a on channel c */
void new_message(bench_t *b, unsigned a, unsigned c)
{
    mlc_msg_t m;
    memset(&m, 0, sizeof m);
    m.type = rng_pct(&b->rng, 35) ? 0u : 1u;
    m.kind = rng_below(&b->rng, 128);
    unsigned r = rng_below(&b->rng, 100);
    if (r < b->mcast_pct) { /* multicast; one in 8 to unrouted nodes only (dropped: two faults at once) */
        unsigned k = rng_below(&b->rng, 4);
        m.dst = MLC_DST_MULTI;
        m.mask = k == 0 ? 0xFFFFu : k == 1 ? 1u << rng_below(&b->rng, 16) : rng_below(&b->rng, 65536);
        if (rng_below(&b->rng, 8) == 0)
            m.mask = unrouted_mask(b, a);
    } else if (r < b->mcast_pct + 10) { /* unrouted: beyond NODES, an invalid entry, or the sender's own port */
        unsigned k = rng_below(&b->rng, 3);
        m.dst = rng_below(&b->rng, b->p.NODES);
        if (k == 0 && b->p.NODES < 255)
            m.dst = b->p.NODES + rng_below(&b->rng, 255 - b->p.NODES);
        else
            for (unsigned t = 0; t < 32; t++) {
                unsigned d = rng_below(&b->rng, b->p.NODES);
                if (b->tport[d] < 0 || (unsigned)b->tport[d] == a) {
                    m.dst = d;
                    break;
                }
            }
    } else { /* a routed node */
        m.dst = rng_below(&b->rng, b->p.NODES);
        for (unsigned t = 0; t < 32; t++) {
            unsigned d = rng_below(&b->rng, b->p.NODES);
            if (b->tport[d] >= 0 && (unsigned)b->tport[d] != a) {
                m.dst = d;
                break;
            }
        }
    }
    int bad_pc = sbn_msg_finish(&b->rng, &m, a, b->p.FIFO_BYTES, b->msgmode);
    if (bad_pc < 0)
        oom();
    send_msg(b, a, c, &m, bad_pc);
    free(m.data);
}

/* queues a barrier request from node a on channel c for node set mask; the words written when it is
 * written whole */
static uint64_t queue_request(bench_t *b, unsigned a, unsigned c, unsigned mask, uint32_t epoch)
{
    if (mlc_host_barrier(b->host[a], c, a, mask, epoch) != 0)
        oom();
    return b->wr_words[a][c] + mlc_host_tx_pending(b->host[a], c);
}

/* barriers: start one now and then per channel, members queue their requests late */
void barrier_stimulus(bench_t *b, int draining)
{
    for (unsigned c = 0; c < NCH; c++) {
        bar_t *x = &b->bar[c];
        if (!x->active && !draining && rng_below(&b->rng, 2000) == 0) {
            unsigned mask = 0, ports = 0;
            for (unsigned t = 0; t < 16 && !ports; t++) {
                unsigned k = rng_below(&b->rng, 4);
                mask = k == 0 ? (b->p.NODES >= 16 ? 0xFFFFu : (1u << b->p.NODES) - 1u) /* all nodes */
                       : k == 1 ? 0xFFFFu
                                : rng_below(&b->rng, 65536);
                ports = mask_ports(b, mask);
            }
            if (!ports)
                continue;
            memset(x, 0, sizeof *x);
            x->active = 1;
            x->mask = mask;
            x->ports = ports;
            x->start = b->cycle;
            int together = rng_pct(&b->rng, 20);
            for (unsigned p = 0; p < b->P; p++)
                x->send_at[p] = b->cycle + (together ? 0 : rng_below(&b->rng, 4000));
        }
        if (!x->active)
            continue;
        for (unsigned p = 0; p < b->P; p++)
            if ((x->ports >> p) & 1u && !x->queued[p] && b->cycle >= x->send_at[p]) {
                x->target[p] = queue_request(b, p, c, x->mask, (uint32_t)b->barriers);
                x->queued[p] = 1;
            }
    }
    /* a request from a port that is not a member: rejected (err_bar), nothing else changes; one in 4 names no
     * member port at all (still err_bar, never drop_route) */
    if (!draining && rng_below(&b->rng, 3000) == 0) {
        unsigned a = rng_below(&b->rng, b->P), c = rng_below(&b->rng, NCH);
        bad_request(b, a, c, rng_below(&b->rng, 4) == 0);
    }
}

/* a random subset of the node numbers no entry routes (beyond NODES, invalid), with node a's own if own */
static unsigned invalid_mask(bench_t *b, unsigned a, int own)
{
    unsigned mask = 0;
    for (unsigned i = 0; i < NNODE; i++)
        if ((i >= b->p.NODES || b->tport[i] < 0 || (own && (unsigned)b->tport[i] == a)) && rng_pct(&b->rng, 60))
            mask |= 1u << i;
    return mask;
}

unsigned unrouted_mask(bench_t *b, unsigned a) { return invalid_mask(b, a, !box_port(b, a)); }

void bad_request(bench_t *b, unsigned a, unsigned c, int none)
{
    for (unsigned t = 0; t < 16; t++) {
        unsigned mask = none ? invalid_mask(b, a, 0) : rng_below(&b->rng, 65536);
        if (none ? mask_ports(b, mask) == 0 : !((mask_ports(b, mask) >> a) & 1u)) {
            queue_request(b, a, c, mask, 0xBADu);
            b->e_ctr[SBOX_CTR_ERR_BAR]++;
            b->bad_bar++;
            return;
        }
    }
}

/* a register request of the random phase: any address, now and then a write the box ignores */
void reg_stimulus(bench_t *b, sbox_in_t *in)
{
    if (rng_pct(&b->rng, 3)) {
        unsigned k = rng_below(&b->rng, 6);
        in->reg_rd = 1;
        /* one draw a statement: the order of two draws among a call's arguments is unspecified in C, and the
         * run must be the same for a seed whatever the compiler */
        const unsigned port = rng_below(&b->rng, k == 1 ? 8u : b->P);
        const unsigned reg = k == 1 ? rng_below(&b->rng, 32) : 13u + rng_below(&b->rng, 8);
        in->reg_addr = (uint16_t)(k == 0   ? rng_below(&b->rng, 512)
                                  : k == 1 ? SBOX_REG_MLC(port, reg)
                                  : k == 2 ? SBOX_REG_CTR(rng_below(&b->rng, 8))
                                  : k == 3 ? SBOX_REG_TABLE(rng_below(&b->rng, 16))
                                  : k == 4 ? 0x110u + rng_below(&b->rng, 3)
                                           : SBOX_REG_MLC(port, reg));
    }
    if (rng_below(&b->rng, 1000) < 3) {
        unsigned k = rng_below(&b->rng, 5);
        uint16_t a;
        uint16_t w = (uint16_t)rng_below(&b->rng, 65536);
        if (k == 0)
            a = (uint16_t)(SBOX_REG_CTR(rng_below(&b->rng, 8)));
        else if (k == 1)
            a = (uint16_t)(0x111u + rng_below(&b->rng, 2));
        else if (k == 2) { /* an MLC register other than the configuration: ignored by the MLC */
            unsigned r;
            do
                r = rng_below(&b->rng, 32);
            while (r == MLC_REG_CFG);
            a = SBOX_REG_MLC(rng_below(&b->rng, b->P), r);
        } else if (k == 3 && b->p.NODES < 16) { /* a table entry beyond NODES */
            a = SBOX_REG_TABLE(b->p.NODES + rng_below(&b->rng, 16 - b->p.NODES));
        } else if (k == 4 && b->P < 8) { /* up port >= PORTS, or an entry with a port >= PORTS: ignored */
            unsigned port = b->P + rng_below(&b->rng, 8 - b->P);
            w = (uint16_t)((w & ~0x17u) | 0x10u | port);
            a = rng_pct(&b->rng, 50) ? (uint16_t)SBOX_REG_UP : SBOX_REG_TABLE(rng_below(&b->rng, b->p.NODES));
        } else { /* absent addresses */
            static const uint16_t absent[] = {0x108, 0x10F, 0x113, 0x11F, 0x130, 0x1FF};
            a = absent[rng_below(&b->rng, 6)];
        }
        in->reg_wr = 1;
        in->reg_addr = a;
        in->reg_wdata = w;
    }
}

/* ------------------------------------------------------------------ register port checks */

/* what a read of addr must return: *exact 1 and the value, or a bound (value <= lim) */
static void reg_expect(const bench_t *b, unsigned addr, int *exact, uint32_t *v, uint32_t *lim)
{
    *exact = 0;
    *v = 0;
    *lim = 0xFFFFFFFFu;
    uint32_t cmax = (uint32_t)ctr_mask(b);
    if (addr < 0x100) {
        unsigned p = addr >> 5, a = addr & 31u;
        if (p >= b->P || a >= 21) {
            *exact = 1;
            *v = ERRV;
        } else if (a <= 14) {
            *lim = cmax;
        } else if (a == MLC_REG_LINK) {
            *lim = 0x7FFF;
        } else if (a == MLC_REG_CFG) {
            *exact = 1;
            *v = b->bcfg[p];
        } else {
            *lim = b->p.FIFO_BYTES;
        }
    } else if (addr <= 0x107) {
        *lim = cmax;
    } else if (addr == SBOX_REG_UP) {
        *exact = 1;
        *v = b->upw & 0x17u; /* bit 4 and bits 2..0 are stored */
    } else if (addr == 0x111 || addr == 0x112) {
        *lim = 0xFFFFFFFFu; /* form checked by the caller */
    } else if (addr >= 0x120 && addr <= 0x12F) {
        unsigned d = addr - 0x120;
        *exact = 1;
        *v = d < b->p.NODES ? (uint32_t)(b->twdata[d] & 0x17u) : ERRV;
    } else {
        *exact = 1;
        *v = ERRV;
    }
}

/* an answer of the watched FIFO's st_tx_space: the value after step s = cycle - 2. Between two
 * answers the space changes by 16 per acknowledged unit and -2 per word written, so the words
 * written since the last answer are (-delta mod 16) / 2 (at most 7 steps apart) */
static void watch_answer(bench_t *b, uint32_t v)
{
    uint64_t s = b->cycle - 2;
    if (b->wok && b->wlast_step) {
        uint64_t gap = s - b->wlast_step;
        unsigned w = (unsigned)((16u - ((v - b->wlast_val) & 15u)) & 15u) / 2u;
        if (gap > 7 || w > gap) {
            b->wok = 0; /* lost track: no more checks */
        } else {
            for (unsigned i = 0; i < w; i++) {
                if (b->wn == b->wcap) {
                    b->wcap = b->wcap ? 2 * b->wcap : 65536;
                    b->wstep = realloc(b->wstep, b->wcap * sizeof *b->wstep);
                    if (!b->wstep)
                        oom();
                }
                b->wstep[b->wn++] = gap == 1 ? s : 0;
            }
        }
    }
    b->wlast_step = s;
    b->wlast_val = v;
}

/* a message of `words` words arrived at the watched port's node: between the last word of the
 * message before it and its first word in the FIFO at least 2 steps (rule 3: a source that ended
 * its message in step k unlocks from step k+1, the next one's first grant is in step k+2 at the
 * earliest, its word written in k+3; the last word of the first was written in k+1) */
static void watch_message(bench_t *b, unsigned words)
{
    if (!b->wok)
        return;
    uint64_t first = b->wmsg;
    b->wmsg += words;
    if (first == 0 || first >= b->wn)
        return;
    uint64_t a = b->wstep[first - 1], c = b->wstep[first];
    b->wbound++;
    if (a && c) {
        b->wbound_checked++;
        if (c < a + 2)
            check_fail(b,
                       "port %u's send FIFO %u: a message's last word written in step %" PRIu64 " and the next "
                       "message's first word in step %" PRIu64 " (rule 3: the next source is activated after "
                       "the step of the last grant, so at least 2 steps apart)",
                       b->wq, b->wc, a, c);
    }
}

/* the read of the previous step is answered after this one, and nothing else */
void reg_check(bench_t *b)
{
    const sbox_out_t *o = &b->prim;
    if (!b->rd_prev) {
        if (o->reg_rvalid || o->reg_rdata)
            check_fail(b, "register port: reg_rvalid=%u reg_rdata=0x%x without a read in the step before",
                       o->reg_rvalid, o->reg_rdata);
        return;
    }
    if (!o->reg_rvalid)
        check_fail(b, "register port: the read of 0x%03x in step %" PRIu64 " is not answered after step %" PRIu64,
                   b->rd_prev_addr, b->cycle - 1, b->cycle);
    int exact;
    uint32_t v, lim;
    reg_expect(b, b->rd_prev_addr, &exact, &v, &lim);
    if (exact && o->reg_rdata != v)
        check_fail(b, "register port: read of 0x%03x returned 0x%x, expected 0x%x", b->rd_prev_addr, o->reg_rdata, v);
    if (!exact && o->reg_rdata > lim)
        check_fail(b, "register port: read of 0x%03x returned 0x%x, above 0x%x", b->rd_prev_addr, o->reg_rdata, lim);
    if (b->rd_prev_addr == 0x111 || b->rd_prev_addr == 0x112) {
        uint32_t x = o->reg_rdata;
        if ((x & 0xFEu) || SBOX_BAR_A(x) >= (1u << b->P))
            check_fail(b, "register port: barrier register 0x%03x = 0x%x (no up port: up_sent and bits 7..2 are 0, A < "
                          "2^PORTS)",
                       b->rd_prev_addr, x);
    }
    b->regreads++;
    if (b->rd_prev_watch)
        watch_answer(b, o->reg_rdata);
    if (b->rd_prev_final && b->final_got < b->nfinal && b->final_addr[b->final_got] == b->rd_prev_addr)
        b->final_val[b->final_got++] = o->reg_rdata;
}

/* ------------------------------------------------------------------ receiving */

static void got_release(bench_t *b, unsigned q, unsigned c, const mlc_msg_t *m)
{
    bar_t *x = &b->bar[c];
    if (!x->active)
        sb_fail(b, q, c, "a barrier release arrived with no barrier in progress on the channel");
    if (!((x->ports >> q) & 1u))
        sb_fail(b, q, c, "a barrier release arrived at a port that is not a member (members 0x%x)", x->ports);
    if (x->released[q])
        sb_fail(b, q, c, "a second release for one barrier (mask 0x%04x)", x->mask);
    if (m->mask != x->mask)
        sb_fail(b, q, c, "release with MASK 0x%04x, the barrier's members are 0x%04x", m->mask, x->mask);
    for (unsigned i = 0; i < m->len; i++)
        if (m->data[i])
            sb_fail(b, q, c, "release data byte %u is 0x%02x, a made unit's words 2..7 are 0x00FF, 0...", i + 1,
                    m->data[i]);
    for (unsigned p = 0; p < b->P; p++)
        if ((x->ports >> p) & 1u && !x->written_at[p])
            sb_fail(b, q, c, "release before member port %u's request was written by its host", p);
    x->released[q] = 1;
    b->releases++;
    for (unsigned p = 0; p < b->P; p++)
        if ((x->ports >> p) & 1u && !x->released[p])
            return;
    /* every member released: the barrier is over */
    b->e_ctr[SBOX_CTR_BAR_REQ] += sbn_popc(x->ports);
    b->e_ctr[SBOX_CTR_BAR_DONE]++;
    b->e_ctr[SBOX_CTR_WORDS] += 8;
    sbn_bar_wait(&b->bar_wait_max, b->cycle, x->written_at, b->P, x->ports);
    b->barriers++;
    x->active = 0;
}

void receive(bench_t *b, unsigned q)
{
    for (unsigned c = 0; c < NCH; c++) {
        mlc_msg_t m;
        while (mlc_host_recv(b->host[q], c, &m)) {
            if (q == b->wq && c == b->wc)
                watch_message(b, 8u * mlc_msg_units(&m));
            if (m.type == 0 && m.dst == MLC_DST_MULTI && m.kind == MLC_KIND_RELEASE && m.src == 255) {
                got_release(b, q, c, &m);
                mlc_msg_free(&m);
                continue;
            }
            if (m.type == 0 && m.dst == MLC_DST_MULTI && m.kind == MLC_KIND_BARRIER)
                sb_fail(b, q, c, "a barrier request (from node %u) was forwarded", m.src);
            if (m.src >= b->P)
                sb_fail(b, q, c, "a message from node %u arrived, no such node", m.src);
            if (m.src == q && (m.dst != 255 || !box_port(b, q)))
                sb_fail(b, q, c, "a message came back to its sender (dst %u mask 0x%04x)", m.dst, m.mask);
            mlc_msg_t *e = ring_front(&b->exp[m.src][c][q]);
            if (!e)
                sb_fail(b, q, c, "a message from node %u (type %u kind %u dst %u mask 0x%04x len %u) arrived that was "
                                 "not sent to this port (or twice)",
                        m.src, m.type, m.kind, m.dst, m.mask, m.len);
            if (!mlc_msg_eq(&m, e))
                sb_fail(b, q, c,
                        "a message from node %u differs from the next one it sent here (type %u/%u kind %u/%u dst "
                        "%u/%u mask 0x%04x/0x%04x len %u/%u; got/expected)",
                        m.src, m.type, e->type, m.kind, e->kind, m.dst, e->dst, m.mask, e->mask, m.len, e->len);
            b->bytes += m.len;
            b->recvd++;
            if (b->fair_state == 1 && c == 0 && b->cycle >= b->fair_start + 1500)
                b->fair_words[m.src] += 8u * mlc_msg_units(&m);
            mlc_msg_free(&m);
            mlc_msg_t d;
            ring_pop(&b->exp[m.src][c][q], &d);
            free(d.data);
        }
    }
}

/* sanfab — the switch-box lockstep bench (tb/sbox/sbox_bench.c): faults, the directed transit test, one
 * step of nodes, links and box (model and RTL, compared), the bus share test. */
#include "sbox_bench.h"

/* ------------------------------------------------------------------ faults */

unsigned frame_steps(const bench_t *b, unsigned np) { return (8u + 32u * np) * 4u / b->p.LINK_W; }

/* 1 while link p may still be disturbed by a CTL fault: two full frames and four turn-rounds since
 * the last one (docs/mlc.md, Malformed input: recovery is bounded; the slave's guard keeps frames
 * from crossing, which before it could go on for thousands of steps after one fault). An overlap or
 * a frame out of order after that fails the run. */
static int unsettled(const bench_t *b, unsigned p)
{
    if (!b->last_fault[p])
        return 0;
    uint64_t win = 2u * (uint64_t)frame_steps(b, 15) + 4u * (2u + b->link_delay + b->p.TURN) + 16u;
    return b->cycle - b->last_fault[p] <= win;
}

/* link p's frame order after the step (docs/mlc.md rules 2, 3, the box port the slave, the node the
 * master): box frames start exactly G after a node frame ended; node frames exactly G after a box
 * frame ended or exactly TIMEOUT + TURN + 1 after the node's last symbol (its timeout); never both
 * ends at once. Paused while the link settles from a CTL fault; the first frame after it unchecked. */
static void lorder(bench_t *b, unsigned p)
{
    unsigned G = 2u + b->link_delay + b->p.TURN;
    int eb = b->prim.tx_en[p], en = b->nout[p].tx_en;
    if (eb && !b->pprev.tx_en[p]) { /* the box port starts a frame */
        b->lo_start[p] = b->cycle;
        b->lo_np[p] = b->prim.tx_d[p] & 15u;
    }
    if (unsettled(b, p)) {
        b->lo_last[p] = -2;
        b->lo_cur[p] = eb ? 0 : en ? 1 : -1;
        return;
    }
    if (b->lo_last[p] == -2) {
        b->lo_cur[p] = eb ? 0 : en ? 1 : -1;
        if (eb || en)
            return;
        b->lo_last[p] = -3; /* silence: the next frame start is tracked, not its timing */
    }
    if (eb && en)
        check_fail(b, "link %u: the box port and the node both drive in step %" PRIu64 " (frames cross)", p, b->cycle);
    int drv = eb ? 0 : en ? 1 : -1;
    if (drv >= 0 && b->lo_cur[p] < 0) { /* a frame starts */
        int last = b->lo_last[p];
        uint64_t t = b->cycle;
        if (last == 0 || last == 1) {
            uint64_t own_to = b->lo_node_end[p] + b->p.TIMEOUT + b->p.TURN; /* node: last symbol + TIMEOUT + TURN + 1 */
            int ok = drv != last ? t == b->lo_end[p] + G
                                 : (drv == 1 && b->p.TIMEOUT && t == own_to);
            if (!ok)
                check_fail(b, "link %u: the %s starts a frame in step %" PRIu64 "; the %s's frame ended in step %" PRIu64
                              ": an answer is due in step +G = %u, a node timeout only %u steps after its own frame "
                              "(docs/mlc.md rules 2, 3)",
                           p, drv ? "node" : "box port", t, last ? "node" : "box port", b->lo_end[p], G,
                           b->p.TIMEOUT + b->p.TURN);
        } else if (last == -1 && drv != 1) {
            check_fail(b, "link %u: the box port (the slave) sends the link's first frame in step %" PRIu64, p, t);
        }
        b->lo_cur[p] = drv;
    } else if (drv >= 0 && drv != b->lo_cur[p]) {
        check_fail(b, "link %u: the other end starts driving inside a frame in step %" PRIu64, p, b->cycle);
    } else if (drv < 0 && b->lo_cur[p] >= 0) { /* a frame ended in this step */
        b->lo_last[p] = b->lo_cur[p];
        b->lo_end[p] = b->cycle;
        if (b->lo_cur[p] == 1)
            b->lo_node_end[p] = b->cycle;
        b->lo_cur[p] = -1;
    }
}

/* corrupt nibbles and CTL faults on the link input (en, d) of end e (0 box, 1 node) of link p */
static void fault(bench_t *b, unsigned p, unsigned e, uint8_t *en, uint8_t *d)
{
    int hot = b->cb_link == (int)p; /* a directed cross of faults on this link now (combo_step) */
    unsigned pm = b->corrupt_pm + (hot && b->cb_corrupt ? 30u : 0u);
    unsigned ctl = b->ctl_rate ? b->ctl_rate + (hot && b->cb_ctl ? 3000u : 0u) : 0u;
    if (sbn_fault(&b->frng, pm, ctl, b->p.LINK_W, &b->prev_en[p][e], &b->erasing[p][e], en, d, &b->corrupted)) {
        if (b->cycle != b->last_fault[p])
            b->ctl_faults++;
        b->last_fault[p] = b->cycle;
    }
}

/* ------------------------------------------------------------------ the transit test */

void transit_start(bench_t *b)
{
    /* a source port a and a routed node b on another port q */
    for (unsigned t = 0; t < 64; t++) {
        unsigned a = rng_below(&b->rng, b->P), d = rng_below(&b->rng, b->p.NODES);
        if (b->tport[d] < 0 || (unsigned)b->tport[d] == a)
            continue;
        mlc_msg_t m;
        uint8_t data[MLC_T0_DATA];
        for (unsigned i = 0; i < MLC_T0_DATA; i++)
            data[i] = (uint8_t)rng_below(&b->rng, 256);
        memset(&m, 0, sizeof m);
        m.type = 0;
        m.kind = 0;
        m.dst = d;
        m.src = a;
        m.len = MLC_T0_DATA;
        m.data = data;
        b->tr_c = rng_below(&b->rng, NCH);
        if (send_msg(b, a, b->tr_c, &m, 0))
            oom();
        b->tr_a = a;
        b->tr_b = d;
        b->tr_q = (unsigned)b->tport[d];
        b->tr_state = TR_WAIT_ACCEPT;
        b->tr_since = b->cycle;
        return;
    }
    b->tr_done = b->transits; /* no pair of ports to test */
}

/* the frames at the box's pins this step: in = the link inputs of this step, prim/pprev its outputs */
static void frames_watch(bench_t *b, const sbox_in_t *in)
{
    for (unsigned p = 0; p < b->P; p++) {
        if (in->rx_en[p] && !b->rx_in[p]) {
            b->rx_in[p] = 1;
            b->rx_np[p] = in->rx_d[p] & 15u;
        } else if (!in->rx_en[p] && b->rx_in[p]) { /* the frame ended in this step */
            b->rx_in[p] = 0;
            b->frames_in++;
            if (b->tr_state == TR_WAIT_ACCEPT && p == b->tr_a && b->rx_np[p] > 0) {
                b->tr_t = b->cycle;
                b->tr_state = TR_WAIT_START;
            }
        }
    }
    if (b->tr_state == TR_WAIT_START) {
        unsigned q = b->tr_q;
        if (b->prim.tx_en[q] && !b->pprev.tx_en[q]) { /* port q starts a frame in this step */
            unsigned np = b->prim.tx_d[q] & 15u;
            if (b->cycle < b->tr_t + 14 && np)
                check_fail(b,
                           "transit: port %u's frame starting in step %" PRIu64 " carries %u units; the unit accepted "
                           "on port %u in step %" PRIu64 " is written in step t+13 (docs/sbox.md, Timing)",
                           q, b->cycle, np, b->tr_a, b->tr_t);
            if (b->cycle >= b->tr_t + 14) {
                if (!np)
                    check_fail(b,
                               "transit: port %u's first frame from step t+14 (t = %" PRIu64 ", the frame end on port "
                               "%u) starts in step %" PRIu64 " and carries no unit: transit above 13 steps",
                               q, b->tr_t, b->tr_a, b->cycle);
                b->transit_ok++;
                b->tr_state = TR_WAIT_DELIVER;
                b->tr_since = b->cycle;
            }
        }
    }
    if (b->tr_state != TR_IDLE && b->cycle - b->tr_since > 20000)
        check_fail(b, "transit: message from port %u to node %u (port %u) stuck (state %d since step %" PRIu64 ")",
                   b->tr_a, b->tr_b, b->tr_q, b->tr_state, b->tr_since);
}

/* ------------------------------------------------------------------ several faults at once */

enum { K_CORRUPT, K_CTL, K_DROP, K_PC, K_BAR, K_MCAST, K_STALL };

/* up to n distinct routed nodes on ports other than a, as a MASK with two or more member ports if the table has
 * them (0 if none) */
static unsigned member_mask(bench_t *b, unsigned a)
{
    unsigned mask = 0;
    for (unsigned t = 0; t < 64 && sbn_popc(mask_ports(b, mask)) < 2; t++) {
        unsigned d = rng_below(&b->rng, b->p.NODES);
        if (b->tport[d] >= 0 && (unsigned)b->tport[d] != a)
            mask |= 1u << d;
    }
    return mask;
}

/* a routed node on a port other than a (255 if none) */
static unsigned routed_node(bench_t *b, unsigned a)
{
    for (unsigned t = 0; t < 64; t++) {
        unsigned d = rng_below(&b->rng, b->p.NODES);
        if (b->tport[d] >= 0 && (unsigned)b->tport[d] != a)
            return d;
    }
    return 255;
}

/* the limits, once after the pairs: from node 0 on a channel where it does not wait in a barrier, the largest
 * message a FIFO takes whole (docs/mlc.md rule 5: 23 + 16 (FIFO_BYTES/16 - 2) bytes, Type1) to a routed node on
 * another port, and a multicast with all 16 MASK bits set */
static void limits_step(bench_t *b)
{
    unsigned a = 0, c = 0;
    if (b->bar[c].active && b->bar[c].queued[a] && !b->bar[c].released[a])
        c = 1;
    if (b->bar[c].active && b->bar[c].queued[a] && !b->bar[c].released[a])
        return;
    for (unsigned k = 0; k < 2; k++) {
        mlc_msg_t m;
        memset(&m, 0, sizeof m);
        m.type = 1;
        m.src = a;
        m.dst = k ? MLC_DST_MULTI : routed_node(b, a);
        m.mask = k ? 0xFFFFu : 0u;
        m.len = k ? 1u + rng_below(&b->rng, 40) : 23u + 16u * (b->p.FIFO_BYTES / 16u - 2u);
        m.data = malloc(m.len);
        if (!m.data)
            oom();
        for (unsigned i = 0; i < m.len; i++)
            m.data[i] = (uint8_t)rng_below(&b->rng, 256);
        send_msg(b, a, c, &m, 0);
        free(m.data);
    }
    b->limits++;
}

void combo_step(bench_t *b)
{
    uint64_t t = b->cycle - b->phase1_start;
    unsigned j = (unsigned)(t / COMBO_STEPS);
    if (j >= COMBO_PAIRS) {
        b->cb_link = b->cb_stall = -1;
        if (j == COMBO_PAIRS && t % COMBO_STEPS == 0)
            limits_step(b);
        return;
    }
    if (t % COMBO_STEPS)
        return;
    /* pair j of the kinds (k1 < k2, in order) */
    unsigned k1 = 0, k2 = 1;
    for (unsigned n = 0, x = 0; x < COMBO_KINDS; x++)
        for (unsigned y = x + 1; y < COMBO_KINDS; y++, n++)
            if (n == j) {
                k1 = x;
                k2 = y;
            }
    unsigned kinds = (1u << k1) | (1u << k2);
    /* the sender: node j mod PORTS or the next one on a channel where it does not wait in a barrier (a member
     * waiting for its release sends no data on the channel) */
    unsigned a = j % b->P, c = rng_below(&b->rng, NCH);
    int blocked = 1;
    for (unsigned t = 0; t < 2 * b->P && blocked; t++) {
        unsigned aa = (j + t / 2u) % b->P, cc = c ^ (t & 1u);
        if (!(b->bar[cc].active && b->bar[cc].queued[aa] && !b->bar[cc].released[aa])) {
            a = aa;
            c = cc;
            blocked = 0;
        }
    }
    b->cb_link = (int)a;
    b->cb_corrupt = (kinds >> K_CORRUPT) & 1u;
    b->cb_ctl = (kinds >> K_CTL) & 1u;
    b->cb_stall = -1;
    b->combos++;
    int stall = (kinds >> K_STALL) & 1u;
    if ((kinds >> K_BAR) & 1u) {
        /* a request is Type0: with PC < 2 (a Type1 field) it cannot be one message, so a data message with it
         * follows from the same node; with a multicast MASK it names two member ports or more (none is a) */
        if ((kinds >> K_MCAST) & 1u) {
            unsigned mask = member_mask(b, a);
            if (b->bar[c].active && mask == b->bar[c].mask)
                mask = 0;
            if (mask && !((mask_ports(b, mask) >> a) & 1u)) {
                if (mlc_host_barrier(b->host[a], c, a, mask, 0xBADu) != 0)
                    oom();
                b->e_ctr[SBOX_CTR_ERR_BAR]++;
                b->bad_bar++;
            }
        } else {
            bad_request(b, a, c, (kinds >> K_DROP) & 1u);
        }
        if (stall)
            b->cb_stall = (int)a;
        if (!((kinds >> K_PC) & 1u))
            return;
        kinds &= ~(1u << K_BAR);
    }
    if (blocked)
        return;
    mlc_msg_t m;
    memset(&m, 0, sizeof m);
    m.type = (kinds >> K_PC) & 1u ? 1u : rng_below(&b->rng, 2);
    m.kind = rng_below(&b->rng, 128);
    if ((kinds >> K_MCAST) & 1u) {
        m.dst = MLC_DST_MULTI;
        m.mask = (kinds >> K_DROP) & 1u ? unrouted_mask(b, a) : member_mask(b, a);
    } else if ((kinds >> K_DROP) & 1u) {
        m.dst = b->p.NODES + rng_below(&b->rng, 255 - b->p.NODES);
    } else {
        m.dst = routed_node(b, a);
    }
    int bad_pc = 0;
    if (m.type == 1 && (kinds >> K_PC) & 1u) { /* a 2-unit Type1 message whose PC the bench turns into 0 or 1 */
        mlc_msg_t probe = m;
        for (unsigned len = 1 + rng_below(&b->rng, 8); len < 64; len++) {
            probe.len = len;
            if (mlc_msg_units(&probe) == 2) {
                m.len = len;
                bad_pc = 1;
                break;
            }
        }
        m.data = malloc(m.len ? m.len : 1);
        if (!m.data)
            oom();
        m.src = a;
        for (unsigned i = 0; i < m.len; i++)
            m.data[i] = (uint8_t)rng_below(&b->rng, 256);
    } else if (sbn_msg_finish(&b->rng, &m, a, b->p.FIFO_BYTES, b->msgmode) < 0) {
        oom();
    }
    if (m.type == 0 && m.dst == MLC_DST_MULTI && (m.kind == MLC_KIND_BARRIER || m.kind == MLC_KIND_RELEASE))
        m.kind = 0;
    if (stall) { /* the reader of its first destination (or, with none, of the sender) stalls */
        unsigned set = port_set(b, a, m.dst, m.mask);
        b->cb_stall = (int)a;
        for (unsigned q = 0; q < b->P; q++)
            if ((set >> q) & 1u) {
                b->cb_stall = (int)q;
                break;
            }
    }
    send_msg(b, a, c, &m, bad_pc);
    free(m.data);
}

/* ------------------------------------------------------------------ counters preset, system reset */

void ctr_preset(bench_t *b)
{
    if (b->no_preset)
        return;
    uint64_t mod = ctr_mask(b);
    for (unsigned i = 0; i < SBOX_NCTR; i++) {
        uint64_t v = (mod + 1u - (1u + rng_below(&b->rng, 8))) & mod;
        b->e_ctr[i] = v;
        if (b->bm)
            sbox_ctr_preset(b->bm, i, v);
        if (b->br)
            sbox_rtl_ctr_preset(b->br, i, v);
    }
}

void system_reset(bench_t *b)
{
    if (b->bm)
        sbox_reset(b->bm);
    if (b->br)
        sbox_rtl_reset(b->br, &b->orr);
    memset(&b->om, 0, sizeof b->om);
    memset(&b->orr, 0, sizeof b->orr);
    memset(&b->prim, 0, sizeof b->prim);
    memset(&b->pprev, 0, sizeof b->pprev);
    memset(&b->bnext, 0, sizeof b->bnext);
    for (unsigned n = 0; n < b->P; n++) {
        if (sbn_node_renew(&b->p, b->link_delay, b->msgmode, &b->node[n], &b->host[n], &b->link[n], &b->nout[n]))
            oom();
        memset(&b->nin[n], 0, sizeof b->nin[n]);
        b->ncfg[n] = b->bcfg[n] = b->msgmode ? MLC_CFG_MSG : 0u;
        for (unsigned c = 0; c < NCH; c++) {
            while (ring_pop(&b->pcbad[n][c], NULL)) {
            }
            b->wr_words[n][c] = 0;
            for (unsigned q = 0; q < NPMAX; q++) {
                mlc_msg_t m;
                while (ring_pop(&b->exp[n][c][q], &m))
                    free(m.data);
            }
        }
        b->lo_last[n] = b->lo_cur[n] = -1;
        b->lo_end[n] = b->lo_node_end[n] = b->lo_start[n] = 0;
        b->last_fault[n] = 0;
        b->erasing[n][0] = b->erasing[n][1] = 0;
        b->prev_en[n][0] = b->prev_en[n][1] = 0;
        b->rx_in[n] = 0;
    }
    memset(b->bar, 0, sizeof b->bar);
    b->rd_prev = b->rd_prev_final = b->rd_prev_watch = 0;
    b->wn = b->wmsg = b->wlast_step = 0; /* the watched FIFO starts empty again */
    b->cb_link = b->cb_stall = -1;
    b->phase = 0;
    b->setup_base = b->cycle;
    b->nresets++;
    ctr_preset(b);
}

/* ------------------------------------------------------------------ one step */

void bench_step(bench_t *b)
{
    mlc_in_t nin[NPMAX];
    sbox_in_t in = b->bnext;
    b->cycle++;
    if (b->o.waves.vcd && b->br) {
        int wa = bench_waves_at(&b->o.waves, b->cycle, 1);
        if (wa > 0 && sbox_rtl_trace_open(b->br, b->o.waves.vcd, b->cycle) != 0) {
            fprintf(stderr, "%s: cannot write %s\n", SB_PROG, b->o.waves.vcd);
            exit(1);
        }
        if (wa < 0)
            sbox_rtl_trace_close(b->br, NULL);
    }
    int traffic = b->phase == 1, draining = b->phase >= 2;
    if (traffic && b->cycle % 10000 == 0) {
        /* a new load epoch: heavy (the box's bus and output links saturate, multicasts wait long),
         * moderate, light, or a lull in which the backlog drains and barriers complete */
        static const unsigned loads[] = {100, 20, 10, 5, 5, 2, 0, 0}; /* the bus saturates near 16 */
        for (unsigned c = 0; c < NCH; c++) /* each channel its own load */
            b->load_pm[c] = loads[rng_below(&b->rng, 8)];
        b->mcast_pct = rng_below(&b->rng, 4) == 0 ? 40 : rng_below(&b->rng, 16);
        b->hold_kind = rng_below(&b->rng, 3);
        b->hold_node = rng_below(&b->rng, b->P);
        if (b->epochs++ == 0) {
            /* the first epoch heavy on both channels, many multicasts: waiting multicasts take reservations
             * that hold other sources back (CHECK coverage (reservation)); the draws above are kept */
            for (unsigned c = 0; c < NCH; c++)
                b->load_pm[c] = loads[0];
            b->mcast_pct = 40;
        }
    }
    /* ---- nodes' host side */
    if (traffic)
        combo_step(b);
    if (traffic || draining)
        barrier_stimulus(b, draining);
    if (b->fair_state == 1)
        for (unsigned n = 0; n < b->P; n++)
            if (mlc_host_tx_pending(b->host[n], 0) < 64) {
                uint8_t data[87];
                for (unsigned i = 0; i < sizeof data; i++)
                    data[i] = (uint8_t)rng_below(&b->rng, 256);
                mlc_msg_t m = {1, 0, b->fair_dst[n], 0, n, sizeof data, data}; /* 6 units, 48 words */
                send_msg(b, n, 0, &m, 0);
            }
    for (unsigned n = 0; n < b->P; n++) {
        nin[n] = b->nin[n];
        mlc_in_t h;
        memset(&h, 0, sizeof h);
        if (traffic)
            for (unsigned c = 0; c < NCH; c++)
                if (mlc_host_tx_pending(b->host[n], c) < 64 && rng_below(&b->rng, 10000) < b->load_pm[c] &&
                    !(b->bar[c].active && b->bar[c].queued[n] && !b->bar[c].released[n])) /* waits in a barrier */
                    new_message(b, n, c);
        /* stalled readers (their FIFOs fill, then the box's send FIFOs, then every source that waits
         * for them): one node for the first 2000 steps of the epoch, or bursts of 400 steps on each */
        if (b->cb_stall == (int)n) /* a directed cross with a stalled reader: this node's, now */
            sbn_node_host(&b->rng, b->host[n], &b->nout[n], &nin[n], &h, traffic, 3, n, n, b->cycle);
        else
            sbn_node_host(&b->rng, b->host[n], &b->nout[n], &nin[n], &h, traffic, b->hold_kind, b->hold_node, n,
                          b->cycle);
        if (b->cycle == b->setup_base + 1 || (traffic && b->cycle == b->phase1_start)) {
            /* the start: Network Burst (the directed tests need full-rate links); the random phase: each
             * MLC its own transfer size (docs/mlc.md: a change with units in flight loses nothing) */
            if (b->cycle != b->setup_base + 1)
                b->ncfg[n] = b->ncfg_run[n];
            sbn_node_cfg(&nin[n], b->ncfg[n]);
        }
        if (h.h_wr) {
            sbn_node_word(&b->rng, &nin[n], &h, b->pcbad[n], b->wr_words[n]);
            bar_t *x = &b->bar[h.h_wch];
            if (x->active && x->queued[n] && !x->written_at[n] && b->wr_words[n][h.h_wch] >= x->target[n])
                x->written_at[n] = b->cycle;
        }
        /* a directed early frame at every box port (the link's slave), once, in the setup (idle links):
         * a CTL pulse LINK_DELAY + 1 steps after the last symbol of its frame; the guard ignores it
         * (docs/mlc.md rule 2). An unguarded MLC answers it in the very step the node answers the box
         * port's frame, and with LINK_DELAY >= F(0) - 1 the two ends then cross frames for as long as
         * the link stays idle ("crossing frames"): lorder fails the run once the window is over. */
        if (!b->early_done[n] && b->p.TIMEOUT && b->phase == 0 && b->lo_start[n] &&
            !in.rx_en[n] && b->cycle == b->lo_start[n] + frame_steps(b, b->lo_np[n]) + b->link_delay) {
            in.rx_en[n] = 1;
            in.rx_d[n] = 0;
            b->early_done[n] = 1;
            b->early_pulses++;
            b->ctl_faults++;
            b->last_fault[n] = b->cycle;
        }
        /* faults on both directions of link n */
        if (traffic) {
            fault(b, n, 0, &in.rx_en[n], &in.rx_d[n]);
            fault(b, n, 1, &nin[n].rx_en, &nin[n].rx_d);
        }
    }
    /* ---- the box's register port */
    in.reg_rd = in.reg_wr = 0;
    in.reg_addr = in.reg_wdata = 0;
    if (b->phase == 0) {
        /* steps 1..: the table (every entry below NODES, and one beyond), the MLC configurations, the up
         * port (none), writes the box ignores; reads of what was written come in the random phase */
        uint64_t k = b->cycle - b->setup_base - 1;
        if (k < b->p.NODES) {
            in.reg_wr = 1;
            in.reg_addr = SBOX_REG_TABLE(k);
            in.reg_wdata = b->twdata[k];
        } else if (k < b->p.NODES + b->P) {
            unsigned p = (unsigned)(k - b->p.NODES);
            in.reg_wr = 1;
            in.reg_addr = SBOX_REG_MLC(p, MLC_REG_CFG);
            in.reg_wdata = (uint16_t)(b->bcfg[p] | (rng_below(&b->rng, 8192) << 3)); /* upper bits ignored */
        } else if (k == b->p.NODES + b->P) {
            in.reg_wr = 1;
            in.reg_addr = SBOX_REG_UP;
            in.reg_wdata = b->upw; /* bit 4 clear: none */
        } else if (k == b->p.NODES + b->P + 1) {
            in.reg_wr = 1;
            in.reg_addr = SBOX_REG_CTR(SBOX_CTR_MSGS);
            in.reg_wdata = 0x1234;
        } else if (k >= b->p.NODES + b->P + 2 && k < b->p.NODES + b->P + 2 + 3u * (b->P + 1u)) {
            /* the up port register's bits both ways (limits): every port p with bit 4 set, each read back, then
             * none again (as written in the setup above); written, read, then a step for the answer's check */
            unsigned i = (unsigned)(k - b->p.NODES - b->P - 2), p = i / 3u;
            if (i % 3u == 0) {
                b->upw = p < b->P ? (uint16_t)(0x10u | p | (rng_below(&b->rng, 65536) & ~0x17u)) : b->upw_none;
                in.reg_wr = 1;
                in.reg_addr = SBOX_REG_UP;
                in.reg_wdata = b->upw;
            } else if (i % 3u == 1) {
                in.reg_rd = 1;
                in.reg_addr = SBOX_REG_UP;
            }
        }
    } else if (b->phase == 1 && b->cycle < b->phase1_start + 2u * b->P) {
        /* the box ports' configurations, every other step (the watched FIFO is read between) */
        unsigned p = (unsigned)(b->cycle - b->phase1_start) / 2u;
        if ((b->cycle - b->phase1_start) % 2u == 0) {
            b->bcfg[p] = b->bcfg_run[p];
            in.reg_wr = 1;
            in.reg_addr = SBOX_REG_MLC(p, MLC_REG_CFG);
            in.reg_wdata = (uint16_t)(b->bcfg[p] | (rng_below(&b->rng, 8192) << 3));
        }
    } else if (b->phase == 1 || b->phase == 2) {
        reg_stimulus(b, &in);
    } else if (b->phase == 3 && b->final_reads < (int)b->nfinal) {
        in.reg_rd = 1;
        in.reg_addr = b->final_addr[b->final_reads++];
    }
    /* the watched FIFO's space, in every step without another read */
    int watch = 0;
    if (!in.reg_rd && !in.reg_wr && b->wok) { /* one address: not with a write */
        in.reg_rd = 1;
        in.reg_addr = SBOX_REG_MLC(b->wq, MLC_REG_TX_SPACE(b->wc));
        watch = 1;
    }
    /* ---- the box: model and RTL */
    if (b->o.mode != MODE_RTL)
        sbox_step(b->bm, &in, &b->om);
    if (b->o.mode != MODE_MODEL) {
        sbox_rtl_step(b->br, &in, &b->orr);
        if (sbox_rtl_stopped(b->br))
            check_fail(b, "the RTL stopped itself (assertion)");
    }
    if (b->o.mode == MODE_LOCKSTEP)
        compare(b);
    b->pprev = b->prim;
    b->prim = b->o.mode == MODE_RTL || b->o.mode == MODE_LOCKSTEP ? b->orr : b->om;
    /* ---- the nodes */
    for (unsigned n = 0; n < b->P; n++) {
        mlc_step(b->node[n], &nin[n], &b->nout[n]);
        mlc_host_collect(b->host[n], &b->nout[n]);
    }
    /* ---- the links: box port n (end A) and node n (end B) */
    for (unsigned n = 0; n < b->P; n++) {
        mlc_out_t bo;
        mlc_in_t bi, ni;
        memset(&bo, 0, sizeof bo);
        bo.tx_en = b->prim.tx_en[n];
        bo.tx_d = b->prim.tx_d[n];
        uint64_t ov = mlc_link_overlaps(b->link[n]);
        mlc_link_step(b->link[n], &bo, &b->nout[n], &bi, &ni);
        if (mlc_link_overlaps(b->link[n]) != ov && !unsettled(b, n))
            check_fail(b, "link %u: the box port and the node drive at one end's pins in the same step (last CTL fault on it in "
                          "step %" PRIu64 ")",
                       n, b->last_fault[n]);
        b->bnext.rx_en[n] = bi.rx_en;
        b->bnext.rx_d[n] = bi.rx_d;
        b->nin[n].rx_en = ni.rx_en;
        b->nin[n].rx_d = ni.rx_d;
    }
    for (unsigned n = 0; n < b->P; n++)
        lorder(b, n);
    /* ---- checks */
    reg_check(b);
    b->rd_prev = in.reg_rd;
    b->rd_prev_addr = in.reg_addr;
    b->rd_prev_final = b->phase == 3 && in.reg_rd && !watch;
    b->rd_prev_watch = watch;
    frames_watch(b, &in);
    for (unsigned n = 0; n < b->P; n++)
        receive(b, n);
    if (b->tr_state == TR_WAIT_DELIVER && b->exp[b->tr_a][b->tr_c][b->tr_q].n == 0 && b->cycle - b->tr_since > 200) {
        b->tr_state = TR_IDLE;
        b->tr_done++;
        b->tr_since = b->cycle;
    }
}

/* ------------------------------------------------------------------ the bus share test */


/* every port streams Type1 messages (48 words) on channel 0 to a node on the next port; needs such a
 * node for every port, and links that together bring more than the bus moves (about 0.95*LINK_W/16
 * words per step each, the bus one) */
int fair_possible(bench_t *b)
{
    if (b->P * b->p.LINK_W * 95u < 2080u) /* 1.3 words per step */
        return 0;
    for (unsigned a = 0; a < b->P; a++) {
        int found = 0;
        for (unsigned d = 0; d < b->p.NODES && d < NNODE && !found; d++)
            if (b->tport[d] == (int)((a + 1) % b->P)) {
                b->fair_dst[a] = d;
                found = 1;
            }
        if (!found)
            return 0;
    }
    return 1;
}

/* rule 1: the grant goes round robin over the eligible sources, so with every source eligible (the
 * bus the bottleneck) each port's stream gets the same share: none below a third of the mean */
void fair_check(bench_t *b)
{
    uint64_t sum = 0, min = UINT64_MAX;
    unsigned at = 0;
    for (unsigned a = 0; a < b->P; a++) {
        sum += b->fair_words[a];
        if (b->fair_words[a] < min) {
            min = b->fair_words[a];
            at = a;
        }
    }
    if (!b->o.quiet) {
        printf("  bus share (words delivered per port in %u steps):", FAIR_STEPS - 1500u);
        for (unsigned a = 0; a < b->P; a++)
            printf(" %" PRIu64, b->fair_words[a]);
        printf("\n");
    }
    if (sum == 0 || 3u * min * b->P < sum)
        check_fail(b,
                   "bus share: port %u's stream got %" PRIu64 " words of %" PRIu64 " while every port's source was "
                   "eligible (rule 1: round robin from bp, bp = s + 1: equal shares)",
                   at, min, sum);
}

/* sanfab — vcsw_unit: random traffic, event steps, port widths, stress, reset
 * (run from the table of vcsw_unit.c; the helpers they call are in vcsw_unit_sim.c). */
#include "vcsw_unit.h"

/* Random traffic with random downstream stops and obeying senders on several sets: every packet
 * arrives once, whole, on the (output, VC) of its tables; counters agree with the flits seen. */
void test_random(void)
{
    static const struct {
        unsigned n, nvc, ctrl, L, depth, maxlen;
    } cs[] = {{5, 4, 1, 0, 32, 8}, {3, 2, 0, 3, 64, 16}, {8, 2, 1, 1, 16, 4}, {16, 16, 1, 0, 32, 6}, {2, 4, 0, 2, 16, 2}};
    for (unsigned a = 0; a < sizeof cs / sizeof cs[0]; a++) {
        vcsw_params_t p = params(cs[a].n, cs[a].nvc, cs[a].ctrl, cs[a].L);
        p.DEPTH = cs[a].depth;
        p.MAXLEN = cs[a].maxlen;
        p.FLIT_W = 32;
        const unsigned N = p.NPORTS, V = p.NVC, L = p.LINK_DELAY, maxs = 8000;
        sim_t *s = sim_new(&p, maxs);
        const unsigned ndvc = s->ndvc;
        rng_t r;
        rng_seed(&r, 1000 + a);
        for (unsigned t = 0; t < N; t++)
            set_route(s, t, (t * 7 + 3) % N);
        for (unsigned i = 0; i < N; i++)
            for (unsigned o = 0; o < N; o++)
                for (unsigned d = 0; d < ndvc; d++)
                    set_vc(s, i, o, d, (d * 3 + i + o) % ndvc);
        const unsigned t0 = s->cfg_next + 2, t1 = maxs - 1500;
        unsigned left[VCSW_MAX_PORTS][VCSW_MAX_VCS], len_[VCSW_MAX_PORTS][VCSW_MAX_VCS], tag_[VCSW_MAX_PORTS][VCSW_MAX_VCS];
        unsigned seq[VCSW_MAX_PORTS][VCSW_MAX_VCS];
        memset(left, 0, sizeof left);
        memset(seq, 0, sizeof seq);
        uint16_t stop[VCSW_MAX_PORTS] = {0};
        for (unsigned k = 1; k < maxs; k++) {
            for (unsigned o = 0; o < N; o++) {
                if (rng_pct(&r, 3))
                    stop[o] ^= (uint16_t)(1u << rng_below(&r, V));
                s->ts[o][k] = k < t1 ? stop[o] : 0;
            }
            if (k >= t0 && k < maxs - 500)
                for (unsigned i = 0; i < N; i++) {
                    if (!rng_pct(&r, 70))
                        continue;
                    unsigned v = rng_below(&r, V);
                    if (!left[i][v] && (k >= t1 || k < L + 4 || ((s->rs[i][k - L - 3] >> v) & 1u)))
                        continue;
                    if (!left[i][v]) {
                        len_[i][v] = left[i][v] = 1 + rng_below(&r, p.MAXLEN);
                        tag_[i][v] = rng_below(&r, N);
                        seq[i][v]++;
                    }
                    unsigned fi = len_[i][v] - left[i][v];
                    left[i][v]--;
                    uint32_t id = ((seq[i][v] * 16u + v) * 16u + i);
                    uint32_t data = fi == 0 ? ((id << 8) | tag_[i][v]) : (id * 2654435761u + fi);
                    put_flit(s, i, k, v, data, left[i][v] == 0);
                }
            sim_step(s);
        }
        /* the packets seen, in time order: per output and output VC the flits of one packet follow
         * each other; the heads of one source (i, v) come in the order it sent them */
        unsigned got_pk = 0, bad = 0, flits = 0;
        unsigned nseen[VCSW_MAX_PORTS][VCSW_MAX_VCS];
        uint32_t cur[VCSW_MAX_PORTS][VCSW_MAX_VCS];
        unsigned cfi[VCSW_MAX_PORTS][VCSW_MAX_VCS];
        memset(nseen, 0, sizeof nseen);
        memset(cfi, 0, sizeof cfi);
        for (unsigned k = 1; k < maxs; k++)
            for (unsigned o = 0; o < N; o++) {
                const vcsw_flit_t *f = &s->tx[o][k];
                if (!f->valid)
                    continue;
                const unsigned u = f->vc;
                flits++;
                if (u >= V) {
                    bad++;
                    continue;
                }
                if (cfi[o][u] == 0) {
                    const uint32_t id = f->data >> 8;
                    cur[o][u] = id;
                    unsigned i = id % 16, v = (id / 16) % 16, sq = id / 256, tag = f->data & 0xFFu;
                    const unsigned ctl = v >= ndvc, d = ctl ? v - ndvc : v;
                    unsigned wo = (tag * 7 + 3) % N, wu = (d * 3 + i + wo) % ndvc + (ctl ? ndvc : 0);
                    if (i >= N || v >= V || wo != o || wu != u || sq != nseen[i][v] + 1)
                        bad++;
                    if (i < N && v < V)
                        nseen[i][v] = sq;
                } else if (f->data != cur[o][u] * 2654435761u + cfi[o][u]) {
                    bad++;
                }
                cfi[o][u]++;
                if (f->tail) {
                    got_pk++;
                    cfi[o][u] = 0;
                }
            }
        for (unsigned o = 0; o < N; o++)
            for (unsigned u = 0; u < V; u++)
                bad += cfi[o][u] != 0;
        unsigned sent = 0, cut = 0, txf = 0, rxf = 0;
        for (unsigned i = 0; i < N; i++)
            for (unsigned v = 0; v < V; v++) {
                sent += seq[i][v];
                bad += nseen[i][v] != seq[i][v];
                cut += vcsw_counter(s->m, i, v, VCSW_CTR_OVERFLOW) + vcsw_counter(s->m, i, v, VCSW_CTR_TRUNC);
                txf += vcsw_counter(s->m, i, v, VCSW_CTR_TX_FLITS);
                rxf += vcsw_counter(s->m, i, v, VCSW_CTR_RX_FLITS);
            }
        check(bad == 0 && got_pk == sent && cut == 0 && txf == flits && rxf == flits && sent > 200,
              "random %s: %u packets sent, %u arrived whole in order on their route (%u bad), %u cut, %u flits",
              pstr(&p), sent, got_pk, bad, cut, flits);
        sim_free(s);
    }
}

/* The step of each counter event (docs/vcsw.md, Counters): rx_* and the drops, cuts at k+1 for a flit
 * received in k; tx_* in the allocation step (LINK_DELAY before tx shows it); tx_pkts at the tail. */
void test_event_steps(void)
{
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(5, 2, 0, a ? 3 : 0);
        p.MAXLEN = 4;
        p.DEPTH = 16;
        const unsigned L = p.LINK_DELAY;
        sim_t *s = sim_new(&p, 120);
        set_route(s, 1, 4);
        set_vc(s, 1, 4, 0, 1);
        put_pkt(s, 1, 20, 0, 1, 3, 1);  /* rx 20..22, tx (allocation) 23..25 */
        put_pkt(s, 1, 30, 0, 2, 2, 2);  /* drop_route at 31 */
        put_pkt(s, 1, 40, 0, 1, 6, 3);  /* cut: 4th flit (43) -> trunc at 44 */
        set_vc(s, 2, 4, 1, 0);
        stop_range(s, 4, 0, 1, 119);    /* (4, 0) stopped: input 2 VC 1 fills */
        unsigned k = 50;
        for (unsigned j = 0; j < 4; j++)
            k = put_pkt(s, 2, k, 1, 1, 4, 10 + j); /* 16 flits: occupancy 16 after step 66 */
        put_pkt(s, 2, 70, 1, 1, 2, 20);          /* head at DEPTH: overflow at 71 */
        uint32_t c[120][6];
        while (s->k < 119) {
            sim_step(s);
            c[s->k][0] = vcsw_counter(s->m, 1, 0, VCSW_CTR_RX_FLITS);
            c[s->k][1] = vcsw_counter(s->m, 1, 0, VCSW_CTR_RX_PKTS);
            c[s->k][2] = vcsw_counter(s->m, 4, 1, VCSW_CTR_TX_FLITS);
            c[s->k][3] = vcsw_counter(s->m, 4, 1, VCSW_CTR_TX_PKTS);
            c[s->k][4] = vcsw_counter(s->m, 1, 0, VCSW_CTR_DROP_ROUTE) * 100 + vcsw_counter(s->m, 1, 0, VCSW_CTR_TRUNC);
            c[s->k][5] = vcsw_counter(s->m, 2, 1, VCSW_CTR_OVERFLOW);
        }
        check(c[20][0] == 0 && c[21][0] == 1 && c[22][0] == 2 && c[23][0] == 3 && c[21][1] == 1 && c[20][1] == 0,
              "event steps L=%u: rx_flits at 21, 22, 23 and rx_pkts at 21 for flits received at 20..22", L);
        check(c[22][2] == 0 && c[23][2] == 1 && c[25][2] == 3 && c[24][3] == 0 && c[25][3] == 1,
              "event steps L=%u: tx_flits at 23..25, tx_pkts at 25 (the tail's allocation step, not the head's)", L);
        check(c[30][4] == 0 && c[31][4] == 100 && c[43][4] == 100 && c[44][4] == 101,
              "event steps L=%u: drop_route at 31 (head in 30), trunc at 44 (MAXLEN-th flit in 43)", L);
        check(c[70][5] == 0 && c[71][5] == 1, "event steps L=%u: overflow at 71 (head in 70 at a full buffer)", L);
        sim_free(s);
    }
}

/* Port widths: rx_vc has VCW bits and rx_data FLIT_W bits; the model ignores the bits above them
 * (vcsw_flit_t is wider than the ports). */
void test_port_widths(void)
{
    vcsw_params_t p = params(3, 4, 0, 0);
    p.FLIT_W = 12;
    p.TAG_W = 4;
    sim_t *s = sim_new(&p, 60);
    set_route(s, 5, 2);
    set_vc(s, 0, 2, 1, 3);
    /* VC 5 = VC 1 on the 2-bit port; data with bits above 12 set */
    s->rx[0][20] = (vcsw_flit_t){1, 5, 0, 0xABC5u | 0xF000u};
    s->rx[0][21] = (vcsw_flit_t){1, 1 + 4 * 3, 1, 0x12345u};
    sim_all(s);
    check(flit_is(&s->tx[2][23], 3, 0xBC5u, 0) && flit_is(&s->tx[2][24], 3, 0x345u, 1) &&
              vcsw_counter(s->m, 0, 1, VCSW_CTR_RX_FLITS) == 2,
          "port widths: rx_vc 5 and 13 are VC 1 (2 bits), data bits above FLIT_W 12 dropped");
    sim_free(s);
}

/* "Nothing is lost silently and nothing hangs": wild random traffic (senders ignoring STOP, packets
 * longer than MAXLEN, bad and rewritten table entries, random stops, reads) then a drain: every
 * buffer empties, every output VC's flits end with a tail, input flits = output flits + the flits
 * the counters say were dropped or cut is not checkable exactly, so: output flits <= input flits;
 * and afterwards one packet from input 0 reaches every output VC (none stays owned). */
void test_stress(void)
{
    static const struct {
        unsigned n, nvc, ctrl, L, depth, maxlen;
    } cs[] = {{5, 4, 1, 1, 16, 4}, {3, 2, 0, 0, 8, 2}, {16, 16, 0, 2, 32, 8}, {8, 2, 1, 3, 32, 16}};
    for (unsigned a = 0; a < sizeof cs / sizeof cs[0]; a++) {
        vcsw_params_t p = params(cs[a].n, cs[a].nvc, cs[a].ctrl, cs[a].L);
        p.DEPTH = cs[a].depth;
        p.MAXLEN = cs[a].maxlen;
        p.TAG_W = 4;
        const unsigned N = p.NPORTS, V = p.NVC, maxs = 14000, t1 = 9000;
        sim_t *s = sim_new(&p, maxs);
        const unsigned ndvc = s->ndvc;
        rng_t r;
        rng_seed(&r, 4242 + a);
        int intail[VCSW_MAX_PORTS][VCSW_MAX_VCS];
        memset(intail, 0, sizeof intail);
        for (unsigned k = 1; k < t1; k++) {
            if (rng_pct(&r, 30)) { /* table writes, some invalid, some out of range */
                if (rng_pct(&r, 50))
                    cfg_write_at(s, k, VCSW_SPACE_ROUTE, rng_below(&r, 20), rng_pct(&r, 85) ? 0x8000u | rng_below(&r, N + 2) : rng_below(&r, 16));
                else
                    cfg_write_at(s, k, VCSW_SPACE_VC, VCSW_VC_INDEX(rng_below(&r, N), rng_below(&r, N), rng_below(&r, ndvc)),
                                 rng_pct(&r, 85) ? 0x8000u | rng_below(&r, ndvc + 1) : 0);
            } else if (rng_pct(&r, 20)) {
                cfg_read_at(s, k, rng_below(&r, 4), rng_below(&r, 0x4000));
            }
            for (unsigned o = 0; o < N; o++)
                s->ts[o][k] = rng_pct(&r, 60) ? (uint16_t)rng_below(&r, 1u << V) : 0;
            for (unsigned i = 0; i < N; i++)
                if (rng_pct(&r, 80)) {
                    unsigned v = rng_below(&r, V), tail = rng_pct(&r, 100 / (p.MAXLEN + 1) + 5);
                    put_flit(s, i, k, v, (uint32_t)rng_next(&r), tail);
                    intail[i][v] = tail;
                }
        }
        /* close every open packet, then drain with stops released */
        for (unsigned i = 0; i < N; i++)
            for (unsigned v = 0; v < V; v++)
                if (!intail[i][v])
                    put_flit(s, i, t1 + v, v, 0, 1);
        sim_run(s, t1 + 2500);
        int empty = 1;
        for (unsigned i = 0; i < N; i++)
            for (unsigned v = 0; v < V; v++)
                empty &= vcsw_occupancy(s->m, i, v) == 0;
        int ended = 1;
        unsigned long in_f = 0, out_f = 0;
        for (unsigned o = 0; o < N; o++)
            for (unsigned u = 0; u < V; u++) {
                int last_tail = 1;
                for (unsigned k = 1; k <= t1 + 2500; k++)
                    if (s->tx[o][k].valid && s->tx[o][k].vc == u)
                        last_tail = s->tx[o][k].tail;
                ended &= last_tail;
            }
        for (unsigned i = 0; i < N; i++)
            for (unsigned k = 1; k <= t1 + 2500; k++) {
                in_f += s->rx[i][k].valid;
                out_f += s->tx[i][k].valid;
            }
        check(empty && ended && out_f <= in_f && out_f > in_f / 20,
              "stress %s: buffers empty after the drain, every output VC's last flit a tail, %lu of %lu flits out",
              pstr(&p), out_f, in_f);
        /* probe: clean tables, one packet per (o, u) from input 0 on data VC d = u % NDVC mapped to u */
        unsigned k = t1 + 2510;
        for (unsigned o = 0; o < N; o++)
            cfg_write_at(s, k++, VCSW_SPACE_ROUTE, o, VCSW_ENTRY(1, o));
        unsigned start = k + 2, got = 0;
        for (unsigned o = 0; o < N; o++)
            for (unsigned u = 0; u < V; u++) {
                unsigned ctl = u >= ndvc, d = ctl ? u - ndvc : u;
                cfg_write_at(s, k++, VCSW_SPACE_VC, VCSW_VC_INDEX(0, o, d), VCSW_ENTRY(1, d));
                put_pkt(s, 0, k + 1, u, o, 2, 0x7000 + o * 16 + u);
                k += 3;
            }
        sim_run(s, k + 100 < maxs ? k + 100 : maxs - 1);
        for (unsigned o = 0; o < N; o++)
            for (unsigned u = 0; u < V; u++) {
                unsigned g = find_data(s, o, start, s->k, pkt_data(s, 0x7000 + o * 16 + u, 0, o));
                got += g && pkt_at(s, o, g, u, o, 2, 0x7000 + o * 16 + u);
            }
        check(got == N * V, "stress %s: afterwards every output VC takes a new packet (%u of %u)", pstr(&p), got, N * V);
        sim_free(s);
    }
}

/* vcsw_reset: back to step 0 (buffers empty; the stimulus writes the same entries again): the same
 * stimulus gives the same outputs. */
void test_reset(void)
{
    vcsw_params_t p = params(4, 2, 1, 2);
    sim_t *s = sim_new(&p, 150);
    set_route(s, 1, 2);
    set_vc(s, 0, 2, 0, 0);
    stop_range(s, 2, 0, 10, 40);
    put_pkt(s, 0, 20, 0, 1, 30, 1);
    cfg_read_at(s, 60, VCSW_SPACE_CTR, VCSW_CTR_INDEX(0, 0, 0));
    sim_all(s);
    vcsw_flit_t *tx0 = xcalloc(150, sizeof *tx0);
    uint16_t *rs0 = xcalloc(150, sizeof *rs0);
    uint32_t rd0[150];
    memcpy(tx0, s->tx[2], 150 * sizeof *tx0);
    memcpy(rs0, s->rs[0], 150 * sizeof *rs0);
    memcpy(rd0, s->rd, sizeof rd0);
    vcsw_reset(s->m);
    check(vcsw_occupancy(s->m, 0, 0) == 0 && vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_FLITS) == 0,
          "reset: occupancy and counters 0");
    s->k = 0;
    sim_all(s);
    int ok = 1;
    for (unsigned k = 1; k < 150; k++)
        ok &= memcmp(&tx0[k], &s->tx[2][k], sizeof *tx0) == 0 && rs0[k] == s->rs[0][k] && rd0[k] == s->rd[k];
    check(ok && count_valid(s, 2, 1, 149) == 30, "reset: a second run after vcsw_reset repeats the first");
    free(tx0);
    free(rs0);
    sim_free(s);
}

/* vcsw_reset keeps the tables (docs/vcsw.md, Tables: RAM, rst does not change them) and clears the
 * counters (Steps): after entries are loaded and a packet has passed, a reset, then a head with no
 * write since is routed by the loaded entries, the entry reads back as written, and the counters
 * count only what came after the reset. */
void test_reset_keeps_tables(void)
{
    vcsw_params_t p = params(4, 2, 1, 1);
    const unsigned M = 60, L = p.LINK_DELAY;
    sim_t *s = sim_new(&p, M);
    set_route(s, 3, 2);    /* tag 3 -> output 2 */
    set_vc(s, 0, 2, 0, 0); /* (input 0, output 2, data VC 0) -> VC 0 */
    put_pkt(s, 0, 5, 0, 3, 4, 1);
    sim_all(s);
    check(pkt_at(s, 2, 5 + 3 + L, 0, 3, 4, 1) && vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_FLITS) == 4,
          "reset keeps tables: before the reset the packet leaves output 2 VC 0 in step %u, rx_flits 4 (got %u)",
          5 + 3 + L, vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_FLITS));
    vcsw_reset(s->m);
    int zero = 1;
    for (unsigned q = 0; q < s->n; q++)
        for (unsigned v = 0; v < s->nvc; v++)
            for (unsigned c = 0; c < VCSW_NCTR; c++)
                zero &= vcsw_counter(s->m, q, v, c) == 0;
    check(zero, "reset keeps tables: every counter 0 right after vcsw_reset");
    /* new stimulus, no table write: a 2-flit packet at step 2, the route entry read in step 20 */
    for (unsigned k = 0; k < M; k++) {
        s->we[k] = s->re[k] = 0;
        s->addr[k] = s->wd[k] = 0;
        for (unsigned q = 0; q < VCSW_MAX_PORTS; q++)
            memset(&s->rx[q][k], 0, sizeof s->rx[q][k]);
    }
    put_pkt(s, 0, 2, 1, 3, 2, 2); /* control VC 1: its data twin 0 maps to VC 0, so control VC 1 */
    cfg_read_at(s, 20, VCSW_SPACE_ROUTE, 3);
    s->k = 0;
    sim_all(s);
    check(pkt_at(s, 2, 2 + 3 + L, 1, 3, 2, 2) && count_valid(s, 2, 1, M - 1) == 2 && others_idle(s, 2, 1, M - 1),
          "reset keeps tables: a head after the reset (no write since) leaves output 2 VC 1 in step %u", 2 + 3 + L);
    check(s->rv[21] && s->rd[21] == VCSW_ENTRY(1, 2), "reset keeps tables: the route entry reads back 0x8002 (got %u 0x%x)",
          s->rv[21], s->rd[21]);
    check(vcsw_counter(s->m, 0, 1, VCSW_CTR_RX_FLITS) == 2 && vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_FLITS) == 0 &&
              vcsw_counter(s->m, 0, 1, VCSW_CTR_RX_PKTS) == 1 && vcsw_counter(s->m, 2, 1, VCSW_CTR_TX_FLITS) == 2 &&
              vcsw_counter(s->m, 2, 0, VCSW_CTR_TX_FLITS) == 0,
          "reset keeps tables: the counters count only the packet after the reset (rx_flits 0/1 %u/%u, tx_flits 2/0 2/1 "
          "%u/%u)", vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_FLITS), vcsw_counter(s->m, 0, 1, VCSW_CTR_RX_FLITS),
          vcsw_counter(s->m, 2, 0, VCSW_CTR_TX_FLITS), vcsw_counter(s->m, 2, 1, VCSW_CTR_TX_FLITS));
    sim_free(s);
}

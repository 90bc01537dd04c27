/* sanfab — vcsw_unit: table-write timing, the configuration port, the counter schedule, the RAM read
 * (run from the table of vcsw_unit.c; the helpers they call are in vcsw_unit_sim.c). */
#include "vcsw_unit.h"

/* A write in step w affects heads received in steps > w, not a head received in step w; a routed
 * packet keeps its route whatever is rewritten while it waits or streams. */
void test_write_timing(void)
{
    vcsw_params_t p = params(4, 2, 0, 0);
    sim_t *s = sim_new(&p, 200);
    set_route(s, 7, 1);
    set_vc(s, 0, 1, 0, 0);
    set_vc(s, 0, 2, 0, 1);
    set_vc(s, 3, 1, 0, 0);
    set_vc(s, 3, 2, 0, 0);
    set_vc(s, 2, 1, 0, 1);
    /* route rewrite in step 20: head in 20 (input 0) -> old port 1; head in 21 (input 3) -> new port 2 */
    cfg_write_at(s, 20, VCSW_SPACE_ROUTE, 7, VCSW_ENTRY(1, 2));
    put_pkt(s, 0, 20, 0, 7, 1, 1);
    put_pkt(s, 3, 21, 0, 7, 1, 2);
    /* VC rewrite in step 30: (0,2,0) -> 0; head in 30 -> old VC 1; head in 31 -> VC 0 */
    cfg_write_at(s, 30, VCSW_SPACE_VC, VCSW_VC_INDEX(0, 2, 0), VCSW_ENTRY(1, 0));
    put_pkt(s, 0, 30, 0, 7, 1, 3);
    put_pkt(s, 0, 31, 0, 7, 1, 4);
    /* a packet waiting behind a stop, its tables rewritten (route and VC) before it leaves */
    stop_range(s, 2, 0, 40, 70);
    put_pkt(s, 0, 45, 0, 7, 3, 5);
    cfg_write_at(s, 50, VCSW_SPACE_ROUTE, 7, VCSW_ENTRY(1, 3));
    cfg_write_at(s, 51, VCSW_SPACE_VC, VCSW_VC_INDEX(0, 2, 0), VCSW_ENTRY(1, 1));
    /* a streaming packet (input 2 -> port 3... via tag 7 after the write at 50: (2,3,0) invalid):
     * use tag 9 -> port 1 and rewrite tag 9 in the middle of the packet */
    set_route(s, 9, 1);
    put_pkt(s, 2, 80, 0, 9, 6, 6);
    cfg_write_at(s, 82, VCSW_SPACE_ROUTE, 9, VCSW_ENTRY(0, 0));
    sim_all(s);
    check(flit_is(&s->tx[1][23], 0, pkt_data(s, 1, 0, 7), 1), "write timing: head in the write's step 20 -> old port 1");
    check(flit_is(&s->tx[2][24], 0, pkt_data(s, 2, 0, 7), 1), "write timing: head in step 21 -> new port 2");
    check(flit_is(&s->tx[2][33], 1, pkt_data(s, 3, 0, 7), 1) && flit_is(&s->tx[2][34], 0, pkt_data(s, 4, 0, 7), 1),
          "write timing: VC entry written in 30: head in 30 -> old VC 1, head in 31 -> VC 0");
    check(pkt_at(s, 2, 73, 0, 7, 3, 5) && count_valid(s, 3, 1, 199) == 0,
          "write timing: a packet waiting (stop until 70) keeps its route (2, 0) after both rewrites: out at 73");
    check(pkt_at(s, 1, 83, 1, 9, 6, 6), "write timing: a streaming packet keeps its route after its tag is invalidated");
    sim_free(s);
}

/* Configuration port: reads answered at r+1 (tables as written before r), errors, read ignored while
 * one is outstanding and when a write comes with it; readback layout. */
void test_cfg(void)
{
    vcsw_params_t p = params(5, 4, 1, 0);
    p.TAG_W = 4;
    sim_t *s = sim_new(&p, 300);
    cfg_write_at(s, 2, VCSW_SPACE_ROUTE, 3, 0x8005);
    cfg_read_at(s, 3, VCSW_SPACE_ROUTE, 3); /* -> 4: 0x8005 */
    cfg_read_at(s, 4, VCSW_SPACE_ROUTE, 3); /* ignored: answer step of the previous */
    cfg_write_at(s, 6, VCSW_SPACE_ROUTE, 3, 0x7FF2);
    s->re[6] = 1; /* write + read at once: read ignored */
    cfg_read_at(s, 8, VCSW_SPACE_ROUTE, 3); /* -> 9: 0x0002 */
    cfg_write_at(s, 10, VCSW_SPACE_VC, VCSW_VC_INDEX(4, 3, 1), 0xFFFF);
    cfg_read_at(s, 11, VCSW_SPACE_VC, VCSW_VC_INDEX(4, 3, 1)); /* -> 12: 0x800F */
    cfg_read_at(s, 12, VCSW_SPACE_VC, VCSW_VC_INDEX(4, 3, 0)); /* ignored */
    cfg_read_at(s, 13, VCSW_SPACE_VC, VCSW_VC_INDEX(4, 3, 0)); /* -> 14: 0 (never written) */
    /* errors: route index 16 (TAG_W 4), VC in 5, out 5, d 2 (NDVC 2), bits 13:12 set, space 3, counter
     * port 5, counter vc 4 */
    static const uint16_t bad[] = {
        VCSW_CFG_ADDR(0, 16),    VCSW_CFG_ADDR(0, 0x3FFF), VCSW_CFG_ADDR(1, VCSW_VC_INDEX(5, 0, 0)),
        VCSW_CFG_ADDR(1, VCSW_VC_INDEX(0, 5, 0)), VCSW_CFG_ADDR(1, VCSW_VC_INDEX(0, 0, 2)),
        VCSW_CFG_ADDR(1, 0x1000), VCSW_CFG_ADDR(3, 0), VCSW_CFG_ADDR(3, 0x123),
        VCSW_CFG_ADDR(2, VCSW_CTR_INDEX(5, 0, 0)), VCSW_CFG_ADDR(2, VCSW_CTR_INDEX(0, 4, 0)),
        VCSW_CFG_ADDR(2, 0x800)};
    const unsigned nbad = sizeof bad / sizeof bad[0];
    for (unsigned i = 0; i < nbad; i++) {
        s->re[20 + 2 * i] = 1;
        s->addr[20 + 2 * i] = bad[i];
    }
    /* writes outside a table are ignored (no aliasing): route 16 and 0x3FF0 -> tag 0 unchanged;
     * VC (0,0,2) -> (0,0,0)? unchanged; then read tag 0 and VC (0,0,0) */
    cfg_write_at(s, 60, VCSW_SPACE_ROUTE, 16, 0x8001);
    cfg_write_at(s, 61, VCSW_SPACE_ROUTE, 0x3FF0, 0x8001);
    cfg_write_at(s, 62, VCSW_SPACE_VC, VCSW_VC_INDEX(0, 0, 2), 0x8001);
    cfg_write_at(s, 63, VCSW_SPACE_VC, 0x1000, 0x8001);
    cfg_write_at(s, 64, VCSW_SPACE_CTR, 0, 0x8001);
    cfg_write_at(s, 65, 3, 0, 0x8001);
    cfg_read_at(s, 66, VCSW_SPACE_ROUTE, 0);
    cfg_read_at(s, 68, VCSW_SPACE_VC, VCSW_VC_INDEX(0, 0, 0));
    /* the last valid indices */
    cfg_write_at(s, 70, VCSW_SPACE_ROUTE, 15, 0x8004);
    cfg_write_at(s, 71, VCSW_SPACE_VC, VCSW_VC_INDEX(4, 4, 1), 0x8001);
    cfg_read_at(s, 72, VCSW_SPACE_ROUTE, 15);
    cfg_read_at(s, 74, VCSW_SPACE_VC, VCSW_VC_INDEX(4, 4, 1));
    sim_all(s);
    check(s->rv[4] && s->rd[4] == 0x8005, "cfg: route entry written at 2, read at 3, answered at 4 with 0x8005 (got %u 0x%x)",
          s->rv[4], s->rd[4]);
    check(never_rvalid(s, 1, 3) && never_rvalid(s, 5, 8), "cfg: nothing else answered in 1..8 (read in the answer "
                                                          "step and read with a write ignored)");
    check(s->rv[9] && s->rd[9] == 0x0002, "cfg: readback of wdata 0x7FF2 is 0x0002 at 9 (got 0x%x)", s->rd[9]);
    check(s->rv[12] && s->rd[12] == 0x800F && !s->rv[13] && s->rv[14] && s->rd[14] == 0,
          "cfg: VC entry wdata 0xFFFF reads 0x800F at 12; read at 12 ignored; unwritten entry reads 0 at 14");
    int ok = 1;
    for (unsigned i = 0; i < nbad; i++) {
        unsigned r = 20 + 2 * i;
        ok &= s->rv[r + 1] && s->rd[r + 1] == VCSW_RDATA_ERROR && !s->rv[r];
        if (!(s->rv[r + 1] && s->rd[r + 1] == VCSW_RDATA_ERROR))
            printf("  cfg: address 0x%04x read at %u: rvalid %u rdata 0x%x at %u\n", bad[i], r, s->rv[r + 1],
                   s->rd[r + 1], r + 1);
    }
    check(ok, "cfg: out-of-range indices, space 3 and absent counters answer 0x80000000 at r+1");
    check(s->rv[67] && s->rd[67] == 0 && s->rv[69] && s->rd[69] == 0,
          "cfg: writes outside a table and to spaces 2, 3 ignored (no aliasing onto entry 0)");
    check(s->rv[73] && s->rd[73] == 0x8004 && s->rv[75] && s->rd[75] == 0x8001, "cfg: last route tag 15 and VC (4,4,1)");
    check(never_rvalid(s, 15, 20) && never_rvalid(s, 76, 299), "cfg: rvalid and rdata 0 when nothing is answered");
    sim_free(s);

    /* reads every step: accepted, answered at r+1, the next accepted at r+2 */
    {
        vcsw_params_t q = params(3, 2, 1, 0);
        sim_t *t = sim_new(&q, 60);
        for (unsigned k = 10; k < 30; k++)
            cfg_read_at(t, k, VCSW_SPACE_ROUTE, k);
        sim_all(t);
        int ok2 = 1;
        for (unsigned k = 1; k < 60; k++)
            ok2 &= t->rv[k] == (k >= 11 && k <= 29 && (k & 1u));
        check(ok2, "cfg: reads in every step 10..29: answers at 11, 13, .., 29 (every other read ignored)");
        sim_free(t);
    }
}

/* Counters: the schedule, answer at W+1 with the events of steps <= W-4, counted independently:
 * rx_flits, rx_pkts, drop_route, drop_vc from the stimulus (step k+1 for a flit received in k),
 * tx_flits and tx_pkts from the outputs (step j-LINK_DELAY for a flit on tx after step j). */
void test_counters(void)
{
    static const struct {
        unsigned n, nvc, ctrl, L, width;
    } cs[] = {{3, 2, 1, 0, 32}, {5, 4, 0, 3, 32}, {2, 16, 1, 1, 16}};
    for (unsigned a = 0; a < 3; a++) {
        vcsw_params_t p = params(cs[a].n, cs[a].nvc, cs[a].ctrl, cs[a].L);
        p.CTR_WIDTH = cs[a].width;
        const unsigned N = p.NPORTS, V = p.NVC, L = p.LINK_DELAY, NS = 8 * N * V, maxs = 6000;
        sim_t *s = sim_new(&p, maxs);
        const unsigned ndvc = s->ndvc;
        rng_t r;
        rng_seed(&r, 77 + a);
        /* tags 0..N-1 -> port t; tag N: invalid; VC entries (i, o, d) -> (d + i) % NDVC except
         * (i, o, 0) for o == i: invalid (drop_vc) */
        for (unsigned t = 0; t < N; t++)
            set_route(s, t, t);
        for (unsigned i = 0; i < N; i++)
            for (unsigned o = 0; o < N; o++)
                for (unsigned d = 0; d < ndvc; d++)
                    if (!(o == i && d == 0))
                        set_vc(s, i, o, d, (d + i) % ndvc);
        const unsigned t0 = s->cfg_next + 5;
        /* expected events per slot and step: ev[slot] list via a dense array [step][slot] bitmaps is
         * big; keep per slot the steps of its events */
        unsigned *cnt = xcalloc((size_t)NS * maxs, sizeof(unsigned)); /* cnt[slot*maxs + step] */
#define EV(port, vc, c, k) (cnt[((size_t)(((port) * V + (vc)) * 8u + (c))) * maxs + (k)]++)
        /* light random traffic (outputs never stopped, so buffers never fill): per input, a packet
         * now and then on a random VC, 1..6 flits, random tag 0..N */
        for (unsigned i = 0; i < N; i++) {
            unsigned k = t0 + i;
            while (k < maxs - 200) {
                unsigned v = rng_below(&r, V), len = 1 + rng_below(&r, 6), tag = rng_below(&r, N + 1);
                unsigned id = rng_below(&r, 1000);
                put_pkt(s, i, k, v, tag, len, id);
                unsigned d = v >= ndvc ? v - ndvc : v;
                for (unsigned j = 0; j < len; j++)
                    EV(i, v, VCSW_CTR_RX_FLITS, k + j + 1);
                EV(i, v, VCSW_CTR_RX_PKTS, k + 1);
                if (tag >= N)
                    EV(i, v, VCSW_CTR_DROP_ROUTE, k + 1);
                else if (tag == i && d == 0)
                    EV(i, v, VCSW_CTR_DROP_VC, k + 1);
                k += len + rng_below(&r, 3 * N * len);
            }
        }
        /* reads: a request in every step from t0 (most ignored), random slots */
        for (unsigned k = 2; k < maxs - 100; k++)
            if (!s->we[k]) {
                unsigned slot = rng_below(&r, NS), c = slot % 8, pv = slot / 8;
                cfg_read_at(s, k, VCSW_SPACE_CTR, VCSW_CTR_INDEX(pv / V, pv % V, c));
            }
        sim_all(s);
        for (unsigned o = 0; o < N; o++)
            for (unsigned j = L + 1; j < maxs; j++)
                if (s->tx[o][j].valid) {
                    EV(o, s->tx[o][j].vc, VCSW_CTR_TX_FLITS, j - L);
                    if (s->tx[o][j].tail)
                        EV(o, s->tx[o][j].vc, VCSW_CTR_TX_PKTS, j - L);
                }
        const uint32_t mask = p.CTR_WIDTH >= 32 ? 0xFFFFFFFFu : ((1u << p.CTR_WIDTH) - 1u);
        int ok = 1;
        unsigned answered = 0, pend = 0, rq = 0, ans = 0, nonzero = 0;
        for (unsigned k = 1; k < maxs && ok; k++) {
            if (pend) {
                unsigned idx = s->addr[rq] & 0x3FFFu;
                unsigned slot = (((idx >> 7) * V) + ((idx >> 3) & 15u)) * 8u + (idx & 7u);
                if (k < ans && s->rv[k])
                    ok = check(0, "counters %s: read of slot %u at %u answered early at %u (want %u)", pstr(&p), slot,
                               rq, k, ans);
                else if (k == ans) {
                    const unsigned W = ans - 1;
                    uint32_t want = 0;
                    for (unsigned j = 0; j + 4 <= W; j++)
                        want += cnt[(size_t)slot * maxs + j];
                    want &= mask;
                    nonzero += want != 0;
                    ok = check(s->rv[k] && s->rd[k] == want,
                               "counters %s: read of slot %u (%s) in step %u: answer %u at step W+1 = %u, got rvalid %u "
                               "data %u",
                               pstr(&p), slot, vcsw_counter_name(slot % 8), rq, want, ans, s->rv[k], s->rd[k]);
                    answered++;
                    pend = 0;
                }
                continue; /* outstanding, also in the answer step: requests ignored */
            }
            if (s->rv[k]) {
                ok = check(0, "counters %s: cfg_rvalid at step %u without a read", pstr(&p), k);
                break;
            }
            if (s->re[k] && !s->we[k]) {
                pend = 1;
                rq = k;
                unsigned idx = s->addr[k] & 0x3FFFu;
                unsigned slot = (((idx >> 7) * V) + ((idx >> 3) & 15u)) * 8u + (idx & 7u);
                unsigned W = k + 1;
                while (W < 3 || W % NS != (slot + 3) % NS)
                    W++;
                ans = W + 1;
            }
        }
        check(ok && answered > (maxs - t0 - 200) / (NS + 2) && nonzero > answered / 8,
              "counters %s: %u reads answered at W+1 with the events of steps <= W-4 (%u not 0)", pstr(&p), answered,
              nonzero);
        /* vcsw_counter: every event so far */
        int ok2 = 1;
        for (unsigned slot = 0; slot < NS; slot++) {
            uint32_t want = 0;
            for (unsigned j = 0; j < maxs; j++)
                want += cnt[(size_t)slot * maxs + j];
            ok2 &= vcsw_counter(s->m, slot / 8 / V, slot / 8 % V, slot % 8) == (want & mask);
        }
        check(ok2, "counters %s: vcsw_counter = every event so far, for every slot", pstr(&p));
#undef EV
        free(cnt);
        sim_free(s);
    }
    /* the flusher starts at step 3: slot NS-1 read in step 1 (W = 2 would match) answers at NS+3 */
    {
        vcsw_params_t p = params(2, 2, 1, 0); /* NS = 32 */
        sim_t *s = sim_new(&p, 100);
        cfg_read_at(s, 1, VCSW_SPACE_CTR, VCSW_CTR_INDEX(1, 1, 7));
        cfg_read_at(s, 40, VCSW_SPACE_CTR, VCSW_CTR_INDEX(0, 0, 0)); /* slot 0: W = 64 + 3 = 67, answer 68 */
        sim_all(s);
        unsigned got = 0, got2 = 0;
        for (unsigned k = 1; k < 40; k++)
            if (s->rv[k] && !got)
                got = k;
        for (unsigned k = 41; k < 100; k++)
            if (s->rv[k] && !got2)
                got2 = k;
        check(got == 35 && s->rd[35] == 0 && got2 == 68,
              "counters: slot 31 read in step 1 answered at W+1 = 35 (W = 34, not 2); slot 0 read at 40 at 68 (got %u, %u)",
              got, got2);
        sim_free(s);
    }
    /* COUNTERS = 0: a counter read answers 0 at r+1 */
    {
        vcsw_params_t p = params(3, 4, 1, 0);
        p.COUNTERS = 0;
        sim_t *s = sim_new(&p, 200);
        set_route(s, 0, 1);
        set_vc(s, 0, 1, 0, 0);
        put_pkt(s, 0, 10, 0, 0, 30, 1);
        for (unsigned k = 20; k < 120; k += 2)
            cfg_read_at(s, k, VCSW_SPACE_CTR, VCSW_CTR_INDEX(k % 3, (k / 3) % 4, k % 8));
        sim_all(s);
        int ok = 1;
        for (unsigned k = 20; k < 200; k++)
            ok &= s->rv[k] == (k >= 21 && k <= 119 && (k & 1u)) && s->rd[k] == 0;
        check(ok && vcsw_counter(s->m, 0, 0, VCSW_CTR_RX_FLITS) == 30,
              "COUNTERS=0: counter reads answered at r+1 with 0 (vcsw_counter still counts: 30)");
        sim_free(s);
    }
    /* CTR_WIDTH = 8: 300 flits -> 44 */
    {
        vcsw_params_t p = params(3, 2, 0, 0);
        p.CTR_WIDTH = 8;
        p.MAXLEN = 50;
        p.DEPTH = 64;
        sim_t *s = sim_new(&p, 600);
        set_route(s, 0, 2);
        set_vc(s, 1, 2, 1, 0);
        unsigned k = 10;
        for (unsigned j = 0; j < 6; j++)
            k = put_pkt(s, 1, k, 1, 0, 50, j);
        cfg_read_at(s, 400, VCSW_SPACE_CTR, VCSW_CTR_INDEX(1, 1, VCSW_CTR_RX_FLITS));
        cfg_read_at(s, 500, VCSW_SPACE_CTR, VCSW_CTR_INDEX(2, 0, VCSW_CTR_TX_FLITS));
        sim_all(s);
        unsigned a1 = 0, a2 = 0;
        for (unsigned j = 401; j < 500; j++)
            if (s->rv[j] && !a1)
                a1 = j;
        for (unsigned j = 501; j < 600; j++)
            if (s->rv[j] && !a2)
                a2 = j;
        check(a1 && s->rd[a1] == 300 % 256 && a2 && s->rd[a2] == 300 % 256 &&
                  vcsw_counter(s->m, 1, 1, VCSW_CTR_RX_FLITS) == 44 && vcsw_counter(s->m, 1, 1, VCSW_CTR_RX_PKTS) == 6,
              "CTR_WIDTH=8: 300 flits read as 44 (rx_flits %u, tx_flits %u)", a1 ? s->rd[a1] : 9999,
              a2 ? s->rd[a2] : 9999);
        sim_free(s);
    }
}

/* RAM read: a VC whose RAM part is not empty delivers one entry per step to a head popped every
 * step; two VCs of one input draining at once share the one RAM read (one flit per step in all). */
void test_ram_read(void)
{
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(4, 4, 0, a ? 3 : 0);
        p.DEPTH = 64;
        p.MAXLEN = 16;
        const unsigned L = p.LINK_DELAY;
        sim_t *s = sim_new(&p, 400);
        set_route(s, 1, 1);
        set_route(s, 2, 2);
        set_vc(s, 0, 1, 2, 0);
        set_vc(s, 0, 2, 3, 0);
        /* VC 2: 3 packets of 12 (36 flits) into a stopped output 1 VC 0, released at 100 */
        stop_range(s, 1, 0, 1, 99);
        unsigned k = 10;
        for (unsigned j = 0; j < 3; j++)
            k = put_pkt(s, 0, k, 2, 1, 12, 1 + j);
        /* VC 3 (output 2) and VC 2 again: 2 packets of 12 each into stopped outputs, both released at 200 */
        stop_range(s, 1, 0, 150, 199);
        stop_range(s, 2, 0, 1, 199);
        k = 150;
        for (unsigned j = 0; j < 2; j++) {
            k = put_pkt(s, 0, k, 2, 1, 12, 10 + j);
            k = put_pkt(s, 0, k, 3, 2, 12, 20 + j);
        }
        sim_all(s);
        /* released (last stop 99): prepared 101, taken from 102; each packet whole at one flit per
         * step through the RAM part and R; the next packet's head two steps after the tail (its
         * output VC owned after the step before the tail's, rule 3.3): 102, 115, 128 */
        check(count_valid(s, 1, 102 + L, 139 + L) == 36 && pkt_at(s, 1, 102 + L, 0, 1, 12, 1) &&
                  pkt_at(s, 1, 115 + L, 0, 1, 12, 2) && pkt_at(s, 1, 128 + L, 0, 1, 12, 3),
              "RAM read L=%u: one VC drains 3 packets of 12 at one flit per step from %u, %u, %u", L, 102 + L,
              115 + L, 128 + L);
        /* both eligible when prepared in 201 (last stop 199): the input sends one flit per step in
         * all (rule 3), its round robin over VC numbers alternating them; its position is 3 (past VC
         * 2, the last VC taken), so VC 3 (output 2) goes first at 202; the one RAM read per step
         * keeps both fed; a head behind a tail is not offered in the step the tail is taken, but
         * the other VC is, so the alternation has no hole */
        unsigned one = 0, alt = 0;
        for (unsigned j = 202 + L; j < 250 + L; j++) {
            const unsigned want_o = ((j - 202 - L) & 1u) ? 1 : 2;
            one += (s->tx[1][j].valid + s->tx[2][j].valid) == 1;
            alt += s->tx[want_o][j].valid;
        }
        check(one == 48 && alt == 48 && count_valid(s, 1, 1, 399) == 60 && count_valid(s, 2, 1, 399) == 24 &&
                  count_valid(s, 1, 250 + L, 399) == 0,
              "RAM read L=%u: two VCs of one input to two outputs: one flit per step in all at %u..%u, alternating, "
              "VC 3 (output 2) first (%u, %u)",
              L, 202 + L, 249 + L, one, alt);
        sim_free(s);
    }
    /* round robin of the RAM read among the VCs: with VC 0 and VC 1 both filling the RAM part,
     * released together into different outputs, they alternate (the first released output first) */
    {
        vcsw_params_t p = params(3, 2, 0, 0);
        p.DEPTH = 32;
        p.MAXLEN = 16;
        sim_t *s = sim_new(&p, 200);
        set_route(s, 1, 1);
        set_route(s, 2, 2);
        set_vc(s, 0, 1, 0, 0);
        set_vc(s, 0, 2, 1, 0);
        stop_range(s, 1, 0, 1, 59);
        stop_range(s, 2, 0, 1, 59);
        put_pkt(s, 0, 10, 0, 1, 16, 1);
        put_pkt(s, 0, 26, 1, 2, 16, 2);
        sim_all(s);
        /* after the 3 staged entries of each, outputs 1 and 2 alternate one flit each step */
        int alt = 1;
        for (unsigned j = 64; j < 86; j++)
            alt &= (s->tx[1][j].valid ^ s->tx[2][j].valid) && s->tx[1][j].valid != s->tx[1][j + 1].valid;
        check(alt && count_valid(s, 1, 1, 199) == 16 && count_valid(s, 2, 1, 199) == 16,
              "RAM read: two VCs share it round robin: their outputs alternate in 64..86");
        sim_free(s);
    }
}

/* sanfab — vcsw_unit: vcsw_quiet/vcsw_skip against a model stepped every step
 * (run from the table of vcsw_unit.c; the helpers they call are in vcsw_unit_sim.c). */
#include "vcsw_unit.h"

/* ================================================================ quiet / skip (network simulators) */

/* every output of a step idle: tx flits all-zero, rx_stop 0, nothing answered */
static int out_idle(const vcsw_out_t *o)
{
    for (unsigned p = 0; p < VCSW_MAX_PORTS; p++)
        if (!flit_idle(&o->tx[p]) || o->rx_stop[p])
            return 0;
    return !o->cfg_rvalid && !o->cfg_rdata;
}

static int out_same(const vcsw_out_t *a, const vcsw_out_t *b)
{
    for (unsigned p = 0; p < VCSW_MAX_PORTS; p++)
        if (a->tx[p].valid != b->tx[p].valid || a->tx[p].vc != b->tx[p].vc || a->tx[p].tail != b->tx[p].tail ||
            a->tx[p].data != b->tx[p].data || a->rx_stop[p] != b->rx_stop[p])
            return 0;
    return a->cfg_rvalid == b->cfg_rvalid && a->cfg_rdata == b->cfg_rdata;
}

/* the inputs of a step idle as the fabric defines it: no rx flit, tx_stop 0, no configuration request */
static int in_idle(const vcsw_in_t *in)
{
    if (in->cfg_we || in->cfg_re)
        return 0;
    for (unsigned p = 0; p < VCSW_MAX_PORTS; p++)
        if (in->rx[p].valid || in->tx_stop[p])
            return 0;
    return 1;
}

/* the lockstep of a model a stepped every step and a model b that, like the fabric, is not stepped in
 * a step whose inputs are idle while vcsw_quiet(b) holds (from the step it held on) and is brought up
 * by vcsw_skip() before its next real step, and sometimes in the middle of a quiet stretch */
typedef struct {
    vcsw_t *a, *b;
    uint64_t pending;         /* idle steps b has not been stepped for yet */
    unsigned long skipped;    /* steps b skipped */
    unsigned long skips;      /* vcsw_skip calls with n > 0 */
    unsigned long long nmax;  /* longest skip */
    unsigned bad_out, bad_idle, bad_state; /* first step: outputs differ, a not idle while b skipped, state differs */
} qpair_t;

static void qfail(unsigned *at, unsigned k)
{
    if (!*at)
        *at = k;
}

/* b catches up on its pending idle steps; its state must then be a's (a at the same step) */
static void qpair_catch_up(qpair_t *q, unsigned k)
{
    if (!q->pending)
        return;
    vcsw_skip(q->b, q->pending);
    q->skips++;
    if (q->pending > q->nmax)
        q->nmax = q->pending;
    q->pending = 0;
    if (!vcsw_state_equal(q->a, q->b))
        qfail(&q->bad_state, k);
}

/* step k of both; oa receives a's outputs; 1 if b was stepped. flush: after a skipped step, skip b up
 * to a now (a skip in the middle of a quiet stretch). */
static int qpair_step(qpair_t *q, unsigned k, const vcsw_in_t *in, vcsw_out_t *oa, int flush)
{
    vcsw_out_t ob;
    int stepped = 1;
    if (in_idle(in) && (q->pending || vcsw_quiet(q->b))) {
        q->pending++;
        q->skipped++;
        stepped = 0;
    } else {
        qpair_catch_up(q, k - 1);
        vcsw_step(q->b, in, &ob);
    }
    vcsw_step(q->a, in, oa);
    if (stepped && !out_same(oa, &ob))
        qfail(&q->bad_out, k);
    if (!stepped && !out_idle(oa))
        qfail(&q->bad_idle, k);
    if (!stepped && flush)
        qpair_catch_up(q, k);
    return stepped;
}

/* One directed scene: a 3-flit packet from input 0 VC 0 to output 1 VC 0 received from step 4 + e (its
 * last tx events in the steps just before the switch turns quiet), then idle inputs, and a read of
 * counter (port, vc, ctr) at step rd_at; b skips its quiet steps up to the read. Clears *out_ok if the outputs differ (the
 * answer not in the same step with the same value), *state_ok if the states differ after a skip or at
 * the end. */
static void quiet_read_scene(const vcsw_params_t *p, unsigned e, unsigned rd_at, unsigned port, unsigned vc,
                             unsigned ctr, unsigned long *skipped, int *out_ok, int *state_ok)
{
    qpair_t q;
    memset(&q, 0, sizeof q);
    q.a = vcsw_new(p);
    q.b = vcsw_new(p);
    if (!q.a || !q.b)
        abort();
    const unsigned NS = VCSW_NCTR * p->NVC * p->NPORTS;
    for (unsigned k = 1; k <= rd_at + NS + 10; k++) {
        vcsw_in_t in;
        vcsw_out_t oa;
        memset(&in, 0, sizeof in);
        if (k == 1 || k == 2) {
            in.cfg_we = 1;
            in.cfg_addr = k == 1 ? VCSW_CFG_ADDR(VCSW_SPACE_ROUTE, 1) : VCSW_CFG_ADDR(VCSW_SPACE_VC, VCSW_VC_INDEX(0, 1, 0));
            in.cfg_wdata = k == 1 ? VCSW_ENTRY(1, 1) : VCSW_ENTRY(1, 0);
        }
        if (k >= 4 + e && k <= 6 + e) {
            in.rx[0].valid = 1;
            in.rx[0].tail = k == 6 + e;
            in.rx[0].data = k == 4 + e ? 0x101u : 0x200u + k;
        }
        if (k == rd_at) {
            in.cfg_re = 1;
            in.cfg_addr = VCSW_CFG_ADDR(VCSW_SPACE_CTR, VCSW_CTR_INDEX(port, vc, ctr));
        }
        qpair_step(&q, k, &in, &oa, 0);
    }
    qpair_catch_up(&q, rd_at + NS + 10);
    *skipped += q.skipped;
    *out_ok &= !q.bad_out && !q.bad_idle;
    *state_ok &= !q.bad_state && vcsw_state_equal(q.a, q.b);
    vcsw_free(q.a);
    vcsw_free(q.b);
}

/* vcsw_quiet/vcsw_skip (for the network fabric, which does not step a quiet switch while its inputs are
 * idle): a model b that skips such steps and catches up with vcsw_skip() equals a model a stepped every
 * step: the same outputs in every step b is stepped (a's all idle in the steps b skipped), the same
 * state after every skip (vcsw_state_equal), the same counters, occupancies and counter reads. Traffic:
 * bursts of random packets (senders obeying Go & Stop, some heads with invalid routes or VC entries,
 * tx_stop toggling, configuration reads and rewrites) separated by idle stretches of random length;
 * a burst ends with packets half sent (their senders stall until the next burst) and often with a
 * counter read outstanding. Also checked on a directly, from outside: quiet only with every buffer
 * empty and no flit in the input register; a quiet model stays quiet with idle outputs over idle
 * steps; after the last packets, quiet exactly from the step the last flit is on tx (the step after,
 * with LINK_DELAY 0), the last flit received is processed and the last read answered. This compares
 * the model with itself, not with the doc. */
void test_quiet_skip(void)
{
    static const struct {
        unsigned n, nvc, ctrl, L, depth, maxlen, ctrs, w;
    } cs[] = {{4, 2, 1, 0, 32, 8, 1, 8},  {3, 4, 0, 3, 32, 6, 1, 32},  {5, 4, 1, 2, 64, 16, 0, 32},
              {2, 2, 0, 1, 16, 4, 1, 9},  {6, 2, 0, 5, 32, 8, 1, 12},  {4, 4, 0, 0, 16, 3, 1, 8},
              {3, 2, 1, 2, 16, 6, 1, 10}};
    for (unsigned c = 0; c < sizeof cs / sizeof cs[0]; c++) {
        vcsw_params_t p = params(cs[c].n, cs[c].nvc, cs[c].ctrl, cs[c].L);
        p.DEPTH = cs[c].depth;
        p.MAXLEN = cs[c].maxlen;
        p.COUNTERS = cs[c].ctrs;
        p.CTR_WIDTH = cs[c].w;
        p.TAG_W = 4;
        const unsigned N = p.NPORTS, V = p.NVC, L = p.LINK_DELAY, ndvc = vcsw_ndvc(&p);
        const unsigned run = 60000, drain = 4000, H = 128; /* H: rx_stop history (> L + 3) */
        qpair_t q;
        memset(&q, 0, sizeof q);
        q.a = vcsw_new(&p);
        q.b = vcsw_new(&p);
        if (!q.a || !q.b)
            abort();
        rng_t r;
        rng_seed(&r, 777 + c);

        /* tables: tags 0..11 to port (5t+1) mod N, 12..15 never written (drop_route); VC entries
         * (i, o, d) -> (i + o + d) mod NDVC, invalid where i + o + d = 6 mod 7 (drop_vc) */
        uint16_t taddr[16 + VCSW_MAX_PORTS * VCSW_MAX_PORTS * VCSW_MAX_VCS], twd[sizeof taddr / sizeof taddr[0]];
        unsigned nt = 0;
        for (unsigned t = 0; t < 12; t++) {
            taddr[nt] = VCSW_CFG_ADDR(VCSW_SPACE_ROUTE, t);
            twd[nt++] = VCSW_ENTRY(1, (5 * t + 1) % N);
        }
        for (unsigned i = 0; i < N; i++)
            for (unsigned o = 0; o < N; o++)
                for (unsigned d = 0; d < ndvc; d++) {
                    taddr[nt] = VCSW_CFG_ADDR(VCSW_SPACE_VC, VCSW_VC_INDEX(i, o, d));
                    twd[nt++] = (i + o + d) % 7 == 6 ? 0 : VCSW_ENTRY(1, (i + o + d) % ndvc);
                }

        unsigned left[VCSW_MAX_PORTS][VCSW_MAX_VCS];
        memset(left, 0, sizeof left);
        uint16_t stop[VCSW_MAX_PORTS] = {0};
        uint16_t (*rs)[VCSW_MAX_PORTS] = xcalloc(H, sizeof *rs); /* a's rx_stop, step k at k % H */
        uint8_t *qa = xcalloc(run + V * p.MAXLEN + drain + 2, 1);  /* vcsw_quiet(a) after step k */
        int burst = 0, finishing = 0, q_prev = 0;
        unsigned phase_left = 0, fs = 0, end = 0, t_last = 0, r_last = 0, a_last = 0;
        unsigned bad_flight = 0, bad_stable = 0, bad_qeq = 0, stretches = 0, quiet_stretches = 0;
        unsigned long quiet_stalled = 0, idle_answers = 0, rd_issued = 0, txf = 0;
        /* a burst's last `wind` steps start no new packet but on input `staller` (N: none); wind 0: it ends
         * with packets half sent everywhere */
        unsigned wind = 0, staller = 0;
        for (unsigned k = 1;; k++) {
            vcsw_in_t in;
            vcsw_out_t oa;
            memset(&in, 0, sizeof in);
            const int last_burst_step = burst && phase_left == 1;
            if (k <= nt) { /* the tables, one write per step */
                in.cfg_we = 1;
                in.cfg_addr = taddr[k - 1];
                in.cfg_wdata = twd[k - 1];
            } else if (k <= run) {
                if (!phase_left) { /* next phase: a burst or an idle stretch */
                    burst = !burst;
                    const unsigned x = rng_below(&r, 100);
                    if (burst) {
                        phase_left = x < 20 ? 1 + rng_below(&r, 4) : 10 + rng_below(&r, 300);
                        const unsigned y = rng_below(&r, 100); /* 30 %: every sender stalls mid-packet */
                        wind = y < 30 ? 0 : 2 * p.MAXLEN * V + 20;
                        staller = y < 65 ? N : rng_below(&r, N); /* 35 %: only one sender stalls */
                        if (rng_pct(&r, 50))
                            memset(stop, 0, sizeof stop);
                    } else {
                        stretches++;
                        phase_left = x < 50 ? 1 + rng_below(&r, 12) : x < 85 ? 20 + rng_below(&r, 400) : 500 + rng_below(&r, 1500);
                    }
                    if (burst && rng_pct(&r, 40)) { /* a counter read in the first step after an idle stretch */
                        in.cfg_re = 1;
                        in.cfg_addr = VCSW_CFG_ADDR(VCSW_SPACE_CTR, VCSW_CTR_INDEX(rng_below(&r, N), rng_below(&r, V),
                                                                                   rng_below(&r, VCSW_NCTR)));
                    }
                }
                phase_left--;
                if (burst) {
                    for (unsigned o = 0; o < N; o++) {
                        if (rng_pct(&r, 3))
                            stop[o] ^= (uint16_t)(1u << rng_below(&r, V));
                        in.tx_stop[o] = stop[o];
                    }
                    for (unsigned i = 0; i < N; i++) {
                        if (!rng_pct(&r, 65))
                            continue;
                        unsigned v = rng_below(&r, V);
                        if (phase_left < wind && i != staller) { /* winding down: only packets started */
                            unsigned open = 0;
                            for (unsigned w = 0; w < V; w++)
                                open |= (left[i][w] != 0) << w;
                            if (!open)
                                continue;
                            while (!(open >> v & 1u))
                                v = (v + 1) % V;
                        }
                        if (!left[i][v]) { /* a new packet only on GO (the bit of step k-L-3, as in test_random) */
                            if (k < L + 4 + nt || (rs[(k - L - 3) % H][i] >> v & 1u))
                                continue;
                            left[i][v] = 1 + rng_below(&r, p.MAXLEN);
                            in.rx[i].data = (uint32_t)(rng_next(&r) & 0xFFF0u) | rng_below(&r, 16); /* tag */
                        } else {
                            in.rx[i].data = (uint32_t)rng_next(&r) & 0xFFFFu;
                        }
                        in.rx[i].valid = 1;
                        in.rx[i].vc = (uint8_t)v;
                        in.rx[i].tail = --left[i][v] == 0;
                    }
                    if (!in.cfg_re && (rng_pct(&r, 2) || (last_burst_step && rng_pct(&r, 60)))) {
                        in.cfg_re = 1; /* mostly counters; a burst's last step: a read outstanding into the stretch */
                        const unsigned x = rng_below(&r, 100);
                        in.cfg_addr = x < 85 || last_burst_step
                                          ? VCSW_CFG_ADDR(VCSW_SPACE_CTR, VCSW_CTR_INDEX(rng_below(&r, N), rng_below(&r, V),
                                                                                         rng_below(&r, VCSW_NCTR)))
                                      : x < 95 ? taddr[rng_below(&r, nt)]
                                               : (uint16_t)rng_next(&r);
                    } else if (!in.cfg_re && rng_pct(&r, 1)) { /* a table entry written again */
                        const unsigned e = rng_below(&r, nt);
                        in.cfg_we = 1;
                        in.cfg_addr = taddr[e];
                        in.cfg_wdata = twd[e];
                    }
                }
            } else if (!end) { /* finish every packet (one flit per input and step), then drain */
                if (!finishing) {
                    finishing = 1;
                    fs = k;
                }
                int any = 0;
                for (unsigned i = 0; i < N; i++)
                    for (unsigned v = 0; v < V; v++)
                        if (left[i][v]) {
                            in.rx[i].valid = 1;
                            in.rx[i].vc = (uint8_t)v;
                            in.rx[i].data = (uint32_t)rng_next(&r) & 0xFFFFu;
                            in.rx[i].tail = --left[i][v] == 0;
                            any = 1;
                            break;
                        }
                if (!any)
                    end = k + drain;
            }
            if (in.cfg_re)
                rd_issued++;
            int any_rx = 0;
            for (unsigned i = 0; i < N; i++)
                any_rx |= in.rx[i].valid;
            const int idle = in_idle(&in);
            const int stepped = qpair_step(&q, k, &in, &oa, rng_pct(&r, 6));
            for (unsigned i = 0; i < N; i++)
                rs[k % H][i] = oa.rx_stop[i];

            /* a, from outside */
            const int qn = vcsw_quiet(q.a);
            qa[k] = (uint8_t)qn;
            unsigned occ = 0;
            for (unsigned i = 0; i < N; i++)
                for (unsigned v = 0; v < V; v++)
                    occ += vcsw_occupancy(q.a, i, v);
            if (qn && (occ || any_rx)) /* a flit in a buffer or in the input register */
                qfail(&bad_flight, k);
            if (q_prev && idle && (!qn || !out_idle(&oa))) /* quiet, idle inputs: quiet again, idle outputs */
                qfail(&bad_stable, k);
            if (stepped && qn != vcsw_quiet(q.b))
                qfail(&bad_qeq, k);
            if (qn && !q_prev && !burst && !finishing) {
                quiet_stretches++;
                int half = 0;
                for (unsigned i = 0; i < N; i++)
                    for (unsigned v = 0; v < V; v++)
                        half |= left[i][v] != 0;
                quiet_stalled += half;
            }
            q_prev = qn;
            for (unsigned o = 0; o < N; o++)
                if (oa.tx[o].valid) {
                    t_last = k;
                    txf++;
                }
            if (any_rx)
                r_last = k;
            if (oa.cfg_rvalid) {
                a_last = k;
                idle_answers += !burst && k > nt;
            }
            if (end && k == end)
                break;
        }
        qpair_catch_up(&q, end);
        free(rs);

        /* the drain: quiet exactly from max(t_last + (L == 0), r_last + 1, a_last) */
        unsigned from = t_last + (L == 0);
        if (r_last + 1 > from)
            from = r_last + 1;
        if (a_last > from)
            from = a_last;
        unsigned bad_drain = 0;
        for (unsigned k = fs + 1; k <= end; k++)
            if (qa[k] != (k >= from))
                qfail(&bad_drain, k);
        free(qa);

        int same = vcsw_steps(q.a) == end && vcsw_steps(q.b) == end && vcsw_state_equal(q.a, q.b);
        for (unsigned i = 0; i < N; i++)
            for (unsigned v = 0; v < V; v++) {
                same &= vcsw_occupancy(q.a, i, v) == vcsw_occupancy(q.b, i, v);
                for (unsigned ct = 0; ct < VCSW_NCTR; ct++)
                    same &= vcsw_counter(q.a, i, v, ct) == vcsw_counter(q.b, i, v, ct);
            }
        check(!q.bad_out && !q.bad_idle && !q.bad_state && same,
              "quiet/skip %s: b skipping equals a: outputs %s (first at %u), a idle while b skipped %s (first at %u), "
              "state after every skip %s (first at %u), end state/counters/occupancies %s; %lu steps skipped in %lu "
              "skips (longest %llu)",
              pstr(&p), q.bad_out ? "differ" : "equal", q.bad_out, q.bad_idle ? "no" : "yes", q.bad_idle,
              q.bad_state ? "differs" : "equal", q.bad_state, same ? "equal" : "differ", q.skipped, q.skips, q.nmax);
        check(!bad_flight && !bad_stable && !bad_qeq,
              "quiet/skip %s: quiet never with a flit in a buffer or the input register (first at %u), stays with "
              "idle outputs over idle steps (first break at %u), the same in a and b (first difference at %u)",
              pstr(&p), bad_flight, bad_stable, bad_qeq);
        check(!bad_drain && end > from + 100,
              "quiet/skip %s: after the last packets quiet exactly from step %u = max(last tx flit %u%s, last rx %u + 1, "
              "last answer %u) (first wrong at %u)",
              pstr(&p), from, t_last, L == 0 ? " + 1" : "", r_last, a_last, bad_drain);
        check(q.skipped > 10000 && q.skips > 400 && quiet_stretches > 30 && quiet_stalled > 5 && idle_answers > 20 &&
                  txf > 5000,
              "quiet/skip %s: the run covers it: %u of %u idle stretches turned quiet, %lu of them with a packet half "
              "sent, %lu reads answered in idle stretches (%lu issued), %lu flits sent, %lu steps skipped in %lu skips",
              pstr(&p), quiet_stretches, stretches, quiet_stalled, idle_answers, rd_issued, txf, q.skipped, q.skips);
        vcsw_free(q.a);
        vcsw_free(q.b);
    }

    /* a counter read right after a skip: its flush must not count events the skip should have moved out
     * of the schedule's window (the tx and rx counters of the packet, sent at 4 offsets modulo the window
     * CTR_SCHED_LAG = 4, read at every offset of the schedule: NS is a multiple of 4, so the read's offset
     * alone does not move the events within the window) */
    for (unsigned L = 0; L <= 2; L += 2) {
        vcsw_params_t p = params(2, 2, 0, L);
        const unsigned NS = VCSW_NCTR * p.NVC * p.NPORTS;
        static const unsigned slot[4][3] = {{0, 0, VCSW_CTR_RX_FLITS}, {0, 0, VCSW_CTR_RX_PKTS},
                                            {1, 0, VCSW_CTR_TX_FLITS}, {1, 0, VCSW_CTR_TX_PKTS}};
        int out_ok = 1, state_ok = 1;
        unsigned long skipped = 0;
        for (unsigned s = 0; s < 4; s++)
            for (unsigned e = 0; e < 4; e++)
                for (unsigned d = 0; d < NS + 4; d++)
                    quiet_read_scene(&p, e, 30 + d, slot[s][0], slot[s][1], slot[s][2], &skipped, &out_ok, &state_ok);
        check(out_ok && skipped > 1000,
              "quiet/skip LINK_DELAY=%u: a counter read right after skipped steps answers as without skipping (every "
              "offset of the schedule; %lu steps skipped)",
              L, skipped);
        check(state_ok, "quiet/skip LINK_DELAY=%u: the read scenes' states equal after every skip", L);
    }
}

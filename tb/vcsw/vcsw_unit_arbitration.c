/* sanfab — vcsw_unit: allocation and input round robin, starvation, blocked release, permutation throughput
 * (run from the table of vcsw_unit.c; the helpers they call are in vcsw_unit_sim.c). */
#include "vcsw_unit.h"

/* Output round robin over the input numbers (rule 3.1): every input sends a 1-flit packet on VC 0
 * (received at t, offered after t+2) and one on VC 1 (t+1) to output 0. The output takes input 0 at
 * t+3, then input 1 (offering VC 0 again: its position stays 0, rule 3.3) and so on: served in the
 * order (0,0), (1,0), .., (N-1,0), (0,1), .., (N-1,1). Then the output's position continues after
 * the last input taken. */
void test_alloc_rr(void)
{
    static const unsigned ns[] = {3, 5, 16};
    for (unsigned a = 0; a < 3; a++) {
        vcsw_params_t p = params(ns[a], 2, 0, 0);
        const unsigned N = p.NPORTS;
        sim_t *s = sim_new(&p, 200);
        set_route(s, 1, 0);
        for (unsigned i = 0; i < N; i++) {
            set_vc(s, i, 0, 0, 0);
            set_vc(s, i, 0, 1, 1);
        }
        const unsigned t = 40;
        for (unsigned i = 0; i < N; i++) {
            put_pkt(s, i, t, 0, 1, 1, i * 2);
            put_pkt(s, i, t + 1, 1, 1, 1, i * 2 + 1);
        }
        /* later: inputs N-1 (VC 0) and 1 (VC 0) both at once after position wrapped to 0 */
        put_pkt(s, N - 1, 120, 0, 1, 1, 500);
        put_pkt(s, 1, 120, 0, 1, 1, 501);
        /* input 1 alone (position 2 after it), then inputs 0 and 2 at once: 2 first, then 0 (wrap) */
        put_pkt(s, 1, 140, 0, 1, 1, 502);
        put_pkt(s, 0, 150, 0, 1, 1, 503);
        put_pkt(s, 2, 150, 0, 1, 1, 504);
        sim_all(s);
        int ok = 1;
        for (unsigned j = 0; j < 2 * N; j++) {
            const unsigned i = j % N, v = j / N;
            ok &= flit_is(&s->tx[0][t + 3 + j], v, pkt_data(s, i * 2 + v, 0, 1), 1);
        }
        check(ok, "output round robin N=%u: 2N one-flit packets served (0,0), (1,0), .., (N-1,0), (0,1), .., (N-1,1) "
                  "from %u, one per step",
              N, t + 3);
        check(flit_is(&s->tx[0][123], 0, pkt_data(s, 501, 0, 1), 1) &&
                  flit_is(&s->tx[0][124], 0, pkt_data(s, 500, 0, 1), 1),
              "output round robin N=%u: position 0 after input N-1: input 1 before input N-1", N);
        check(flit_is(&s->tx[0][143], 0, pkt_data(s, 502, 0, 1), 1) &&
                  flit_is(&s->tx[0][153], 0, pkt_data(s, 504, 0, 1), 1) &&
                  flit_is(&s->tx[0][154], 0, pkt_data(s, 503, 0, 1), 1) && count_valid(s, 0, 1, 199) == 2 * N + 5 &&
                  others_idle(s, 0, 1, 199),
              "output round robin N=%u: position 2 after input 1: input 2 before input 0 (wrapping)", N);
        sim_free(s);
    }
}

/* Separable allocation (rule 3): an input sends at most one flit per step in all, its VCs taken in
 * turn by its round robin over VC numbers; an ineligible VC is skipped. */
void test_input_rr(void)
{
    /* two VCs of input 0 to outputs 1 and 2, both stopped until 59: eligible together when prepared
     * in 61 (tx_stop of step k-1 used in step k); the input's position is 0: VC 0 (output 1) at 62,
     * VC 1 (output 2) at 63, .. alternating, one flit per step in all */
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(4, 2, 0, a ? 3 : 0);
        const unsigned L = p.LINK_DELAY;
        sim_t *s = sim_new(&p, 200);
        set_route(s, 1, 1);
        set_route(s, 2, 2);
        set_vc(s, 0, 1, 0, 0);
        set_vc(s, 0, 2, 1, 1);
        stop_range(s, 1, 0, 1, 59);
        stop_range(s, 2, 1, 1, 59);
        unsigned k = put_pkt(s, 0, 10, 0, 1, 20, 1);
        put_pkt(s, 0, k, 1, 2, 20, 2);
        sim_all(s);
        int ok = 1;
        for (unsigned j = 0; j < 40; j++) {
            const unsigned kk = 62 + L + j, fi = j / 2;
            if (j & 1u)
                ok &= flit_is(&s->tx[2][kk], 1, pkt_data(s, 2, fi, 2), fi == 19) && flit_idle(&s->tx[1][kk]);
            else
                ok &= flit_is(&s->tx[1][kk], 0, pkt_data(s, 1, fi, 1), fi == 19) && flit_idle(&s->tx[2][kk]);
        }
        check(ok && count_valid(s, 1, 1, 199) == 20 && count_valid(s, 2, 1, 199) == 20,
              "input round robin L=%u: two VCs of one input to two outputs: one flit per step in all, VC 0 at %u, "
              "VC 1 at %u, .. alternating to %u",
              L, 62 + L, 63 + L, 101 + L);
        sim_free(s);
    }
    /* NVC 4: VCs 0, 1, 3 of input 2 to outputs 0, 1, 4, VC 2 to output 3 stopped for ever: from 62 the
     * input rotates VC 0, 1, 3 (2 skipped), one flit per step */
    {
        vcsw_params_t p = params(5, 4, 0, 0);
        sim_t *s = sim_new(&p, 200);
        static const unsigned outs[4] = {0, 1, 3, 4};
        for (unsigned v = 0; v < 4; v++) {
            set_route(s, v, outs[v]);
            set_vc(s, 2, outs[v], v, v);
            stop_range(s, outs[v], v, 1, v == 2 ? 199 : 59);
        }
        unsigned k = 10;
        for (unsigned v = 0; v < 4; v++)
            k = put_pkt(s, 2, k, v, v, 8, 10 + v);
        sim_all(s);
        int ok = 1;
        static const unsigned seq[3] = {0, 1, 3};
        for (unsigned j = 0; j < 24; j++) {
            const unsigned v = seq[j % 3], fi = j / 3, kk = 62 + j;
            ok &= flit_is(&s->tx[outs[v]][kk], v, pkt_data(s, 10 + v, fi, v), fi == 7);
            for (unsigned o = 0; o < 5; o++)
                if (o != outs[v])
                    ok &= flit_idle(&s->tx[o][kk]);
        }
        check(ok && count_valid(s, 3, 1, 199) == 0 && others_idle(s, -1, 86, 199) && others_idle(s, -1, 1, 61),
              "input round robin NVC=4: VCs 0, 1, 3 of one input in turn at 62..85 (stopped VC 2 skipped), one flit "
              "per step in all");
        sim_free(s);
    }
    /* Rule 3.3, an offer not taken keeps the input's position: inputs 0 and 1 both offer to output
     * 2 (prepared in 12, requesting in 13; output position 0: input 0 wins at 13); input 1 also has
     * VC 1 eligible (for output 3; its stop last received in 10, used in 11) but its position stays
     * 0, so its offer for 14 is VC 0 again (taken: output 2 at 14) and VC 1 only for 15 */
    for (unsigned a = 0; a < 2; a++) {
        vcsw_params_t p = params(4, 2, 0, a ? 3 : 0);
        const unsigned L = p.LINK_DELAY;
        sim_t *s = sim_new(&p, 100);
        set_route(s, 2, 2);
        set_route(s, 3, 3);
        set_vc(s, 0, 2, 0, 0);
        set_vc(s, 1, 2, 0, 1);
        set_vc(s, 1, 3, 1, 0);
        put_pkt(s, 1, 9, 1, 3, 1, 3);  /* input 1 VC 1 -> (3, 0), held by the stop until eligible at 12 */
        stop_range(s, 3, 0, 1, 10);
        put_pkt(s, 0, 10, 0, 2, 1, 1); /* input 0 VC 0 -> (2, 0), eligible at 12 */
        put_pkt(s, 1, 10, 0, 2, 1, 2); /* input 1 VC 0 -> (2, 1), eligible at 12 */
        sim_all(s);
        check(flit_is(&s->tx[2][13 + L], 0, pkt_data(s, 1, 0, 2), 1) && flit_is(&s->tx[2][14 + L], 1, pkt_data(s, 2, 0, 2), 1),
              "losing offer L=%u: output 2 takes input 0 at %u, input 1's VC 0 (offered again) at %u", L, 13 + L, 14 + L);
        check(flit_idle(&s->tx[3][13 + L]) && flit_idle(&s->tx[3][14 + L]) &&
                  flit_is(&s->tx[3][15 + L], 0, pkt_data(s, 3, 0, 3), 1) && count_valid(s, 3, 1, 99) == 1,
              "losing offer L=%u: input 1's position kept: its VC 1 (output 3) not offered before %u", L, 15 + L);
        sim_free(s);
    }
    /* Rule 3.3: "an offer that is not taken leaves the position where it was": it is not moved
     * onto the offered VC. Input 1 (position 0) offers VC 1 for 13 and loses to input 0 at output 2;
     * its VC 0 is staged after 12: the offer prepared in 13 is VC 0 (output 3), taken at 14, VC 1
     * at 15 */
    {
        vcsw_params_t p = params(4, 2, 0, 0);
        sim_t *s = sim_new(&p, 100);
        set_route(s, 2, 2);
        set_route(s, 3, 3);
        set_vc(s, 0, 2, 0, 0);
        set_vc(s, 1, 2, 1, 1);
        set_vc(s, 1, 3, 0, 0);
        put_pkt(s, 0, 10, 0, 2, 1, 1); /* input 0 VC 0 -> (2, 0), eligible at 12 */
        put_pkt(s, 1, 10, 1, 2, 1, 2); /* input 1 VC 1 -> (2, 1), eligible at 12 */
        put_pkt(s, 1, 11, 0, 3, 1, 3); /* input 1 VC 0 -> (3, 0), eligible at 13 */
        sim_all(s);
        check(flit_is(&s->tx[2][13], 0, pkt_data(s, 1, 0, 2), 1) && flit_is(&s->tx[3][14], 0, pkt_data(s, 3, 0, 3), 1) &&
                  flit_idle(&s->tx[2][14]) && flit_is(&s->tx[2][15], 1, pkt_data(s, 2, 0, 2), 1),
              "losing offer (rule 3.3): position kept at 0, not moved onto the losing VC 1: VC 0 eligible later "
              "goes first (output 3 at 14, VC 1 at 15)");
        sim_free(s);
    }
}

/* No eligible VC starves: 3 inputs, each with both VCs backed up with one-flit packets to output 0
 * (sent at 10..69, VC 0 on even steps): from step 13 the output takes inputs 0, 1, 2, 0, .. (its
 * round robin) and each input its VCs 0, 1, 0, .. (its own; an input not taken offers the same VC
 * again): at 13+j input j%3, VC (j/3)%2, that VC's packet number j/6; every (input, VC) served
 * every 6 steps, 180 flits at 13..192. */
void test_starvation(void)
{
    vcsw_params_t p = params(3, 2, 0, 0);
    sim_t *s = sim_new(&p, 260);
    set_route(s, 0, 0);
    for (unsigned i = 0; i < 3; i++)
        for (unsigned d = 0; d < 2; d++)
            set_vc(s, i, 0, d, d);
    for (unsigned i = 0; i < 3; i++)
        for (unsigned j = 0; j < 60; j++)
            put_pkt(s, i, 10 + j, j & 1u, 0, 1, (i * 2 + (j & 1u)) * 100 + j / 2);
    sim_all(s);
    int ok = 1;
    unsigned first_bad = 0;
    for (unsigned j = 0; j < 180; j++) {
        const unsigned i = j % 3, v = (j / 3) % 2, n = j / 6;
        if (!flit_is(&s->tx[0][13 + j], v, pkt_data(s, (i * 2 + v) * 100 + n, 0, 0), 1) && ok) {
            ok = 0;
            first_bad = 13 + j;
        }
    }
    check(ok && count_valid(s, 0, 1, 259) == 180 && others_idle(s, 0, 1, 259),
          "starvation-free: 3 inputs x 2 VCs backed up to one output: served in the fixed order of the two round "
          "robins, each (input, VC) every 6 steps, 180 flits at 13..192 (first difference at %u)",
          first_bad);
    sim_free(s);
}

/* A VC blocked downstream (its head's stop bit 1) is not eligible: the other VC of the input gets
 * the link (but one idle step at each of its packet boundaries: the next head is judged on its
 * output VC as owned after the step before the tail's, rule 3.3, and the blocked VC cannot fill it);
 * released, the two alternate by the input's round robin and the link stays full (a head behind a
 * tail is offered in the step after, when the other VC's turn fills the gap). */
void test_blocked_release(void)
{
    vcsw_params_t p = params(4, 2, 0, 0);
    sim_t *s = sim_new(&p, 200);
    set_route(s, 1, 1);
    set_vc(s, 0, 1, 0, 0);
    set_vc(s, 0, 1, 1, 1);
    stop_range(s, 1, 0, 1, 59);
    unsigned k = put_pkt(s, 0, 10, 0, 1, 20, 1); /* VC 0: 20 flits at 10..29, blocked until 59 */
    for (unsigned j = 0; j < 4; j++)
        k = put_pkt(s, 0, k, 1, 1, 10, 2 + j); /* VC 1: 40 flits at 30..69, first offered after 32 */
    sim_all(s);
    /* expected VC per step: VC 1 at 33..42 (packet 2), 43 idle, 44..53 (packet 3), 54 idle, 55..61
     * (7 flits of packet 4); VC 0 prepared in 61 (stop of 60 is 0; position 0, past VC 1), taken 62;
     * then alternating, VC 0 on even steps, while VC 1 has flits (13 left: 63, 65, .., 87), then VC
     * 0 alone 88..94 */
    int ok = 1;
    unsigned n0 = 0, n1 = 0;
    for (unsigned kk = 33; kk <= 94; kk++) {
        const vcsw_flit_t *f = &s->tx[1][kk];
        if (kk == 43 || kk == 54) {
            ok &= flit_idle(f);
            continue;
        }
        unsigned want = kk <= 61 ? 1 : (kk <= 87 ? ((kk - 62) & 1u) : 0);
        ok &= f->valid && f->vc == want;
        if (want == 0) {
            ok &= f->data == pkt_data(s, 1, n0, 1) && f->tail == (n0 == 19);
            n0++;
        } else {
            const unsigned pk = n1 / 10, fi = n1 % 10;
            ok &= f->data == pkt_data(s, 2 + pk, fi, 1) && f->tail == (fi == 9);
            n1++;
        }
    }
    check(ok && count_valid(s, 1, 1, 199) == 60,
          "blocked then released: VC 1 alone 33..61 (idle at 43 and 54, its packet boundaries), then VC 0 and VC 1 "
          "alternate 62..87, VC 0 alone 88..94: the link full every step 55..94");
    sim_free(s);
}

/* Saturating permutation on every parameter set: input i sends one stream per VC to output
 * (i+1) % N, obeying Go & Stop at the latest moment; every output link carries one flit per step
 * once the streams run, every packet arrives whole and in order, nothing is cut. */
void test_permutation(void)
{
    for (unsigned a = 0; a < NPSETS; a++) {
        vcsw_params_t p = params(psets[a].n, psets[a].nvc, psets[a].ctrl, psets[a].L);
        p.DEPTH = 32;
        p.MAXLEN = 8;
        const unsigned N = p.NPORTS, V = p.NVC, L = p.LINK_DELAY, maxs = 2200;
        sim_t *s = sim_new(&p, maxs);
        const unsigned ndvc = s->ndvc;
        for (unsigned i = 0; i < N; i++)
            set_route(s, i, i);
        for (unsigned i = 0; i < N; i++)
            for (unsigned d = 0; d < ndvc; d++)
                set_vc(s, i, (i + 1) % N, d, (d + i) % ndvc);
        const unsigned t0 = s->cfg_next + 2, t1 = 1800;
        unsigned left[VCSW_MAX_PORTS][VCSW_MAX_VCS], seq[VCSW_MAX_PORTS][VCSW_MAX_VCS], rrv[VCSW_MAX_PORTS];
        memset(left, 0, sizeof left);
        memset(seq, 0, sizeof seq);
        memset(rrv, 0, sizeof rrv);
        for (unsigned k = 1; k < maxs; k++) {
            if (k >= t0 && k < maxs - 300)
                for (unsigned i = 0; i < N; i++)
                    for (unsigned j = 0; j < V; j++) {
                        unsigned v = (rrv[i] + j) % V;
                        if (!left[i][v] && (k >= t1 || k < L + 4 || ((s->rs[i][k - L - 3] >> v) & 1u)))
                            continue;
                        if (!left[i][v]) {
                            left[i][v] = 1 + (seq[i][v] * 5 + i + v) % p.MAXLEN;
                            seq[i][v]++;
                        }
                        left[i][v]--;
                        unsigned len = 1 + ((seq[i][v] - 1) * 5 + i + v) % p.MAXLEN, fi = len - 1 - left[i][v];
                        unsigned id = ((seq[i][v] - 1) * 16 + v) * 16 + i;
                        put_flit(s, i, k, v, pkt_data(s, id, fi, (i + 1) % N), left[i][v] == 0);
                        rrv[i] = v + 1;
                        break;
                    }
            sim_step(s);
        }
        /* check: every output carries a flit in every step of [t0 + 40, t1]; packets per (o, u) in order */
        unsigned busy = 0, win = 0, bad = 0, npk = 0;
        for (unsigned o = 0; o < N; o++) {
            const unsigned i = (o + N - 1) % N;
            for (unsigned k = t0 + 40; k <= t1; k++) {
                win++;
                busy += s->tx[o][k].valid;
            }
            /* per input VC v the stream's packets in order on output VC u(v) */
            for (unsigned v = 0; v < V; v++) {
                const unsigned ctl = v >= ndvc, d = ctl ? v - ndvc : v, u = (d + i) % ndvc + (ctl ? ndvc : 0);
                unsigned sq = 0, fi = 0;
                for (unsigned k = 1; k < maxs; k++) {
                    const vcsw_flit_t *f = &s->tx[o][k];
                    if (!f->valid || f->vc != u)
                        continue;
                    unsigned len = 1 + (sq * 5 + i + v) % p.MAXLEN, id = (sq * 16 + v) * 16 + i;
                    if (f->data != pkt_data(s, id, fi, o) || f->tail != (fi + 1 == len))
                        bad++;
                    if (++fi == len) {
                        fi = 0;
                        sq++;
                        npk++;
                    }
                }
                if (sq != seq[i][v] || fi != 0)
                    bad++;
            }
        }
        unsigned ov = 0;
        for (unsigned i = 0; i < N; i++)
            for (unsigned v = 0; v < V; v++)
                ov += vcsw_counter(s->m, i, v, VCSW_CTR_OVERFLOW) + vcsw_counter(s->m, i, v, VCSW_CTR_TRUNC);
        check(busy == win, "permutation %s: every output link busy every step (%u of %u)", pstr(&p), busy, win);
        check(bad == 0 && ov == 0 && npk > 100 * N / V,
              "permutation %s: %u packets whole and in order per stream (%u bad), no cut (%u)", pstr(&p), npk, bad, ov);
        (void)L;
        sim_free(s);
    }
}

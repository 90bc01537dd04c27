/* test_net_traffic.c - traffic: the fixed patterns and the latency percentiles */
#include "test_net.h"

/* ------------------------------------------------------------------ traffic patterns */

/* the fixed patterns: a permutation of the hosts (a host mapped to itself sends nothing), with the textbook values */
void test_patterns(void)
{
    sf_err e;
    char msg[300] = "";
    int ok = 1;
    for (unsigned hosts = 2; hosts <= 64 && ok; hosts *= 2) {
        sf_topo *t = sf_topo_new();
        sf_topo_add_switch(t, 0, (int)hosts, -1, "one", 0, &e);
        for (unsigned h = 0; h < hosts; h++)
            sf_topo_add_host(t, (int)h, 0, (int)h, "one", 0, &e);
        sf_topo_finish(t, "one", &e);
        const sf_pattern pats[4] = {SF_TR_BITREV, SF_TR_TRANSPOSE, SF_TR_BUTTERFLY, SF_TR_COMPLEMENT};
        for (int k = 0; k < 4 && ok; k++) {
            sf_traffic_params p = {.pattern = pats[k], .msg_units = 1, .seed = 1};
            sf_traffic *tr = sf_traffic_new(t, &p, &e);
            if (!tr) {
                snprintf(msg, sizeof msg, "%s on %u hosts: %.200s", sf_pattern_name(pats[k]), hosts, e.msg);
                ok = 0;
                break;
            }
            unsigned seen[64] = {0}, b = 0;
            while ((1u << b) < hosts)
                b++;
            for (unsigned s = 0; s < hosts && ok; s++) {
                int d = sf_traffic_fixed_dst(tr, s);
                unsigned dd = d < 0 ? s : (unsigned)d;
                seen[dd]++;
                unsigned want = s;
                if (pats[k] == SF_TR_BITREV) {
                    want = 0;
                    for (unsigned i = 0; i < b; i++)
                        if (s >> i & 1u)
                            want |= 1u << (b - 1 - i);
                } else if (pats[k] == SF_TR_TRANSPOSE) { /* rows of 2^(b/2) columns: (r, c) -> (c, r) */
                    unsigned cb = b / 2, rb = b - cb, r = s >> cb, col = s & ((1u << cb) - 1u);
                    want = col << rb | r;
                } else if (pats[k] == SF_TR_BUTTERFLY) {
                    want = s;
                    if (b >= 2 && ((s & 1u) != (s >> (b - 1) & 1u)))
                        want = s ^ (1u | 1u << (b - 1));
                } else {
                    want = hosts - 1 - s;
                }
                if (dd != want || d == (int)s) {
                    snprintf(msg, sizeof msg, "%s on %u hosts: %u -> %d, expected %u", sf_pattern_name(pats[k]), hosts, s, d, want);
                    ok = 0;
                }
            }
            for (unsigned x = 0; x < hosts && ok; x++)
                if (seen[x] != 1) {
                    snprintf(msg, sizeof msg, "%s on %u hosts is not a permutation (host %u reached %u times)",
                             sf_pattern_name(pats[k]), hosts, x, seen[x]);
                    ok = 0;
                }
            sf_traffic_free(tr);
        }
        sf_topo_free(t);
    }
    /* the matrix transpose of 8 hosts (a 4 x 2 matrix): host 1 = (row 0, column 1) -> (1, 0) = host 4; butterfly 1 -> 4 */
    if (ok) {
        sf_topo *t = sf_topo_new();
        sf_topo_add_switch(t, 0, 8, -1, "one", 0, &e);
        for (int h = 0; h < 8; h++)
            sf_topo_add_host(t, h, 0, h, "one", 0, &e);
        sf_topo_finish(t, "one", &e);
        sf_traffic_params p = {.pattern = SF_TR_TRANSPOSE, .msg_units = 1, .seed = 1};
        sf_traffic *tr = sf_traffic_new(t, &p, &e);
        p.pattern = SF_TR_BUTTERFLY;
        sf_traffic *bf = sf_traffic_new(t, &p, &e);
        ok = tr && bf && sf_traffic_fixed_dst(tr, 1) == 4 && sf_traffic_fixed_dst(tr, 6) == 3 && sf_traffic_fixed_dst(bf, 1) == 4 &&
             sf_traffic_fixed_dst(bf, 3) == 6 && sf_traffic_fixed_dst(bf, 2) == -1;
        if (!ok)
            snprintf(msg, sizeof msg, "8 hosts: transpose 1 -> %d, 6 -> %d; butterfly 1 -> %d, 3 -> %d, 2 -> %d",
                     sf_traffic_fixed_dst(tr, 1), sf_traffic_fixed_dst(tr, 6), sf_traffic_fixed_dst(bf, 1),
                     sf_traffic_fixed_dst(bf, 3), sf_traffic_fixed_dst(bf, 2));
        sf_traffic_free(tr);
        sf_traffic_free(bf);
        sf_topo_free(t);
    }
    check(ok, "traffic patterns: bit-reversal, matrix transpose, butterfly and complement are permutations of 2..64 hosts "
              "(transpose also on odd powers of 2) with the textbook values",
          msg);
}

/* ------------------------------------------------------------------ latency percentiles */

/* latency of message i of run `run` (cycles): run 0 crosses the 1024-cycle mark (the old histogram's exact range),
 * run 1 sits where the old histogram's bin middle (1127.5) was above every sample (1122) */
static uint64_t pct_lat(int run, unsigned i) { return run == 0 ? 1000u + 3u * i : 1122u; }

static int u64cmp(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* the percentiles are exact nearest-rank values of the samples (the smallest latency with at least ceil(q n) samples
 * at or below it): so within [min, max] whatever the latencies */
void test_percentiles(void)
{
    sf_err e;
    char msg[300] = "";
    int ok = 1;
    enum { N = 200 };
    for (int run = 0; run < 2 && ok; run++) {
        sf_topo *t = sf_topo_new();
        sf_topo_add_switch(t, 0, 2, -1, "one", 0, &e);
        for (int h = 0; h < 2; h++)
            sf_topo_add_host(t, h, 0, h, "one", 0, &e);
        sf_topo_finish(t, "one", &e);
        sf_traffic_params p = {.pattern = SF_TR_COMPLEMENT, .rate = 1.0, .msg_units = 1, .seed = 1}; /* a message a cycle, 0 -> 1 */
        sf_traffic *tr = sf_traffic_new(t, &p, &e);
        if (!tr) {
            snprintf(msg, sizeof msg, "%.200s", e.msg);
            ok = 0;
            sf_topo_free(t);
            break;
        }
        sf_traffic_window_start(tr, 0);
        uint64_t want[N];
        unsigned n = 0;
        for (uint64_t cyc = 0; n < N && cyc < 4 * N; cyc++) {
            sf_traffic_generate(tr, 0, cyc);
            uint32_t seq;
            const sf_msg *m;
            while (n < N && (m = sf_traffic_head(tr, 0, &seq)) != NULL) {
                const uint64_t g = m->gen;
                sf_traffic_start(tr, 0, cyc, 0);
                want[n] = pct_lat(run, n);
                sf_traffic_deliver(tr, 1, 1, 0, seq, g + want[n]);
                n++;
            }
        }
        sf_lat l;
        sf_traffic_latency(tr, &l);
        qsort(want, n, sizeof want[0], u64cmp);
        const double p50 = (double)want[N / 2 - 1], p95 = (double)want[N * 95 / 100 - 1], p99 = (double)want[N * 99 / 100 - 1];
        ok = n == N && l.count == N && l.max == (double)want[N - 1] && l.p50 == p50 && l.p95 == p95 && l.p99 == p99 &&
             l.p99 <= l.max && l.p50 >= (double)want[0];
        if (!ok)
            snprintf(msg, sizeof msg, "run %d: %u samples, p50 %.1f p95 %.1f p99 %.1f max %.1f (want %.0f %.0f %.0f %.0f)", run,
                     (unsigned)l.count, l.p50, l.p95, l.p99, l.max, p50, p95, p99, (double)want[N - 1]);
        sf_traffic_free(tr);
        sf_topo_free(t);
    }
    check(ok, "latency percentiles are the samples' exact nearest-rank values, never above the maximum (latencies "
              "across 1024 cycles; all equal to 1122)",
          msg);
}

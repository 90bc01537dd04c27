/* sanfab-maestro: directed measurements of the Maestro network (docs/network.md "The Maestro network"; Yamagiwa et
 * al. 2000, sec. 4): the C network of switch boxes and Maestro NIs that sanfab-sim runs (sf_sim_point_build on the
 * same keys), its NIs in direct mode (sf_mnic.h) sending the messages of one test:
 *
 *   fig8       a 16-byte Type0 message from host 0 to host 1 through their box, --reps times, each after a random
 *              idle gap (seeded) so it meets the link in every phase: t1 host write -> unit accepted by the box's
 *              MLC, t2 analysis (-> its first word on the box's bus), t3 bus transfer (-> its last word), t4 -> the
 *              receiving host has read it; Table 2's NI-SW (t1), SW (t2 + t3), SW-NI (t4), Fig. 8's t1 - t4.
 *   pingpong   host 0 sends S bytes to host 1, which answers with a 16-byte Type0 message once it has read it all;
 *              the round trip runs from host 0's first write to its last read; throughput S / round trip.
 *   pingping   both hosts send S bytes at once and each answers the other's; the worse round trip counts.
 *   multicast  host 0 sends K members one message by multicast (DST 255, MASK), against K unicasts: the box's bus
 *              words and latency to the last member (one message each), and throughput over --reps back to back.
 *   barrier    every host requests the barrier of channel 1 at a random step of a window; latency from the last
 *              request written whole to the last release read.
 *
 * Every message is checked on arrival (whole, unaltered, once, at a member); a violation fails the run (exit 1).
 * S counts the message as it sits in the FIFO: 16 B is a Type0 message, S >= 32 a Type1 message of S / 16 units.
 * Times are in cycles and in microseconds at the paper's 50 MHz (ns-per-cycle).
 *
 * Exit status: 0 done, 1 a check failed or a transfer did not finish, 2 usage. */
#include "mlc.h"
#include "mlc_host.h"
#include "net.h"
#include "sbox.h"
#include "sbox_net.h"
#include "sf_cli.h"
#include "sf_mnic.h"
#include "sf_rng.h"
#include "sf_sim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT 2000000u /* cycles a transfer may take before the run gives up */
#define MAXH 16

typedef struct {
    sf_sim_cfg c;
    sf_sim_net net;
    sf_sim_point pt;
    net_t *n;
    sf_mnics *ni;
    sf_rng rng;
    unsigned H;
    uint64_t ctr_mask; /* 2^CTR_W - 1 */
    FILE *out;
} run_t;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: sanfab-maestro TEST [--reps N] [--sizes S,S,...] [--members K] [-o FILE] [sanfab-sim keys]\n"
            "Directed measurements of the Maestro network (docs/network.md \"The Maestro network\"): the C network of\n"
            "switch boxes and Maestro NIs that sanfab-sim --switch sbox runs, built from the same keys (--topology or\n"
            "--topology-gen, --routes or --routing, --link-delay, --link-width, --fifo-bytes, --turn, --mlc-timeout,\n"
            "--ctr-width, --seed, --ns-per-cycle; sanfab-sim --help lists them), its NIs sending one test's messages.\n"
            "TEST:\n"
            "  fig8       16-byte Type0 messages host 0 -> host 1, each after a random idle gap: t1 (host write -> unit in\n"
            "             the box), t2 (analysis), t3 (bus transfer), t4 (box -> read at host 1); Table 2's NI-SW, SW, SW-NI\n"
            "  pingpong   host 0 sends S bytes to host 1, which answers 16 bytes; round trip and throughput per size\n"
            "  pingping   both send S bytes at once and answer each other; the worse round trip\n"
            "  multicast  host 0 sends one message to K members by multicast and by K unicasts: bus words, latency,\n"
            "             throughput of --reps messages back to back\n"
            "  barrier    every host requests a barrier (channel 1) at a random step; latency to the last release\n"
            "Options:\n"
            "  --reps N      repetitions per point (1..100000; default 64)\n"
            "  --sizes LIST  message sizes in bytes as in the FIFO (16, or multiples of 16 from 32 to 65536; default\n"
            "                16,32,64,128,256,512,1024,2048)\n"
            "  --members K   multicast members (hosts 1..K; default: every other host)\n"
            "  -o FILE       the JSON (default: standard output)\n"
            "  --help, --version\n"
            "Checks: every message arrives whole, unaltered, once, at each of its members; every barrier is released once\n"
            "to every member. Exit status: 0 done, 1 a check failed or a transfer did not finish, 2 usage.\n"
            "Example: sanfab-maestro fig8 --topology-gen \"tree --levels 1\" --routing updown -o fig8.json\n");
}

static void die(const char *fmt, const char *a)
{
    fprintf(stderr, "sanfab-maestro: ");
    fprintf(stderr, fmt, a);
    fputc('\n', stderr);
    exit(1);
}

/* one cycle of the network */
static void step(run_t *r) { net_step(r->n); }

/* the box counter `ctr` (SBOX_CTR_*) of box s */
static uint64_t box_ctr(const run_t *r, unsigned s, unsigned ctr)
{
    return net_switch_counter(r->n, s, 0, MLC_NCTR + ctr);
}

/* counter difference modulo 2^CTR_W */
static uint64_t ctr_diff(const run_t *r, uint64_t now, uint64_t then) { return (now - then) & r->ctr_mask; }

/* a message of S bytes as in the FIFO from host h: Type0 (S = 16) or Type1 of S / 16 units, data from rng */
static mlc_msg_t make_msg(run_t *r, unsigned S, unsigned dst, unsigned mask, uint8_t *buf)
{
    mlc_msg_t m = {S <= 16 ? 0u : 1u, MLC_KIND_DATA, dst, mask, 0, S <= 16 ? MLC_T0_DATA : S - 9u, buf};
    for (unsigned i = 0; i < m.len; i++)
        buf[i] = (uint8_t)sf_rng_next(&r->rng);
    return m;
}

/* idles a random number of cycles (0..period-1) so the next message meets the links in a random phase */
static void idle_gap(run_t *r, unsigned period)
{
    const unsigned g = (unsigned)(sf_rng_next(&r->rng) % period);
    for (unsigned i = 0; i < g; i++)
        step(r);
}

/* nothing more arrives at any host on either channel for `cycles` cycles (a duplicate would) */
static void expect_quiet(run_t *r, unsigned cycles)
{
    for (unsigned k = 0; k < cycles; k++) {
        step(r);
        for (unsigned h = 0; h < r->H; h++)
            for (unsigned ch = 0; ch < MLC_NCH; ch++) {
                mlc_msg_t m;
                if (sf_mnics_recv(r->ni, h, ch, &m)) {
                    mlc_msg_free(&m);
                    char b[80];
                    snprintf(b, sizeof b, "host %u received a message nobody sent it (a duplicate)", h);
                    die("%s", b);
                }
            }
    }
}

typedef struct {
    double sum, min, max;
    unsigned n;
} stat_t;

static void st_add(stat_t *s, double v)
{
    if (!s->n || v < s->min)
        s->min = v;
    if (!s->n || v > s->max)
        s->max = v;
    s->sum += v;
    s->n++;
}

static void st_json(const run_t *r, const char *name, const stat_t *s)
{
    const double us = r->c.ns_per_cycle / 1000.0, avg = s->n ? s->sum / s->n : 0;
    fprintf(r->out, "\"%s\": {\"avg\": %.6g, \"min\": %.6g, \"max\": %.6g, \"avg_us\": %.6g, \"min_us\": %.6g, \"max_us\": %.6g}",
            name, avg, s->min, s->max, avg * us, s->min * us, s->max * us);
}

/* ------------------------------------------------------------------ the tests */

static void test_fig8(run_t *r, unsigned reps)
{
    const sf_topo *t = r->net.t;
    const unsigned s0 = (unsigned)t->host[0].sw, a = (unsigned)t->host[0].port;
    if ((unsigned)t->host[1].sw != s0)
        die("%s", "fig8: hosts 0 and 1 must hang on one box");
    stat_t t1 = {0}, t2 = {0}, t3 = {0}, t4 = {0}, tot = {0};
    uint8_t buf[MLC_T0_DATA];
    for (unsigned k = 0; k < reps; k++) {
        idle_gap(r, 64);
        mlc_msg_t m = make_msg(r, 16, 1, 0, buf);
        const uint64_t rx0 = net_switch_counter(r->n, s0, a, MLC_CTR_RX_PKTS), w0 = box_ctr(r, s0, SBOX_CTR_WORDS);
        if (sf_mnics_send(r->ni, 0, 0, &m))
            die("%s", "fig8: the NI refused the message");
        const uint64_t A = net_cycle(r->n) + 1; /* the driver writes the first word in the next cycle */
        uint64_t B = 0, C = 0, D = 0, E = 0;
        mlc_msg_t got;
        for (uint64_t i = 0; i < LIMIT && !E; i++) {
            step(r);
            const uint64_t now = net_cycle(r->n);
            if (!B && ctr_diff(r, net_switch_counter(r->n, s0, a, MLC_CTR_RX_PKTS), rx0))
                B = now;
            const uint64_t w = ctr_diff(r, box_ctr(r, s0, SBOX_CTR_WORDS), w0);
            if (!C && w >= 1)
                C = now;
            if (!D && w >= 8)
                D = now;
            if (sf_mnics_recv(r->ni, 1, 0, &got)) {
                mlc_msg_t want = m;
                want.src = 0;
                if (!mlc_msg_eq(&got, &want))
                    die("%s", "fig8: host 1 received a message other than the one sent");
                mlc_msg_free(&got);
                E = now;
            }
        }
        if (!B || !C || !D || !E || !(A <= B && B < C && C <= D && D < E))
            die("%s", "fig8: a transfer did not finish, or its events came out of order");
        st_add(&t1, (double)(B - A + 1)); /* cycles A..B */
        st_add(&t2, (double)(C - B));
        st_add(&t3, (double)(D - C + 1));
        st_add(&t4, (double)(E - D));
        st_add(&tot, (double)(E - A + 1));
    }
    expect_quiet(r, 200);
    fprintf(r->out, ",\n \"fig8\": {\"reps\": %u, ", reps);
    st_json(r, "t1", &t1);
    fputs(", ", r->out);
    st_json(r, "t2", &t2);
    fputs(", ", r->out);
    st_json(r, "t3", &t3);
    fputs(", ", r->out);
    st_json(r, "t4", &t4);
    fputs(", ", r->out);
    st_json(r, "total", &tot);
    const double us = r->c.ns_per_cycle / 1000.0;
    fprintf(r->out, ",\n  \"t1_max_minus_t4_min\": %.6g, \"t1_max_minus_t4_min_us\": %.6g, \"t1_spread\": %.6g, \"t1_spread_us\": %.6g",
            t1.max - t4.min, (t1.max - t4.min) * us, t1.max - t1.min, (t1.max - t1.min) * us);
    fprintf(r->out, ",\n  \"table2_us\": {\"ni_sw\": %.6g, \"sw\": %.6g, \"sw_ni\": %.6g, \"total\": %.6g}}", t1.sum / t1.n * us,
            (t2.sum + t3.sum) / t2.n * us, t4.sum / t4.n * us, tot.sum / tot.n * us);
}

/* one round trip (pingpong: host 0 only; pingping: both) of S bytes; *rt gets the round trips (cycles) */
static void round_trip(run_t *r, unsigned S, int both, double rt[2], double *oneway)
{
    uint8_t *b0 = malloc(S), *b1 = malloc(S), ack[2][MLC_T0_DATA];
    if (!b0 || !b1)
        die("%s", "out of memory");
    const unsigned nsend = both ? 2 : 1;
    mlc_msg_t m[2] = {make_msg(r, S, 1, 0, b0), make_msg(r, S, 0, 0, b1)};
    for (unsigned h = 0; h < nsend; h++)
        if (sf_mnics_send(r->ni, h, 0, &m[h]))
            die("%s", "the NI refused a message (is it larger than fifo-bytes allows?)");
    const uint64_t A = net_cycle(r->n) + 1;
    uint64_t got_at[2] = {0, 0}, ack_at[2] = {0, 0};
    mlc_msg_t ackm[2];
    for (uint64_t i = 0; i < LIMIT && !(ack_at[0] && (!both || ack_at[1])); i++) {
        step(r);
        const uint64_t now = net_cycle(r->n);
        for (unsigned h = 0; h < 2; h++) {
            mlc_msg_t g;
            while (sf_mnics_recv(r->ni, h, 0, &g)) {
                const unsigned peer = 1 - h;
                if (!got_at[peer] && (h == 1 || both)) { /* the data message of peer */
                    mlc_msg_t want = m[peer];
                    want.src = peer;
                    if (!mlc_msg_eq(&g, &want))
                        die("%s", "a host received a message other than the one sent");
                    got_at[peer] = now;
                    ackm[h] = make_msg(r, 16, peer, 0, ack[h]);
                    if (sf_mnics_send(r->ni, h, 0, &ackm[h]))
                        die("%s", "the NI refused an acknowledgement");
                } else if (got_at[h] && !ack_at[h]) { /* the acknowledgement of h's message */
                    mlc_msg_t want = ackm[peer];
                    want.src = peer;
                    if (!mlc_msg_eq(&g, &want))
                        die("%s", "a host received an acknowledgement other than the one sent");
                    ack_at[h] = now;
                } else {
                    die("%s", "a host received a message nobody sent it");
                }
                mlc_msg_free(&g);
            }
        }
    }
    if (!ack_at[0] || (both && !ack_at[1]))
        die("%s", "a round trip did not finish");
    rt[0] = (double)(ack_at[0] - A + 1);
    rt[1] = both ? (double)(ack_at[1] - A + 1) : rt[0];
    *oneway = (double)(got_at[0] - A + 1);
    free(b0);
    free(b1);
}

static void test_pp(run_t *r, int both, const unsigned *sizes, unsigned nsizes, unsigned reps)
{
    if (r->H < 2)
        die("%s", "ping-pong needs two hosts");
    const double lw = r->c.mnic.link_w / 8.0, mbs = 1000.0 / r->c.ns_per_cycle; /* bytes/cycle of a link; MB/s per byte/cycle */
    fprintf(r->out, ",\n \"%s\": {\"hosts\": [0, 1], \"same_box\": %s, \"points\": [", both ? "pingping" : "pingpong",
            r->net.t->host[0].sw == r->net.t->host[1].sw ? "true" : "false");
    for (unsigned i = 0; i < nsizes; i++) {
        const unsigned S = sizes[i], n = S > 4096 ? (reps + 7) / 8 : reps;
        stat_t rt = {0}, ow = {0};
        for (unsigned k = 0; k < n; k++) {
            idle_gap(r, 64);
            double t[2], o;
            round_trip(r, S, both, t, &o);
            st_add(&rt, t[0] > t[1] ? t[0] : t[1]);
            st_add(&ow, o);
        }
        const double avg = rt.sum / rt.n, thr = (double)S / avg;
        fprintf(r->out, "%s\n  {\"size\": %u, \"reps\": %u, ", i ? "," : "", S, n);
        st_json(r, "round_trip", &rt);
        fputs(", ", r->out);
        st_json(r, "one_way", &ow);
        fprintf(r->out, ", \"throughput_link\": %.6g, \"throughput_mbytes_s\": %.6g}", thr / lw, thr * mbs);
    }
    fprintf(r->out, "]}");
    expect_quiet(r, 200);
}

static void test_multicast(run_t *r, unsigned K, unsigned reps)
{
    if (K < 1 || K + 1 > r->H)
        die("%s", "multicast: --members must be 1..hosts-1");
    const unsigned S = (unsigned)r->net.t->nsw;
    unsigned mask = 0;
    for (unsigned j = 1; j <= K; j++)
        mask |= 1u << j;
    uint8_t buf[MAXH][MLC_T0_DATA];
    fprintf(r->out, ",\n \"multicast\": {\"members\": %u, \"reps\": %u", K, reps);
    for (int mc = 1; mc >= 0; mc--) {
        /* one message (or K unicasts): bus words of every box, latency to the last member */
        uint64_t w0[64];
        for (unsigned s = 0; s < S && s < 64; s++)
            w0[s] = box_ctr(r, s, SBOX_CTR_WORDS);
        stat_t lat = {0};
        uint64_t words = 0, t0 = 0, t_end = 0;
        for (unsigned rep = 0; rep < reps + 1; rep++) { /* rep 0: one message alone (latency); then back to back */
            if (rep == 1) {
                for (unsigned s = 0; s < S && s < 64; s++)
                    words += ctr_diff(r, box_ctr(r, s, SBOX_CTR_WORDS), w0[s]);
                t0 = net_cycle(r->n) + 1;
            }
            mlc_msg_t m[MAXH];
            unsigned nm = mc ? 1 : K;
            for (unsigned j = 0; j < nm; j++) {
                m[j] = make_msg(r, 16, mc ? MLC_DST_MULTI : j + 1, mc ? mask : 0, buf[j]);
                if (sf_mnics_send(r->ni, 0, 0, &m[j]))
                    die("%s", "multicast: the NI refused a message");
            }
            const uint64_t A = net_cycle(r->n) + 1;
            unsigned got = 0;
            uint64_t last = 0;
            for (uint64_t i = 0; i < LIMIT && got < K; i++) {
                step(r);
                for (unsigned h = 1; h <= K; h++) {
                    mlc_msg_t g;
                    while (sf_mnics_recv(r->ni, h, 0, &g)) {
                        mlc_msg_t want = m[mc ? 0 : h - 1];
                        want.src = 0;
                        if (mc)
                            want.mask = mask; /* within one box the MASK arrives as sent */
                        if (g.dst != want.dst || g.type != 0 || g.len != MLC_T0_DATA || memcmp(g.data, want.data, MLC_T0_DATA))
                            die("%s", "multicast: a member received a message other than the one sent");
                        got++;
                        last = net_cycle(r->n);
                        mlc_msg_free(&g);
                    }
                }
            }
            if (got != K)
                die("%s", "multicast: not every member received the message");
            expect_quiet(r, rep == 0 ? 300 : 0);
            if (rep == 0)
                st_add(&lat, (double)(last - A + 1));
            t_end = last;
        }
        const double thr = (double)reps * K * 16.0 / (double)(t_end - t0 + 1); /* bytes delivered per cycle, all members */
        fprintf(r->out, ",\n  \"%s\": {\"bus_words\": %llu, ", mc ? "multicast" : "unicasts", (unsigned long long)words);
        st_json(r, "latency", &lat);
        fprintf(r->out, ", \"delivered_bytes_cycle\": %.6g, \"delivered_mbytes_s\": %.6g}", thr, thr * 1000.0 / r->c.ns_per_cycle);
    }
    fprintf(r->out, "}");
}

static void test_barrier(run_t *r, unsigned reps)
{
    const unsigned H = r->H, all = (1u << H) - 1u;
    stat_t lat = {0};
    for (unsigned k = 0; k < reps; k++) {
        uint64_t when[MAXH], last_q = 0;
        for (unsigned h = 0; h < H; h++)
            when[h] = net_cycle(r->n) + 1 + sf_rng_next(&r->rng) % 256;
        unsigned queued = 0, released = 0;
        uint8_t rel[MAXH] = {0};
        uint64_t last_rel = 0;
        for (uint64_t i = 0; i < LIMIT && released < H; i++) {
            for (unsigned h = 0; h < H; h++)
                if (when[h] == net_cycle(r->n) + 1) {
                    if (sf_mnics_barrier(r->ni, h, 1, all, k))
                        die("%s", "barrier: the NI refused the request");
                    queued++;
                    last_q = net_cycle(r->n) + 1;
                }
            step(r);
            for (unsigned h = 0; h < H; h++) {
                mlc_msg_t g;
                while (sf_mnics_recv(r->ni, h, 1, &g)) {
                    if (g.kind != MLC_KIND_RELEASE || rel[h] || queued < H)
                        die("%s", "barrier: a release came twice, early, or something else arrived");
                    rel[h] = 1;
                    released++;
                    last_rel = net_cycle(r->n);
                    mlc_msg_free(&g);
                }
            }
        }
        if (released != H)
            die("%s", "barrier: not every member was released");
        st_add(&lat, (double)(last_rel - last_q + 1));
    }
    expect_quiet(r, 300);
    fprintf(r->out, ",\n \"barrier\": {\"members\": %u, \"reps\": %u, ", H, reps);
    st_json(r, "latency", &lat);
    fprintf(r->out, "}");
}

/* ------------------------------------------------------------------ main */

static int parse_sizes(const char *v, unsigned *s, unsigned *n)
{
    char copy[400];
    snprintf(copy, sizeof copy, "%s", v);
    *n = 0;
    for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
        char *end;
        errno = 0;
        unsigned long x = strtoul(tok, &end, 10);
        if (*end || errno || *n >= 32 || !(x == 16 || (x >= 32 && x <= 65536 && x % 16 == 0)))
            return -1;
        s[(*n)++] = (unsigned)x;
    }
    return *n ? 0 : -1;
}

int main(int argc, char **argv)
{
    run_t r;
    memset(&r, 0, sizeof r);
    sf_sim_cfg_default(&r.c);
    const char *test = NULL, *outpath = NULL;
    unsigned reps = 64, members = 0, sizes[32] = {16, 32, 64, 128, 256, 512, 1024, 2048}, nsizes = 8;
    static const char *const tests[] = {"fig8", "pingpong", "pingping", "multicast", "barrier"};
    sf_err e = {{0}};
    char sw[] = "sbox", ld[] = "0.001";
    if (sf_sim_cfg_set(&r.c, "switch", sw, "sanfab-maestro", 0, &e) || sf_sim_cfg_set(&r.c, "load", ld, "sanfab-maestro", 0, &e)) {
        fprintf(stderr, "sanfab-maestro: %s\n", e.msg);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--version")) {
            sf_cli_print_version(stdout, "sanfab-maestro");
            return 0;
        } else if (!strcmp(a, "--reps") || !strcmp(a, "--sizes") || !strcmp(a, "--members") || !strcmp(a, "-o")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "sanfab-maestro: %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            char *end;
            errno = 0;
            unsigned long x = strtoul(v, &end, 10);
            if (!strcmp(a, "-o"))
                outpath = v;
            else if (!strcmp(a, "--sizes")) {
                if (parse_sizes(v, sizes, &nsizes)) {
                    fprintf(stderr, "sanfab-maestro: --sizes: expected up to 32 sizes, each 16 or a multiple of 16 in 32..65536 "
                                    "(got \"%s\")\n", v);
                    return 2;
                }
            } else if (!*v || *end || errno || x < 1 || x > (!strcmp(a, "--reps") ? 100000ul : 15ul)) {
                fprintf(stderr, "sanfab-maestro: %s: expected a whole number in 1..%s, got '%s'\n", a,
                        !strcmp(a, "--reps") ? "100000" : "15", v);
                return 2;
            } else if (!strcmp(a, "--reps"))
                reps = (unsigned)x;
            else
                members = (unsigned)x;
        } else if (a[0] == '-' && a[1] == '-') {
            static const char *const own[] = {"--reps", "--sizes", "--members", "--help", "--version"};
            if (sf_sim_cfg_arg(&r.c, "sanfab-maestro", argc, argv, &i, own, sizeof own / sizeof own[0]))
                return 2;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "sanfab-maestro: unknown option %s (--help lists them)\n", a);
            return 2;
        } else if (test) {
            fprintf(stderr, "sanfab-maestro: one test a run (%s, %s)\n", test, a);
            return 2;
        } else {
            test = a;
            int ok = 0;
            for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++)
                ok |= !strcmp(a, tests[k]);
            if (!ok) {
                const char *s = sf_cli_suggest(a, tests, sizeof tests / sizeof tests[0]);
                fprintf(stderr, "sanfab-maestro: unknown test \"%s\"%s%s%s (fig8, pingpong, pingping, multicast, barrier)\n", a,
                        s ? " (did you mean " : "", s ? s : "", s ? "?)" : "");
                return 2;
            }
        }
    }
    if (!test) {
        fprintf(stderr, "sanfab-maestro: no test given (fig8, pingpong, pingping, multicast, barrier; --help)\n");
        return 2;
    }
    if (r.c.k != SF_KIND_SBOX) {
        fprintf(stderr, "sanfab-maestro: --switch %s: sanfab-maestro measures the Maestro network (switch sbox)\n", r.c.kind);
        return 2;
    }
    if (sf_sim_cfg_check(&r.c, &e)) {
        fprintf(stderr, "sanfab-maestro: %s\n", e.msg);
        return 2;
    }
    if (sf_sim_net_load(&r.c, &r.net, &e) || sf_sim_point_build(&r.c, &r.net, 0, NULL, NULL, &r.pt, &e)) {
        fprintf(stderr, "sanfab-maestro: %s\n", e.msg);
        return 1;
    }
    r.n = r.pt.net;
    r.ni = r.pt.nics;
    r.H = (unsigned)r.net.t->nhost;
    r.ctr_mask = r.c.mnic.ctr_w >= 64 ? ~0ull : (1ull << r.c.mnic.ctr_w) - 1u;
    sf_mnics_set_direct(r.ni, 1);
    sf_rng_seed(&r.rng, r.c.tr.seed);
    fprintf(stderr, "sanfab-maestro: seed %llu\n", (unsigned long long)r.c.tr.seed);
    r.out = outpath ? fopen(outpath, "w") : stdout;
    if (!r.out) {
        fprintf(stderr, "sanfab-maestro: %s: cannot write: %s\n", outpath, strerror(errno));
        return 1;
    }
    for (unsigned k = 0; k < SBOX_NET_LOAD_CYCLES + 64; k++) /* the tables loaded, the links running */
        step(&r);
    fprintf(r.out, "{\"tool\": \"sanfab-maestro\", \"test\": \"%s\", \"seed\": %llu, \"ns_per_cycle\": %.6g, \"hosts\": %u, "
                   "\"boxes\": %d, \"link_width\": %u, \"link_delay\": %u, \"turn\": %u, \"fifo_bytes\": %u, \"network\": ",
            test, (unsigned long long)r.c.tr.seed, r.c.ns_per_cycle, r.H, r.net.t->nsw, r.c.mnic.link_w, r.c.link_delay,
            r.c.mnic.turn, r.c.mnic.fifo_bytes);
    fprintf(r.out, "\"%s\"", r.c.topology_gen[0] ? r.c.topology_gen : r.c.topology);
    if (!strcmp(test, "fig8"))
        test_fig8(&r, reps);
    else if (!strcmp(test, "pingpong") || !strcmp(test, "pingping"))
        test_pp(&r, !strcmp(test, "pingping"), sizes, nsizes, reps);
    else if (!strcmp(test, "multicast"))
        test_multicast(&r, members ? members : r.H - 1, reps);
    else
        test_barrier(&r, reps);
    fprintf(r.out, ",\n \"cycles\": %llu}\n", (unsigned long long)net_cycle(r.n));
    if (outpath && fclose(r.out) != 0) {
        fprintf(stderr, "sanfab-maestro: %s: write error\n", outpath);
        return 1;
    }
    sf_sim_point_free(&r.pt);
    sf_sim_net_free(&r.net);
    return 0;
}

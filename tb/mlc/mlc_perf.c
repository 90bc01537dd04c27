/* sanfab — performance measurements of the Maestro Link Controller on its C model (docs/mlc-perf.md):
 * two model MLCs (node 0 the master, node 1 the slave) joined by the link model (cmodel mlc_link_*),
 * each driven by the host driver sw/sim/mlc_host.c, as in the paper's experiments (Yamagiwa et al. 2000, sec. 4):
 *
 *   pingpong   node 0 sends one message of S bytes; node 1's host, once it has read the whole
 *              message, sends a 16-byte Type0 acknowledgement back; the round trip (the paper's
 *              "remote-DMA latency") runs from node 0's first host write to its last host read of
 *              the acknowledgement, both steps counted; throughput = S / round trip. The one-way
 *              latency (first write at node 0 to last read at node 1) is recorded too.
 *   pingping   both nodes send S bytes at once and each acknowledges the other's message; the
 *              worse of the two round trips counts (as in the paper).
 *   modes      Network Burst or single-packet 16/32/64 B (Fig. 10), pipelined or message-based
 *              (Fig. 11); "padded" single-packet runs let the host fill every message up to whole
 *              packets with pad units (Type0, kind 127, dropped by the receiving host), which is the
 *              paper's conventional transfer (the MLC itself sends a short remainder, docs/mlc.md).
 *   efficiency one direction, Network Burst, node 0's host keeps the send FIFO full, node 1 sends
 *              only null frames: units accepted at node 1 (its rx_pkts counter) over a window of whole
 *              frame periods, as a fraction of the raw link rate, beside docs/mlc.md's formula, for
 *              several LINK_W / TURN / LINK_DELAY.
 *
 * S counts the whole message as it sits in the FIFO (header units included: 16 B is a Type0
 * message, S >= 32 a Type1 message of S / 16 units). Fractions are of the raw link rate (LINK_W bits
 * per step); the paper's units assume its 50 MHz clock and 4-bit link (1 step = 20 ns, 200 Mbit/s).
 * Every message is checked on arrival (whole, unaltered, in order); an idle gap of a random number
 * of steps before each ping moves it against the null-frame exchange (seeded: the seed is printed).
 *
 * Usage: mlc_perf [--seed N] [--reps N] [--max-size BYTES] [--quick] [--json FILE] [--help]
 * Exit status: 0 done, 1 a message was lost or altered or a transfer did not finish, 2 usage.
 */
#include "mlc.h"
#include "mlc_host.h"
#include "rng.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PAD_KIND 127u    /* pad units of the "padded" single-packet runs */
#define ACK_BYTES 16u    /* the acknowledgement: one Type0 unit */
#define STEP_NS 20.0     /* paper: 50 MHz */
#define PAPER_MBPS 200.0 /* paper: 4-bit link at 50 MHz */

/* ------------------------------------------------------------------ the pair */

/* Two MLC models, the link model between them and a host driver on each. */
typedef struct {
    mlc_params_t p[2];
    unsigned delay, cfg, pad_units; /* pad_units: messages are padded to a multiple of this (0: none) */
    mlc_t *m[2];
    mlc_link_t *l;
    mlc_host_t *h[2];
    mlc_in_t nx[2];  /* link inputs of the next step */
    mlc_out_t o[2];  /* outputs after the last step */
    uint64_t step;
    int cfg_pending;
    uint64_t last_read[2]; /* step of the last word read by each host */
} pair_t;

/* Frees a pair (NULL allowed). */
static void pair_free(pair_t *q)
{
    if (!q)
        return;
    for (unsigned n = 0; n < 2; n++) {
        mlc_free(q->m[n]);
        mlc_host_free(q->h[n]);
    }
    mlc_link_free(q->l);
    free(q);
}

/* A new pair at step 0 with parameters p (MASTER set per node), link delay, configuration cfg written
 * into both ends in step 1; NULL with a message on stderr on a bad parameter or no memory. */
static pair_t *pair_new(mlc_params_t p, unsigned delay, unsigned cfg, unsigned pad_units)
{
    pair_t *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->delay = delay;
    q->cfg = cfg;
    q->pad_units = pad_units;
    q->cfg_pending = 1;
    for (unsigned n = 0; n < 2; n++) {
        q->p[n] = p;
        q->p[n].MASTER = n == 0;
        q->p[n].GUARD = mlc_guard(delay, p.TURN); /* the slave's guard for this link (docs/mlc.md rule 2) */
        const char *bad = mlc_params_check(&q->p[n]);
        if (bad) {
            fprintf(stderr, "mlc_perf: %s\n", bad);
            pair_free(q);
            return NULL;
        }
        q->m[n] = mlc_new(&q->p[n]);
        q->h[n] = mlc_host_new(p.FIFO_BYTES, cfg & MLC_CFG_MSG);
        q->o[n].st_tx_space[0] = q->o[n].st_tx_space[1] = (uint16_t)p.FIFO_BYTES;
    }
    q->l = mlc_link_new(delay);
    if (!q->m[0] || !q->m[1] || !q->h[0] || !q->h[1] || !q->l) {
        fprintf(stderr, "mlc_perf: cannot make the MLC pair (LINK_DELAY %u, or out of memory)\n", delay);
        pair_free(q);
        return NULL;
    }
    return q;
}

/* One step of both ends: host driver inputs, the configuration write (first step), the models, the
 * hosts' reads, then the link carries this step's outputs to the next step's inputs. */
static void pair_step(pair_t *q)
{
    q->step++;
    for (unsigned n = 0; n < 2; n++) {
        mlc_in_t in = q->nx[n];
        mlc_host_drive(q->h[n], &q->o[n], &in);
        if (q->cfg_pending) {
            in.reg_wr = 1;
            in.reg_addr = MLC_REG_CFG;
            in.reg_wdata = (uint16_t)q->cfg;
        }
        mlc_step(q->m[n], &in, &q->o[n]);
        mlc_host_collect(q->h[n], &q->o[n]);
        if (q->o[n].h_rvalid)
            q->last_read[n] = q->step;
    }
    q->cfg_pending = 0;
    mlc_link_step(q->l, &q->o[0], &q->o[1], &q->nx[0], &q->nx[1]);
}

/* ------------------------------------------------------------------ messages */

/* Fills *m with a message of `size` bytes in the FIFO (16: Type0; else Type1 of size/16 units) from
 * src, random data from r; data owned by the caller. 0 on success, -1 out of memory. */
static int make_msg(mlc_msg_t *m, unsigned size, unsigned src, unsigned kind, rng_t *r)
{
    memset(m, 0, sizeof *m);
    m->type = size > 16;
    m->kind = kind;
    m->dst = 1 - src;
    m->src = src;
    m->len = m->type ? size - 9 : MLC_T0_DATA; /* Type1 of M units holds 16M - 9 user bytes */
    m->data = malloc(m->len);
    if (!m->data)
        return -1;
    for (unsigned i = 0; i < m->len; i++)
        m->data[i] = (uint8_t)rng_next(r);
    return 0;
}

/* Queues message m at node n, channel 0, then (padded runs) Type0 pad units up to a multiple of
 * pad_units; 0 on success. */
static int send_msg(pair_t *q, unsigned n, const mlc_msg_t *m)
{
    if (mlc_host_send(q->h[n], 0, m) != 0)
        return -1;
    if (q->pad_units > 1) {
        unsigned u = mlc_msg_units(m);
        uint8_t z[MLC_T0_DATA] = {0};
        mlc_msg_t pad = {0, PAD_KIND, 1 - n, 0, n, MLC_T0_DATA, z};
        for (; u % q->pad_units; u++)
            if (mlc_host_send(q->h[n], 0, &pad) != 0)
                return -1;
    }
    return 0;
}

/* Pops the next message (not a pad unit) node n received on channel 0 into *m: 1, or 0 if none. */
static int recv_msg(pair_t *q, unsigned n, mlc_msg_t *m)
{
    while (mlc_host_recv(q->h[n], 0, m)) {
        if (m->type == 0 && m->kind == PAD_KIND) {
            mlc_msg_free(m);
            continue;
        }
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ measurements */

/* One measured point: a test (pingpong, pingping) in a mode at one message size. */
typedef struct {
    const char *test, *mode;
    unsigned cfg, pad, size, reps;
    uint64_t steps;                 /* pair steps run for the point */
    double seconds;                 /* wall-clock seconds of the point */
    double ow_mean, rt_mean;        /* steps */
    uint64_t rt_min, rt_max, ow_min;
} point_t;

/* Checks a received message against the one sent; 0 equal, else a message on stderr and -1. */
static int check_msg(const mlc_msg_t *got, const mlc_msg_t *want, const char *what, unsigned size)
{
    if (mlc_msg_eq(got, want))
        return 0;
    fprintf(stderr, "mlc_perf: %s of %u bytes arrived altered (type %u/%u kind %u/%u len %u/%u)\n", what, size,
            got->type, want->type, got->kind, want->kind, got->len, want->len);
    return -1;
}

/* A bound on the steps one transfer of `size` bytes may take (generous: single-packet, padding, both
 * directions busy). */
static uint64_t limit_for(const pair_t *q, unsigned size)
{
    return 200000u + (uint64_t)size * 2u * 64u * 4u / q->p[0].LINK_W;
}

/* pingpong (both = 0) or pingping (both = 1) of `size` bytes, `reps` times, on a fresh pair with
 * configuration cfg (padded to pad units when pad > 1); fills *pt. 0 on success, -1 on a failure
 * (message on stderr). */
static int measure_ping(mlc_params_t p, unsigned delay, unsigned cfg, unsigned pad, unsigned size, unsigned reps,
                        int both, rng_t *r, point_t *pt, uint64_t *steps)
{
    pair_t *q = pair_new(p, delay, cfg, pad);
    if (!q)
        return -1;
    int rc = -1;
    double ow_sum = 0, rt_sum = 0;
    pt->rt_min = UINT64_MAX;
    pt->rt_max = 0;
    pt->ow_min = UINT64_MAX;
    uint64_t lim = limit_for(q, size);
    for (unsigned k = 0; k < 100; k++) /* the configuration write and a few null frames */
        pair_step(q);
    for (unsigned rep = 0; rep < reps; rep++) {
        unsigned gap = rng_below(r, 64); /* a random phase against the null-frame exchange */
        for (unsigned k = 0; k < gap; k++)
            pair_step(q);
        mlc_msg_t msg[2], ack[2], got;
        memset(msg, 0, sizeof msg);
        memset(ack, 0, sizeof ack);
        int fail = 0;
        unsigned nsend = both ? 2 : 1;
        for (unsigned n = 0; n < nsend && !fail; n++)
            fail = make_msg(&msg[n], size, n, MLC_KIND_DATA, r) || send_msg(q, n, &msg[n]);
        uint64_t t0 = q->step + 1; /* the first word is written in the next step (the FIFO is empty) */
        uint64_t ow[2] = {0, 0}, rt[2] = {0, 0};
        unsigned acked = 0;
        uint64_t k = 0;
        while (!fail && acked < nsend) {
            if (k++ > lim) {
                fprintf(stderr, "mlc_perf: %s %s of %u bytes not finished after %" PRIu64 " steps\n",
                        pt->test, pt->mode, size, lim);
                fail = 1;
                break;
            }
            pair_step(q);
            for (unsigned n = 0; n < 2 && !fail; n++) {
                while (!fail && recv_msg(q, n, &got)) {
                    unsigned from = 1 - n;
                    if (got.kind == MLC_KIND_ACK) {
                        if (n < nsend && ow[n] && !rt[n]) { /* node n's message arrived: its acknowledgement */
                            fail = check_msg(&got, &ack[from], "acknowledgement", size) != 0;
                            rt[n] = q->last_read[n] - t0 + 1;
                            acked++;
                        } else {
                            fprintf(stderr, "mlc_perf: an acknowledgement nobody asked for arrived at node %u\n", n);
                            fail = 1;
                        }
                    } else if (from < nsend && !ow[from]) {
                        fail = check_msg(&got, &msg[from], "message", size) != 0;
                        ow[from] = q->last_read[n] - t0 + 1;
                        if (!fail)
                            fail = make_msg(&ack[n], ACK_BYTES, n, MLC_KIND_ACK, r) || send_msg(q, n, &ack[n]);
                    } else {
                        fprintf(stderr, "mlc_perf: node %u received a message that was not sent\n", n);
                        fail = 1;
                    }
                    mlc_msg_free(&got);
                }
            }
        }
        for (unsigned n = 0; n < 2; n++) {
            mlc_msg_free(&msg[n]);
            mlc_msg_free(&ack[n]);
        }
        if (fail)
            goto out;
        uint64_t rtw = rt[0], oww = ow[0];
        if (both) { /* the worse node */
            if (rt[1] > rtw)
                rtw = rt[1];
            if (ow[1] > oww)
                oww = ow[1];
        }
        ow_sum += (double)oww;
        rt_sum += (double)rtw;
        if (rtw < pt->rt_min)
            pt->rt_min = rtw;
        if (rtw > pt->rt_max)
            pt->rt_max = rtw;
        if (oww < pt->ow_min)
            pt->ow_min = oww;
    }
    pt->ow_mean = ow_sum / reps;
    pt->rt_mean = rt_sum / reps;
    pt->cfg = cfg;
    pt->pad = pad;
    pt->size = size;
    pt->reps = reps;
    rc = 0;
out:
    *steps += q->step;
    pt->steps = q->step;
    pair_free(q);
    return rc;
}

/* One efficiency measurement: its parameters (lw, turn, delay, periods) and what was measured. */
typedef struct {
    unsigned lw, turn, delay;
    unsigned periods;
    uint64_t steps;          /* pair steps run */
    double seconds;
    uint64_t dsteps, units, host_bytes;
    double formula, meas, meas_host;
    uint64_t data_frames, other_null, other_data;
} eff_t;

/* One-way efficiency (docs/mlc.md, Efficiency): node 0 streams 64 KB messages, node 1 sends nothing;
 * after a warm-up, a window of e->periods whole periods between two of node 0's full-frame starts;
 * units node 1 accepted in it (rx_pkts) and bytes its host read. 0 on success. */
static int measure_eff(mlc_params_t p, eff_t *e, rng_t *r, uint64_t *steps)
{
    p.LINK_W = e->lw;
    p.TURN = e->turn;
    pair_t *q = pair_new(p, e->delay, 0, 0);
    if (!q)
        return -1;
    int rc = -1;
    mlc_msg_t m;
    unsigned queued = 0;
    const unsigned warm = 20;
    uint64_t s0 = 0, u0 = 0, b0 = 0, nread = 0;
    uint64_t starts = 0;
    uint8_t prev_en[2] = {0, 0};
    uint64_t lim = 4000000;
    for (uint64_t k = 0; k < lim; k++) {
        while (mlc_host_tx_pending(q->h[0], 0) < 20000 && queued < 64) {
            if (make_msg(&m, 65536, 0, MLC_KIND_DATA, r) || send_msg(q, 0, &m)) {
                fprintf(stderr, "mlc_perf: out of memory\n");
                mlc_msg_free(&m);
                goto out;
            }
            mlc_msg_free(&m);
            queued++;
        }
        pair_step(q);
        if (q->o[1].h_rvalid)
            nread += 2;
        while (mlc_host_recv(q->h[1], 0, &m))
            mlc_msg_free(&m);
        for (unsigned n = 0; n < 2; n++) {
            int start = q->o[n].tx_en && !prev_en[n];
            prev_en[n] = q->o[n].tx_en;
            if (!start)
                continue;
            unsigned np = q->o[n].tx_d & 0xFu;
            if (n == 1) {
                if (starts > warm)
                    *(np ? &e->other_data : &e->other_null) += 1;
                continue;
            }
            if (np == 0)
                continue; /* node 0's null frames before its host has written a unit */
            starts++;
            if (starts > warm && np != MLC_MAX_NP) {
                fprintf(stderr, "mlc_perf: efficiency: a data frame of %u units in the steady state\n", np);
                goto out;
            }
            if (starts == warm) {
                s0 = q->step;
                u0 = mlc_counter(q->m[1], MLC_CTR_RX_PKTS);
                b0 = nread;
            } else if (starts == warm + e->periods) {
                uint32_t mask = q->p[1].CTR_W >= 32 ? 0xFFFFFFFFu : (1u << q->p[1].CTR_W) - 1u;
                e->dsteps = q->step - s0;
                e->units = (mlc_counter(q->m[1], MLC_CTR_RX_PKTS) - (uint32_t)u0) & mask;
                e->host_bytes = nread - b0;
                e->data_frames = starts - warm;
                unsigned G = 2 + e->delay + e->turn;
                double F15 = mlc_frame_symbols(&q->p[0], 15), F0 = mlc_frame_symbols(&q->p[0], 0);
                e->formula = 480.0 * 4.0 / (e->lw * (F15 + F0 + 2.0 * G));
                e->meas = (double)e->units * 128.0 / ((double)e->dsteps * e->lw);
                e->meas_host = (double)e->host_bytes * 8.0 / ((double)e->dsteps * e->lw);
                rc = 0;
                goto out;
            }
        }
    }
    fprintf(stderr, "mlc_perf: efficiency LINK_W %u TURN %u LINK_DELAY %u: window not reached\n", e->lw, e->turn,
            e->delay);
out:
    *steps += q->step;
    e->steps = q->step;
    pair_free(q);
    return rc;
}

/* ------------------------------------------------------------------ output */

/* Seconds of a monotonic-enough wall clock (C11 timespec_get). */
static double now_s(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One JSON object of a ping point (fractions of the raw link rate, paper units at 50 MHz, 4 bits). */
static void json_point(FILE *f, const point_t *pt, unsigned lw, int last)
{
    double thr = pt->size * 8.0 / (pt->rt_mean * lw);
    double ow = pt->size * 8.0 / (pt->ow_mean * lw);
    fprintf(f,
            "  {\"test\": \"%s\", \"mode\": \"%s\", \"cfg\": %u, \"pad_units\": %u, \"size\": %u, \"reps\": %u, "
            "\"steps\": %" PRIu64 ", \"seconds\": %.6f, "
            "\"oneway_steps_mean\": %.2f, \"oneway_steps_min\": %" PRIu64 ", \"rt_steps_mean\": %.2f, "
            "\"rt_steps_min\": %" PRIu64 ", \"rt_steps_max\": %" PRIu64 ", \"throughput_frac\": %.6f, "
            "\"oneway_frac\": %.6f, \"paper_rt_us\": %.3f, \"paper_oneway_us\": %.3f, \"paper_mbytes_s\": %.4f}%s\n",
            pt->test, pt->mode, pt->cfg, pt->pad, pt->size, pt->reps, pt->steps, pt->seconds, pt->ow_mean, pt->ow_min, pt->rt_mean, pt->rt_min,
            pt->rt_max, thr, ow, pt->rt_mean * STEP_NS / 1000.0, pt->ow_mean * STEP_NS / 1000.0,
            pt->size / (pt->rt_mean * STEP_NS * 1e-9) / 1e6, last ? "" : ",");
}

/* ------------------------------------------------------------------ main */

/* Prints the usage text to f. */
static void usage(FILE *f)
{
    fprintf(f,
            "usage: mlc_perf [--seed N] [--reps N] [--max-size BYTES] [--quick] [--json FILE] [--help]\n"
            "Measures the MLC on its C model (two ends, link model, host driver): ping-pong and ping-ping\n"
            "throughput against message size (Network Burst, pipelined), Network Burst against single-packet\n"
            "16/32/64 B transfer (as the MLC sends them and padded as in the paper), pipelined against\n"
            "message-based transfer (16 B .. FIFO_BYTES), one-way efficiency against docs/mlc.md's formula\n"
            "for several LINK_W/TURN/LINK_DELAY, and the model's steps per second. Defaults: LINK_W 4,\n"
            "FIFO_BYTES 2048, TURN 1, LINK_DELAY 0.\n"
            "  --seed N        seed of the random gaps and data (default 1; printed)\n"
            "  --reps N        round trips per point for messages up to 1 KB (default 12; larger ones fewer,\n"
            "                  at least 3)\n"
            "  --max-size B    largest ping-pong/ping-ping message, a power of two 32..65536 (default 65536)\n"
            "  --quick         a short smoke run: 2 reps, sizes up to 1 KB, two efficiency sets\n"
            "  --json FILE     write the results as JSON to FILE ('-': standard output)\n"
            "Exit status: 0 done, 1 a transfer failed (lost, altered or stuck message), 2 usage.\n");
}

/* Parses a decimal unsigned argument in [lo, hi] into *v; 0 on success, else a message and -1. */
static int parse_u(const char *opt, const char *s, unsigned long lo, unsigned long hi, unsigned long *v)
{
    char *end;
    errno = 0;
    unsigned long x = strtoul(s, &end, 10);
    if (!*s || *end || errno || s[0] == '-' || x < lo || x > hi) {
        fprintf(stderr, "mlc_perf: %s wants a number %lu..%lu, not '%s'\n", opt, lo, hi, s);
        return -1;
    }
    *v = x;
    return 0;
}

/* Reps of a point of `size` bytes: `reps` up to 1 KB, then fewer (at least 3). */
static unsigned reps_for(unsigned reps, unsigned size)
{
    unsigned r = size <= 1024 ? reps : (unsigned)((uint64_t)reps * 1024u / size);
    return r < 3 ? (reps < 3 ? reps : 3) : r;
}

int main(int argc, char **argv)
{
    unsigned long seed = 1, reps = 12, maxsize = 65536;
    int quick = 0;
    const char *json = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--quick")) {
            quick = 1;
        } else if ((!strcmp(a, "--seed") || !strcmp(a, "--reps") || !strcmp(a, "--max-size") || !strcmp(a, "--json")) &&
                   i + 1 >= argc) {
            fprintf(stderr, "mlc_perf: %s needs a value\n", a);
            return 2;
        } else if (!strcmp(a, "--seed")) {
            if (parse_u(a, argv[++i], 0, 0xFFFFFFFFul, &seed))
                return 2;
        } else if (!strcmp(a, "--reps")) {
            if (parse_u(a, argv[++i], 1, 1000, &reps))
                return 2;
        } else if (!strcmp(a, "--max-size")) {
            if (parse_u(a, argv[++i], 32, 65536, &maxsize))
                return 2;
            if (maxsize & (maxsize - 1)) {
                fprintf(stderr, "mlc_perf: --max-size wants a power of two, not %lu\n", maxsize);
                return 2;
            }
        } else if (!strcmp(a, "--json")) {
            json = argv[++i];
        } else {
            fprintf(stderr, "mlc_perf: bad argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (quick) {
        reps = 2;
        if (maxsize > 1024)
            maxsize = 1024;
    }
    mlc_params_t p = mlc_default_params();
    const unsigned delay = 0;
    rng_t r;
    rng_seed(&r, (uint64_t)seed * 0x9E3779B97F4A7C15ull + 3);
    printf("mlc_perf: seed %lu, LINK_W %u FIFO_BYTES %u TURN %u LINK_DELAY %u, reps %lu, sizes 16..%lu\n", seed,
           p.LINK_W, p.FIFO_BYTES, p.TURN, delay, reps, maxsize);
    fflush(stdout);

    /* the points: test, mode, cfg, pad units, largest size */
    struct {
        const char *test, *mode;
        unsigned cfg, pad;
        unsigned long max;
        int both;
    } plan[] = {
        {"pingpong", "burst", 0, 0, maxsize, 0},
        {"pingping", "burst", 0, 0, maxsize, 1},
        {"pingpong", "sp16", MLC_CFG_SP(1), 0, maxsize < 8192 ? maxsize : 8192, 0},
        {"pingpong", "sp32", MLC_CFG_SP(2), 0, maxsize < 8192 ? maxsize : 8192, 0},
        {"pingpong", "sp64", MLC_CFG_SP(3), 0, maxsize < 8192 ? maxsize : 8192, 0},
        {"pingpong", "sp16-padded", MLC_CFG_SP(1), 1, maxsize < 8192 ? maxsize : 8192, 0},
        {"pingpong", "sp32-padded", MLC_CFG_SP(2), 2, maxsize < 8192 ? maxsize : 8192, 0},
        {"pingpong", "sp64-padded", MLC_CFG_SP(3), 4, maxsize < 8192 ? maxsize : 8192, 0},
        {"pingpong", "burst-msg", MLC_CFG_MSG, 0, maxsize < p.FIFO_BYTES ? maxsize : p.FIFO_BYTES, 0},
    };
    const unsigned nplan = sizeof plan / sizeof plan[0];
    point_t *pts = calloc(nplan * 13u, sizeof *pts);
    if (!pts) {
        fprintf(stderr, "mlc_perf: out of memory\n");
        return 1;
    }
    unsigned npts = 0;
    uint64_t model_steps = 0; /* steps of every pair run (two MLCs, link model, two host drivers) */
    double t_start = now_s();
    printf("%-9s %-12s %6s %5s %12s %12s %9s %9s\n", "test", "mode", "bytes", "reps", "one-way", "round-trip",
           "thr/link", "MB/s@50");
    for (unsigned i = 0; i < nplan; i++)
        for (unsigned long s = 16; s <= plan[i].max; s *= 2) {
            point_t *pt = &pts[npts];
            pt->test = plan[i].test;
            pt->mode = plan[i].mode;
            double t0 = now_s();
            if (measure_ping(p, delay, plan[i].cfg, plan[i].pad, (unsigned)s, reps_for((unsigned)reps, (unsigned)s),
                             plan[i].both, &r, pt, &model_steps)) {
                free(pts);
                return 1;
            }
            pt->seconds = now_s() - t0;
            printf("%-9s %-12s %6lu %5u %12.1f %12.1f %8.2f%% %9.3f\n", pt->test, pt->mode, s, pt->reps, pt->ow_mean,
                   pt->rt_mean, 100.0 * s * 8.0 / (pt->rt_mean * p.LINK_W), s / (pt->rt_mean * STEP_NS * 1e-3));
            fflush(stdout);
            npts++;
        }
    double t_ping = now_s() - t_start;

    eff_t effs[] = {
        {.lw = 4, .turn = 1, .delay = 0, .periods = 200}, {.lw = 4, .turn = 0, .delay = 0, .periods = 200},
        {.lw = 4, .turn = 1, .delay = 1, .periods = 200}, {.lw = 4, .turn = 2, .delay = 0, .periods = 200},
        {.lw = 4, .turn = 1, .delay = 3, .periods = 200}, {.lw = 8, .turn = 0, .delay = 0, .periods = 200},
        {.lw = 8, .turn = 1, .delay = 0, .periods = 200}, {.lw = 8, .turn = 0, .delay = 3, .periods = 200},
    };
    unsigned neff = quick ? 2 : sizeof effs / sizeof effs[0];
    printf("efficiency (one direction, Network Burst, the other end null frames):\n");
    for (unsigned i = 0; i < neff; i++) {
        if (quick)
            effs[i].periods = 40;
        double t0 = now_s();
        if (measure_eff(p, &effs[i], &r, &model_steps)) {
            free(pts);
            return 1;
        }
        effs[i].seconds = now_s() - t0;
        eff_t *e = &effs[i];
        printf("  LINK_W %u TURN %u LINK_DELAY %u: %u periods in %" PRIu64 " steps (%.2f each), %" PRIu64
               " units accepted: %.4f %% (formula %.4f %%), host read %.4f %%\n",
               e->lw, e->turn, e->delay, e->periods, e->dsteps, (double)e->dsteps / e->periods, e->units,
               100 * e->meas, 100 * e->formula, 100 * e->meas_host);
    }
    double t_all = now_s() - t_start;

    if (json) {
        FILE *f = strcmp(json, "-") ? fopen(json, "w") : stdout;
        if (!f) {
            fprintf(stderr, "mlc_perf: cannot write %s: %s\n", json, strerror(errno));
            free(pts);
            return 2;
        }
        fprintf(f, "{\"tool\": \"mlc_perf\", \"seed\": %lu, \"reps\": %lu, \"quick\": %d,\n", seed, reps, quick);
        fprintf(f,
                " \"params\": {\"LINK_W\": %u, \"FIFO_BYTES\": %u, \"TURN\": %u, \"TIMEOUT\": %u, \"CTR_W\": %u, "
                "\"LINK_DELAY\": %u},\n",
                p.LINK_W, p.FIFO_BYTES, p.TURN, p.TIMEOUT, p.CTR_W, delay);
        fprintf(f, " \"paper_units\": {\"step_ns\": %.1f, \"link_mbit_s\": %.1f},\n", STEP_NS, PAPER_MBPS);
        fprintf(f, " \"seconds\": {\"ping\": %.3f, \"all\": %.3f},\n", t_ping, t_all);
        fprintf(f, " \"model_speed\": {\"steps\": %" PRIu64 ", \"seconds\": %.3f, \"steps_per_s\": %.1f},\n",
                model_steps, t_all, model_steps / t_all);
        fprintf(f, " \"points\": [\n");
        for (unsigned i = 0; i < npts; i++)
            json_point(f, &pts[i], p.LINK_W, i + 1 == npts);
        fprintf(f, " ],\n \"efficiency\": [\n");
        for (unsigned i = 0; i < neff; i++) {
            const eff_t *e = &effs[i];
            fprintf(f,
                    "  {\"LINK_W\": %u, \"TURN\": %u, \"LINK_DELAY\": %u, \"periods\": %u, \"window_steps\": %" PRIu64
                    ", \"steps\": %" PRIu64 ", \"seconds\": %.6f, \"period_steps\": %.4f, \"units\": %" PRIu64 ", \"host_bytes\": %" PRIu64
                    ", \"F15\": %u, \"F0\": %u, \"G\": %u, \"measured\": %.8f, \"measured_host\": %.8f, "
                    "\"formula\": %.8f, \"other_end_null_frames\": %" PRIu64 ", \"other_end_data_frames\": %" PRIu64
                    "}%s\n",
                    e->lw, e->turn, e->delay, e->periods, e->dsteps, e->steps, e->seconds, (double)e->dsteps / e->periods,
                    e->units, e->host_bytes, (8 + 32 * 15) * 4 / e->lw, 8 * 4 / e->lw, 2 + e->delay + e->turn, e->meas,
                    e->meas_host, e->formula, e->other_null, e->other_data, i + 1 == neff ? "" : ",");
        }
        fprintf(f, " ]}\n");
        if (f != stdout && fclose(f)) {
            fprintf(stderr, "mlc_perf: cannot write %s\n", json);
            free(pts);
            return 2;
        }
    }
    printf("mlc_perf: %u points, %u efficiency sets, %" PRIu64 " pair steps in %.1f s (%.0f steps/s), seed %lu\n",
           npts, neff, model_steps, t_all, model_steps / t_all, seed);
    free(pts);
    return 0;
}

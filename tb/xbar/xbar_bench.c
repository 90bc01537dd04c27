/* sanfab — crossbar bench: the Verilated RTL and the C model in lockstep, with hosts on every
 * port, an end-to-end scoreboard per source, and checks of the documented timing rules that never
 * consult the model (they hold in `--mode rtl` too). `xbar_bench --help` lists options and tests.
 *
 * This file, the top of the bench: one run (the lockstep loop), speed, the command line. Below it,
 * each using only the files under it: xbar_bench_scenarios (directed scenarios) over xbar_bench_traffic (the
 * hosts' traffic) and xbar_bench_check (the model-free checks), all over xbar_bench_base (the documented rules,
 * the test table, the failure record). docs/verification.md describes it for users.
 */
#define _POSIX_C_SOURCE 200809L
#include "xbar_rtl.h"
#include "xbar_bench_scenarios.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ================================================================ one run */

typedef struct {
    const test_desc_t *d;
    uint64_t cycles;
} run_cfg_t;

static void compare_lockstep(result_t *res, uint64_t cyc, unsigned n, const xbar_out_t *om, const xbar_out_t *orr)
{
    char b1[24], b2[24];
    for (unsigned p = 0; p < n; p++)
        if (om->tx[p] != orr->tx[p]) {
            fail(res, cyc, "LOCKSTEP MISMATCH cycle %" PRIu64 " port %u signal tx expected %s actual %s", cyc, p,
                 ch_name(om->tx[p], b1), ch_name(orr->tx[p], b2));
            return;
        }
    for (unsigned p = 0; p < n; p++)
        if (om->stat_occ[p] != orr->stat_occ[p]) {
            fail(res, cyc, "LOCKSTEP MISMATCH cycle %" PRIu64 " port %u signal stat_occ expected %u actual %u", cyc, p,
                 om->stat_occ[p], orr->stat_occ[p]);
            return;
        }
    if (om->reg_rvalid != orr->reg_rvalid)
        fail(res, cyc, "LOCKSTEP MISMATCH cycle %" PRIu64 " port - signal reg_rvalid expected %u actual %u", cyc,
             om->reg_rvalid, orr->reg_rvalid);
    else if (om->reg_rdata != orr->reg_rdata)
        fail(res, cyc, "LOCKSTEP MISMATCH cycle %" PRIu64 " port - signal reg_rdata expected 0x%08x actual 0x%08x",
             cyc, om->reg_rdata, orr->reg_rdata);
}

/* The expectations a test's table entry names, at the end of a run that passed so far. */
static void check_test_end(const test_desc_t *d, const xbar_params_t *P, const chk_t *k, const traffic_t *t,
                           const sb_t *sb, uint64_t max_count, uint64_t cyc, result_t *res)
{
    const uint64_t o_perm_body = t->o->perm_body;
    const unsigned n = P->NPORTS;
    const unsigned ck = d->checks;
    if (!res->failed && (ck & CK_PERM_RATE) && k->window) {
        /* a packet of m body bytes is L = m + 3 characters on the link (route, body, CRC, GAP) and leaves
         * as m + 1 data characters and a GAP; its input spends L + D cycles on it, or L + D + 1 when a STOP/GO
         * of its own took a transmit slot from it (docs/xbar.md, Throughput): L/(L+D+1) .. L/(L+D) */
        const double m = o_perm_body ? (double)o_perm_body : 32.0;
        const double L = m + 3.0, D = P->ROUTE_DELAY, W = (double)k->window * n;
        res->in_util = (double)k->in_chars / W;
        res->out_data = (double)k->out_data / W;
        const double in_hi = W * L / (L + D), in_lo = W * L / (L + D + 1), out_want = (double)k->in_chars * (m + 1) / L;
        const double slop = (double)n * (L + D + 2), buf = (double)n * (P->SLACK_DEPTH + L + D + 2);
        if (P->ROUTE_DELAY == 0 && res->stops != 0)
            fail(res, cyc, "CHECK permutation: the switch sent %" PRIu64 " STOPs (it must keep up)", res->stops);
        else if (P->ROUTE_DELAY == 0 && k->in_chars != k->window * n)
            fail(res, cyc, "CHECK permutation: inputs carried %" PRIu64 " characters in %" PRIu64 " cycles x %u ports, "
                 "expected every cycle (1.0 per cycle)", k->in_chars, k->window, n);
        else if ((P->GO_THRESH >= 6 + 2 * P->LINK_DELAY && (double)k->in_chars < in_lo - buf) ||
                 (double)k->in_chars > in_hi + buf)
            /* (below GO_THRESH = 6 + 2 LINK_DELAY the input idles while its GO travels: no lower bound) */
            fail(res, cyc, "CHECK permutation: inputs carried %" PRIu64 " characters, expected %.0f .. %.0f (L/(L+D+1) "
                 "= %.4f .. L/(L+D) = %.4f per cycle per port) within %.0f (%" PRIu64 " STOP/GO sent)", k->in_chars,
                 in_lo, in_hi, L / (L + D + 1), L / (L + D), buf, k->flow_out);
        else if ((double)k->out_data < out_want - (P->ROUTE_DELAY ? buf : slop) ||
                 (double)k->out_data > out_want + (P->ROUTE_DELAY ? buf : slop))
            fail(res, cyc, "CHECK permutation: outputs sent %" PRIu64 " data characters, expected %.0f +- %.0f (%.0f of "
                 "every %.0f characters in)", k->out_data, out_want, P->ROUTE_DELAY ? buf : slop, m + 1, L);
    }
    if (!res->failed && (ck & CK_TIMEOUT_EXACT) && res->scen_done < 2 && n >= 3)
        fail(res, cyc, "CHECK timeout: only %" PRIu64 " blocked rounds ran (run more cycles)", res->scen_done);
    if (!res->failed && (ck & CK_LATENCY_EXACT) && k->lat_samples == 0)
        fail(res, cyc, "CHECK latency: no packet measured");
    /* round robin serves a waiting input within N - 1 packets of L + ROUTE_DELAY + a few cycles */
    const uint64_t rr_bound = 2ull * (n - 1) * (40 + P->ROUTE_DELAY + P->LINK_DELAY);
    if (!res->failed && (ck & CK_NO_TIMEOUT) && P->TIMEOUT > rr_bound && res->timeouts)
        fail(res, cyc, "CHECK hotspot: %" PRIu64 " packets timed out although round robin bounds every wait to %u "
             "packets (TIMEOUT %u)", res->timeouts, n - 1, P->TIMEOUT);
    if (!res->failed && (ck & CK_HANDOVER) && k->handovers == 0 && n >= 3 && P->ROUTE_DELAY + P->LINK_DELAY < 30 &&
        (!P->TIMEOUT || P->TIMEOUT > rr_bound))
        fail(res, cyc, "CHECK hotspot: no contended handover was measured");
    if (!res->failed && (ck & CK_SOME_TIMEOUT) && P->TIMEOUT && P->COUNTERS && res->timeouts == 0)
        fail(res, cyc, "CHECK timeout: no packet was drained although output 0 was stopped");
    if (!res->failed && (ck & CK_DAMAGE_SEEN) && sb->damaged[0] == 0)
        fail(res, cyc, "CHECK overflow: no damaged packet was seen although host 0 ignored STOP");
    if (!res->failed && (ck & CK_SOME_STOP) && res->stops == 0)
        fail(res, cyc, "CHECK stopstorm: the switch never sent STOP");
    if (!res->failed && (ck & CK_COVER_ILLEGAL)) {
        for (unsigned c = 0; c < 251 && !res->failed; c++)
            if (!t->code_in[c] || !t->code_between[c])
                fail(res, cyc, "CHECK stimulus: illegal code 0x%03x was never sent %s (run more cycles)", 0x105 + c,
                     !t->code_in[c] ? "inside a packet" : "between packets");
    }
    if (!res->failed && (ck & CK_COVER_PAIRS)) {
        for (unsigned a = 0; a < SB_NFAULTS && !res->failed; a++)
            for (unsigned b = a; b < SB_NFAULTS && !res->failed; b++)
                if (!sb->pair[a][b])
                    fail(res, cyc, "CHECK stimulus: no packet had faults 0x%02x (run more cycles)", 1u << a | 1u << b);
    }
    if (!res->failed && (ck & CK_COVER_ROUTES)) {
        for (unsigned b = 0; b < 256 && !res->failed; b++)
            if (!t->route_sent[b])
                fail(res, cyc, "CHECK stimulus: first byte 0x%02x was never sent (run more cycles)", b);
    }
    if (!res->failed && (ck & CK_CTR_BIG) && P->COUNTERS) {
        /* (with COUNTERS = 0 there is no counter to pass it: every read answers 0) */
        uint64_t need = P->CTR_WIDTH < 17 ? (1ull << P->CTR_WIDTH) : 65536;
        if (max_count <= need)
            fail(res, cyc, "CHECK stimulus: the byte counters reached only %" PRIu64 ", not past %" PRIu64
                 " (run more cycles)", max_count, need);
    }
}

/* The counter preset (docs/verification.md, "Counters at their width"): right after a reset, every counter
 * gets 2^CTR_WIDTH - d (d small and random, drawn per slot: up to 256 for the byte counters, 16 for the
 * packet counters, 2 for the rare ones), in the model (xbar_ctr_preset) and in the RTL's counter RAM
 * (xbar_rtl_ctr_preset, a Verilator backdoor), so a few events carry through every bit of the counter.
 * Slot s is preset right after step s + 3, the step its first flush writes it (its RAM word then holds the
 * flushed count and is not in flight), in bench cycle s + 2; every later flush of the slot includes it. */
static void preset_draw(uint32_t *pre, unsigned ns, unsigned width, uint64_t seed)
{
    rng_t g;
    rng_seed(&g, seed);
    const uint64_t wrap = 1ull << width;
    for (unsigned s = 0; s < ns; s++) {
        unsigned c = s % XBAR_NCTR;
        unsigned span = c == XBAR_CTR_RX_BYTES || c == XBAR_CTR_TX_BYTES ? 256
                      : c == XBAR_CTR_RX_PKTS || c == XBAR_CTR_TX_PKTS ? 16 : 2;
        uint64_t d = 1 + rng_below(&g, span);
        pre[s] = (uint32_t)((wrap - d) & (wrap - 1));
    }
}

/* Runs one test from reset. w: the waves to write (its vcd, start and cycles: a window of the run's
 * cycles, bench_waves_at()), or NULL for none. A test with `resets` runs three phases on the same
 * switch: traffic then a reset in mid-flight; traffic, drain, read-out, accounting, then a reset of the
 * drained switch; the same again. Each phase starts the bench's hosts, scoreboard and checks afresh
 * (docs/xbar.md, "Reset": a reset loses everything in flight and every count); the bench's cycles
 * count on across phases. */
static result_t run(const opts_t *o, const test_desc_t *d, const bench_waves_t *w)
{
    result_t res;
    memset(&res, 0, sizeof res);
    const unsigned n = o->p.NPORTS;
    const xbar_params_t *P = &o->p;
    xbar_t *m = NULL;
    xbar_rtl_t *r = NULL;
    if (o->cl.mode != MODE_RTL)
        m = xbar_new(&o->p);
    if (o->cl.mode != MODE_MODEL)
        r = xbar_rtl_new(o->cl.nplus, o->cl.plus);
    host_t *host = calloc(XBAR_MAX_PORTS, sizeof *host); /* ~64 KiB each: not on the stack */
    chk_t *k = calloc(1, sizeof *k);
    traffic_t *t = calloc(1, sizeof *t);
    scen_t *sc = calloc(1, sizeof *sc);
    sb_t sb;
    sb_init(&sb, n, o->cl.quiet ? NULL : stderr);
    if ((o->cl.mode != MODE_RTL && !m) || (o->cl.mode != MODE_MODEL && !r) || !host || !k || !t || !sc) {
        fail(&res, 0, "ERROR cannot create the model, the RTL or the bench state");
        goto out;
    }
    const unsigned nphases = d->resets ? 3 : 1;
    const int preset = P->COUNTERS && (d->ctr_preset || o->ctr_preset);
    const unsigned ns = n * XBAR_NCTR;
    const uint64_t cmask = P->CTR_WIDTH >= 32 ? 0xFFFFFFFFull : (1ull << P->CTR_WIDTH) - 1;
    const uint64_t measure_from = o->cl.cycles / 5; /* rates are measured after the start-up */
    const uint64_t drain_limit = (uint64_t)(P->TIMEOUT ? P->TIMEOUT : 5000) * 4 + 20000;
    /* the final read-out covers every address of the port (256, or 512 above 16 ports: XBAR_ADDR_BITS):
     * present counters in the flusher's order, every second slot (a read can follow its answer one step
     * later, and the slot two ahead is written then), so it takes about 2 * NS steps; absent addresses last */
    const unsigned naddr = 1u << XBAR_ADDR_BITS(n);
    uint16_t rd_order[1u << XBAR_ADDR_BITS(XBAR_MAX_PORTS)];
    {
        unsigned no = 0;
        for (unsigned par = 0; par < 2; par++)
            for (unsigned sl = par; sl < n * XBAR_NCTR; sl += 2)
                rd_order[no++] = (uint16_t)((sl / XBAR_NCTR) << 4 | (sl % XBAR_NCTR));
        for (unsigned a = 0; a < naddr; a++)
            if ((a >> 4) >= n || (a & 15u) >= XBAR_NCTR)
                rd_order[no++] = (uint16_t)a;
    }
    uint64_t base = 0; /* bench cycles of the phases before this one (each phase counts from its reset) */
    double t0 = now_s();
    for (unsigned ph = 0; ph < nphases && !res.failed; ph++) {
        /* a phase's traffic: all of --cycles, or a third of it each with resets; the first phase of a
         * reset test ends in mid-flight (no drain) */
        const uint64_t cycles = nphases == 1 ? o->cl.cycles : o->cl.cycles / nphases;
        const int cut_short = nphases > 1 && ph == 0;
        if (ph) {
            /* the switch: reset (the model at step 0, the RTL through three reset edges) */
            if (m)
                xbar_reset(m);
            if (r)
                xbar_rtl_reset(r);
            sb_free(&sb);
            sb_init(&sb, n, o->cl.quiet ? NULL : stderr);
            memset(host, 0, XBAR_MAX_PORTS * sizeof *host);
            memset(t, 0, sizeof *t);
            memset(sc, 0, sizeof *sc);
        }
        t->o = o;
        t->d = d;
        t->n = n;
        rng_seed(&t->rng, (o->cl.seed + ph * 0x9E3779B97F4A7C15ull) ^ (0x5DEECE66Dull * (uint64_t)(d - xbar_tests + 1)));
        traffic_setup(t, host, &sb);
        chk_init(k, P, d);
        uint32_t pre[XBAR_MAX_PORTS * XBAR_NCTR];
        memset(pre, 0, sizeof pre);
        if (preset)
            preset_draw(pre, ns, P->CTR_WIDTH, o->cl.seed * 0x2545F4914F6CDD1Dull + ph + 1);

        xbar_in_t in;
        xbar_out_t om, orr, *out;
        memset(&in, 0, sizeof in);
        memset(&om, 0, sizeof om);
        memset(&orr, 0, sizeof orr);
        for (unsigned p = 0; p < XBAR_MAX_PORTS; p++)
            om.tx[p] = orr.tx[p] = CH_IDLE;
        out = o->cl.mode == MODE_RTL ? &orr : &om;

        uint64_t quiet_cycles = 0, cyc = 0, read_at = 0, max_count = 0;
        int reading = 0; /* final counter read-out in progress */
        unsigned rd_idx = 0;
        uint32_t ctr_vals[XBAR_MAX_PORTS][XBAR_NCTR];
        memset(ctr_vals, 0, sizeof ctr_vals);
        rng_t reg_rng;
        rng_seed(&reg_rng, o->cl.seed * 31 + 7 + ph);

        for (cyc = 0;; cyc++) {
            int generate = cyc < cycles;
            if (cut_short && !generate)
                break;
            if (!generate && !reading) {
                /* drained: no host has anything to send or holds STOP, the switch sent nothing and its
                 * buffers are empty */
                int busy = 0;
                for (unsigned p = 0; p < n; p++)
                    if (host_busy(&host[p]) || host[p].announced_stop || out->tx[p] != CH_IDLE || out->stat_occ[p])
                        busy = 1;
                quiet_cycles = busy ? 0 : quiet_cycles + 1;
                if (quiet_cycles > 64 + (uint64_t)P->LINK_DELAY * 2 && !k->rd_out) {
                    reading = 1;
                } else if (cyc > cycles + drain_limit) {
                    fail(&res, cyc, "CHECK traffic did not drain within %" PRIu64 " cycles after the end", drain_limit);
                    break;
                }
            }
            if (r && w && w->vcd) {
                int wa = bench_waves_at(w, base + cyc, 0);
                if (wa > 0 && xbar_rtl_trace_open(r, w->vcd, base + cyc)) {
                    fail(&res, cyc, "ERROR cannot write the VCD %s", w->vcd);
                    break;
                }
                if (wa < 0)
                    res.waves = xbar_rtl_trace_close(r, res.waves_range);
            }

            if (d->scen == SCEN_LATENCY)
                scen_latency(sc, t, host, &sb, k, cyc, generate);
            traffic_cycle(t, host, &sb, cyc, generate);
            if (d->scen == SCEN_BLOCKED)
                scen_blocked(sc, t, host, &sb, &res, cyc, &in, out, generate, 0);

            for (unsigned p = 0; p < n; p++)
                in.rx[p] = host_step(&host[p], out->tx[p]);

            /* register port: random reads during traffic (any address), every address at the end */
            in.reg_rd = 0;
            if (reading) {
                if (!k->rd_out && cyc > read_at) {
                    in.reg_rd = 1;
                    in.reg_addr = rd_order[rd_idx];
                }
            } else if (rng_below(&reg_rng, k->rd_out ? 64 : 16) == 0) {
                /* also while a read is outstanding, and in the step it is answered: ignored */
                in.reg_rd = 1;
                in.reg_addr = (uint16_t)(rng_pct(&reg_rng, 70) ? (rng_below(&reg_rng, n) << 4) | rng_below(&reg_rng, 16)
                                                               : rng_below(&reg_rng, naddr));
            }
            if (in.reg_rd)
                chk_read_issued(k, cyc, in.reg_addr);

            if (o->record && base + cyc < o->record_max)
                o->record[base + cyc] = in;
            if (m)
                xbar_step(m, &in, &om);
            if (r) {
                xbar_rtl_step(r, &in, &orr);
                if (xbar_rtl_stopped(r)) {
                    fail(&res, cyc, "ASSERTION the RTL stopped itself in cycle %" PRIu64 " (message above)", cyc);
                    break;
                }
            }
            if (preset && cyc >= 2 && cyc < 2 + (uint64_t)ns) {
                /* step cyc + 1 flushed slot cyc - 2 for the first time: preset it now */
                unsigned s = (unsigned)cyc - 2;
                if (m)
                    xbar_ctr_preset(m, s / XBAR_NCTR, s % XBAR_NCTR, pre[s]);
                if (r)
                    xbar_rtl_ctr_preset(r, s, pre[s]);
                chk_preset(k, s, pre[s], cyc + 1);
            }
            if (m && r)
                compare_lockstep(&res, cyc, n, &om, &orr);
            if (res.failed)
                break;
            int had_read = k->rd_out;
            unsigned read_addr = k->rd_addr;
            check_cycle(k, &res, cyc, &in, out, generate && cyc >= measure_from);
            if (d->scen == SCEN_BLOCKED)
                scen_blocked(sc, t, host, &sb, &res, cyc, &in, out, generate, 1);
            if (res.failed)
                break;
            if (had_read && !k->rd_out) {
                read_at = cyc;
                if (reading) {
                    if (addr_present(k, read_addr))
                        ctr_vals[read_addr >> 4][read_addr & 15u] = out->reg_rdata;
                    if (++rd_idx == naddr) {
                        cyc++;
                        break;
                    }
                }
            }
            for (unsigned p = 0; p < n; p++)
                if (is_illegal_char(out->tx[p]))
                    sb_error(&sb, "host %u received the illegal character 0x%03x in cycle %" PRIu64, p, out->tx[p],
                             cyc);
            if (sb.errors) {
                fail(&res, cyc, "SCOREBOARD %s", sb.first_error);
                break;
            }
        }
        res.cycles_run += cyc;
        res.stops += k->stops;
        res.handovers += k->handovers;
        res.rr_checked += k->rr_checked;
        res.reads_checked += k->reads_checked;
        res.resumes += k->resumes;
        res.lat_samples += k->lat_samples;
        res.latency = k->lat_worst > res.latency ? k->lat_worst : res.latency;

        if (!res.failed && !cut_short) {
            sb_port_counters_t ctr[XBAR_MAX_PORTS];
            memset(ctr, 0, sizeof ctr);
            uint64_t wrapped = 0;
            for (unsigned p = 0; p < n; p++) {
                /* the accounting compares the events: each value read less its preset, mod 2^CTR_WIDTH */
                uint64_t v[XBAR_NCTR];
                for (unsigned c = 0; c < XBAR_NCTR; c++)
                    v[c] = ((uint64_t)ctr_vals[p][c] - pre[p * XBAR_NCTR + c]) & cmask;
                ctr[p].rx_pkts = v[XBAR_CTR_RX_PKTS];
                ctr[p].rx_bytes = v[XBAR_CTR_RX_BYTES];
                ctr[p].tx_pkts = v[XBAR_CTR_TX_PKTS];
                ctr[p].tx_bytes = v[XBAR_CTR_TX_BYTES];
                ctr[p].crc_err = v[XBAR_CTR_CRC_ERR];
                ctr[p].drop_route = v[XBAR_CTR_DROP_ROUTE];
                /* the timeouts themselves (the per-source bound), unwrapped from every read of the run; the same
                 * modulo 2^CTR_WIDTH as the value read last */
                ctr[p].drop_timeout = k->tmo_total[p];
                if ((k->tmo_total[p] & cmask) != v[XBAR_CTR_DROP_TIMEOUT])
                    fail(&res, cyc, "CHECK register port: drop_timeout of port %u unwrapped to %" PRIu64 ", but the last "
                         "read less its preset is %" PRIu64 " (mod 2^%u)", p, k->tmo_total[p],
                         v[XBAR_CTR_DROP_TIMEOUT], P->CTR_WIDTH);
                ctr[p].malformed = v[XBAR_CTR_MALFORMED];
                ctr[p].overflow = v[XBAR_CTR_OVERFLOW];
                res.timeouts += ctr[p].drop_timeout;
                max_count = host[p].sent_data > max_count ? host[p].sent_data : max_count;
                /* the byte counter went past 2^CTR_WIDTH from its preset */
                wrapped += preset && (uint64_t)pre[p * XBAR_NCTR + XBAR_CTR_RX_BYTES] + host[p].sent_data > cmask;
            }
            if (sb_finish_single(&sb, host, P->COUNTERS ? ctr : NULL, P->CTR_WIDTH, P->TIMEOUT != 0))
                fail(&res, cyc, "SCOREBOARD end-of-run accounting%s: %s", ph ? " after a reset" : "", sb.first_error);
            if (!res.failed && (d->checks & CK_CTR_WRAP) && preset && wrapped < n)
                fail(&res, cyc, "CHECK stimulus: the preset byte counters wrapped on %" PRIu64 " of %u ports only "
                     "(run more cycles)", wrapped, n);
        }
        res.made += sb_made_total(&sb);
        res.delivered += sb_delivered_total(&sb);
        check_test_end(d, P, k, t, &sb, max_count, cyc, &res);
        if (res.failed && ph) {
            /* the cycle counts from the first phase's start (the replay and the waves see one run) */
            res.fail_cycle += base;
            char why[sizeof res.why];
            snprintf(why, sizeof why, "%.600s (phase %u of %u, after %u reset%s, its cycle %" PRIu64 ")", res.why, ph + 1,
                     nphases, ph, ph > 1 ? "s" : "", res.fail_cycle - base);
            memcpy(res.why, why, sizeof why);
        }
        base += cyc;
    }
    res.seconds = now_s() - t0;

out:
    sb_free(&sb);
    free(sc);
    free(t);
    free(k);
    free(host);
    xbar_free(m);
    if (r && w && w->vcd && !res.waves)
        res.waves = xbar_rtl_trace_close(r, res.waves_range);
    xbar_rtl_free(r);
    return res;
}

/* ================================================================ JSON and speed */

/* The same stimulus through the model alone and the RTL alone. */
static int speed_run(const opts_t *o, FILE *jf)
{
    const test_desc_t *d = test_find("saturate");
    opts_t so = *o;
    so.cl.mode = MODE_LOCKSTEP;
    so.record_max = o->cl.cycles + 1000000; /* the drain and read-out follow the traffic */
    so.record = malloc(so.record_max * sizeof *so.record);
    if (!so.record) {
        fprintf(stderr, "xbar_bench: out of memory for %" PRIu64 " recorded cycles\n", so.record_max);
        return 1;
    }
    result_t r = run(&so, d, NULL);
    if (r.failed) {
        printf("%s\nFAIL saturate (speed run) seed %" PRIu64 "\n", r.why, o->cl.seed);
        free(so.record);
        return 1;
    }
    uint64_t n = r.cycles_run < so.record_max ? r.cycles_run : so.record_max;
    xbar_out_t out;
    xbar_t *m = xbar_new(&o->p);
    double t0 = now_s();
    uint32_t sink = 0;
    for (uint64_t c = 0; c < n; c++) {
        xbar_step(m, &so.record[c], &out);
        sink += out.tx[0];
    }
    double tm = now_s() - t0;
    xbar_free(m);
    xbar_rtl_t *rr = xbar_rtl_new(o->cl.nplus, o->cl.plus);
    t0 = now_s();
    for (uint64_t c = 0; c < n; c++) {
        xbar_rtl_step(rr, &so.record[c], &out);
        sink += out.tx[0];
    }
    double tr = now_s() - t0;
    xbar_rtl_free(rr);
    free(so.record);
    const char *what[3] = {"model", "rtl", "lockstep"};
    double secs[3] = {tm, tr, r.seconds};
    for (int k = 0; k < 3; k++) {
        printf("speed %-8s %10" PRIu64 " cycles %8.3f s %12.0f cycles/s\n", what[k], n, secs[k], (double)n / secs[k]);
        if (jf) {
            json_head(jf, &o->p, what[k], "saturate");
            fprintf(jf,
                    ", \"seed\": %" PRIu64 ", \"cycles\": %" PRIu64 ", \"seconds\": %.6f, \"cycles_per_s\": %.1f, "
                    "\"packets\": %" PRIu64 ", \"includes\": \"%s\"}\n",
                    o->cl.seed, n, secs[k], (double)n / secs[k], r.made,
                    k == 2 ? "hosts, scoreboard, checks, model and RTL" : "step calls only, recorded stimulus");
        }
    }
    printf("speed model/rtl ratio %.2f (sink %u)\n", tr / tm, (unsigned)(sink & 1u));
    return 0;
}

/* ================================================================ command line */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: xbar_bench [options] [+verilator+...]\n"
            "Runs the crossbar RTL and its C model in lockstep (every output, every cycle) with a host on\n"
            "every port, an end-to-end scoreboard per source and independent checks of the documented\n"
            "timing rules; or either one alone (the scoreboard and the checks still apply).\n\n"
            "  --test NAME|all     test to run (default all); tests:\n");
    for (unsigned t = 0; t < xbar_ntests; t++)
        fprintf(f, "      %-12s %s\n", xbar_tests[t].name, xbar_tests[t].what);
    fprintf(f,
            "  --cycles N          traffic cycles (default 100000); under --test all 'random' gets N, the\n"
            "                      others N/10 (with a per-test minimum)\n"
            "  --seed N            random seed (default 1); printed, so a failure can be replayed\n"
            "  --mode M            lockstep (default), model, rtl\n"
            "  --json FILE         append one JSON record per test (cycles, seconds, figures) to FILE\n"
            "  --params            print the parameters built into the RTL and exit\n"
            "  --speed             time the model alone, the RTL alone and the lockstep run on the same\n"
            "                      recorded saturating random traffic (--cycles of it)\n"
            "  --ctr-preset        preset every counter near its wrap after reset in every test (the tests\n"
            "                      random, counters, pairs and reset always do): 2^CTR_WIDTH - d, d small\n"
            "  --perm-body N       body bytes of the permutation test's packets (default 32; 5..1000)\n"
            "  --quiet             less output\n"
            "  --help              this text\n");
    bench_waves_usage(f, "  ");
    fprintf(f,
            "                      --vcd writes one test: give --test NAME (not all); save file\n"
            "                      tb/xbar/xbar.gtkw (gtkwave FILE tb/xbar/xbar.gtkw)\n"
            "  +...                passed to Verilator, e.g. +verilator+rand+reset+2 +verilator+seed+7\n"
            "                      (random initial state; without a +verilator+seed+ the bench adds one\n"
            "                      derived from --seed)\n"
            "Parameters come from the RTL build (the model is run with the same ones); in model-only\n"
            "builds they can be set with --NPORTS N --SLACK_DEPTH N --STOP_THRESH N --GO_THRESH N\n"
            "--ROUTE_DELAY N --LINK_DELAY N --TIMEOUT N --COUNTERS N --CTR_WIDTH N.\n"
            "A failure prints one line starting LOCKSTEP MISMATCH, SCOREBOARD or CHECK, then the\n"
            "replay command. Exit status: 0 all passed, 1 a test failed, 2 bad usage.\n");
}

/* Cycles a test runs: all of --cycles when it is the one test asked for. */
static uint64_t test_cycles(const test_desc_t *d, const opts_t *o, int only)
{
    uint64_t c = o->cl.cycles;
    if (!only && d->div) {
        c = o->cl.cycles / d->div;
        if (c < d->min_cycles)
            c = d->min_cycles;
    }
    if (d->timeout_mult && o->p.TIMEOUT && c < (uint64_t)o->p.TIMEOUT * d->timeout_mult)
        c = (uint64_t)o->p.TIMEOUT * d->timeout_mult;
    if (d->checks & CK_CTR_BIG && c < d->min_cycles)
        c = d->min_cycles; /* the counters must pass 65536 */
    if (d->checks & CK_CTR_BIG && o->p.ROUTE_DELAY)
        c += c * o->p.ROUTE_DELAY / 503; /* ... at L / (L + D) of the link, L >= 503 (docs/xbar.md, Throughput) */
    return c;
}

/* The command line, parsed. */
typedef struct {
    opts_t o;
    bench_cli_t cli; /* --test, the room for the plusargs, the replay line's plusargs */
    const char *json;
    int speed;
} cli_t;

/* --params: the parameters built into the RTL (or given, in a model-only build); ends the run */
static int print_params(void *ctx, const char *value)
{
    const xbar_params_t *p = ctx;
    (void)value;
    printf("NPORTS=%u SLACK_DEPTH=%u STOP_THRESH=%u GO_THRESH=%u ROUTE_DELAY=%u LINK_DELAY=%u TIMEOUT=%u "
           "COUNTERS=%u CTR_WIDTH=%u variant=%s\n",
           p->NPORTS, p->SLACK_DEPTH, p->STOP_THRESH, p->GO_THRESH, p->ROUTE_DELAY, p->LINK_DELAY, p->TIMEOUT,
           p->COUNTERS, p->CTR_WIDTH, xbar_rtl_variant());
    return 0;
}

static const char *check_params(const void *params, char *buf, size_t n)
{
    (void)buf, (void)n;
    return xbar_params_check(params);
}

/* --perm-body N: SB_ID_LEN + 1 .. 1000 body bytes */
static int check_perm_body(void *ctx, const char *value)
{
    const uint64_t *v = ctx;
    if (*v < SB_ID_LEN + 1 || *v > 1000) {
        fprintf(stderr, "xbar_bench: --perm-body %s: give %u..1000 body bytes\n", value, SB_ID_LEN + 1);
        return 2;
    }
    return -1;
}

/* Parses argv into c. Returns -1 to go on, or the exit status (0 after --help/--params, 2 on a
 * usage error). */
static int parse_args(int argc, char **argv, cli_t *c)
{
    xbar_params_t *p = &c->o.p;
    const bench_opt_t own[] = {
        {"--speed", BENCH_OPT_FLAG, &c->speed, NULL, NULL}, {"--params", BENCH_OPT_FLAG, NULL, print_params, p},
        {"--ctr-preset", BENCH_OPT_FLAG, &c->o.ctr_preset, NULL, NULL},
        {"--perm-body", BENCH_OPT_NUM, &c->o.perm_body, check_perm_body, &c->o.perm_body},
        {"--json", BENCH_OPT_STR, &c->json, NULL, NULL},   BENCH_PARAM(p, NPORTS), BENCH_PARAM(p, SLACK_DEPTH),
        BENCH_PARAM(p, STOP_THRESH), BENCH_PARAM(p, GO_THRESH), BENCH_PARAM(p, ROUTE_DELAY), BENCH_PARAM(p, LINK_DELAY),
        BENCH_PARAM(p, TIMEOUT), BENCH_PARAM(p, COUNTERS), BENCH_PARAM(p, CTR_WIDTH)};
    const bench_cli_spec_t spec = {"xbar_bench", xbar_rtl_available(), usage, own, sizeof own / sizeof own[0],
                                   check_params, p};
    return bench_cli_parse(&spec, argc, argv, &c->cli, &c->o.cl);
}

/* Runs the tests (one, or all from the table), prints a line each and the replay line of each
 * failure; returns the number that failed. */
static unsigned run_tests(const cli_t *c, const test_desc_t *only, FILE *jf, const char *argv0, unsigned *passed)
{
    const opts_t *o = &c->o;
    unsigned failed = 0;
    for (unsigned ti = 0; ti < xbar_ntests; ti++) {
        const test_desc_t *d = &xbar_tests[ti];
        if (only && d != only)
            continue;
        opts_t ot = *o;
        ot.cl.cycles = test_cycles(d, o, only != NULL);
        result_t r = run(&ot, d, &o->cl.waves);
        if (jf)
            json_record(jf, &ot, d, &r);
        if (r.failed) {
            failed++;
            printf("%s\n", r.why);
            printf("FAIL %-12s seed %" PRIu64 " cycle %" PRIu64 " (mode %s)\n", d->name, o->cl.seed, r.fail_cycle,
                   bench_mode_name(o->cl.mode));
            printf("     replay: %s --test %s --seed %" PRIu64 " --cycles %" PRIu64 "%s%s%s%s\n", argv0, d->name,
                   o->cl.seed, ot.cl.cycles, o->cl.mode == MODE_LOCKSTEP ? "" : " --mode ",
                   o->cl.mode == MODE_LOCKSTEP ? "" : bench_mode_name(o->cl.mode), o->ctr_preset ? " --ctr-preset" : "",
                   c->cli.plusline);
            if (o->cl.waves.vcd)
                bench_waves_print(stdout, "     ", o->cl.waves.vcd, r.waves, r.waves_range, o->cl.waves.start);
            if (o->cl.waves.on_fail) {
                /* the replay from reset, deterministic from the seed, writes the window up to the failure */
                bench_waves_t rw = {o->cl.waves.on_fail, NULL, bench_waves_fail_start(&o->cl.waves, r.fail_cycle, 0), 0};
                ot.cl.quiet = 1;
                result_t r2 = run(&ot, d, &rw);
                bench_waves_print(stdout, "     ", rw.vcd, r2.waves, r2.waves_range, rw.start);
            }
        } else {
            (*passed)++;
            printf("ok   %-12s %8" PRIu64 " cycles %7.2f s %9.0f cycles/s  %" PRIu64 " packets, %" PRIu64
                   " delivered, %" PRIu64 " timeouts, %" PRIu64 " STOPs, %" PRIu64 " reads, %" PRIu64 " resumes",
                   d->name, r.cycles_run, r.seconds, r.seconds > 0 ? (double)r.cycles_run / r.seconds : 0.0, r.made,
                   r.delivered, r.timeouts, r.stops, r.reads_checked, r.resumes);
            if (d->checks & CK_PERM_RATE)
                printf(", in %.4f ch/cyc, out %.4f data/cyc", r.in_util, r.out_data);
            if (d->checks & CK_LATENCY_EXACT)
                printf(", latency %u cycles (%" PRIu64 " samples)", r.latency, r.lat_samples);
            if (d->checks & CK_HANDOVER)
                printf(", %" PRIu64 " handovers, %" PRIu64 " round-robin decisions", r.handovers, r.rr_checked);
            if (d->checks & CK_TIMEOUT_EXACT)
                printf(", %" PRIu64 " blocked rounds", r.scen_done);
            printf("\n");
            if (o->cl.waves.vcd)
                bench_waves_print(stdout, "     ", o->cl.waves.vcd, r.waves, r.waves_range, o->cl.waves.start);
        }
        fflush(stdout);
    }
    return failed;
}

int main(int argc, char **argv)
{
    cli_t c;
    memset(&c, 0, sizeof c);
    opts_t *o = &c.o;
    o->p = xbar_rtl_available() ? xbar_rtl_params() : xbar_default_params();
    if (bench_cli_init(&c.cli, &o->cl, xbar_rtl_available(), argc))
        return 2;
    int rc = parse_args(argc, argv, &c);
    const test_desc_t *only = NULL;
    if (rc < 0 && strcmp(c.cli.test, "all") != 0 && !(only = test_find(c.cli.test))) {
        fprintf(stderr, "xbar_bench: unknown test '%s' (see --help)\n", c.cli.test);
        rc = 2;
    }
    FILE *jf = NULL;
    if (rc < 0 && o->cl.waves.vcd && !only) {
        fprintf(stderr, "xbar_bench: --vcd writes the waves of one test: give --test NAME (or --vcd-on-fail FILE)\n");
        rc = 2;
    }
    if (rc < 0 && c.json && !(jf = fopen(c.json, "a"))) {
        fprintf(stderr, "xbar_bench: cannot open %s: %s\n", c.json, strerror(errno));
        rc = 2;
    }
    if (rc >= 0) {
        bench_cli_free(&c.cli);
        return rc;
    }

    printf("xbar_bench: mode %s, seed %" PRIu64 ", NPORTS=%u SLACK_DEPTH=%u STOP=%u GO=%u ROUTE_DELAY=%u "
           "LINK_DELAY=%u TIMEOUT=%u COUNTERS=%u CTR_WIDTH=%u%s%s%s\n",
           bench_mode_name(o->cl.mode), o->cl.seed, o->p.NPORTS, o->p.SLACK_DEPTH, o->p.STOP_THRESH, o->p.GO_THRESH,
           o->p.ROUTE_DELAY, o->p.LINK_DELAY, o->p.TIMEOUT, o->p.COUNTERS, o->p.CTR_WIDTH,
           xbar_rtl_variant()[0] ? ", variant " : "", xbar_rtl_variant(), c.cli.plusline);
    if (c.speed) {
        if (!xbar_rtl_available()) {
            fprintf(stderr, "xbar_bench: --speed needs a build with the RTL\n");
            rc = 2;
        } else
            rc = speed_run(o, jf);
    } else {
        /* STOP is on tx 2 cycles after the crossing and crosses the cable; a host sees it a cycle
         * later and reacts 1 + LINK_DELAY cycles after that (the return cable included). Measured:
         * below 5 + 2 * LINK_DELAY of slack the buffers overflow by design (docs/xbar.md, "Choosing
         * the thresholds") */
        unsigned need = 5 + 2 * o->p.LINK_DELAY;
        if (o->p.SLACK_DEPTH - o->p.STOP_THRESH < need)
            printf("xbar_bench: warning: SLACK_DEPTH - STOP_THRESH = %u is below the %u characters the STOP round "
                   "trip needs with these hosts; slack buffers will overflow and the scoreboard will report it\n",
                   o->p.SLACK_DEPTH - o->p.STOP_THRESH, need);
        unsigned passed = 0, failed = run_tests(&c, only, jf, argv[0], &passed);
        printf("xbar: %u passed, %u failed\n", passed, failed);
        rc = failed ? 1 : 0;
    }
    if (jf)
        fclose(jf);
    bench_cli_free(&c.cli);
    return rc;
}

/* sanfab — VC switch bench: the Verilated RTL and the C model in lockstep (every output port,
 * every step), with hosts on every port that obey Go & Stop at the latest moment docs/vcsw.md
 * allows, an end-to-end scoreboard per source (vcsw_bench_sb.c), and checks of the doc's rules that never
 * consult the model (vcsw_bench_check.c; they hold in --mode rtl too). `vcsw_bench --help` lists options
 * and tests. This file: the command line; vcsw_bench_base.h names the others.
 */
#define _POSIX_C_SOURCE 200809L
#include "vcsw_bench_run.h"

#include <glob.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ================================================================ command line */

typedef struct {
    opts_t o;
    bench_cli_t cli; /* --test, the room for the plusargs, the replay line's plusargs */
    char tables_path[1024];
} cli_t;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vcsw_bench [options] [+verilator+...]\n"
            "Runs the VC switch RTL and its C model in lockstep (every output port, every step) with a host on\n"
            "every port obeying Go & Stop at the latest moment, an end-to-end scoreboard per source and checks\n"
            "of docs/vcsw.md that never consult the model; or either one alone (scoreboard and checks still on).\n\n"
            "  --test NAME|all     test to run (default all); tests:\n");
    for (unsigned t = 0; t < vcsw_ntests; t++)
        fprintf(f, "      %-12s %s\n", vcsw_tests[t].name, vcsw_tests[t].what);
    fprintf(f,
            "  --cycles N          traffic steps (default 100000); under --test all 'random' gets N, the others\n"
            "                      N/div with a minimum each\n"
            "  --seed N            random seed (default 1); printed, so a failure can be replayed\n"
            "  --mode M            lockstep (default), model, rtl\n"
            "  --speed             also time the model's and the RTL's step calls apart (steps/s of each)\n"
            "  --no-preset         counters from 0 (default: the preset test mode, every counter near its wrap\n"
            "                      from step 8*NVC*NPORTS + 8 on, in the model and the RTL alike)\n"
            "  --tables FILE[:S]   sanfab-rhinet file for the routes test (switch S, default: most entries)\n"
            "  --params            print the parameters built into the RTL and exit\n"
            "  --quiet             less output\n"
            "  --help              this text\n");
    bench_waves_usage(f, "  ");
    fprintf(f,
            "                      --vcd writes one test: give --test NAME (not all), and --tables FILE for\n"
            "                      the routes test; cycles are the run's edges g (printed); save file\n"
            "                      tb/vcsw/vcsw.gtkw (gtkwave FILE tb/vcsw/vcsw.gtkw)\n"
            "  +...                passed to Verilator, e.g. +verilator+rand+reset+2 +verilator+seed+7\n"
            "Parameters come from the RTL build; in model-only builds they can be set with --NPORTS N --NVC N\n"
            "--CTRL N --FLIT_W N --TAG_W N --DEPTH N --MAXLEN N --LINK_DELAY N --COUNTERS N --CTR_WIDTH N.\n"
            "Cycles printed are the doc's steps (step 1 is the first edge after reset); the test reset asserts rst\n"
            "again, and after that a cycle counts every edge of the run while the messages give the step too.\n"
            "A failure prints one line starting LOCKSTEP MISMATCH, SCOREBOARD or CHECK, then the replay\n"
            "command. Exit status: 0 all passed, 1 a test failed, 2 bad usage.\n");
}

/* --params: the parameters built into the RTL (or given, in a model-only build); ends the run */
static int print_params(void *ctx, const char *value)
{
    const vcsw_params_t *p = ctx;
    (void)value;
    printf("NPORTS=%u NVC=%u CTRL=%u FLIT_W=%u TAG_W=%u DEPTH=%u MAXLEN=%u LINK_DELAY=%u COUNTERS=%u "
           "CTR_WIDTH=%u variant=%s\n", p->NPORTS, p->NVC, p->CTRL, p->FLIT_W, p->TAG_W, p->DEPTH, p->MAXLEN,
           p->LINK_DELAY, p->COUNTERS, p->CTR_WIDTH, vcsw_rtl_variant());
    return 0;
}

/* --tables FILE[:S]: the file of the routes test and its switch */
static int set_tables(void *ctx, const char *value)
{
    cli_t *c = ctx;
    opts_t *o = &c->o;
    snprintf(c->tables_path, sizeof c->tables_path, "%s", value);
    o->table_switch = VCSW_LOAD_MOST;
    char *colon = strrchr(c->tables_path, ':');
    if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        o->table_switch = atoi(colon + 1);
        *colon = 0;
    }
    o->tables = c->tables_path;
    return -1;
}

/* the model's checks, a Go & Stop threshold of at least 1, and head flits with room above the tag
 * for the bench's source name (input port and VC bits): the scoreboard needs it */
static const char *check_params(const void *params, char *buf, size_t n)
{
    const vcsw_params_t *p = params;
    const char *perr = vcsw_params_check(p);
    const unsigned need = log2u(p->NPORTS) + log2u(p->NVC);
    if (!perr && vcsw_stop_at(p) < 1) {
        snprintf(buf, n, "STOP_AT = DEPTH - MAXLEN - 2*LINK_DELAY - 4 = %d < 1", vcsw_stop_at(p));
        perr = buf;
    } else if (!perr && p->FLIT_W - p->TAG_W < need) {
        snprintf(buf, n,
                 "FLIT_W - TAG_W = %u bits above the tag, the bench needs %u (input port and VC) to name a head's "
                 "source; the switch itself allows it, the bench cannot check it: widen FLIT_W or narrow TAG_W",
                 p->FLIT_W - p->TAG_W, need);
        perr = buf;
    }
    return perr;
}

/* Parses argv into c. Returns -1 to go on, or the exit status (0 after --help/--params, 2 on a
 * usage error). */
static int parse_args(int argc, char **argv, cli_t *c)
{
    vcsw_params_t *p = &c->o.p;
    const bench_opt_t own[] = {
        {"--speed", BENCH_OPT_FLAG, &c->o.speed, NULL, NULL}, {"--params", BENCH_OPT_FLAG, NULL, print_params, p},
        {"--no-preset", BENCH_OPT_FLAG, &c->o.no_preset, NULL, NULL},
        {"--tables", BENCH_OPT_STR, NULL, set_tables, c},     BENCH_PARAM(p, NPORTS), BENCH_PARAM(p, NVC),
        BENCH_PARAM(p, CTRL), BENCH_PARAM(p, FLIT_W), BENCH_PARAM(p, TAG_W), BENCH_PARAM(p, DEPTH), BENCH_PARAM(p, MAXLEN),
        BENCH_PARAM(p, LINK_DELAY), BENCH_PARAM(p, COUNTERS), BENCH_PARAM(p, CTR_WIDTH)};
    const bench_cli_spec_t spec = {"vcsw_bench", vcsw_rtl_available(), usage, own, sizeof own / sizeof own[0],
                                   check_params, p};
    return bench_cli_parse(&spec, argc, argv, &c->cli, &c->o.cl);
}

static uint64_t test_cycles(const test_desc_t *d, const opts_t *o, int only)
{
    uint64_t c = o->cl.cycles;
    if (!only && d->div) {
        c = o->cl.cycles / d->div;
        if (c < d->min_cycles)
            c = d->min_cycles;
    }
    if (d->min_cycles && (d->checks & (CK_LINK_FULL | CK_WRAP)) && c < d->min_cycles)
        c = d->min_cycles; /* the measurement window and the wrap need their length */
    if (d->checks & CK_BLOCKVC) { /* the blocked window: settling, then 2000 steps measured */
        uint64_t w = (2ull * o->p.DEPTH * o->p.NVC + 4ull * o->p.LINK_DELAY + 2200) * 5 / 3;
        if (c < w)
            c = w;
    }
    if (d->checks & CK_LAT_EXACT) { /* NPORTS^2 packets of MAXLEN/2 flits on average */
        uint64_t w = (uint64_t)o->p.NPORTS * o->p.NPORTS * (o->p.MAXLEN / 2 + o->p.LINK_DELAY + 12);
        if (c < w)
            c = w;
    }
    return c;
}

/* the table directory beside the bench's own build: <BUILD>/vcsw/<set>/vcsw_bench -> <BUILD>/vcsw/tables (make
   sim's build/ and make test's build/quick/ alike); a bench run by a bare name looks in build/vcsw/tables */
static void table_dir(const char *argv0, char *dir, size_t n)
{
    const char *slash = strrchr(argv0, '/');
    if (slash)
        snprintf(dir, n, "%.*s/../tables", (int)(slash - argv0), argv0);
    else
        snprintf(dir, n, "build/vcsw/tables");
}

/* the table files of the routes test: --tables, else <table_dir>/n<NPORTS>-*.rhinet */
static size_t table_files(const opts_t *o, const char *argv0, char ***out, glob_t *g, char **one)
{
    memset(g, 0, sizeof *g);
    if (o->tables) {
        one[0] = (char *)o->tables;
        *out = one;
        return 1;
    }
    char dir[1024], pat[1100];
    table_dir(argv0, dir, sizeof dir);
    snprintf(pat, sizeof pat, "%s/n%u-*.rhinet", dir, o->p.NPORTS);
    if (glob(pat, 0, NULL, g) != 0)
        return 0;
    *out = g->gl_pathv;
    return g->gl_pathc;
}

static void report(const cli_t *c, const test_desc_t *d, const opts_t *ot, const result_t *r, const char *argv0,
                   const char *label, unsigned *passed, unsigned *failed)
{
    const opts_t *o = &c->o;
    if (r->failed) {
        (*failed)++;
        printf("%s\n", r->why);
        printf("FAIL %-12s seed %" PRIu64 " cycle %" PRIu64 " (mode %s)%s%s\n", d->name, o->cl.seed, r->fail_cycle,
               bench_mode_name(o->cl.mode), label ? " " : "", label ? label : "");
        printf("     replay: %s --test %s --seed %" PRIu64 " --cycles %" PRIu64 "%s%s%s%s%s%s\n", argv0, d->name, o->cl.seed,
               ot->cl.cycles, o->no_preset ? " --no-preset" : "", o->cl.mode == MODE_LOCKSTEP ? "" : " --mode ",
               o->cl.mode == MODE_LOCKSTEP ? "" : bench_mode_name(o->cl.mode),
               label ? " --tables " : "", label ? label : "", c->cli.plusline);
        return;
    }
    (*passed)++;
    printf("ok   %-12s %8" PRIu64 " steps %6.2f s %8.0f steps/s  %" PRIu64 " packets, %" PRIu64 " delivered, %" PRIu64
           " dropped, %" PRIu64 " reads, max occupancy %u", d->name, r->cycles_run, r->seconds,
           r->seconds > 0 ? (double)r->cycles_run / r->seconds : 0.0, r->made, r->delivered, r->dropped, r->reads,
           r->occ_max);
    if ((d->checks & CK_LINK_FULL) && r->link_unchecked)
        printf(", link use not checked (STOP_AT < %u)", DOC_STREAM_STOP_AT);
    else if (d->checks & CK_LINK_FULL)
        printf(", link use >= %.4f", r->link_min);
    if (d->checks & CK_LAT_EXACT)
        printf(", %" PRIu64 " latency samples", r->lat_samples);
    if (d->checks & CK_RR_EXACT)
        printf(", %" PRIu64 " round-robin decisions", r->rr_checked);
    if (o->speed)
        printf(", step calls only: model %.0f steps/s, RTL %.0f steps/s",
               r->model_s > 0 ? (double)r->cycles_run / r->model_s : 0.0,
               r->rtl_s > 0 ? (double)r->cycles_run / r->rtl_s : 0.0);
    if (label)
        printf(" [%s]", label);
    if (r->note[0])
        printf(" (%s)", r->note);
    printf("\n");
}

static unsigned run_tests(const cli_t *c, const test_desc_t *only, const char *argv0, unsigned *passed)
{
    const opts_t *o = &c->o;
    unsigned failed = 0;
    for (unsigned ti = 0; ti < vcsw_ntests; ti++) {
        const test_desc_t *d = &vcsw_tests[ti];
        if (only && d != only)
            continue;
        opts_t ot = *o;
        ot.cl.cycles = test_cycles(d, o, only != NULL);
        char **files = NULL, *one[1];
        glob_t g;
        size_t nf = d->tables == TB_FILE ? table_files(o, argv0, &files, &g, one) : 1;
        if (d->tables == TB_FILE && nf == 0) {
            char dir[1024];
            table_dir(argv0, dir, sizeof dir);
            printf("skip %-12s no table file (--tables FILE, or make the %s/n%u-*.rhinet of mk/vcsw.mk)\n",
                   d->name, dir, o->p.NPORTS);
        }
        for (size_t fi = 0; fi < nf; fi++) {
            vcsw_tables_t tab;
            memset(&tab, 0, sizeof tab);
            const char *label = NULL;
            char lab[1100];
            if (d->tables == TB_FILE) {
                char err[600];
                int sw = o->tables ? o->table_switch : VCSW_LOAD_MOST;
                if (vcsw_load_file(files[fi], sw, &o->p, &tab, err, sizeof err)) {
                    if (o->tables) {
                        printf("CHECK tables: %s\nFAIL %-12s the table file is refused\n", err, d->name);
                        failed++;
                    } else
                        printf("skip %-12s %s (refused: %s)\n", d->name, files[fi], err);
                    continue;
                }
                snprintf(lab, sizeof lab, "%s:%u", files[fi], tab.switch_id);
                label = lab;
                if (!o->cl.quiet)
                    printf("     %-12s %s: %s, switch %u: %u routing and %u VC entries, %zu nic lines\n", d->name,
                           files[fi], tab.algorithm, tab.switch_id, tab.n_route, tab.n_vc, tab.nnics);
            }
            result_t r = run(&ot, d, d->tables == TB_FILE ? &tab : NULL, &o->cl.waves);
            report(c, d, &ot, &r, argv0, label, passed, &failed);
            if (o->cl.waves.vcd)
                bench_waves_print(stdout, "     ", o->cl.waves.vcd, r.waves, r.waves_range, o->cl.waves.start);
            if (r.failed && o->cl.waves.on_fail) {
                /* the replay from reset, deterministic from the seed, writes the window up to the failure */
                bench_waves_t rw = {o->cl.waves.on_fail, NULL, bench_waves_fail_start(&o->cl.waves, r.fail_cycle, 1), 0};
                opts_t ov = ot;
                ov.cl.quiet = 1;
                result_t r2 = run(&ov, d, d->tables == TB_FILE ? &tab : NULL, &rw);
                bench_waves_print(stdout, "     ", rw.vcd, r2.waves, r2.waves_range, rw.start);
            }
            vcsw_tables_free(&tab);
            fflush(stdout);
        }
        if (d->tables == TB_FILE && !o->tables)
            globfree(&g);
    }
    return failed;
}

int main(int argc, char **argv)
{
    cli_t c;
    memset(&c, 0, sizeof c);
    opts_t *o = &c.o;
    o->p = vcsw_rtl_available() ? vcsw_rtl_params() : vcsw_default_params();
    o->table_switch = VCSW_LOAD_MOST;
    if (bench_cli_init(&c.cli, &o->cl, vcsw_rtl_available(), argc))
        return 2;
    int rc = parse_args(argc, argv, &c);
    const test_desc_t *only = NULL;
    if (rc < 0 && strcmp(c.cli.test, "all") != 0) {
        for (unsigned t = 0; t < vcsw_ntests; t++)
            if (strcmp(vcsw_tests[t].name, c.cli.test) == 0)
                only = &vcsw_tests[t];
        if (!only) {
            fprintf(stderr, "vcsw_bench: unknown test '%s' (see --help)\n", c.cli.test);
            rc = 2;
        }
    }
    if (rc < 0 && o->cl.waves.vcd && !only) {
        fprintf(stderr, "vcsw_bench: --vcd writes the waves of one test: give --test NAME (or --vcd-on-fail FILE)\n");
        rc = 2;
    }
    if (rc >= 0) {
        bench_cli_free(&c.cli);
        return rc;
    }
    const vcsw_params_t *p = &o->p;
    printf("vcsw_bench: mode %s, seed %" PRIu64 ", NPORTS=%u NVC=%u CTRL=%u FLIT_W=%u TAG_W=%u DEPTH=%u MAXLEN=%u "
           "LINK_DELAY=%u COUNTERS=%u CTR_WIDTH=%u (STOP_AT %d)%s%s%s\n", bench_mode_name(o->cl.mode), o->cl.seed, p->NPORTS,
           p->NVC, p->CTRL, p->FLIT_W, p->TAG_W, p->DEPTH, p->MAXLEN, p->LINK_DELAY, p->COUNTERS, p->CTR_WIDTH,
           vcsw_stop_at(p), vcsw_rtl_variant()[0] ? ", variant " : "", vcsw_rtl_variant(), c.cli.plusline);
    if (p->FLIT_W - p->TAG_W < log2u(p->NPORTS) + log2u(p->NVC))
        printf("vcsw_bench: note: FLIT_W - TAG_W = %u bits cannot name a packet's source; the scoreboard matches "
               "heads by content and the round-robin check is off\n", p->FLIT_W - p->TAG_W);
    unsigned passed = 0, failed = run_tests(&c, only, argv[0], &passed);
    printf("vcsw: %u passed, %u failed\n", passed, failed);
    bench_cli_free(&c.cli);
    return failed ? 1 : 0;
}

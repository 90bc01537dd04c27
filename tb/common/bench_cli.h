/* sanfab — the command line every lockstep bench shares (docs/verification.md lists the options):
 * --help, --version, --quiet, --test, --mode, --vcd, --vcd-start, --vcd-cycles, --vcd-on-fail (tb/common/waves.h),
 * --cycles, --seed, Verilator's +... run-time
 * arguments (with a +verilator+seed+ derived from --seed when only a random reset is asked for) and,
 * in model-only builds, the parameters as --NAME N. A bench adds its own options in a table.
 * Every message starts with the program name; usage errors give exit status 2.
 * There is no global state: the parsed values live in the caller's bench_opts_t and bench_cli_t.
 */
#ifndef SANFAB_BENCH_CLI_H
#define SANFAB_BENCH_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "waves.h"

/* What a bench runs: the RTL and the model side by side, the model alone, the RTL alone. */
enum { MODE_LOCKSTEP, MODE_MODEL, MODE_RTL };

/* The run options every bench has (part of the bench's own options, copied per test). */
typedef struct {
    int mode;                /* MODE_* */
    uint64_t seed;           /* --seed (default 1) */
    uint64_t cycles;         /* --cycles (default 100000) */
    bench_waves_t waves;     /* --vcd, --vcd-on-fail, --vcd-start, --vcd-cycles (checked by the parse) */
    int quiet;               /* --quiet */
    int nplus;               /* Verilator plusargs from the command line (and the derived seed) */
    const char *const *plus;
} bench_opts_t;

/* The rest of the parse: the test asked for and the room behind bench_opts_t.plus. */
typedef struct {
    const char *test;   /* --test NAME (default "all") */
    const char **plus;  /* room for argc + 2 plusargs */
    char seedarg[64];   /* +verilator+seed+N derived from --seed */
    char plusline[512]; /* the plusargs, each after a space, for the replay line */
} bench_cli_t;

/* A bench's own option: a flag (no value), a string value, a parameter (a number, accepted in
 * model-only builds only), or a number (accepted in every build). fn, when set, is called instead
 * of storing (a number: after storing it, to note or check it): it returns -1 to go on or the exit
 * status to end with (it prints its own message). */
typedef enum { BENCH_OPT_FLAG, BENCH_OPT_STR, BENCH_OPT_PARAM, BENCH_OPT_NUM } bench_opt_kind_t;
typedef struct {
    const char *name;       /* with the dashes: "--json" */
    bench_opt_kind_t kind;
    void *field;            /* FLAG: int (set to 1), STR: const char *, PARAM: unsigned, NUM: uint64_t */
    int (*fn)(void *ctx, const char *value);
    void *ctx;
} bench_opt_t;

/* The table entry of parameter NAME of the block's parameter struct *P: option --NAME N. */
#define BENCH_PARAM(P, NAME) {"--" #NAME, BENCH_OPT_PARAM, &(P)->NAME, NULL, NULL}

/* How one bench parses: its name, whether the RTL is built in, its usage text, own options, and
 * the check of the parameters after the parse (NULL if good, else what is wrong, maybe in buf). */
typedef struct {
    const char *prog;            /* "xbar_bench": the start of every message */
    int rtl;                     /* the build has the RTL: parameters are fixed, every mode possible */
    void (*usage)(FILE *f);      /* prints the --help text */
    const bench_opt_t *opts;
    size_t nopts;
    const char *(*check)(const void *params, char *buf, size_t n);
    const void *params;
} bench_cli_spec_t;

/* The name of a MODE_* ("lockstep", "model", "rtl"). */
const char *bench_mode_name(int mode);

/* Sets the defaults (mode lockstep with the RTL, else model) and makes room for argc + 2
 * plusargs; 0 on success, -1 out of memory. bench_cli_free() releases it. */
int bench_cli_init(bench_cli_t *c, bench_opts_t *o, int rtl, int argc);

/* Frees what bench_cli_init() allocated. */
void bench_cli_free(bench_cli_t *c);

/* Parses argv into o, c and the bench's own fields, then checks the parameters and the wave options
 * (bench_waves_check(): a VCD path that cannot be written is refused here, before the run). Returns
 * -1 to go on, or the exit status: 0 after --help (or an option whose fn ended the run), 2 on a
 * usage error or bad parameters (message on stderr). */
int bench_cli_parse(const bench_cli_spec_t *s, int argc, char **argv, bench_cli_t *c, bench_opts_t *o);

/* An argument bench_cli_parse_other() does not know itself: an option `arg` with the argument after it in
 * `value` (NULL at the end of the line), or a positional argument `arg` with `value` NULL. Returns -1 to go
 * on (with *took_value set when `value` was used), or the exit status (it prints its own message). */
typedef int (*bench_cli_other_fn)(void *ctx, const char *arg, const char *value, int *took_value);

/* bench_cli_parse() for a bench with arguments of its own beyond the option table (for example a
 * configuration file and the keys of a tool): everything the table and the shared options do not name
 * goes to `other` (NULL: an error, as in bench_cli_parse()). */
int bench_cli_parse_other(const bench_cli_spec_t *s, bench_cli_other_fn other, void *other_ctx, int argc, char **argv,
                          bench_cli_t *c, bench_opts_t *o);

#endif

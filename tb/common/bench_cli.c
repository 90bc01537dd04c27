/* sanfab — the command line every lockstep bench shares (bench_cli.h). */
#include "bench_cli.h"
#include "sf_cli.h"


#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const mode_names[] = {"lockstep", "model", "rtl"};

const char *bench_mode_name(int mode) { return mode >= 0 && mode < 3 ? mode_names[mode] : "?"; }

int bench_cli_init(bench_cli_t *c, bench_opts_t *o, int rtl, int argc)
{
    memset(c, 0, sizeof *c);
    o->mode = rtl ? MODE_LOCKSTEP : MODE_MODEL;
    o->seed = 1;
    o->cycles = 100000;
    memset(&o->waves, 0, sizeof o->waves);
    o->quiet = 0;
    o->nplus = 0;
    o->plus = NULL;
    c->test = "all";
    c->plus = calloc((size_t)argc + 2, sizeof *c->plus);
    return c->plus ? 0 : -1;
}

void bench_cli_free(bench_cli_t *c)
{
    free(c->plus);
    c->plus = NULL;
}

/* a whole non-negative number (decimal, 0x hex or 0 octal); 0 on success */
static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!s || !*s || *s == '-')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

/* the bench's own option of that name and kind, or NULL */
static const bench_opt_t *find_opt(const bench_cli_spec_t *s, const char *name, bench_opt_kind_t kind)
{
    for (size_t i = 0; i < s->nopts; i++)
        if (s->opts[i].kind == kind && strcmp(s->opts[i].name, name) == 0)
            return &s->opts[i];
    return NULL;
}

/* --mode M; -1 to go on, 2 on an unknown mode */
static int set_mode(const bench_cli_spec_t *s, const char *v, bench_opts_t *o)
{
    for (int m = 0; m < 3; m++)
        if (strcmp(v, mode_names[m]) == 0) {
            o->mode = m;
            return -1;
        }
    fprintf(stderr, "%s: unknown mode '%s' (lockstep, model, rtl)\n", s->prog, v);
    return 2;
}

/* the options every bench has (bench_cli.h) */
static const char *const shared_opts[] = {"--help", "-h", "--version", "--quiet", "--test", "--mode", "--vcd", "--cycles",
                                          "--seed", "--vcd-cycles", "--vcd-start", "--vcd-on-fail"};

/* is k an option of the shared set or of the bench's table? */
static int known(const bench_cli_spec_t *s, const char *k)
{
    for (size_t i = 0; i < sizeof shared_opts / sizeof shared_opts[0]; i++)
        if (strcmp(k, shared_opts[i]) == 0)
            return 1;
    for (size_t i = 0; i < s->nopts; i++)
        if (strcmp(s->opts[i].name, k) == 0)
            return 1;
    return 0;
}

/* " (did you mean --X?)" for a misspelt option k among the shared and the bench's options, or "" (in buf) */
static const char *suggest(const bench_cli_spec_t *s, const char *k, char *buf, size_t len)
{
    enum { NSHARED = sizeof shared_opts / sizeof shared_opts[0], MAXN = NSHARED + 128 };
    const char *names[MAXN];
    size_t n = 0;
    for (size_t i = 0; i < NSHARED; i++)
        names[n++] = shared_opts[i];
    for (size_t i = 0; i < s->nopts && n < MAXN; i++)
        names[n++] = s->opts[i].name;
    return sf_cli_did_you_mean(buf, len, k, names, n);
}

/* an option with a value v (k is not a flag); -1 to go on, or the exit status */
static int value_opt(const bench_cli_spec_t *s, const char *k, const char *v, bench_cli_t *c, bench_opts_t *o,
                     int *mode_given)
{
    const bench_opt_t *b;
    if (strcmp(k, "--test") == 0) {
        c->test = v;
        return -1;
    }
    if (strcmp(k, "--mode") == 0) {
        *mode_given = 1;
        return set_mode(s, v, o);
    }
    if (strcmp(k, "--vcd") == 0) {
        o->waves.vcd = v;
        return -1;
    }
    if (strcmp(k, "--vcd-on-fail") == 0) {
        o->waves.on_fail = v;
        return -1;
    }
    if ((b = find_opt(s, k, BENCH_OPT_STR))) {
        if (b->fn)
            return b->fn(b->ctx, v);
        *(const char **)b->field = v;
        return -1;
    }
    uint64_t x = 0;
    if (parse_u64(v, &x)) {
        fprintf(stderr, "%s: %s wants a non-negative number, got '%s'\n", s->prog, k, v);
        return 2;
    }
    if (strcmp(k, "--cycles") == 0)
        o->cycles = x;
    else if (strcmp(k, "--seed") == 0)
        o->seed = x;
    else if (strcmp(k, "--vcd-cycles") == 0 && x == 0) {
        fprintf(stderr, "%s: --vcd-cycles wants at least 1\n", s->prog);
        return 2;
    } else if (strcmp(k, "--vcd-cycles") == 0)
        o->waves.cycles = x;
    else if (strcmp(k, "--vcd-start") == 0)
        o->waves.start = x;
    else if ((b = find_opt(s, k, BENCH_OPT_NUM))) {
        *(uint64_t *)b->field = x;
        if (b->fn)
            return b->fn(b->ctx, v);
    } else if (!s->rtl && (b = find_opt(s, k, BENCH_OPT_PARAM)))
        *(unsigned *)b->field = (unsigned)x;
    else {
        char dym[128];
        fprintf(stderr, "%s: unknown option %s%s (see --help)\n", s->prog, k,
                s->rtl && k[0] && k[1] && k[2] >= 'A' && k[2] <= 'Z' ? " (parameters are fixed by the RTL build)"
                                                                      : suggest(s, k, dym, sizeof dym));
        return 2;
    }
    return -1;
}


int bench_cli_parse(const bench_cli_spec_t *s, int argc, char **argv, bench_cli_t *c, bench_opts_t *o)
{
    return bench_cli_parse_other(s, NULL, NULL, argc, argv, c, o);
}

int bench_cli_parse_other(const bench_cli_spec_t *s, bench_cli_other_fn other, void *other_ctx, int argc, char **argv,
                          bench_cli_t *c, bench_opts_t *o)
{
    int nplus = 0, has_seed = 0, has_rand = 0, mode_given = 0, rc;
    for (int a = 1; a < argc; a++) {
        const char *k = argv[a];
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        const bench_opt_t *b;
        if (other && k[0] != '+' && !known(s, k)) {
            int took = 0;
            if ((rc = other(other_ctx, k, k[0] == '-' ? v : NULL, &took)) >= 0)
                return rc;
            a += took != 0;
            continue;
        }
        if (k[0] == '+') {
            c->plus[nplus++] = k;
            has_seed |= strncmp(k, "+verilator+seed+", 16) == 0;
            has_rand |= strncmp(k, "+verilator+rand+reset+", 22) == 0;
            continue;
        }
        if (strcmp(k, "--help") == 0 || strcmp(k, "-h") == 0) {
            s->usage(stdout);
            return 0;
        } else if (strcmp(k, "--version") == 0) {
            sf_cli_print_version(stdout, s->prog);
            return 0;
        } else if (strcmp(k, "--quiet") == 0) {
            o->quiet = 1;
        } else if ((b = find_opt(s, k, BENCH_OPT_FLAG))) {
            if (b->fn && (rc = b->fn(b->ctx, NULL)) >= 0)
                return rc;
            if (!b->fn)
                *(int *)b->field = 1;
        } else if (!known(s, k)) {
            char dym[128];
            fprintf(stderr, "%s: unknown option %s%s (see --help)\n", s->prog, k, suggest(s, k, dym, sizeof dym));
            return 2;
        } else if (!v) {
            fprintf(stderr, "%s: option %s needs a value (see --help)\n", s->prog, k);
            return 2;
        } else {
            if ((rc = value_opt(s, k, v, c, o, &mode_given)) >= 0)
                return rc;
            a++;
        }
    }
    if (has_rand && !has_seed) {
        /* a seeded random initial state: derived from --seed, so the replay line reproduces it */
        snprintf(c->seedarg, sizeof c->seedarg, "+verilator+seed+%" PRIu64, (o->seed % 2147483646u) + 1);
        c->plus[nplus++] = c->seedarg;
    }
    o->nplus = nplus;
    o->plus = c->plus;
    for (int i = 0; i < nplus; i++) {
        size_t l = strlen(c->plusline);
        snprintf(c->plusline + l, sizeof c->plusline - l, " %s", c->plus[i]);
    }
    if (!s->rtl && mode_given && o->mode != MODE_MODEL) {
        fprintf(stderr, "%s: this build has no RTL; only --mode model is possible\n", s->prog);
        return 2;
    }
    char buf[200];
    const char *perr = s->check(s->params, buf, sizeof buf);
    if (perr) {
        fprintf(stderr, "%s: bad parameters: %s\n", s->prog, perr);
        return 2;
    }
    if (bench_waves_check(s->prog, &o->waves, s->rtl && o->mode != MODE_MODEL))
        return 2;
    return -1;
}

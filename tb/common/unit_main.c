/* sanfab — the unit-test harness (unit_main.h) and the program's tally (unit_check.h). */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include "unit_main.h"

#include "sf_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unit_tally_t tally;

int unit_vcheck(unit_tally_t *t, int ok, const char *fmt, va_list ap)
{
    t->checks++;
    if (!ok)
        t->failed++;
    if (ok && !t->verbose)
        return ok;
    printf("CHECK ");
    vprintf(fmt, ap);
    printf(ok ? " ... ok\n" : " ... FAIL\n");
    return ok;
}

int check(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ok = unit_vcheck(&tally, ok, fmt, ap);
    va_end(ap);
    return ok;
}

static void usage(FILE *f, const unit_suite_t *s)
{
    fprintf(f, "usage: %s [-v] [--test NAME]... [--stop-on-fail] [--list] [--help] [--version]", s->prog);
    for (size_t i = 0; i < s->nopts; i++)
        fprintf(f, " [%s N]", s->opts[i].name);
    fprintf(f, "\n");
}

static void help(const unit_suite_t *s)
{
    usage(stdout, s);
    printf("%s\n\n", s->about);
    printf("  -v            print the passing checks too\n"
           "  --test NAME   run only this test (repeatable, or NAME,NAME; default: all, in order)\n"
           "  --stop-on-fail  run no test after the first that fails\n"
           "  --list        print the test names, one a line\n"
           "  --help        this help\n"
           "  --version     print the version\n");
    for (size_t i = 0; i < s->nopts; i++)
        printf("  %s N%*s%s\n", s->opts[i].name, (int)(strlen(s->opts[i].name) < 12 ? 12 - strlen(s->opts[i].name) : 1), "",
               s->opts[i].help);
    printf("\nA failed check prints \"CHECK <what> ... FAIL\"; the last lines are \"%s: T tests: P passed, F failed\"\n"
           "and \"%s: N checks, M failed\". Exit status: 0 all passed, 1 a check failed, 2 bad usage.\n",
           s->prog, s->prog);
}

/* index of the test named name, or -1 */
static long find_test(const unit_suite_t *s, const char *name)
{
    for (size_t i = 0; i < s->ntests; i++)
        if (strcmp(s->tests[i].name, name) == 0)
            return (long)i;
    return -1;
}

/* Marks the tests of a NAME[,NAME...] list in sel; 0, or 2 after printing why a name is refused. */
static int select_tests(const unit_suite_t *s, const char *list, unsigned char *sel)
{
    char *copy = strdup(list);
    if (!copy) {
        perror(s->prog);
        return 2;
    }
    int rc = 0;
    for (char *save = NULL, *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        long i = find_test(s, name);
        if (i >= 0) {
            sel[i] = 1;
            continue;
        }
        const char **known = malloc(s->ntests * sizeof *known);
        char buf[128] = "";
        if (known) {
            for (size_t k = 0; k < s->ntests; k++)
                known[k] = s->tests[k].name;
            sf_cli_did_you_mean(buf, sizeof buf, name, known, s->ntests);
            free(known);
        }
        fprintf(stderr, "%s: no test named '%s'%s (--list names them)\n", s->prog, name, buf);
        rc = 2;
        break;
    }
    free(copy);
    return rc;
}

/* "unknown option" with the closest known option */
static int unknown_option(const unit_suite_t *s, const char *arg)
{
    const char *known[64];
    size_t n = 0;
    static const char *const own[] = {"-v", "--test", "--stop-on-fail", "--list", "--help", "--version"};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        known[n++] = own[i];
    for (size_t i = 0; i < s->nopts && n < sizeof known / sizeof known[0]; i++)
        known[n++] = s->opts[i].name;
    char buf[128];
    fprintf(stderr, "%s: unknown option '%s'%s\n", s->prog, arg, sf_cli_did_you_mean(buf, sizeof buf, arg, known, n));
    usage(stderr, s);
    return 2;
}

int unit_main(const unit_suite_t *s, int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* FAIL lines survive a crash */
    unsigned char *sel = calloc(s->ntests ? s->ntests : 1, 1);
    int any_sel = 0, rc = 0, stop_on_fail = 0;
    if (!sel) {
        perror(s->prog);
        return 2;
    }
    for (int i = 1; i < argc && rc == 0; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            tally.verbose = 1;
        } else if (strcmp(a, "--stop-on-fail") == 0) {
            stop_on_fail = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            help(s);
            free(sel);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            sf_cli_print_version(stdout, s->prog);
            free(sel);
            return 0;
        } else if (strcmp(a, "--list") == 0) {
            for (size_t k = 0; k < s->ntests; k++)
                printf("%s\n", s->tests[k].name);
            free(sel);
            return 0;
        } else if (strcmp(a, "--test") == 0 || strncmp(a, "--test=", 7) == 0) {
            const char *v = a[6] == '=' ? a + 7 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v) {
                fprintf(stderr, "%s: --test needs a test name (--list names them)\n", s->prog);
                rc = 2;
            } else {
                rc = select_tests(s, v, sel);
                any_sel = 1;
            }
        } else {
            size_t k = 0;
            while (k < s->nopts && strcmp(a, s->opts[k].name) != 0)
                k++;
            if (k == s->nopts) {
                rc = unknown_option(s, a);
            } else if (i + 1 >= argc) {
                fprintf(stderr, "%s: %s needs a number\n", s->prog, a);
                rc = 2;
            } else {
                char *end;
                const char *v = argv[++i];
                *s->opts[k].val = strtoull(v, &end, 0);
                if (!*v || *end || *v == '-') {
                    fprintf(stderr, "%s: %s takes a number, not '%s'\n", s->prog, a, v);
                    rc = 2;
                }
            }
        }
    }
    if (rc) {
        free(sel);
        return rc;
    }
    if (s->start)
        s->start();
    unsigned ran = 0, tfailed = 0;
    for (size_t k = 0; k < s->ntests; k++) {
        if (any_sel && !sel[k])
            continue;
        unsigned c0 = tally.checks, f0 = tally.failed;
        s->tests[k].fn();
        ran++;
        if (tally.failed != f0) {
            tfailed++;
            printf("FAILED: test %s (%u of %u checks)\n", s->tests[k].name, tally.failed - f0, tally.checks - c0);
            if (stop_on_fail)
                break;
        }
    }
    free(sel);
    printf("%s: %u tests: %u passed, %u failed\n", s->prog, ran, ran - tfailed, tfailed);
    printf("%s: %u checks, %u failed\n", s->prog, tally.checks, tally.failed);
    return tally.failed ? 1 : 0;
}

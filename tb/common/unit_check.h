/* sanfab — the tally of a unit test: count every check, print the failed ones (and, verbose, every
 * one) as "CHECK <what> ... ok|FAIL". Header-only, for a unit test's one translation unit: it gets
 * its tally (`tally`: checks, failed, verbose) and check(ok, fmt, ...). */
#ifndef SANFAB_UNIT_CHECK_H
#define SANFAB_UNIT_CHECK_H

#include <stdarg.h>
#include <stdio.h>

typedef struct {
    unsigned checks, failed; /* checks made, checks failed */
    int verbose;             /* print the checks that pass too */
} unit_tally_t;

/* Counts one check in t; prints it when it failed or t is verbose. Returns ok. */
static inline int unit_vcheck(unit_tally_t *t, int ok, const char *fmt, va_list ap)
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

/* the test's tally (one per unit-test program: this header is included by its one .c file) */
static unit_tally_t tally;

/* Counts one check; prints it when it failed (or always, with tally.verbose). Returns ok. */
static int check(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ok = unit_vcheck(&tally, ok, fmt, ap);
    va_end(ap);
    return ok;
}

#endif

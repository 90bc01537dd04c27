/* sanfab — the tally of a unit test: count every check, print the failed ones (and, verbose, every
 * one) as "CHECK <what> ... ok|FAIL". One tally per unit-test program, shared by all its files
 * (defined in tb/common/unit_main.c, the harness that runs the tests and prints the tally). */
#ifndef SANFAB_UNIT_CHECK_H
#define SANFAB_UNIT_CHECK_H

#include <stdarg.h>

typedef struct {
    unsigned checks, failed; /* checks made, checks failed */
    int verbose;             /* print the checks that pass too */
} unit_tally_t;

/* the program's tally (tb/common/unit_main.c) */
extern unit_tally_t tally;

/* Counts one check in t; prints it when it failed or t is verbose. Returns ok. */
int unit_vcheck(unit_tally_t *t, int ok, const char *fmt, va_list ap);

/* Counts one check in the program's tally; prints it when it failed (or always, with tally.verbose).
 * Returns ok. */
int check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

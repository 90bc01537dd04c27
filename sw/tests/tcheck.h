/* tcheck.h - the PASS/FAIL lines of the network simulator's C tests (run_netsim_tests.py reads them): include once
 * in a test program; main ends with tcheck_summary().
 * A test program of several files (test_net) defines TCHECK_SPLIT before including it in each of them, and
 * TCHECK_MAIN too in the one file with main: there the counters and the two functions are defined, elsewhere only
 * declared. */
#ifndef TCHECK_H
#define TCHECK_H

#include <stdio.h>

#ifdef TCHECK_SPLIT
void check(int ok, const char *name, const char *detail);
int tcheck_summary(void);
#define TCHECK_FN
#else
#define TCHECK_FN static
#endif

#if !defined(TCHECK_SPLIT) || defined(TCHECK_MAIN)
static int passed, failed;

/* one result: "PASS name" or "FAIL name: detail" */
TCHECK_FN void check(int ok, const char *name, const char *detail)
{
    if (ok) {
        passed++;
        printf("PASS %s\n", name);
    } else {
        failed++;
        printf("FAIL %s: %s\n", name, detail);
    }
    fflush(stdout);
}

/* the last line, "N passed, M failed"; the exit status */
TCHECK_FN int tcheck_summary(void)
{
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
#endif

#endif

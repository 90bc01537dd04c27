/* tcheck.h - the PASS/FAIL lines of the network simulator's C tests (run_netsim_tests.py reads them): include once
 * in a test program; main ends with tcheck_summary(). */
#ifndef TCHECK_H
#define TCHECK_H

#include <stdio.h>

static int passed, failed;

/* one result: "PASS name" or "FAIL name: detail" */
static void check(int ok, const char *name, const char *detail)
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
static int tcheck_summary(void)
{
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

#endif

/* sanfab — the one harness of the C models' unit tests (tb/<block>/ *_unit.c and their topic files): a table of named
 * tests, run all or only the named ones, counted, with the shared command line
 *
 *   UNIT [-v] [--test NAME]... [--stop-on-fail] [--list] [--help] [--version] [block options]
 *
 * -v prints the passing checks too; --test NAME (repeatable, or NAME,NAME) runs only those tests, in
 * the table's order (a name no test has is refused with a "did you mean"); --stop-on-fail runs no
 * test after the first that fails (the model-mutant scripts' runs); --list prints the names.
 * A block adds number options (mlc_unit's --seed, --cycles). Output: each failed check ("CHECK
 * <what> ... FAIL", unit_check.h), a "FAILED: test NAME (M of N checks)" line per failed test, then
 * "UNIT: T tests: P passed, F failed" and, last, "UNIT: N checks, M failed" (the line
 * tb/common/model_mutants.sh reads). Exit status 0 all passed, 1 a check failed, 2 bad usage. */
#ifndef SANFAB_UNIT_MAIN_H
#define SANFAB_UNIT_MAIN_H

#include "unit_check.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *name; /* as --test takes it */
    void (*fn)(void);
} unit_test_t;

typedef struct {
    const char *name; /* "--seed" */
    uint64_t *val;    /* set from the option's argument (strtoull, base 0) */
    const char *help; /* "first seed of the random test (default 1)" */
} unit_opt_t;

typedef struct {
    const char *prog;         /* "vcsw_unit": the tally lines' and --version's name */
    const char *about;        /* one line for --help */
    const unit_test_t *tests; /* in the order they run */
    size_t ntests;
    const unit_opt_t *opts; /* the block's number options (may be NULL) */
    size_t nopts;
    void (*start)(void); /* called after parsing, before the first test (may be NULL) */
} unit_suite_t;

/* Parses the command line, runs the suite's (selected) tests, prints the tally; returns the exit
 * status (0, 1, or 2 for bad usage; 0 after --help, --list, --version). */
int unit_main(const unit_suite_t *s, int argc, char **argv);

#endif

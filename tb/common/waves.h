/* sanfab — waves on demand, shared by every Verilator bench (docs/verification.md, "Waves").
 *
 *   --vcd FILE          the RTL's waves of this run, passing or failing: every cycle, or the window
 *                       --vcd-start N (first cycle, default the run's first) and --vcd-cycles N
 *                       (how many, default all)
 *   --vcd-on-fail FILE  the waves of a failing run only: after the failure the bench replays the
 *                       run from reset (deterministic from the seed) and writes the last
 *                       --vcd-cycles (default 2000) cycles up to the failing one. A passing run
 *                       costs nothing and writes nothing (the regression's mode)
 *
 * The path is checked before the run: a missing directory, a directory, a file or directory that
 * cannot be written is a usage error (exit status 2). Every bench that writes waves says so:
 * "waves: FILE (cycles A..B)". Nothing here has state of its own: the options live in the
 * caller's bench_waves_t.
 */
#ifndef SANFAB_WAVES_H
#define SANFAB_WAVES_H

#include <stdint.h>
#include <stdio.h>

/* The default of --vcd-cycles with --vcd-on-fail: the cycles before the failure that are written. */
#define BENCH_WAVES_ON_FAIL_CYCLES 2000u

/* The wave options of a run. */
typedef struct {
    const char *vcd;     /* --vcd FILE, or NULL */
    const char *on_fail; /* --vcd-on-fail FILE, or NULL */
    uint64_t start;      /* --vcd-start N (0: from the run's first cycle) */
    uint64_t cycles;     /* --vcd-cycles N (0: not given) */
} bench_waves_t;

/* Checks that path can be written as a file (created if missing, else opened for writing without
 * changing it; a file created by the check is removed again). Returns 0, or 2 after printing
 * "PROG: --OPT FILE: why" to stderr. */
int bench_waves_check_path(const char *prog, const char *opt, const char *path);

/* Checks the wave options of a run before it starts: not both files, --vcd-start only with --vcd,
 * --vcd-cycles at least 1 when given, the RTL present (has_rtl: the build has it and the mode runs
 * it), the path writable. Returns 0, or 2 after a message on stderr. */
int bench_waves_check(const char *prog, const bench_waves_t *w, int has_rtl);

/* What a bench does with its --vcd before (the RTL step of) bench cycle `cycle`: 1 the cycle is in
 * the window (open the VCD if it is not open yet), -1 past the window (close it), 0 nothing. `first`
 * is the run's first cycle (0 or 1 by bench): the window starts at --vcd-start or there, if later. */
int bench_waves_at(const bench_waves_t *w, uint64_t cycle, uint64_t first);

/* The first cycle of the --vcd-on-fail window before the failing cycle `fail` (not before `first`,
 * the run's first cycle). */
uint64_t bench_waves_fail_start(const bench_waves_t *w, uint64_t fail, uint64_t first);

/* Prints "<indent>waves: FILE (cycles A..B)" on f, or, when written is 0, that the run wrote no
 * waves to FILE (it ended before --vcd-start). */
void bench_waves_print(FILE *f, const char *indent, const char *path, int written, const uint64_t range[2],
                       uint64_t start);

/* The usage lines of the four options (for a bench's --help), each starting with `indent`. */
void bench_waves_usage(FILE *f, const char *indent);

#endif

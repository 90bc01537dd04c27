/* sanfab — the wave re-run of a failing lockstep bench, shared by the benches that have one
 * (tb/mlc/mlc_lockstep.c, tb/mlc/sbox_lockstep.c). After its first failure a bench run with --vcd
 * runs itself again (/proc/self/exe) with the same arguments plus "--vcd-start S --quiet"; the
 * re-run, deterministic from the same seed, opens the VCD only at step S and stops at the same
 * failure, so the file holds the window of steps S.. up to it. The bench itself parses --vcd-start
 * and does not re-run when it has one. No global state; POSIX (fork, execv, waitpid).
 */
#ifndef SANFAB_RERUN_H
#define SANFAB_RERUN_H

#include <stdint.h>

/* The first step of a VCD window of `window` steps before the failing step `fail` (at least 1). */
uint64_t bench_rerun_start(uint64_t fail, uint64_t window);

/* Runs this program again with argv[0..argc-1] followed by "--vcd-start START --quiet", its stdout
 * to /dev/null, waits for it, then prints "PROG: trace of steps START.. in VCD" to stderr. Returns
 * the re-run's wait status, or -1 when it could not be started. */
int bench_rerun_vcd(const char *prog, int argc, char *const *argv, uint64_t start, const char *vcd);

#endif

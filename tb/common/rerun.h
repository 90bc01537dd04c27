/* sanfab — the --vcd-on-fail re-run of a failing lockstep bench, shared by the benches that replay a
 * failure in a new process (tb/mlc/mlc_bench.c, tb/sbox/sbox_bench.c, tb/sbox/sbox_tree_bench.c).
 * After its first failure a bench run with --vcd-on-fail FILE runs itself again (/proc/self/exe)
 * with the same arguments, its wave options replaced by "--vcd FILE --vcd-start S --quiet"; the
 * re-run, deterministic from the same seed, writes the waves from step S and stops at the same
 * failure, so the file holds the window S.. up to it (tb/common/waves.h). No global state; POSIX
 * (fork, execv, waitpid).
 */
#ifndef SANFAB_RERUN_H
#define SANFAB_RERUN_H

#include <stdint.h>

#include "waves.h"

/* Runs this program again with argv[0..argc-1] (minus --vcd, --vcd-on-fail, --vcd-start and
 * --vcd-cycles with their values) followed by "--vcd w->on_fail --vcd-start S --quiet", S =
 * bench_waves_fail_start(w, fail, first), its stdout to /dev/null, and waits for it. Then prints
 * "<indent>waves: FILE (cycles S..fail)" to stdout when the re-run failed again (exit status 1), or
 * a line saying it did not. Returns the re-run's wait status, or -1 when it could not be started. */
int bench_rerun_vcd(const char *prog, const char *indent, int argc, char *const *argv, const bench_waves_t *w,
                    uint64_t fail, uint64_t first);

#endif

/* sanfab — unit tests of the Maestro switch box C model (cmodel/sbox.c) against the rules of
 * docs/sbox.md.
 *
 * The box's ports are driven by node MLC models (MASTER = 1; the box's MLCs are slaves) joined
 * through the link model (mlc_link_*) and driven by the host driver sw/sim/mlc_host.c; two boxes join
 * port to port for the tree test. Every expectation of a directed test is computed by hand from the
 * doc (the comments give the steps): register port timing, the 13-step transit (counters, the
 * source's and destination's status through the register port, the first frame start >= t+14
 * carrying the unit), bus and manager round robin, locks, drops, PC < 2, barriers in one box and
 * through a two-box tree, counter wrap and reset. The soak runs random unicast and multicast
 * messages on both channels through an 8-port box under a scoreboard. tb/sbox/mutants.sh breaks
 * the model in several ways and checks that this test fails for each.
 *
 * Build and run (from the repository root): make sbox-san && build/sbox/san/sbox_unit (the sources
 * are mk/sbox.mk's sbox_UNIT_C; the options and the output: tb/common/unit_main.h).
 * Options: -v (print passing checks), --seed N (seed of the soak, default 1), --cycles N (soak
 * steps of the 8-port run before draining, default 200000). A failing check prints
 * "CHECK ... FAIL"; the last line is "sbox_unit: N checks, M failed"; exit status 1 on any failure.
 *
 * Files: sbox_unit.c (this file: the table of tests, the options), sbox_unit.h and sbox_unit_fab.c
 * (the fabric), sbox_unit_<topic>.c (the tests: regs, transit, arbitration, barriers, tree, soak).
 */
#include "sbox_unit.h"

static uint64_t opt_seed = 1, opt_cycles = 200000;

static void start(void) { printf("sbox_unit: seed %" PRIu64 ", %" PRIu64 " soak steps\n", opt_seed, opt_cycles); }

/* the random soaks: 3 and 8 ports (an eighth of the steps each), then 8 ports on a narrow link */
static void test_soak(void)
{
    soak(opt_seed + 1000, 3, 8, 512, opt_cycles / 8, 30, 1); /* these two also against the box without its fast path */
    soak(opt_seed + 2000, 8, 8, 256, opt_cycles / 8, 40, 1);
    soak(opt_seed, 8, 4, 512, opt_cycles, 25, 0);
}

static const unit_opt_t opts[] = {
    {"--seed", &opt_seed, "seed of the soak (default 1)"},
    {"--cycles", &opt_cycles, "soak steps of the 8-port run before draining (default 200000)"},
};

static const unit_test_t tests[] = {
    {"params", test_params},
    {"regs", test_regs},
    {"transit", test_transit},
    {"routes", test_routes},
    {"pc", test_pc},
    {"lock_rr", test_lock_rr},
    {"manager_skip", test_manager_skip},
    {"manager_rr", test_manager_rr},
    {"reservation", test_reservation},
    {"backpressure", test_backpressure},
    {"barrier_one", test_barrier_one},
    {"exact_bar_drop", test_exact_bar_drop},
    {"tree", test_tree},
    {"tree_mcast", test_tree_mcast},
    {"box_port", test_box_port},
    {"wrap_reset", test_wrap_reset},
    {"soak", test_soak},
};

int main(int argc, char **argv)
{
    static const unit_suite_t suite = {
        "sbox_unit", "Unit tests of the switch box C model (cmodel/sbox.c) against docs/sbox.md.",
        tests, sizeof tests / sizeof tests[0], opts, sizeof opts / sizeof opts[0], start};
    return unit_main(&suite, argc, argv);
}

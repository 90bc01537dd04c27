/* sanfab — unit tests of the Maestro Link Controller C model against the rules of docs/mlc.md.
 *
 * Two MLCs (A master, B slave) joined by the link model, with directed stimulus or the host driver
 * sw/sim/mlc_host.c. Every expectation of a directed test is computed by hand from the doc's rules
 * (the comments give the steps): frame nibbles (the check by an independent long division, not the
 * model's LFSR), frame starts (rule 3: the next frame starts F + G steps after the previous one),
 * units per frame (rule 4), acceptance and acknowledgement steps (rule 6), status values. The
 * random test runs both directions and both channels with corrupted and erased frames under a
 * scoreboard (every message whole, in order per channel, exactly once) and checks the turn-round
 * rule at every frame start; the efficiency test measures one-way throughput against the doc's
 * formula exactly. tb/mlc/mutants.sh breaks the model in several ways and checks that this test
 * fails for each.
 *
 * Build and run (from the repository root): make mlc-san && build/mlc/san/mlc_unit (the sources are
 * mk/mlc.mk's mlc_UNIT_C; the options and the output: tb/common/unit_main.h).
 * Options: -v (print passing checks), --seed N (first seed of the random test), --cycles N (total
 * random-test cycles, default 1000000). A failing check prints "CHECK ... FAIL"; the last line is
 * "mlc_unit: N checks, M failed"; exit status 1 on any failure.
 *
 * Files: mlc_unit.c (this file: the table of tests, the options), mlc_unit.h and mlc_unit_pair.c
 * (the harness), mlc_unit_<topic>.c (the tests: frames, credits, messages, errors, guard, ports,
 * random).
 */
#include "mlc_unit.h"

static uint64_t opt_seed = 1, opt_cycles = 1000000;

static void start(void) { printf("mlc_unit: seed %" PRIu64 ", %" PRIu64 " random cycles\n", opt_seed, opt_cycles); }

static void test_random_opts(void) { test_random(opt_seed, opt_cycles); }

static const unit_opt_t opts[] = {
    {"--seed", &opt_seed, "first seed of the random test (default 1)"},
    {"--cycles", &opt_cycles, "total random-test cycles (default 1000000)"},
};

static const unit_test_t tests[] = {
    {"params", test_params},
    {"crc_reference", test_crc_reference},
    {"null_frames", test_null_frames},
    {"turn_timing", test_turn_timing},
    {"one_packet", test_one_packet},
    {"latency", test_latency},
    {"credit_limit", test_credit_limit},
    {"burst", test_burst},
    {"modes", test_modes},
    {"straddle", test_straddle},
    {"cfg_changes", test_cfg_changes},
    {"msg_switch", test_msg_switch},
    {"messages", test_messages},
    {"corrupt_data", test_corrupt_data},
    {"corrupt_reply", test_corrupt_reply},
    {"corrupt_fields", test_corrupt_fields},
    {"handmade", test_handmade},
    {"guard_pulse", test_guard_pulse},
    {"double_talk", test_double_talk},
    {"guard_edges", test_guard_edges},
    {"guard_free", test_guard_free},
    {"guard_sweep", test_guard_sweep},
    {"timeout", test_timeout},
    {"ports", test_ports},
    {"reset", test_reset},
    {"efficiency", test_efficiency},
    {"random", test_random_opts},
};

int main(int argc, char **argv)
{
    static const unit_suite_t suite = {
        "mlc_unit", "Unit tests of the Maestro Link Controller C model (cmodel/mlc.c) against docs/mlc.md.",
        tests, sizeof tests / sizeof tests[0], opts, sizeof opts / sizeof opts[0], start};
    return unit_main(&suite, argc, argv);
}

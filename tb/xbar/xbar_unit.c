/* sanfab — unit tests of the crossbar C model against the rules of docs/xbar.md, with directed
 * stimulus on the model alone: latency, handover, flow-control and timeout timing, malformed input,
 * CRC marking, overflow, the counter schedule and register port, round robin, permutation
 * throughput, parameter checks. Every expectation is computed from the doc's rules and the
 * stimulus, never from the model's internals.
 *
 * Build: make xbar-san (build/xbar/san/xbar_unit; the sources are mk/xbar.mk's xbar_UNIT_C).
 * Options and output: tb/common/unit_main.h (--test NAME runs one test, --list names them, -v).
 *
 * Files: xbar_unit.c (this file: the table of tests), xbar_unit.h and xbar_unit_sim.c (the
 * simulation harness), xbar_unit_<topic>.c (the tests: timing, malformed, counters, arbitration).
 */
#include "xbar_unit.h"

static const unit_test_t tests[] = {
    {"params", test_params},
    {"latency", test_latency},
    {"handover", test_handover},
    {"stop_go", test_stop_go},
    {"downstream_stop", test_downstream_stop},
    {"timeout_bound", test_timeout_bound},
    {"timeout_hdr", test_timeout_hdr},
    {"illegal", test_illegal},
    {"routes", test_routes},
    {"runt_abort", test_runt_abort},
    {"crc", test_crc},
    {"overflow", test_overflow},
    {"dropping", test_dropping},
    {"abt_owner", test_abt_owner},
    {"counters", test_counters},
    {"ctr_preset", test_ctr_preset},
    {"round_robin", test_round_robin},
    {"rr_regrant", test_rr_regrant},
    {"head_timing", test_head_timing},
    {"permutation", test_permutation},
    {"occupancy", test_occupancy},
    {"quiet_skip", test_quiet_skip},
    {"ports32", test_ports32},
};

int main(int argc, char **argv)
{
    static const unit_suite_t suite = {
        "xbar_unit", "Unit tests of the crossbar C model (cmodel/xbar.c) against docs/xbar.md.",
        tests, sizeof tests / sizeof tests[0], NULL, 0, NULL};
    return unit_main(&suite, argc, argv);
}

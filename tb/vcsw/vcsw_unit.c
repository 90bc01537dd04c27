/* sanfab — unit tests of the virtual-channel switch C model against the rules of docs/vcsw.md, with
 * directed stimulus on the model alone: latency (3 + LINK_DELAY), ownership and handover, Go & Stop
 * in both directions, virtual-channel interleaving, pipelined separable allocation (rule 3: the
 * offer registers, their request-time re-check, the next offer prepared from the state one step
 * older, input and output round robins, starvation), admission at a full buffer, MAXLEN cuts,
 * table drops, control VCs, table-write timing, the configuration port and counter schedule, the
 * RAM read, reset, parameter checks. Every expectation is computed by hand from the doc's rules and
 * the stimulus (the comments give the steps), never from the model's internals. The test_rule3_*
 * tests and test_reset_offer check rule 3 directly; each was seen to fail on a deliberately broken
 * model (next head after a taken offer S_v[0]; no R; no request-time re-check; stop of step k used
 * when preparing; an offer kept until taken; the position moved by an offer not taken; an entry
 * reaching an emptied staging part seen at once; offer registers kept by vcsw_reset).
 * test_quiet_skip checks vcsw_quiet/vcsw_skip (the network fabric's skipping of idle switches) by
 * comparing a model that skips with one stepped every step; it was seen to fail on a vcsw_skip that
 * does not move the cable position, does not or only partly advances the counter schedule, or does not
 * advance the step number, and on a vcsw_quiet that ignores the input register, the staged heads, the
 * cable registers, the transmit registers (with the pops), the tx_stop registers or an outstanding read.
 *
 * Build: make vcsw-san (build/vcsw/san/vcsw_unit; the sources are mk/vcsw.mk's vcsw_UNIT_C).
 * Options (--test NAME runs one test, --list names them): tb/common/unit_main.h.
 * A failing check prints "CHECK <what was expected> ... FAIL"; -v prints the passing ones too.
 * Last line: "vcsw_unit: N checks, M failed"; exit status 1 on any failure.
 *
 * Files: vcsw_unit.c (this file: the table of tests), vcsw_unit.h and vcsw_unit_sim.c (the
 * simulation harness), vcsw_unit_<topic>.c (the tests: flow, admission, config, arbitration,
 * random, rule3, quiet).
 */
#include "vcsw_unit.h"

static const unit_test_t tests[] = {
    {"params", test_params},
    {"diagram", test_diagram},
    {"latency", test_latency},
    {"rule3_diagram_steps", test_rule3_diagram_steps},
    {"rule3_stream", test_rule3_stream},
    {"rule3_contention", test_rule3_contention},
    {"rule3_stop_rise", test_rule3_stop_rise},
    {"rule3_single_flits", test_rule3_single_flits},
    {"reset_offer", test_reset_offer},
    {"ownership", test_ownership},
    {"stop_bit", test_stop_bit},
    {"interleave", test_interleave},
    {"blocked_vc", test_blocked_vc},
    {"rx_stop", test_rx_stop},
    {"obeying_sender", test_obeying_sender},
    {"admission", test_admission},
    {"maxlen", test_maxlen},
    {"trunc_at_full", test_trunc_at_full},
    {"drops", test_drops},
    {"ctrl_vcs", test_ctrl_vcs},
    {"write_timing", test_write_timing},
    {"cfg", test_cfg},
    {"counters", test_counters},
    {"ram_read", test_ram_read},
    {"alloc_rr", test_alloc_rr},
    {"input_rr", test_input_rr},
    {"starvation", test_starvation},
    {"blocked_release", test_blocked_release},
    {"permutation", test_permutation},
    {"random", test_random},
    {"event_steps", test_event_steps},
    {"stress", test_stress},
    {"port_widths", test_port_widths},
    {"reset", test_reset},
    {"reset_keeps_tables", test_reset_keeps_tables},
    {"quiet_skip", test_quiet_skip},
};

int main(int argc, char **argv)
{
    static const unit_suite_t suite = {
        "vcsw_unit", "Unit tests of the VC switch C model (cmodel/vcsw.c) against docs/vcsw.md.",
        tests, sizeof tests / sizeof tests[0], NULL, 0, NULL};
    return unit_main(&suite, argc, argv);
}

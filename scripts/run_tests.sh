#!/usr/bin/env bash
# sanfab — the regression `make test` runs: every step is run, each prints its own detail, and
# the summary at the end says which failed. Exit status non-zero if any step failed.
#   scripts/run_tests.sh [STEP...]    (default: all steps; `--list` names them)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

MAKE=${MAKE:-make}
TEST_CYCLES=${TEST_CYCLES:-100000}
SEED=${SEED:-1}
STEPS_ALL=(lint model-sanitizers lockstep mutants icarus routing synth-gates)

step_lint() { $MAKE -s lint; }

step_model-sanitizers() {
    # the C model and the bench's host/scoreboard code under ASan/UBSan, two parameter sets
    $MAKE -s build/xbar/san/xbar_bench build/xbar/san/xbar_unit || return 1
    build/xbar/san/xbar_unit || return 1
    build/xbar/san/xbar_bench --quiet --cycles 50000 --seed "$SEED" || return 1
    build/xbar/san/xbar_bench --quiet --cycles 30000 --seed "$SEED" --NPORTS 5 --SLACK_DEPTH 24 \
        --STOP_THRESH 12 --GO_THRESH 6 --ROUTE_DELAY 3 --LINK_DELAY 2 --TIMEOUT 300 || return 1
    build/xbar/san/xbar_bench --quiet --cycles 30000 --seed "$SEED" --NPORTS 3 --TIMEOUT 0
}

step_lockstep() {
    $MAKE -s xbar-build || return 1
    local rc=0
    for b in build/xbar/{p8,p4,p16,myri}/xbar_bench; do
        echo "-- $b"
        "$b" --quiet --cycles "$TEST_CYCLES" --seed "$SEED" --vcd "$(dirname "$b")/fail.vcd" || rc=1
    done
    return $rc
}

step_mutants() {
    # every deliberately broken build must fail: in lockstep, and with the scoreboard alone
    $MAKE -s xbar-mutants || return 1
    local rc=0
    for b in build/xbar/MUTANT_*/xbar_bench; do
        for mode in lockstep rtl; do
            if "$b" --quiet --cycles 20000 --seed "$SEED" --mode "$mode" > "$(dirname "$b")/$mode.log" 2>&1; then
                echo "NOT CAUGHT: $(basename "$(dirname "$b")") passed in $mode mode"; rc=1
            else
                echo "caught: $(basename "$(dirname "$b")") ($mode): $(grep -m1 '^FAIL' "$(dirname "$b")/$mode.log" | cut -c1-150)"
            fi
        done
    done
    return $rc
}

step_icarus() {
    if [ -x tb/xbar/run_icarus.sh ]; then bash tb/xbar/run_icarus.sh && bash tb/xbar/run_icarus.sh --selftest
    else echo "tb/xbar/run_icarus.sh missing"; return 1; fi
}

step_routing() { $MAKE -s -C sw test; }

step_synth-gates() {
    python3 -m unittest discover -s scripts -p 'test_synth.py' 2>&1 | tail -3 || return 1
    $MAKE -s synth-check
}

if [ "${1:-}" = "--list" ]; then printf '%s\n' "${STEPS_ALL[@]}"; exit 0; fi
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=("${STEPS_ALL[@]}")

passed=0; failed=0; failed_names=()
for s in "${steps[@]}"; do
    if ! declare -F "step_$s" >/dev/null; then echo "run_tests: unknown step '$s' (--list)"; exit 2; fi
    echo "==== $s"
    t0=$(date +%s)
    if "step_$s"; then
        passed=$((passed + 1)); echo "==== $s: ok ($(( $(date +%s) - t0 )) s)"
    else
        failed=$((failed + 1)); failed_names+=("$s"); echo "==== $s: FAILED ($(( $(date +%s) - t0 )) s)"
    fi
done
[ $failed -gt 0 ] && echo "failed steps: ${failed_names[*]}"
echo "test: $passed passed, $failed failed"
[ $failed -eq 0 ]

#!/usr/bin/env bash
# sanfab — the benches' command-line conventions (docs/verification.md, "Running"): every lockstep bench
#   --version prints "NAME (sanfab) VERSION" with the repository's VERSION file, exit 0;
#   a misspelt option is refused (exit 2) naming the option and the likely one ("did you mean --cycles?");
#   a number option given a word is refused (exit 2) naming the option.
# Usage: tb/common/cli_test.sh [BUILD]  (the set benches build/xbar/p8, vcsw/p8, mlc/d, sbox/d, sbox/tree/t3 must be
# built: scripts/run_tests.sh lockstep does; the network bench and the unit tests are checked when they are built)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
B=${1:-build}
V=$(cat VERSION)
pass=0 fail=0
check() {  # NAME BENCH
    local name=$1 bin=$2 out rc
    [ -x "$bin" ] || { echo "FAIL cli: $bin is not built"; fail=$((fail + 1)); return; }
    out=$("$bin" --version 2>&1); rc=$?
    if [ $rc -eq 0 ] && [ "$out" = "$name (sanfab) $V" ]; then pass=$((pass + 1))
    else echo "FAIL cli: $bin --version: exit $rc, '$out' (want '$name (sanfab) $V')"; fail=$((fail + 1)); fi
    out=$("$bin" --cycels 5 2>&1 < /dev/null); rc=$?
    if [ $rc -eq 2 ] && grep -q -- "--cycels.*did you mean --cycles?" <<< "$out"; then pass=$((pass + 1))
    else echo "FAIL cli: $bin --cycels 5: exit $rc, '$(head -1 <<< "$out")'"; fail=$((fail + 1)); fi
    out=$("$bin" --cycles many 2>&1 < /dev/null); rc=$?
    if [ $rc -eq 2 ] && grep -q -- "--cycles" <<< "$out"; then pass=$((pass + 1))
    else echo "FAIL cli: $bin --cycles many: exit $rc, '$(head -1 <<< "$out")'"; fail=$((fail + 1)); fi
}
check xbar_bench "$B/xbar/p8/xbar_bench"
check vcsw_bench "$B/vcsw/p8/vcsw_bench"
check mlc_bench "$B/mlc/d/mlc_bench"
check sbox_bench "$B/sbox/d/sbox_bench"
check sbox_tree_bench "$B/sbox/tree/t3/sbox_tree_bench"
[ -x "$B/net/ring4/net_bench" ] && check net_bench "$B/net/ring4/net_bench"
# the models' unit tests (tb/common/unit_main.h; built by make test's model-sanitizers step, before this one):
# --version, a misspelt option and a misspelt --test name each refused with the closest one
check_unit() {  # NAME BINARY MISSPELT-TEST RIGHT-TEST
    local name=$1 bin=$2 out rc
    out=$("$bin" --version 2>&1); rc=$?
    if [ $rc -eq 0 ] && [ "$out" = "$name (sanfab) $V" ]; then pass=$((pass + 1))
    else echo "FAIL cli: $bin --version: exit $rc, '$out' (want '$name (sanfab) $V')"; fail=$((fail + 1)); fi
    out=$("$bin" --tset "$4" 2>&1 < /dev/null); rc=$?
    if [ $rc -eq 2 ] && grep -q -- "--tset.*did you mean --test?" <<< "$out"; then pass=$((pass + 1))
    else echo "FAIL cli: $bin --tset: exit $rc, '$(head -1 <<< "$out")'"; fail=$((fail + 1)); fi
    out=$("$bin" --test "$3" 2>&1 < /dev/null); rc=$?
    if [ $rc -eq 2 ] && grep -q -- "'$3'.*did you mean $4?" <<< "$out"; then pass=$((pass + 1))
    else echo "FAIL cli: $bin --test $3: exit $rc, '$(head -1 <<< "$out")'"; fail=$((fail + 1)); fi
}
[ -x "$B/xbar/san/xbar_unit" ] && check_unit xbar_unit "$B/xbar/san/xbar_unit" latncy latency
[ -x "$B/vcsw/san/vcsw_unit" ] && check_unit vcsw_unit "$B/vcsw/san/vcsw_unit" stop_bti stop_bit
[ -x "$B/mlc/san/mlc_unit" ] && check_unit mlc_unit "$B/mlc/san/mlc_unit" timout timeout
[ -x "$B/sbox/san/sbox_unit" ] && check_unit sbox_unit "$B/sbox/san/sbox_unit" transti transit
echo "cli: $pass passed, $fail failed"
[ $fail -eq 0 ]

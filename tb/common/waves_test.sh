#!/usr/bin/env bash
# sanfab — waves on demand (docs/verification.md, "Waves"; tb/common/waves.h): every check runs a real
# bench briefly.
#   --vcd FILE on a passing run writes a VCD whose header has the block's scope, whose first and last
#     times are those of the cycles the bench printed ("waves: FILE (cycles A..B)": 10A and 10B+5 ns),
#     and B is the run's last cycle; --vcd-start/--vcd-cycles write exactly that window; a window after
#     the run's end writes nothing and says so;
#   an unwritable path (missing directory, a directory, a read-only directory when not root) is
#     refused before the run: exit 2, a message naming the path, nothing simulated (no banner);
#   --vcd-on-fail writes the last --vcd-cycles cycles up to the failure of a failing run (a mutant, in
#     process for the crossbar, by a re-run for the MLC) and nothing for a passing run;
#   every tb/*/*.gtkw names only signals of a VCD of its block (scripts/gen_gtkw.py --check).
# Usage: tb/common/waves_test.sh [BUILD]  (the set benches build/xbar/p8, vcsw/p8, mlc/d, sbox/d, sbox/tree/t3 and the
# mutant-capable build/xbar/MUTANTS_p8, mlc/MUTANTS_d must be built: scripts/run_tests.sh lockstep does)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
B=${1:-build}
T=$(mktemp -d "$B/waves-test.XXXXXX")
XB=$B/xbar/p8/xbar_bench XM=$B/xbar/MUTANTS_p8/xbar_bench VC=$B/vcsw/p8/vcsw_bench
ML=$B/mlc/d/mlc_bench MM=$B/mlc/MUTANTS_d/mlc_bench SB=$B/sbox/d/sbox_bench
ST=$B/sbox/tree/t3/sbox_tree_bench ST_ARGS="--table tb/sbox/sbox_tree3.maestro"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL waves: $*"; fail=$((fail + 1)); }
t0=$(date +%s)
for b in "$XB" "$XM" "$VC" "$ML" "$MM" "$SB" "$ST"; do
    [ -x "$b" ] || { echo "FAIL waves: $b is not built"; exit 1; }
done

first_t() { grep -m1 '^#' "$1" | tr -d '#'; }
last_t() { grep '^#' "$1" | tail -1 | tr -d '#'; }
# check_vcd WHAT OUT VCD SCOPE: OUT has "waves: VCD (cycles A..B)", VCD's header has `$scope module
# SCOPE`, its times run from 10A to 10B+5 ns; sets WA, WB
check_vcd() {
    local what=$1 out=$2 vcd=$3 scope=$4 line
    WA="" WB=""
    line=$(grep -m1 -F "waves: $vcd (cycles " <<< "$out")
    if [ -z "$line" ]; then bad "$what: no 'waves: $vcd (cycles A..B)' line: $(tail -3 <<< "$out")"; return 1; fi
    WA=$(sed -E 's/.*\(cycles ([0-9]+)\.\.([0-9]+)\).*/\1/' <<< "$line")
    WB=$(sed -E 's/.*\(cycles ([0-9]+)\.\.([0-9]+)\).*/\2/' <<< "$line")
    if [ ! -s "$vcd" ]; then bad "$what: $vcd missing or empty"; return 1; fi
    if ! grep -q -E "^ *\\\$scope module $scope \\\$end" "$vcd"; then bad "$what: no scope $scope in $vcd"; return 1; fi
    if ! grep -q '^\$timescale 1ns \$end' "$vcd"; then bad "$what: $vcd's timescale is not 1ns"; return 1; fi
    local f l
    f=$(first_t "$vcd") l=$(last_t "$vcd")
    if [ "$f" != $((10 * WA)) ] || [ "$l" != $((10 * WB + 5)) ]; then
        bad "$what: $vcd runs from #$f to #$l, cycles $WA..$WB want #$((10 * WA)) to #$((10 * WB + 5))"; return 1
    fi
    ok
}

# --- a passing run, the whole of it
out=$("$XB" --test random --cycles 2000 --vcd "$T/x.vcd" 2>&1); rc=$?
[ $rc -eq 0 ] || bad "xbar --vcd: exit $rc"
if check_vcd "xbar --vcd" "$out" "$T/x.vcd" xbar; then
    n=$(sed -nE 's/^ok +random +([0-9]+) cycles.*/\1/p' <<< "$out")
    if [ "$WA" = 0 ] && [ -n "$n" ] && [ "$WB" = $((n - 1)) ]; then ok; else bad "xbar --vcd: cycles $WA..$WB, the run ran ${n:-?}"; fi
fi
out=$("$VC" --test random --cycles 1000 --vcd "$T/v.vcd" 2>&1); rc=$?
[ $rc -eq 0 ] || bad "vcsw --vcd: exit $rc"
if check_vcd "vcsw --vcd" "$out" "$T/v.vcd" vcsw; then
    n=$(sed -nE 's/^ok +random +([0-9]+) steps.*/\1/p' <<< "$out")
    if [ "$WA" = 1 ] && [ "$WB" = "$n" ]; then ok; else bad "vcsw --vcd: cycles $WA..$WB, the run ran ${n:-?} steps"; fi
fi
out=$("$ML" --cycles 3000 --vcd "$T/m.vcd" 2>&1); rc=$?
[ $rc -eq 0 ] || bad "mlc --vcd: exit $rc"
check_vcd "mlc --vcd" "$out" "$T/m.vcd" TOP && { [ "$WA" = 1 ] && ok || bad "mlc --vcd: from cycle $WA, not 1"; }
out=$("$SB" --cycles 3000 --vcd "$T/s.vcd" 2>&1); rc=$?
[ $rc -eq 0 ] || bad "sbox --vcd: exit $rc"
check_vcd "sbox --vcd" "$out" "$T/s.vcd" sbox
# shellcheck disable=SC2086
out=$("$ST" $ST_ARGS --cycles 2000 --vcd "$T/t.vcd" 2>&1); rc=$?
[ $rc -eq 0 ] || bad "sbox_tree_bench --vcd: exit $rc"
check_vcd "sbox_tree_bench --vcd" "$out" "$T/t.vcd" sbox_tree

# --- windows
out=$("$XB" --test random --cycles 2000 --vcd "$T/w.vcd" --vcd-start 500 --vcd-cycles 100 2>&1)
check_vcd "xbar window" "$out" "$T/w.vcd" xbar && { [ "$WA.$WB" = 500.599 ] && ok || bad "xbar window: cycles $WA..$WB, not 500..599"; }
out=$("$ML" --cycles 3000 --vcd "$T/mw.vcd" --vcd-start 1000 --vcd-cycles 50 2>&1)
check_vcd "mlc window" "$out" "$T/mw.vcd" TOP && { [ "$WA.$WB" = 1000.1049 ] && ok || bad "mlc window: cycles $WA..$WB, not 1000..1049"; }
out=$("$ML" --cycles 3000 --vcd "$T/m50.vcd" --vcd-cycles 50 2>&1)   # from the run's first cycle, 1
check_vcd "mlc --vcd-cycles" "$out" "$T/m50.vcd" TOP && { [ "$WA.$WB" = 1.50 ] && ok || bad "mlc --vcd-cycles 50: cycles $WA..$WB, not 1..50"; }
out=$("$XB" --test random --cycles 2000 --vcd "$T/late.vcd" --vcd-start 100000000 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "waves: none written to $T/late.vcd" <<< "$out" && [ ! -e "$T/late.vcd" ]; then ok
else bad "a window after the end: exit $rc, $(grep waves <<< "$out")"; fi

# --- unwritable paths: refused before the run
mkdir -p "$T/dir"
paths=("$T/no/such/dir/w.vcd" "$T/dir")
if [ "$(id -u)" != 0 ]; then mkdir -p "$T/ro" && chmod 555 "$T/ro" && paths+=("$T/ro/w.vcd"); fi
for p in "${paths[@]}"; do
    for cmd in "$XB --test random --vcd" "$XB --vcd-on-fail" "$VC --test random --vcd" "$ML --vcd" "$ML --vcd-on-fail" "$SB --vcd" \
               "$ST --vcd-on-fail"; do
        s=$(date +%s%N)
        # shellcheck disable=SC2086
        out=$($cmd "$p" 2> "$T/err"); rc=$?
        ms=$((($(date +%s%N) - s) / 1000000))
        if [ $rc -eq 2 ] && grep -q -F "$p" "$T/err" && [ -z "$out" ] && [ $ms -lt 2000 ]; then ok
        else bad "'$cmd $p': exit $rc after $ms ms (want 2 at once), stderr '$(cat "$T/err")', stdout '$(head -2 <<< "$out")'"; fi
    done
done
[ ! -e "$T/ro/w.vcd" ] && [ -z "$(ls "$T/dir")" ] && ok || bad "a refused path was written"

# --- --vcd-on-fail: a failing run writes the window up to the failure, a passing run nothing
out=$("$XM" --quiet --test random --cycles 20000 --vcd-on-fail "$T/f.vcd" --vcd-cycles 300 +mutant=CRC_NOMARK 2>&1); rc=$?
fc=$(sed -nE 's/^FAIL +random +seed [0-9]+ cycle ([0-9]+).*/\1/p' <<< "$out")
if [ $rc -ne 1 ] || [ -z "$fc" ]; then bad "xbar mutant CRC_NOMARK with --vcd-on-fail: exit $rc, no FAIL line"
elif check_vcd "xbar --vcd-on-fail" "$out" "$T/f.vcd" TOP; then
    want=$((fc >= 299 ? fc - 299 : 0))   # the last 300 cycles up to the failure (the run starts at 0)
    if [ "$WB" = "$fc" ] && [ "$WA" = $want ]; then ok; else bad "xbar --vcd-on-fail: cycles $WA..$WB, failure at $fc"; fi
fi
out=$("$MM" --quiet --cycles 20000 --vcd-on-fail "$T/mf.vcd" --vcd-cycles 200 +mutant=RETX_ACK 2>&1); rc=$?
fc=$(grep -m1 -E '^(LOCKSTEP MISMATCH|CHECK|SCOREBOARD) cycle=' <<< "$out" | sed -E 's/^[A-Z ]+ cycle=([0-9]+).*/\1/')
if [ $rc -ne 1 ] || [ -z "$fc" ]; then bad "mlc mutant RETX_ACK with --vcd-on-fail: exit $rc, no failure line"
elif check_vcd "mlc --vcd-on-fail (re-run)" "$out" "$T/mf.vcd" TOP; then
    want=$((fc > 200 ? fc - 199 : 1))    # the last 200 cycles up to the failure (the run starts at 1)
    if [ "$WB" = "$fc" ] && [ "$WA" = $want ]; then ok; else bad "mlc --vcd-on-fail: cycles $WA..$WB, failure at $fc"; fi
fi
# the box bench's re-run too: more transit tests than 20000 cycles hold fail its end check
out=$("$SB" --quiet --cycles 20000 --transits 1000 --vcd-on-fail "$T/sf.vcd" --vcd-cycles 100 2>&1); rc=$?
fc=$(sed -nE 's/^CHECK cycle=([0-9]+) only .* transit tests ran.*/\1/p' <<< "$out")
if [ $rc -ne 1 ] || [ -z "$fc" ]; then bad "sbox --transits 1000 with --vcd-on-fail: exit $rc, no CHECK line"
elif check_vcd "sbox --vcd-on-fail (re-run)" "$out" "$T/sf.vcd" TOP; then
    if [ "$WB" = "$fc" ] && [ "$WA" = $((fc - 99)) ]; then ok; else bad "sbox --vcd-on-fail: cycles $WA..$WB, failure at $fc"; fi
fi
for cmd in "$XB --test random --cycles 2000" "$ML --cycles 2000" "$XM --test random --cycles 2000"; do
    # shellcheck disable=SC2086
    out=$($cmd --vcd-on-fail "$T/pass.vcd" 2>&1); rc=$?
    if [ $rc -eq 0 ] && [ ! -e "$T/pass.vcd" ] && ! grep -q "waves:" <<< "$out"; then ok
    else bad "'$cmd --vcd-on-fail' on a passing run: exit $rc, file $(ls "$T/pass.vcd" 2>/dev/null)"; rm -f "$T/pass.vcd"; fi
done

# --- the GTKWave save files name only signals of their block's VCD
for pair in "tb/xbar/xbar.gtkw $T/x.vcd" "tb/vcsw/vcsw.gtkw $T/v.vcd" "tb/mlc/mlc.gtkw $T/m.vcd" "tb/sbox/sbox.gtkw $T/s.vcd" \
            "tb/sbox/sbox_tree.gtkw $T/t.vcd"; do
    # shellcheck disable=SC2086
    if python3 scripts/gen_gtkw.py --check $pair > "$T/gtkw.log" 2>&1; then ok; else bad "$(cat "$T/gtkw.log")"; fi
done

echo "waves: $pass passed, $fail failed ($(($(date +%s) - t0)) s)"
[ $fail -eq 0 ] && rm -rf "$T"
[ $fail -eq 0 ]

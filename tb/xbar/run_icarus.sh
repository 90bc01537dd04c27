#!/usr/bin/env bash
# sanfab — build and run the self-checking Icarus Verilog bench of the crossbar.
#
#   tb/xbar/run_icarus.sh [--vcd] [--selftest] [SET ...]
#
# SET is a comma-separated list of bench parameters, e.g. NPORTS=8 or NPORTS=5,LINK_DELAY=3,ROUTE_DELAY=2
# (NPORTS SLACK_DEPTH STOP_THRESH GO_THRESH ROUTE_DELAY LINK_DELAY TIMEOUT COUNTERS CTR_WIDTH SEED HOT_LEN
# WATCHDOG).
# Without sets it runs NPORTS=4, NPORTS=8, NPORTS=16, a 5-port set with 8-bit counters and delays and a
# 3-port set without counters. One line per set, then
# "icarus: N passed, M failed"; the exit status is non-zero when anything failed.
#   --vcd       dump waves to build/icarus/xbar_<params>.vcd
#   --selftest  instead, build with -DSANFAB_MUTANT_CRC_NOMARK (bad CRCs no longer marked) and with
#               -DSANFAB_MUTANT_GO_NOHYST (GO without hysteresis) on the first set (default NPORTS=4):
#               the bench must FAIL each time, which counts as a pass.
# Builds and logs go to build/icarus/.
set -u

cd "$(dirname "$0")/../.." || exit 2

IVERILOG=${IVERILOG:-iverilog}
VVP=${VVP:-vvp}
OUT=build/icarus
# the broken builds --selftest must see fail: bad CRCs not marked; GO without hysteresis (caught by
# the flow-control check from stat_occ)
SELFTEST_MUTANTS="CRC_NOMARK GO_NOHYST"
KNOWN=" NPORTS SLACK_DEPTH STOP_THRESH GO_THRESH ROUTE_DELAY LINK_DELAY TIMEOUT COUNTERS CTR_WIDTH SEED HOT_LEN WATCHDOG "

vcd=0
selftest=0
sets=()
for a in "$@"; do
    case "$a" in
        --vcd) vcd=1 ;;
        --selftest) selftest=1 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "run_icarus.sh: unknown option $a" >&2; exit 2 ;;
        *) sets+=("$a") ;;
    esac
done
if [ ${#sets[@]} -eq 0 ]; then
    if [ $selftest -eq 1 ]; then sets=(NPORTS=4); else
        sets=(NPORTS=4 NPORTS=8 NPORTS=16 NPORTS=5,CTR_WIDTH=8,ROUTE_DELAY=2,LINK_DELAY=3 NPORTS=3,COUNTERS=0)
    fi
fi
# jobs: SET|MUTANT (MUTANT empty for a normal run)
jobs=()
if [ $selftest -eq 1 ]; then
    for m in $SELFTEST_MUTANTS; do jobs+=("${sets[0]}|$m"); done
else
    for s in "${sets[@]}"; do jobs+=("$s|"); done
fi

for t in "$IVERILOG" "$VVP"; do
    command -v "$t" >/dev/null 2>&1 || { echo "run_icarus.sh: $t not found" >&2; exit 2; }
done
mkdir -p "$OUT" || exit 2
# rtl/xbar/files.f: source files, and +incdir+DIR lines that become -I DIR
rtl_files=()
while read -r f; do
    case "$f" in
        +incdir+*) rtl_files+=("-I" "${f#+incdir+}") ;;
        *) rtl_files+=("$f") ;;
    esac
done < <(grep -v '^[[:space:]]*\(#\|//\|$\)' rtl/xbar/files.f)

now() { date +%s%N; }

passed=0
failed=0
for job in "${jobs[@]}"; do
    set=${job%%|*}
    mutant=${job#*|}
    # parameters -> -P options and a file name
    popts=()
    name=xbar
    label=${set//,/ }
    bad=""
    IFS=',' read -r -a kvs <<< "$set"
    for kv in "${kvs[@]}"; do
        k=${kv%%=*}
        v=${kv#*=}
        if [ "$k" = "$kv" ] || [[ "$KNOWN" != *" $k "* ]] || ! [[ "$v" =~ ^[0-9]+$ ]]; then
            bad="bad parameter '$kv' (want NAME=number, NAME one of:$KNOWN)"
            break
        fi
        popts+=(-P "xbar_icarus_tb.$k=$v")
        name="${name}_${k}${v}"
    done
    defs=()
    what="$label"
    if [ -n "$mutant" ]; then
        defs=("-DSANFAB_MUTANT_$mutant")
        name="${name}_mutant_${mutant,,}"
        what="selftest SANFAB_MUTANT_$mutant $label"
    fi
    if [ -n "$bad" ]; then
        echo "$what: FAIL $bad"
        failed=$((failed + 1))
        continue
    fi
    vvpfile="$OUT/$name.vvp"
    log="$OUT/$name.log"
    plus=()
    [ $vcd -eq 1 ] && plus=("+vcd=$OUT/$name.vcd")

    t0=$(now)
    if ! "$IVERILOG" -g2005 -Wall "${defs[@]}" -o "$vvpfile" -s xbar_icarus_tb "${popts[@]}" \
            "${rtl_files[@]}" tb/xbar/xbar_icarus_tb.v > "$log.build" 2>&1; then
        echo "$what: FAIL compile error (see $log.build)"
        sed 's/^/    /' "$log.build" | head -20
        failed=$((failed + 1))
        continue
    fi
    if [ -s "$log.build" ]; then
        echo "    compiler said:" >&2
        sed 's/^/    /' "$log.build" >&2
    else
        rm -f "$log.build"
    fi
    timeout 120 "$VVP" -n "$vvpfile" "${plus[@]}" > "$log" 2>&1
    rc=$?
    t1=$(now)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')

    res=$(grep -m1 '^RESULT ' "$log")
    first_fail=$(grep -m1 '^FAIL' "$log")
    if [ $rc -eq 0 ] && [[ "$res" == "RESULT PASS "* ]] && [ -z "$first_fail" ]; then
        verdict=pass
        summary=$(sed -n 's/^RESULT PASS .* packets=\([0-9]*\) received=\([0-9]*\) stops=\([0-9]*\) counters=\([0-9]*\) cycles=\([0-9]*\).*/\1 packets sent, \2 delivered, \3 STOPs, \4 counters, \5 cycles/p' <<< "$res")
    else
        verdict=fail
        if [ $rc -eq 124 ]; then
            summary="vvp timed out after 120 s"
        elif [ -n "$first_fail" ]; then
            summary=$first_fail
        else
            summary="no RESULT line (vvp exit $rc)"
        fi
    fi

    if [ $selftest -eq 1 ]; then
        # the broken build must be caught
        if [ $verdict = fail ] && [ -n "$first_fail" ]; then
            echo "$what: PASS (bench failed as it must: ${first_fail#FAIL: }) (${secs} s)"
            passed=$((passed + 1))
        else
            echo "$what: FAIL (bench did not catch the broken build: $summary) (${secs} s, log $log)"
            failed=$((failed + 1))
        fi
    else
        if [ $verdict = pass ]; then
            echo "$what: PASS $summary (${secs} s)"
            passed=$((passed + 1))
        else
            echo "$what: FAIL $summary (${secs} s, log $log)"
            failed=$((failed + 1))
        fi
    fi
    [ $vcd -eq 1 ] && echo "    waves: $OUT/$name.vcd"
done

echo "icarus: $passed passed, $failed failed"
[ $failed -eq 0 ]

#!/usr/bin/env bash
# sanfab — build and run the self-checking Icarus Verilog bench of the VC switch (no C model).
#
#   tb/vcsw/run_icarus.sh [--vcd] [--selftest] [SET ...]
#
# SET is a comma-separated list of parameters, e.g. NPORTS=8 or NPORTS=4,NVC=4,DEPTH=32,MAXLEN=8
# (NPORTS NVC CTRL FLIT_W TAG_W DEPTH MAXLEN LINK_DELAY COUNTERS CTR_WIDTH WATCHDOG).
# Without sets it runs the defaults (8 ports, 2 VCs, CTRL=1), 4 ports of 4 VCs with the longest cable
# the buffer allows, 5 ports of 4 data VCs with 8-bit counters, and 3 ports without counters with a
# long cable. One line per set, then "icarus: N passed, M failed"; exit status non-zero on a failure.
#   --vcd       dump waves to build/icarus/vcsw_<params>.vcd
#   --selftest  instead, build the first set (default: the defaults) with -DSANFAB_MUTANT_CTRL_MAP
#               (control VCs land on data VCs) and with -DSANFAB_MUTANT_TABLE_COPY (input 0's table
#               copy never written): the bench must FAIL each time, which counts as a pass.
# Builds and logs go to build/icarus/.
set -u

cd "$(dirname "$0")/../.." || exit 2

IVERILOG=${IVERILOG:-iverilog}
VVP=${VVP:-vvp}
OUT=build/icarus
SELFTEST_MUTANTS="CTRL_MAP TABLE_COPY"
KNOWN=" NPORTS NVC CTRL FLIT_W TAG_W DEPTH MAXLEN LINK_DELAY COUNTERS CTR_WIDTH WATCHDOG "

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
    if [ $selftest -eq 1 ]; then sets=(NPORTS=8); else
        sets=(NPORTS=8 NPORTS=4,NVC=4,DEPTH=32,MAXLEN=8,LINK_DELAY=9 NPORTS=5,NVC=4,CTRL=0,CTR_WIDTH=8,LINK_DELAY=3
              NPORTS=3,COUNTERS=0,LINK_DELAY=13)
    fi
fi
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
# rtl/vcsw/files.f: source files, and +incdir+DIR lines that become -I DIR
rtl_files=()
while read -r f; do
    case "$f" in
        +incdir+*) rtl_files+=("-I" "${f#+incdir+}") ;;
        *) rtl_files+=("$f") ;;
    esac
done < <(grep -v '^[[:space:]]*\(#\|//\|$\)' rtl/vcsw/files.f)

now() { date +%s%N; }

passed=0
failed=0
for job in "${jobs[@]}"; do
    set=${job%%|*}
    mutant=${job#*|}
    popts=()
    name=vcsw
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
        popts+=(-P "vcsw_icarus_tb.$k=$v")
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
    if ! "$IVERILOG" -g2005 -Wall "${defs[@]}" -o "$vvpfile" -s vcsw_icarus_tb "${popts[@]}" \
            "${rtl_files[@]}" tb/vcsw/vcsw_icarus_tb.v > "$log.build" 2>&1; then
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
    timeout 300 "$VVP" -n "$vvpfile" "${plus[@]}" > "$log" 2>&1
    rc=$?
    t1=$(now)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')

    res=$(grep -m1 '^RESULT ' "$log")
    first_fail=$(grep -m1 '^FAIL' "$log")
    if [ $rc -eq 0 ] && [[ "$res" == "RESULT PASS "* ]] && [ -z "$first_fail" ]; then
        verdict=pass
        summary=$(sed -n 's/^RESULT PASS packets=\([0-9]*\) received=\([0-9]*\) flits=\([0-9]*\) counters=\([0-9]*\) steps=\([0-9]*\).*/\1 packets sent, \2 delivered, \3 flits checked, \4 counters, \5 steps/p' <<< "$res")
    else
        verdict=fail
        if [ $rc -eq 124 ]; then
            summary="vvp timed out after 300 s"
        elif [ -n "$first_fail" ]; then
            summary=$first_fail
        else
            summary="no RESULT line (vvp exit $rc)"
        fi
    fi

    if [ $selftest -eq 1 ]; then
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

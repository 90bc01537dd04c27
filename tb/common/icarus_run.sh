# sanfab — the shared runner of the self-checking Icarus Verilog benches (no C model), sourced by
# tb/<block>/run_icarus.sh after it has set:
#   BLOCK             block name: RTL from rtl/$BLOCK/files.f, bench tb/$BLOCK/${BLOCK}_icarus_tb.v
#                     (top module ${BLOCK}_icarus_tb)
#   FILELIST, TB      optional: the file list and the bench file when they are not those paths
#   KNOWN             " NAME NAME ... ": the bench parameters a SET may set
#   DEFAULT_SETS      array of the sets run without arguments
#   SELFTEST_SET      the set --selftest builds; SELFTEST_MUTANTS the mutants it runs
#   VVP_TIMEOUT       seconds one simulation may take
#   RESULT_SED        sed expression turning the bench's "RESULT PASS ..." line into a summary
#   HELP_LINES        the last line of the block script's usage comment (--help prints 2..it)
# and is running in the repository root with the script's arguments in "$@":
# [--vcd] [--selftest] [SET ...]. Prints one line per set, then "icarus: N passed, M failed"; its
# last status is non-zero on a failure. Builds and logs go to build/icarus/.
# --selftest compiles the set once mutant-capable (-DSANFAB_MUTANTS, the RTL's site list from
# scripts/mutant_sites.sh first, rtl/common/sanfab_mutant{,_check}.v; docs/verification.md, "The mutation
# proof"), runs it once without +mutant, where it must pass (it is the clean design), then once per
# mutant with +mutant=NAME, where the bench must FAIL with the site selected.

IVERILOG=${IVERILOG:-iverilog}
VVP=${VVP:-vvp}
OUT=build/icarus
FILELIST=${FILELIST:-rtl/$BLOCK/files.f}
TB=${TB:-tb/$BLOCK/${BLOCK}_icarus_tb.v}

vcd=0
selftest=0
sets=()
for a in "$@"; do
    case "$a" in
        --vcd) vcd=1 ;;
        --selftest) selftest=1 ;;
        -h|--help) sed -n "2,${HELP_LINES}p" "$0" | sed 's/^# \{0,1\}//'; return 0 ;;
        -*) echo "run_icarus.sh: unknown option $a" >&2; return 2 ;;
        *) sets+=("$a") ;;
    esac
done
if [ ${#sets[@]} -eq 0 ]; then
    if [ $selftest -eq 1 ]; then sets=("$SELFTEST_SET"); else sets=("${DEFAULT_SETS[@]}"); fi
fi
# jobs: SET|MUTANT (MUTANT empty for a normal run; "-" for the selftest's run without +mutant)
jobs=()
if [ $selftest -eq 1 ]; then
    jobs+=("${sets[0]}|-")
    for m in $SELFTEST_MUTANTS; do jobs+=("${sets[0]}|$m"); done
else
    for s in "${sets[@]}"; do jobs+=("$s|"); done
fi

for t in "$IVERILOG" "$VVP"; do
    command -v "$t" >/dev/null 2>&1 || { echo "run_icarus.sh: $t not found" >&2; return 2; }
done
mkdir -p "$OUT" || return 2
# $FILELIST: source files, and +incdir+DIR lines that become -I DIR
rtl_files=()
while read -r f; do
    case "$f" in
        +incdir+*) rtl_files+=("-I" "${f#+incdir+}") ;;
        *) rtl_files+=("$f") ;;
    esac
done < <(grep -v '^[[:space:]]*\(#\|//\|$\)' "$FILELIST")
# --selftest: the mutant-capable compile's first files (the site list, every site of the file list's RTL)
mut_files=()
if [ $selftest -eq 1 ]; then
    sites="$OUT/${BLOCK}_mutant_sites.v"
    # shellcheck disable=SC2086
    bash scripts/mutant_sites.sh --require "$SELFTEST_MUTANTS" "${rtl_files[@]}" > "$sites" || return 2
    mut_files=("$sites" rtl/common/sanfab_mutant.v rtl/common/sanfab_mutant_check.v)
fi

now() { date +%s%N; }

passed=0
failed=0
for job in "${jobs[@]}"; do
    set=${job%%|*}
    mutant=${job#*|}
    popts=()
    name=$BLOCK
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
        popts+=(-P "${BLOCK}_icarus_tb.$k=$v")
        name="${name}_${k}${v}"
    done
    defs=()
    files=("${rtl_files[@]}")
    what="$label"
    vvpfile="$OUT/$name.vvp"
    plus=()
    if [ -n "$mutant" ]; then
        # one mutant-capable compile of the set serves the run without +mutant and every mutant
        defs=("-DSANFAB_MUTANTS")
        files=("${mut_files[@]}" "${rtl_files[@]}")
        vvpfile="$OUT/${name}_mutants.vvp"
        if [ "$mutant" = - ]; then
            name="${name}_unmutated"
            what="selftest mutant-capable build without +mutant $label"
        else
            name="${name}_mutant_${mutant,,}"
            what="selftest +mutant=$mutant $label"
            plus=("+mutant=$mutant")
        fi
    fi
    if [ -n "$bad" ]; then
        echo "$what: FAIL $bad"
        failed=$((failed + 1))
        continue
    fi
    log="$OUT/$name.log"
    [ $vcd -eq 1 ] && plus+=("+vcd=$OUT/$name.vcd")

    t0=$(now)
    if [ -n "$mutant" ] && [ "$vvpfile" = "${compiled:-}" ]; then
        :   # compiled for an earlier job of this selftest
    elif ! "$IVERILOG" -g2005 -Wall "${defs[@]}" -o "$vvpfile" -s "${BLOCK}_icarus_tb" "${popts[@]}" \
            "${files[@]}" "$TB" > "$log.build" 2>&1; then
        echo "$what: FAIL compile error (see $log.build)"
        sed 's/^/    /' "$log.build" | head -20
        failed=$((failed + 1))
        continue
    else
        compiled=$vvpfile
        if [ -s "$log.build" ]; then
            echo "    compiler said:" >&2
            sed 's/^/    /' "$log.build" >&2
        else
            rm -f "$log.build"
        fi
    fi
    timeout "$VVP_TIMEOUT" "$VVP" -n "$vvpfile" "${plus[@]}" > "$log" 2>&1
    rc=$?
    t1=$(now)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')

    res=$(grep -m1 '^RESULT ' "$log")
    first_fail=$(grep -m1 '^FAIL' "$log")
    mut_err=$(grep -m1 -e '^%Error: MUTANT' "$log" | cut -c1-150)
    if [ $rc -eq 0 ] && [[ "$res" == "RESULT PASS "* ]] && [ -z "$first_fail" ] && [ -z "$mut_err" ] \
            && ! grep -q '^MUTANT ' "$log"; then
        verdict=pass
        summary=$(sed -n "$RESULT_SED" <<< "$res")
    else
        verdict=fail
        if [ -n "$mut_err" ]; then
            summary=$mut_err
        elif [ $rc -eq 124 ]; then
            summary="vvp timed out after $VVP_TIMEOUT s"
        elif [ -n "$first_fail" ]; then
            summary=$first_fail
        else
            summary="no RESULT line (vvp exit $rc)"
        fi
    fi

    if [ $selftest -eq 1 ] && [ "$mutant" != - ]; then
        if [ -z "$mut_err" ] && ! grep -q "^MUTANT $mutant selected" "$log"; then
            echo "$what: FAIL (+mutant=$mutant selected no mutation site: $summary) (${secs} s, log $log)"
            failed=$((failed + 1))
        elif [ $verdict = fail ] && [ -n "$first_fail" ] && [ -z "$mut_err" ]; then
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

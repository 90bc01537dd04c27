# sanfab — the shared runner of the model-mutant scripts (tb/<block>/*mutants.sh), sourced after the
# block script has set, in the repository root:
#   TAG       the name printed ("mutants", "sbox mutants")
#   MODEL     the model's sources (e.g. cmodel/mlc.c; a model cut into files lists them all); a
#             mutant breaks the first, or the one its line names, and a broken copy replaces it
#   SRCS      the other sources of the unit test (the unit test's own file included)
#   UNIT      the unit test's name as it prints its tally ("mlc_unit: N checks, M failed")
#   UNIT_ARGS arguments of every unit test run (may be empty)
#   MUTANTS   lines "NAME|exact text in MODEL|replacement" (first occurrence; \n is a newline,
#             \| a '|'); "NAME@FILE|..." breaks FILE, one of MODEL's, instead of the first
# with the script's arguments (mutant names to run; none: all) in "$@". Builds the unit test with
# the real model (which must pass) and with each broken copy, which must end with a failed check
# ("UNIT: N checks, M failed" with M > 0 and exit status 1): a crash or a build error is a failure of
# the script, not a catch. Prints one line per mutant and "TAG: P caught, F not"; its last status is
# non-zero when a mutant was not caught. SRCS, the same for every build, are compiled once (with the
# same flags) and linked with the real or broken model, compiled per build.
CC=${CC:-cc}
OUT=${TMPDIR:-/tmp}/${UNIT}_mutants.$$
mkdir -p "$OUT"
trap 'rm -rf "$OUT"' EXIT
# the project's include path (-I DIR ...), read from its one definition, the Makefile's CINC line
CINC=$(sed -n 's/^CINC[[:space:]]*:=[[:space:]]*//p' Makefile)
[ -n "$CINC" ] || { echo "$TAG: no CINC line in the Makefile"; exit 1; }
FLAGS="-std=c11 -Wall -Wextra -Werror -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all $CINC"
read -r -a MODEL_FILES <<< "$MODEL"

pass=0
fail=0
echo "$TAG: building the real model"
objs=()
for s in $SRCS; do
    o="$OUT/obj/${s//\//_}.o"
    mkdir -p "$OUT/obj"
    $CC $FLAGS -c "$s" -o "$o" || { echo "$TAG: $s does not build"; exit 1; }
    objs+=("$o")
done
# shellcheck disable=SC2086  # UNIT_ARGS is a word list
if ! $CC $FLAGS "${MODEL_FILES[@]}" "${objs[@]}" -o "$OUT/real" || ! "$OUT/real" $UNIT_ARGS > "$OUT/real.log" 2>&1; then
    echo "$TAG: the real model fails its own test"; tail -5 "$OUT/real.log"; exit 1
fi
while IFS='|' read -r name from to; do
    [ -z "$name" ] && continue
    target=${MODEL_FILES[0]}
    if [[ "$name" == *@* ]]; then target=${name#*@}; name=${name%%@*}; fi
    if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
    mkdir -p "$OUT/$name"
    rest=()
    for f in "${MODEL_FILES[@]}"; do [ "$f" != "$target" ] && rest+=("$f"); done
    if [ ${#rest[@]} = ${#MODEL_FILES[@]} ]; then
        echo "mutant $name: $target is not a file of MODEL"; fail=$((fail+1)); continue
    fi
    if ! python3 - "$from" "$to" "$target" "$OUT/$name/$(basename "$target")" <<'PY'
import sys
def unq(x):
    return x.replace('\\n', '\n').replace('\\|', '|')
frm, to, src, dst = unq(sys.argv[1]), unq(sys.argv[2]), sys.argv[3], sys.argv[4]
s = open(src).read()
if frm not in s:
    sys.exit(1)
open(dst, 'w').write(s.replace(frm, to, 1))
PY
    then
        echo "mutant $name: text not found in $target (the script is out of date)"; fail=$((fail+1)); continue
    fi
    if ! $CC $FLAGS "$OUT/$name/$(basename "$target")" "${rest[@]}" "${objs[@]}" -o "$OUT/$name/u" 2> "$OUT/$name/build.log"; then
        echo "mutant $name: build error (proves nothing)"; head -3 "$OUT/$name/build.log"; fail=$((fail+1)); continue
    fi
    # shellcheck disable=SC2086
    "$OUT/$name/u" $UNIT_ARGS > "$OUT/$name/run.log" 2>&1
    rc=$?
    last=$(grep "^$UNIT: [0-9]* checks" "$OUT/$name/run.log" | tail -1)
    nfail=$(echo "$last" | sed -n 's/.*checks, \([0-9]*\) failed/\1/p')
    if [ "$rc" = 1 ] && [ -n "$nfail" ] && [ "$nfail" -gt 0 ]; then
        first=$(grep -m1 'FAIL' "$OUT/$name/run.log" | cut -c1-150)
        echo "mutant $name: caught ($nfail failed checks; first: $first)"
        pass=$((pass+1))
    else
        echo "mutant $name: NOT caught (exit $rc, '$last')"
        tail -3 "$OUT/$name/run.log"
        fail=$((fail+1))
    fi
done <<< "$MUTANTS"
echo "$TAG: $pass caught, $fail not"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# sanfab — the one judge of a mutant's run (docs/verification.md, "The mutation proof"): make test's mutants
# step (scripts/run_tests.sh, every block's RTL mutants) and make net-test (mk/net.mk, the network mutants) run
# the bench and ask it for the verdict.
#   tb/common/mutant_judge.sh LABEL LOG STATUS SITE PATTERN
# LABEL the mutant as the verdict names it; LOG the run's output; STATUS its exit status (124: timed out);
# SITE the mutation site the run selected with +mutant=SITE, or "-" for a mutant that is a patched copy of a
# file (no site); PATTERN an extended regular expression of the lines that prove the catch (the bench found
# the RTL different from the model, or broke one of its own checks): a lockstep bench's
# '^(LOCKSTEP MISMATCH|SCOREBOARD|CHECK)', the network bench's '^FAIL cycle [0-9]+: (switch|host) '.
# Caught only when the bench failed (non-zero, not a crash), with a PATTERN line, and the site (if any) said
# it was selected: a crash, a sanitizer or Verilator runtime error, a +mutant no site knows, a timeout or a
# pass never counts. Prints one line, "caught: LABEL: <first PATTERN line>" or "NOT CAUGHT: LABEL: <why>";
# exit 0 when caught, 1 when not, 2 on a wrong call.
set -u
[ $# -eq 5 ] || { echo "usage: $0 LABEL LOG STATUS SITE PATTERN" >&2; exit 2; }
label=$1 log=$2 code=$3 site=$4 pat=$5
[ -r "$log" ] || { echo "NOT CAUGHT: $label: no log $log"; exit 1; }
first=$(grep -m1 -E "$pat" "$log" | cut -c1-150)
if [ -z "$site" ]; then
    echo "NOT CAUGHT: $label: no +mutant=NAME in its arguments (make list-runs)"; exit 1
elif grep -q '^%Error: MUTANT' "$log"; then
    echo "NOT CAUGHT: $label: $(grep -m1 '^%Error: MUTANT' "$log" | cut -c1-150)"; exit 1
elif [ "$site" != - ] && ! grep -q "^MUTANT $site selected" "$log"; then
    echo "NOT CAUGHT: $label: +mutant=$site selected no mutation site ($log)"; exit 1
elif [ "$code" -eq 0 ]; then
    echo "NOT CAUGHT: $label: the bench passed ($log)"; exit 1
elif [ "$code" -eq 124 ]; then
    echo "NOT CAUGHT: $label: timed out ($log)"; exit 1
elif [ "$code" -ge 128 ] || grep -q -E '^==[0-9]+==ERROR|runtime error:|^%Error|Assertion .* failed' "$log"; then
    echo "NOT CAUGHT: $label: crashed or runtime error, exit $code ($log)"; exit 1
elif [ -z "$first" ]; then
    echo "NOT CAUGHT: $label: exit $code without a line matching $pat ($log)"; exit 1
fi
echo "caught: $label: $first"

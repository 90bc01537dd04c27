#!/bin/bash
# tb/common/param_range_test.sh -- every block top refuses a parameter just outside its range at elaboration, in
# Verilator (--lint-only) and Icarus: for each top-level parameter of cmodel/sanfab_params.h (read through
# scripts/check_params.py --ranges), LO-1 (when LO > 0) and HI+1 must stop the elaboration at the top's parameter
# check (a module named ..._invalid_parameters_... or ..._must_be_..., which does not exist) in one tool at least
# (Verilator stops some sets earlier, at a width it cannot make: NVC=1 of vcsw; that is named, not failed), and the
# defaults must elaborate. Run from the repository root (make test's lint step runs it); about 30 s on one core.
#
#   bash tb/common/param_range_test.sh [BLOCK...]     (default: xbar vcsw mlc)
set -u
VERILATOR=${VERILATOR:-verilator}
blocks=${*:-xbar vcsw mlc}
top_of() { case $1 in mlc) echo mlc_pair ;; *) echo "$1" ;; esac; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 runs=0

# one elaboration: $1 tool (verilator|icarus), $2 block, $3 top, $4 "NAME=V" or "" (the defaults); prints its output
elab() {
    local tool=$1 blk=$2 top=$3 set=$4 files incs
    files=$(grep -v '^[[:space:]]*\(#\|//\|$\)' "rtl/$blk/files.f")
    if [ "$tool" = verilator ]; then
        "$VERILATOR" --lint-only -Wall -Wno-DECLFILENAME --top-module "$top" ${set:+-G$set} $files 2>&1
    else
        incs=$(printf '%s\n' $files | sed -n 's/^+incdir+/-I/p')
        iverilog -g2005 -o "$tmp/elab.vvp" -s "$top" ${set:+-P$top.$set} $incs $(printf '%s\n' $files | grep -v '^+') 2>&1
    fi
}

for blk in $blocks; do
    top=$(top_of "$blk")
    fails0=$fails
    ranges=$(python3 scripts/check_params.py --ranges "$blk") || { echo "param-range: no ranges for $blk"; exit 1; }
    for tool in verilator icarus; do
        runs=$((runs + 1))
        if ! out=$(elab $tool "$blk" "$top" ""); then
            echo "FAIL param-range [$tool] $top: the defaults do not elaborate"; echo "$out" | head -5; fails=$((fails + 1))
        fi
    done
    while read -r name def lo hi; do
        vals="$((hi + 1))"
        [ "$lo" -gt 0 ] && vals="$((lo - 1)) $vals"
        for v in $vals; do
            at_check=""
            for tool in verilator icarus; do
                runs=$((runs + 1))
                if out=$(elab $tool "$blk" "$top" "$name=$v"); then
                    echo "FAIL param-range [$tool] $top: $name=$v (range $lo..$hi) elaborates"; fails=$((fails + 1))
                elif grep -q '_invalid_parameters_\|_must_be_' <<< "$out"; then
                    at_check="$at_check $tool"
                else
                    echo "   [$tool] $top: $name=$v stops before the parameter check: $(grep -m1 '%Error\|%Warning\|error' <<< "$out" | cut -c1-110)"
                fi
            done
            if [ -z "$at_check" ]; then
                echo "FAIL param-range $top: $name=$v fails, but at the parameter check in no tool"; fails=$((fails + 1))
            fi
        done
    done <<< "$ranges"
    [ "$fails" -eq "$fails0" ] && echo "param-range: $top refuses every value just outside its parameters' ranges (Verilator, Icarus)"
done
echo "param-range: $((runs - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]

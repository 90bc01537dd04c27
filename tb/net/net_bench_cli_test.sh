#!/usr/bin/env bash
# sanfab — the network bench's command line (docs/network.md "The network lockstep bench"): --help, refusals
# (exit 2), a configuration file with the command line over it (--cycles and --seed are sanfab-sim keys there).
# Usage: tb/net/net_bench_cli_test.sh NET_BENCH TOPOLOGY ROUTES DIR (a model-only build will do)
set -uo pipefail
nb=$1 topo=$(realpath "$2") routes=$(realpath "$3") dir=$4
mkdir -p "$dir"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL net_bench command line: $*"; fail=$((fail + 1)); }

run="--topology $topo --routes $routes --load 0.05"
if "$nb" --help | grep -q "^usage: net_bench"; then ok; else bad "--help"; fi
# shellcheck disable=SC2086
for args in "--bogus 1" "$run --cycles" "$run --cycles x" "$run --test random" "$run a.cfg b.cfg" "$run --load 0.1" \
            "$run --vcd-cycles q" "$run --cycles 10 --cycles 20"; do
    out=$("$nb" $args 2>&1); rc=$?
    if [ $rc -eq 2 ] && grep -q "^net_bench: " <<< "$out"; then ok; else bad "\"$args\": exit $rc, expected 2 with a message: $out"; fi
done
if [ "$("$nb" --mode model --help | head -1 | cut -c1-16)" = "usage: net_bench" ]; then ok; else bad "--help after --mode"; fi
# a configuration file sets cycles and seed; the command line wins over it
printf 'sanfab-sim 1\ntopology %s\nroutes %s\nload 0.05\nwarmup 0\ndrain 100000\ncycles 3000\nseed 3\n' "$topo" "$routes" > "$dir/run.cfg"
out=$("$nb" "$dir/run.cfg" --mode model 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "^net_bench: seed 3, mode model, .* 0 + 3000 cycles" <<< "$out"; then ok; else bad "config file: exit $rc: $out"; fi
out=$("$nb" "$dir/run.cfg" --cycles 1000 --seed 4 --mode model 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "^net_bench: seed 4, mode model, .* 0 + 1000 cycles" <<< "$out"; then ok; else bad "command line over the file: exit $rc: $out"; fi
echo "net_bench command line: $pass passed, $fail failed"
[ $fail -eq 0 ]

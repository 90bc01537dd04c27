#!/usr/bin/env bash
# sanfab — the regression `make test` runs: every step is run, each prints its own detail, and
# the summary at the end says which failed. Exit status non-zero if any step failed.
#   scripts/run_tests.sh [STEP...]    (default: all steps; `--list` names them)
#   BLOCK=xbar[,mlc...] scripts/run_tests.sh [STEP...]    (make test BLOCK=...): one block's part only
# What runs for each block (parameter sets, mutants, sanitizer runs, the synthesis gate, the Icarus
# bench) comes from its mk/<block>.mk through `make list-runs`.
#
# BLOCK (a name or a comma list; unset or empty: everything, as always). Every step belongs to a block
# or to one of three pseudo-blocks, so all the names together are the whole regression:
#   xbar, vcsw, mlc, sbox (the blocks of `make list-runs`): lint (make B-lint; sbox's takes its tree top),
#       model-sanitizers, lockstep, mutants, icarus, synth-gates, each on that block's runs only (the
#       `runs` lines whose BLOCK field is selected). Lockstep's waves and bench-CLI tests use every
#       block's benches: they run only when all four are selected.
#   net   the RTL networks: lint (net-lint, net-lint-wrapper), rtlnet
#   sw    the C tools and the experiments: routing, netsim, experiments
#   repo  the repository-wide checks: lint (check-help, check-generated, check-params, check-param-ranges),
#         packaging (every FuseSoC core), synth-fresh
# A step the selection has no part of prints one "skipped" line; `--list` says what each step runs.
# An unknown name is an error (exit 2) listing the known ones.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

MAKE=${MAKE:-make}
TEST_CYCLES=${TEST_CYCLES:-100000}
MUTANT_CYCLES=${MUTANT_CYCLES:-20000}
MUTANT_TIMEOUT=${MUTANT_TIMEOUT:-600}
SEED=${SEED:-1}
JOBS=${JOBS:-2}
PY=.venv/bin/python
# make test's hardware builds: quick builds (-O0: its runs are short, the build dominates) of their own, under
# TB, so they never mix with the -O2 builds of make sim and make bench under build/ (the networks' are in
# TB/net-quick); tmake is make with that BUILD and SET_OPT (mk/rules.mk)
TB=${TEST_BUILD:-build/quick}
tmake() { $MAKE BUILD="$TB" SET_OPT=-O0 "$@"; }
STEPS_ALL=(lint packaging model-sanitizers lockstep mutants icarus routing netsim rtlnet experiments synth-fresh synth-gates)
BLOCK=${BLOCK:-}
RUN_BLOCKS=""   # the selected hardware blocks (BLOCK set), " xbar mlc"; empty: every block's runs

# KIND BLOCK NAME BINARY [ARGS...] lines of the given kind (of the RUN_BLOCKS only, when set)
runs() {
    tmake -s --no-print-directory list-runs SEED="$SEED" |
        awk -v k="$1" -v b="$RUN_BLOCKS" '$1 == k && (b == "" || index(b " ", " " $2 " ") > 0)'
}

# the lint step's make goals under BLOCK (together they are `make lint`'s prerequisites)
lint_goals() {
    local b
    [ "$SEL_REPO" = 1 ] && echo check-help check-generated check-params check-param-ranges
    for b in $RUN_BLOCKS; do echo "$b-lint"; done
    [ "$SEL_NET" = 1 ] && echo net-lint net-lint-wrapper
    return 0
}

step_lint() {
    if [ -n "$BLOCK" ]; then
        # shellcheck disable=SC2046
        tmake -s -j "$JOBS" --output-sync=target $(lint_goals); return
    fi
    tmake -s -j "$JOBS" --output-sync=target lint;   # independent lint targets, JOBS at a time, each one's lines together
}

step_packaging() {
    # the .core files are checked against their file lists by `make lint`; here FuseSoC reads every core,
    # lints every block, and runs each target of the cheapest block (mlc: lint, sim, synth to its iCE40
    # HX8K config, lockstep) through scripts/fusesoc.sh, with the project's own tools: each must succeed
    # and FuseSoC/Edalize must print no warning (a deprecation above all). Then the plot-only deps check.
    local rc=0 b t out br=build/fusesoc-test
    local RUN_BLOCKS=""   # every block's core (the step is BLOCK=repo's)
    [ -f LICENSE ] || { echo "LICENSE missing"; rc=1; }
    if [ ! -x .venv/bin/fusesoc ]; then
        echo "fusesoc not in .venv (make deps installs it): FuseSoC checks skipped"
        return 1
    fi
    for b in $(runs set | awk '{print $2}' | sort -u); do
        if out=$(scripts/fusesoc.sh core-info "sanfab:sanfab:$b" 2>&1) && ! grep -qi 'warning\|deprecat' <<< "$out"; then
            echo "fusesoc core-info sanfab:sanfab:$b: ok ($(grep -c '^[a-z]* *:' <<< "$out") targets)"
        else
            echo "fusesoc core-info sanfab:sanfab:$b FAILED:"; sed 's/^/    /' <<< "$out" | tail -10; rc=1
        fi
    done
    rm -rf "$br"; mkdir -p "$br"
    # fusesoc_target BLOCK TARGET: one run; ok when it exits 0, prints no WARNING/deprecation line of
    # FuseSoC or Edalize, and (sim) the bench says RESULT PASS, (synth) a bitstream is written
    fusesoc_target() {
        local b=$1 t=$2 log="$br/$1-$2.log" t0 ok=1 why="" st=0
        t0=$(date +%s)
        LOCKSTEP_CYCLES=2000 scripts/fusesoc.sh run --build-root "$br/$b" --target "$t" "sanfab:sanfab:$b" \
            < /dev/null > "$log" 2>&1 || st=$?
        [ $st = 0 ] || { ok=0; why="exit status $st"; }
        if grep -qi 'deprecat' "$log"; then ok=0; why="$why, a deprecation warning"; fi
        if grep -q '^WARNING:' "$log"; then ok=0; why="$why, a FuseSoC warning"; fi
        case $t in
            sim) grep -q '^RESULT PASS' "$log" || { ok=0; why="$why, no RESULT PASS"; } ;;
            synth) ls "$br/$b"/*/synth/*.bin > /dev/null 2>&1 || { ok=0; why="$why, no bitstream"; } ;;
            lockstep) grep -q '^PASS ' "$log" || { ok=0; why="$why, no PASS line"; } ;;
        esac
        if [ $ok = 1 ]; then
            echo "fusesoc run --target $t sanfab:sanfab:$b: ok ($(( $(date +%s) - t0 )) s)"
        else
            echo "fusesoc run --target $t sanfab:sanfab:$b FAILED (${why#, }; $log):"
            { grep -i '^WARNING:\|deprecat' "$log"; tail -5 "$log"; } | head -15 | sed 's/^/    /'
            return 1
        fi
    }
    # (JOBS runs at a time, the longest first; their lines in this order)
    local n=0 pout
    pout=$(mktemp -d build/packaging.XXXXXX)
    for t in synth lockstep sim; do pool_run "$pout" $n fusesoc_target mlc "$t"; n=$((n + 1)); done
    for b in $(runs set | awk '{print $2}' | sort -u); do pool_run "$pout" $n fusesoc_target "$b" lint; n=$((n + 1)); done
    pool_show "$pout" $n || rc=1
    # the plot-only install (make deps-plot): its check passes on the full install
    if out=$(bash scripts/deps.sh --only plot --check 2>&1); then
        echo "deps.sh --only plot --check: ok"
    else
        echo "deps.sh --only plot --check FAILED:"; sed 's/^/    /' <<< "$out"; rc=1
    fi
    return $rc
}

step_model-sanitizers() {
    # the C models and the benches' host/scoreboard code under ASan/UBSan with -DSANFAB_ASSERT
    # (the builds JOBS at a time, then the runs JOBS at a time, each one's lines together, in the list's order)
    local blocks kind block name bin args n=0 out
    blocks=$(runs san; runs unit)
    blocks=$(awk '{print $2}' <<< "$blocks" | sort -u)
    # shellcheck disable=SC2046
    tmake -s -j "$JOBS" $(sed 's/$/-san/' <<< "$blocks") || return 1
    out=$(mktemp -d build/sanitizers.XXXXXX)
    while read -r kind block name bin args; do
        [ -z "$kind" ] && continue
        if [ "$kind" = unit ]; then
            # shellcheck disable=SC2016
            pool_run "$out" $n bash -c 'echo "-- $1 unit $2: $3"; "$3"' _ "$block" "$name" "$bin"
        else
            # shellcheck disable=SC2016,SC2086
            pool_run "$out" $n bash -c 'echo "-- $1 san $2: $3 $4"; b=$3; shift 4; "$b" "$@"' _ "$block" "$name" "$bin" "$args" \
                --quiet --seed "$SEED" $args
        fi
        n=$((n + 1))
    done < <(runs unit; runs san)
    pool_show "$out" $n
}

# pool_run DIR I CMD...: run CMD in the background as job I of a pool of JOBS (waits while JOBS run);
# its output goes to DIR/I.txt, and DIR/I.fail marks a non-zero exit. pool_show DIR N: wait for the
# pool, print jobs 0..N-1's outputs in that order; non-zero if any failed.
pool_run() {
    local dir=$1 i=$2
    shift 2
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    { "$@" < /dev/null > "$dir/$i.txt" 2>&1 || touch "$dir/$i.fail"; } &
}
pool_show() {
    local dir=$1 n=$2 i rc=0
    wait
    for ((i = 0; i < n; i++)); do
        cat "$dir/$i.txt"
        [ -e "$dir/$i.fail" ] && rc=1
    done
    rm -rf "$dir"
    return $rc
}

step_lockstep() {
    # every parameter set's short lockstep run, JOBS at a time (each prints its own lines, shown in
    # the list's order)
    if [ -n "$BLOCK" ]; then
        # shellcheck disable=SC2046
        tmake -s -j "$JOBS" $(runs set | awk '{print $4}' | sort -u) || return 1   # the selected blocks' benches
    else
        tmake -s -j "$JOBS" benches || return 1
    fi
    local kind block name bin args n=0 out
    out=$(mktemp -d build/lockstep.XXXXXX)
    while read -r kind block name bin args; do
        # shellcheck disable=SC2016,SC2086
        pool_run "$out" $n bash -c 'echo "-- $1 [$2] $3${4:+ $4}"; shift 4; "$@"' _ "$block" "$name" "$bin" "$args" \
            "$bin" --quiet --cycles "$TEST_CYCLES" --seed "$SEED" --vcd-on-fail "$(dirname "$bin")/fail.vcd" $args
        n=$((n + 1))
    done < <(runs set)
    pool_show "$out" $n || return 1
    if [ -n "$BLOCK" ] && ! all_hw_selected; then
        echo "waves and bench-CLI tests skipped: they use every block's benches (BLOCK=${KNOWN_HW// /,})"
        return 0
    fi
    # waves on demand (docs/verification.md, "Waves"): --vcd, windows, refused paths, --vcd-on-fail on a
    # mutant, the GTKWave save files against real VCDs; two mutant-capable builds step mutants needs anyway
    tmake -s "$TB/xbar/MUTANTS_p8/xbar_bench" "$TB/mlc/MUTANTS_d/mlc_bench" || return 1
    local rc=0
    bash tb/common/waves_test.sh "$TB" || rc=1
    # the benches' --version, "did you mean", number checks
    bash tb/common/cli_test.sh "$TB" || rc=1
    return $rc
}

# judge_mutant BLOCK NAME MODE BIN [ARGS...]: run one mutant (ARGS end with its +mutant=SITE on the
# mutant-capable build BIN), print the verdict of tb/common/mutant_judge.sh (the one judge, mk/net.mk's too);
# exit 0 only when it is caught
judge_mutant() {
    local block=$1 name=$2 mode=$3 bin=$4 log code site="" a
    shift 4
    for a in "$@"; do [[ "$a" == +mutant=* ]] && site=${a#+mutant=}; done
    log="$(dirname "$bin")/$name-$mode.log"
    timeout "$MUTANT_TIMEOUT" "$bin" --quiet --cycles "$MUTANT_CYCLES" --seed "$SEED" --mode "$mode" "$@" \
        < /dev/null > "$log" 2>&1
    code=$?
    bash tb/common/mutant_judge.sh "$block $name ($mode)" "$log" "$code" "$site" '^(LOCKSTEP MISMATCH|SCOREBOARD|CHECK)'
}

# judge_unmutated BLOCK SET BIN [ARGS...]: run a mutant-capable build without +mutant, in lockstep; it is the
# clean design, so it must pass (proof that no site is broken unless selected). One line; exit 0 when it passed.
judge_unmutated() {
    local block=$1 set=$2 bin=$3 log code
    shift 3
    log="$(dirname "$bin")/unmutated.log"
    timeout "$MUTANT_TIMEOUT" "$bin" --quiet --cycles "$MUTANT_CYCLES" --seed "$SEED" --mode lockstep "$@" \
        < /dev/null > "$log" 2>&1
    code=$?
    if [ $code -ne 0 ] || grep -q -E '^MUTANT |^%Error' "$log"; then
        echo "FAILED: $block [$set] mutant-capable build without +mutant (lockstep): exit $code," \
             "$(grep -m1 -E '^(LOCKSTEP MISMATCH|SCOREBOARD|CHECK|ASSERTION|MUTANT|%Error|FAIL)' "$log" | cut -c1-120) ($log)"
        return 1
    fi
    echo "passed: $block [$set] mutant-capable build without +mutant (lockstep): $(tail -1 "$log" | cut -c1-100)"
}

# built BIN: the last build of Verilated bench BIN succeeded. Its rule rewrites BIN/../verilate.log first and
# copies BIN last, so a failed (re)build leaves the log newer than an older binary. (Not `make -q`: it answers
# for the whole dependency graph as make sees it now, which says nothing of whether the build ran.)
built() { [ -x "$1" ] && [ -f "$(dirname "$1")/verilate.log" ] && [ "$1" -nt "$(dirname "$1")/verilate.log" ]; }

step_mutants() {
    # Every mutant (a mutation site of the RTL selected by +mutant=NAME on the mutant-capable build of
    # its parameter set, one build per set) must make its bench fail, once in lockstep and once with
    # the RTL alone (scoreboard and the bench's own checks). Caught only when the bench exits non-zero
    # with a LOCKSTEP MISMATCH, SCOREBOARD or CHECK line and the site said it was selected: a crash, a
    # sanitizer or Verilator runtime error, a +mutant no site knows, a timeout or a build error never
    # counts. First, each mutant-capable build runs once without +mutant and must pass in lockstep (it
    # is the clean design). Runs JOBS benches at a time; one line each.
    # Blocks whose C model comes before their RTL: deliberate breaks of the model, each must be
    # caught by the model's unit test (the script says which were caught and fails otherwise); these
    # scripts run in the same pool, first (each is long and serial), their output after the benches'.
    if [ -n "$BLOCK" ]; then
        # shellcheck disable=SC2046
        tmake -s -k -j "$JOBS" $({ runs unmutated; runs mutant; } | awk '{print $4}' | sort -u) \
            > "$TB/mutants-build.log" 2>&1 || true   # the selected blocks' mutant-capable builds
    else
        tmake -s -k -j "$JOBS" mutants > "$TB/mutants-build.log" 2>&1 || true
    fi
    local rc=0 kind block name bin args mode n=0 m=0 out mout script
    out=$(mktemp -d build/mutants.XXXXXX)
    mout=$(mktemp -d build/modelmut.XXXXXX)
    while read -r kind block name script; do
        [ -z "$kind" ] && continue
        # shellcheck disable=SC2016
        pool_run "$mout" $m bash -c 'echo "-- $1: model mutants ($2)"; bash "$2"' _ "$block" "$script"
        m=$((m + 1))
    done < <(runs modelmut)
    while read -r kind block name bin args; do
        if ! built "$bin"; then
            echo "FAILED: $block [$name] the mutant-capable build does not build ($TB/mutants-build.log, $(dirname "$bin")/verilate.log)" > "$out/$n.txt"
            touch "$out/$n.fail"
            n=$((n + 1))
            continue
        fi
        # shellcheck disable=SC2086
        pool_run "$out" $n judge_unmutated "$block" "$name" "$bin" $args
        n=$((n + 1))
    done < <(runs unmutated)
    while read -r kind block name bin args; do
        if ! built "$bin"; then
            for mode in lockstep rtl; do
                echo "NOT CAUGHT: $block $name ($mode): the mutant does not build ($TB/mutants-build.log, $(dirname "$bin")/verilate.log)" > "$out/$n.txt"
                touch "$out/$n.fail"
                n=$((n + 1))
            done
            continue
        fi
        for mode in lockstep rtl; do
            # shellcheck disable=SC2086
            pool_run "$out" $n judge_mutant "$block" "$name" "$mode" "$bin" $args
            n=$((n + 1))
        done
    done < <(runs mutant)
    pool_show "$out" $n || rc=1
    pool_show "$mout" $m || rc=1
    return $rc
}

step_icarus() {
    # each block's Icarus bench, then its --selftest (the broken builds it must catch): JOBS scripts
    # at a time, the normal benches first and the last-listed block's first (the longest ones), the
    # output in the list's order
    local kind block name script i n=0 out order=()
    local tasks=()
    while read -r kind block name script; do
        [ -z "$kind" ] && continue
        tasks+=("$script")
    done < <(runs icarus)
    out=$(mktemp -d build/icarus-step.XXXXXX)
    n=${#tasks[@]}
    for ((i = n - 1; i >= 0; i--)); do order+=("$((2 * i)) bash ${tasks[i]}"); done
    for ((i = n - 1; i >= 0; i--)); do order+=("$((2 * i + 1)) bash ${tasks[i]} --selftest"); done
    for t in "${order[@]}"; do
        # shellcheck disable=SC2086
        pool_run "$out" $t
    done
    pool_show "$out" $((2 * n))
}

step_routing() { $MAKE -s -C sw test; }

step_netsim() { $MAKE -s -C sw netsim-test; }   # network simulator: both kinds, NICs/ITB, sanfab-sim (docs/network.md)
# the RTL networks (crossbars and VC switches) against the C networks, every switch output every cycle; model-only
# sanitizer runs; network mutants (mk/net.mk, docs/network.md "RTL networks")
step_rtlnet() { tmake -s net-test SEED="$SEED" JOBS="$JOBS"; }

# the papers' experiments, reduced (Flich et al. 2002 on the crossbar network, Koibuchi et al. 2003 on the VC network, seeds 002 and 003's
# workloads and route policies through the Dask sweep engine, seed 004 on the Maestro network), and their required trends; the sweep engine's own tests; written under
# build/experiments/, the committed results stay
step_experiments() {
    # the papers' reduced runs one after the other in one process, their sweep points on a local Dask cluster of JOBS
    # workers; then the sweep engine's tests, the experiments' points' tests, the plots' and the Python tools' command
    # lines' tests, the parameter checker's test, the soak runner's test; their outputs in this order
    $MAKE -s -C sw || return 1
    local out
    out=$(mktemp -d build/experiments-step.XXXXXX)
    pool_run "$out" 0 $PY scripts/experiments.py --jobs "$JOBS" --out-dir build/experiments --md-dir build/experiments
    wait
    pool_run "$out" 1 $PY scripts/test_sweep.py
    pool_run "$out" 2 $PY scripts/test_exp_point.py
    pool_run "$out" 3 $PY scripts/test_plot_net.py       # plot_net.py links on a torus, a mesh and irregular networks
    pool_run "$out" 4 $PY scripts/test_sanfab_cli.py     # the Python tools' --version, "did you mean", ranges
    pool_run "$out" 5 $PY scripts/test_quickstart.py     # the README's quickstart, every command as written
    pool_run "$out" 6 $PY scripts/test_check_params.py   # scripts/check_params.py: a copy with one wrong default fails
    pool_run "$out" 7 $PY scripts/test_exp_seed004.py    # seed 004's checks and page on small hand-made JSON
    pool_run "$out" 8 $PY scripts/test_soak.py           # make soak's runner on fake benches (turns, seeds, failures)
    pool_show "$out" 9
}

step_synth-fresh() {
    # no tools: every committed record of reports/synth.json was made from the current inputs
    $PY scripts/synth.py --check-records
}

step_synth-gates() {
    # the synthesis flow's own unit tests, then ONE placed-and-routed gate per block; every other
    # config runs in `make synth` / `make synth-check`. --median-seed: a gate whose committed record is
    # current places only the record's median seed, which must reproduce the record exactly, and the
    # gate judges the record's median (make synth-check places every seed)
    $PY -m unittest discover -s scripts -p 'test_synth.py' 2>&1 | tail -3 || return 1
    local names
    names=$(runs gate | awk '{print "--name " $3}')
    [ -z "$names" ] && { echo "no gate configs"; return 0; }
    # shellcheck disable=SC2086
    $PY scripts/synth.py --check --median-seed --jobs "$JOBS" $names
}

# ---------------------------------------------------------------- BLOCK
PSEUDO_BLOCKS="net sw repo"
SEL_NET=0; SEL_SW=0; SEL_REPO=0
all_hw_selected() { [ "$(wc -w <<< "$RUN_BLOCKS")" -eq "$(wc -w <<< "$KNOWN_HW")" ]; }

# step_owner STEP: the kind of name that selects it: hw (a block), net, sw or repo; lint is everyone's
step_owner() {
    case $1 in
        lint) echo all ;;
        model-sanitizers|lockstep|mutants|icarus|synth-gates) echo hw ;;
        rtlnet) echo net ;;
        routing|netsim|experiments) echo sw ;;
        packaging|synth-fresh) echo repo ;;
        *) echo none ;;
    esac
}

# owner_text STEP: which BLOCK names run STEP, for the skipped lines
owner_text() {
    case $(step_owner "$1") in
        all) echo "BLOCK=${KNOWN_HW// /|}|net|repo runs it" ;;
        hw) echo "BLOCK=${KNOWN_HW// /|} runs it" ;;
        *) echo "BLOCK=$(step_owner "$1") runs it" ;;
    esac
}

# step_selected STEP: the BLOCK selection has a part of STEP
step_selected() {
    case $(step_owner "$1") in
        all) [ -n "$(lint_goals)" ] ;;
        hw) [ -n "$RUN_BLOCKS" ] ;;
        net) [ "$SEL_NET" = 1 ] ;;
        sw) [ "$SEL_SW" = 1 ] ;;
        repo) [ "$SEL_REPO" = 1 ] ;;
        *) return 0 ;;
    esac
}

# describe STEP: one line, what the BLOCK selection runs of STEP (for --list)
describe() {
    local s=$1 n
    if ! step_selected "$s"; then
        echo "skipped ($(owner_text "$s"))"; return
    fi
    case $s in
        lint) echo "make $(lint_goals | tr '\n' ' ' | sed 's/ $//')" ;;
        model-sanitizers) echo "unit tests: $(runs unit | wc -l), sanitizer runs: $(runs san | wc -l)" ;;
        lockstep)
            n=$(runs set | wc -l)
            if all_hw_selected; then echo "parameter sets' lockstep runs: $n; the waves and bench-CLI tests"
            else echo "parameter sets' lockstep runs: $n (the waves and bench-CLI tests need every block)"; fi ;;
        mutants) echo "unmutated builds: $(runs unmutated | wc -l), mutants: $(runs mutant | wc -l), model-mutant scripts: $(runs modelmut | wc -l)" ;;
        icarus) echo "Icarus benches: $(runs icarus | wc -l), each also --selftest" ;;
        synth-gates)
            n=$(runs gate | awk '{printf "%s%s", (NR > 1 ? " " : ""), $3}')
            echo "the synthesis flow's unit tests; gates (each record's median seed placed again): ${n:-none (no gate config)}" ;;
        *) echo "all of it" ;;
    esac
}

if [ -n "$BLOCK" ]; then
    KNOWN_HW=$(runs set | awk '!seen[$2]++ {printf "%s%s", (NR > 1 ? " " : ""), $2}')
    [ -n "$KNOWN_HW" ] || { echo "run_tests: BLOCK=$BLOCK: \`make list-runs\` named no block" >&2; exit 2; }
    sel=""
    for b in ${BLOCK//,/ }; do
        case " $KNOWN_HW $PSEUDO_BLOCKS " in
            *" $b "*) ;;
            *)
                py=$PY; [ -x "$py" ] || py=python3
                hint=$($py -c 'import sys; sys.path.insert(0, "scripts"); from sanfab_cli import suggest
s = suggest(sys.argv[1], sys.argv[2:]); print(f" (did you mean {s}?)" if s else "")' "$b" $KNOWN_HW $PSEUDO_BLOCKS 2>/dev/null)
                echo "run_tests: unknown BLOCK '$b'$hint; known: $KNOWN_HW (blocks), $PSEUDO_BLOCKS (docs/verification.md, Running)" >&2
                exit 2 ;;
        esac
        case " $sel " in *" $b "*) continue ;; esac
        sel="$sel $b"
        case $b in
            net) SEL_NET=1 ;;
            sw) SEL_SW=1 ;;
            repo) SEL_REPO=1 ;;
            *) RUN_BLOCKS="$RUN_BLOCKS $b" ;;
        esac
    done
    [ -z "$sel" ] && { echo "run_tests: BLOCK='$BLOCK' names no block" >&2; exit 2; }
fi

if [ "${1:-}" = "--list" ]; then
    if [ -z "$BLOCK" ]; then printf '%s\n' "${STEPS_ALL[@]}"; exit 0; fi
    echo "BLOCK=$BLOCK:"
    for s in "${STEPS_ALL[@]}"; do printf '  %-17s %s\n' "$s" "$(describe "$s")"; done
    exit 0
fi
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=("${STEPS_ALL[@]}")
mkdir -p build "$TB"

# cpu_now VAR: the CPU seconds (user + system) of every child this shell has waited for so far, into VAR
# (bash's times, run in this shell: a $(...) would count the subshell's children only)
CPU_F=build/.run_tests.times.$$
# times_cpu FILE: the children's CPU seconds (user + system, line 2) of what bash's `times` wrote into FILE
times_cpu() {
    awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); n += a[1] * 60 + a[2] } printf "%d", n }' "$1"
}
cpu_now() {
    times > "$CPU_F"
    printf -v "$1" '%s' "$(times_cpu "$CPU_F")"
}

# synth-gates starts at the beginning, in the background: its Yosys and nextpnr runs fill the core the
# other steps leave idle at times (a serial check, a long single-threaded build); its lines are shown,
# and it passes or fails, at its own turn in the list. Not a job of this shell, so the steps' pools do not wait for it.
GATES_BG=""
if [[ " ${steps[*]} " == *" synth-gates "* ]] && [ "${#steps[@]}" -gt 1 ] && { [ -z "$BLOCK" ] || step_selected synth-gates; }; then
    GATES_BG=$(mktemp -d build/gates-bg.XXXXXX)
    # (started from a subshell that exits at once, so this shell never reaps it: its CPU time is counted
    # at its own turn, from its own `times`, not in the step during which it ends)
    ( (
        st=0; g0=$(date +%s)
        step_synth-gates > "$GATES_BG/out.txt" 2>&1 || st=1
        times > "$GATES_BG/times"
        echo "$(( $(date +%s) - g0 ))" > "$GATES_BG/wall"
        echo "$st" > "$GATES_BG/rc"
    ) < /dev/null & )
fi
# step_synth-gates_bg: at synth-gates' turn, wait for the background run and show what it printed
step_synth-gates_bg() {
    while [ ! -e "$GATES_BG/rc" ]; do sleep 2; done
    cat "$GATES_BG/out.txt"
    GATES_CPU=$(times_cpu "$GATES_BG/times")
    GATES_WALL=$(cat "$GATES_BG/wall")
    local st; st=$(cat "$GATES_BG/rc")
    rm -rf "$GATES_BG"
    [ "$st" = 0 ]
}

passed=0; failed=0; skipped=0; failed_names=(); times=()
for s in "${steps[@]}"; do
    if ! declare -F "step_$s" >/dev/null; then echo "run_tests: unknown step '$s' (--list)"; exit 2; fi
    if [ -n "$BLOCK" ] && ! step_selected "$s"; then
        echo "==== $s: skipped (BLOCK=$BLOCK has no part of it; $(owner_text "$s"))"
        skipped=$((skipped + 1))
        continue
    fi
    echo "==== $s"
    t0=$(date +%s); cpu_now c0
    fn="step_$s"; GATES_CPU=""
    if [ "$s" = synth-gates ] && [ -n "$GATES_BG" ]; then fn=step_synth-gates_bg; fi
    if "$fn"; then st=ok; passed=$((passed + 1)); else st=FAILED; failed=$((failed + 1)); failed_names+=("$s"); fi
    # wall time, and CPU time of the step's processes (with JOBS: how well the step keeps the cores busy)
    cpu_now c1; dt=$(( $(date +%s) - t0 )); dc=$(( c1 - c0 ))
    if [ -n "$GATES_CPU" ]; then
        # run in the background from the start: its own wall and CPU time, and how long this turn waited
        echo "==== $s: $st ($dt s waited at its turn; in the background from the start: $GATES_WALL s, $GATES_CPU CPU s)"
        dc=$GATES_CPU
    else
        echo "==== $s: $st ($dt s, $dc CPU s)"
    fi
    times+=("$s ${dt}s/${dc}cpu")
done
rm -f "$CPU_F"
echo "step times (wall/CPU): ${times[*]}"
[ $failed -gt 0 ] && echo "failed steps: ${failed_names[*]}"
if [ -n "$BLOCK" ]; then echo "test (BLOCK=$BLOCK): $passed passed, $failed failed, $skipped skipped"
else echo "test: $passed passed, $failed failed"; fi
[ $failed -eq 0 ]

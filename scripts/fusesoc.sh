#!/usr/bin/env bash
# scripts/fusesoc.sh -- FuseSoC with the project's own tools (`make fusesoc ARGS="..."` calls it).
#
#   scripts/fusesoc.sh run --target lint|sim|synth|lockstep sanfab:sanfab:BLOCK
#   scripts/fusesoc.sh core-info sanfab:sanfab:BLOCK      (any fusesoc command and its options)
#
# Runs the pinned FuseSoC of .venv/ (make deps) with the three cores roots the generated cores live
# in (rtl, tb, constraints) and with scripts/fusesoc-bin first on PATH, then .venv/bin: `yosys`,
# `nextpnr-ice40`, `nextpnr-ecp5`, `icepack`, `ecppack` there are the YoWASP builds make deps
# installed (Yosys's Tcl scripts through scripts/yosys_tcl.py); Verilator and Icarus come from the
# system (`vvp` there: the bench's RESULT line sets its exit status). Sets SANFAB_ROOT. FuseSoC builds
# under ./build/ of the current directory. docs/fusesoc.md
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FUSESOC="$ROOT/.venv/bin/fusesoc"
if [ ! -x "$FUSESOC" ]; then
    echo "fusesoc.sh: $FUSESOC missing; run make deps first" >&2
    exit 1
fi
if [ $# = 0 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"
    exit 0
fi
export SANFAB_ROOT="$ROOT"
export PATH="$ROOT/scripts/fusesoc-bin:$ROOT/.venv/bin:$PATH"
exec "$FUSESOC" --cores-root "$ROOT/rtl" --cores-root "$ROOT/tb" --cores-root "$ROOT/constraints" "$@"

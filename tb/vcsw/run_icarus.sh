#!/usr/bin/env bash
# sanfab — build and run the self-checking Icarus Verilog bench of the VC switch (no C model).
#
#   tb/vcsw/run_icarus.sh [--vcd] [--selftest] [SET ...]
#
# SET is a comma-separated list of parameters, e.g. NPORTS=8 or NPORTS=4,NVC=4,DEPTH=32,MAXLEN=8
# (NPORTS NVC CTRL FLIT_W TAG_W DEPTH MAXLEN LINK_DELAY COUNTERS CTR_WIDTH WATCHDOG).
# Without sets it runs the defaults (8 ports, 2 VCs, CTRL=1), 4 ports of 4 VCs with the longest cable
# the buffer allows, 5 ports of 4 data VCs with 8-bit counters, and 3 ports without counters with a
# long cable. One line per set, then "icarus: N passed, M failed"; exit status non-zero on a failure.
#   --vcd       dump waves to build/icarus/vcsw_<params>.vcd
#   --selftest  instead, build the first set (default: the defaults) mutant-capable and run it without
#               +mutant (it must pass), with +mutant=CTRL_MAP (control VCs land on data VCs) and +mutant=TABLE_COPY
#               (input 0's table copy never written): the bench must FAIL each time, which counts as a pass.
# Builds and logs go to build/icarus/.
set -u

cd "$(dirname "$0")/../.." || exit 2

SELFTEST_MUTANTS="CTRL_MAP TABLE_COPY"
KNOWN=" NPORTS NVC CTRL FLIT_W TAG_W DEPTH MAXLEN LINK_DELAY COUNTERS CTR_WIDTH WATCHDOG "
BLOCK=vcsw
DEFAULT_SETS=(NPORTS=8 NPORTS=4,NVC=4,DEPTH=32,MAXLEN=8,LINK_DELAY=9 NPORTS=5,NVC=4,CTRL=0,CTR_WIDTH=8,LINK_DELAY=3
              NPORTS=3,COUNTERS=0,LINK_DELAY=13)
SELFTEST_SET=NPORTS=8
VVP_TIMEOUT=300
RESULT_SED='s/^RESULT PASS packets=\([0-9]*\) received=\([0-9]*\) flits=\([0-9]*\) counters=\([0-9]*\) steps=\([0-9]*\).*/\1 packets sent, \2 delivered, \3 flits checked, \4 counters, \5 steps/p'
HELP_LINES=15

# shellcheck source=tb/common/icarus_run.sh
. tb/common/icarus_run.sh

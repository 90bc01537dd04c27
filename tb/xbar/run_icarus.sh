#!/usr/bin/env bash
# sanfab — build and run the self-checking Icarus Verilog bench of the crossbar.
#
#   tb/xbar/run_icarus.sh [--vcd] [--selftest] [SET ...]
#
# SET is a comma-separated list of bench parameters, e.g. NPORTS=8 or NPORTS=5,LINK_DELAY=3,ROUTE_DELAY=2
# (NPORTS SLACK_DEPTH STOP_THRESH GO_THRESH ROUTE_DELAY LINK_DELAY TIMEOUT COUNTERS CTR_WIDTH SEED HOT_LEN
# WATCHDOG).
# Without sets it runs NPORTS=4, NPORTS=8, NPORTS=16, a 5-port set with 8-bit counters and delays and a
# 3-port set without counters (NPORTS=32 passes too but takes about ten minutes: run it by hand with
# VVP_TIMEOUT=1200). One line per set, then
# "icarus: N passed, M failed"; the exit status is non-zero when anything failed.
#   --vcd       dump waves to build/icarus/xbar_<params>.vcd
#   --selftest  instead, build the first set (default NPORTS=4) mutant-capable and run it without +mutant
#               (it must pass), with +mutant=CRC_NOMARK (bad CRCs no longer marked) and +mutant=GO_NOHYST
#               (GO without hysteresis): the bench must FAIL each time, which counts as a pass.
# Builds and logs go to build/icarus/.
set -u

cd "$(dirname "$0")/../.." || exit 2

# the broken builds --selftest must see fail: bad CRCs not marked; GO without hysteresis (caught by
# the flow-control check from stat_occ)
SELFTEST_MUTANTS="CRC_NOMARK GO_NOHYST"
KNOWN=" NPORTS SLACK_DEPTH STOP_THRESH GO_THRESH ROUTE_DELAY LINK_DELAY TIMEOUT COUNTERS CTR_WIDTH SEED HOT_LEN WATCHDOG "
BLOCK=xbar
DEFAULT_SETS=(NPORTS=4 NPORTS=8 NPORTS=16 NPORTS=5,CTR_WIDTH=8,ROUTE_DELAY=2,LINK_DELAY=3 NPORTS=3,COUNTERS=0)
SELFTEST_SET=NPORTS=4
VVP_TIMEOUT=${VVP_TIMEOUT:-120}
RESULT_SED='s/^RESULT PASS .* packets=\([0-9]*\) received=\([0-9]*\) stops=\([0-9]*\) counters=\([0-9]*\) cycles=\([0-9]*\).*/\1 packets sent, \2 delivered, \3 STOPs, \4 counters, \5 cycles/p'
HELP_LINES=17

# shellcheck source=tb/common/icarus_run.sh
. tb/common/icarus_run.sh

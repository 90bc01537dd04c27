#!/usr/bin/env bash
# sanfab — build and run the self-checking Icarus Verilog bench of the Maestro Link Controller (no C model).
#
#   tb/mlc/run_icarus.sh [--vcd] [--selftest] [SET ...]
#
# SET is a comma-separated list of parameters, e.g. LINK_W=8 or FIFO_BYTES=256,TURN=4,LINK_DELAY=7
# (LINK_W FIFO_BYTES TURN TIMEOUT CTR_W LINK_DELAY CFG MSGS CORRUPT WATCHDOG; CFG is the configuration
# register: 1 message-based, 2/4/6 single-packet 16/32/64 B). Without sets it runs the defaults
# (pipelined Network Burst), LINK_W 8 with a 3-register cable, 256-byte FIFOs with TURN 4, a long cable
# and 8-bit counters, message-based transfer, and single-packet 64 B transfer. One line per set, then
# "icarus: N passed, M failed"; exit status non-zero on a failure.
#   --vcd       dump waves to build/icarus/mlc_<params>.vcd
#   --selftest  instead, build the first set (default: the defaults) mutant-capable and run it without
#               +mutant (it must pass), with +mutant=RETX_ACK (a lost data frame counts as acknowledged) and
#               +mutant=TURN_SHORT (an end replies a step early): the bench must FAIL each time, a pass.
# Builds and logs go to build/icarus/.
set -u

cd "$(dirname "$0")/../.." || exit 2

SELFTEST_MUTANTS="RETX_ACK TURN_SHORT"
KNOWN=" LINK_W FIFO_BYTES TURN TIMEOUT CTR_W LINK_DELAY CFG MSGS CORRUPT WATCHDOG "
BLOCK=mlc
DEFAULT_SETS=(LINK_W=4 LINK_W=8,TURN=0,LINK_DELAY=3 FIFO_BYTES=256,TURN=4,LINK_DELAY=7,CTR_W=8,TIMEOUT=200
              CFG=1,LINK_DELAY=1 CFG=6,FIFO_BYTES=4096,CTR_W=32)
SELFTEST_SET=LINK_W=4
VVP_TIMEOUT=300
RESULT_SED='s/^RESULT PASS messages=\([0-9]*\) words=\([0-9]*\) frames=\([0-9]*\) corrupted=\([0-9]*\) counters=\([0-9]*\) steps=\([0-9]*\).*/\1 messages, \2 words checked, \3 frames (\4 corrupted), \5 registers, \6 steps/p'
HELP_LINES=16

# shellcheck source=tb/common/icarus_run.sh
. tb/common/icarus_run.sh

#!/usr/bin/env bash
# sanfab — build and run the self-checking Icarus Verilog bench of the Maestro switch box (no C model).
#
#   tb/sbox/run_icarus.sh [--vcd] [--selftest] [SET ...]
#
# SET is a comma-separated list of parameters, e.g. PORTS=4 or PORTS=5,LINK_W=8,FIFO_BYTES=256,SLOW=1
# (PORTS LINK_W FIFO_BYTES TURN TIMEOUT CTR_W MSGS SLOW LONG BAR_GAP SEED WATCHDOG; NODES is PORTS + 1,
# SLOW: the nodes read 1 step in 4, LONG: Type1 messages of up to 39 units). Without sets it runs a
# 3-port box with 4-bit links, an 8-port box, and a 5-port box with 8-bit links, 256-byte FIFOs,
# slow readers and messages longer than the FIFOs. Each set: register port, the 13-step transit, a
# barrier of every node, random traffic against a scoreboard and the box counters, wr_over/rd_under.
# One line per set, then "icarus: N passed, M failed"; exit status non-zero on a failure.
#   --vcd       dump waves to build/icarus/sbox_<params>.vcd
#   --selftest  instead, build the first set (default: PORTS=3,LINK_W=4) mutant-capable and run it
#               without +mutant (it must pass), with +mutant=NO_EXCL (a message goes back to its arrival
#               port), +mutant=BAR_EARLY (a barrier completes one arrival early) and +mutant=PC_OFF (a Type1
#               message's length from its PC is wrong): the bench must FAIL each time, which counts as a pass.
# Builds and logs go to build/icarus/.
set -u

cd "$(dirname "$0")/../.." || exit 2

SELFTEST_MUTANTS="NO_EXCL BAR_EARLY PC_OFF"
KNOWN=" PORTS LINK_W FIFO_BYTES TURN TIMEOUT CTR_W MSGS SLOW LONG BAR_GAP SEED WATCHDOG "
BLOCK=sbox
FILELIST=rtl/sbox/files.f
TB=tb/sbox/sbox_icarus_tb.v
DEFAULT_SETS=(PORTS=3,LINK_W=4,MSGS=80 PORTS=8,MSGS=20
              PORTS=5,LINK_W=8,FIFO_BYTES=256,CTR_W=8,SLOW=1,LONG=1,MSGS=16)
SELFTEST_SET=PORTS=3,LINK_W=4
VVP_TIMEOUT=300
RESULT_SED='s/^RESULT PASS messages=\([0-9]*\) deliveries=\([0-9]*\) dropped=\([0-9]*\) words=\([0-9]*\) transit=\([0-9]*\) barrier=\([0-9]*\) steps=\([0-9]*\).*/\1 messages (\2 deliveries, \3 dropped), \4 words read, transit \5 steps, barrier of \6, \7 steps/p'
HELP_LINES=18

# shellcheck source=tb/common/icarus_run.sh
. tb/common/icarus_run.sh

# mk/xbar.mk -- the crossbar as a block of the generic build (mk/rules.mk documents every variable).

BLOCKS += xbar

xbar_FILELIST := rtl/xbar/files.f
xbar_TOP      := xbar
xbar_CDEF     := XB_
# parameter names with their defaults (the RTL's and the C model's)
xbar_PARAMS   := NPORTS=8 SLACK_DEPTH=80 STOP_THRESH=56 GO_THRESH=40 ROUTE_DELAY=0 LINK_DELAY=0 \
                 TIMEOUT=4096 COUNTERS=1 CTR_WIDTH=32

# parameter sets: name -> overrides of the defaults
xbar_SETS     := p8 p4 p16 myri p3 p5 p32 p2
# make test builds every set but p2 (the smallest crossbar, make sim and make soak only)
xbar_TEST_SETS := p8 p4 p16 myri p3 p5 p32
xbar_SET_p8   :=
# (parameter corners, docs/verification.md "Parameter sets": p4 ROUTE_DELAY 5; p16 the largest slack buffer,
# ROUTE_DELAY and LINK_DELAY; myri 16-bit counters; p3 the smallest workable slack buffer and thresholds (STOP 1,
# GO 0) and a small TIMEOUT; p5 ROUTE_DELAY 1, the largest slack buffer with STOP 250 and GO 0)
xbar_SET_p4   := NPORTS=4 SLACK_DEPTH=24 STOP_THRESH=14 GO_THRESH=8 ROUTE_DELAY=5 LINK_DELAY=2 TIMEOUT=600
xbar_SET_p16  := NPORTS=16 SLACK_DEPTH=255 STOP_THRESH=120 GO_THRESH=100 ROUTE_DELAY=255 LINK_DELAY=64 TIMEOUT=0
xbar_SET_myri := ROUTE_DELAY=21 LINK_DELAY=8 TIMEOUT=2000 CTR_WIDTH=16
xbar_SET_p3   := NPORTS=3 SLACK_DEPTH=6 STOP_THRESH=1 GO_THRESH=0 ROUTE_DELAY=3 TIMEOUT=40 COUNTERS=0
xbar_SET_p5   := NPORTS=5 SLACK_DEPTH=255 STOP_THRESH=250 GO_THRESH=0 ROUTE_DELAY=1 TIMEOUT=1000 CTR_WIDTH=8
# 32 ports (Geoffray and Hoefler 2008's Clos): 9-bit register addresses; 8-bit counters kept in 10-bit bank words; a
# smaller slack buffer for more STOP/GO; TIMEOUT above the hotspot's round-robin bound (2 x 31 x 40)
xbar_SET_p32  := NPORTS=32 SLACK_DEPTH=48 STOP_THRESH=32 GO_THRESH=20 TIMEOUT=3000 CTR_WIDTH=8
# 2 ports, the smallest: one-bit port numbers and a two-way round robin; random initial state
xbar_SET_p2   := NPORTS=2 SLACK_DEPTH=40 STOP_THRESH=24 GO_THRESH=16 ROUTE_DELAY=2 LINK_DELAY=1 TIMEOUT=500
# (no mutant on p32: mutant builds trace only the top level, and Verilator 5.006 then miscompiles
# ctr_bank from 29 ports on; docs/verification.md, "The mutation proof")
# sets verilated with --x-initial unique and run with a seeded +verilator+rand+reset+2
xbar_RANDINIT := p3 p5 p2

# deliberately broken RTL (mutation sites in rtl/, +mutant=NAME on the set's mutant-capable build): NAME:set
xbar_MUTANTS  := CRC_NOMARK:p8 RR_NOROTATE:p8 STOP_LATE:p8 DROP_LAST:p8 CTR_LOSE:p8 \
                 ILLEGAL_NARROW:p8 ILLEGAL_BETWEEN:p8 ROUTE_DECODE:p8 TIMEOUT_LATE:p8 \
                 ABORT_LOST:p8 FIFO_BYPASS:p8 GO_NOHYST:p8 PORT_RANGE:p5 CTR_NARROW:p5 \
                 CRC_ERR_ONCE:p8 CTR_CARRY20:p8 GO_ZERO:p5 OCC_TOP:p5

# the lockstep bench: C sources (archived into a library), the C++ glue to the Verilated model
xbar_BENCH      := xbar_bench
xbar_BENCH_C    := cmodel/xbar.c tb/xbar/xbar_host.c tb/xbar/xbar_scoreboard.c tb/common/bench_cli.c sw/src/sf_cli.c tb/common/waves.c tb/xbar/xbar_bench_base.c \
                   tb/xbar/xbar_bench_traffic.c tb/xbar/xbar_bench_check.c tb/xbar/xbar_bench_scenarios.c tb/xbar/xbar_bench.c
xbar_BENCH_CXX  := tb/xbar/xbar_rtl.cpp
xbar_BENCH_H    := $(wildcard cmodel/*.h tb/common/*.h tb/xbar/*.h)
# model-only bench under ASan/UBSan (RTL side stubbed) and its runs (one per line of arguments)
xbar_SAN_C      := $(xbar_BENCH_C) tb/xbar/xbar_rtl_none.c
xbar_SAN_RUNS   := m8 m5 m3 m32 m2
xbar_SAN_m8     := --cycles 50000
xbar_SAN_m5     := --cycles 30000 --NPORTS 5 --SLACK_DEPTH 24 --STOP_THRESH 12 --GO_THRESH 6 \
                   --ROUTE_DELAY 3 --LINK_DELAY 2 --TIMEOUT 300
xbar_SAN_m3     := --cycles 30000 --NPORTS 3 --TIMEOUT 0
xbar_SAN_m32    := --cycles 20000 --NPORTS 32 --ROUTE_DELAY 2 --LINK_DELAY 3 --TIMEOUT 3000 --CTR_WIDTH 16
xbar_SAN_m2     := --cycles 30000 --NPORTS 2
# unit tests of the model's documented timing (sanitizers)
xbar_UNIT       := xbar_unit
xbar_UNIT_C     := cmodel/xbar.c tb/common/unit_main.c sw/src/sf_cli.c tb/xbar/xbar_unit.c tb/xbar/xbar_unit_sim.c \
                   $(patsubst %,tb/xbar/xbar_unit_%.c,timing malformed counters arbitration)
xbar_UNIT_H     := tb/common/unit_main.h tb/common/unit_check.h tb/xbar/xbar_unit.h
# deliberate breaks of the model, each must be caught by the unit test (make test's mutants step)
xbar_MODEL_MUTANTS := tb/xbar/mutants.sh

# synthesis wrapper (linted with the block) and the one placed-and-routed gate `make test` runs
xbar_WRAPPER     := rtl/fpga/scan_io.v rtl/fpga/xbar_fpga_top.v
xbar_WRAPPER_TOP := xbar_fpga_top
xbar_GATE        := xbar-nports8-ice40-hx8k
# Icarus bench: a script that prints "icarus: N passed, M failed" (and --selftest for its mutant)
xbar_ICARUS      := tb/xbar/run_icarus.sh

# mk/mlc.mk -- the Maestro Link Controller (docs/mlc.md) as a block of the generic build (mk/rules.mk
# documents every variable). The contract, the C model (cmodel/mlc.[ch], with its link model), the
# host driver (sw/sim/mlc_host.[ch]), the model's unit tests, and the RTL (rtl/mlc/) held against the
# model by the lockstep bench tb/mlc/mlc_bench.c: two ends (rtl/mlc/mlc_pair.v, master and
# slave) joined by the link model, random host traffic, corrupted nibbles, a scoreboard.
BLOCKS        += mlc

mlc_FILELIST  := rtl/mlc/files.f
mlc_TOP       := mlc_pair
mlc_CDEF      := ML_
# parameter names with their defaults (the RTL's and the C model's; MASTER is fixed per end by
# mlc_pair; LINK_DELAY is the link model's, a parameter of mlc_pair for the bench only)
mlc_PARAMS    := LINK_W=4 FIFO_BYTES=2048 TURN=1 TIMEOUT=1024 CTR_W=16 LINK_DELAY=0

# parameter sets: name -> overrides of the defaults
mlc_SETS      := d w8 s256 b4k t16 x64
mlc_SET_d     :=
mlc_SET_w8    := LINK_W=8 TURN=0 LINK_DELAY=3
mlc_SET_s256  := FIFO_BYTES=256 TURN=4 LINK_DELAY=7 CTR_W=8 TIMEOUT=200
mlc_SET_b4k   := FIFO_BYTES=4096 CTR_W=32 TIMEOUT=0 LINK_DELAY=1
# the parameter corners no set above reaches (docs/verification.md, the MLC's coverage table): make sim
# only. t16: the smallest TIMEOUT; x64: the largest FIFO, TURN, TIMEOUT, LINK_DELAY together
mlc_SET_t16   := LINK_W=8 FIFO_BYTES=512 TURN=0 TIMEOUT=16 CTR_W=12 LINK_DELAY=0
mlc_SET_x64   := LINK_W=8 FIFO_BYTES=4096 TURN=15 TIMEOUT=65535 CTR_W=32 LINK_DELAY=64
mlc_TEST_SETS := d w8 s256 b4k
# sets verilated with --x-initial unique and run with a seeded +verilator+rand+reset+2
mlc_RANDINIT  := s256

# deliberately broken RTL (mutation sites in rtl/mlc/mlc_*.v, each beside its rule's logic: mlc_link, mlc_send,
# mlc_recv, mlc_hostq, mlc_regs; +mutant=NAME on the set's mutant-capable build): NAME:set
mlc_MUTANTS   := RETX_ACK:d TURN_SHORT:d CRC_INIT:d TOGGLE_SAME:d FRAME_LONG:d WR_NOREFUSE:d ECHO_STUCK:d \
                 DUP_NULL:d CREDIT_PLUS1:s256 HOLD_STUCK:w8 SP_CAP:s256 CREDIT_GE:d TIMEOUT_LATE:w8 CTR_SAT:s256 \
                 GUARD_OFF:w8 CTR_TOP:d CREDIT_CLAMP:d AVAIL_TOP:d CHK_CREDIT:d

# the one placed-and-routed synthesis gate `make test` runs (constraints/synth_configs.json)
mlc_GATE      := mlc-master1-ice40-hx8k
# synthesis wrapper (the shared scan harness, then the MLC's own top), linted with the block
mlc_WRAPPER     := rtl/fpga/scan_io.v rtl/fpga/mlc_fpga_top.v
mlc_WRAPPER_TOP := mlc_fpga_top

# the lockstep bench: C sources (archived into a library), the C++ glue to the Verilated pair
mlc_BENCH     := mlc_bench
mlc_BENCH_C   := cmodel/mlc.c sw/sim/mlc_host.c tb/common/rerun.c tb/common/waves.c tb/common/bench_cli.c sw/src/sf_cli.c \
                 tb/mlc/mlc_bench_base.c tb/mlc/mlc_bench_traffic.c tb/mlc/mlc_bench_check.c tb/mlc/mlc_bench_run.c tb/mlc/mlc_bench.c
mlc_BENCH_CXX := tb/mlc/mlc_rtl.cpp
mlc_BENCH_H   := cmodel/sanfab_params.h cmodel/mlc.h sw/sim/mlc_host.h sw/sim/ring.h tb/common/unit_check.h tb/common/rng.h tb/common/rerun.h tb/common/vrtl.h \
                 tb/common/bench_cli.h tb/common/waves.h tb/mlc/mlc_rtl.h tb/mlc/mlc_bench_base.h tb/mlc/mlc_bench_traffic.h \
                 tb/mlc/mlc_bench_check.h tb/mlc/mlc_bench_run.h

# the model's unit tests (sanitizers, in make test's model-sanitizers step) and tb/mlc/mutants.sh
# (deliberate breaks of the model, each must be caught by the unit test; the mutants step)
mlc_UNIT      := mlc_unit
mlc_UNIT_C    := cmodel/mlc.c sw/sim/mlc_host.c tb/common/unit_main.c sw/src/sf_cli.c tb/mlc/mlc_unit.c tb/mlc/mlc_unit_pair.c \
                 $(patsubst %,tb/mlc/mlc_unit_%.c,frames credits messages errors guard ports random)
mlc_UNIT_H    := tb/common/unit_main.h tb/common/unit_check.h tb/mlc/mlc_unit.h
mlc_MODEL_MUTANTS := tb/mlc/mutants.sh

# Icarus bench: a script that prints "icarus: N passed, M failed" (and --selftest for its mutants)
mlc_ICARUS    := tb/mlc/run_icarus.sh

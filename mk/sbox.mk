# mk/sbox.mk -- the Maestro switch box (docs/sbox.md) as a block of the generic build (mk/rules.mk
# documents every variable). The C model (cmodel/sbox.[ch], built from the MLC model cmodel/mlc.c),
# its unit test and model mutants, the table loader (cmodel/sbox_load.[ch]), and the RTL (rtl/sbox/sbox*.v)
# held against the model by the lockstep bench tb/sbox/sbox_bench.c: PORTS node MLCs (models, the
# link masters) joined to the box by link models, random traffic, barriers, faults, a scoreboard,
# the 13-step transit and the box counters checked without the model.
BLOCKS        += sbox

sbox_FILELIST := rtl/sbox/files.f
sbox_TOP      := sbox
sbox_CDEF     := SB_
# parameter names with their defaults (the RTL's and the C model's)
sbox_PARAMS   := PORTS=8 NODES=16 LINK_W=4 FIFO_BYTES=2048 TURN=1 TIMEOUT=1024 CTR_W=16 MASTER_MASK=0 LINK_DELAY=0

# parameter sets: name -> overrides of the defaults. Together they reach every parameter's smallest, largest and a
# middle value (docs/verification.md, the switch box's coverage table); c2 and c7 are make sim's only
sbox_SETS     := d p3 s256 c2 c7
sbox_SET_d    :=
sbox_SET_p3   := PORTS=3 NODES=5 LINK_W=8 FIFO_BYTES=4096 TURN=0 TIMEOUT=300 CTR_W=32 LINK_DELAY=3
sbox_SET_s256 := PORTS=6 NODES=11 FIFO_BYTES=256 CTR_W=8 TURN=2 TIMEOUT=200 LINK_DELAY=1
sbox_SET_c2   := PORTS=2 NODES=1 LINK_W=8 FIFO_BYTES=512 TURN=15 TIMEOUT=0 CTR_W=8 LINK_DELAY=64
sbox_SET_c7   := PORTS=7 FIFO_BYTES=1024 TURN=7 TIMEOUT=65535 CTR_W=24 LINK_DELAY=32
sbox_TEST_SETS := d p3 s256
# sets verilated with --x-initial unique and run with a seeded +verilator+rand+reset+2
sbox_RANDINIT := s256

# deliberately broken RTL (mutation sites in the box's modules, rtl/sbox/sbox_*.v: the table of docs/sbox.md, RTL
# modules, says which holds which; GUARD_OFF in rtl/mlc/mlc_link.v; +mutant=NAME on the set's mutant-capable build): NAME:set
sbox_MUTANTS  := NO_EXCL:d LOCK_EARLY:d RR_STUCK:d BAR_EARLY:d REG_LATE:d ROOM_OFF:s256 PC_OFF:d GUARD_OFF:p3 \
                 BOX_CTR_TOP:d PC_DROP:d TOP_NODE:d SPACE_NARROW:p3

# synthesis wrapper (the shared scan harness, then the box's own top), linted with the block; no
# make test gate: the 8-port box on ECP5 takes too long to place and route (make synth records it)
sbox_WRAPPER     := rtl/fpga/scan_io.v rtl/fpga/sbox_fpga_top.v
sbox_WRAPPER_TOP := sbox_fpga_top

# the lockstep bench: C sources (archived into a library), the C++ glue to the Verilated box
sbox_BENCH     := sbox_bench
sbox_BENCH_C   := cmodel/mlc.c cmodel/sbox.c cmodel/sbox_load.c cmodel/table_file.c sw/sim/mlc_host.c tb/common/bench_cli.c sw/src/sf_cli.c tb/common/waves.c \
                  tb/common/rerun.c tb/sbox/sbox_nodes.c tb/sbox/sbox_bench_base.c tb/sbox/sbox_bench_traffic.c \
                  tb/sbox/sbox_bench_step.c tb/sbox/sbox_bench.c
sbox_BENCH_CXX := tb/sbox/sbox_rtl.cpp
sbox_BENCH_H   := cmodel/mlc.h cmodel/sbox.h cmodel/sbox_load.h cmodel/table_file.h sw/sim/mlc_host.h sw/sim/ring.h tb/common/bench_cli.h \
                  tb/common/rerun.h tb/common/rng.h tb/common/vrtl.h tb/sbox/sbox_rtl.h tb/sbox/sbox_nodes.h tb/sbox/sbox_rtl_io.h \
                  tb/sbox/sbox_bench.h

# the same bench on the model alone under ASan/UBSan (sbox_rtl_none.c linked instead of the Verilated glue:
# no RTL, the parameters from the command line) and its runs (make test's model-sanitizers step)
sbox_SAN_C     := $(sbox_BENCH_C) tb/sbox/sbox_rtl_none.c
sbox_SAN_RUNS  := m8 m3 m5 m2
sbox_SAN_m8    := --cycles 100000
sbox_SAN_m3    := --cycles 60000 --PORTS 3 --NODES 5 --LINK_W 8 --TURN 0 --TIMEOUT 300 --link-delay 3 \
                  --table tb/sbox/sbox_clos2x2.maestro:0
sbox_SAN_m5    := --cycles 60000 --PORTS 5 --NODES 7 --FIFO_BYTES 512 --CTR_W 8 --TIMEOUT 0 --link-delay 9
sbox_SAN_m2    := --cycles 40000 --PORTS 2 --NODES 1 --FIFO_BYTES 4096 --CTR_W 32 --TURN 15

# the model's unit test (sanitizers, make test's model-sanitizers step) and tb/sbox/mutants.sh
# (deliberate breaks of the model, each must be caught by the unit test; the mutants step)
sbox_UNIT      := sbox_unit
sbox_UNIT_C    := cmodel/mlc.c cmodel/sbox.c sw/sim/mlc_host.c tb/common/unit_main.c sw/src/sf_cli.c tb/sbox/sbox_unit.c \
                  tb/sbox/sbox_unit_fab.c $(patsubst %,tb/sbox/sbox_unit_%.c,regs transit arbitration barriers tree soak)
sbox_UNIT_H    := tb/common/unit_main.h tb/common/unit_check.h tb/sbox/sbox_unit.h
sbox_MODEL_MUTANTS := tb/sbox/mutants.sh

# The bench's own settings per set (not RTL parameters, so not in sbox_PARAMS), options of every run of
# the set (mk/rules.mk's B_ARGS_<set>): the link models' LINK_DELAY (the set's LINK_DELAY parameter, the
# box's slave MLCs' guard, must match it) and the table the box is loaded with, from a
# `sanfab-route --maestro` file (default: node p on port p).
# The tables: switch 0 of a Clos of 2 leaves with 2 (5) hosts each and one spine, made by
#   sw/build/sanfab-topo clos --leaves 2 --hosts 2 --spines 1 -o T && sw/build/sanfab-route updown T --maestro F
sbox_ARGS_d    :=
sbox_ARGS_p3   := --link-delay 3 --table tb/sbox/sbox_clos2x2.maestro:0
sbox_ARGS_s256 := --link-delay 1 --table tb/sbox/sbox_clos2x5.maestro:0
# c7: one CTL fault per 100 million steps and end (a frame lost whole waits out the 65535-step TIMEOUT)
sbox_ARGS_c2   := --link-delay 64
sbox_ARGS_c7   := --link-delay 32 --ctl-faults 1

# Icarus bench: a script that prints "icarus: N passed, M failed" (and --selftest for its mutants)
sbox_ICARUS := tb/sbox/run_icarus.sh

# ---------------------------------------------------------------- the two-box tree: a second top (sbox_TOPS)
# docs/sbox.md "Verification", docs/verification.md: tb/sbox/sbox_tree.v instantiates two rtl/sbox/sbox.v (A
# the root, B below it), the bench tb/sbox/sbox_tree_bench.c joins A's port to B's up port and nodes to every
# other port by link models and holds both boxes against two C models every step (scoreboard, barriers across
# the tree, both boxes' counters). Built in build/sbox/tree/, its runs listed under sbox (tree-t3, ...), no
# synthesis, no .core:
#   make sbox-tree-build    every tree set's bench      make sbox-tree-sim   the long runs (part of make sim)
#   make sbox-tree-mutants  the mutant builds           make sbox-tree-lint  the tree top (part of make sbox-lint)
sbox_TOPS := tree

sbox_tree_TOP    := sbox_tree
sbox_tree_VFILES := tb/sbox/sbox_tree.v
sbox_tree_CDEF   := ST_
# the box's parameters (sbox_PARAMS but MASTER_MASK: A's is 0, B's 1 << UP_B) and B's up port
sbox_tree_PARAMS := PORTS=8 NODES=16 LINK_W=4 FIFO_BYTES=2048 TURN=1 TIMEOUT=1024 CTR_W=16 LINK_DELAY=0 UP_B=0
sbox_tree_BENCH  := sbox_tree_bench
sbox_tree_BENCH_C := cmodel/mlc.c cmodel/sbox.c cmodel/sbox_load.c cmodel/table_file.c sw/sim/mlc_host.c tb/common/bench_cli.c sw/src/sf_cli.c \
                     tb/common/waves.c tb/common/rerun.c tb/sbox/sbox_nodes.c tb/sbox/sbox_tree_bench_base.c \
                     tb/sbox/sbox_tree_bench_traffic.c tb/sbox/sbox_tree_bench_step.c tb/sbox/sbox_tree_bench.c
sbox_tree_BENCH_CXX := tb/sbox/sbox_tree_rtl.cpp
sbox_tree_BENCH_H := cmodel/mlc.h cmodel/sbox.h cmodel/sbox_load.h cmodel/table_file.h sw/sim/mlc_host.h sw/sim/ring.h tb/common/bench_cli.h \
                     tb/common/rerun.h tb/common/rng.h tb/common/vrtl.h tb/sbox/sbox_nodes.h tb/sbox/sbox_rtl_io.h tb/sbox/sbox_tree_rtl.h \
                     tb/sbox/sbox_tree_bench.h

# tree sets: t8 two 8-port boxes (7 nodes each, 2 of the 16 node numbers unrouted), node links 1 register, the
# link between the boxes 4; t3 two 3-port boxes (2 nodes each), 8-bit links of 3 registers, 512-byte FIFOs,
# 8-bit counters (they wrap). Tables: sw/build/sanfab-route updown tb/sbox/sbox_tree<N>.topo --maestro
# tb/sbox/sbox_tree<N>.maestro. Nodes on both boxes send data multicasts to nodes on both (--span both, the
# default: B's go up alone and turn at A, docs/sbox.md, Messages and destinations)
sbox_tree_SETS    := t8 t3
sbox_tree_SET_t8  := LINK_DELAY=1 UP_B=2
sbox_tree_ARGS_t8 := --table tb/sbox/sbox_tree8.maestro --link-delay 1 --tree-delay 4
sbox_tree_SET_t3  := PORTS=3 NODES=5 LINK_W=8 FIFO_BYTES=512 TURN=0 TIMEOUT=300 CTR_W=8 LINK_DELAY=3 UP_B=2
sbox_tree_ARGS_t3 := --table tb/sbox/sbox_tree3.maestro
# make test runs the small set (make benches builds it; the 8-port tree takes minutes to compile, make sim runs both)
sbox_tree_TEST_SETS := t3
# deliberately broken boxes (both instances; the mutation sites of rtl/sbox/sbox*.v and rtl/mlc/mlc*.v,
# +mutant=NAME on the set's mutant-capable build): NAME:set
sbox_tree_MUTANTS := BAR_EARLY:t3 UP_MIX:t3
# the model-only bench under ASan/UBSan (sbox_tree_rtl_none.c instead of the Verilated glue; make test's
# model-sanitizers step)
sbox_tree_SAN_C    := $(sbox_tree_BENCH_C) tb/sbox/sbox_tree_rtl_none.c
sbox_tree_SAN_RUNS := m3
sbox_tree_SAN_m3   := --cycles 60000 --PORTS 3 --NODES 5 --LINK_W 8 --FIFO_BYTES 512 --TURN 0 --TIMEOUT 300 --CTR_W 8 \
                      --UP 2 --link-delay 3 --table tb/sbox/sbox_tree3.maestro

# mk/sbox_tree.mk -- the two-box tree bench of the Maestro switch box (docs/sbox.md "Verification",
# docs/verification.md): tb/sbox/sbox_tree.v instantiates two rtl/sbox/sbox.v (A the root, B below it), the bench
# tb/sbox/sbox_tree_bench.c joins A's port to B's up port and nodes to every other port by link models and holds both
# boxes against two C models every step (scoreboard, barriers across the tree, both boxes' counters).
# Included after mk/rules.mk: it uses the generic Verilated build (VBENCH_RULE) under the pseudo-block name
# sboxtree (not in BLOCKS: it is a second top of the sbox block, with no synthesis, no .core), and adds its runs
# to make test (a short lockstep run, a model-only sanitizer run, its mutants), make sim and make lint.
#
#   make sboxtree-build    every tree set's bench        make sboxtree-sim   the long runs (part of make sim)
#   make sboxtree-mutants  the mutant builds             make sboxtree-lint  verilator -Wall on the tree top

sboxtree_FILELIST := $(sbox_FILELIST)
sboxtree_TOP      := sbox_tree
sboxtree_CDEF     := ST_
# the box's parameters (sbox_PARAMS but MASTER_MASK: A's is 0, B's 1 << UP_B) and B's up port
sboxtree_PARAMS   := PORTS=8 NODES=16 LINK_W=4 FIFO_BYTES=2048 TURN=1 TIMEOUT=1024 CTR_W=16 LINK_DELAY=0 UP_B=0
sboxtree_BENCH    := sbox_tree_bench
sboxtree_BENCH_C  := cmodel/mlc.c cmodel/sbox.c cmodel/sbox_load.c cmodel/table_file.c sw/mlc_host.c tb/common/bench_cli.c sw/src/sf_cli.c tb/common/waves.c \
                     tb/common/rerun.c tb/sbox/sbox_nodes.c tb/sbox/sbox_tree_bench.c
sboxtree_BENCH_CXX := tb/sbox/sbox_tree_rtl.cpp
# (the tree top is not in the box's file list: it rides in VBENCH_RULE's extra Verilator options, and is a
# prerequisite through this list)
SBT_TOP_V := tb/sbox/sbox_tree.v
sboxtree_BENCH_H  := cmodel/mlc.h cmodel/sbox.h cmodel/sbox_load.h cmodel/table_file.h sw/mlc_host.h sw/ring.h tb/common/bench_cli.h \
                     tb/common/rerun.h tb/common/rng.h tb/common/vrtl.h tb/sbox/sbox_nodes.h tb/sbox/sbox_rtl_io.h tb/sbox/sbox_tree_rtl.h $(SBT_TOP_V)

# tree sets: t8 two 8-port boxes (7 nodes each, 2 of the 16 node numbers unrouted), node links 1 register, the
# link between the boxes 4; t3 two 3-port boxes (2 nodes each), 8-bit links of 3 registers, 512-byte FIFOs,
# 8-bit counters (they wrap). Tables: sw/build/sanfab-route updown tb/sbox/sbox_tree<N>.topo --maestro
# tb/sbox/sbox_tree<N>.maestro. Nodes on both boxes send data multicasts to nodes on both (--span both, the
# default: B's go up alone and turn at A, docs/sbox.md, Messages and destinations)
sboxtree_SETS    := t8 t3
sboxtree_SET_t8  := LINK_DELAY=1 UP_B=2
sboxtree_ARGS_t8 := --table tb/sbox/sbox_tree8.maestro --link-delay 1 --tree-delay 4
sboxtree_SET_t3  := PORTS=3 NODES=5 LINK_W=8 FIFO_BYTES=512 TURN=0 TIMEOUT=300 CTR_W=8 LINK_DELAY=3 UP_B=2
sboxtree_ARGS_t3 := --table tb/sbox/sbox_tree3.maestro
# make test runs the small set, TEST_CYCLES like every set (the 8-port tree takes minutes to compile; make sim
# runs both)
SBT_TEST_SETS    := t3
# deliberately broken boxes (both instances; the mutation sites of rtl/sbox/sbox*.v and mlc.v, +mutant=NAME on the
# set's mutant-capable build): NAME:set
sboxtree_MUTANTS := BAR_EARLY:t3 UP_MIX:t3
# the model-only bench under ASan/UBSan (make test's model-sanitizers step)
SBT_SAN_ARGS := --cycles 60000 --PORTS 3 --NODES 5 --LINK_W 8 --FIFO_BYTES 512 --TURN 0 --TIMEOUT 300 --CTR_W 8 \
                --UP 2 --link-delay 3 --table tb/sbox/sbox_tree3.maestro

$(foreach s,$(sboxtree_SETS),$(eval $(call VBENCH_RULE,sboxtree,$(s),$(s),+define+SANFAB_ASSERT $(SBT_TOP_V),$(SET_OPT))))
# one mutant-capable build per set the mutants use (mk/rules.mk; the sites are those of the box's RTL)
$(eval $(call MUTANT_BUILD_RULES,sboxtree,$(SBT_TOP_V)))

SBT_B := $(BUILD)/sboxtree
sbt_bench  = $(SBT_B)/$(1)/$(sboxtree_BENCH)

$(SBT_B)/san/$(sboxtree_BENCH): $(sboxtree_BENCH_C) $(sboxtree_BENCH_H) $(MK_FILES)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(SAN) -DSANFAB_ASSERT $(sboxtree_BENCH_C) -o $@

.PHONY: sboxtree-build sboxtree-mutants sboxtree-sim sboxtree-lint
sboxtree-build: $(foreach s,$(sboxtree_SETS),$(call sbt_bench,$(s)))
sboxtree-mutants: $(call mutant_benches,sboxtree)

# make sim: every tree set, SIM_CYCLES random-traffic cycles
sboxtree-sim: sboxtree-build
	@fails=""; $(foreach s,$(sboxtree_SETS),echo "== sbox tree [$(s)]"; \
	  $(call sbt_bench,$(s)) --cycles $(SIM_CYCLES) --seed $(SEED) --vcd-on-fail $(SBT_B)/$(s)/fail.vcd $(sboxtree_ARGS_$(s)) \
	    || fails="$$fails sboxtree/$(s)";) \
	if [ -n "$$fails" ]; then echo "sboxtree-sim: FAILED:$$fails"; exit 1; fi; echo "sboxtree-sim: every tree set passed"

sboxtree-lint: $(call mutant_sites,sboxtree)
	@$(foreach s,$(sboxtree_SETS),echo "  LINT sbox_tree [$(s)] (test top of the tree bench)" && \
	  $(VERILATOR) --lint-only -Wall --top-module sbox_tree $(call p_gflags,sboxtree,$(s)) $(call rtl_list,sbox) $(SBT_TOP_V) &&) true
	@$(call mutant_lint,sboxtree,$(SBT_TOP_V))

# the runs scripts/run_tests.sh takes from make list-runs (block sbox): the short lockstep run of each test set,
# the mutants (lockstep and RTL alone), the sanitizer run
define SBT_NL


endef
SANFAB_RUNS := $(SANFAB_RUNS)$(foreach s,$(SBT_TEST_SETS),$(SBT_NL)set sbox tree-$(s) $(call sbt_bench,$(s)) $(sboxtree_ARGS_$(s)))$(foreach s,$(call mutant_sets,sboxtree),$(SBT_NL)unmutated sbox tree-$(s) $(call mutant_bench,sboxtree,$(s)) $(sboxtree_ARGS_$(s)))$(foreach m,$(sboxtree_MUTANTS),$(SBT_NL)mutant sbox tree-$(call mutant_name,$(m)) $(call mutant_bench,sboxtree,$(call mutant_set,$(m))) $(sboxtree_ARGS_$(call mutant_set,$(m))) +mutant=$(call mutant_name,$(m)))$(SBT_NL)san sbox tree-m3 $(SBT_B)/san/$(sboxtree_BENCH) $(SBT_SAN_ARGS)$(SBT_NL)

benches: $(foreach s,$(SBT_TEST_SETS),$(call sbt_bench,$(s)))
mutants: sboxtree-mutants
sbox-san: $(SBT_B)/san/$(sboxtree_BENCH)
sim: sboxtree-sim
lint: sboxtree-lint

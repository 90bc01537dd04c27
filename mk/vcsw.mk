# mk/vcsw.mk -- the table-lookup VC switch as a block of the generic build (mk/rules.mk documents
# every variable; docs/vcsw.md is the block's contract, docs/verification.md its bench).

BLOCKS += vcsw

vcsw_FILELIST := rtl/vcsw/files.f
vcsw_TOP      := vcsw
vcsw_CDEF     := VC_
# parameter names with their defaults (the RTL's and the C model's)
vcsw_PARAMS   := NPORTS=8 NVC=2 CTRL=1 FLIT_W=16 TAG_W=8 DEPTH=64 MAXLEN=32 LINK_DELAY=0 COUNTERS=1 CTR_WIDTH=32

# parameter sets: name -> overrides of the defaults. Together they reach every parameter's smallest,
# a middle and its largest value (docs/verification.md, "The VC switch bench": the coverage table);
# the buffer must hold DEPTH >= MAXLEN + 2*LINK_DELAY + 5: p4 32 >= 1 + 18 + 5, p3 8 >= 3 + 0 + 5 (the
# smallest buffer and the longest packet it allows), p2 256 >= 123 + 128 + 5 (the longest cable),
# p16 256 >= 251 + 0 + 5 (the longest packet). p2 and p16 run in make sim only (vcsw_TEST_SETS).
vcsw_SETS     := p8 p8c p4 p5 p3 p2 p16
vcsw_TEST_SETS := p8 p8c p4 p5 p3
vcsw_SET_p8   := CTRL=0
vcsw_SET_p8c  :=
vcsw_SET_p4   := NPORTS=4 NVC=4 CTRL=1 DEPTH=32 MAXLEN=1 LINK_DELAY=9
vcsw_SET_p5   := NPORTS=5 NVC=4 CTRL=0 CTR_WIDTH=8 LINK_DELAY=3
vcsw_SET_p3   := NPORTS=3 COUNTERS=0 DEPTH=8 MAXLEN=3
vcsw_SET_p2   := NPORTS=2 NVC=16 CTRL=1 FLIT_W=32 TAG_W=1 DEPTH=256 MAXLEN=123 LINK_DELAY=64 CTR_WIDTH=20
vcsw_SET_p16  := NPORTS=16 NVC=2 CTRL=0 FLIT_W=17 TAG_W=12 DEPTH=256 MAXLEN=251 CTR_WIDTH=12
# sets verilated with --x-initial unique and run with a seeded +verilator+rand+reset+2
vcsw_RANDINIT := p5 p3 p2

# deliberately broken RTL (mutation sites in rtl/, +mutant=NAME on the set's mutant-capable build): NAME:set.
# Sites by file: rtl/vcsw/vcsw_in_lookup.v TABLE_COPY VC_WRAP CTRL_MAP; vcsw_in_admit.v TRUNC_LATE OCC_SLIP
# STOP_LATE OVF_TRUNC HEAD_CUT OVF_LASTSLOT (and DROP_OVF, not listed); vcsw_in_buf.v STRAIGHT_ORDER;
# vcsw_in_offer.v OFFER_MOVE OFFER_STALE; the rest in vcsw_out.v, vcsw_cfg.v, rtl/common/ctr_bank.v, rr_arbiter.v
vcsw_MUTANTS  := TABLE_COPY:p8 VC_WRAP:p5 CTRL_MAP:p8c STRAIGHT_ORDER:p8 CFG_SHADOW:p8 \
                 TRUNC_LATE:p8 OCC_SLIP:p8 STOP_LATE:p4 VCT_NOSTOP:p8 VC_SHARE:p8 TAIL_KEEP:p8 \
                 OFFER_MOVE:p8 RR_NOROTATE:p8c CTR_LOSE:p5 CTR_NARROW:p5 OFFER_STALE:p8 NO_RECHECK:p8 \
                 CTR_TOPBIT:p8 OVF_TRUNC:p8 HEAD_CUT:p4 OVF_LASTSLOT:p8

# the lockstep bench: C sources (archived into a library), the C++ glue to the Verilated model
# (cmodel/ctr_sched.c while it exists: the counter schedule may be header-only)
vcsw_MODEL_C    := cmodel/vcsw.c cmodel/vcsw_alloc.c cmodel/vcsw_cfg.c $(wildcard cmodel/ctr_sched.c)
vcsw_BENCH      := vcsw_bench
vcsw_BENCH_C    := $(vcsw_MODEL_C) cmodel/vcsw_load.c cmodel/table_file.c tb/common/bench_cli.c sw/src/sf_cli.c tb/common/waves.c tb/vcsw/vcsw_bench_base.c \
                   tb/vcsw/vcsw_bench_sb.c tb/vcsw/vcsw_bench_check.c tb/vcsw/vcsw_bench_traffic.c tb/vcsw/vcsw_bench_run.c tb/vcsw/vcsw_bench.c
vcsw_BENCH_CXX  := tb/vcsw/vcsw_rtl.cpp
vcsw_BENCH_H    := $(wildcard cmodel/*.h tb/common/*.h tb/vcsw/*.h)
# model-only bench under ASan/UBSan (RTL side stubbed) and its runs (one per line of arguments)
vcsw_SAN_C      := $(vcsw_BENCH_C) tb/vcsw/vcsw_rtl_none.c
vcsw_SAN_RUNS   := m8 m4 m5 m16
vcsw_SAN_m8     := --cycles 50000
vcsw_SAN_m4     := --cycles 30000 --NPORTS 4 --NVC 4 --DEPTH 32 --MAXLEN 8 --LINK_DELAY 9
vcsw_SAN_m5     := --cycles 30000 --NPORTS 5 --NVC 8 --CTRL 0 --CTR_WIDTH 8 --LINK_DELAY 5 --FLIT_W 12 --TAG_W 6
vcsw_SAN_m16    := --cycles 20000 --NPORTS 16 --NVC 2 --DEPTH 256 --MAXLEN 16 --FLIT_W 32 --TAG_W 12
# unit tests of the model's documented timing (sanitizers)
vcsw_UNIT       := vcsw_unit
vcsw_UNIT_C     := $(vcsw_MODEL_C) tb/common/unit_main.c sw/src/sf_cli.c tb/vcsw/vcsw_unit.c tb/vcsw/vcsw_unit_sim.c \
                   $(patsubst %,tb/vcsw/vcsw_unit_%.c,flow admission config arbitration random rule3 quiet)
vcsw_UNIT_H     := tb/common/unit_main.h tb/common/unit_check.h tb/vcsw/vcsw_unit.h
# deliberate breaks of the model, each must be caught by the unit test (make test's mutants step)
vcsw_MODEL_MUTANTS := tb/vcsw/mutants.sh

# synthesis wrapper (linted with the block) and the one placed-and-routed gate `make test` runs
vcsw_WRAPPER     := rtl/fpga/scan_io.v rtl/fpga/vcsw_fpga_top.v
vcsw_WRAPPER_TOP := vcsw_fpga_top
vcsw_GATE        := vcsw-flit_w16-nports4-nvc2-ice40-hx8k
# Icarus bench: a script that prints "icarus: N passed, M failed" (and --selftest for its mutant)
vcsw_ICARUS      := tb/vcsw/run_icarus.sh

# ------------------------------------------------------------------ real route tables
# The routes test of the bench loads $(BUILD)/vcsw/tables/n<NPORTS>-*.rhinet, found beside its own build (make
# test's build/quick/ as well; the switch with the most entries), made here by the routing tools: random
# topologies whose switches have as many ports as
# the parameter sets (16 switches of 8 ports and 4 hosts; 64 of 5 ports and 1 host, where DL and
# LASH need 4 VCs; 16 of 4 and of 3 ports, 1 host), routed by up*/down* (1 VC), DL with 2 VCs
# (4 VCs on 5 ports, rule (UD-DU)*) and LASH. A file that needs more data VCs than a set has is
# refused by the loader, and the bench says so and skips it.
VCSW_TABDIR  := $(BUILD)/vcsw/tables
VCSW_SWTOOLS := sw/build/sanfab-topo sw/build/sanfab-route
# name  topology options  route command (after the algorithm's name: options)
VCSW_TOPOS   := n8:16:8:4:1 n5:64:5:1:2 n4:16:4:1:1 n3:16:3:1:1
VCSW_ROUTES  := n8-ud:updown n8-dl2:dl/--vcs/2 n8-lash:lash n5-dl4:dl/--vcs/4/--rule/ud-du n5-lash:lash \
                n4-ud:updown n4-dl2:dl/--vcs/2 n3-ud:updown n3-dl2:dl/--vcs/2 n3-lash:lash
VCSW_TABLES  := $(foreach r,$(VCSW_ROUTES),$(VCSW_TABDIR)/$(firstword $(subst :, ,$(r))).rhinet)

$(VCSW_SWTOOLS):
	@$(MAKE) -s -C sw $(patsubst sw/%,%,$(VCSW_SWTOOLS))

define VCSW_TOPO_RULE
$(VCSW_TABDIR)/$(word 1,$(1)).topo: $(VCSW_SWTOOLS) mk/vcsw.mk
	@mkdir -p $(VCSW_TABDIR)
	@sw/build/sanfab-topo random --switches $(word 2,$(1)) --ports $(word 3,$(1)) --hosts $(word 4,$(1)) \
	  --seed $(word 5,$(1)) -o $$@ 2> /dev/null
endef
define VCSW_ROUTE_RULE
$(VCSW_TABDIR)/$(word 1,$(1)).rhinet: $(VCSW_TABDIR)/$(firstword $(subst -, ,$(word 1,$(1)))).topo
	@echo "  TABLES $$@ (sanfab-route $(subst /, ,$(word 2,$(1))))"
	@sw/build/sanfab-route $(subst /, ,$(word 2,$(1))) $$< -o $$(@:.rhinet=.routes) --rhinet $$@ \
	  > $$(@:.rhinet=.log) 2>&1 || { cat $$(@:.rhinet=.log); rm -f $$@; exit 1; }
endef
$(foreach t,$(VCSW_TOPOS),$(eval $(call VCSW_TOPO_RULE,$(subst :, ,$(t)))))
$(foreach r,$(VCSW_ROUTES),$(eval $(call VCSW_ROUTE_RULE,$(subst :, ,$(r)))))

.PHONY: vcsw-tables
vcsw-tables: $(VCSW_TABLES)
# every vcsw bench (sets, mutant-capable builds, sanitizer build) finds its tables made (order only: no rebuild)
$(foreach s,$(vcsw_SETS),$(BUILD)/vcsw/$(s)/vcsw_bench) \
$(foreach s,$(sort $(foreach m,$(vcsw_MUTANTS),$(word 2,$(subst :, ,$(m))))),$(BUILD)/vcsw/MUTANTS_$(s)/vcsw_bench) \
$(BUILD)/vcsw/san/vcsw_bench: | $(VCSW_TABLES)

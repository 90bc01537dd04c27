# mk/rules.mk -- the generic per-block build: Verilated lockstep benches per parameter set,
# mutant-capable builds, model-only sanitizer builds, unit tests, lint. Included by the Makefile after
# every mk/<block>.mk. A block file appends its name to BLOCKS and sets, with B its name:
#
#   B_FILELIST     RTL file list (one path a line; +incdir+DIR lines; # and // comments)
#   B_TOP          top module of the core
#   B_CDEF         prefix of the C defines that carry the parameters to the bench (XB_ -> -DXB_NPORTS=8)
#   B_PARAMS       NAME=default ... : every parameter, passed as -GNAME= and -D<CDEF>NAME=
#   B_SETS         parameter set names; B_SET_<set> := NAME=value ... (overrides of the defaults)
#   B_RANDINIT     sets verilated with --x-initial unique --x-assign unique and run with
#                  +verilator+rand+reset+2 +verilator+seed+$(SEED) (a missing reset shows)
#   B_MUTANTS      NAME:set ... : the mutants make test runs. NAME is a mutation site of the RTL
#                  (`ifdef SANFAB_MUTANTS ... sanfab_mutant #(.NAME("NAME")) ...: rtl/common/
#                  sanfab_mutant.v, docs/verification.md "The mutation proof"), selected at run time
#                  by +mutant=NAME on the block's one mutant-capable build of that set
#                  (build/B/MUTANTS_<set>/: every site compiled in, without SANFAB_ASSERT: a mutant
#                  must be caught by the bench, never by an assertion). Each such build also runs once
#                  without +mutant and must pass. A NAME that no site of the RTL has is a build error
#                  (scripts/mutant_sites.sh), and a +mutant no site knows stops the simulation.
#   B_BENCH        bench binary name; B_BENCH_C its C sources (compiled once, with no per-build
#                  define, into $(BUILD)/cobj/ and archived into $(BUILD)/B/lib/libbench.a, which
#                  every set and mutant-capable build of the block links), B_BENCH_CXX the C++ glue to the
#                  Verilated model (compiled per build: the parameters reach it through -CFLAGS),
#                  B_BENCH_H headers to depend on
#   B_SAN_C        sources of the model-only bench under ASan/UBSan (-DSANFAB_ASSERT);
#                  B_SAN_RUNS names its runs, B_SAN_<run> the arguments of each
#   B_UNIT, B_UNIT_C   unit-test binary and its sources (ASan/UBSan, -DSANFAB_ASSERT; the harness
#                  tb/common/unit_main.c and sw/src/sf_cli.c among them), B_UNIT_H its headers to
#                  depend on (besides B_BENCH_H)
#   B_MODEL_MUTANTS    script that breaks the C model deliberately and requires the unit test to
#                  catch every break (for a block whose model comes before its RTL)
#   B_WRAPPER, B_WRAPPER_TOP   synthesis wrapper, linted with the block
#   B_GATE         the synthesis config (constraints/synth_configs.json) `make test` places and routes
#   B_ICARUS       Icarus bench script (optional)
#   B_ARGS_<set>   bench options given on every run of the set's builds (the set's and its mutant-capable
#                  build: make list-runs' set, unmutated and mutant lines, make B-sim): the bench's own
#                  settings that are not RTL parameters (sbox: the link models' delay, the table)
#   B_TEST_SETS    the sets make test runs and make benches builds (default: every set; B-build and
#                  B-sim take every set)
#   B_TOPS         more Verilated tops of the block, each T a unit of its own (sbox: `tree`, a test top of
#                  two boxes) with the variables above under the prefix B_T_: B_T_TOP, _CDEF, _PARAMS,
#                  _SETS, _SET_<set>, _ARGS_<set>, _TEST_SETS, _RANDINIT, _MUTANTS, _BENCH, _BENCH_C,
#                  _BENCH_CXX, _BENCH_H, _SAN_C, _SAN_RUNS, _SAN_<run>; B_T_FILELIST is B's unless given, and
#                  B_T_VFILES names the Verilog files after the list (the test top: on every build's and
#                  lint's compile line, a prerequisite of each build). Built in build/B/T/; its runs are
#                  listed under block B, named T-<set>, T-<mutant>, T-<run>; its targets B-T-build,
#                  -mutants, -sim, -san, -lint (B-san and B-lint make the last two; make benches,
#                  mutants and sim take the others).
#
# Builds land in build/B/<set>/, build/B/MUTANTS_<set>/ (one per set a mutant uses), build/B/san/
# (a second top T's in build/B/T/...).
# Normal builds get +define+SANFAB_ASSERT; mutant-capable builds +define+SANFAB_MUTANTS, with
# build/B/mutant_sites.v (the site names of B's RTL) and rtl/common/sanfab_mutant{,_check}.v first on
# their compile line. The variant name (set or MUTANTS_<set>) reaches the C code as <CDEF>VARIANT.
# Shared by the builds: build/cobj/ (the benches' C objects, below), build/B/lib/libbench.a, and
# build/vlrt/<flavour>/ (Verilator's run-time library, compiled once per flavour: vlrt_dep and
# vlrt_give below, for any .mk file's own Verilator rules too).
#
# Settings (Makefile or command line): CC, CSTD (the C compile flags), CINC (the include path, -I DIR ...,
# relative to the repository: every C/C++ compile line below takes it; CINC_ABS, made here, is the same
# with absolute paths, for the Verilated builds, which compile in their obj directory), VERILATOR, JOBS (the -j of
# each Verilated build's generated makefile), BUILD, SEED; MUTANT_OPT (below).

# ------------------------------------------------------------------ helpers
# A unit is a block or a second top of one (B_TOPS): B, or B_T with u_dir build/B/T, u_tgt B-T (its
# targets' prefix), u_of B (its block in make list-runs) and u_pfx T- (its run names' prefix).
SUBTOPS := $(foreach b,$(BLOCKS),$(addprefix $(b)_,$($(b)_TOPS)))
define SUBTOP_VARS
$(1)_$(2)_FILELIST := $$(or $$($(1)_$(2)_FILELIST),$$($(1)_FILELIST))
$(1)_$(2)_DIR := $(1)/$(2)
$(1)_$(2)_TGT := $(1)-$(2)
$(1)_$(2)_OF  := $(1)
$(1)_$(2)_PFX := $(2)-
endef
$(foreach b,$(BLOCKS),$(foreach t,$($(b)_TOPS),$(eval $(call SUBTOP_VARS,$(b),$(t)))))
u_dir = $(BUILD)/$(or $($(1)_DIR),$(1))
u_tgt = $(or $($(1)_TGT),$(1))
u_of  = $(or $($(1)_OF),$(1))
u_pfx = $($(1)_PFX)
u_subs = $(addprefix $(1)_,$($(1)_TOPS))
test_sets = $(or $($(1)_TEST_SETS),$($(1)_SETS))
# value of parameter $(3) in set $(2) of block $(1): the set's override, else the default
p_val = $(or $(patsubst $(3)=%,%,$(filter $(3)=%,$($(1)_SET_$(2)))),$(patsubst $(3)=%,%,$(filter $(3)=%,$($(1)_PARAMS))))
p_names = $(foreach p,$($(1)_PARAMS),$(firstword $(subst =, ,$(p))))
p_gflags = $(foreach k,$(call p_names,$(1)),-G$(k)=$(call p_val,$(1),$(2),$(k)))
p_dflags = $(foreach k,$(call p_names,$(1)),-D$($(1)_CDEF)$(k)=$(call p_val,$(1),$(2),$(k)))
is_randinit = $(filter $(2),$($(1)_RANDINIT))
x_flags = $(if $(call is_randinit,$(1),$(2)),--x-assign unique --x-initial unique,--x-assign fast --x-initial fast)
# run-time plusargs of a set's builds (Verilator's random initial state, seeded); run_args: them and
# the set's bench options (B_ARGS_<set>), what every run of the set's builds gets
run_plusargs = $(if $(call is_randinit,$(1),$(2)),+verilator+rand+reset+2 +verilator+seed+$(SEED))
run_args = $(strip $(call run_plusargs,$(1),$(2)) $($(1)_ARGS_$(2)))
# file list: sources and +incdir+ options as Verilator takes them; the files a build depends on
# (read once per make run: every rule of a block asks for it)
rtl_list = $(if $(filter undefined,$(origin RTL_LIST_$(1))),$(eval RTL_LIST_$(1) := $(call rtl_read,$(1))))$(RTL_LIST_$(1))
rtl_read = $(shell grep -v '^[[:space:]]*\(#\|//\|$$\)' $($(1)_FILELIST))
rtl_deps = $(filter-out +%,$(call rtl_list,$(1))) \
           $(foreach d,$(patsubst +incdir+%,%,$(filter +incdir+%,$(call rtl_list,$(1)))),$(wildcard $(d)/*.vh))
mutant_name = $(firstword $(subst :, ,$(1)))
mutant_set = $(word 2,$(subst :, ,$(1)))
set_benches = $(foreach s,$($(1)_SETS),$(call u_dir,$(1))/$(s)/$($(1)_BENCH))
test_benches = $(foreach s,$(call test_sets,$(1)),$(call u_dir,$(1))/$(s)/$($(1)_BENCH))
# the mutants: the names of block $(1)'s, the parameter sets they use, the one mutant-capable bench of
# set $(2), all of them
mutant_names = $(foreach m,$($(1)_MUTANTS),$(call mutant_name,$(m)))
mutant_sets = $(sort $(foreach m,$($(1)_MUTANTS),$(call mutant_set,$(m))))
mutant_bench = $(call u_dir,$(1))/MUTANTS_$(2)/$($(1)_BENCH)
mutant_benches = $(foreach s,$(call mutant_sets,$(1)),$(call mutant_bench,$(1),$(s)))
# what makes a build mutant-capable: the define, the site list of block $(1)'s RTL (first: it
# defines SANFAB_MUTANT_SITES and SANFAB_MUTANT_KNOWN), the site module and the check module
MUTANT_V     := rtl/common/sanfab_mutant.v rtl/common/sanfab_mutant_check.v
mutant_sites = $(call u_dir,$(1))/mutant_sites.v
mutant_vopts = +define+SANFAB_MUTANTS $(call mutant_sites,$(1)) $(MUTANT_V)

MK_FILES := Makefile mk/rules.mk $(wildcard mk/*.mk)
# C/C++ optimization of the mutant-capable benches: their runs are short (a mutant is mostly caught
# within a few thousand cycles), so their build time dominates (the parameter sets keep -O2 and
# Verilator's own defaults: make sim runs them long)
MUTANT_OPT ?= -O0
# C/C++ optimization of the parameter sets' benches: empty keeps Verilator's split build (-O2 for the
# model, its own OPT_FAST/OPT_SLOW), what make sim and make bench run; make test builds its own under
# build/quick/ with SET_OPT=-O0 (scripts/run_tests.sh): its runs are short, so the build dominates
# (a 16-port crossbar: 85 CPU s to build at -O2, 15 at -O0; 100,000 cycles run in 3.6 s and 12 s)
SET_OPT ?=

# ------------------------------------------------------------------ the benches' C objects, compiled once
# A block's bench C sources get no per-build define (the parameters reach only the C++ glue, through
# -CFLAGS), so every set and mutant build of every block links the same objects: each source is
# compiled once, by $(CC) $(CSTD) $(CINC), into $(COBJ)/<its path>.o (shared by the blocks that list it), its
# headers recorded by -MMD -MP. A block's objects are archived into bench_lib (a static library: the
# benches stay self-contained), which its builds link and depend on.
# Two stamp files say what was built: $(COBJ)/cflags the compile command (every object depends on it)
# and build/B/lib/members the archive's object list. Each is rewritten when make reads this file and
# finds it different from the current value (a new CSTD or CC recompiles everything, a source added
# to or dropped from B_BENCH_C remakes the archive), and made by a rule when missing. (B: a unit.)
COBJ     := $(BUILD)/cobj
CINC_ABS := $(foreach d,$(patsubst -I%,%,$(CINC)),-I$(abspath $(d)))
COBJ_CMD := $(CC) $(CSTD) $(CINC)
# $(call stamp_rule,FILE,TEXT): FILE's rule, and FILE rewritten now if it exists and holds other text
stamp_eq   = $(if $(subst x$(1),,x$(2))$(subst x$(2),,x$(1)),,y)
define stamp_rule
$(if $(wildcard $(1)),$(if $(call stamp_eq,$(file < $(1)),$(strip $(2))),,$(file > $(1),$(strip $(2)))))
$(1):
	@mkdir -p $$(@D)
	@echo '$(strip $(2))' > $$@
endef
$(eval $(call stamp_rule,$(COBJ)/cflags,$(COBJ_CMD)))
$(COBJ)/%.o: %.c $(COBJ)/cflags
	@mkdir -p $(@D)
	@$(COBJ_CMD) -MMD -MP -c $< -o $@
-include $(wildcard $(COBJ)/*/*.d $(COBJ)/*/*/*.d $(COBJ)/*/*/*/*.d)

bench_objs = $(patsubst %.c,$(COBJ)/%.o,$($(1)_BENCH_C))
bench_lib  = $(call u_dir,$(1))/lib/libbench.a
define BENCH_LIB_RULE
$(call stamp_rule,$(call u_dir,$(1))/lib/members,$(call bench_objs,$(1)))
$(call bench_lib,$(1)): $(call bench_objs,$(1)) $(call u_dir,$(1))/lib/members
	@rm -f $$@.tmp && ar rcs $$@.tmp $(call bench_objs,$(1)) && mv -f $$@.tmp $$@
endef
# (the rule of block $(1)'s library, made once: VBENCH_RULE asks for it)
bench_lib_once = $(if $(filter $(1),$(BENCH_LIBS)),,$(eval BENCH_LIBS += $(1))$(eval $(call BENCH_LIB_RULE,$(1))))

# ------------------------------------------------------------------ Verilator's run-time library, once per flavour
# The makefile Verilator generates compiles its run-time library (verilated.cpp, verilated_vcd_c.cpp,
# verilated_threads.cpp: VK_GLOBAL_OBJS) in every obj directory, with the same flags each time. It is
# compiled once per flavour instead, in $(BUILD)/vlrt/<flavour>/: a trivial module verilated with
# --cc --trace and the flavour's -CFLAGS, and its generated makefile (so Verilator's own compile line)
# run for VK_GLOBAL_OBJS alone with the flavour's OPT_GLOBAL. A build copies the objects (and their
# .d files) into its obj directory after verilating and before running its makefile, which then
# finds them newer than their sources and than V<top>.mk and does not compile them again.
# A flavour is
#   CFLAGS   the part of the build's -CFLAGS that can change the runtime's compile line: its
#            optimization (the bench's own -D and -I options reach it too but no runtime file reads
#            them, so they are left out)
#   OPTG     the OPT_GLOBAL given to the generated makefile (empty: Verilator's default)
# and only a build verilated with --trace and without an option that changes the runtime or its
# flags (VLRT_OWN: --threads N, --timing, ...) gets it; any other build compiles its own.
# To use it in a Verilator rule (VOPTS: the build's Verilator options, --trace included; OBJDIR its
# -Mdir), add
#   to the prerequisites                       $(call vlrt_dep,CFLAGS,OPTG,VOPTS)
#   a recipe line after verilator, before $(MAKE) -f V<top>.mk:
#                                              @$(call vlrt_give,CFLAGS,OPTG,VOPTS,OBJDIR)
# (for a build that must compile its own, vlrt_dep is empty and vlrt_give the command `:`).
VLRT_OWN  := --threads% -threads% --timing -timing --coverage% -coverage% --sc -sc --trace-fst% -trace-fst% \
             --savable -savable --prof-c -prof-c --prof-cfuncs -prof-cfuncs --prof-exec -prof-exec --prof-pgo -prof-pgo
vlrt_sp   := $(subst ,, )
vlrt_dir  = $(BUILD)/vlrt/c$(subst $(vlrt_sp),_,$(strip $(1)))_g$(or $(subst $(vlrt_sp),_,$(strip $(2))),default)
vlrt_ok   = $(if $(filter $(VLRT_OWN),$(3)),,$(filter --trace -trace,$(3)))
vlrt_dep  = $(if $(call vlrt_ok,$(1),$(2),$(3)),$(call vlrt_once,$(1),$(2))$(call vlrt_dir,$(1),$(2))/stamp)
vlrt_give = $(if $(call vlrt_ok,$(1),$(2),$(3)),cp -f $(call vlrt_dir,$(1),$(2))/rt/* $(4)/,:)
vlrt_once = $(if $(filter $(call vlrt_dir,$(1),$(2)),$(VLRT_DIRS)),,$(eval VLRT_DIRS += $(call vlrt_dir,$(1),$(2)))$(eval $(call VLRT_RULE,$(1),$(2))))
# the stamp depends on this file, the Makefile, the verilator program and (deps.mk, written from the
# objects' .d files) every runtime source and header
define VLRT_RULE
$(call vlrt_dir,$(1),$(2))/stamp: Makefile mk/rules.mk
	@echo "  RUNTIME Verilator run-time library, CFLAGS $(or $(strip $(1)),(none)), OPT_GLOBAL $(or $(strip $(2)),(default))"
	@rm -rf $$(@D) && mkdir -p $$(@D)/obj $$(@D)/rt
	@printf 'module vlrt (input clk, output reg q);\n  always @(posedge clk) q <= !q;\nendmodule\n' > $$(@D)/vlrt.v
	@$(VERILATOR) --cc --trace --top-module vlrt -Mdir $$(@D)/obj -CFLAGS "$(1)" $$(@D)/vlrt.v > $$(@D)/build.log 2>&1 \
	  || { cat $$(@D)/build.log; exit 1; }
	@cd $$(@D)/obj && export MAKEFLAGS= && objs=$$$$($(MAKE) -s --no-print-directory -f Vvlrt.mk \
	    --eval 'vlrt-list: ; @echo $$$$(VK_GLOBAL_OBJS)' vlrt-list) \
	  && $(MAKE) -s -f Vvlrt.mk -j $(JOBS) $(if $(strip $(2)),OPT_GLOBAL="$(2)") $$$$objs >> ../build.log 2>&1 \
	  && for o in $$$$objs; do cp $$$$o $$$${o%.o}.d ../rt/ || exit 1; done || { cat ../build.log; exit 1; }
	@cat $$(@D)/rt/*.d | tr -d '\\' | tr ' ' '\n' | grep -v -e ':$$$$' -e '^$$$$' | sort -u > $$(@D)/deps.txt
	@{ echo "$$@: $$$$(tr '\n' ' ' < $$(@D)/deps.txt) $$$$(command -v $(VERILATOR))"; sed 's/$$$$/:/' $$(@D)/deps.txt; } > $$(@D)/deps.mk
	@touch $$@
-include $(call vlrt_dir,$(1),$(2))/deps.mk
endef

# ------------------------------------------------------------------ one Verilated bench
# $(1) unit (a block or a second top), $(2) build name, $(3) parameter set, $(4) extra Verilator options
# (defines, the unit's B_VFILES),
# $(5) empty, or a C/C++ optimization level for the whole build (Verilator's OPT_FAST/SLOW/GLOBAL too)
# The C objects come from the block's library (bench_lib), Verilator's runtime from vlrt (its flavour:
# -CFLAGS $(or $(5),-O2), OPT_GLOBAL $(5)). A build with one optimization level for everything (the
# mutants) compiles the model as one translation unit: VM_PARALLEL_BUILDS=0, Verilator's own mode
# for small designs, joins the generated files into V<top>__ALL.cpp (the same code, the same flags),
# so Verilator's headers are parsed once instead of once per file (at -O0 about a third of the CPU
# of the split build). The sets keep the split build: their fast and slow code get different flags.
# (the Verilator options that decide the runtime: the flavour checks them)
vb_vopts = --trace $(1)
define VBENCH_RULE
$(call bench_lib_once,$(1))
$(call u_dir,$(1))/$(2)/$($(1)_BENCH): $(call rtl_deps,$(1)) $($(1)_FILELIST) $(call bench_lib,$(1)) $($(1)_BENCH_H) $($(1)_BENCH_CXX) $($(1)_VFILES) $(MK_FILES) \
    $(call vlrt_dep,$(or $(5),-O2),$(5),$(call vb_vopts,$(4)))
	@mkdir -p $(call u_dir,$(1))/$(2)
	@rm -f $(call u_dir,$(1))/$(2)/obj/$($(1)_BENCH)_bin
	@echo "  VERILATE $(1) [$(2)] $(call p_gflags,$(1),$(3)) $(4)$(if $(call is_randinit,$(1),$(3)), (random initial state))"
	@$(VERILATOR) --cc --exe -O3 $(call x_flags,$(1),$(3)) \
	  -Wall -Wno-fatal --top-module $($(1)_TOP) -Mdir $(call u_dir,$(1))/$(2)/obj \
	  $(call p_gflags,$(1),$(3)) $(call vb_vopts,$(4)) \
	  -CFLAGS "$(or $(5),-O2) $(CINC_ABS) $(call p_dflags,$(1),$(3)) -D$($(1)_CDEF)VARIANT='\"$(2)\"'" \
	  $(call rtl_list,$(1)) $(abspath $($(1)_BENCH_CXX)) $(abspath $(call bench_lib,$(1))) \
	  -o $($(1)_BENCH)_bin > $(call u_dir,$(1))/$(2)/verilate.log 2>&1 \
	  || { tail -30 $(call u_dir,$(1))/$(2)/verilate.log; exit 1; }
	@$(call vlrt_give,$(or $(5),-O2),$(5),$(call vb_vopts,$(4)),$(call u_dir,$(1))/$(2)/obj)
	@$(MAKE) -s -C $(call u_dir,$(1))/$(2)/obj -f V$($(1)_TOP).mk -j $(JOBS) \
	  $(if $(5),OPT_FAST=$(5) OPT_SLOW=$(5) OPT_GLOBAL=$(5) VM_PARALLEL_BUILDS=0) >> $(call u_dir,$(1))/$(2)/verilate.log 2>&1 \
	  || { tail -30 $(call u_dir,$(1))/$(2)/verilate.log; exit 1; }
	@cp $(call u_dir,$(1))/$(2)/obj/$($(1)_BENCH)_bin $$@
endef

# ------------------------------------------------------------------ the mutant-capable builds
# One build per parameter set a block's mutants use, build/B/MUTANTS_<set>/: +define+SANFAB_MUTANTS
# (every mutation site of the RTL compiled in, each switched by its own +mutant=NAME at run time,
# none without one), no SANFAB_ASSERT, MUTANT_OPT, --trace-depth 1. Its compile line starts with
# build/B/mutant_sites.v (scripts/mutant_sites.sh: `define SANFAB_MUTANT_SITES, every site name of
# the block's RTL, and SANFAB_MUTANT_KNOWN; made here, it fails, naming them, when a name of
# B_MUTANTS has no site) and MUTANT_V (the site module and the check module each block top has, in
# no file list). $(1) unit, $(2) its RTL files, $(3) the mutant names that must have a site.
define MUTANT_SITES_RULE
$(call mutant_sites,$(1)): $(2) scripts/mutant_sites.sh $(MK_FILES)
	@mkdir -p $$(@D)
	@bash scripts/mutant_sites.sh --require "$(3)" $(2) > $$@.tmp && mv -f $$@.tmp $$@ || { rm -f $$@.tmp; exit 1; }
endef
# $(1) unit, $(2) more Verilator options (its B_VFILES)
define MUTANT_BUILD_RULES
$(eval $(call MUTANT_SITES_RULE,$(1),$(call rtl_deps,$(1)),$(call mutant_names,$(1))))
$(foreach s,$(call mutant_sets,$(1)),$(eval $(call VBENCH_RULE,$(1),MUTANTS_$(s),$(s),$(call mutant_vopts,$(1)) --trace-depth 1 $(2),$(MUTANT_OPT))))
$(call mutant_benches,$(1)): $(call mutant_sites,$(1)) $(MUTANT_V)
endef
# lint of the mutant-capable configuration: every set a mutant uses (a recipe line of B-lint)
mutant_lint = $(foreach s,$(call mutant_sets,$(1)),echo "  LINT $(1) [$(s)] mutant-capable (+define+SANFAB_MUTANTS)" && \
  $(VERILATOR) --lint-only -Wall +define+SANFAB_MUTANTS --top-module $($(1)_TOP) $(call p_gflags,$(1),$(s)) \
    $(call mutant_sites,$(1)) $(MUTANT_V) $(call rtl_list,$(1)) $(2) &&) true

# ------------------------------------------------------------------ everything of one unit
# $(1) a block or a second top of one (B_T); the block's targets make its second tops' -san and -lint
define BLOCK_RULES
$(foreach s,$($(1)_SETS),$(eval $(call VBENCH_RULE,$(1),$(s),$(s),+define+SANFAB_ASSERT $($(1)_VFILES),$(SET_OPT))))
$(if $($(1)_MUTANTS),$(eval $(call MUTANT_BUILD_RULES,$(1),$($(1)_VFILES))))

.PHONY: $(call u_tgt,$(1))-build $(call u_tgt,$(1))-mutants $(call u_tgt,$(1))-san $(call u_tgt,$(1))-lint
$(call u_tgt,$(1))-build: $(call set_benches,$(1))
$(call u_tgt,$(1))-mutants: $(call mutant_benches,$(1))
$(call u_tgt,$(1))-san: $(if $($(1)_SAN_C),$(call u_dir,$(1))/san/$($(1)_BENCH)) $(if $($(1)_UNIT_C),$(call u_dir,$(1))/san/$($(1)_UNIT)) \
    $(foreach u,$(call u_subs,$(1)),$(call u_tgt,$(u))-san)

$(call u_dir,$(1))/san/$($(1)_BENCH): $($(1)_SAN_C) $($(1)_BENCH_H) $(MK_FILES)
	@mkdir -p $$(dir $$@)
	$(CC) $(CSTD) $(CINC) $(SAN) -DSANFAB_ASSERT $($(1)_SAN_C) -o $$@

$(call u_dir,$(1))/san/$($(1)_UNIT): $($(1)_UNIT_C) $($(1)_UNIT_H) $($(1)_BENCH_H) $(MK_FILES)
	@mkdir -p $$(dir $$@)
	$(CC) $(CSTD) $(CINC) $(SAN) -DSANFAB_ASSERT $($(1)_UNIT_C) -o $$@

$(call u_tgt,$(1))-lint: $(if $($(1)_MUTANTS),$(call mutant_sites,$(1))) $(foreach u,$(call u_subs,$(1)),$(call u_tgt,$(u))-lint)
	@$(foreach s,$($(1)_SETS),echo "  LINT $(1) [$(s)]" && \
	  $(VERILATOR) --lint-only -Wall +define+SANFAB_ASSERT --top-module $($(1)_TOP) \
	    $(call p_gflags,$(1),$(s)) $(call rtl_list,$(1)) $($(1)_VFILES) &&) true
	@$(call mutant_lint,$(1),$($(1)_VFILES))
	@$(if $($(1)_WRAPPER),echo "  LINT $($(1)_WRAPPER_TOP) (synthesis wrapper of $(1))" && \
	  $(VERILATOR) --lint-only -Wall --top-module $($(1)_WRAPPER_TOP) $(call rtl_list,$(1)) $($(1)_WRAPPER),true)
endef

$(foreach u,$(BLOCKS) $(SUBTOPS),$(eval $(call BLOCK_RULES,$(u))))

ALL_SET_BENCHES    := $(foreach u,$(BLOCKS) $(SUBTOPS),$(call test_benches,$(u)))
ALL_MUTANT_BENCHES := $(foreach u,$(BLOCKS) $(SUBTOPS),$(call mutant_benches,$(u)))

# ------------------------------------------------------------------ what scripts/run_tests.sh runs
# One line per run: KIND BLOCK NAME BINARY [ARGS...] (KIND: set, unmutated, mutant, san, unit, modelmut,
# gate, icarus). unmutated: a mutant-capable build run without +mutant (NAME its set), which must pass;
# mutant: the build of the mutant's set with +mutant=NAME last, which must fail. A block's second tops
# follow its lines, under its name (NAME T-<set>, ...). set lines: the test sets (B_TEST_SETS).
define unit_runs
$(foreach s,$(call test_sets,$(1)),set $(call u_of,$(1)) $(call u_pfx,$(1))$(s) $(call u_dir,$(1))/$(s)/$($(1)_BENCH) $(call run_args,$(1),$(s))
)$(foreach s,$(call mutant_sets,$(1)),unmutated $(call u_of,$(1)) $(call u_pfx,$(1))$(s) $(call mutant_bench,$(1),$(s)) $(call run_args,$(1),$(s))
)$(foreach m,$($(1)_MUTANTS),mutant $(call u_of,$(1)) $(call u_pfx,$(1))$(call mutant_name,$(m)) $(call mutant_bench,$(1),$(call mutant_set,$(m))) $(call run_args,$(1),$(call mutant_set,$(m))) +mutant=$(call mutant_name,$(m))
)$(if $($(1)_UNIT_C),unit $(call u_of,$(1)) $(call u_pfx,$(1))unit $(call u_dir,$(1))/san/$($(1)_UNIT)
)$(if $($(1)_MODEL_MUTANTS),modelmut $(call u_of,$(1)) $(call u_pfx,$(1))mutants $($(1)_MODEL_MUTANTS)
)$(foreach r,$($(1)_SAN_RUNS),san $(call u_of,$(1)) $(call u_pfx,$(1))$(r) $(call u_dir,$(1))/san/$($(1)_BENCH) $(strip $($(1)_SAN_$(r)))
)$(if $($(1)_GATE),gate $(call u_of,$(1)) $($(1)_GATE) -
)$(if $($(1)_ICARUS),icarus $(call u_of,$(1)) $(call u_pfx,$(1))icarus $($(1)_ICARUS)
)
endef
define list_runs
$(foreach b,$(BLOCKS),$(foreach u,$(b) $(call u_subs,$(b)),$(call unit_runs,$(u))))
endef
export SANFAB_RUNS := $(list_runs)

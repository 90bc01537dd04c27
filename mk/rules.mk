# mk/rules.mk -- the generic per-block build: Verilated lockstep benches per parameter set,
# mutant builds, model-only sanitizer builds, unit tests, lint. Included by the Makefile after
# every mk/<block>.mk. A block file appends its name to BLOCKS and sets, with B its name:
#
#   B_FILELIST     RTL file list (one path a line; +incdir+DIR lines; # and // comments)
#   B_TOP          top module of the core
#   B_CDEF         prefix of the C defines that carry the parameters to the bench (XB_ -> -DXB_NPORTS=8)
#   B_PARAMS       NAME=default ... : every parameter, passed as -GNAME= and -D<CDEF>NAME=
#   B_SETS         parameter set names; B_SET_<set> := NAME=value ... (overrides of the defaults)
#   B_RANDINIT     sets verilated with --x-initial unique --x-assign unique and run with
#                  +verilator+rand+reset+2 +verilator+seed+$(SEED) (a missing reset shows)
#   B_MUTANTS      NAME:set ... : builds with `define SANFAB_MUTANT_<NAME> on that set, without
#                  SANFAB_ASSERT (a mutant must be caught by the bench, never by an assertion)
#   B_BENCH        bench binary name; B_BENCH_C its C sources (archived into libbench.a),
#                  B_BENCH_CXX the C++ glue to the Verilated model, B_BENCH_H headers to depend on
#   B_SAN_C        sources of the model-only bench under ASan/UBSan (-DSANFAB_ASSERT);
#                  B_SAN_RUNS names its runs, B_SAN_<run> the arguments of each
#   B_UNIT, B_UNIT_C   unit-test binary and its sources (ASan/UBSan, -DSANFAB_ASSERT)
#   B_MODEL_MUTANTS    script that breaks the C model deliberately and requires the unit test to
#                  catch every break (for a block whose model comes before its RTL)
#   B_WRAPPER, B_WRAPPER_TOP   synthesis wrapper, linted with the block
#   B_GATE         the synthesis config (constraints/synth_configs.json) `make test` places and routes
#   B_ICARUS       Icarus bench script (optional)
#
# Builds land in build/B/<set>/, build/B/MUTANT_<NAME>/, build/B/san/. Normal builds get
# +define+SANFAB_ASSERT; the variant name (set or MUTANT_<NAME>) reaches the C code as <CDEF>VARIANT.

# ------------------------------------------------------------------ helpers
# value of parameter $(3) in set $(2) of block $(1): the set's override, else the default
p_val = $(or $(patsubst $(3)=%,%,$(filter $(3)=%,$($(1)_SET_$(2)))),$(patsubst $(3)=%,%,$(filter $(3)=%,$($(1)_PARAMS))))
p_names = $(foreach p,$($(1)_PARAMS),$(firstword $(subst =, ,$(p))))
p_gflags = $(foreach k,$(call p_names,$(1)),-G$(k)=$(call p_val,$(1),$(2),$(k)))
p_dflags = $(foreach k,$(call p_names,$(1)),-D$($(1)_CDEF)$(k)=$(call p_val,$(1),$(2),$(k)))
is_randinit = $(filter $(2),$($(1)_RANDINIT))
x_flags = $(if $(call is_randinit,$(1),$(2)),--x-assign unique --x-initial unique,--x-assign fast --x-initial fast)
# run-time plusargs of a set's builds (Verilator's random initial state, seeded)
run_plusargs = $(if $(call is_randinit,$(1),$(2)),+verilator+rand+reset+2 +verilator+seed+$(SEED))
# file list: sources and +incdir+ options as Verilator takes them; the files a build depends on
rtl_list = $(shell grep -v '^[[:space:]]*\(#\|//\|$$\)' $($(1)_FILELIST))
rtl_deps = $(filter-out +%,$(call rtl_list,$(1))) \
           $(foreach d,$(patsubst +incdir+%,%,$(filter +incdir+%,$(call rtl_list,$(1)))),$(wildcard $(d)/*.vh))
mutant_name = $(firstword $(subst :, ,$(1)))
mutant_set = $(word 2,$(subst :, ,$(1)))
set_benches = $(foreach s,$($(1)_SETS),$(BUILD)/$(1)/$(s)/$($(1)_BENCH))
mutant_benches = $(foreach m,$($(1)_MUTANTS),$(BUILD)/$(1)/MUTANT_$(call mutant_name,$(m))/$($(1)_BENCH))

MK_FILES := Makefile mk/rules.mk $(wildcard mk/*.mk)
# C/C++ optimization of the mutant benches: they run briefly and are many, so their build time
# dominates (the parameter sets keep -O2 and Verilator's own defaults: make sim runs them long)
MUTANT_OPT ?= -O0

# ------------------------------------------------------------------ one Verilated bench
# $(1) block, $(2) build name, $(3) parameter set, $(4) extra Verilator options (defines),
# $(5) empty, or a C/C++ optimization level for the whole build (Verilator's OPT_FAST/SLOW/GLOBAL too)
define VBENCH_RULE
$(BUILD)/$(1)/$(2)/$($(1)_BENCH): $(call rtl_deps,$(1)) $($(1)_FILELIST) $($(1)_BENCH_C) $($(1)_BENCH_H) $($(1)_BENCH_CXX) $(MK_FILES)
	@mkdir -p $(BUILD)/$(1)/$(2)/c $(BUILD)/$(1)/$(2)/lib
	@for f in $($(1)_BENCH_C); do \
	  $(CC) $(CSTD) -c $$$$f -o $(BUILD)/$(1)/$(2)/c/$$$$(basename $$$$f .c).o || exit 1; done
	@rm -f $(BUILD)/$(1)/$(2)/lib/libbench.a $(BUILD)/$(1)/$(2)/obj/$($(1)_BENCH)_bin
	@ar rcs $(BUILD)/$(1)/$(2)/lib/libbench.a $(BUILD)/$(1)/$(2)/c/*.o
	@echo "  VERILATE $(1) [$(2)] $(call p_gflags,$(1),$(3)) $(4)$(if $(call is_randinit,$(1),$(3)), (random initial state))"
	@$(VERILATOR) --cc --exe --trace -O3 $(call x_flags,$(1),$(3)) \
	  -Wall -Wno-fatal --top-module $($(1)_TOP) -Mdir $(BUILD)/$(1)/$(2)/obj \
	  $(call p_gflags,$(1),$(3)) $(4) \
	  -CFLAGS "$(or $(5),-O2) $(call p_dflags,$(1),$(3)) -D$($(1)_CDEF)VARIANT='\"$(2)\"'" \
	  $(call rtl_list,$(1)) $(abspath $($(1)_BENCH_CXX)) $(abspath $(BUILD)/$(1)/$(2)/lib/libbench.a) \
	  -o $($(1)_BENCH)_bin > $(BUILD)/$(1)/$(2)/verilate.log 2>&1 \
	  || { tail -30 $(BUILD)/$(1)/$(2)/verilate.log; exit 1; }
	@$(MAKE) -s -C $(BUILD)/$(1)/$(2)/obj -f V$($(1)_TOP).mk -j $(JOBS) \
	  $(if $(5),OPT_FAST=$(5) OPT_SLOW=$(5) OPT_GLOBAL=$(5)) >> $(BUILD)/$(1)/$(2)/verilate.log 2>&1 \
	  || { tail -30 $(BUILD)/$(1)/$(2)/verilate.log; exit 1; }
	@cp $(BUILD)/$(1)/$(2)/obj/$($(1)_BENCH)_bin $$@
endef

# ------------------------------------------------------------------ everything of one block
define BLOCK_RULES
$(foreach s,$($(1)_SETS),$(eval $(call VBENCH_RULE,$(1),$(s),$(s),+define+SANFAB_ASSERT,)))
$(foreach m,$($(1)_MUTANTS),$(eval $(call VBENCH_RULE,$(1),MUTANT_$(call mutant_name,$(m)),$(call mutant_set,$(m)),+define+SANFAB_MUTANT_$(call mutant_name,$(m)) --trace-depth 1,$(MUTANT_OPT))))

.PHONY: $(1)-build $(1)-mutants $(1)-san $(1)-lint
$(1)-build: $(call set_benches,$(1))
$(1)-mutants: $(call mutant_benches,$(1))
$(1)-san: $(if $($(1)_SAN_C),$(BUILD)/$(1)/san/$($(1)_BENCH)) $(if $($(1)_UNIT_C),$(BUILD)/$(1)/san/$($(1)_UNIT))

$(BUILD)/$(1)/san/$($(1)_BENCH): $($(1)_SAN_C) $($(1)_BENCH_H) $(MK_FILES)
	@mkdir -p $$(dir $$@)
	$(CC) $(CSTD) $(SAN) -DSANFAB_ASSERT $($(1)_SAN_C) -o $$@

$(BUILD)/$(1)/san/$($(1)_UNIT): $($(1)_UNIT_C) $($(1)_BENCH_H) $(MK_FILES)
	@mkdir -p $$(dir $$@)
	$(CC) $(CSTD) $(SAN) -DSANFAB_ASSERT $($(1)_UNIT_C) -o $$@

$(1)-lint:
	@$(foreach s,$($(1)_SETS),echo "  LINT $(1) [$(s)]" && \
	  $(VERILATOR) --lint-only -Wall +define+SANFAB_ASSERT --top-module $($(1)_TOP) \
	    $(call p_gflags,$(1),$(s)) $(call rtl_list,$(1)) &&) true
	@$(if $($(1)_WRAPPER),echo "  LINT $($(1)_WRAPPER_TOP) (synthesis wrapper of $(1))" && \
	  $(VERILATOR) --lint-only -Wall --top-module $($(1)_WRAPPER_TOP) $(call rtl_list,$(1)) $($(1)_WRAPPER),true)
endef

$(foreach b,$(BLOCKS),$(eval $(call BLOCK_RULES,$(b))))

ALL_SET_BENCHES    := $(foreach b,$(BLOCKS),$(call set_benches,$(b)))
ALL_MUTANT_BENCHES := $(foreach b,$(BLOCKS),$(call mutant_benches,$(b)))

# ------------------------------------------------------------------ what scripts/run_tests.sh runs
# One line per run: KIND BLOCK NAME BINARY [ARGS...] (KIND: set, mutant, san, unit, modelmut, gate,
# icarus).
define list_runs
$(foreach b,$(BLOCKS),\
$(foreach s,$($(b)_SETS),set $(b) $(s) $(BUILD)/$(b)/$(s)/$($(b)_BENCH) $(call run_plusargs,$(b),$(s))
)$(foreach m,$($(b)_MUTANTS),mutant $(b) $(call mutant_name,$(m)) $(BUILD)/$(b)/MUTANT_$(call mutant_name,$(m))/$($(b)_BENCH) $(call run_plusargs,$(b),$(call mutant_set,$(m)))
)$(if $($(b)_UNIT_C),unit $(b) unit $(BUILD)/$(b)/san/$($(b)_UNIT)
)$(if $($(b)_MODEL_MUTANTS),modelmut $(b) mutants $($(b)_MODEL_MUTANTS)
)$(foreach r,$($(b)_SAN_RUNS),san $(b) $(r) $(BUILD)/$(b)/san/$($(b)_BENCH) $(strip $($(b)_SAN_$(r)))
)$(if $($(b)_GATE),gate $(b) $($(b)_GATE) -
)$(if $($(b)_ICARUS),icarus $(b) icarus $($(b)_ICARUS)
))
endef
export SANFAB_RUNS := $(list_runs)

# sanfab — the one entry point. `make help` lists the targets.
# Every block plugs in with a short mk/<block>.mk; the rules they share are in mk/rules.mk.

SHELL := /bin/bash
.DEFAULT_GOAL := help

CC        ?= gcc
VERILATOR ?= verilator
JOBS      ?= 2
# Python tools (Yosys, nextpnr, fusesoc, matplotlib) live in the project's own virtual
# environment, made by `make deps` (scripts/deps.sh); scripts run with its interpreter.
VENV      := .venv
PYTHON    := $(VENV)/bin/python

BUILD := build
# the version every bench reports (--version): the repository's VERSION file, one place
SANFAB_VERSION := $(shell cat VERSION 2>/dev/null || echo unknown)
CSTD  := -std=c11 -Wall -Wextra -Werror -O2 -g -DSANFAB_VERSION=$(SANFAB_VERSION)
# the project's C include path, given once: every C/C++ compile line of the build takes it (sources say
# #include "name.h", never a relative path; tb/common/model_mutants.sh reads this line)
CINC  := -Icmodel -Isw/sim -Isw/src -Itb/common
SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# cycle counts: `make sim` runs SIM_CYCLES random-traffic cycles per parameter set (and a tenth
# of that for each directed test); `make test` runs a shorter regression.
SIM_CYCLES  ?= 1000000
TEST_CYCLES ?= 100000
SEED        ?= 1
# make test BLOCK=xbar (a comma list; net, sw, repo for the steps of no block): only that part of the regression
BLOCK       ?=

BLOCKS :=
include mk/xbar.mk
include mk/vcsw.mk
include mk/mlc.mk
include mk/sbox.mk
include mk/rules.mk
include mk/net.mk

# ---------------------------------------------------------------- targets
# the targets a user runs: `make help` names every one (make check-help, part of make lint, fails otherwise)
USER_TARGETS := help tools deps sim test lint synth synth-check synth-fresh bench clean icarus generate \
                benches mutants san experiments deps-plot fusesoc soak
.PHONY: $(USER_TARGETS) check-generated check-help list-runs

help:
	@echo "sanfab: open hardware for cluster networks. Start with the README's quickstart."
	@echo ""
	@echo "First steps (times on a 2-core machine):"
	@echo "  make tools        build the C tools into sw/build/ (~10 s): sanfab-topo (topologies), sanfab-route"
	@echo "                    (routes and switch tables), sanfab-sim (the network simulator), sanfab-netgen (RTL"
	@echo "                    networks); each takes --help and --version"
	@echo "  make deps-plot    only what plots need (matplotlib into .venv/, ~1 min)"
	@echo "  make deps         every tool (idempotent): .venv/ from scripts/requirements.txt (Yosys, nextpnr,"
	@echo "                    FuseSoC, matplotlib, Dask; ~1 GB, a few minutes the first time), Icarus Verilog and"
	@echo "                    Verilator from Debian when missing"
	@echo ""
	@echo "Hardware (blocks: $(BLOCKS); per block <block>-sim, -build, -lint, -mutants, -san):"
	@echo "  make sim          cycle regression: RTL vs C model in lockstep, every parameter set of every block, the"
	@echo "                    RTL networks and switch-box trees ($(SIM_CYCLES) random cycles a set; SIM_CYCLES=, SEED=)"
	@echo "  make <block>-sim  one block's parameter sets, e.g. make xbar-sim SIM_CYCLES=100000"
	@echo "  make sbox-tree-sim  the switch-box tree's sets (the tree, a second top of sbox: sbox-tree-build,"
	@echo "                    -mutants, -lint, -san; make sbox-lint and sbox-san take it too)"
	@echo "  make soak         every parameter set of every block again and again with fresh seeds, SOAK_JOBS (every"
	@echo "                    core) runs at a time, for SOAK_MINUTES (60) or SOAK_CYCLES; cycles per block ->"
	@echo "                    build/soak/summary.json (docs/verification.md, \"The soak\")"
	@echo "  make icarus       the self-checking Icarus Verilog benches"
	@echo "  make fusesoc ARGS=\"run --target lint|sim|synth|lockstep sanfab:sanfab:BLOCK\""
	@echo "                    FuseSoC with the project's tools (scripts/fusesoc.sh; docs/fusesoc.md)"
	@echo "  make lint         verilator --lint-only -Wall on every block, parameter set and synthesis wrapper;"
	@echo "                    generated files (rtl/common/link_defs.vh, FuseSoC .core) up to date"
	@echo "  make synth        Yosys + nextpnr for every config -> reports/synth.json, docs/synthesis.md"
	@echo "  make synth-check  place and route every gate config and pass/fail it"
	@echo "  make synth-fresh  (no tools) every record in reports/synth.json matches the current inputs"
	@echo "  make benches | mutants | san    build every lockstep bench | mutant-capable bench | sanitizer build"
	@echo "  parameter sets (build/<block>/<set>/; docs/verification.md):"
	@$(foreach b,$(BLOCKS) $(SUBTOPS),echo "    $(call u_tgt,$(b)): $($(b)_SETS)";)
	@echo "    net (RTL networks, make net-sim): $(NET_NETS)"
	@echo ""
	@echo "Networks and experiments:"
	@echo "  make experiments  the papers' network experiments, reduced (minutes; EXP_ARGS=--full: the papers'"
	@echo "                    sizes, hours; EXP_ARGS=\"--paper 001 --only table6\" picks one) -> reports/experiments/,"
	@echo "                    docs/experiments*.md; examples/ holds one sanfab-sim config per experiment"
	@echo "  make bench        speed figures -> reports/bench.json, docs/bench.md"
	@echo ""
	@echo "Everything:"
	@echo "  make test         everything CI runs, ~21 min on 2 cores (scripts/run_tests.sh --list names the steps)"
	@echo "  make test BLOCK=xbar  one block's part of it (or a list: BLOCK=mlc,sbox; net, sw, repo: the other steps;"
	@echo "                    BLOCK=xbar scripts/run_tests.sh --list says what runs)"
	@echo "  make generate     regenerate rtl/common/link_defs.vh and the FuseSoC .core files"
	@echo "  make clean        remove build/ (and sw/build/)"
	@echo "  make help         this text"

tools:
	@$(MAKE) -s --no-print-directory -C sw all
	@echo "tools: sw/build/sanfab-topo sw/build/sanfab-route sw/build/sanfab-sim sw/build/sanfab-netgen"

# (DEPS_CHECKED=1: a sub-make of a target that has already run it, e.g. make sim's <block>-sim)
deps:
	@$(if $(DEPS_CHECKED),true,bash scripts/deps.sh)

$(PYTHON):
	@bash scripts/deps.sh

# only the plots' packages (matplotlib and its dependencies), not the ~1 GB of synthesis tools
deps-plot:
	@bash scripts/deps.sh --only plot

# FuseSoC on the generated cores with the project's YoWASP tools: make fusesoc ARGS="run --target sim sanfab:sanfab:mlc"
fusesoc: $(PYTHON)
	@scripts/fusesoc.sh $(ARGS)

test: deps
	@TEST_CYCLES=$(TEST_CYCLES) SEED=$(SEED) JOBS=$(JOBS) MAKE="$(MAKE)" BLOCK="$(BLOCK)" bash scripts/run_tests.sh

benches: $(ALL_SET_BENCHES)
mutants: $(ALL_MUTANT_BENCHES)
san: $(foreach b,$(BLOCKS),$(b)-san)

# one line per run for scripts/run_tests.sh: KIND BLOCK NAME BINARY [ARGS...]
list-runs:
	@printf '%s\n' "$$SANFAB_RUNS" | sed '/^[[:space:]]*$$/d; s/^[[:space:]]*//'

icarus:
	@rc=0; $(foreach b,$(BLOCKS),$(if $($(b)_ICARUS),bash $($(b)_ICARUS) || rc=1;)) exit $$rc

synth: $(PYTHON)
	@$(PYTHON) scripts/synth.py --jobs $(JOBS)

synth-check: $(PYTHON)
	@$(PYTHON) scripts/synth.py --check --jobs $(JOBS)

synth-fresh:
	@python3 scripts/synth.py --check-records

# the MLC's measurements on its C model (docs/mlc-perf.md; scripts/bench.py runs it)
MLC_PERF := $(BUILD)/mlc/perf/mlc_perf
$(MLC_PERF): cmodel/mlc.c sw/sim/mlc_host.c tb/mlc/mlc_perf.c cmodel/mlc.h sw/sim/mlc_host.h sw/sim/ring.h tb/common/rng.h
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(CINC) cmodel/mlc.c sw/sim/mlc_host.c tb/mlc/mlc_perf.c -o $@

bench: $(PYTHON) $(BUILD)/xbar/p8/xbar_bench $(BUILD)/vcsw/p8/vcsw_bench $(BUILD)/mlc/d/mlc_bench $(MLC_PERF) \
       $(BUILD)/net/r16/net_bench $(BUILD)/net/r16-t2/net_bench $(BUILD)/net/v16/net_bench net-routes
	@$(PYTHON) scripts/bench.py

experiments:
	@$(MAKE) -s -C sw
	@python3 scripts/experiments.py $(EXP_ARGS)

# make <block>-sim: one block's parameter sets, SIM_CYCLES random-traffic cycles each, every set run even when
# one fails (the failed ones are named at the end); make sim: every block (-k: every block runs), the RTL
# networks (net-sim) and the switch-box trees (sbox-tree-sim; $(1): a block or a second top, mk/rules.mk)
define BLOCK_SIM
.PHONY: $(call u_tgt,$(1))-sim
$(call u_tgt,$(1))-sim: deps $(call set_benches,$(1))
	@fails=""; $(foreach s,$($(1)_SETS),\
	  echo "== $(call u_tgt,$(1)) [$(s)]"; \
	  $(call u_dir,$(1))/$(s)/$($(1)_BENCH) --cycles $(SIM_CYCLES) --seed $(SEED) \
	    --vcd-on-fail $(call u_dir,$(1))/$(s)/fail.vcd $(call run_args,$(1),$(s)) || fails="$$$$fails $(call u_tgt,$(1))/$(s)";) \
	if [ -n "$$$$fails" ]; then echo "$(call u_tgt,$(1))-sim: FAILED parameter sets:$$$$fails"; exit 1; fi; \
	echo "$(call u_tgt,$(1))-sim: every parameter set passed ($(addprefix $(call u_tgt,$(1))/,$($(1)_SETS)))"
endef
$(foreach b,$(BLOCKS) $(SUBTOPS),$(eval $(call BLOCK_SIM,$(b))))

sim: deps
	@$(MAKE) -k --no-print-directory DEPS_CHECKED=1 $(foreach b,$(BLOCKS) $(SUBTOPS),$(call u_tgt,$(b))-sim)

# make soak: every set of every block (the second tops included) in turns, fresh seeds, SOAK_JOBS runs at a
# time (default: every core; scripts/soak.py --help); the run list is written from the mk/<block>.mk sets
# (UNIT SET BINARY ARGS...)
SOAK_JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
SOAK_MINUTES    ?= 60
SOAK_CYCLES     ?= 0
SOAK_RUN_CYCLES ?= 1000000
SOAK_SEED       ?=
SOAK_UNITS      ?=
SOAK_DIR        ?= $(BUILD)/soak
soak: deps $(foreach b,$(BLOCKS) $(SUBTOPS),$(call set_benches,$(b)))
	@mkdir -p $(SOAK_DIR) && printf '%s\n' $(foreach u,$(BLOCKS) $(SUBTOPS),$(foreach s,$($(u)_SETS),\
	  '$(call u_tgt,$(u)) $(s) $(call u_dir,$(u))/$(s)/$($(u)_BENCH) $(call run_args,$(u),$(s))')) > $(SOAK_DIR)/runs
	@python3 scripts/soak.py --runs $(SOAK_DIR)/runs --dir $(SOAK_DIR) --jobs $(SOAK_JOBS) --minutes $(SOAK_MINUTES) \
	  --cycles $(SOAK_CYCLES) --run-cycles $(SOAK_RUN_CYCLES) $(if $(SOAK_SEED),--seed $(SOAK_SEED)) $(if $(SOAK_UNITS),--units $(SOAK_UNITS))

lint: check-help check-generated check-params check-param-ranges $(foreach b,$(BLOCKS),$(b)-lint)

# every copy of a parameter default (RTL, mk files, docs, sanfab-sim's keys) agrees with cmodel/sanfab_params.h
.PHONY: check-params
check-params:
	@echo "  CHECK parameter defaults: every copy agrees with cmodel/sanfab_params.h (scripts/check_params.py)"
	@python3 scripts/check_params.py

# every block top stops its elaboration on a parameter just outside the table's range (Verilator, Icarus; ~30 s)
.PHONY: check-param-ranges
check-param-ranges:
	@echo "  CHECK every block top refuses out-of-range parameters (tb/common/param_range_test.sh)"
	@mkdir -p $(BUILD); VERILATOR=$(VERILATOR) bash tb/common/param_range_test.sh > $(BUILD)/param-range.log 2>&1 || \
	  { cat $(BUILD)/param-range.log; exit 1; }; tail -1 $(BUILD)/param-range.log

# `make help` names every user target, every block's per-block targets and every parameter set
check-help:
	@echo "  CHECK make help names every user target, block and parameter set"
	@help=$$($(MAKE) -s --no-print-directory help); miss=""; \
	for t in $(USER_TARGETS) $(BLOCKS) $(foreach b,$(BLOCKS) $(SUBTOPS),$($(b)_SETS)) $(foreach u,$(SUBTOPS),$(call u_tgt,$(u))-sim) $(NET_NETS) '<block>-sim' \
	         sanfab-topo sanfab-route sanfab-sim sanfab-netgen; do \
	  grep -q -- "\(^\|[ :|(]\)$$t\([ ,:|)]\|$$\)" <<< "$$help" || miss="$$miss $$t"; done; \
	if [ -n "$$miss" ]; then echo "make help does not name:$$miss (Makefile help:)"; exit 1; fi

# generated files are committed; lint fails when one differs from what its generator writes now
GEN_LINK_DEFS := python3 scripts/gen_link_defs.py
comma := ,
# (blocks with RTL only: a block that so far has only its C model has no file list)
GEN_CORES     := python3 scripts/gen_cores.py $(foreach b,$(BLOCKS),$(if $($(b)_FILELIST),\
  $(b)=$($(b)_FILELIST):$($(b)_TOP):$(subst $(eval) ,+,$(strip $($(b)_WRAPPER))):$($(b)_WRAPPER_TOP):$(subst $(eval) ,$(comma),$(strip $($(b)_PARAMS))):$($(b)_GATE)))

check-generated:
	@echo "  CHECK rtl/common/link_defs.vh is what scripts/gen_link_defs.py makes of cmodel/link.h"
	@$(GEN_LINK_DEFS) --check
	@echo "  CHECK FuseSoC .core files are what scripts/gen_cores.py makes of the file lists"
	@$(GEN_CORES) --check

generate:
	@$(GEN_LINK_DEFS)
	@$(GEN_CORES)

clean:
	rm -rf $(BUILD)
	@$(MAKE) -s --no-print-directory -C sw clean

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
CSTD  := -std=c11 -Wall -Wextra -Werror -O2 -g
SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# cycle counts: `make sim` runs SIM_CYCLES random-traffic cycles per parameter set (and a tenth
# of that for each directed test); `make test` runs a shorter regression.
SIM_CYCLES  ?= 1000000
TEST_CYCLES ?= 100000
SEED        ?= 1

BLOCKS :=
include mk/xbar.mk
include mk/vcsw.mk
include mk/mlc.mk
include mk/sbox.mk
include mk/rules.mk
include mk/net.mk
include mk/sbox_tree.mk

# ---------------------------------------------------------------- targets
.PHONY: help deps deps-plot fusesoc sim test lint synth synth-check synth-fresh bench clean icarus generate \
        check-generated list-runs benches mutants san experiments

help:
	@echo "sanfab targets (blocks: $(BLOCKS)):"
	@echo "  make deps         install/check the tools (idempotent): .venv/ from scripts/requirements.txt,"
	@echo "                    Icarus Verilog and Verilator from Debian when missing"
	@echo "  make deps-plot    only what the plots need: .venv/ with matplotlib and its dependencies (pinned),"
	@echo "                    without the synthesis tools (scripts/deps.sh --only plot)"
	@echo "  make fusesoc ARGS=\"run --target lint|sim|synth|lockstep sanfab:sanfab:BLOCK\""
	@echo "                    FuseSoC with the project's tools (scripts/fusesoc.sh; docs/fusesoc.md)"
	@echo "  make sim          cycle regression: RTL vs C model in lockstep, every parameter set of every block"
	@echo "                    ($(SIM_CYCLES) random cycles each; SIM_CYCLES=, SEED= to change)"
	@echo "  make test         everything CI runs (scripts/run_tests.sh --list names the steps)"
	@echo "  make lint         verilator --lint-only -Wall on every block, parameter set and synthesis wrapper;"
	@echo "                    generated files (rtl/common/link_defs.vh, FuseSoC .core) up to date"
	@echo "  make synth        Yosys + nextpnr for every config -> reports/synth.json, docs/synthesis.md"
	@echo "  make synth-check  place and route every gate config and pass/fail it"
	@echo "  make synth-fresh  (no tools) every record in reports/synth.json matches the current inputs"
	@echo "  make bench        speed figures -> reports/bench.json, docs/bench.md"
	@echo "  make experiments  the papers' network experiments, reduced (EXP_ARGS=--full: the papers' sizes, hours;"
	@echo "                    EXP_ARGS=\"--paper 001 --only table6\" picks): seed 000 on the crossbar network"
	@echo "                    -> reports/experiments/*.json, docs/experiments.md; seed 001 on the VC network"
	@echo "                    -> reports/experiments/seed001-*.json, docs/experiments-seed001.md"
	@echo "  make icarus       the self-checking Icarus Verilog benches"
	@echo "  make generate     regenerate rtl/common/link_defs.vh and the FuseSoC .core files"
	@echo "  make benches | mutants | san    build every block's lockstep benches | mutant-capable benches (one per"
	@echo "                    parameter set its mutants use, run with +mutant=NAME) | sanitizer builds;"
	@echo "                    per block: <block>-build, <block>-mutants, <block>-san, <block>-lint"
	@echo "  make clean        remove build/"

deps:
	@bash scripts/deps.sh

$(PYTHON):
	@bash scripts/deps.sh

# only the plots' packages (matplotlib and its dependencies), not the ~1 GB of synthesis tools
deps-plot:
	@bash scripts/deps.sh --only plot

# FuseSoC on the generated cores with the project's YoWASP tools: make fusesoc ARGS="run --target sim sanfab:sanfab:mlc"
fusesoc: $(PYTHON)
	@scripts/fusesoc.sh $(ARGS)

test: deps
	@TEST_CYCLES=$(TEST_CYCLES) SEED=$(SEED) JOBS=$(JOBS) MAKE="$(MAKE)" bash scripts/run_tests.sh

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
$(MLC_PERF): cmodel/mlc.c sw/mlc_host.c tb/mlc/mlc_perf.c cmodel/mlc.h sw/mlc_host.h sw/ring.h tb/common/rng.h
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) cmodel/mlc.c sw/mlc_host.c tb/mlc/mlc_perf.c -o $@

bench: $(PYTHON) $(BUILD)/xbar/p8/xbar_bench $(BUILD)/vcsw/p8/vcsw_bench $(BUILD)/mlc/d/mlc_lockstep $(MLC_PERF) \
       $(BUILD)/net/r16/net_bench $(BUILD)/net/r16-t2/net_bench $(BUILD)/net/v16/net_bench net-routes
	@$(PYTHON) scripts/bench.py

experiments:
	@$(MAKE) -s -C sw
	@python3 scripts/experiments.py $(EXP_ARGS)

sim: deps $(ALL_SET_BENCHES)
	@fails=""; $(foreach b,$(BLOCKS),$(foreach s,$($(b)_SETS),\
	  echo "== $(b) [$(s)]"; \
	  $(BUILD)/$(b)/$(s)/$($(b)_BENCH) --cycles $(SIM_CYCLES) --seed $(SEED) \
	    --vcd $(BUILD)/$(b)/$(s)/fail.vcd $(call run_plusargs,$(b),$(s)) || fails="$$fails $(b)/$(s)";)) \
	if [ -n "$$fails" ]; then echo "sim: FAILED parameter sets:$$fails"; exit 1; fi; \
	echo "sim: every parameter set passed ($(foreach b,$(BLOCKS),$(addprefix $(b)/,$($(b)_SETS))))"

lint: check-generated $(foreach b,$(BLOCKS),$(b)-lint)

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

# sanfab — the one entry point. `make help` lists the targets.

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON    ?= python3
CC        ?= gcc
VERILATOR ?= verilator
JOBS      ?= 2

BUILD := build
CSTD  := -std=c11 -Wall -Wextra -Werror -O2 -g
SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# cycle counts: `make sim` runs SIM_CYCLES random-traffic cycles per parameter set (and a tenth
# of that for each directed test); `make test` runs a shorter regression.
SIM_CYCLES  ?= 1000000
TEST_CYCLES ?= 100000
SEED        ?= 1

# ---------------------------------------------------------------- crossbar parameter sets
# name: overrides of the defaults; every set is verilated separately and run by sim/test.
XB_DEFAULTS := NPORTS=8 SLACK_DEPTH=80 STOP_THRESH=56 GO_THRESH=40 ROUTE_DELAY=0 LINK_DELAY=0 TIMEOUT=4096
XB_PARAMS   := NPORTS SLACK_DEPTH STOP_THRESH GO_THRESH ROUTE_DELAY LINK_DELAY TIMEOUT
XBAR_CFGS   := p8 p4 p16 myri
XBAR_p8     :=
XBAR_p4     := NPORTS=4 SLACK_DEPTH=24 STOP_THRESH=14 GO_THRESH=8 TIMEOUT=600
XBAR_p16    := NPORTS=16 TIMEOUT=0
XBAR_myri   := NPORTS=8 ROUTE_DELAY=22 LINK_DELAY=8 TIMEOUT=2000
# deliberately broken builds: each must make the bench fail (see docs/verification.md)
XBAR_MUTANTS := MUTANT_CRC_NOMARK MUTANT_RR_NOROTATE MUTANT_STOP_LATE MUTANT_DROP_LAST MUTANT_CTR_LOSE

xb_val = $(or $(patsubst $(2)=%,%,$(filter $(2)=%,$(XBAR_$(1)))),$(patsubst $(2)=%,%,$(filter $(2)=%,$(XB_DEFAULTS))))
xb_gflags = $(foreach k,$(XB_PARAMS),-G$(k)=$(call xb_val,$(1),$(k)))
xb_dflags = $(foreach k,$(XB_PARAMS),-DXB_$(k)=$(call xb_val,$(1),$(k)))

# rtl/xbar/files.f: source files and +incdir+ options (Verilator takes both as they are)
XBAR_RTL  := $(shell grep -v '^[[:space:]]*\(#\|//\|$$\)' rtl/xbar/files.f)
XBAR_DEPS := $(filter-out +%,$(XBAR_RTL)) $(wildcard rtl/*/*.vh)
BENCH_C   := cmodel/xbar.c tb/common/host.c tb/common/scoreboard.c tb/xbar/xbar_bench.c
BENCH_H   := $(wildcard cmodel/*.h tb/common/*.h tb/xbar/*.h)

# $(1) = build name, $(2) = parameter set, $(3) = extra Verilator defines, $(4) = variant name
define XBAR_BUILD
$(BUILD)/xbar/$(1)/xbar_bench: $(XBAR_DEPS) $(BENCH_C) $(BENCH_H) tb/xbar/xbar_rtl.cpp Makefile
	@mkdir -p $(BUILD)/xbar/$(1)/c $(BUILD)/xbar/$(1)/lib
	@for f in $(BENCH_C); do \
	  $(CC) $(CSTD) -c $$$$f -o $(BUILD)/xbar/$(1)/c/$$$$(basename $$$$f .c).o || exit 1; done
	@rm -f $(BUILD)/xbar/$(1)/lib/libbench.a $(BUILD)/xbar/$(1)/obj/xbar_bench_bin
	@ar rcs $(BUILD)/xbar/$(1)/lib/libbench.a $(BUILD)/xbar/$(1)/c/*.o
	@echo "  VERILATE xbar [$(1)] $(call xb_gflags,$(2)) $(3)"
	@$(VERILATOR) --cc --exe --trace -O3 --x-assign fast --x-initial fast \
	  -Wall -Wno-fatal --top-module xbar -Mdir $(BUILD)/xbar/$(1)/obj \
	  $(call xb_gflags,$(2)) $(3) \
	  -CFLAGS "-O2 $(call xb_dflags,$(2)) -DXB_VARIANT='\"$(4)\"'" \
	  $(XBAR_RTL) $(abspath tb/xbar/xbar_rtl.cpp) $(abspath $(BUILD)/xbar/$(1)/lib/libbench.a) \
	  -o xbar_bench_bin > $(BUILD)/xbar/$(1)/verilate.log 2>&1 \
	  || { tail -30 $(BUILD)/xbar/$(1)/verilate.log; exit 1; }
	@$(MAKE) -s -C $(BUILD)/xbar/$(1)/obj -f Vxbar.mk -j $(JOBS) >> $(BUILD)/xbar/$(1)/verilate.log 2>&1 \
	  || { tail -30 $(BUILD)/xbar/$(1)/verilate.log; exit 1; }
	@cp $(BUILD)/xbar/$(1)/obj/xbar_bench_bin $$@
endef

$(foreach c,$(XBAR_CFGS),$(eval $(call XBAR_BUILD,$(c),$(c),,)))
$(foreach m,$(XBAR_MUTANTS),$(eval $(call XBAR_BUILD,$(m),p8,+define+SANFAB_$(m),$(m))))

XBAR_BENCHES := $(foreach c,$(XBAR_CFGS),$(BUILD)/xbar/$(c)/xbar_bench)
XBAR_MUTANT_BENCHES := $(foreach m,$(XBAR_MUTANTS),$(BUILD)/xbar/$(m)/xbar_bench)

# model-only bench with ASan/UBSan (the C model and bench code under the sanitizers)
$(BUILD)/xbar/san/xbar_bench: $(BENCH_C) $(BENCH_H) tb/xbar/xbar_rtl_none.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(SAN) $(BENCH_C) tb/xbar/xbar_rtl_none.c -o $@

# unit tests of the model's documented timing, under the sanitizers
$(BUILD)/xbar/san/xbar_unit: cmodel/xbar.c tb/xbar/xbar_unit.c $(BENCH_H) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(SAN) cmodel/xbar.c tb/xbar/xbar_unit.c -o $@

# ---------------------------------------------------------------- targets
.PHONY: help deps sim test lint synth synth-check bench clean icarus xbar-mutants xbar-build

help:
	@echo "sanfab targets:"
	@echo "  make deps         install/check the tools (idempotent)"
	@echo "  make sim          cycle regression: RTL vs C model in lockstep, every parameter set"
	@echo "                    ($(SIM_CYCLES) random cycles each; SIM_CYCLES=, SEED= to change)"
	@echo "  make test         everything CI runs: lint, unit, sanitizers, lockstep, mutants, Icarus,"
	@echo "                    synthesis gates, routing library"
	@echo "  make lint         verilator --lint-only -Wall on every block and parameter set"
	@echo "  make synth        Yosys + nextpnr for iCE40 HX8K and ECP5-45F -> reports/synth.json, docs/synthesis.md"
	@echo "  make bench        speed figures -> reports/bench.json, docs/bench.md"
	@echo "  make icarus       the self-checking Icarus Verilog bench"
	@echo "  make clean        remove build/"

deps:
	@bash scripts/deps.sh

xbar-build: $(XBAR_BENCHES)

xbar-mutants: $(XBAR_MUTANT_BENCHES)

test: deps
	@TEST_CYCLES=$(TEST_CYCLES) SEED=$(SEED) MAKE="$(MAKE)" bash scripts/run_tests.sh

icarus:
	@bash tb/xbar/run_icarus.sh

synth: deps
	@$(PYTHON) scripts/synth.py --jobs $(JOBS)

synth-check: deps
	@$(PYTHON) scripts/synth.py --check --jobs $(JOBS)

bench: deps $(BUILD)/xbar/p8/xbar_bench
	@$(PYTHON) scripts/bench.py

sim: deps $(XBAR_BENCHES)
	@fails=""; for c in $(XBAR_CFGS); do \
	  echo "== xbar [$$c]"; \
	  $(BUILD)/xbar/$$c/xbar_bench --cycles $(SIM_CYCLES) --seed $(SEED) --vcd $(BUILD)/xbar/$$c/fail.vcd \
	    || fails="$$fails $$c"; \
	done; \
	if [ -n "$$fails" ]; then echo "sim: FAILED parameter sets:$$fails"; exit 1; fi; \
	echo "sim: every parameter set passed ($(XBAR_CFGS))"

lint:
	@$(foreach c,$(XBAR_CFGS),echo "  LINT xbar [$(c)]" && \
	  $(VERILATOR) --lint-only -Wall --top-module xbar $(call xb_gflags,$(c)) $(XBAR_RTL) &&) true
	@echo "  LINT xbar_fpga_top (synthesis wrapper)"
	@$(VERILATOR) --lint-only -Wall --top-module xbar_fpga_top $(XBAR_RTL) rtl/fpga/xbar_fpga_top.v

clean:
	rm -rf $(BUILD)

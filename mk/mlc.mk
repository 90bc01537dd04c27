# mk/mlc.mk -- the Maestro Link Controller (docs/mlc.md). So far the contract, the C model
# (cmodel/mlc.[ch], with its link model), the host driver (sw/mlc_host.[ch]) and the model's unit
# tests; no RTL yet, so no parameter sets, mutant builds, lint or synthesis gate. The unit test
# runs in `make test`'s model-sanitizers step; tb/mlc/mutants.sh (deliberate breaks of the model,
# each must be caught by the unit test) runs in its mutants step.
BLOCKS        += mlc
mlc_UNIT      := mlc_unit
mlc_UNIT_C    := cmodel/mlc.c sw/mlc_host.c tb/mlc/mlc_unit.c
mlc_BENCH_H   := cmodel/mlc.h sw/mlc_host.h tb/common/unit_check.h
mlc_MODEL_MUTANTS := tb/mlc/mutants.sh

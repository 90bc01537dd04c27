# mk/net.mk -- the RTL networks (docs/network.md "RTL network"): networks of crossbars or of VC switches generated
# by sanfab-netgen from a topology, each verilated once into the network lockstep bench (tb/net/net_bench.c +
# net_rtl.cpp), and the runs of that bench (C network and Verilated network side by side, every switch output every
# cycle).
#
#   make net-build      every network's bench          make net-test   the short runs (a step of make test)
#   make net-sim        the long runs (part of make sim)  make net-lint   generated tops: verilator -Wall, Icarus
#   make net-san        the model-only bench under ASan/UBSan
# Builds land in build/net/<network>/ (topology, routes, generated top, bench) and build/net/MUTANT_<NAME>/ (one
# build per network mutant: a patched copy of a file, or the switch's mutant-capable build run with +mutant=NAME).

NET_SW_BIN  := sw/build
NETGEN      := $(NET_SW_BIN)/sanfab-netgen
NET_TOPOGEN := $(NET_SW_BIN)/sanfab-topo
NET_ROUTE   := $(NET_SW_BIN)/sanfab-route
NET_SWLIBS  := $(NET_SW_BIN)/libsanfab-sim.a $(NET_SW_BIN)/libsanfab.a
NET_SWSAN   := $(NET_SW_BIN)/libsanfab-sim-san.a $(NET_SW_BIN)/libsanfab-san.a
NET_SW_DEPS := $(wildcard sw/src/*.c sw/src/*.h sw/sim/*.c sw/sim/*.h cmodel/*.[ch]) sw/tools/sanfab_netgen.c sw/Makefile
# a network's kind (NET_KIND_<net>: xbar, the default, or vcsw) gives its switches' RTL
net_kind   = $(or $(NET_KIND_$(1)),xbar)
net_rtl    = $(call rtl_list,$(call net_kind,$(1)))
net_rtldep = $(call rtl_deps,$(call net_kind,$(1))) $($(call net_kind,$(1))_FILELIST)

# the networks: a generated topology (sanfab-topo arguments) or a file of tb/net; their route sets
# (sanfab-route arguments, or a file; a VC network's also write their --rhinet tables); parameters of the Verilated
# top that differ from sanfab-sim's defaults
NET_NETS          := r16 torus4 ring4 x4 v16 mesh4 vmesh2
NET_TOPO_r16      := random --switches 16 --ports 8 --hosts 4 --seed 1
NET_ROUTES_r16    := ud itb
NET_TOPO_torus4   := torus --k 4 --ports 8 --hosts 4
NET_ROUTES_torus4 := ud itb
NET_TOPOFILE_ring4   := tb/net/ring4.topo
NET_ROUTEFILE_ring4  := tb/net/ring4-cw.routes
NET_ROUTES_ring4     := cw
NET_G_ring4          := TIMEOUT=3000
# x4: the 4-switch ring make synth builds (rtl/net/net4.topo), Myrinet timing, for the crossbar's network mutant
NET_TOPOFILE_x4      := rtl/net/net4.topo
NET_ROUTES_x4        := ud
# VC networks (Koibuchi et al. 2003): a random 16-switch network with DL routes on 3 VCs (Sancho's selection) and up*/down*
# with 3 VCs, the 4 x 4 mesh of Table 5 with DL on 2 VCs, and a 2 x 2 mesh for the network mutants
NET_KIND_v16        := vcsw
NET_TOPO_v16        := random --switches 16 --ports 8 --hosts 4 --seed 1
NET_ROUTES_v16      := dl3 ud3
NET_KIND_mesh4      := vcsw
NET_TOPO_mesh4      := mesh --k 4 --ports 8 --hosts 4
NET_ROUTES_mesh4    := dl2
NET_KIND_vmesh2     := vcsw
NET_TOPO_vmesh2     := mesh --k 2 --ports 6 --hosts 2
NET_ROUTES_vmesh2   := dl2
NET_G_vmesh2        := DEPTH=64 MAXLEN=32
# route set arguments by name
NET_RARGS_ud  := updown --select balanced
NET_RARGS_itb := itb --seed 1
NET_RARGS_dl3 := dl --vcs 3 --select sancho
NET_RARGS_ud3 := updown --vcs 3 --select sancho
NET_RARGS_dl2 := dl --vcs 2 --select sancho

# parameters of every top of a kind (sanfab-sim's defaults: the crossbar's Myrinet timing; the VC network's Koibuchi et al. 2003
# set) and their sanfab-sim keys
NET_PARAMS_xbar := SLACK_DEPTH=80 STOP_THRESH=56 GO_THRESH=40 ROUTE_DELAY=21 TIMEOUT=1048576 CABLE_DELAY=8 HOST_DELAY=8
NET_PARAMS_vcsw := NVC=4 CTRL=0 FLIT_W=16 TAG_W=12 DEPTH=256 MAXLEN=128 LINK_DELAY=0 COUNTERS=0 CTR_WIDTH=32
NET_KEY_SLACK_DEPTH := slack
NET_KEY_STOP_THRESH := stop
NET_KEY_GO_THRESH   := go
NET_KEY_ROUTE_DELAY := route-delay
NET_KEY_TIMEOUT     := timeout
NET_KEY_CABLE_DELAY := link-delay
NET_KEY_HOST_DELAY  := host-delay
NET_KEY_NVC         := vcs
NET_KEY_CTRL        := ctrl
NET_KEY_FLIT_W      := flit-width
NET_KEY_TAG_W       := tag-width
NET_KEY_DEPTH       := depth
NET_KEY_MAXLEN      := maxlen
NET_KEY_LINK_DELAY  := link-delay
NET_KEY_COUNTERS    := counters
NET_KEY_CTR_WIDTH   := ctr-width
net_params = $(NET_PARAMS_$(call net_kind,$(1)))
net_pval  = $(or $(patsubst $(2)=%,%,$(filter $(2)=%,$(NET_G_$(1)))),$(patsubst $(2)=%,%,$(filter $(2)=%,$(call net_params,$(1)))))
net_pnames = $(foreach p,$(call net_params,$(1)),$(firstword $(subst =, ,$(p))))
net_gflags = $(foreach k,$(call net_pnames,$(1)),-G$(k)=$(call net_pval,$(1),$(k)))
net_dflags = $(foreach k,$(call net_pnames,$(1)),-DNET_$(k)=$(call net_pval,$(1),$(k))) \
             $(if $(filter vcsw,$(call net_kind,$(1))),-DNET_KIND_VCSW)
# the sanfab-sim keys a run of network $(1) must give (the kind and the values the top was verilated with; a VC
# network's packets are as long as its MAXLEN)
net_keys   = --switch $(call net_kind,$(1)) $(foreach k,$(call net_pnames,$(1)),--$(NET_KEY_$(k)) $(call net_pval,$(1),$(k))) \
             $(if $(filter vcsw,$(call net_kind,$(1))),--packet-flits $(call net_pval,$(1),MAXLEN))

# the runs: NAME -> network, route set, traffic arguments (sanfab-sim keys), bench options
NET_RUNS := r16-ud-uniform r16-ud-hotspot r16-itb-uniform r16-itb-saturated r16-itb-hotspot torus4-itb-uniform ring4-cyclic \
            x4-ud-hotspot \
            v16-dl-uniform v16-ud-uniform mesh4-dl-transpose vmesh2-dl-uniform
NET_RUN_r16-ud-uniform     := r16 ud --traffic uniform --load 0.05
NET_RUN_r16-ud-hotspot     := r16 ud --traffic hotspot --hotspot 20 --load 0.03
NET_RUN_r16-itb-uniform    := r16 itb --traffic uniform --load 0.08
# past saturation (sanfab-sim on this network, 40,000-cycle windows: 0.10 offered -> 0.095 accepted, 0.12 ->
# 0.109, saturated): source queues grow through the run
NET_RUN_r16-itb-saturated  := r16 itb --traffic uniform --load 0.12
# its source queues grow through the run: a million cycles leave a backlog that drains in about 560,000 cycles
NET_DRAIN_r16-itb-saturated := 1000000
NET_RUN_r16-itb-hotspot    := r16 itb --traffic hotspot --hotspot 20 --load 0.04
NET_RUN_torus4-itb-uniform := torus4 itb --traffic uniform --load 0.06
NET_RUN_ring4-cyclic       := ring4 cw --traffic uniform --expect-resets
# every host but one sends 1,024-byte messages to one host, offered far past what it takes: a header waits for the
# others' packets more than 4,096 cycles (TMO_NARROW's reach). An overload burst, so make sim runs it for 20,000
# cycles too (its backlog then drains in about 70,000)
NET_RUN_x4-ud-hotspot      := x4 ud --traffic hotspot --hotspot 100 --message-size 1024 --load 0.2
NET_SIM_CYCLES_x4-ud-hotspot := 20000
# VC networks near or past saturation, where Go & Stop works (sanfab-sim, 10,000 + 50,000 cycles: v16 DL uniform
# saturates between 0.2 and 0.3 flits/host/cycle, up*/down* near 0.1; the mesh's DL transpose near 0.12)
NET_RUN_v16-dl-uniform     := v16 dl3 --traffic uniform --load 0.2
NET_RUN_v16-ud-uniform     := v16 ud3 --traffic uniform --load 0.14
NET_RUN_mesh4-dl-transpose := mesh4 dl2 --traffic transpose --load 0.15
# past saturation: over 1,000,000 cycles (make sim) its backlog grows, and 300,000 drain cycles leave about 2,400
# messages undelivered (seed 1), so its drain may take up to 1,000,000 (it stops when all are delivered)
NET_DRAIN_mesh4-dl-transpose := 1000000
# arguments a run adds in make test / make sim only: the ring deadlocks within 20,000 cycles only under a heavy
# load (0.3, 4,000 cycles to the first reset), but then its source queues grow faster than the resets clear them;
# a million cycles need a load it can carry (0.05: first reset at cycle 29,853, about 1,000 resets, the queues
# empty within the million-cycle drain)
NET_TEST_ARGS_ring4-cyclic := --load 0.3 --drain 300000
NET_SIM_ARGS_ring4-cyclic  := --load 0.05 --drain 1000000
NET_NODRAIN_ring4-cyclic   := yes
# seeds: make sim runs the 16-switch ITB run and the VC networks' DL runs on three seeds, the others on SEED
NET_SIM_SEEDS_r16-itb-uniform := 1 2 3
NET_SIM_SEEDS_v16-dl-uniform := 1 2 3
NET_SIM_SEEDS_mesh4-dl-transpose := 1 2 3
NET_DRAIN := 300000
# (NET_DRAIN_<run> overrides it for one run; the cyclic ring needs the whole drain: its source queues empty only
# through repeated forward resets, and it never reaches 0 in flight, because a packet cut in a switch's HDR state
# vanishes while its NIC still counts it)
# traffic cycles per run: make test (each run), make sim (each run and seed)
NET_TEST_CYCLES ?= 20000
NET_SIM_CYCLES  ?= $(SIM_CYCLES)

# deliberately broken crossbars in a network: NAME:network:run. A NAME with NET_PATCH_<NAME> is a broken copy of
# one crossbar file made by sed under the mutant's build directory (rtl/ stays as it is, so no synthesis record
# goes stale); any other NAME is one of the switch's own mutation sites (docs/verification.md, "The mutation
# proof"): the network is built mutant-capable (+define+SANFAB_MUTANTS, the switch's site list) and run with
# +mutant=NAME, and the run must also show the site selected.
NET_MUTANTS := TMO_NARROW:x4:x4-ud-hotspot RR_NOROTATE:ring4:ring4-cyclic STOP_LATE:vmesh2:vmesh2-dl-uniform \
               LINK_NOSTOP:vmesh2:vmesh2-dl-uniform
# TMO_NARROW: the blocking count 12 bits wide whatever TIMEOUT (exact for TIMEOUT <= 4096, the largest any
# single-switch set uses; with the network's 2^20 a header blocked 4096 cycles is cut)
# (the sed program: single spaces, no '$$')
NET_PATCH_TMO_NARROW := rtl/xbar/xbar_rdside.v|s/localparam TW = (TIMEOUT > 1) ? .clog2(TIMEOUT) : 1;/localparam TW = (TIMEOUT > 1) ? 11 : 1;/
# STOP_LATE: the VC switch's own mutant (its stop bits one step late), caught by the sideband comparison.
# LINK_NOSTOP: a wiring fault of the generated top (TOP: the network's own file): the stop bits of channel 0 never
# reach the switch that sends on it, so it ignores Go & Stop there
NET_PATCH_LINK_NOSTOP := TOP|/channel 0:/,/_tx_stop/ s/= s[0-9]*_rx_stop.*;/= 0;/
NET_RUN_vmesh2-dl-uniform := vmesh2 dl2 --traffic uniform --load 0.6
NET_MUTANT_CYCLES ?= 20000
# C/C++ optimization of the network benches (Verilator's OPT_FAST/SLOW/GLOBAL too): the 16-switch model's
# C++ takes minutes at -O2; NET_OPT=-O0 builds in a fraction of that time and runs slower. At -O0 the model is
# compiled as one translation unit (VM_PARALLEL_BUILDS=0, as the mutant-capable builds of mk/rules.mk): its
# ~260 files each parse Verilator's headers again otherwise (the 16-switch crossbar network: 28 CPU s
# instead of about 100; the network builds run JOBS at a time, so nothing is lost to the one compile)
NET_OPT ?= -O2
# more Verilator options of every network build (make test's quick builds: -fno-inline, one class per crossbar
# kind instead of the whole network flattened: about half the C++ to compile, 2-3x slower to run; --trace-depth 2:
# the VCD of a failure holds the network's ports and every switch's rx/tx buses, not the switches' insides,
# which halves the C++ again)
NET_VOPT ?=

# ------------------------------------------------------------------ sources of one network
NET_B := $(BUILD)/net

NET_SANTOOLS := $(NET_SW_BIN)/san-sanfab-netgen $(NET_SW_BIN)/san-sanfab-topo
$(NETGEN) $(NET_SWLIBS) $(NET_SWSAN) $(NET_SANTOOLS) &: $(NET_SW_DEPS)
	@$(MAKE) -s -C sw build/sanfab-netgen build/sanfab-topo build/sanfab-route build/libsanfab-sim.a \
	  build/libsanfab.a build/libsanfab-sim-san.a build/libsanfab-san.a build/san-sanfab-netgen build/san-sanfab-topo

# $(1) network
define NET_SRC_RULES
$(NET_B)/$(1)/$(1).topo: $(if $(NET_TOPOFILE_$(1)),$(NET_TOPOFILE_$(1)),$(NETGEN)) mk/net.mk
	@mkdir -p $$(dir $$@)
	$(if $(NET_TOPOFILE_$(1)),@cp $(NET_TOPOFILE_$(1)) $$@,@$(NET_TOPOGEN) $(NET_TOPO_$(1)) -o $$@)
$(foreach r,$(NET_ROUTES_$(1)),
$(NET_B)/$(1)/$(r).routes: $(NET_B)/$(1)/$(1).topo $(NETGEN) $(NET_ROUTEFILE_$(1))
	$(if $(NET_ROUTEFILE_$(1)),@cp $(NET_ROUTEFILE_$(1)) $$@,@$(NET_ROUTE) $(NET_RARGS_$(r)) $$< -o $$@ \
	  $(if $(filter vcsw,$(call net_kind,$(1))),--rhinet $$(@:.routes=.rhinet)) > $$@.log 2>&1 || { cat $$@.log; exit 1; })
)
$(NET_B)/$(1)/net_$(1).v: $(NET_B)/$(1)/$(1).topo $(NETGEN)
	@$(NETGEN) $$< --kind $(call net_kind,$(1)) -o $$@
endef
$(foreach n,$(NET_NETS),$(eval $(call NET_SRC_RULES,$(n))))

net_hosts  = $(shell grep -c '^host ' $(NET_B)/$(1)/$(1).topo)
net_nports = $(shell awk '$$1 == "switch" { s += $$4 } END { print s }' $(NET_B)/$(1)/$(1).topo)
net_nsw    = $(shell grep -c '^switch ' $(NET_B)/$(1)/$(1).topo)

# ------------------------------------------------------------------ one Verilated network bench
# $(1) build name, $(2) network, $(3) extra Verilator options (defines), $(4) optimization, $(5) empty or a
# patched file (NAME|sed) replacing one of the switches' files, or (TOP|sed) the network's generated top
net_pname = $(firstword $(subst |, ,$(1)))
net_pfile = $(if $(filter TOP,$(call net_pname,$(1))),$(NET_B)/$(2)/net_$(2).v,$(call net_pname,$(1)))
net_srcs  = $(call net_rtl,$(1)) $(NET_B)/$(1)/net_$(1).v
define NET_BENCH_RULE
$(if $(5),
$(NET_B)/$(1)/src/$(notdir $(call net_pfile,$(5),$(2))): $(call net_pfile,$(5),$(2)) mk/net.mk
	@mkdir -p $$(dir $$@)
	@sed '$(patsubst $(call net_pname,$(5))|%,%,$(5))' $$< > $$@
	@! cmp -s $$< $$@ || { echo "net.mk: the patch of $(1) changed nothing in $$<"; exit 1; }
)
$(NET_B)/$(1)/net_bench: $(NET_B)/$(2)/net_$(2).v $(call net_rtldep,$(2)) $(if $(5),$(NET_B)/$(1)/src/$(notdir $(call net_pfile,$(5),$(2)))) tb/net/net_bench.c tb/net/net_rtl.cpp tb/net/net_rtl.h \
    tb/common/vrtl.h tb/common/bench_cli.c tb/common/bench_cli.h tb/common/waves.c tb/common/waves.h $(NET_SWLIBS) mk/net.mk \
    $(call vlrt_dep,$(4),$(4),--trace $(NET_VOPT) $(3))
	@mkdir -p $(NET_B)/$(1)/lib
	@rm -f $(NET_B)/$(1)/obj/net_bench
	@$(CC) $(CSTD) -D_POSIX_C_SOURCE=200809L $(CINC) -c tb/net/net_bench.c -o $(NET_B)/$(1)/lib/net_bench.o
	@$(CC) $(CSTD) $(CINC) -c tb/common/bench_cli.c -o $(NET_B)/$(1)/lib/bench_cli.o
	@$(CC) $(CSTD) $(CINC) -c tb/common/waves.c -o $(NET_B)/$(1)/lib/waves.o
	@rm -f $(NET_B)/$(1)/lib/libnetbench.a && ar rcs $(NET_B)/$(1)/lib/libnetbench.a $(NET_B)/$(1)/lib/net_bench.o $(NET_B)/$(1)/lib/bench_cli.o $(NET_B)/$(1)/lib/waves.o
	@echo "  VERILATE net [$(1)] net_$(2) $(call net_gflags,$(2)) $(3) $(NET_VOPT) ($(4))"
	@$(VERILATOR) --cc --exe --trace -O3 $(NET_VOPT) --x-assign fast --x-initial fast -Wall -Wno-fatal \
	  --prefix Vnet --top-module net_$(2) -Mdir $(NET_B)/$(1)/obj $(call net_gflags,$(2)) $(3) \
	  -CFLAGS "$(4) $(CINC_ABS) $(call net_dflags,$(2)) \
	    -DNET_NHOSTS=$$(call net_hosts,$(2)) -DNET_NPORTS=$$(call net_nports,$(2)) -DNET_NSW=$$(call net_nsw,$(2)) \
	    -DNET_VARIANT='\"$(1)\"'" \
	  -LDFLAGS -lm $(if $(5),$(patsubst $(call net_pfile,$(5),$(2)),$(NET_B)/$(1)/src/$(notdir $(call net_pfile,$(5),$(2))),$(call net_srcs,$(2))),$(call net_srcs,$(2))) $(abspath tb/net/net_rtl.cpp) \
	  $(abspath $(NET_B)/$(1)/lib/libnetbench.a) $(abspath $(NET_SWLIBS)) \
	  -o net_bench > $(NET_B)/$(1)/verilate.log 2>&1 || { tail -30 $(NET_B)/$(1)/verilate.log; exit 1; }
	@$(call vlrt_give,$(4),$(4),--trace $(NET_VOPT) $(3),$(NET_B)/$(1)/obj)
	@$(MAKE) -s -C $(NET_B)/$(1)/obj -f Vnet.mk -j $(JOBS) OPT_FAST=$(4) OPT_SLOW=$(4) OPT_GLOBAL=$(4) \
	  $(if $(filter -O0,$(4)),VM_PARALLEL_BUILDS=0) >> $(NET_B)/$(1)/verilate.log 2>&1 || { tail -30 $(NET_B)/$(1)/verilate.log; exit 1; }
	@cp $(NET_B)/$(1)/obj/net_bench $$@
endef
$(foreach n,$(NET_NETS),$(eval $(call NET_BENCH_RULE,$(n),$(n),+define+SANFAB_ASSERT,$(NET_OPT))))
# the 16-switch network verilated with --threads 2 (scripts/bench.py --only rtlnet: does it pay on 2 cores?)
$(eval $(call NET_BENCH_RULE,r16-t2,r16,+define+SANFAB_ASSERT --threads 2,$(NET_OPT)))
net_mname = $(word 1,$(subst :, ,$(1)))
net_mnet  = $(word 2,$(subst :, ,$(1)))
net_mrun  = $(word 3,$(subst :, ,$(1)))
net_msite = $(if $(NET_PATCH_$(call net_mname,$(1))),,$(call net_mname,$(1)))
$(foreach m,$(NET_MUTANTS),$(eval $(call NET_BENCH_RULE,MUTANT_$(call net_mname,$(m)),$(call net_mnet,$(m)),$(if $(call net_msite,$(m)),$(call mutant_vopts,$(call net_kind,$(call net_mnet,$(m))))),-O0,$(NET_PATCH_$(call net_mname,$(m))))))
$(foreach m,$(NET_MUTANTS),$(if $(call net_msite,$(m)),$(eval $(NET_B)/MUTANT_$(call net_mname,$(m))/net_bench: \
  $(call mutant_sites,$(call net_kind,$(call net_mnet,$(m)))) $(MUTANT_V))))

# model-only bench under ASan/UBSan
$(NET_B)/san/net_bench: tb/net/net_bench.c tb/net/net_rtl_none.c tb/net/net_rtl.h tb/common/bench_cli.c tb/common/bench_cli.h \
    tb/common/waves.c tb/common/waves.h \
    $(NET_SWSAN) mk/net.mk
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) -D_POSIX_C_SOURCE=200809L $(SAN) $(CINC) tb/net/net_bench.c \
	  tb/net/net_rtl_none.c tb/common/bench_cli.c tb/common/waves.c \
	  $(NET_SWSAN) -lm -o $@

# ------------------------------------------------------------------ runs
# the arguments of run $(1) (without cycles and seed)
net_run_net    = $(word 1,$(NET_RUN_$(1)))
net_run_routes = $(word 2,$(NET_RUN_$(1)))
net_run_args = --topology $(NET_B)/$(call net_run_net,$(1))/$(call net_run_net,$(1)).topo \
  --routes $(NET_B)/$(call net_run_net,$(1))/$(call net_run_routes,$(1)).routes \
  $(if $(filter vcsw,$(call net_kind,$(call net_run_net,$(1)))),--tables $(NET_B)/$(call net_run_net,$(1))/$(call net_run_routes,$(1)).rhinet) \
  $(call net_keys,$(call net_run_net,$(1))) $(wordlist 3,99,$(NET_RUN_$(1))) --warmup 0 $(if $(NET_NODRAIN_$(1)),,--drain $(or $(NET_DRAIN_$(1)),$(NET_DRAIN)))
net_run_deps = $(NET_B)/$(call net_run_net,$(1))/net_bench \
  $(NET_B)/$(call net_run_net,$(1))/$(call net_run_routes,$(1)).routes

# the arguments of a run for scripts/bench.py: make -s net-args-<run>
net-args-%:
	@echo $(call net_run_args,$*)

.PHONY: net-routes net-build net-test net-test-runs net-sim net-lint net-san net-mutants net-check-generated net-generate net-lint-wrapper
net-build: $(foreach n,$(NET_NETS),$(NET_B)/$(n)/net_bench)
net-mutants: $(foreach m,$(NET_MUTANTS),$(NET_B)/MUTANT_$(call net_mname,$(m))/net_bench)
net-routes: $(foreach n,$(NET_NETS),$(foreach r,$(NET_ROUTES_$(n)),$(NET_B)/$(n)/$(r).routes))
net-san: $(NET_B)/san/net_bench net-routes

# one run: $(1) run, $(2) cycles, $(3) seed, $(4) bench, $(5) extra options
net_one = echo "-- net [$(1)] seed $(3), $(2) cycles: $(4) ..."; \
  $(4) $(call net_run_args,$(1)) --cycles $(2) --seed $(3) $(5) > $(dir $(4))$(1)-$(3).log 2>&1; \
  rc=$$?; tail -3 $(dir $(4))$(1)-$(3).log | grep -v '^speed:'; \
  if [ $$rc -ne 0 ]; then grep -m3 FAIL $(dir $(4))$(1)-$(3).log; fails="$$fails $(1)/$(3)"; fi;

# make test: quick builds (-O0, -fno-inline) of their own under build/net-quick/, short runs
# (the builds first, JOBS at a time: one network's single-threaded verilation overlaps another's compile; then
# the checks, JOBS at a time, the longest first, each one's lines together)
net-test:
	@$(MAKE) -s --no-print-directory -j $(JOBS) NET_B=$(BUILD)/net-quick NET_OPT=-O0 NET_VOPT="-fno-inline --trace-depth 2" \
	  net-build net-mutants net-san $(NET_SANTOOLS)
	@$(MAKE) -s --no-print-directory NET_B=$(BUILD)/net-quick NET_OPT=-O0 NET_VOPT="-fno-inline --trace-depth 2" net-test-runs

# the checks of net-test, one target each (net-t-<check>, phony: static pattern rules, as make tries no implicit
# rule for a phony target): it prints its lines and, only when it passes, leaves NET_B/done/<check>; net-test-runs
# runs them all (-k, JOBS at a time) and names every check without its mark (failed, or never run)
NET_MODEL_RUNS := r16-itb-uniform ring4-cyclic v16-dl-uniform
NET_TEST_CHECKS := $(addprefix run-,mesh4-dl-transpose v16-dl-uniform v16-ud-uniform) \
  $(addprefix run-,$(filter-out mesh4-dl-transpose v16-dl-uniform v16-ud-uniform,$(NET_RUNS))) \
  $(addprefix model-,$(NET_MODEL_RUNS)) $(foreach m,$(NET_MUTANTS),mutant-$(call net_mname,$(m))) netgen cli icarus
# the NET_MUTANTS entry of mutant $(1)
net_mentry = $(filter $(1):%,$(NET_MUTANTS))
net_done = mkdir -p $(NET_B)/done && touch $(NET_B)/done/$(1)

net-test-runs: net-build net-mutants net-san $(NET_SANTOOLS)
	@rm -rf $(NET_B)/done
	@$(MAKE) -s --no-print-directory -k -j $(JOBS) --output-sync=target $(addprefix net-t-,$(NET_TEST_CHECKS)); \
	failed=""; for c in $(NET_TEST_CHECKS); do [ -e $(NET_B)/done/$$c ] || failed="$$failed $$c"; done; \
	if [ -n "$$failed" ]; then echo "net-test: FAILED (or did not run):$$failed"; exit 1; fi; \
	echo "net-test: every run passed, every mutant caught"

.PHONY: $(addprefix net-t-,$(NET_TEST_CHECKS))
net-t-netgen:
	@echo "-- sanfab-netgen (ASan/UBSan build): messages, refusals, command line, determinism"; \
	bash tb/net/netgen_test.sh $(NET_SANTOOLS) $(NET_B)/netgen-test && $(call net_done,netgen)
net-t-cli:
	@echo "-- net_bench (ASan/UBSan model-only build): its command line"; \
	bash tb/net/net_bench_cli_test.sh $(NET_B)/san/net_bench $(NET_B)/r16/r16.topo $(NET_B)/r16/itb.routes \
	  $(NET_B)/cli-test && $(call net_done,cli)
net-t-icarus:
	@echo "-- Icarus: one packet through rtl/net/net4.v"; $(MAKE) -s --no-print-directory net-icarus && $(call net_done,icarus)
$(addprefix net-t-run-,$(NET_RUNS)): net-t-run-%:
	@fails=""; $(call net_one,$*,$(NET_TEST_CYCLES),$(SEED),$(NET_B)/$(call net_run_net,$*)/net_bench,$(NET_TEST_ARGS_$*) --vcd-on-fail $(NET_B)/$*-fail.vcd) \
	[ -z "$$fails" ] && $(call net_done,run-$*)
$(addprefix net-t-model-,$(NET_MODEL_RUNS)): net-t-model-%:
	@fails=""; $(call net_one,$*,$(NET_TEST_CYCLES),$(SEED),$(NET_B)/san/net_bench,$(NET_TEST_ARGS_$*) --mode model) \
	[ -z "$$fails" ] && $(call net_done,model-$*)
# the verdict is tb/common/mutant_judge.sh's (the one judge, make test's mutants step's too): caught when the bench
# fails with a line of the RTL network differing from the C network (a FAIL line of the scoreboard or of a run
# without traffic is no proof) and, for a mutation site, the site said it was selected (a mutant-capable build
# has no RTL assertions, so none can stop it first); a patched copy (NET_PATCH_<NAME>) has no site
NET_MISMATCH := ^FAIL cycle [0-9]+: (switch|host) 
$(foreach m,$(NET_MUTANTS),net-t-mutant-$(call net_mname,$(m))): net-t-mutant-%:
	@echo "-- net mutant $* on [$(call net_mrun,$(call net_mentry,$*))]"; \
	$(NET_B)/MUTANT_$*/net_bench $(call net_run_args,$(call net_mrun,$(call net_mentry,$*))) \
	  $(NET_TEST_ARGS_$(call net_mrun,$(call net_mentry,$*))) --cycles $(NET_MUTANT_CYCLES) --seed $(SEED) \
	  $(if $(call net_msite,$(call net_mentry,$*)),+mutant=$(call net_msite,$(call net_mentry,$*))) > $(NET_B)/MUTANT_$*/run.log 2>&1; \
	code=$$?; bash tb/common/mutant_judge.sh "network mutant $*" $(NET_B)/MUTANT_$*/run.log $$code \
	  $(or $(call net_msite,$(call net_mentry,$*)),-) '$(NET_MISMATCH)' | sed 's/^/   /'; \
	[ $${PIPESTATUS[0]} -eq 0 ] && $(call net_done,mutant-$*)

net-sim: net-build net-routes
	@fails=""; \
	$(foreach r,$(NET_RUNS),$(foreach s,$(or $(NET_SIM_SEEDS_$(r)),$(SEED)),\
	  $(call net_one,$(r),$(or $(NET_SIM_CYCLES_$(r)),$(NET_SIM_CYCLES)),$(s),$(NET_B)/$(call net_run_net,$(r))/net_bench,$(NET_SIM_ARGS_$(r)) --vcd-on-fail $(NET_B)/$(r)-$(s)-fail.vcd))) \
	if [ -n "$$fails" ]; then echo "net-sim: FAILED:$$fails"; exit 1; fi; echo "net-sim: every network run passed"

# every generated top passes verilator --lint-only -Wall and Icarus elaborates it
net-lint: $(foreach n,$(NET_NETS),$(NET_B)/$(n)/net_$(n).v)
	@$(foreach n,$(NET_NETS),echo "  LINT net_$(n) (generated by sanfab-netgen)" && \
	  $(VERILATOR) --lint-only -Wall --top-module net_$(n) $(call net_gflags,$(n)) $(call net_rtl,$(n)) $(NET_B)/$(n)/net_$(n).v && \
	  iverilog -g2005 -o $(NET_B)/$(n)/elab.vvp -s net_$(n) $(patsubst +incdir+%,-I%,$(call net_rtl,$(n))) $(NET_B)/$(n)/net_$(n).v && \
	  echo "  ICARUS net_$(n) elaborated" &&) true

# the networks make synth builds: rtl/net/<name>.v is generated from rtl/net/<name>.topo and committed; its file list
# is its switch's plus the top. net4: 4 crossbars; vnet4: 4 VC switches (NAME:kind:wrapper)
NET_SYNTH := net4:xbar:net_fpga_top vnet4:vcsw:vnet_fpga_top
net_sname = $(word 1,$(subst :, ,$(1)))
net_skind = $(word 2,$(subst :, ,$(1)))
net_swrap = $(word 3,$(subst :, ,$(1)))
net_synth_gen = $(NETGEN) rtl/net/$(call net_sname,$(1)).topo --kind $(call net_skind,$(1)) --module $(call net_sname,$(1))
net_synth_flist = { echo '\# RTL of the generated 4-switch $(if $(filter vcsw,$(call net_skind,$(1))),VC network,network) \
  (rtl/net/$(call net_sname,$(1)).v): the $(if $(filter vcsw,$(call net_skind,$(1))),VC switch,crossbar), then the network top'; \
  grep -v '^[[:space:]]*\#' $($(call net_skind,$(1))_FILELIST); echo rtl/net/$(call net_sname,$(1)).v; }
net-check-generated: $(NETGEN)
	@$(foreach n,$(NET_SYNTH),echo "  CHECK rtl/net/$(call net_sname,$(n)).v is what sanfab-netgen makes of rtl/net/$(call net_sname,$(n)).topo, rtl/net/$(call net_sname,$(n)).f the $(call net_skind,$(n)) list + it" && \
	  $(call net_synth_gen,$(n)) | diff -q - rtl/net/$(call net_sname,$(n)).v > /dev/null || { echo "rtl/net/$(call net_sname,$(n)).v is out of date: make generate"; exit 1; } && \
	  $(call net_synth_flist,$(n)) | diff -q - rtl/net/$(call net_sname,$(n)).f > /dev/null || { echo "rtl/net/$(call net_sname,$(n)).f is out of date: make generate"; exit 1; } &&) true
net-generate: $(NETGEN)
	@$(foreach n,$(NET_SYNTH),$(call net_synth_gen,$(n)) -o rtl/net/$(call net_sname,$(n)).v && $(call net_synth_flist,$(n)) > rtl/net/$(call net_sname,$(n)).f &&) true
net-lint-wrapper: net-check-generated
	@$(foreach n,$(NET_SYNTH),echo "  LINT $(call net_swrap,$(n)) (synthesis wrapper of rtl/net/$(call net_sname,$(n)).v)" && \
	  $(VERILATOR) --lint-only -Wall --top-module $(call net_swrap,$(n)) $(call rtl_list,$(call net_skind,$(n))) rtl/net/$(call net_sname,$(n)).v \
	    rtl/fpga/scan_io.v rtl/fpga/$(call net_swrap,$(n)).v &&) true

# Icarus smoke test: one packet through the generated 4-switch network (tb/net/net4_icarus_tb.v)
.PHONY: net-icarus
net-icarus:
	@mkdir -p $(NET_B)/icarus
	@iverilog -g2005 -o $(NET_B)/icarus/net4.vvp -s net4_icarus_tb $(patsubst +incdir+%,-I%,$(filter +incdir+%,$(call rtl_list,xbar))) \
	  $(filter-out +%,$(shell grep -v '^[[:space:]]*\#' rtl/net/net4.f)) tb/net/net4_icarus_tb.v
	@vvp -n $(NET_B)/icarus/net4.vvp | tee $(NET_B)/icarus/net4.log | grep -v '^VCD'; grep -q '^icarus: 1 passed, 0 failed' $(NET_B)/icarus/net4.log

# make sim, make lint, make icarus and make generate include the network
icarus: net-icarus
sim: net-sim
lint: net-lint net-lint-wrapper
check-generated: net-check-generated
generate: net-generate

"""sanfab benchmarks (scripts/bench.py), the measurements: the crossbar's and the VC switch's benches, the
network simulator's speed points (sanfab-sim), the RTL networks against the C networks (tb/net/net_bench) and
the Maestro Link Controller's measurements (tb/mlc/mlc_perf) and speed (mlc_bench). Each returns records
for reports/bench.json (DESIGN.md's record format)."""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "build", "xbar", "p8", "xbar_bench")
VCSW_BENCH = os.path.join(ROOT, "build", "vcsw", "p8", "vcsw_bench")
SW_BUILD = os.path.join(ROOT, "sw", "build")
# network simulator speed points: (topology generator args, routes, offered load in flits/ns/switch);
# near saturation (up*/down* saturates near 0.06 on 16 and 0.016 on 64 switches, ITB near 0.08 and 0.037)
NET_POINTS = [
    (["random", "--switches", "16", "--seed", "1"], "updown", 0.06),
    (["random", "--switches", "16", "--seed", "1"], "itb", 0.08),
    (["random", "--switches", "64", "--seed", "1"], "updown", 0.02),
    (["random", "--switches", "64", "--seed", "1"], "itb", 0.04),
    (["random", "--switches", "64", "--seed", "1"], "itb", 0.08),
    (["torus", "--k", "8", "--ports", "16", "--hosts", "8"], "itb", 0.03),
]
# the VC network (block "vcnet"): 64 random switches of 8 ports with 4 hosts, DL on 3 VCs (Sancho) past its
# saturation, and up*/down* with 3 VCs past its own; Koibuchi et al. 2003's packets (128 flits) and switches (sanfab-sim's vcsw
# defaults); loads in flits/host/cycle
VCNET_POINTS = [
    (["random", "--switches", "16", "--seed", "1"], ["dl", "--vcs", "3", "--select", "sancho"], 0.3),
    (["random", "--switches", "64", "--seed", "1"], ["dl", "--vcs", "3", "--select", "sancho"], 0.1),
    (["random", "--switches", "64", "--seed", "1"], ["dl", "--vcs", "3", "--select", "sancho"], 0.2),
    (["random", "--switches", "64", "--seed", "1"], ["updown", "--vcs", "3", "--select", "sancho"], 0.06),
]
# the 512-node Clos of Geoffray and Hoefler 2008 (block "clos"): 48 crossbars of 32 ports, 16 routes a pair (clos-all), the Myri-10G
# timing set, 4 KB uniform messages; loads in flits/ns/switch at 0.8 ns a cycle (10: far past saturation)
CLOS_POINTS = [("oblivious", 10.0), ("static", 10.0)]
VCSW_LINE = re.compile(r"^ok\s+(\S+)\s+(\d+) steps\s+([0-9.]+) s\s+([0-9.]+) steps/s.*step calls only: "
                       r"model ([0-9.]+) steps/s, RTL ([0-9.]+) steps/s")


def vcsw_speed(test, cycles, seed):
    """One lockstep vcsw_bench --speed run; records for the model, the RTL (step calls only) and the
    whole lockstep run (hosts, scoreboard and checks included)."""
    cmd = [VCSW_BENCH, "--test", test, "--cycles", str(cycles), "--seed", str(seed), "--speed"]
    print("bench: " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd), flush=True)
    r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode != 0:
        sys.exit("bench: %s failed (exit %d)" % (cmd[0], r.returncode))
    m = next((VCSW_LINE.match(l) for l in r.stdout.splitlines() if VCSW_LINE.match(l)), None)
    if not m:
        sys.exit("bench: no result line in the output of %s" % " ".join(cmd))
    steps, secs = int(m.group(2)), float(m.group(3))
    params = {}
    pr = subprocess.run([VCSW_BENCH, "--params"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    for kv in pr.stdout.split():
        if "=" in kv:
            k, v = kv.split("=", 1)
            params[k] = int(v) if v.isdigit() else v
    out = []
    for what, cps in (("model", float(m.group(5))), ("rtl", float(m.group(6))), ("lockstep", steps / secs)):
        out.append({"block": "vcsw", "params": params, "what": what, "test": test, "cycles": steps,
                    "seconds": steps / cps if cps else 0.0, "cycles_per_s": cps,
                    "timing": "step calls only" if what != "lockstep" else "whole run"})
    return out


def sim_best(cmd, repeat):
    """The fastest of `repeat` runs of a sanfab-sim command (--time); its JSON."""
    d = None
    for _ in range(max(1, repeat)):
        r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            sys.exit("bench: sanfab-sim failed (exit %d): %s" % (r.returncode, r.stderr.strip()[-500:]))
        di = json.loads(r.stdout)
        if d is None or di["points"][0]["perf"]["seconds"] < d["points"][0]["perf"]["seconds"]:
            d = di
    return d


def net_speed(td, seed, cycles, repeat=3, vc=False):
    """sanfab-sim --time on each NET_POINTS entry (crossbar network, 512-byte uniform messages) or, vc, each
    VCNET_POINTS entry (VC network, 128-flit packets), one load point, one process, run `repeat` times (the machine
    is shared: the fastest run is recorded, and how many were run); one record each with network cycles/s and
    flit-hops/s (data characters or flits over any link per second)."""
    sim = os.path.join(SW_BUILD, "sanfab-sim")
    topo_tool, route_tool = os.path.join(SW_BUILD, "sanfab-topo"), os.path.join(SW_BUILD, "sanfab-route")
    out = []
    for gen, algo, load in (VCNET_POINTS if vc else NET_POINTS):
        name = "-".join(gen[:3:2] if gen[0] == "random" else gen[:1])
        topo = os.path.join(td, name + ".topo")
        aname = "-".join(x.lstrip("-") for x in algo) if vc else algo
        routes = os.path.join(td, "%s-%s.routes" % (name, aname))
        if not os.path.exists(topo):
            subprocess.run([topo_tool] + gen + ["-o", topo], check=True, stderr=subprocess.DEVNULL)
        if not os.path.exists(routes):
            if vc:
                args = algo
            else:
                args = [algo] + (["--select", "balanced"] if algo == "updown" else ["--seed", str(seed)])
            subprocess.run([route_tool] + args + [topo, "-o", routes], check=True, stderr=subprocess.DEVNULL)
        cmd = [sim, "--topology", topo, "--routes", routes, "--load", str(load), "--warmup", str(cycles // 4),
               "--cycles", str(cycles), "--seed", str(seed), "--links", "no", "--time", "--quiet"] + \
              (["--switch", "vcsw"] if vc else [])
        print("bench: sanfab-sim %s%s %s load %g (best of %d)" % ("--switch vcsw " if vc else "", " ".join(gen), aname,
                                                                 load, repeat), flush=True)
        d = sim_best(cmd, repeat)
        pt, perf = d["points"][0], d["points"][0]["perf"]
        rec = {"block": "vcnet" if vc else "net", "what": "network",
               "params": {"topology": " ".join(gen), "switches": d["network"]["switches"], "hosts": d["network"]["hosts"],
                          "routes": " ".join(algo) if vc else algo, "traffic": "uniform", "load": load,
                          "warmup": cycles // 4, "window": cycles, "seed": seed},
               "cycles": perf["cycles"], "seconds": perf["seconds"], "cycles_per_s": perf["cycles_per_s"],
               "flit_hops_per_s": perf["flit_hops_per_s"], "switch_cycles_skipped": perf.get("switch_cycles_skipped"),
               "saturated": pt["saturated"], "runs": max(1, repeat), "timing": "fastest of %d runs" % max(1, repeat)}
        if vc:
            rec["params"]["packet_flits"] = d["config"]["packet_flits"]
            rec["accepted_flits_cycle_host"] = pt["accepted_flits_cycle_host"]
        else:
            rec["params"]["message_size"] = 512
            rec["accepted_flits_ns_sw"] = pt["accepted_flits_ns_sw"]
        print("bench:   %.0f cycles/s, %.2f M flit-hops/s, accepted %.4f %s%s"
              % (rec["cycles_per_s"], rec["flit_hops_per_s"] / 1e6, pt["accepted_flits_cycle_host" if vc else
                 "accepted_flits_ns_sw"], "flits/host/cycle" if vc else "flits/ns/switch",
                 " (saturated)" if rec["saturated"] else ""), flush=True)
        out.append(rec)
    return out


def clos_speed(td, seed, cycles, repeat=3):
    """sanfab-sim --time on Geoffray and Hoefler 2008's 512-node Clos at saturation (CLOS_POINTS), one process, fastest of `repeat`."""
    sim = os.path.join(SW_BUILD, "sanfab-sim")
    topo, routes = os.path.join(td, "clos512.topo"), os.path.join(td, "clos512.routes")
    subprocess.run([os.path.join(SW_BUILD, "sanfab-topo"), "clos", "-o", topo], check=True, stderr=subprocess.DEVNULL)
    subprocess.run([os.path.join(SW_BUILD, "sanfab-route"), "clos-all", topo, "-o", routes], check=True,
                   stderr=subprocess.DEVNULL)
    out = []
    for policy, load in CLOS_POINTS:
        cmd = [sim, "--topology", topo, "--routes", routes, "--timing", "myri10g", "--message-size", "4096",
               "--policy", policy, "--load", str(load), "--warmup", str(cycles // 4), "--cycles", str(cycles),
               "--seed", str(seed), "--links", "no", "--time", "--quiet"]
        print("bench: sanfab-sim clos 512 nodes, %s, load %g (best of %d)" % (policy, load, repeat), flush=True)
        d = sim_best(cmd, repeat)
        pt, perf = d["points"][0], d["points"][0]["perf"]
        rec = {"block": "clos", "what": "network",
               "params": {"topology": "clos --leaves 32 --hosts 16 --spines 16", "switches": d["network"]["switches"],
                          "hosts": d["network"]["hosts"], "routes": "clos-all", "policy": policy, "timing": "myri10g",
                          "traffic": "uniform", "message_size": 4096, "load": load, "warmup": cycles // 4,
                          "window": cycles, "seed": seed},
               "cycles": perf["cycles"], "seconds": perf["seconds"], "cycles_per_s": perf["cycles_per_s"],
               "flit_hops_per_s": perf["flit_hops_per_s"], "switch_cycles_skipped": perf.get("switch_cycles_skipped"),
               "saturated": pt["saturated"], "accepted_flits_cycle_host": pt["accepted_flits_cycle_host"],
               "runs": max(1, repeat), "timing": "fastest of %d runs" % max(1, repeat)}
        print("bench:   %.0f cycles/s, %.2f M flit-hops/s, accepted %.4f flits/host/cycle%s"
              % (rec["cycles_per_s"], rec["flit_hops_per_s"] / 1e6, rec["accepted_flits_cycle_host"],
                 " (saturated)" if rec["saturated"] else ""), flush=True)
        out.append(rec)
    return out


# the mk/net.mk runs whose speed is measured: (run, build, --threads 2 build or None, parameters for the record)
RTLNET_RUNS = [("r16-itb-uniform", "build/net/r16/net_bench", "build/net/r16-t2/net_bench",
                {"kind": "xbar", "switches": 16, "ports": 8, "hosts": 64, "routes": "itb", "traffic": "uniform",
                 "load": 0.08, "message_size": 512}),
               ("v16-dl-uniform", "build/net/v16/net_bench", None,
                {"kind": "vcsw", "switches": 16, "ports": 8, "hosts": 64, "routes": "dl --vcs 3 --select sancho",
                 "traffic": "uniform", "load": 0.2, "packet_flits": 128})]
RTLNET_BUILDS = [b for _, b1, b2, _ in RTLNET_RUNS for b in (b1, b2) if b]
RTLNET_NAMES = [r[0] for r in RTLNET_RUNS]


def rtlnet_run(r):
    """The network run an rtlnet record measured (the first records, all of r16-itb-uniform, named none)."""
    return r.get("params", {}).get("run", "r16-itb-uniform")


def rtlnet_records(seed, cycles, repeat=3, runs=None):
    """The RTL networks (docs/network.md "RTL networks") against the C networks on the same runs: mk/net.mk's
    r16-itb-uniform (crossbars) and v16-dl-uniform (VC switches) with `cycles` traffic cycles and the drain, run by
    the network bench in its modes (model = the C network and NICs alone, stepping every switch as the lockstep
    does, and also skipping quiet switches as sanfab-sim does; rtl = the Verilated network with the same NICs; rtl
    with a --threads 2 build; lockstep = both compared every cycle). Fastest of `repeat` runs each; one record per
    mode and run. `runs`: only these runs (names of RTLNET_RUNS), else all."""
    todo = [x for x in RTLNET_RUNS if runs is None or x[0] in runs]
    missing = [b for _, b1, b2, _ in todo for b in (b1, b2) if b and not os.path.exists(os.path.join(ROOT, b))]
    # the route files always (cheap); a missing build too (an existing one is used as it is: `make bench` brings
    # every one up to date)
    subprocess.run(["make", "-s", "net-routes"] + missing, cwd=ROOT, check=True)
    out = []
    for run, b1, b2, params in todo:
        args = subprocess.run(["make", "-s", "--no-print-directory", "net-args-" + run], cwd=ROOT, check=True,
                              stdout=subprocess.PIPE, text=True).stdout.split()
        modes = [("model", b1, ["--mode", "model"], "C network, every switch stepped"),
                 ("model", b1, ["--mode", "model", "--skip"], "C network, quiet switches skipped (sanfab-sim)"),
                 ("rtl", b1, ["--mode", "rtl"], "Verilated network (1 thread)")] + \
                ([("rtl", b2, ["--mode", "rtl"], "Verilated network, --threads 2")] if b2 else []) + \
                [("lockstep", b1, ["--mode", "lockstep"], "both, every switch output compared")]
        for what, binp, extra, desc in modes:
            best = None
            for _ in range(max(1, repeat)):
                cmd = [os.path.join(ROOT, binp)] + args + ["--cycles", str(cycles), "--seed", str(seed)] + extra
                r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                m = re.search(r"^speed: (\S+) (\d+) ([0-9.]+) ([0-9.]+) ([0-9.]+)$", r.stdout, re.M)
                if r.returncode != 0 or not m:
                    sys.exit("bench: %s failed (exit %d): %s" % (" ".join(cmd), r.returncode, r.stdout[-800:]))
                if best is None or float(m.group(3)) < best[1]:
                    best = (int(m.group(2)), float(m.group(3)))
            cyc, secs = best
            rec = {"block": "rtlnet", "what": what, "mode": desc,
                   "params": dict(params, run=run, traffic_cycles=cycles, seed=seed),
                   "cycles": cyc, "seconds": secs, "cycles_per_s": cyc / secs if secs else 0.0,
                   "runs": max(1, repeat), "timing": "whole run, fastest of %d" % max(1, repeat)}
            print("bench: rtlnet %s %-50s %d cycles %.2f s %.0f cycles/s" % (run, desc, cyc, secs, rec["cycles_per_s"]),
                  flush=True)
            out.append(rec)
    return out


def run_bench(args, jpath):
    cmd = [BENCH] + args + ["--json", jpath]
    print("bench: " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd), flush=True)
    r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode != 0:
        sys.exit("bench: %s failed (exit %d)" % (cmd[0], r.returncode))


def read_jsonl(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                out.append(json.loads(line))
    return out


# ------------------------------------------------------------------ MLC (docs/mlc-perf.md: scripts/bench_mlc_page.py)
MLC_PERF = os.path.join(ROOT, "build", "mlc", "perf", "mlc_perf")
MLC_BENCH = os.path.join(ROOT, "build", "mlc", "d", "mlc_bench")
MLC_HEAD = re.compile(r"^mlc_bench: variant (\S+) (.*) cfg=")
MLC_PASS = re.compile(r"^PASS mlc_bench variant (\S+): (\d+) cycles \(\+(\d+) drain\)")
MLC_SPEED = re.compile(r"^speed: (\d+) steps: model ([0-9.]+) steps/s, rtl ([0-9.]+) steps/s, ratio ([0-9.]+) "
                       r"\(step calls only")


def mlc_speed(cycles, seed, repeat=3):
    """mlc_bench (parameter set d) in its three modes, model alone, RTL alone and lockstep, on the same
    random traffic (host driver, corrupted nibbles, CTL faults, scoreboard and link checks in every mode):
    one record each, the whole run timed (fastest of `repeat`, the machine is shared)."""
    import time
    out = []
    for mode in ("model", "rtl", "lockstep"):
        cmd = [MLC_BENCH, "--mode", mode, "--cycles", str(cycles), "--seed", str(seed), "--quiet"]
        print("bench: " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd)
              + " (best of %d)" % repeat, flush=True)
        best = None
        for _ in range(max(1, repeat)):
            t0 = time.perf_counter()
            r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            secs = time.perf_counter() - t0
            if r.returncode != 0:
                sys.stdout.write(r.stdout)
                sys.exit("bench: %s failed (exit %d)" % (cmd[0], r.returncode))
            if best is None or secs < best[0]:
                best = (secs, r.stdout)
        secs, text = best
        head = next((MLC_HEAD.match(l) for l in text.splitlines() if MLC_HEAD.match(l)), None)
        m = next((MLC_PASS.match(l) for l in text.splitlines() if MLC_PASS.match(l)), None)
        if not head or not m:
            sys.exit("bench: no header or PASS line in the output of %s" % " ".join(cmd))
        params = {"variant": head.group(1)}
        for kv in head.group(2).split():
            k, v = kv.split("=", 1)
            params[k] = int(v) if v.isdigit() else v
        steps = int(m.group(2)) + int(m.group(3))
        print("bench:   %d cycles in %.3f s: %.0f cycles/s" % (steps, secs, steps / secs), flush=True)
        out.append({"block": "mlc", "params": params, "what": mode, "test": "random", "cycles": steps,
                    "seconds": secs, "cycles_per_s": steps / secs, "seed": seed, "runs": max(1, repeat),
                    "timing": "whole run (host driver, faults, scoreboard, link checks), fastest of %d" % max(1, repeat)})
    return out + mlc_step_speed(cycles, seed, repeat)


def mlc_step_speed(cycles, seed, repeat=3):
    """mlc_bench --mode lockstep --speed: the run's stimulus (every step's inputs of the two model ends and
    of the RTL pair) replayed into fresh models and a fresh RTL pair, the step calls alone timed (two model
    ends per step are one step), as the crossbar's and the VC switch's step-call figures; records "model" and
    "rtl" of test "random-replay", each the fastest of `repeat` runs."""
    cmd = [MLC_BENCH, "--mode", "lockstep", "--cycles", str(cycles), "--seed", str(seed), "--quiet", "--speed"]
    print("bench: " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd)
          + " (best of %d)" % repeat, flush=True)
    best, steps, params = {"model": 0.0, "rtl": 0.0}, None, None
    for _ in range(max(1, repeat)):
        r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.stdout.write(r.stdout)
            sys.exit("bench: %s failed (exit %d)" % (cmd[0], r.returncode))
        lines = r.stdout.splitlines()
        head = next((MLC_HEAD.match(l) for l in lines if MLC_HEAD.match(l)), None)
        m = next((MLC_SPEED.match(l) for l in lines if MLC_SPEED.match(l)), None)
        if not head or not m:
            sys.stdout.write(r.stdout)
            sys.exit("bench: no header or speed line in the output of %s" % " ".join(cmd))
        params = {"variant": head.group(1)}
        for kv in head.group(2).split():
            k, v = kv.split("=", 1)
            params[k] = int(v) if v.isdigit() else v
        steps = int(m.group(1))
        best["model"] = max(best["model"], float(m.group(2)))
        best["rtl"] = max(best["rtl"], float(m.group(3)))
    print("bench:   %d steps, step calls only: model %.0f steps/s, rtl %.0f steps/s, ratio %.2f"
          % (steps, best["model"], best["rtl"], best["model"] / best["rtl"] if best["rtl"] else 0), flush=True)
    return [{"block": "mlc", "params": params, "what": w, "test": "random-replay", "cycles": steps,
             "seconds": steps / best[w] if best[w] else 0.0, "cycles_per_s": best[w], "seed": seed,
             "runs": max(1, repeat), "timing": "step calls only (replayed stimulus)"} for w in ("model", "rtl")]


def mlc_perf(seed, reps):
    """tb/mlc/mlc_perf on the C model: ping-pong / ping-ping / single-packet / message-based points and the
    one-way efficiency; records of block mlc: one per (test, mode) series with its points, one per efficiency
    parameter set, and the model speed of the whole sweep."""
    with tempfile.TemporaryDirectory() as td:
        j = os.path.join(td, "mlc_perf.json")
        cmd = [MLC_PERF, "--seed", str(seed), "--reps", str(reps), "--json", j]
        print("bench: " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd), flush=True)
        r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        sys.stdout.write(r.stdout)
        if r.returncode != 0:
            sys.exit("bench: %s failed (exit %d)" % (cmd[0], r.returncode))
        with open(j) as f:
            d = json.load(f)
    base = dict(d["params"])
    out = []
    series = []
    for p in d["points"]:
        key = (p["test"], p["mode"])
        if key not in series:
            series.append(key)
    for test, mode in series:
        pts = [p for p in d["points"] if (p["test"], p["mode"]) == (test, mode)]
        steps = sum(p["steps"] for p in pts)
        secs = sum(p["seconds"] for p in pts)
        params = dict(base, cfg=pts[0]["cfg"], pad_units=pts[0]["pad_units"])
        out.append({"block": "mlc", "params": params, "what": test, "test": mode, "cycles": steps,
                    "seconds": secs, "cycles_per_s": steps / secs if secs else 0.0, "seed": d["seed"],
                    "reps": d["reps"], "timing": "mlc_perf, C model pair with host drivers",
                    "points": [{k: p[k] for k in ("size", "reps", "oneway_steps_mean", "oneway_steps_min",
                                                  "rt_steps_mean", "rt_steps_min", "rt_steps_max",
                                                  "throughput_frac", "oneway_frac", "paper_rt_us",
                                                  "paper_oneway_us", "paper_mbytes_s")} for p in pts]})
    for e in d["efficiency"]:
        params = dict(base, LINK_W=e["LINK_W"], TURN=e["TURN"], LINK_DELAY=e["LINK_DELAY"])
        out.append({"block": "mlc", "params": params, "what": "efficiency", "test": "one-way",
                    "cycles": e["steps"], "seconds": e["seconds"],
                    "cycles_per_s": e["steps"] / e["seconds"] if e["seconds"] else 0.0, "seed": d["seed"],
                    "timing": "mlc_perf, C model pair with host drivers",
                    "periods": e["periods"], "window_steps": e["window_steps"], "period_steps": e["period_steps"],
                    "units": e["units"], "host_bytes": e["host_bytes"], "F15": e["F15"], "F0": e["F0"], "G": e["G"],
                    "efficiency": e["measured"], "efficiency_host": e["measured_host"], "formula": e["formula"],
                    "other_end_null_frames": e["other_end_null_frames"],
                    "other_end_data_frames": e["other_end_data_frames"]})
    ms = d["model_speed"]
    out.append({"block": "mlc", "params": base, "what": "model", "test": "perf-sweep", "cycles": ms["steps"],
                "seconds": ms["seconds"], "cycles_per_s": ms["steps_per_s"], "seed": d["seed"],
                "timing": "mlc_perf: the whole sweep (two models, link model, two host drivers, message making and checks)"})
    return out


def mlc_records(a):
    """Every MLC record: mlc_perf's measurements, then mlc_bench's model/RTL/lockstep speed."""
    subprocess.run(["make", "-s", os.path.relpath(MLC_PERF, ROOT)], cwd=ROOT, check=True)
    if not os.path.exists(MLC_BENCH):
        sys.exit("bench: %s is missing; run `make bench` (it builds it)" % os.path.relpath(MLC_BENCH, ROOT))
    return mlc_perf(a.seed, a.mlc_reps) + mlc_speed(a.mlc_cycles, a.seed, a.mlc_repeat)

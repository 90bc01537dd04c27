#!/usr/bin/env python3
"""sanfab benchmarks (make bench): speed of the crossbar's C model, Verilated RTL and lockstep run on
the same saturating random traffic, the crossbar's latency and permutation throughput, the VC
switch's model/RTL/lockstep speed, the Maestro Link Controller's measurements (tb/mlc/mlc_perf: ping-pong,
ping-ping, Network Burst vs single-packet, pipelined vs message-based, one-way efficiency; docs/mlc-perf.md
with docs/mlc-*.png) and its model/RTL/lockstep speed, the network simulator's speed (sanfab-sim on 16/64-switch random networks
and the 512-host 2D torus, records of block "net"), the RTL network against the C network on the same run (records of block
"rtlnet", tb/net/net_bench; --threads 2 tried), and the routing library's figures. Writes reports/bench.json (DESIGN.md's record format) and docs/bench.md.

  scripts/bench.py [--cycles N] [--seed N] [--skip-routing] [--skip-net] [--net-repeat N]
                   [--only net|vcnet|clos|vcsw|mlc|rtlnet [--runs RUN,...]]
  scripts/bench.py --page

--page measures nothing: it rewrites docs/bench.md, and docs/mlc-perf.md with its plots (docs/mlc-*.png),
from the records of reports/bench.json alone (e.g. after a change to the pages' text).

--only BLOCK runs that block's points alone and replaces only its records of reports/bench.json (the other
blocks' records are kept as they are), e.g. while another block's bench does not build; with --only rtlnet,
--runs RUN,... measures only those network runs again (e.g. v16-dl-uniform) and keeps the others' records.
"""
import json
import os
import platform
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sanfab_cli import ArgumentParser, int_range  # noqa: E402

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


def clos_md(records):
    cl = [r for r in records if r.get("block") == "clos"]
    if not cl:
        return []
    L = ["## Network simulator, [Geoffray and Hoefler 2008](references.md#geoffray-hoefler-2008)'s 512-node Clos (`sanfab-sim`, crossbar network)", "",
         "`sanfab-sim --time`, one process, fastest of %d runs (shared machine): 48 crossbars of 32 ports (cmodel/xbar.c), "
         "16 routes a pair, the Myri-10G timing set, 4 KB uniform messages far past saturation." % cl[0].get("runs", 1), "",
         "| policy | offered (flits/ns/switch) | accepted (flits/host/cycle) | cycles | cycles/s | flit-hops/s |",
         "|---|---|---|---|---|---|"]
    for r in cl:
        L.append("| %s | %g | %.4f%s | %d | %.0f | %.2f M |" % (r["params"]["policy"], r["params"]["load"],
                 r["accepted_flits_cycle_host"], " (saturated)" if r["saturated"] else "", r["cycles"], r["cycles_per_s"],
                 r["flit_hops_per_s"] / 1e6))
    best = max(r["flit_hops_per_s"] for r in cl if r["saturated"]) if any(r["saturated"] for r in cl) else 0
    L += ["", "Target (issue 24): at least 10 M flit-hops/s on the 512-node Clos at saturation, one core — measured "
          "%.2f M at best (%s)." % (best / 1e6, "met" if best >= 10e6 else "**missed**"), ""]
    return L


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


def rtlnet_md(records):
    allr = [r for r in records if r.get("block") == "rtlnet"]
    if not allr:
        return []
    L = ["## RTL networks (`tb/net/net_bench`)", ""]
    for run in dict.fromkeys(rtlnet_run(r) for r in allr):
        rn = [r for r in allr if rtlnet_run(r) == run]
        p = rn[0]["params"]
        vc = p.get("kind") == "vcsw"
        L.append("The network bench on mk/net.mk's `%s` (%d random switches of 8 ports, %d hosts, %s routes, uniform %s at "
                 "%g %s, %d traffic cycles and the drain, seed %d), whole runs, fastest of %d (shared 2-core machine; "
                 "docs/network.md \"RTL networks\")." % (
                     run, p["switches"], p["hosts"], p["routes"], "128-flit packets" if vc else "512-byte messages",
                     p["load"], "flits/host/cycle" if vc else "flits/ns/switch", p["traffic_cycles"], p["seed"],
                     rn[0].get("runs", 1)))
        L.append("")
        L.append("| mode | cycles | seconds | cycles/s |")
        L.append("|---|---|---|---|")
        for r in rn:
            L.append("| %s | %d | %.2f | %.0f |" % (r["mode"], r["cycles"], r["seconds"], r["cycles_per_s"]))
        L.append("")
        m_all = next((r for r in rn if r["mode"].startswith("C network, every")), None)
        m_skip = next((r for r in rn if "skipped" in r["mode"]), None)
        r1 = next((r for r in rn if r["mode"] == "Verilated network (1 thread)"), None)
        r2 = next((r for r in rn if "--threads 2" in r["mode"]), None)
        if m_all and r1:
            ra = m_all["cycles_per_s"] / r1["cycles_per_s"]
            rs = m_skip["cycles_per_s"] / r1["cycles_per_s"] if m_skip else 0
            want = 10 if vc else 20
            L.append("Target (issue %s): the C network at least %d times faster than the Verilated network on the same "
                     "run -- measured %.1fx stepping every switch, %.1fx skipping quiet switches (%s)."
                     % ("23" if vc else "11", want, ra, rs, "met" if max(ra, rs) >= want else "**missed**"))
            L.append("")
        if r1 and r2:
            L.append("Verilator `--threads 2` on the 16-switch network: %.0f against %.0f cycles/s with one thread (%s)."
                     % (r2["cycles_per_s"], r1["cycles_per_s"],
                        "pays, %.2fx" % (r2["cycles_per_s"] / r1["cycles_per_s"]) if r2["cycles_per_s"] > r1["cycles_per_s"]
                        else "does not pay on this machine, %.2fx" % (r2["cycles_per_s"] / r1["cycles_per_s"])))
            L.append("")
    return L

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



# ------------------------------------------------------------------ MLC (docs/mlc-perf.md)
MLC_PERF = os.path.join(ROOT, "build", "mlc", "perf", "mlc_perf")
MLC_LOCKSTEP = os.path.join(ROOT, "build", "mlc", "d", "mlc_lockstep")
MLC_HEAD = re.compile(r"^mlc_lockstep: variant (\S+) (.*) cfg=")
MLC_PASS = re.compile(r"^PASS mlc_lockstep variant (\S+): (\d+) cycles \(\+(\d+) drain\)")
MLC_SPEED = re.compile(r"^speed: (\d+) steps: model ([0-9.]+) steps/s, rtl ([0-9.]+) steps/s, ratio ([0-9.]+) "
                       r"\(step calls only")
MLC_STEP_NS = 20.0      # the paper's MLC runs at 50 MHz (Yamagiwa et al. 2000, sec. 3.2)
MLC_MBYTES = 25.0       # its 4-bit link: 200 Mbit/s = 25 MB/s
# The paper's numbers for Figs. 8-11. The figures themselves are not in the seed text
# (../shared/seeds/004_a2591f7fa177cbdb.txt): only what the text says about them, quoted here with
# where it is; docs/mlc-perf.md lists them and plots them beside ours.
MLC_PAPER = {
    "pingpong_max_mbytes": (20.0, "sec. 4.1.1: 'The maximal throughput is 20 Mbytes/sec, (i.e. 160 Mbps) ... up to "
                                  "80% of 200-Mbps IEEE1394PHY's peak performance' (Fig. 9)"),
    "pingping_mbytes": (10.0, "sec. 4.1.1: 'PingPing communication achieved 10-Mbyte/sec throughput, equal to 50% "
                              "of the Ping-Pong performance' (the worse of the two NIs)"),
    "rdma_1500_frac": (0.68, "sec. 5.3: a 1500-byte remote-DMA transfer: 'Maestro's throughput is ... 68% of its "
                             "peak performance'"),
    "nisw_16_us": (1.78, "Table 2: Maestro (16 bytes), NI-SW latency 1.78 usec (sender NI to switch box, one link)"),
    "arb_spread_us": (1.12, "sec. 4.1.1 (Fig. 8): t1 - t4, the maximal minus the minimal link-arbitration time, "
                            "1.12 usec"),
    "sp64_sp16_thr": (1.6, "sec. 4.2: 'a 64-byte packet is transferred at 1.6 times higher throughput than a "
                           "16-byte packet' (Fig. 10)"),
    "sp64_sp16_minlat": (3.0, "sec. 4.2: '... while its minimal latency is three times larger' (Fig. 10)"),
    "fig11_max_diff_mbytes": (8.0, "sec. 4.3: 'the pipelined transfer performs at maximum 8 Mbytes/sec faster than "
                                   "the conventional transfer' (Fig. 11, 16 B .. 2 KB)"),
}


def mlc_speed(cycles, seed, repeat=3):
    """mlc_lockstep (parameter set d) in its three modes, model alone, RTL alone and lockstep, on the same
    random traffic (host driver, corrupted nibbles, CTL faults, scoreboard and link checks in every mode):
    one record each, the whole run timed (fastest of `repeat`, the machine is shared)."""
    import time
    out = []
    for mode in ("model", "rtl", "lockstep"):
        cmd = [MLC_LOCKSTEP, "--mode", mode, "--cycles", str(cycles), "--seed", str(seed), "--quiet"]
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
    """mlc_lockstep --mode lockstep --speed: the run's stimulus (every step's inputs of the two model ends and
    of the RTL pair) replayed into fresh models and a fresh RTL pair, the step calls alone timed (two model
    ends per step are one step), as the crossbar's and the VC switch's step-call figures; records "model" and
    "rtl" of test "random-replay", each the fastest of `repeat` runs."""
    cmd = [MLC_LOCKSTEP, "--mode", "lockstep", "--cycles", str(cycles), "--seed", str(seed), "--quiet", "--speed"]
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
    """Every MLC record: mlc_perf's measurements, then mlc_lockstep's model/RTL/lockstep speed."""
    subprocess.run(["make", "-s", os.path.relpath(MLC_PERF, ROOT)], cwd=ROOT, check=True)
    if not os.path.exists(MLC_LOCKSTEP):
        sys.exit("bench: %s is missing; run `make bench` (it builds it)" % os.path.relpath(MLC_LOCKSTEP, ROOT))
    return mlc_perf(a.seed, a.mlc_reps) + mlc_speed(a.mlc_cycles, a.seed, a.mlc_repeat)


def mlc_series(records, what, mode):
    """The points of one MLC (what, mode) series, by size; [] if absent."""
    r = next((r for r in records if r.get("block") == "mlc" and r["what"] == what and r.get("test") == mode), None)
    return r["points"] if r else []


def mlc_step_md(m):
    """The MLC's step-call speed (mlc_lockstep --speed) and which figure the 5x target is judged on (lines, for
    docs/bench.md and docs/mlc-perf.md)."""
    st = {r["what"]: r for r in m if r.get("test") == "random-replay"}
    wr = {r["what"]: r for r in m if r.get("test") == "random"}
    if "model" not in st or "rtl" not in st:
        return []
    ratio = st["model"]["cycles_per_s"] / st["rtl"]["cycles_per_s"]
    L = ["`mlc_lockstep --mode lockstep --speed`: the same run's stimulus (every step's inputs of the two model ends and",
         "of the RTL pair) replayed into fresh models and a fresh RTL pair, only the step calls timed (two model ends per",
         "step count as one step, as the RTL pair's one edge), every 64th step's outputs checked against the run's;",
         "fastest of %d each:" % st["model"].get("runs", 1), "",
         "| what | steps | seconds | steps/s | vs RTL |", "|---|---|---|---|---|"]
    for w in ("model", "rtl"):
        r = st[w]
        L.append("| %s (step calls only) | %d | %.3f | %.0f | %.2fx |" % (w, r["cycles"], r["seconds"], r["cycles_per_s"],
                                                                      r["cycles_per_s"] / st["rtl"]["cycles_per_s"]))
    L.append("")
    L.append("Target: the model at least 5x faster than the Verilated RTL, judged on the step calls (as for the crossbar")
    L.append("and the VC switch) — measured **%.2fx** (%s)." % (ratio, "met" if ratio >= 5 else "not met"))
    if "model" in wr and "rtl" in wr:
        wratio = wr["model"]["cycles_per_s"] / wr["rtl"]["cycles_per_s"]
        L.append("The whole runs above (the bench's host drivers, stimulus, link models and checks included, which dominate")
        L.append("the model mode) give %.2fx: %.0f against %.0f cycles/s." % (wratio, wr["model"]["cycles_per_s"],
                                                                              wr["rtl"]["cycles_per_s"]))
    L.append("")
    return L


def mlc_bench_md(records):
    """The MLC section of docs/bench.md (lines)."""
    m = [r for r in records if r.get("block") == "mlc"]
    if not m:
        return []
    L = ["## Maestro Link Controller: C model, Verilated RTL and lockstep", ""]
    sp = {r["what"]: r for r in m if r.get("test") == "random"}
    if sp:
        p = next(iter(sp.values()))["params"]
        L.append("`mlc_lockstep --mode model|rtl|lockstep` on the %s set (%s), the same random traffic in each mode"
                 % (p.get("variant", "?"), ", ".join("%s=%s" % kv for kv in p.items() if kv[0] != "variant")))
        L.append("(two ends through the link model, host drivers, corrupted nibbles and CTL faults, scoreboard and link")
        L.append("checks in every mode); the whole run timed, fastest of %d:" % next(iter(sp.values())).get("runs", 1))
        L.append("")
        L.append("| what | cycles | seconds | cycles/s | vs RTL |")
        L.append("|---|---|---|---|---|")
        rtl = sp.get("rtl")
        for w in ("model", "rtl", "lockstep"):
            if w in sp:
                r = sp[w]
                L.append("| %s | %d | %.3f | %.0f | %.2fx |" % (w, r["cycles"], r["seconds"], r["cycles_per_s"],
                                                            r["cycles_per_s"] / rtl["cycles_per_s"] if rtl else 0))
        L.append("")
    L += mlc_step_md(m)
    sw = next((r for r in m if r["what"] == "model" and r.get("test") == "perf-sweep"), None)
    if sw:
        L.append("`mlc_perf` (the measurements of mlc-perf.md, C model only): %d pair steps in %.2f s, %.0f steps/s."
                 % (sw["cycles"], sw["seconds"], sw["cycles_per_s"]))
        L.append("")
    eff = next((r for r in m if r["what"] == "efficiency" and r["params"]["LINK_W"] == 4 and r["params"]["TURN"] == 1
                and r["params"]["LINK_DELAY"] == 0), None)
    pp = mlc_series(records, "pingpong", "burst")
    if eff:
        L.append("Long messages, Network Burst, one direction (the other end sending null frames), defaults: "
                 "%.2f %% of the raw link rate measured (%d units in %d steps), docs/mlc.md's formula %.2f %% — target "
                 "≥ 95 %% %s." % (100 * eff["efficiency"], eff["units"], eff["window_steps"], 100 * eff["formula"],
                                  "met" if eff["efficiency"] >= 0.95 else "**missed**"))
    if pp:
        big = pp[-1]
        L.append("Ping-pong of %d-byte messages: %.2f %% of the link (%.2f MB/s at the paper's 50 MHz)."
                 % (big["size"], 100 * big["throughput_frac"], big["paper_mbytes_s"]))
    L.append("Ping-pong, ping-ping, Network Burst against single-packet transfer, pipelined against message-based")
    L.append("transfer, beside the paper's Figs. 9-11: [mlc-perf.md](mlc-perf.md).")
    L.append("")
    return L


def mlc_plots(records):
    """docs/mlc-fig9.png, mlc-fig10.png, mlc-fig11.png, mlc-efficiency.png from the MLC records (matplotlib);
    the file names written, [] if matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench: matplotlib missing (make deps): no MLC plots")
        return []
    meta = {"Software": None}
    out = []
    docs = os.path.join(ROOT, "docs")

    def sizes_axis(ax):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("message size (bytes, headers included)")
        ax.grid(True, which="both", alpha=0.3)

    # Fig. 9
    pp, pi = mlc_series(records, "pingpong", "burst"), mlc_series(records, "pingping", "burst")
    if pp:
        fig, ax = plt.subplots(figsize=(7, 4.2))
        ax.plot([p["size"] for p in pp], [100 * p["throughput_frac"] for p in pp], "o-", label="ours: ping-pong")
        ax.plot([p["size"] for p in pi], [100 * p["throughput_frac"] for p in pi], "s-", label="ours: ping-ping (worse node)")
        ax.axhline(100 * MLC_PAPER["pingpong_max_mbytes"][0] / MLC_MBYTES, color="C0", ls="--",
                   label="paper: ping-pong maximum, 20 MB/s")
        ax.axhline(100 * MLC_PAPER["pingping_mbytes"][0] / MLC_MBYTES, color="C1", ls="--",
                   label="paper: ping-ping, 10 MB/s")
        ax.plot([1500], [100 * MLC_PAPER["rdma_1500_frac"][0]], "k*", ms=12, label="paper: 1500-byte remote DMA, 68 %")
        sizes_axis(ax)
        ax.set_ylabel("throughput, % of the raw link rate")
        sec = ax.secondary_yaxis("right", functions=(lambda y: y * MLC_MBYTES / 100, lambda y: y * 100 / MLC_MBYTES))
        sec.set_ylabel("MB/s at 50 MHz, 4-bit link")
        ax.set_ylim(0, 100)
        ax.set_title("MLC ping-pong and ping-ping (Fig. 9): message + 16-byte acknowledgement")
        ax.legend(fontsize=8, loc="lower right")
        fig.tight_layout()
        fn = os.path.join(docs, "mlc-fig9.png")
        fig.savefig(fn, dpi=80, metadata=meta)
        plt.close(fig)
        out.append(fn)

    # Fig. 10
    modes = [("burst", "Network Burst", "C0"), ("sp64", "single 64 B", "C1"), ("sp32", "single 32 B", "C2"),
             ("sp16", "single 16 B", "C3")]
    if mlc_series(records, "pingpong", "sp16"):
        fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 4.2), gridspec_kw={"width_ratios": [3, 2]})
        for mode, label, col in modes:
            s = [p for p in mlc_series(records, "pingpong", mode) if p["size"] <= 8192]
            ax.plot([p["size"] for p in s], [100 * p["throughput_frac"] for p in s], "o-", color=col, label=label)
            if mode != "burst":
                s = mlc_series(records, "pingpong", mode + "-padded")
                ax.plot([p["size"] for p in s], [100 * p["throughput_frac"] for p in s], "x:", color=col,
                        label=label + ", padded")
        sizes_axis(ax)
        ax.set_ylabel("ping-pong throughput, % of the link")
        ax.set_ylim(0, 100)
        ax.legend(fontsize=7, loc="upper left")
        ax.set_title("Network Burst vs single-packet (Fig. 10)")
        r = mlc_fig10_ratios(records)
        labels = ["throughput\n64 B / 16 B", "min. latency\n64 B / 16 B"]
        x = range(len(labels))
        bx.bar([i - 0.27 for i in x], [r["thr"], r["lat"]], 0.27, label="ours (MLC: short remainder)")
        bx.bar([i for i in x], [r["thr_pad"], r["lat_pad"]], 0.27, label="ours, padded packets")
        bx.bar([i + 0.27 for i in x], [MLC_PAPER["sp64_sp16_thr"][0], MLC_PAPER["sp64_sp16_minlat"][0]], 0.27,
               label="paper (text)")
        bx.set_xticks(list(x))
        bx.set_xticklabels(labels)
        bx.set_ylabel("ratio")
        bx.legend(fontsize=7)
        bx.grid(True, axis="y", alpha=0.3)
        fig.tight_layout()
        fn = os.path.join(docs, "mlc-fig10.png")
        fig.savefig(fn, dpi=80, metadata=meta)
        plt.close(fig)
        out.append(fn)

    # Fig. 11
    mb = mlc_series(records, "pingpong", "burst-msg")
    if mb:
        pl = [p for p in pp if p["size"] <= mb[-1]["size"]]
        fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 4.2))
        ax.plot([p["size"] for p in pl], [p["paper_rt_us"] for p in pl], "o-", label="pipelined")
        ax.plot([p["size"] for p in mb], [p["paper_rt_us"] for p in mb], "s-", label="message-based")
        sizes_axis(ax)
        ax.set_yscale("log")
        ax.set_ylabel("remote-DMA latency (us at 50 MHz)")
        ax.set_title("Pipelined vs message-based (Fig. 11): latency")
        ax.legend(fontsize=8)
        bx.plot([p["size"] for p in pl], [p["paper_mbytes_s"] for p in pl], "o-", label="pipelined")
        bx.plot([p["size"] for p in mb], [p["paper_mbytes_s"] for p in mb], "s-", label="message-based")
        bx.plot([p["size"] for p in mb], [a["paper_mbytes_s"] - b["paper_mbytes_s"] for a, b in zip(pl, mb)], "^-",
                label="difference")
        bx.axhline(MLC_PAPER["fig11_max_diff_mbytes"][0], color="k", ls="--", label="paper: largest difference, 8 MB/s")
        sizes_axis(bx)
        bx.set_ylabel("throughput (MB/s at 50 MHz, 4-bit link)")
        bx.set_title("throughput")
        bx.legend(fontsize=8)
        fig.tight_layout()
        fn = os.path.join(docs, "mlc-fig11.png")
        fig.savefig(fn, dpi=80, metadata=meta)
        plt.close(fig)
        out.append(fn)

    # efficiency
    ef = [r for r in records if r.get("block") == "mlc" and r["what"] == "efficiency"]
    if ef:
        fig, ax = plt.subplots(figsize=(8, 3.8))
        lab = ["W%d T%d D%d" % (r["params"]["LINK_W"], r["params"]["TURN"], r["params"]["LINK_DELAY"]) for r in ef]
        x = range(len(ef))
        ax.bar([i - 0.2 for i in x], [100 * r["efficiency"] for r in ef], 0.4, label="measured (units accepted)")
        ax.bar([i + 0.2 for i in x], [100 * r["formula"] for r in ef], 0.4, label="docs/mlc.md formula")
        ax.axhline(95, color="k", ls="--", label="target 95 %")
        ax.set_xticks(list(x))
        ax.set_xticklabels(lab, fontsize=8)
        ax.set_ylim(90, 97)
        ax.set_ylabel("% of the raw link rate")
        ax.set_title("One-way long-message efficiency (W LINK_W, T TURN, D LINK_DELAY)")
        ax.legend(fontsize=8, loc="lower left")
        fig.tight_layout()
        fn = os.path.join(docs, "mlc-efficiency.png")
        fig.savefig(fn, dpi=80, metadata=meta)
        plt.close(fig)
        out.append(fn)
    return out


def mlc_fig10_ratios(records):
    """Fig. 10's two ratios, ours: 64-byte over 16-byte single-packet throughput (largest common size) and
    minimal round-trip latency (16-byte message), as the MLC sends them and with padded packets."""
    def at(mode, size):
        return next(p for p in mlc_series(records, "pingpong", mode) if p["size"] == size)
    big = max(p["size"] for p in mlc_series(records, "pingpong", "sp16"))
    return {"size": big,
            "thr": at("sp64", big)["throughput_frac"] / at("sp16", big)["throughput_frac"],
            "thr_pad": at("sp64-padded", big)["throughput_frac"] / at("sp16-padded", big)["throughput_frac"],
            "lat": at("sp64", 16)["rt_steps_mean"] / at("sp16", 16)["rt_steps_mean"],
            "lat_pad": at("sp64-padded", 16)["rt_steps_mean"] / at("sp16-padded", 16)["rt_steps_mean"],
            "lat_ow": at("sp64", 16)["oneway_steps_mean"] / at("sp16", 16)["oneway_steps_mean"],
            "lat_ow_pad": at("sp64-padded", 16)["oneway_steps_mean"] / at("sp16-padded", 16)["oneway_steps_mean"]}


def mlc_perf_md(records, pngs):
    """docs/mlc-perf.md: the MLC's measurements beside the paper's numbers (Yamagiwa et al. 2000, Figs. 8-11), with the
    plots and the analysis; every number of ours comes from the records."""
    m = [r for r in records if r.get("block") == "mlc"]
    if not m:
        return
    pp, pi = mlc_series(records, "pingpong", "burst"), mlc_series(records, "pingping", "burst")
    mb = mlc_series(records, "pingpong", "burst-msg")
    ser = next(r for r in m if r["what"] == "pingpong" and r["test"] == "burst")
    P = ser["params"]
    lw, turn, ld = P["LINK_W"], P["TURN"], P["LINK_DELAY"]
    G = 2 + ld + turn

    def F(n, w=lw):
        return (8 + 32 * n) * 4 // w

    def pct(x):
        return "%.2f %%" % (100 * x)

    names = {os.path.basename(p) for p in pngs} | {f for f in os.listdir(os.path.join(ROOT, "docs"))
                                                   if f.startswith("mlc-") and f.endswith(".png")}
    L = []
    A = L.append
    A("# Maestro Link Controller: performance beside the paper ([Yamagiwa et al. 2000](references.md#yamagiwa-et-al-2000), Figs. 8-11)")
    A("")
    A("Generated by `make bench` (`scripts/bench.py`, or `scripts/bench.py --only mlc`) from the records of block `mlc` in")
    A("`reports/bench.json`; do not edit by hand. The measurements are made by `tb/mlc/mlc_perf.c` (`--help`) on the C")
    A("model, which the RTL matches cycle by cycle (`tb/mlc/mlc_lockstep.c`, docs/verification.md); the contract is")
    A("[mlc.md](mlc.md).")
    A("")
    A("## How it is measured")
    A("")
    A("Two model MLCs, the master and the slave, joined by the link model, each with the host driver `sw/mlc_host.c`")
    A("(FIFO flow control: read a status register, then move at most that many bytes), parameters %s, both ends"
      % ", ".join("%s %s" % kv for kv in P.items() if kv[0] not in ("cfg", "pad_units")))
    A("configured alike (register 16). Seed %d, %d round trips per point up to 1 KB and fewer above (at least 3;"
      % (ser["seed"], ser["reps"]))
    A("each point's count is in `reports/bench.json`); before each one the sender waits a random 0..63 steps, so the")
    A("message meets the null-frame exchange at a random phase. Every message is checked on arrival.")
    A("")
    A("- **Message size** *S*: the whole message as it sits in the FIFO, headers included (docs/mlc.md, Messages):")
    A("  16 B is a Type0 message, *S* ≥ 32 B a Type1 message of *S*/16 units. All traffic on channel 0.")
    A("- **Round trip** (the paper's *remote-DMA latency*, sec. 4): from the step of the sender host's first write to")
    A("  the step of its last read of the receiver's 16-byte Type0 acknowledgement, both counted; the receiver's host")
    A("  writes the acknowledgement as soon as it has read the whole message. **One-way**: from the first write to the")
    A("  receiver host's last read of the message.")
    A("- **Throughput** = *S* / round trip, as a fraction of the raw link rate (`LINK_W` bits per step). **Ping-ping**:")
    A("  both nodes send *S* at once and acknowledge each other; the worse node's round trip counts (as in the paper).")
    A("- **The paper's units**: its MLC runs at 50 MHz on a 4-bit link (sec. 3.2, Table 1), so 1 step = 20 ns and")
    A("  the raw rate is 200 Mbit/s = 25 MB/s (MB = 10^6 bytes, as the paper's 20 MB/s = 160 Mbit/s).")
    A("- **What differs from the paper's set-up.** The paper measures host to host through PCI DMA, the NI's")
    A("  PowerPC, and the switch box (two links and the SB's DMA in every path, sec. 4); here two MLCs face each")
    A("  other and each host moves one 16-bit word per step in each direction (800 Mbit/s at 50 MHz, four times the")
    A("  link) and reacts in the next step. So our absolute throughputs are higher and our latencies shorter; what")
    A("  carries over is the link protocol's share, hence the comparison of orderings and ratios below.")
    A("")
    A("## The paper's numbers")
    A("")
    A("Figs. 9, 10 and 11 are not in the seed text (`../shared/seeds/004_a2591f7fa177cbdb.txt`): only their captions")
    A("and what the text says about them. No curve could be read off; these are the points the text gives, as")
    A("stated (MB/s converted to a fraction of 25 MB/s where we plot them):")
    A("")
    A("| quantity | paper | where in the seed text |")
    A("|---|---|---|")
    rows = [("ping-pong, maximum throughput (Fig. 9)", "20 MB/s = 80 %", "pingpong_max_mbytes"),
            ("ping-ping throughput, worse NI (Fig. 9 text)", "10 MB/s = 40 % (50 % of ping-pong)", "pingping_mbytes"),
            ("1500-byte remote-DMA throughput", "68 % of the peak", "rdma_1500_frac"),
            ("one link, 16 bytes, NI to switch", "1.78 us", "nisw_16_us"),
            ("link-arbitration spread t1 - t4 (Fig. 8)", "1.12 us", "arb_spread_us"),
            ("single packet 64 B / 16 B, throughput (Fig. 10)", "1.6x", "sp64_sp16_thr"),
            ("single packet 64 B / 16 B, minimal latency (Fig. 10)", "3x", "sp64_sp16_minlat"),
            ("pipelined minus message-based, largest (Fig. 11)", "8 MB/s", "fig11_max_diff_mbytes")]
    for q, v, k in rows:
        A("| %s | %s | %s |" % (q, v, MLC_PAPER[k][1].replace("|", "/")))
    A("")
    A("Besides these, the text gives orderings: Network Burst beats single-packet transfer \"in any cases\", larger")
    A("single packets give higher throughput (sec. 4.2); pipelined and message-based transfer differ little at 16 B,")
    A("and pipelined has the lower latency and higher throughput as the message grows (sec. 4.3).")
    A("")

    # ---------------------------------------------------------------- Fig. 9
    A("## Ping-pong and ping-ping (Fig. 9)")
    A("")
    A("Network Burst, pipelined (configuration 0).")
    A("")
    A("| size (B) | one-way (steps) | round trip (steps) | ping-pong, % link | MB/s at 50 MHz | ping-ping round trip | ping-ping, % link | ping-ping / ping-pong |")
    A("|---|---|---|---|---|---|---|---|")
    pim = {p["size"]: p for p in pi}
    for p in pp:
        q = pim.get(p["size"])
        A("| %d | %.1f | %.1f | %.2f | %.2f | %s | %s | %s |" % (
            p["size"], p["oneway_steps_mean"], p["rt_steps_mean"], 100 * p["throughput_frac"], p["paper_mbytes_s"],
            "%.1f" % q["rt_steps_mean"] if q else "", "%.2f" % (100 * q["throughput_frac"]) if q else "",
            "%.3f" % (q["throughput_frac"] / p["throughput_frac"]) if q else ""))
    A("")
    if "mlc-fig9.png" in names:
        A("![ping-pong and ping-ping throughput against message size, with the paper's points](mlc-fig9.png)")
        A("")
    big, big_i = pp[-1], pi[-1] if pi else None
    mono = all(b["throughput_frac"] >= a["throughput_frac"] - 0.005 for a, b in zip(pp, pp[1:]))
    above = all(pim[p["size"]]["throughput_frac"] < p["throughput_frac"] for p in pp if p["size"] in pim)
    ratio = big_i["throughput_frac"] / big["throughput_frac"] if big_i else 0
    ratio_same = [pim[p["size"]]["throughput_frac"] / p["throughput_frac"] for p in pp if p["size"] in pim]
    near1500 = [p for p in pp if p["size"] in (1024, 2048)]
    fig9_ok = mono and above and 0.4 <= ratio <= 0.6
    A("**Ordering.** The paper: ping-pong throughput rises with the message size to 20 MB/s (80 %); ping-ping reaches")
    A("half of it. Ours: ping-pong rises %s with the size, to %s (%.2f MB/s) at %d B; ping-ping is below ping-pong at"
      % ("monotonically" if mono else "**not monotonically**", pct(big["throughput_frac"]), big["paper_mbytes_s"],
         big["size"]))
    A("%s size, and their ratio goes from %.3f at %d B to %.3f at %d B — the paper's one half. **%s.**"
      % ("every" if above else "**not every**", ratio_same[0], pp[0]["size"], ratio, big["size"],
         "Reproduced" if fig9_ok else "Not reproduced"))
    A("")
    A("Why half: the link is half duplex and turns round after every frame, so with both ends sending, each gets every")
    A("other frame (fair link arbitration, docs/mlc.md rule 3): per period one full frame each way, `F(15)` + `F(15)` +")
    A("2`G` = %d steps for 480 nibbles each way, against `F(15)` + `F(0)` + 2`G` = %d steps one way: %.3f of the"
      % (2 * F(15) + 2 * G, F(15) + F(0) + 2 * G, (F(15) + F(0) + 2 * G) / (2 * F(15) + 2 * G)))
    A("one-way rate, which the measured ratio approaches as the acknowledgements' share shrinks.")
    A("")
    A("Where the values differ: ours reaches %s against the paper's 80 %%, and %s at %d B and %s at %d B against the"
      % (pct(big["throughput_frac"]), pct(near1500[0]["throughput_frac"]) if near1500 else "?",
         near1500[0]["size"] if near1500 else 0, pct(near1500[-1]["throughput_frac"]) if near1500 else "?",
         near1500[-1]["size"] if near1500 else 0))
    A("paper's 68 % at 1500 B. The paper's path has two links and the switch box's store-and-forward DMA between them")
    A("and its hosts go through PCI DMA (sec. 4), none of which is here; our limit is the link protocol alone")
    A("(section *Long messages* below).")
    A("")
    A("Latency of one 16-byte message, one link: %.1f steps on average (%d at the least) from the first host write to"
      % (pp[0]["oneway_steps_mean"], pp[0]["oneway_steps_min"]))
    A("the last host read (8 + 8 of them the hosts' writing and reading), %.2f us at 50 MHz, against the paper's"
      % pp[0]["paper_oneway_us"])
    A("1.78 us from the sender NI to the switch box (Table 2, link layer). The spread from waiting for the link (a")
    A("message that just misses a frame start waits one null-frame period, `F(0)` + `F(0)` + 2`G` = %d steps = %.2f us)"
      % (2 * F(0) + 2 * G, (2 * F(0) + 2 * G) * MLC_STEP_NS / 1000))
    A("is smaller than the paper's 1.12 us (t1 - t4, %.0f cycles at 50 MHz), although the paper's null frame is even"
      % (1120 / MLC_STEP_NS))
    A("shorter (3 nibbles against our 8): most of its spread must be the IEEE 1394 PHY's bus arbitration at every")
    A("turn-round, which our link does not have (a turn-round is `G` = %d steps here)." % G)
    A("")

    # ---------------------------------------------------------------- Fig. 10
    A("## Network Burst against single-packet transfer (Fig. 10)")
    A("")
    A("Ping-pong throughput, % of the link, pipelined. *single n B*: configuration `SP` = 1/2/3, at most 1/2/4 units")
    A("per frame, a shorter remainder sent as it is (the MLC, docs/mlc.md rule 5). *padded*: the same, but the")
    A("hosts fill every message (and acknowledgement) up to whole packets with pad units (Type0, dropped by the")
    A("receiving host) — the paper's conventional transfer, which pads.")
    A("")
    sp_modes = ["burst", "sp64", "sp32", "sp16", "sp64-padded", "sp32-padded", "sp16-padded"]
    S = {k: {p["size"]: p for p in mlc_series(records, "pingpong", k)} for k in sp_modes}
    sizes = sorted(S["sp16"])
    A("| size (B) | Network Burst | single 64 B | single 32 B | single 16 B | 64 B padded | 32 B padded | 16 B padded |")
    A("|---|---|---|---|---|---|---|---|")
    for s in sizes:
        A("| %d | %s |" % (s, " | ".join("%.2f" % (100 * S[k][s]["throughput_frac"]) if s in S[k] else "" for k in sp_modes)))
    A("")
    A("Round trip of a 16-byte message (steps): %s."
      % ", ".join("%s %.1f" % (k, S[k][16]["rt_steps_mean"]) for k in sp_modes if 16 in S[k]))
    A("")
    if "mlc-fig10.png" in names:
        A("![Network Burst against single-packet transfer; 64 B / 16 B ratios beside the paper's](mlc-fig10.png)")
        A("")
    r = mlc_fig10_ratios(records)
    tol = 0.01
    order_sp = [s for s in sizes if S["sp64"][s]["throughput_frac"] > S["sp32"][s]["throughput_frac"] + tol and
                S["sp32"][s]["throughput_frac"] > S["sp16"][s]["throughput_frac"] + tol]
    burst_best = [s for s in sizes if all(S["burst"][s]["throughput_frac"] >= S[k][s]["throughput_frac"] - tol
                                          for k in sp_modes[1:] if s in S[k])]
    burst_strict = [s for s in sizes if all(S["burst"][s]["throughput_frac"] > S[k][s]["throughput_frac"] + tol
                                            for k in sp_modes[1:] if s in S[k])]
    A("**Ordering.** The paper: the larger the packet the higher the throughput, and Network Burst above every")
    A("single-packet size in any case. Ours: single 64 B > 32 B > 16 B, each by more than %g percentage point, at %s;"
      % (100 * tol, ("every size from %d B" % order_sp[0]) if order_sp and order_sp == [s for s in sizes if s >= order_sp[0]]
                    else ("sizes %s" % ", ".join(map(str, order_sp)) if order_sp else "no size")))
    A("Network Burst is the best or within %g"
      % (100 * tol))
    A("percentage point of it at %s, and above all of them by more than %g from %s. Below that the"
      % ("every size" if burst_best == sizes else "sizes " + ", ".join(map(str, burst_best)), 100 * tol,
         ("%d B" % burst_strict[0]) if burst_strict else "no size"))
    A("curves meet: a message of *u* units goes in one frame in every mode whose `cap` is at least *u*, so at 16 B")
    A("(one unit) every mode sends the same frame and at 32 B all but single 16 B do; the differences there are the")
    A("random phase against the null frames.")
    caps = {"sp16": 1, "sp32": 2, "sp64": 4}
    # sizes where a single-packet mode that sends other frames than Network Burst (more units than its cap)
    # comes out above it
    beaten = [s_ for s_ in sizes if any(s_ // 16 > caps[k.split("-")[0]] and s_ in S[k] and
                                        S[k][s_]["throughput_frac"] > S["burst"][s_]["throughput_frac"]
                                        for k in sp_modes[1:])]
    if beaten:
        A("A single-packet mode sending other frames than Network Burst comes out (slightly) above it at %s B: the"
          % ", ".join(map(str, beaten)))
        A("MLC delivers frame by frame")
        A("(a unit is readable once its frame's check has passed, docs/mlc.md rule 5), so the receiving host reads")
        A("Network Burst's one long frame only after it ends, while smaller frames let it read the first units")
        A("while the rest are on the link; from a few frames' worth of message on, the smaller frames' overhead wins.")
    A("**%s** (the paper's curves presumably separate already at 16 B because it pads, see below)."
      % ("Reproduced" if burst_best == sizes and order_sp else "Not reproduced"))
    A("")
    A("Ratios, 64 B over 16 B single packets (paper: 1.6x throughput, 3x minimal latency):")
    A("")
    A("| ratio | ours (MLC) | ours, padded | paper |")
    A("|---|---|---|---|")
    A("| throughput at %d B | %.2f | %.2f | 1.6 |" % (r["size"], r["thr"], r["thr_pad"]))
    A("| minimal latency: round trip of a 16-byte message | %.2f | %.2f | 3 |" % (r["lat"], r["lat_pad"]))
    A("| minimal latency: one way | %.2f | %.2f | |" % (r["lat_ow"], r["lat_ow_pad"]))
    A("")
    eff = {n: 128 * n / (lw * (F(n) + F(0) + 2 * G)) for n in (1, 2, 4, 15)}
    d1 = 128 / lw                                   # steps of one unit's nibbles
    R = MLC_PAPER["sp64_sp16_thr"][0]
    O = 4 * d1 * (R - 1) / (4 - R)                  # overhead per period that gives the paper's ratio
    A("Throughput: with one end sending, a period carries *n* units in `F(n)` + `F(0)` + 2`G` steps, so the MLC's")
    A("ceiling is %s for 1 unit, %s for 2, %s for 4 and %s for 15 (Network Burst): 64 B over 16 B is %.2f at most,"
      % (pct(eff[1]), pct(eff[2]), pct(eff[4]), pct(eff[15]), eff[4] / eff[1]))
    A("which the measured %.2f approaches. The paper's 1.6 needs a larger fixed cost per period: with *O* steps of"
      % r["thr"])
    A("overhead per period, (4*%d/(4*%d + O)) / (%d/(%d + O)) = %.1f gives *O* = %.0f steps (%.2f us at 50 MHz),"
      % (d1, d1, d1, d1, R, O, O * MLC_STEP_NS / 1000))
    A("where ours is %d (the data frame's preamble and check, the null frame, two turn-rounds of %d): comparable to"
      % (F(1) - d1 + F(0) + 2 * G, G))
    A("the paper's own 1.12 us arbitration spread, so the IEEE 1394 PHY's bus arbitration at every turn-round is the")
    A("likely difference. Minimal latency: the MLC sends a short remainder instead of padding (docs/mlc.md, Open")
    A("questions), so a 16-byte message is one unit in every mode and the ratio is about 1; padded, the 64-byte packet")
    A("is a frame of `F(4)` = %d steps against `F(1)` = %d, and the round trip (which pads the acknowledgement too)"
      % (F(4), F(1)))
    A("grows by %.2fx against the paper's 3x; the host's 8 + 8 steps of writing and reading and the wait for the link"
      % r["lat_pad"])
    A("are the same in both and dilute the frame's ratio of %.2f." % (F(4) / F(1)))
    A("")

    # ---------------------------------------------------------------- Fig. 11
    A("## Pipelined against message-based transfer (Fig. 11)")
    A("")
    A("Network Burst; message-based = configuration `MSG` = 1 at both ends (a unit is sent only when its message is")
    A("wholly in the send FIFO, and readable only when wholly in the receive FIFO), 16 B up to the FIFO size.")
    A("")
    A("| size (B) | pipelined one-way (us) | pipelined round trip (us) | pipelined MB/s | message-based one-way (us) | message-based round trip (us) | message-based MB/s | difference MB/s |")
    A("|---|---|---|---|---|---|---|---|")
    ppm = {p["size"]: p for p in pp}
    diffs = []
    for q in mb:
        p = ppm[q["size"]]
        d = p["paper_mbytes_s"] - q["paper_mbytes_s"]
        diffs.append((d, q["size"]))
        A("| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            q["size"], p["paper_oneway_us"], p["paper_rt_us"], p["paper_mbytes_s"], q["paper_oneway_us"],
            q["paper_rt_us"], q["paper_mbytes_s"], d))
    A("")
    if "mlc-fig11.png" in names:
        A("![pipelined against message-based transfer: latency and throughput](mlc-fig11.png)")
        A("")
    d16 = (ppm[16]["rt_steps_mean"] - mb[0]["rt_steps_mean"]) / mb[0]["rt_steps_mean"]
    wins = [q["size"] for q in mb if ppm[q["size"]]["rt_steps_mean"] < q["rt_steps_mean"]]
    grows = all(b[0] >= a[0] - 0.05 for a, b in zip(diffs, diffs[1:]))
    dmax = max(diffs)
    above16 = [q["size"] for q in mb if q["size"] > 16]
    big_wins = bool(above16) and all(s_ in wins for s_ in above16)
    fig11_ok = abs(d16) < 0.1 and big_wins and grows
    A("**Ordering.** The paper: little difference at 16 B; pipelined lower in latency and higher in throughput as the")
    A("message grows; the largest difference 8 MB/s. Ours: at 16 B the round trips differ by %+.1f %% (one unit:"
      % (100 * d16))
    A("the same frames, only the phase differs); pipelined has the shorter round trip at %s; the throughput"
      % ("every size from %d B" % above16[0] if big_wins else "sizes " + ", ".join(map(str, wins))))
    A("difference grows %s with the size to %.2f MB/s at %d B against the paper's 8 MB/s. **%s.**"
      % ("steadily" if grows else "**not steadily**", dmax[0], dmax[1], "Reproduced" if fig11_ok else "Not reproduced"))
    A("")
    per_unit = (F(15) + F(0) + 2 * G) / 15
    A("Why: message-based, the sender's host writes the whole message (8 steps a unit) before the first frame, and")
    A("the receiver's host reads it (8 steps a unit) only after the last; pipelined, both overlap the link. A long")
    A("message costs the link about (`F(15)` + `F(0)` + 2`G`)/15 = %.2f steps a unit, so message-based tends to"
      % per_unit)
    A("%.2f / (%.2f + 16) of the link = %s (%.2f MB/s), pipelined to %s (%.2f MB/s): a limit of %.2f MB/s apart."
      % (per_unit, per_unit, pct(128 / (lw * (per_unit + 16))),
         128 / (lw * (per_unit + 16)) * MLC_MBYTES, pct(eff[15]), eff[15] * MLC_MBYTES,
         (eff[15] - 128 / (lw * (per_unit + 16))) * MLC_MBYTES))
    A("Our host moves a word a step (four times the link); the paper's hosts copy through PCI DMA and the NI,")
    A("relatively slower, which widens the gap that pipelining hides — consistent with its larger 8 MB/s.")
    A("")

    # ---------------------------------------------------------------- efficiency
    ef = [r for r in m if r["what"] == "efficiency"]
    A("## Long messages, one direction (docs/mlc.md, Efficiency)")
    A("")
    A("Network Burst, node 0's host keeps its send FIFO full (64 KB messages), node 1 sends only null frames. After")
    A("a warm-up, a window of whole periods between two of node 0's full-frame starts; **measured** = units node 1")
    A("accepted in it (its `rx_pkts` counter) × 128 bits / (window steps × `LINK_W`); *host* = bytes node 1's host read")
    A("in the same window. Formula: 480·4 / (`LINK_W`·(`F(15)` + `F(0)` + 2`G`)).")
    A("")
    A("| LINK_W | TURN | LINK_DELAY | G | periods | window (steps) | period (steps) | units | measured | host | formula | ≥ 95 % |")
    A("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for e in ef:
        p = e["params"]
        A("| %d | %d | %d | %d | %d | %d | %.2f | %d | %s | %s | %s | %s |" % (
            p["LINK_W"], p["TURN"], p["LINK_DELAY"], e["G"], e["periods"], e["window_steps"], e["period_steps"],
            e["units"], pct(e["efficiency"]), pct(e["efficiency_host"]), pct(e["formula"]),
            "yes" if e["efficiency"] >= 0.95 else "no"))
    A("")
    pred = [(e["params"]["LINK_W"] == 4 and e["G"] <= 4) or (e["params"]["LINK_W"] == 8 and e["G"] <= 2) for e in ef]
    A("The ≥ 95 %% target is for the defaults; docs/mlc.md says it holds while `G` ≤ 4 at `LINK_W` 4 and `G` = 2 at")
    A("`LINK_W` 8 (a turn-round does not shrink with a wider link), and the measured sets %s."
      % ("agree with that in every case" if all(p_ == (e["efficiency"] >= 0.95) for p_, e in zip(pred, ef))
         else "**do not all agree** with that"))
    A("")
    if "mlc-efficiency.png" in names:
        A("![measured one-way efficiency against the formula](mlc-efficiency.png)")
        A("")
    d = next((e for e in ef if e["params"]["LINK_W"] == lw and e["params"]["TURN"] == turn and
              e["params"]["LINK_DELAY"] == ld), None)
    if d:
        per = d["period_steps"]
        data = 480 * 4 / lw
        pre, chk, tr = 2 * 4 * 4 / lw, 2 * 4 * 4 / lw, 2 * G
        def exact_eq(e):   # units*128 / (window*LINK_W) == 480*4 / (LINK_W*(F15 + F0 + 2G)), in integers
            return e["units"] * 128 * (e["F15"] + e["F0"] + 2 * e["G"]) == 480 * 4 * e["window_steps"]
        exact = all(exact_eq(e) for e in ef)
        is_480_502 = d["units"] * 128 * 502 == 480 * d["window_steps"] * lw
        A("At the defaults the measured efficiency is **%s** (target ≥ 95 %%: %s), %s docs/mlc.md's 480/502. Every"
          % (pct(d["efficiency"]), "met" if d["efficiency"] >= 0.95 else "**missed**",
             "exactly" if is_480_502 else "**not** (a contradiction of docs/mlc.md)"))
        A("period measured %.2f steps; of them %.0f carry unit nibbles and %.2f are lost (%s of the link):"
          % (per, data, per - data, pct((per - data) / per)))
        A("")
        A("| cause | steps per period | share of the link |")
        A("|---|---|---|")
        A("| preambles: `NP`, `FLAGS`, `CR0`, `CR1` of the data frame and of the null frame, 4 + 4 nibbles | %.0f | %s |"
          % (pre, pct(pre / per)))
        A("| checks: the CRC-16 of both frames, 4 + 4 nibbles | %.0f | %s |" % (chk, pct(chk / per)))
        A("| turn-rounds: 2`G` = 2·(2 + `LINK_DELAY` + `TURN`) idle steps | %d | %s |" % (tr, pct(tr / per)))
        A("| sum | %.0f | %s |" % (pre + chk + tr, pct((pre + chk + tr) / per)))
        A("")
        A("Preambles + checks + turn-rounds = %.0f steps = the measured loss of %.2f steps: %s. Measured and formula"
          % (pre + chk + tr, per - data, "every lost cycle is accounted for" if abs(pre + chk + tr - (per - data)) < 1e-9
             else "**they differ** (report this)"))
        A("agree %s for the %d parameter sets above; the other end sent %d null and %d data frames in the default window."
          % ("exactly" if exact else "**not everywhere**", len(ef), d["other_end_null_frames"], d["other_end_data_frames"]))
        pf = 480 / (483 + 3 + 2 * G * lw / 4)
        A("Between the paper's frame (3 + 480 nibbles) and ours (8 + 480): `FLAGS` (the toggle and echo of the")
        A("acknowledgement) and the four check nibbles, which make a corrupted frame a resent one (docs/mlc.md, Frames);")
        A("the paper's frames with our turn-round would give 480 / (483 + 3 + 2`G`) = %s." % pct(pf))
        A("A whole transfer adds its start and its acknowledgement: the %d-byte ping-pong above moved %s one way"
          % (big["size"], pct(big["oneway_frac"])))
        A("(%s of the link counting the acknowledgement's round trip)." % pct(big["throughput_frac"]))
        A("")

    # ---------------------------------------------------------------- speed
    sp = {r["what"]: r for r in m if r.get("test") == "random"}
    if sp:
        A("## Speed of the model, the RTL and the lockstep bench")
        A("")
        A("`mlc_lockstep --mode model|rtl|lockstep`, the same random traffic (docs/bench.md has the details):")
        A("")
        A("| what | cycles | seconds | cycles/s | vs RTL |")
        A("|---|---|---|---|---|")
        for w in ("model", "rtl", "lockstep"):
            if w in sp:
                r_ = sp[w]
                A("| %s | %d | %.3f | %.0f | %.2fx |" % (w, r_["cycles"], r_["seconds"], r_["cycles_per_s"],
                                                         r_["cycles_per_s"] / sp["rtl"]["cycles_per_s"]))
        A("")
        L.extend(mlc_step_md(m))
        sw = next((r_ for r_ in m if r_["what"] == "model" and r_.get("test") == "perf-sweep"), None)
        if sw:
            if L[-1] != "":
                A("")
            A("The measurements on this page: %d steps of the model pair in %.2f s (%.0f steps/s, host drivers and"
              % (sw["cycles"], sw["seconds"], sw["cycles_per_s"]))
            A("message checks included).")
        A("")

    # ---------------------------------------------------------------- summary
    A("## Summary: the paper's orderings")
    A("")
    A("| figure | the paper | ours | reproduced |")
    A("|---|---|---|---|")
    A("| 9 | ping-pong rises to 80 %%; ping-ping = 50 %% of ping-pong | ping-pong rises to %s; ping-ping / ping-pong %.3f at %d B | %s |"
      % (pct(big["throughput_frac"]), ratio, big["size"], "yes" if fig9_ok else "no"))
    A("| 10 | Network Burst best at every size; 64 B > 32 B > 16 B; 1.6x throughput, 3x minimal latency | burst best "
      "(within %g percentage point) at %s; 64 > 32 > 16 from %s; %.2fx throughput (%.2fx padded), minimal latency %.2fx (%.2fx padded) | %s |"
      % (100 * tol, "every size" if burst_best == sizes else "some sizes",
         ("%d B" % order_sp[0]) if order_sp else "nowhere", r["thr"], r["thr_pad"], r["lat"], r["lat_pad"],
         "ordering yes, ratios smaller" if burst_best == sizes and order_sp else "no"))
    A("| 11 | same at 16 B, pipelined better as messages grow, at most 8 MB/s apart | %+.1f %% at 16 B, pipelined "
      "better above, %.2f MB/s apart at %d B | %s |" % (100 * d16, dmax[0], dmax[1], "yes" if fig11_ok else "no"))
    if d:
        A("| Efficiency | (Table 1: 15 packets a frame) | %s one way at the defaults (formula %s) | target ≥ 95 %% %s |"
          % (pct(d["efficiency"]), pct(d["formula"]), "met" if d["efficiency"] >= 0.95 else "missed"))
    A("")
    with open(os.path.join(ROOT, "docs", "mlc-perf.md"), "w") as f:
        f.write("\n".join(L) + "\n")


def main():
    ap = ArgumentParser(prog="bench.py", description=__doc__)
    ap.add_argument("--cycles", type=int_range(1000), default=2000000, help="saturating traffic cycles for the speed run")
    ap.add_argument("--seed", type=int_range(0), default=1)
    ap.add_argument("--skip-routing", action="store_true", help="do not run make -C sw bench")
    ap.add_argument("--skip-net", action="store_true", help="no network simulator speed points")
    ap.add_argument("--net-cycles", type=int_range(1000), default=40000, help="measurement window of each sanfab-sim point")
    ap.add_argument("--net-repeat", type=int_range(1, 100), default=3, help="runs of each sanfab-sim point (the fastest is recorded)")
    ap.add_argument("--mlc-cycles", type=int_range(1000), default=2000000, help="cycles of each mlc_lockstep speed run")
    ap.add_argument("--mlc-repeat", type=int_range(1, 100), default=3, help="runs of each mlc_lockstep mode (the fastest is recorded)")
    ap.add_argument("--mlc-reps", type=int_range(1, 10000), default=32, help="round trips per mlc_perf point up to 1 KB")
    ap.add_argument("--rtlnet-cycles", type=int_range(1000), default=200000, help="traffic cycles of the RTL network speed run")
    ap.add_argument("--only", choices=["net", "vcnet", "clos", "vcsw", "mlc", "rtlnet"],
                    help="run only this block and keep the other records of reports/bench.json")
    ap.add_argument("--runs", default=None, help="with --only rtlnet: a comma list of its runs (%s) to measure "
                    "again, keeping the other runs' records" % ", ".join(RTLNET_NAMES))
    ap.add_argument("--page", action="store_true", help="measure nothing: rewrite docs/bench.md and docs/mlc-perf.md "
                    "(with its plots) from reports/bench.json")
    a = ap.parse_args()
    if a.page:
        if a.only or a.runs is not None:
            ap.error("--page measures nothing: it takes no --only or --runs")
        return page_only()
    if a.runs is not None:
        a.runs = a.runs.split(",")
        bad = [r for r in a.runs if r not in RTLNET_NAMES]
        if a.only != "rtlnet" or bad:
            ap.error("--runs needs --only rtlnet and runs among %s%s" % (", ".join(RTLNET_NAMES),
                                                                        " (not: %s)" % ", ".join(bad) if bad else ""))
    if a.only:
        return only_block(a)
    if not os.path.exists(BENCH):
        sys.exit("bench: %s is missing; run `make bench` (it builds it)" % BENCH)

    records = []
    with tempfile.TemporaryDirectory() as td:
        j = os.path.join(td, "xbar.jsonl")
        run_bench(["--speed", "--cycles", str(a.cycles), "--seed", str(a.seed)], j)
        run_bench(["--test", "permutation", "--cycles", "200000", "--seed", str(a.seed)], j)
        run_bench(["--test", "latency", "--cycles", "20000", "--seed", str(a.seed)], j)
        records += read_jsonl(j)
    if os.path.exists(VCSW_BENCH):
        records += vcsw_speed("permutation", a.cycles // 2, a.seed)
        records += vcsw_speed("random", a.cycles // 4, a.seed)
    else:
        print("bench: %s missing, VC switch figures skipped" % os.path.relpath(VCSW_BENCH, ROOT))
    mlc = []
    if os.path.exists(MLC_LOCKSTEP):
        mlc = mlc_records(a)
        records += mlc
    else:
        print("bench: %s missing, MLC figures skipped" % os.path.relpath(MLC_LOCKSTEP, ROOT))
    if not a.skip_net:
        subprocess.run(["make", "-s", "-C", "sw", "build/sanfab-sim", "build/sanfab-topo", "build/sanfab-route"],
                       cwd=ROOT, check=True)
        with tempfile.TemporaryDirectory() as td:
            records += net_speed(td, a.seed, a.net_cycles, a.net_repeat)
        with tempfile.TemporaryDirectory() as td:
            records += net_speed(td, a.seed, a.net_cycles, a.net_repeat, vc=True)
        with tempfile.TemporaryDirectory() as td:
            records += clos_speed(td, a.seed, a.net_cycles, a.net_repeat)
    if all(os.path.exists(os.path.join(ROOT, b)) for b in RTLNET_BUILDS):
        records += rtlnet_records(a.seed, a.rtlnet_cycles, a.net_repeat)
    else:
        print("bench: %s missing (make net-build build/net/r16-t2/net_bench), RTL network figures skipped"
              % " or ".join(RTLNET_BUILDS))
    host = {"machine": platform.machine(), "cpus": os.cpu_count(), "python": platform.python_version()}
    for r in records:
        r["host"] = host

    if not a.skip_routing:
        subprocess.run(["make", "-s", "-C", "sw", "bench"], cwd=ROOT, check=True)
    rpath = os.path.join(ROOT, "reports", "bench-routing.json")
    if os.path.exists(rpath):
        with open(rpath) as f:
            records += json.load(f)

    os.makedirs(os.path.join(ROOT, "reports"), exist_ok=True)
    with open(os.path.join(ROOT, "reports", "bench.json"), "w") as f:
        json.dump(records, f, indent=1)
        f.write("\n")
    write_docs(records)
    if mlc:
        mlc_perf_md(records, mlc_plots(records))
    print("bench: wrote reports/bench.json (%d records) and docs/bench.md" % len(records))


def page_only():
    """--page: docs/bench.md, and docs/mlc-perf.md with its plots, from reports/bench.json as it is."""
    jpath = os.path.join(ROOT, "reports", "bench.json")
    if not os.path.exists(jpath):
        sys.exit("bench: %s is missing; run `make bench`" % os.path.relpath(jpath, ROOT))
    with open(jpath) as f:
        records = json.load(f)
    write_docs(records)
    mlc = any(r.get("block") == "mlc" for r in records)
    if mlc:
        mlc_perf_md(records, mlc_plots(records))
    print("bench: wrote docs/bench.md%s from reports/bench.json (%d records)"
          % (", docs/mlc-perf.md and its plots" if mlc else "", len(records)))


def only_block(a):
    """--only BLOCK: that block's points alone (net, vcnet: the network simulator's crossbar and VC networks; rtlnet:
    the RTL networks against the C networks; vcsw: the VC switch's
    model/RTL/lockstep speed; mlc: the MLC's measurements and speed, docs/mlc-perf.md and its plots); the other
    records of reports/bench.json are kept."""
    jpath = os.path.join(ROOT, "reports", "bench.json")
    old = []
    if os.path.exists(jpath):
        with open(jpath) as f:
            old = json.load(f)
    if a.only == "rtlnet":
        new = rtlnet_records(a.seed, a.rtlnet_cycles, a.net_repeat, a.runs)
    elif a.only in ("net", "vcnet", "clos"):
        subprocess.run(["make", "-s", "-C", "sw", "build/sanfab-sim", "build/sanfab-topo", "build/sanfab-route"],
                       cwd=ROOT, check=True)
        with tempfile.TemporaryDirectory() as td:
            new = clos_speed(td, a.seed, a.net_cycles, a.net_repeat) if a.only == "clos" else \
                net_speed(td, a.seed, a.net_cycles, a.net_repeat, vc=a.only == "vcnet")
    elif a.only == "mlc":
        new = mlc_records(a)
    else:
        if not os.path.exists(VCSW_BENCH):
            sys.exit("bench: %s is missing; run `make bench` (it builds it)" % os.path.relpath(VCSW_BENCH, ROOT))
        new = vcsw_speed("permutation", a.cycles // 2, a.seed) + vcsw_speed("random", a.cycles // 4, a.seed)
    host = {"machine": platform.machine(), "cpus": os.cpu_count(), "python": platform.python_version()}
    for r in new:
        r["host"] = host
    # the new records take the place of the block's old ones (where the first of them was; else
    # before the routing records)
    def replaced(r):  # --runs: only the records of the runs measured again
        return r.get("block") == a.only and (a.runs is None or rtlnet_run(r) in a.runs)
    at = next((i for i, r in enumerate(old) if replaced(r)), None)
    keep = [r for r in old if not replaced(r)]
    if at is None:
        at = next((i for i, r in enumerate(keep) if r.get("block") == "routing"), len(keep))
    else:
        at = sum(1 for r in old[:at] if not replaced(r))
    records = keep[:at] + new + keep[at:]
    with open(jpath, "w") as f:
        json.dump(records, f, indent=1)
        f.write("\n")
    write_docs(records)
    if a.only == "mlc":
        mlc_perf_md(records, mlc_plots(records))
    print("bench: wrote reports/bench.json (%d records, %d of block %s) and docs/bench.md%s"
          % (len(records), len(new), a.only, ", docs/mlc-perf.md and its plots" if a.only == "mlc" else ""))


def write_docs(records):
    x = [r for r in records if r.get("block") == "xbar"]
    speed = {r["what"]: r for r in x if r.get("test") == "saturate"}
    perm = [r for r in x if r.get("test") == "permutation"]
    lat = [r for r in x if r.get("test") == "latency"]
    L = []
    L.append("# Benchmarks")
    L.append("")
    L.append("Generated by `make bench` (`scripts/bench.py`) from `reports/bench.json`; do not edit by hand.")
    L.append("Times are wall-clock seconds of one run on the machine that ran it (%s, %s CPUs), so they"
             % (x[0]["host"]["machine"] if x else "?", x[0]["host"]["cpus"] if x else "?"))
    L.append("vary from machine to machine and run to run; the ratios are the meaningful part.")
    L.append("")
    L.append("## Crossbar: C model, Verilated RTL and lockstep")
    L.append("")
    if speed:
        p = next(iter(speed.values()))["params"]
        L.append("8-port crossbar (%s), every input saturated with good packets of 8–127 body bytes to"
                 % ", ".join("%s=%s" % kv for kv in p.items()))
        L.append("uniform random outputs. The lockstep run (hosts, scoreboard, model and RTL together) records its")
        L.append("inputs; the same recorded stimulus is then replayed through the model alone and the RTL alone,")
        L.append("timing only the step calls. All three in one `xbar_bench --speed` run.")
        L.append("")
        L.append("| what | cycles | seconds | cycles/s | vs RTL |")
        L.append("|---|---|---|---|---|")
        rtl = speed.get("rtl")
        for w in ("model", "rtl", "lockstep"):
            if w in speed:
                r = speed[w]
                ratio = (r["cycles_per_s"] / rtl["cycles_per_s"]) if rtl else 0
                L.append("| %s | %d | %.3f | %.0f | %.2fx |" % (w, r["cycles"], r["seconds"], r["cycles_per_s"], ratio))
        L.append("")
        if "model" in speed and rtl:
            ratio = speed["model"]["cycles_per_s"] / rtl["cycles_per_s"]
            L.append("Target: the model at least 5x faster than the Verilated RTL — measured %.2fx (%s)."
                     % (ratio, "met" if ratio >= 5 else "**missed**"))
            L.append("")
    if perm or lat:
        L.append("## Crossbar: throughput and latency (lockstep runs)")
        L.append("")
        L.append("| test | figure | value |")
        L.append("|---|---|---|")
        for r in perm:
            L.append("| permutation (%d cycles) | input characters per cycle per port | %.4f |" % (r["cycles"], r.get("input_chars_per_cycle", 0)))
            L.append("| permutation | output data characters per cycle per port | %.4f |" % r.get("output_data_per_cycle", 0))
            L.append("| permutation | STOP symbols sent by the switch | %d |" % r.get("stops", 0))
        for r in lat:
            L.append("| latency | header in to first byte out, cycles | %d |" % r.get("header_to_first_byte_cycles", 0))
        L.append("")
        L.append("An input sustains one character per cycle; the output carries one character less per packet")
        L.append("(the route byte is stripped), hence its lower data rate. See [xbar.md](xbar.md#throughput).")
        L.append("")
    v = [r for r in records if r.get("block") == "vcsw"]
    if v:
        L.append("## VC switch: C model, Verilated RTL and lockstep")
        L.append("")
        L.append("`vcsw_bench --speed` on the p8 set (8 ports, 2 VCs: %s): one lockstep run per test; the"
                 % ", ".join("%s=%s" % kv for kv in v[0]["params"].items()))
        L.append("model and RTL figures time only their step calls inside it, the lockstep figure the whole run")
        L.append("(hosts, scoreboard and checks included). `permutation`: every VC of input p to output pi(p),")
        L.append("every link busy every step; `random`: random tables, lengths, stop pressure and reads.")
        L.append("")
        L.append("| test | what | cycles | cycles/s | vs RTL |")
        L.append("|---|---|---|---|---|")
        for t in ("permutation", "random"):
            tr = {r["what"]: r for r in v if r["test"] == t}
            if not tr:
                continue
            for w in ("model", "rtl", "lockstep"):
                r = tr[w]
                L.append("| %s | %s | %d | %.0f | %.2fx |" % (t, w, r["cycles"], r["cycles_per_s"],
                                                         r["cycles_per_s"] / tr["rtl"]["cycles_per_s"]))
        L.append("")
        worst = min(r["cycles_per_s"] / next(x for x in v if x["test"] == r["test"] and x["what"] == "rtl")["cycles_per_s"]
                    for r in v if r["what"] == "model")
        L.append("Target: the model at least 5x faster than the Verilated RTL on the same traffic — measured %.2fx "
                 "at the least (%s)." % (worst, "met" if worst >= 5 else "**missed**"))
        L.append("")
    L += mlc_bench_md(records)
    nt = [r for r in records if r.get("block") == "net"]
    vn = [r for r in records if r.get("block") == "vcnet"]
    best64 = {}
    for recs, vc in ((nt, False), (vn, True)):
        if not recs:
            continue
        unit = "flits/host/cycle" if vc else "flits/ns/switch"
        if vc:
            L.append("## Network simulator, VC network (`sanfab-sim --switch vcsw`)")
            L.append("")
            L.append("`sanfab-sim --switch vcsw --time`, one process, fastest of %d runs (shared machine), 128-flit "
                     "uniform packets, [Koibuchi et al. 2003](references.md#koibuchi-et-al-2003)'s switches (4 VCs, DEPTH 256), quiet switches skipped. Flit-hops = flits "
                     "carried over any link (injection, switch-to-switch, ejection)." % recs[0].get("runs", 1))
        else:
            L.append("## Network simulator (`sanfab-sim`)")
            L.append("")
            L.append("`sanfab-sim --time`, one process, fastest of %d runs (shared machine), 512-byte uniform messages, "
                     "warm-up + window cycles as listed, quiet switches skipped (docs/network.md). Flit-hops = data "
                     "characters carried over any link (injection, switch-to-switch, ejection)." % recs[0].get("runs", 1))
        L.append("")
        L.append("| network | routes | offered | accepted (%s) | cycles | cycles/s | flit-hops/s | switch-cycles skipped |"
                 % unit)
        L.append("|---|---|---|---|---|---|---|---|")
        for r in recs:
            p = r["params"]
            L.append("| %s (%d switches, %d hosts) | %s | %g | %.4f%s | %d | %.0f | %.2f M | %.0f %% |"
                     % (p["topology"], p["switches"], p["hosts"], p["routes"], p["load"],
                        r["accepted_flits_cycle_host" if vc else "accepted_flits_ns_sw"],
                        " (saturated)" if r["saturated"] else "", r["cycles"], r["cycles_per_s"],
                        r["flit_hops_per_s"] / 1e6, 100 * (r.get("switch_cycles_skipped") or 0)))
        L.append("")
        best64[vc] = max((r["flit_hops_per_s"] for r in recs if r["params"]["switches"] == 64 and
                          r["params"]["topology"].startswith("random") and r["saturated"]), default=0)
        if vc:
            sat = [r for r in recs if r["params"]["switches"] == 64 and r["saturated"]]
            L.append("Target (issue 23): at least 5 M flit-hops/s on the 64-switch VC network at saturation, one core — "
                     "measured %s on the saturated 64-switch points (best %.2f M: %s; a route set that loads few "
                     "channels, as up\\*/down\\* near its root, carries fewer flit-hops per cycle); the crossbar "
                     "network %.2f M on its saturated 64-switch points; BookSim 2 is quoted at 0.5-0.8 M flit-hops/s."
                     % (", ".join("%.2f M (%s)" % (r["flit_hops_per_s"] / 1e6, r["params"]["routes"].split()[0])
                                  for r in sat), best64[vc] / 1e6, "met" if best64[vc] >= 5e6 else "**missed**",
                        best64.get(False, 0) / 1e6))
        else:
            L.append("Target (issue 8): at least 10 M flit-hops/s on a 64-switch irregular network at saturation, one "
                     "core — measured %.2f M at best over the saturated 64-switch points (%s)." % (
                         best64[vc] / 1e6, "met" if best64[vc] >= 10e6 else "**missed**"))
        L.append("")
    L += clos_md(records)
    L += rtlnet_md(records)
    rt = [r for r in records if r.get("block") == "routing"]
    if rt:
        L.append("## Routing library")
        L.append("")
        L.append("%d records from `make -C sw bench`; the tables and targets are in [routing.md](routing.md)." % len(rt))
        L.append("")
    with open(os.path.join(ROOT, "docs", "bench.md"), "w") as f:
        f.write("\n".join(L) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""sanfab benchmarks (make bench): speed of the crossbar's C model, Verilated RTL and lockstep run on
the same saturating random traffic, the crossbar's latency and permutation throughput, the VC
switch's model/RTL/lockstep speed, the network simulator's speed (sanfab-sim on 16/64-switch random networks
and the 512-host 2D torus, records of block "net"), and the routing library's figures. Writes reports/bench.json (DESIGN.md's record format) and docs/bench.md.

  scripts/bench.py [--cycles N] [--seed N] [--skip-routing] [--skip-net] [--net-repeat N] [--only net|vcsw]

--only net|vcsw runs that block's points alone and replaces only its records of reports/bench.json
(the other blocks' records are kept as they are), e.g. while another block's bench does not build.
"""
import argparse
import json
import os
import platform
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


def net_speed(td, seed, cycles, repeat=3):
    """sanfab-sim --time on each NET_POINTS entry (512-byte uniform messages, one load point, one process), run
    `repeat` times (the machine is shared: the fastest run is recorded, and how many were run); one record each
    with network cycles/s and flit-hops/s (data characters over any link per second)."""
    sim = os.path.join(SW_BUILD, "sanfab-sim")
    topo_tool, route_tool = os.path.join(SW_BUILD, "sanfab-topo"), os.path.join(SW_BUILD, "sanfab-route")
    out = []
    for gen, algo, load in NET_POINTS:
        name = "-".join(gen[:3:2] if gen[0] == "random" else gen[:1])
        topo = os.path.join(td, name + ".topo")
        routes = os.path.join(td, "%s-%s.routes" % (name, algo))
        if not os.path.exists(topo):
            subprocess.run([topo_tool] + gen + ["-o", topo], check=True, stderr=subprocess.DEVNULL)
        if not os.path.exists(routes):
            extra = ["--select", "balanced"] if algo == "updown" else ["--seed", str(seed)]
            subprocess.run([route_tool, algo, topo] + extra + ["-o", routes], check=True, stderr=subprocess.DEVNULL)
        cmd = [sim, "--topology", topo, "--routes", routes, "--load", str(load), "--warmup", str(cycles // 4),
               "--cycles", str(cycles), "--seed", str(seed), "--links", "no", "--time", "--quiet"]
        print("bench: sanfab-sim %s %s load %g (best of %d)" % (" ".join(gen), algo, load, repeat), flush=True)
        d = None
        for _ in range(max(1, repeat)):
            r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if r.returncode != 0:
                sys.exit("bench: sanfab-sim failed (exit %d): %s" % (r.returncode, r.stderr.strip()[-500:]))
            di = json.loads(r.stdout)
            if d is None or di["points"][0]["perf"]["seconds"] < d["points"][0]["perf"]["seconds"]:
                d = di
        pt, perf = d["points"][0], d["points"][0]["perf"]
        rec = {"block": "net", "what": "network",
               "params": {"topology": " ".join(gen), "switches": d["network"]["switches"], "hosts": d["network"]["hosts"],
                          "routes": algo, "traffic": "uniform", "message_size": 512, "load": load,
                          "warmup": cycles // 4, "window": cycles, "seed": seed},
               "cycles": perf["cycles"], "seconds": perf["seconds"], "cycles_per_s": perf["cycles_per_s"],
               "flit_hops_per_s": perf["flit_hops_per_s"], "switch_cycles_skipped": perf.get("switch_cycles_skipped"),
               "accepted_flits_ns_sw": pt["accepted_flits_ns_sw"], "saturated": pt["saturated"],
               "runs": max(1, repeat), "timing": "fastest of %d runs" % max(1, repeat)}
        print("bench:   %.0f cycles/s, %.2f M flit-hops/s, accepted %.4f flits/ns/switch%s"
              % (rec["cycles_per_s"], rec["flit_hops_per_s"] / 1e6, rec["accepted_flits_ns_sw"],
                 " (saturated)" if rec["saturated"] else ""), flush=True)
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cycles", type=int, default=2000000, help="saturating traffic cycles for the speed run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-routing", action="store_true", help="do not run make -C sw bench")
    ap.add_argument("--skip-net", action="store_true", help="no network simulator speed points")
    ap.add_argument("--net-cycles", type=int, default=40000, help="measurement window of each sanfab-sim point")
    ap.add_argument("--net-repeat", type=int, default=3, help="runs of each sanfab-sim point (the fastest is recorded)")
    ap.add_argument("--only", choices=["net", "vcsw"],
                    help="run only this block and keep the other records of reports/bench.json")
    a = ap.parse_args()
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
    if not a.skip_net:
        subprocess.run(["make", "-s", "-C", "sw", "build/sanfab-sim", "build/sanfab-topo", "build/sanfab-route"],
                       cwd=ROOT, check=True)
        with tempfile.TemporaryDirectory() as td:
            records += net_speed(td, a.seed, a.net_cycles, a.net_repeat)
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
    print("bench: wrote reports/bench.json (%d records) and docs/bench.md" % len(records))


def only_block(a):
    """--only BLOCK: that block's points alone (net: the network simulator; vcsw: the VC switch's
    model/RTL/lockstep speed); the other records of reports/bench.json are kept."""
    jpath = os.path.join(ROOT, "reports", "bench.json")
    old = []
    if os.path.exists(jpath):
        with open(jpath) as f:
            old = json.load(f)
    if a.only == "net":
        subprocess.run(["make", "-s", "-C", "sw", "build/sanfab-sim", "build/sanfab-topo", "build/sanfab-route"],
                       cwd=ROOT, check=True)
        with tempfile.TemporaryDirectory() as td:
            new = net_speed(td, a.seed, a.net_cycles, a.net_repeat)
    else:
        if not os.path.exists(VCSW_BENCH):
            sys.exit("bench: %s is missing; run `make bench` (it builds it)" % os.path.relpath(VCSW_BENCH, ROOT))
        new = vcsw_speed("permutation", a.cycles // 2, a.seed) + vcsw_speed("random", a.cycles // 4, a.seed)
    host = {"machine": platform.machine(), "cpus": os.cpu_count(), "python": platform.python_version()}
    for r in new:
        r["host"] = host
    # the new records take the place of the block's old ones (where the first of them was; else
    # before the routing records)
    at = next((i for i, r in enumerate(old) if r.get("block") == a.only), None)
    keep = [r for r in old if r.get("block") != a.only]
    if at is None:
        at = next((i for i, r in enumerate(keep) if r.get("block") == "routing"), len(keep))
    else:
        at = sum(1 for r in old[:at] if r.get("block") != a.only)
    records = keep[:at] + new + keep[at:]
    with open(jpath, "w") as f:
        json.dump(records, f, indent=1)
        f.write("\n")
    write_docs(records)
    print("bench: wrote reports/bench.json (%d records, %d of block %s) and docs/bench.md" % (len(records), len(new), a.only))


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
    nt = [r for r in records if r.get("block") == "net"]
    if nt:
        L.append("## Network simulator (`sanfab-sim`)")
        L.append("")
        L.append("`sanfab-sim --time`, one process, fastest of %d runs (shared machine), 512-byte uniform messages, warm-up + window cycles as listed, quiet" % nt[0].get("runs", 1))
        L.append("switches skipped (docs/network.md). Flit-hops = data characters carried over any link (injection,")
        L.append("switch-to-switch, ejection).")
        L.append("")
        L.append("| network | routes | offered | accepted (flits/ns/switch) | cycles | cycles/s | flit-hops/s | switch-cycles skipped |")
        L.append("|---|---|---|---|---|---|---|---|")
        for r in nt:
            p = r["params"]
            L.append("| %s (%d switches, %d hosts) | %s | %g | %.4f%s | %d | %.0f | %.2f M | %.0f %% |"
                     % (p["topology"], p["switches"], p["hosts"], p["routes"], p["load"], r["accepted_flits_ns_sw"],
                        " (saturated)" if r["saturated"] else "", r["cycles"], r["cycles_per_s"],
                        r["flit_hops_per_s"] / 1e6, 100 * (r.get("switch_cycles_skipped") or 0)))
        L.append("")
        sat64 = [r["flit_hops_per_s"] for r in nt if r["params"]["switches"] == 64 and
                 r["params"]["topology"].startswith("random") and r["saturated"]]
        best64 = max(sat64, default=0)
        L.append("Target (issue 8): at least 10 M flit-hops/s on a 64-switch irregular network at saturation, one core —")
        L.append("measured %.2f M at best over the saturated 64-switch points (%s)." % (
            best64 / 1e6, "met" if best64 >= 10e6 else "**missed**"))
        L.append("")
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

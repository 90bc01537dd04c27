#!/usr/bin/env python3
"""Seed 000's experiments on the network simulator (make experiments): Table 1, the factor of throughput
increase of In-Transit Buffers (ITB, minimal routes) over up*/down* (UD) with uniform traffic on random
irregular networks (docs/network.md, docs/experiments.md).

Default (reduced, about a minute): 512-byte messages, 16 and 32 switches, 2 random topologies each (seeds 1, 2),
a load sweep per route set with short windows. --full: 8/16/32/64 switches, 10 topologies each, 32/512/1024-byte
messages, longer windows (hours; not run by make test).

For every network: sanfab-topo random, sanfab-route updown --select balanced and sanfab-route itb, then one
sanfab-sim sweep per route set (--jobs). Throughput of a sweep = the highest accepted traffic of its points, a
point being saturated when accepted < 0.95 x offered (sanfab-sim's rule, the same for every run); the factor is
ITB throughput / UD throughput. A sweep is extended to higher loads until its last point is saturated and accepts
less than the sweep's best (the accepted traffic has peaked).

Writes reports/experiments/table1.json (every sweep's points and the factors) and docs/experiments.md (our
factors beside the paper's Table 1), and checks the trends the paper states for these sizes: ITB >= UD on
average for every size, and the factor growing with network size. Exit status 1 if a trend check fails.

  scripts/experiments.py [--full] [--jobs N] [--seed N] [--out-json PATH] [--out-md PATH]
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SW = os.path.join(ROOT, "sw", "build")

# Seed 000, Table 1: factor of throughput increase (ITB over UD), uniform traffic: (switches, bytes) -> min, max, avg
PAPER_T1 = {
    (8, 32): (0.90, 1.10, 0.97), (16, 32): (1.09, 1.63, 1.33), (32, 32): (1.66, 2.40, 2.00), (64, 32): (2.60, 3.89, 3.21),
    (8, 512): (0.81, 1.05, 0.92), (16, 512): (1.00, 1.50, 1.25), (32, 512): (1.44, 2.17, 1.76), (64, 512): (2.38, 3.25, 2.72),
    (8, 1024): (0.83, 1.13, 0.92), (16, 1024): (1.00, 1.50, 1.27), (32, 1024): (1.50, 2.01, 1.77),
    (64, 1024): (2.25, 3.20, 2.65),
}

# load points (flits/ns/switch) of a sweep; extended by EXTEND until the last point is saturated
LOADS = [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.10, 0.12]
EXTEND = [0.14, 0.17, 0.2, 0.25, 0.3]


def sh(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("experiments: %s failed (exit %d): %s" % (" ".join(cmd), r.returncode, r.stderr.strip()[-600:]))
    return r.stdout


def sweep(topo, routes, msg, loads, a):
    """One sanfab-sim sweep; returns its JSON."""
    cmd = [os.path.join(SW, "sanfab-sim"), "--topology", topo, "--routes", routes, "--message-size", str(msg),
           "--load", ",".join("%g" % x for x in loads), "--warmup", str(a.warmup), "--cycles", str(a.cycles),
           "--seed", str(a.seed), "--links", "no", "--jobs", str(a.jobs), "--quiet"]
    return json.loads(sh(cmd))


def throughput(points):
    return max(p["accepted_flits_ns_sw"] for p in points)


def run_network(work, nsw, tseed, msgs, a):
    topo = os.path.join(work, "r%d-s%d.topo" % (nsw, tseed))
    ud = os.path.join(work, "r%d-s%d-ud.routes" % (nsw, tseed))
    itb = os.path.join(work, "r%d-s%d-itb.routes" % (nsw, tseed))
    sh([os.path.join(SW, "sanfab-topo"), "random", "--switches", str(nsw), "--seed", str(tseed), "-o", topo])
    sh([os.path.join(SW, "sanfab-route"), "updown", topo, "--select", "balanced", "-o", ud])
    sh([os.path.join(SW, "sanfab-route"), "itb", topo, "--seed", str(tseed), "-o", itb])
    out = []
    for msg in msgs:
        res = {"switches": nsw, "topology_seed": tseed, "message_size": msg}
        for name, routes in (("ud", ud), ("itb", itb)):
            t0 = time.time()
            d = sweep(topo, routes, msg, LOADS, a)
            pts = d["points"]
            for extra in EXTEND:  # the sweep must reach saturation and the peak of accepted traffic
                if pts[-1]["saturated"] and pts[-1]["accepted_flits_ns_sw"] < throughput(pts):
                    break
                pts += sweep(topo, routes, msg, [extra], a)["points"]
            res[name] = {"throughput_flits_ns_sw": throughput(pts), "reached_saturation": pts[-1]["saturated"],
                         "peaked": pts[-1]["accepted_flits_ns_sw"] < throughput(pts),
                         "saturation_load": next((p["load"] for p in pts if p["saturated"]), None),
                         "forward_resets": sum(p["switches"]["drop_timeout"] for p in pts),
                         "itbs_per_msg": [p["itbs_per_msg"] for p in pts],
                         "points": [[p["load"], p["offered_flits_ns_sw"], p["accepted_flits_ns_sw"],
                                     p["latency_ns"]["avg"], p["saturated"]] for p in pts],
                         "seconds": round(time.time() - t0, 1)}
        res["factor"] = res["itb"]["throughput_flits_ns_sw"] / res["ud"]["throughput_flits_ns_sw"]
        print("experiments: %2d switches, topology seed %2d, %4d B: UD %.4f, ITB %.4f flits/ns/switch, factor %.2f "
              "(%.0f + %.0f s)" % (nsw, tseed, msg, res["ud"]["throughput_flits_ns_sw"],
                                   res["itb"]["throughput_flits_ns_sw"], res["factor"], res["ud"]["seconds"],
                                   res["itb"]["seconds"]), flush=True)
        out.append(res)
    return out


def summarise(runs):
    rows = {}
    for r in runs:
        rows.setdefault((r["switches"], r["message_size"]), []).append(r["factor"])
    return {k: (min(v), max(v), sum(v) / len(v), len(v)) for k, v in sorted(rows.items())}


def check_trends(table):
    """The paper's trends that the sizes run can show; list of (ok, text)."""
    checks = []
    sizes = sorted({k[0] for k in table})
    for (nsw, msg), (_, _, avg, _) in table.items():
        if nsw >= 16:
            checks.append((avg >= 1.0, "%d switches, %d B: ITB >= UD on average (factor %.2f)" % (nsw, msg, avg)))
    for msg in sorted({k[1] for k in table}):
        avgs = [(s, table[(s, msg)][2]) for s in sizes if (s, msg) in table and s >= 16]
        for (s0, f0), (s1, f1) in zip(avgs, avgs[1:]):
            checks.append((f1 > f0, "%d B: the factor grows from %d to %d switches (%.2f -> %.2f)" % (msg, s0, s1, f0, f1)))
    return checks


def write_md(path, table, checks, a, meta):
    L = ["# Experiments: seed 000 on the network simulator", "",
         "Generated by `make experiments` (`scripts/experiments.py%s`) from `%s`; do not edit by hand."
         % (" --full" if a.full else "", os.path.relpath(a.out_json, ROOT)), "",
         "## Table 1: factor of throughput increase, ITB over up*/down*, uniform traffic", "",
         "Random irregular networks of 8-port switches with 4 hosts each (`sanfab-topo random`, seeds 1..%d), "
         "up\\*/down\\* routes with balanced selection and ITB minimal routes (`sanfab-route`), Myrinet timing "
         "(docs/network.md). One load sweep per route set: loads %s flits/ns/switch (extended to %s until a point "
         "is saturated and past the peak of accepted traffic), warm-up %d and window %d cycles, seed %d. Throughput = the highest accepted traffic of the "
         "sweep (a point is saturated when accepted < 0.95 x offered); factor = ITB throughput / UD throughput."
         % (a.topologies, ", ".join("%g" % x for x in LOADS), ", ".join("%g" % x for x in EXTEND), a.warmup,
            a.cycles, a.seed), ""]
    if not a.full:
        L += ["**Reduced run** (the `make experiments` default): %s switches, %s-byte messages, %d topologies per "
              "size, short windows. The full table (8/16/32/64 switches, 10 topologies, 32/512/1024 B) is "
              "`scripts/experiments.py --full` and is not run yet." % ("/".join(str(s) for s in a.sizes),
                                                                      "/".join(str(m) for m in a.msgs), a.topologies), ""]
    L += ["| switches | message | ours min | max | avg | networks | paper min | max | avg | avg ours/paper |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for (nsw, msg), (mn, mx, avg, n) in table.items():
        p = PAPER_T1.get((nsw, msg))
        ps = ["%.2f" % x for x in p] + ["%.2f" % (avg / p[2])] if p else ["-"] * 4
        L.append("| %d | %d B | %.2f | %.2f | %.2f | %d | %s | %s | %s | %s |" % (nsw, msg, mn, mx, avg, n, *ps))
    L += ["", "Trend checks (the paper: ITB's factor grows with network size; ITB helps from 16 switches on):", ""]
    for ok, text in checks:
        L.append("- %s %s" % ("ok:" if ok else "**FAILED:**", text))
    L += ["", "Per network (flits/ns/switch):", "", "| switches | topology seed | message | UD | ITB | factor | "
          "UD saturation load | ITB saturation load | forward resets |", "|---|---|---|---|---|---|---|---|---|"]
    for r in meta:
        L.append("| %d | %d | %d B | %.4f | %.4f | %.2f | %s | %s | %d |" % (
            r["switches"], r["topology_seed"], r["message_size"], r["ud"]["throughput_flits_ns_sw"],
            r["itb"]["throughput_flits_ns_sw"], r["factor"], r["ud"]["saturation_load"], r["itb"]["saturation_load"],
            r["ud"]["forward_resets"] + r["itb"]["forward_resets"]))
    L += ["", "Not yet run here (issue 8): Table 2 (low-load latency increase), Table 3 (bit-reversal, local, "
          "hotspot), the 2D torus, torus with express channels and CPLANT, and the figures "
          "(`scripts/plot_net.py` draws them from sanfab-sim JSON).", ""]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(L))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--full", action="store_true", help="the full Table 1 (8/16/32/64 switches, 10 topologies, 3 sizes)")
    ap.add_argument("--jobs", type=int, default=2, help="load points run at once (sanfab-sim --jobs)")
    ap.add_argument("--seed", type=int, default=1, help="traffic seed of every run")
    ap.add_argument("--out-json", default=os.path.join(ROOT, "reports", "experiments", "table1.json"))
    ap.add_argument("--out-md", default=os.path.join(ROOT, "docs", "experiments.md"))
    a = ap.parse_args()
    if a.full:
        a.sizes, a.msgs, a.topologies, a.warmup, a.cycles = [8, 16, 32, 64], [32, 512, 1024], 10, 20000, 100000
    else:
        a.sizes, a.msgs, a.topologies, a.warmup, a.cycles = [16, 32], [512], 2, 5000, 20000
    for tool in ("sanfab-sim", "sanfab-topo", "sanfab-route"):
        if not os.access(os.path.join(SW, tool), os.X_OK):
            sys.exit("experiments: %s missing; run `make -C sw`" % os.path.join(SW, tool))
    print("experiments: seed %d, %s: %s switches, %s B, %d topologies each" % (
        a.seed, "full" if a.full else "reduced", a.sizes, a.msgs, a.topologies), flush=True)
    t0 = time.time()
    work = os.path.join(ROOT, "sw", "build", "tmp", "experiments")
    os.makedirs(work, exist_ok=True)
    runs = []
    for nsw in a.sizes:
        for ts in range(1, a.topologies + 1):
            runs += run_network(work, nsw, ts, a.msgs, a)
    table = summarise(runs)
    checks = check_trends(table)
    os.makedirs(os.path.dirname(a.out_json), exist_ok=True)
    with open(a.out_json, "w") as f:
        json.dump({"experiment": "seed 000 Table 1", "mode": "full" if a.full else "reduced", "seed": a.seed,
                   "warmup": a.warmup, "cycles": a.cycles, "loads": LOADS, "extend": EXTEND,
                   "saturation_rule": "accepted < 0.95 x offered; throughput = highest accepted of the sweep",
                   "table": [{"switches": k[0], "message_size": k[1], "min": v[0], "max": v[1], "avg": v[2],
                              "networks": v[3], "paper": PAPER_T1.get(k)} for k, v in table.items()],
                   "checks": [{"ok": ok, "check": t} for ok, t in checks], "runs": runs,
                   "seconds": round(time.time() - t0, 1)}, f, indent=1)
        f.write("\n")
    write_md(a.out_md, table, checks, a, runs)
    for ok, text in checks:
        print("experiments: %s %s" % ("ok  " if ok else "FAIL", text))
    print("experiments: wrote %s and %s (%.0f s)" % (os.path.relpath(a.out_json, ROOT), os.path.relpath(a.out_md, ROOT),
                                                      time.time() - t0))
    sys.exit(0 if all(ok for ok, _ in checks) else 1)


if __name__ == "__main__":
    main()

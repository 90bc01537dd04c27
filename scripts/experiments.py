#!/usr/bin/env python3
"""Seed 000's experiments on the network simulator (make experiments): In-Transit Buffers (ITB, minimal routes)
against up*/down* (UD) on Myrinet networks (docs/network.md, docs/experiments.md).

  table1   Table 1: factor of throughput increase ITB/UD, uniform traffic, random irregular networks
  table2   Table 2: latency increase of ITB over UD at low load (percent), uniform traffic
  table3   Table 3: factor of throughput increase for bit-reversal, local (l = 3, l = 5) and hotspot traffic
  regular  Sec. 5.5.1: 2D torus, torus with express channels and CPLANT, uniform traffic (throughputs and
           factors; the torus's latency curves and link-utilisation maps as PNGs, Figs. 12a, 13, 14)

Default (reduced, a few minutes on 2 cores): 16 and 32 switches, 2 random topologies each (seeds 1, 2), 512-byte
messages (Table 2 also 32 bytes), short windows. --full: 8/16/32/64 switches, 10 topologies each,
32/512/1024-byte messages (Tables 1 and 2), longer windows (hours; not run by make test). --only picks experiments.

For every random network: sanfab-topo random, sanfab-route updown --select balanced and sanfab-route itb, then
sanfab-sim sweeps (--jobs). Throughput of a sweep = the highest accepted traffic of its points, a point being
saturated when accepted < 0.95 x offered (sanfab-sim's rule, the same for every run); the factor is ITB throughput /
UD throughput. A sweep is extended to higher loads until its last point is saturated and accepts less than the
sweep's best (the accepted traffic has peaked).

Writes reports/experiments/{table1,table2,table3,regular}.json (--out-json names Table 1's file; the others go
beside it), the PNGs beside --out-md (docs/exp-*.png; needs matplotlib from .venv, else skipped with a note) and
docs/experiments.md (our figures beside the paper's), and checks the trends the paper states. Checks marked
"required" fail the run (exit status 1); the others are comparisons reported in the page.

  scripts/experiments.py [--full] [--only table1,table2,table3,regular] [--jobs N] [--seed N]
                         [--out-json PATH] [--out-md PATH]
"""
import argparse
import functools
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SW = os.path.join(ROOT, "sw", "build")
VENV_PY = os.path.join(ROOT, ".venv", "bin", "python")
EXPERIMENTS = ["table1", "table2", "table3", "regular"]

# Seed 000, Table 1: factor of throughput increase (ITB over UD), uniform traffic: (switches, bytes) -> min, max, avg
PAPER_T1 = {
    (8, 32): (0.90, 1.10, 0.97), (16, 32): (1.09, 1.63, 1.33), (32, 32): (1.66, 2.40, 2.00), (64, 32): (2.60, 3.89, 3.21),
    (8, 512): (0.81, 1.05, 0.92), (16, 512): (1.00, 1.50, 1.25), (32, 512): (1.44, 2.17, 1.76), (64, 512): (2.38, 3.25, 2.72),
    (8, 1024): (0.83, 1.13, 0.92), (16, 1024): (1.00, 1.50, 1.27), (32, 1024): (1.50, 2.01, 1.77),
    (64, 1024): (2.25, 3.20, 2.65),
}
# Table 2: percentage of message latency increase for low traffic, ITB over UD: (switches, bytes) -> min, max, avg
PAPER_T2 = {
    (8, 32): (-0.28, 7.86, 2.24), (16, 32): (7.31, 14.87, 10.32), (32, 32): (10.59, 14.16, 12.93),
    (64, 32): (10.12, 15.15, 12.69), (8, 512): (-0.02, 1.39, 0.48), (16, 512): (0.99, 2.73, 1.65),
    (32, 512): (1.19, 2.52, 1.82), (64, 512): (-1.12, 1.52, 0.42), (8, 1024): (0.00, 0.98, 0.22),
    (16, 1024): (-0.08, 1.15, 0.52), (32, 1024): (-2.22, 0.34, -0.85), (64, 1024): (-3.90, -1.34, -2.27),
}
# Table 3: factor of throughput increase for other traffic: (switches, pattern) -> min, max, avg (None: not given)
PAPER_T3 = {
    (8, "bit-reversal"): (0.86, 1.15, 0.99), (16, "bit-reversal"): (0.89, 2.00, 1.29),
    (32, "bit-reversal"): (1.64, 2.52, 2.00), (64, "bit-reversal"): (2.31, 3.56, 2.79),
    (8, "local3"): (0.84, 1.00, 0.93), (16, "local3"): (0.91, 1.09, 0.99), (32, "local3"): (0.91, 1.08, 1.01),
    (64, "local3"): (0.89, 1.01, 0.99), (8, "local5"): None, (16, "local5"): (1.05, 1.55, 1.32),
    (32, "local5"): (1.40, 1.63, 1.51), (64, "local5"): (1.32, 2.03, 1.60),
    (8, "hotspot"): (0.91, 1.10, 1.01), (16, "hotspot"): (1.00, 1.20, 1.09), (32, "hotspot"): (1.10, 1.62, 1.30),
    (64, "hotspot"): (1.58, 3.00, 2.21),
}
# hotspot share per network size (seed 000 sec 5.4.2: 30/20/15/5 % for 8/16/32/64 switches)
HOTSPOT = {8: 30, 16: 20, 32: 15, 64: 5}
# The paper's local l counts the switches on the way, the source's and the destination's included ("one hop away
# (two switches away)", sec. 5.5.2; "all destinations are, at most, four switches away" in 8-switch networks,
# footnote 5): l switches = l - 1 switch-to-switch hops, which is what sanfab-sim's `local` counts.
T3_PATTERNS = [("bit-reversal", "bit-reversal", []), ("local3", "local", ["--local", "2"]),
               ("local5", "local", ["--local", "4"]), ("hotspot", "hotspot", None)]
T3_NAMES = {"bit-reversal": "bit-reversal", "local3": "local (l = 3)", "local5": "local (l = 5)", "hotspot": "hotspot"}
# Sec. 5.5.1, uniform traffic: UD and ITB throughput (flits/ns/switch) as the text gives them
PAPER_REG = {"torus": (0.015, 0.03, 2.0), "express": (0.07, 0.12, 1.71), "cplant": (0.05, 0.082, 1.64)}
REGULAR = {  # name -> sanfab-topo arguments, description, loads (flits/ns/switch)
    "torus": (["torus", "--k", "8", "--ports", "16", "--hosts", "8"], "2D torus 8 x 8, 16-port switches, 8 hosts each",
              [0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.05]),
    "express": (["express", "--k", "8", "--ports", "16", "--hosts", "8"],
                "2D torus 8 x 8 with express channels, 16-port switches, 8 hosts each",
                [0.02, 0.04, 0.06, 0.07, 0.08, 0.1, 0.12, 0.14, 0.16]),
    "cplant": (["cplant"], "CPLANT, 50 16-port switches, 8 hosts each",
               [0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.12]),
}

# load points (flits/ns/switch) of a random-network sweep; extended by EXTEND until the last point is saturated
LOADS = [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.10, 0.12]
EXTEND = [0.14, 0.17, 0.2, 0.25, 0.3]
EXTEND_FACTORS = [1.25, 1.5, 2.0, 2.5, 3.0]  # regular networks: times the last load


def sh(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("experiments: %s failed (exit %d): %s" % (" ".join(cmd), r.returncode, r.stderr.strip()[-600:]))
    return r.stdout


def sim(topo, routes, msg, loads, a, extra=(), warmup=None, cycles=None, links=False):
    """One sanfab-sim sweep; returns its JSON."""
    cmd = [os.path.join(SW, "sanfab-sim"), "--topology", topo, "--routes", routes, "--message-size", str(msg),
           "--load", ",".join("%g" % x for x in loads), "--warmup", str(warmup or a.warmup),
           "--cycles", str(cycles or a.cycles), "--seed", str(a.seed), "--links", "yes" if links else "no",
           "--jobs", str(a.jobs), "--quiet"] + list(extra)
    return json.loads(sh(cmd))


def throughput(points):
    return max(p["accepted_flits_ns_sw"] for p in points)


def sweep(topo, routes, msg, a, loads=LOADS, extend=EXTEND, extra=(), links=False):
    """A load sweep extended until its last point is saturated and past the peak; (summary, raw points)."""
    t0 = time.time()
    pts = sim(topo, routes, msg, loads, a, extra, links=links)["points"]
    for x in extend:  # the sweep must reach saturation and the peak of accepted traffic
        if pts[-1]["saturated"] and pts[-1]["accepted_flits_ns_sw"] < throughput(pts):
            break
        pts += sim(topo, routes, msg, [x], a, extra, links=links)["points"]
    res = {"throughput_flits_ns_sw": throughput(pts), "reached_saturation": pts[-1]["saturated"],
           "peaked": pts[-1]["accepted_flits_ns_sw"] < throughput(pts),
           "saturation_load": next((p["load"] for p in pts if p["saturated"]), None),
           "forward_resets": sum(p["switches"]["drop_timeout"] for p in pts),
           "itbs_per_msg": [p["itbs_per_msg"] for p in pts],
           "points": [[p["load"], p["offered_flits_ns_sw"], p["accepted_flits_ns_sw"], p["latency_ns"]["avg"],
                       p["saturated"]] for p in pts],
           "seconds": round(time.time() - t0, 1)}
    return res, pts


def read_routes(path):
    """A sanfab-routes file as (header lines, {(src, dst, alt): (route line prefix, [route bytes])})."""
    hdr, routes = [], {}
    with open(path) as f:
        for line in f:
            if line.startswith("route "):
                k, v = line.split(":", 1)
                routes[tuple(k.split()[1:4])] = (k.rstrip(), v.split())
            else:
                hdr.append(line)
    return hdr, routes


def itb_paper_routes(topo, ud, itb, out):
    """The other reading of the paper's ITB route set (sec. 4: "when the up*/down* routing algorithm for a given
    packet does not provide any minimal path, the proposed routing strategy is able to find a minimal path" with
    ITBs; with local l = 3
    traffic ITB adds almost nothing, 0.0008 ITBs per message): `ud` holds for every pair a shortest legal
    up*/down* path chosen at random (sanfab-route updown --select random); a pair whose path is minimal keeps it,
    every other pair takes sanfab-route itb's random minimal path with ITBs at its down->up turns (`itb`).
    Route lengths in switches: the route bytes, minus one per ITB mark (the in-transit host's switch appears
    before and after the mark). Returns the share of pairs that have a minimal up*/down* path."""
    hu, ru = read_routes(ud)
    hi, ri = read_routes(itb)
    kept = 0
    with open(out, "w") as f:
        f.write(hi[0])
        f.write("# seed 000's ITB rule: the up*/down* route of %s where it is minimal, else the ITB route of %s\n"
                % (os.path.basename(ud), os.path.basename(itb)))
        f.writelines(hi[1:])
        for key, (prefix, b) in ri.items():
            minimal = len(b) - 2 * b.count("c0")  # bytes without the marks, minus the repeated switches
            pu, bu = ru[key]
            if len(bu) == minimal:
                kept += 1
                b = bu
            f.write("%s : %s\n" % (prefix, " ".join(b)))
    sh([os.path.join(SW, "sanfab-route"), "check", topo, out])
    return kept / max(1, len(ri))


@functools.lru_cache(maxsize=None)
def make_random(work, nsw, tseed):
    """sanfab-topo random, UD (balanced) routes, sanfab-route itb (a random minimal path for every pair, ITBs at
    its down->up turns: the route set of every table) and the other reading of the paper's rule (itb_paper_routes:
    ITB paths only where no minimal up*/down* path exists); returns (topo, ud, itb, itb_alt) paths. Made once per
    (work, nsw, tseed) in a run: Tables 1-3 share the networks."""
    topo = os.path.join(work, "r%d-s%d.topo" % (nsw, tseed))
    ud = os.path.join(work, "r%d-s%d-ud.routes" % (nsw, tseed))
    itb = os.path.join(work, "r%d-s%d-itb.routes" % (nsw, tseed))
    itb_alt = os.path.join(work, "r%d-s%d-itb-alt.routes" % (nsw, tseed))
    ud_min = os.path.join(work, "r%d-s%d-ud-random.routes" % (nsw, tseed))
    sh([os.path.join(SW, "sanfab-topo"), "random", "--switches", str(nsw), "--seed", str(tseed), "-o", topo])
    sh([os.path.join(SW, "sanfab-route"), "updown", topo, "--select", "balanced", "-o", ud])
    sh([os.path.join(SW, "sanfab-route"), "updown", topo, "--select", "random", "--seed", str(tseed), "-o", ud_min])
    sh([os.path.join(SW, "sanfab-route"), "itb", topo, "--seed", str(tseed), "-o", itb])
    itb_paper_routes(topo, ud_min, itb, itb_alt)
    return topo, ud, itb, itb_alt


def factor_pair(topo, ud, itb, msg, a, extra=(), **kw):
    """UD and ITB sweeps of one network; dict with both summaries and the factor."""
    res = {}
    for name, routes in (("ud", ud), ("itb", itb)):
        res[name], _ = sweep(topo, routes, msg, a, extra=extra, **kw)
    res["factor"] = res["itb"]["throughput_flits_ns_sw"] / res["ud"]["throughput_flits_ns_sw"]
    return res


def stats(vals):
    return (min(vals), max(vals), sum(vals) / len(vals), len(vals))


def networks(a, work):
    """The random networks of Tables 1-3: (switches, topology seed, topo, ud, itb, itb_alt) for every size and
    topology seed of the run."""
    for nsw in a.sizes:
        for ts in range(1, a.topologies + 1):
            yield (nsw, ts) + make_random(work, nsw, ts)


def grouped(runs, key, value):
    """{key(run): [run[value], ...]} in run order."""
    rows = {}
    for r in runs:
        rows.setdefault(key(r), []).append(r[value])
    return rows


# ------------------------------------------------------------------ Table 1

def table1(a, work):
    runs = []
    for nsw, ts, topo, ud, itb, itb_alt in networks(a, work):
        for msg in a.msgs:
            res = {"switches": nsw, "topology_seed": ts, "message_size": msg}
            res.update(factor_pair(topo, ud, itb, msg, a))
            res["itb_alt"], _ = sweep(topo, itb_alt, msg, a)
            res["factor_itb_alt"] = res["itb_alt"]["throughput_flits_ns_sw"] / res["ud"]["throughput_flits_ns_sw"]
            log("table1: %2d switches, topology seed %2d, %4d B: UD %.4f, ITB %.4f flits/ns/switch, factor %.2f "
                "(ITB only where UD is not minimal: %.4f, %.2f)" % (
                    nsw, ts, msg, res["ud"]["throughput_flits_ns_sw"], res["itb"]["throughput_flits_ns_sw"],
                    res["factor"], res["itb_alt"]["throughput_flits_ns_sw"], res["factor_itb_alt"]))
            runs.append(res)
    def size_msg(r):
        return (r["switches"], r["message_size"])
    rows, rows_alt = grouped(runs, size_msg, "factor"), grouped(runs, size_msg, "factor_itb_alt")
    table = {k: stats(v) + (stats(rows_alt[k])[2],) for k, v in sorted(rows.items())}
    checks = []
    for (nsw, msg), (_, _, avg, _, _) in table.items():
        if nsw >= 16:
            checks.append((avg >= 1.0, True, "Table 1, %d switches, %d B: ITB >= UD on average (factor %.2f)"
                           % (nsw, msg, avg)))
    sizes = sorted({k[0] for k in table})
    for msg in sorted({k[1] for k in table}):
        avgs = [(s, table[(s, msg)][2]) for s in sizes if (s, msg) in table and s >= 16]
        for (s0, f0), (s1, f1) in zip(avgs, avgs[1:]):
            checks.append((f1 > f0, True, "Table 1, %d B: the factor grows from %d to %d switches (%.2f -> %.2f)"
                           % (msg, s0, s1, f0, f1)))
    data = {"experiment": "seed 000 Table 1", "table": [
        {"switches": k[0], "message_size": k[1], "min": v[0], "max": v[1], "avg": v[2], "networks": v[3],
         "avg_itb_only_where_ud_not_minimal": v[4], "paper": PAPER_T1.get(k)} for k, v in table.items()], "runs": runs}
    return data, table, checks


def md_table1(a, data, table):
    L = ["## Table 1: factor of throughput increase, ITB over up*/down*, uniform traffic", "",
         "Random irregular networks of 8-port switches with 4 hosts each (`sanfab-topo random`, seeds 1..%d), "
         "up\\*/down\\* routes with balanced selection and ITB minimal routes (`sanfab-route`), Myrinet timing "
         "(docs/network.md); ITB = `sanfab-route itb`: one random minimal path per pair, ITBs at its down->up "
         "turns (sec. 4: \"only one minimal path for each source-destination pair, randomly selected among all the "
         "feasible paths\"). The last columns use the other reading of sec. 4 (see the notes below): a random "
         "minimal up\\*/down\\* path where one exists (`sanfab-route updown --select random`), the ITB path only "
         "for the other pairs. "
         "One load sweep per route set: loads %s flits/ns/switch (extended to %s until a point "
         "is saturated and past the peak of accepted traffic), warm-up %d and window %d cycles, seed %d. Throughput "
         "= the highest accepted traffic of the sweep (a point is saturated when accepted < 0.95 x offered); "
         "factor = ITB throughput / UD throughput."
         % (a.topologies, ", ".join("%g" % x for x in LOADS), ", ".join("%g" % x for x in EXTEND), a.warmup,
            a.cycles, a.seed), "",
         "| switches | message | ours min | max | avg | networks | paper min | max | avg | avg ours/paper | "
         "avg, ITB only where UD is not minimal |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (nsw, msg), (mn, mx, avg, n, avg_all) in table.items():
        p = PAPER_T1.get((nsw, msg))
        ps = ["%.2f" % x for x in p] + ["%.2f" % (avg / p[2])] if p else ["-"] * 4
        L.append("| %d | %d B | %.2f | %.2f | %.2f | %d | %s | %s | %s | %s | %.2f |"
                 % (nsw, msg, mn, mx, avg, n, *ps, avg_all))
    L += ["", "Per network (flits/ns/switch):", "", "| switches | topology seed | message | UD | ITB | factor | "
          "UD saturation load | ITB saturation load | forward resets | ITB only where UD is not minimal | factor |",
          "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in data["runs"]:
        L.append("| %d | %d | %d B | %.4f | %.4f | %.2f | %s | %s | %d | %.4f | %.2f |" % (
            r["switches"], r["topology_seed"], r["message_size"], r["ud"]["throughput_flits_ns_sw"],
            r["itb"]["throughput_flits_ns_sw"], r["factor"], r["ud"]["saturation_load"], r["itb"]["saturation_load"],
            r["ud"]["forward_resets"] + r["itb"]["forward_resets"], r["itb_alt"]["throughput_flits_ns_sw"],
            r["factor_itb_alt"]))
    return L + [""]


# ------------------------------------------------------------------ Table 2

def table2(a, work):
    runs = []
    for nsw, ts, topo, ud, itb, _ in networks(a, work):
        for msg in a.t2_msgs:
            res = {"switches": nsw, "topology_seed": ts, "message_size": msg, "load": a.t2_load}
            for name, routes in (("ud", ud), ("itb", itb)):
                p = sim(topo, routes, msg, [a.t2_load], a, warmup=a.t2_warmup, cycles=a.t2_cycles)["points"][0]
                res[name] = {"latency_ns_avg": p["latency_ns"]["avg"], "latency_ns_avg_network":
                             p["latency_ns"]["avg_network"], "latency_samples": p["messages"]["latency_samples"],
                             "itbs_per_msg": p["itbs_per_msg"], "saturated": p["saturated"],
                             "accepted_flits_ns_sw": p["accepted_flits_ns_sw"]}
            res["increase_pct"] = 100.0 * (res["itb"]["latency_ns_avg"] / res["ud"]["latency_ns_avg"] - 1.0)
            log("table2: %2d switches, topology seed %2d, %4d B, load %g: UD %.0f ns, ITB %.0f ns (%.2f ITBs/msg), "
                "increase %+.2f %%" % (nsw, ts, msg, a.t2_load, res["ud"]["latency_ns_avg"],
                                       res["itb"]["latency_ns_avg"], res["itb"]["itbs_per_msg"],
                                       res["increase_pct"]))
            runs.append(res)
    rows = grouped(runs, lambda r: (r["switches"], r["message_size"]), "increase_pct")
    table = {k: stats(v) for k, v in sorted(rows.items())}
    checks = []
    for nsw in sorted({k[0] for k in table}):
        ms = sorted(m for (s, m) in table if s == nsw)
        for m0, m1 in zip(ms, ms[1:]):
            f0, f1 = table[(nsw, m0)][2], table[(nsw, m1)][2]
            checks.append((f1 < f0, True, "Table 2, %d switches: ITB's latency increase is smaller for %d B than for "
                           "%d B messages (%.2f %% < %.2f %%)" % (nsw, m1, m0, f1, f0)))
    for (nsw, msg), (mn, mx, avg, _) in table.items():
        if msg >= 512:
            checks.append((abs(avg) < 5.0, False, "Table 2, %d switches, %d B: the increase is small (paper: at most "
                           "2.73 %% for 512 and 1024 B; ours %.2f %% on average)" % (nsw, msg, avg)))
    data = {"experiment": "seed 000 Table 2", "load": a.t2_load, "warmup": a.t2_warmup, "cycles": a.t2_cycles,
            "table": [{"switches": k[0], "message_size": k[1], "min": v[0], "max": v[1], "avg": v[2],
                       "networks": v[3], "paper": PAPER_T2.get(k)} for k, v in table.items()], "runs": runs}
    return data, table, checks


def md_table2(a, data, table):
    L = ["## Table 2: latency increase of ITB over up*/down* at low load (percent)", "",
         "The same random networks and route sets as Table 1; uniform traffic at %g flits/ns/switch (the paper says "
         "\"low traffic\" without a number), one point per route set with warm-up %d and window %d cycles, seed %d "
         "(UD and ITB get the same messages: same generation times and destinations). Latency = average from "
         "generation to delivery (ns); increase = ITB / UD - 1." % (a.t2_load, a.t2_warmup, a.t2_cycles, a.seed), "",
         "| switches | message | ours min | max | avg | networks | paper min | max | avg |",
         "|---|---|---|---|---|---|---|---|---|"]
    for (nsw, msg), (mn, mx, avg, n) in table.items():
        p = PAPER_T2.get((nsw, msg))
        ps = ["%.2f" % x for x in p] if p else ["-"] * 3
        L.append("| %d | %d B | %.2f | %.2f | %.2f | %d | %s | %s | %s |" % (nsw, msg, mn, mx, avg, n, *ps))
    L += ["", "| switches | topology seed | message | UD latency (ns) | ITB latency (ns) | ITBs per message | increase |",
          "|---|---|---|---|---|---|---|"]
    for r in data["runs"]:
        L.append("| %d | %d | %d B | %.0f | %.0f | %.3f | %+.2f %% |" % (
            r["switches"], r["topology_seed"], r["message_size"], r["ud"]["latency_ns_avg"],
            r["itb"]["latency_ns_avg"], r["itb"]["itbs_per_msg"], r["increase_pct"]))
    return L + [""]


# ------------------------------------------------------------------ Table 3

def table3(a, work):
    runs = []
    for nsw, ts, topo, ud, itb, _ in networks(a, work):
        for name, traffic, extra in T3_PATTERNS:
            if name == "local5" and nsw <= 8:
                continue  # the paper: every destination is at most 4 switches away in 8-switch networks
            ex = ["--traffic", traffic] + (extra if extra is not None else ["--hotspot", str(HOTSPOT[nsw])])
            res = {"switches": nsw, "topology_seed": ts, "pattern": name, "message_size": a.t3_msg,
                   "traffic": ex[1:]}
            res.update(factor_pair(topo, ud, itb, a.t3_msg, a, extra=ex))
            log("table3: %2d switches, topology seed %2d, %-12s UD %.4f, ITB %.4f flits/ns/switch, factor %.2f, "
                "ITBs/msg %.3f" % (nsw, ts, name, res["ud"]["throughput_flits_ns_sw"],
                                   res["itb"]["throughput_flits_ns_sw"], res["factor"],
                                   max(res["itb"]["itbs_per_msg"])))
            runs.append(res)
    rows = grouped(runs, lambda r: (r["switches"], r["pattern"]), "factor")
    table = {k: stats(v) for k, v in sorted(rows.items(), key=lambda kv: (kv[0][0], [p[0] for p in T3_PATTERNS].index(kv[0][1])))}
    checks = []
    for nsw in sorted({k[0] for k in table}):
        if (nsw, "local3") in table:
            f3 = table[(nsw, "local3")][2]
            checks.append((0.85 <= f3 <= 1.2, False, "Table 3, %d switches: ITB does not help local l = 3 traffic "
                           "(paper 0.93-1.01 on average; ours %.2f)" % (nsw, f3)))
            if (nsw, "local5") in table:
                f5 = table[(nsw, "local5")][2]
                checks.append((f5 > f3, False, "Table 3, %d switches: ITB helps local l = 5 more than l = 3 (%.2f > %.2f)"
                               % (nsw, f5, f3)))
        for pat in ("bit-reversal", "hotspot"):
            if (nsw, pat) in table and nsw >= 16:
                f = table[(nsw, pat)][2]
                checks.append((f >= 1.0, False, "Table 3, %d switches, %s: ITB >= UD on average (factor %.2f)"
                               % (nsw, pat, f)))
    sizes = sorted({k[0] for k in table})
    for pat in ("bit-reversal", "local5", "hotspot"):
        avgs = [(s, table[(s, pat)][2]) for s in sizes if (s, pat) in table and s >= 16]
        for (s0, f0), (s1, f1) in zip(avgs, avgs[1:]):
            checks.append((f1 > f0, False, "Table 3, %s: the factor grows from %d to %d switches (%.2f -> %.2f)"
                           % (pat, s0, s1, f0, f1)))
    data = {"experiment": "seed 000 Table 3", "message_size": a.t3_msg, "hotspot_percent": HOTSPOT,
            "table": [{"switches": k[0], "pattern": k[1], "min": v[0], "max": v[1], "avg": v[2], "networks": v[3],
                       "paper": PAPER_T3.get(k)} for k, v in table.items()], "runs": runs}
    return data, table, checks


def md_table3(a, data, table):
    L = ["## Table 3: factor of throughput increase for bit-reversal, local and hotspot traffic", "",
         "The same random networks and route sets as Table 1, %d-byte messages (the paper does not say which size "
         "Table 3 uses), sweeps as in Table 1. Bit-reversal: the source id's bits reversed (hosts that map to "
         "themselves send nothing); local *l*: uniform over the hosts whose switch is at most *l* switches away, the "
         "source's and the destination's switch counted as in the paper (\"one hop away (two switches away)\"), "
         "i.e. sanfab-sim `local` *l* - 1 hops; hotspot: %s of the "
         "messages to one host chosen from the seed (the paper's shares for 8/16/32/64 switches), the rest uniform."
         % (a.t3_msg, "/".join("%d %%" % HOTSPOT[s] for s in sorted(HOTSPOT))), "",
         "| switches | traffic | ours min | max | avg | networks | paper min | max | avg |",
         "|---|---|---|---|---|---|---|---|---|"]
    for (nsw, pat), (mn, mx, avg, n) in table.items():
        p = PAPER_T3.get((nsw, pat))
        ps = ["%.2f" % x for x in p] if p else ["-"] * 3
        L.append("| %d | %s | %.2f | %.2f | %.2f | %d | %s | %s | %s |" % (nsw, T3_NAMES[pat], mn, mx, avg, n, *ps))
    L += ["", "Per network (flits/ns/switch; ITBs per message at the highest load):", "",
          "| switches | topology seed | traffic | UD | ITB | factor | ITBs/msg | forward resets |",
          "|---|---|---|---|---|---|---|---|"]
    for r in data["runs"]:
        L.append("| %d | %d | %s | %.4f | %.4f | %.2f | %.3f | %d |" % (
            r["switches"], r["topology_seed"], T3_NAMES[r["pattern"]], r["ud"]["throughput_flits_ns_sw"],
            r["itb"]["throughput_flits_ns_sw"], r["factor"], r["itb"]["itbs_per_msg"][-1],
            r["ud"]["forward_resets"] + r["itb"]["forward_resets"]))
    return L + [""]


# ------------------------------------------------------------------ regular topologies

def regular(a, work, png_dir):
    runs, plots = [], []
    for name in a.regular:
        gen, desc, loads = REGULAR[name]
        topo = os.path.join(work, "%s.topo" % name)
        ud = os.path.join(work, "%s-ud.routes" % name)
        itb = os.path.join(work, "%s-itb.routes" % name)
        itb_alt = os.path.join(work, "%s-itb-alt.routes" % name)
        sh([os.path.join(SW, "sanfab-topo")] + gen + ["-o", topo])
        sh([os.path.join(SW, "sanfab-route"), "updown", topo, "--select", "balanced", "-o", ud])
        sh([os.path.join(SW, "sanfab-route"), "itb", topo, "--seed", "1", "-o", itb])
        ud_min = os.path.join(work, "%s-ud-random.routes" % name)
        sh([os.path.join(SW, "sanfab-route"), "updown", topo, "--select", "random", "--seed", "1", "-o", ud_min])
        kept = itb_paper_routes(topo, ud_min, itb, itb_alt)
        res = {"network": name, "description": desc, "message_size": a.reg_msg, "ud_minimal_share": kept}
        raw = {}
        for rname, routes in (("ud", ud), ("itb", itb)):
            ext = [round(loads[-1] * f, 4) for f in EXTEND_FACTORS]
            res[rname], pts = sweep(topo, routes, a.reg_msg, a, loads=loads, extend=ext, links=(name == "torus"))
            raw[rname] = pts
        res["factor"] = res["itb"]["throughput_flits_ns_sw"] / res["ud"]["throughput_flits_ns_sw"]
        ext = [round(loads[-1] * f, 4) for f in EXTEND_FACTORS]
        res["itb_alt"], _ = sweep(topo, itb_alt, a.reg_msg, a, loads=loads, extend=ext)
        res["factor_itb_alt"] = res["itb_alt"]["throughput_flits_ns_sw"] / res["ud"]["throughput_flits_ns_sw"]
        log("regular: %-8s UD %.4f, ITB %.4f flits/ns/switch, factor %.2f (minimal up*/down* paths for %.0f %% of "
            "the pairs; ITB only for the others: %.4f, factor %.2f)" % (
                name, res["ud"]["throughput_flits_ns_sw"], res["itb"]["throughput_flits_ns_sw"], res["factor"],
                100 * kept, res["itb_alt"]["throughput_flits_ns_sw"], res["factor_itb_alt"]))
        if name == "torus":
            res["link_utilisation"] = {}
            for rname, load in (("ud", 0.015), ("itb", 0.015), ("itb", 0.03)):
                p = min(raw[rname], key=lambda q: abs(q["load"] - load))
                u = [c[4] for c in p["links"]["per_channel"]]
                res["link_utilisation"]["%s@%g" % (rname, load)] = {
                    "load": p["load"], "accepted_flits_ns_sw": p["accepted_flits_ns_sw"], "mean": sum(u) / len(u),
                    "max": max(u), "min": min(u), "below_10_pct": sum(1 for x in u if x < 0.10) / len(u),
                    "per_channel": p["links"]["per_channel"]}
            plots += torus_plots(a, work, raw, png_dir)
        runs.append(res)
    checks = []
    for r in runs:
        checks.append((r["factor"] > 1.0, True, "%s, uniform: ITB's throughput above UD's (factor %.2f; paper %.2f)"
                       % (r["network"], r["factor"], PAPER_REG[r["network"]][2])))
        if r["network"] == "torus":
            lu = r["link_utilisation"]
            checks.append((lu["itb@0.015"]["max"] < lu["ud@0.015"]["max"], False,
                           "torus at 0.015: ITB spreads the load (most used channel %.2f with ITB, %.2f with UD; "
                           "paper: < 0.12 and 0.50)" % (lu["itb@0.015"]["max"], lu["ud@0.015"]["max"])))
    return {"experiment": "seed 000 sec 5.5.1 (regular topologies, uniform traffic)", "runs": runs,
            "plots": plots}, runs, checks


def torus_plots(a, work, raw, png_dir):
    """Figs. 12a, 13 and 14 of the torus as PNGs (plot_net.py with the .venv's matplotlib); [] if it is missing."""
    if not os.access(VENV_PY, os.X_OK) or subprocess.run([VENV_PY, "-c", "import matplotlib"],
                                                         capture_output=True).returncode != 0:
        log("regular: matplotlib missing (make deps): no PNGs")
        return []
    files = {}
    for rname, pts in raw.items():
        files[rname] = os.path.join(work, "torus-%s.json" % rname)
        with open(files[rname], "w") as f:
            json.dump({"network": {"switches": 64, "algorithm": rname}, "points": pts}, f)
    plot = os.path.join(ROOT, "scripts", "plot_net.py")
    out = []
    lat = os.path.join(png_dir, "exp-torus-latency.png")
    sh([VENV_PY, plot, "latency", files["ud"], files["itb"], "--label", "UD", "--label", "ITB", "-o", lat,
        "--title", "2D torus 8x8, uniform, %d B (Fig. 12a)" % a.reg_msg, "--dpi", "90"])
    out.append(lat)
    vmax = max(c[4] for rn, l in (("ud", 0.015), ("itb", 0.015)) for c in
               min(raw[rn], key=lambda q: abs(q["load"] - l))["links"]["per_channel"])
    for rname, load, fig in (("ud", 0.015, "13a"), ("itb", 0.015, "13b"), ("itb", 0.03, "14")):
        png = os.path.join(png_dir, "exp-torus-links-%s-%g.png" % (rname, load))
        sh([VENV_PY, plot, "links", files[rname], "--load", str(load), "-o", png, "--dpi", "80"] +
           (["--vmax", "%g" % vmax] if load == 0.015 else []) +
           ["--title", "%s, offered %g flits/ns/switch (Fig. %s)" % (rname.upper(), load, fig)])
        out.append(png)
    return [os.path.relpath(p, ROOT) for p in out]


def md_regular(a, data, runs, md_dir):
    L = ["## Regular topologies: 2D torus, express channels, CPLANT (sec. 5.5.1, uniform traffic)", "",
         "`sanfab-topo torus --k 8 --ports 16 --hosts 8` (512 hosts), `express` (the same torus plus links to the "
         "second neighbours in each dimension) and `cplant` (50 switches, 400 hosts); UD rooted at switch 0 (the "
         "torus's top-left switch, as in the paper) with balanced selection, ITB as in Table 1 "
         "(the paper: 80 %% of UD's torus routes and 94 %% with express channels are minimal; our column: pairs with "
         "a minimal up\\*/down\\* path; the last two columns: ITB paths only for the other pairs); %d-byte messages "
         "(the paper does not say), sweeps as in Table 1 with each network's own loads. The paper gives UD's and "
         "ITB's throughput in the text (Fig. 12)." % a.reg_msg, "",
         "| network | pairs with a minimal UD path | UD ours | ITB ours | factor ours | UD paper | ITB paper | factor paper | "
         "UD saturation load | ITB saturation load | ITB only where UD is not minimal | factor |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in runs:
        p = PAPER_REG[r["network"]]
        L.append("| %s | %.0f %% | %.4f | %.4f | %.2f | %.3f | %.3f | %.2f | %s | %s | %.4f | %.2f |" % (
            r["description"], 100 * r["ud_minimal_share"], r["ud"]["throughput_flits_ns_sw"],
            r["itb"]["throughput_flits_ns_sw"], r["factor"], p[0], p[1], p[2], r["ud"]["saturation_load"],
            r["itb"]["saturation_load"], r["itb_alt"]["throughput_flits_ns_sw"], r["factor_itb_alt"]))
    tor = next((r for r in runs if r["network"] == "torus"), None)
    if tor:
        lu = tor["link_utilisation"]
        L += ["", "Torus link utilisation (switch-to-switch channels; paper Figs. 13 and 14: UD at 0.015 up to 50 % "
              "near the root with 65 % of the links below 10 %; ITB at 0.015 all below 12 %; ITB at 0.03 14-29 %):", "",
              "| routes | offered load | accepted | mean | min | max | channels below 10 % |", "|---|---|---|---|---|---|---|"]
        for key, v in lu.items():
            L.append("| %s | %g | %.4f | %.3f | %.3f | %.3f | %.0f %% |" % (
                key.split("@")[0].upper(), v["load"], v["accepted_flits_ns_sw"], v["mean"], v["min"], v["max"],
                100 * v["below_10_pct"]))
        if data["plots"]:
            L += [""] + ["![%s](%s)" % (os.path.basename(p), os.path.relpath(os.path.join(ROOT, p), md_dir))
                         for p in data["plots"]]
    return L + [""]


# ------------------------------------------------------------------ the page

def log(msg):
    print("experiments: " + msg, flush=True)


def write_md(path, a, sections, checks, notes):
    L = ["# Experiments: seed 000 on the network simulator", "",
         "Generated by `make experiments` (`scripts/experiments.py%s`) from `reports/experiments/*.json`; do not "
         "edit by hand." % (" --full" if a.full else ""), ""]
    if not a.full:
        L += ["**Reduced run** (the `make experiments` default and the `experiments` step of `make test`): %s "
              "switches, %d random topologies per size, %s-byte messages (Table 2 also %s B), short windows. The "
              "full set (8/16/32/64 switches, 10 topologies, 32/512/1024 B, longer windows) is "
              "`scripts/experiments.py --full` and has not been run yet." % (
                  "/".join(str(s) for s in a.sizes), a.topologies, "/".join(str(m) for m in a.msgs),
                  "/".join(str(m) for m in a.t2_msgs)), ""]
    L += ["Checks (required ones fail the run; the others compare with the paper's statements):", ""]
    for ok, hard, text in checks:
        L.append("- %s %s%s" % ("ok:" if ok else ("**FAILED:**" if hard else "**differs:**"), text,
                                " (required)" if hard else ""))
    L.append("")
    for sec in sections:
        L += sec
    L += notes
    L += ["Not yet run here (issue 8): Table 4 (hotspot on the regular topologies), bit-reversal and local traffic on "
          "the regular topologies, Fig. 11 (ITB pool occupancy), the full-size runs (`--full`).", ""]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(L))


NOTES_FILE = os.path.join(ROOT, "docs", "experiments-notes.md")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--full", action="store_true", help="full sizes (8/16/32/64 switches, 10 topologies, 3 sizes)")
    ap.add_argument("--only", default=",".join(EXPERIMENTS), help="comma list of " + ", ".join(EXPERIMENTS))
    ap.add_argument("--jobs", type=int, default=2, help="load points run at once (sanfab-sim --jobs)")
    ap.add_argument("--seed", type=int, default=1, help="traffic seed of every run")
    ap.add_argument("--out-json", default=os.path.join(ROOT, "reports", "experiments", "table1.json"),
                    help="Table 1's JSON; the other experiments' JSON files are written beside it")
    ap.add_argument("--out-md", default=os.path.join(ROOT, "docs", "experiments.md"),
                    help="the page; the PNGs are written beside it")
    a = ap.parse_args()
    only = [x.strip() for x in a.only.split(",") if x.strip()]
    bad = [x for x in only if x not in EXPERIMENTS]
    if bad or not only:
        sys.exit("experiments: --only: unknown experiment %s (known: %s)" % (", ".join(bad) or "(none)",
                                                                           ", ".join(EXPERIMENTS)))
    if a.jobs < 1 or a.jobs > 64:
        sys.exit("experiments: --jobs must be 1..64")
    if a.full:
        a.sizes, a.msgs, a.topologies, a.warmup, a.cycles = [8, 16, 32, 64], [32, 512, 1024], 10, 20000, 100000
        a.t2_msgs, a.t2_warmup, a.t2_cycles = [32, 512, 1024], 20000, 400000
        a.regular = ["torus", "express", "cplant"]
    else:
        a.sizes, a.msgs, a.topologies, a.warmup, a.cycles = [16, 32], [512], 2, 5000, 20000
        a.t2_msgs, a.t2_warmup, a.t2_cycles = [32, 512], 5000, 100000
        a.regular = ["torus", "express", "cplant"]
    a.t2_load, a.t3_msg, a.reg_msg = 0.005, 512, 512
    for tool in ("sanfab-sim", "sanfab-topo", "sanfab-route"):
        if not os.access(os.path.join(SW, tool), os.X_OK):
            sys.exit("experiments: %s missing; run `make -C sw`" % os.path.join(SW, tool))
    out_dir, md_dir = os.path.dirname(os.path.abspath(a.out_json)), os.path.dirname(os.path.abspath(a.out_md))
    os.makedirs(out_dir, exist_ok=True)
    os.makedirs(md_dir, exist_ok=True)
    log("seed %d, %s: %s switches, %s B, %d topologies each; %s" % (
        a.seed, "full" if a.full else "reduced", a.sizes, a.msgs, a.topologies, ", ".join(only)))
    t0 = time.time()
    work = os.path.join(ROOT, "sw", "build", "tmp", "experiments")
    os.makedirs(work, exist_ok=True)
    common = {"mode": "full" if a.full else "reduced", "seed": a.seed, "warmup": a.warmup, "cycles": a.cycles,
              "loads": LOADS, "extend": EXTEND, "sizes": a.sizes, "topologies": a.topologies,
              "saturation_rule": "accepted < 0.95 x offered; throughput = highest accepted of the sweep"}
    sections, checks = [], []
    paths = {"table1": os.path.abspath(a.out_json)}
    for e in EXPERIMENTS[1:]:
        paths[e] = os.path.join(out_dir, e + ".json")
    for e in EXPERIMENTS:
        t1 = time.time()
        if e in only:
            if e == "table1":
                data, table, ch = table1(a, work)
                sec = md_table1(a, data, table)
            elif e == "table2":
                data, table, ch = table2(a, work)
                sec = md_table2(a, data, table)
            elif e == "table3":
                data, table, ch = table3(a, work)
                sec = md_table3(a, data, table)
            else:
                data, runs, ch = regular(a, work, md_dir)
                sec = md_regular(a, data, runs, md_dir)
            data.update(common)
            data["checks"] = [{"ok": ok, "required": hard, "check": t} for ok, hard, t in ch]
            data["seconds"] = round(time.time() - t1, 1)
            with open(paths[e], "w") as f:
                json.dump(data, f, indent=1)
                f.write("\n")
            log("%s: %.0f s, wrote %s" % (e, time.time() - t1, os.path.relpath(paths[e], ROOT)))
            sections.append(sec)
            checks += ch
    notes = []
    if os.path.exists(NOTES_FILE):
        with open(NOTES_FILE) as f:
            notes = f.read().splitlines() + [""]
    write_md(a.out_md, a, sections, checks, notes)
    for ok, hard, text in checks:
        log("%s %s" % ("ok  " if ok else ("FAIL" if hard else "diff"), text))
    log("wrote %s (%.0f s)" % (os.path.relpath(a.out_md, ROOT), time.time() - t0))
    sys.exit(0 if all(ok for ok, hard, _ in checks if hard) else 1)


if __name__ == "__main__":
    main()

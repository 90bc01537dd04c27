"""Seed 000's experiments on the crossbar network (scripts/experiments.py --paper 000): In-Transit Buffers (ITB,
minimal routes) against up*/down* (UD) on Myrinet networks (docs/network.md, docs/experiments.md). The shared
driver (sweeps, the throughput rule, the command line, JSON and page) is scripts/exp_driver.py.

  table1   Table 1: factor of throughput increase ITB/UD, uniform traffic, random irregular networks
  table2   Table 2: latency increase of ITB over UD at low load (percent), uniform traffic
  table3   Table 3: factor of throughput increase for bit-reversal, local (l = 3, l = 5) and hotspot traffic
  fig11    Fig. 11: ITB pool occupancy, 32 switches, uniform, 32-byte messages: latency sweeps (11a) and the
           in-transit packets held per NIC (average and maximum) near and beyond saturation (11b, 11c)
  regular  Sec. 5.5.1: 2D torus, torus with express channels and CPLANT, uniform traffic (throughputs and
           factors; the torus's latency curves and link-utilisation maps as PNGs, Figs. 12a, 13, 14)
  table4   Table 4: factor of throughput increase for hotspot traffic on the regular topologies (torus 5/10 %,
           express 3/5 %, CPLANT 5 %), several hotspot locations (min/max/avg)

Default (reduced, about 2 minutes on 2 idle cores): 16 and 32 switches, 2 random topologies each (seeds 1, 2),
512-byte messages (Table 2 also 32 bytes), short windows, Table 4 with one hotspot location, Fig. 11 with
200,000-cycle windows. --full: 8/16/32/64 switches, 10 topologies each, 32/512/1024-byte messages (Tables 1 and 2),
longer windows, ten hotspot locations, Fig. 11 with windows of two million messages (hours; not run by make
test). --only picks experiments.

For every random network: sanfab-topo random, sanfab-route updown --select balanced and sanfab-route itb, then
sanfab-sim sweeps: every sweep (and every single run) of an experiment is a point of one Dask sweep
(exp_driver.run_points, scripts/sweep.py; --jobs local workers or --scheduler). sanfab-sim's saturation rule, the
same for every run: a point is saturated when accepted < 0.95 x offered, or (hotspot traffic) when the hotspot host
accepts < 0.95 x the traffic offered to it; throughput of a sweep = the highest accepted traffic of its points whose
hotspot host is not saturated (every point for the other patterns). The factor is ITB throughput / UD throughput. A
sweep is extended to higher loads until its last point is saturated and accepts less than the sweep's best, or its
hotspot host is saturated (past the peak).

Output. Reduced: reports/experiments/NAME.json (--out-dir names the directory), docs/experiments.md and
docs/exp-*.png (PNGs beside the page, --md-dir names its directory; need matplotlib from .venv, else skipped with a
note). --full: reports/experiments/full/NAME.json, docs/experiments-full.md and docs/exp-full-*.png, so a reduced
run (make experiments; make test writes under build/experiments/) never overwrites full results. The page is built
from every JSON of the same mode in the output directory, so --only reruns one experiment and keeps the others;
--page only rebuilds the page. A full run's finished points are files
(reports/experiments/full/seed000-points-full/), so a run stopped early keeps what it measured and a rerun resumes
it. Every JSON records its wall-clock seconds, the CPU seconds (user + system) of the simulator processes
(cpu_seconds) and the sweep engine's reports (engine). The checks compare our trends with the paper's; "required"
ones fail the run (exit status 1), the others are reported in the page.
"""
import argparse
import functools
import json
import math
import os

import exp_driver as D
from exp_driver import ROOT, SW, VENV_PY, grouped, have_matplotlib, log, sh, stats

NAME, TITLE = "000", "Flich et al. 2002 on the crossbar network"
EXPERIMENTS = ["table1", "table2", "table3", "fig11", "regular", "table4"]  # run and page order

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
# hotspot share per network size (Flich et al. 2002, sec. 5.4.2: 30/20/15/5 % for 8/16/32/64 switches)
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


def sim_point(a, key, topo, routes, msg, loads, warmup=None, cycles=None):
    """A sweep point that is one sanfab-sim run of the crossbar network (its result: sanfab-sim's JSON)."""
    return D.sim_point(a, key, topo, routes, loads, ["--message-size", str(msg)], warmup, cycles)


def sweep_point(a, key, topo, routes, msg, loads=LOADS, extend=EXTEND, extra=(), links=False):
    """A sweep point that is a load sweep (flits/ns/switch) extended until its last point is saturated and past the
    peak (its result: {"summary", "points" (sanfab-sim's), "cpu_seconds"})."""
    return D.sweep_point(a, key, topo, routes, loads, extend, ["--message-size", str(msg)] + list(extra), links)


def pair_points(a, key, topo, ud, itb, msg, **kw):
    """The UD and ITB sweep points of one network (keys KEY-ud, KEY-itb)."""
    return [sweep_point(a, key + "-ud", topo, ud, msg, **kw), sweep_point(a, key + "-itb", topo, itb, msg, **kw)]


def factor_of(ud, itb):
    """{"ud", "itb", "factor"} from the results of pair_points."""
    u, i = ud["summary"], itb["summary"]
    return {"ud": u, "itb": i, "factor": i["throughput_flits_ns_sw"] / u["throughput_flits_ns_sw"]}


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
        f.write("# Flich et al. 2002's ITB rule: the up*/down* route of %s where it is minimal, else the ITB route of %s\n"
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


def networks(a, work):
    """The random networks of Tables 1-3: (switches, topology seed, topo, ud, itb, itb_alt) for every size and
    topology seed of the run."""
    for nsw in a.sizes:
        for ts in range(1, a.topologies + 1):
            yield (nsw, ts) + make_random(work, nsw, ts)


# ------------------------------------------------------------------ Table 1

def table1(a, work, done=()):
    """Table 1. `done`: the runs of a partial JSON with the same parameters (prior()), kept and not run again. Every
    network's UD, ITB and other-reading ITB sweeps are points of one sweep; message size by message size, 512 B
    first."""
    runs = list(done)
    have = {(r["switches"], r["topology_seed"], r["message_size"]) for r in runs}
    total = len(a.sizes) * a.topologies * len(a.msgs)
    cases, pts = [], []
    for msg in sorted(a.msgs, key=lambda m: (m != 512, m)):
        for nsw, ts, topo, ud, itb, itb_alt in networks(a, work):
            if (nsw, ts, msg) not in have:
                key = "table1-n%d-s%d-m%d" % (nsw, ts, msg)
                cases.append((nsw, ts, msg))
                pts += pair_points(a, key, topo, ud, itb, msg) + [sweep_point(a, key + "-alt", topo, itb_alt, msg)]
    out = D.run_points(a, pts)
    for i, (nsw, ts, msg) in enumerate(cases):
        ud, itb, alt = out[3 * i:3 * i + 3]
        res = {"switches": nsw, "topology_seed": ts, "message_size": msg}
        res.update(factor_of(ud, itb))
        res["itb_alt"] = alt["summary"]
        res["factor_itb_alt"] = res["itb_alt"]["throughput_flits_ns_sw"] / res["ud"]["throughput_flits_ns_sw"]
        log("table1: %2d switches, topology seed %2d, %4d B: UD %.4f, ITB %.4f flits/ns/switch, factor %.2f "
            "(ITB only where UD is not minimal: %.4f, %.2f)" % (
                nsw, ts, msg, res["ud"]["throughput_flits_ns_sw"], res["itb"]["throughput_flits_ns_sw"],
                res["factor"], res["itb_alt"]["throughput_flits_ns_sw"], res["factor_itb_alt"]))
        res["cpu_seconds"] = round(sum(x["cpu_seconds"] for x in (ud, itb, alt)), 1)
        runs.append(res)
    data, table = table1_data(runs, total)
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
    return data, table, checks


def table1_data(runs, total):
    """Table 1's JSON (and its table) from the runs; "complete" is false while runs are missing (a partial JSON of a
    full run made before the sweeps were points)."""
    runs = sorted(runs, key=lambda r: (r["switches"], r["topology_seed"], r["message_size"]))

    def size_msg(r):
        return (r["switches"], r["message_size"])
    rows, rows_alt = grouped(runs, size_msg, "factor"), grouped(runs, size_msg, "factor_itb_alt")
    table = {k: stats(v) + (stats(rows_alt[k])[2],) for k, v in sorted(rows.items())}
    data = {"experiment": "seed 000 Table 1", "complete": len(runs) == total, "runs_done": len(runs),
            "runs_planned": total, "table": [
        {"switches": k[0], "message_size": k[1], "min": v[0], "max": v[1], "avg": v[2], "networks": v[3],
         "avg_itb_only_where_ud_not_minimal": v[4], "paper": PAPER_T1.get(k)} for k, v in table.items()], "runs": runs}
    return data, table


def md_table1(data, md_dir):
    table = {(r["switches"], r["message_size"]): (r["min"], r["max"], r["avg"], r["networks"],
                                                  r["avg_itb_only_where_ud_not_minimal"]) for r in data["table"]}
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
         % (data["topologies"], ", ".join("%g" % x for x in data["loads"]), ", ".join("%g" % x for x in data["extend"]),
            data["warmup"], data["cycles"], data["seed"]), ""]
    if not data.get("complete", True):
        L += ["**Incomplete:** %d of the %d planned runs (switches x topologies x message sizes) had finished when "
              "this JSON was written (the run stopped early or was still going); the table holds those (see the "
              "networks column)." % (data["runs_done"],
                                                                                   data["runs_planned"]), ""]
    L += [
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
    cases, pts = [], []
    for nsw, ts, topo, ud, itb, _ in networks(a, work):
        for msg in a.t2_msgs:
            cases.append((nsw, ts, msg))
            pts += [sim_point(a, "table2-n%d-s%d-m%d-%s" % (nsw, ts, msg, name), topo, routes, msg, [a.t2_load],
                              a.t2_warmup, a.t2_cycles) for name, routes in (("ud", ud), ("itb", itb))]
    out = iter(D.run_points(a, pts))
    runs = []
    for nsw, ts, msg in cases:
        res = {"switches": nsw, "topology_seed": ts, "message_size": msg, "load": a.t2_load}
        for name in ("ud", "itb"):
            p = next(out)["points"][0]
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


def md_table2(data, md_dir):
    table = {(r["switches"], r["message_size"]): (r["min"], r["max"], r["avg"], r["networks"]) for r in data["table"]}
    L = ["## Table 2: latency increase of ITB over up*/down* at low load (percent)", "",
         "The same random networks and route sets as Table 1; uniform traffic at %g flits/ns/switch (the paper says "
         "\"low traffic\" without a number), one point per route set with warm-up %d and window %d cycles, seed %d "
         "(UD and ITB get the same messages: same generation times and destinations). Latency = average from "
         "generation to delivery (ns); increase = ITB / UD - 1." % (data["load"], data["warmup"], data["cycles"],
                                                                data["seed"]), "",
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
    cases, pts = [], []
    for nsw, ts, topo, ud, itb, _ in networks(a, work):
        for name, traffic, extra in T3_PATTERNS:
            if name == "local5" and nsw <= 8:
                continue  # the paper: every destination is at most 4 switches away in 8-switch networks
            ex = ["--traffic", traffic] + (extra if extra is not None else ["--hotspot", str(HOTSPOT[nsw])])
            cases.append((nsw, ts, name, ex))
            pts += pair_points(a, "table3-n%d-s%d-%s" % (nsw, ts, name), topo, ud, itb, a.t3_msg, extra=ex)
    out = D.run_points(a, pts)
    runs = []
    for i, (nsw, ts, name, ex) in enumerate(cases):
        res = {"switches": nsw, "topology_seed": ts, "pattern": name, "message_size": a.t3_msg,
               "traffic": ex[1:]}
        res.update(factor_of(*out[2 * i:2 * i + 2]))
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


def md_table3(data, md_dir):
    table = {(r["switches"], r["pattern"]): (r["min"], r["max"], r["avg"], r["networks"]) for r in data["table"]}
    L = ["## Table 3: factor of throughput increase for bit-reversal, local and hotspot traffic", "",
         "The same random networks and route sets as Table 1, %d-byte messages (the paper does not say which size "
         "Table 3 uses), sweeps as in Table 1. Bit-reversal: the source id's bits reversed (hosts that map to "
         "themselves send nothing); local *l*: uniform over the hosts whose switch is at most *l* switches away, the "
         "source's and the destination's switch counted as in the paper (\"one hop away (two switches away)\"), "
         "i.e. sanfab-sim `local` *l* - 1 hops; hotspot: %s of the "
         "messages to one host chosen from the seed (the paper's shares for 8/16/32/64 switches), the rest uniform."
         % (data["message_size"], "/".join("%d %%" % HOTSPOT[s] for s in sorted(HOTSPOT))), "",
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

@functools.lru_cache(maxsize=None)
def make_regular(work, name):
    """The regular network `name` (REGULAR) with UD (balanced), ITB (sanfab-route itb --seed 1) and the other
    reading's route set (itb_paper_routes); returns (topo, ud, itb, itb_alt, share of pairs with a minimal UD
    path). Made once per run: the uniform runs and Table 4 share them."""
    gen = REGULAR[name][0]
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
    return topo, ud, itb, itb_alt, kept


def regular(a, work, png_dir):
    pts = []
    for name in a.regular:
        loads = REGULAR[name][2]
        topo, ud, itb, itb_alt, _ = make_regular(work, name)
        ext = [round(loads[-1] * f, 4) for f in EXTEND_FACTORS]
        pts += pair_points(a, "regular-" + name, topo, ud, itb, a.reg_msg, loads=loads, extend=ext,
                           links=(name == "torus"))
        pts.append(sweep_point(a, "regular-%s-alt" % name, topo, itb_alt, a.reg_msg, loads=loads, extend=ext))
    out = D.run_points(a, pts)
    runs, plots = [], []
    for i, name in enumerate(a.regular):
        kept = make_regular(work, name)[4]
        res = {"network": name, "description": REGULAR[name][1], "message_size": a.reg_msg, "ud_minimal_share": kept}
        ud, itb, alt = out[3 * i:3 * i + 3]
        res.update(factor_of(ud, itb))
        raw = {"ud": ud["points"], "itb": itb["points"]}
        res["itb_alt"] = alt["summary"]
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
    if not have_matplotlib():
        log("regular: matplotlib missing (make deps): no PNGs")
        return []
    files = {}
    for rname, pts in raw.items():
        files[rname] = os.path.join(work, "torus-%s.json" % rname)
        with open(files[rname], "w") as f:
            json.dump({"network": {"switches": 64, "algorithm": rname}, "points": pts}, f)
    plot = os.path.join(ROOT, "scripts", "plot_net.py")
    out = []
    lat = os.path.join(png_dir, a.png_prefix + "torus-latency.png")
    sh([VENV_PY, plot, "latency", files["ud"], files["itb"], "--label", "UD", "--label", "ITB", "-o", lat,
        "--title", "2D torus 8x8, uniform, %d B (Fig. 12a)" % a.reg_msg, "--dpi", "90"])
    out.append(lat)
    vmax = max(c[4] for rn, l in (("ud", 0.015), ("itb", 0.015)) for c in
               min(raw[rn], key=lambda q: abs(q["load"] - l))["links"]["per_channel"])
    for rname, load, fig in (("ud", 0.015, "13a"), ("itb", 0.015, "13b"), ("itb", 0.03, "14")):
        png = os.path.join(png_dir, a.png_prefix + "torus-links-%s-%g.png" % (rname, load))
        sh([VENV_PY, plot, "links", files[rname], "--load", str(load), "-o", png, "--dpi", "80"] +
           (["--vmax", "%g" % vmax] if load == 0.015 else []) +
           ["--title", "%s, offered %g flits/ns/switch (Fig. %s)" % (rname.upper(), load, fig)])
        out.append(png)
    return [os.path.relpath(p, ROOT) for p in out]


def md_regular(data, md_dir):
    runs = data["runs"]
    L = ["## Regular topologies: 2D torus, express channels, CPLANT (sec. 5.5.1, uniform traffic)", "",
         "`sanfab-topo torus --k 8 --ports 16 --hosts 8` (512 hosts), `express` (the same torus plus links to the "
         "second neighbours in each dimension) and `cplant` (50 switches, 400 hosts); UD rooted at switch 0 (the "
         "torus's top-left switch, as in the paper) with balanced selection, ITB as in Table 1 "
         "(the paper: 80 %% of UD's torus routes and 94 %% with express channels are minimal; our column: pairs with "
         "a minimal up\\*/down\\* path; the last two columns: ITB paths only for the other pairs); %d-byte messages "
         "(the paper does not say), sweeps as in Table 1 with each network's own loads. The paper gives UD's and "
         "ITB's throughput in the text (Fig. 12)." % runs[0]["message_size"], "",
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


# ------------------------------------------------------------------ Table 4: hotspot on the regular topologies

def rng_hotspot_host(seed, hosts):
    """The hotspot host sanfab-sim picks for `seed` (sf_nic.c: the first sf_rng_below(H) of a generator seeded with
    the run's seed; sf_rng.c: splitmix64 seeding, xoshiro256**), to name the ten locations in the page. Reported,
    never used to pick results."""
    m = (1 << 64) - 1
    x, st = seed & m, []
    for _ in range(4):
        x = (x + 0x9E3779B97F4A7C15) & m
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
        st.append(z ^ (z >> 31))
    rotl = lambda v, k: ((v << k) | (v >> (64 - k))) & m
    lim = m - (m % hosts)
    while True:
        r = (rotl((st[1] * 5) & m, 7) * 9) & m
        t = (st[1] << 17) & m
        st[2] ^= st[0]
        st[3] ^= st[1]
        st[1] ^= st[2]
        st[0] ^= st[3]
        st[2] ^= t
        st[3] = rotl(st[3], 45)
        if r < lim:
            return r % hosts


# Seed 000, Table 4: factor of throughput increase ITB/UD for hotspot traffic, ten hotspot locations:
# (network, percent) -> min, max, avg
PAPER_T4 = {("torus", 5): (2.00, 2.16, 2.13), ("torus", 10): (1.31, 1.40, 1.40), ("express", 3): (1.12, 1.17, 1.13),
            ("express", 5): (1.08, 1.08, 1.08), ("cplant", 5): (1.11, 1.32, 1.24)}
# Sec. 5.5.2 on the torus with express channels: throughput lost against uniform traffic, UD and ITB (percent)
PAPER_T4_EXPRESS_DROP = {3: (26, 50), 5: (49, 67)}
# loads per (network, percent), flits/ns/switch: the hotspot host's link (1 flit/cycle = 0.16 flits/ns) caps the
# offered load at 0.16 / (share x switches): 0.05 (torus 5 %), 0.025 (torus 10 %), 0.083 / 0.05 (express 3 / 5 %),
# 0.064 (CPLANT 5 %); the sweeps are extended past the last load as for uniform traffic
T4_CASES = [("torus", 5, [0.004, 0.008, 0.012, 0.016, 0.02, 0.024, 0.028, 0.032, 0.036, 0.04]),
            ("torus", 10, [0.004, 0.008, 0.012, 0.014, 0.016, 0.018, 0.02, 0.022, 0.024, 0.028]),
            ("express", 3, [0.01, 0.02, 0.03, 0.04, 0.045, 0.05, 0.055, 0.06, 0.07, 0.08]),
            ("express", 5, [0.01, 0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05, 0.055, 0.06]),
            ("cplant", 5, [0.01, 0.02, 0.03, 0.035, 0.04, 0.045, 0.05, 0.055, 0.06, 0.07])]


def table4(a, work):
    cases, pts = [], []
    for name, pct, loads in T4_CASES:
        topo, ud, itb, _, _ = make_regular(work, name)
        for loc in range(1, a.t4_locations + 1):
            b = argparse.Namespace(**vars(a))
            b.seed = loc  # the hotspot host is chosen from the run's seed: one seed per location
            ext = [round(loads[-1] * f, 4) for f in EXTEND_FACTORS]
            cases.append((name, pct, loc))
            pts += pair_points(b, "table4-%s-%d-s%d" % (name, pct, loc), topo, ud, itb, a.reg_msg,
                               extra=["--traffic", "hotspot", "--hotspot", str(pct)], loads=loads, extend=ext)
    out = D.run_points(a, pts)
    runs = []
    for i, (name, pct, loc) in enumerate(cases):
        res = {"network": name, "hotspot_percent": pct, "location_seed": loc, "message_size": a.reg_msg}
        res.update(factor_of(*out[2 * i:2 * i + 2]))
        res["hotspot_host"] = rng_hotspot_host(loc, res["ud"]["hosts"])
        # the hotspot host's link (1 flit per cycle) caps the load at which its share is still deliverable
        res["hotspot_link_bound"] = (1 / 6.25) / (pct / 100 * res["ud"]["switches"])
        log("table4: %-8s %2d %% hotspot, seed %2d (host %3d): UD %.4f, ITB %.4f flits/ns/switch, factor %.2f" % (
            name, pct, loc, res["hotspot_host"], res["ud"]["throughput_flits_ns_sw"],
            res["itb"]["throughput_flits_ns_sw"], res["factor"]))
        runs.append(res)
    rows = grouped(runs, lambda r: (r["network"], r["hotspot_percent"]), "factor")
    table = {k: stats(v) for k, v in rows.items()}
    tput = {k: (sum(r["ud"]["throughput_flits_ns_sw"] for r in runs if (r["network"], r["hotspot_percent"]) == k)
                / len(v), sum(r["itb"]["throughput_flits_ns_sw"] for r in runs
                              if (r["network"], r["hotspot_percent"]) == k) / len(v)) for k, v in rows.items()}
    checks = []
    for (name, pct), (mn, mx, avg, n) in table.items():
        checks.append((avg >= 1.0, False, "Table 4, %s, %d %% hotspot: ITB >= UD on average (factor %.2f; paper %.2f)"
                       % (name, pct, avg, PAPER_T4[(name, pct)][2])))
    for name in ("torus", "express"):
        pcts = sorted(p for (nm, p) in table if nm == name)
        for p0, p1 in zip(pcts, pcts[1:]):
            f0, f1 = table[(name, p0)][2], table[(name, p1)][2]
            checks.append((f1 < f0, False, "Table 4, %s: a larger hotspot share leaves ITB less to gain (factor %.2f at "
                           "%d %%, %.2f at %d %%; paper %.2f, %.2f)" % (name, f0, p0, f1, p1, PAPER_T4[(name, p0)][2],
                                                                        PAPER_T4[(name, p1)][2])))
    data = {"experiment": "seed 000 Table 4 (hotspot traffic on the regular topologies)", "message_size": a.reg_msg,
            "locations": a.t4_locations, "cases": [[n, p, l] for n, p, l in T4_CASES],
            "table": [{"network": k[0], "hotspot_percent": k[1], "min": v[0], "max": v[1], "avg": v[2], "locations": v[3],
                       "ud_avg_throughput": tput[k][0], "itb_avg_throughput": tput[k][1],
                       "hotspot_link_bound": next(r["hotspot_link_bound"] for r in runs
                                                  if (r["network"], r["hotspot_percent"]) == k),
                       "paper": PAPER_T4.get(k)} for k, v in table.items()], "runs": runs}
    return data, table, checks


def md_table4(data, md_dir, uniform=None):
    """Table 4's section; `uniform`: regular.json's data of the same mode (for the throughput lost to the hotspot)."""
    L = ["## Table 4: factor of throughput increase for hotspot traffic on the regular topologies (sec. 5.5.2)", "",
         "The regular networks and route sets of the uniform runs below (UD rooted at switch 0 with balanced "
         "selection, ITB = `sanfab-route itb`), %d-byte messages, hotspot traffic: the given share of the messages to "
         "one host, the rest uniform. %d hotspot location%s per case (the paper: ten): the hotspot host is chosen by "
         "sanfab-sim from the run's seed, so location *i* is seed *i* (which also changes the other random choices: "
         "phases and uniform destinations); both route sets get the same seed. Sweeps as in Table 1 (each case's own "
         "loads below, extended past the last until saturated and peaked), warm-up %d and window %d cycles. "
         "Factor = ITB throughput / UD throughput at the same location. Bound: the offered load at which the "
         "hotspot's share alone fills the hotspot host's link (1 flit per 6.25 ns / (share x switches)); above it "
         "the hotspot's messages cannot all be delivered. With a share of 5 %% or less the total's 0.95 rule cannot "
         "see that (the total loses at most the share), so sanfab-sim also checks the hotspot host itself: a point is "
         "saturated when it accepts < 0.95 of the traffic offered to it, and the throughput is the best accepted "
         "traffic of the points where it is not. A throughput above the bound (marked \\*; a run made before that "
         "rule, or a hotspot host that still keeps up there) counts the uniform part beside a saturated hotspot." % (
             data["message_size"], data["locations"], "" if data["locations"] == 1 else "s", data["warmup"],
             data["cycles"]), "",
         "| network | hotspot | ours min | max | avg | locations | paper min | max | avg | UD avg (flits/ns/switch) | "
         "ITB avg | bound |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    desc = {"torus": "2D torus", "express": "torus with express channels", "cplant": "CPLANT"}
    for r in data["table"]:
        p = r["paper"]
        ps = ["%.2f" % x for x in p] if p else ["-"] * 3
        bd = r["hotspot_link_bound"]
        L.append("| %s | %d %% | %.2f | %.2f | %.2f | %d | %s | %s | %s | %.4f%s | %.4f%s | %.4f |" % (
            desc[r["network"]], r["hotspot_percent"], r["min"], r["max"], r["avg"], r["locations"], *ps,
            r["ud_avg_throughput"], "\\*" if r["ud_avg_throughput"] > bd else "", r["itb_avg_throughput"],
            "\\*" if r["itb_avg_throughput"] > bd else "", bd))
    if uniform:
        uni = {r["network"]: r for r in uniform["runs"]}
        rows = []
        for r in data["table"]:
            u = uni.get(r["network"])
            if not u:
                continue
            du = 100 * (1 - r["ud_avg_throughput"] / u["ud"]["throughput_flits_ns_sw"])
            di = 100 * (1 - r["itb_avg_throughput"] / u["itb"]["throughput_flits_ns_sw"])
            pe = PAPER_T4_EXPRESS_DROP.get(r["hotspot_percent"]) if r["network"] == "express" else None
            rows.append("| %s | %d %% | %.0f %% | %.0f %% | %s | %s |" % (
                desc[r["network"]], r["hotspot_percent"], du, di, "%d %%" % pe[0] if pe else "-",
                "%d %%" % pe[1] if pe else "-"))
        if rows:
            L += ["", "Throughput lost to the hotspot against uniform traffic (the uniform runs below; the paper gives "
                  "it for the torus with express channels):", "",
                  "| network | hotspot | UD ours | ITB ours | UD paper | ITB paper |", "|---|---|---|---|---|---|"] + rows
    L += ["", "Per location (flits/ns/switch):", "",
          "| network | hotspot | seed | hotspot host | UD | ITB | factor | UD saturation load | ITB saturation load | "
          "forward resets |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in data["runs"]:
        bd = r["hotspot_link_bound"]
        ut, it = r["ud"]["throughput_flits_ns_sw"], r["itb"]["throughput_flits_ns_sw"]
        L.append("| %s | %d %% | %d | %d | %.4f%s | %.4f%s | %.2f | %s | %s | %d |" % (
            desc[r["network"]], r["hotspot_percent"], r["location_seed"], r["hotspot_host"],
            ut, "\\*" if ut > bd else "", it, "\\*" if it > bd else "", r["factor"],
            r["ud"]["saturation_load"], r["itb"]["saturation_load"],
            r["ud"]["forward_resets"] + r["itb"]["forward_resets"]))
    return L + [""]


# ------------------------------------------------------------------ Fig. 11: ITB pool occupancy

FIG11_LOADS = [0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.034, 0.039, 0.045, 0.05, 0.055, 0.06]
FIG11_PAPER_LOADS = (0.034, 0.039)  # sec. 5.4.3: "reaching saturation" and "beyond saturation"


def fig11_cycles(a, load, nsw, msg):
    """A long run's window: the mode's, or (full) one long enough to deliver the paper's two million packets at the
    offered load."""
    return a.f11_cycles or int(math.ceil(a.f11_packets / (load * 6.25 * nsw / msg)))


def fig11_long_points(a, topo, itb, nsw, msg, targets):
    """The sweep points of the long ITB runs at `targets` [(key, what, load)]."""
    return [sim_point(a, "fig11-long-" + key, topo, itb, msg, [load], a.f11_warmup, fig11_cycles(a, load, nsw, msg))
            for key, what, load in targets]


def fig11(a, work, png_dir):
    """32-switch random network (topology seed 1), uniform, 32-byte messages: UD and ITB latency sweeps (11a) and
    long ITB runs at the paper's two loads and at our own network's last unsaturated and first saturated loads,
    with the in-transit packets held per NIC (11b, 11c). The sweeps and the long runs at the paper's loads are one
    sweep of points, the long runs at our loads (found by the ITB sweep) a second."""
    nsw, msg = 32, 32
    topo, ud, itb, _ = make_random(work, nsw, 1)
    ext = [round(FIG11_LOADS[-1] * f, 4) for f in EXTEND_FACTORS]
    paper = [("paper-reaching", "paper, reaching saturation", FIG11_PAPER_LOADS[0]),
             ("paper-beyond", "paper, beyond saturation", FIG11_PAPER_LOADS[1])]
    out = D.run_points(a, pair_points(a, "fig11", topo, ud, itb, msg, loads=FIG11_LOADS, extend=ext) +
                       fig11_long_points(a, topo, itb, nsw, msg, paper))
    sweeps = {"ud": out[0]["summary"], "itb": out[1]["summary"]}
    raw = {"ud": out[0]["points"], "itb": out[1]["points"]}
    ipts = raw["itb"]
    first_sat = next((i for i, p in enumerate(ipts) if p["saturated"]), None)
    ours = []
    if first_sat is not None and first_sat > 0:
        ours = [("ours-last-unsaturated", "ours, last unsaturated", ipts[first_sat - 1]["load"]),
                ("ours-first-saturated", "ours, first saturated", ipts[first_sat]["load"])]
    long_js = out[2:] + (D.run_points(a, fig11_long_points(a, topo, itb, nsw, msg, ours)) if ours else [])
    long_pts = []
    for (_, what, load), js in zip(paper + ours, long_js):
        cyc = fig11_cycles(a, load, nsw, msg)
        p = js["points"][0]
        p["what"], p["cycles"] = what, cyc
        long_pts.append(p)
        it = p["itb"]
        log("fig11: ITB at %g (%s), %d cycles: accepted %.4f%s, %d messages delivered, in-transit packets per NIC: "
            "max %d, largest time-average %.2f, mean %.3f; lost to a full pool %d" % (
                load, what, cyc, p["accepted_flits_ns_sw"], " (saturated)" if p["saturated"] else "",
                p["messages"]["window_delivered"], it["pool_max_pkts"], it["pool_avg_pkts_max"],
                it["pool_avg_pkts_mean"], p["messages"]["lost_itb_pool"]))
    checks = []
    lost_u = sum(p["messages"]["lost_itb_pool"] for p in long_pts if not p["saturated"])
    lost = sum(p["messages"]["lost_itb_pool"] for p in long_pts)
    checks.append((lost_u == 0, True, "Fig. 11: no in-transit packet dropped for a full 512 KB pool at the "
                   "unsaturated long points (%d dropped)" % lost_u))
    checks.append((lost == 0, False, "Fig. 11: the 512 KB pool is enough at every long point, saturated ones "
                   "included (paper: \"the reserved memory space (512KB) was enough\"; %d dropped)" % lost))
    p34 = long_pts[0]
    if not p34["saturated"]:
        checks.append((p34["itb"]["pool_max_pkts"] <= 15, True, "Fig. 11b, ITB at %g (below our saturation): at most "
                       "15 in-transit packets at any NIC (paper: no more than 15 near saturation; ours %d)"
                       % (p34["load"], p34["itb"]["pool_max_pkts"])))
    if ours:
        near, beyond = long_pts[2], long_pts[3]
        checks.append((near["itb"]["pool_max_pkts"] <= 15, False, "Fig. 11b, ITB at our last unsaturated load %g: "
                       "at most 15 in-transit packets at any NIC (paper: no more than 15 near saturation; ours %d)"
                       % (near["load"], near["itb"]["pool_max_pkts"])))
        checks.append((beyond["itb"]["pool_max_pkts"] > near["itb"]["pool_max_pkts"], False,
                       "Fig. 11c: beyond saturation (%g) NICs hold more in-transit packets than near it (max %d > %d)"
                       % (beyond["load"], beyond["itb"]["pool_max_pkts"], near["itb"]["pool_max_pkts"])))
    plots = fig11_plots(a, work, raw, long_pts, png_dir, nsw, msg)
    slim = []
    for p in long_pts:
        it = p["itb"]
        slim.append({"what": p["what"], "load": p["load"], "cycles": p["cycles"],
                     "offered_flits_ns_sw": p["offered_flits_ns_sw"], "accepted_flits_ns_sw": p["accepted_flits_ns_sw"],
                     "saturated": p["saturated"], "latency_ns_avg": p["latency_ns"]["avg"],
                     "delivered": p["messages"]["window_delivered"], "itbs_per_msg": p["itbs_per_msg"],
                     "lost_itb_pool": p["messages"]["lost_itb_pool"], "pool_max_pkts": it["pool_max_pkts"],
                     "pool_max_bytes": it["pool_max_bytes"], "pool_avg_pkts_max": it["pool_avg_pkts_max"],
                     "pool_avg_pkts_mean": it["pool_avg_pkts_mean"], "itb_packets": it["packets"],  # the whole run
                     "itb_packets_window": it["packets_window"],  # the window, as delivered and the pool figures
                     "per_nic_avg_max_pkts": it["per_nic_avg_max_pkts"]})
    data = {"experiment": "seed 000 Fig. 11 (ITB pool occupancy)", "switches": nsw, "topology_seed": 1,
            "message_size": msg, "sweep_loads": FIG11_LOADS, "ud": sweeps["ud"], "itb": sweeps["itb"],
            "long_warmup": a.f11_warmup, "long_cycles": a.f11_cycles, "long_packets": a.f11_packets,
            "long_points": slim, "plots": plots}
    return data, None, checks


def fig11_plots(a, work, raw, long_pts, png_dir, nsw, msg):
    if not have_matplotlib():
        log("fig11: matplotlib missing (make deps): no PNGs")
        return []
    files = {}
    for rname, pts in raw.items():
        files[rname] = os.path.join(work, "fig11-%s.json" % rname)
        with open(files[rname], "w") as f:
            json.dump({"network": {"switches": nsw, "algorithm": rname}, "points": pts}, f)
    pool = os.path.join(work, "fig11-pool.json")
    with open(pool, "w") as f:
        json.dump({"network": {"switches": nsw, "algorithm": "itb"}, "points": long_pts}, f)
    plot = os.path.join(ROOT, "scripts", "plot_net.py")
    lat = os.path.join(png_dir, a.png_prefix + "fig11-latency.png")
    sh([VENV_PY, plot, "latency", files["ud"], files["itb"], "--label", "UD", "--label", "ITB", "-o", lat,
        "--title", "%d switches, uniform, %d B (Fig. 11a)" % (nsw, msg), "--dpi", "90"])
    png = os.path.join(png_dir, a.png_prefix + "fig11-pool.png")
    sh([VENV_PY, plot, "pool", pool, "--cols", "2", "-o", png, "--dpi", "80", "--title",
        "ITB: in-transit packets held per NIC (Fig. 11b/c); rows: the paper's loads, ours"])
    return [os.path.relpath(p, ROOT) for p in (lat, png)]


def md_fig11(data, md_dir):
    L = ["## Fig. 11: ITB pool occupancy (sec. 5.4.3)", "",
         "The 32-switch random network of Table 1 (topology seed 1), uniform traffic, %d-byte messages. 11a: UD and "
         "ITB latency sweeps (loads %s, extended as in Table 1; warm-up %d, window %d cycles). 11b/c: ITB alone at "
         "the paper's two loads (0.034, \"network is reaching saturation\", and 0.039, \"beyond saturation\") "
         "and, since our network saturates elsewhere, at our sweep's last unsaturated and first saturated loads; "
         "%s. Per NIC: the most in-transit packets held at once and their time-average over the window "
         "(`sanfab-sim` `itb.per_nic_avg_max_pkts`). The paper: \"No more than 15 packets (480 bytes without "
         "considering headers) are hold at the same time at a particular NIC\" near saturation, and fewer than "
         "3,000 beyond it over a two-million-packet run." % (
             data["message_size"], ", ".join("%g" % x for x in data["sweep_loads"]), data["warmup"], data["cycles"],
             ("warm-up %d and window %d cycles each" % (data["long_warmup"], data["long_cycles"])) if data["long_cycles"]
             else ("warm-up %d cycles and a window long enough for %d messages at the offered load (the paper's two "
                   "million packets)" % (data["long_warmup"], data["long_packets"]))), "",
         "| routes | throughput (flits/ns/switch) | saturation load | latency at 0.01 (ns) |", "|---|---|---|---|"]
    for rname in ("ud", "itb"):
        sw = data[rname]
        lat01 = next((q[3] for q in sw["points"] if abs(q[0] - 0.01) < 1e-9), None)
        L.append("| %s | %.4f | %s | %s |" % (rname.upper(), sw["throughput_flits_ns_sw"], sw["saturation_load"],
                                             "%.0f" % lat01 if lat01 is not None else "-"))
    L += ["", "| ITB run | offered | accepted | saturated | window (cycles) | messages delivered | latency (ns) | "
          "max packets at a NIC | bytes | largest time-average | mean time-average | dropped (pool full) |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for p in data["long_points"]:
        L.append("| %s | %g | %.4f | %s | %d | %d | %.0f | %d | %d | %.2f | %.3f | %d |" % (
            p["what"], p["load"], p["accepted_flits_ns_sw"], "yes" if p["saturated"] else "no",
            p["cycles"], p["delivered"], p["latency_ns_avg"], p["pool_max_pkts"],
            p["pool_max_bytes"], p["pool_avg_pkts_max"], p["pool_avg_pkts_mean"], p["lost_itb_pool"]))
    if data["plots"]:
        L += [""] + ["![%s](%s)" % (os.path.basename(p), os.path.relpath(os.path.join(ROOT, p), md_dir))
                     for p in data["plots"]]
    return L + [""]


# ------------------------------------------------------------------ the page

def write_md(path, a, found, missing):
    """The page from the experiments' JSON of this mode (`found`: [(name, data)], in page order)."""
    notes = []
    if os.path.exists(NOTES_FILE):
        with open(NOTES_FILE) as f:
            notes = f.read().splitlines() + [""]
    L = ["# Experiments: [Flich et al. 2002](references.md#flich-et-al-2002) on the network simulator%s" % (": full run" if a.full else ""), "",
         "Generated by `scripts/experiments.py --paper 000%s` from `%s/*.json`; do not edit by hand. Seed 001 (the VC "
         "network) has its own page: [experiments-seed001%s.md](experiments-seed001%s.md)." % (
             " --full" if a.full else "", os.path.relpath(a.out_dir, ROOT), "-full" if a.full else "",
             "-full" if a.full else ""), ""]
    if a.full:
        L += ["**Full run** (`scripts/experiments.py --full`, not part of `make test`): 8/16/32/64 switches, %d random "
              "topologies per size, %s-byte messages, warm-up %d and window %d cycles per point (Table 2: %d + %d); "
              "Table 4 with %d hotspot locations per case, Fig. 11 with windows of the paper's two million messages. Results "
              "go to `reports/experiments/full/`, this page and `docs/exp-full-*.png`; the reduced run "
              "(`make experiments`, [experiments.md](experiments.md)) never writes them. Each experiment's JSON "
              "records its wall-clock and CPU seconds (`seconds`, `cpu_seconds`: user + system of the simulator "
              "processes). `--full --only NAME` reruns one experiment and rebuilds this page from all the JSON "
              "present; `--page` only rebuilds it." % (
                  a.topologies, "/".join(str(m) for m in a.msgs), a.warmup, a.cycles, a.t2_warmup, a.t2_cycles,
                  dict(found).get("table4", {}).get("locations", a.t4_locations)), ""]
    else:
        L += ["**Reduced run** (the `make experiments` default and the `experiments` step of `make test`, which writes "
              "under `build/experiments/`): %s switches, %d random topologies per size, %s-byte messages (Table 2 also "
              "%s B), short windows; Table 4 with %d hotspot location%s per case; Fig. 11 with %d-cycle windows. "
              "The full set (8/16/32/64 switches, 10 topologies, 32/512/1024 B, longer windows, ten hotspot "
              "locations) is `scripts/experiments.py --full`, which writes its own files "
              "([experiments-full.md](experiments-full.md), `reports/experiments/full/`)." % (
                  "/".join(str(s) for s in a.sizes), a.topologies, "/".join(str(m) for m in a.msgs),
                  "/".join(str(m) for m in a.t2_msgs), dict(found).get("table4", {}).get("locations", a.t4_locations),
                  "" if dict(found).get("table4", {}).get("locations", a.t4_locations) == 1 else "s",
                  a.f11_cycles), ""]
    if missing:
        L += ["Not in this page yet (no JSON of this mode): %s." % ", ".join(missing), ""]
    L += D.checks_md(found)
    by_name = dict(found)
    md_dir = os.path.dirname(os.path.abspath(path))
    for name, data in found:
        if name == "table4":
            L += md_table4(data, md_dir, by_name.get("regular"))
        else:
            L += MD[name](data, md_dir)
    L += notes
    L += ["Not yet run here (issue 8): bit-reversal and local traffic on the regular topologies (sec. 5.5.2 gives "
          "them in the text), the link maps of the express torus and of hotspot traffic (Figs. 15-17).", ""]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(L))


MD = {"table1": md_table1, "table2": md_table2, "table3": md_table3, "fig11": md_fig11, "regular": md_regular}
RUN = {"table1": table1, "table2": table2, "table3": table3, "fig11": fig11, "regular": regular, "table4": table4}


def prior(a, name, path, common):
    """A partial full Table 1 JSON at `path` made with the same seed, windows and loads (else None): before its
    sweeps were points, a full Table 1 saved after every network; a rerun keeps those runs."""
    if name != "table1" or not a.full:
        return None
    return D.resumable(path, common, ("mode", "seed", "warmup", "cycles", "loads", "extend", "sizes", "topologies"),
                       len(a.sizes) * a.topologies * len(a.msgs))


NOTES_FILE = os.path.join(ROOT, "docs", "experiments-notes.md")


def configure(a):
    if a.full:
        a.sizes, a.msgs, a.topologies, a.warmup, a.cycles = [8, 16, 32, 64], [32, 512, 1024], 10, 20000, 100000
        a.t2_msgs, a.t2_warmup, a.t2_cycles = [32, 512, 1024], 20000, 400000
        a.regular = ["torus", "express", "cplant"]
        a.t4_locations, a.f11_warmup, a.f11_cycles, a.f11_packets = 10, 20000, None, 2000000
    else:
        a.sizes, a.msgs, a.topologies, a.warmup, a.cycles = [16, 32], [512], 2, 5000, 20000
        a.t2_msgs, a.t2_warmup, a.t2_cycles = [32, 512], 5000, 100000
        a.regular = ["torus", "express", "cplant"]
        a.t4_locations, a.f11_warmup, a.f11_cycles, a.f11_packets = 1, 5000, 200000, None
    if a.locations is not None:
        a.t4_locations = a.locations
    a.png_prefix = "exp-full-" if a.full else "exp-"
    a.t2_load, a.t3_msg, a.reg_msg = 0.005, 512, 512


def common(a):
    return {"warmup": a.warmup, "cycles": a.cycles, "loads": LOADS, "extend": EXTEND, "sizes": a.sizes,
            "topologies": a.topologies,
            "saturation_rule": "accepted < 0.95 x offered, or the hotspot host's accepted < 0.95 x offered to it; "
                               "throughput = highest accepted of the points whose hotspot host is not saturated"}


def json_path(a, name):
    return os.path.join(a.out_dir, name + ".json")


def md_path(a):
    return os.path.join(a.md_dir_arg or os.path.join(ROOT, "docs"), "experiments-full.md" if a.full else "experiments.md")


def run(a, name, work, md_dir, prior):
    if name == "table1":
        data, _, ch = table1(a, work, prior["runs"] if prior else ())
    elif name in ("regular", "fig11"):
        data, _, ch = RUN[name](a, work, md_dir)
    else:
        data, _, ch = RUN[name](a, work)
    return data, ch

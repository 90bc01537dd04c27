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
# the paper's numbers, and the page (docs/experiments.md, docs/experiments-full.md)
from exp_seed000_paper import HOTSPOT, PAPER_REG, PAPER_T1, PAPER_T2, PAPER_T3, PAPER_T4  # noqa: F401
from exp_seed000_page import write_md  # noqa: F401 (the driver's mod.write_md)

NAME, TITLE = "000", "Flich et al. 2002 on the crossbar network"
EXPERIMENTS = ["table1", "table2", "table3", "fig11", "regular", "table4"]  # run and page order

# The paper's local l counts the switches on the way, the source's and the destination's included ("one hop away
# (two switches away)", sec. 5.5.2; "all destinations are, at most, four switches away" in 8-switch networks,
# footnote 5): l switches = l - 1 switch-to-switch hops, which is what sanfab-sim's `local` counts.
T3_PATTERNS = [("bit-reversal", "bit-reversal", []), ("local3", "local", ["--local", "2"]),
               ("local5", "local", ["--local", "4"]), ("hotspot", "hotspot", None)]
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


# ------------------------------------------------------------------ the driver's interface (scripts/exp_driver.py)

RUN = {"table1": table1, "table2": table2, "table3": table3, "fig11": fig11, "regular": regular, "table4": table4}


def prior(a, name, path, common):
    """A partial full Table 1 JSON at `path` made with the same seed, windows and loads (else None): before its
    sweeps were points, a full Table 1 saved after every network; a rerun keeps those runs."""
    if name != "table1" or not a.full:
        return None
    return D.resumable(path, common, ("mode", "seed", "warmup", "cycles", "loads", "extend", "sizes", "topologies"),
                       len(a.sizes) * a.topologies * len(a.msgs))


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

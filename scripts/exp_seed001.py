"""Seed 001's experiments on the VC-switch network (scripts/experiments.py --paper 001): Descending Layers (DL)
against up*/down* (UD) on networks of the table-lookup VC switch (cmodel/vcsw.c, the model the RTL is held
against) with RHiNET NICs (docs/network.md "The VC network", docs/experiments-seed001.md).

  table6       Table 6: throughput (flits/host/clock) on random irregular networks of 16 and 64 switches (8 ports,
               4 hosts), uniform and bit-reversal traffic, 15 rows: UD and DL with (UD)*, (UD-DU)*, UD-(DU)*,
               (L-turn)*, each with low-port, Sancho's and high-physical-channel-first selection; average and SD
  extra        LASH and FM with layers on Table 6's networks (rows no paper has; the VCs they need)
  table5       Table 5, mesh column: the 4 x 4 mesh, bit reversal, matrix transpose, butterfly, complement, UD
               against DL with 2 VCs
  fig6         Fig. 6: latency against accepted traffic, uniform, on the first network of each size (Table 6's runs)
  fig7         Fig. 7: the 8 x 8 torus, latency against accepted traffic of ten algorithms, uniform
  choices      what the model's own choices (buffer depth, cable delay) move: one network, DL and UD, uniform

The simulator's parameters are Koibuchi et al. 2003, sec. 5.1.1's: 3 VCs (switches of NVC 4, CTRL 0: the routes use at most 3
data VCs), 128-flit packets, virtual cut-through, a header three clocks per hop plus the link (docs/vcsw.md:
latency 3 + LINK_DELAY steps, then one to the next switch), 1,000,000 clocks of which the first 50,000 are not
measured (--full). Where the paper is silent: buffers of 256 flits per input VC (DEPTH, the smallest that holds a
128-flit packet and its Go & Stop slack), cables of 0 registers (link-delay 0), a NIC receive buffer of 256 flits
drained at link rate. `choices` shows how much these move the results.

Throughput ("the maximum amount of accepted traffic", sec. 5.2.2): each route set's load search starts at 0.02
flits/host/clock and doubles the load until a point saturates (accepted < 0.95 x offered), then runs three loads
between the last unsaturated point and the first saturated one, then one halfway between the best point so far and
each of its neighbours; the throughput is the highest accepted traffic of all the points. Every search of an
experiment is a point of one Dask sweep (exp_driver.run_points, scripts/sweep.py; --jobs local workers or
--scheduler); a full run's finished searches are files (reports/experiments/full/seed001-points-full/) and a rerun
of a stopped run resumes. Reduced (make experiments, make test): 16 switches, 2 networks, six Table 6 rows, 5,000 +
20,000 cycles per point. --full: everything above, 50,000 + 950,000 cycles per point (hours).
"""
import math
import os

import exp_driver as D
from exp_driver import ROOT, grouped, have_matplotlib, log, sh, stats, tool

NAME, TITLE = "001", "Koibuchi et al. 2003 on the VC-switch network"
EXPERIMENTS = ["table6", "extra", "table5", "fig6", "fig7", "choices"]
UNIT, LAT = "flits_cycle_host", "latency_cycles"

# Seed 001 Table 6: (switches, pattern, row) -> (average, SD) in flits/host/clock
ROWS = [("ud", "low"), ("ud", "sancho"), ("ud", "pch")] + [(r, s) for r in ("ud-star", "ud-du", "ud-dudu", "lturn")
                                                            for s in ("low", "sancho", "pch")]
RULE_ARG = {"ud-star": "ud", "ud-du": "ud-du", "ud-dudu": "ud-dudu", "lturn": "lturn"}
ROW_NAME = {"ud": "Up*/Down*", "ud-star": "DL (UD)*", "ud-du": "DL (UD-DU)*", "ud-dudu": "DL UD-(DU)*",
            "lturn": "DL (L-turn)*"}
SEL_NAME = {"low": "low port", "sancho": "Sancho's", "pch": "high p-ch first"}
_T6 = """
ud low      0.161 0.032 0.269 0.048 0.033 0.004 0.052 0.010
ud sancho   0.177 0.033 0.322 0.056 0.037 0.005 0.059 0.013
ud pch      0.176 0.032 0.328 0.053 0.037 0.005 0.062 0.013
ud-star low     0.169 0.008 0.277 0.052 0.105 0.002 0.123 0.012
ud-star sancho  0.289 0.022 0.353 0.038 0.162 0.004 0.192 0.010
ud-star pch     0.290 0.024 0.350 0.041 0.164 0.006 0.188 0.010
ud-du low       0.169 0.008 0.277 0.052 0.105 0.002 0.120 0.012
ud-du sancho    0.286 0.023 0.354 0.052 0.159 0.004 0.199 0.010
ud-du pch       0.282 0.020 0.360 0.049 0.158 0.006 0.193 0.006
ud-dudu low     0.180 0.016 0.274 0.050 0.109 0.004 0.124 0.010
ud-dudu sancho  0.295 0.022 0.349 0.041 0.169 0.006 0.196 0.008
ud-dudu pch     0.289 0.025 0.358 0.048 0.170 0.007 0.192 0.012
lturn low       0.181 0.009 0.284 0.049 0.103 0.003 0.112 0.010
lturn sancho    0.292 0.020 0.347 0.044 0.156 0.007 0.186 0.005
lturn pch       0.283 0.019 0.338 0.042 0.159 0.009 0.185 0.009
"""
PAPER_T6 = {}
for _line in _T6.strip().splitlines():
    _f = _line.split()
    _v = [float(x) for x in _f[2:]]
    for _i, (_n, _p) in enumerate(((16, "uniform"), (16, "bit-reversal"), (64, "uniform"), (64, "bit-reversal"))):
        PAPER_T6[(_n, _p, _f[0], _f[1])] = (_v[2 * _i], _v[2 * _i + 1])
# Table 5, the mesh: pattern -> (UD, DL) flits/host/clock
PAPER_T5 = {"bit-reversal": (0.124, 0.139), "transpose": (0.080, 0.102), "butterfly": (0.085, 0.089),
            "complement": (0.049, 0.073)}
T5_PATTERNS = ["bit-reversal", "transpose", "butterfly", "complement"]
# Table 7: average hops (up*/down*, DL) for (16, 64 switches, torus) x (uniform, bit-reversal), informative
PAPER_T7 = {(16, "uniform"): (2.01, 1.89), (16, "bit-reversal"): (1.98, 1.94), (64, "uniform"): (3.72, 3.14),
            (64, "bit-reversal"): (3.48, 3.14), ("torus", "uniform"): (4.36, 4.02), ("torus", "bit-reversal"): (3.80, 3.50)}
EXTRA_ROWS = [("lash", "sancho"), ("fm", "layers")]
FIG7_ROWS = [("ud", "low"), ("ud", "sancho")] + [(r, s) for r in ("ud-star", "ud-du", "ud-dudu", "lturn")
                                                 for s in ("low", "sancho")]
NOTES_FILE = os.path.join(ROOT, "docs", "experiments-seed001-notes.md")


def configure(a):
    a.vcs, a.packet, a.depth, a.link_delay = 3, 128, 256, 0
    a.png_prefix = "exp001-full-" if a.full else "exp001-"
    if a.full:
        a.sizes, a.topologies, a.warmup, a.cycles = [16, 64], 10, 50000, 950000
        a.rows, a.fig7_rows = list(ROWS), list(FIG7_ROWS)
    else:
        a.sizes, a.topologies, a.warmup, a.cycles = [16], 2, 5000, 20000
        a.rows = [("ud", "low"), ("ud", "sancho"), ("ud-star", "low"), ("ud-star", "sancho"), ("ud-star", "pch"),
                  ("lturn", "sancho")]
        a.fig7_rows = [("ud", "low"), ("ud", "sancho"), ("ud-star", "low"), ("ud-star", "sancho")]
    a.patterns = ["uniform", "bit-reversal"]


def common(a):
    return {"warmup": a.warmup, "cycles": a.cycles, "sizes": a.sizes, "topologies": a.topologies,
            "packet_flits": a.packet, "vcs": a.vcs, "depth": a.depth, "link_delay": a.link_delay,
            "search": "start 0.02 flits/host/clock, doubled until saturated, then 3 loads between the last "
                      "unsaturated and the first saturated point, then halfway between the best point and each "
                      "neighbour",
            "saturation_rule": "accepted < 0.95 x offered; throughput = highest accepted traffic of the search"}


def prior(a, name, path, common):
    """A partial full Table 6 (or extra rows) JSON at `path` made with the same parameters (else None): before the
    searches were sweep points, a full run saved after every search (reports/experiments/full/seed001-table6.json,
    490 of 600). A rerun keeps those runs and runs only the others, as points."""
    if name not in ("table6", "extra") or not a.full:
        return None
    rows = a.rows if name == "table6" else EXTRA_ROWS
    return D.resumable(path, common, list(common), len(a.sizes) * a.topologies * len(rows) * len(a.patterns))


def json_path(a, name):
    return D.seed_json_path(a, NAME, name)


def md_path(a):
    return D.seed_md_path(a, NAME)


# ------------------------------------------------------------------ networks and route sets

def route_args(kind, sel, vcs):
    """sanfab-route arguments of a row: up*/down* with `vcs` VCs chosen at the source, or DL with a rule."""
    if kind == "ud":
        return ["updown", "--vcs", str(vcs), "--select", sel]
    if kind in RULE_ARG:
        return ["dl", "--vcs", str(vcs), "--rule", RULE_ARG[kind], "--select", sel]
    if kind == "lash":
        return ["lash", "--select", sel]
    if kind == "fm":
        return ["fm", "--deadlock", "layers"]
    raise ValueError(kind)


def routes(work, topo, kind, sel, vcs):
    """The route set and its --rhinet tables (made once); (routes, tables, VCs used, average hops)."""
    base = os.path.splitext(topo)[0] + "-%s-%s-%d" % (kind, sel, vcs)
    r, t = base + ".routes", base + ".rhinet"
    if not os.path.exists(t):
        sh([tool("sanfab-route")] + route_args(kind, sel, vcs) + [topo, "-o", r, "--rhinet", t])
    st = {}
    for line in open(r):
        if line.startswith("hosts "):
            f = line.split()
            st["vcs"] = int(f[f.index("vcs") + 1])
            break
    return r, t, st.get("vcs", 1)


def hops(topo, r):
    import json
    return json.loads(sh([tool("sanfab-route"), "stats", topo, r, "--json"]))["avg_hops"]


def pattern_dst(pat, s, hosts):
    """The fixed destination of host s under a permutation pattern (sw/sim/sf_traffic.c's definitions); None if s
    sends nothing."""
    b = hosts.bit_length() - 1
    if pat == "bit-reversal":
        d = int(format(s, "0%db" % b)[::-1], 2) if b else s
    elif pat == "transpose":
        hb = b // 2
        d = ((s & ((1 << hb) - 1)) << (b - hb)) | (s >> hb)
    elif pat == "butterfly":
        d = s if b < 2 or (s & 1) == (s >> (b - 1) & 1) else s ^ (1 | 1 << (b - 1))
    elif pat == "complement":
        d = hosts - 1 - s
    else:
        raise ValueError(pat)
    return None if d == s else d


def routing_bound(topo, r, pat):
    """The offered load (flits/host/clock) at which the route set's busiest switch-to-switch channel is full: 1 / the
    most loaded channel's load, the load of a channel being the flits it must carry per flit each host sends
    (uniform: every other host with 1/(H-1); a permutation: its flows). Alternatives share a pair's load evenly.
    Independent of the simulator: what the routes themselves allow before any channel is overloaded."""
    hosts, links = {}, {}
    for line in open(topo):
        f = line.split("#")[0].split()
        if f and f[0] == "host":
            sw, port = f[2].split(":")
            hosts[int(f[1])] = (int(sw), int(port))
        elif f and f[0] == "link":
            a, pa = map(int, f[1].split(":"))
            b, pb = map(int, f[2].split(":"))
            links[(a, pa)], links[(b, pb)] = (b, pb), (a, pa)
    routes = {}
    for line in open(r):
        if line.startswith("route "):
            k, v = line.split(":", 1)
            src, dst, alt = map(int, k.split()[1:4])
            routes.setdefault((src, dst), []).append(v.split("|")[0].split())
    H, load = len(hosts), {}
    pairs = [(s, d, 1.0 / (H - 1)) for s in range(H) for d in range(H) if s != d] if pat == "uniform" else \
        [(s, pattern_dst(pat, s, H), 1.0) for s in range(H) if pattern_dst(pat, s, H) is not None]
    for s, d, w in pairs:
        alts = routes[(s, d)]
        for bs in alts:
            sw = hosts[s][0]
            for byte in bs[:-1]:  # the last byte is the port to the destination host
                port = int(byte, 16) & 0x3F
                load[(sw, port)] = load.get((sw, port), 0.0) + w / len(alts)
                sw = links[(sw, port)][0]
    return 1.0 / max(list(load.values()) + [1.0])


def random_topo(work, nsw, ts):
    topo = os.path.join(work, "r%d-s%d.topo" % (nsw, ts))
    if not os.path.exists(topo):
        sh([tool("sanfab-topo"), "random", "--switches", str(nsw), "--ports", "8", "--hosts", "4", "--seed", str(ts),
            "-o", topo])
    return topo


def keys(a, nvc=4, extra=()):
    """The VC network's sanfab-sim keys of a run."""
    return ["--switch", "vcsw", "--vcs", str(nvc), "--packet-flits", str(a.packet), "--depth", str(a.depth),
            "--link-delay", str(a.link_delay)] + list(extra)


def nvc_for(used):
    """The switches' NVC for a route set using `used` VCs: 4 for the paper's 3, else the next power of 2."""
    n = 4
    while n < used:
        n *= 2
    return n


def search_point(a, key, topo, r, t, nvc, traffic):
    """A sweep point that is one route set's load search (its result: {"summary", "points", "cpu_seconds"})."""
    return D.search_point(a, key, topo, r, 0.02, keys(a, nvc, ["--tables", t, "--traffic", traffic]), UNIT, LAT)


# ------------------------------------------------------------------ Table 6 (and the extra rows, Fig. 6)

def table6(a, work, rows, name, done=()):
    """The searches of `rows` on every network and pattern, points of one sweep; `done`: the runs of a partial JSON
    with the same parameters (prior()), kept and not run again."""
    runs = list(done)
    have = {(x["switches"], x["topology_seed"], x["routing"], x["select"], x["pattern"]) for x in runs}
    cases, pts = [], []
    for nsw in a.sizes:
        for ts in range(1, a.topologies + 1):
            topo = random_topo(work, nsw, ts)
            # Sancho's selection first on each network (the paper's headline rows), the order of the runs
            for kind, sel in sorted(rows, key=lambda r: (r[1] != "sancho", r[1] != "pch")):
                if all((nsw, ts, kind, sel, pat) in have for pat in a.patterns):
                    continue
                r, t, used = routes(work, topo, kind, sel, a.vcs)
                h = hops(topo, r)
                for pat in a.patterns:
                    if (nsw, ts, kind, sel, pat) not in have:
                        cases.append((nsw, ts, kind, sel, pat, topo, r, used, h))
                        pts.append(search_point(a, "%s-n%d-s%d-%s-%s-%s" % (name, nsw, ts, kind, sel, pat), topo, r,
                                                t, nvc_for(used), pat))
    for (nsw, ts, kind, sel, pat, topo, r, used, h), out in zip(cases, D.run_points(a, pts)):
        res = out["summary"]
        res.update({"switches": nsw, "topology_seed": ts, "pattern": pat, "routing": kind, "select": sel,
                    "vcs_used": used, "avg_hops": h, "routing_bound": routing_bound(topo, r, pat)})
        if ts == 1 and pat == "uniform":
            res["raw"] = [{"load": p["load"], "accepted_flits_cycle_host": p["accepted_flits_cycle_host"],
                           "latency_cycles": p["latency_cycles"]} for p in out["points"]]
        log("%s: %2d switches, network %2d, %-12s %-14s %-15s %.4f flits/host/clock (%d VCs, %.2f hops)" % (
            name, nsw, ts, pat, ROW_NAME.get(kind, kind), SEL_NAME.get(sel, sel), res["throughput_" + UNIT], used, h))
        runs.append(res)
    return runs


def summarize(runs):
    """(switches, pattern, routing, select) -> (average, SD, networks) of the throughputs of `runs`."""
    rows_t = grouped(runs, lambda x: (x["switches"], x["pattern"], x["routing"], x["select"]), "throughput_" + UNIT)
    table = {}
    for k, v in rows_t.items():
        avg = sum(v) / len(v)
        sd = math.sqrt(sum((x - avg) ** 2 for x in v) / (len(v) - 1)) if len(v) > 1 else 0.0
        table[k] = (avg, sd, len(v))
    return table


def ratio_rows(table):
    """(switches, pattern, rule, select) -> (ours DL/UD, paper DL/UD) for every DL row with its UD row."""
    out = {}
    for (n, p, kind, sel), (avg, _, _) in table.items():
        if kind == "ud" or (n, p, "ud", sel) not in table:
            continue
        ud = table[(n, p, "ud", sel)][0]
        pk, pu = PAPER_T6.get((n, p, kind, sel)), PAPER_T6.get((n, p, "ud", sel))
        out[(n, p, kind, sel)] = (avg / ud if ud else float("nan"), pk[0] / pu[0] if pk and pu else None)
    return out


def table6_checks(table, full):
    ch = []
    rat = ratio_rows(table)
    for (n, p, kind, sel), (ours, paper) in sorted(rat.items()):
        label = "%d switches, %s, %s %s" % (n, p, ROW_NAME[kind], SEL_NAME[sel])
        # the paper's own ordering: every DL row above its up*/down* row
        ch.append((ours > 1.0, n == 16 and p == "uniform" and sel == "sancho" and kind == "ud-star",
                   "Table 6, %s: DL above up*/down* with the same selection (ours %.2fx, paper %.2fx)"
                   % (label, ours, paper)))
        if paper:
            ch.append((abs(ours / paper - 1) <= 0.25, False, "Table 6, %s: DL/UD within +-25 %% of the paper's "
                       "(ours %.2fx, paper %.2fx, %+.0f %%)" % (label, ours, paper, 100 * (ours / paper - 1))))
    for (n, p) in sorted({(k[0], k[1]) for k in table}):
        for kind in ("ud", "ud-star", "ud-du", "ud-dudu", "lturn"):
            lo, sa = table.get((n, p, kind, "low")), table.get((n, p, kind, "sancho"))
            if lo and sa:
                ch.append((sa[0] > lo[0], False, "Table 6, %d switches, %s, %s: Sancho's selection above low port "
                           "(%.4f > %.4f)" % (n, p, ROW_NAME[kind], sa[0], lo[0])))
        dl = [v for k, v in table.items() if k[0] == n and k[1] == p and k[2] != "ud" and k[3] != "low"]
        ud = [v for k, v in table.items() if k[0] == n and k[1] == p and k[2] == "ud" and k[3] != "low"]
        if dl and ud and all(x[2] > 1 for x in dl + ud):
            sd_dl, sd_ud = sum(x[1] / x[0] for x in dl) / len(dl), sum(x[1] / x[0] for x in ud) / len(ud)
            ch.append((sd_dl < sd_ud, False, "Table 6, %d switches, %s: DL's throughput varies less over the networks "
                       "(relative SD %.3f for DL with balanced selections, %.3f for up*/down*)" % (n, p, sd_dl, sd_ud)))
    for (n, p, kind, sel), (avg, _, _) in table.items():
        if p == "uniform" and (n, "bit-reversal", kind, sel) in table:
            br = table[(n, "bit-reversal", kind, sel)][0]
            ch.append((br > avg, False, "Table 6, %d switches, %s %s: bit reversal above uniform (%.4f > %.4f)"
                       % (n, ROW_NAME[kind], SEL_NAME[sel], br, avg)))
    return ch


def run_table6(a, work, prior):
    runs = table6(a, work, a.rows, "table6", prior["runs"] if prior else ())
    return table6_data(a, runs)


def table6_data(a, runs):
    """Table 6's JSON (without the timing) and its checks from the searches `runs` (all, or a stopped run's)."""
    table = summarize(runs)
    data = {"experiment": "seed 001 Table 6", "complete": True, "rows": [list(r) for r in a.rows],
            "patterns": a.patterns,
            "table": [{"switches": k[0], "pattern": k[1], "routing": k[2], "select": k[3], "avg": v[0], "sd": v[1],
                       "networks": v[2], "paper": PAPER_T6.get(k)} for k, v in sorted(table.items())],
            "ratios": [{"switches": k[0], "pattern": k[1], "routing": k[2], "select": k[3], "ours": v[0], "paper": v[1]}
                       for k, v in sorted(ratio_rows(table).items())],
            "runs": runs}
    return data, table6_checks(table, a.full)


def run_extra(a, work, prior):
    runs = table6(a, work, EXTRA_ROWS, "extra", prior["runs"] if prior else ())
    return extra_data(a, runs)


def extra_data(a, runs):
    """The extra rows' JSON and checks from their searches `runs`, beside Table 6's averages (its JSON, if any)."""
    table = summarize(runs)
    base = {}
    t6 = json_path(a, "table6")
    if os.path.exists(t6):
        import json
        with open(t6) as f:
            for r in json.load(f).get("table", []):
                base[(r["switches"], r["pattern"], r["routing"], r["select"])] = r["avg"]
    data = {"experiment": "LASH and FM with layers on Table 6's networks", "table": [
        {"switches": k[0], "pattern": k[1], "routing": k[2], "select": k[3], "avg": v[0], "sd": v[1], "networks": v[2],
         "ud_sancho": base.get((k[0], k[1], "ud", "sancho")), "dl_sancho": base.get((k[0], k[1], "ud-star", "sancho"))}
        for k, v in sorted(table.items())], "runs": runs}
    ch = []
    for k, v in sorted(table.items()):
        ud = base.get((k[0], k[1], "ud", "sancho"))
        if ud:
            ch.append((v[0] > ud, False, "%d switches, %s: %s above up*/down* (Sancho) (%.4f > %.4f)"
                       % (k[0], k[1], k[2].upper(), v[0], ud)))
    return data, ch


# ------------------------------------------------------------------ Table 5: the mesh

def run_table5(a, work):
    topo = os.path.join(work, "mesh4.topo")
    sh([tool("sanfab-topo"), "mesh", "--k", "4", "--ports", "8", "--hosts", "4", "-o", topo])
    cases, pts = [], []
    for kind in ("ud", "ud-star"):
        r, t, used = routes(work, topo, kind, "sancho", 2)
        for pat in T5_PATTERNS:
            cases.append((kind, r, used, pat))
            pts.append(search_point(a, "table5-%s-%s" % (kind, pat), topo, r, t, nvc_for(used), pat))
    runs = []
    for (kind, r, used, pat), out in zip(cases, D.run_points(a, pts)):
        res = out["summary"]
        res.update({"pattern": pat, "routing": kind, "select": "sancho", "vcs_used": used,
                    "routing_bound": routing_bound(topo, r, pat)})
        log("table5: mesh, %-12s %-10s %.4f flits/host/clock" % (pat, ROW_NAME[kind], res["throughput_" + UNIT]))
        runs.append(res)
    tp = {(x["routing"], x["pattern"]): x["throughput_" + UNIT] for x in runs}
    ch = []
    for pat in T5_PATTERNS:
        ud, dl = tp[("ud", pat)], tp[("ud-star", pat)]
        pu, pd = PAPER_T5[pat]
        ch.append((dl >= ud, False, "Table 5, mesh, %s: DL at least up*/down* (ours %.4f / %.4f = %.2fx, paper %.3f / "
                   "%.3f = %.2fx)" % (pat, dl, ud, dl / ud, pd, pu, pd / pu)))
    return {"experiment": "seed 001 Table 5, the 4 x 4 mesh", "vcs": 2, "select": "sancho", "runs": runs,
            "table": [{"pattern": p, "ud": tp[("ud", p)], "dl": tp[("ud-star", p)], "paper": PAPER_T5[p]}
                      for p in T5_PATTERNS]}, ch


# ------------------------------------------------------------------ Figs. 6 and 7

def latency_png(a, work, md_dir, curves, name, title):
    """A latency-against-accepted PNG from [(label, raw points)]; its path relative to ROOT, or None."""
    if not have_matplotlib():
        log("%s: matplotlib missing (make deps): no PNG" % name)
        return None
    import json
    files, labels = [], []
    for i, (label, pts) in enumerate(curves):
        f = os.path.join(work, "%s-%d.json" % (name, i))
        with open(f, "w") as fh:
            json.dump({"network": {"algorithm": label}, "points": pts}, fh)
        files.append(f)
        labels += ["--label", label]
    png = os.path.join(md_dir, a.png_prefix + name + ".png")
    D.plot(["latency"] + files + labels + ["-o", png, "--title", title, "--dpi", "90"])
    return os.path.relpath(png, ROOT)


def run_fig6(a, work, md_dir):
    import json
    t6 = json_path(a, "table6")
    if not os.path.exists(t6):
        return {"experiment": "seed 001 Fig. 6", "plots": [], "note": "no Table 6 JSON of this mode yet"}, []
    with open(t6) as f:
        runs = json.load(f)["runs"]
    plots = []
    for nsw in a.sizes:
        curves = [("%s, %s" % (ROW_NAME[r["routing"]], SEL_NAME[r["select"]]), r["raw"]) for r in runs
                  if r["switches"] == nsw and r.get("raw")]
        p = latency_png(a, work, md_dir, curves, "fig6-%d" % nsw,
                        "%d switches (network 1), uniform, 128-flit packets (Fig. 6)" % nsw)
        if p:
            plots.append(p)
    return {"experiment": "seed 001 Fig. 6", "plots": plots}, []


def run_fig7(a, work, md_dir):
    topo = os.path.join(work, "torus8.topo")
    sh([tool("sanfab-topo"), "torus", "--k", "8", "--ports", "8", "--hosts", "4", "-o", topo])
    sets = [routes(work, topo, kind, sel, a.vcs) for kind, sel in a.fig7_rows]
    outs = D.run_points(a, [search_point(a, "fig7-%s-%s" % (kind, sel), topo, r, t, nvc_for(used), "uniform")
                            for (kind, sel), (r, t, used) in zip(a.fig7_rows, sets)])
    runs, curves = [], []
    for (kind, sel), (r, t, used), out in zip(a.fig7_rows, sets, outs):
        res = out["summary"]
        res.update({"routing": kind, "select": sel, "vcs_used": used, "avg_hops": hops(topo, r),
                    "routing_bound": routing_bound(topo, r, "uniform")})
        runs.append(res)
        curves.append(("%s, %s" % (ROW_NAME[kind], SEL_NAME[sel]), out["points"]))
        log("fig7: torus 8x8, %-13s %-15s %.4f flits/host/clock" % (ROW_NAME[kind], SEL_NAME[sel], res["throughput_" + UNIT]))
    tp = {(x["routing"], x["select"]): x["throughput_" + UNIT] for x in runs}
    ch, best = [], 0.0
    for (kind, sel), v in tp.items():
        if kind != "ud" and ("ud", sel) in tp:
            imp = 100 * (v / tp[("ud", sel)] - 1)
            best = max(best, imp)
            ch.append((imp > 0, False, "Fig. 7, torus: %s %s above up*/down* %s (%+.0f %%)" % (
                ROW_NAME[kind], SEL_NAME[sel], SEL_NAME[sel], imp)))
    ch.append((best > 0, True, "Fig. 7, torus: DL improves on up*/down* with the same selection (best %+.0f %%; paper: "
               "up to +266 %%)" % best))
    png = latency_png(a, work, md_dir, curves, "fig7", "8x8 torus, uniform, 128-flit packets (Fig. 7)")
    return {"experiment": "seed 001 Fig. 7, 8 x 8 torus", "runs": runs, "best_improvement_pct": best,
            "plots": [png] if png else []}, ch


# ------------------------------------------------------------------ the model's own choices

def run_choices(a, work):
    topo = random_topo(work, 16, 1)
    cases = [("cables of 0 (the default)", 128, 256, 0), ("cables of 4", 128, 256, 4), ("cables of 16", 128, 256, 16),
             ("64-flit packets, DEPTH 256", 64, 256, 0), ("64-flit packets, DEPTH 128", 64, 128, 0)]
    todo, pts = [], []
    for kind, sel in (("ud", "sancho"), ("ud-star", "sancho")):
        r, t, used = routes(work, topo, kind, sel, a.vcs)
        for i, (what, pkt, depth, ld) in enumerate(cases):
            b = type(a)(**vars(a))
            b.packet, b.depth, b.link_delay = pkt, depth, ld
            todo.append((kind, sel, what, pkt, depth, ld))
            pts.append(search_point(b, "choices-%s-%s-case%d" % (kind, sel, i), topo, r, t, nvc_for(used), "uniform"))
    runs = []
    for (kind, sel, what, pkt, depth, ld), out in zip(todo, D.run_points(a, pts)):
        res = out["summary"]
        res.update({"routing": kind, "select": sel, "case": what, "packet_flits": pkt, "depth": depth,
                    "link_delay": ld})
        runs.append(res)
        log("choices: %-10s %-28s %.4f flits/host/clock" % (ROW_NAME[kind], what, res["throughput_" + UNIT]))
    return {"experiment": "the model's choices: cable delay and buffer depth", "network": "random 16 switches, seed 1",
            "runs": runs}, []


def run(a, name, work, md_dir, prior):
    if name == "table6":
        return run_table6(a, work, prior)
    if name == "extra":
        return run_extra(a, work, prior)
    if name == "table5":
        return run_table5(a, work)
    if name == "fig6":
        return run_fig6(a, work, md_dir)
    if name == "fig7":
        return run_fig7(a, work, md_dir)
    return run_choices(a, work)


# ------------------------------------------------------------------ the page

def f4(x):
    return "-" if x is None else "%.3f" % x


def md_table6(d, md_dir):
    L = ["## Table 6: throughput on random irregular networks (flits/host/clock)", "",
         "Random networks of 8-port switches with 4 hosts each (`sanfab-topo random --ports 8 --hosts 4`, seeds 1..%d); "
         "up\\*/down\\* with 3 VCs chosen at the source (`sanfab-route updown --vcs 3`, Koibuchi et al. 2003, sec. 5.1.2) and DL "
         "with 3 layers (`sanfab-route dl --vcs 3 --rule R`), each with the row's selection, Autonet root 0. "
         "Average and SD over the networks; the ratio is DL / up\\*/down\\* with the same selection." % d["topologies"], ""]
    pats = d["patterns"]
    for n in d["sizes"]:
        L += ["### %d switches" % n, "",
              "| routing | selection | " + " | ".join("%s ours avg | SD | paper avg | SD | DL/UD ours | paper" % p
                                                    for p in pats) + " |",
              "|---|---|" + "---|---|---|---|---|---|" * len(pats)]
        tab = {(r["switches"], r["pattern"], r["routing"], r["select"]): r for r in d["table"]}
        rat = {(r["switches"], r["pattern"], r["routing"], r["select"]): r for r in d["ratios"]}
        for kind, sel in [tuple(x) for x in d["rows"]]:
            cells = []
            for p in pats:
                r = tab.get((n, p, kind, sel))
                q = rat.get((n, p, kind, sel))
                pp = r["paper"] if r and r["paper"] else (None, None)
                cells.append("%s | %s | %s | %s | %s | %s" % (
                    f4(r["avg"]) if r else "-", f4(r["sd"]) if r else "-", f4(pp[0]), f4(pp[1]),
                    "%.2f" % q["ours"] if q else "-", "%.2f" % q["paper"] if q and q["paper"] else "-"))
            L.append("| %s | %s | %s |" % (ROW_NAME[kind], SEL_NAME[sel], " | ".join(cells)))
        L.append("")
    L += ["Per network (bound: the offered load at which the route set's busiest channel is full, 1 / its load, from "
          "the route file alone: below it no channel is overloaded; past it the flows that avoid the busiest channels "
          "still grow, so the throughput may exceed it under a permutation):", "",
          "| switches | network | traffic | routing | selection | VCs | hops | throughput | bound | throughput / bound | "
          "saturation load | deadlocks |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in d["runs"]:
        L.append("| %d | %d | %s | %s | %s | %d | %.2f | %.4f | %.4f | %.2f | %s | %d |" % (
            r["switches"], r["topology_seed"], r["pattern"], ROW_NAME[r["routing"]], SEL_NAME[r["select"]],
            r["vcs_used"], r["avg_hops"], r["throughput_" + UNIT], r["routing_bound"],
            r["throughput_" + UNIT] / r["routing_bound"], r["saturation_load"], r["deadlocks"]))
    return L + [""]


def md_extra(d, md_dir):
    L = ["## LASH and FM with layers (no paper's rows)", "",
         "The networks of Table 6; LASH (`sanfab-route lash --select sancho`) and FM made deadlock-free by layers "
         "(`sanfab-route fm --deadlock layers`, two alternatives per pair, the NIC picks one at random per packet). "
         "They need as many VCs as their layers: the switches get the next power of 2 (NVC) above what the set "
         "uses (the VCs column).", "",
         "| switches | traffic | routing | avg | SD | networks | up*/down* (Sancho) | DL (UD)* (Sancho) |",
         "|---|---|---|---|---|---|---|---|"]
    for r in d["table"]:
        L.append("| %d | %s | %s | %s | %s | %d | %s | %s |" % (r["switches"], r["pattern"], r["routing"].upper(),
                                                              f4(r["avg"]), f4(r["sd"]), r["networks"],
                                                              f4(r["ud_sancho"]), f4(r["dl_sancho"])))
    L += ["", "| switches | network | traffic | routing | VCs used | hops | throughput |", "|---|---|---|---|---|---|---|"]
    for r in d["runs"]:
        L.append("| %d | %d | %s | %s | %d | %.2f | %.4f |" % (r["switches"], r["topology_seed"], r["pattern"],
                                                              r["routing"].upper(), r["vcs_used"], r["avg_hops"],
                                                              r["throughput_" + UNIT]))
    return L + [""]


def md_table5(d, md_dir):
    L = ["## Table 5, the mesh column: throughput on the 4 x 4 mesh (flits/host/clock)", "",
         "`sanfab-topo mesh --k 4 --ports 8 --hosts 4` (16 switches, 64 hosts); up\\*/down\\* against DL ((UD)\\*), "
         "both with 2 VCs as in the paper's sec. 4 set, Sancho's selection (the paper's \"path distribution\" "
         "allocates paths per host; ours per switch pair). Topologies A and B are not given in the text.", "",
         "| traffic | UD ours | DL ours | DL/UD ours | UD paper | DL paper | DL/UD paper | UD bound | DL bound |",
         "|---|---|---|---|---|---|---|---|---|"]
    bound = {(x["routing"], x["pattern"]): x["routing_bound"] for x in d["runs"]}
    for r in d["table"]:
        pu, pd = r["paper"]
        L.append("| %s | %.4f | %.4f | %.2f | %.3f | %.3f | %.2f | %.4f | %.4f |" % (
            r["pattern"], r["ud"], r["dl"], r["dl"] / r["ud"], pu, pd, pd / pu, bound[("ud", r["pattern"])],
            bound[("ud-star", r["pattern"])]))
    return L + [""]


def md_plots(d, md_dir, title, text):
    L = ["## " + title, "", text, ""]
    for p in d.get("plots", []):
        L.append("![%s](%s)" % (os.path.basename(p), os.path.relpath(os.path.join(ROOT, p), md_dir)))
    return L + [""]


def md_fig7(d, md_dir):
    L = md_plots(d, md_dir, "Fig. 7: the 8 x 8 torus", "`sanfab-topo torus --k 8 --ports 8 --hosts 4` (64 switches, "
                 "256 hosts), uniform traffic, the algorithms of the paper's figure with low-port and Sancho's "
                 "selection (3 VCs). Improvement = DL / up\\*/down\\* with the same selection - 1; the paper: \"up to "
                 "266 %%\". Best here: %+.0f %%." % d["best_improvement_pct"])[:-1]
    L += ["", "| routing | selection | VCs | hops | throughput | bound | saturation load |", "|---|---|---|---|---|---|---|"]
    for r in d["runs"]:
        L.append("| %s | %s | %d | %.2f | %.4f | %.4f | %s |" % (
            ROW_NAME[r["routing"]], SEL_NAME[r["select"]], r["vcs_used"], r["avg_hops"], r["throughput_" + UNIT],
            r["routing_bound"], r["saturation_load"]))
    return L + [""]


def md_choices(d, md_dir):
    L = ["## What the model's own choices move", "",
         "The paper gives neither the buffer depth nor the cable delay. One network (%s), uniform traffic, the same "
         "search: the default (cables of 0, DEPTH 256, 128-flit packets) against longer cables and, with 64-flit "
         "packets (a 128-flit packet needs DEPTH 256, the largest), a buffer of 128 against 256 flits." % d["network"],
         "", "| routing | case | packet | DEPTH | cable | throughput | saturation load |", "|---|---|---|---|---|---|---|"]
    for r in d["runs"]:
        L.append("| %s | %s | %d | %d | %d | %.4f | %s |" % (ROW_NAME[r["routing"]], r["case"], r["packet_flits"],
                                                          r["depth"], r["link_delay"], r["throughput_" + UNIT],
                                                          r["saturation_load"]))
    return L + [""]


def stopped(a, name, data):
    """A stopped full run's Table 6 (or extra rows) JSON made whole for the page from the searches it did (marked
    "stopped"); any other JSON as it is."""
    if data.get("complete") is not False or name not in ("table6", "extra"):
        return data
    whole, ch = (table6_data if name == "table6" else extra_data)(a, data["runs"])
    whole.update({k: v for k, v in data.items() if k not in whole and k not in ("complete", "checks")})
    whole["stopped"] = True
    whole["checks"] = D.checks_json(ch)
    return whole


def write_md(path, a, found, missing):
    L = ["# Experiments: [Koibuchi et al. 2003](references.md#koibuchi-et-al-2003) on the VC-switch network%s" % (": full run" if a.full else ""), "",
         "Generated by `scripts/experiments.py --paper 001%s` from `%s/seed001-*.json`; do not edit by hand. The "
         "network: the table-lookup VC switch's C model (the very model its RTL is held against, docs/vcsw.md) in "
         "the fabric, RHiNET NICs, the tables of `sanfab-route --rhinet` (docs/network.md \"The VC network\"). Seed "
         "000 (the crossbar network) is on [experiments%s.md](experiments%s.md)." % (
             " --full" if a.full else "", os.path.relpath(a.out_dir, ROOT), "-full" if a.full else "",
             "-full" if a.full else ""), ""]
    if a.full:
        L += ["**Full run**: %s switches, %d networks per size, all 15 rows, %d + %d cycles per point." % (
            "/".join(str(s) for s in a.sizes), a.topologies, a.warmup, a.cycles), ""]
    else:
        L += ["**Reduced run** (`make experiments`, and the `experiments` step of `make test`, which writes under "
              "`build/experiments/`): %s switches, %d networks, the Table 6 rows %s, %d + %d cycles per point; Fig. 7 "
              "with %d algorithms. `--full` runs the paper's sizes, rows and windows ([experiments-seed001-full.md]"
              "(experiments-seed001-full.md))." % (
                  "/".join(str(s) for s in a.sizes), a.topologies,
                  ", ".join("%s %s" % (ROW_NAME[k], SEL_NAME[s]) for k, s in a.rows), a.warmup, a.cycles,
                  len(a.fig7_rows)), ""]
    L += ["Parameters (Koibuchi et al. 2003, sec. 5.1.1): 3 VCs (switches of 4, the routes use at most 3), 128-flit packets, "
          "virtual cut-through, a header 3 clocks per switch plus one to the next (docs/vcsw.md), buffers of 256 "
          "flits per input VC and cables of 0 registers (our choices, see below); throughput = the highest accepted "
          "traffic of a load search (start 0.02 flits/host/clock, doubled until a point saturates, then three loads "
          "between the last unsaturated and the first saturated point, then halfway between the best point and each "
          "neighbour; saturated: accepted < 0.95 x offered).", ""]
    if missing:
        L += ["Not in this page yet (no JSON of this mode): %s." % ", ".join(missing), ""]
    found = [(name, stopped(a, name, data)) for name, data in found]
    for name, data in found:
        if data.get("stopped"):
            L += ["**%s is a stopped run's**: %d of its %d searches were done (it resumes where it stopped when the "
                  "same command runs again); its averages, ratios and checks are over the networks done (the "
                  "networks column)." % (name, data["runs_done"], data["runs_planned"]), ""]
    L += D.checks_md(found)
    md_dir = os.path.dirname(os.path.abspath(path))
    for name, data in found:
        if name == "table6":
            L += md_table6(data, md_dir)
        elif name == "extra":
            L += md_extra(data, md_dir)
        elif name == "table5":
            L += md_table5(data, md_dir)
        elif name == "fig6":
            L += md_plots(data, md_dir, "Fig. 6: latency on irregular networks (uniform)",
                          "From Table 6's searches on network 1 of each size: average latency (clocks, from "
                          "generation) against accepted traffic.")
        elif name == "fig7":
            L += md_fig7(data, md_dir)
        elif name == "choices":
            L += md_choices(data, md_dir)
    if os.path.exists(NOTES_FILE):
        with open(NOTES_FILE) as f:
            L += f.read().splitlines() + [""]
    with open(path, "w") as f:
        f.write("\n".join(L))

"""Seed 003's experiments on the crossbar network (scripts/experiments.py --paper 003): dispersive routing in the
NIC (Geoffray and Hoefler, Myrinet/MX) on a 3-stage Clos of 32-port crossbars (cmodel/xbar.c, the model the RTL is
held against) with the Myri-10G timing set (sw/sim/timing/myri10g.cfg; docs/network.md "Route policies",
"Workloads", "Timing sets"; docs/experiments-seed003.md).

  bisection   Figs. 2-6: effective bisection bandwidth (% of a lone pair's) of random bisection patterns (random
              halves, disjoint pairs, each pair exchanging `messages` messages of `bytes` each way, one at a time in
              each direction) for static, randomized oblivious, adaptive (threshold 4, 50 %) and probing adaptive
              (threshold 16, 100 %) routing at each node count; min / avg / max over the patterns
  bridge      Fig. 7: the bridge pattern (the hosts of leaf 2i with those of leaf 2i+1) for the four policies
  params      sec. 5.3's parameter study: probing adaptive routing with threshold {0, 4, 8, 16} x probability
              {50, 100 %} at the largest node count (reduced: 32 nodes, one pattern)

N nodes are the first N hosts of the paper's machine: N / 16 leaf switches of 16 hosts and 16 uplinks (one leaf
for 16 nodes), 16 spines; every pair of hosts on different leaves has 16 routes (sanfab-route clos-all). The
effective bisection of a pattern is the average over its hosts of the bytes a host sent over the time it took
(Geoffray and Hoefler 2008, sec. 5.2: b_p = s / t_p), divided by the same figure for one pair alone on the network (the paper's
baseline, MX ping-pong bandwidth). Every run is one point of a sweep through the Dask engine (scripts/sweep.py):
--jobs local workers, or --scheduler ADDR; with --full the finished points are files
(reports/experiments/full/seed003-points-full/) and a stopped run resumes.

Reduced (make experiments, make test): 16..64 nodes, 2 patterns, 2 messages of 128 KB each way. --full: 16..512
nodes, 10 patterns (the paper: 5,000), 8 messages of 256 KB each way (the paper: 50 of 1 MiB; probing needs about
2 MB a host to settle, sec. 4.4.1: "the minimum message size needed to converge would be 128 KB").
"""
import json
import os
import sys

import exp_driver as D
from exp_driver import ROOT, have_matplotlib, log, sh, stats, tool

NAME, TITLE = "003", "Geoffray and Hoefler 2008 on the crossbar network: dispersive routing"
EXPERIMENTS = ["bisection", "bridge", "params"]
PORTS, HOSTS_PER_LEAF, SPINES = 32, 16, 16

# (policy, its keys) as Geoffray and Hoefler 2008 used them in Figs. 2-5
POLICIES = [("static", []), ("oblivious", []), ("adaptive", ["--threshold", "4", "--probability", "50"]),
            ("probing", ["--threshold", "16", "--probability", "100"])]
POLICY_NAME = {"static": "static", "oblivious": "randomized oblivious", "adaptive": "adaptive (4, 50 %)",
               "probing": "probing adaptive (16, 100 %)"}
# the paper's statements (fractions of full bisection), sec. 5.3 and 5.4
PAPER = {
    ("static", 512, "avg"): 0.38,        # 414.3 MiB/s of 1090
    ("oblivious", 512, "avg"): 0.52,     # "stagnation around 566.6 MiB/s"
    ("probing", 128, "avg"): 0.92,
    ("probing", 512, "avg"): 0.77,
    ("probing", 512, "min"): 0.72,       # "a minimum of 72 % of full bisection is sustained"
}
PAPER_BRIDGE = {"probing": 0.98, "others": 0.56}


def configure(a):
    a.png_prefix = "exp003-full-" if a.full else "exp003-"
    if a.full:
        a.sizes, a.patterns, a.messages, a.bytes = [16, 32, 64, 128, 256, 512], 10, 8, 262144
    else:
        a.sizes, a.patterns, a.messages, a.bytes = [16, 32, 64], 2, 2, 131072
    if a.topologies is not None:  # --topologies: the number of random bisection patterns per size
        a.patterns = a.topologies
    a.mtu, a.timing = 4096, "myri10g"
    # the parameter study: at the largest size of --full; reduced at 32 nodes and one pattern (make test's budget)
    if getattr(a, "max_nodes", None):  # --max-nodes: the sizes up to it
        a.sizes = [n for n in a.sizes if n <= a.max_nodes] or [a.max_nodes]
    a.param_nodes, a.param_patterns = (max(a.sizes), a.patterns) if a.full else (min(32, max(a.sizes)), 1)
    a.thresholds, a.probabilities = [0, 4, 8, 16], [50, 100]


def common(a):
    return {"sizes": a.sizes, "patterns": a.patterns, "messages": a.messages, "message_bytes": a.bytes, "mtu": a.mtu,
            "timing": a.timing, "ports": PORTS, "hosts_per_leaf": HOSTS_PER_LEAF, "spines": SPINES,
            "pattern_seeds": "seed + i for the i-th pattern (one random bisection pattern per seed)"}


def json_path(a, name):
    return D.seed_json_path(a, NAME, name)


def md_path(a):
    return D.seed_md_path(a, NAME)


# ------------------------------------------------------------------ networks and points

def network(work, n):
    """The Clos of the first n hosts (n / 16 leaves of 16 hosts, 16 spines) and its clos-all routes: (topo, routes)."""
    leaves = max(1, n // HOSTS_PER_LEAF)
    topo = os.path.join(work, "clos%d.topo" % n)
    routes = os.path.join(work, "clos%d.routes" % n)
    if not os.path.exists(routes):
        sh([tool("sanfab-topo"), "clos", "--leaves", str(leaves), "--hosts", str(n // leaves), "--spines", str(SPINES),
            "-o", topo])
        sh([tool("sanfab-route"), "clos-all", topo, "-o", routes])
    return topo, routes


def point(a, work, key, n, workload, seed, policy_args, extra=()):
    """One sanfab-sim workload run as a sweep point."""
    topo, routes = network(work, n)
    cmd = [tool("sanfab-sim"), "--topology", topo, "--routes", routes, "--timing", a.timing, "--links", "no",
           "--quiet", "--mtu", str(a.mtu), "--message-bytes", str(a.bytes), "--messages", str(a.messages),
           "--seed", str(seed)] + list(policy_args) + list(extra)
    if workload.endswith(".wl"):
        cmd += ["--workload-file", workload]
    else:
        cmd += ["--workload", workload]
    return {"key": key, "cmd": cmd}


def baseline_point(a, work):
    """One pair alone (hosts 0 and 16, on two leaves), the same messages: the 100 % of effective bisection."""
    wl = os.path.join(work, "pair.wl")
    with open(wl, "w") as f:
        f.write("sanfab-workload 1\n# the baseline: one pair alone, %d messages of %d bytes each way, one at a time\n"
                "repeat %d\n  0 send 16 %d\n  16 send 0 %d\n  0 recv 16\n  16 recv 0\nend\n"
                % (a.messages, a.bytes, a.messages, a.bytes, a.bytes))
    return point(a, work, "baseline", 32, wl, a.seed, ["--policy", "static"])


def wl_of(js):
    w = js["workload"]
    if not w["finished"]:
        sys.exit("experiments: a workload did not finish: %s" % w["stopped_by"])
    return w


def frac_stats(vals):
    lo, hi, avg, n = stats(vals)
    return {"effective_bisection_min": round(lo, 4), "effective_bisection_avg": round(avg, 4),
            "effective_bisection_max": round(hi, 4), "patterns": n}


# ------------------------------------------------------------------ the experiments

def run_bisection(a, work):
    pts = [baseline_point(a, work)]
    for n in a.sizes:
        for pol, args in POLICIES:
            for i in range(a.patterns):
                pts.append(point(a, work, "bis-n%d-%s-p%d" % (n, pol, i), n, "exchange", a.seed + i, ["--policy", pol] + args))
    res = D.run_points_by_key(a, pts)
    base = wl_of(res["baseline"])["bandwidth_bytes_cycle"]["avg"]
    rows = []
    for n in a.sizes:
        for pol, _ in POLICIES:
            w = [wl_of(res["bis-n%d-%s-p%d" % (n, pol, i)]) for i in range(a.patterns)]
            per = [x["bandwidth_bytes_cycle"]["avg"] / base for x in w]
            r = {"nodes": n, "policy": pol, "pattern": "random-bisection", **frac_stats(per),
                 "per_pattern": [round(x, 4) for x in per],
                 "route_changes": [x["policy"]["route_changes"] for x in w], "probes": [x["policy"]["probes"] for x in w],
                 "reordered_packets": [x["reordered_packets"] for x in w], "cycles": [x["cycles"] for x in w]}
            rows.append(r)
    return {"baseline_bytes_cycle": base, "baseline_mb_s": wl_of(res["baseline"])["bandwidth_mb_s"]["avg"], "rows": rows}


def run_bridge(a, work):
    pts = [baseline_point(a, work)]
    sizes = [n for n in a.sizes if n >= 2 * HOSTS_PER_LEAF]
    for n in sizes:
        for pol, args in POLICIES:
            pts.append(point(a, work, "bridge-n%d-%s" % (n, pol), n, "bridge", a.seed, ["--policy", pol] + args))
    res = D.run_points_by_key(a, pts)
    base = wl_of(res["baseline"])["bandwidth_bytes_cycle"]["avg"]
    rows = []
    for n in sizes:
        for pol, _ in POLICIES:
            w = wl_of(res["bridge-n%d-%s" % (n, pol)])
            rows.append({"nodes": n, "policy": pol, "pattern": "bridge",
                         **frac_stats([w["bandwidth_bytes_cycle"]["avg"] / base]),
                         "host_min": round(w["bandwidth_bytes_cycle"]["min"] / base, 4),
                         "route_changes": w["policy"]["route_changes"], "probes": w["policy"]["probes"]})
    return {"baseline_bytes_cycle": base, "rows": rows}


def run_params(a, work):
    n = a.param_nodes
    pts = [baseline_point(a, work)]
    for t in a.thresholds:
        for p in a.probabilities:
            for i in range(a.param_patterns):
                pts.append(point(a, work, "par-n%d-t%d-p%d-s%d" % (n, t, p, i), n, "exchange", a.seed + i,
                                 ["--policy", "probing", "--threshold", str(t), "--probability", str(p)]))
    res = D.run_points_by_key(a, pts)
    base = wl_of(res["baseline"])["bandwidth_bytes_cycle"]["avg"]
    rows = []
    for t in a.thresholds:
        for p in a.probabilities:
            per = [wl_of(res["par-n%d-t%d-p%d-s%d" % (n, t, p, i)])["bandwidth_bytes_cycle"]["avg"] / base
                   for i in range(a.param_patterns)]
            rows.append({"nodes": n, "policy": "probing", "threshold": t, "probability": p, "pattern": "random-bisection",
                         **frac_stats(per)})
    return {"baseline_bytes_cycle": base, "rows": rows}


def row(rows, **kw):
    return next((r for r in rows if all(r.get(k) == v for k, v in kw.items())), None)


def bisection_checks(a, d):
    rows, ch = d["rows"], []
    big = [n for n in a.sizes if n >= 128] or [max(a.sizes)]
    for n in big:
        v = {p: row(rows, nodes=n, policy=p)["effective_bisection_avg"] for p, _ in POLICIES}
        ch.append((v["static"] < v["adaptive"] < v["probing"], False,
                   "%d nodes: static < adaptive < probing (%.2f, %.2f, %.2f; paper: at every size >= 128)"
                   % (n, v["static"], v["adaptive"], v["probing"])))
        ch.append((v["probing"] > v["static"], True, "%d nodes: probing adaptive routing beats static routing "
                   "(%.2f against %.2f)" % (n, v["probing"], v["static"])))
    for (pol, n, what), want in PAPER.items():
        r = row(rows, nodes=n, policy=pol)
        if r:
            got = r["effective_bisection_" + what]
            tol = 0.05 if pol == "static" else 0.07
            ch.append((abs(got - want) <= tol if pol == "static" else got >= want - tol, False,
                       "%d nodes, %s: %s %.2f of full bisection (paper %.2f)" % (n, POLICY_NAME[pol], what, got, want)))
    n = max(a.sizes)
    o, s = row(rows, nodes=n, policy="oblivious"), row(rows, nodes=n, policy="static")
    if a.patterns > 1:
        ch.append((o["effective_bisection_max"] - o["effective_bisection_min"] <= s["effective_bisection_max"] -
                   s["effective_bisection_min"] + 0.02, False,
                   "%d nodes: oblivious's min-max band (%.3f) is narrower than static's (%.3f)"
                   % (n, o["effective_bisection_max"] - o["effective_bisection_min"],
                      s["effective_bisection_max"] - s["effective_bisection_min"])))
    for r in rows:
        if r["nodes"] == HOSTS_PER_LEAF:
            ch.append((r["effective_bisection_min"] > 0.9, True, "16 nodes on one crossbar: %s at %.2f of full "
                       "bisection (a single crossbar is non-blocking for a permutation)" % (r["policy"], r["effective_bisection_min"])))
    return ch


def bridge_checks(a, d):
    ch = []
    for r in d["rows"]:
        if r["policy"] == "probing":
            ch.append((r["effective_bisection_avg"] >= 0.95, False, "bridge, %d nodes: probing at %.2f of full bisection "
                       "(target >= 0.95; paper > 0.98)" % (r["nodes"], r["effective_bisection_avg"])))
    return ch


def run(a, name, work, md_dir, prior):
    if a.full:  # the networks and the baseline's workload beside the points' files, so a resumed point names the same
        work = os.path.join(a.points_dir, "files")
        os.makedirs(work, exist_ok=True)
    if name == "bisection":
        d = run_bisection(a, work)
        ch = bisection_checks(a, d)
        if have_matplotlib():
            plot_bisection(a, d, md_dir)
    elif name == "bridge":
        d = run_bridge(a, work)
        ch = bridge_checks(a, d)
    else:
        d = run_params(a, work)
        best = max(d["rows"], key=lambda r: r["effective_bisection_avg"])
        ch = [(True, False, "parameter study at %d nodes: best (%d, %d %%) at %.2f of full bisection (paper: (16, 100 %%) "
               "best overall, all within about 10 %% of each other up to 128 nodes)"
               % (best["nodes"], best["threshold"], best["probability"], best["effective_bisection_avg"]))]
    return d, ch


# ------------------------------------------------------------------ the page

def plot_bisection(a, d, md_dir):
    spec = {"title": "Geoffray and Hoefler 2008 Figs. 2-6: effective bisection, random bisection patterns", "xlabel": "nodes",
            "ylabel": "effective bisection (fraction of a lone pair)", "logx": True, "series": []}
    for pol, _ in POLICIES:
        rs = [r for r in d["rows"] if r["policy"] == pol]
        spec["series"].append({"label": POLICY_NAME[pol], "x": [r["nodes"] for r in rs],
                               "y": [r["effective_bisection_avg"] for r in rs],
                               "ymin": [r["effective_bisection_min"] for r in rs],
                               "ymax": [r["effective_bisection_max"] for r in rs]})
    path = os.path.join(md_dir, a.png_prefix + "bisection.json")
    with open(path, "w") as f:
        json.dump(spec, f)
    D.plot(["errorbars", path, "-o", os.path.join(md_dir, a.png_prefix + "bisection.png"), "--dpi", "90"])
    os.remove(path)


def md_bisection(a, d):
    L = ["## Figs. 2-6: effective bisection bandwidth of random bisection patterns", "",
         "Baseline (100 %%): one pair alone, %.3f bytes/cycle (%.0f MB/s at 0.8 ns a cycle; the paper's MX ping-pong: "
         "1090 MiB/s = 1143 MB/s). Fraction of full bisection, min / avg / max over %d patterns, %d messages of %d "
         "bytes each way:" % (d["baseline_bytes_cycle"], d.get("baseline_mb_s", 0), d.get("patterns", a.patterns),
                              d.get("messages", a.messages), d.get("message_bytes", a.bytes)), "",
         "| nodes | " + " | ".join(POLICY_NAME[p] for p, _ in POLICIES) + " |",
         "|---|" + "---|" * len(POLICIES)]
    sizes = sorted({r["nodes"] for r in d["rows"]})  # what the JSON holds (--max-nodes may have cut it)
    for n in sizes:
        cells = []
        for p, _ in POLICIES:
            r = row(d["rows"], nodes=n, policy=p)
            paper = " (paper %s)" % ", ".join("%s %.2f" % (w, v) for (pp, nn, w), v in PAPER.items() if pp == p and nn == n)
            cells.append("%.2f / **%.2f** / %.2f%s" % (r["effective_bisection_min"], r["effective_bisection_avg"],
                                                       r["effective_bisection_max"], paper if "paper " in paper and
                                                       any(pp == p and nn == n for pp, nn, _ in PAPER) else ""))
        L.append("| %d | %s |" % (n, " | ".join(cells)))
    L += ["", "Route changes and probes per pattern (the largest size):", ""]
    n = max(sizes)
    for p, _ in POLICIES:
        r = row(d["rows"], nodes=n, policy=p)
        L.append("- %s: route changes %s, probes %s, reordered packets %s" % (POLICY_NAME[p], r["route_changes"],
                                                                             r["probes"], r["reordered_packets"]))
    if os.path.exists(os.path.join(os.path.dirname(md_path(a)), a.png_prefix + "bisection.png")):
        L += ["", "![effective bisection](%sbisection.png)" % a.png_prefix]
    return L + [""]


def md_bridge(a, d):
    L = ["## Fig. 7: the bridge pattern", "", "Fraction of full bisection (paper: probing > 0.98 at any size, the others "
         "about 0.56):", "", "| nodes | " + " | ".join(POLICY_NAME[p] for p, _ in POLICIES) + " |",
         "|---|" + "---|" * len(POLICIES)]
    for n in sorted({r["nodes"] for r in d["rows"]}):
        L.append("| %d | %s |" % (n, " | ".join("%.2f" % row(d["rows"], nodes=n, policy=p)["effective_bisection_avg"]
                                              for p, _ in POLICIES)))
    return L + [""]


def md_params(a, d):
    n = d["rows"][0]["nodes"]
    L = ["## Sec. 5.3: probing's threshold and probability at %d nodes" % n, "",
         "Average (min-max) fraction of full bisection over %d pattern%s:" % (
             d["rows"][0].get("patterns", 1), "" if d["rows"][0].get("patterns", 1) == 1 else "s"), "", "| threshold | " +
         " | ".join("%d %%" % p for p in a.probabilities) + " |", "|---|" + "---|" * len(a.probabilities)]
    for t in a.thresholds:
        L.append("| %d | %s |" % (t, " | ".join("%.2f (%.2f-%.2f)" % (r["effective_bisection_avg"], r["effective_bisection_min"],
                                                                      r["effective_bisection_max"])
                                               for r in (row(d["rows"], threshold=t, probability=p) for p in a.probabilities))))
    return L + [""]


NOTES = """## How to read these numbers

- **Message volume decides probing.** Probing adaptive routing (16, 100 %) acts only after 17 stopped packets of a
  pair, then spends a round trip per probe; the paper notes that converging needs about 128 KB a pair and measured 50
  messages of 1 MiB each way. The reduced run moves 256 KB a host: too little for threshold 16 to act, so probing
  there is about oblivious routing, and the parameter study favours a low threshold. --full moves 2 MB a host (8 x
  256 KB each way), a 25th of the paper's volume, so the time probing takes to settle weighs more here than in the
  paper: that is what keeps the bridge pattern, where a settled network runs every pair at full rate, below the
  paper's 98 %.
- **What the model adds.** Crossbar inputs hold a whole 4 KB packet (the Myri-10G timing set) and the host feeds its
  NIC at 91 % of the link, so a lone stream is never stopped: only contention is. A probe leaves once the pair's own
  packets have arrived and is judged at the destination by its time through the network; the paper gives no probe
  format or test.
- **The baseline** is one pair alone on two leaves with the same messages, measured by the same simulator (the
  paper's 100 % is MX's ping-pong bandwidth).
"""


def write_md(path, a, found, missing):
    L = ["# Experiments: %s%s" % (TITLE.replace("Geoffray and Hoefler 2008", "[Geoffray and Hoefler 2008](references.md#geoffray-hoefler-2008)"), " (full)" if a.full else " (reduced)"), "",
         "Generated by `scripts/experiments.py --paper 003%s` from reports/experiments/%sseed003-*.json; the model, the "
         "policies and the workloads: docs/network.md. %s" % (" --full" if a.full else "", "full/" if a.full else "",
                                                               __doc__.split("\n\n")[-1].strip()), ""]
    data = dict(found)
    def held(e, d):
        nodes = ", ".join(str(n) for n in sorted({r["nodes"] for r in d["rows"]}))
        if e == "bridge":
            return "bridge at %s nodes" % nodes
        k = d.get("patterns", 1) if e == "bisection" else d["rows"][0].get("patterns", 1)
        return "%s at %s nodes, %d random pattern%s" % (e, nodes, k, "" if k == 1 else "s")
    L += ["This page's runs (what the JSON holds): " + "; ".join(held(e, d) for e, d in found) + ".", ""]
    if "bisection" in data:
        L += md_bisection(a, data["bisection"])
    if "bridge" in data:
        L += md_bridge(a, data["bridge"])
    if "params" in data:
        L += md_params(a, data["params"])
    L += D.engine_md(found, "the baseline counts once per experiment")
    L += [NOTES, "## Checks", ""] + D.checks_md(found)
    if missing:
        L += ["Not run yet: %s." % ", ".join(missing), ""]
    with open(path, "w") as f:
        f.write("\n".join(L))

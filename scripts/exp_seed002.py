"""Seed 002's experiments on the crossbar network (scripts/experiments.py --paper 002): topology and routing in a
16-node Myrinet cluster (Etsion, Raizman and Feitelson, "Topology and Routing in Clusters: From Theory to
Practice") on crossbars of 8 ports (cmodel/xbar.c, the model the RTL is held against) with the Myrinet-2000 timing
set (sw/sim/timing/myrinet2000.cfg), FM's routes (sanfab-route fm) and FM's 1536-byte packets (docs/network.md
"Workloads", "Route policies"; docs/topology.md "Seed 002's dual 8-way networks"; docs/experiments-seed002.md).

  routes       Fig. 7: aggregate bandwidth against message size on the test cluster (Fig. 2 top, sanfab-topo parpar)
               for pairs of nodes whose ids differ by 8, FM's single route (alternative 0) against its two routes
               (a random one of the two per packet); with Fig. 5's lone pair (one stream alone) as the baseline
  mapping      Fig. 9: the same with random logical-to-physical host maps (sanfab-route fm --map random), averaged
               over the maps
  collectives  Figs. 12-14: all-to-all (unphased, phased), serial and tree one-to-all, all-to-one, against the
               bisection (Fig. 10's six networks, sanfab-topo dual8 --bisection 1|2|4|5|6|9) and the message size,
               FM's single routes

The host feeds its NIC at 30/64 of the link rate (nic-inject 30): the paper's PCI bus and FM limit one connection
to "about 600 Mb/s", "47% of the one-way capacity" of the 1.28 Gb/s link (0.47 x 64 = 30.1); the lone pair measures
what that gives. The NIC is half duplex on its host side (nic-duplex half: the LANai "can only handle one direction of
data flow at a time", sec. 3): that rate is shared by sending and receiving, and packets wait in its memory (8 KB)
rather than in the network. Bandwidth is the paper's total bandwidth: every byte delivered over the time the last host took.
FM's routes have no deadlock fix on the paper's cluster (sanfab-route fm --deadlock none; sanfab-sim allow-deadlock):
a run that deadlocks in the simulator is recorded as such and run again with the same routes split by In-Transit
Buffers at their down->up turns (fm --deadlock itb), which is the number reported (deadlock_fix "itb"). Every run
is one point of a sweep through the Dask engine (scripts/sweep.py): --jobs local workers, or --scheduler ADDR;
with --full the finished points are files (reports/experiments/full/seed002-points-full/) and a stopped run
resumes.

Reduced (make experiments, make test): messages of 1536 and 16384 bytes for the pairs (64 KB per sender), 2
random maps, 1536 and 8192 bytes for the collectives (one all-to-all of 8 KB messages per host). --full: 256 bytes
to 64 KB (10 sizes), 512 KB per sender, 8 random maps, collectives of about 1 MB per host.
"""
import json
import os

import exp_driver as D
from exp_driver import ROOT, have_matplotlib, sh, stats, tool

NAME, TITLE = "002", "Etsion et al. 2000 on the crossbar network: topology and routing in a 16-node Myrinet cluster"
EXPERIMENTS = ["routes", "mapping", "collectives"]
NIC_INJECT = 30          # bytes per 64 cycles: 0.469 of the 1.28 Gb/s link = 0.60 Gb/s (Etsion et al. 2000, sec. 2.2, 6)
MTU = 1536               # FM's packets (Etsion et al. 2000, sec. 5, Fig. 5)
TIMING = "myrinet2000"
# the paper's LANai "can only handle one direction of data flow at a time" (sec. 3): its host side is half duplex, the
# 0.60 Gb/s shared by sending and receiving; it takes a packet from the link into its SRAM at link rate, room for a few
# of FM's packets (8 KB here; STOP at 6 KB, GO at 4 KB) where the crossbar's 80-byte slack buffer would stop the worm
NIC = ["--nic-duplex", "half", "--nic-buffer", "8192", "--nic-stop", "6144", "--nic-go", "4096"]
BISECTIONS = [1, 2, 4, 5, 6, 9]
# the pairs pattern of Figs. 7 and 9 (logical host i with i + 8; a dict so that another reading can be added)
PAIRS = {"pairs": "one-way streams: host i sends to i + 8 (i < 8), which takes them: on the test cluster 4 streams "
                  "on each of two links (sec. 4: \"four data streams of 0.6 Gb/s\" on a link of 1.28 Gb/s each way)"}
COLLECTIVES = [("alltoall", "all-to-all"), ("alltoall-phased", "all-to-all, phased"),
               ("bcast-serial", "one-to-all, serial"), ("bcast-tree", "one-to-all, tree"), ("gather", "all-to-one")]
ROUTES = {"single": ["--alternatives", "first"], "two": ["--policy", "oblivious"]}
# the paper's numbers (Gb/s) and statements
PAPER = {"p2p": 0.6, "single": 1.96, "two": 2.78, "random": 4.53, "random_two_loss": 0.08, "alltoall_b4": 4.2}
RATIO_TOL = 0.15         # the two-route and random-map gains: within +-0.15 of the paper's ratios
FLAT_TOL = 0.10          # "essentially the same bandwidth": within +-10 % of bisection 4's


def configure(a):
    a.png_prefix = "exp002-full-" if a.full else "exp002-"
    if a.full:
        a.pair_sizes = [256, 512, 1024, 1536, 2048, 4096, 8192, 16384, 32768, 65536]
        a.pair_bytes, a.maps = 524288, 8
        a.coll_sizes, a.coll_bytes = list(a.pair_sizes), 15 * 65536
    else:
        a.pair_sizes, a.pair_bytes, a.maps = [1536, 16384], 65536, 2
        a.coll_sizes, a.coll_bytes = [1536, 8192], 15 * 8192
    if a.topologies is not None:  # --topologies: the number of random host maps
        a.maps = a.topologies


def common(a):
    return {"pair_sizes": a.pair_sizes, "pair_bytes_per_sender": a.pair_bytes, "maps": a.maps,
            "map_seeds": "seed + i for the i-th random map", "collective_sizes": a.coll_sizes,
            "collective_bytes_per_host": a.coll_bytes, "mtu": MTU, "timing": TIMING, "nic_inject": NIC_INJECT,
            "routing": "fm"}


def json_path(a, name):
    return D.seed_json_path(a, NAME, name)


def md_path(a):
    return D.seed_md_path(a, NAME)


# ------------------------------------------------------------------ networks, workloads and points

def files_dir(a):
    """The networks, routes and workload files of the points: beside the points' files, so that a resumed sweep's
    commands name the same files."""
    d = os.path.join(a.points_dir, "files")
    os.makedirs(d, exist_ok=True)
    return d


def network(a, net, map_seed=None):
    """(topology, FM routes without a deadlock fix, the same routes with ITBs) of `net`: "parpar" (Fig. 2 top) or
    "b<B>" (Fig. 10's network of bisection B); with map_seed, FM's random host map of that seed."""
    d = files_dir(a)
    topo = os.path.join(d, net + ".topo")
    if not os.path.exists(topo):
        kind = ["parpar"] if net == "parpar" else ["dual8", "--bisection", net[1:]]
        sh([tool("sanfab-topo")] + kind + ["-o", topo])
    name = net + ("" if map_seed is None else "-m%d" % map_seed)
    mapargs = [] if map_seed is None else ["--map", "random", "--seed", str(map_seed)]
    out = []
    for fix, extra in (("none", ["--allow-deadlock"]), ("itb", [])):
        path = os.path.join(d, "%s-%s.routes" % (name, fix))
        if not os.path.exists(path):
            sh([tool("sanfab-route"), "fm", topo, "--deadlock", fix] + extra + mapargs + ["-o", path])
        out.append(path)
    return topo, out[0], out[1]


def count(size, total):
    """Messages of `size` bytes that make about `total` bytes (at least one)."""
    return max(1, int(round(total / size)))


def pairs_file(a, pattern, size, msgs):
    """The workload file of a pairs pattern (logical hosts; FM's host map places them)."""
    path = os.path.join(files_dir(a), "%s-%d-%d.wl" % (pattern, size, msgs))
    if pattern == "pairs":
        body = ("repeat %d\n  0-7 send +8 %d\nend\n8-15 recv -8 %d\n" % (msgs, size, msgs))
    else:  # the lone pair of Fig. 5: host 0 alone streaming to host 8 (one link between their crossbars)
        body = "repeat %d\n  0 send 8 %d\nend\n8 recv 0 %d\n" % (msgs, size, msgs)
    with open(path, "w") as f:
        f.write("sanfab-workload 1\n# Etsion et al. 2000, %s: %d messages of %d bytes\n%s" % (pattern, msgs, size, body))
    return path


def point(a, key, topo, routes, routes_itb, workload, extra=()):
    """One sanfab-sim workload run as a sweep point, and the same run on the ITB routes (a deadlock's rerun)."""
    def cmd(r):
        c = [tool("sanfab-sim"), "--topology", topo, "--routes", r, "--timing", TIMING, "--nic-inject",
             str(NIC_INJECT), "--mtu", str(MTU), "--allow-deadlock", "yes", "--links", "no", "--quiet",
             "--seed", str(a.seed)] + NIC + list(extra)
        return c + (["--workload-file", workload] if workload.endswith(".wl") else ["--workload", workload])
    return {"key": key, "cmd": cmd(routes)}, {"key": key + "-itb", "cmd": cmd(routes_itb)}


def deadlocked(w):
    return not w["finished"] and (w.get("stopped_by") or "").startswith("deadlock")


def run_all(a, pairs):
    """Runs the points of [(point, its ITB rerun)]; a point whose run deadlocked is run again on the ITB routes.
    Returns {key: (workload JSON, deadlock fix or None, the deadlock's message or None)}."""
    res = D.run_points_by_key(a, [p for p, _ in pairs])
    again = [itb for p, itb in pairs if deadlocked(res[p["key"]]["workload"])]
    res2 = D.run_points_by_key(a, again) if again else {}
    out = {}
    for p, itb in pairs:
        w = res[p["key"]]["workload"]
        if deadlocked(w):
            out[p["key"]] = (res2[itb["key"]]["workload"], "itb", w["stopped_by"])
        else:
            out[p["key"]] = (w, None, None)
    return out


def lost(w):
    return sum(w.get(k, 0) for k in ("lost_aborted", "lost_crc", "lost_itb_pool", "misrouted", "duplicate",
                                     "nic_rx_overflow"))


def gbit(bytes_cycle):
    """Bytes per 6.25 ns cycle in Gb/s."""
    return bytes_cycle * 8 / 6.25


def record(run, **keys):
    """A result row: the plain keys given, then the run's figures."""
    w, fix, why = run
    bw = w["bandwidth_bytes_cycle"]
    return dict(keys, aggregate_gbit_s=round(w["aggregate_gbit_s"], 4),
                aggregate_bytes_cycle=round(w["aggregate_bytes_cycle"], 4),
                host_gbit_s_min=round(gbit(bw["min"]), 4), host_gbit_s_avg=round(gbit(bw["avg"]), 4),
                host_gbit_s_max=round(gbit(bw["max"]), 4), cycles=w["cycles"], messages_delivered=w["messages"],
                finished=w["finished"], lost=lost(w), reordered_packets=w["reordered_packets"],
                stopped_packets=w["policy"]["stopped_packets"], deadlock_fix=fix, fm_deadlock=why,
                stopped_by=w["stopped_by"])


# ------------------------------------------------------------------ the experiments

def lone_points(a):
    """Fig. 5's lone pair at every pairs size (host 0 to host 8 of the test cluster, FM's route)."""
    topo, r, ri = network(a, "parpar")
    return [point(a, "lone-%d" % s, topo, r, ri, pairs_file(a, "lone", s, count(s, a.pair_bytes)), ROUTES["single"])
            for s in a.pair_sizes]


def lone_rows(a, res):
    return [record(res["lone-%d" % s], topology="parpar", bisection=4, routes="single", map="identity",
                   pattern="lone-pair", message_size=s, messages=count(s, a.pair_bytes)) for s in a.pair_sizes]


def pair_point(a, key, map_seed, pattern, routes, size):
    topo, r, ri = network(a, "parpar", map_seed)
    return point(a, key, topo, r, ri, pairs_file(a, pattern, size, count(size, a.pair_bytes)), ROUTES[routes])


def run_routes(a):
    pts = lone_points(a)
    for pat in PAIRS:
        for rt in ROUTES:
            for s in a.pair_sizes:
                pts.append(pair_point(a, "r-%s-%s-%d" % (pat, rt, s), None, pat, rt, s))
    res = run_all(a, pts)
    rows = [record(res["r-%s-%s-%d" % (pat, rt, s)], topology="parpar", bisection=4, routes=rt, map="identity",
                   pattern=pat, message_size=s, messages=count(s, a.pair_bytes))
            for pat in PAIRS for rt in ROUTES for s in a.pair_sizes]
    return {"baseline": lone_rows(a, res), "rows": rows, "peaks": peaks(rows, ("pattern", "routes"))}


def run_mapping(a):
    seeds = [a.seed + i for i in range(a.maps)]
    pts = lone_points(a)
    for pat in PAIRS:
        for rt in ROUTES:
            for s in a.pair_sizes:
                pts.append(pair_point(a, "r-%s-%s-%d" % (pat, rt, s), None, pat, rt, s))
                for m in seeds:
                    pts.append(pair_point(a, "m-%s-%s-s%d-%d" % (pat, rt, m, s), m, pat, rt, s))
    res = run_all(a, pts)
    per_map, rows, ident = [], [], []
    for pat in PAIRS:
        for rt in ROUTES:
            for s in a.pair_sizes:
                keys = dict(topology="parpar", bisection=4, routes=rt, pattern=pat, message_size=s,
                            messages=count(s, a.pair_bytes))
                ident.append(record(res["r-%s-%s-%d" % (pat, rt, s)], map="identity", **keys))
                runs = [record(res["m-%s-%s-s%d-%d" % (pat, rt, m, s)], map="random", map_seed=m, **keys)
                        for m in seeds]
                per_map += runs
                lo, hi, avg, n = stats([r["aggregate_gbit_s"] for r in runs])
                rows.append(dict(keys, map="random", maps=n, aggregate_gbit_s=round(avg, 4),
                                 aggregate_gbit_s_min=round(lo, 4), aggregate_gbit_s_max=round(hi, 4),
                                 finished=all(r["finished"] for r in runs), lost=sum(r["lost"] for r in runs),
                                 deadlock_fixes=sum(1 for r in runs if r["deadlock_fix"])))
    return {"baseline": lone_rows(a, res), "rows": rows, "identity": ident, "per_map": per_map,
            "peaks": peaks(rows, ("pattern", "routes")), "identity_peaks": peaks(ident, ("pattern", "routes"))}


def run_collectives(a):
    pts = lone_points(a)
    for b in BISECTIONS:
        topo, r, ri = network(a, "b%d" % b)
        for wl, _ in COLLECTIVES:
            for s in a.coll_sizes:
                k = count(15 * s, a.coll_bytes)
                args = ROUTES["single"] + ["--message-bytes", str(s), "--messages", str(k), "--root", "0"]
                pts.append(point(a, "c-b%d-%s-%d" % (b, wl, s), topo, r, ri, wl, args))
    res = run_all(a, pts)
    rows = [record(res["c-b%d-%s-%d" % (b, wl, s)], topology="dual8-b%d" % b, bisection=b, routes="single",
                   map="identity", pattern=wl, message_size=s, repetitions=count(15 * s, a.coll_bytes))
            for b in BISECTIONS for wl, _ in COLLECTIVES for s in a.coll_sizes]
    return {"baseline": lone_rows(a, res), "rows": rows, "peaks": peaks(rows, ("pattern", "bisection"))}


def peaks(rows, by):
    """The best message size of every group of rows (grouped by the keys `by`): one row per group with those keys,
    its highest aggregate_gbit_s and the peak_message_size that gave it."""
    best = {}
    for r in rows:
        g = tuple(r[k] for k in by)
        if g not in best or r["aggregate_gbit_s"] > best[g]["aggregate_gbit_s"]:
            best[g] = r
    return [dict({k: r[k] for k in by}, aggregate_gbit_s=r["aggregate_gbit_s"], peak_message_size=r["message_size"])
            for r in best.values()]


def find(rows, **kw):
    return next((r for r in rows if all(r.get(k) == v for k, v in kw.items())), None)


# ------------------------------------------------------------------ checks

def run_checks(name, rows):
    """Required: every run finished, nothing lost."""
    bad = [r for r in rows if not r["finished"] or r["lost"]]
    fixed = sum(1 if r.get("deadlock_fix") else r.get("deadlock_fixes", 0) for r in rows)
    return [(not bad, True, "%s: all %d runs finished, no message lost%s" % (
        name, len(rows), "" if not bad else " (first failure: %s)" % json.dumps(bad[0])[:300])),
            (True, False, "%s: %d run(s) deadlocked on FM's routes and were run again with ITBs" % (name, fixed))]


def baseline_checks(d):
    r = max(d["baseline"], key=lambda x: x["message_size"])
    want = gbit(NIC_INJECT / 64)
    return [(abs(r["aggregate_gbit_s"] - want) <= 0.05 * want, True,
             "lone pair, %d-byte messages: %.3f Gb/s, the host's rate %.3f within 5 %% (paper Fig. 5: about %.1f Gb/s)"
             % (r["message_size"], r["aggregate_gbit_s"], want, PAPER["p2p"]))]


def ratio_check(what, got, want):
    return (abs(got - want) <= RATIO_TOL, False, "%s: x%.2f (paper x%.2f, within +-%.2f)" % (what, got, want, RATIO_TOL))


def routes_checks(a, d):
    ch = run_checks("Fig. 7", d["baseline"] + d["rows"]) + baseline_checks(d)
    for pat in PAIRS:
        gains = [find(d["rows"], pattern=pat, routes="two", message_size=s)["aggregate_gbit_s"] /
                 find(d["rows"], pattern=pat, routes="single", message_size=s)["aggregate_gbit_s"] for s in a.pair_sizes]
        ch.append((min(gains) > 1, False, "Fig. 7, %s: two routes above one at every message size (x%s; paper: about "
                   "+30 %% over the whole range)" % (pat, ", x".join("%.2f" % g for g in gains))))
        one = find(d["peaks"], pattern=pat, routes="single")["aggregate_gbit_s"]
        two = find(d["peaks"], pattern=pat, routes="two")["aggregate_gbit_s"]
        ch.append(ratio_check("Fig. 7, %s: peak with two routes / one route (%.2f / %.2f Gb/s; paper 2.78 / 1.96)"
                              % (pat, two, one), two / one, PAPER["two"] / PAPER["single"]))
    return ch


def mapping_checks(a, d):
    ch = run_checks("Fig. 9", d["baseline"] + d["identity"] + d["per_map"])
    for pat in PAIRS:
        one = find(d["identity_peaks"], pattern=pat, routes="single")["aggregate_gbit_s"]
        two = find(d["identity_peaks"], pattern=pat, routes="two")["aggregate_gbit_s"]
        rnd = find(d["peaks"], pattern=pat, routes="single")["aggregate_gbit_s"]
        rnd2 = find(d["peaks"], pattern=pat, routes="two")["aggregate_gbit_s"]
        ch.append((rnd > two, False, "Fig. 9, %s: a random map above the identity's two routes (%.2f > %.2f Gb/s; paper "
                   "4.53 > 2.78)" % (pat, rnd, two)))
        ch.append(ratio_check("Fig. 9, %s: peak with a random map / the identity's single route (%.2f / %.2f Gb/s; "
                              "paper 4.53 / 1.96)" % (pat, rnd, one), rnd / one, PAPER["random"] / PAPER["single"]))
        ch.append((rnd2 <= rnd, False, "Fig. 9, %s: with a random map two routes do not beat one (%.2f against %.2f "
                   "Gb/s, %+.0f %%; paper: about -8 %%)" % (pat, rnd2, rnd, 100 * (rnd2 / rnd - 1))))
    return ch


def collectives_checks(a, d):
    ch = run_checks("Figs. 12-14", d["baseline"] + d["rows"])
    pk = {(r["pattern"], r["bisection"]): r["aggregate_gbit_s"] for r in d["peaks"]}
    for wl in ("alltoall", "alltoall-phased"):
        b4 = pk[(wl, 4)]
        dev = {b: pk[(wl, b)] / b4 - 1 for b in BISECTIONS if b > 4}
        ch.append((all(abs(x) <= FLAT_TOL for x in dev.values()), False,
                   "Fig. 14, %s: flat beyond bisection 4 (bisection 5, 6, 9 against 4: %s; within +-%d %%)"
                   % (wl, ", ".join("%+.0f %%" % (100 * x) for x in dev.values()), 100 * FLAT_TOL)))
        ch.append((pk[(wl, 1)] < b4, False, "Fig. 14, %s: bisection 1 below bisection 4 (%.2f < %.2f Gb/s)"
                   % (wl, pk[(wl, 1)], b4)))
    ch.append((abs(pk[("alltoall", 4)] - PAPER["alltoall_b4"]) <= 0.15 * PAPER["alltoall_b4"], False,
               "sec. 6: peak all-to-all on bisection 4 %.2f Gb/s (paper 4.2, within +-15 %%)" % pk[("alltoall", 4)]))
    for wl in ("bcast-serial", "gather"):
        v = [pk[(wl, b)] for b in BISECTIONS]
        ch.append((max(v) <= (1 + FLAT_TOL) * min(v), False, "Fig. 14, %s: no gain from bisection (%.2f..%.2f Gb/s "
                   "over bisection 1..9)" % (wl, min(v), max(v))))
    ph, un = pk[("alltoall-phased", 1)], pk[("alltoall", 1)]
    ch.append((ph > un, False, "Fig. 12: at bisection 1 the phased all-to-all above the unphased (%.2f > %.2f Gb/s)"
               % (ph, un)))
    hi = [b for b in BISECTIONS if b >= 4]
    ch.append((all(pk[("alltoall", b)] > pk[("alltoall-phased", b)] for b in hi), False,
               "Fig. 12: at bisection 4 and above the unphased all-to-all above the phased (%s)"
               % ", ".join("%d: %.2f/%.2f" % (b, pk[("alltoall", b)], pk[("alltoall-phased", b)]) for b in hi)))
    return ch


def run(a, name, work, md_dir, prior):
    if name == "routes":
        d = run_routes(a)
        ch = routes_checks(a, d)
    elif name == "mapping":
        d = run_mapping(a)
        ch = mapping_checks(a, d)
    else:
        d = run_collectives(a)
        ch = collectives_checks(a, d)
    return d, ch


# ------------------------------------------------------------------ plots

def curve(rows, label, dashed=False, **kw):
    rs = sorted((r for r in rows if all(r.get(k) == v for k, v in kw.items())), key=lambda r: r["message_size"])
    s = {"label": label, "x": [r["message_size"] for r in rs], "y": [r["aggregate_gbit_s"] for r in rs]}
    if rs and "aggregate_gbit_s_min" in rs[0]:
        s["ymin"] = [r["aggregate_gbit_s_min"] for r in rs]
        s["ymax"] = [r["aggregate_gbit_s_max"] for r in rs]
    if dashed:
        s["dashed"] = True
    return s


def plot_routes(a, d, md_dir):
    series = [curve(d["rows"], "%s, %s route%s" % (pat, rt, "s" if rt == "two" else ""), pat != "pairs", pattern=pat,
                    routes=rt) for pat in PAIRS for rt in ROUTES]
    series.append(curve(d["baseline"], "lone pair (Fig. 5)", True))
    D.plot_lines(a, md_dir, "fig7", {"title": "Etsion et al. 2000 Fig. 7: pairs (i, i + 8) on the test cluster", "logx": True,
                             "xlabel": "message size (bytes)", "ylabel": "aggregate bandwidth (Gb/s)", "series": series,
                             "marks": [{"label": "paper: one route 1.96", "y": PAPER["single"]},
                                       {"label": "paper: two routes 2.78", "y": PAPER["two"]}]})


def plot_mapping(a, d, md_dir):
    series = [curve(d["rows"], "random map, %s route%s (min-max over %d maps)" % (rt, "s" if rt == "two" else "", a.maps),
                    False, pattern="pairs", routes=rt) for rt in ROUTES]
    series += [curve(d["identity"], "identity, %s route%s (Fig. 7)" % (rt, "s" if rt == "two" else ""), True,
                     pattern="pairs", routes=rt) for rt in ROUTES]
    D.plot_lines(a, md_dir, "fig9", {"title": "Etsion et al. 2000 Fig. 9: pairs (i, i + 8), random host maps", "logx": True,
                             "xlabel": "message size (bytes)", "ylabel": "aggregate bandwidth (Gb/s)", "series": series,
                             "marks": [{"label": "paper: random map 4.53", "y": PAPER["random"]},
                                       {"label": "paper: two routes, identity 2.78", "y": PAPER["two"]}]})


def plot_collectives(a, d, md_dir):
    for wl, title in COLLECTIVES[:2]:
        series = [curve(d["rows"], "bisection %d" % b, b > 4, pattern=wl, bisection=b) for b in BISECTIONS]
        D.plot_lines(a, md_dir, "fig12-" + wl, {"title": "Etsion et al. 2000 Fig. 12: %s against message size" % title, "logx": True,
                                         "xlabel": "message size (bytes)", "ylabel": "aggregate bandwidth (Gb/s)",
                                         "series": series})
    series = []
    for wl, title in COLLECTIVES:
        pk = sorted((r for r in d["peaks"] if r["pattern"] == wl), key=lambda r: r["bisection"])
        series.append({"label": title, "x": [r["bisection"] for r in pk], "y": [r["aggregate_gbit_s"] for r in pk]})
    D.plot_lines(a, md_dir, "fig14", {"title": "Etsion et al. 2000 Fig. 14: peak bandwidth against bisection", "xlabel": "bisection (links)",
                              "ylabel": "aggregate bandwidth, best message size (Gb/s)", "series": series,
                              "marks": [{"label": "paper: all-to-all on bisection 4, 4.2", "y": PAPER["alltoall_b4"]}]})


# ------------------------------------------------------------------ the page

def img(a, name, alt):
    path = os.path.join(os.path.dirname(md_path(a)), a.png_prefix + name + ".png")
    return ["", "![%s](%s%s.png)" % (alt, a.png_prefix, name)] if os.path.exists(path) else []


def size_table(rows, cols, sizes, label=""):
    """A table of aggregate Gb/s: one row per message size, one column per (title, filter); then `label`."""
    L = ["| message size | " + " | ".join(t for t, _ in cols) + " |", "|---|" + "---|" * len(cols)]
    for s in sizes:
        cells = []
        for _, kw in cols:
            r = find(rows, message_size=s, **kw)
            if r is None:
                cells.append("-")
            elif "aggregate_gbit_s_min" in r:
                cells.append("%.2f (%.2f-%.2f)" % (r["aggregate_gbit_s"], r["aggregate_gbit_s_min"], r["aggregate_gbit_s_max"]))
            else:
                cells.append("%.2f%s" % (r["aggregate_gbit_s"], " (ITB)" if r.get("deadlock_fix") else ""))
        L.append("| %d | %s |" % (s, " | ".join(cells)))
    return L + (["", label, ""] if label else [""])


def md_baseline(a, d):
    L = ["Lone pair (Fig. 5's point-to-point bandwidth: host 0 streaming to host 8 alone, FM's route): " +
         ", ".join("%.3f Gb/s at %d bytes" % (r["aggregate_gbit_s"], r["message_size"]) for r in d["baseline"]) +
         " (paper: about 0.6 Gb/s at its peak).", ""]
    return L


def md_routes(a, d):
    L = ["## Fig. 7: one route against two on the test cluster", "",
         "The test cluster (Fig. 2 top, `sanfab-topo parpar`): two dual 8-way boxes, 4 hosts on each of the 4 "
         "crossbars, K4 with each box's two crossbars linked twice. Pairs (i, i + 8): hosts 0-3 on A1 with 8-11 on "
         "A2 and 4-7 on B1 with 12-15 on B2, so FM's single routes put 4 connections on each of two links (Fig. 6 "
         "left). One route: FM's first (`alternatives first`); two: a random one of FM's two per packet "
         "(`policy oblivious`). Aggregate bandwidth in Gb/s:", ""]
    cols = [("%s, %s route%s" % (pat, rt, "s" if rt == "two" else ""), {"pattern": pat, "routes": rt})
            for pat in PAIRS for rt in ROUTES]
    L += size_table(d["rows"], cols, a.pair_sizes, "Patterns: " + "; ".join("`%s`: %s" % kv for kv in PAIRS.items()) + ".")
    L += ["| peak | ours, one route | ours, two routes | gain | paper |", "|---|---|---|---|---|"]
    for pat in PAIRS:
        one = find(d["peaks"], pattern=pat, routes="single")["aggregate_gbit_s"]
        two = find(d["peaks"], pattern=pat, routes="two")["aggregate_gbit_s"]
        L.append("| %s | %.2f | %.2f | x%.2f | 1.96 -> 2.78 Gb/s, x%.2f |" % (pat, one, two, two / one,
                                                                               PAPER["two"] / PAPER["single"]))
    return L + [""] + md_baseline(a, d) + img(a, "fig7", "Fig. 7") + [""]


def md_mapping(a, d):
    L = ["## Fig. 9: random logical-to-physical host maps", "",
         "The same pairs of *logical* hosts, placed by FM's random host map (`sanfab-route fm --map random --seed S`, "
         "%d maps, seeds %d..%d); average (min-max) over the maps, Gb/s, with the identity map of Fig. 7 beside:"
         % (a.maps, a.seed, a.seed + a.maps - 1), ""]
    cols = [("%s, %s, %s route%s" % (pat, m, rt, "s" if rt == "two" else ""), {"pattern": pat, "routes": rt})
            for pat in PAIRS for m in ("random",) for rt in ROUTES]
    L += size_table(d["rows"], cols, a.pair_sizes)
    L += ["| peak | identity, one route | identity, two routes | random map, one route | random map, two routes | "
          "random / identity one route | paper |", "|---|---|---|---|---|---|---|"]
    for pat in PAIRS:
        one = find(d["identity_peaks"], pattern=pat, routes="single")["aggregate_gbit_s"]
        two = find(d["identity_peaks"], pattern=pat, routes="two")["aggregate_gbit_s"]
        rnd = find(d["peaks"], pattern=pat, routes="single")["aggregate_gbit_s"]
        rnd2 = find(d["peaks"], pattern=pat, routes="two")["aggregate_gbit_s"]
        L.append("| %s | %.2f | %.2f | %.2f | %.2f (%+.0f %%) | x%.2f | 1.96, 2.78, 4.53, about -8 %%: x%.2f |"
                 % (pat, one, two, rnd, rnd2, 100 * (rnd2 / rnd - 1), rnd / one, PAPER["random"] / PAPER["single"]))
    fixes = sum(r.get("deadlock_fixes", 0) for r in d["rows"])
    L += ["", "Runs that deadlocked on FM's routes and were run again with ITBs: %d of %d." % (fixes, len(d["per_map"]))]
    return L + img(a, "fig9", "Fig. 9") + [""]


def md_collectives(a, d):
    L = ["## Figs. 12-14: collective patterns against bisection and message size", "",
         "Fig. 10's six networks (`sanfab-topo dual8 --bisection B`, docs/topology.md: two boxes as a chain, a ring "
         "and K4 for 1, 2, 4; three boxes as K6 less 4, 3 and 0 links for 5, 6, 9), FM's single routes; the built-in "
         "workloads `alltoall` (Fig. 11 left), `alltoall-phased` (Fig. 11 right), `bcast-serial`, `bcast-tree` (a binomial "
         "tree from host 0, each node sending to its largest subtree first) and `gather` (all-to-one), root 0, repeated so that each host sends about %d bytes (docs/network.md "
         "\"Workloads\"). Aggregate bandwidth in Gb/s (the paper's total bandwidth: a broadcast counts every "
         "receiver's bytes); (ITB): the run deadlocked on FM's routes and was run again with ITBs." % a.coll_bytes, ""]
    L += ["### Fig. 14: peak bandwidth (best message size) against bisection", "",
          "| pattern | " + " | ".join("bisection %d" % b for b in BISECTIONS) + " |", "|---|" + "---|" * len(BISECTIONS)]
    for wl, title in COLLECTIVES:
        L.append("| %s | %s |" % (title, " | ".join(
            "%.2f (%d B)" % (r["aggregate_gbit_s"], r["peak_message_size"])
            for r in (find(d["peaks"], pattern=wl, bisection=b) for b in BISECTIONS))))
    L += ["", "The paper (sec. 5, 6): all-to-all saturates at bisection 4 and above (\"essentially the same bandwidth\"), "
          "4.2 Gb/s at its peak on bisection 4; the serial one-to-all and the all-to-one do not gain from bisection; "
          "the tree one-to-all gains a little, at the largest size only; at bisection 1 the phased all-to-all is the "
          "better one, above it the unphased.", ""]
    L += ["### Figs. 12 and 13: against message size", ""]
    for wl, title in COLLECTIVES:
        cols = [("bisection %d" % b, {"pattern": wl, "bisection": b}) for b in BISECTIONS]
        L += ["%s:" % title.capitalize(), ""] + size_table(d["rows"], cols, a.coll_sizes)
    L += img(a, "fig12-alltoall", "Fig. 12, all-to-all") + img(a, "fig12-alltoall-phased", "Fig. 12, phased")
    L += img(a, "fig14", "Fig. 14")
    return L + [""] + md_baseline(a, d)


def md_model(a, data):
    """What our model lacks against the paper's cluster, and what it moves (numbers from the runs)."""
    host = gbit(NIC_INJECT / 64)
    L = ["## Our model against the paper's cluster", "",
         "- **The NIC's host side is half duplex** (`nic-duplex half`, docs/network.md \"The host's rate\"). The "
         "paper's LANai \"can only handle one direction of data flow at a time\" (sec. 3): its %.2f Gb/s is shared by "
         "the packets a host sends and those it receives, one direction a cycle, in turn when both want it; packets "
         "arrive into the NIC's memory at link rate (8 KB of it here). A host that sends and receives at once sends at "
         "most %.2f Gb/s, so 16 such hosts move at most 16 x %.2f = %.1f Gb/s (the paper: 4.2 Gb/s on bisection 4)."
         % (host, host / 2, host / 2, 8 * host)]
    if "collectives" in data:
        pk = {(r["pattern"], r["bisection"]): r["aggregate_gbit_s"] for r in data["collectives"]["peaks"]}
        L[-1] += (" Our all-to-all peaks at %.2f Gb/s on bisection 4 and %.2f on bisection 9." %
                  (pk[("alltoall", 4)], pk[("alltoall", 9)]))
    if "routes" in data:
        one = next(r["aggregate_gbit_s"] for r in data["routes"]["peaks"] if r["pattern"] == "pairs" and r["routes"] == "single")
        link = gbit(1.0)
        L.append("- **Shared links run full here.** With the identity map and FM's single routes, 4 streams share each of two "
                 "links (Fig. 6 left): ours move %.2f Gb/s over them, %.0f %% of their 2 x %.2f Gb/s, where the paper's "
                 "moved 1.96 Gb/s (%.0f %%). The random map's pairs are limited by the hosts in both (ours %s, the paper's "
                 "4.53), so its gain over the single route is smaller here than in the paper: whatever cost the paper's "
                 "contended links a quarter of their rate (per-packet costs in the crossbars or in FM under contention) is "
                 "not in our model."
                 % (one, 100 * one / (2 * link), link, 100 * 1.96 / (2 * link),
                    "%.2f" % max(r["aggregate_gbit_s"] for r in data["mapping"]["peaks"]) if "mapping" in data else "-"))
    L += ["- **No per-message host overhead.** FM's software costs per message are not modelled (only the host's "
          "byte rate, `nic-inject` %d/64), so bandwidth does not grow with message size as in the paper's Figs. 5, "
          "7, 12 and 13." % NIC_INJECT,
          "- **A packet leaves at link rate once the host has copied all of it into the NIC** (docs/network.md, "
          "\"The host's rate\"); the copy runs only while the host has something to send, at most one packet (%d "
          "bytes) ahead, so a host that waited starts from empty; FM streams a packet by programmed I/O as it copies." % MTU,
          "- **Two routes are chosen at random per packet** (`policy oblivious`); the paper alternates them per "
          "message (sec. 4).",
          "- **Deadlocks.** The paper's FM routes have no deadlock fix (nor do ours: `fm --deadlock none`), and it "
          "reports none; where a run deadlocks here it is run again with the routes split by ITBs at their down->up "
          "turns (the runs marked ITB).", ""]
    return L


def write_md(path, a, found, missing):
    L = ["# Experiments: %s%s" % (TITLE.replace("Etsion et al. 2000", "[Etsion et al. 2000](references.md#etsion-et-al-2000)"), " (full)" if a.full else " (reduced)"), "",
         "Generated by `scripts/experiments.py --paper 002%s` from reports/experiments/%sseed002-*.json; do not edit "
         "by hand. The networks: docs/topology.md (\"Seed 002's dual 8-way networks\"); the workloads, route policies "
         "and timing: docs/network.md. %s" % (" --full" if a.full else "", "full/" if a.full else "",
                                              " ".join(__doc__.split("\n\n")[2:]).replace("\n", " ")), ""]
    data = dict(found)
    if have_matplotlib():  # the plots from the JSON, so that --page redraws them too
        for name, fn in (("routes", plot_routes), ("mapping", plot_mapping), ("collectives", plot_collectives)):
            if name in data:
                fn(a, data[name], os.path.dirname(path))
    if "routes" in data:
        L += md_routes(a, data["routes"])
    if "mapping" in data:
        L += md_mapping(a, data["mapping"])
    if "collectives" in data:
        L += md_collectives(a, data["collectives"])
    L += md_model(a, data)
    L += D.engine_md(found, "the lone pair's and Fig. 7's points count once per experiment that uses them")
    L += ["## Checks", ""] + D.checks_md(found)
    if missing:
        L += ["Not run yet: %s." % ", ".join(missing), ""]
    with open(path, "w") as f:
        f.write("\n".join(L))

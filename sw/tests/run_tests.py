#!/usr/bin/env python3
"""Run the sw/ test suite: C unit/property tests (normal and sanitizer builds) and tool-level tests.

usage: run_tests.py BUILD_DIR   (called by `make -C sw test`); the last line is "N passed, M failed".
"""
import json
import os
import re
import sys
import time

from testlib import Tally, c_suite, run, write

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
TMP = os.path.join(BUILD, "tmp")
os.makedirs(TMP, exist_ok=True)
T = Tally()
result = T.result





def tool_tests(prefix):
    topo = os.path.join(BUILD, prefix + "sanfab-topo")
    route = os.path.join(BUILD, prefix + "sanfab-route")
    tag = f"[{prefix or 'normal '}tools]"
    for tool in (topo, route):
        rc, out, _ = run([tool, "--help"])
        result(rc == 0 and "usage" in out, f"{tag} {os.path.basename(tool)} --help")
    kinds = {
        "random": ["--switches", "16", "--seed", "5"],
        "mesh": ["--k", "3"],
        "torus": ["--k", "4", "--hosts", "2", "--ports", "8"],
        "express": ["--k", "5", "--hosts", "2", "--ports", "12"],
        "cplant": [],
        "clos": ["--leaves", "8", "--hosts", "4", "--spines", "4"],
        "fattree": ["--k", "2", "--n", "3"],
        "hypercube": ["--dim", "3"],
        "tree": ["--levels", "3"],
    }
    files = {}
    for kind, args in kinds.items():
        path = os.path.join(TMP, f"{prefix}{kind}.topo")
        rc, _, err = run([topo, kind] + args + ["-o", path])
        rc2, out2, err2 = run([topo, "check", path])
        seed_ok = ("seed" in err) == (kind == "random")  # only random makes random choices
        result(rc == 0 and seed_ok and rc2 == 0 and ": ok:" in out2, f"{tag} sanfab-topo {kind} writes a valid file"
               f"{' and prints its seed' if kind == 'random' else ' and prints no seed'}", err + err2)
        files[kind] = path
    algs = [["updown"], ["updown", "--select", "balanced"], ["updown", "--select", "random"], ["updown", "--select", "pch"],
            ["updown", "--select", "pch", "--vcs", "3"], ["itb"], ["dl", "--select", "sancho"],
            ["dl", "--rule", "lturn", "--select", "pch"], ["fm", "--map", "random"], ["lash"], ["clos-all", "--max-alt", "4"]]
    for kind in ("random", "torus", "clos", "cplant"):
        if prefix and kind == "cplant":
            continue
        for alg in algs:
            rpath = os.path.join(TMP, f"{prefix}{kind}.routes")
            rc, out, err = run([route, alg[0], files[kind]] + alg[1:] + ["-o", rpath, "--json"])
            random_run = alg[0] == "itb" or "random" in alg
            ok = rc == 0 and "deadlock-free" in err and ("seed" in err) == random_run
            try:
                js = json.loads(out)
                ok = ok and js["routes"] > 0 and "avg_hops" in js and "max_link_routes" in js
            except ValueError:
                ok = False
            rc2, _, err2 = run([route, "check", files[kind], rpath])
            result(ok and rc2 == 0 and "seed" not in err2, f"{tag} sanfab-route {' '.join(alg)} on {kind}: computed, checked, "
                   "file re-checked (seed printed only when used)", (err + err2)[-1500:])
    # tables
    rc, _, err = run([route, "dl", files["random"], "--rhinet", os.path.join(TMP, prefix + "r.rhinet")])
    txt = open(os.path.join(TMP, prefix + "r.rhinet")).read() if rc == 0 else ""
    result(rc == 0 and txt.startswith("sanfab-rhinet 1") and "\n  tag " in txt and "\n  vc " in txt,
           f"{tag} RHiNET tables written for DL", err)
    rc, _, err = run([route, "updown", files["clos"], "--maestro", os.path.join(TMP, prefix + "c.maestro")])
    result(rc == 0, f"{tag} Maestro tables written for up*/down* on a Clos", err)
    updown_vcs_tools(tag, topo, route, prefix)
    # one switch, every host on it: every route has zero hops (once refused as "not connected")
    one = os.path.join(TMP, prefix + "one.topo")
    rc, _, err = run([topo, "random", "--switches", "1", "--ports", "8", "--hosts", "8", "-o", one])
    rc2, _, err2 = run([route, "updown", one, "-o", os.path.join(TMP, prefix + "one.routes"),
                        "--maestro", os.path.join(TMP, prefix + "one.maestro")])
    txt = open(os.path.join(TMP, prefix + "one.maestro")).read() if rc2 == 0 else ""
    result(rc == 0 and rc2 == 0 and "\n  dst 7 port 7" in txt,
           f"{tag} one switch: zero-hop routes computed, checked, Maestro table written", err + err2)
    # stats with per-link list, table and JSON
    rpath = os.path.join(TMP, f"{prefix}random.routes")
    run([route, "updown", files["random"], "-o", rpath])
    rc, out, err = run([route, "stats", files["random"], rpath, "--json", "--links"])
    try:
        js = json.loads(out)
        ok = rc == 0 and len(js["per_link"]) == 2 * js["links"]
    except (ValueError, KeyError):
        ok = False
    result(ok, f"{tag} stats --json --links", err)
    rc, out, err = run([route, "stats", files["random"], rpath])
    result(rc == 0 and "avg hops" in out and "minimal routes" in out, f"{tag} stats table", err)
    # malformed topology through the tool: file, line, problem
    bad = os.path.join(TMP, prefix + "bad.topo")
    with open(bad, "w") as f:
        f.write("sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nlink 0:1 1:9\n")
    rc, _, err = run([route, "updown", bad])
    result(rc == 1 and f"{bad}:4: port 9 out of range on switch 1" in err, f"{tag} malformed topology names file and line", err)
    rc, _, err = run([topo, "check", bad])
    result(rc == 1 and ":4:" in err, f"{tag} sanfab-topo check rejects a malformed file", err)
    # a route file with a cycle: clockwise routes on a 4-ring
    ring = os.path.join(TMP, prefix + "ring.topo")
    with open(ring, "w") as f:
        f.write("sanfab-topology 1\n" + "".join(f"switch {i} ports 3\n" for i in range(4)) +
                "".join(f"host {i} {i}:0\n" for i in range(4)) +
                "".join(f"link {i}:1 {(i + 1) % 4}:2\n" for i in range(4)))
    cyc = os.path.join(TMP, prefix + "ring.routes")
    with open(cyc, "w") as f:
        f.write("sanfab-routes 1\nalgorithm clockwise\nhosts 4 switches 4 vcs 1 alternatives 1\n")
        for s in range(4):
            for k in range(1, 4):
                f.write(f"route {s} {(s + k) % 4} 0 : " + " ".join(["81"] * k) + " 80\n")
    rc, _, err = run([route, "check", ring, cyc])
    result(rc == 1 and "cycle of 4 channels" in err, f"{tag} check finds and prints the cycle of a cyclic route file", err)
    # wrong usage
    rc, _, err = run([route, "nosuch", files["random"]])
    result(rc == 2 and "unknown algorithm" in err, f"{tag} unknown algorithm is a usage error", err)
    issue12_tools(tag, topo, route, files, prefix)
    seed002_topologies(tag, topo, route, prefix)
    tree_tools(tag, topo, route, prefix)



def route_vcs(text):
    """{(src, dst): VC list} of the routes of a route file ([] when the file has no VC lists)."""
    out = {}
    for line in text.splitlines():
        if line.startswith("route "):
            f = line.split()
            out[(int(f[1]), int(f[2]))] = [int(v) for v in f[f.index("|") + 2:]] if "|" in f else []
    return out


def updown_vcs_tools(tag, topo, route, prefix):
    """updown --select pch and --vcs N (Koibuchi et al. 2003, sec. 5.1.2): one VC per route, chosen at the source."""
    tp = os.path.join(TMP, prefix + "ud16.topo")
    run([topo, "random", "--switches", "16", "--ports", "8", "--hosts", "4", "--seed", "1", "-o", tp])
    base = os.path.join(TMP, prefix + "ud16")
    for sel in ("low", "random", "sancho", "pch", "balanced"):
        outs = []
        for extra in ([], ["--vcs", "1"], ["--vcs", "3"]):
            k = f"{base}-{sel}-{len(outs)}"
            rc, out, err = run([route, "updown", tp, "--select", sel, "-o", k + ".routes", "--rhinet", k + ".rhinet", "--json"] + extra)
            txt = open(k + ".routes").read() if rc == 0 else ""
            rh = open(k + ".rhinet").read() if rc == 0 else ""
            outs.append((rc, out, err, txt, rh))
        (rc0, out0, err0, txt0, rh0), (rc1, out1, err1, txt1, rh1), (rc3, out3, err3, txt3, rh3) = outs
        result(rc0 == 0 and rc1 == 0 and (out0, err0, txt0, rh0) == (out1, err1, txt1, rh1) and " vcs=" not in txt1,
               f"{tag} updown --select {sel} --vcs 1: route file, tables, JSON and messages byte-identical to no --vcs", err0 + err1)
        vcs = route_vcs(txt3)
        used = {v for l in vcs.values() for v in l} or {0}
        one = all(len(set(l)) <= 1 for l in vcs.values())
        try:
            hops1, hops3 = json.loads(out0)["avg_hops"], json.loads(out3)["avg_hops"]
        except (ValueError, KeyError):
            hops1, hops3 = None, -1
        bad_vc = [ln for ln in rh3.splitlines() if ln.startswith("  vc ") and ln.split()[3] != ln.split()[4]]
        nic_ok = all(int(ln.split()[-1]) == (vcs[(int(ln.split()[1]), int(ln.split()[3]))] or [0])[0]
                     for ln in rh3.splitlines() if ln.startswith("nic "))
        spread = used == {0} if sel == "low" else len(used) > 1
        rc, _, err = run([route, "check", tp, f"{base}-{sel}-2.routes"])
        result(rc3 == 0 and f"algorithm updown vcs=3 select={sel} " in txt3 and one and used <= {0, 1, 2} and spread and
               hops1 == hops3 and not bad_vc and nic_ok and "\n  vc " in rh3 and rc == 0 and
               ("keeps the VC" in err and "keeps the VC" in err3) == (sel != "low"),
               f"{tag} updown --select {sel} --vcs 3: header vcs=3, one VC per route, VCs used {sorted(used)}, avg hops "
               f"{hops3} as with 1 VC, checked; RHiNET vc entries keep the VC, NICs inject on it", (err3 + err)[-1500:])
    # pch is deterministic
    run([route, "updown", tp, "--select", "pch", "--vcs", "3", "-o", f"{base}-again.routes"])
    result(open(f"{base}-again.routes").read() == open(f"{base}-pch-2.routes").read(),
           f"{tag} updown --select pch --vcs 3 twice: the same file")
    # the header's vcs= against the VCs used; a route that changes VC
    txt = open(f"{base}-pch-2.routes").read()
    bad = os.path.join(TMP, prefix + "ud16-bad.routes")
    for old, new, want in (("vcs=3", "vcs=1", ":2: algorithm updown: vcs=1 but the routes use 3 VCs"),
                           (" vcs=3", "", ":2: algorithm updown: no vcs= (1 VC) but the routes use 3 VCs")):
        write(bad, txt.replace(old, new, 1))
        rc, _, err = run([route, "check", tp, bad])
        result(rc == 1 and want in err, f"{tag} check refuses an updown file whose header says {new.strip() or 'no vcs='} "
               "but uses VC 2", err)
    lines = txt.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith("route ") and "|" in ln and len(ln.split("|")[1].split()) >= 4)
    f = lines[k].split()
    j = f.index("|") + 2
    f[j] = str((int(f[j]) + 1) % 3)
    lines[k] = " ".join(f)
    write(bad, "\n".join(lines) + "\n")
    rc, _, err = run([route, "check", tp, bad])
    result(rc == 1 and "one VC per route (updown) broken by 1 routes" in err and "changes from VC" in err,
           f"{tag} check refuses an updown route that changes VC", err)


RING5 = ("sanfab-topology 1\n" + "".join(f"switch {i} ports 3\n" for i in range(5)) +
         "".join(f"link {i}:1 {(i + 1) % 5}:2\n" for i in range(5)))

# options each command uses (docs/routing.md "Command line"); value given for each option in the sweep
USED = {
    "updown": {"--root", "--select", "--vcs"},
    "itb": {"--root", "--seed", "--fallback"},
    "dl": {"--root", "--select", "--vcs", "--rule"},
    "fm": {"--deadlock", "--map"},
    "clos-all": {"--root", "--max-alt"},
    "lash": {"--select", "--max-vcs"},
}
COMMON = {"-o", "--rhinet", "--maestro", "--stats", "--json", "--time"}
VALUES = {"--root": "1", "--select": "sancho", "--vcs": "2", "--rule": "ud-du", "--weight": "2", "--max-alt": "3",
          "--max-vcs": "12", "--deadlock": "layers", "--map": "random", "--fallback": "updown", "--seed": "7",
          "--stats": None, "--json": None, "--links": None, "--allow-deadlock": None, "--time": None}


def parse_topo(path):
    """(hosts per switch, links as (a, b) switch pairs, ports per switch) of a topology file (generator output)."""
    ports, hosts, links = {}, {}, []
    with open(path) as f:
        for line in f:
            w = line.split("#")[0].split()
            if w and w[0] == "switch":
                ports[int(w[1])] = int(w[3])
            elif w and w[0] == "host":
                s = int(w[2].split(":")[0])
                hosts[s] = hosts.get(s, 0) + 1
            elif w and w[0] == "link":
                links.append(tuple(int(x.split(":")[0]) for x in w[1:3]))
    return [hosts.get(s, 0) for s in range(len(ports))], links, [ports[s] for s in range(len(ports))]


def bisection(hosts, links):
    """Fewest links cut over the partitions of the switches into two sides of equal host counts (brute force)."""
    n, total, best = len(hosts), sum(hosts), None
    for mask in range(1 << (n - 1)):  # switch n-1 always on side 0: each partition once
        if 2 * sum(h for s, h in enumerate(hosts) if mask >> s & 1) != total:
            continue
        cut = sum(1 for a, b in links if (mask >> a & 1) != (mask >> b & 1))
        best = cut if best is None else min(best, cut)
    return best


def seed002_topologies(tag, topo, route, prefix):
    """Seed 002's networks of dual 8-way boxes (sanfab-topo dual8, parpar): hosts, links, ports and bisection."""
    cases = [(["dual8", "--bisection", str(b)], 16, b, None) for b in (1, 2, 4, 5, 6, 9)]
    cases += [(["parpar"], 16, 4, 8), (["parpar", "--boxes", "3"], 18, 9, 15)]
    for args, nhosts, bis, nlinks in cases:
        path = os.path.join(TMP, prefix + "-".join(args[:1] + args[2:]) + ".topo")
        rc, _, err = run([topo] + args + ["-o", path])
        rc2, out2, err2 = run([topo, "check", path])
        ok = rc == 0 and rc2 == 0 and ": ok:" in out2 and "seed" not in err
        got = (None, None)
        if ok:
            hosts, links, ports = parse_topo(path)
            got = (sum(hosts), bisection(hosts, links))
            ok = got == (nhosts, bis) and all(p == 8 for p in ports) and len(ports) in (4, 6)
            ok = ok and (nlinks is None or len(links) == nlinks == sum(ports) // 2 - nhosts // 2)  # every port used
        result(ok, f"{tag} sanfab-topo {' '.join(args)}: {nhosts} hosts on crossbars of 8 ports, bisection {bis} links",
               f"hosts, bisection = {got} {err}{err2}")
    # Fig. 6 left: on the test cluster, FM's first route between hosts i and i + 8 is the direct link of their two
    # crossbars (two links carry the 4 pairs each); the second leaves by another link
    tp = os.path.join(TMP, prefix + "parpar.topo")
    rp = os.path.join(TMP, prefix + "parpar.routes")
    rc, _, err = run([route, "fm", tp, "--deadlock", "none", "--allow-deadlock", "-o", rp])
    r = {}
    if rc == 0:
        for line in open(rp):
            w = line.split()
            if w and w[0] == "route":
                r[(int(w[1]), int(w[2]), int(w[3]))] = w[5:]
    ok = rc == 0 and all(len(r[(i, i + 8, 0)]) == 2 and len(r[(i, i + 8, 1)]) == 3 and r[(i, i + 8, 0)][0] != r[(i, i + 8, 1)][0]
                         for i in range(8))
    result(ok, f"{tag} fm on the parpar cluster: hosts i and i + 8 on one direct link, the second route 2 hops by another", err)
    for args, want, code in ((["dual8", "--bisection", "3"], "bisection 3 not one of", 1),
                             (["parpar", "--boxes", "4"], "boxes must be 2", 1),
                             (["dual8", "--boxes", "2"], "--boxes is not an option of dual8", 2)):
        rc, _, err = run([topo] + args)
        result(rc == code and want in err, f"{tag} sanfab-topo {' '.join(args)} refused", f"rc={rc} {err}")


def tree_paths(path):
    """{(box, host): port} of a tree-shaped topology file: the port of box leading on the unique path to the host
    (the host's own port on its box), found by a search over the links, independent of the library."""
    adj, hosts = {}, {}
    with open(path) as f:
        for line in f:
            w = line.split("#")[0].split()
            if w and w[0] == "switch":
                adj.setdefault(int(w[1]), [])
            elif w and w[0] == "host":
                s, p = (int(x) for x in w[2].split(":"))
                hosts[int(w[1])] = (s, p)
            elif w and w[0] == "link":
                (a, pa), (b, pb) = ((int(x) for x in e.split(":")) for e in w[1:3])
                adj[a].append((pa, b))
                adj[b].append((pb, a))
    want = {}
    for x in adj:
        first = {x: None}  # box -> the port of x the search left by to reach it
        queue = [x]
        for y in queue:
            for p, z in adj[y]:
                if z not in first:
                    first[z] = p if y == x else first[y]
                    queue.append(z)
        for h, (s, p) in hosts.items():
            want[(x, h)] = p if s == x else first[s]
    return want


def tree_tools(tag, topo, route, prefix):
    """Issue 27: sanfab-topo tree (trees of Maestro switch boxes) and the Maestro tables of updown on them: every box's
    entry for every host is the port on the unique tree path."""
    shapes = [["--levels", "1"], ["--levels", "1", "--ports", "4", "--hosts", "3"]]
    shapes += [["--levels", str(k), "--fanout", str(f)] for k in (2, 3) for f in (2, 3)]
    shapes += [["--levels", "3", "--fanout", "3", "--ports", "4", "--hosts", "2"]]
    for args in shapes:
        name = "-".join(a.lstrip("-") for a in args)
        tp = os.path.join(TMP, f"{prefix}tree-{name}.topo")
        mp = os.path.join(TMP, f"{prefix}tree-{name}.maestro")
        rc, _, err = run([topo, "tree"] + args + ["-o", tp])
        rc2, out2, err2 = run([topo, "check", tp])
        rc3, _, err3 = run([route, "updown", tp, "--maestro", mp, "-o", os.path.join(TMP, f"{prefix}tree-{name}.routes")])
        got, head = {}, []
        if rc3 == 0:
            box = None
            for line in open(mp):
                w = line.split()
                if len(head) < 3:
                    head.append(line.strip())
                if w and w[0] == "switch":
                    box = int(w[1])
                elif w and w[0] == "dst":
                    got[(box, int(w[1]))] = int(w[3])
        want = tree_paths(tp) if rc == 0 else {}
        bad = [f"box {x} host {h}: {got.get((x, h))}, want {p}" for (x, h), p in sorted(want.items()) if got.get((x, h)) != p]
        bad += [f"box {x} host {h}: extra entry" for (x, h) in got if (x, h) not in want]
        nsw = len({x for x, _ in want})
        nhost = len({h for _, h in want})
        ok = rc == rc2 == rc3 == 0 and ": ok:" in out2 and "seed" not in err and not bad and want and \
            head[2:] == [f"switches {nsw} hosts {nhost}"]
        result(ok, f"{tag} sanfab-topo tree {' '.join(args)}: updown --maestro tables give every box the port of the tree path "
               f"to every host ({len(want)} entries)", f"{err}{err2}{err3} {'; '.join(bad[:5])}")
    # a tree written by hand: the root by its level hint (box 2), links on any ports
    tp = write(os.path.join(TMP, prefix + "tree-hand.topo"),
               "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nswitch 2 ports 4 level 0\nswitch 3 ports 4\n"
               "switch 4 ports 4\nhost 0 0:0\nhost 1 3:1\nhost 2 4:3\nhost 3 2:3\nhost 4 1:0\nhost 5 3:3\n"
               "link 2:0 0:2\nlink 1:1 2:1\nlink 3:0 0:1\nlink 4:2 0:3\n")
    mp = os.path.join(TMP, prefix + "tree-hand.maestro")
    rc, _, err = run([route, "updown", tp, "--maestro", mp])
    got = {}
    box = None
    for line in open(mp) if rc == 0 else []:
        w = line.split()
        if w and w[0] == "switch":
            box = int(w[1])
        elif w and w[0] == "dst":
            got[(box, int(w[1]))] = int(w[3])
    result(rc == 0 and got == tree_paths(tp), f"{tag} updown --maestro on a tree written by hand: the ports of the tree paths",
           err)
    # refusals: the generator's (exit 1) and the command line's (exit 2)
    for args, want, code in ((["--levels", "3", "--fanout", "8"], "fanout 8 does not fit on an inner box of 8 ports", 1),
                             (["--levels", "2", "--hosts", "8"], "8 hosts do not fit on a leaf box of 8 ports", 1),
                             (["--levels", "7"], "levels must be 1..6, got 7", 1),
                             (["--levels", "1", "--fanout", "2"], "--fanout has no use with --levels 1", 1),
                             ([], "tree needs --levels K (1..6)", 2),
                             (["--levels", "2", "--dim", "2"], "--dim is not an option of tree", 2)):
        rc, _, err = run([topo, "tree"] + args)
        result(rc == code and want in err, f"{tag} sanfab-topo {' '.join(['tree'] + args)} refused (exit {code})", f"rc={rc} {err}")
    # a host declared on two boxes: the second declaration's line, and the first's
    two = write(os.path.join(TMP, prefix + "tree-host2.topo"),
                "sanfab-topology 1\nswitch 0 ports 4\nswitch 1 ports 4\nlink 0:3 1:3\nhost 0 0:0\nhost 1 0:1\nhost 1 1:0\n")
    rc, _, err = run([topo, "check", two])
    result(rc == 1 and f"{two}:7: host 1 declared twice (first at line 6)" in err,
           f"{tag} sanfab-topo check: a host on two boxes names both lines", err)


def issue12_tools(tag, topo, route, files, prefix):
    """Issue 12: ITB fallbacks, header promises checked, command line, LASH limits."""
    # 1. ITB fallback: 5-switch ring, no host on switch 3
    ring = os.path.join(TMP, prefix + "ring5.topo")
    write(ring, RING5 + "host 0 0:0\nhost 1 1:0\nhost 2 2:0\nhost 3 4:0\n")
    rpath = os.path.join(TMP, prefix + "ring5.routes")
    rc, out, err = run([route, "itb", ring, "-o", rpath, "--json"])
    try:
        js = json.loads(out)
    except ValueError:
        js = {}
    hdr = open(rpath).read() if rc == 0 else ""
    result(rc == 0 and "warning: itb: 2 host pairs" in err and "host 2 -> host 3 (switch 2 -> switch 4): ITB needed at switch 3" in err
           and "host 3 -> host 2" in err and " 3 (2 pairs)" in err and js.get("itb_fallbacks") == 2 and "fallbacks=2" in hdr
           and "promise minimal" not in hdr, f"{tag} itb fallback on a ring without a host on switch 3: warning names pairs and "
           "switch, count in JSON and header, no minimality promise", err + out)
    rc, out, err = run([route, "itb", ring, "--stats"])
    result(rc == 0 and re.search(r"ITB fallbacks \(up\*/down\*\)\s+2", out) is not None, f"{tag} itb fallback count in --stats", out)
    rc2, _, err2 = run([route, "check", ring, rpath])
    result(rc2 == 0 and "records 2 ITB fallbacks" in err2, f"{tag} check of a file with ITB fallbacks passes and says so", err2)
    r2 = os.path.join(TMP, prefix + "ring5-refuse.routes")
    rc, _, err = run([route, "itb", ring, "--fallback", "refuse", "-o", r2])
    result(rc == 1 and "switch 3, which has no host" in err and "host 2 (switch 2) to host 3 (switch 4)" in err and not os.path.exists(r2),
           f"{tag} itb --fallback refuse fails naming the pair and the switch, writes nothing", err)
    # 2. check verifies the header's promises
    ring_all = os.path.join(TMP, prefix + "ring5all.topo")
    write(ring_all, RING5 + "".join(f"host {i} {i}:0\n" for i in range(5)))
    ud = os.path.join(TMP, prefix + "ring5-ud.routes")
    rc, _, err = run([route, "updown", ring_all, "-o", ud])
    txt = open(ud).read()
    good = "route 2 4 0 : 82 82 82 80" in txt
    write(ud, txt.replace("route 2 4 0 : 82 82 82 80", "route 2 4 0 : 81 81 80"))
    rc, _, err = run([route, "check", ring_all, ud])
    result(good and rc == 1 and "down->up at switch 3" in err and "route 2->4" in err,
           f"{tag} check rejects a down->up route pasted into an up*/down* file (root and tie from the header)", err)
    write(ud, txt.replace("root=-1(top-or-0)", "root=3"))
    rc, _, err = run([route, "check", ring_all, ud])
    result(rc == 1 and "root 3" in err and "down->up" in err, f"{tag} check uses the header's root (same routes, root 3: rejected)", err)
    write(ud, txt.replace(" root=-1(top-or-0)", ""))
    rc, _, err = run([route, "check", ring_all, ud])
    result(rc == 1 and ":2: algorithm updown: root=N missing" in err, f"{tag} an updown header without root is an error naming the line", err)
    dl = os.path.join(TMP, prefix + "ring5-dl.routes")
    rc, _, err = run([route, "dl", ring_all, "--vcs", "2", "-o", dl])
    txt = open(dl).read()
    good = "route 2 4 0 : 81 81 80 | vc 1 0 0" in txt
    write(dl, txt.replace("route 2 4 0 : 81 81 80 | vc 1 0 0", "route 2 4 0 : 81 81 80 | vc 0 1 1"))
    rc, _, err = run([route, "check", ring_all, dl])
    result(good and rc == 1 and "climbs from VC 0 to VC 1" in err, f"{tag} check rejects a DL route whose layer climbs", err)
    write(dl, txt.replace("route 2 4 0 : 81 81 80 | vc 1 0 0", "route 2 4 0 : 81 81 80 | vc 1 1 1"))
    rc, _, err = run([route, "check", ring_all, dl])
    result(rc == 1 and "inside layer 1" in err and "forbids" in err, f"{tag} check rejects a DL route with a forbidden turn inside a layer", err)
    # 3. command line
    rc, out, err = run([route, "--select", "random", "--seed", "4", "updown", "--json", ring_all])
    rc2, out2, _ = run([route, "updown", ring_all, "--json", "--seed", "4", "--select", "random"])
    result(rc == 0 and out == out2 and "seed 4" in err, f"{tag} options before and after the topology", err)
    bad_lines = [
        (["lash", ring_all, "--vcs", "3"], "--vcs is not used except by dl and updown"),
        (["fm", ring_all, "--vcs", "2"], "--vcs is not used except by dl and updown"),
        (["updown", ring_all, "--vcs", "0"], "--vcs needs a whole number in 1..16"),
        (["updown", ring_all, "--vcs", "17"], "--vcs needs a whole number in 1..16"),
        (["itb", ring_all, "--select", "sancho"], "--select is not used by itb"),
        (["lash", ring_all, "--select", "pch"], "lash does not implement --select pch"),
        (["lash", ring_all, "--select", "balanced"], "lash does not implement --select balanced"),
        (["itb", ring_all, "--seed", "-1"], "--seed needs a whole number"),
        (["itb", ring_all, "--seed", "1x"], "--seed needs a whole number"),
        (["updown", ring_all, "--seed", "3"], "--seed is not used"),
        (["dl", ring_all, "--vcs", "0"], "--vcs needs a whole number in 1..16"),
        (["dl", ring_all, "--root", "-1"], "--root needs a whole number"),
        (["updown", ring_all, "--weight", "2"], "--weight is not used"),
        (["updown", ring_all, "--select", "balanced", "--weight", "nan"], "--weight needs a number"),
        (["fm", ring_all, "--deadlock", "layers", "--root", "1"], "--root is not used by fm unless --deadlock itb"),
        (["clos-all", ring_all, "--max-vcs", "3"], "--max-vcs is not used"),
        (["updown", ring_all, "--stats", "--json"], "not both"),
        (["updown", ring_all, "--links"], "--links is not used without"),
        (["updown", ring_all, "--root", "1", "--root", "2"], "--root given twice"),
        (["updown", ring_all, ring_all], "unexpected argument"),
        (["check", ring_all, ud, "--seed", "1"], "--seed is not used by check"),
        (["check", ring_all, ud, "--json"], "--json is not used by check"),
        (["stats", ring_all, ud, "--stats"], "--stats is not used by stats"),
        (["updown", ring_all, "--allow-deadlock"], "--allow-deadlock is not used"),
    ]
    for args, want in bad_lines:
        rc, _, err = run([route] + args)
        result(rc == 2 and want in err, f"{tag} usage error: {' '.join(a if a not in (ring_all, ud) else os.path.basename(a) for a in args)}",
               f"rc={rc} {err}")
    rc, _, err = run([route, "check", ring_all, os.path.join(TMP, prefix + "ring5.routes")])
    rc2, _, err2 = run([route, "check", ring, rpath])
    result("seed" not in err and "seed" not in err2, f"{tag} check prints no seed", err + err2)
    rc, _, err = run([route, "dl", ring_all, "-o", os.path.join(TMP, "no-such-dir", "x.routes")])
    result(rc == 1 and "does not exist" in err and "check:" not in err, f"{tag} output path checked before routing", err)
    rc, _, err = run([route, "dl", ring_all, "-o", ring_all])
    result(rc == 2 and "overwrite the topology" in err, f"{tag} -o may not overwrite the topology", err)
    rc, _, err = run([topo, "cplant", "--k", "3"])
    result(rc == 2 and "--k is not an option of cplant" in err, f"{tag} sanfab-topo: an option the kind does not use is an error", err)
    rc, _, err = run([topo, "random", "--seed", "-1"])
    result(rc == 2 and "--seed needs a whole number" in err, f"{tag} sanfab-topo: --seed -1 rejected", err)
    rc, _, err = run([topo, "mesh", "--seed", "3"])
    result(rc == 2 and "--seed is not an option of mesh" in err, f"{tag} sanfab-topo: mesh takes no seed", err)
    if prefix:
        return
    # every (command, option) pair: used ones work, the others are usage errors (nothing accepted and ignored)
    sweep_ok, sweep_bad = 0, []
    tp = files["random"]
    for alg, used in USED.items():
        for opt, val in VALUES.items():
            args = [route, alg, tp, opt] + ([val] if val is not None else [])
            if opt == "--links":
                args.append("--json")
            if opt in ("--weight",):
                args += ["--select", "balanced"]
            if opt == "--seed" and alg in ("updown", "dl", "lash"):
                args += ["--select", "random"]
            if opt == "--root" and alg == "fm":
                args += ["--deadlock", "itb"]
            if opt == "--max-vcs" and alg == "fm":
                args += ["--deadlock", "layers"]
            if opt == "--seed" and alg == "fm":
                args += ["--map", "random"]
            if opt == "--allow-deadlock" and alg == "fm":
                args += ["--deadlock", "none"]
            cond_used = {("updown", "--weight"), ("dl", "--weight"), ("updown", "--seed"), ("dl", "--seed"), ("lash", "--seed"),
                         ("fm", "--root"), ("fm", "--max-vcs"), ("fm", "--seed"), ("fm", "--allow-deadlock")}
            if opt in ("-o", "--rhinet", "--maestro"):
                args[4] = os.path.join(TMP, f"sweep{opt.replace('-', '_')}")
            expect_ok = opt in used or opt in COMMON or opt == "--links" or (alg, opt) in cond_used
            if (alg, opt) in (("fm", "--rhinet"), ("fm", "--maestro"), ("itb", "--rhinet"), ("itb", "--maestro"),
                              ("dl", "--maestro"), ("lash", "--maestro"), ("updown", "--maestro"), ("clos-all", "--maestro"),
                              ("clos-all", "--rhinet")):
                expect_ok = None  # used, but the tables may refuse this route set (exit 1, never 2)
            rc, _, err = run(args)
            if (expect_ok is None and rc in (0, 1)) or (expect_ok and rc == 0) or (expect_ok is False and rc == 2 and ("not used" in err or "does not implement" in err)):
                sweep_ok += 1
            else:
                sweep_bad.append(f"{alg} {opt}: rc={rc} {err.strip()[-200:]}")
    result(not sweep_bad, f"{tag} option sweep: {sweep_ok} (command, option) pairs, each used or a usage error, none ignored",
           "; ".join(sweep_bad[:5]))
    # 4. LASH: warning above 8 layers, early failure under --max-vcs
    big = os.path.join(TMP, "r256.topo")
    run([topo, "random", "--switches", "256", "--seed", "1", "-o", big])
    rc, _, err = run([route, "lash", big])
    result(rc == 0 and re.search(r"warning: lash needs (9|[1-9]\d) layers, more than the 8 data VLs", err) is not None,
           f"{tag} lash warns when it needs more than 8 layers", err)
    rc, _, err = run([route, "lash", big, "--max-vcs", "3"])
    m = re.search(r"stopped after placing (\d+) paths", err)
    result(rc == 1 and "more than 3 layers needed" in err and m is not None and int(m.group(1)) < 256 * 255 // 4,
           f"{tag} lash --max-vcs 3 fails as soon as one path does not fit (before routing every pair)", err)


def build_alone():
    """Issue 12 item 6: sw/ finds link.h only through the include path (LINK_INC), never by a relative path."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    rel = [f for f in os.listdir(src) if f.endswith((".c", ".h")) and re.search(r'#include\s+"\.\./', open(os.path.join(src, f)).read())]
    inc = os.path.join(TMP, "linkinc")
    os.makedirs(inc, exist_ok=True)
    link_h = os.path.join(src, "..", "..", "cmodel", "link.h")
    ok = False
    err = ""
    if os.path.exists(link_h):
        with open(link_h) as f, open(os.path.join(inc, "link.h"), "w") as g:
            g.write(f.read())
        rc, _, err = run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-I" + src, "-I" + inc, "-c", os.path.join(src, "sf_io.c"),
                          "-o", os.path.join(TMP, "sf_io_alone.o")])
        ok = rc == 0
    result(not rel and ok, "build: no source includes a ../ path; sf_io.c compiles with link.h from another -I directory (LINK_INC)",
           f"relative includes in {rel} {err}")


def cross_check():
    """Independent checker (tests/refcheck.py, written from docs/routing.md) against sanfab-route check."""
    here = os.path.dirname(os.path.abspath(__file__))
    rc, out, err = run([sys.executable, os.path.join(here, "crosscheck.py"), "--build", BUILD, "--topologies", "12", "--seed", "12"],
                       timeout=300)
    last = out.strip().splitlines()[-1] if out.strip() else ""
    result(rc == 0 and "disagreements 0" in last, f"cross-check: refcheck.py and check agree ({last})", (out + err)[-3000:])


def conventions(prefix):
    """The tools' command-line conventions: --version, "did you mean", sanfab-route without -o writes the routes to
    standard output."""
    topo = os.path.join(BUILD, prefix + "sanfab-topo")
    route = os.path.join(BUILD, prefix + "sanfab-route")
    tag = f"[{prefix or 'tools'}conventions]"
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "VERSION")) as f:
        v = f.read().strip()
    for tool, path in (("sanfab-topo", topo), ("sanfab-route", route)):
        rc, out, err = run([path, "--version"])
        result(rc == 0 and out == f"{tool} (sanfab) {v}\n", f"{tag} {tool} --version prints \"{tool} (sanfab) {v}\"",
               out + err)
    t = os.path.join(TMP, "conv8.topo")
    run([topo, "random", "--switches", "8", "--seed", "4", "-o", t])
    cases = [
        ([topo, "random", "--swiches", "8"], "unknown option --swiches (did you mean --switches?)"),
        ([topo, "rando"], "unknown kind \"rando\" (did you mean random?)"),
        ([topo, "random", "--switches", "0"], "--switches needs a whole number in 1..100000"),
        ([route, "itbb", t], "unknown algorithm \"itbb\" (did you mean itb?)"),
        ([route, "dl", t, "--selct", "low"], "unknown option --selct (did you mean --select?)"),
        ([route, "dl", t, "--rule", "uddu"], "unknown --rule uddu (did you mean ud-du?)"),
        ([route, "fm", t, "--deadlock", "layer"], "unknown --deadlock layer (did you mean layers?)"),
        ([route, "dl", t, "--vcs", "17"], "--vcs needs a whole number in 1..16"),
    ]
    for args, want in cases:
        rc, out, err = run(args)
        result(rc == 2 and want in err, f"{tag} {os.path.basename(args[0])} {' '.join(args[1:2] + args[3:])}: {want}",
               f"rc={rc} {err[-300:]}")
    f = os.path.join(TMP, "conv-itb.routes")
    rc1, _, _ = run([route, "itb", t, "--seed", "3", "-o", f])
    rc2, out2, err2 = run([route, "itb", t, "--seed", "3"])
    ok = rc1 == 0 and rc2 == 0 and os.path.exists(f) and out2 == open(f).read() and out2.startswith("sanfab-routes 1")
    result(ok, f"{tag} sanfab-route ALGORITHM TOPOLOGY without -o writes the routes to standard output", err2[-300:])
    rc3, out3, _ = run([route, "itb", t, "--seed", "3", "--json"])
    ok = rc3 == 0 and not out3.startswith("sanfab-routes") and json.loads(out3).get("hosts") == 32
    result(ok, f"{tag} sanfab-route with --json (and no -o) writes the metrics, not the routes, to standard output")


def main():
    t0 = time.time()
    build_alone()
    c_suite(T, BUILD, "test_sw", ["--tmp", TMP], echo="test_sw:")
    c_suite(T, BUILD, "test_sw-san", ["--tmp", TMP, "--quick"], echo="test_sw:")
    tool_tests("")
    tool_tests("san-")
    conventions("")
    conventions("san-")
    cross_check()
    print(f"(sw tests took {time.time() - t0:.1f} s)")
    T.finish()


if __name__ == "__main__":
    main()

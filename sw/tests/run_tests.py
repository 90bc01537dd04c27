#!/usr/bin/env python3
"""Run the sw/ test suite: C unit/property tests (normal and sanitizer builds) and tool-level tests.

usage: run_tests.py BUILD_DIR   (called by `make -C sw test`); the last line is "N passed, M failed".
"""
import json
import os
import re
import subprocess
import sys
import time

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
TMP = os.path.join(BUILD, "tmp")
os.makedirs(TMP, exist_ok=True)
passed = 0
failed = 0


def result(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"PASS {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")
    sys.stdout.flush()


def run(args, timeout=120):
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def c_suite(binary, extra):
    t0 = time.time()
    rc, out, err = run([os.path.join(BUILD, binary), "--tmp", TMP] + extra, timeout=200)
    for line in out.splitlines():
        if line.startswith("PASS ") or line.startswith("FAIL "):
            result(line.startswith("PASS "), f"[{binary}] {line[5:]}")
        elif line.startswith("test_sw:"):
            print(line)
    last = out.strip().splitlines()[-1] if out.strip() else ""
    m = re.match(r"(\d+) passed, (\d+) failed", last)
    result(rc == 0 and m is not None and m.group(2) == "0", f"[{binary}] exits 0 with a summary ({time.time() - t0:.1f} s)",
           f"rc={rc} last={last!r} stderr={err[-2000:]}")


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
    }
    files = {}
    for kind, args in kinds.items():
        path = os.path.join(TMP, f"{prefix}{kind}.topo")
        rc, _, err = run([topo, kind] + args + ["-o", path])
        rc2, out2, err2 = run([topo, "check", path])
        result(rc == 0 and "seed" in err and rc2 == 0 and ": ok:" in out2, f"{tag} sanfab-topo {kind} writes a valid file",
               err + err2)
        files[kind] = path
    algs = [["updown"], ["updown", "--select", "balanced"], ["itb"], ["dl", "--select", "sancho"],
            ["dl", "--rule", "lturn", "--select", "pch"], ["fm", "--map", "random"], ["lash"], ["clos-all", "--max-alt", "4"]]
    for kind in ("random", "torus", "clos", "cplant"):
        if prefix and kind == "cplant":
            continue
        for alg in algs:
            rpath = os.path.join(TMP, f"{prefix}{kind}.routes")
            rc, out, err = run([route, alg[0], files[kind]] + alg[1:] + ["-o", rpath, "--json"])
            ok = rc == 0 and "deadlock-free" in err and "seed" in err
            try:
                js = json.loads(out)
                ok = ok and js["routes"] > 0 and "avg_hops" in js and "max_link_routes" in js
            except ValueError:
                ok = False
            rc2, _, err2 = run([route, "check", files[kind], rpath])
            result(ok and rc2 == 0, f"{tag} sanfab-route {' '.join(alg)} on {kind}: computed, checked, file re-checked",
                   (err + err2)[-1500:])
    # tables
    rc, _, err = run([route, "dl", files["random"], "--rhinet", os.path.join(TMP, prefix + "r.rhinet")])
    txt = open(os.path.join(TMP, prefix + "r.rhinet")).read() if rc == 0 else ""
    result(rc == 0 and txt.startswith("sanfab-rhinet 1") and "\n  tag " in txt and "\n  vc " in txt,
           f"{tag} RHiNET tables written for DL", err)
    rc, _, err = run([route, "updown", files["clos"], "--maestro", os.path.join(TMP, prefix + "c.maestro")])
    result(rc == 0, f"{tag} Maestro tables written for up*/down* on a Clos", err)
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


def main():
    t0 = time.time()
    c_suite("test_sw", [])
    c_suite("test_sw-san", ["--quick"])
    tool_tests("")
    tool_tests("san-")
    print(f"(sw tests took {time.time() - t0:.1f} s)")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
